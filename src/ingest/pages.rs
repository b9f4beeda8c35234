//! Paged feeds (`adapter::Paging`): what the run keeps of each page it
//! fetched, and whether another page is to be asked. A page is one request
//! through the polite scheduler like any feed (the host's delay and daily
//! cap hold for each, P8); the pages of a feed are taken in together, in
//! one transaction, only once the last one came (a short page): a failed
//! page, or a feed still full at the bound, takes nothing in and so
//! withdraws nothing (P20).
//!
//! Each page asks conditionally (P12) with the validators kept under its
//! own URL, and the number of records it held when it was taken in: a 304
//! (or the same body) is that page as it was, so as full as it was, and
//! the next page is asked the same way. A 304 on the first page does not
//! end the feed: a change may land on any page. Every page as last time is
//! the feed unchanged (nothing written but the fetch log); when some page
//! changed, the pages that answered 304 are asked again in full, since no
//! raw body is kept between runs (a feed may carry contact data, P5), and
//! the feed is taken in whole.
//!
//! What a paged read keeps is bounded: each page is parsed as it comes and
//! only its records are kept, never its body (one page's body at a time on
//! the disk), and the pages' bodies together are held to the cap of one
//! feed's body; past it the feed fails, saying so.
//!
//! Not for: building page URLs (`adapter::Paging`), sending requests
//! (`http`), or storing (`store::ingest`).

use super::fetched::{Content, Fetched, PageRecords};
use crate::adapter::{Adapter, Feed, Paging};
use crate::http::{Body, FetchOutcome, FetchReporter, FetchRequest, FetchResult};
use crate::records::parse_feed;
use crate::store::Store;
use crate::store::fetchlog::Validators;

/// The feed a paged read is of: its adapter, and its index in the manifest.
#[derive(Clone, Copy)]
pub(super) struct FeedAt {
    pub(super) adapter: &'static dyn Adapter,
    pub(super) index: usize,
}

impl FeedAt {
    fn feed(&self) -> &'static Feed {
        &self.adapter.manifest().feeds[self.index]
    }
}

/// Where a paged feed's read stands in this run.
pub(super) struct PagedRead {
    /// The page to ask next in the first pass.
    page: u32,
    /// Pages that answered as last time (304, or the same body).
    unchanged: Vec<u32>,
    /// Whether one of them was a 304.
    not_modified: bool,
    /// Whether some page came back changed.
    changed: bool,
    /// The feed's last page (a short one), once known.
    last: Option<u32>,
    /// Pages to ask again in full because another page changed, in order.
    again: Vec<u32>,
    /// The pages' bodies read so far, in bytes.
    bytes: u64,
    /// The most a paged feed's pages may come to together, in bytes: the
    /// cap of one body (`Limits::max_body_bytes`).
    cap: u64,
}

impl PagedRead {
    /// No page read yet; the pages together hold at most `cap` bytes.
    pub(super) fn new(cap: u64) -> PagedRead {
        PagedRead { page: 0, unchanged: Vec::new(), not_modified: false, changed: false, last: None, again: Vec::new(), bytes: 0, cap }
    }

    /// Back to no page read, for the next paged feed (the cap kept).
    fn restart(&mut self) {
        *self = PagedRead::new(self.cap);
    }

    /// The page to ask next, and whether it is asked again in full (no
    /// validators: its body is needed to take the feed in).
    pub(super) fn next(&self) -> (u32, bool) {
        match self.again.first() {
            Some(page) => (*page, true),
            None => (self.page, false),
        }
    }
}

/// What a page that came back means for the feed.
pub(super) enum Paged {
    /// Another page is to be asked: nothing more to do now.
    Asking,
    /// Every page is at hand (in `bodies`): take the feed in.
    Read,
    /// Every page answered 304 or the same body as last time: the feed is
    /// unchanged (why, in words).
    AsLastTime(String),
    /// Not a paged feed, or the feed failed: this is its outcome.
    Outcome(Box<FetchResult>),
}

/// What one page's record count says of the feed.
enum PageVerdict {
    /// A full page: ask the next one.
    More,
    /// A short page: the feed is whole.
    Last,
    /// The feed is still full at the bound: not taken in (why).
    Fail(String),
}

