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

use super::{SourceDriver, all_as_last_time, as_last_time};
use crate::adapter::{Adapter, EventSink, Feed, Paging, RecordError};
use crate::http::{Body, FetchOutcome, FetchRequest, FetchResult};
use crate::model::Event;
use crate::records::parse_feed;
use crate::store::Store;
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
enum PageVerdict {
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
fn judge_page(adapter: &dyn Adapter, feed: &Feed, page: u32, url: &str, body: &mut Body) -> PageVerdict {
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

impl SourceDriver {
    /// A page of a paged feed came back: another page is asked (`None`:
    /// nothing more to do now), or the feed's last page, or a page that
    /// failed, goes on as the feed's outcome (with every earlier page of
    /// the feed in `bodies` when it is the last; with none when it failed).
    pub(super) fn paged(&mut self, store: &Store, req: &FetchRequest, mut result: FetchResult) -> Option<FetchResult> {
        let feed_index = self.current;
        let feed = &self.adapter.manifest().feeds[feed_index];
        if feed.paging == Paging::Whole {
            return Some(result);
        }
        let page = std::mem::take(&mut self.page);
        let verdict = match &mut result.outcome {
            FetchOutcome::Body { body, .. } => judge_page(self.adapter, feed, page, req.url.as_str(), body),
            _ => PageVerdict::Fail(String::new()),
        };
        match verdict {
            PageVerdict::More => {
                let FetchOutcome::Body { body, validators, .. } = result.outcome else { unreachable!("judged a body") };
                self.bodies.push(Fetched { feed: feed_index, url: req.url.to_string(), body: *body, validators });
                self.page = page + 1;
                None
            }
            PageVerdict::Last => {
                // Every page as last time: nothing to take in (P12), as for a
                // feed answered with the same body.
                if let FetchOutcome::Body { body, .. } = &result.outcome
                    && as_last_time(store, req.url.as_str(), &body.digest)
                    && all_as_last_time(store, self.bodies.iter().filter(|f| f.feed == feed_index))
                {
                    self.bodies.retain(|f| f.feed != feed_index);
                    result.outcome = FetchOutcome::Unchanged;
                }
                Some(result)
            }
            PageVerdict::Fail(why) => {
                // A page that failed fails the feed: none of its pages is taken in (P20).
                self.bodies.retain(|f| f.feed != feed_index);
                if !why.is_empty() {
                    result.outcome = FetchOutcome::Failed(why);
                } else if page > 0 {
                    result.outcome = match result.outcome {
                        FetchOutcome::Failed(w) => {
                            FetchOutcome::Failed(format!("page {} of {}: {w}; nothing of the feed is taken in", page + 1, feed.url))
                        }
                        other => other,
                    };
                }
                Some(result)
            }
        }
    }
}
