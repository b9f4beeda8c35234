//! do.diba.cat, the Diputació de Barcelona's tourist agenda (`actesturisme`).
//!
//! Reviewed 2026-11-30. Three feeds of one agenda: the Catalan original and
//! the publisher's own Spanish and English versions, keyed by the same
//! `acte_id`. Each is parsed on its own into events in its language; the
//! core merges the translation feeds into the primary events by id.

use crate::adapter::*;
use crate::model::{Category, Event, Schedule};
use crate::parse::dates::{parse_datetime, real_time};
use crate::parse::loose::{Loose, Nested};
use crate::parse::loose_list::LooseList;
use crate::parse::number::decimal;
use crate::parse::occurrences::hours_in_text;
use crate::parse::price::free_from_text;
use crate::parse::text::{html_to_line, html_to_text, non_empty, one_line};
use crate::records::json;
use std::io::BufRead;
use std::time::Duration;

pub struct Diba;

pub static MANIFEST: Manifest = Manifest {
    id: "diba",
    name: "Agenda d'activitats de turisme",
    publisher: "Diputació de Barcelona",
    host: "do.diba.cat",
    feeds: &[
        Feed {
            url: "https://do.diba.cat/api/dataset/actesturisme_ca/format/json/pag-ini/1/pag-fi/1000",
            format: Format::Json,
            lang: "ca",
            role: FeedRole::Primary,
            paging: Paging::Whole,
        },
        Feed {
            url: "https://do.diba.cat/api/dataset/actesturisme_es/format/json/pag-ini/1/pag-fi/1000",
            format: Format::Json,
            lang: "es",
            role: FeedRole::Translation,
            paging: Paging::Whole,
        },
        Feed {
            url: "https://do.diba.cat/api/dataset/actesturisme_en/format/json/pag-ini/1/pag-fi/1000",
            format: Format::Json,
            lang: "en",
            role: FeedRole::Translation,
            paging: Paging::Whole,
        },
    ],
    plan: FetchPlan::All,
    redirects: &[RedirectRule { host: "do.diba.cat", path_prefix: "/api/dataset/" }],
    min_delay: Duration::from_secs(10),
    // Three requests per run, eight runs a day: 36 leaves room for retries.
    daily_cap: 36,
    language: "ca",
    // Spain's outline only: a tighter box (the province of Barcelona) would
    // drop the Canary Islands venue its tests read the time zone of.
    region: &[],
    licence: Licence { name: "Creative Commons Attribution 4.0 (CC BY 4.0)", url: "https://creativecommons.org/licenses/by/4.0/" },
    attribution: "Diputació de Barcelona",
    dataset_page: "https://do.diba.cat/dataset/actesturisme_ca",
    links: EventLinks::EventPage,
    update_schedule: "daily (the API serves the agenda as currently published)",
    review: Review {
        date: "2026-11-30",
        robots_txt: "Crawl-delay: 10 for all agents, kept as min_delay (P8); no Disallow covers /api/dataset/ for CityVibeBot or *.",
        robots_sha256: None,
        robots: RobotsReview::Read,
        notes: "Each element carries email[], telefon_contacte[], fax[] (contact data), imatge[] (photos), director (a person) and \
                rel_municipis.grup_ajuntament (the town hall's phone, fax, e-mail, CIF), plus municipi_escut/municipi_vista \
                image URLs: the typed record has no field for any of them, so serde skips them unread. Descriptions and \
                observacions can still hold e-mails and phones: the core scrubs them (P5). Licence from the envelope's llicencia.",
    },
};

impl Adapter for Diba {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        json::read_records::<Acte>(body, Some("elements"), sink, |acte, position| map(&acte, feed.lang, position))
            .map_err(|e| FeedError::new(format!("not a readable diba agenda (envelope with \"elements\"): {e}")))?;
        Ok(())
    }
}

/// One element of the agenda: only the fields we keep. There is on purpose
/// no `email`, `telefon_contacte`, `fax` (contact data, P5), `imatge` (photos,
/// P4), `director` (a person's name) and no `grup_ajuntament` (the town hall's
/// contacts): a field that is not here is never read.
impl json::Record for Acte<'_> {
    type Of<'de> = Acte<'de>;
    const ID_KEY: &'static str = "acte_id";
}

#[derive(serde::Deserialize)]
struct Acte<'a> {
    #[serde(borrow, default)]
    acte_id: Loose<'a>,
    #[serde(borrow, default)]
    titol: Loose<'a>,
    #[serde(borrow, default)]
    data_inici: Loose<'a>,
    #[serde(borrow, default)]
    data_fi: Loose<'a>,
    #[serde(borrow, default)]
    descripcio: Loose<'a>,
    #[serde(borrow, default)]
    observacions: Loose<'a>,
    #[serde(borrow, default)]
    acte_url: Loose<'a>,
    #[serde(borrow, default)]
    preu: Loose<'a>,
    #[serde(borrow, default)]
    tipus: Loose<'a>,
    #[serde(borrow, default)]
    categoria: LooseList<'a>,
    #[serde(borrow, default)]
    tags: LooseList<'a>,
    #[serde(borrow, default)]
    grup_adreca: Nested<Adreca<'a>>,
    #[serde(borrow, default)]
    rel_municipis: Nested<Municipi<'a>>,
}

