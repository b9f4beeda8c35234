//! The andalucia adapter: its sample in the real feed's shape,
//! the real January 2026 download (each distinct id one event or a named
//! record error, every point inside Andalusia, no junk date, no contact
//! data), and through the binary: `source enable` refusing it while the
//! robots.txt review is pending (P3, P14; the run's refusal is
//! `politeness::review_pending`'s, for every pending adapter), a `--mirror`
//! run storing it, and old events stored as ended.
use crate::common;
use crate::golden;

use cityvibe::adapter::{Collect, parse_bytes};
use cityvibe::adapter_tools::audit_events;
use cityvibe::adapters::andalucia::{Andalucia, MANIFEST};
use cityvibe::model::{Category, Event};
use cityvibe::parse::dates::{plausible_window, reading_day};
use cityvibe::parse::geo::in_region;
use common::{cityvibe, place, sources_toml, workdir};
use std::collections::BTreeSet;

const SAMPLE: &str = "datos.juntadeandalucia.es/api/v0/schedule/all?format=json";
const REAL: &str = "andalucia_agenda/agenda-eventos-junta-andalucia_2026-01.json";

fn parse(bytes: &[u8]) -> Collect {
    parse_bytes(&Andalucia, &MANIFEST.feeds[0], bytes).expect("the feed parses")
}

fn event<'a>(c: &'a Collect, id: &str) -> &'a Event {
    c.events.iter().find(|e| e.source_event_id == id).unwrap_or_else(|| panic!("no event {id}: {:?}", c.errors))
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The sample in, its events out, as reviewed once and kept in
/// `tests/golden/andalucia.json`; its two broken records are record errors.
#[test]
fn the_sample_matches_its_golden_file() {
    let c = parse(&std::fs::read(common::sample(SAMPLE)).unwrap());
    assert_eq!(c.errors.len(), 2, "{:?}", c.errors);
    golden::assert_golden("andalucia.json", &c.events);
}

#[test]
fn sample_reads_utm_points_broken_entities_wandering_keys_and_links() {
    let c = parse(&std::fs::read(common::sample(SAMPLE)).unwrap());
    assert_eq!(c.events.len(), 9, "{:?}", c.errors);

    // UTM zone 30 metres as degrees (the real record's point, Seville).
    let concert = event(&c, "900101");
    let (lat, lon) = (concert.venue.lat.unwrap(), concert.venue.lon.unwrap());
    assert!((lat - 37.39265).abs() < 0.0001 && (lon - -5.98925).abs() < 0.0001, "{lat} {lon}");
    // `&nbsp.` repaired to a space, the full stop before it kept.
    assert!(concert.description.contains("Turina. Entrada libre"), "{}", concert.description);
    assert!(!concert.description.contains("&nbsp") && !concert.description.contains("nbsp."), "{}", concert.description);
    assert_eq!(concert.url.as_deref(), Some("https://www.example.es/cultura/concierto-primavera"), "more_info when present");
    assert_eq!(concert.categories, [Category::Music]);
    assert_eq!(concert.free, Some(true));
    assert_eq!(concert.venue.province.as_deref(), Some("Sevilla"));

    let show = event(&c, "900102");
    assert_eq!(show.title, "Exposición \"Paisajes del sur\"");
    assert!(show.description.starts_with("Fotografías de la costa de Málaga."), "{}", show.description);
    assert_eq!(show.url.as_deref(), Some(MANIFEST.dataset_page), "no more_info: the dataset page");

    // `matter` null, no themes, no province, no coordinates: read, no record error.
    let workshop = event(&c, "900103");
    assert_eq!(workshop.schedule.occurrences.len(), 2, "two date_registration spans");
    assert_eq!(workshop.schedule.occurrences[1].start.to_string(), "2027-04-10T11:00:00");
    assert_eq!(workshop.venue.lat, None);

    // A point outside the region (Madrid's kilometre zero) is dropped, the event kept.
    let outside = event(&c, "900104");
    assert_eq!((outside.venue.lat, outside.venue.lon), (None, None));

    // Junk year and no date: record errors naming the field.
    let errors: Vec<(&str, &str)> = c.errors.iter().map(|e| (e.record.as_str(), e.reason.as_str())).collect();
    assert!(
        errors
            .iter()
            .any(|(id, why)| *id == "900105" && why.contains("date_registration.start_date_registration") && why.contains("outside")),
        "{errors:?}"
    );
    assert!(errors.iter().any(|(id, why)| *id == "900106" && why.contains("date_registration")), "{errors:?}");

    // The contact block and images are never read (P4, P5).
    let all = serde_json::to_string(&c.events).unwrap();
    for never in ["info.ejemplo@", "955 000 112", "taquilla.ejemplo@", "955 000 111", "concierto.jpg", "Delegación de Ejemplo"] {
        assert!(!all.contains(never), "{never} reached the events");
    }
}

