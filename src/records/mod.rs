//! The record framework every adapter's parser runs inside: what all feeds
//! have in common, done once (docs/ARCHITECTURE.md, "Adapters never do I/O").
//!
//! [`parse_feed`] is the one way the core hands a body to an adapter: it
//! skips a UTF-8 byte-order mark, turns an event with a date outside 1990 to
//! ten years ahead into a record error and drops a point outside the
//! source's region, counted, scrubs every event (P5), files an event no
//! category fits under `Other`, and caps every text field at [`FIELD_CAP`],
//! with a record warning for each cut. The readers below find records in a
//! body and own lenient reading, positions and truncation. Not for: mapping
//! a record to an event (each adapter's own).

pub mod csv;
pub mod json;
pub mod sink;
pub mod xml;

use crate::model::{Category, Event};
use crate::parse::geo::BoundingBox;
use crate::parse::occurrences::merge;
use std::collections::HashMap;
use std::io::BufRead;

pub use sink::{EventSink, FeedError, RecordError};

/// The most one text field of an event may hold, in bytes: the cap of every
/// stored text (`parse::stored`, below this module); a field cut there gets
/// a record warning.
pub use crate::parse::stored::FIELD_CAP;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the framework runs: an adapter's parser over one of its feeds.
/// `adapter` implements it for every adapter; named here, generic over the
/// feed, so that the framework needs nothing from the adapter interface
/// above it (and `adapter::parse_bytes` can run through the framework).
pub trait FeedParser<F: ?Sized> {
    fn parse_body(&self, feed: &F, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError>;
    /// Where the source's events are: a venue's point outside is dropped
    /// and counted. Empty: Spain's outline only.
    fn region(&self) -> &[BoundingBox] {
        &[]
    }
}

/// Parse one feed body with an adapter, through the framework: byte-order
/// mark skipped, every event scrubbed and its fields capped.
pub fn parse_feed<P: FeedParser<F> + ?Sized, F: ?Sized>(
    adapter: &P,
    feed: &F,
    body: &mut dyn BufRead,
    sink: &mut dyn EventSink,
) -> Result<(), FeedError> {
    skip_bom(body).map_err(|e| FeedError::new(format!("reading the body: {e}")))?;
    let framed = &mut Framed { inner: sink, region: adapter.region(), today: crate::parse::dates::reading_day() };
    adapter.parse_body(feed, body, framed)
}

/// Consume a UTF-8 byte-order mark at the start of `body`, if any. (A
/// UTF-16 mark is left for the CSV reader's encoding detection.)
fn skip_bom(body: &mut dyn BufRead) -> std::io::Result<()> {
    if body.fill_buf()?.starts_with(UTF8_BOM) {
        body.consume(UTF8_BOM.len());
    }
    Ok(())
}

/// The sink adapters write to: dates checked, region kept, scrub, cap,
/// then pass on.
struct Framed<'s, 'r> {
    inner: &'s mut dyn EventSink,
    /// The source's region ([`FeedParser::region`]).
    region: &'r [BoundingBox],
    /// The reading's day: the plausible dates are counted from it.
    today: jiff::civil::Date,
}

/// The first date of `ev`'s schedule outside the plausible window
/// (`parse::dates::plausible`), as the record error's reason: a junk year
/// a mapping let through is never stored.
fn implausible_date(ev: &Event, today: jiff::civil::Date) -> Option<String> {
    let s = &ev.schedule;
    let mut dates = vec![("start date", s.start), ("end date", s.end)];
    dates.extend(s.occurrences.iter().flat_map(|o| [("an occurrence's start", Some(o.start)), ("an occurrence's end", o.end)]));
    dates.extend(s.excluded.iter().map(|d| ("an excluded day", Some(d.to_datetime(jiff::civil::Time::midnight())))));
    dates.into_iter().find_map(|(what, d)| crate::parse::dates::plausible(what, d?.date(), today).err())
}

impl EventSink for Framed<'_, '_> {
    fn merged_repeat(&mut self) {
        self.inner.merged_repeat();
    }
    fn push(&mut self, record: Result<Event, RecordError>) {
        let mut event = match record {
            Ok(event) => event,
            Err(error) => return self.inner.push(Err(error)),
        };
        // A junk date (year 0021, 9999) is a record error, never stored.
        if let Some(reason) = implausible_date(&event, self.today) {
            let id = event.source_event_id.clone();
            return self.inner.push(Err(RecordError::new(id.clone(), reason).with_id(Some(&id))));
        }
        // A point outside the source's region is dropped, counted, never stored.
        if let (Some(lat), Some(lon)) = (event.venue.lat, event.venue.lon)
            && !crate::parse::geo::in_region(self.region, lat, lon)
        {
            (event.venue.lat, event.venue.lon) = (None, None);
            let boxes: Vec<String> = self.region.iter().map(|b| format!("({b})")).collect();
            self.inner.outside_region(RecordError::new(
                event.source_event_id.clone(),
                format!("coordinates {lat:.5}, {lon:.5} lie outside the source's region {}: dropped, not stored", boxes.join(" or ")),
            ));
        }
        // Scrub before the cut, so that no cut can split an address or a
        // number into a piece the scrubber no longer recognises.
        if let Err(reason) = crate::parse::pii::scrub_event(&mut event) {
            // The id is contact data: the error must not quote it (P5).
            return self.inner.push(Err(RecordError::new("(id withheld)", reason)));
        }
        // The portal's labelled parts, each on a line of its own, in a
        // language whose labels are listed (`data/lang/XX/labels.txt`).
        if let Some(lang) = crate::parse::labels::labelled(event.lang.as_str()) {
            event.description = crate::parse::labels::split_labelled_parts(&event.description, lang);
        }
        // An event the adapter could not place in CityVibe's taxonomy.
        if event.categories.is_empty() {
            event.categories.push(Category::Other);
        }
        let cut = cap_fields(&mut event);
        for (field, len) in &cut {
            self.inner.warning(RecordError::new(
                event.source_event_id.clone(),
                format!("{field} was {len} bytes; cut to the {} KB a field may hold", FIELD_CAP >> 10),
            ));
        }
        // A cut may make contact data of what was not (ten digits cut to
        // nine, a link cut before its end): scrub what was cut once more.
        if !cut.is_empty()
            && let Err(reason) = crate::parse::pii::scrub_event(&mut event)
        {
            return self.inner.push(Err(RecordError::new("(id withheld)", reason)));
        }
        self.inner.push(Ok(event));
    }
    fn warning(&mut self, warning: RecordError) {
        self.inner.warning(warning);
    }
    fn outside_region(&mut self, warning: RecordError) {
        self.inner.outside_region(warning);
    }
}

/// A sink for publishers that list each date of an event as a record of its
/// own, all with the event's id: events pushed with an id already seen are
/// merged into the first (their schedules joined). The feed is gathered, so
/// use it for small feeds only; [`MergeRepeats::finish`] pushes the events in
/// first-seen order. Record errors and warnings pass on at once.
pub struct MergeRepeats<'s> {
    inner: &'s mut dyn EventSink,
    events: Vec<Event>,
    by_id: HashMap<String, usize>,
}

