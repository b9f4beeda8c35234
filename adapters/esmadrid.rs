//! www.esmadrid.com, Madrid Destino's tourist agenda (`agenda_v1_es.xml`).
//!
//! Reviewed 2026-11-30. One XML feed of about 4.5 MB and 1,100+ `<service>`s,
//! streamed by the XML record driver: one event is built per `<service>` and
//! handed on at its end tag, so memory does not grow with the feed.
//!
//! The mapping reads a whitelist of elements and leaves everything else
//! unread. `<email>`, `<phone>`, `<fax>` (contact data, P5) and
//! `<multimedia>` (photos, P4) are the driver's `never_read`: skipped whole,
//! with their children, as soon as their start tag is seen, so their text is
//! never decoded, copied or kept in any buffer of ours.

use crate::adapter::*;
use crate::model::{Category, Event, Schedule};
use crate::parse::dates::{parse_date, parse_weekdays};
use crate::parse::number::decimal;
use crate::parse::occurrences::{hours_in_text, merge};
use crate::parse::price::free_from_text;
use crate::parse::text::{html_to_line, html_to_text, non_empty};
use crate::records::xml;
use jiff::civil::Weekday;
use std::io::BufRead;
use std::time::Duration;

pub struct Esmadrid;

pub static MANIFEST: Manifest = Manifest {
    id: "esmadrid",
    name: "Agenda turística de esMADRID",
    publisher: "Madrid Destino",
    host: "www.esmadrid.com",
    feeds: &[Feed {
        url: "https://www.esmadrid.com/opendata/agenda_v1_es.xml",
        format: Format::Xml,
        lang: "es",
        role: FeedRole::Primary,
        paging: Paging::Whole,
    }],
    plan: FetchPlan::FirstThatParses,
    redirects: &[RedirectRule { host: "www.esmadrid.com", path_prefix: "/opendata/" }],
    min_delay: Duration::from_secs(10),
    // One request per run, eight runs a day: 12 leaves room for retries.
    daily_cap: 12,
    language: "es",
    // The Comunidad de Madrid, generously: the city agenda's venues lie in it.
    region: &[BoundingBox::new(39.85, -4.60, 41.20, -3.03)],
    licence: Licence {
        name: "Condiciones de uso de los datos abiertos de esMADRID (reutilización con cita de la fuente; las fotografías no se ceden)",
        url: "https://www.esmadrid.com/datos-abiertos",
    },
    attribution: "Fuente: esMADRID.com, Madrid Destino",
    dataset_page: "https://www.esmadrid.com/datos-abiertos",
    links: EventLinks::EventPage,
    update_schedule: "daily (the XML is regenerated every day)",
    review: Review {
        date: "2026-11-30",
        robots_txt: "Crawl-delay: 10 for all agents, kept as min_delay (P8); no Disallow covers /opendata/ for CityVibeBot or *.",
        robots_sha256: None,
        robots: RobotsReview::Read,
        notes: "Licence URL is the reviewer's best reading of esMADRID's open-data terms page (separate from the site's general legal notice); \
                it restricts the use of photographs, which we never fetch or keep anyway. The next review must confirm the URL. \
                Contact data sits in <basicData><email>, <phone>, <fax>; images in <multimedia><media><url>. The parser skips those \
                elements whole (quick-xml read_to_end) the moment their start tag appears: their text is never decoded, copied or \
                buffered by us, and the event has no field for them. Descriptions (<body>) still pass the core's PII scrub.",
    },
};

/// Elements skipped whole by the driver, with their children: contact data
/// (P5) and photos (P4), whatever the whitelist below says.
const NEVER_READ: [&str; 4] = ["email", "phone", "fax", "multimedia"];

impl Adapter for Esmadrid {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        parse_stream(feed.lang, body, sink)
    }
}

/// The text kept of one `<service>`, as published.
#[derive(Debug, Default)]
struct Service {
    id: String,
    name: String,
    title: String,
    body: String,
    web: String,
    venue: String,
    address: String,
    zipcode: String,
    locality: String,
    area: String,
    lat: String,
    lon: String,
    price: String,
    hours: String,
    categories: Vec<Categoria>,
    ranges: Vec<Range>,
}

/// A publisher category and its subcategories, as labelled.
#[derive(Debug, Default)]
struct Categoria {
    label: String,
    subs: Vec<String>,
}

