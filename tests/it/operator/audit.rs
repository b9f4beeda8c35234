//! `cityvibe audit` (P14): robots.txt, tdmrep.json and ai.txt of each host,
//! fetched through the polite client from a loopback server (`--mirror`),
//! read against the adapter's manifest. The binary tests use the real
//! madrid adapter (2 s delay: one audit costs about 4 s), one scenario per
//! test so they run in parallel; the digest tests call the library with a
//! test manifest that records a robots.txt digest and a short delay.
use crate::common;

use cityvibe::adapter::{Feed, FeedRole, Format, Licence, Manifest, Paging, Review};
use common::server::{Reply, Server};
use common::{cityvibe, workdir};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::time::Duration;

const ROBOTS: &str = "/datos.madrid.es/robots.txt";
const TDMREP: &str = "/datos.madrid.es/.well-known/tdmrep.json";
const AI: &str = "/datos.madrid.es/ai.txt";
const JSON_FEED: &str = "https://datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const CSV_FEED: &str = "https://datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv";

const TOML: &str = "# the operator's comment\n[sources.madrid]\nenabled = true\n\n# another\n[sources.jcyl]\nenabled = true\n";

/// A server answering the three audit paths (404 for anything else).
fn host(robots: Reply, tdmrep: Reply, ai: Reply) -> Server {
    Server::start(move |seen, _| {
        let p = seen.path.split('/').skip(2).collect::<Vec<_>>().join("/");
        match format!("/{p}").as_str() {
            "/robots.txt" => robots.clone(),
            "/.well-known/tdmrep.json" => tdmrep.clone(),
            "/ai.txt" => ai.clone(),
            _ => Reply::new(404),
        }
    })
}

/// `cityvibe audit --source madrid --json [extra]`: exit code, the madrid object, stderr.
fn audit(server: &Server, dir: &std::path::Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let mirror = server.url();
    let mut args = vec!["--db", "cityvibe.db", "--mirror", mirror.as_str(), "audit", "--source", "madrid", "--json"];
    args.extend_from_slice(extra);
    let out = cityvibe(dir, &args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
    let madrid = v["sources"].as_array().unwrap().iter().find(|s| s["id"] == "madrid").cloned().expect("madrid");
    assert_eq!(v["drift"], Value::Bool(out.status.code() == Some(1)), "{v}");
    (out.status.code(), madrid, stderr)
}

/// P1, P3, P8: every request carries the exact User-Agent, asks for one of
/// the three paths and nothing else (never a feed), and keeps madrid's 2 s.
fn assert_polite(server: &Server, expected: &[&str]) {
    let reqs = server.requests();
    let paths: Vec<&str> = reqs.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, expected, "only the three audit paths, in order");
    for r in &reqs {
        assert_eq!(r.method, "GET");
        assert_eq!(r.header_all("user-agent"), vec![cityvibe::http::USER_AGENT], "{r:?}");
        assert!(r.header("cookie").is_none() && r.header("authorization").is_none(), "{r:?}");
    }
    for w in reqs.windows(2) {
        let gap = w[1].at.duration_since(w[0].at);
        assert!(gap >= Duration::from_millis(1990), "{gap:?} between two requests, under madrid's 2 s (P8)");
    }
}

fn feed<'a>(madrid: &'a Value, url: &str) -> &'a Value {
    madrid["feeds"].as_array().unwrap().iter().find(|f| f["url"] == url).unwrap_or_else(|| panic!("{url} in {madrid}"))
}

fn sha256_hex(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn allowed_robots_is_no_drift_and_the_digest_is_printed_for_the_reviewer() {
    let body = "User-agent: *\nDisallow: /private/\nAllow: /\n";
    let server = host(Reply::ok(body), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, stderr) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(0), "{m}\n{stderr}");
    assert_polite(&server, &[ROBOTS, TDMREP, AI]);
    assert_eq!(m["robots"]["state"], "ok");
    assert_eq!(m["robots"]["status"], 200);
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["allowed"] == true && f["tdm_reservation"].is_null()), "{m}");
    // No digest in the review: said so, and the current one is given (not drift).
    assert_eq!(m["robots"]["digest"], "no digest recorded");
    assert_eq!(m["robots"]["sha256"], sha256_hex(body.as_bytes()));
    assert_eq!(m["tdmrep"]["state"], "absent");
    assert_eq!(m["ai_txt"]["state"], "absent");
    assert_eq!(m["drift"], serde_json::json!([]));
    // Every request is in the fetch log (P17), under the source's name.
    let conn = rusqlite::Connection::open(dir.path().join("cityvibe.db")).unwrap();
    let logged: Vec<String> = conn
        .prepare("SELECT url FROM fetch_log WHERE source = 'madrid' ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        logged,
        vec!["https://datos.madrid.es/robots.txt", "https://datos.madrid.es/.well-known/tdmrep.json", "https://datos.madrid.es/ai.txt"]
    );
}

