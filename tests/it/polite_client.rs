//! The polite client, proven on the wire (issue 3): every test runs the real
//! run engine (`ingest::run`) through the real scheduler and ureq client
//! against a loopback HTTP server, and asserts on what THAT SERVER saw
//! (arrival times, paths, headers), not only on our own fetch log.
//!
//! Test manifests are the madrid adapter under another id and host with
//! short delays (100–400 ms), so the rules are the real ones and the file
//! runs in seconds. Each test's doc comment cites the POLICY ids it proves.
use crate::common;

use cityvibe::adapter::{Adapter, Feed, FeedRole, Format, Manifest, RedirectRule};
use cityvibe::config::{Config, SourceConfig};
use cityvibe::http::{Client, Limits, Mirror, USER_AGENT};
use cityvibe::ingest::{RunOptions, RunReport, run};
use cityvibe::store::Store;
use cityvibe::store::runs::SourceReport;
use common::server::{Reply, Seen, Server};
use common::{TestAdapter, madrid_like};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

// ---------------------------------------------------------------- helpers

/// The madrid sample feed, the body every 200 serves.
fn feed_body() -> Vec<u8> {
    std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).expect("madrid sample")
}

fn leak_str(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// JSON feeds `https://HOST/feeds/NAME`, leaked for a test manifest.
fn feeds(host: &str, names: &[&str]) -> &'static [Feed] {
    let v: Vec<Feed> = names
        .iter()
        .map(|n| Feed { url: leak_str(format!("https://{host}/feeds/{n}")), format: Format::Json, lang: "es", role: FeedRole::Primary })
        .collect();
    Box::leak(v.into_boxed_slice())
}

/// A madrid-like test source on `host` with these feeds and this delay.
fn source(id: &'static str, host: &'static str, delay_ms: u64, names: &[&str]) -> &'static TestAdapter {
    madrid_like(id, host, delay_ms, feeds(host, names))
}

/// The same test source with another daily cap and/or more redirect rules.
fn variant(base: &'static TestAdapter, daily_cap: Option<u32>, extra_redirects: &[(&'static str, &'static str)]) -> &'static TestAdapter {
    let m = base.manifest;
    let mut rules: Vec<RedirectRule> = m.redirects.to_vec();
    rules.extend(extra_redirects.iter().map(|(h, p)| RedirectRule { host: h, path_prefix: p }));
    let manifest: &'static Manifest =
        Box::leak(Box::new(Manifest { redirects: Box::leak(rules.into_boxed_slice()), daily_cap: daily_cap.unwrap_or(m.daily_cap), ..*m }));
    Box::leak(Box::new(TestAdapter { manifest, inner: base.inner }))
}

/// A server whose handler is told the request path and how many times that
/// path was asked for before (0 for the first time).
fn serve(f: impl Fn(&str, usize) -> Reply + Send + Sync + 'static) -> Server {
    let counts: Mutex<HashMap<String, usize>> = Mutex::default();
    Server::start(move |seen: &Seen, _| {
        let n = {
            let mut c = counts.lock().unwrap();
            let e = c.entry(seen.path.clone()).or_default();
            *e += 1;
            *e - 1
        };
        f(&seen.path, n)
    })
}

/// A fresh database path in its own folder.
fn fresh_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cityvibe.db");
    (dir, db)
}

/// One run, as `cityvibe run` does it, with its own store connection (as a
/// new process would have) and a client pointed at the test server.
fn run_with(db: &Path, server_url: &str, adapters: &[&'static dyn Adapter], config: Config, limits: Limits) -> RunReport {
    let mut store = Store::open(db).unwrap();
    let client = Client::new(Some(Mirror::parse(server_url).unwrap()), limits);
    // Its own host ledger beside the database; `force`: these runs follow one
    // another within the period on purpose (P7 has its own tests), every
    // delay still holds.
    let ledger = common::ledger_beside(db);
    run(&mut store, RunOptions { adapters, config, config_path: None, only: vec![], client: &client, ledger: &ledger, force: true })
        .unwrap()
}

fn run_once(db: &Path, server: &Server, adapters: &[&'static dyn Adapter]) -> RunReport {
    run_with(db, &server.url(), adapters, Config::enable_all(), Limits::default())
}

fn report<'r>(r: &'r RunReport, id: &str) -> &'r SourceReport {
    r.sources.iter().find(|s| s.id == id).unwrap_or_else(|| panic!("no report for {id}: {r:#?}"))
}

/// The requests the server saw for `host` (`/HOST/...` through the mirror).
fn to_host<'a>(reqs: &'a [Seen], host: &str) -> Vec<&'a Seen> {
    let prefix = format!("/{host}/");
    reqs.iter().filter(|s| s.path.starts_with(&prefix)).collect()
}

fn paths(reqs: &[&Seen]) -> Vec<String> {
    reqs.iter().map(|s| s.path.clone()).collect()
}

/// Gaps between consecutive arrivals.
fn gaps(reqs: &[&Seen]) -> Vec<Duration> {
    reqs.windows(2).map(|w| w[1].at.duration_since(w[0].at)).collect()
}

/// P8: every gap between two requests to the host is at least `min`.
#[track_caller]
fn assert_spaced(reqs: &[&Seen], min: Duration) {
    for (i, g) in gaps(reqs).iter().enumerate() {
        assert!(*g >= min, "request {} came {g:?} after the one before, under the delay {min:?}: {:?}", i + 1, paths(reqs));
    }
}

/// P1, P2 on every request the server saw.
#[track_caller]
fn assert_manners(reqs: &[Seen]) {
    for s in reqs {
        assert_eq!(s.method, "GET", "{}", s.path);
        assert_eq!(s.header_all("user-agent"), vec![USER_AGENT], "{}", s.path);
        assert!(s.header("cookie").is_none(), "a cookie was sent to {}", s.path);
        assert!(s.header("authorization").is_none(), "{}", s.path);
    }
}