#[derive(Debug, Default)]
struct Range {
    start: String,
    days: String,
    end: String,
}

/// Where the records are; what is never read.
const SHAPE: xml::Shape = xml::Shape { root: "serviceList", record: "service", never_read: &NEVER_READ };

fn parse_stream(lang: &str, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
    xml::read(body, &SHAPE, sink, |node, position| {
        if node.children.is_empty() && node.text().trim().is_empty() {
            return Err(RecordError::new(record_name(node.attribute("id"), position), "empty <service> element"));
        }
        build(&Service::read(node), lang, position)
    })
    .map_err(|e| FeedError::new(format!("not a readable esmadrid agenda: {e}")))?;
    Ok(())
}

impl Service {
    /// The text kept of one `<service>`: the whitelist, read by name where
    /// the feed publishes it. An element named twice has its texts joined.
    fn read(service: &xml::Node) -> Service {
        let basic = |name| texts(service.children_named("basicData"), name);
        let geo = |name| texts(service.children_named("geoData"), name);
        let extra = |name| items(service.children_named("extradata"), name);
        Service {
            id: service.attribute("id").to_string(),
            name: basic("name"),
            title: basic("title"),
            body: basic("body"),
            web: basic("web"),
            venue: basic("nombrert"),
            address: geo("address"),
            zipcode: geo("zipcode"),
            locality: geo("locality"),
            area: geo("subAdministrativeArea"),
            lat: geo("latitude"),
            lon: geo("longitude"),
            price: extra("Servicios de pago"),
            hours: extra("Horario"),
            categories: blocks(service, "categorias").flat_map(|c| c.children_named("categoria")).map(Categoria::read).collect(),
            ranges: blocks(service, "fechas").flat_map(|f| f.children_named("rango")).map(Range::read).collect(),
        }
    }
}

impl Categoria {
    /// A `<categoria>`: its `Categoria` item, and each `SubCategoria` item
    /// in it or in its `<subcategorias><subcategoria>`, in document order.
    fn read(categoria: &xml::Node) -> Categoria {
        let mut c = Categoria::default();
        c.gather(categoria);
        c
    }

    fn gather(&mut self, node: &xml::Node) {
        for child in &node.children {
            match (node.name.as_str(), child.name.as_str(), child.attribute("name")) {
                (_, "item", "Categoria") => self.label.push_str(child.text()),
                (_, "item", "SubCategoria") => self.subs.push(child.text().to_string()),
                ("categoria", "subcategorias", _) | ("subcategorias", "subcategoria", _) => self.gather(child),
                _ => {}
            }
        }
    }
}

impl Range {
    /// A `<rango>`: its `<inicio>`, `<dias>` and `<fin>`.
    fn read(rango: &xml::Node) -> Range {
        let text = |name| texts(std::iter::once(rango), name);
        Range { start: text("inicio"), days: text("dias"), end: text("fin") }
    }
}

/// The texts of the children named `name` of `parents`, joined in order.
fn texts<'a>(parents: impl Iterator<Item = &'a xml::Node>, name: &str) -> String {
    parents.flat_map(|p| p.children_named(name)).map(xml::Node::text).collect()
}

/// The texts of the `<item name="…">`s so named among `parents`' children.
fn items<'a>(parents: impl Iterator<Item = &'a xml::Node>, name: &str) -> String {
    parents.flat_map(|p| p.children_named("item")).filter(|i| i.attribute("name") == name).map(xml::Node::text).collect()
}

/// A service's `name` elements, its own and its `<extradata>`'s, in
/// document order: `<categorias>` and `<fechas>` are read in either place.
fn blocks<'a>(service: &'a xml::Node, name: &'a str) -> impl Iterator<Item = &'a xml::Node> {
    service.children.iter().flat_map(move |c| {
        let inner = if c.name == "extradata" { c.children.as_slice() } else { std::slice::from_ref(c) };
        inner.iter().filter(move |n| n.name == name)
    })
}

fn record_name(id: &str, position: usize) -> String {
    if id.trim().is_empty() { format!("service #{position}") } else { id.trim().to_string() }
}

