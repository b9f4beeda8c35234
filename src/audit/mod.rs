//! The reviewer's aid (P14): fetch each adapter host's `/robots.txt`,
//! `/.well-known/tdmrep.json` and `/ai.txt` through the polite scheduler
//! (same User-Agent, delays, caps and fetch log as a run), and report
//! whether every feed URL of the manifest is still allowed for CityVibeBot,
//! whether the Crawl-delay rose above the adapter's minimum, whether
//! robots.txt changed since the review, which TDMRep rule applies, and what
//! ai.txt says.
//!
//! robots.txt is read with `texting_robots` (RFC 9309 group selection and
//! longest-match rules), with RFC 9309's status rules: a 4xx answer means
//! "no rules" (all allowed), a 5xx answer, a 429 that persists, a refused
//! redirect or no answer at all means "everything disallowed". Nothing of an
//! audit is cached: no validators are kept and every audit fetches anew.
//!
//! This module fetches and composes; each file's rules live in its own
//! module (`robots`, `tdmrep`, `ai_txt`).

use crate::adapter::Adapter;
use crate::config::Config;
use crate::http::{
    Allowed, Body, Client, Clock, FetchDriver, FetchOutcome, FetchReporter, FetchRequest, FetchResult, Ledger, Scheduler, Unwatched,
};
use crate::store::Store;
use anyhow::Result;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::{BufRead, Read};
use std::time::Duration;
use url::Url;

mod ai_txt;
mod got;
mod robots;
mod tdmrep;

pub use ai_txt::AiReport;
pub use got::FileState;
use got::Got;
pub use robots::RobotsReport;
pub use tdmrep::{TdmRule, TdmrepReport, first_tdm_rule, location_matches, parse_tdmrep};

/// RFC 9309 §2.5: a parser must read at least 500 KiB; more is not read.
const ROBOTS_MAX: u64 = 500 * 1024;
/// tdmrep.json and ai.txt are small files; more than this is not read.
const OTHER_MAX: u64 = 1024 * 1024;

/// How many times its delay a host whose robots.txt could not be read is
/// left alone: twice the step a backoff given up after four tries would
/// take next (8 times the delay, after waits of 1, 2 and 4 times it).
const UNREADABLE_ROBOTS_STEPS: i64 = 16;

/// The three paths an audit asks a host for, in this order.
pub const PATHS: [&str; 3] = ["/robots.txt", "/.well-known/tdmrep.json", "/ai.txt"];

/// One source's audit.
#[derive(Debug, Clone, Serialize)]
pub struct SourceAudit {
    pub id: String,
    pub host: String,
    /// The adapter's minimum delay, what robots.txt's Crawl-delay is held against.
    pub min_delay_secs: f64,
    /// The delay this run keeps (the adapter's, or slower from sources.toml).
    pub delay_secs: f64,
    pub review_date: String,
    pub robots: RobotsReport,
    pub tdmrep: TdmrepReport,
    pub ai_txt: AiReport,
    pub feeds: Vec<FeedReport>,
    /// Every reason the adapter no longer matches its host's wishes; empty: none.
    pub drift: Vec<String>,
    /// What blocks the source now (disallowed, reserved): `--disable-blocked` switches these off.
    pub blocked: Vec<String>,
    /// Set when `--disable-blocked` switched the source off, with the reason written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub switched_off: Option<String>,
}

/// One feed URL of the manifest.
#[derive(Debug, Clone, Serialize)]
pub struct FeedReport {
    pub url: String,
    /// Allowed for CityVibeBot by robots.txt as read now.
    pub allowed: bool,
    /// The `tdm-reservation` (0 or 1) of the first TDMRep rule matching the URL; none: no reservation.
    pub tdm_reservation: Option<u8>,
    /// The `location` of that rule.
    pub tdm_location: Option<String>,
}

impl SourceAudit {
    pub fn has_drift(&self) -> bool {
        !self.drift.is_empty()
    }
}

/// One host's three fetches, paced by the scheduler like any run.
struct HostDriver {
    source: String,
    delay: Duration,
    daily_cap: u32,
    urls: Vec<Url>,
    allowed: Allowed,
    next: usize,
    got: Vec<Got>,
}

