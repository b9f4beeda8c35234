//! analisi.transparenciacatalunya.cat: TODO the dataset's name and what it holds.
//!
//! Written by `cityvibe adapter new`. NOT REVIEWED YET: its row in
//! sources.toml is disabled. Before enabling it, do the review in
//! docs/ADAPTERS.md and replace every TODO below:
//! - read https://analisi.transparenciacatalunya.cat/robots.txt for CityVibeBot and `*`: no feed URL
//!   may be disallowed; a Crawl-delay becomes `min_delay` (P8, P14);
//! - write the exact feed URL(s) and where they may redirect (P3, P13), and
//!   move the sample to the matching path under data/samples/analisi.transparenciacatalunya.cat/;
//! - copy the licence and the attribution wording from the publisher (P19);
//! - list in `review.notes` every field of the feed that holds personal data
//!   (e-mail, phone, fax, contact names) or images, and keep them out of the
//!   typed record below (P4, P5);
//! - rewrite the sample by hand in the real feed's shape (invented data).

use crate::adapter::*;
use crate::model::{Event, Schedule};
use crate::parse::dates::{parse_date, parse_time};
use crate::parse::loose::Loose;
use crate::parse::text::{html_to_line, html_to_text, non_empty, one_line};
use crate::records::json;
use std::io::BufRead;
use std::time::Duration;

pub struct Gencat;

pub static MANIFEST: Manifest = Manifest {
    id: "gencat",
    name: "TODO: the dataset's name",
    publisher: "TODO: who publishes it",
    host: "analisi.transparenciacatalunya.cat",
    // TODO: the exact feed URL(s), written after reading robots.txt (P3, P14).
    feeds: &[Feed {
        url: "https://analisi.transparenciacatalunya.cat/TODO/gencat.json",
        format: Format::Json,
        lang: "es",
        role: FeedRole::Primary,
        paging: Paging::Whole,
    }],
    plan: FetchPlan::FirstThatParses,
    // TODO: the hosts and path prefixes a feed URL may redirect to (P13).
    redirects: &[RedirectRule { host: "analisi.transparenciacatalunya.cat", path_prefix: "/TODO/" }],
    // TODO: at least robots.txt's Crawl-delay for CityVibeBot or `*` (P8); never below 1 s.
    min_delay: Duration::from_secs(10),
    daily_cap: 40,
    language: "es",
    licence: Licence { name: "TODO: the licence's name", url: "https://TODO.invalid/licence" },
    attribution: "TODO: the attribution text the publisher asks for",
    dataset_page: "https://TODO.invalid/dataset-page",
    update_schedule: "TODO: how often the publisher updates the feed",
    review: Review {
        date: "TODO: YYYY-MM-DD",
        robots_txt: "TODO: what robots.txt says for CityVibeBot and *, and its Crawl-delay",
        robots_sha256: None,
        notes: "TODO: which fields hold personal data (e-mail, phone, fax, contact names) or images, and that the record leaves them out",
    },
};

impl Adapter for Gencat {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        parse_feed(feed, body, sink)
    }
}

/// One record of the feed: only the fields CityVibe keeps.
///
/// There is deliberately no e-mail, phone, fax, contact-name or image field
/// here, whatever the feed offers: a field that is not in the record is
/// never read, so personal data cannot reach the store, the logs, the
/// exports or the translator (POLICY P5), and image URLs are never kept
/// (P4). Do not add such a field; list it in `review.notes` instead.
#[derive(Debug, Default, serde::Deserialize)]
struct Record {
    #[serde(default)]
    id: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    start: String,
    #[serde(default)]
    end: String,
    #[serde(default)]
    venue: String,
    #[serde(default)]
    url: String,
}

