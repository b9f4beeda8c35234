//! datos.juntadeandalucia.es: the Junta de Andalucía's agenda of events it
//! organises ("Agenda de eventos organizados por la Junta de Andalucía").
//!
//! Written with `cityvibe adapter new` on 2026-12-02 from a real download
//! (January 2026). ROBOTS.TXT REVIEW PENDING: no copy of the host's
//! robots.txt could be had, so a run reads this source only through
//! `--mirror`, and its row in sources.toml ships switched off.
//!
//! One JSON feed: a bare array of records. What the feed taught the kit:
//! coordinates in UTM metres (ETRS89, zone 30; `parse::geo`), every `;` of
//! the HTML turned into `.` (`&nbsp.`; `parse::text::repair_dotted_entities`),
//! optional keys absent rather than null and `matter` null, a string or a
//! list (`parse::loose_list`), no event page (the `more_info` link, else the
//! dataset page), and events back to 2018, stored as ended.

use crate::adapter::*;
use crate::model::{Category, Event};
use crate::parse::dates::{parse_time, read_date};
use crate::parse::geo::utm_etrs89_to_degrees;
use crate::parse::loose::Loose;
use crate::parse::loose_list::{LooseList, NestedList};
use crate::parse::number::decimal;
use crate::parse::occurrences::merge;
use crate::parse::places::split_address;
use crate::parse::price::free_from_text;
use crate::parse::text::{html_to_line, html_to_text, non_empty, repair_dotted_entities};
use crate::parse::week_hours::{DayHours, WeekHours, schedule, week_hours};
use crate::records::json;
use std::io::BufRead;
use std::time::Duration;

pub struct Andalucia;

pub static MANIFEST: Manifest = Manifest {
    id: "andalucia",
    name: "Agenda de eventos organizados por la Junta de Andalucía",
    publisher: "Junta de Andalucía",
    host: "datos.juntadeandalucia.es",
    feeds: &[Feed {
        url: "https://datos.juntadeandalucia.es/api/v0/schedule/all?format=json",
        format: Format::Json,
        lang: "es",
        role: FeedRole::Primary,
        paging: Paging::Whole,
    }],
    plan: FetchPlan::FirstThatParses,
    // Only the API's own schedule path, until a hop has been seen by hand.
    redirects: &[RedirectRule { host: "datos.juntadeandalucia.es", path_prefix: "/api/v0/schedule/" }],
    // Cautious until robots.txt has been read: no Crawl-delay known.
    min_delay: Duration::from_secs(10),
    // One request per run, eight runs a day: 24 leaves room for retries.
    daily_cap: 24,
    language: "es",
    // Andalusia, generously (36.0 to 38.7 N, 7.5 to 1.6 W).
    region: &[BoundingBox::new(35.90, -7.60, 38.80, -1.55)],
    // The portal publishes its data sets under CC BY 4.0: to be confirmed on
    // the dataset page at review.
    licence: Licence { name: "Creative Commons Attribution 4.0 (CC BY 4.0)", url: "https://creativecommons.org/licenses/by/4.0/" },
    attribution: "Junta de Andalucía",
    dataset_page: "https://www.juntadeandalucia.es/datosabiertos/portal/dataset/agenda-de-eventos-organizados-por-la-junta-de-andalucia",
    links: EventLinks::MoreInformation,
    update_schedule: "continuous (an API serving the agenda as it stands; the frequency is to be confirmed at review)",
    review: Review {
        date: "2026-12-02",
        robots_txt: "PENDING: no copy of https://datos.juntadeandalucia.es/robots.txt could be had when the adapter was written; \
                     10 s chosen as a cautious delay until it is read (P8, P14). Licence and attribution as the portal states \
                     them for its data sets, to be confirmed on the dataset page.",
        robots_sha256: None,
        notes: "Never read (not in the typed record): contact (HTML with e-mails and phones, P5), image (relative photo paths, P4), \
                organizers and collaborators (may name persons), organisms. Descriptions carry e-mails and phones: scrubbed by \
                the core (P5). No event page in the record: the first more_info link, else the dataset page.",
        robots: RobotsReview::Pending,
    },
};

