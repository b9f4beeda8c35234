//! cityvibe: the toolkit behind CityVibe's catalogue of cultural events.
//!
//! Adapters (outside `src/`, in `adapters/`) turn feed bytes into events; the
//! polite client (`http`) is the only code that touches the network; `store`
//! is the only code that touches SQLite; `ingest` runs a whole crawl.

pub mod adapter;
pub mod model;
pub mod parse;
pub mod translate;

#[path = "../adapters/mod.rs"]
pub mod adapters;
