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

use crate::adapter::Adapter;
use crate::config::Config;
use crate::http::{Allowed, Client, FetchDriver, FetchOutcome, FetchRequest, FetchResult, Scheduler};
use crate::store::Store;
use anyhow::Result;
use serde::Serialize;
use std::io::Read;
use std::time::Duration;
use url::Url;

/// The product token CityVibeBot's robots.txt groups are matched against.
pub const AGENT: &str = "CityVibeBot";

/// RFC 9309 §2.5: a parser must read at least 500 KiB; more is not read.
const ROBOTS_MAX: u64 = 500 * 1024;
/// tdmrep.json and ai.txt are small files; more than this is not read.
const OTHER_MAX: u64 = 1024 * 1024;
/// How many lines of ai.txt the report quotes.
const AI_LINES: usize = 5;

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

/// robots.txt as read now.
#[derive(Debug, Clone, Serialize)]
pub struct RobotsReport {
    pub url: String,
    pub status: Option<u16>,
    /// `ok` (parsed), `unavailable` (4xx: no rules, all allowed) or
    /// `unreachable` (5xx, no answer: all disallowed, nothing cached).
    pub state: String,
    pub message: String,
    /// SHA-256 (hex) of the body fetched now.
    pub sha256: Option<String>,
    /// SHA-256 recorded in the adapter's review.
    pub recorded_sha256: Option<String>,
    /// `unchanged`, `changed`, `no digest recorded` or `unknown`.
    pub digest: String,
    /// Crawl-delay of the group that applies to CityVibeBot (or `*`).
    pub crawl_delay_secs: Option<f64>,
    /// Crawl-delay above the adapter's minimum delay.
    pub crawl_delay_drift: bool,
}

/// `/.well-known/tdmrep.json` as read now.
#[derive(Debug, Clone, Serialize)]
pub struct TdmrepReport {
    pub url: String,
    pub status: Option<u16>,
    /// `ok`, `absent` (4xx: no reservation), `unreadable` (not a TDMRep array)
    /// or `unreachable` (no answer: unknown).
    pub state: String,
    pub message: String,
    pub rules: usize,
}

