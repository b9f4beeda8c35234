//! The Adapter trait and the Manifest an adapter declares.
//!
//! An adapter is data plus a pure parser (docs/ARCHITECTURE.md, "Adapters never do I/O"):
//! it never holds an HTTP client or a database handle, so it cannot skip a
//! delay, follow a redirect, send a cookie or store a field the core does not
//! want. The core fetches the manifest's feed URLs, hands the bytes to
//! [`Adapter::parse`], scrubs what comes out, and stores it.

use crate::model::Event;
pub use crate::parse::geo::BoundingBox;
use std::io::BufRead;
use std::time::Duration;

/// What a human wrote down after reading the host's robots.txt and terms.
#[derive(Debug, Clone, Copy)]
pub struct Manifest {
    /// Fixed source id, also the row name in sources.toml.
    pub id: &'static str,
    /// Human name of the dataset.
    pub name: &'static str,
    /// Who publishes it.
    pub publisher: &'static str,
    /// The one host the feeds live on.
    pub host: &'static str,
    /// The exact feed URLs, in the order they are tried or fetched (P3).
    pub feeds: &'static [Feed],
    /// How the feeds relate: alternatives or parts of one whole.
    pub plan: FetchPlan,
    /// Where a redirect may lead, besides the feed URLs themselves (P13).
    pub redirects: &'static [RedirectRule],
    /// The minimum delay between two requests to the host (P8).
    pub min_delay: Duration,
    /// At most this many requests to the host per day, across runs.
    pub daily_cap: u32,
    /// Language of the original texts (ISO 639-1).
    pub language: &'static str,
    /// Where the source's events are, as WGS84 boxes (a mainland and its
    /// islands): the record framework drops a venue's point outside them,
    /// counts it in the run's report and `adapter check`, and never stores it.
    /// Empty: Spain's outline only (`model::in_spain`).
    pub region: &'static [BoundingBox],
    pub licence: Licence,
    /// The attribution text shown with every event (P19).
    pub attribution: &'static str,
    /// The dataset's page at the publisher.
    pub dataset_page: &'static str,
    /// What the events' `url` leads to: their own page, or (a record with no
    /// page of its own) the publisher's "more information" link; an event
    /// linked to `dataset_page` is shown as linked to the dataset. The reader
    /// is told which.
    pub links: EventLinks,
    /// How often the publisher updates the feed: its first word is one of
    /// [`Frequency`]'s (`continuous`, `hourly`, `daily`, `weekly`, `monthly`,
    /// or their Spanish words), then any note in parentheses, e.g. `"weekly
    /// (the council updates it on Mondays)"`. The public page shows the
    /// frequency in its own language; `adapter check` and the conformance suite
    /// refuse a first word they do not know.
    pub update_schedule: &'static str,
    pub review: Review,
}

/// What a source's events link to ([`Manifest::links`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventLinks {
    /// Each event's own page at the publisher.
    EventPage,
    /// A page the publisher gives for more information (an organiser's
    /// site, a short link), else the dataset page: not the event's own.
    MoreInformation,
}

/// How often a publisher says it updates a feed, read from the manifest's
/// `update_schedule`, whose first word names it (the rest is a reviewer's note).
///
/// ```
/// use cityvibe::adapter::Frequency;
/// assert_eq!(Frequency::of("weekly (on Mondays)"), Frequency::Weekly);
/// assert_eq!(Frequency::of("Semanalmente (los lunes)"), Frequency::Weekly);
/// assert_eq!(Frequency::of("continua"), Frequency::Continuous);
/// assert_eq!(Frequency::of("every now and then"), Frequency::Unstated);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Frequency {
    Continuous,
    Hourly,
    Daily,
    Weekly,
    Monthly,
    /// Not stated, or in words we do not recognise.
    Unstated,
}

impl Frequency {
    /// The first words each frequency is known by, for messages.
    pub const KNOWN: &'static str =
        "continuous, hourly, daily, weekly, monthly (or continua, diaria, semanal, mensual, diariamente, semanalmente, mensualmente)";

    pub fn of(update_schedule: &str) -> Frequency {
        let first = update_schedule.split_whitespace().next().unwrap_or("").to_lowercase();
        match first.trim_matches(|c: char| !c.is_alphanumeric()) {
            "continuous" | "continua" | "continuo" | "continuously" | "continuamente" | "live" => Frequency::Continuous,
            "hourly" | "horaria" | "horario" => Frequency::Hourly,
            "daily" | "diaria" | "diario" | "diariamente" => Frequency::Daily,
            "weekly" | "semanal" | "semanalmente" => Frequency::Weekly,
            "monthly" | "mensual" | "mensualmente" => Frequency::Monthly,
            _ => Frequency::Unstated,
        }
    }
}