fn judge(feed: &Feed, records: u64, page: u32) -> PageVerdict {
    let Paging::LimitOffset { size, max_pages, .. } = feed.paging else { return PageVerdict::Last };
    if records < u64::from(size) {
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

impl PagedRead {
    /// A page of a paged feed came back (a feed not paged passes through
    /// as its outcome): another page is asked, or the feed is read whole,
    /// or it is as last time, or it failed (none of its pages taken in).
    pub(super) fn came(
        &mut self,
        at: FeedAt,
        store: &Store,
        req: &FetchRequest,
        mut result: FetchResult,
        bodies: &mut Vec<Fetched>,
        reporter: &mut dyn FetchReporter,
    ) -> Paged {
        let feed = at.feed();
        if feed.paging == Paging::Whole {
            return Paged::Outcome(Box::new(result));
        }
        let (page, again) = self.next();
        let url = req.url.to_string();
        let came = match std::mem::replace(&mut result.outcome, FetchOutcome::Failed(String::new())) {
            FetchOutcome::Body { body, validators, .. } => self.page_came(at, page, url.clone(), (*body, *validators), bodies),
            as_before @ (FetchOutcome::NotModified | FetchOutcome::Unchanged) if !again => {
                self.not_modified |= matches!(as_before, FetchOutcome::NotModified);
                self.page_as_last_time(store, feed, page, &url)
            }
            FetchOutcome::NotModified | FetchOutcome::Unchanged => Err(format!(
                "{url}: answered as unchanged to a request without validators; nothing of the feed is taken in, will retry next run"
            )),
            other => {
                result.outcome = other;
                Err(String::new())
            }
        };
        let verdict = match came {
            Ok(verdict) => verdict,
            Err(why) => return self.page_failed(at, page, result, why, bodies),
        };
        if again {
            // A page asked again in full must be as full as it was: else the
            // feed moved between two requests of this run.
            let short = matches!(verdict, PageVerdict::Last);
            if short != (self.last == Some(page)) {
                let why = format!(
                    "{url}: page {} changed between two requests of this run (a page that was {} came back {}); nothing of the \
                     feed is taken in, the next run reads it again",
                    page + 1,
                    if short { "full" } else { "short" },
                    if short { "short" } else { "full" },
                );
                return self.page_failed(at, page, result, why, bodies);
            }
            self.again.remove(0);
            return if self.again.is_empty() { self.pages_read(bodies) } else { Paged::Asking };
        }
        match verdict {
            PageVerdict::More => {
                self.page = page + 1;
                Paged::Asking
            }
            PageVerdict::Fail(why) => self.page_failed(at, page, result, why, bodies),
            PageVerdict::Last => {
                self.last = Some(page);
                self.pass_over(at, store, bodies, reporter)
            }
        }
    }

    /// A page's body: parsed now, its records kept, its body let go.
    fn page_came(
        &mut self,
        at: FeedAt,
        page: u32,
        url: String,
        (mut body, validators): (Body, Validators),
        bodies: &mut Vec<Fetched>,
    ) -> Result<PageVerdict, String> {
        let feed = at.feed();
        self.bytes += body.len;
        if self.bytes > self.cap {
            return Err(format!(
                "{}: its pages come to {} bytes by page {}, over the {} bytes one feed's body may hold; nothing of the feed is \
                 taken in (P20); if the feed has grown this large, review the adapter's page size and max_pages",
                feed.url,
                self.bytes,
                page + 1,
                self.cap
            ));
        }
        let mut records = PageRecords::default();
        let read = body
            .reader()
            .map_err(|e| format!("reading the spooled body: {e}"))
            .and_then(|mut reader| parse_feed(at.adapter, feed, &mut reader, &mut records).map_err(|e| e.to_string()));
        if let Err(why) = read {
            return Err(format!("{url}: page {} of the feed cannot be read: {why}; nothing of the feed is taken in", page + 1));
        }
        let count = records.count() as u64;
        let verdict = judge(feed, count, page);
        self.changed = true;
        let validators = Validators { records: Some(count), ..validators };
        let digest = body.digest.clone();
        drop(body);
        bodies.push(Fetched { feed: at.index, page, url, content: Content::Records(records), digest, validators });
        Ok(verdict)
    }

    /// A page answered 304 or the same body: as full as when it was taken in.
    fn page_as_last_time(&mut self, store: &Store, feed: &Feed, page: u32, url: &str) -> Result<PageVerdict, String> {
        let records = store.validators(url).ok().and_then(|v| v.records).ok_or_else(|| {
            format!(
                "{url}: answered as unchanged, but how many records this page held was not kept; nothing of the feed is taken \
                 in, the next run asks it in full"
            )
        })?;
        self.unchanged.push(page);
        Ok(judge(feed, records, page))
    }

    /// The first pass over the pages reached the last one.
    fn pass_over(&mut self, at: FeedAt, store: &Store, bodies: &mut Vec<Fetched>, reporter: &mut dyn FetchReporter) -> Paged {
        let feed = at.feed();
        let pages = self.last.map_or(0, |l| l + 1);
        if !self.changed {
            let how = if self.not_modified { "answered 304 or the same body as last time" } else { "held the same body as last time" };
            self.restart();
            return Paged::AsLastTime(format!("{}: every page ({pages}) {how}", feed.url));
        }
        if !self.unchanged.is_empty() {
            // Their bodies are needed to take the feed in whole: asked again
            // in full, in order.
            self.again = std::mem::take(&mut self.unchanged);
            return Paged::Asking;
        }
        // Every page came with its body, each the body taken in last time
        // (asked without validators: their record counts were not kept yet):
        // nothing to take in; the counts are kept, so the next run asks
        // each page conditionally.
        let mine: Vec<&Fetched> = bodies.iter().filter(|f| f.feed == at.index).collect();
        if mine.iter().all(|f| f.as_last_time(store)) {
            for f in &mine {
                f.remember(store, reporter);
            }
            bodies.retain(|f| f.feed != at.index);
            self.restart();
            return Paged::AsLastTime(format!("{}: every page ({pages}) held the same body as last time", feed.url));
        }
        self.pages_read(bodies)
    }

    /// Every page of the feed is at hand, in order.
    fn pages_read(&mut self, bodies: &mut [Fetched]) -> Paged {
        bodies.sort_by_key(|f| (f.feed, f.page));
        self.restart();
        Paged::Read
    }

    /// A page failed: the feed fails, none of its pages is taken in (P20).
    fn page_failed(&mut self, at: FeedAt, page: u32, mut result: FetchResult, why: String, bodies: &mut Vec<Fetched>) -> Paged {
        let feed = at.feed();
        bodies.retain(|f| f.feed != at.index);
        self.restart();
        if !why.is_empty() {
            result.outcome = FetchOutcome::Failed(why);
        } else if page > 0
            && let FetchOutcome::Failed(w) = &result.outcome
        {
            result.outcome = FetchOutcome::Failed(format!("page {} of {}: {w}; nothing of the feed is taken in", page + 1, feed.url));
        }
        Paged::Outcome(Box::new(result))
    }
}
