//! The euskadi adapter (Kulturklik, the Basque Government's cultural agenda):
//! its hand-made sample against its golden file; through the binary, the
//! JSONP body read and anything else around it refused, a `--mirror` run of
//! the real July 2018 download with translation on (every id stored or a
//! named record error, every point in the Basque Country and Navarra, no
//! junk date, no wrapping quotes, no lost euro, no contact data, Basque
//! titles in all seven languages naming their route), and an ISO-8859-1 XML
//! feed that declares its encoding read. (A run without a mirror refused
//! until the review is read, P3, P14: `politeness::review_pending`.)
use crate::common;
use crate::golden;

use cityvibe::adapter::{Collect, parse_bytes};
use cityvibe::adapters::euskadi::{Euskadi, MANIFEST};
use std::path::Path;

const FEED_PATH: &str = "opendata.euskadi.eus/contenidos/ds_eventos/agenda_cultura_euskadi/es_kultura/adjuntos/kulturklik.json";
const REAL: &str = "euskadi_kulturklik/kulturklik_es_2018-07.json";

fn sample() -> Collect {
    let path = common::sample(FEED_PATH);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_bytes(&Euskadi, &MANIFEST.feeds[0], &bytes).expect("the sample parses")
}

#[test]
fn the_kulturklik_sample_matches_its_golden_file() {
    let c = sample();
    golden::assert_golden("euskadi.json", &c.events);
    let by = |id: &str| c.events.iter().find(|e| e.source_event_id == id).unwrap_or_else(|| panic!("no {id}"));
    // Wrapping quotes go, inner quotes stay; a title ending in `?` keeps it.
    assert_eq!(by("2026041010000001").title, "El científico de la ópera");
    assert_eq!(by("2026041010000004").title, "Orquesta del Puerto: \"20 años\"");
    assert_eq!(by("2026041010000008").title, "¿Quién teme al lobo?");
    // The lost euro reads €; the free ones are free (Basque "Doakoa" too).
    assert_eq!(by("2026041010000001").price.as_deref(), Some("15 / 18 € (entradas viernes agotadas)"));
    assert_eq!(by("2026041010000004").price.as_deref(), Some("28 €"));
    assert_eq!(by("2026041010000002").free, Some(true));
    assert_eq!(by("2026041010000005").free, Some(true));
    // An exhibition running for years, and its far end.
    let expo = by("2026041010000005");
    assert_eq!(expo.schedule.end.map(|e| e.date().to_string()).as_deref(), Some("2030-12-31"));
    // A place given twice is one place; a point outside the region (the
    // French Basque Country), or one whose two spellings disagree, is none.
    assert_eq!(by("2026041010000001").venue.locality.as_deref(), Some("Bilbao"));
    assert_eq!(by("2026041010000001").venue.province.as_deref(), Some("Bizkaia"));
    assert!(by("2026041010000001").venue.lat.is_some());
    assert_eq!(by("2026041010000006").venue.lat, None);
    assert_eq!(by("2026041010000008").venue.lat, None);
    // The record's hint: the event's language.
    assert_eq!(by("2026041010000002").lang, "eu");
    assert_eq!(by("2026041010000001").lang, "es");
    // A record without an id in its page's address is a named record error.
    assert_eq!(c.errors.len(), 1, "{:?}", c.errors);
    assert!(c.errors[0].reason.contains("friendlyUrl"), "{:?}", c.errors);
}

/// A folder holding a copy of `bytes` at the feed's path, for `--mirror`.
fn mirror_with(bytes: &[u8]) -> tempfile::TempDir {
    let mirror = tempfile::tempdir().unwrap();
    common::place(mirror.path(), FEED_PATH, bytes);
    mirror
}

fn text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