impl HostDriver {
    fn new(source: &str, host: &str, delay: Duration, daily_cap: u32) -> Result<HostDriver> {
        let urls = PATHS.iter().map(|p| Url::parse(&format!("https://{host}{p}"))).collect::<Result<Vec<_>, _>>()?;
        // Exactly those three URLs, nothing else (P3, P13).
        let allowed = Allowed { rules: vec![], feed_urls: urls.iter().map(|u| u.to_string()).collect(), switched_off: vec![] };
        Ok(HostDriver { source: source.into(), delay, daily_cap, urls, allowed, next: 0, got: Vec::new() })
    }
}

/// A body's first `max` bytes, and the SHA-256 of all of it: the digest a
/// reviewer records of robots.txt (`sha256sum`), which the run's own body
/// digest is not.
fn read_capped(body: &mut Body, max: u64) -> std::io::Result<(Vec<u8>, String)> {
    let mut reader = body.reader()?;
    let mut bytes = Vec::new();
    reader.by_ref().take(max).read_to_end(&mut bytes)?;
    let mut sha256 = Sha256::new();
    sha256.update(&bytes);
    // Past the cap: digested, not kept.
    loop {
        let rest = reader.fill_buf()?;
        if rest.is_empty() {
            break;
        }
        sha256.update(rest);
        let n = rest.len();
        reader.consume(n);
    }
    Ok((bytes, hex::encode(sha256.finalize())))
}

impl HostDriver {
    /// The Crawl-delay just read paces this audit's next requests, not only
    /// later commands (the slowest word wins, rule 2).
    fn obey_crawl_delay(&mut self, robots_txt: &[u8]) {
        let asked = texting_robots::Robot::new(crate::http::headers::AGENT_TOKEN, robots_txt).ok().and_then(|r| r.delay);
        if let Some(secs) = asked.map(f64::from).filter(|s| s.is_finite() && *s > 0.0) {
            self.delay = self.delay.max(Duration::from_secs_f64(secs.min(7.0 * 86400.0)));
        }
    }
}

impl FetchDriver<Store> for HostDriver {
    fn next_fetch(&mut self, _store: &mut Store) -> Option<FetchRequest> {
        let url = self.urls.get(self.next)?.clone();
        self.next += 1;
        Some(FetchRequest {
            source: self.source.clone(),
            url,
            delay: self.delay,
            daily_cap: self.daily_cap,
            allowed: self.allowed.clone(),
            // Always the whole body, never a 304 from cached validators.
            conditional: false,
        })
    }

    fn fetched(&mut self, _store: &mut Store, req: FetchRequest, result: FetchResult, _reporter: &mut dyn FetchReporter) {
        // The status of this fetch's last request, as the fetch result carries it.
        let status: Option<u16> = result.status;
        let max = if req.url.path() == "/robots.txt" { ROBOTS_MAX } else { OTHER_MAX };
        let got = match result.outcome {
            FetchOutcome::Body { mut body, .. } => match read_capped(&mut body, max) {
                Ok((bytes, sha256)) => {
                    if req.url.path() == "/robots.txt" {
                        self.obey_crawl_delay(&bytes);
                    }
                    Got::Body { status: status.unwrap_or(200), bytes, sha256 }
                }
                Err(e) => Got::Nothing { message: format!("{}: reading the spooled body: {e}", req.url) },
            },
            FetchOutcome::NotModified | FetchOutcome::Unchanged => Got::Nothing { message: format!("{}: no body came back", req.url) },
            FetchOutcome::Refused(m)
            | FetchOutcome::Failed(m)
            | FetchOutcome::Skipped(m)
            | FetchOutcome::Deferred { why: m, .. }
            | FetchOutcome::Disabled(m) => match status {
                Some(s) => Got::Status { status: s, message: m },
                None => Got::Nothing { message: m },
            },
        };
        self.got.push(got);
    }
}