#[test]
fn disallow_for_cityvibebot_is_drift_on_every_feed() {
    let body = "User-agent: *\nAllow: /\n\nUser-agent: CityVibeBot\nDisallow: /\n";
    let server = host(Reply::ok(body), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, stderr) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(1), "{m}");
    assert_polite(&server, &[ROBOTS, TDMREP, AI]);
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["allowed"] == false), "{m}");
    assert!(stderr.contains("madrid: drift: robots.txt disallows") && stderr.contains(JSON_FEED), "{stderr}");
    // Without --disable-blocked the switchboard is left alone.
    assert_eq!(std::fs::read_to_string(dir.path().join("sources.toml")).unwrap(), TOML);
}

#[test]
fn crawl_delay_above_the_adapters_minimum_is_drift() {
    let server = host(Reply::ok("User-agent: CityVibeBot\nCrawl-delay: 5\nAllow: /\n"), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(1), "{m}");
    assert_eq!(m["robots"]["crawl_delay_secs"], 5.0);
    assert_eq!(m["min_delay_secs"], 2.0);
    assert_eq!(m["robots"]["crawl_delay_drift"], true);
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["allowed"] == true), "{m}");
    assert!(m["drift"][0].as_str().unwrap().contains("Crawl-delay 5"), "{m}");
}

#[test]
fn crawl_delay_equal_to_the_minimum_for_star_is_no_drift() {
    let server = host(Reply::ok("User-agent: *\nCrawl-delay: 2\n"), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(0), "{m}");
    assert_eq!(m["robots"]["crawl_delay_secs"], 2.0);
    assert_eq!(m["robots"]["crawl_delay_drift"], false);
}

/// RFC 9309: a 4xx (here 404) robots.txt means no rules: everything allowed.
#[test]
fn robots_404_allows_everything() {
    let server = host(Reply::new(404), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(0), "{m}");
    assert_polite(&server, &[ROBOTS, TDMREP, AI]);
    assert_eq!(m["robots"]["state"], "unavailable");
    assert_eq!(m["robots"]["status"], 404);
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["allowed"] == true), "{m}");
}

/// RFC 9309: a 5xx robots.txt means everything disallowed, and nothing is
/// cached. The polite client backs off on 503 (P10) and, when it persists,
/// asks the host nothing more in this run (P11): tdmrep.json and ai.txt are
/// not requested.
#[test]
fn robots_503_disallows_everything_and_is_not_cached() {
    let server = host(Reply::new(503).header("Retry-After", "0"), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(1), "{m}");
    assert_polite(&server, &[ROBOTS, ROBOTS, ROBOTS, ROBOTS]);
    assert_eq!(m["robots"]["state"], "unreachable");
    assert_eq!(m["robots"]["status"], 503);
    assert_eq!(m["robots"]["digest"], "unknown");
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["allowed"] == false), "{m}");
    assert_eq!(m["tdmrep"]["state"], "unreachable");
    assert_eq!(m["ai_txt"]["state"], "unreachable");
    // Nothing cached: no validators kept for the audit URLs.
    let conn = rusqlite::Connection::open(dir.path().join("cityvibe.db")).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type='table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for t in tables.iter().filter(|t| t.contains("validator")) {
        let n: i64 = conn.query_row(&format!("SELECT COUNT(*) FROM {t} WHERE url LIKE '%robots.txt'"), [], |r| r.get(0)).unwrap();
        assert_eq!(n, 0, "robots.txt cached in {t}");
    }
    // A 5xx is a temporary "no": --disable-blocked does not switch the source
    // off for it. (In a folder of its own: here the host's next backoff step
    // would first be waited out, 16 s that prove nothing more.)
    let again = workdir(TOML);
    let (_, m2, _) = audit(&server, again.path(), &["--disable-blocked"]);
    assert_eq!(m2["robots"]["status"], 503, "{m2}");
    assert!(m2["switched_off"].is_null(), "{m2}");
    assert_eq!(std::fs::read_to_string(again.path().join("sources.toml")).unwrap(), TOML);
}

