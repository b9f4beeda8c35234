//! Lists and exports, through the binary: `events list` puts what is
//! on now or next first and keeps ended events for `--all`, all-day events
//! shown as dates; JSON-LD that schema.org accepts for an Event, free
//! events with a zero-priced offer; CSV with an optional BOM and every
//! occurrence.
use crate::common;
use crate::translation::quality::{record, run, write_feed};

use common::{cityvibe, workdir};
use serde_json::Value;
use std::path::Path;

const CONFIG: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";

fn at(mut r: Value, start: &str, end: &str, time: &str) -> Value {
    r["dtstart"] = start.into();
    r["dtend"] = end.into();
    r["time"] = time.into();
    r
}

/// Four events: one ended in 2020, one running since 2022 until 2030, one
/// in 2029 (all day), one in 2030.
fn agenda() -> tempfile::TempDir {
    let dir = workdir(CONFIG);
    write_feed(
        dir.path(),
        &[
            at(record("1", "Concierto pasado", "", "Sala A"), "2020-01-10 19:00:00.0", "2020-01-10 21:00:00.0", "19:00"),
            at(record("2", "Exposición larga", "", "Sala B"), "2022-03-01 00:00:00.0", "2030-12-31 23:59:00.0", ""),
            at(record("3", "Feria de un día", "", "Sala C"), "2029-06-01 00:00:00.0", "2029-06-01 23:59:00.0", ""),
            at(record("4", "Teatro futuro", "", "Sala D"), "2030-02-01 20:00:00.0", "2030-02-01 22:00:00.0", "20:00"),
        ],
    );
    run(dir.path());
    dir
}

