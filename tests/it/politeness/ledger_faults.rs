//! The host ledger robust to its own faults, proven from the server's side: a
//! ledger deleted, replaced or emptied, times no clock could have written, a
//! backoff that outlives its command, a Retry-After of a year and beyond, a
//! fetch log that cannot be written. Each sends nothing it cannot account for,
//! and says why. The real madrid adapter (2 s delay) against the recording
//! loopback server, through the binary in real time. (A backoff given up, by a
//! run or by an audit, and remembered is proven on simulated time in
//! `politeness::client::backoff`.)
use crate::common;
use crate::politeness::ledger::{json_of, madrid_body, run_args, wait_for};

use common::server::{Reply, Server};
use common::{cityvibe, workdir};
use std::time::Duration;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn ledger_path(dir: &std::path::Path) -> std::path::PathBuf {
    common::state_dir(dir).join("hosts.db")
}

/// P8: `hosts.db*` deleted while a request is on the
/// wire: the run says so and sends nothing more; a second run on another
/// database refuses to start a new ledger over the lost one, sends nothing,
/// and says what to do. A ledger replaced by another, or emptied, is
/// refused the same way.
#[test]
fn a_ledger_deleted_replaced_or_emptied_sends_nothing_and_says_so_p8() {
    let body = madrid_body();
    let server = Server::start(move |_, i| {
        if i == 0 {
            std::thread::sleep(Duration::from_millis(1500));
        }
        Reply::ok(body.clone())
    });
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    let first = common::command(dir.path())
        .args(run_args(&mirror, "one.db", &[]))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&server, 1, Duration::from_secs(20));
    let state = common::state_dir(dir.path());
    for f in ["hosts.db", "hosts.db-wal", "hosts.db-shm"] {
        let _ = std::fs::remove_file(state.join(f));
    }
    let first = first.wait_with_output().unwrap();
    let said = stderr(&first);
    assert!(said.contains("madrid") || said.contains("datos.madrid.es"), "{said}");
    assert!(said.contains("host ledger") && said.contains("was deleted"), "the first run said nothing: {said}");
    // The second run, on another database: no request, and what to do.
    let second = cityvibe(dir.path(), &run_args(&mirror, "two.db", &[]));
    let said = stderr(&second);
    assert_ne!(second.status.code(), Some(0), "{said}");
    assert!(said.contains("is gone") && said.contains("ledger-id") && said.contains("nothing is sent"), "{said}");
    server.settle();
    assert_eq!(server.requests().len(), 1, "a run started a new ledger over the lost one: {:?}", server.requests());

    // Doing what it says starts a new ledger.
    std::fs::remove_file(state.join("hosts/ledger-id")).unwrap();
    let third = cityvibe(dir.path(), &run_args(&mirror, "two.db", &[]));
    assert_eq!(third.status.code(), Some(0), "{}", stderr(&third));
    assert_eq!(server.requests().len(), 2);

    // Replaced by another ledger (another folder's), or emptied: refused.
    let other = workdir("[sources.madrid]\n");
    assert_eq!(cityvibe(other.path(), &["--db", "x.db", "--mirror", &mirror, "source", "release", "madrid"]).status.code(), Some(0));
    std::fs::copy(ledger_path(other.path()), ledger_path(dir.path())).unwrap();
    for f in ["hosts.db-wal", "hosts.db-shm"] {
        let _ = std::fs::remove_file(state.join(f));
    }
    let out = cityvibe(dir.path(), &run_args(&mirror, "two.db", &["--force"]));
    assert!(stderr(&out).contains("was replaced"), "{}", stderr(&out));
    std::fs::write(ledger_path(dir.path()), b"").unwrap();
    let out = cityvibe(dir.path(), &run_args(&mirror, "two.db", &["--force"]));
    assert!(stderr(&out).contains("is gone or empty"), "{}", stderr(&out));
    assert_ne!(out.status.code(), Some(0));
    server.settle();
    assert_eq!(server.requests().len(), 2, "{:?}", server.requests());
}

