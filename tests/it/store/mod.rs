//! The store wing (P20): what a feed may withdraw, the typed rows read back,
//! a killed run leaving the old or the new state. Not the reader's view (reader/).

mod crash_safety;
mod ingest;
mod typed_rows;
mod withdraw_guard;
