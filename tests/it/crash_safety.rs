//! A process killed in the middle of a run leaves a database that opens and
//! holds, per source, either the old or the new state (issue 2, P20).
use crate::common;

use common::workdir;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

#[test]
fn killed_mid_ingest_leaves_old_or_new_state() {
    let n = 12_000;
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\nenabled = true\n");
    let feed_dir = dir.path().join("mirror/datos.madrid.es/egob/catalogo");
    std::fs::create_dir_all(&feed_dir).unwrap();
    let feed_path = feed_dir.join("300107-0-agenda-actividades-eventos.json");
    std::fs::write(&feed_path, feed(n, "viejo")).unwrap();
    let db = dir.path().join("data/cityvibe.db");
    let mirror = dir.path().join("mirror");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_cityvibe"))
            .args(["--mirror", mirror.to_str().unwrap(), "run", "--source", "madrid", "--quiet"])
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // The old state, complete.
    let started = Instant::now();
    assert!(run().wait().unwrap().success());
    let full_run = started.elapsed();
    assert_eq!(count(&db, "viejo"), (n as i64, n as i64));
    // The new feed changes every title; kill the run at several points of it.
    std::fs::write(&feed_path, feed(n, "nuevo")).unwrap();
    let mut outcomes = Vec::new();
    for fraction in [0.2, 0.5, 0.8] {
        // Waits out the host's 2 s delay, then fetches and ingests.
        let mut child = run();
        std::thread::sleep(Duration::from_secs(2) + full_run.mul_f64(fraction));
        let _ = child.kill();
        let _ = child.wait();
        let (total, new) = count(&db, "nuevo");
        assert_eq!(total, n as i64, "a killed run left a partial source");
        assert!(new == 0 || new == n as i64, "mixed state: {new} of {n} new titles");
        outcomes.push(new);
    }
    eprintln!("new titles after each kill: {outcomes:?}");
}
