//! opendata.euskadi.eus: Kulturklik, the Basque Government's cultural
//! agenda of the Basque Country and Navarra (review in the manifest).
//!
//! One JSONP feed (`jsonCallback([ … ]);`, read by the JSON driver), every
//! value a string. What this feed asks of the mapping, each from the kit:
//! titles wrapped whole in quotes lose them (`parse::text::unwrap_quotes`);
//! prices whose euro sign became `?` read `€` (`parse::price::restore_lost_euro`);
//! dates `dd/mm/yyyy` without a time (`parse::dates::read_date`) and a
//! free-text `eventTimeTable` (`parse::week_hours`); the place given twice
//! (`municipality`/`MunicipioNombre`, `territory`/`TerritoriohistoricoNombre`,
//! `latitudelongitude`/`latwgs84`+`lonwgs84`) read as one; the event's id is
//! the 16-digit number in `friendlyUrl`, its page. The original language
//! changes from record to record (Spanish or Basque titles): the parser puts
//! the record's hint in `Event::lang` (`eventLanguages`, the language the
//! event is held in), and the core decides from the title itself
//! ([`Adapter::original_languages`]).
//!
//! Not for: the per-event documents (`dataXML`, `metadataXML`, `zipFile`,
//! `physicalUrl`), which are not feed URLs and are never read.

use crate::adapter::*;
use crate::model::{Category, Event};
use crate::parse::dates::read_date;
use crate::parse::loose::Loose;
use crate::parse::number::decimal;
use crate::parse::price::{free_from_text, restore_lost_euro};
use crate::parse::text::{html_to_line, non_empty, one_line, unwrap_quotes};
use crate::parse::week_hours::hours_schedule;
use crate::records::json;
use std::io::BufRead;
use std::time::Duration;

pub struct Euskadi;

/// The feed as the portal lists it is `http://…`; the framework fetches
/// https only (P13), so the same path is asked over https. Whether the host
/// serves it there is part of the pending review.
pub static MANIFEST: Manifest = Manifest {
    id: "euskadi",
    name: "Agenda cultural de Euskadi (Kulturklik)",
    publisher: "Gobierno Vasco / Eusko Jaurlaritza (Open Data Euskadi)",
    host: "opendata.euskadi.eus",
    feeds: &[Feed {
        url: "https://opendata.euskadi.eus/contenidos/ds_eventos/agenda_cultura_euskadi/es_kultura/adjuntos/kulturklik.json",
        format: Format::Json,
        lang: "es",
        role: FeedRole::Primary,
        paging: Paging::Whole,
    }],
    plan: FetchPlan::FirstThatParses,
    redirects: &[RedirectRule { host: "opendata.euskadi.eus", path_prefix: "/contenidos/ds_eventos/agenda_cultura_euskadi/" }],
    // Cautious until robots.txt is read: no Crawl-delay is known.
    min_delay: Duration::from_secs(10),
    // One request a run, eight runs a day: 24 leaves room for retries.
    daily_cap: 24,
    language: "es",
    // The Basque Country (Álava, Bizkaia, Gipuzkoa) and Navarra. The feed
    // also lists events in the French Basque Country (Bayonne, Biarritz):
    // those keep no point (outside Spain, and outside these boxes).
    region: &[BoundingBox::new(42.40, -3.50, 43.50, -1.70), BoundingBox::new(41.88, -2.55, 43.33, -0.70)],
    licence: Licence { name: "Creative Commons Attribution 4.0 (CC BY 4.0)", url: "https://creativecommons.org/licenses/by/4.0/" },
    attribution: "Fuente: Open Data Euskadi (Gobierno Vasco / Eusko Jaurlaritza)",
    dataset_page: "https://opendata.euskadi.eus/catalogo/-/agenda-cultural-de-euskadi/",
    links: EventLinks::EventPage,
    update_schedule: "continuous (the agenda as currently published; frequency to be confirmed at review)",
    review: Review {
        date: "2026-12-06",
        robots_txt: "PENDING: no copy of https://opendata.euskadi.eus/robots.txt could be had when the adapter was written \
                     (the host is out of reach from here). Until a person reads it, only --mirror runs read this source. \
                     Licence (the portal states CC BY 4.0 for its data sets), attribution wording, update frequency and \
                     whether the feed is served over https are to be confirmed at review on the dataset page.",
        robots_sha256: None,
        robots: RobotsReview::Pending,
        notes: "No contact field in the feed (no e-mail, phone or contact name) and no description (it lives in each \
                event's dataXML). Never read: dataXML, metadataXML, zipFile and physicalUrl (per-event documents, not \
                feed URLs), eventRegistrationStartDate/EndDate (the publication window), eventOnLine, the place codes \
                (municipalitycode, territorycode, countrycode). No image field. Titles and prices are free text the \
                core scrubs of e-mails and phones all the same (P5).",
    },
};

