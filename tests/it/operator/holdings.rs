//! P17 end to end: `cityvibe holdings` tells a publisher what we hold and how
//! we fetched it, and its numbers agree with what a loopback server itself
//! recorded of our requests.
use crate::common;
use crate::common::ok;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use std::time::Duration;

const MADRID_ONLY: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";
const JSON_PATH: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const CSV_PATH: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv";
const XML_PATH: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml";
const HTML: &str = "<html><body>Servicio no disponible</body></html>";

#[test]
fn holdings_agree_with_the_servers_own_log_p17() {
    let xml = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml")).unwrap();
    let xml_len = xml.len() as u64;
    // JSON fails, the CSV is an HTML error page, the XML works (and answers
    // 304 to its own validator): statuses 500, 200, 200, then 500, 200, 304.
    let server = Server::start(move |seen, _| match seen.path.as_str() {
        JSON_PATH => Reply::new(500),
        CSV_PATH => Reply::ok(HTML).header("Content-Type", "text/html"),
        XML_PATH if seen.header("If-None-Match") == Some("\"x1\"") => Reply::new(304).header("ETag", "\"x1\""),
        XML_PATH => Reply::ok(xml.clone()).header("ETag", "\"x1\""),
        _ => Reply::new(404),
    });
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    for _ in 0..2 {
        // `--force`: runs in a row within the source's period (P7), as an operator's manual runs; every delay still holds.
        cityvibe(d, &["--mirror", &server.url(), "run", "--force", "--source", "madrid", "--json"]);
    }
    let seen = server.requests();
    assert_eq!(seen.len(), 6, "{:?}", seen.iter().map(|s| &s.path).collect::<Vec<_>>());
    let server_min_gap = seen.windows(2).map(|w| w[1].at.duration_since(w[0].at)).min().unwrap();

    // By source id, by host, and by a URL on the host: the same report.
    let by_id: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["holdings", "madrid", "--json"]))).unwrap();
    let by_host: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["holdings", "datos.madrid.es", "--json"]))).unwrap();
    let by_url: serde_json::Value =
        serde_json::from_str(&ok(&cityvibe(d, &["holdings", "https://datos.madrid.es/egob/catalogo/x", "--json"]))).unwrap();
    assert_eq!(by_id["sources"], by_host["sources"]);
    assert_eq!(by_id["sources"], by_url["sources"]);

    let f = &by_id["fetch_log_30_days"][0];
    assert_eq!(f["host"], "datos.madrid.es");
    assert_eq!(f["requests"], seen.len(), "{f}");
    let statuses: std::collections::BTreeMap<String, u64> =
        f["statuses"].as_array().unwrap().iter().map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap())).collect();
    assert_eq!(statuses, [("200".to_string(), 3), ("304".to_string(), 1), ("500".to_string(), 2)].into_iter().collect());
    assert!((f["not_modified_share"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-9, "{f}");
    assert_eq!(f["bytes"], 2 * HTML.len() as u64 + xml_len, "bytes = the 2xx bodies the server sent");
    let per_day: u64 = f["requests_per_day"].as_array().unwrap().iter().map(|p| p[1].as_u64().unwrap()).sum();
    assert_eq!(per_day, 6);
    // The smallest gap: ours and the server's agree, and both keep the 2 s delay.
    let ours = Duration::from_millis(f["min_gap_ms"].as_u64().unwrap());
    assert!(ours >= Duration::from_secs(2), "our log shows a gap of {ours:?}");
    assert!(server_min_gap >= Duration::from_millis(1950), "the server saw a gap of {server_min_gap:?}");
    // Ours is timed before sending, the server's on arrival: scheduling
    // noise between the two only ever adds, so no upper bound is asserted.

    let s = &by_id["sources"][0];
    assert_eq!(s["id"], "madrid");
    assert_eq!(s["events_active"], 8);
    assert_eq!(s["events_withdrawn"], 0);
    assert_eq!(s["licence_url"], "https://datos.madrid.es/egob/catalogo/aviso-legal");
    assert!(s["attribution"].as_str().unwrap().contains("Ayuntamiento de Madrid"));
    // Dates: the stored range.
    let evs: Vec<serde_json::Value> =
        serde_json::from_str(&ok(&cityvibe(d, &["events", "list", "--json", "--limit", "1000", "--at", common::SAMPLES_AT]))).unwrap();
    let min_start = evs.iter().filter_map(|e| e["start"].as_str()).min().unwrap();
    assert!(s["first_date"].as_str().unwrap() <= min_start, "{s}");
    assert!(s["first_date"].as_str().unwrap() <= s["last_date"].as_str().unwrap());
    // Fields: content columns that hold something, never our bookkeeping.
    let fields: Vec<&str> = s["fields"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    // Licence and attribution are cited by reference, not stored per event.
    for must in ["source_event_id", "title", "description", "url", "lat", "lon"] {
        assert!(fields.contains(&must), "fields lack {must}: {fields:?}");
    }
    for never in ["id", "content_hash", "status", "first_seen"] {
        assert!(!fields.contains(&never), "{never} is bookkeeping: {fields:?}");
    }
    // Each field named really holds a value for one of the events.
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    for f in &fields {
        let n: i64 = conn
            .query_row(&format!("SELECT count(*) FROM events WHERE source = 'madrid' AND \"{f}\" IS NOT NULL"), [], |r| r.get(0))
            .unwrap();
        assert!(n > 0, "{f}");
    }

    let text = ok(&cityvibe(d, &["holdings", "datos.madrid.es"]));
    assert!(text.contains("8 active") && text.contains("requests 6") && text.contains("500×2"), "{text}");
    // An unknown host is a usage error that lists what we know.
    let out = cityvibe(d, &["holdings", "example.org"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("datos.madrid.es"));
}

/// The fetch log's outcome is one typed word
/// (`vocab::RequestOutcome`). A database holding rows in every spelling
/// earlier releases wrote still answers `holdings` and `source show`,
/// each row read back and counted (P17).
#[test]
fn fetch_log_rows_in_the_old_spellings_still_read_back_p17() {
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let samples = sample("");
    ok(&cityvibe(d, &["--mirror", samples.to_str().unwrap(), "run", "--source", "madrid", "--json"]));
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let (ours, last): (i64, i64) = conn
        .query_row("SELECT count(*) FILTER (WHERE host = 'datos.madrid.es'), max(started_ms) FROM fetch_log", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    // The folder run's read is booked as `folder:datos.madrid.es`: it never
    // left the machine, so it is no request to the host.
    assert_eq!(ours, 0);
    let old: [(&str, Option<u16>); 16] = [
        ("ok", Some(200)),
        ("not_modified", Some(304)),
        ("unchanged", Some(200)),
        ("error: no body", Some(204)),
        ("redirect 301", Some(301)),
        ("redirect refused", Some(302)),
        ("redirect failed", Some(302)),
        ("error: redirect", Some(302)),
        ("backoff 2000 ms", Some(429)),
        ("backoff: gave up after 4 tries", Some(503)),
        ("backoff: wait over cap", Some(429)),
        ("backoff: ledger failed", Some(503)),
        ("refused", Some(403)),
        ("refused: reservation", Some(200)),
        ("http 500", Some(500)),
        ("error: io: Connection refused", None),
    ];
    for (i, (outcome, status)) in old.iter().enumerate() {
        conn.execute(
            "INSERT INTO fetch_log (run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome)
             VALUES (NULL, 'madrid', 'datos.madrid.es', 'https://datos.madrid.es/egob/old.json', ?1, 5, ?2, 10, 0, ?3)",
            rusqlite::params![last + 1000 * (i as i64 + 1), status, outcome],
        )
        .unwrap();
    }
    drop(conn);
    let want = ours as u64 + old.len() as u64;
    let holdings: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["holdings", "datos.madrid.es", "--json"]))).unwrap();
    let f = &holdings["fetch_log_30_days"][0];
    assert_eq!(f["requests"], want, "{f}");
    let statuses: std::collections::BTreeMap<String, u64> =
        f["statuses"].as_array().unwrap().iter().map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap())).collect();
    for (status, n) in [("301", 1), ("302", 3), ("403", 1), ("429", 2), ("500", 1), ("503", 2), ("error", 1)] {
        assert_eq!(statuses.get(status), Some(&n), "{status}: {statuses:?}");
    }
    let show: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["source", "show", "madrid", "--json"]))).unwrap();
    assert_eq!(show["fetch_log_30_days"]["requests"], want, "{show}");
}