/// TDMRep: two rules that both match the JSON feed; the first one wins.
#[test]
fn tdmrep_first_matching_rule_wins() {
    let tdm = r#"[
        {"location": "/egob/catalogo/*.json$", "tdm-reservation": 0},
        {"location": "/egob/", "tdm-reservation": 1, "tdm-policy": "https://datos.madrid.es/tdm-policy.json"}
    ]"#;
    let server = host(Reply::ok("User-agent: *\nAllow: /\n"), Reply::ok(tdm).header("Content-Type", "application/json"), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, stderr) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(1), "{m}");
    assert_polite(&server, &[ROBOTS, TDMREP, AI]);
    assert_eq!(m["tdmrep"]["state"], "ok");
    assert_eq!(m["tdmrep"]["rules"], 2);
    assert_eq!(feed(&m, JSON_FEED)["tdm_reservation"], 0, "{m}");
    assert_eq!(feed(&m, JSON_FEED)["tdm_location"], "/egob/catalogo/*.json$");
    assert_eq!(feed(&m, CSV_FEED)["tdm_reservation"], 1, "{m}");
    assert!(
        stderr.contains("reserves TDM rights on") && stderr.contains(CSV_FEED) && !stderr.contains(&format!("on {JSON_FEED}")),
        "{stderr}"
    );
}

#[test]
fn ai_txt_that_disallows_all_agents_is_drift_and_quoted() {
    let ai = "# Spawning ai.txt\nUser-Agent: *\nDisallow: /\n";
    let server = host(Reply::ok("User-agent: *\nAllow: /\n"), Reply::new(404), Reply::ok(ai));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(1), "{m}");
    assert_polite(&server, &[ROBOTS, TDMREP, AI]);
    assert_eq!(m["ai_txt"]["state"], "ok");
    assert_eq!(m["ai_txt"]["disallows"], true);
    assert_eq!(m["ai_txt"]["first_lines"], serde_json::json!(["# Spawning ai.txt", "User-Agent: *", "Disallow: /"]));
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["allowed"] == true), "robots.txt itself allows: {m}");
}

#[test]
fn ai_txt_that_only_names_another_agent_is_no_drift() {
    let ai = "User-Agent: GPTBot\nDisallow: /\n";
    let server = host(Reply::ok("User-agent: *\nAllow: /\n"), Reply::new(404), Reply::ok(ai));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(0), "{m}");
    assert_eq!(m["ai_txt"]["disallows"], false);
}

/// P16: --disable-blocked switches a disallowed source off in sources.toml,
/// with a reason naming what blocked it and the date, keeping the comments.
#[test]
fn disable_blocked_switches_the_source_off_in_sources_toml() {
    let server = host(Reply::ok("User-agent: CityVibeBot\nDisallow: /egob/\n"), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, stderr) = audit(&server, dir.path(), &["--disable-blocked"]);
    assert_eq!(code, Some(1), "{m}");
    let reason = m["switched_off"].as_str().unwrap_or_else(|| panic!("{m}"));
    let text = std::fs::read_to_string(dir.path().join("sources.toml")).unwrap();
    assert!(text.contains("# the operator's comment") && text.contains("# another"), "{text}");
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let row = &doc["sources"]["madrid"];
    assert_eq!(row["enabled"].as_bool(), Some(false), "{text}");
    let written = row["disabled_reason"].as_str().unwrap();
    assert_eq!(written, reason);
    assert!(written.contains("robots.txt disallows") && written.contains(JSON_FEED), "{written}");
    let today = jiff::Timestamp::now().in_tz("Europe/Madrid").unwrap().date().to_string();
    assert!(written.starts_with(&format!("audit {today}:")), "{written}");
    assert_eq!(row["disabled_on"].as_str(), Some(today.as_str()));
    assert_eq!(doc["sources"]["jcyl"]["enabled"].as_bool(), Some(true), "only the blocked source: {text}");
    assert!(stderr.contains("switched off"), "{stderr}");
    // The next run does not fetch madrid at all.
    let before = server.requests().len();
    let mirror = server.url();
    let out = cityvibe(
        dir.path(),
        &["--db", "cityvibe.db", "--mirror", mirror.as_str(), "run", "--source", "madrid", "--no-translate", "--json"],
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"disabled\""), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(server.requests().len(), before);
}