// The JSON driver reads a padded body (`jsonCallback([ … ]);`) and refuses
// anything else around the array, naming what is wrong.
#[test]
fn a_jsonp_body_is_read_and_anything_else_around_it_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read(common::sample(FEED_PATH)).unwrap();
    assert!(good.starts_with(b"jsonCallback([") && good.ends_with(b"]);"));
    let path = dir.path().join("kulturklik.json");
    std::fs::write(&path, &good).unwrap();
    let out = common::cityvibe(dir.path(), &["adapter", "check", "euskadi", "--sample", path.to_str().unwrap(), "--json"]);
    let said = text(&out);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {said}"));
    assert_eq!(report["event_count"].as_u64(), Some(7), "{said}");
    assert_eq!(report["parse_failure"], serde_json::Value::Null, "{said}");

    for (tail, says) in [(&b" x"[..], "data after the JSONP callback"), (b";;", "data after the JSONP callback")] {
        let mut bad = good.clone();
        bad.extend_from_slice(tail);
        std::fs::write(&path, &bad).unwrap();
        let out = common::cityvibe(dir.path(), &["adapter", "check", "euskadi", "--sample", path.to_str().unwrap()]);
        assert_ne!(out.status.code(), Some(0), "{}", text(&out));
        assert!(text(&out).contains(says), "{}", text(&out));
    }
    let unclosed = &good[..good.len() - 2];
    std::fs::write(&path, unclosed).unwrap();
    let out = common::cityvibe(dir.path(), &["adapter", "check", "euskadi", "--sample", path.to_str().unwrap()]);
    assert!(text(&out).contains("not closed by `)`"), "{}", text(&out));
}

/// The regions of the manifest: a point outside every box is never stored.
fn in_region(lat: f64, lon: f64) -> bool {
    MANIFEST.region.iter().any(|b| b.contains(lat, lon))
}

// The real download through the binary, translation on: each id one event
// or a named record error (at most 2 %), every point in the Basque Country
// and Navarra, no date outside 1990 to ten years ahead, no wrapping quotes,
// no lost euro, no contact data; the titles decided Basque read in all
// seven languages, each naming its route from eu.
#[test]
fn a_mirror_run_of_the_real_kulturklik_feed_keeps_every_id_and_translates_basque_p5_p19() {
    let Some(real) = common::realdata(REAL) else { return };
    if !common::has_apertium() {
        return;
    }
    let bytes = std::fs::read(&real).unwrap();
    let text_of = String::from_utf8_lossy(&bytes);
    let ids: std::collections::BTreeSet<String> = text_of
        .split("/evento/")
        .skip(1)
        .filter_map(|rest| rest.get(..16))
        .filter(|id| id.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    assert!(ids.len() > 800, "{}", ids.len());
    let mirror = mirror_with(&bytes);
    let toml = "[settings]\ntranslator = \"apertium\"\n[sources.euskadi]\n";
    let dir = common::workdir(toml);
    let m = mirror.path().to_str().unwrap();
    let out = common::cityvibe(dir.path(), &["--mirror", m, "run", "--source", "euskadi", "--json"]);
    let said = text(&out);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {said}"));
    let s = &report["sources"][0];
    assert_eq!(s["status"], "ok", "{said}");
    let added = s["added"].as_u64().unwrap();
    let errors = s["record_errors"].as_u64().unwrap();
    assert_eq!(added + errors, ids.len() as u64, "{said}");
    assert!(errors * 50 <= ids.len() as u64, "more than 2 % record errors: {said}");
    assert_eq!(report["translation_pending"], 0, "{said}");

    let list = |lang: Option<&str>| -> Vec<serde_json::Value> {
        let mut args = vec!["events", "list", "--source", "euskadi", "--all", "--limit", "5000", "--json"];
        if let Some(l) = lang {
            args.extend(["--lang", l]);
        }
        let out = common::cityvibe(dir.path(), &args);
        serde_json::from_slice::<Vec<serde_json::Value>>(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)))
    };
    let originals = list(None);
    assert_eq!(originals.len() as u64, added);
    let (earliest, latest) = cityvibe::parse::dates::plausible_window(cityvibe::parse::dates::reading_day());
    let phone_or_mail = regex::Regex::new(r"@|\+34|\b[6789]\d{2}[ .]?\d{3}[ .]?\d{3}\b").unwrap();
    let lost_euro = regex::Regex::new(r"\d ?\?").unwrap();
    for e in &originals {
        let id = e["source_event_id"].as_str().unwrap();
        assert!(ids.contains(id), "{id} is no id of the feed");
        let title = e["title"].as_str().unwrap();
        assert!(!(title.starts_with('"') && title.ends_with('"')), "{id}: title in wrapping quotes: {title}");
        if let Some(price) = e["price"].as_str() {
            assert!(!lost_euro.is_match(price), "{id}: a lost euro: {price}");
        }
        if let (Some(lat), Some(lon)) = (e["lat"].as_f64(), e["lon"].as_f64()) {
            assert!(in_region(lat, lon), "{id}: point {lat},{lon} outside the Basque Country and Navarra");
        }
        for o in e["occurrences"].as_array().unwrap() {
            let day: jiff::civil::Date = o["start"].as_str().unwrap()[..10].parse().unwrap();
            assert!(day >= earliest && day <= latest, "{id}: {day} outside 1990 to ten years ahead");
        }
        assert!(!phone_or_mail.is_match(&e.to_string()), "{id}: contact data: {e}");
    }
    // Spanish titles stay their own original in es; Basque ones are decided
    // Basque and read in every language, naming their route.
    let lang_of = |id: &str| originals.iter().find(|e| e["source_event_id"] == id).map(|e| e["lang"].as_str().unwrap().to_string());
    let basque: Vec<String> =
        originals.iter().filter(|e| e["lang"] == "eu").map(|e| e["source_event_id"].as_str().unwrap().to_string()).collect();
    assert!(basque.len() >= 20, "{} titles decided Basque", basque.len());
    for e in &originals {
        if e["title"].as_str().unwrap().starts_with("Bertso-saioa:") {
            assert_eq!(e["lang"], "eu", "{e}");
        }
        if e["title"] == "El desahucio (Cancelado)" {
            assert_eq!(e["lang"], "es", "{e}");
        }
    }
    for lang in ["es", "en", "fr", "it", "pt", "ca", "gl"] {
        let shown = list(Some(lang));
        for e in shown.iter().filter(|e| basque.iter().any(|id| e["source_event_id"] == id.as_str())) {
            assert_eq!(e["lang"], lang, "{lang}: {e}");
            let origin = e["text_origin"].as_str().unwrap();
            assert!(origin.contains(" eu-"), "{lang}: the route from Basque is not named: {origin}");
            let title = e["title"].as_str().unwrap();
            assert!(!title.contains("Bertso-El") && !title.contains("intento"), "{lang}: {title}");
        }
        if lang == "es" {
            for e in shown.iter().filter(|e| lang_of(e["source_event_id"].as_str().unwrap()).as_deref() == Some("es")) {
                assert_eq!(e["text_origin"], "original", "{e}");
            }
        }
    }
}

