//! P19 end to end: `cityvibe export` in json, csv, ics and jsonld. Every
//! record carries the original link, licence and attribution; the iCalendar
//! is read back with a real parser (the `icalendar` crate) and checked line
//! by line against RFC 5545 (CRLF, 75-octet folding, escaping, TZID with a
//! VTIMEZONE, UID, DTSTAMP); `--lang` shows stored translations.
use crate::common;
use crate::common::ok;

use common::{cityvibe, sample, workdir};
use icalendar::{Component, EventLike};
use std::path::Path;

const MADRID_ONLY: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";
const TRICKY: &str = "Jazz, blues; y \\ más\nen dos líneas — «ñandú» 🎷";

/// A database with the madrid samples, one title made hard to escape.
fn setup() -> (tempfile::TempDir, Vec<serde_json::Value>) {
    let dir = workdir(MADRID_ONLY);
    ok(&cityvibe(dir.path(), &["--mirror", sample("").to_str().unwrap(), "run", "--source", "madrid", "--json"]));
    let conn = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    conn.execute("UPDATE events SET title = ?1 WHERE source_event_id = (SELECT min(source_event_id) FROM events)", [TRICKY]).unwrap();
    let evs: Vec<serde_json::Value> =
        serde_json::from_str(&ok(&cityvibe(dir.path(), &["events", "list", "--json", "--limit", "1000", "--at", common::SAMPLES_AT])))
            .unwrap();
    assert_eq!(evs.len(), 8);
    (dir, evs)
}

fn export(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["export"];
    all.extend_from_slice(args);
    ok(&cityvibe(dir, &all))
}

#[test]
fn ics_is_valid_rfc5545_and_parses_back() {
    let (dir, evs) = setup();
    let text = export(dir.path(), &["--format", "ics"]);
    // CRLF everywhere, no bare LF or CR; every physical line at most 75 octets.
    assert!(text.ends_with("\r\n"));
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            assert!(i > 0 && bytes[i - 1] == b'\r', "bare LF at byte {i}");
        }
        if *b == b'\r' {
            assert_eq!(bytes.get(i + 1), Some(&b'\n'), "bare CR at byte {i}");
        }
    }
    let mut folded = 0;
    for l in text.split("\r\n") {
        assert!(l.len() <= 75, "{} octets: {l:?}", l.len());
        folded += l.starts_with(' ') as usize;
    }
    assert!(folded > 0, "long lines should have been folded");

    // The structure, read with the parser's raw component API.
    let unfolded = icalendar::parser::unfold(&text);
    let cal = icalendar::parser::read_calendar(&unfolded).expect("the icalendar parser reads our output");
    let prop = |c: &icalendar::parser::Component, n: &str| c.find_prop(n).map(|p| p.val.as_str().to_string());
    let root: Vec<(String, String)> = cal.properties.iter().map(|p| (p.name.as_str().to_string(), p.val.as_str().to_string())).collect();
    assert!(root.contains(&("VERSION".into(), "2.0".into())), "{root:?}");
    assert!(root.iter().any(|(k, _)| k == "PRODID"));
    let tz: Vec<_> = cal.components.iter().filter(|c| c.name.as_str() == "VTIMEZONE").collect();
    assert_eq!(tz.len(), 1);
    assert_eq!(prop(tz[0], "TZID").as_deref(), Some("Europe/Madrid"));
    let kinds: Vec<&str> = tz[0].components.iter().map(|c| c.name.as_str()).collect();
    assert!(kinds.contains(&"STANDARD") && kinds.contains(&"DAYLIGHT"), "{kinds:?}");
    let vevents: Vec<_> = cal.components.iter().filter(|c| c.name.as_str() == "VEVENT").collect();
    assert_eq!(vevents.len(), evs.len());
    let mut uids = std::collections::HashSet::new();
    for v in &vevents {
        let uid = prop(v, "UID").expect("UID");
        assert!(uids.insert(uid.clone()), "duplicate UID {uid}");
        let stamp = prop(v, "DTSTAMP").expect("DTSTAMP");
        assert!(stamp.len() == 16 && stamp.ends_with('Z'), "DTSTAMP {stamp}");
        let start = v.find_prop("DTSTART").expect("DTSTART");
        let params: Vec<(String, String)> = start
            .params
            .iter()
            .map(|p| (p.key.as_str().to_string(), p.val.as_ref().map(|v| v.as_str().to_string()).unwrap_or_default()))
            .collect();
        let is_date = params.contains(&("VALUE".into(), "DATE".into()));
        let has_tzid = params.contains(&("TZID".into(), "Europe/Madrid".into()));
        assert!(is_date || has_tzid, "DTSTART neither a DATE nor in Europe/Madrid: {params:?}");
    }
    assert!(
        vevents.iter().any(|v| v.find_prop("DTSTART").unwrap().params.iter().any(|p| p.key.as_str() == "TZID")),
        "no timed event with a TZID"
    );

    // The typed API: every event's texts and links, unescaped.
    let cal: icalendar::Calendar = text.parse().expect("parses into icalendar::Calendar");
    let parsed: Vec<&icalendar::Event> = cal.components.iter().filter_map(|c| c.as_event()).collect();
    assert_eq!(parsed.len(), evs.len());
    for e in &evs {
        let key = format!("madrid-{}@cityvibe.guide", e["source_event_id"].as_str().unwrap());
        let p = parsed.iter().find(|p| p.get_uid() == Some(key.as_str())).unwrap_or_else(|| panic!("no VEVENT {key}"));
        assert_eq!(p.get_summary(), e["title"].as_str(), "SUMMARY does not round-trip");
        let desc = p.get_description().expect("DESCRIPTION");
        assert!(desc.contains(e["attribution"].as_str().unwrap()), "{desc}");
        assert!(desc.contains(e["licence_url"].as_str().unwrap()), "{desc}");
        if let Some(url) = e["url"].as_str() {
            assert_eq!(p.get_url(), Some(url));
            assert!(desc.contains(url));
        }
        assert!(p.get_start().is_some());
        if let Some(venue) = e["venue"].as_str() {
            assert!(p.get_location().unwrap_or_default().contains(venue));
        }
    }
    let tricky = parsed.iter().find(|p| p.get_summary() == Some(TRICKY));
    assert!(tricky.is_some(), "the title with , ; \\ and a newline did not round-trip");
}