/// The run lock: an audit while a run holds the database makes no request.
#[test]
fn audit_takes_the_run_lock() {
    let server = host(Reply::ok("User-agent: *\nAllow: /\n"), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let _lock = cityvibe::ingest::RunLock::acquire(&dir.path().join("cityvibe.db"), Some(&common::state_dir(dir.path()))).unwrap();
    let mirror = server.url();
    let out = cityvibe(dir.path(), &["--db", "cityvibe.db", "--mirror", mirror.as_str(), "audit", "--source", "madrid"]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    server.settle();
    assert!(server.requests().is_empty());
}

// --- Digests, through the library with a manifest that records one. ---

static FEEDS: &[Feed] =
    &[Feed { url: "https://digest.test/feeds/a.json", format: Format::Json, lang: "es", role: FeedRole::Primary, paging: Paging::Whole }];

fn manifest_with_digest(id: &'static str, digest: &'static str) -> &'static common::TestAdapter {
    let m: &'static Manifest = Box::leak(Box::new(Manifest {
        id,
        name: "digest test",
        publisher: "test",
        host: "digest.test",
        feeds: FEEDS,
        plan: cityvibe::adapter::FetchPlan::FirstThatParses,
        redirects: &[],
        min_delay: Duration::from_millis(50),
        daily_cap: 100,
        language: "es",
        region: &[],
        licence: Licence { name: "test", url: "https://digest.test/licence" },
        attribution: "test",
        dataset_page: "https://digest.test/",
        links: cityvibe::adapter::EventLinks::EventPage,
        update_schedule: "never",
        review: Review {
            date: "2026-11-01",
            robots_txt: "all allowed",
            robots_sha256: Some(digest),
            notes: "",
            robots: cityvibe::adapter::RobotsReview::Read,
        },
    }));
    Box::leak(Box::new(common::TestAdapter { manifest: m, inner: &cityvibe::adapters::madrid::Madrid }))
}

fn library_audit(adapter: &'static common::TestAdapter, server: &Server) -> cityvibe::audit::SourceAudit {
    let dir = tempfile::tempdir().unwrap();
    let mut store = cityvibe::store::Store::open(&dir.path().join("a.db")).unwrap();
    let mirror = cityvibe::http::Mirror::parse(&server.url()).unwrap();
    let client = cityvibe::http::Client::new(Some(mirror), cityvibe::http::Limits::default());
    let adapters: Vec<&'static dyn cityvibe::adapter::Adapter> = vec![adapter];
    let ledger = common::ledger_beside(&dir.path().join("a.db"));
    let mut out =
        cityvibe::audit::audit(&mut store, &client, &ledger, server.clock(), &cityvibe::config::Config::default(), &adapters).unwrap();
    out.remove(0)
}

#[test]
fn a_changed_robots_txt_is_drift_and_the_same_one_is_not() {
    let body = "User-agent: *\nAllow: /\n";
    let digest: &'static str = Box::leak(sha256_hex(body.as_bytes()).into_boxed_str());
    let server = Server::start(move |seen, _| if seen.path == "/digest.test/robots.txt" { Reply::ok(body) } else { Reply::new(404) });

    let same = library_audit(manifest_with_digest("same", digest), &server);
    assert_eq!(same.robots.digest, "unchanged");
    assert!(same.drift.is_empty(), "{:?}", same.drift);

    let other = library_audit(manifest_with_digest("other", "00000000000000000000000000000000000000000000000000000000000000ff"), &server);
    assert_eq!(other.robots.digest, "changed");
    assert_eq!(other.robots.sha256.as_deref(), Some(digest));
    assert!(other.has_drift() && other.drift[0].contains("changed since the review of 2026-11-01"), "{:?}", other.drift);
    // A changed robots.txt alone is for the reviewer, not a block.
    assert!(other.blocked.is_empty());
    assert!(other.feeds[0].allowed);
    for r in server.requests() {
        assert_eq!(r.header_all("user-agent"), vec![cityvibe::http::USER_AGENT]);
        assert!(
            ["/digest.test/robots.txt", "/digest.test/.well-known/tdmrep.json", "/digest.test/ai.txt"].contains(&r.path.as_str()),
            "{}",
            r.path
        );
    }
    assert_eq!(server.requests().len(), 6);
}

/// RFC 9309: no answer at all (connection refused) is everything disallowed.
#[test]
fn no_answer_disallows_everything() {
    // A port nothing listens on: bind one, then free it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = workdir(TOML);
    let mirror = format!("http://127.0.0.1:{port}");
    let out = cityvibe(dir.path(), &["--db", "cityvibe.db", "--mirror", mirror.as_str(), "audit", "--source", "madrid", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["sources"][0];
    assert_eq!(m["robots"]["state"], "unreachable");
    assert!(m["robots"]["status"].is_null(), "{m}");
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["allowed"] == false), "{m}");
    assert_eq!(m["tdmrep"]["state"], "unreachable");
}

