//! datos.madrid.es, dataset 300107 "Agenda de actividades y eventos".
//!
//! Reviewed 2025-10-20. The same agenda is published as JSON-LD, CSV and XML;
//! the JSON is tried first and the CSV, then the XML, only when it fails. The
//! feeds carry no contact fields, but descriptions hold box-office e-mail
//! addresses and phone numbers: the core scrubs them (P5). The typed records
//! below name only the fields we keep; `organization`, `relation` and
//! `references` are never read.

use crate::adapter::*;
use crate::model::{Category, Event, Schedule};
use crate::parse::category::add_audience;
use crate::parse::dates::{parse_date_list, parse_datetime, parse_time, parse_weekdays, real_time};
use crate::parse::loose::{Loose, LooseNumber, Nested};
use crate::parse::number::decimal;
use crate::parse::text::{decode_entities, html_to_line, html_to_text, non_empty, one_line};
use crate::records::{csv, json, xml};
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::BufRead;
use std::time::Duration;

pub struct Madrid;

pub static MANIFEST: Manifest = Manifest {
    id: "madrid",
    name: "Agenda de actividades y eventos",
    publisher: "Ayuntamiento de Madrid",
    host: "datos.madrid.es",
    feeds: &[
        Feed {
            url: "https://datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json",
            format: Format::Json,
            lang: "es",
            role: FeedRole::Primary,
            paging: Paging::Whole,
        },
        Feed {
            url: "https://datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv",
            format: Format::Csv,
            lang: "es",
            role: FeedRole::Primary,
            paging: Paging::Whole,
        },
        Feed {
            url: "https://datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml",
            format: Format::Xml,
            lang: "es",
            role: FeedRole::Primary,
            paging: Paging::Whole,
        },
    ],
    plan: FetchPlan::FirstThatParses,
    redirects: &[RedirectRule { host: "datos.madrid.es", path_prefix: "/egob/catalogo/" }],
    min_delay: Duration::from_secs(2),
    daily_cap: 60,
    language: "es",
    // The Comunidad de Madrid, generously: the city agenda's venues lie in it.
    region: &[BoundingBox::new(39.85, -4.60, 41.20, -3.03)],
    licence: Licence {
        name: "Aviso legal de datos.madrid.es (reutilización libre citando la fuente)",
        url: "https://datos.madrid.es/egob/catalogo/aviso-legal",
    },
    attribution: "Fuente: Ayuntamiento de Madrid, datos.madrid.es",
    dataset_page: "https://datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos",
    links: EventLinks::EventPage,
    update_schedule: "continua (the portal says: continuous)",
    review: Review {
        date: "2025-10-20",
        robots_txt: "No Disallow covers /egob/catalogo/ for CityVibeBot or *; no Crawl-delay; 2 s chosen.",
        robots_sha256: None,
        robots: RobotsReview::Read,
        notes: "No contact fields; descriptions carry e-mails and phones (scrubbed). No image fields.",
    },
};

impl Adapter for Madrid {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        match feed.format {
            Format::Json => parse_json(body, sink),
            Format::Csv => parse_csv(body, sink),
            Format::Xml => parse_xml(body, sink),
        }
    }
}

/// The fields of one record, whatever format it came in, borrowed from
/// the record where they can be.
#[derive(Debug, Default)]
struct Record<'a> {
    id: Cow<'a, str>,
    title: Cow<'a, str>,
    description: Cow<'a, str>,
    free: Cow<'a, str>,
    price: Cow<'a, str>,
    start: Cow<'a, str>,
    end: Cow<'a, str>,
    /// The names the feed's format gives the start and end fields: an
    /// error names the field, never its value.
    date_fields: (&'static str, &'static str),
    time: Cow<'a, str>,
    weekdays: Cow<'a, str>,
    excluded: Cow<'a, str>,
    link: Cow<'a, str>,
    venue: Cow<'a, str>,
    address: Cow<'a, str>,
    locality: Cow<'a, str>,
    postal_code: Cow<'a, str>,
    district: Cow<'a, str>,
    lat: Option<f64>,
    lon: Option<f64>,
    kind: Cow<'a, str>,
    audience: Cow<'a, str>,
}

fn last_segment(s: &str) -> &str {
    s.trim().trim_end_matches('/').rsplit('/').next().unwrap_or("")
}