#[derive(serde::Deserialize)]
struct Adreca<'a> {
    #[serde(borrow, default)]
    adreca_nom: Loose<'a>,
    #[serde(borrow, default)]
    adreca: Loose<'a>,
    #[serde(borrow, default)]
    codi_postal: Loose<'a>,
    #[serde(borrow, default)]
    municipi: Loose<'a>,
    #[serde(borrow, default)]
    municipi_nom: Loose<'a>,
    /// `"lat,lon"`.
    #[serde(borrow, default)]
    localitzacio: Loose<'a>,
}

/// The municipality block: only its province. Its `grup_ajuntament` (the
/// town hall's phone, fax, e-mail) and image URLs are not fields here.
#[derive(serde::Deserialize)]
struct Municipi<'a> {
    #[serde(borrow, default)]
    grup_provincia: Nested<Provincia<'a>>,
}

#[derive(serde::Deserialize)]
struct Provincia<'a> {
    #[serde(borrow, default)]
    provincia_nom: Loose<'a>,
}

/// One element of the agenda as an event.
fn map(a: &Acte, lang: &str, position: usize) -> Result<Event, RecordError> {
    let id = a.acte_id.as_str();
    let err = |reason: String| {
        RecordError::new(if id.is_empty() { format!("element #{position}") } else { id.to_string() }, reason).with_id(Some(id))
    };
    let mut ev = Event::new(id, &html_to_line(a.titol.as_str()), lang).map_err(err)?;

    let mut description = html_to_text(a.descripcio.as_str());
    let notes = html_to_text(a.observacions.as_str());
    if !notes.is_empty() {
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        description.push_str(&notes);
    }
    ev.description = description;
    ev.url = non_empty(a.acte_url.as_str());

    let start = parse_datetime(a.data_inici.as_str()).ok_or_else(|| err("bad start date in data_inici".into()))?;
    let end = match a.data_fi.as_str() {
        "" => None,
        s => Some(parse_datetime(s).ok_or_else(|| err("bad end date in data_fi".into()))?),
    };
    if end.is_some_and(|e| e.date() < start.date()) {
        return Err(err("ends before it starts (data_fi before data_inici)".into()));
    }
    // The time of day: the start's own, else one written in the notes
    // ("Sortida a les 17.30 h").
    let (start_time, end_time) = match real_time(start.time()) {
        Some(t) => (Some(t), end.and_then(|e| real_time(e.time()))),
        None => match hours_in_text(&notes) {
            Some((t, until)) => (Some(t), until),
            None => (None, None),
        },
    };
    ev.schedule = Schedule::from_span(start.date(), end.map(|e| e.date()), start_time, end_time, vec![], vec![]);

    ev.price = non_empty(&html_to_line(a.preu.as_str()));
    ev.free = ev.price.as_deref().and_then(free_from_text);

    if let Some(ad) = &a.grup_adreca.0 {
        let v = &mut ev.venue;
        v.name = non_empty(&html_to_line(ad.adreca_nom.as_str()));
        v.address = non_empty(&one_line(ad.adreca.as_str()));
        v.postal_code = non_empty(ad.codi_postal.as_str());
        v.locality = non_empty(ad.municipi.as_str()).or_else(|| non_empty(ad.municipi_nom.as_str()));
        if let Some((lat, lon)) = ad.localitzacio.as_str().split_once(',')
            && let (Some(lat), Some(lon)) = (decimal(lat), decimal(lon))
        {
            v.set_coordinates(lat, lon);
        }
    }
    let province = a.rel_municipis.0.as_ref().and_then(|m| m.grup_provincia.0.as_ref()).map(|p| p.provincia_nom.as_str()).unwrap_or("");
    ev.venue.province = non_empty(province).or_else(|| Some("Barcelona".into()));

    // The publisher's categories and type; its free tags only when those
    // map to nothing (tags also hold place names and internal markers such
    // as "000. NO MOSTRAR FORMULARI", which are never kept).
    for label in a.categoria.items().chain(non_empty(a.tipus.as_str()).as_deref()).map(one_line) {
        if let Some(c) = Category::from_label(&label).filter(|c| !ev.categories.contains(c)) {
            ev.categories.push(c);
        }
        if !ev.source_categories.contains(&label) {
            ev.source_categories.push(label);
        }
    }
    if ev.categories.is_empty() {
        let place = ev.venue.locality.clone().unwrap_or_default();
        for tag in a.tags.items().filter(|t| !t.starts_with(|c: char| c.is_ascii_digit()) && *t != place) {
            if let Some(c) = Category::from_label(tag).filter(|c| !ev.categories.contains(c)) {
                ev.categories.push(c);
            }
        }
    }
    Ok(ev)
}