// On the real download: each distinct id is one event
// or a named record error (at most 2 %), every point inside the region, no
// date outside 1990 to ten years ahead, nothing personal or image-like.
#[test]
fn real_file_each_id_one_event_or_a_named_record_error() {
    let Some(path) = common::realdata(REAL) else { return };
    let bytes = std::fs::read(&path).unwrap();
    let raw: Vec<serde_json::Value> = serde_json::from_slice(&bytes).unwrap();
    let ids: BTreeSet<String> = raw.iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
    let c = parse(&bytes);
    let again = parse(&bytes);
    assert_eq!(serde_json::to_string(&c.events).unwrap(), serde_json::to_string(&again.events).unwrap(), "deterministic");
    eprintln!("{} distinct ids: {} events, {} record errors", ids.len(), c.events.len(), c.errors.len());
    let mut seen = BTreeSet::new();
    for e in &c.events {
        assert!(seen.insert(e.source_event_id.clone()), "{} twice", e.source_event_id);
    }
    for e in &c.errors {
        assert!(e.reason.len() > 10, "an unnamed error: {e:?}");
        assert!(seen.insert(e.record.clone()), "{} both an event and an error, or an error twice", e.record);
    }
    assert_eq!(seen, ids, "every distinct id is one event or one record error");
    assert!(c.errors.len() * 50 <= ids.len(), "{} record errors of {}: over 2 %: {:?}", c.errors.len(), ids.len(), c.errors);
    let (first, last) = plausible_window(reading_day());
    let mut points = 0;
    for e in &c.events {
        if let (Some(lat), Some(lon)) = (e.venue.lat, e.venue.lon) {
            points += 1;
            assert!(in_region(MANIFEST.region, lat, lon), "{}: {lat}, {lon} outside Andalusia", e.source_event_id);
        }
        let s = &e.schedule;
        for d in s.occurrences.iter().flat_map(|o| [Some(o.start), o.end]).chain([s.start, s.end]).flatten() {
            assert!((first..=last).contains(&d.date()), "{}: {d} outside the plausible dates", e.source_event_id);
        }
        assert!(e.url.is_some(), "{}: no link", e.source_event_id);
    }
    assert!(points > 300, "only {points} points converted");
    let findings = audit_events(&c.events);
    assert!(findings.is_empty(), "{findings:?}");
}

/// A folder whose sources.toml switches andalucia on (as an operator who
/// edited it by hand would), translation off.
fn switched_on() -> tempfile::TempDir {
    workdir(&sources_toml(&["andalucia"], ""))
}

// `source enable` refuses a pending review (an operator takes
// "on" to mean "fetched from the next run"), saying what to read; the row
// stays off. A switchboard for mirror runs may switch it on, warned.
#[test]
fn source_enable_refuses_a_pending_review_p14() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.andalucia]\nenabled = false\n");
    let d = dir.path();
    let out = cityvibe(d, &["source", "enable", "andalucia"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    for told in ["robots.txt review is pending", "https://datos.juntadeandalucia.es/robots.txt", "adapters/andalucia.rs", "--mirror"] {
        assert!(stderr(&out).contains(told), "enable does not say {told:?}: {}", stderr(&out));
    }
    assert!(std::fs::read_to_string(d.join("sources.toml")).unwrap().contains("enabled = false"), "the row was switched on");
    let mirror = d.join("mirror");
    std::fs::create_dir_all(&mirror).unwrap();
    let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "source", "enable", "andalucia"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("mirror runs only"), "{}", stderr(&out));
    assert!(std::fs::read_to_string(d.join("sources.toml")).unwrap().contains("enabled = true"));
}

