//! cityvibe: the toolkit behind CityVibe's catalogue of cultural events.
//!
//! Adapters (outside `src/`, in `adapters/`) turn feed bytes into events; the
//! polite client (`http`) is the only code that fetches from publishers (the
//! APy translation backend talks to the operator's own translation server); `store`
//! is the only code that touches SQLite; `ingest` runs a whole crawl.

pub mod adapter;
pub mod adapter_tools;
pub mod audit;
pub mod citation;
pub mod cli;
pub mod commands;
pub mod config;
pub mod correction;
pub mod export;
pub mod http;
pub mod i18n;
pub mod ingest;
pub mod model;
pub mod output;
pub mod parse;
pub mod records;
pub mod report;
pub mod run;
pub mod schedule;
pub mod store;
pub mod switch_log;
pub mod translate;
pub mod vocab;

#[path = "../adapters/mod.rs"]
pub mod adapters;