#[test]
fn jsonld_is_schema_org_events_with_licence_and_original() {
    let (dir, evs) = setup();
    let v: serde_json::Value = serde_json::from_str(&export(dir.path(), &["--format", "jsonld"])).unwrap();
    assert_eq!(v["@context"], "https://schema.org");
    let graph = v["@graph"].as_array().unwrap();
    assert_eq!(graph.len(), evs.len());
    for (g, e) in graph.iter().zip(&evs) {
        assert_eq!(g["@type"], "Event");
        assert_eq!(g["name"], e["title"]);
        assert_eq!(g["inLanguage"], "es");
        assert!(g["startDate"].as_str().is_some_and(|s| s.len() >= 10), "{g}");
        assert!(g.get("endDate").is_some() || g.get("eventSchedule").is_some() || g.get("startDate").is_some());
        assert_eq!(g["location"]["@type"], "Place");
        assert_eq!(g["location"]["address"]["@type"], "PostalAddress");
        if e["lat"].is_number() {
            assert_eq!(g["location"]["geo"]["@type"], "GeoCoordinates");
            assert_eq!(g["location"]["geo"]["latitude"], e["lat"]);
        }
        // Licence and credit on the dataset the event is the subject of (valid schema.org).
        assert_eq!(g["subjectOf"]["@type"], "Dataset");
        assert_eq!(g["subjectOf"]["license"], e["licence_url"]);
        assert_eq!(g["subjectOf"]["creditText"], e["attribution"]);
        assert_eq!(g["subjectOf"]["url"], "https://datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos");
        if let Some(url) = e["url"].as_str() {
            assert_eq!(g["url"], url);
            assert_eq!(g["sameAs"], url);
        }
        if let Some(free) = e["free"].as_bool() {
            assert_eq!(g["isAccessibleForFree"], free);
        }
        if let Some(s) = g.get("eventSchedule") {
            for sch in s.as_array().unwrap() {
                assert_eq!(sch["@type"], "Schedule");
                assert_eq!(sch["scheduleTimezone"], "Europe/Madrid");
            }
        }
        // Timed dates carry their offset.
        let start = g["startDate"].as_str().unwrap();
        if start.len() > 10 {
            assert!(start.ends_with("+01:00") || start.ends_with("+02:00"), "{start}");
        }
    }
    assert!(graph.iter().any(|g| g.get("eventSchedule").is_some()), "no event with a schedule");
}

