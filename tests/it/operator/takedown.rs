//! P18 end to end through the binary: a takedown deletes an event (and its
//! translations) at once, and later runs that really re-ingest the feed do
//! not bring it back; lifting the takedown lets it return.
use crate::common;
use crate::common::ok;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use std::path::Path;

const MADRID_ONLY: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";

fn madrid_json() -> Vec<u8> {
    std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap()
}

fn run(dir: &Path, mirror: &str) -> serde_json::Value {
    // `--force`: runs in a row within the source's period (P7), as an operator's manual runs; every delay still holds.
    let out = cityvibe(dir, &["--mirror", mirror, "run", "--force", "--source", "madrid", "--json"]);
    serde_json::from_str(&ok(&out)).unwrap()
}

fn events(dir: &Path) -> Vec<serde_json::Value> {
    serde_json::from_str(&ok(&cityvibe(dir, &["events", "list", "--json", "--limit", "100000", "--at", common::SAMPLES_AT]))).unwrap()
}

fn keys(evs: &[serde_json::Value]) -> Vec<String> {
    evs.iter().map(|e| format!("{}:{}", e["source"].as_str().unwrap(), e["source_event_id"].as_str().unwrap())).collect()
}

#[test]
fn takedown_deletes_at_once_and_survives_reingest_p18() {
    // Every answer is the sample with a different amount of trailing
    // whitespace: a new body each time, so every run parses and ingests.
    let body = madrid_json();
    let server = Server::start(move |_, i| {
        let mut b = body.clone();
        b.extend(std::iter::repeat_n(b'\n', i + 1));
        Reply::ok(b)
    });
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let first = run(d, &server.url());
    assert_eq!(first["sources"][0]["status"], "ok", "{first}");
    let before = events(d);
    assert_eq!(before.len(), 8);
    let by_id = keys(&before)[0].clone();
    let victim_url = before.iter().skip(1).find_map(|e| e["url"].as_str().map(String::from)).expect("an event with a URL");
    let by_url = keys(&before)[before.iter().position(|e| e["url"].as_str() == Some(victim_url.as_str())).unwrap()].clone();
    assert_ne!(by_id, by_url);

    // A translation row of the first victim, to see the cascade.
    let db = d.join("data/cityvibe.db");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let (src, id) = by_id.split_once(':').unwrap();
        let n = conn
            .execute(
                "INSERT INTO translations (event_id, lang, field, text, origin, engine, source_hash)
                 SELECT id, 'en', 'title', 'A title', 'publisher', NULL, 'x' FROM events WHERE source = ?1 AND source_event_id = ?2",
                [src, id],
            )
            .unwrap();
        assert_eq!(n, 1);
        // A machine translation of it, and its cache entry; and an unrelated cache entry.
        conn.execute(
            "INSERT INTO translations (event_id, lang, field, text, origin, engine, source_hash)
             SELECT id, 'fr', 'title', 'Un titre', 'machine', 'apertium/test', 'x' FROM events WHERE source = ?1 AND source_event_id = ?2",
            [src, id],
        )
        .unwrap();
        conn.execute("INSERT INTO translation_cache (key, text, engine, created_at) VALUES ('k1', 'Un titre', 'apertium/test', 0)", [])
            .unwrap();
        conn.execute("INSERT INTO translation_cache (key, text, engine, created_at) VALUES ('k2', 'Autre chose', 'apertium/test', 0)", [])
            .unwrap();
    }

    // By SOURCE:ID and by URL.
    let out = ok(&cityvibe(d, &["takedown", "add", &by_id, "--reason", "the organiser asked", "--json"]));
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["deleted"], serde_json::json!([by_id]));
    assert_eq!(r["translations_deleted"], 2);
    ok(&cityvibe(d, &["takedown", "add", &victim_url, "--reason", "wrong venue, says the publisher"]));

    // Gone at once, from the listing and from the database (translations too).
    let now = keys(&events(d));
    assert_eq!(now.len(), 6);
    assert!(!now.contains(&by_id) && !now.contains(&by_url), "{now:?}");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let n: i64 = conn.query_row("SELECT count(*) FROM translations", [], |r| r.get(0)).unwrap();
        assert_eq!(n, 0, "translations of a taken-down event remain");
        let keys: Vec<String> =
            conn.prepare("SELECT key FROM translation_cache").unwrap().query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
        assert_eq!(keys, vec!["k2".to_string()], "the cached translation of a taken-down event remains");
        let n: i64 = conn.query_row("SELECT count(*) FROM events", [], |r| r.get(0)).unwrap();
        assert_eq!(n, 6, "a taken-down event is still a row (even withdrawn)");
    }
    let list: Vec<serde_json::Value> = serde_json::from_str(&ok(&cityvibe(d, &["takedown", "list", "--json"]))).unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["reason"], "the organiser asked");
    assert_eq!(list[1]["url"], victim_url.as_str());
    assert!(ok(&cityvibe(d, &["takedown", "list"])).contains("wrong venue"));

    // A run that really re-ingests the feed (new body) does not bring them back.
    let second = run(d, &server.url());
    assert_eq!(second["sources"][0]["status"], "ok", "{second}");
    assert_eq!(second["sources"][0]["added"], 0, "{second}");
    let now = keys(&events(d));
    assert_eq!(now.len(), 6, "{now:?}");
    assert!(!now.contains(&by_id) && !now.contains(&by_url));

    // Lifting one takedown lets that event come back on the next real ingest.
    let id = list[0]["id"].as_i64().unwrap().to_string();
    ok(&cityvibe(d, &["takedown", "remove", &id]));
    let third = run(d, &server.url());
    assert_eq!(third["sources"][0]["added"], 1, "{third}");
    let now = keys(&events(d));
    assert!(now.contains(&by_id) && !now.contains(&by_url), "{now:?}");
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn bare_id_must_be_unique_and_known() {
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    run(d, sample("").to_str().unwrap());
    let evs = events(d);
    let id = evs[0]["source_event_id"].as_str().unwrap().to_string();
    // Unknown bare id: usage error, nothing recorded.
    let out = cityvibe(d, &["takedown", "add", "no-such-id-42", "--reason", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SOURCE:ID"));
    // An empty reason is refused.
    let out = cityvibe(d, &["takedown", "add", &id, "--reason", " "]);
    assert_eq!(out.status.code(), Some(2));
    // A unique bare id works.
    ok(&cityvibe(d, &["takedown", "add", &id, "--reason", "asked by the venue"]));
    assert_eq!(events(d).len(), 7);
    let list: Vec<serde_json::Value> = serde_json::from_str(&ok(&cityvibe(d, &["takedown", "list", "--json"]))).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["source"], "madrid");
    assert_eq!(list[0]["source_event_id"], id.as_str());
    // A URL typed with another scheme and a trailing slash still finds its one event.
    let other = evs.iter().find(|e| e["source_event_id"] != id.as_str() && e["url"].is_string()).unwrap();
    let stored_url = other["url"].as_str().unwrap();
    let typed = format!("https://{}/", stored_url.split_once("://").unwrap().1);
    let r: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["takedown", "add", &typed, "--reason", "x", "--json"]))).unwrap();
    assert_eq!(r["deleted"], serde_json::json!([format!("madrid:{}", other["source_event_id"].as_str().unwrap())]));
    assert_eq!(r["takedown"]["url"], stored_url, "the tombstone keeps the URL as stored");
    assert_eq!(events(d).len(), 6);
    // Removing an unknown takedown is an error.
    assert_eq!(cityvibe(d, &["takedown", "remove", "999"]).status.code(), Some(2));
}