/// `/ai.txt` as read now.
#[derive(Debug, Clone, Serialize)]
pub struct AiReport {
    pub url: String,
    pub status: Option<u16>,
    /// `ok`, `absent` or `unreachable`.
    pub state: String,
    pub message: String,
    /// Whether it disallows CityVibeBot (or `*`) a feed URL or the whole site.
    pub disallows: bool,
    pub first_lines: Vec<String>,
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

/// What came back for one of the three URLs.
#[derive(Debug)]
enum Got {
    /// A 2xx body.
    Body { status: u16, bytes: Vec<u8>, sha256: String },
    /// An answer without a usable body (4xx, 5xx, refused redirect…).
    Status { status: u16, message: String },
    /// No answer: network error, timeout, or no request sent (host blocked, cap).
    Nothing { message: String },
}

/// One host's three fetches, paced by the scheduler like any run.
struct HostDriver {
    source: String,
    delay: Duration,
    daily_cap: u32,
    urls: Vec<Url>,
    allowed: Allowed,
    next: usize,
    /// The fetch log's last id when the fetch in flight was handed out.
    log_mark: i64,
    got: Vec<Got>,
}

impl HostDriver {
    fn new(source: &str, host: &str, delay: Duration, daily_cap: u32) -> Result<HostDriver> {
        let urls = PATHS.iter().map(|p| Url::parse(&format!("https://{host}{p}"))).collect::<Result<Vec<_>, _>>()?;
        // Exactly those three URLs, nothing else (P3, P13).
        let allowed = Allowed { rules: vec![], feed_urls: urls.iter().map(|u| u.to_string()).collect() };
        Ok(HostDriver { source: source.into(), delay, daily_cap, urls, allowed, next: 0, log_mark: 0, got: Vec::new() })
    }
}

fn last_log_id(store: &Store) -> i64 {
    store.connection().query_row("SELECT COALESCE(MAX(id), 0) FROM fetch_log", [], |r| r.get(0)).unwrap_or(0)
}

impl FetchDriver for HostDriver {
    fn next_fetch(&mut self, store: &mut Store) -> Option<FetchRequest> {
        let url = self.urls.get(self.next)?.clone();
        self.next += 1;
        self.log_mark = last_log_id(store);
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

    fn fetched(&mut self, store: &mut Store, req: FetchRequest, result: FetchResult) {
        let host = req.url.host_str().unwrap_or("").to_string();
        // The status of this fetch's last request, from the fetch log.
        let status: Option<u16> = if result.requests == 0 {
            None
        } else {
            store
                .connection()
                .query_row(
                    "SELECT status FROM fetch_log WHERE id > ?1 AND host = ?2 ORDER BY id DESC LIMIT 1",
                    rusqlite::params![self.log_mark, host],
                    |r| r.get::<_, Option<u16>>(0),
                )
                .ok()
                .flatten()
        };
        let max = if req.url.path() == "/robots.txt" { ROBOTS_MAX } else { OTHER_MAX };
        let got = match result.outcome {
            FetchOutcome::Body { mut body, .. } => {
                let mut bytes = Vec::new();
                let read = body.reader().and_then(|r| r.take(max).read_to_end(&mut bytes));
                match read {
                    Ok(_) => Got::Body { status: status.unwrap_or(200), bytes, sha256: body.sha256.clone() },
                    Err(e) => Got::Nothing { message: format!("{}: reading the spooled body: {e}", req.url) },
                }
            }
            FetchOutcome::NotModified | FetchOutcome::Unchanged => Got::Nothing { message: format!("{}: no body came back", req.url) },
            FetchOutcome::Refused(m) | FetchOutcome::Failed(m) | FetchOutcome::Skipped(m) | FetchOutcome::Disabled(m) => match status {
                Some(s) => Got::Status { status: s, message: m },
                None => Got::Nothing { message: m },
            },
        };
        self.got.push(got);
    }
}

/// What robots.txt means for us now.
enum RobotsRules {
    Parsed(texting_robots::Robot),
    /// 4xx: no rules, everything allowed.
    AllowAll,
    /// 5xx, no answer: everything disallowed.
    DisallowAll,
}

/// Audit these adapters' hosts. One set of three requests per host, paced by
/// the scheduler (the delay is the largest any audited source of the host keeps).
pub fn audit(store: &mut Store, client: &Client, config: &Config, adapters: &[&'static dyn Adapter]) -> Result<Vec<SourceAudit>> {
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
        let mut refs: Vec<&mut dyn FetchDriver> = hosts.iter_mut().map(|(_, d)| d as &mut dyn FetchDriver).collect();
        Scheduler::new(client, None).run(store, &mut refs);
    }
    let mut out = Vec::new();
    for a in adapters {
        let m = a.manifest();
        let (_, d) = hosts.iter().find(|(h, _)| h == m.host).expect("a driver per host");
        out.push(judge(*a, config.delay_for(*a), &d.urls, &d.got));
    }
    Ok(out)
}

fn nothing(got: Option<&Got>) -> (Option<u16>, String) {
    match got {
        Some(Got::Body { status, .. }) => (Some(*status), String::new()),
        Some(Got::Status { status, message }) => (Some(*status), message.clone()),
        Some(Got::Nothing { message }) => (None, message.clone()),
        None => (None, "not fetched".into()),
    }
}

/// Read what came back for one host against one adapter's manifest.
fn judge(adapter: &dyn Adapter, delay: Duration, urls: &[Url], got: &[Got]) -> SourceAudit {
    let m = adapter.manifest();
    let min_delay = m.min_delay.as_secs_f64();
    let mut drift = Vec::new();
    let mut blocked = Vec::new();

    // robots.txt, with RFC 9309's status rules.
    let recorded = m.review.robots_sha256.map(|s| s.to_ascii_lowercase());
    let mut robots = RobotsReport {
        url: urls[0].to_string(),
        status: None,
        state: String::new(),
        message: String::new(),
        sha256: None,
        recorded_sha256: recorded.clone(),
        digest: "unknown".into(),
        crawl_delay_secs: None,
        crawl_delay_drift: false,
    };
    let rules = match got.first() {
        Some(Got::Body { status, bytes, sha256 }) => {
            robots.status = Some(*status);
            robots.sha256 = Some(sha256.clone());
            match texting_robots::Robot::new(AGENT, bytes) {
                Ok(r) => {
                    robots.state = "ok".into();
                    RobotsRules::Parsed(r)
                }
                Err(e) => {
                    robots.state = "unreachable".into();
                    robots.message = format!("robots.txt could not be parsed ({e:#}): everything treated as disallowed");
                    RobotsRules::DisallowAll
                }
            }
        }
        // A 429 that persists is a server asking us to stay away, like a 5xx.
        Some(Got::Status { status, message }) if (400..500).contains(status) && *status != 429 => {
            robots.status = Some(*status);
            robots.state = "unavailable".into();
            robots.message = format!("HTTP {status}: no rules, everything allowed (RFC 9309 §2.3.1.3)");
            if matches!(status, 401 | 403 | 451) {
                // RFC 9309 allows all, but the host just refused our bot (P11).
                drift.push(format!("the host answered HTTP {status} to CityVibeBot: a run would be refused (P11); {message}"));
            }
            RobotsRules::AllowAll
        }
        other => {
            let (status, message) = nothing(other);
            robots.status = status;
            robots.state = "unreachable".into();
            robots.message = format!("{message}: everything treated as disallowed, nothing cached (RFC 9309 §2.3.1.4)");
            drift.push(format!("robots.txt unreachable ({message}): everything is disallowed until it can be read"));
            RobotsRules::DisallowAll
        }
    };
    robots.digest = match (&robots.state[..], &recorded, &robots.sha256) {
        ("unreachable", _, _) => "unknown".into(),
        (_, None, _) => "no digest recorded".into(),
        (_, Some(r), Some(now)) if r == now => "unchanged".into(),
        (_, Some(_), _) => "changed".into(),
    };
    if robots.digest == "changed" {
        let now = robots.sha256.as_deref().unwrap_or("none: no robots.txt now");
        drift.push(format!(
            "robots.txt changed since the review of {}: sha256 {now}, recorded {}",
            m.review.date,
            recorded.as_deref().unwrap_or("")
        ));
    }
    if let RobotsRules::Parsed(r) = &rules {
        robots.crawl_delay_secs = r.delay.map(f64::from);
        if let Some(cd) = robots.crawl_delay_secs.filter(|cd| *cd > min_delay) {
            robots.crawl_delay_drift = true;
            drift.push(format!("robots.txt asks for Crawl-delay {cd} s, more than the adapter's {min_delay} s"));
        }
    }

    // tdmrep.json.
    let mut tdmrep = TdmrepReport { url: urls[1].to_string(), status: None, state: String::new(), message: String::new(), rules: 0 };
    let mut tdm_rules: Vec<TdmRule> = Vec::new();
    match got.get(1) {
        Some(Got::Body { status, bytes, .. }) => {
            tdmrep.status = Some(*status);
            match parse_tdmrep(bytes) {
                Ok(r) => {
                    tdmrep.state = "ok".into();
                    tdmrep.rules = r.len();
                    tdm_rules = r;
                }
                Err(e) => {
                    // A rule we cannot read may be a reservation: the reviewer looks.
                    tdmrep.state = "unreadable".into();
                    tdmrep.message = format!("not a TDMRep rule array: {e}; no reservation read");
                    drift.push(format!("tdmrep.json cannot be read ({e}): a reservation may be missed"));
                }
            }
        }
        Some(Got::Status { status, .. }) if (400..500).contains(status) && *status != 429 => {
            tdmrep.status = Some(*status);
            tdmrep.state = "absent".into();
            tdmrep.message = format!("HTTP {status}: no tdmrep.json, no reservation");
        }
        other => {
            let (status, message) = nothing(other);
            tdmrep.status = status;
            tdmrep.state = "unreachable".into();
            tdmrep.message = format!("{message}: reservation unknown");
        }
    }

    // ai.txt, read like robots.txt.
    let mut ai = AiReport {
        url: urls[2].to_string(),
        status: None,
        state: String::new(),
        message: String::new(),
        disallows: false,
        first_lines: vec![],
    };
    let mut ai_robot = None;
    match got.get(2) {
        Some(Got::Body { status, bytes, .. }) => {
            ai.status = Some(*status);
            ai.state = "ok".into();
            let text = String::from_utf8_lossy(bytes);
            ai.first_lines = text.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).take(AI_LINES).map(str::to_string).collect();
            match texting_robots::Robot::new(AGENT, bytes) {
                Ok(r) => ai_robot = Some(r),
                Err(e) => ai.message = format!("not readable as robots-like rules: {e:#}"),
            }
        }
        Some(Got::Status { status, .. }) if (400..500).contains(status) && *status != 429 => {
            ai.status = Some(*status);
            ai.state = "absent".into();
            ai.message = format!("HTTP {status}: no ai.txt");
        }
        other => {
            let (status, message) = nothing(other);
            ai.status = status;
            ai.state = "unreachable".into();
            ai.message = format!("{message}: unknown");
        }
    }
    if let Some(r) = &ai_robot {
        let denied: Vec<&str> = m.feeds.iter().map(|f| f.url).filter(|u| !r.allowed(u)).collect();
        if !r.allowed("/") || !denied.is_empty() {
            ai.disallows = true;
            let what = if denied.is_empty() { "the site root".to_string() } else { denied.join(", ") };
            let why = format!("ai.txt disallows {what} for CityVibeBot or *");
            drift.push(why.clone());
            blocked.push(why);
        }
    }

