//! Exports of active events (P19): JSON, CSV, iCalendar (RFC 5545) and
//! schema.org JSON-LD. Every record carries the link to the original, the
//! source's licence and its attribution text.

pub mod csv;
pub mod ics;
pub mod jsonld;

use crate::shown::ShownEvent;
use crate::store::events::StoredEvent;
use jiff::civil::{Date, DateTime};
use serde::Serialize;

/// An event ready to export: as the reader is shown it (texts possibly
/// translated, labels in the reader's language, `shown.lang`) plus what its
/// source's manifest says of the publisher.
#[derive(Debug, Clone, Serialize)]
pub struct ExportEvent {
    #[serde(flatten)]
    pub shown: ShownEvent,
    pub publisher: String,
    pub dataset_page: String,
}

impl ExportEvent {
    pub fn new(shown: ShownEvent) -> ExportEvent {
        let m = crate::adapters::by_id(&shown.stored.source).map(|a| a.manifest());
        ExportEvent {
            publisher: m.map(|m| m.publisher.to_string()).unwrap_or_default(),
            dataset_page: m.map(|m| m.dataset_page.to_string()).unwrap_or_default(),
            shown,
        }
    }
}

/// One occurrence of an event in local civil time (ordered by start, then end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Slot {
    pub start: DateTime,
    pub end: Option<DateTime>,
}

/// The occurrences of an event, from the stored list, else from its span;
/// an end before its start is dropped. A repeated span longer than a year
/// gives those from a year before today to a year after (see [`slots_at`]).
pub fn slots(e: &StoredEvent) -> Vec<Slot> {
    let now = jiff::Timestamp::now();
    let today = now.in_tz(&e.time_zone).or_else(|_| now.in_tz(crate::model::TZ_MADRID)).map(|z| z.date()).unwrap_or(Date::MIN);
    slots_at(e, today)
}

/// The occurrences of an event as a reader sees them on `today` (the event's
/// own civil date): a repeated span longer than a year (stored expanded for its
/// first year only) is expanded from a year before `today` to a year after it,
/// so that an event running from 2022 to 2027 is on today; anything else as
/// [`slots`] says.
pub fn slots_at(e: &StoredEvent, today: Date) -> Vec<Slot> {
    let slot = |start: DateTime, end: Option<DateTime>| Slot { start, end: end.filter(|end| *end >= start) };
    let occurrences = match repeated_span(e) {
        Some(span) => span.around(today),
        None => e.occurrences.clone(),
    };
    let mut out: Vec<Slot> = occurrences.iter().map(|o| slot(o.start, o.end)).collect();
    if out.is_empty()
        && let Some(start) = e.start
    {
        out.push(slot(start, e.end));
    }
    out.sort_by_key(|s| s.start);
    out
}

/// The repeated span longer than a year that `e`'s stored occurrences expand, if it is one.
pub fn repeated_span(e: &StoredEvent) -> Option<crate::model::RepeatedSpan> {
    crate::model::RepeatedSpan::of(e.start, e.end, e.all_day, &e.weekdays, &e.excluded, &e.occurrences)
}

/// Parse the date given to `option` (`--from` or `--to`).
pub fn parse_date(option: &str, s: &str) -> anyhow::Result<Date> {
    // The option and the form expected, in plain words: the parser's own message ("failed to
    // parse two digit integer as month…") helps no one.
    s.trim().parse::<Date>().map_err(|_| {
        crate::output::usage(format!("{option} {s:?} is not a date: write YYYY-MM-DD, a day that exists (e.g. {option} 2026-12-01)"))
    })
}

/// The venue as one line: name, street, postcode and locality.
pub fn location_line(e: &StoredEvent) -> Option<String> {
    let place = [e.postal_code.as_deref(), e.locality.as_deref()].into_iter().flatten().collect::<Vec<_>>().join(" ");
    let parts: Vec<&str> = [e.venue.as_deref(), e.address.as_deref(), (!place.is_empty()).then_some(place.as_str())]
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}