// Tests and staging use the adapter before the review: a --mirror
// run stores it; an event of 2019 is stored as ended, never listed as
// current; the contact block reaches neither the database nor an export (P5).
#[test]
fn a_mirror_run_stores_andalucia_its_old_events_ended_and_its_contacts_cut_p5() {
    let dir = switched_on();
    let d = dir.path();
    let mirror = d.join("mirror");
    place(&mirror, SAMPLE, &std::fs::read(common::sample(SAMPLE)).unwrap());
    let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "run", "--source", "andalucia", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
    let line = &report["sources"][0];
    assert_eq!(line["status"], "ok", "{line}");
    assert_eq!(line["added"], 9, "{line}");
    assert_eq!(line["record_errors"], 2, "{line}");

    let listed = String::from_utf8_lossy(&cityvibe(d, &["events", "list", "--source", "andalucia", "--json"]).stdout).into_owned();
    assert!(listed.contains("900101") && !listed.contains("900102"), "the 2019 event listed as current: {listed}");
    let all = String::from_utf8_lossy(&cityvibe(d, &["events", "list", "--source", "andalucia", "--all", "--json"]).stdout).into_owned();
    let all: Vec<serde_json::Value> = serde_json::from_str(&all).unwrap();
    let old = all.iter().find(|e| e["source_event_id"] == "900102").expect("the 2019 event is stored");
    assert!(old["ended"].is_object() && old["next"].is_null(), "{old}");

    let db = std::fs::read(d.join("data/cityvibe.db")).unwrap();
    let mut exports = Vec::new();
    for format in ["json", "csv", "ics", "jsonld"] {
        let out = cityvibe(d, &["export", "--format", format, "--source", "andalucia"]);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        exports.push((format, String::from_utf8_lossy(&out.stdout).into_owned()));
    }
    for never in ["info.ejemplo@example.es", "955 000 112", "taquilla.ejemplo@example.es", "955 000 111"] {
        assert!(!db.windows(never.len()).any(|w| w == never.as_bytes()), "{never} in the database");
        for (format, text) in &exports {
            assert!(!text.contains(never), "{never} in the {format} export");
        }
    }
}

// No event page in the record, so the reader is told
// what the link is ("more information" or the dataset page), in the
// reader's language; the sources page, the report, `holdings` and the
// exports carry the source with its attribution and its licence named in
// the reader's language (data/i18n/licences.tsv).
#[test]
fn the_source_shows_everywhere_and_its_links_say_what_they_are_p19() {
    let dir = switched_on();
    let d = dir.path();
    let mirror = d.join("mirror");
    place(&mirror, SAMPLE, &std::fs::read(common::sample(SAMPLE)).unwrap());
    let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "run", "--source", "andalucia", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let ics = String::from_utf8_lossy(&cityvibe(d, &["export", "--format", "ics", "--lang", "en"]).stdout).replace("\r\n ", "");
    assert!(ics.contains("More information: https://www.example.es/cultura/concierto-primavera"), "{ics}");
    assert!(ics.contains("Dataset page: https://www.juntadeandalucia.es/datosabiertos/"), "{ics}");
    assert!(!ics.contains("Original: "), "a link that is not the event's page is called the original: {ics}");
    let json: Vec<serde_json::Value> = serde_json::from_slice(&cityvibe(d, &["export", "--format", "json"]).stdout).unwrap();
    let concert = json.iter().find(|e| e["source_event_id"] == "900101").unwrap();
    assert_eq!(concert["link"], "more_information", "{concert}");
    assert_eq!(concert["attribution"], "Junta de Andalucía");
    // `events show` names the link as the exports do.
    let show = cityvibe(d, &["events", "show", "andalucia:900101"]);
    let shown = String::from_utf8_lossy(&show.stdout);
    assert_eq!(show.status.code(), Some(0), "{}", stderr(&show));
    assert!(shown.contains("more information: https://www.example.es/cultura/concierto-primavera"), "{shown}");
    assert!(!shown.contains("original: "), "a link that is not the event's page is called the original: {shown}");
    let jsonld = String::from_utf8_lossy(&cityvibe(d, &["export", "--format", "jsonld"]).stdout).into_owned();
    assert!(!jsonld.contains("\"sameAs\""), "a more-information link is not the event's identity: {jsonld}");

    for (lang, licence) in [("es", "Creative Commons Atribución 4.0"), ("it", "Creative Commons Attribuzione 4.0")] {
        let page = String::from_utf8_lossy(&cityvibe(d, &["source", "export", "--format", "md", "--lang", lang]).stdout).into_owned();
        assert!(page.contains("Junta de Andalucía") && page.contains(licence), "{lang}: {page}");
        assert!(page.contains("datos.juntadeandalucia.es"), "{lang}: {page}");
    }
    let holdings = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "holdings", "andalucia", "--json"]);
    let held = String::from_utf8_lossy(&holdings.stdout);
    assert_eq!(holdings.status.code(), Some(0), "{}", stderr(&holdings));
    assert!(held.contains("andalucia") && held.contains("Junta de Andalucía"), "{held}");
    let report = d.join("report");
    let out = cityvibe(d, &["report", "--out", report.to_str().unwrap(), "--lang", "en"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(index.contains("andalucia"), "the report leaves the source out");
}
