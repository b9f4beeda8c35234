//! Paged feeds (`adapter::Paging`): what the run keeps of each page it
//! fetched, and whether another page is to be asked. A page is one request
//! through the polite scheduler like any feed (the host's delay and daily
//! cap hold for each, P8); the pages of a feed are taken in together, in
//! one transaction, only once the last one came (a short page): a failed
//! page, or a feed still full at the bound, takes nothing in and so
//! withdraws nothing (P20).
//!
//! Not for: building page URLs (`adapter::Paging`), sending requests
//! (`http`), or storing (`store::ingest`).

use crate::adapter::{Adapter, EventSink, Feed, Paging, RecordError};
use crate::http::Body;
use crate::model::Event;
use crate::records::parse_feed;
use crate::store::fetchlog::Validators;

/// One body fetched in this run: a feed's, or one page of a paged feed's.
pub(super) struct Fetched {
    /// The feed's index in the manifest.
    pub(super) feed: usize,
    /// The URL asked (a page's URL for a paged feed): its validators and
    /// last body digest are kept under it (P12).
    pub(super) url: String,
    pub(super) body: Body,
    pub(super) validators: Validators,
}

/// What a page that came back means for the feed.
pub(super) enum PageVerdict {
    /// A full page: ask the next one.
    More,
    /// A short page: the feed is whole.
    Last,
    /// The page cannot be read, or the feed is still full at the bound:
    /// the feed is not taken in (why).
    Fail(String),
}

/// Counts the records of a page: events and record errors alike.
#[derive(Default)]
struct Count(u64);

impl EventSink for Count {
    fn push(&mut self, _record: Result<Event, RecordError>) {
        self.0 += 1;
    }
}

/// Read page `page` (0-based) of `feed` from `body` and say whether another
/// page is to be asked. Records are counted through the adapter's own
/// parser, whatever the format.
pub(super) fn judge_page(adapter: &dyn Adapter, feed: &Feed, page: u32, url: &str, body: &mut Body) -> PageVerdict {
    let Paging::LimitOffset { size, max_pages, .. } = feed.paging else { return PageVerdict::Last };
    let mut count = Count::default();
    let read = body
        .reader()
        .map_err(|e| format!("reading the spooled body: {e}"))
        .and_then(|mut reader| parse_feed(adapter, feed, &mut reader, &mut count).map_err(|e| e.to_string()));
    if let Err(why) = read {
        return PageVerdict::Fail(format!("{url}: page {} of the feed cannot be read: {why}; nothing of the feed is taken in", page + 1));
    }
    if count.0 < u64::from(size) {
        return PageVerdict::Last;
    }
    if page + 1 >= max_pages {
        return PageVerdict::Fail(format!(
            "{}: still {size} records on page {max_pages}, the most the manifest lets a run ask for; the feed was not read whole, \
             so nothing of it is taken in (P20); if it has grown, review a larger max_pages (and daily_cap) in the adapter",
            feed.url
        ));
    }
    PageVerdict::More
}
