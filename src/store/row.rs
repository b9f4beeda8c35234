//! One event as the row `store::ingest` writes: the values of its columns,
//! computed once, then hashed to tell whether the stored event changed and
//! bound to the insert or the update. Not for the SQL (`store::ingest`).

use crate::model::{Event, PublisherTranslation, weekday_code};
use rusqlite::types::ValueRef;
use sha2::{Digest, Sha256};
use xxhash_rust::xxh3::xxh3_128;

/// How many values [`Columns::values`] gives: parameters 2 to 28 of the
/// insert and the update, `source_event_id` to `source_categories`.
pub(super) const VALUES: usize = 27;

/// The columns of an event's row that are none of its fields as it is: dates
/// as text, arrays as the JSON serde_json writes, the time zone.
pub(super) struct Columns {
    start: Option<String>,
    end: Option<String>,
    first_start: Option<String>,
    last_end: Option<String>,
    occurrences: String,
    weekdays: String,
    excluded: String,
    categories: String,
    source_categories: String,
    time_zone: &'static str,
}

impl Columns {
    pub(super) fn of(ev: &Event) -> serde_json::Result<Columns> {
        let s = &ev.schedule;
        let first_start = s.occurrences.first().map(|o| o.start).or(s.start);
        let last_end = s.occurrences.iter().map(|o| o.end.unwrap_or(o.start)).max().or(s.end);
        Ok(Columns {
            start: s.start.map(|d| d.to_string()),
            end: s.end.map(|d| d.to_string()),
            first_start: first_start.map(|d| d.to_string()),
            last_end: last_end.map(|d| d.to_string()),
            occurrences: serde_json::to_string(&s.occurrences)?,
            weekdays: serde_json::to_string(&s.weekdays.iter().map(|d| weekday_code(*d)).collect::<Vec<_>>())?,
            excluded: serde_json::to_string(&s.excluded)?,
            categories: serde_json::to_string(&ev.categories)?,
            source_categories: serde_json::to_string(&ev.source_categories)?,
            time_zone: ev.time_zone(),
        })
    }

    /// The row's values, in the order of the insert's and update's parameters 2 to 28.
    pub(super) fn values<'a>(&'a self, ev: &'a Event) -> [ValueRef<'a>; VALUES] {
        let (s, v) = (&ev.schedule, &ev.venue);
        let text = |t: &'a Option<String>| ValueRef::from(t.as_deref());
        let flag = |b: bool| ValueRef::Integer(b.into());
        [
            ev.source_event_id.as_str().into(),
            ev.title.as_str().into(),
            ev.description.as_str().into(),
            text(&ev.url),
            ev.lang.as_str().into(),
            self.time_zone.into(),
            text(&self.start),
            text(&self.end),
            flag(s.all_day),
            text(&self.first_start),
            text(&self.last_end),
            self.occurrences.as_str().into(),
            self.weekdays.as_str().into(),
            self.excluded.as_str().into(),
            ev.free.map_or(ValueRef::Null, flag),
            text(&ev.price),
            text(&ev.audience),
            text(&v.name),
            text(&v.address),
            text(&v.postal_code),
            text(&v.locality),
            text(&v.province),
            text(&v.district),
            v.lat.map_or(ValueRef::Null, ValueRef::Real),
            v.lon.map_or(ValueRef::Null, ValueRef::Real),
            self.categories.as_str().into(),
            self.source_categories.as_str().into(),
        ]
    }
}

/// The content hash: a digest of everything the feed gives of an event for
/// its row (before any operator correction) and of its publisher's
/// translations, so that an unchanged event is neither rewritten nor
/// counted as updated. Each value goes in with its kind
/// and length: NULL and "" differ, and no text can slide into the next column.
/// XXH3-128 (32 hex digits) tells a change, it signs nothing: a publisher
/// able to craft a collision could only hide a change of its own feed.
pub(super) fn content_hash(values: &[ValueRef<'_>], translations: &[PublisherTranslation]) -> String {
    // Gathered, then hashed in one call: a quarter fewer instructions than
    // feeding XXH3's streaming state three small pieces a value.
    let mut all = Vec::with_capacity(4096);
    let mut put = |kind: u8, bytes: &[u8]| {
        all.push(kind);
        all.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        all.extend_from_slice(bytes);
    };
    for value in values {
        match *value {
            ValueRef::Null => put(0, &[]),
            ValueRef::Integer(i) => put(1, &i.to_le_bytes()),
            ValueRef::Real(r) => put(2, &r.to_le_bytes()),
            ValueRef::Text(t) => put(3, t),
            ValueRef::Blob(b) => put(4, b),
        }
    }
    for t in translations {
        for text in [&t.lang, &t.title, &t.description] {
            put(3, text.as_bytes());
        }
    }
    format!("{:032x}", xxh3_128(&all))
}

/// Whether `stored` is a content hash of the older form (the hex SHA-256 of
/// the event as serde_json wrote it: 64 digits) and matches `ev`. Such a row
/// is compared the old way once, then given its new hash, so that an upgrade
/// shows no event as changed.
pub(super) fn legacy_hash_matches(stored: &str, ev: &Event) -> bool {
    stored.len() == 64 && serde_json::to_vec(ev).is_ok_and(|json| hex::encode(Sha256::digest(json)) == stored)
}
