//! The machine-wide host ledger, proven from the server's side: separate
//! `cityvibe` processes, killed or concurrent, on one or two databases,
//! against the recording loopback server. The real madrid adapter (2 s
//! delay) is used, so these are kept few.
use crate::common;

use common::server::{Reply, Seen, Server};
use common::{cityvibe, workdir};
use std::time::{Duration, Instant};

pub const MADRID_JSON: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";

pub fn madrid_body() -> Vec<u8> {
    std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap()
}

/// `run --json` for madrid alone (the args before `run` come first).
pub fn run_args<'a>(mirror: &'a str, db: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["--db", db, "--mirror", mirror, "run", "--source", "madrid", "--no-translate", "--json"];
    a.extend_from_slice(extra);
    a
}

pub fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON ({e}): {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// Wait until the server has seen `n` requests (or panic after `limit`).
pub fn wait_for(server: &Server, n: usize, limit: Duration) -> Vec<Seen> {
    let start = Instant::now();
    loop {
        let seen = server.requests();
        if seen.len() >= n {
            return seen;
        }
        assert!(start.elapsed() < limit, "the server saw {} requests, waited for {n}", seen.len());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn gap(a: &Seen, b: &Seen) -> Duration {
    b.at.saturating_duration_since(a.at)
}

/// P8: the wall clock set forward between two runs (NTP, a person) does
/// not let the second ask the host before its delay has passed. The first
/// run's request is booked in the ledger by both clocks; its wall-clock
/// times are then put 5 s back, which is what the second run reads after a
/// step of the wall clock 5 s forward (the boot clock, which no step
/// moves, is left as it is). The second run still waits madrid's delay
/// (5 s in this row), measured at the server.
#[test]
fn a_wall_clock_set_forward_between_two_runs_never_shortens_the_delay_through_the_binary_p8() {
    let body = madrid_body();
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let dir = workdir("[sources.madrid]\nmin_delay_secs = 5\n");
    let mirror = server.url();
    let first = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    let ledger = rusqlite::Connection::open(common::state_dir(dir.path()).join("hosts.db")).unwrap();
    let stepped = ledger
        .execute(
            "UPDATE hosts SET last_request_ms = last_request_ms - 5000, in_flight_until_ms = in_flight_until_ms - 5000 \
             WHERE host = 'datos.madrid.es'",
            [],
        )
        .unwrap();
    assert_eq!(stepped, 1, "the first request is booked under the feed's host");
    drop(ledger);
    let second = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
    assert_eq!(second.status.code(), Some(0), "{}", String::from_utf8_lossy(&second.stderr));
    let seen = server.requests();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let g = gap(&seen[0], &seen[1]);
    assert!(
        g >= Duration::from_secs(5),
        "after a 5 s step of the wall clock the next run asked {g:?} after the first, under the 5 s delay"
    );
}

/// P8: a run killed (SIGKILL, or SIGTERM) while the host
/// still holds its request's answer leaves its reservation in the ledger;
/// the next run, in a new process, asks no sooner than madrid's 2 s after
/// the killed request.
#[test]
fn a_run_killed_mid_request_still_makes_the_next_wait_the_full_delay_p8() {
    for signal in ["KILL", "TERM"] {
        let body = madrid_body();
        let server = Server::start(move |_, i| {
            if i == 0 {
                // The first answer is held long after the kill.
                std::thread::sleep(Duration::from_secs(6));
            }
            Reply::ok(body.clone())
        });
        let dir = workdir("[sources.madrid]\n");
        let mirror = server.url();
        let mut first = common::command(dir.path()).args(run_args(&mirror, "cityvibe.db", &[])).spawn().unwrap();
        wait_for(&server, 1, Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(200));
        let sent = std::process::Command::new("kill").args([format!("-{signal}"), first.id().to_string()]).status().unwrap();
        assert!(sent.success());
        assert!(!first.wait().unwrap().success(), "SIG{signal} ended the run");
        // `--force`: the operator's manual run right after (P7), every delay kept.
        let second = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
        assert_eq!(second.status.code(), Some(0), "{}", String::from_utf8_lossy(&second.stderr));
        let seen = server.requests();
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert!(seen.iter().all(|s| s.path == MADRID_JSON), "{seen:?}");
        let g = gap(&seen[0], &seen[1]);
        eprintln!("SIG{signal}: killed run's request → next run's request: {g:?} (delay 2 s)");
        assert!(
            g >= Duration::from_secs(2),
            "after SIG{signal}, the next run asked {g:?} after the killed run's request, under madrid's 2 s"
        );
    }
}

/// P8: two processes started together on two databases
/// share the host's ledger: their requests are at least madrid's 2 s apart.
#[test]
fn two_processes_on_two_databases_keep_one_host_delay_p8() {
    let body = madrid_body();
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    let a = common::command(dir.path()).args(run_args(&mirror, "one.db", &[])).spawn().unwrap();
    let b = common::command(dir.path()).args(run_args(&mirror, "two.db", &[])).spawn().unwrap();
    for mut c in [a, b] {
        assert!(c.wait().unwrap().success());
    }
    let seen = server.requests();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let g = gap(&seen[0], &seen[1]);
    eprintln!("two databases, one host: requests {g:?} apart (delay 2 s)");
    assert!(g >= Duration::from_secs(2), "two processes asked {g:?} apart, under madrid's 2 s");
}

/// When the ledger cannot record a host's request, the host
/// is not fetched in this run and the run says why; with no ledger at all,
/// nothing is fetched.
#[test]
fn a_ledger_that_cannot_record_fails_closed_p8() {
    let body = madrid_body();
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    assert!(cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &[])).status.success());
    assert_eq!(server.requests().len(), 1);
    // A ledger whose writes fail (root ignores file modes, a trigger does not).
    let ledger = rusqlite::Connection::open(common::state_dir(dir.path()).join("hosts.db")).unwrap();
    ledger.execute_batch("CREATE TRIGGER no_room BEFORE INSERT ON requests BEGIN SELECT RAISE(FAIL, 'disk full'); END;").unwrap();
    let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("madrid") && stderr.contains("host ledger") && stderr.contains("disk full"), "{stderr}");
    assert_eq!(json_of(&out)["sources"][0]["status"], "failed");
    // A ledger that cannot be read either.
    ledger.execute_batch("DROP TRIGGER no_room; ALTER TABLE hosts RENAME COLUMN not_before_ms TO unreadable;").unwrap();
    let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("madrid") && stderr.contains("host ledger") && stderr.contains("not_before_ms"), "{stderr}");
    assert_eq!(server.requests().len(), 1, "a host whose delay cannot be read is not fetched");
    // No ledger at all: a state folder that is a file.
    let blocked = dir.path().join("not-a-folder");
    std::fs::write(&blocked, "").unwrap();
    let out = cityvibe(dir.path(), &["--state-dir", blocked.to_str().unwrap(), "--db", "other.db", "--mirror", &mirror, "run", "--json"]);
    // Exit 4: an I/O failure, not a source's problem (src/output.rs).
    assert_eq!(out.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&out.stderr).contains("host ledger"), "{}", String::from_utf8_lossy(&out.stderr));
    server.settle();
    assert_eq!(server.requests().len(), 1, "nothing was sent without a ledger");
}

/// One lock per database, not per path: a run through a
/// symlink or a hard link to a database in use makes no request.
#[test]
fn a_database_in_use_is_locked_through_a_symlink_and_a_hard_link() {
    let server = Server::start(|_, _| Reply::ok(madrid_body()));
    let dir = workdir("[sources.madrid]\n");
    let db = dir.path().join("cityvibe.db");
    let _held = cityvibe::ingest::RunLock::acquire(&db, Some(&common::state_dir(dir.path()))).unwrap();
    std::os::unix::fs::symlink(&db, dir.path().join("sym.db")).unwrap();
    std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
    std::fs::hard_link(&db, dir.path().join("elsewhere/hard.db")).unwrap();
    let mirror = server.url();
    for name in ["sym.db", "./cityvibe.db", "elsewhere/../cityvibe.db", "elsewhere/hard.db"] {
        let out = cityvibe(dir.path(), &run_args(&mirror, name, &[]));
        assert_eq!(out.status.code(), Some(3), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("another cityvibe run holds"), "{name}");
    }
    server.settle();
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}