/// One feed URL of a manifest.
#[derive(Debug, Clone, Copy)]
pub struct Feed {
    pub url: &'static str,
    pub format: Format,
    /// Language of this feed's texts.
    pub lang: &'static str,
    pub role: FeedRole,
    /// Whether one response holds the whole feed, or the framework asks
    /// page after page ([`Paging`]).
    pub paging: Paging,
}

impl Feed {
    /// The URL of page `page` (0-based) of this feed: its own URL when it
    /// is not paged. The first page is where `--mirror DIR` and the
    /// conformance suite find the feed's sample.
    pub fn page_url(&self, page: u32) -> String {
        self.paging.page_url(self.url, page)
    }
}

/// How a feed is read when one response may not hold it all. The framework
/// (`ingest`) asks for the pages, each one request under the host's delay
/// and daily cap (P8); the adapter's parser reads each page as a feed body.
///
/// ```
/// use cityvibe::adapter::Paging;
/// let soda = Paging::LimitOffset { limit: "$limit", offset: "$offset", size: 1000, max_pages: 30 };
/// let url = "https://analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi";
/// assert_eq!(soda.page_url(url, 0), format!("{url}&$limit=1000&$offset=0"));
/// assert_eq!(soda.page_url(url, 2), format!("{url}&$limit=1000&$offset=2000"));
/// assert_eq!(Paging::Whole.page_url(url, 0), url);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paging {
    /// One response is the whole feed.
    Whole,
    /// Pages asked with a page size and an offset in the query (Socrata's
    /// SODA API: `$limit` and `$offset`). The feed URL carries a stable
    /// order (`$order=codi`), so that no row moves between two pages. The
    /// pages are asked in turn until one holds fewer than `size` records;
    /// a feed still full after `max_pages` pages is not read at all (a
    /// partial read never withdraws anything, P20).
    LimitOffset {
        /// The query parameter of the page size (`$limit`).
        limit: &'static str,
        /// The query parameter of the first record's offset (`$offset`).
        offset: &'static str,
        /// Records per page.
        size: u32,
        /// The most pages one run asks for (each is a request).
        max_pages: u32,
    },
}

impl Paging {
    /// The URL of page `page` (0-based) of the feed at `url`.
    pub fn page_url(self, url: &str, page: u32) -> String {
        match self {
            Paging::Whole => url.to_string(),
            Paging::LimitOffset { limit, offset, size, .. } => {
                let sep = if url.contains('?') { '&' } else { '?' };
                format!("{url}{sep}{limit}={size}&{offset}={}", u64::from(page) * u64::from(size))
            }
        }
    }

    /// The most requests one read of the feed makes.
    pub fn max_requests(self) -> u32 {
        match self {
            Paging::Whole => 1,
            Paging::LimitOffset { max_pages, .. } => max_pages,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv,
    Xml,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Csv => "csv",
            Format::Xml => "xml",
        }
    }
}

/// The part a feed plays in its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedRole {
    /// Carries the original events.
    Primary,
    /// The publisher's own translation of the primary feed's events, matched
    /// by source event id; never creates events of its own.
    Translation,
}

/// How a source's feeds are fetched in one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchPlan {
    /// The feeds are the same data in other formats: fetch the first; only if
    /// that request fails or its body cannot be parsed, try the next.
    FirstThatParses,
    /// Every feed is needed (e.g. one per language).
    All,
}

/// A place a redirect may lead: a host and a path prefix.
#[derive(Debug, Clone, Copy)]
pub struct RedirectRule {
    pub host: &'static str,
    pub path_prefix: &'static str,
}

#[derive(Debug, Clone, Copy)]
pub struct Licence {
    pub name: &'static str,
    pub url: &'static str,
}

/// The human review behind the manifest (P14).
#[derive(Debug, Clone, Copy)]
pub struct Review {
    /// When the review was done (YYYY-MM-DD).
    pub date: &'static str,
    /// What robots.txt said for CityVibeBot and `*`, in the reviewer's words.
    pub robots_txt: &'static str,
    /// SHA-256 (hex) of the robots.txt read at review time, when it was read.
    pub robots_sha256: Option<&'static str>,
    /// Where the personal-data and image fields are, and that they are left out.
    pub notes: &'static str,
    /// Whether a person has read the host's robots.txt for this review.
    pub robots: RobotsReview,
}

