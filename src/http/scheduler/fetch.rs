//! What a source and the scheduler say to each other: a fetch asked for
//! ([`FetchRequest`]), how it ended ([`FetchOutcome`], [`FetchResult`]),
//! the driver's side ([`FetchDriver`]) and its word before each request
//! ([`Gate`]), and where its requests may go ([`Allowed`]).
//!
//! Not for: pacing or sending (`scheduler.rs` and its files).

use crate::http::client::Body;
use crate::http::fetchlog::Validators;
use crate::http::reporter::FetchReporter;
use std::time::Duration;
use url::Url;

/// One feed fetch asked for by a driver.
#[derive(Debug, Clone)]
pub struct FetchRequest {
    pub source: String,
    pub url: Url,
    /// The delay between two requests to the host: the adapter's minimum or
    /// slower from config (P8, P9).
    pub delay: Duration,
    pub daily_cap: u32,
    pub allowed: Allowed,
    /// Send If-None-Match / If-Modified-Since from stored validators.
    pub conditional: bool,
}

/// How a fetch ended.
#[derive(Debug)]
pub enum FetchOutcome {
    Body {
        body: Box<Body>,
        final_url: Url,
        content_type: Option<String>,
        /// Boxed: the outcome is handed around by value, its other kinds small.
        validators: Box<Validators>,
    },
    /// 304: nothing to parse (P12).
    NotModified,
    /// 200 with the very body stored last time: nothing to parse.
    Unchanged,
    /// A "no": 401/403/451, a rights reservation, a forbidden redirect.
    Refused(String),
    Failed(String),
    /// Not attempted or given up for this run (daily cap, hours window).
    Skipped(String),
    /// Not asked until `until_ms` (a Retry-After or a delay beyond what a run
    /// waits, remembered in the host ledger, P10).
    Deferred {
        until_ms: i64,
        why: String,
    },
    /// The operator switched the source off during the run (P16).
    Disabled(String),
}

/// A fetch's outcome and what it cost the host.
#[derive(Debug)]
pub struct FetchResult {
    pub outcome: FetchOutcome,
    /// Requests sent on the wire for this fetch (hops and retries included).
    pub requests: u32,
    /// 304 answers among them.
    pub not_modified: u32,
    /// The HTTP status of the last request sent for this fetch (`None`: no answer, or no request).
    pub status: Option<u16>,
    /// Time spent on the wire for these requests (not waiting for a delay), in ms.
    pub elapsed_ms: u64,
}

/// A source's side of the conversation: it asks for fetches one at a time
/// and is handed each result, with the fetch log `L` the run handed the
/// scheduler (the run's own store: a driver may read and write more of it).
pub trait FetchDriver<L: ?Sized> {
    /// The next fetch wanted, if any; called only when none is in flight.
    fn next_fetch(&mut self, log: &mut L) -> Option<FetchRequest>;
    /// The result of the fetch last asked for.
    fn fetched(&mut self, log: &mut L, req: FetchRequest, result: FetchResult, reporter: &mut dyn FetchReporter);
    /// Checked right before every request, retries included (P9, P16): the
    /// delay as it stands now (it may have risen), or why the source stops;
    /// `now_ms` is the run's clock; a problem that does not stop the source
    /// is told to `reporter`.
    fn gate(&mut self, req: &FetchRequest, _now_ms: i64, _reporter: &mut dyn FetchReporter) -> Gate {
        Gate::Go { delay: req.delay }
    }
    /// Checked during every wait for a host (its delay, a backoff, a
    /// Retry-After): why the source must end now without its request (the
    /// run's deadline passed, a signal asked it to stop), if it must. A
    /// wait never holds a stop back (a 120 s delay would hold a SIGTERM
    /// past systemd's 90 s stop timeout).
    fn halt(&mut self, _now_ms: i64) -> Option<FetchOutcome> {
        None
    }
}

/// A driver's word right before a request.
pub enum Gate {
    Go { delay: Duration },
    Stop(FetchOutcome),
}

/// Where a source's requests may go (P3, P13).
#[derive(Debug, Clone)]
pub struct Allowed {
    /// (host, path prefix) pairs; a feed URL itself is always allowed.
    pub rules: Vec<(String, String)>,
    pub feed_urls: Vec<String>,
    /// Feed URLs the operator switched off (P16): never requested, not even
    /// as a redirect hop inside the allowed paths.
    pub switched_off: Vec<String>,
}

impl Allowed {
    /// Why `url` may not be requested, if it may not.
    pub fn check(&self, url: &Url) -> Result<(), String> {
        if url.scheme() != "https" && url.scheme() != "http" {
            return Err(format!("{url}: scheme {} is not fetched", url.scheme()));
        }
        if self.switched_off.iter().any(|f| f == url.as_str()) {
            return Err(format!("{url} is a feed switched off in sources.toml (feeds_off, P16)"));
        }
        if self.feed_urls.iter().any(|f| f == url.as_str()) {
            return Ok(());
        }
        let host = url.host_str().unwrap_or("");
        if self.rules.iter().any(|(h, prefix)| h == host && url.path().starts_with(prefix.as_str())) {
            return Ok(());
        }
        Err(format!("{url} is outside the adapter's allow-list (P13)"))
    }
}