/// Audit these adapters' hosts. One set of three requests per host, paced by
/// the scheduler (the delay is the largest any audited source of the host keeps).
/// `clock` is the time the politeness rules are kept in (the machine's,
/// [`SystemClock`](crate::clock::SystemClock), or a test's simulated one).
pub fn audit(
    store: &mut Store,
    client: &Client,
    ledger: &Ledger,
    clock: &dyn Clock,
    config: &Config,
    adapters: &[&'static dyn Adapter],
) -> Result<Vec<SourceAudit>> {
    audit_watched(store, client, ledger, clock, config, adapters, &mut Unwatched)
}

/// [`audit`], telling `reporter` of each request and of the host waited for.
pub fn audit_watched(
    store: &mut Store,
    client: &Client,
    ledger: &Ledger,
    clock: &dyn Clock,
    config: &Config,
    adapters: &[&'static dyn Adapter],
    reporter: &mut dyn FetchReporter,
) -> Result<Vec<SourceAudit>> {
    // One driver per host, in the adapters' order.
    let mut hosts: Vec<(String, HostDriver)> = Vec::new();
    for a in adapters {
        let m = a.manifest();
        let delay = config.delay_for(*a);
        if let Some((_, d)) = hosts.iter_mut().find(|(h, _)| h == m.host) {
            d.delay = d.delay.max(delay);
            d.daily_cap = d.daily_cap.min(m.daily_cap);
        } else {
            hosts.push((m.host.to_string(), HostDriver::new(m.id, m.host, delay, m.daily_cap)?));
        }
    }
    {
        let mut refs: Vec<&mut dyn FetchDriver<Store>> = hosts.iter_mut().map(|(_, d)| d as &mut dyn FetchDriver<Store>).collect();
        Scheduler::new(client, ledger, clock, None, reporter).run(store, &mut refs);
    }
    let mut out = Vec::new();
    for a in adapters {
        let m = a.manifest();
        let (_, d) = hosts.iter().find(|(h, _)| h == m.host).expect("a driver per host");
        let report = judge(*a, config.delay_for(*a), &d.urls, &d.got);
        // The Crawl-delay read is obeyed from the next request on, by every
        // process (the slowest word wins, rule 2); an unreadable robots.txt
        // leaves the last one read in place.
        if report.robots.state != FileState::Unreachable {
            let delay =
                report.robots.crawl_delay_secs.filter(|s| s.is_finite()).map(|s| Duration::from_secs_f64(s.clamp(0.0, 7.0 * 86400.0)));
            ledger.set_crawl_delay(m.host, delay, clock.now_ms())?;
        } else {
            // A host whose robots.txt cannot be read is left alone for a
            // while by every later command, as after a backoff given up
            // (16 times its delay, twice that backoff's next step; a later
            // time is never shortened).
            let now = clock.now_ms();
            let pause = (config.delay_for(*a).as_millis() as i64).max(1000).saturating_mul(UNREADABLE_ROBOTS_STEPS);
            let answer = match report.robots.status {
                Some(status) if status >= 300 => format!("HTTP {status}"),
                Some(_) => "not understood".to_string(),
                None => "no usable answer".to_string(),
            };
            let why = format!("robots.txt unreadable in the last audit ({answer}), our pause");
            ledger.set_not_before(m.host, now.saturating_add(pause), now, &why)?;
        }
        out.push(report);
    }
    Ok(out)
}

/// Read what came back for one host against one adapter's manifest.
fn judge(adapter: &dyn Adapter, delay: Duration, urls: &[Url], got: &[Got]) -> SourceAudit {
    let m = adapter.manifest();
    let min_delay = m.min_delay.as_secs_f64();
    let mut drift = Vec::new();
    let mut blocked = Vec::new();
    let (robots, rules) = robots::read(m, &urls[0], got.first(), &mut drift);
    let (tdmrep, tdm_rules) = tdmrep::read(&urls[1], got.get(1), &mut drift);
    let ai = ai_txt::read(m, &urls[2], got.get(2), &mut drift, &mut blocked);

    // Each feed URL.
    let mut feeds = Vec::new();
    for f in m.feeds {
        let allowed = rules.allows(f.url);
        if !allowed && rules.was_read() {
            let why = format!("robots.txt disallows {} for CityVibeBot", f.url);
            drift.push(why.clone());
            blocked.push(why);
        }
        let rule = Url::parse(f.url).ok().and_then(|u| first_tdm_rule(&tdm_rules, &u));
        let (tdm_reservation, tdm_location) = match rule {
            Some(r) => (Some(r.reservation), Some(r.location.clone())),
            None => (None, None),
        };
        if tdm_reservation == Some(1) {
            let why = format!(
                "tdmrep.json reserves TDM rights on {} (rule {:?}, tdm-reservation 1)",
                f.url,
                tdm_location.as_deref().unwrap_or("")
            );
            drift.push(why.clone());
            blocked.push(why);
        }
        feeds.push(FeedReport { url: f.url.to_string(), allowed, tdm_reservation, tdm_location });
    }

    SourceAudit {
        id: m.id.to_string(),
        host: m.host.to_string(),
        min_delay_secs: min_delay,
        delay_secs: delay.as_secs_f64(),
        review_date: m.review.date.to_string(),
        robots,
        tdmrep,
        ai_txt: ai,
        feeds,
        drift,
        blocked,
        switched_off: None,
    }
}