/// Whether the host's robots.txt was read when the manifest was written (P3, P14).
///
/// A source whose review is [`RobotsReview::Pending`] is never requested
/// from its real host: `run` refuses it before any request is sent, and
/// `source enable` refuses to switch it on, each saying what a person must
/// read and where to write it down ([`Manifest::pending_review`]). A run
/// with `--mirror` (tests, staging) reads it, since nothing reaches the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RobotsReview {
    /// A person read `https://HOST/robots.txt`; `robots_txt` says what it says.
    Read,
    /// No copy of the host's robots.txt could be had when the adapter was
    /// written; `robots_txt` says why. Its sources.toml row ships switched off.
    Pending,
}

impl Manifest {
    /// What a person must still do before this source may be fetched from
    /// its real host, or `None` when its review is complete: the one text
    /// `run`, `run --dry-run`, `source enable`, `source show` and
    /// `adapter check` give.
    ///
    /// ```
    /// use cityvibe::adapter::RobotsReview;
    /// let mut m = cityvibe::adapters::madrid::MANIFEST;
    /// assert_eq!(m.pending_review(), None);
    /// m.review.robots = RobotsReview::Pending;
    /// let told = m.pending_review().unwrap();
    /// assert!(told.contains("https://datos.madrid.es/robots.txt"), "{told}");
    /// assert!(told.contains("adapters/madrid.rs"), "{told}");
    /// ```
    pub fn pending_review(&self) -> Option<String> {
        if self.review.robots == RobotsReview::Read {
            return None;
        }
        let (id, host) = (self.id, self.host);
        Some(format!(
            "{id}: its robots.txt review is pending (no copy of the host's robots.txt could be had when the adapter was written), \
             so nothing is requested from {host} (P3, P14). A person must read https://{host}/robots.txt (the group for \
             CityVibeBot and for *: no feed URL under a Disallow, its Crawl-delay) and the licence and dataset page \
             ({dataset}, {licence}), then write what they say in the manifest's review record in adapters/{id}.rs \
             (review.robots_txt, review.robots_sha256, review.date, min_delay, licence, attribution) and set \
             review.robots to RobotsReview::Read (docs/ADAPTERS.md, section 1). Meanwhile only a --mirror run on a folder or a \
             loopback address reads it",
            dataset = self.dataset_page,
            licence = self.licence.url,
        ))
    }
}

// What a parser hands out (events, record errors, warnings) and the feed
// error are the record framework's vocabulary: they live in `records::sink`,
// below this module, and keep their paths here.
pub use crate::records::sink::{EventSink, FeedError, RecordError};

/// A sink that keeps everything in memory (tests, `adapter check`).
#[derive(Debug, Default)]
pub struct Collect {
    pub events: Vec<Event>,
    pub errors: Vec<RecordError>,
    pub warnings: Vec<RecordError>,
}

impl EventSink for Collect {
    fn push(&mut self, record: Result<Event, RecordError>) {
        match record {
            Ok(event) => self.events.push(event),
            Err(error) => self.errors.push(error),
        }
    }
    fn warning(&mut self, warning: RecordError) {
        self.warnings.push(warning);
    }
}

/// One source: a manifest and a pure parser.
pub trait Adapter: Sync {
    fn manifest(&self) -> &'static Manifest;

    /// Parse one feed response body (through a record driver in
    /// `crate::records`; the core calls it through `records::parse_feed`).
    /// Each record's outcome goes to `sink.push`; only a body that cannot
    /// be read at all is an `Err`.
    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError>;
}

/// The record framework runs every adapter's parser ([`crate::records::parse_feed`]).
impl<A: Adapter + ?Sized> crate::records::FeedParser<Feed> for A {
    fn parse_body(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        self.parse(feed, body, sink)
    }
    fn region(&self) -> &[BoundingBox] {
        self.manifest().region
    }
}

/// Parse a sample file (bytes) with an adapter, for tests and `adapter check`:
/// through the framework ([`crate::records::parse_feed`]), so events come out
/// scrubbed and capped, as the core would store them.
pub fn parse_bytes(adapter: &dyn Adapter, feed: &Feed, bytes: &[u8]) -> Result<Collect, FeedError> {
    let mut sink = Collect::default();
    let mut reader = bytes;
    crate::records::parse_feed(adapter, feed, &mut reader, &mut sink)?;
    Ok(sink)
}