/// P8, P10: a ledger holding times ahead of the clock
/// (a clock set back) is not mistaken for the host's word, nor for a full
/// daily cap: no request, a non-zero exit, a message naming the impossible
/// time and the command that mends it. `source release` does: the host is
/// asked again after its delay, or, for requests recorded ahead, those
/// count as made now against the daily cap, and the run says so.
#[test]
fn times_ahead_of_the_clock_fail_closed_with_what_to_do_p8() {
    let server = Server::start(move |_, _| Reply::ok(madrid_body()));
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    assert_eq!(cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &[])).status.code(), Some(0));
    let ledger = rusqlite::Connection::open(ledger_path(dir.path())).unwrap();
    let y2100: i64 = 4_102_444_800_000;
    let mut sent = 1;
    for (what, sql) in [
        ("a last request in 2100", format!("UPDATE hosts SET last_request_ms = {y2100}")),
        ("a not-before time in 2100", format!("UPDATE hosts SET not_before_ms = {y2100}, not_before_why = 'HTTP 429, Retry-After: 1'")),
        (
            "a daily cap full of requests in 2100",
            format!(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) INSERT INTO requests SELECT 'datos.madrid.es', {y2100} + i FROM n"
            ),
        ),
    ] {
        ledger.execute_batch(&sql).unwrap();
        let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{what}: {said}");
        assert_eq!(json_of(&out)["sources"][0]["status"], "failed", "{what}");
        assert!(said.contains("impossible time") && said.contains("2100-01-01"), "{what}: {said}");
        assert!(!said.contains("asked us not to come back"), "{what}: taken for the host's word: {said}");
        assert!(said.contains("cityvibe source release datos.madrid.es"), "{what}: {said}");
        assert_eq!(server.requests().len(), sent, "{what}: a request was sent");
        let released = cityvibe(dir.path(), &["--db", "cityvibe.db", "source", "release", "madrid"]);
        assert_eq!(released.status.code(), Some(0), "{what}: {}", stderr(&released));
        assert!(!released.stdout.is_empty(), "{what}: release says what it changed");
        let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
        if what.contains("daily cap") {
            // Counted as made now: the cap is full, and the report says so.
            let s = &json_of(&out)["sources"][0];
            assert_eq!(s["status"], "skipped", "{what}");
            assert!(s["message"].as_str().unwrap().contains("daily cap"), "{what}: {s}");
        } else {
            assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
            sent += 1;
        }
        assert_eq!(server.requests().len(), sent, "{what}");
    }
}

/// P10: a robots.txt the audit could not read (here a
/// redirect off the host, refused before any request to it) leaves the
/// host alone for 16 times its delay: a run right after sends nothing to
/// it and says why and until when.
#[test]
fn an_unreadable_robots_txt_holds_back_the_next_run_p10() {
    let server = Server::start(|seen, _| {
        if seen.path.ends_with("/robots.txt") {
            Reply::new(301).header("Location", "https://elsewhere.example/robots.txt")
        } else {
            Reply::new(404)
        }
    });
    let dir = workdir("[settings]\nmax_wait_secs = 10\n\n[sources.madrid]\n");
    let mirror = server.url();
    let audit = cityvibe(dir.path(), &["--db", "cityvibe.db", "--mirror", &mirror, "audit", "--source", "madrid", "--json"]);
    let asked = server.requests().len();
    assert!(String::from_utf8_lossy(&audit.stdout).contains("unreachable"), "{}", stderr(&audit));
    let run = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &[]));
    server.settle();
    assert_eq!(server.requests().len(), asked, "the run asked right after robots.txt could not be read");
    let s = &json_of(&run)["sources"][0];
    assert_eq!(s["status"], "skipped", "{s}");
    let said = stderr(&run);
    assert!(said.contains("robots.txt unreadable") && said.contains(s["not_before"].as_str().unwrap()), "{said}");
    assert!(!said.contains("asked us"), "our own pause passed off as the host's word: {said}");
}

/// P10: a Retry-After beyond a year holds the host until
/// the operator acts: every run says so, with the command that lifts it,
/// and exits non-zero; after `source release`, the host is asked again.
#[test]
fn a_retry_after_beyond_a_year_holds_the_host_until_released_p10() {
    let server = Server::start(|_, i| if i == 0 { Reply::new(503).header("Retry-After", "31536001") } else { Reply::ok(madrid_body()) });
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    for round in 1..=2 {
        let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "run {round}: {said}");
        assert_eq!(json_of(&out)["sources"][0]["status"], "refused", "run {round}");
        assert!(said.contains("held") && said.contains("cityvibe source release datos.madrid.es"), "run {round}: {said}");
    }
    assert_eq!(server.requests().len(), 1);
    let released = cityvibe(dir.path(), &["--db", "cityvibe.db", "source", "release", "datos.madrid.es"]);
    assert!(String::from_utf8_lossy(&released.stdout).contains("lifted the hold"), "{}", stderr(&released));
    let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.requests().len(), 2);
}

/// P17: a fetch log that is missing or refuses writes
/// is not a "go": no request, one message, a non-zero exit.
#[test]
fn a_fetch_log_missing_or_unwritable_sends_nothing_p17() {
    let server = Server::start(move |_, _| Reply::ok(madrid_body()));
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    assert_eq!(cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &[])).status.code(), Some(0));
    let db = rusqlite::Connection::open(dir.path().join("cityvibe.db")).unwrap();
    for (what, sql) in [
        ("refusing writes", "CREATE TRIGGER full BEFORE INSERT ON fetch_log BEGIN SELECT RAISE(FAIL, 'disk full'); END;"),
        ("dropped", "DROP TRIGGER full; DROP TABLE fetch_log;"),
    ] {
        db.execute_batch(sql).unwrap();
        let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{what}: {said}");
        assert_eq!(said.matches("fetch log").count(), 1, "{what}: one message: {said}");
        assert!(said.contains("fail closed"), "{what}: {said}");
        server.settle();
        assert_eq!(server.requests().len(), 1, "{what}: a request went without its record");
    }
}
