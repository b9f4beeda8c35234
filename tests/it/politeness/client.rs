//! The polite client, proven on the wire: every test runs the real
//! run engine (`ingest::run`) through the real scheduler and ureq client
//! against a loopback HTTP server, and asserts on what THAT SERVER saw
//! (arrival times, paths, headers), not only on our own fetch log.
//!
//! Test manifests are the madrid adapter under another id and host with
//! short delays (100–400 ms), so the rules are the real ones. Each test's
//! doc comment cites the POLICY ids it proves. This module holds the
//! helpers the tests share; the tests sit in its submodules, one per
//! concern.
//!
//! Time is simulated: the run keeps its rules in the server's
//! [`SimulatedClock`](cityvibe::http::SimulatedClock), whose waits pass at
//! once, and the server stamps each arrival with that clock. So a wait of
//! seconds costs nothing, and a gap the server saw is exactly the wait the
//! bot chose: timing is asserted both ways, never sooner than the rule and
//! no later than it asks, with no stopwatch a busy machine could break.
//! Only time is simulated: the sockets, the client, the SQLite store and
//! ledger are real. The real-time twins, through the binary, are in
//! `politeness::promises` and `politeness::ledger`.

mod answers;
mod backoff;
mod limits;
mod pacing;
mod redirects;

use crate::common;

use cityvibe::adapter::{Adapter, Feed, FeedRole, Format, Manifest, Paging, RedirectRule};
use cityvibe::config::{Config, SourceConfig};
use cityvibe::http::{Client, Clock, Limits, Mirror, USER_AGENT};
use cityvibe::ingest::{RunOptions, RunReport, run};
use cityvibe::store::Store;
use cityvibe::store::runs::SourceReport;
use cityvibe::vocab::RequestOutcome;
use common::server::{Reply, Seen, Server};
use common::{TestAdapter, madrid_like};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

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
        .map(|n| Feed {
            url: leak_str(format!("https://{host}/feeds/{n}")),
            format: Format::Json,
            lang: "es",
            role: FeedRole::Primary,
            paging: Paging::Whole,
        })
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

/// A server on simulated time whose handler is told the request path and
/// how many times that path was asked for before (0 for the first time).
fn serve(f: impl Fn(&str, usize) -> Reply + Send + Sync + 'static) -> Server {
    let counts: Mutex<HashMap<String, usize>> = Mutex::default();
    Server::simulated(move |seen: &Seen, _| {
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
/// new process would have), a client pointed at the test server, and the
/// server's (simulated) clock.
fn run_with(db: &Path, server: &Server, adapters: &[&'static dyn Adapter], config: Config, limits: Limits) -> RunReport {
    run_on(db, &server.url(), server.clock(), adapters, config, limits)
}

/// One run against the server at `url`, keeping its rules in `clock`.
fn run_on(db: &Path, url: &str, clock: &dyn Clock, adapters: &[&'static dyn Adapter], config: Config, limits: Limits) -> RunReport {
    let mut store = Store::open(db).unwrap();
    let client = Client::new(Some(Mirror::parse(url).unwrap()), limits);
    // Its own host ledger beside the database; `force`: these runs follow one
    // another within the period on purpose (P7 has its own tests), every
    // delay still holds.
    let ledger = common::ledger_beside(db);
    let opts = RunOptions { adapters, config, config_path: None, only: vec![], client: &client, ledger: &ledger, clock, force: true };
    run(&mut store, opts).unwrap()
}

/// `cityvibe audit` of these adapters' hosts, as a new process would do it
/// (its own store and ledger connections), on the server's (simulated) clock.
fn audit_with(db: &Path, server: &Server, adapters: &[&'static dyn Adapter], config: &Config) -> Vec<cityvibe::audit::SourceAudit> {
    let mut store = Store::open(db).unwrap();
    let client = Client::new(Some(Mirror::parse(&server.url()).unwrap()), Limits::default());
    let ledger = common::ledger_beside(db);
    cityvibe::audit::audit(&mut store, &client, &ledger, server.clock(), config, adapters).unwrap()
}

fn run_once(db: &Path, server: &Server, adapters: &[&'static dyn Adapter]) -> RunReport {
    run_with(db, server, adapters, Config::enable_all(), Limits::default())
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

/// Gaps between consecutive arrivals, by the server's (simulated) clock.
fn gaps(reqs: &[&Seen]) -> Vec<Duration> {
    reqs.windows(2).map(|w| gap(w[0], w[1])).collect()
}

/// How long after `a` the server saw `b`, by its (simulated) clock.
fn gap(a: &Seen, b: &Seen) -> Duration {
    ms(u64::try_from(b.at_ms - a.at_ms).unwrap_or_else(|_| panic!("{} arrived before {}", b.path, a.path)))
}

/// P8: every gap between two requests to the host is at least `min` (and,
/// time being simulated, exactly `min`: no more was waited than the rule asks).
/// A busy machine cannot lengthen a gap: the arrivals are stamped with the
/// run's own clock, which moves only when the run waits. The one thing of
/// the real world that makes a run wait is the host's lock (another process
/// talking to the host); a run holds it only while its own request is on
/// the wire (a copy of its descriptor in a process another test thread is
/// starting does not keep it, see `HostLock`), so a longer gap here is a
/// wait the scheduler chose.
#[track_caller]
fn assert_spaced(reqs: &[&Seen], min: Duration) {
    for (i, g) in gaps(reqs).iter().enumerate() {
        assert!(*g >= min, "request {} came {g:?} after the one before, under the delay {min:?}: {:?}", i + 1, paths(reqs));
        assert!(
            *g <= min + ms(1),
            "request {} came {g:?} after the one before, more than the delay {min:?} (the run waited for something else: \
             a backoff, a not-before time, the host's lock?): {:?}",
            i + 1,
            paths(reqs)
        );
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

/// What the bot decided for each request to `host`, oldest first, as its
/// fetch log keeps it: the waits it chose ("backoff 300 ms"), not the
/// server's clock.
fn outcomes(db: &Path, host: &str) -> Vec<RequestOutcome> {
    Store::open(db).unwrap().fetch_log(host, 0).unwrap().into_iter().map(|r| r.outcome).collect()
}

/// The position of each request to `host` in the order the server saw them.
fn arrivals(reqs: &[Seen], host: &str) -> Vec<usize> {
    let prefix = format!("/{host}/");
    reqs.iter().enumerate().filter(|(_, s)| s.path.starts_with(&prefix)).map(|(i, _)| i).collect()
}
