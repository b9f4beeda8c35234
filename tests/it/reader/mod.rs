//! The reader wing: what a reader of the lists, exports and pages sees: what is
//! current, fields in the reader's language, open days, places, long events.

mod current;
mod fields;
mod long_events;
mod open_days;
mod places;
