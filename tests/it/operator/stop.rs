//! Stopping a run, through the binary: a stop asked while the run
//! translates (SIGTERM, or `run_deadline_secs` passing) ends it between two
//! engine batches, what is translated kept and the rest pending for the
//! next run, exit 5, recorded `interrupted`; and a stop asked while the run
//! waits out a host's delay (a 120 s `min_delay_secs`, past systemd's 90 s
//! stop timeout) ends the wait at once. SIGHUP is taken as SIGTERM.
//! Against a loopback LibreTranslate server and a loopback feed server that
//! record what they received; each verdict is read from what they and the
//! database saw, never from how long something took.
use crate::common;
use crate::translation::quality::{record, write_feed};

use common::server::{Reply, Server};
use common::{sample, workdir};
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Texts the feed gives an engine into English: 30 titles and 30
/// descriptions, so two engine batches (of 50, then 10).
const EVENTS: usize = 30;

/// A LibreTranslate server translating the test's texts; the answer
/// to the first request waits until `go` is set (or until `hold` has passed
/// since it arrived), so that a stop asked meanwhile falls between batches.
fn translation_server(go: Arc<AtomicBool>, hold: Duration) -> Server {
    Server::start(move |seen, i| {
        while i == 0 && !go.load(Ordering::SeqCst) && seen.at.elapsed() < hold {
            std::thread::sleep(Duration::from_millis(10));
        }
        let body: Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let q: Vec<String> = body["q"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t.as_str())
            .map(|t| t.replace("Concierto número", "Concert number").replace("Una tarde de música, la", "An evening of music, the"))
            .collect();
        Reply::ok(serde_json::json!({ "translatedText": q }).to_string()).header("Content-Type", "application/json")
    })
}

/// A work folder whose madrid feed (in `mirror/`) has [`EVENTS`] events,
/// translated into English by the LibreTranslate server at `url`.
fn translating_workdir(url: &str, extra: &str) -> tempfile::TempDir {
    let dir = workdir(&format!(
        "[settings]\ntranslator = \"libretranslate\"\nlibretranslate_url = \"{url}\"\nlanguages = [\"es\", \"en\"]\n{extra}[sources.madrid]\nenabled = true\n"
    ));
    let records: Vec<Value> = (0..EVENTS)
        .map(|i| record(&format!("{}", 7100 + i), &format!("Concierto número {i}"), &format!("Una tarde de música, la {i}."), "Teatro"))
        .collect();
    write_feed(dir.path(), &records);
    dir
}

