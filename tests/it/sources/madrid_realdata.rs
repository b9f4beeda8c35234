//! The real datos.madrid.es agenda (October 2025), in its three formats.
use crate::common;

use cityvibe::adapter::{Collect, parse_bytes};
use cityvibe::adapters::madrid::{MANIFEST, Madrid};
use cityvibe::parse::pii::contains_pii;
use std::collections::BTreeMap;

fn parse(ext: &str) -> Option<Collect> {
    let path = common::realdata(&format!("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.{ext}"))?;
    let bytes = std::fs::read(path).unwrap();
    let feed = MANIFEST.feeds.iter().find(|f| f.url.ends_with(ext)).unwrap();
    Some(parse_bytes(&Madrid, feed, &bytes).unwrap_or_else(|e| panic!("{ext}: {e}")))
}

fn titles(c: &Collect) -> BTreeMap<String, String> {
    c.events.iter().map(|e| (e.source_event_id.clone(), comparable(&e.title))).collect()
}

/// The publisher's CSV export replaced every character outside Latin-1 (en
/// dashes, ellipses, combining accents) with '?'. Titles are compared with
/// accents folded and those characters, and the '?' standing for them, left out.
fn comparable(title: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    title.nfd().filter(|c| *c != '?' && (*c as u32) < 0x300).collect()
}

#[test]
fn three_formats_yield_the_same_events() {
    let (Some(json), Some(csv), Some(xml)) = (parse("json"), parse("csv"), parse("xml")) else { return };
    let (j, c, x) = (titles(&json), titles(&csv), titles(&xml));
    eprintln!(
        "json {} ({} errors), csv {} ({}), xml {} ({})",
        j.len(),
        json.errors.len(),
        c.len(),
        csv.errors.len(),
        x.len(),
        xml.errors.len()
    );
    assert!(j.len() >= 990, "json yielded {}", j.len());
    // The CSV is the JSON's own snapshot: ids within 1 %. The real XML is a
    // later snapshot of the portal (62 events ended, 62 new ones with newer
    // ids), so it shares fewer ids; every shared id must still agree.
    for (name, other, min_share) in [("csv", &c, 0.99), ("xml", &x, 0.93)] {
        let common = j.keys().filter(|k| other.contains_key(*k)).count();
        assert!(common as f64 >= min_share * j.len() as f64, "{name}: only {common} of {} ids shared", j.len());
        let differing: Vec<_> = j.iter().filter(|(k, t)| other.get(*k).is_some_and(|o| o != *t)).take(5).collect();
        assert!(differing.is_empty(), "{name}: titles differ: {differing:?}");
    }
}

#[test]
fn json_normalizes_dates_places_and_text() {
    let Some(json) = parse("json") else { return };
    let ev = json.events.iter().find(|e| e.source_event_id == "50066046").expect("event 50066046");
    assert_eq!(ev.title, "100 Libros juntas");
    assert_eq!(ev.schedule.start.unwrap().to_string(), "2025-10-25T19:00:00");
    assert_eq!(ev.schedule.occurrences.len(), 1);
    assert_eq!(ev.schedule.occurrences[0].end, None, "23:59 means no end time");
    assert_eq!(ev.free, Some(true));
    assert_eq!(ev.venue.postal_code.as_deref(), Some("28025"));
    assert!(ev.venue.lat.is_some());
    assert!(ev.url.as_deref().unwrap().starts_with("http://www.madrid.es/"));
    // Weekly recurrence: event on Tuesdays from 7 to 28 October.
    let weekly = json.events.iter().find(|e| e.source_event_id == "50081152").unwrap();
    assert_eq!(weekly.schedule.occurrences.len(), 4);
    // No entity survives, escaped once or twice.
    for e in &json.events {
        for t in [&e.title, &e.description] {
            assert!(!t.contains("&amp;") && !t.contains("&Ntilde;") && !t.contains("&gt;") && !t.contains("&nbsp;"), "{t}");
        }
    }
}

#[test]
fn descriptions_come_out_without_contact_data_p5() {
    for ext in ["json", "csv", "xml"] {
        let Some(c) = parse(ext) else { return };
        for e in &c.events {
            assert!(!contains_pii(&e.description), "{ext} {}: {}", e.source_event_id, e.description);
            assert!(!e.description.contains("@madrid.es") && !e.description.contains("fernangomez@"), "{ext}");
            assert!(!e.description.contains("91 376 91 97") && !e.description.contains("913184733"), "{ext}");
        }
    }
}

/// One bad record never sinks a whole feed: wrong types, a missing id, an
/// impossible date, a string or a null in the array are counted, the rest kept.
#[test]
fn bad_records_are_counted_not_fatal() {
    let bytes = std::fs::read(common::sample("fixtures/bad/madrid_bad_records.json")).unwrap();
    let c = parse_bytes(&Madrid, &MANIFEST.feeds[0], &bytes).expect("the feed as a whole is readable");
    assert!(!c.events.is_empty());
    assert!(c.errors.len() >= 3, "{:?}", c.errors);
    assert!(c.errors.iter().any(|e| e.reason.contains("not a JSON object")));
    assert_eq!(c.events.len() + c.errors.len(), 11, "every record is either an event or an error");
}

/// A body cut in the middle is a feed error naming what went wrong.
#[test]
fn truncated_json_is_a_feed_error() {
    let bytes = std::fs::read(common::sample("fixtures/bad/madrid_truncated.json")).unwrap();
    let err = parse_bytes(&Madrid, &MANIFEST.feeds[0], &bytes).unwrap_err();
    assert!(err.0.contains("JSON"), "{err}");
    let html = std::fs::read(common::sample("fixtures/bad/error_page.html")).unwrap();
    for feed in MANIFEST.feeds {
        assert!(parse_bytes(&Madrid, feed, &html).is_err(), "{} accepted an HTML page", feed.url);
    }
}

/// Entities escaped twice in the address fields are decoded too.
#[test]
fn addresses_have_no_entities_left() {
    let bytes = std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap();
    let c = parse_bytes(&Madrid, &MANIFEST.feeds[0], &bytes).unwrap();
    for e in &c.events {
        for f in [&e.venue.name, &e.venue.address, &e.venue.district, &e.venue.locality].into_iter().flatten() {
            assert!(!f.contains('&'), "{f}");
        }
    }
}
