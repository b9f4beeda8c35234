//! schema.org `Event`s as JSON-LD: one `@graph` under `@context`
//! <https://schema.org>, each event with its place, dates (or schedule),
//! language, the link to the original (`url`, `sameAs`), an `Offer` (price 0 in
//! EUR when free), and the dataset it comes from as `subjectOf`, which carries
//! `license`, `creditText`, `copyrightNotice` and `publisher` (P19): those are
//! CreativeWork properties, not an Event's.

use super::{ExportEvent, Slot, slots};
use crate::shown::ShownEvent;
use crate::store::events::StoredEvent;
use jiff::civil::DateTime;
use serde_json::{Map, Value, json};

/// An ISO 8601 date-time with the offset of the event's zone, or a date.
fn iso(dt: DateTime, tz: &str, all_day: bool) -> String {
    if all_day {
        return dt.date().to_string();
    }
    match dt.in_tz(tz) {
        Ok(z) => z.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string(),
        Err(_) => dt.to_string(),
    }
}

const DAYS: [(&str, &str); 7] = [
    ("MO", "https://schema.org/Monday"),
    ("TU", "https://schema.org/Tuesday"),
    ("WE", "https://schema.org/Wednesday"),
    ("TH", "https://schema.org/Thursday"),
    ("FR", "https://schema.org/Friday"),
    ("SA", "https://schema.org/Saturday"),
    ("SU", "https://schema.org/Sunday"),
];

/// One schema.org Event.
pub fn event(x: &ExportEvent) -> Value {
    let (e, s) = (&x.shown, &x.shown.stored);
    let tz = s.time_zone.as_str();
    let all = slots(s);
    let mut m = Map::new();
    m.insert("@type".into(), json!("Event"));
    m.insert("identifier".into(), json!(format!("{}:{}", s.source, s.source_event_id)));
    m.insert("name".into(), json!(e.title));
    if !e.description.trim().is_empty() {
        m.insert("description".into(), json!(e.description));
    }
    m.insert("inLanguage".into(), json!(e.text_lang()));
    if let (Some(first), Some(last)) = (all.first(), all.last()) {
        m.insert("startDate".into(), json!(iso(first.start, tz, s.all_day)));
        let end = last.end.unwrap_or(last.start);
        if all.len() > 1 || last.end.is_some() {
            m.insert("endDate".into(), json!(iso(end, tz, s.all_day)));
        }
        if all.len() > 1 {
            m.insert("eventSchedule".into(), schedule(s, &all));
        }
    }
    m.insert("eventStatus".into(), json!("https://schema.org/EventScheduled"));
    m.insert("eventAttendanceMode".into(), json!("https://schema.org/OfflineEventAttendanceMode"));
    m.insert("location".into(), place(s));
    if let Some(free) = s.free {
        m.insert("isAccessibleForFree".into(), json!(free));
    }
    if let Some(offer) = offer(e) {
        m.insert("offers".into(), offer);
    }
    if let Some(a) = e.audience.as_deref().filter(|a| !a.trim().is_empty()) {
        m.insert("audience".into(), json!({ "@type": "Audience", "audienceType": a }));
    }
    if !e.category_labels.is_empty() {
        m.insert("keywords".into(), json!(e.category_labels.join(", ")));
    }
    if let Some(url) = &s.url {
        m.insert("url".into(), json!(url));
        // Only the event's own page says which event this is.
        if s.link == crate::model::LinkKind::EventPage {
            m.insert("sameAs".into(), json!(url));
        }
    }
    m.insert("subjectOf".into(), dataset(x));
    Value::Object(m)
}

/// Where the event is: a Place with its venue, postal address and point.
fn place(e: &StoredEvent) -> Value {
    let mut place = Map::new();
    place.insert("@type".into(), json!("Place"));
    if let Some(v) = &e.venue {
        place.insert("name".into(), json!(v));
    }
    let mut address = Map::new();
    address.insert("@type".into(), json!("PostalAddress"));
    for (k, v) in
        [("streetAddress", &e.address), ("postalCode", &e.postal_code), ("addressLocality", &e.locality), ("addressRegion", &e.province)]
    {
        if let Some(v) = v.as_deref().filter(|v| !v.trim().is_empty()) {
            address.insert(k.into(), json!(v));
        }
    }
    address.insert("addressCountry".into(), json!("ES"));
    place.insert("address".into(), Value::Object(address));
    if let (Some(lat), Some(lon)) = (e.lat, e.lon) {
        place.insert("geo".into(), json!({ "@type": "GeoCoordinates", "latitude": lat, "longitude": lon }));
    }
    Value::Object(place)
}