fn config_with(rows: &[(&str, SourceConfig)]) -> Config {
    let sources: BTreeMap<String, SourceConfig> = rows.iter().map(|(id, r)| (id.to_string(), r.clone())).collect();
    Config { settings: Default::default(), sources, run_unlisted: true }
}

fn row(min_delay_secs: Option<f64>, hours: Option<&str>) -> SourceConfig {
    SourceConfig { enabled: true, min_delay_secs, hours: hours.map(str::to_string), ..Default::default() }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn events(db: &Path, id: &str) -> u64 {
    Store::open(db).unwrap().count_events(id).unwrap().0
}

// ---------------------------------------------------------------- P10 backoff

/// P10, P11: on 429 and on 503 the bot backs off exponentially from the
/// host's delay (d, 2d, 4d), tries a URL at most 4 times, then the source is
/// `failed` with the reason, and nothing more is asked of that host in this
/// run (not the source's next feed, not another source on the same host).
#[test]
fn backoff_doubles_from_the_host_delay_and_gives_up_after_four_tries() {
    let body = feed_body();
    let server = serve(move |path, _| {
        if path.starts_with("/busy.test/") {
            Reply::new(429)
        } else if path.starts_with("/down.test/") {
            Reply::new(503)
        } else {
            Reply::ok(body.clone())
        }
    });
    let busy = source("busy", "busy.test", 150, &["a.json", "b.json"]);
    let busy_too = source("busytoo", "busy.test", 150, &["c.json"]);
    let down = source("down", "down.test", 100, &["a.json", "b.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[busy, down, busy_too]);
    let reqs = server.requests();
    assert_manners(&reqs);
    for (host, delay, status) in [("busy.test", 150u64, "429"), ("down.test", 100, "503")] {
        let seen = to_host(&reqs, host);
        assert_eq!(paths(&seen), vec![format!("/{host}/feeds/a.json"); 4], "4 tries of the first URL, then nothing more to {host}");
        let g = gaps(&seen);
        for (i, gap) in g.iter().enumerate() {
            let want = ms(delay << i);
            assert!(*gap >= want, "{host}: retry {} after {gap:?}, backoff asks {want:?}", i + 1);
            assert!(*gap < want * 2, "{host}: retry {} after {gap:?}: not a doubling from {want:?}", i + 1);
        }
        let id = if host == "busy.test" { "busy" } else { "down" };
        let s = report(&r, id);
        assert_eq!(s.status, "failed", "{s:?}");
        assert!(s.message.contains(status) && s.message.contains("4 times"), "the reason is recorded: {}", s.message);
        assert_eq!(s.requests, 4);
        let state = Store::open(&db).unwrap().source_state(id).unwrap();
        assert_eq!(state.last_status.map(|s| s.as_str()), Some("failed"));
        assert!(state.last_message.unwrap_or_default().contains(status));
    }
    let other = report(&r, "busytoo");
    assert_eq!(other.requests, 0, "the other source on the host that kept saying 429 is not fetched: {other:?}");
    assert_ne!(other.status, "ok");
}

/// P10: `Retry-After: 1` (delta-seconds) is honoured to the letter: the retry
/// comes no sooner than one second later, though the host's delay is 100 ms.
#[test]
fn retry_after_delta_seconds_is_honoured() {
    let body = feed_body();
    let server = serve(move |_, n| if n == 0 { Reply::new(429).header("Retry-After", "1") } else { Reply::ok(body.clone()) });
    let a = source("ra", "ra.test", 100, &["a.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[a]);
    let reqs = server.requests();
    assert_manners(&reqs);
    let seen = to_host(&reqs, "ra.test");
    assert_eq!(seen.len(), 2);
    let g = gaps(&seen)[0];
    assert!(g >= Duration::from_secs(1), "retried after {g:?}, Retry-After said 1 s");
    assert!(g < ms(1600), "retried after {g:?}: the wait is the one asked for, not more");
    assert_eq!(report(&r, "ra").status, "ok");
}

/// The three forms of an HTTP-date (RFC 9110 §5.6.7).
fn http_date_forms(t: SystemTime) -> [String; 3] {
    let secs = t.duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs() as i64;
    let ts = jiff::Timestamp::from_second(secs).unwrap();
    [httpdate::fmt_http_date(t), ts.strftime("%A, %d-%b-%y %H:%M:%S GMT").to_string(), ts.strftime("%a %b %e %H:%M:%S %Y").to_string()]
}

/// P10: `Retry-After` as an HTTP-date in all three forms (IMF-fixdate,
/// RFC 850, asctime) is honoured to the letter: the retry reaches the server
/// at or after that instant, never before.
#[test]
fn retry_after_http_date_in_all_three_forms_is_never_undercut() {
    let body = feed_body();
    // When each 503 went out and the date it named; when each request arrived.
    let named: Arc<Mutex<HashMap<String, SystemTime>>> = Arc::default();
    let arrived: Arc<Mutex<Vec<(String, SystemTime)>>> = Arc::default();
    let (n2, a2) = (named.clone(), arrived.clone());
    let server = serve(move |path, n| {
        a2.lock().unwrap().push((path.to_string(), SystemTime::now()));
        if n > 0 {
            return Reply::ok(body.clone());
        }
        let target = SystemTime::now() + Duration::from_secs(2);
        let forms = http_date_forms(target);
        let (i, _) = ["/imf.test/", "/rfc850.test/", "/asctime.test/"].iter().enumerate().find(|(_, h)| path.starts_with(**h)).unwrap();
        // The date names a whole second; that truncated instant is the target.
        let named_at = httpdate::parse_http_date(&forms[i]).unwrap();
        n2.lock().unwrap().insert(path.to_string(), named_at);
        Reply::new(503).header("Retry-After", &forms[i])
    });
    let adapters: Vec<&'static dyn Adapter> = vec![
        source("imf", "imf.test", 100, &["a.json"]),
        source("rfc850", "rfc850.test", 100, &["a.json"]),
        source("asctime", "asctime.test", 100, &["a.json"]),
    ];
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    assert_manners(&server.requests());
    let named = named.lock().unwrap();
    let arrived = arrived.lock().unwrap();
    for host in ["imf.test", "rfc850.test", "asctime.test"] {
        let path = format!("/{host}/feeds/a.json");
        let times: Vec<SystemTime> = arrived.iter().filter(|(p, _)| *p == path).map(|(_, t)| *t).collect();
        assert_eq!(times.len(), 2, "{host}: one 503, one retry");
        let target = named[&path];
        assert!(times[1] >= target, "{host}: retry arrived {:?} before the date named", target.duration_since(times[1]).unwrap());
        assert!(times[1].duration_since(times[0]).unwrap() >= Duration::from_secs(1), "{host}");
    }
    for id in ["imf", "rfc850", "asctime"] {
        assert_eq!(report(&r, id).status, "ok", "{id}");
    }
    // Interleaved: the three waits overlap, so every host's first request
    // arrived before any host's retry.
    let positions: Vec<usize> = ["imf.test", "rfc850.test", "asctime.test"]
        .iter()
        .map(|h| arrived.iter().position(|(p, _)| p.starts_with(&format!("/{h}/"))).unwrap())
        .collect();
    assert!(positions.iter().all(|&p| p < 3), "a retry came before another host's first request: {positions:?}");
}

/// P10: a Retry-After date in the past means no extra wait: three 429s in a
/// row are each retried after the host's delay (300 ms), not after a backoff
/// that would double (300, 600, 1200 ms), and never sooner than the delay.
#[test]
fn retry_after_in_the_past_waits_only_the_host_delay() {
    let body = feed_body();
    let server =
        serve(move |_, n| if n < 3 { Reply::new(429).header("Retry-After", "Sun Nov  6 08:49:37 1994") } else { Reply::ok(body.clone()) });
    let a = source("past", "past.test", 300, &["a.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[a]);
    let reqs = server.requests();
    assert_manners(&reqs);
    let seen = to_host(&reqs, "past.test");
    assert_eq!(seen.len(), 4);
    for g in gaps(&seen) {
        assert!(g >= ms(300), "{g:?} is under the host delay");
        assert!(g < ms(580), "{g:?}: a past date asks for no extra wait");
    }
    assert_eq!(report(&r, "past").status, "ok");
}

/// P10: an unusable Retry-After (`-5`, `abc`, `1e3`, `1.5`) is ignored and
/// the normal backoff applies: d, then 2d. (A number too big for sense is
/// not unusable: it is capped at a week, issue 10 item 7, see
/// `polite_ledger::a_huge_retry_after_is_capped_and_remembered_p10`.)
#[test]
fn unusable_retry_after_falls_back_to_the_normal_backoff() {
    let body = feed_body();
    let values = ["-5", "abc", "1e3", "1.5"];
    let hosts = ["neg.test", "abc.test", "exp.test", "frac.test"];
    let server = serve(move |path, n| {
        let i = hosts.iter().position(|h| path.starts_with(&format!("/{h}/"))).unwrap();
        if n < 2 { Reply::new(429).header("Retry-After", values[i]) } else { Reply::ok(body.clone()) }
    });
    let adapters: Vec<&'static dyn Adapter> = vec![
        source("neg", "neg.test", 200, &["a.json"]),
        source("abc", "abc.test", 200, &["a.json"]),
        source("exp", "exp.test", 200, &["a.json"]),
        source("frac", "frac.test", 200, &["a.json"]),
    ];
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    for (host, value) in hosts.iter().zip(values) {
        let seen = to_host(&reqs, host);
        assert_eq!(seen.len(), 3, "{host}");
        let g = gaps(&seen);
        assert!(g[0] >= ms(200) && g[0] < ms(400), "{host} ({value}): first retry after {:?}", g[0]);
        assert!(g[1] >= ms(400) && g[1] < ms(800), "{host} ({value}): second retry after {:?}, backoff asks 400 ms", g[1]);
    }
    for a in &adapters {
        assert_eq!(report(&r, a.manifest().id).status, "ok");
    }
}

/// P10: a Retry-After beyond the cap (default `Limits::max_wait`, 5 min) is not
/// waited: the host is skipped for this run with the reason recorded, and no
/// other request goes to it (another source on the same host included).
#[test]
fn retry_after_beyond_the_cap_skips_the_host_for_the_run() {
    let server = serve(|_, _| Reply::new(429).header("Retry-After", "7200"));
    let a = source("far", "far.test", 100, &["a.json", "b.json"]);
    let b = source("fartoo", "far.test", 100, &["c.json"]);
    let (_d, db) = fresh_db();
    // Had the 7200 s been waited, this call would not return within the test.
    let r = run_once(&db, &server, &[a, b]);
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(paths(&to_host(&reqs, "far.test")), vec!["/far.test/feeds/a.json"]);
    for id in ["far", "fartoo"] {
        let s = report(&r, id);
        assert_eq!(s.status, "skipped", "{s:?}");
        assert!(s.message.contains("7200") && s.message.contains("cap"), "the reason is recorded: {}", s.message);
        let st = Store::open(&db).unwrap().source_state(id).unwrap();
        assert!(st.last_message.unwrap_or_default().contains("7200"));
    }
}

/// P10: the backoff itself is capped too: with `max_wait` at 300 ms and a
/// 200 ms delay, the second backoff (400 ms) is not waited; the host is skipped.
#[test]
fn backoff_beyond_the_cap_skips_the_host() {
    let server = serve(|_, _| Reply::new(503));
    let a = source("capped", "capped.test", 200, &["a.json"]);
    let (_d, db) = fresh_db();
    let limits = Limits { max_wait: ms(300), ..Limits::default() };
    let r = run_with(&db, &server.url(), &[a], Config::enable_all(), limits);
    let seen = server.requests();
    assert_manners(&seen);
    assert_eq!(seen.len(), 2, "one 503, one retry after 200 ms, then the 400 ms backoff is over the cap");
    let s = report(&r, "capped");
    assert_eq!(s.status, "skipped", "{s:?}");
    assert!(s.message.contains("cap"), "{}", s.message);
}

/// P10: a 429 pauses the whole host, not only the URL that got it: another
/// source's request to the same host waits out the Retry-After as well.
#[test]
fn a_429_pauses_the_whole_host() {
    let body = feed_body();
    let server = Server::start(move |_, i| if i == 0 { Reply::new(429).header("Retry-After", "1") } else { Reply::ok(body.clone()) });
    let a = source("first", "shared.test", 100, &["a.json"]);
    let b = source("second", "shared.test", 100, &["b.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[a, b]);
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(reqs.len(), 3, "{:?}", reqs.iter().map(|s| &s.path).collect::<Vec<_>>());
    for later in &reqs[1..] {
        let g = later.at.duration_since(reqs[0].at);
        assert!(g >= Duration::from_secs(1), "{} came {g:?} after the 429 that asked for 1 s", later.path);
    }
    assert!(reqs[1..].iter().any(|s| s.path == "/shared.test/feeds/b.json"));
    assert_eq!(report(&r, "first").status, "ok");
    assert_eq!(report(&r, "second").status, "ok");
}

// ---------------------------------------------------------------- P11 blocks

/// P11: 401, 403 and 451 are a "no": no further request to that host in this
/// run (not the source's other feed, not another source on the host), the
/// source is `refused`, and the source's state (what `source list` shows)
/// says so until a later run succeeds.
#[test]
fn blocks_stop_the_host_and_the_source_is_refused_until_a_success() {
    let body = feed_body();
    let open = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let open2 = open.clone();
    let server = serve(move |path, _| {
        if open2.load(Ordering::SeqCst) {
            return Reply::ok(body.clone());
        }
        let status = path.split('/').nth(1).unwrap().trim_start_matches('s').split('.').next().unwrap().parse().unwrap();
        Reply::new(status)
    });
    let mut adapters: Vec<&'static dyn Adapter> = Vec::new();
    for (host, id, other) in [("s401.test", "b401", "c401"), ("s403.test", "b403", "c403"), ("s451.test", "b451", "c451")] {
        adapters.push(source(id, host, 100, &["a.json", "b.json"]));
        adapters.push(source(other, host, 100, &["c.json"]));
    }
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    for (host, id, other, status) in
        [("s401.test", "b401", "c401", "401"), ("s403.test", "b403", "c403", "403"), ("s451.test", "b451", "c451", "451")]
    {
        assert_eq!(to_host(&reqs, host).len(), 1, "{host}: one request, then none: {:?}", paths(&to_host(&reqs, host)));
        let first = to_host(&reqs, host)[0].path.clone();
        let (asked, spared) = if first.ends_with("/c.json") { (other, id) } else { (id, other) };
        let s = report(&r, asked);
        assert_eq!(s.status, "refused", "{s:?}");
        assert!(s.message.contains(status), "{}", s.message);
        let s = report(&r, spared);
        assert_eq!((s.status.as_str(), s.requests), ("refused", 0), "{s:?}");
        let st = Store::open(&db).unwrap().source_state(id).unwrap();
        assert_eq!(st.last_status.map(|s| s.as_str()), Some("refused"), "what `source list` shows for {id}");
    }
    // A later run that does not reach the source (outside its hours) leaves it shown.
    let now = jiff::Timestamp::now().in_tz("Europe/Madrid").unwrap();
    let later = (now.hour() as i32 + 3).rem_euclid(24);
    let away = format!("{later:02}:00-{:02}:00", (later + 1) % 24);
    let before = server.requests().len();
    let r1b = run_with(&db, &server.url(), &adapters, config_with(&[("b403", row(None, Some(&away)))]), Limits::default());
    assert_eq!(report(&r1b, "b403").status, "skipped");
    assert!(to_host(&server.requests()[before..], "s403.test").len() <= 1);
    let st = Store::open(&db).unwrap().source_state("b403").unwrap();
    assert_eq!(st.last_status.map(|s| s.as_str()), Some("refused"), "a skipped run hid the refusal: {st:?}");
    // A later run that succeeds clears it.
    open.store(true, Ordering::SeqCst);
    let r2 = run_once(&db, &server, &adapters);
    for a in &adapters {
        let id = a.manifest().id;
        assert_eq!(report(&r2, id).status, "ok", "{id}");
        assert_eq!(Store::open(&db).unwrap().source_state(id).unwrap().last_status.map(|s| s.as_str()), Some("ok"));
    }
}

// ---------------------------------------------------------------- P15 reservations

/// P15: a rights reservation on a feed response (`tdm-reservation: 1`,
/// `X-Robots-Tag: noai`, `X-Robots-Tag: CityVibeBot: noml`) is a "no" like a
/// block: nothing of it is parsed or stored (no events, no validators), the
/// source is `refused`, and no further request goes to that host. A
/// reservation addressed to another bot is not ours.
#[test]
fn rights_reservations_are_a_no_and_nothing_is_stored() {
    let body = feed_body();
    let server = serve(move |path, _| {
        let r = Reply::ok(body.clone()).header("ETag", "\"e1\"");
        match path.split('/').nth(1).unwrap() {
            "tdm.test" => r.header("tdm-reservation", "1"),
            "noai.test" => r.header("X-Robots-Tag", "noai"),
            "scoped.test" => r.header("X-Robots-Tag", "noindex").header("X-Robots-Tag", "CityVibeBot: noml"),
            _ => r.header("X-Robots-Tag", "otherbot: noai").header("tdm-reservation", "0"),
        }
    });
    let cases = [("tdm", "tdm.test"), ("noai", "noai.test"), ("scoped", "scoped.test"), ("otherbot", "other.test")];
    let mut adapters: Vec<&'static dyn Adapter> = Vec::new();
    for (id, host) in cases {
        adapters.push(source(id, host, 100, &["a.json", "b.json"]));
        adapters.push(source(leak_str(format!("{id}2")), host, 100, &["c.json"]));
    }
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    let store = Store::open(&db).unwrap();
    for (id, host) in &cases[..3] {
        assert_eq!(to_host(&reqs, host).len(), 1, "{host}: {:?}", paths(&to_host(&reqs, host)));
        for sid in [id.to_string(), format!("{id}2")] {
            let s = report(&r, &sid);
            assert_eq!(s.status, "refused", "{s:?}");
            assert_eq!(store.count_events(&sid).unwrap(), (0, 0), "{sid}: nothing stored");
        }
        let asked = &to_host(&reqs, host)[0].path;
        let url = format!("https:/{asked}");
        assert_eq!(store.validators(&url).unwrap(), Default::default(), "{url}: no validators kept");
        let s = if asked.ends_with("/c.json") { report(&r, &format!("{id}2")) } else { report(&r, id) };
        assert!(s.message.contains("P15") && s.message.contains("nothing"), "{}", s.message);
    }
    // Not for us: fetched and stored.
    assert_eq!(report(&r, "otherbot").status, "ok");
    assert!(store.count_events("otherbot").unwrap().0 > 0);
}

// ---------------------------------------------------------------- caps

/// Daily cap (P7, P8): at most `daily_cap` requests per host per day, counted
/// across runs (and processes and databases) in the host ledger; a request that timed out still reached the
/// host and counts. With a cap of 3: a 200, a timeout, a 200, then the fourth
/// run sends nothing and says why.
#[test]
fn daily_cap_counts_every_request_across_runs() {
    let body = feed_body();
    let server = serve(move |_, n| match n {
        1 => Reply { trickle: Some(Duration::from_secs(3)), ..Reply::ok(body.clone()) },
        _ => Reply::ok(body.clone()),
    });
    let a = variant(source("capd", "capd.test", 100, &["a.json"]), Some(3), &[]);
    let (_d, db) = fresh_db();
    let limits = Limits { read_timeout: ms(300), total_timeout: Duration::from_secs(2), ..Limits::default() };
    let statuses: Vec<String> = (0..4)
        .map(|_| report(&run_with(&db, &server.url(), &[a], Config::enable_all(), limits.clone()), "capd").clone())
        .map(|s| s.status.to_string())
        .collect();
    assert_eq!(statuses[..3], ["ok", "failed", "unchanged"]);
    assert_eq!(statuses[3], "skipped");
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(reqs.len(), 3, "the cap of 3 held across runs");
    let st = Store::open(&db).unwrap().source_state("capd").unwrap();
    assert!(st.last_message.unwrap_or_default().contains("daily cap of 3"));
}

/// Body cap: a body over `Limits::max_body_bytes` is refused when announced
/// (Content-Length) and cut off while streaming when not announced: the
/// source is `failed`, nothing is stored, and the server could not push more
/// than a bounded amount before the client hung up (no memory blow-up).
#[test]
fn body_over_the_cap_is_aborted() {
    let limits = Limits { max_body_bytes: 4096, ..Limits::default() };
    // Announced: the sample feed is 15 KB.
    let body = feed_body();
    assert!(body.len() > 4096);
    let server = serve(move |_, _| Reply::ok(body.clone()));
    let a = source("big", "big.test", 100, &["a.json"]);
    let (_d, db) = fresh_db();
    let r = run_with(&db, &server.url(), &[a], Config::enable_all(), limits.clone());
    assert_eq!(server.requests().len(), 1);
    let s = report(&r, "big");
    assert_eq!(s.status, "failed", "{s:?}");
    assert!(s.message.contains("cap"), "{}", s.message);
    assert_eq!(events(&db, "big"), 0);

    // Not announced: a raw server streams until the client hangs up.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let written = Arc::new(AtomicU64::new(0));
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let (w2, s2) = (written.clone(), seen.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            s2.lock().unwrap().push(line.trim().to_string());
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                    break;
                }
            }
            let mut out = stream;
            out.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[").unwrap();
            let chunk = vec![b' '; 64 * 1024];
            for _ in 0..(1024 * 1024 * 1024 / chunk.len()) {
                if out.write_all(&chunk).is_err() {
                    break;
                }
                w2.fetch_add(chunk.len() as u64, Ordering::SeqCst);
            }
        }
    });
    let b = source("stream", "stream.test", 100, &["a.json"]);
    let r = run_with(&db, &format!("http://127.0.0.1:{port}"), &[b], Config::enable_all(), limits);
    let s = report(&r, "stream");
    assert_eq!(s.status, "failed", "{s:?}");
    assert!(s.message.contains("cap"), "{}", s.message);
    assert_eq!(seen.lock().unwrap().as_slice(), ["GET /stream.test/feeds/a.json HTTP/1.1"]);
    std::thread::sleep(ms(200));
    let pushed = written.load(Ordering::SeqCst);
    assert!(pushed < 64 * 1024 * 1024, "the client kept reading: the server pushed {pushed} bytes for a 4 KB cap");
    assert_eq!(events(&db, "stream"), 0);
}

/// Timeouts: a server that trickles its body a byte at a time is cut off by
/// the total timeout; one that stalls mid-body is cut off by the read
/// timeout. Both sources are `failed` ("timed out"), each after one request.
#[test]
fn trickling_and_stalling_servers_are_cut_off() {
    let body = feed_body();
    let server = serve(move |path, _| {
        let pause = if path.starts_with("/trickle.test/") { ms(20) } else { Duration::from_secs(30) };
        Reply { trickle: Some(pause), ..Reply::ok(body.clone()) }
    });
    // Total: 1.5 s; a byte every 20 ms never trips the 1 s read timeout.
    let trickle = source("trickle", "trickle.test", 100, &["a.json"]);
    let (_d, db) = fresh_db();
    let limits = Limits { read_timeout: Duration::from_secs(1), total_timeout: ms(1500), ..Limits::default() };
    let started = Instant::now();
    let r = run_with(&db, &server.url(), &[trickle], Config::enable_all(), limits);
    let took = started.elapsed();
    assert!(took >= ms(1400) && took < ms(3500), "cut off by the total timeout after {took:?}");
    let s = report(&r, "trickle");
    assert_eq!(s.status, "failed", "{s:?}");
    assert!(s.message.contains("timed out"), "{}", s.message);

    // Read: a byte, then nothing for 30 s; the read timeout is 300 ms.
    let stall = source("stall", "stall.test", 100, &["a.json"]);
    let limits = Limits { read_timeout: ms(300), total_timeout: Duration::from_secs(20), ..Limits::default() };
    let started = Instant::now();
    let r = run_with(&db, &server.url(), &[stall], Config::enable_all(), limits);
    let took = started.elapsed();
    assert!(took < ms(2500), "cut off by the read timeout after {took:?}");
    let s = report(&r, "stall");
    assert_eq!(s.status, "failed", "{s:?}");
    assert!(s.message.contains("timed out"), "{}", s.message);

    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(to_host(&reqs, "trickle.test").len(), 1);
    assert_eq!(to_host(&reqs, "stall.test").len(), 1);
}

// ---------------------------------------------------------------- P8, P9 delays

/// P8: the delay holds across processes: the last request time per host is
/// in the host ledger, so a run started right after another (new store
/// connection, new client, new scheduler) still waits the host's delay.
#[test]
fn a_second_run_right_after_the_first_still_waits_the_delay() {
    let body = feed_body();
    let server = serve(move |_, _| Reply::ok(body.clone()));
    let a = source("twice", "twice.test", 400, &["a.json"]);
    let (_d, db) = fresh_db();
    assert_eq!(report(&run_once(&db, &server, &[a]), "twice").status, "ok");
    assert_eq!(report(&run_once(&db, &server, &[a]), "twice").status, "unchanged");
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(reqs.len(), 2);
    assert_spaced(&to_host(&reqs, "twice.test"), ms(400));
}

/// P9: sources.toml `min_delay_secs` makes a source slower (0.5 s over the
/// adapter's 0.1 s, on the wire), and never faster: a value under the
/// adapter's minimum is refused naming that minimum, and even if a caller
/// skipped validation the adapter's minimum still holds.
#[test]
fn config_delay_can_slow_a_source_never_speed_it_up() {
    let body = feed_body();
    let server = serve(move |path, _| if path.ends_with("/missing.json") { Reply::new(404) } else { Reply::ok(body.clone()) });
    let slow = source("slow", "slow.test", 100, &["missing.json", "a.json"]);
    let fast = source("fast", "fast.test", 300, &["missing.json", "a.json"]);
    let adapters: Vec<&'static dyn Adapter> = vec![slow, fast];
    let config = config_with(&[("slow", row(Some(0.5), None)), ("fast", row(Some(0.05), None))]);
    let err = config.validate(&adapters).unwrap_err().to_string();
    assert!(err.contains("fast") && err.contains("minimum of 0.3 s"), "{err}");
    let (_d, db) = fresh_db();
    let r = run_with(&db, &server.url(), &adapters, config, Limits::default());
    let reqs = server.requests();
    assert_manners(&reqs);
    let slow_seen = to_host(&reqs, "slow.test");
    assert_eq!(slow_seen.len(), 2);
    assert_spaced(&slow_seen, ms(500));
    let fast_seen = to_host(&reqs, "fast.test");
    assert_eq!(fast_seen.len(), 2);
    assert_spaced(&fast_seen, ms(300));
    assert_eq!(report(&r, "slow").status, "ok");
}

/// P9: `hours = "HH:MM-HH:MM"` (Europe/Madrid): outside the window the source
/// is `skipped` and its host sees no request; inside, it is fetched.
#[test]
fn hours_window_outside_means_skipped_and_no_request() {
    let body = feed_body();
    let server = serve(move |_, _| Reply::ok(body.clone()));
    let now = jiff::Timestamp::now().in_tz("Europe/Madrid").unwrap();
    let minute = now.hour() as i32 * 60 + now.minute() as i32;
    let hhmm = |m: i32| {
        let m = m.rem_euclid(1440);
        format!("{:02}:{:02}", m / 60, m % 60)
    };
    let outside = format!("{}-{}", hhmm(minute + 120), hhmm(minute + 240));
    let inside = format!("{}-{}", hhmm(minute - 120), hhmm(minute + 120));
    let night = source("night", "night.test", 100, &["a.json"]);
    let day = source("day", "day.test", 100, &["a.json"]);
    let config = config_with(&[("night", row(None, Some(&outside))), ("day", row(None, Some(&inside)))]);
    let (_d, db) = fresh_db();
    let r = run_with(&db, &server.url(), &[night, day], config, Limits::default());
    let reqs = server.requests();
    assert_manners(&reqs);
    assert!(to_host(&reqs, "night.test").is_empty());
    assert_eq!(to_host(&reqs, "day.test").len(), 1);
    let s = report(&r, "night");
    assert_eq!(s.status, "skipped");
    assert!(s.message.contains(&outside), "{}", s.message);
    assert_eq!(report(&r, "day").status, "ok");
}

// ---------------------------------------------------------------- P13 redirects

/// P13: redirects are never followed blindly. A relative Location is
/// resolved; each hop is checked against the manifest (host + path prefix)
/// BEFORE any request, so nothing reaches an off-host, off-path or plain-http
/// target; a loop is detected; at most 3 hops; each hop waits the host's
/// delay and is written to the fetch log.
#[test]
fn redirects_are_checked_before_any_request() {
    let body = feed_body();
    let server = serve(move |path, _| {
        let loc = match path {
            "/rel.test/feeds/a.json" => "b.json",
            "/rel.test/feeds/b.json" => "/feeds/c.json",
            "/offhost.test/feeds/a.json" => "https://evil.test/feeds/a.json",
            "/offpath.test/feeds/a.json" => "/private/a.json",
            "/http.test/feeds/a.json" => "http://http.test/feeds/b.json",
            "/loop.test/feeds/a.json" => "b.json",
            "/loop.test/feeds/b.json" => "a.json",
            "/hops.test/feeds/a.json" => "b.json",
            "/hops.test/feeds/b.json" => "c.json",
            "/hops.test/feeds/c.json" => "d.json",
            "/hops.test/feeds/d.json" => "e.json",
            _ => return Reply::ok(body.clone()),
        };
        let status = if path.ends_with("b.json") { 307 } else { 302 };
        Reply::new(status).header("Location", loc)
    });
    let ids = ["rel", "offhost", "offpath", "http", "loop", "hops"];
    let adapters: Vec<&'static dyn Adapter> =
        ids.iter().map(|id| source(id, leak_str(format!("{id}.test")), 150, &["a.json"]) as &dyn Adapter).collect();
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    let p = |host: &str| paths(&to_host(&reqs, host));
    assert_eq!(p("rel.test"), ["/rel.test/feeds/a.json", "/rel.test/feeds/b.json", "/rel.test/feeds/c.json"]);
    assert_eq!(report(&r, "rel").status, "ok");
    for (id, host) in [("offhost", "offhost.test"), ("offpath", "offpath.test"), ("http", "http.test")] {
        assert_eq!(p(host), [format!("/{host}/feeds/a.json")], "{id}: the hop was refused before any request");
        let s = report(&r, id);
        assert_eq!(s.status, "refused", "{s:?}");
        assert!(s.message.contains("P13"), "{}", s.message);
    }
    assert!(to_host(&reqs, "evil.test").is_empty());
    assert_eq!(p("loop.test"), ["/loop.test/feeds/a.json", "/loop.test/feeds/b.json"]);
    let s = report(&r, "loop");
    assert_eq!(s.status, "failed");
    assert!(s.message.contains("loop"), "{}", s.message);
    assert_eq!(
        p("hops.test"),
        ["/hops.test/feeds/a.json", "/hops.test/feeds/b.json", "/hops.test/feeds/c.json", "/hops.test/feeds/d.json"]
    );
    let s = report(&r, "hops");
    assert_eq!(s.status, "failed");
    assert!(s.message.contains("more than 3 redirects"), "{}", s.message);
    // Paced and logged, hop by hop.
    let store = Store::open(&db).unwrap();
    for id in ids {
        let host = format!("{id}.test");
        let seen = to_host(&reqs, &host);
        assert_spaced(&seen, ms(150));
        let logged: Vec<String> = store
            .connection()
            .prepare("SELECT url FROM fetch_log WHERE host = ?1 ORDER BY id")
            .unwrap()
            .query_map([&host], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let on_wire: Vec<String> = seen.iter().map(|s| format!("https:/{}", s.path)).collect();
        assert_eq!(logged, on_wire, "{host}: every hop logged");
    }
}

/// P13, P8: a hop to another host (allowed by the manifest) is paced by THAT
/// host's delay: another source fetched it 400 ms before at most, so the hop
/// waits, though the redirecting source's own delay is 100 ms.
#[test]
fn a_hop_to_another_host_waits_that_hosts_delay() {
    let body = feed_body();
    let server = serve(move |path, _| {
        if path == "/from.test/feeds/a.json" {
            Reply::new(301).header("Location", "https://to.test/feeds/moved.json")
        } else {
            Reply::ok(body.clone())
        }
    });
    let from = variant(source("from", "from.test", 100, &["a.json"]), None, &[("to.test", "/feeds/")]);
    let to = source("to", "to.test", 400, &["b.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[from, to]);
    let reqs = server.requests();
    assert_manners(&reqs);
    let seen = to_host(&reqs, "to.test");
    let mut got = paths(&seen);
    got.sort();
    assert_eq!(got, ["/to.test/feeds/b.json", "/to.test/feeds/moved.json"]);
    assert_spaced(&seen, ms(400));
    assert_eq!(report(&r, "from").status, "ok");
    assert_eq!(report(&r, "to").status, "ok");
}

// ---------------------------------------------------------------- P12 unchanged bodies

/// P12: a 200 whose body hashes like the last stored one is `unchanged`: not
/// parsed, nothing written but the fetch log (an event deleted behind the
/// store's back is not brought back). A 304 costs nothing either, and its
/// validators replace the stored ones: the next request carries them.
#[test]
fn same_body_is_unchanged_and_304_refreshes_validators() {
    let body = feed_body();
    let server = serve(move |path, n| {
        if path.starts_with("/same.test/") {
            return Reply::ok(body.clone());
        }
        match n {
            0 => Reply::ok(body.clone()).header("ETag", "\"v1\"").header("Last-Modified", "Sun, 01 Nov 2026 10:00:00 GMT"),
            1 => Reply::new(304).header("ETag", "\"v2\"").header("Last-Modified", "Mon, 02 Nov 2026 10:00:00 GMT"),
            _ => Reply::new(304),
        }
    });
    let same = source("same", "same.test", 100, &["a.json"]);
    let cond = source("cond", "cond.test", 100, &["a.json"]);
    let (_d, db) = fresh_db();
    let r1 = run_once(&db, &server, &[same, cond]);
    assert_eq!(report(&r1, "same").status, "ok");
    assert_eq!(report(&r1, "cond").status, "ok");
    let stored = events(&db, "same");
    assert!(stored > 1);
    Store::open(&db)
        .unwrap()
        .connection()
        .execute("DELETE FROM events WHERE id = (SELECT min(id) FROM events WHERE source = 'same')", [])
        .unwrap();
    let r2 = run_once(&db, &server, &[same, cond]);
    let s = report(&r2, "same");
    assert_eq!((s.status.as_str(), s.added, s.updated), ("unchanged", 0, 0), "{s:?}");
    assert_eq!(events(&db, "same"), stored - 1, "the body was not parsed nor stored again");
    let c = report(&r2, "cond");
    assert_eq!((c.status.as_str(), c.not_modified), ("unchanged", 1), "{c:?}");
    let r3 = run_once(&db, &server, &[same, cond]);
    assert_eq!(report(&r3, "cond").status, "unchanged");

    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(to_host(&reqs, "same.test").len(), 3);
    let c = to_host(&reqs, "cond.test");
    assert_eq!(c.len(), 3);
    assert_eq!(c[0].header("if-none-match"), None);
    assert_eq!(c[1].header("if-none-match"), Some("\"v1\""));
    assert_eq!(c[1].header("if-modified-since"), Some("Sun, 01 Nov 2026 10:00:00 GMT"));
    assert_eq!(c[2].header("if-none-match"), Some("\"v2\""), "the 304's validators were stored");
    assert_eq!(c[2].header("if-modified-since"), Some("Mon, 02 Nov 2026 10:00:00 GMT"));
}

// ---------------------------------------------------------------- P8 interleaving

/// P8: all hosts interleaved on one thread: three hosts (200, 300, 400 ms
/// delays, four requests each) finish in under 0.6× the sum of their
/// schedules, while every gap to each host stays at least its delay. Jitter,
/// if any, may only add: no gap is ever under the delay. Set-Cookie is
/// ignored (P2).
#[test]
fn hosts_are_interleaved_and_each_keeps_its_delay() {
    let body = feed_body();
    let server = serve(move |path, _| {
        if path.ends_with("/d.json") {
            Reply::ok(body.clone()).header("Set-Cookie", "session=abc; Path=/")
        } else {
            Reply::new(404).header("Set-Cookie", "tracker=1")
        }
    });
    let names = ["a.json", "b.json", "c.json", "d.json"];
    let hosts = [("one", "one.test", 200u64), ("two", "two.test", 300), ("three", "three.test", 400)];
    let adapters: Vec<&'static dyn Adapter> = hosts.iter().map(|(id, h, d)| source(id, h, *d, &names) as &dyn Adapter).collect();
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    for (id, host, delay) in hosts {
        let seen = to_host(&reqs, host);
        assert_eq!(seen.len(), 4, "{host}");
        assert_spaced(&seen, ms(delay));
        assert_eq!(report(&r, id).status, "ok");
    }
    // Interleaved: the hosts' requests are mixed, not one host after another.
    let order: Vec<&str> = reqs.iter().map(|s| s.path.split('/').nth(1).unwrap()).collect();
    assert_ne!(order[..4], ["one.test"; 4], "{order:?}");
    // No host waits for another's schedule: the first three requests go to
    // the three hosts (an ordering, where a stopwatch would flake under load).
    let mut first_three = order[..3].to_vec();
    first_three.sort();
    assert_eq!(first_three, ["one.test", "three.test", "two.test"], "{order:?}");
}

// ---------------------------------------------------------------- P17 source show

/// P17: `cityvibe source show ID --json` reports, from the fetch log, what
/// the server saw: requests per day, the smallest gap between two requests
/// to the host, status counts, the 304 share and the bytes sent.
#[test]
fn source_show_reports_what_the_server_saw() {
    let body = feed_body();
    let len = body.len() as u64;
    let server = serve(move |path, n| {
        if path.ends_with("/gone.json") {
            Reply::new(404)
        } else if n == 0 {
            Reply::ok(body.clone()).header("ETag", "\"x\"")
        } else {
            Reply::new(304)
        }
    });
    // The real madrid id and host, so the binary's `source show madrid` reads these rows.
    let m = source("madrid", "datos.madrid.es", 150, &["gone.json", "a.json"]);
    let (dir, db) = fresh_db();
    for _ in 0..3 {
        run_once(&db, &server, &[m]);
    }
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(reqs.len(), 6);
    let server_min_gap = gaps(&reqs.iter().collect::<Vec<_>>()).into_iter().min().unwrap();
    assert!(server_min_gap >= ms(150));

    std::fs::write(dir.path().join("sources.toml"), "").unwrap();
    let db_arg = db.to_str().unwrap();
    let out = common::cityvibe(dir.path(), &["--db", db_arg, "--config", "sources.toml", "source", "show", "madrid", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["fetch_log_30_days"];
    assert_eq!(s["requests"], 6);
    let per_day: u64 = s["requests_per_day"].as_array().unwrap().iter().map(|d| d[1].as_u64().unwrap()).sum();
    assert_eq!(per_day, 6);
    let statuses: HashMap<String, u64> =
        s["statuses"].as_array().unwrap().iter().map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap())).collect();
    assert_eq!(statuses, HashMap::from([("404".to_string(), 3), ("200".to_string(), 1), ("304".to_string(), 2)]));
    assert!((s["not_modified_share"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-9);
    assert_eq!(s["bytes"], len);
    let min_gap = s["min_gap_ms"].as_i64().unwrap();
    assert!(min_gap >= 150, "{min_gap}");
    let diff = (min_gap - server_min_gap.as_millis() as i64).abs();
    assert!(diff <= 50, "log says {min_gap} ms, the server saw {server_min_gap:?}");

    let out = common::cityvibe(dir.path(), &["--db", db_arg, "--config", "sources.toml", "source", "show", "madrid"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("requests 6") && text.contains("304 share 33") && text.contains("smallest gap"), "{text}");
}
