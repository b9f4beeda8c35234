//! A process killed in the middle of a run leaves a database that opens and
//! holds, per source, either the old or the new state (P20).
use crate::common;

use common::server::{Reply, Server};
use common::workdir;
use std::process::Stdio;
use std::time::Duration;

/// A madrid-shaped JSON-LD feed of `n` events whose titles carry `tag`.
fn feed(n: usize, tag: &str) -> String {
    let mut s = String::from("{\"@context\": {}, \"@graph\": [\n");
    for i in 0..n {
        if i > 0 {
            s.push_str(",\n");
        }
        s.push_str(&format!(
            r#"{{"@id": "x", "id": "{id}", "title": "Evento {tag} {i}", "description": "Descripción larga del evento {i} para que el fichero pese. Lorem ipsum dolor sit amet, consectetur adipiscing elit.", "free": 1, "price": "", "dtstart": "2026-12-{d:02} 19:00:00.0", "dtend": "2026-12-{d:02} 23:59:00.0", "time": "19:00", "excluded-days": "", "uid": "{id}", "link": "http://www.madrid.es/e/{id}", "event-location": "Centro Cultural {i}", "address": {{"area": {{"locality": "MADRID", "postal-code": "28001", "street-address": "CALLE MAYOR {i}"}}}}, "location": {{"latitude": 40.4, "longitude": -3.7}}}}"#,
            id = 100000 + i,
            d = 1 + i % 28,
        ));
    }
    s.push_str("\n]}\n");
    s
}

fn count(db: &std::path::Path, tag: &str) -> (i64, i64) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let ok: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    let total: i64 = conn.query_row("SELECT count(*) FROM events WHERE status = 'active'", [], |r| r.get(0)).unwrap();
    let tagged: i64 = conn
        .query_row("SELECT count(*) FROM events WHERE status = 'active' AND title LIKE ?1", [format!("Evento {tag} %")], |r| r.get(0))
        .unwrap();
    (total, tagged)
}

/// The madrid feed served from loopback: the server's record tells when each
/// request arrived, so a kill can be aimed after the fetch (into the ingest).
fn serve(feed: std::sync::Arc<std::sync::Mutex<String>>) -> Server {
    Server::start(move |_, _| Reply::ok(feed.lock().unwrap().clone()))
}

/// Did a run record itself as finished? (A run killed mid-ingest did not.)
fn finished_runs(db: &std::path::Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("SELECT count(*) FROM runs WHERE finished_at IS NOT NULL", [], |r| r.get(0)).unwrap()
}

#[test]
fn killed_mid_ingest_leaves_old_or_new_state() {
    let n = 12_000;
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\nenabled = true\n");
    let body = std::sync::Arc::new(std::sync::Mutex::new(feed(n, "viejo")));
    let server = serve(body.clone());
    let db = dir.path().join("data/cityvibe.db");
    let mirror = server.url();
    let run = || {
        // `--force`: the same source again within its period (P7), as an operator would.
        common::command(dir.path())
            .args(["--mirror", mirror.as_str(), "run", "--force", "--source", "madrid", "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // Wait until the server has answered the `k`-th request.
    let await_request = |k: usize| {
        while server.requests().len() < k {
            std::thread::sleep(Duration::from_millis(5));
        }
        server.requests()[k - 1].at
    };
    // The old state, complete; how long its fetch-to-end (the ingest) took.
    let mut first = run();
    let fetched = await_request(1);
    assert!(first.wait().unwrap().success());
    let ingest = fetched.elapsed();
    assert_eq!(count(&db, "viejo"), (n as i64, n as i64));
    assert_eq!(finished_runs(&db), 1);
    // Each new feed changes every title; kill the run at several points of
    // its ingest, each after the server answered and before the run ended.
    // A run that ended before its kill proves nothing: it is not counted,
    // and the point is tried again earlier (ingest times vary with load).
    let (mut current, mut finished, mut attempt) = ("viejo".to_string(), 1, 0);
    let mut outcomes = Vec::new();
    for target in [0.2, 0.5, 0.8] {
        let mut fraction = target;
        loop {
            attempt += 1;
            assert!(attempt <= 12, "no kill landed mid-run in {attempt} attempts");
            let tag = format!("nuevo{attempt}");
            *body.lock().unwrap() = feed(n, &tag);
            let mut child = run();
            let at = await_request(attempt + 1);
            std::thread::sleep(ingest.mul_f64(fraction).saturating_sub(at.elapsed()));
            if child.try_wait().unwrap().is_some() {
                // Too late: the run ended whole, with the new state.
                finished += 1;
                assert_eq!(count(&db, &tag), (n as i64, n as i64));
                current = tag;
                fraction /= 2.0;
                continue;
            }
            // The proof that the kill lands mid-run: the process is still
            // alive after its fetch was answered, and it never records its end.
            child.kill().unwrap();
            child.wait().unwrap();
            assert_eq!(finished_runs(&db), finished, "the killed run recorded an end");
            let (total, new) = count(&db, &tag);
            assert_eq!(total, n as i64, "a killed run left a partial source");
            assert!(new == 0 || new == n as i64, "mixed state: {new} of {n} new titles");
            if new == 0 {
                assert_eq!(count(&db, &current).1, n as i64, "neither the old nor the new state");
            } else {
                current = tag;
            }
            outcomes.push((fraction, new));
            break;
        }
    }
    eprintln!("(fraction of the ingest, new titles) after each kill: {outcomes:?}");
}
