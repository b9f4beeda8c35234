//! analisi.transparenciacatalunya.cat: the Generalitat de Catalunya's
//! "Agenda cultural de Catalunya" (Socrata dataset `rhpv-yr4f`), in Catalan
//! only: the publisher gives no Spanish, so the events' original language
//! is `ca` and every other language is translated from it.
//!
//! Written with `cityvibe adapter new`; the manifest is reviewed except for
//! the host's robots.txt, which could not be read here (see `review`).
//! The SODA API serves the dataset in pages (`$limit`, `$offset`) in a
//! stable order (`$order=codi`): the framework asks page after page
//! (`Paging::LimitOffset`), and the parser reads each page as a JSON array.
//! One `codi` can stand on several rows (copies and edited versions): the
//! framework keeps one event per id, the last row winning.

use crate::adapter::*;
use crate::model::{Category, Event};
use crate::parse::dates::read_date;
use crate::parse::loose::Loose;
use crate::parse::number::decimal;
use crate::parse::places::catalan_town;
use crate::parse::price::free_from_text;
use crate::parse::text::{html_to_line, html_to_text, non_empty, one_line};
use crate::parse::week_hours::{schedule, week_hours};
use crate::records::json;
use std::io::BufRead;
use std::time::Duration;

pub struct Gencat;

/// The dataset's page, where a person reads its licence and terms.
const DATASET_PAGE: &str = "https://analisi.transparenciacatalunya.cat/d/rhpv-yr4f";

pub static MANIFEST: Manifest = Manifest {
    id: "gencat",
    name: "Agenda cultural de Catalunya",
    publisher: "Generalitat de Catalunya, Departament de Cultura",
    host: "analisi.transparenciacatalunya.cat",
    feeds: &[Feed {
        url: "https://analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi",
        format: Format::Json,
        lang: "ca",
        role: FeedRole::Primary,
        // SODA's own page size when none is asked; 30 pages bound a run
        // (the dataset's size is to be confirmed at review).
        paging: Paging::LimitOffset { limit: "$limit", offset: "$offset", size: 1000, max_pages: 30 },
    }],
    plan: FetchPlan::FirstThatParses,
    redirects: &[RedirectRule { host: "analisi.transparenciacatalunya.cat", path_prefix: "/resource/rhpv-yr4f" }],
    // Catalonia, generously (south, west, north, east): a point outside is dropped and counted.
    region: &[BoundingBox::new(40.45, 0.10, 42.90, 3.40)],
    // Cautious until robots.txt is read (no Crawl-delay known).
    min_delay: Duration::from_secs(10),
    // Up to 30 pages a run, eight runs a day, and room for retries.
    daily_cap: 300,
    language: "ca",
    licence: Licence {
        name: "Llicència oberta d'ús d'informació de la Generalitat de Catalunya (reutilització amb citació de la font)",
        url: "https://governobert.gencat.cat/ca/dades_obertes/llicencia-oberta-informacio-catalunya/",
    },
    attribution: "Font: Generalitat de Catalunya, Agenda cultural de Catalunya (analisi.transparenciacatalunya.cat)",
    dataset_page: DATASET_PAGE,
    // The record has no page of its own: its first link, or the organiser's site, or the dataset page.
    links: EventLinks::MoreInformation,
    update_schedule: "daily (the agenda is published as the Departament de Cultura edits it; to be confirmed at review)",
    review: Review {
        date: "2026-12-02",
        robots_txt: "PENDING: no copy of https://analisi.transparenciacatalunya.cat/robots.txt could be read when the adapter was written; \
                     a person must read it (CityVibeBot and * groups, Crawl-delay) and write what it says here. Until then \
                     min_delay is a cautious 10 s.",
        robots_sha256: None,
        notes: "Licence and attribution as the publisher states them for its open data (the Generalitat's open-information \
                licence: reuse citing the source), to be confirmed on the dataset page at review. Contact data: email and \
                tel_fon (about 400 rows carry a phone, 200 an e-mail); images and media: imatges, imgapp, v_deos, documents. \
                None is a field of the typed record, so serde skips them unread (P4, P5). Descriptions (descripcio, \
                descripcio_html) and horari can still hold phones and e-mails: the core scrubs them. The texts are Catalan \
                only. The event has no page of its own in the record: its first link (enlla_os) that is not the agenda's \
                search or home page, else the organiser's url, else the dataset page, is linked as more information.",
        robots: RobotsReview::Pending,
    },
};

impl Adapter for Gencat {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        json::read_records::<Row>(body, None, sink, |row, position| map(&row, feed.lang, position))
            .map_err(|e| FeedError::new(format!("not a page of the SODA dataset (a JSON array of rows): {e}")))?;
        Ok(())
    }
}

