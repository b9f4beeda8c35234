//! The diba adapter: the three sample feeds (ca original, es and en
//! translations) against their golden files, per-record errors, broken
//! bodies, contact fields never read (P4, P5), occurrences, Canary time zone.
use crate::common;
use crate::golden;

use cityvibe::adapter::{Collect, Feed, FeedRole, parse_bytes};
use cityvibe::adapters::diba::{Diba, MANIFEST};
use cityvibe::model::{Category, Event, TZ_CANARY};
use jiff::civil::{date, time};

fn feed(lang: &str) -> &'static Feed {
    MANIFEST.feeds.iter().find(|f| f.lang == lang).unwrap()
}

fn sample(lang: &str) -> Collect {
    let path = common::sample(&format!("do.diba.cat/api/dataset/actesturisme_{lang}/format/json/pag-ini/1/pag-fi/1000"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_bytes(&Diba, feed(lang), &bytes).unwrap_or_else(|e| panic!("{lang}: {e}"))
}

/// An envelope around elements written as JSON text.
fn envelope(elements: &[String]) -> String {
    format!(
        r#"{{"nom": "Agenda", "machinename": "actesturisme_ca", "llicencia": "https://creativecommons.org/licenses/by/4.0/deed.ca", "idioma": "Català", "entitats": {}, "elements": [{}]}}"#,
        elements.len(),
        elements.join(",")
    )
}

/// One element with the fields a test varies.
fn element(id: &str, title: &str, start: &str, end: &str, place: &str) -> String {
    format!(
        r#"{{"acte_id": "{id}", "titol": "{title}", "data_inici": "{start}", "data_fi": "{end}", "descripcio": "<p>Text</p>", "acte_url": "https://www.barcelonaesmoltmes.cat/ca/-/{id}", "grup_adreca": {{"adreca_nom": "Sala", "adreca": "C. Major, 1", "codi_postal": "08001", "municipi": "Lloc", "localitzacio": "{place}"}}, "preu": "Gratuït", "categoria": ["Concerts"], "email": ["x@example.es"], "telefon_contacte": ["930000000"], "imatge": ["https://x.example.com/a.jpg"]}}"#
    )
}

fn parse(json: &str) -> Collect {
    parse_bytes(&Diba, feed("ca"), json.as_bytes()).expect("feed parses")
}

fn one(json: &str) -> Event {
    let mut c = parse(json);
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert_eq!(c.events.len(), 1);
    c.events.remove(0)
}

#[test]
fn catalan_original_matches_golden() {
    let c = sample("ca");
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert_eq!(c.events.len(), 6);
    golden::assert_golden("diba_ca.json", &c.events);

    let fira = &c.events[0];
    assert_eq!(fira.source_event_id, "agendaturisme41201");
    assert_eq!(fira.lang, "ca");
    assert_eq!(fira.free, Some(true));
    assert_eq!(fira.venue.locality.as_deref(), Some("Vic"));
    assert_eq!(fira.venue.province.as_deref(), Some("Barcelona"));
    assert_eq!((fira.venue.lat, fira.venue.lon), (Some(41.9302447), Some(2.2546613)));
    assert!(fira.schedule.all_day);
    assert_eq!(fira.schedule.occurrences.len(), 1, "an untimed span is one long occurrence");
    assert_eq!(fira.categories, [Category::Festival]);

    let visit = &c.events[1];
    assert_eq!(visit.free, Some(false));
    assert!(!visit.source_categories.iter().any(|t| t.contains("NO MOSTRAR")), "internal tags are not categories");
    assert!(!visit.description.contains("visites.sal@example.com") && !visit.description.contains("938 000 211"));

    let concert = c.events.iter().find(|e| e.source_event_id == "agendaturisme41204").unwrap();
    assert_eq!(concert.schedule.occurrences.len(), 1);
    assert_eq!(concert.schedule.occurrences[0].start, date(2026, 12, 26).to_datetime(time(18, 0, 0, 0)));
    assert_eq!(concert.schedule.occurrences[0].end, Some(date(2026, 12, 26).to_datetime(time(19, 0, 0, 0))));
    assert_eq!(concert.free, Some(true), "entrada lliure");

    // No time in the dates, but one in the notes: "Sortida a les 17.30 h."
    let parade = c.events.iter().find(|e| e.source_event_id == "agendaturisme41206").unwrap();
    assert_eq!(parade.schedule.start, Some(date(2027, 1, 5).to_datetime(time(17, 30, 0, 0))));
    assert!(parade.description.ends_with("Sortida a les 17.30 h."));
}

#[test]
fn translation_feeds_parse_on_their_own() {
    assert_eq!(feed("ca").role, FeedRole::Primary);
    assert_eq!((feed("es").role, feed("en").role), (FeedRole::Translation, FeedRole::Translation));
    let (ca, es, en) = (sample("ca"), sample("es"), sample("en"));
    assert!(es.errors.is_empty() && en.errors.is_empty());
    assert_eq!(es.events.len(), 6);
    assert_eq!(en.events.len(), 5, "the English feed lacks one act");
    golden::assert_golden("diba_es.json", &es.events);
    golden::assert_golden("diba_en.json", &en.events);
    for (c, lang) in [(&es, "es"), (&en, "en")] {
        for e in &c.events {
            assert_eq!(e.lang, lang);
            let original = ca.events.iter().find(|o| o.source_event_id == e.source_event_id).expect("same ids as the original");
            assert_eq!(e.schedule, original.schedule, "{lang} {}", e.source_event_id);
            assert_ne!(e.title, original.title);
        }
    }
    assert_eq!(es.events[0].title, "Feria de Navidad y del Belén de Vic");
    assert_eq!(en.events[0].free, Some(true));
}

// P4, P5: email[], telefon_contacte[], fax[], imatge[], director and the town
// hall's block are not fields of the typed record; what free text holds is
// scrubbed. No needle of the PII fixture survives.
#[test]
fn contact_fields_never_reach_the_output() {
    let bytes = std::fs::read(common::sample("fixtures/pii/diba_ca.json")).unwrap();
    let c = parse_bytes(&Diba, feed("ca"), &bytes).unwrap();
    assert_eq!(c.events.len(), 2, "{:?}", c.errors);
    let out = serde_json::to_string(&c.events).unwrap();
    let needles = std::fs::read_to_string(common::sample("fixtures/pii/needles.txt")).unwrap();
    for needle in needles.lines().map(str::trim).filter(|n| !n.is_empty()) {
        assert!(!out.contains(needle), "{needle:?} reached the output");
    }
    assert!(!out.contains("Directora"), "director is never read");
    assert!(!out.contains("P0800000A"), "the town hall block is never read");
    for e in &c.events {
        assert!(!cityvibe::parse::pii::contains_pii(&serde_json::to_string(e).unwrap()), "{e:?}");
    }
}

#[test]
fn bad_records_are_counted_and_the_rest_emitted() {
    let bytes = std::fs::read(common::sample("fixtures/bad/diba_missing_acte_id.json")).unwrap();
    let c = parse_bytes(&Diba, feed("ca"), &bytes).unwrap();
    assert_eq!(c.events.len(), 2);
    assert_eq!(c.errors.len(), 1);
    assert_eq!(c.errors[0].record, "element #2");

    let good = element("a1", "Bo", "2026-12-01 00:00:00", "2026-12-01 00:00:00", "41.4,2.1");
    let json = envelope(&[
        good.clone(),
        element("a2", "", "2026-12-01 00:00:00", "", "41.4,2.1"),
        element("a3", "Data impossible", "2026-02-31 00:00:00", "", "41.4,2.1"),
        element("a4", "Final impossible", "2026-02-01 00:00:00", "2026-02-30 00:00:00", "41.4,2.1"),
        element("a5", "Al revés", "2026-02-10 00:00:00", "2026-02-01 00:00:00", "41.4,2.1"),
        good.replace("\"a1\"", "{\"wrong\": \"type\"}"),
        good.replace("\"Bo\"", "[\"wrong\", \"type\"]").replace("\"a1\"", "\"a7\""),
        good.replace("\"2026-12-01 00:00:00\", \"data_fi\"", "20261201, \"data_fi\"").replace("\"a1\"", "\"a8\""),
        "null".to_string(),
        "\"not an element\"".to_string(),
        // Wrong types where they do no harm: the record is still good.
        good.replace("\"a1\"", "\"a11\"")
            .replace("\"Gratuït\"", "12")
            .replace("[\"Concerts\"]", "\"Concerts\"")
            .replace("\"41.4,2.1\"", "[41.4, 2.1]"),
    ]);
    let c = parse(&json);
    let ids: Vec<_> = c.events.iter().map(|e| e.source_event_id.as_str()).collect();
    assert_eq!(ids, ["a1", "a11"]);
    let errs: Vec<_> = c.errors.iter().map(|e| format!("{}: {}", e.record, e.reason)).collect();
    assert_eq!(errs.len(), 9, "{errs:#?}");
    assert!(
        errs[0].contains("no title") && errs[1].contains("bad start date in data_inici") && errs[2].contains("bad end date in data_fi"),
        "{errs:#?}"
    );
    // The field, never its value (P5).
    assert!(errs.iter().all(|e| !e.contains("2026-02-3")), "{errs:#?}");
    assert!(errs[3].contains("before it starts") && errs[4].contains("no id") && errs[5].contains("no title"), "{errs:#?}");
    assert!(errs[6].contains("bad start date"), "{errs:#?}");
    let lenient = &c.events[1];
    assert_eq!(lenient.price.as_deref(), Some("12"));
    assert_eq!(lenient.categories, [Category::Music]);
    assert_eq!(lenient.venue.lat, None);
}

#[test]
fn broken_bodies_are_feed_errors() {
    let good =
        envelope(&[element("a1", "Bo", "2026-12-01 00:00:00", "", "41.4,2.1"), element("a2", "Bo", "2026-12-02 00:00:00", "", "41.4,2.1")]);
    let error_page = std::fs::read_to_string(common::sample("fixtures/bad/error_page.html")).unwrap();
    for (what, body) in [
        ("truncated", &good[..good.len() - 40]),
        ("empty", ""),
        ("html error page", error_page.as_str()),
        ("no elements", r#"{"nom": "Agenda", "error": "dataset not found"}"#),
        ("elements not a list", r#"{"elements": {"acte_id": "1"}}"#),
    ] {
        let err = parse_bytes(&Diba, feed("ca"), body.as_bytes()).expect_err(what);
        assert!(!err.0.contains('\n') && !err.0.is_empty(), "{what}: one-line reason, got {err}");
        eprintln!("{what}: {err}");
    }
}

#[test]
fn a_span_across_the_october_dst_change_keeps_local_wall_clock() {
    let ev = one(&envelope(&[element("d1", "Cicle", "2026-10-22 20:00:00", "2026-10-28 22:00:00", "41.4,2.1")]));
    assert_eq!(ev.schedule.occurrences.len(), 7);
    let mut offsets = Vec::new();
    for o in &ev.schedule.occurrences {
        assert_eq!(o.start.time(), time(20, 0, 0, 0));
        assert_eq!(o.end.map(|e| e.time()), Some(time(22, 0, 0, 0)));
        offsets.push(o.start.in_tz(ev.time_zone()).unwrap().offset().seconds() / 3600);
    }
    assert_eq!(offsets, [2, 2, 2, 1, 1, 1, 1]);
}

#[test]
fn an_open_end_is_one_occurrence_without_end() {
    for end in ["", "null"] {
        let json = envelope(&[element("o1", "Estrena", "2026-12-15 21:00:00", end, "41.4,2.1")]).replace("\"null\"", "null");
        let ev = one(&json);
        assert_eq!(ev.schedule.occurrences.len(), 1);
        assert_eq!(ev.schedule.occurrences[0].start, date(2026, 12, 15).to_datetime(time(21, 0, 0, 0)));
        assert_eq!(ev.schedule.end, None);
    }
}

#[test]
fn a_canary_islands_venue_gets_its_own_time_zone() {
    let ev = one(&envelope(&[element("c1", "Concert a Las Palmas", "2026-12-15 20:00:00", "", "28.1,-15.4")]));
    assert_eq!((ev.venue.lat, ev.venue.lon), (Some(28.1), Some(-15.4)));
    assert_eq!(ev.time_zone(), TZ_CANARY);
    // Local wall clock stays as published: 20:00 in Las Palmas is 21:00 in Madrid.
    let zoned = ev.schedule.occurrences[0].start.in_tz(ev.time_zone()).unwrap();
    assert_eq!(zoned.in_tz("Europe/Madrid").unwrap().hour(), 21);
}

#[test]
fn manifest_is_complete() {
    let m = &MANIFEST;
    let urls: Vec<_> = m.feeds.iter().map(|f| (f.url, f.lang)).collect();
    assert_eq!(
        urls,
        [
            ("https://do.diba.cat/api/dataset/actesturisme_ca/format/json/pag-ini/1/pag-fi/1000", "ca"),
            ("https://do.diba.cat/api/dataset/actesturisme_es/format/json/pag-ini/1/pag-fi/1000", "es"),
            ("https://do.diba.cat/api/dataset/actesturisme_en/format/json/pag-ini/1/pag-fi/1000", "en"),
        ]
    );
    assert_eq!(m.plan, cityvibe::adapter::FetchPlan::All);
    assert_eq!(m.min_delay, std::time::Duration::from_secs(10));
    assert_eq!(m.licence.url, "https://creativecommons.org/licenses/by/4.0/");
    assert_eq!(m.attribution, "Diputació de Barcelona");
    assert_eq!(m.review.date, "2026-11-30");
    for s in [m.name, m.publisher, m.dataset_page, m.update_schedule, m.review.robots_txt, m.review.notes] {
        assert!(!s.trim().is_empty());
    }
}