fn ids(d: &Path, args: &[&str]) -> Vec<String> {
    let out = cityvibe(d, args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_array().unwrap().iter().map(|e| e["source_event_id"].as_str().unwrap().to_string()).collect()
}

/// The moment the agenda is read at: event 1 over, 2 running, 3 and 4 to come.
const AT: &str = "2026-11-30T12:00";

// Current and upcoming by next occurrence; ended only with --all.
#[test]
fn events_list_shows_what_is_on_now_or_next_first() {
    let dir = agenda();
    let d = dir.path();
    assert_eq!(ids(d, &["events", "list", "--json", "--at", AT]), ["2", "3", "4"]);
    assert_eq!(ids(d, &["events", "list", "--json", "--all", "--at", AT]), ["2", "3", "4", "1"]);
    assert_eq!(ids(d, &["events", "list", "--json", "--limit", "1", "--at", AT]), ["2"]);
    let text = String::from_utf8_lossy(&cityvibe(d, &["events", "list", "--at", AT]).stdout).into_owned();
    // The all-day fair is a date, the play a date and a time.
    assert!(text.contains("2029-06-01  madrid") || text.contains("2029-06-01 "), "{text}");
    assert!(!text.contains("2029-06-01 00:00"), "an all-day event shown at midnight: {text}");
    assert!(text.contains("2030-02-01 20:00"), "{text}");
    assert!(!text.contains("Concierto pasado"), "an ended event listed without --all: {text}");
    let all = String::from_utf8_lossy(&cityvibe(d, &["events", "list", "--all", "--at", AT]).stdout).into_owned();
    assert!(all.contains("Concierto pasado") && all.contains("ended 2020-01-10"), "{all}");
}

// With `--at`: the list as a reader sees it at that moment (a
// Madrid date or wall-clock time, or RFC 3339), so tests and the demo need
// not depend on today's date; without it, the moment is now.
#[test]
fn events_list_at_reads_the_list_at_that_moment() {
    let dir = agenda();
    let d = dir.path();
    let list = |at: &str| ids(d, &["events", "list", "--json", "--at", at]);
    // During the concert (19:00–21:00 Madrid) it is on, and first.
    assert_eq!(list("2020-01-10T20:00"), ["1", "2", "3", "4"]);
    assert_eq!(list("2020-01-10T19:00:00Z"), ["1", "2", "3", "4"], "20:00 in Madrid");
    // Half an hour after it ended it is gone.
    assert_eq!(list("2020-01-10T21:30"), ["2", "3", "4"]);
    assert_eq!(list("2020-01-10T21:30:00+01:00"), ["2", "3", "4"]);
    // The all-day fair lasts its whole day and is over the next.
    assert_eq!(list("2029-06-01T23:30"), ["2", "3", "4"]);
    assert_eq!(list("2029-06-02"), ["2", "4"]);
    assert_eq!(ids(d, &["events", "list", "--json", "--all", "--at", "2029-06-02"]), ["2", "4", "3", "1"]);
    // After everything, nothing but with --all, and the reader is told why;
    // --all lists them by when they ended, the long exhibition (to
    // 2030-12-31) first though it began first.
    assert_eq!(list("2031-01-01"), Vec::<String>::new());
    assert_eq!(ids(d, &["events", "list", "--json", "--all", "--at", "2031-01-01"]), ["2", "4", "3", "1"]);
    let out = cityvibe(d, &["events", "list", "--at", "2031-01-01"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("at 2031-01-01") && err.contains("--all"), "{err}");
    // No --at is now: the same list as --at with this moment.
    let now = jiff::Timestamp::now().to_string();
    assert_eq!(ids(d, &["events", "list", "--json"]), list(&now));
    // A bad moment is a usage error (exit 2) that names the option and the forms.
    for bad in ["tomorrow", "2029-13-01", "2029-06-01T25:00", "01/06/2029", "2029-06-01+02:00", ""] {
        let out = cityvibe(d, &["events", "list", "--at", bad]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--at {bad:?}: {err}");
        assert!(err.contains("--at") && err.contains("YYYY-MM-DD"), "--at {bad:?}: {err}");
    }
}

// The JSON list says which occurrence it is ordered by, as the table's first
// column does: `next` is the one on now or next (the long exhibition's one
// span, on now; the play's), `ended` an ended event's last one.
#[test]
fn events_list_json_names_the_occurrence_it_is_ordered_by() {
    let dir = agenda();
    let out = cityvibe(dir.path(), &["events", "list", "--json", "--all", "--at", AT]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let by_id = |id: &str| v.as_array().unwrap().iter().find(|e| e["source_event_id"] == id).unwrap().clone();
    let long = by_id("2");
    assert_eq!((long["next"]["start"].as_str(), long["next"]["end"].as_str()), (Some("2022-03-01T00:00:00"), Some("2030-12-31T23:59:59")));
    assert!(long["ended"].is_null(), "{long}");
    let play = by_id("4");
    assert_eq!((play["next"]["start"].as_str(), play["next"]["end"].as_str()), (Some("2030-02-01T20:00:00"), Some("2030-02-01T22:00:00")));
    let past = by_id("1");
    assert!(past["next"].is_null(), "{past}");
    assert_eq!(past["ended"]["start"], "2020-01-10T19:00:00", "{past}");
}

/// Properties schema.org gives an Event (its own and those of Thing), as
/// listed on https://schema.org/Event; CreativeWork's are not among them.
const EVENT_PROPERTIES: &[&str] = &[
    "@type",
    "@id",
    "identifier",
    "name",
    "description",
    "inLanguage",
    "startDate",
    "endDate",
    "eventSchedule",
    "eventStatus",
    "eventAttendanceMode",
    "location",
    "isAccessibleForFree",
    "offers",
    "audience",
    "keywords",
    "url",
    "sameAs",
    "subjectOf",
    "mainEntityOfPage",
    "image",
    "organizer",
    "performer",
    "duration",
    "doorTime",
    "about",
    "maximumAttendeeCapacity",
];

// An Event carries only Event properties; licence and source
// ride on the dataset it is the subject of; a free event offers a price of 0 EUR.
#[test]
fn jsonld_is_valid_for_an_event_and_free_events_cost_zero() {
    let dir = agenda();
    let d = dir.path();
    let out = cityvibe(d, &["export", "--format", "jsonld"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    for g in v["@graph"].as_array().unwrap() {
        for k in g.as_object().unwrap().keys() {
            assert!(EVENT_PROPERTIES.contains(&k.as_str()), "{k} is not a property of schema.org/Event: {g}");
        }
        assert_eq!(g["offers"]["price"], 0, "{g}");
        assert_eq!(g["offers"]["priceCurrency"], "EUR", "{g}");
        assert_eq!(g["isAccessibleForFree"], true);
        let ds = &g["subjectOf"];
        assert_eq!(ds["@type"], "Dataset");
        assert!(ds["license"].as_str().is_some_and(|l| l.starts_with("http")), "{ds}");
        assert!(ds["creditText"].as_str().is_some_and(|c| !c.is_empty()), "{ds}");
    }
}

// CSV with `--bom` starts with the UTF-8 byte-order mark, and a
// repeated event's every occurrence is in its row.
#[test]
fn csv_has_an_optional_bom_and_keeps_every_occurrence() {
    let dir = workdir(CONFIG);
    let d = dir.path();
    let mut weekly = at(record("7", "Taller semanal", "", "Sala E"), "2030-03-04 18:00:00.0", "2030-03-25 20:00:00.0", "18:00");
    weekly["recurrence"] = serde_json::json!({"days": "MO", "frequency": "WEEKLY", "interval": 1});
    write_feed(d, &[weekly]);
    run(d);
    let plain = cityvibe(d, &["export", "--format", "csv"]).stdout;
    assert!(!plain.starts_with("\u{feff}".as_bytes()));
    let bom = cityvibe(d, &["export", "--format", "csv", "--bom"]).stdout;
    assert!(bom.starts_with("\u{feff}".as_bytes()));
    assert_eq!(&bom[3..], &plain[..]);
    let mut r = csv::Reader::from_reader(&plain[..]);
    let header = r.headers().unwrap().clone();
    let col = header.iter().position(|h| h == "occurrences").expect("an occurrences column");
    let row = r.records().next().unwrap().unwrap();
    let occ: Vec<&str> = row[col].split("; ").collect();
    assert!(occ.len() >= 4, "every Monday of March 2030: {occ:?}");
    assert!(occ[0].starts_with("2030-03-04T18:00"), "{occ:?}");
    // --bom is for CSV only.
    assert_eq!(cityvibe(d, &["export", "--format", "json", "--bom"]).status.code(), Some(2));
}