/// One row of the dataset: only the fields CityVibe keeps (Socrata's
/// shortened Catalan column names; an empty field is absent). There is on
/// purpose no `email`, `tel_fon` (contact data, P5), `imatges`, `imgapp`,
/// `v_deos` or `documents` (images and media, P4): a field that is not
/// here is never read.
#[derive(serde::Deserialize)]
struct Row<'a> {
    #[serde(borrow, default)]
    codi: Loose<'a>,
    #[serde(borrow, default)]
    denominaci: Loose<'a>,
    #[serde(borrow, default)]
    subt_tol: Loose<'a>,
    #[serde(borrow, default)]
    descripcio: Loose<'a>,
    #[serde(borrow, default)]
    descripcio_html: Loose<'a>,
    #[serde(borrow, default)]
    data_inici: Loose<'a>,
    #[serde(borrow, default)]
    data_fi: Loose<'a>,
    #[serde(borrow, default)]
    horari: Loose<'a>,
    #[serde(borrow, default)]
    entrades: Loose<'a>,
    #[serde(borrow, default)]
    tags_mbits: Loose<'a>,
    #[serde(borrow, default)]
    tags_categor_es: Loose<'a>,
    #[serde(borrow, default)]
    comarca_i_municipi: Loose<'a>,
    #[serde(borrow, default)]
    espai: Loose<'a>,
    #[serde(borrow, default)]
    adre_a: Loose<'a>,
    #[serde(borrow, default)]
    localitat: Loose<'a>,
    #[serde(borrow, default)]
    codi_postal: Loose<'a>,
    #[serde(borrow, default)]
    latitud: Loose<'a>,
    #[serde(borrow, default)]
    longitud: Loose<'a>,
    #[serde(borrow, default)]
    enlla_os: Loose<'a>,
    #[serde(borrow, default)]
    url: Loose<'a>,
}

impl json::Record for Row<'_> {
    type Of<'de> = Row<'de>;
    const ID_KEY: &'static str = "codi";
}

/// The agenda's own pages among a row's links: its search and its home,
/// never the event's original.
const AGENDA_HOST: &str = "agenda.cultura.gencat.cat";

/// What `localitat` says of an event held in several towns.
const SEVERAL_TOWNS: &str = "Diferents municipis";

/// Provinces as the location paths write them (`agenda:ubicacions/PROVINCE/…`).
const PROVINCES: [(&str, &str); 4] = [("barcelona", "Barcelona"), ("girona", "Girona"), ("lleida", "Lleida"), ("tarragona", "Tarragona")];

/// One row as an event; a bad row is a record error naming the field.
fn map(r: &Row, lang: &str, position: usize) -> Result<Event, RecordError> {
    let id = r.codi.as_str().trim();
    let err = |reason: String| {
        RecordError::new(if id.is_empty() { format!("row #{position}") } else { id.to_string() }, reason).with_id(Some(id))
    };
    let mut ev = Event::new(id, &html_to_line(r.denominaci.as_str()), lang).map_err(err)?;

    let html = r.descripcio_html.as_str();
    ev.description = html_to_text(if html.trim().is_empty() { r.descripcio.as_str() } else { html });

    // `2021-02-28T00:00:00.000`: the date, in the plausible window (a junk
    // year such as 0021 or 2222 is a record error naming its field).
    let date = |field: &str, value: &str| read_date(field, value.split('T').next().unwrap_or_default()).map_err(&err);
    let first = date("data_inici", r.data_inici.as_str())?.ok_or_else(|| err("data_inici is empty".into()))?;
    let last = date("data_fi", r.data_fi.as_str())?;
    if last.is_some_and(|l| l < first) {
        return Err(err(format!("data_fi {} is before data_inici {}", r.data_fi.as_str(), r.data_inici.as_str())));
    }
    // The dates carry no time (always 00:00): the times are in `horari`.
    // Each day as `horari` names it, an opening night one dated occurrence
    // (the kit: `week_hours`, Catalan words in data/lang/ca/hours.tsv).
    let hours = html_to_line(r.horari.as_str());
    let reading = week_hours(&hours, lang);
    ev.schedule = schedule(first, last, &reading);
    // What the kit could not read stays for the reader, as the publisher wrote it.
    if reading.is_empty() && !hours.is_empty() && !ev.description.contains(&hours) {
        ev.description = if ev.description.is_empty() { hours.clone() } else { format!("{}\n\n{hours}", ev.description) };
    }

    ev.price = non_empty(&html_to_line(r.entrades.as_str()));
    ev.free = ev.price.as_deref().and_then(free_from_text);

    let v = &mut ev.venue;
    v.name = non_empty(&html_to_line(r.espai.as_str()));
    v.address = non_empty(&one_line(r.adre_a.as_str()));
    v.postal_code = non_empty(r.codi_postal.as_str().trim());
    let mut place =
        r.comarca_i_municipi.as_str().split(',').next().unwrap_or("").trim().trim_start_matches("agenda:ubicacions/").split('/');
    let province = place.next().unwrap_or("");
    v.province = PROVINCES.iter().find(|(slug, _)| *slug == province).map(|(_, name)| name.to_string());
    // The publisher's own `localitat` first; else the municipality of the
    // slug by its official name (`parse::places`, Idescat's register), else
    // the slug's words. One event "in different municipalities" repeats its
    // row once per province ("Diferents municipis de Girona"…): each row
    // says the same, so the last row read does not make it one province's.
    let localitat = one_line(r.localitat.as_str());
    v.locality = match localitat.strip_prefix(SEVERAL_TOWNS) {
        Some(_) => Some(SEVERAL_TOWNS.to_string()),
        None => non_empty(&localitat),
    }
    .or_else(|| place.nth(1).map(|slug| catalan_town(slug).unwrap_or_else(|| locality_of_slug(slug))));
    if let (Some(lat), Some(lon)) = (decimal(r.latitud.as_str()), decimal(r.longitud.as_str())) {
        v.set_coordinates(lat, lon);
    }

    ev.url = r
        .enlla_os
        .as_str()
        .split(',')
        .map(str::trim)
        .find(|u| u.starts_with("http") && !u.contains(AGENDA_HOST))
        .map(str::to_string)
        .or_else(|| non_empty(r.url.as_str().trim()))
        .or_else(|| Some(DATASET_PAGE.to_string()));

    // The subtitle, when it is a genre ("Concert", "Espectacle infantil"),
    // is one of the publisher's labels; a subtitle of another kind (a
    // programme) is not kept: the event has no field for it.
    let subtitle = html_to_line(r.subt_tol.as_str());
    if let Some(c) = Category::from_label(&subtitle) {
        ev.categories.push(c);
        ev.source_categories.push(subtitle);
    }
    // The publisher's categories and fields (`agenda:categories/teatre`):
    // the last part of each path, as a label.
    for path in r.tags_categor_es.as_str().split(',').chain(r.tags_mbits.as_str().split(',')) {
        let Some(label) = path.trim().rsplit('/').next().filter(|l| !l.is_empty() && path.contains('/')) else { continue };
        let label = label.replace('-', " ");
        if let Some(c) = Category::from_label(&label).filter(|c| !ev.categories.contains(c)) {
            ev.categories.push(c);
        }
        if !ev.source_categories.contains(&label) {
            ev.source_categories.push(label);
        }
    }
    Ok(ev)
}