impl Adapter for Euskadi {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        json::read_records::<Record>(body, None, sink, |r, _position| map(&r, feed.lang))
            .map_err(|e| FeedError::new(format!("not a readable Kulturklik agenda (JSONP `jsonCallback([ … ]);`): {e}")))?;
        Ok(())
    }

    /// Spanish or Basque, title by title.
    fn original_languages(&self) -> &'static [&'static str] {
        &["es", "eu"]
    }
}

/// Only the fields kept. The feed has no contact or image field; its
/// per-event documents (`dataXML`, `metadataXML`, `zipFile`,
/// `physicalUrl`) are not fields here, so they are never read.
#[derive(serde::Deserialize)]
#[allow(non_snake_case)]
struct Record<'a> {
    #[serde(borrow, default)]
    friendlyUrl: Loose<'a>,
    #[serde(borrow, default)]
    documentName: Loose<'a>,
    #[serde(borrow, default)]
    eventType: Loose<'a>,
    #[serde(borrow, default)]
    eventStartDate: Loose<'a>,
    #[serde(borrow, default)]
    eventEndDate: Loose<'a>,
    #[serde(borrow, default)]
    eventTimeTable: Loose<'a>,
    #[serde(borrow, default)]
    eventPrice: Loose<'a>,
    #[serde(borrow, default)]
    eventLanguages: Loose<'a>,
    #[serde(borrow, default)]
    placename: Loose<'a>,
    #[serde(borrow, default)]
    municipality: Loose<'a>,
    #[serde(borrow, default)]
    MunicipioNombre: Loose<'a>,
    #[serde(borrow, default)]
    territory: Loose<'a>,
    #[serde(borrow, default)]
    TerritoriohistoricoNombre: Loose<'a>,
    #[serde(borrow, default)]
    latitudelongitude: Loose<'a>,
    #[serde(borrow, default)]
    latwgs84: Loose<'a>,
    #[serde(borrow, default)]
    lonwgs84: Loose<'a>,
}

impl json::Record for Record<'_> {
    type Of<'de> = Record<'de>;
    const ID_KEY: &'static str = "friendlyUrl";

    fn id_in(url: &str) -> Option<&str> {
        event_id(url)
    }
}

/// The event's id: the 16-digit number in its page's address
/// (`…/evento/2018052312304653/el-cientifico-de-la-opera-/kulturklik/es/`).
fn event_id(url: &str) -> Option<&str> {
    url.split('/').find(|part| part.len() == 16 && part.bytes().all(|b| b.is_ascii_digit()))
}

/// The language `eventLanguages` names, as the record's hint of its
/// title's (the event's language, not the title's: the core decides).
fn hint(event_languages: &str, usual: &str) -> String {
    match event_languages.trim() {
        "Euskera" => "eu".into(),
        "Español" | "Castellano" => "es".into(),
        _ => usual.into(),
    }
}

