//! datosabiertos.jcyl.es, the Junta de Castilla y León's cultural agenda
//! ("Eventos de la agenda cultural categorizados y geolocalizados").
//!
//! Reviewed 2026-11-30. One JSON feed, a few hundred KB. The portal exports
//! records either wrapped (`{datasetid, recordid, fields{...}, geometry,
//! record_timestamp}`) or flat (the `fields` object alone); both are read.
//! The portal publishes one record per date of a repeated event, all with
//! the same `id_evento`: they become one event with several occurrences
//! (`records::MergeRepeats` gathers the feed first; it is small).

use crate::adapter::*;
use crate::model::{Category, Event, Schedule};
use crate::parse::category::add_audience;
use crate::parse::dates::{parse_date, parse_time};
use crate::parse::loose::{Loose, Nested};
use crate::parse::loose_list::LooseList;
use crate::parse::number::decimal;
use crate::parse::occurrences::hours_in_text;
use crate::parse::price::free_from_text;
use crate::parse::text::{html_to_line, html_to_text, non_empty, one_line};
use crate::records::MergeRepeats;
use crate::records::json;
use std::io::BufRead;
use std::time::Duration;

pub struct Jcyl;

pub static MANIFEST: Manifest = Manifest {
    id: "jcyl",
    name: "Eventos de la agenda cultural categorizados y geolocalizados",
    publisher: "Junta de Castilla y León",
    host: "datosabiertos.jcyl.es",
    feeds: &[Feed {
        url: "https://datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json",
        format: Format::Json,
        lang: "es",
        role: FeedRole::Primary,
        paging: Paging::Whole,
    }],
    plan: FetchPlan::FirstThatParses,
    // Only the portal's own RISP tree. Not analisis.datosabiertos.jcyl.es:
    // it serves the same data under /api/, which its robots.txt forbids.
    redirects: &[RedirectRule { host: "datosabiertos.jcyl.es", path_prefix: "/web/jcyl/risp/" }],
    min_delay: Duration::from_secs(2),
    // One request per run, eight runs a day: 24 leaves room for retries.
    daily_cap: 24,
    language: "es",
    // Spain's outline only: the Junta's agenda also lists venues beyond
    // Castilla y León (a Canary Islands venue among them).
    region: &[],
    licence: Licence { name: "Creative Commons Attribution 4.0 (CC BY 4.0)", url: "https://creativecommons.org/licenses/by/4.0/" },
    attribution: "Junta de Castilla y León",
    dataset_page: "https://datosabiertos.jcyl.es/web/jcyl/set/es/cultura-ocio/agenda_cultural/1284806871500",
    links: EventLinks::EventPage,
    update_schedule: "daily (the portal regenerates the export every day)",
    review: Review {
        date: "2026-11-30",
        robots_txt: "datosabiertos.jcyl.es: no Disallow covers /web/jcyl/risp/ for CityVibeBot or *; no Crawl-delay, 2 s chosen (P8). \
                     analisis.datosabiertos.jcyl.es disallows /api/ for all agents: that host is not in the redirect rules, so a \
                     redirect there is refused (P13).",
        robots_sha256: None,
        robots: RobotsReview::Read,
        notes: "Image fields imagen_evento and imagen_evento_ampliada are not in the typed record (never read, P4); <img> tags \
                and link targets in descripcion are dropped with the HTML. No contact fields; descriptions and hora_inicio \
                carry tourist-office e-mails and phones: hora_inicio is reduced to a time, descriptions are scrubbed by the \
                core (P5). id_localidad, codigo_provincia, evento_biblioteca are not read either.",
    },
};

impl Adapter for Jcyl {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        // Records of one id_evento become one event with all their dates.
        let mut merged = MergeRepeats::new(sink);
        json::read_records::<Fields>(body, None, &mut merged, |fields, position| map(&fields, feed.lang, position))
            .map_err(|e| FeedError::new(format!("not a readable jcyl agenda (a JSON array of records): {e}")))?;
        merged.finish();
        Ok(())
    }
}

impl json::Record for Fields<'_> {
    type Of<'de> = Fields<'de>;
    const ID_KEY: &'static str = "id_evento";
}

/// One record, flat or wrapped: only the fields we keep. There is on purpose
/// no `imagen_evento` and no `imagen_evento_ampliada` (images, P4): a field
/// that is not here is never read.
#[derive(serde::Deserialize)]
struct Fields<'a> {
    #[serde(borrow, default)]
    id_evento: Loose<'a>,
    #[serde(borrow, default)]
    titulo: Loose<'a>,
    #[serde(borrow, default)]
    descripcion: Loose<'a>,
    #[serde(borrow, default)]
    categoria: Loose<'a>,
    #[serde(borrow, default)]
    tematica: Loose<'a>,
    #[serde(borrow, default)]
    destinatarios: Loose<'a>,
    #[serde(borrow, default)]
    precio: Loose<'a>,
    #[serde(borrow, default)]
    fecha_inicio: Loose<'a>,
    #[serde(borrow, default)]
    fecha_fin: Loose<'a>,
    #[serde(borrow, default)]
    hora_inicio: Loose<'a>,
    #[serde(borrow, default)]
    hora_fin: Loose<'a>,
    #[serde(borrow, default)]
    lugar_celebracion: Loose<'a>,
    #[serde(borrow, default)]
    nombre_localidad: Loose<'a>,
    #[serde(borrow, default)]
    nombre_provincia: Loose<'a>,
    #[serde(borrow, default)]
    latitud: Loose<'a>,
    #[serde(borrow, default)]
    longitud: Loose<'a>,
    /// `[lat, lon]`.
    #[serde(borrow, default)]
    posicion: LooseList<'a>,
    #[serde(borrow, default)]
    enlace_contenido: Loose<'a>,
    /// The portal export's wrapper: the record itself.
    #[serde(borrow, default)]
    fields: Nested<Box<Fields<'a>>>,
    /// The portal export's GeoJSON point, `coordinates: [lon, lat]`.
    #[serde(borrow, default)]
    geometry: Nested<Geometry<'a>>,
}