    // Each feed URL.
    let mut feeds = Vec::new();
    for f in m.feeds {
        let allowed = match &rules {
            RobotsRules::Parsed(r) => r.allowed(f.url),
            RobotsRules::AllowAll => true,
            RobotsRules::DisallowAll => false,
        };
        if !allowed && matches!(rules, RobotsRules::Parsed(_)) {
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

/// One TDMRep rule (W3C TDMRep, §4 "the tdmrep.json file").
#[derive(Debug, Clone, PartialEq)]
pub struct TdmRule {
    pub location: String,
    pub reservation: u8,
    pub policy: Option<String>,
}

/// Read tdmrep.json: an array of `{location, tdm-reservation, tdm-policy}`.
/// A rule without a readable location or with a reservation other than 0/1
/// is an error: the reviewer must look at the file.
pub fn parse_tdmrep(bytes: &[u8]) -> Result<Vec<TdmRule>, String> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_start_matches('\u{feff}');
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let arr = v.as_array().ok_or("the top level is not an array")?;
    let mut rules = Vec::new();
    for (i, r) in arr.iter().enumerate() {
        let location = r.get("location").and_then(|l| l.as_str()).ok_or_else(|| format!("rule {i} has no location"))?;
        let res = r.get("tdm-reservation").ok_or_else(|| format!("rule {i} has no tdm-reservation"))?;
        let reservation = match res {
            serde_json::Value::Number(n) => n.as_u64(),
            serde_json::Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        let reservation = match reservation {
            Some(0) => 0,
            Some(1) => 1,
            _ => return Err(format!("rule {i}: tdm-reservation {res} is neither 0 nor 1")),
        };
        let policy = r.get("tdm-policy").and_then(|p| p.as_str()).map(str::to_string);
        rules.push(TdmRule { location: location.to_string(), reservation, policy });
    }
    Ok(rules)
}

/// The first rule whose location matches the URL's path (and query).
pub fn first_tdm_rule<'r>(rules: &'r [TdmRule], url: &Url) -> Option<&'r TdmRule> {
    let mut target = url.path().to_string();
    if let Some(q) = url.query() {
        target.push('?');
        target.push_str(q);
    }
    rules.iter().find(|r| location_matches(&r.location, &target))
}

/// TDMRep location patterns follow robots.txt's path syntax: a path from
/// the site root, `*` for any run of characters, a final `$` anchoring the
/// end; otherwise the pattern matches as a prefix.
pub fn location_matches(pattern: &str, path: &str) -> bool {
    // An absolute URL as location: its path (and query).
    let owned;
    let pattern = if pattern.starts_with("http://") || pattern.starts_with("https://") {
        match Url::parse(pattern) {
            Ok(u) => {
                owned = format!("{}{}", u.path(), u.query().map(|q| format!("?{q}")).unwrap_or_default());
                owned.as_str()
            }
            Err(_) => return false,
        }
    } else {
        pattern
    };
    let (body, anchored) = match pattern.strip_suffix('$') {
        Some(b) => (b, true),
        None => (pattern, false),
    };
    let mut re = String::from("^");
    re.push_str(&body.split('*').map(regex::escape).collect::<Vec<_>>().join(".*"));
    if anchored {
        re.push('$');
    }
    regex::Regex::new(&re).map(|r| r.is_match(path)).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tdmrep_locations_match_like_robots_paths() {
        assert!(location_matches("/", "/egob/a.json"));
        assert!(location_matches("/egob/", "/egob/a.json"));
        assert!(!location_matches("/egob/", "/web/a.json"));
        assert!(location_matches("/*.json", "/egob/a.json"));
        assert!(location_matches("/*.json$", "/egob/a.json"));
        assert!(!location_matches("/*.json$", "/egob/a.json?x=1"));
        assert!(!location_matches("/a.json$", "/a.json.bak"));
        assert!(location_matches("https://h.es/egob/*", "/egob/x"));
    }

    #[test]
    fn first_matching_tdmrep_rule_wins() {
        let rules = parse_tdmrep(
            br#"[{"location":"/egob/*.json","tdm-reservation":0},
                 {"location":"/","tdm-reservation":1,"tdm-policy":"https://h.es/policy.json"}]"#,
        )
        .unwrap();
        let json = Url::parse("https://h.es/egob/a.json").unwrap();
        let csv = Url::parse("https://h.es/egob/a.csv").unwrap();
        assert_eq!(first_tdm_rule(&rules, &json).unwrap().reservation, 0);
        assert_eq!(first_tdm_rule(&rules, &csv).unwrap().reservation, 1);
        assert!(parse_tdmrep(br#"{"location":"/"}"#).is_err());
        assert!(parse_tdmrep(br#"[{"location":"/","tdm-reservation":2}]"#).is_err());
        assert_eq!(parse_tdmrep(br#"[{"location":"/","tdm-reservation":"1"}]"#).unwrap()[0].reservation, 1);
    }

    #[test]
    fn robots_group_for_our_agent_or_star() {
        let r =
            texting_robots::Robot::new(AGENT, b"User-agent: *\nDisallow: /\n\nUser-agent: CityVibeBot\nAllow: /egob/\nCrawl-delay: 5\n")
                .unwrap();
        assert!(r.allowed("https://h.es/egob/a.json"));
        // Only our group applies: the `Disallow: /` of `*` does not.
        assert!(r.allowed("https://h.es/other"));
        assert_eq!(r.delay, Some(5.0));
        let star = texting_robots::Robot::new(AGENT, b"User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n").unwrap();
        assert!(star.allowed("https://h.es/egob/a.json"));
        assert_eq!(star.delay, Some(10.0));
    }
}