fn build(r: &Record<'_>) -> Result<Event, RecordError> {
    let err = |reason: String| RecordError::new(if r.id.is_empty() { "?" } else { &r.id }, reason).with_id(Some(&r.id));
    let mut ev = Event::new(&r.id, &html_to_line(&r.title), "es").map_err(err)?;
    ev.description = html_to_text(&r.description);
    ev.url = non_empty(&r.link);
    let (start_field, end_field) = r.date_fields;
    let start = parse_datetime(&r.start).ok_or_else(|| err(format!("bad start date in {start_field}")))?;
    let end = if r.end.trim().is_empty() {
        None
    } else {
        Some(parse_datetime(&r.end).ok_or_else(|| err(format!("bad end date in {end_field}")))?)
    };
    // The time of day: the explicit field, else the start's own when it is
    // one (not midnight); the end's when it is one (not midnight or 23:59).
    let start_time = parse_time(&r.time).or_else(|| real_time(start.time()));
    let end_time = end.and_then(|e| real_time(e.time()));
    ev.schedule = Schedule::from_span(
        start.date(),
        end.map(|e| e.date()),
        start_time,
        end_time,
        parse_weekdays(&r.weekdays),
        parse_date_list(&r.excluded),
    );
    ev.free = match r.free.trim() {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    };
    ev.price = non_empty(&html_to_line(&r.price));
    ev.audience = non_empty(&decode_entities(last_segment(&r.audience)));
    let v = &mut ev.venue;
    // One line is trimmed already: kept as it is unless empty.
    let plain = |s: &str| Some(one_line(&decode_entities(s))).filter(|l| !l.is_empty());
    v.name = plain(&r.venue);
    v.address = plain(&r.address);
    v.locality = plain(&r.locality).or_else(|| Some("Madrid".into()));
    v.province = Some("Madrid".into());
    v.postal_code = plain(&r.postal_code);
    v.district = plain(last_segment(&r.district));
    if let (Some(lat), Some(lon)) = (r.lat, r.lon) {
        v.set_coordinates(lat, lon);
    }
    let kind = last_segment(&r.kind);
    if !kind.is_empty() {
        ev.source_categories.push(kind.to_string());
    }
    ev.categories.push(Category::from_label(kind).unwrap_or(Category::Other));
    add_audience(&mut ev.categories, ev.audience.as_deref());
    Ok(ev)
}

// --- JSON-LD -------------------------------------------------------------

/// An element of `@graph`, parsed whatever it is: one that is not an object
/// is this adapter's own record error.
impl json::Record for JsonRecord<'_> {
    type Of<'de> = Nested<JsonRecord<'de>>;
    const ID_KEY: &'static str = "id";
    const OBJECTS_ONLY: bool = false;
}

#[derive(serde::Deserialize)]
struct JsonRecord<'a> {
    #[serde(borrow, default)]
    id: Loose<'a>,
    #[serde(borrow, default)]
    title: Loose<'a>,
    #[serde(borrow, default)]
    description: Loose<'a>,
    #[serde(borrow, default)]
    free: Loose<'a>,
    #[serde(borrow, default)]
    price: Loose<'a>,
    #[serde(borrow, default)]
    dtstart: Loose<'a>,
    #[serde(borrow, default)]
    dtend: Loose<'a>,
    #[serde(borrow, default)]
    time: Loose<'a>,
    #[serde(borrow, default, rename = "excluded-days")]
    excluded_days: Loose<'a>,
    #[serde(borrow, default)]
    recurrence: Nested<JsonRecurrence<'a>>,
    #[serde(borrow, default)]
    link: Loose<'a>,
    #[serde(borrow, default, rename = "event-location")]
    event_location: Loose<'a>,
    #[serde(borrow, default)]
    address: Nested<JsonAddress<'a>>,
    #[serde(default)]
    location: Nested<JsonLocation>,
    #[serde(borrow, default, rename = "@type")]
    kind: Loose<'a>,
    #[serde(borrow, default)]
    audience: Loose<'a>,
}

#[derive(serde::Deserialize)]
struct JsonRecurrence<'a> {
    #[serde(borrow, default)]
    days: Loose<'a>,
}

#[derive(serde::Deserialize)]
struct JsonAddress<'a> {
    #[serde(borrow, default)]
    district: Nested<JsonId<'a>>,
    #[serde(borrow, default)]
    area: Nested<JsonArea<'a>>,
}

#[derive(serde::Deserialize)]
struct JsonId<'a> {
    #[serde(borrow, default, rename = "@id")]
    id: Loose<'a>,
}

#[derive(serde::Deserialize)]
struct JsonArea<'a> {
    #[serde(borrow, default)]
    locality: Loose<'a>,
    #[serde(borrow, default, rename = "postal-code")]
    postal_code: Loose<'a>,
    #[serde(borrow, default, rename = "street-address")]
    street_address: Loose<'a>,
}

/// Numbers in the feed, read as numbers (text holding one is read too).
#[derive(serde::Deserialize)]
struct JsonLocation {
    #[serde(default)]
    latitude: LooseNumber,
    #[serde(default)]
    longitude: LooseNumber,
}

fn parse_json(body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
    json::read_records::<JsonRecord>(body, Some("@graph"), sink, |record, position| match record.0 {
        Some(j) => build(&json_record(&j)),
        None => Err(RecordError::new(format!("#{position}"), "not a JSON object")),
    })
    .map_err(|e| FeedError::new(format!("not a readable JSON-LD agenda: {e}")))?;
    Ok(())
}