/// `2026-12-05`, `2026-12-05 19:00` or `2026-12-05T19:00:00`: a date and, when given, a time.
fn date_time(s: &str) -> Option<(jiff::civil::Date, Option<jiff::civil::Time>)> {
    let s = s.trim();
    let (d, t) = match s.split_once([' ', 'T']) {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    let date = parse_date(d)?;
    let time = match t {
        Some(t) => Some(parse_time(t)?),
        None => None,
    };
    Some((date, time))
}

/// One record as an event. A record error without an id is named by the
/// framework by its place in the feed.
fn map(r: &Record, lang: &str) -> Result<Event, RecordError> {
    let err = |reason: String| RecordError::new(r.id.trim(), reason);
    let mut ev = Event::new(&r.id, &html_to_line(&r.title), lang).map_err(err)?;
    ev.description = html_to_text(&r.description);
    ev.url = non_empty(&r.url);
    let (first, start_time) = date_time(&r.start).ok_or_else(|| err(format!("bad start {:?}", r.start)))?;
    let end = if r.end.trim().is_empty() { None } else { Some(date_time(&r.end).ok_or_else(|| err(format!("bad end {:?}", r.end)))?) };
    ev.schedule = Schedule::from_span(first, end.map(|e| e.0), start_time, end.and_then(|e| e.1), Vec::new(), Vec::new());
    ev.venue.name = non_empty(&one_line(&r.venue));
    // TODO: map the feed's own categories (ev.source_categories) to CityVibe's
    // with `Category::from_label`; an event left without one is filed under Other.
    Ok(ev)
}

/// The record as it comes in JSON: tolerant of numbers, nulls and objects
/// where text was expected, so one odd record does not sink the feed.
#[derive(serde::Deserialize)]
struct JsonRecord<'a> {
    #[serde(borrow, default)]
    id: Loose<'a>,
    #[serde(borrow, default)]
    title: Loose<'a>,
    #[serde(borrow, default)]
    description: Loose<'a>,
    #[serde(borrow, default)]
    start: Loose<'a>,
    #[serde(borrow, default)]
    end: Loose<'a>,
    #[serde(borrow, default)]
    venue: Loose<'a>,
    #[serde(borrow, default)]
    url: Loose<'a>,
}

/// What each element of the array is read as.
impl json::Record for JsonRecord<'_> {
    type Of<'de> = JsonRecord<'de>;
    // TODO: the key of the event id: a record that cannot be read but whose
    // id can keeps its stored event.
    const ID_KEY: &'static str = "id";
}

fn parse_feed(feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
    // The framework reads the body leniently (BOMs, raw line breaks, bad
    // escapes), refuses a cut one, and names records by position.
    // TODO: `None` reads a top-level array; give the key when the records sit under one.
    json::read_records::<JsonRecord>(body, None, sink, |j, _position| {
        let s = |l: &Loose| l.as_str().to_string();
        let r = Record {
            id: s(&j.id),
            title: s(&j.title),
            description: s(&j.description),
            start: s(&j.start),
            end: s(&j.end),
            venue: s(&j.venue),
            url: s(&j.url),
        };
        map(&r, feed.lang)
    })
    .map_err(|e| FeedError::new(format!("not a JSON array of records: {e}")))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written sample (invented data), as the mirror serves it.
    const SAMPLE: &[u8] =
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/samples/analisi.transparenciacatalunya.cat/TODO/gencat.json"));

    #[test]
    fn sample_parses_without_contact_data_or_images() {
        let got = parse_bytes(&Gencat, &MANIFEST.feeds[0], SAMPLE).expect("the sample parses");
        assert!(got.errors.is_empty(), "{:?}", got.errors);
        assert_eq!(got.events.len(), 2);
        let first = &got.events[0];
        assert_eq!(first.source_event_id, "gencat-0001");
        assert_eq!(first.title, "Concierto de ejemplo");
        assert_eq!(first.venue.name.as_deref(), Some("Auditorio de ejemplo"));
        assert!(first.schedule.start.is_some());
        // The sample's e-mail, phone and image fields are never read (P4, P5).
        let all = format!("{:?}", got.events);
        for needle in ["taquilla@", "912 345 678", ".jpg"] {
            assert!(!all.contains(needle), "{needle} leaked into {all}");
        }
    }
}
