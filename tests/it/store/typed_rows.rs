//! The store returns typed rows. Through the binary on a real
//! SQLite file: an event's dates, occurrences, weekdays, excluded days,
//! categories and status print as the JSON stored; a stored column that
//! does not parse fails the command with an error naming the event and the
//! column, never a silent null (an event listed without its dates).
use crate::common;

use common::{cityvibe, workdir};
use std::path::Path;

const OCCURRENCES: &str = r#"[{"start":"2026-12-01T19:00:00","end":"2026-12-01T21:00:00"},{"start":"2026-12-15T19:00:00","end":null}]"#;

/// A database in `d` holding one event, `jcyl:7`, as an ingest writes its row.
fn one_event(d: &Path) {
    let store = cityvibe::store::Store::open(&d.join("data/cityvibe.db")).unwrap();
    store
        .connection()
        .execute(
            "INSERT INTO events (source, source_event_id, title, description, lang, time_zone, all_day, start, end, first_start, last_end,
                occurrences, weekdays, excluded, categories, source_categories, content_hash, first_seen, last_changed)
             VALUES ('jcyl', '7', 'Concierto', '', 'es', 'Europe/Madrid', 0, '2026-12-01T19:00:00', '2026-12-15T21:00:00',
                '2026-12-01T19:00:00', '2026-12-15T19:00:00', ?1, '[\"TU\"]', '[\"2026-12-08\"]', '[\"music\",\"family\"]', '[\"Música\"]',
                'h', 0, 0)",
            [OCCURRENCES],
        )
        .unwrap();
}

fn set(d: &Path, column: &str, value: &str) {
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    conn.execute(&format!("UPDATE events SET {column} = ?1"), [value]).unwrap();
}

#[test]
fn events_list_prints_the_typed_row_as_the_json_stored() {
    let dir = workdir("");
    let d = dir.path();
    one_event(d);
    let out = cityvibe(d, &["events", "list", "--json", "--at", common::SAMPLES_AT]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &list[0];
    assert_eq!(e["occurrences"], serde_json::from_str::<serde_json::Value>(OCCURRENCES).unwrap());
    assert_eq!(e["weekdays"], serde_json::json!(["TU"]));
    assert_eq!(e["excluded"], serde_json::json!(["2026-12-08"]));
    assert_eq!(e["categories"], serde_json::json!(["music", "family"]));
    assert_eq!(e["source_categories"], serde_json::json!(["Música"]));
    assert_eq!((&e["start"], &e["end"], &e["status"]), (&"2026-12-01T19:00:00".into(), &"2026-12-15T21:00:00".into(), &"active".into()));
}

#[test]
fn a_stored_column_that_does_not_parse_names_the_event() {
    let dir = workdir("");
    let d = dir.path();
    one_event(d);
    for (column, bad, said, kept) in [
        ("occurrences", r#"[{"start": "2026-12-01T19:00"#, "its occurrences", OCCURRENCES),
        ("categories", r#"["music", "opera"]"#, "its categories", r#"["music"]"#),
        ("start", "1 Dec", "its start \"1 Dec\" is not a date and time", "2026-12-01T19:00:00"),
    ] {
        set(d, column, bad);
        for args in [&["events", "list", "--json", "--at", common::SAMPLES_AT][..], &["export", "--format", "csv"]] {
            let out = cityvibe(d, args);
            let err = String::from_utf8_lossy(&out.stderr);
            // A database failure (exit 4), told in one line that names the event and the column.
            assert_eq!(out.status.code(), Some(4), "{args:?} {column}: {err}");
            assert!(err.contains("the stored event jcyl:7 cannot be read") && err.contains(said), "{args:?} {column}: {err}");
            assert!(!String::from_utf8_lossy(&out.stdout).contains("Concierto"), "{args:?} {column}: no event listed half-read");
        }
        set(d, column, kept);
    }
    // Correcting a start reads the stored occurrences too: the same error, not an empty list.
    set(d, "occurrences", "[{");
    let out = cityvibe(d, &["events", "correct", "jcyl:7", "start", "2026-12-02T19:00", "--reason", "x"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("the stored event jcyl:7 cannot be read: its occurrences"), "{err}");
}

/// A fetch-log start that is not a time (past the year 9999,
/// beyond what jiff reads) fails `source show` with an error naming the host
/// and the stored value, not a request counted on a day with no name.
#[test]
fn a_fetch_log_time_that_is_not_a_time_names_the_host() {
    let dir = workdir("");
    let d = dir.path();
    one_event(d);
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let past_9999_ms: i64 = 253_402_300_799_000;
    conn.execute(
        "INSERT INTO fetch_log (run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome)
         VALUES (NULL, 'jcyl', 'datosabiertos.jcyl.es', 'https://datosabiertos.jcyl.es/f.json', ?1, 5, 200, 10, 0, 'ok')",
        [past_9999_ms],
    )
    .unwrap();
    let out = cityvibe(d, &["source", "show", "jcyl"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(
        err.contains("the fetch log of datosabiertos.jcyl.es cannot be read")
            && err.contains(&format!("start {past_9999_ms} (ms since the epoch) is not a time")),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing printed half-read: {}", String::from_utf8_lossy(&out.stdout));
}