/// The fields of one JSON-LD record.
fn json_record<'j>(j: &'j JsonRecord<'_>) -> Record<'j> {
    let s = |l: &'j Loose<'_>| Cow::Borrowed(l.as_str());
    let addr = j.address.0.as_ref();
    let area = addr.and_then(|a| a.area.0.as_ref());
    Record {
        id: s(&j.id),
        title: s(&j.title),
        description: s(&j.description),
        free: s(&j.free),
        price: s(&j.price),
        start: s(&j.dtstart),
        end: s(&j.dtend),
        date_fields: ("dtstart", "dtend"),
        time: s(&j.time),
        weekdays: j.recurrence.0.as_ref().map(|r| s(&r.days)).unwrap_or_default(),
        excluded: s(&j.excluded_days),
        link: s(&j.link),
        venue: s(&j.event_location),
        address: area.map(|a| s(&a.street_address)).unwrap_or_default(),
        locality: area.map(|a| s(&a.locality)).unwrap_or_default(),
        postal_code: area.map(|a| s(&a.postal_code)).unwrap_or_default(),
        district: addr.and_then(|a| a.district.0.as_ref()).map(|d| s(&d.id)).unwrap_or_default(),
        lat: j.location.0.as_ref().and_then(|l| l.latitude.0),
        lon: j.location.0.as_ref().and_then(|l| l.longitude.0),
        kind: s(&j.kind),
        audience: s(&j.audience),
    }
}

// --- CSV (Windows-1252, ';', header with a leading space) ----------------

fn parse_csv(body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
    csv::read(body, b';', &["ID-EVENTO", "TITULO"], sink, |row| {
        let get = |name: &str| Cow::Borrowed(row.get(name));
        let address = [get("CLASE-VIAL-INSTALACION"), get("NOMBRE-VIA-INSTALACION"), get("NUM-INSTALACION")].join(" ").into();
        let rec = Record {
            id: get("ID-EVENTO"),
            title: get("TITULO"),
            description: get("DESCRIPCION"),
            free: get("GRATUITO"),
            price: get("PRECIO"),
            start: get("FECHA"),
            end: get("FECHA-FIN"),
            date_fields: ("FECHA", "FECHA-FIN"),
            time: get("HORA"),
            weekdays: get("DIAS-SEMANA"),
            excluded: get("DIAS-EXCLUIDOS"),
            link: get("CONTENT-URL"),
            venue: get("NOMBRE-INSTALACION"),
            address,
            locality: Cow::Borrowed(""),
            postal_code: get("CODIGO-POSTAL-INSTALACION"),
            district: titlecase(&get("DISTRITO-INSTALACION")).into(),
            lat: decimal(&get("LATITUD")),
            lon: decimal(&get("LONGITUD")),
            kind: get("TIPO"),
            audience: get("AUDIENCIA"),
        };
        build(&rec)
    })
    .map_err(|e| FeedError::new(format!("not the Madrid agenda's CSV: {e}")))?;
    Ok(())
}

fn titlecase(s: &str) -> String {
    s.split_whitespace()
        .map(|w| {
            let lower = w.to_lowercase();
            let mut c = lower.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

// --- XML (<contenido><atributos><atributo nombre="…">) -------------------

fn parse_xml(body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
    const SHAPE: xml::Shape = xml::Shape { root: "Contenidos", record: "contenido", never_read: &[] };
    xml::read(body, &SHAPE, sink, |contenido, _| {
        // Every <atributo nombre="…"> of the record, nested ones included
        // (LOCALIZACION holds the address), by name.
        let mut fields: HashMap<&str, String> = HashMap::new();
        fn gather<'n>(node: &'n xml::Node, fields: &mut HashMap<&'n str, String>) {
            for child in &node.children {
                if child.name == "atributo" && child.children.is_empty() {
                    fields.entry(child.attribute("nombre")).or_default().push_str(child.text());
                }
                gather(child, fields);
            }
        }
        gather(contenido, &mut fields);
        let get = |k: &str| Cow::Borrowed(fields.get(k).map_or("", |s| s.trim()));
        build(&Record {
            id: get("ID-EVENTO"),
            title: get("TITULO"),
            description: get("DESCRIPCION"),
            free: get("GRATUITO"),
            price: get("PRECIO"),
            start: get("FECHA-EVENTO"),
            end: get("FECHA-FIN-EVENTO"),
            date_fields: ("FECHA-EVENTO", "FECHA-FIN-EVENTO"),
            time: get("HORA-EVENTO"),
            weekdays: get("DIAS-SEMANA"),
            excluded: get("DIAS-EXCLUIDOS-TEXT"),
            link: get("CONTENT-URL"),
            venue: get("NOMBRE-INSTALACION"),
            address: get("DIRECCION-INSTALACION"),
            locality: titlecase(&get("LOCALIDAD")).into(),
            postal_code: get("CODIGO-POSTAL"),
            district: titlecase(&get("DISTRITO")).into(),
            lat: decimal(&get("LATITUD")),
            lon: decimal(&get("LONGITUD")),
            kind: get("TIPO"),
            audience: get("AUDIENCIA"),
        })
    })
    .map_err(|e| FeedError::new(format!("not the Madrid agenda's XML: {e}")))?;
    Ok(())
}