/// P13: a robots.txt that redirects elsewhere on the host is not followed
/// (only the three audit URLs are allowed): unreadable, so everything is
/// disallowed, and the reviewer is told.
#[test]
fn a_robots_redirect_off_the_allow_list_is_refused_before_any_request() {
    let server = host(Reply::new(301).header("Location", "https://datos.madrid.es/robots-new.txt"), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(1), "{m}");
    assert_polite(&server, &[ROBOTS, TDMREP, AI]);
    assert_eq!(m["robots"]["state"], "unreachable");
    assert_eq!(m["robots"]["status"], 301);
    assert!(m["robots"]["message"].as_str().unwrap().contains("redirect refused"), "{m}");
}

/// RFC 9309 allows all on a 403, but the host refused our bot (P11): drift,
/// and no further request to that host in this audit.
#[test]
fn robots_403_is_allowed_by_the_rfc_but_reported() {
    let server = host(Reply::new(403), Reply::new(404), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &["--disable-blocked"]);
    assert_eq!(code, Some(1), "{m}");
    assert_polite(&server, &[ROBOTS]);
    assert_eq!(m["robots"]["state"], "unavailable");
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["allowed"] == true), "{m}");
    assert!(m["drift"][0].as_str().unwrap().contains("HTTP 403"), "{m}");
    assert!(m["switched_off"].is_null(), "a 403 is not a robots.txt disallow: {m}");
}

/// Two hosts in one audit: interleaved by the scheduler, each keeping its
/// own 2 s delay, each asked for its three URLs only.
#[test]
fn two_hosts_are_audited_together_each_at_its_own_pace() {
    let server =
        Server::start(|seen, _| if seen.path.ends_with("/robots.txt") { Reply::ok("User-agent: *\nAllow: /\n") } else { Reply::new(404) });
    let dir = workdir(TOML);
    let mirror = server.url();
    let out = cityvibe(
        dir.path(),
        &["--db", "cityvibe.db", "--mirror", mirror.as_str(), "audit", "--source", "madrid", "--source", "jcyl", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v["sources"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["madrid", "jcyl"]);
    let reqs = server.requests();
    for h in ["datos.madrid.es", "datosabiertos.jcyl.es"] {
        let mine: Vec<_> = reqs.iter().filter(|r| r.path.starts_with(&format!("/{h}/"))).collect();
        let paths: Vec<String> = mine.iter().map(|r| r.path.clone()).collect();
        assert_eq!(paths, ["/robots.txt", "/.well-known/tdmrep.json", "/ai.txt"].map(|p| format!("/{h}{p}")));
        for w in mine.windows(2) {
            assert!(w[1].at.duration_since(w[0].at) >= Duration::from_millis(1990), "{h}: under its 2 s");
        }
    }
    assert_eq!(reqs.len(), 6);
    // Interleaved, not one host after the other: each host's first request
    // came before the other host's last one.
    let hosts: Vec<bool> = reqs.iter().map(|r| r.path.starts_with("/datos.madrid.es/")).collect();
    let (first_madrid, last_madrid) = (hosts.iter().position(|m| *m).unwrap(), hosts.iter().rposition(|m| *m).unwrap());
    let (first_jcyl, last_jcyl) = (hosts.iter().position(|m| !*m).unwrap(), hosts.iter().rposition(|m| !*m).unwrap());
    assert!(first_jcyl < last_madrid && first_madrid < last_jcyl, "hosts not interleaved: {hosts:?}");
}

/// A tdmrep.json that is not a TDMRep rule array may hide a reservation:
/// drift, so the reviewer reads it.
#[test]
fn an_unreadable_tdmrep_json_is_drift() {
    let server = host(Reply::ok("User-agent: *\nAllow: /\n"), Reply::ok(r#"{"tdm-reservation": 1}"#), Reply::new(404));
    let dir = workdir(TOML);
    let (code, m, _) = audit(&server, dir.path(), &[]);
    assert_eq!(code, Some(1), "{m}");
    assert_eq!(m["tdmrep"]["state"], "unreadable");
    assert!(m["feeds"].as_array().unwrap().iter().all(|f| f["tdm_reservation"].is_null()), "{m}");
}
