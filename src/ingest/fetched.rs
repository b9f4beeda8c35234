//! One feed fetched in this run, as the run holds it until it is taken in:
//! a whole feed's spooled body, or one page's records (parsed as the page
//! came, its body let go); and what the store remembers of the body taken
//! in last time from its URL (validators and digest, P12).
//!
//! Not for deciding what to ask next (`plan`, `pages`), parsing rules
//! (`records`), or storing events (`take_in`, `store::ingest`).

use crate::adapter::{Adapter, EventSink, Feed, FeedError, RecordError};
use crate::http::{Body, FetchReporter};
use crate::model::Event;
use crate::records::parse_feed;
use crate::store::Store;
use crate::store::fetchlog::Validators;

/// What a fetch brought of a feed.
pub(super) enum Content {
    /// A whole feed's body, spooled; parsed when it is taken in.
    Body(Body),
    /// A page's records, parsed as the page came; its body is gone.
    Records(PageRecords),
}

/// One feed fetched in this run: a whole feed's body, or one page's records.
pub(super) struct Fetched {
    /// The feed's index in the manifest.
    pub(super) feed: usize,
    /// The page (0 for a feed not paged): a feed's pages are taken in in order.
    pub(super) page: u32,
    /// The URL asked (a page's URL for a paged feed): its validators and
    /// last body digest are kept under it (P12).
    pub(super) url: String,
    pub(super) content: Content,
    /// The body's digest ([`Body::digest`]).
    pub(super) digest: String,
    pub(super) validators: Validators,
}

impl Fetched {
    /// A whole feed's body.
    pub(super) fn whole(feed: usize, url: String, body: Body, validators: Validators) -> Fetched {
        Fetched { feed, page: 0, url, digest: body.digest.clone(), content: Content::Body(body), validators }
    }

    /// Hand the feed's records to `sink`: a body is parsed now, a page's
    /// records go as they were read (already through the record framework).
    pub(super) fn feed_into(&mut self, adapter: &dyn Adapter, feed: &Feed, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        match &mut self.content {
            Content::Body(body) => {
                let mut reader = body.reader().map_err(|e| FeedError::new(format!("reading the spooled body: {e}")))?;
                parse_feed(adapter, feed, &mut reader, sink)
            }
            Content::Records(page) => {
                page.replay(sink);
                Ok(())
            }
        }
    }

    /// Whether this body is the one taken in last time from its URL (P12).
    pub(super) fn as_last_time(&self, store: &Store) -> bool {
        store.validators(&self.url).ok().and_then(|v| v.body_digest).as_deref() == Some(self.digest.as_str())
    }

    /// Remember this body, taken in, by its validators, for the next
    /// request (P12). A failure costs only a full download next time:
    /// said, and the run goes on.
    pub(super) fn remember(&self, store: &Store, reporter: &mut dyn FetchReporter) {
        crate::http::keep_validators(store, &self.url, &self.validators, reporter);
    }
}

/// A page's records and warnings as the record framework handed them out.
#[derive(Default)]
pub(super) struct PageRecords {
    records: Vec<Result<Event, RecordError>>,
    /// Warnings, each with whether it is a point outside the region.
    warnings: Vec<(bool, RecordError)>,
}

impl EventSink for PageRecords {
    fn push(&mut self, record: Result<Event, RecordError>) {
        self.records.push(record);
    }
    fn warning(&mut self, warning: RecordError) {
        self.warnings.push((false, warning));
    }
    fn outside_region(&mut self, warning: RecordError) {
        self.warnings.push((true, warning));
    }
}

impl PageRecords {
    /// How many records the page held (errors counted).
    pub(super) fn count(&self) -> usize {
        self.records.len()
    }

    /// Hand every record, then every warning, to `sink`, each in the order read.
    fn replay(&mut self, sink: &mut dyn EventSink) {
        for r in self.records.drain(..) {
            sink.push(r);
        }
        for (outside, w) in self.warnings.drain(..) {
            if outside { sink.outside_region(w) } else { sink.warning(w) }
        }
    }
}
