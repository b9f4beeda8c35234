//! The jcyl adapter: the sample feed (portal export) against its golden
//! file, the flat variant, the real April 2026 export, per-record errors,
//! broken bodies, images and contact data never stored (P4, P5),
//! occurrences, and a Canary Islands venue.
use crate::common;
use crate::golden;

use cityvibe::adapter::{Collect, parse_bytes};
use cityvibe::adapters::jcyl::{Jcyl, MANIFEST};
use cityvibe::model::{Category, Event, TZ_CANARY};
use cityvibe::parse::pii::contains_pii;
use cityvibe::parse::text::is_image_url;
use jiff::civil::{date, time};

const SAMPLE: &str = "datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json";

fn parse_file(path: &std::path::Path) -> Collect {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_bytes(&Jcyl, &MANIFEST.feeds[0], &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(json: &str) -> Collect {
    parse_bytes(&Jcyl, &MANIFEST.feeds[0], json.as_bytes()).expect("feed parses")
}

/// A flat record with the fields a test varies.
fn record(id: &str, title: &str, start: &str, end: &str, hour: &str, lat: f64, lon: f64) -> String {
    let end = if end.is_empty() { String::new() } else { format!(r#""fecha_fin": "{end}", "#) };
    format!(
        r#"{{"posicion": [{lat}, {lon}], "latitud": {lat}, "longitud": {lon}, "destinatarios": "Adultos", "lugar_celebracion": "Lugar", "nombre_localidad": "Lugar", "id_evento": {id}, "precio": "Gratuito", "categoria": "Conciertos", {end}"imagen_evento": "https://datosabiertos.jcyl.es/web/jcyl/binarios/1/a.jpeg", "titulo": "{title}", "enlace_contenido": "https://cultura.jcyl.es/web/jcyl/Cultura/es/Plantilla100Detalle/1/Evento/{id}/Comunicacion", "fecha_inicio": "{start}", "nombre_provincia": "Provincia", "hora_inicio": "{hour}", "tematica": "Concierto", "descripcion": "<p>Texto</p>"}}"#
    )
}

fn one(json: &str) -> Event {
    let mut c = parse(json);
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert_eq!(c.events.len(), 1);
    c.events.remove(0)
}

/// Every whitespace-separated word of every text field of the events.
fn words(events: &[Event]) -> Vec<String> {
    let json = serde_json::to_value(events).unwrap();
    let mut out = Vec::new();
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.extend(s.split_whitespace().map(str::to_string)),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(&json, &mut out);
    out
}

fn assert_no_images(events: &[Event]) {
    let out = serde_json::to_string(events).unwrap();
    assert!(!out.contains("/binarios/") && !out.contains("blobheader") && !out.contains("<img"), "image data in output");
    for w in words(events) {
        assert!(!is_image_url(&w), "image URL {w:?}");
    }
}

#[test]
fn sample_feed_matches_golden() {
    let c = parse_file(&common::sample(SAMPLE));
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    // Six records, two of them the same event on two Sundays.
    assert_eq!(c.events.len(), 5);
    golden::assert_golden("jcyl.json", &c.events);
    assert_no_images(&c.events);

    let choir = &c.events[0];
    assert_eq!(choir.source_event_id, "1285700000101");
    assert_eq!(choir.title, "'Voces de invierno' (CORAL BERCIANA DE EJEMPLO)");
    assert_eq!(choir.schedule.start, Some(date(2026, 12, 19).to_datetime(time(20, 30, 0, 0))), "\"20:30 h.\"");
    assert_eq!(choir.free, Some(false));
    assert_eq!(choir.categories, [Category::Music]);
    assert_eq!(choir.venue.province.as_deref(), Some("León"));
    assert_eq!((choir.venue.lat, choir.venue.lon), (Some(42.5987263), Some(-5.5670959)));
    assert!(!choir.description.contains("reservas.coral@example.es") && !choir.description.contains("987 000 111"));
    assert!(choir.url.as_deref().unwrap().starts_with("https://cultura.jcyl.es/"));

    let visits = &c.events[1];
    assert_eq!(visits.source_event_id, "1285700000102");
    let days: Vec<_> = visits.schedule.occurrences.iter().map(|o| o.start).collect();
    assert_eq!(days, [date(2026, 12, 6).to_datetime(time(12, 0, 0, 0)), date(2026, 12, 13).to_datetime(time(12, 0, 0, 0))]);
    assert_eq!(visits.categories, [Category::Tour, Category::Family]);

    // Free-text hours: the first time and its end.
    let expo = c.events.iter().find(|e| e.source_event_id == "1285700000104").unwrap();
    assert_eq!(expo.schedule.occurrences[0].start.time(), time(11, 0, 0, 0));
    assert_eq!(expo.schedule.occurrences[0].end.map(|e| e.time()), Some(time(14, 0, 0, 0)));

    // Cut by the portal: no half <img> tag, a mark instead.
    let circus = c.events.iter().find(|e| e.source_event_id == "1285700000105").unwrap();
    assert!(circus.description.ends_with("Circuitos Escénicos. …"), "{:?}", circus.description);

    let workshop = c.events.iter().find(|e| e.source_event_id == "1285700000106").unwrap();
    assert_eq!(workshop.schedule.occurrences[0].end.map(|e| e.time()), Some(time(20, 30, 0, 0)));
    assert_eq!(workshop.source_categories, ["Club de lectura"]);
}

#[test]
fn flat_records_give_the_same_events() {
    let wrapped = parse_file(&common::sample(SAMPLE));
    let flat = parse_file(&common::sample("fixtures/jcyl_flat.json"));
    assert!(flat.errors.is_empty(), "{:?}", flat.errors);
    assert_eq!(flat.events, wrapped.events);
}

// P4, P5: no image field is read, no needle of the PII fixture survives.
#[test]
fn images_and_contact_data_never_reach_the_output() {
    let c = parse_file(&common::sample("fixtures/pii/jcyl.json"));
    assert_eq!(c.events.len(), 2, "{:?}", c.errors);
    let out = serde_json::to_string(&c.events).unwrap();
    let needles = std::fs::read_to_string(common::sample("fixtures/pii/needles.txt")).unwrap();
    for needle in needles.lines().map(str::trim).filter(|n| !n.is_empty()) {
        assert!(!out.contains(needle), "{needle:?} reached the output");
    }
    for e in &c.events {
        assert!(!contains_pii(&serde_json::to_string(e).unwrap()), "{e:?}");
    }
    assert_no_images(&c.events);
    assert_eq!(
        c.events[0].schedule.start.map(|s| s.time()),
        Some(time(12, 0, 0, 0)),
        "the time, not the phone, of \"12:00 (confirmar en el …)\""
    );
}

#[test]
fn the_real_april_2026_export_is_one_event_per_id_with_every_date_and_no_contact_data_p5() {
    let Some(path) = common::realdata("jcyl_agenda_cultural/eventos-de-la-agenda-cultural-categorizados-y-geolocalizados_2026-04.json")
    else {
        return;
    };
    let c = parse_file(&path);
    // 105 records; two events are published once per date (4 and 8
    // records): 95 events, every record accounted for as an occurrence.
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert_eq!(c.events.len(), 95);
    let repeated = c.events.iter().find(|e| e.source_event_id == "1285632215257").unwrap();
    assert_eq!(repeated.schedule.occurrences.len(), 8);
    for e in &c.events {
        let json = serde_json::to_string(e).unwrap();
        assert!(!contains_pii(&json), "{}: {json}", e.source_event_id);
        assert!(e.url.as_deref().is_some_and(|u| u.starts_with("http")), "{}", e.source_event_id);
        assert!(e.venue.lat.is_some(), "{}", e.source_event_id);
        assert!(!e.schedule.occurrences.is_empty());
        assert!(!e.description.contains('<') || e.description.contains(" < "), "{}: markup left: {}", e.source_event_id, e.description);
        for t in [&e.title, &e.description] {
            assert!(!t.contains("&iquest;") && !t.contains("&iexcl;") && !t.contains("&amp;"), "{t}");
        }
    }
    assert_no_images(&c.events);
    assert!(!serde_json::to_string(&c.events).unwrap().contains("jardinhistorico@"), "an e-mail in a description is scrubbed");
    let el_tiemblo = c.events.iter().find(|e| e.source_event_id == "1285610725478").unwrap();
    assert_eq!(el_tiemblo.venue.locality.as_deref(), Some("El Tiemblo"));
    assert_eq!(el_tiemblo.categories, [Category::Literature, Category::Family]);
    // Free-text hours: "Todos los días." and "Según programa" are all-day.
    let all_day = c.events.iter().filter(|e| e.schedule.all_day).count();
    assert!((5..=10).contains(&all_day), "{all_day} all-day events");
}

#[test]
fn bad_records_are_counted_and_the_rest_emitted() {
    let good = record("1000000000001", "Bueno", "2026-12-01", "", "20:00", 41.6, -4.7);
    let json = format!(
        "[{}]",
        [
            good.clone(),
            good.replace("\"id_evento\": 1000000000001", "\"id_evento\": null"),
            record("1000000000003", "", "2026-12-01", "", "20:00", 41.6, -4.7),
            record("1000000000004", "Fecha imposible", "2026-02-31", "", "20:00", 41.6, -4.7),
            record("1000000000005", "Fin imposible", "2026-02-01", "2026-02-30", "", 41.6, -4.7),
            record("1000000000006", "Al revés", "2026-02-10", "2026-02-01", "", 41.6, -4.7),
            record("1000000000007", "Título raro", "2026-12-01", "", "", 41.6, -4.7).replace("\"Título raro\"", "{\"es\": \"x\"}"),
            "null".to_string(),
            "42".to_string(),
            // Wrong types and free text where they do no harm.
            record("1000000000010", "Bueno también", "2026-12-02", "", "Según programa", 41.6, -4.7)
                .replace("\"Gratuito\"", "3")
                .replace("\"latitud\": 41.6", "\"latitud\": \"41,6\"")
                .replace("\"categoria\": \"Conciertos\"", "\"categoria\": [\"Conciertos\"]"),
        ]
        .join(",")
    );
    let c = parse(&json);
    let ids: Vec<_> = c.events.iter().map(|e| e.source_event_id.as_str()).collect();
    assert_eq!(ids, ["1000000000001", "1000000000010"]);
    let errs: Vec<_> = c.errors.iter().map(|e| format!("{}: {}", e.record, e.reason)).collect();
    assert_eq!(errs.len(), 8, "{errs:#?}");
    assert!(errs[0].starts_with("record #2") && errs[0].contains("no id"), "{errs:#?}");
    assert!(
        errs[1].contains("no title") && errs[2].contains("bad start date in fecha_inicio") && errs[3].contains("bad end date in fecha_fin"),
        "{errs:#?}"
    );
    // The field, never its value (P5).
    assert!(errs.iter().all(|e| !e.contains("2026-02-3")), "{errs:#?}");
    assert!(errs[4].contains("before it starts") && errs[5].contains("no title"), "{errs:#?}");
    assert!(errs[6].contains("not an object") && errs[7].contains("not an object"), "{errs:#?}");
    let lenient = &c.events[1];
    assert!(lenient.schedule.all_day, "unparsable hora_inicio is all-day, not an error");
    assert_eq!(lenient.price.as_deref(), Some("3"));
    assert_eq!((lenient.venue.lat, lenient.venue.lon), (Some(41.6), Some(-4.7)));
    assert_eq!(lenient.source_categories, ["Concierto"]);
}

#[test]
fn broken_bodies_are_feed_errors() {
    let good = format!("[{}]", record("1000000000001", "Bueno", "2026-12-01", "", "20:00", 41.6, -4.7));
    let error_page = std::fs::read_to_string(common::sample("fixtures/bad/error_page.html")).unwrap();
    for (what, body) in [
        ("truncated", &good[..good.len() / 2]),
        ("empty", ""),
        ("html error page", error_page.as_str()),
        ("an object, not a list", r#"{"nhits": 0, "records": []}"#),
    ] {
        let err = parse_bytes(&Jcyl, &MANIFEST.feeds[0], body.as_bytes()).expect_err(what);
        assert!(!err.0.contains('\n') && !err.0.is_empty(), "{what}: one-line reason, got {err}");
        eprintln!("{what}: {err}");
    }
}

#[test]
fn a_span_across_the_october_dst_change_keeps_local_wall_clock() {
    let ev = one(&format!("[{}]", record("1000000000001", "Ciclo", "2026-10-22", "2026-10-28", "20:00 h.", 41.6, -4.7)));
    assert_eq!(ev.schedule.occurrences.len(), 7);
    let mut offsets = Vec::new();
    for o in &ev.schedule.occurrences {
        assert_eq!(o.start.time(), time(20, 0, 0, 0));
        offsets.push(o.start.in_tz(ev.time_zone()).unwrap().offset().seconds() / 3600);
    }
    assert_eq!(offsets, [2, 2, 2, 1, 1, 1, 1]);
}

#[test]
fn no_end_date_is_one_occurrence_without_end() {
    let ev = one(&format!("[{}]", record("1000000000001", "Estreno", "2026-12-15", "", "21:00", 41.6, -4.7)));
    assert_eq!(ev.schedule.occurrences.len(), 1);
    assert_eq!(ev.schedule.occurrences[0].start, date(2026, 12, 15).to_datetime(time(21, 0, 0, 0)));
    assert_eq!(ev.schedule.occurrences[0].end, None);
    assert_eq!(ev.schedule.end, None);
}

#[test]
fn a_canary_islands_venue_gets_its_own_time_zone() {
    let ev = one(&format!("[{}]", record("1000000000001", "Concierto en Las Palmas", "2026-12-15", "", "20:00", 28.1, -15.4)));
    assert_eq!(ev.time_zone(), TZ_CANARY);
    assert_eq!(ev.schedule.occurrences[0].start.time(), time(20, 0, 0, 0), "wall clock as published");
}

#[test]
fn manifest_is_complete() {
    let m = &MANIFEST;
    assert_eq!(m.feeds.len(), 1);
    assert_eq!(m.feeds[0].url, "https://datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json");
    assert_eq!(m.min_delay, std::time::Duration::from_secs(2));
    assert_eq!(m.licence.url, "https://creativecommons.org/licenses/by/4.0/");
    assert_eq!(m.attribution, "Junta de Castilla y León");
    assert_eq!(m.review.date, "2026-11-30");
    // P13: only the portal's own RISP tree; the analysis host's /api/ is forbidden by its robots.txt.
    assert!(m.redirects.iter().all(|r| r.host == "datosabiertos.jcyl.es" && r.path_prefix == "/web/jcyl/risp/"));
    assert!(m.review.robots_txt.contains("analisis.datosabiertos.jcyl.es"));
    for s in [m.name, m.publisher, m.dataset_page, m.update_schedule, m.review.notes] {
        assert!(!s.trim().is_empty());
    }
}
