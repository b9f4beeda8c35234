//! P20: what one feed may take away. The guards count
//! distinct ids, and a run that would withdraw more than a share of a
//! source's active events (25 % unless its row says otherwise, never over
//! 50 %) is an `anomaly` that changes nothing. Through the binary, with the
//! madrid adapter fed by the loopback server.
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, workdir};
use std::path::Path;
use std::sync::{Arc, Mutex};

const MADRID_ONLY: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";

/// A Madrid JSON feed with one record per id (ids may repeat).
fn madrid_feed(ids: impl IntoIterator<Item = u32>) -> Vec<u8> {
    let records: Vec<String> = ids
        .into_iter()
        .enumerate()
        .map(|(n, id)| {
            format!(
                r#"{{"@id": "https://datos.madrid.es/egob/catalogo/tipo/evento/{id}.json",
                 "@type": "https://datos.madrid.es/egob/kos/actividades/Musica",
                 "id": "{id}", "title": "Concierto {id} ({n})", "description": "Un concierto.",
                 "free": 1, "price": "", "dtstart": "2026-12-11 18:00:00.0", "dtend": "2026-12-11 23:59:00.0",
                 "time": "18:00", "excluded-days": "", "uid": "{id}",
                 "link": "http://www.madrid.es/evento/{id}", "event-location": "Sala {id}"}}"#
            )
        })
        .collect();
    format!("{{\"@context\": {{}}, \"@graph\": [{}]}}", records.join(",\n")).into_bytes()
}

/// A server answering the madrid JSON URL with whatever `feed` holds now
/// (the CSV and XML fallbacks are absent).
fn feed_server(feed: Arc<Mutex<Vec<u8>>>) -> Server {
    Server::start(move |seen, _| if seen.path.ends_with(".json") { Reply::ok(feed.lock().unwrap().clone()) } else { Reply::new(404) })
}

/// Exit code and the source's report of one `run --json`.
fn run(dir: &Path, server: &Server) -> (i32, serde_json::Value) {
    // `--force`: runs in a row within the source's period (P7), as an operator's manual runs; every delay still holds.
    let out = cityvibe(dir, &["--mirror", &server.url(), "run", "--force", "--source", "madrid", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: stdout {} stderr {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v["sources"][0].clone())
}

/// The active events' ids, sorted.
fn active(dir: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(dir.join("data/cityvibe.db")).unwrap();
    let mut st = conn.prepare("SELECT source_event_id FROM events WHERE status = 'active' ORDER BY 0 + source_event_id").unwrap();
    st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

/// A source of 20 events stored by a first healthy run.
fn twenty_stored(dir: &Path, feed: &Arc<Mutex<Vec<u8>>>, server: &Server) {
    *feed.lock().unwrap() = madrid_feed(1..=20);
    let (code, r) = run(dir, server);
    assert_eq!((code, r["status"].as_str(), r["added"].as_u64()), (0, Some("ok"), Some(20)), "{r}");
}

#[test]
fn feed_repeating_one_id_is_an_anomaly_that_withdraws_nothing_p20() {
    let dir = workdir(MADRID_ONLY);
    let feed = Arc::new(Mutex::new(Vec::new()));
    let server = feed_server(feed.clone());
    twenty_stored(dir.path(), &feed, &server);
    // As many records as before, every one carrying the same id.
    *feed.lock().unwrap() = madrid_feed(std::iter::repeat_n(7, 20));
    let (code, r) = run(dir.path(), &server);
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["status"], "anomaly", "{r}");
    assert_eq!(r["withdrawn"], 0, "{r}");
    let msg = r["message"].as_str().unwrap();
    for part in ["madrid", "20 records, only 1 distinct ids", "/egob/catalogo/300107-0-agenda-actividades-eventos.json", "source disable"] {
        assert!(msg.contains(part), "{part:?} missing from {msg}");
    }
    assert_eq!(active(dir.path()).len(), 20, "nothing may be withdrawn");
}

#[test]
fn feed_removing_30_percent_is_an_anomaly_unless_the_row_allows_it_p20() {
    let dir = workdir(MADRID_ONLY);
    let feed = Arc::new(Mutex::new(Vec::new()));
    let server = feed_server(feed.clone());
    twenty_stored(dir.path(), &feed, &server);
    // 14 of the 20 events, and 2 new ones: 6 of 20 would go (30 %).
    *feed.lock().unwrap() = madrid_feed((1..=14).chain(21..=22));
    let (code, r) = run(dir.path(), &server);
    assert_eq!((code, r["status"].as_str(), r["withdrawn"].as_u64()), (1, Some("anomaly"), Some(0)), "{r}");
    let msg = r["message"].as_str().unwrap();
    for part in ["withdraw 6 of the 20 active events", "30 %", "25 %", "max_withdraw_share", "[sources.madrid]"] {
        assert!(msg.contains(part), "{part:?} missing from {msg}");
    }
    assert_eq!(active(dir.path()), (1..=20).map(|i| i.to_string()).collect::<Vec<_>>(), "nothing may change");

    // The operator, having checked the feed, allows 40 % for this source.
    std::fs::write(dir.path().join("sources.toml"), format!("{MADRID_ONLY}max_withdraw_share = 0.4\n")).unwrap();
    let (code, r) = run(dir.path(), &server);
    assert_eq!((code, r["status"].as_str(), r["withdrawn"].as_u64(), r["added"].as_u64()), (0, Some("ok"), Some(6), Some(2)), "{r}");
    assert_eq!(active(dir.path()).len(), 16);
}

#[test]
fn feed_removing_10_percent_withdraws_them_p20() {
    let dir = workdir(MADRID_ONLY);
    let feed = Arc::new(Mutex::new(Vec::new()));
    let server = feed_server(feed.clone());
    twenty_stored(dir.path(), &feed, &server);
    *feed.lock().unwrap() = madrid_feed(1..=18);
    let (code, r) = run(dir.path(), &server);
    assert_eq!((code, r["status"].as_str(), r["withdrawn"].as_u64()), (0, Some("ok"), Some(2)), "{r}");
    assert_eq!(active(dir.path()), (1..=18).map(|i| i.to_string()).collect::<Vec<_>>());
}

#[test]
fn a_share_over_half_is_refused_at_config_load_p20() {
    for bad in ["0.6", "0", "-0.1", "nan"] {
        let dir = workdir(&format!("{MADRID_ONLY}max_withdraw_share = {bad}\n"));
        let out = cityvibe(dir.path(), &["run", "--source", "madrid"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("[sources.madrid] max_withdraw_share") && err.contains("at most 0.5"), "{bad}: {err}");
        assert!(!dir.path().join("data/cityvibe.db").exists() || active(dir.path()).is_empty());
    }
}