#[derive(serde::Deserialize)]
struct Geometry<'a> {
    #[serde(borrow, default)]
    coordinates: LooseList<'a>,
}

/// `Tiemblo (El)` → `El Tiemblo`, as the portal files place names.
fn place_name(s: &str) -> Option<String> {
    let s = one_line(s);
    if let Some((name, article)) = s.strip_suffix(')').and_then(|r| r.rsplit_once(" (")) {
        if ["El", "La", "Los", "Las", "Les", "O", "A", "Os", "As"].contains(&article) {
            return Some(format!("{article} {name}"));
        }
        if article == "L'" {
            return Some(format!("L'{name}"));
        }
    }
    non_empty(&s)
}

/// The portal cuts long descriptions mid-tag and appends "...(Información
/// completa en la ficha del <a>contenido</a> )". Cut the marker and any tag
/// left open before it, so that no half tag (an `<img src=…` with its image
/// URL) reaches the text; mark the cut with "…".
fn untruncate(html: &str) -> (String, bool) {
    let markers = ["(Información completa en la ficha", "(Informaci&oacute;n completa en la ficha"];
    let Some(cut) = markers.iter().filter_map(|m| html.find(m)).min() else { return (html.to_string(), false) };
    let mut kept = html[..cut].trim_end().trim_end_matches(['.', '…']);
    while let Some(lt) = kept.rfind('<') {
        if kept[lt..].contains('>') {
            break;
        }
        kept = &kept[..lt];
    }
    (kept.to_string(), true)
}

fn coordinates(f: &Fields, outer: &Fields) -> Option<(f64, f64)> {
    if let (Some(lat), Some(lon)) = (decimal(f.latitud.as_str()), decimal(f.longitud.as_str())) {
        return Some((lat, lon));
    }
    let pos: Vec<&str> = f.posicion.items().collect();
    match pos.as_slice() {
        [lat, lon] => return decimal(lat).zip(decimal(lon)),
        [both] => return both.split_once(',').and_then(|(a, b)| decimal(a).zip(decimal(b))),
        _ => {}
    }
    let point: Vec<&str> = outer.geometry.0.as_ref()?.coordinates.items().collect();
    match point.as_slice() {
        [lon, lat] => decimal(lat).zip(decimal(lon)),
        _ => None,
    }
}

/// One record as an event: the portal export wraps it in `fields`.
fn map(outer: &Fields, lang: &str, position: usize) -> Result<Event, RecordError> {
    let f = outer.fields.0.as_deref().unwrap_or(outer);
    let id = f.id_evento.as_str();
    let err = |reason: String| {
        RecordError::new(if id.is_empty() { format!("record #{position}") } else { id.to_string() }, reason).with_id(Some(id))
    };
    let mut ev = Event::new(id, &html_to_line(f.titulo.as_str()), lang).map_err(err)?;
    let (html, truncated) = untruncate(f.descripcion.as_str());
    ev.description = html_to_text(&html);
    if truncated {
        ev.description.push_str(" …");
    }
    ev.url = non_empty(f.enlace_contenido.as_str());

    let first = parse_date(f.fecha_inicio.as_str()).ok_or_else(|| err("bad start date in fecha_inicio".into()))?;
    let last = match f.fecha_fin.as_str() {
        "" => None,
        s => Some(parse_date(s).ok_or_else(|| err("bad end date in fecha_fin".into()))?),
    };
    if last.is_some_and(|l| l < first) {
        return Err(err("ends before it starts (fecha_fin before fecha_inicio)".into()));
    }
    // "20:00", "20:30 h.", or free text: a time found in it, else all-day.
    let (start_time, text_end) = match parse_time(f.hora_inicio.as_str()) {
        Some(t) => (Some(t), None),
        None => match hours_in_text(f.hora_inicio.as_str()) {
            Some((t, end)) => (Some(t), end),
            None => (None, None),
        },
    };
    let end_time = parse_time(f.hora_fin.as_str()).or(text_end).filter(|e| start_time.is_some_and(|s| *e > s));
    ev.schedule = Schedule::from_span(first, last, start_time, end_time, vec![], vec![]);

    ev.price = non_empty(&html_to_line(f.precio.as_str()));
    ev.free = ev.price.as_deref().and_then(free_from_text);
    ev.audience = non_empty(&one_line(f.destinatarios.as_str()));

    let v = &mut ev.venue;
    v.name = place_name(f.lugar_celebracion.as_str());
    v.locality = place_name(f.nombre_localidad.as_str());
    v.province = non_empty(&one_line(f.nombre_provincia.as_str()));
    if let Some((lat, lon)) = coordinates(f, outer) {
        v.set_coordinates(lat, lon);
    }

    // The theme is the more specific label; the category counts only when
    // the theme maps to nothing. Family audiences add Family.
    let theme = one_line(f.tematica.as_str());
    let category = one_line(f.categoria.as_str());
    for label in [&theme, &category] {
        if !label.is_empty() && !ev.source_categories.contains(label) {
            ev.source_categories.push(label.clone());
        }
    }
    if let Some(c) = Category::from_label(&theme).or_else(|| Category::from_label(&category)) {
        ev.categories.push(c);
    }
    add_audience(&mut ev.categories, ev.audience.as_deref());
    Ok(ev)
}
