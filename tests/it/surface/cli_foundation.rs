//! End to end through the binary: `run` against the real madrid
//! adapter (2 s delay) through `--mirror`, a loopback server recording every
//! request, and the SQLite file it leaves. (Its fallback from JSON to CSV to
//! XML, each 2 s apart, is proven on simulated time in `politeness::client::pacing`.)
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, realdata, sample, workdir};
use std::path::Path;
use std::time::Duration;

const MADRID_ONLY: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";
const JSON_PATH: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";

fn madrid_sample(ext: &str) -> Vec<u8> {
    std::fs::read(sample(&format!("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.{ext}"))).unwrap()
}

fn run_json(dir: &Path, mirror: &str) -> (i32, serde_json::Value) {
    // `--force`: runs in a row within the source's period (P7), as an operator's manual runs; every delay still holds.
    let out = cityvibe(dir, &["--mirror", mirror, "run", "--force", "--source", "madrid", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("run --json printed no JSON ({e}): {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().unwrap_or(-1), v)
}

fn events(dir: &Path) -> Vec<serde_json::Value> {
    let out = cityvibe(dir, &["events", "list", "--json", "--limit", "100000", "--at", common::SAMPLES_AT]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// P1, P2, P12: exact User-Agent, GET, no cookie sent back, If-None-Match
/// returned byte for byte, and a 304 leaves the stored events untouched.
#[test]
fn identity_cookies_and_conditional_requests() {
    let body = madrid_sample("json");
    let etag = "W/\"v1-é\"".replace('é', "e") + "; odd=\"1\"";
    let etag2 = etag.clone();
    let server = Server::start(move |seen, i| {
        if i == 0 {
            Reply::ok(body.clone()).header("ETag", &etag2).header("Set-Cookie", "session=abc; Path=/")
        } else if seen.header("If-None-Match") == Some(etag2.as_str()) {
            Reply::new(304).header("ETag", &etag2)
        } else {
            Reply::ok(body.clone())
        }
    });
    let dir = workdir(MADRID_ONLY);
    let (code, first) = run_json(dir.path(), &server.url());
    assert_eq!(code, 0, "{first}");
    assert_eq!(first["sources"][0]["status"], "ok");
    let before = events(dir.path());
    assert_eq!(before.len(), 8);
    let (code, second) = run_json(dir.path(), &server.url());
    assert_eq!(code, 0);
    assert_eq!(second["sources"][0]["status"], "unchanged");
    assert_eq!(second["sources"][0]["not_modified"], 1);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    for r in &reqs {
        assert_eq!(r.method, "GET");
        assert_eq!(r.path, JSON_PATH);
        assert_eq!(r.header_all("User-Agent"), vec!["CityVibeBot/1.0 (+https://cityvibe.guide/bot-info)"]);
        assert!(r.header("Cookie").is_none(), "a cookie was sent: {:?}", r.headers);
        assert!(r.header("Authorization").is_none());
    }
    assert_eq!(reqs[1].header("If-None-Match"), Some(etag.as_str()), "validator not returned byte for byte");
    assert_eq!(events(dir.path()), before, "a 304 changed stored events");
    // P8 across processes: the second process waited the host's 2 s.
    assert!(reqs[1].at.duration_since(reqs[0].at) >= Duration::from_secs(2));
}

/// P13: a redirect to a host outside the manifest is refused before any
/// request reaches that host.
#[test]
fn redirect_off_manifest_is_refused_without_a_request() {
    let server = Server::start(|_, _| Reply::new(302).header("Location", "https://evil.example.com/feed.json"));
    let dir = workdir(MADRID_ONLY);
    let (code, v) = run_json(dir.path(), &server.url());
    assert_eq!(code, 1);
    assert_eq!(v["sources"][0]["status"], "refused", "{v}");
    assert!(v["sources"][0]["message"].as_str().unwrap().contains("evil.example.com"));
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1, "{reqs:?}");
    assert!(reqs.iter().all(|r| !r.path.contains("evil.example.com")));
}

/// One run at a time: a second run while the lock is held makes no request
/// and exits at once with its own code (3).
#[test]
fn second_run_while_locked_makes_no_request() {
    let server = Server::start(|_, _| Reply::ok(madrid_sample("json")));
    let dir = workdir(MADRID_ONLY);
    let _held = cityvibe::ingest::RunLock::acquire(&dir.path().join("data/cityvibe.db"), Some(&common::state_dir(dir.path()))).unwrap();
    // `_held` outlives the second run: it exited while the lock was still
    // held, so it did not wait for it (an ordering, not a stopwatch).
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run"]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another cityvibe run"));
    assert!(server.requests().is_empty());
}

/// Exit code 2 and a clear message for a config error. (A row naming no
/// adapter is not one: it fails that source alone, pinned by
/// `operator::day::a_scaffold_row_never_breaks_the_binary_built_before_it`.)
#[test]
fn config_error_exits_2() {
    let dir = workdir("[sources.madrid]\nperiod_hours = 1\n");
    let out = cityvibe(dir.path(), &["run"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("[sources.madrid] period_hours"), "{err}");
}

/// P5: the real feeds leave no e-mail address or phone number anywhere in
/// the database: every text value of every table, and the raw bytes of the
/// database file and its WAL.
#[test]
fn real_feeds_leave_no_contact_data_in_the_database_p5() {
    for ext in ["json", "csv", "xml"] {
        let Some(real) = realdata(&format!("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.{ext}")) else { return };
        let dir = workdir(MADRID_ONLY);
        let mirror = dir.path().join("mirror/datos.madrid.es/egob/catalogo");
        std::fs::create_dir_all(&mirror).unwrap();
        // Only this format is there: the others answer 404 and the adapter falls back.
        std::fs::copy(&real, mirror.join(format!("300107-0-agenda-actividades-eventos.{ext}"))).unwrap();
        let (code, v) = run_json(dir.path(), dir.path().join("mirror").to_str().unwrap());
        assert_eq!(code, 0, "{ext}: {v}");
        assert!(v["sources"][0]["added"].as_u64().unwrap() > 900, "{ext}: {v}");
        let db = dir.path().join("data/cityvibe.db");
        let needles = [
            "inforetiro@",
            "proambiental@",
            "infocasacampo@",
            "cclavapies@",
            "actividades_museo@",
            "jmsalamanca@",
            "taquilla.fernangomez@",
            "amigos@teatrofernangomez",
            "91 376 91 97",
            "913184733",
            "917109263",
            "917 100 232",
            "91 547 84 73",
            "917791204",
        ];
        let conn = rusqlite::Connection::open(&db).unwrap();
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut scanned = 0;
        for t in &tables {
            let mut st = conn.prepare(&format!("SELECT * FROM {t}")).unwrap();
            let n = st.column_count();
            let mut rows = st.query([]).unwrap();
            while let Some(row) = rows.next().unwrap() {
                for i in 0..n {
                    if let Ok(Some(s)) = row.get::<_, Option<String>>(i) {
                        scanned += 1;
                        assert!(!cityvibe::parse::pii::contains_pii(&s), "{ext}: {t} holds contact data: {s}");
                        for nd in needles {
                            assert!(!s.contains(nd), "{ext}: {t} holds {nd}");
                        }
                    }
                }
            }
        }
        assert!(scanned > 10_000, "{ext}: only {scanned} text values scanned");
        drop(conn);
        for f in ["data/cityvibe.db", "data/cityvibe.db-wal"] {
            if let Ok(bytes) = std::fs::read(dir.path().join(f)) {
                let text = String::from_utf8_lossy(&bytes);
                for nd in needles {
                    assert!(!text.contains(nd), "{ext}: raw bytes of {f} hold {nd}");
                }
            }
        }
    }
}

/// `run --json` and `events list --json` carry the documented fields.
#[test]
fn json_outputs_carry_the_documented_fields() {
    let dir = workdir(MADRID_ONLY);
    let (code, v) = run_json(dir.path(), sample("").to_str().unwrap());
    assert_eq!(code, 0, "{v}");
    let s = &v["sources"][0];
    for k in ["id", "status", "requests", "not_modified", "added", "updated", "withdrawn", "record_errors", "message"] {
        assert!(s.get(k).is_some(), "run --json lacks {k}");
    }
    let evs = events(dir.path());
    assert_eq!(evs.len(), 8);
    for e in &evs {
        for k in [
            "source",
            "source_event_id",
            "title",
            "description",
            "url",
            "licence",
            "attribution",
            "start",
            "end",
            "venue",
            "lat",
            "lon",
            "lang",
        ] {
            assert!(e.get(k).is_some(), "events list --json lacks {k}");
        }
        assert_eq!(e["licence_url"], "https://datos.madrid.es/egob/catalogo/aviso-legal");
    }
    let out = cityvibe(dir.path(), &["source", "list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let madrid = list.as_array().unwrap().iter().find(|r| r["id"] == "madrid").unwrap();
    for k in ["id", "enabled", "host", "min_delay_secs", "last_status"] {
        assert!(madrid.get(k).is_some(), "source list --json lacks {k}");
    }
    assert_eq!(madrid["last_status"], "ok");
}

/// P5: an error that quotes the feed never carries contact data to the
/// report, the runs table or stderr.
#[test]
fn error_messages_quoting_the_feed_are_scrubbed() {
    let server = Server::start(|seen, _| match seen.path.as_str() {
        JSON_PATH => Reply::ok(r#"{"@graph": "escribe a taquilla@example.es o llama al 912 345 678"}"#),
        _ => Reply::new(404),
    });
    let dir = workdir(MADRID_ONLY);
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--json"]);
    let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(!all.contains("taquilla@example.es") && !all.contains("912 345 678"), "{all}");
    let runs = cityvibe(dir.path(), &["runs", "--json"]);
    let text = String::from_utf8_lossy(&runs.stdout);
    assert!(!text.contains("taquilla@") && !text.contains("912 345 678"), "{text}");
}
