//! The esmadrid adapter: sample feed against its golden file, per-record
//! errors, broken bodies, contact and image elements never read (P4, P5),
//! streaming, and how date ranges become occurrences.
use crate::common;
use crate::golden;

use cityvibe::adapter::{Adapter, Collect, EventSink, RecordError, parse_bytes};
use cityvibe::adapters::esmadrid::{Esmadrid, MANIFEST};
use cityvibe::model::{Category, Event};
use jiff::civil::{Weekday, date, time};
use std::io::BufRead;

fn parse(xml: &str) -> Collect {
    parse_bytes(&Esmadrid, &MANIFEST.feeds[0], xml.as_bytes()).expect("feed parses")
}

/// One `<service>` in the feed's shape, with the parts a test varies.
fn service(id: &str, name: &str, hours: &str, ranges: &[(&str, &str, &str)]) -> String {
    let id_attr = if id.is_empty() { String::new() } else { format!(r#" id="{id}""#) };
    let ranges: String = ranges
        .iter()
        .map(|(start, days, end)| {
            let end = if end.is_empty() { String::new() } else { format!("<fin>{end}</fin>") };
            format!("<rango><inicio>{start}</inicio><dias>{days}</dias>{end}</rango>")
        })
        .collect();
    let hours = if hours.is_empty() { String::new() } else { format!(r#"<item name="Horario"><![CDATA[<p>{hours}</p>]]></item>"#) };
    format!(
        r#"<service{id_attr} fechaActualizacion="2026-11-30"><basicData><name><![CDATA[{name}]]></name><web>https://www.esmadrid.com/agenda/x</web><nombrert>Sala</nombrert></basicData><geoData><address>Mayor, 1</address><zipcode>28013</zipcode><locality>Madrid</locality><latitude>40.4168</latitude><longitude>-3.7038</longitude></geoData><extradata><categorias><categoria><item name="Categoria">Música</item></categoria></categorias>{hours}<fechas>{ranges}</fechas></extradata></service>"#
    )
}

fn feed(services: &[String]) -> String {
    format!(r#"<?xml version="1.0" encoding="UTF-8"?><serviceList>{}</serviceList>"#, services.concat())
}

fn one(xml: &str) -> Event {
    let mut c = parse(xml);
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert_eq!(c.events.len(), 1);
    c.events.remove(0)
}

#[test]
fn sample_feed_matches_golden() {
    let bytes = std::fs::read(common::sample("www.esmadrid.com/opendata/agenda_v1_es.xml")).unwrap();
    let c = parse_bytes(&Esmadrid, &MANIFEST.feeds[0], &bytes).unwrap();
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert_eq!(c.events.len(), 8);
    golden::assert_golden("esmadrid.json", &c.events);

    let concert = &c.events[0];
    assert_eq!(concert.source_event_id, "109101");
    assert_eq!(concert.title, "Concierto de Año Nuevo: Orquesta Filarmónica del Paseo");
    assert_eq!(concert.schedule.start, Some(date(2027, 1, 1).to_datetime(time(19, 30, 0, 0))));
    assert!(!concert.schedule.all_day);
    assert_eq!(concert.price.as_deref(), Some("General: 35 €. Reducida: 25 €"));
    assert_eq!(concert.free, Some(false));
    assert_eq!(concert.source_categories, ["Música", "Clásica"]);
    assert_eq!(concert.categories, [Category::Music]);
    assert_eq!(concert.venue.name.as_deref(), Some("Auditorio Sala del Paseo"));
    assert_eq!(concert.venue.postal_code.as_deref(), Some("28001"));
    assert!(concert.venue.lat.is_some() && concert.venue.lon.is_some());
    assert_eq!(concert.url.as_deref(), Some("https://www.esmadrid.com/agenda/concierto-ano-nuevo-orquesta-filarmonica-paseo"));

    // Two ranges around Christmas, Tuesday to Sunday: no Mondays, no 24-25 December.
    let expo = &c.events[1];
    assert_eq!(expo.venue.name.as_deref(), Some("Sala Mirador del Príncipe"), "entity escaped twice");
    assert_eq!(expo.free, Some(true));
    let days: Vec<_> = expo.schedule.occurrences.iter().map(|o| o.start.date()).collect();
    assert!(days.iter().all(|d| d.weekday() != Weekday::Monday));
    assert!(!days.contains(&date(2026, 12, 24)) && !days.contains(&date(2026, 12, 25)));
    assert!(days.contains(&date(2026, 12, 23)) && days.contains(&date(2026, 12, 26)));

    // No <Horario>: all-day occurrences on Saturdays and Sundays.
    let family = c.events.iter().find(|e| e.source_event_id == "109107").unwrap();
    assert!(family.schedule.all_day);
    assert!(family.categories.contains(&Category::Family));
    assert!(family.schedule.occurrences.iter().all(|o| matches!(o.start.date().weekday(), Weekday::Saturday | Weekday::Sunday)));
}

/// A sink that keeps events exactly as the parser made them, before the
/// core's PII scrub: what the parser itself read.
#[derive(Default)]
struct Raw(Vec<Event>);

impl EventSink for Raw {
    fn push(&mut self, record: Result<Event, RecordError>) {
        self.0.extend(record);
    }
    fn warning(&mut self, _: RecordError) {}
}

/// The text of every `<tag>…</tag>` in a document (test fixture only).
fn element_texts(xml: &str, tag: &str) -> Vec<String> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    xml.split(&open).skip(1).filter_map(|rest| rest.split_once(&close).map(|(t, _)| t.to_string())).collect()
}

// P4, P5: <email>, <phone>, <fax> and <multimedia> are never read, so their
// values cannot reach the event even before the scrub; and after the scrub no
// needle of the PII fixture is left anywhere.
#[test]
fn contact_and_image_elements_are_never_read() {
    let path = common::sample("fixtures/pii/esmadrid.xml");
    let xml = std::fs::read_to_string(&path).unwrap();
    let mut raw = Raw::default();
    Esmadrid.parse(&MANIFEST.feeds[0], &mut xml.as_bytes(), &mut raw).unwrap();
    assert_eq!(raw.0.len(), 2);
    let raw_out = format!("{:?}", raw.0);
    let unread: Vec<String> = ["email", "phone", "fax", "url"].iter().flat_map(|t| element_texts(&xml, t)).collect();
    assert!(unread.len() >= 10, "fixture has contact and image elements: {unread:?}");
    for value in &unread {
        assert!(!raw_out.contains(value.as_str()), "parser read {value:?}");
    }

    let c = parse(&xml);
    let out = serde_json::to_string(&c.events).unwrap();
    let needles = std::fs::read_to_string(common::sample("fixtures/pii/needles.txt")).unwrap();
    for needle in needles.lines().map(str::trim).filter(|n| !n.is_empty()) {
        assert!(!out.contains(needle), "{needle:?} reached the output");
    }
    for e in &c.events {
        assert!(!cityvibe::parse::pii::contains_pii(&serde_json::to_string(e).unwrap()), "{e:?}");
    }
}

#[test]
fn bad_records_are_counted_and_the_rest_emitted() {
    let xml = feed(&[
        service("1", "Bueno", "20:00", &[("01/12/2026", "", "01/12/2026")]),
        service("", "Sin id", "", &[("01/12/2026", "", "")]),
        service("3", "  ", "", &[("01/12/2026", "", "")]),
        service("4", "Fecha imposible", "", &[("31/02/2026", "", "")]),
        service("5", "Fin imposible", "", &[("01/02/2026", "", "30/02/2026")]),
        service("6", "Al revés", "", &[("10/02/2026", "", "01/02/2026")]),
        service("7", "Sin fechas", "", &[]),
        r#"<service id="8"/>"#.to_string(),
        service("9", "También bueno", "", &[("02/12/2026", "", "")]),
    ]);
    let c = parse(&xml);
    let ids: Vec<_> = c.events.iter().map(|e| e.source_event_id.as_str()).collect();
    assert_eq!(ids, ["1", "9"]);
    let errs: Vec<_> = c.errors.iter().map(|e| format!("{}: {}", e.record, e.reason)).collect();
    assert_eq!(c.errors.len(), 7, "{errs:#?}");
    assert!(errs[0].starts_with("service #2") && errs[0].contains("no id"), "{errs:?}");
    assert!(errs[1].starts_with("3") && errs[1].contains("no title"), "{errs:?}");
    assert!(errs[2].starts_with("4") && errs[2].contains("bad start date in <inicio>"), "{errs:?}");
    assert!(errs[3].contains("bad end date in <fin>"), "{errs:?}");
    // The field, never its value (P5).
    assert!(errs.iter().all(|e| !e.contains("/02/2026")), "{errs:?}");
    assert!(errs[4].contains("before it starts"), "{errs:?}");
    assert!(errs[5].contains("no dates"), "{errs:?}");
    assert!(errs[6].starts_with("8"), "{errs:?}");
}

#[test]
fn broken_bodies_are_feed_errors() {
    let good = feed(&[service("1", "Uno", "", &[("01/12/2026", "", "")]), service("2", "Dos", "", &[("02/12/2026", "", "")])]);
    let cut = &good[..good.len() / 2];
    for (what, body) in [
        ("truncated", cut),
        ("empty", ""),
        ("html error page", "<html><body><h1>503 Service Unavailable</h1></body></html>"),
        ("garbage", "\u{0}\u{1}not xml at all"),
        ("mismatched tags", "<serviceList><service id=\"1\"></basicData></serviceList>"),
    ] {
        let err = parse_bytes(&Esmadrid, &MANIFEST.feeds[0], body.as_bytes()).expect_err(what);
        assert!(!err.0.contains('\n') && !err.0.is_empty(), "{what}: one-line reason, got {err}");
        eprintln!("{what}: {err}");
    }
}

/// A reader that counts how far the parser has read.
struct Counting<'a> {
    inner: &'a [u8],
    read: std::rc::Rc<std::cell::Cell<usize>>,
}

impl std::io::Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = std::io::Read::read(&mut self.inner, buf)?;
        self.read.set(self.read.get() + n);
        Ok(n)
    }
}

struct Progress(std::rc::Rc<std::cell::Cell<usize>>, Vec<usize>);

impl EventSink for Progress {
    fn push(&mut self, record: Result<Event, RecordError>) {
        if let Err(e) = record {
            panic!("{e:?}");
        }
        self.1.push(self.0.get());
    }
    fn warning(&mut self, w: RecordError) {
        panic!("{w:?}");
    }
}

// The feed is 4.5 MB: events must leave the parser while it reads, one
// <service> at a time, not after the whole body was collected.
#[test]
fn services_are_emitted_while_the_body_streams() {
    let services: Vec<String> =
        (0..5000).map(|i| service(&i.to_string(), "Concierto", "20:00", &[("01/12/2026", "1,3", "31/12/2026")])).collect();
    let xml = feed(&services);
    let read = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut body = std::io::BufReader::with_capacity(8 * 1024, Counting { inner: xml.as_bytes(), read: read.clone() });
    let mut sink = Progress(read, Vec::new());
    Esmadrid.parse(&MANIFEST.feeds[0], &mut body as &mut dyn BufRead, &mut sink).unwrap();
    assert_eq!(sink.1.len(), 5000);
    assert!(sink.1[0] < 64 * 1024, "first event only after {} bytes of {}", sink.1[0], xml.len());
    assert!(sink.1[2500] < xml.len() * 6 / 10, "events arrive as the body is read");
}

#[test]
fn weekly_recurrence_with_excluded_days() {
    // Mondays and Wednesdays in November, except the week of 16 November,
    // published as two ranges around the gap.
    let ev = one(&feed(&[service(
        "1",
        "Taller",
        "De 18.30 h a 20.00 h",
        &[("02/11/2026", "1,3", "13/11/2026"), ("23/11/2026", "1,3", "30/11/2026")],
    )]));
    let days: Vec<_> = ev.schedule.occurrences.iter().map(|o| o.start.date()).collect();
    let expected = [
        date(2026, 11, 2),
        date(2026, 11, 4),
        date(2026, 11, 9),
        date(2026, 11, 11),
        date(2026, 11, 23),
        date(2026, 11, 25),
        date(2026, 11, 30),
    ];
    assert_eq!(days, expected);
    assert!(ev.schedule.occurrences.iter().all(|o| o.start.time() == time(18, 30, 0, 0)));
    assert_eq!(ev.schedule.weekdays, [Weekday::Monday, Weekday::Wednesday]);
    assert_eq!(ev.schedule.end.map(|e| e.date()), Some(date(2026, 11, 30)));
}

#[test]
fn a_range_across_the_october_dst_change_keeps_local_wall_clock() {
    let ev = one(&feed(&[service("1", "Concierto", "<strong>20:00 h</strong>", &[("22/10/2026", "", "28/10/2026")])]));
    assert_eq!(ev.schedule.occurrences.len(), 7);
    let mut offsets = Vec::new();
    for o in &ev.schedule.occurrences {
        assert_eq!(o.start.time(), time(20, 0, 0, 0), "{o:?}");
        offsets.push(o.start.in_tz(ev.time_zone()).unwrap().offset().seconds() / 3600);
    }
    // Summer time until Sunday 25 October 2026 at 03:00, winter time after.
    assert_eq!(offsets, [2, 2, 2, 1, 1, 1, 1]);
}

#[test]
fn a_range_without_end_is_one_day_with_open_end() {
    let ev = one(&feed(&[service("1", "Estreno", "21:00", &[("15/12/2026", "", "")])]));
    assert_eq!(ev.schedule.occurrences.len(), 1);
    assert_eq!(ev.schedule.occurrences[0].start, date(2026, 12, 15).to_datetime(time(21, 0, 0, 0)));
    assert_eq!(ev.schedule.occurrences[0].end, None);
    assert_eq!(ev.schedule.end, None);
}

#[test]
fn hours_without_a_time_are_all_day() {
    let ev = one(&feed(&[service("1", "Feria", "Consultar horarios en taquilla", &[("01/12/2026", "", "03/12/2026")])]));
    assert!(ev.schedule.all_day);
    assert_eq!(ev.schedule.occurrences.len(), 1, "an untimed span is one long occurrence");
}

#[test]
fn manifest_is_complete() {
    let m = &MANIFEST;
    assert_eq!(m.feeds.len(), 1);
    assert_eq!(m.feeds[0].url, "https://www.esmadrid.com/opendata/agenda_v1_es.xml");
    assert_eq!(m.min_delay, std::time::Duration::from_secs(10));
    assert_eq!(m.review.date, "2026-11-30");
    for s in [
        m.name,
        m.publisher,
        m.attribution,
        m.dataset_page,
        m.update_schedule,
        m.licence.name,
        m.licence.url,
        m.review.robots_txt,
        m.review.notes,
    ] {
        assert!(!s.trim().is_empty());
    }
    assert!(m.review.notes.contains("<email>") && m.review.notes.contains("<multimedia>"));
}

#[test]
fn an_empty_service_list_is_a_valid_empty_feed() {
    // Whether an empty feed may withdraw stored events is the core's call (P20).
    let c = parse(r#"<?xml version="1.0"?><serviceList></serviceList>"#);
    assert!(c.events.is_empty() && c.errors.is_empty());
}

#[test]
fn html_written_as_markup_instead_of_cdata() {
    let xml = feed(&[service("1", "Uno", "", &[("01/12/2026", "", "")]).replace(
        "<web>",
        r#"<body><p>Primera &amp; <strong>mejor</strong></p><p><img src="https://x.es/a.jpg"/>Segunda&lt;br&gt;tercera</p></body><web>"#,
    )]);
    let ev = one(&xml);
    assert_eq!(ev.description, "Primera & mejor\n\nSegunda\ntercera");
}

#[test]
fn an_impossible_date_is_a_record_error_and_a_cut_or_html_body_a_one_line_feed_error() {
    // One good service, one with 31/02/2026, one ending 31/02/2027.
    let bytes = std::fs::read(common::sample("fixtures/bad/esmadrid_bad_date.xml")).unwrap();
    let c = parse_bytes(&Esmadrid, &MANIFEST.feeds[0], &bytes).unwrap();
    assert_eq!(c.events.iter().map(|e| e.source_event_id.as_str()).collect::<Vec<_>>(), ["109103"]);
    let failed: Vec<_> = c.errors.iter().map(|e| e.record.as_str()).collect();
    assert_eq!(failed, ["199901", "199902"]);

    // The sample cut inside an open CDATA section; and an HTML error page.
    for name in ["fixtures/bad/esmadrid_truncated.xml", "fixtures/bad/error_page.html"] {
        let bytes = std::fs::read(common::sample(name)).unwrap();
        let err = parse_bytes(&Esmadrid, &MANIFEST.feeds[0], &bytes).expect_err(name);
        assert!(!err.0.contains('\n'), "{err}");
    }
}