// An ISO-8859-1 XML feed that declares its encoding is read (it was refused:
// "invalid utf-8 sequence … at byte 0 … index 26"): madrid's XML sample in
// Latin-1 through `adapter check`.
#[test]
fn an_iso_8859_1_xml_feed_that_declares_its_encoding_is_read() {
    let xml = std::fs::read_to_string(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml")).unwrap();
    let body = xml.trim_start_matches('\u{feff}');
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => format!("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>{}", &rest[rest.find("?>").unwrap() + 2..]),
        None => format!("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>{body}"),
    };
    let (latin1, _, unmappable) = encoding_rs::WINDOWS_1252.encode(&body);
    assert!(!unmappable && std::str::from_utf8(&latin1).is_err(), "the sample must hold a letter Latin-1 writes in one byte");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agenda.xml");
    std::fs::write(&path, &latin1).unwrap();
    let utf8 = dir.path().join("agenda-utf8.xml");
    std::fs::write(&utf8, xml.as_bytes()).unwrap();
    let check = |p: &Path| -> serde_json::Value {
        let out =
            common::cityvibe(dir.path(), &["adapter", "check", "madrid", "--sample", p.to_str().unwrap(), "--json", "--limit", "100"]);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)))
    };
    let (read, as_utf8) = (check(&path), check(&utf8));
    assert_eq!(read["parse_failure"], serde_json::Value::Null, "{read}");
    assert!(as_utf8["event_count"].as_u64().unwrap() > 0, "{as_utf8}");
    assert_eq!(read["event_count"], as_utf8["event_count"], "{read}");
    assert_eq!(read["events"], as_utf8["events"], "the Latin-1 feed reads other text than the UTF-8 one");
}