/// The event's Offer. A free event's offer is a price of zero (Google and
/// schema.org read `price`, not a description); a price text is kept as
/// the description.
fn offer(e: &ShownEvent) -> Option<Value> {
    let price_text = e.price.as_deref().filter(|p| !p.trim().is_empty());
    if e.stored.free == Some(true) {
        let mut offer = json!({ "@type": "Offer", "price": 0, "priceCurrency": "EUR" });
        if let Some(p) = price_text {
            offer["description"] = json!(p);
        }
        if let Some(url) = &e.stored.url {
            offer["url"] = json!(url);
        }
        Some(offer)
    } else {
        price_text.map(|price| json!({ "@type": "Offer", "description": price, "priceCurrency": "EUR" }))
    }
}

/// The dataset the event comes from, with its licence, credit and source.
/// Those are CreativeWork properties, which an Event (a Thing) does not
/// take: linked with `subjectOf` ("a CreativeWork about this Thing"), so
/// validators accept the graph and readers still find them (P19).
fn dataset(x: &ExportEvent) -> Value {
    let e = &x.shown;
    let mut dataset = Map::new();
    dataset.insert("@type".into(), json!("Dataset"));
    if !x.dataset_page.is_empty() {
        dataset.insert("url".into(), json!(x.dataset_page));
        dataset.insert("@id".into(), json!(x.dataset_page));
    }
    dataset.insert("license".into(), json!(e.stored.licence_url));
    dataset.insert("creditText".into(), json!(e.attribution));
    dataset.insert("copyrightNotice".into(), json!(e.licence));
    if !x.publisher.is_empty() {
        dataset.insert("publisher".into(), json!({ "@type": "Organization", "name": x.publisher }));
    }
    Value::Object(dataset)
}

/// The occurrences as schema.org Schedules: one weekly Schedule when the
/// event repeats on weekdays at one time, else one Schedule per day.
fn schedule(e: &StoredEvent, all: &[Slot]) -> Value {
    let tz = e.time_zone.as_str();
    let time = |dt: DateTime| dt.time().strftime("%H:%M:%S").to_string();
    let weekdays: Vec<&str> = e.weekdays.iter().map(|d| crate::model::weekday_code(*d)).collect();
    let same_time = all.iter().all(|s| s.start.time() == all[0].start.time() && s.end.map(|d| d.time()) == all[0].end.map(|d| d.time()));
    let put_times = |s: &mut Map<String, Value>, slot: &Slot| {
        if !e.all_day {
            s.insert("startTime".into(), json!(time(slot.start)));
            if let Some(end) = slot.end {
                s.insert("endTime".into(), json!(time(end)));
            }
        }
    };
    if !weekdays.is_empty() && same_time {
        let mut s = Map::new();
        s.insert("@type".into(), json!("Schedule"));
        s.insert("repeatFrequency".into(), json!("P1W"));
        s.insert("byDay".into(), json!(weekdays.iter().filter_map(|w| DAYS.iter().find(|d| d.0 == *w).map(|d| d.1)).collect::<Vec<_>>()));
        s.insert("startDate".into(), json!(all[0].start.date().to_string()));
        s.insert("endDate".into(), json!(all[all.len() - 1].start.date().to_string()));
        put_times(&mut s, &all[0]);
        let except: Vec<String> = e.excluded.iter().map(|d| d.to_string()).collect();
        if !except.is_empty() {
            s.insert("exceptDate".into(), json!(except));
        }
        s.insert("scheduleTimezone".into(), json!(tz));
        return Value::Array(vec![Value::Object(s)]);
    }
    Value::Array(
        all.iter()
            .map(|slot| {
                let mut s = Map::new();
                s.insert("@type".into(), json!("Schedule"));
                s.insert("startDate".into(), json!(slot.start.date().to_string()));
                s.insert("endDate".into(), json!(slot.end.unwrap_or(slot.start).date().to_string()));
                put_times(&mut s, slot);
                s.insert("scheduleTimezone".into(), json!(tz));
                Value::Object(s)
            })
            .collect(),
    )
}

/// The whole export: `{"@context": "https://schema.org", "@graph": [...]}`.
pub fn document(events: &[ExportEvent]) -> Value {
    json!({
        "@context": "https://schema.org",
        "@graph": events.iter().map(event).collect::<Vec<_>>(),
    })
}
