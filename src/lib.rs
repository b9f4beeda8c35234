//! cityvibe: the toolkit behind CityVibe's catalogue of cultural events.
//!
//! Adapters (outside `src/`, in `adapters/`) turn feed bytes into events; the
//! polite client (`http`) is the only code that fetches from publishers (the
//! APy translation backend talks to the operator's own translation server); `store`
//! is the only code that touches SQLite; `ingest` runs a whole crawl.
//!
//! The layers, each importing only from those before it (no import cycle
//! between these modules):
//! - leaves: `lang` (the display languages), `lang_data` (the word lists
//!   and rules of `data/lang/`), `vocab` (stored spellings),
//!   `error` (exit statuses, the usage error, the run lock's refusal),
//!   `spawn` (every thread and child process, a refusal an error),
//!   `times` (how a stored time is written in JSON), `policy` (the limits
//!   the operator may tune), `clock` (the one clock, handed in: the
//!   machine's, or a test's simulated one);
//! - `http`, the polite client, on the leaves alone: whoever watches a
//!   fetch (the `-v` request lines, the run's spinner) implements its
//!   `FetchReporter` and hands it in (`commands::progress`), and whoever
//!   runs it hands in its `FetchLog` (the store implements it);
//! - `i18n` (the message catalogues), then `model` (an event and its
//!   parts; a category's label is the catalogue's);
//! - shared helpers: `parse` (texts, dates, the PII scrub), `correction`;
//! - the record framework `records`, the adapter interface `adapter` above
//!   it, the adapters and `adapter_tools` above that;
//! - `config` (sources.toml) and `store` (SQLite), side by side;
//! - readers of both: `citation`, `shown` (what a reader is shown of a
//!   stored event), `export`, and `output`, the printer;
//! - `schedule`, `translate`, `audit`, `ingest`, `run`, and `operate`
//!   (the operator's use cases: a source's switch, takedowns, corrections,
//!   a translator's import);
//! - on top, `commands` and `cli` (`main.rs` only parses and calls).

// The documentation is built with `--document-private-items` (`make lint`),
// where a public item's link to a private one resolves; keep those links.
#![allow(rustdoc::private_intra_doc_links)]

pub mod adapter;
pub mod adapter_tools;
pub mod audit;
pub mod citation;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;
pub mod correction;
pub mod error;
pub mod export;
pub mod http;
pub mod i18n;
pub mod ingest;
pub mod lang;
pub mod lang_data;
pub mod model;
pub mod operate;
pub mod output;
pub mod parse;
pub mod policy;
pub mod records;
pub mod report;
pub mod run;
pub mod schedule;
pub mod shown;
pub mod spawn;
pub mod store;
pub mod switch_log;
#[cfg(test)]
mod testing;
pub mod times;
pub mod translate;
pub mod vocab;

#[path = "../adapters/mod.rs"]
pub mod adapters;
