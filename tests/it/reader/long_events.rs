//! Long events, through the binary on the real Madrid feed of 2025-10:
//! an event whose span covers the reader's day is on that day, however long
//! ago it began (occurrences come from a window around the reading time, not
//! from the first year of the span), and reading the same feed again
//! rewrites no stored event.
use crate::common;

use common::{cityvibe, realdata, workdir};
use serde_json::Value;
use std::path::Path;

const MADRID_ONLY: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";
const FEED: &str = "mirror/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
/// Long events of the real feed: from 2022-12-14, 2024-01-23 and 2025-10-01, to 2027, 2031 and 2032.
const LONG: [&str; 3] = ["11875736", "12263426", "12130154"];

fn run(dir: &Path) -> Value {
    let out = cityvibe(dir, &["--mirror", "mirror", "run", "--force", "--source", "madrid", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn listed(dir: &Path, args: &[&str]) -> Vec<Value> {
    let out = cityvibe(dir, &[&["events", "list", "--json", "--limit", "100000"], args].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

fn stored_rows(dir: &Path) -> Vec<(String, i64)> {
    let db = rusqlite::Connection::open(dir.join("data/cityvibe.db")).unwrap();
    let mut st = db.prepare("SELECT source_event_id, last_changed FROM events ORDER BY id").unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
}

#[test]
fn a_long_event_of_the_real_feed_is_on_each_day_of_its_span_and_ends_on_its_last() {
    let Some(feed) = realdata("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json") else { return };
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    std::fs::create_dir_all(d.join(FEED).parent().unwrap()).unwrap();
    std::fs::copy(feed, d.join(FEED)).unwrap();
    run(d);
    // Today (the day) all three; in 2028 the two that run to 2031 and 2032.
    for (at, ids, until) in [("2026-12-02", &LONG[..], "2026-12-09"), ("2028-03-01", &LONG[1..], "2028-03-08")] {
        let on = listed(d, &["--at", at]);
        for id in ids {
            let e = on.iter().find(|e| e["source_event_id"] == *id);
            let e = e.unwrap_or_else(|| panic!("{id} is not listed at {at}"));
            let next = e["next"]["start"].as_str().unwrap_or_else(|| panic!("{id} has no next occurrence at {at}: {e}"));
            // The next occurrence is within the reader's week, not a year-old one.
            assert!(next[..10] >= *at && next[..10] <= *until, "{id} at {at}: next {next}");
        }
    }
    // Past its last day (2027-01-01) the exhibition has ended, on its last day.
    let all = listed(d, &["--all", "--at", "2027-03-01"]);
    let centre = all.iter().find(|e| e["source_event_id"] == "11875736").unwrap();
    assert_eq!(centre["ended"]["start"].as_str().map(|s| &s[..10]), Some("2027-01-01"), "{centre}");
    // An export from a day within the span keeps the event.
    let out = cityvibe(d, &["export", "--format", "json", "--from", "2026-12-02", "--source", "madrid"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && LONG.iter().all(|id| text.contains(&format!("\"{id}\""))), "{}", String::from_utf8_lossy(&out.stderr));
    // The same feed read again: no stored event is rewritten.
    let before = stored_rows(d);
    let second = run(d);
    assert_eq!(stored_rows(d), before, "{second}");
}