impl Adapter for Andalucia {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        json::read_records::<Record>(body, None, sink, |r, position| map(&r, feed.lang, position))
            .map_err(|e| FeedError::new(format!("not a readable Andalucía agenda (a JSON array of records): {e}")))?;
        Ok(())
    }
}

impl json::Record for Record<'_> {
    type Of<'de> = Record<'de>;
    const ID_KEY: &'static str = "id";
}

/// One record: only the fields CityVibe keeps. There is on purpose no
/// `contact` (e-mails and phones, P5), no `image` (P4), no `organizers` or
/// `collaborators`: a field that is not here is never read. Optional keys
/// are absent from many records, never an error.
#[derive(serde::Deserialize)]
struct Record<'a> {
    #[serde(borrow, default)]
    id: Loose<'a>,
    #[serde(borrow, default)]
    title: Loose<'a>,
    #[serde(borrow, default)]
    description: Loose<'a>,
    #[serde(borrow, default)]
    date_registration: NestedList<Span<'a>>,
    /// Free text: "De 10:00 a 14:00 horas", "20:30 horas".
    #[serde(borrow, default)]
    schedule: Loose<'a>,
    /// HTML: the place and its street address.
    #[serde(borrow, default)]
    address: Loose<'a>,
    #[serde(borrow, default)]
    location: Loose<'a>,
    #[serde(borrow, default)]
    province: NestedList<Province<'a>>,
    #[serde(borrow, default)]
    cost: Loose<'a>,
    /// `null`, a label, or a list of labels.
    #[serde(borrow, default)]
    matter: LooseList<'a>,
    #[serde(borrow, default)]
    themes: NestedList<Theme<'a>>,
    #[serde(borrow, default)]
    more_info: NestedList<MoreInfo<'a>>,
    #[serde(borrow, default)]
    coordinates: NestedList<Point<'a>>,
}

#[derive(serde::Deserialize)]
struct Span<'a> {
    #[serde(borrow, default)]
    start_date_registration: Loose<'a>,
    #[serde(borrow, default)]
    end_date_registration: Loose<'a>,
}

#[derive(serde::Deserialize)]
struct Province<'a> {
    #[serde(borrow, default)]
    province: Loose<'a>,
}

#[derive(serde::Deserialize)]
struct Theme<'a> {
    #[serde(borrow, default)]
    themes: Loose<'a>,
}

#[derive(serde::Deserialize)]
struct MoreInfo<'a> {
    #[serde(borrow, default)]
    field_url_mas_informacion: NestedList<Link<'a>>,
}

#[derive(serde::Deserialize)]
struct Link<'a> {
    #[serde(borrow, default)]
    more_info_url: Loose<'a>,
}

/// The feed's names, as it writes them: `longitude` holds the easting and
/// `latitude` the northing, in UTM metres.
#[derive(serde::Deserialize)]
struct Point<'a> {
    #[serde(borrow, default)]
    longitude: Loose<'a>,
    #[serde(borrow, default)]
    latitude: Loose<'a>,
}

/// HTML whose every `;` became `.`, as text.
fn text(html: &str) -> String {
    html_to_text(&repair_dotted_entities(html))
}

fn line(html: &str) -> String {
    html_to_line(&repair_dotted_entities(html))
}

/// The point in degrees: UTM zone 30 metres as the feed gives them, or
/// degrees should a record give those.
fn point(p: &Point) -> Option<(f64, f64)> {
    let (x, y) = (decimal(p.longitude.as_str())?, decimal(p.latitude.as_str())?);
    if y.abs() <= 90.0 && x.abs() <= 180.0 {
        return Some((y, x));
    }
    utm_etrs89_to_degrees(30, x, y)
}

/// The first http(s) link of `more_info`.
fn more_info(r: &Record) -> Option<String> {
    r.more_info.iter().flat_map(|m| m.field_url_mas_informacion.iter()).map(|l| l.more_info_url.as_str().trim()).find_map(|u| {
        url::Url::parse(u).ok().filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some()).map(|_| u.to_string())
    })
}