/// `1,2,3` (1 = Monday … 7 = Sunday) or day names/initials. All seven days
/// mean no restriction at all.
fn weekdays(days: &str) -> Vec<Weekday> {
    let mut out: Vec<Weekday> = Vec::new();
    for item in days.split([',', ';', ' ', '-']).map(str::trim).filter(|s| !s.is_empty()) {
        let day = match item.parse::<i8>() {
            Ok(n @ 1..=7) => Weekday::from_monday_one_offset(n).ok(),
            Ok(_) => None,
            Err(_) => parse_weekdays(item).first().copied(),
        };
        if let Some(d) = day.filter(|d| !out.contains(d)) {
            out.push(d);
        }
    }
    if out.len() == 7 {
        out.clear();
    }
    out.sort_by_key(|d| d.to_monday_zero_offset());
    out
}

fn build(s: &Service, lang: &str, position: usize) -> Result<Event, RecordError> {
    let err = |reason: String| RecordError::new(record_name(&s.id, position), reason).with_id(Some(&s.id));
    if s.id.trim().is_empty() {
        return Err(err("service has no id attribute".into()));
    }
    let title = if s.name.trim().is_empty() { &s.title } else { &s.name };
    let mut ev = Event::new(&s.id, &html_to_line(title), lang).map_err(err)?;
    ev.description = html_to_text(&s.body);
    ev.url = non_empty(&s.web);

    // Dates: one schedule per <rango>, merged.
    let (start_time, end_time) = match hours_in_text(&html_to_text(&s.hours)) {
        Some((start, end)) => (Some(start), end),
        None => (None, None),
    };
    let mut parts: Vec<Schedule> = Vec::new();
    for r in s.ranges.iter().filter(|r| !(r.start.trim().is_empty() && r.end.trim().is_empty())) {
        let first = parse_date(&r.start).ok_or_else(|| err("bad start date in <inicio>".into()))?;
        let last = match r.end.trim() {
            "" => None,
            end => Some(parse_date(end).ok_or_else(|| err("bad end date in <fin>".into()))?),
        };
        if last.is_some_and(|l| l < first) {
            return Err(err("range ends before it starts (<fin> before <inicio>)".into()));
        }
        parts.push(Schedule::from_span(first, last, start_time, end_time, weekdays(&r.days), vec![]));
    }
    if parts.is_empty() {
        return Err(err("no dates (<fechas><rango>)".into()));
    }
    ev.schedule = merge(parts);

    ev.price = non_empty(&html_to_line(&s.price));
    ev.free = ev.price.as_deref().and_then(free_from_text);

    let v = &mut ev.venue;
    v.name = non_empty(&html_to_line(&s.venue));
    v.address = non_empty(&html_to_line(&s.address));
    v.postal_code = non_empty(&s.zipcode);
    v.locality = non_empty(&html_to_line(&s.locality));
    v.province = non_empty(&html_to_line(&s.area)).or_else(|| Some("Madrid".into()));
    if let (Some(lat), Some(lon)) = (decimal(&s.lat), decimal(&s.lon)) {
        v.set_coordinates(lat, lon);
    }

    (ev.categories, ev.source_categories) = categories(&s.categories);
    Ok(ev)
}

/// The publisher's labels, category then subcategories, and CityVibe's
/// categories for them. The most specific label wins: a subcategory's
/// mapping when it has one (family aside, which is an audience more than a
/// genre); the category's otherwise, where a label naming two things
/// ("Teatro y danza") gives both.
fn categories(list: &[Categoria]) -> (Vec<Category>, Vec<String>) {
    let mut cats: Vec<Category> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    for c in list {
        let label = html_to_line(&c.label);
        let subs: Vec<String> = c.subs.iter().map(|l| html_to_line(l)).filter(|l| !l.is_empty()).collect();
        let sub_cats: Vec<Category> = subs.iter().filter_map(|l| Category::from_label(l)).collect();
        let mut found = Vec::new();
        if sub_cats.iter().all(|c| *c == Category::Family) {
            found
                .extend(label.split([',', '/']).flat_map(|p| p.split(" y ")).flat_map(|p| p.split(" e ")).filter_map(Category::from_label));
        }
        found.extend(sub_cats);
        for cat in found {
            if !cats.contains(&cat) {
                cats.push(cat);
            }
        }
        for l in std::iter::once(label).chain(subs).filter(|l| !l.is_empty()) {
            if !labels.contains(&l) {
                labels.push(l);
            }
        }
    }
    (cats, labels)
}
