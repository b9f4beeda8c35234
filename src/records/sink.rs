//! What a parser hands out: each record's event or error, warnings, and
//! the error of a feed that cannot be read at all. The vocabulary shared by
//! the record drivers here and every adapter (re-exported by `adapter`), so
//! that the framework needs nothing from the adapter interface above it.
//!
//! Not for scrubbing or capping (`records::framed`) nor for storing
//! (`ingest`'s sinks).

use crate::model::Event;

/// A problem with one record: counted and reported, never fatal to the feed.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordError {
    /// The record's id when known, else its position in the feed.
    pub record: String,
    pub reason: String,
    /// The source's id of the event, when it could be read from the record
    /// that failed: its stored event is kept as it is, neither updated nor
    /// withdrawn, since the feed still lists it.
    pub id: Option<String>,
}

impl RecordError {
    /// `record` may be empty: the record driver then names the record by its
    /// position in the feed.
    pub fn new(record: impl Into<String>, reason: impl Into<String>) -> RecordError {
        RecordError { record: record.into(), reason: reason.into(), id: None }
    }

    /// This error, of a record whose event id `id` could be read (none when
    /// `id` is blank).
    pub fn with_id(mut self, id: Option<&str>) -> RecordError {
        self.id = id.map(str::trim).filter(|id| !id.is_empty()).map(str::to_string);
        self
    }

    /// This error, named by `name()` when it has no name of its own.
    pub fn or_name(mut self, name: impl FnOnce() -> String) -> RecordError {
        if self.record.trim().is_empty() {
            self.record = name();
        }
        self
    }
}

/// A feed that cannot be read at all (not JSON, truncated, wrong shape).
#[derive(Debug, Clone, PartialEq)]
pub struct FeedError(pub String);

impl std::fmt::Display for FeedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FeedError {}

impl FeedError {
    pub fn new(msg: impl Into<String>) -> FeedError {
        FeedError(msg.into())
    }
}

/// Where a parser puts what it finds. The core's sink scrubs and stores.
pub trait EventSink {
    /// One record's outcome: its event, or why it has none. A bad record
    /// is counted and reported, never fatal to the feed.
    fn push(&mut self, record: Result<Event, RecordError>);
    /// Something read leniently or cut (an invalid escape, a field over its
    /// cap): the record is kept, the warning reported, not counted as an
    /// error. The core's sinks report them; a sink that only counts events
    /// may ignore them.
    fn warning(&mut self, warning: RecordError) {
        let _ = warning;
    }
    /// A venue's point outside the source's region, dropped by the record
    /// framework (the event is kept without it): a warning, which a sink
    /// that counts them (`adapter check`) may count apart.
    fn outside_region(&mut self, warning: RecordError) {
        self.warning(warning);
    }
    /// A record repeated the id of an earlier record of the feed and was
    /// merged into its event before it reached the store (an adapter that
    /// gathers a publisher's one-record-per-date lists): counted as the
    /// store counts the repeats it merges itself, so `merged` is honest.
    fn merged_repeat(&mut self) {}
}