impl<'s> MergeRepeats<'s> {
    pub fn new(inner: &'s mut dyn EventSink) -> MergeRepeats<'s> {
        MergeRepeats { inner, events: Vec::new(), by_id: HashMap::new() }
    }

    /// Push the merged events on.
    pub fn finish(self) {
        for event in self.events {
            self.inner.push(Ok(event));
        }
    }
}

impl EventSink for MergeRepeats<'_> {
    fn push(&mut self, record: Result<Event, RecordError>) {
        match record {
            Ok(event) => match self.by_id.get(&event.source_event_id) {
                Some(&i) => {
                    let first = &mut self.events[i];
                    first.schedule = merge(vec![std::mem::take(&mut first.schedule), event.schedule]);
                    self.inner.merged_repeat();
                }
                None => {
                    self.by_id.insert(event.source_event_id.clone(), self.events.len());
                    self.events.push(event);
                }
            },
            Err(error) => self.inner.push(Err(error)),
        }
    }
    fn warning(&mut self, warning: RecordError) {
        self.inner.warning(warning);
    }
    fn outside_region(&mut self, warning: RecordError) {
        self.inner.outside_region(warning);
    }
    fn merged_repeat(&mut self) {
        self.inner.merged_repeat();
    }
}

/// Cut every text field of `ev` longer than [`FIELD_CAP`] at a character
/// boundary; the fields cut and their former lengths.
pub fn cap_fields(ev: &mut Event) -> Vec<(&'static str, usize)> {
    let mut cut = Vec::new();
    let mut cap = |name: &'static str, s: &mut String| {
        if s.len() > FIELD_CAP {
            cut.push((name, s.len()));
            s.truncate(s.floor_char_boundary(FIELD_CAP));
        }
    };
    cap("title", &mut ev.title);
    cap("description", &mut ev.description);
    let v = &mut ev.venue;
    for (name, s) in [
        ("url", &mut ev.url),
        ("price", &mut ev.price),
        ("audience", &mut ev.audience),
        ("venue name", &mut v.name),
        ("address", &mut v.address),
        ("postal code", &mut v.postal_code),
        ("locality", &mut v.locality),
        ("province", &mut v.province),
        ("district", &mut v.district),
    ] {
        if let Some(s) = s {
            cap(name, s);
        }
    }
    for s in &mut ev.source_categories {
        cap("category", s);
    }
    for t in &mut ev.translations {
        cap("translated title", &mut t.title);
        cap("translated description", &mut t.description);
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_fields_are_cut_at_a_char_boundary() {
        let mut ev = Event::new("1", "t", "es").unwrap();
        ev.description = "é".repeat(FIELD_CAP); // two bytes each
        ev.venue.name = Some("x".repeat(FIELD_CAP));
        let cut = cap_fields(&mut ev);
        assert_eq!(cut, [("description", 2 * FIELD_CAP)]);
        assert_eq!(ev.description.len(), FIELD_CAP);
        assert!(ev.description.chars().all(|c| c == 'é'));
        assert_eq!(ev.venue.name.as_deref().map(str::len), Some(FIELD_CAP));
    }

    /// Keeps what it is given.
    #[derive(Default)]
    struct Kept(Vec<Result<Event, RecordError>>, usize);

    impl EventSink for Kept {
        fn push(&mut self, record: Result<Event, RecordError>) {
            self.0.push(record);
        }
        fn warning(&mut self, _: RecordError) {
            self.1 += 1;
        }
    }

    // Whatever a mapping let through, a junk year is a record
    // error naming the date, and a point outside the region is dropped and
    // counted (as a warning), the event kept.
    #[test]
    fn junk_dates_are_refused_and_points_outside_the_region_dropped() {
        use crate::model::Schedule;
        let region = [BoundingBox::new(35.9, -7.6, 38.8, -1.55)];
        let today = jiff::civil::date(2026, 12, 2);
        let mut kept = Kept::default();
        let mut framed = Framed { inner: &mut kept, region: &region, today };
        let mut junk = Event::new("y21", "t", "es").unwrap();
        junk.schedule = Schedule::from_span(jiff::civil::date(21, 5, 8), None, None, None, vec![], vec![]);
        framed.push(Ok(junk));
        let mut far = Event::new("y9999", "t", "es").unwrap();
        far.schedule =
            Schedule::from_span(jiff::civil::date(2026, 5, 8), Some(jiff::civil::date(9999, 12, 31)), None, None, vec![], vec![]);
        framed.push(Ok(far));
        let mut madrid = Event::new("m", "t", "es").unwrap();
        madrid.venue.set_coordinates(40.4168, -3.7038);
        framed.push(Ok(madrid));
        let mut seville = Event::new("s", "t", "es").unwrap();
        seville.venue.set_coordinates(37.39, -5.99);
        framed.push(Ok(seville));
        let errors: Vec<&RecordError> = kept.0.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        // The field and what is wrong with it, never the value (P5).
        assert!(
            errors[0].reason.starts_with("start date is outside the plausible dates") && errors[0].id.as_deref() == Some("y21"),
            "{errors:?}"
        );
        assert!(errors[1].reason.starts_with("end date is outside") && !errors[1].reason.contains("9999"), "{errors:?}");
        let events: Vec<&Event> = kept.0.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!((events[0].venue.lat, events[0].venue.lon), (None, None), "Madrid is outside Andalusia");
        assert_eq!(events[1].venue.lat, Some(37.39));
        assert_eq!(kept.1, 1, "one point dropped, counted");
    }

    #[test]
    fn a_cut_that_leaves_contact_data_is_scrubbed_again_p5() {
        // Ten digits are no phone number; cut to nine by the field cap, they are.
        let mut ev = Event::new("1", "t", "es").unwrap();
        ev.description = format!("{} 9123456780", "x".repeat(FIELD_CAP - 10));
        let mut kept = Kept::default();
        Framed { inner: &mut kept, region: &[], today: jiff::civil::date(2026, 12, 2) }.push(Ok(ev));
        let ev = kept.0.pop().unwrap().unwrap();
        assert_eq!(kept.1, 1, "one warning for the cut");
        assert!(ev.description.ends_with(&format!(" {}", crate::parse::pii::REDACTED)), "{}", &ev.description[FIELD_CAP - 20..]);
    }
}