#[test]
fn csv_and_json_carry_link_licence_and_attribution() {
    let (dir, evs) = setup();
    let text = export(dir.path(), &["--format", "csv"]);
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let col = |n: &str| header.iter().position(|h| h == n).unwrap_or_else(|| panic!("no column {n}"));
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), evs.len());
    for (row, e) in rows.iter().zip(&evs) {
        assert_eq!(&row[col("title")], e["title"].as_str().unwrap());
        assert_eq!(&row[col("url")], e["url"].as_str().unwrap_or(""));
        assert_eq!(&row[col("licence_url")], "https://datos.madrid.es/egob/catalogo/aviso-legal");
        assert!(row[col("attribution")].contains("Ayuntamiento de Madrid"));
        assert!(!row[col("licence")].is_empty());
    }
    let json: Vec<serde_json::Value> = serde_json::from_str(&export(dir.path(), &["--format", "json"])).unwrap();
    assert_eq!(json.len(), evs.len());
    for j in &json {
        for k in ["url", "licence", "licence_url", "attribution", "publisher", "dataset_page"] {
            assert!(j.get(k).is_some_and(|v| !v.is_null()), "json export lacks {k}: {j}");
        }
    }
}

#[test]
fn export_filters_by_source_and_day_and_shows_only_a_current_translation() {
    let (dir, evs) = setup();
    let d = dir.path();
    let count = |args: &[&str]| -> usize {
        let v: Vec<serde_json::Value> = serde_json::from_str(&export(d, args)).unwrap();
        v.len()
    };
    assert_eq!(count(&["--format", "json", "--source", "madrid"]), 8);
    assert_eq!(count(&["--format", "json", "--from", "2099-01-01"]), 0);
    assert_eq!(count(&["--format", "json", "--to", "2000-01-01"]), 0);
    // One day: the events on it, and only those.
    let first = evs.iter().filter_map(|e| e["start"].as_str()).min().unwrap()[..10].to_string();
    let on_day = count(&["--format", "json", "--from", &first, "--to", &first]);
    assert!((1..=8).contains(&on_day), "{on_day}");
    // Usage errors.
    for bad in [
        &["--format", "json", "--from", "31/12/2026"][..],
        &["--format", "json", "--source", "nowhere"],
        &["--format", "json", "--lang", "xx"],
        &["--format", "pdf"],
    ] {
        let mut a = vec!["export"];
        a.extend_from_slice(bad);
        assert_eq!(cityvibe(d, &a).status.code(), Some(2), "{bad:?}");
    }

    // --lang en: a current translation is shown, a stale one is not.
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let (a, b) = (evs[0]["source_event_id"].as_str().unwrap(), evs[1]["source_event_id"].as_str().unwrap());
    let (a_title, a_desc): (String, String) =
        conn.query_row("SELECT title, description FROM events WHERE source_event_id = ?1", [a], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    let hash = |s: &str| cityvibe::store::events::text_hash(s);
    let ins = "INSERT INTO translations (event_id, lang, field, text, origin, engine, source_hash)
               SELECT id, 'en', ?2, ?3, ?4, ?5, ?6 FROM events WHERE source_event_id = ?1";
    conn.execute(ins, rusqlite::params![a, "title", "The English title", "machine", "apertium/test", hash(&a_title)]).unwrap();
    conn.execute(ins, rusqlite::params![a, "description", "The English description", "publisher", None::<String>, hash(&a_desc)]).unwrap();
    conn.execute(ins, rusqlite::params![b, "title", "A stale title", "machine", "apertium/test", "not-the-hash"]).unwrap();
    drop(conn);
    let en: Vec<serde_json::Value> = serde_json::from_str(&export(d, &["--format", "json", "--lang", "en"])).unwrap();
    let ea = en.iter().find(|e| e["source_event_id"] == a).unwrap();
    assert_eq!(ea["title"], "The English title");
    assert_eq!(ea["description"], "The English description");
    assert_eq!(ea["lang"], "en");
    let eb = en.iter().find(|e| e["source_event_id"] == b).unwrap();
    assert_eq!(eb["title"], evs[1]["title"], "a stale translation was shown");
    assert_eq!(eb["lang"], "es");
    let ld: serde_json::Value = serde_json::from_str(&export(d, &["--format", "jsonld", "--lang", "en"])).unwrap();
    let la = ld["@graph"].as_array().unwrap().iter().find(|g| g["identifier"] == format!("madrid:{a}")).unwrap();
    assert_eq!(la["name"], "The English title");
    assert_eq!(la["inLanguage"], "en");
    let ics = export(d, &["--format", "ics", "--lang", "en"]);
    assert!(ics.contains("SUMMARY;LANGUAGE=en:The English title\r\n"), "{ics}");
}