/// One record as an event: a bad one is a record error naming the field.
fn map(r: &Record, lang: &str, position: usize) -> Result<Event, RecordError> {
    let id = r.id.as_str().trim();
    let err = |reason: String| {
        RecordError::new(if id.is_empty() { format!("record #{position}") } else { id.to_string() }, reason).with_id(Some(id))
    };
    let mut ev = Event::new(id, &line(r.title.as_str()), lang).map_err(err)?;
    ev.description = text(r.description.as_str());
    // No event page in the record: the publisher's "more
    // information" link, else the dataset page; the manifest's `links` says
    // which, and the reader is told.
    ev.url = more_info(r).or_else(|| Some(MANIFEST.dataset_page.to_string()));

    // "Lunes a viernes de 09:00 a 14:00", "Sábados 10:30 horas": each span's
    // days as the text names them, through the kit (`week_hours`, Spanish
    // words in data/lang/es/hours.tsv); a bare "19.30" is every day's time.
    // The address field holds the venue, the street, the postal code and
    // sometimes the days it opens ("…domingos y festivos durante todo el
    // año"): taken apart (`parse::places::split_address`), the days go to the schedule.
    let lines: Vec<String> =
        text(r.address.as_str()).lines().map(|l| l.trim().trim_end_matches('.').to_string()).filter(|l| !l.is_empty()).collect();
    let place = split_address(&lines.join(". "), lang);
    let hours = line(r.schedule.as_str());
    let hours = match &place.hours {
        Some(days) => format!("{hours} {days}").trim().to_string(),
        None => hours,
    };
    let reading = match parse_time(&hours) {
        Some(t) => {
            WeekHours { weekly: vec![DayHours { days: vec![], holidays: false, start: Some(t), end: None }], ..WeekHours::default() }
        }
        None => week_hours(&hours, lang),
    };
    // What the kit could not read stays for the reader, as the publisher wrote it.
    if reading.is_empty() && !hours.is_empty() && !ev.description.contains(&hours) {
        ev.description = if ev.description.is_empty() { hours.clone() } else { format!("{}\n\n{hours}", ev.description) };
    }
    if r.date_registration.0.is_empty() {
        return Err(err("no date_registration: the event has no date".into()));
    }
    let mut schedules = Vec::new();
    for span in r.date_registration.iter() {
        let first = read_date("date_registration.start_date_registration", span.start_date_registration.as_str())
            .map_err(err)?
            .ok_or_else(|| err("date_registration.start_date_registration is missing".into()))?;
        let last = read_date("date_registration.end_date_registration", span.end_date_registration.as_str()).map_err(err)?;
        if last.is_some_and(|l| l < first) {
            return Err(err(format!("date_registration ends before it starts ({first} > {})", last.unwrap_or(first))));
        }
        schedules.push(schedule(first, last, &reading));
    }
    ev.schedule = merge(schedules);

    ev.price = non_empty(&line(r.cost.as_str()));
    ev.free = ev.price.as_deref().and_then(free_from_text);
    let v = &mut ev.venue;
    v.name = place.venue;
    v.address = place.address;
    v.postal_code = place.postal_code;
    v.locality = non_empty(&line(r.location.as_str())).or(place.town);
    v.province = r.province.iter().find_map(|p| non_empty(&line(p.province.as_str())));
    if let Some((lat, lon)) = r.coordinates.iter().find_map(point) {
        v.set_coordinates(lat, lon);
    }

    // The matter is the more specific label; the themes come after it.
    let labels = r.matter.items().map(line).chain(r.themes.iter().map(|t| line(t.themes.as_str())));
    for label in labels {
        if !label.is_empty() && !ev.source_categories.contains(&label) {
            ev.source_categories.push(label);
        }
    }
    if let Some(c) = ev.source_categories.iter().find_map(|l| Category::from_label(l)) {
        ev.categories.push(c);
    }
    Ok(ev)
}