/// One record as an event; a bad one is a record error, never a dead feed.
fn map(r: &Record, usual: &str) -> Result<Event, RecordError> {
    let url = r.friendlyUrl.as_str().trim();
    let id = event_id(url).unwrap_or("");
    let err = |why: String| RecordError::new(if id.is_empty() { url.to_string() } else { id.to_string() }, why).with_id(Some(id));
    if id.is_empty() {
        return Err(err(format!("no 16-digit event id in friendlyUrl {url:?}")));
    }
    let title = html_to_line(r.documentName.as_str());
    let mut ev = Event::new(id, unwrap_quotes(&title), &hint(r.eventLanguages.as_str(), usual)).map_err(err)?;
    ev.url = non_empty(url);

    let first = read_date("eventStartDate", r.eventStartDate.as_str()).map_err(err)?;
    let last = read_date("eventEndDate", r.eventEndDate.as_str()).map_err(err)?;
    let Some(first) = first else { return Err(err("no start date in eventStartDate".into())) };
    if last.is_some_and(|l| l < first) {
        return Err(err("ends before it starts (eventEndDate before eventStartDate)".into()));
    }
    // Free text ("20:00", "De martes a domingo: 10:00-20:00", "Arratsean"):
    // the hours kit reads its days and times. It is not kept as a
    // description: it is often in another language than the title.
    ev.schedule = hours_schedule(r.eventTimeTable.as_str(), "es", first, last);

    ev.price = non_empty(&restore_lost_euro(&one_line(r.eventPrice.as_str())));
    ev.free = ev.price.as_deref().and_then(free_from_text);

    let v = &mut ev.venue;
    v.name = non_empty(&one_line(r.placename.as_str()));
    v.locality = either(&r.municipality, &r.MunicipioNombre);
    v.province = either(&r.territory, &r.TerritoriohistoricoNombre);
    if let Some((lat, lon)) = point(r) {
        v.set_coordinates(lat, lon);
    }

    let kind = one_line(r.eventType.as_str());
    ev.categories.extend(Category::from_label(&kind));
    if !kind.is_empty() {
        ev.source_categories.push(kind);
    }
    Ok(ev)
}

/// A place the feed gives twice, in two spellings: the first, else the
/// second.
fn either(a: &Loose, b: &Loose) -> Option<String> {
    non_empty(&one_line(a.as_str())).or_else(|| non_empty(&one_line(b.as_str())))
}

/// The venue's point, given as `latwgs84` + `lonwgs84` and again as
/// `latitudelongitude` (`"lat,lon"`): one point when the two agree (or only
/// one is given), none when they disagree by more than about 100 m.
fn point(r: &Record) -> Option<(f64, f64)> {
    let pair = decimal(r.latwgs84.as_str()).zip(decimal(r.lonwgs84.as_str()));
    let joined = r.latitudelongitude.as_str().split_once(',').and_then(|(a, b)| decimal(a).zip(decimal(b)));
    match (pair, joined) {
        (Some(p), Some(j)) if (p.0 - j.0).abs() > 0.001 || (p.1 - j.1).abs() > 0.001 => None,
        (Some(p), _) => Some(p),
        (None, j) => j,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &[u8] = include_bytes!(
        "../data/samples/opendata.euskadi.eus/contenidos/ds_eventos/agenda_cultura_euskadi/es_kultura/adjuntos/kulturklik.json"
    );

    /// The sample's records read as events, the one without an id in its
    /// page's address as a named record error (the golden file and the
    /// rest: tests/it/sources/euskadi.rs).
    #[test]
    fn the_sample_parses() {
        let c = parse_bytes(&Euskadi, &MANIFEST.feeds[0], SAMPLE).expect("the sample parses");
        assert_eq!(c.events.len(), 7, "{:?}", c.errors);
        assert_eq!(c.errors.len(), 1, "{:?}", c.errors);
        assert!(c.errors[0].reason.contains("no 16-digit event id in friendlyUrl"), "{:?}", c.errors);
    }

    #[test]
    fn the_id_is_the_number_in_the_page_address() {
        let url = "http://opendata.euskadi.eus/catalogo/-/evento/2018052312304653/el-cientifico-de-la-opera-/kulturklik/es/";
        assert_eq!(event_id(url), Some("2018052312304653"));
        assert_eq!(event_id("http://opendata.euskadi.eus/catalogo/-/evento/123/x/"), None);
    }
}