/// A town no municipality's slug matches (`sant-salvador`): words
/// capitalised but the small ones (`Sant Salvador`). The slug has lost its
/// accents; a municipality takes its official name (`catalan_town`).
fn locality_of_slug(slug: &str) -> String {
    const SMALL: [&str; 8] = ["de", "del", "dels", "la", "les", "el", "els", "i"];
    slug.split('-')
        .filter(|w| !w.is_empty())
        .enumerate()
        .map(|(i, w)| {
            if i > 0 && SMALL.contains(&w) {
                w.to_string()
            } else {
                let mut c = w.chars();
                c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    /// The hand-written sample (invented rows in the real page's shape), as
    /// `--mirror data/samples` serves the first page.
    const SAMPLE: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/samples/analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0"
    ));

    #[test]
    fn sample_parses_without_contact_data_or_images() {
        let got = parse_bytes(&Gencat, &MANIFEST.feeds[0], SAMPLE).expect("the sample parses");
        // Eight rows, one id twice (the store keeps one event per id), one
        // with a junk year: a record error naming its field.
        assert_eq!(got.events.len(), 7);
        assert_eq!(got.errors.len(), 1);
        assert!(got.errors[0].reason.starts_with("data_inici is outside the plausible dates"), "{:?}", got.errors);
        let first = &got.events[0];
        assert_eq!((first.source_event_id.as_str(), first.lang.as_str()), ("20261105001", "ca"));
        assert_eq!(first.title, "Concert de Nadal de la Coral Exemple");
        assert_eq!(first.venue.province.as_deref(), Some("Girona"));
        assert_eq!(first.url.as_deref(), Some("https://www.example.com/coral-exemple/nadal"));
        // "Dissabte: 19 h  Diumenge: 11 h" over Saturday and Sunday.
        let starts: Vec<String> = first.schedule.occurrences.iter().map(|o| o.start.to_string()).collect();
        assert_eq!(starts, ["2026-12-12T19:00:00", "2026-12-13T11:00:00"]);
        let puppets = got.events.iter().find(|e| e.source_event_id == "20261105003").unwrap();
        assert_eq!(puppets.schedule.occurrences[0].start, date(2026, 12, 5).at(20, 30, 0, 0));
        assert_eq!(puppets.venue.locality.as_deref(), Some("Sant Cugat del Vallès"));
        // The sample's e-mail, phone, image and media fields are never read (P4, P5).
        let all = format!("{:?}", got.events);
        for needle in ["coral@example.com", "taquilla@example.com", "972 000 111", "600 00 00 00", ".jpg", "/video/", ".pdf"] {
            assert!(!all.contains(needle), "{needle} leaked into {all}");
        }
    }
}
