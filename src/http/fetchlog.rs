//! The client's one port to where its requests are written down: every
//! request sent is recorded in a [`FetchLog`] before the run goes on (P17),
//! and each URL's validators are read from it and written back to it
//! (P12). The run hands one in (the events store implements it); the
//! client never sees the database behind it.
//!
//! Here too what a request leaves behind, as plain data: its
//! [`FetchRecord`] and the [`Validators`] of its URL. Not for how the log
//! is stored or read back for reports (`store::fetchlog`), nor for the one
//! writer of validators, which says what failed (`validators`).

use crate::vocab::RequestOutcome;
use anyhow::Result;

/// One request as it went on the wire.
#[derive(Debug, Clone)]
pub struct FetchRecord {
    pub run_id: Option<i64>,
    pub source: String,
    pub host: String,
    pub url: String,
    pub started_ms: i64,
    pub duration_ms: i64,
    pub status: Option<u16>,
    pub bytes: u64,
    pub conditional: bool,
    /// What came of it (its one spelling in the `outcome` column: `vocab`).
    pub outcome: RequestOutcome,
}

/// Stored validators of one URL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Validators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The body taken in last time ([`crate::http::client::Body::digest`]).
    pub body_digest: Option<String>,
    /// How many records the page held when it was taken in (a page of a
    /// paged feed only): a page answered 304 is as full as it was (P12).
    pub records: Option<u64>,
}

/// Where the client writes down what it sent and keeps each URL's
/// validators: implemented by whoever runs the client (the events store).
pub trait FetchLog {
    /// Whether a record can be written now: checked before each request,
    /// so that a log that cannot take one is found before the request is
    /// sent, not after (P17).
    fn writable(&self) -> Result<()>;
    /// Record one request sent (P17).
    fn record(&self, r: &FetchRecord) -> Result<()>;
    /// The validators kept for `url` (none kept: the default).
    fn validators(&self, url: &str) -> Result<Validators>;
    /// Keep `v` as the validators of `url`, after a body was taken in or
    /// refreshed by a 304 (P12).
    fn set_validators(&self, url: &str, v: &Validators) -> Result<()>;
}