/// `cityvibe --mirror mirror run --force --source madrid --json`, started.
fn spawn_run(dir: &Path) -> Child {
    common::command(dir)
        .args(["--mirror", "mirror", "run", "--force", "--source", "madrid", "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait for `child` to end: its status, stdout and stderr; killed and failed
/// if it is still running after `limit` (a bound for a broken build only).
fn ended(mut child: Child, limit: Duration) -> (ExitStatus, String, String) {
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            return (out.status, String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into());
        }
        if started.elapsed() > limit {
            child.kill().ok();
            let out = child.wait_with_output().unwrap();
            panic!("the run was still going after {limit:?} (killed): {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Wait until `server` has received `n` requests matching `which`.
fn wait_for_requests(server: &Server, n: usize, which: impl Fn(&str) -> bool) {
    let started = Instant::now();
    while server.requests().iter().filter(|r| which(&r.path)).count() < n {
        assert!(started.elapsed() < Duration::from_secs(60), "no request reached the server");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn signal(child: &Child, signal: i32) {
    // SAFETY: a signal to the run this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
}

/// The texts each request to the translation server carried.
fn texts_sent(server: &Server) -> Vec<usize> {
    server.requests().iter().map(|r| serde_json::from_slice::<Value>(&r.body).unwrap()["q"].as_array().map_or(0, Vec::len)).collect()
}

/// Machine translations stored into English.
fn stored_en(dir: &Path) -> usize {
    let db = rusqlite::Connection::open(dir.join("data/cityvibe.db")).unwrap();
    db.query_row("SELECT count(*) FROM translations WHERE lang = 'en' AND origin = 'machine'", [], |r| r.get::<_, i64>(0)).unwrap() as usize
}

/// `runs --json`: the newest run.
fn last_run(dir: &Path) -> Value {
    let out = common::cityvibe(dir, &["runs", "--json"]);
    serde_json::from_slice::<Value>(&out.stdout).unwrap()[0].clone()
}

/// SIGTERM while the run translates is not dropped (every
/// remaining text translated, the run recorded `finished`, exit 0): the
/// batch on the wire ends, is stored, and no further batch is sent:
/// exit 5, `interrupted`, the rest pending; the next run translates the
/// rest, and only the rest.
#[test]
fn sigterm_while_translating_stops_between_engine_batches() {
    let go = Arc::new(AtomicBool::new(false));
    let server = translation_server(go.clone(), Duration::from_secs(120));
    let dir = translating_workdir(&server.url(), "");
    let child = spawn_run(dir.path());
    // The first batch is on the wire: the stop comes while it is translated.
    wait_for_requests(&server, 1, |_| true);
    signal(&child, libc::SIGTERM);
    go.store(true, Ordering::SeqCst);
    let (status, stdout, stderr) = ended(child, Duration::from_secs(100));
    assert_eq!(status.code(), Some(5), "{stderr}");
    assert!(stderr.contains("asked to stop (SIGTERM)"), "{stderr}");
    server.settle();
    let sent = texts_sent(&server);
    assert_eq!(sent.len(), 1, "no batch after the signal: {sent:?}");
    let total = 2 * EVENTS;
    assert!(sent[0] < total, "the first batch holds only part of the texts: {sent:?}");
    assert_eq!(stored_en(dir.path()), sent[0], "the batch translated before the stop is kept");
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(json["translation_pending"].as_u64(), Some((total - sent[0]) as u64), "{json}");
    assert!(json["interrupted"].as_str().is_some_and(|w| w.contains("SIGTERM")), "{json}");
    let run = last_run(dir.path());
    assert_eq!((run["status"].as_str(), run["exit_code"].as_i64()), (Some("interrupted"), Some(5)), "{run}");
    // The next run translates the rest, and nothing twice.
    let (status, _, stderr) = ended(spawn_run(dir.path()), Duration::from_secs(100));
    assert_eq!(status.code(), Some(0), "{stderr}");
    server.settle();
    let sent = texts_sent(&server);
    assert_eq!(sent[1..].iter().sum::<usize>(), total - sent[0], "{sent:?}");
    assert_eq!(stored_en(dir.path()), total);
}

/// `run_deadline_secs` passing while the run translates
/// stops it the same way. The first batch's answer is held until the
/// deadline is past (2.5 s after the request, which the run sent after it
/// began); no batch follows it.
#[test]
fn the_deadline_passing_while_translating_stops_between_engine_batches() {
    let server = translation_server(Arc::new(AtomicBool::new(false)), Duration::from_millis(2500));
    let dir = translating_workdir(&server.url(), "run_deadline_secs = 2\n");
    let (status, stdout, stderr) = ended(spawn_run(dir.path()), Duration::from_secs(100));
    assert_eq!(status.code(), Some(5), "{stderr}");
    assert!(stderr.contains("deadline passed"), "{stderr}");
    server.settle();
    let sent = texts_sent(&server);
    // One batch (none at all only if fetching alone took the 2 s).
    assert!(sent.len() <= 1, "no batch after the deadline: {sent:?}");
    let translated: usize = sent.iter().sum();
    assert_eq!(stored_en(dir.path()), translated, "what was translated before the deadline is kept");
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert!(json["translation_pending"].as_u64().unwrap_or(0) > 0, "{json}");
    assert_eq!(last_run(dir.path())["status"], "interrupted");
}

/// `run_deadline_secs` passing while the feed is still
/// being fetched: the feed is stored, nothing is sent to the engine, and
/// every text is reported pending (in the run's JSON, overall and for the
/// source), not 0; exit 5, `interrupted`. The next run translates them
/// all. The feed server answers the feed 1.5 s after a 1 s deadline.
#[test]
fn the_deadline_passing_while_fetching_leaves_every_text_pending_and_says_so() {
    let translator = translation_server(Arc::new(AtomicBool::new(true)), Duration::ZERO);
    let dir = translating_workdir(&translator.url(), "run_deadline_secs = 1\n");
    let feed = std::fs::read(dir.path().join(crate::translation::quality::FEED)).unwrap();
    let feeds = Server::start(move |seen, _| {
        if seen.path.ends_with("robots.txt") {
            Reply::new(404)
        } else {
            std::thread::sleep(Duration::from_millis(1500));
            Reply::ok(feed.clone())
        }
    });
    let child = common::command(dir.path())
        .args(["--mirror", &feeds.url(), "run", "--force", "--source", "madrid", "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, stdout, stderr) = ended(child, Duration::from_secs(100));
    assert_eq!(status.code(), Some(5), "{stderr}");
    assert!(stderr.contains("deadline passed"), "{stderr}");
    translator.settle();
    assert_eq!(texts_sent(&translator), Vec::<usize>::new(), "nothing is sent after the deadline");
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(json["sources"][0]["added"].as_u64(), Some(EVENTS as u64), "the feed is stored: {json}");
    let total = (2 * EVENTS) as u64;
    assert_eq!(json["translation_pending"].as_u64(), Some(total), "{json}");
    assert_eq!(json["sources"][0]["translation_pending"].as_u64(), Some(total), "{json}");
    assert_eq!(last_run(dir.path())["status"], "interrupted");
    // The next run, with time, translates every one of them.
    std::fs::write(
        dir.path().join("sources.toml"),
        std::fs::read_to_string(dir.path().join("sources.toml")).unwrap().replace("run_deadline_secs = 1\n", ""),
    )
    .unwrap();
    let (status, _, stderr) = ended(spawn_run(dir.path()), Duration::from_secs(100));
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(stored_en(dir.path()), 2 * EVENTS);
}

/// A feed server for madrid: its JSON answers a page that is not JSON, so
/// madrid moves on to its CSV, after the host's delay; robots.txt: none.
fn feed_server() -> Server {
    let csv = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv")).unwrap();
    Server::start(move |seen, _| {
        if seen.path.ends_with("robots.txt") {
            Reply::new(404)
        } else if seen.path.ends_with(".json") {
            Reply::ok("<html>busy</html>")
        } else {
            Reply::ok(csv.clone())
        }
    })
}

/// A wait for a host's delay ends at once on SIGTERM, SIGINT
/// or SIGHUP (a 120 s `min_delay_secs` must not keep `systemctl stop` waiting
/// past its 90 s timeout, until systemd kills the run): the next feed is never
/// asked for, exit 5, `interrupted`. (A run still waiting after 100 s fails the
/// test.)
#[test]
fn a_signal_ends_the_wait_for_a_hosts_delay_at_once() {
    for (sig, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGHUP, "SIGHUP"), (libc::SIGINT, "SIGINT")] {
        let server = feed_server();
        let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\nmin_delay_secs = 120\n");
        let child: Child = {
            let mut cmd: Command = common::command(dir.path());
            cmd.args(["--mirror", &server.url(), "run", "--json"]).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
            cmd.spawn().unwrap()
        };
        // The JSON was asked for and refused: the run now waits 120 s for the CSV.
        wait_for_requests(&server, 1, |p| p.ends_with(".json"));
        signal(&child, sig);
        let (status, stdout, stderr) = ended(child, Duration::from_secs(100));
        assert_eq!(status.code(), Some(5), "{name}: {stderr}");
        assert!(stderr.contains(&format!("asked to stop ({name})")), "{name}: {stderr}");
        server.settle();
        let feeds: Vec<String> = server.requests().iter().map(|r| r.path.clone()).filter(|p| !p.ends_with("robots.txt")).collect();
        assert_eq!(feeds.len(), 1, "{name}: nothing is asked after the signal: {feeds:?}");
        let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
        assert_eq!(json["sources"][0]["status"], "skipped", "{name}: {json}");
        assert_eq!(last_run(dir.path())["status"], "interrupted", "{name}");
    }
}
