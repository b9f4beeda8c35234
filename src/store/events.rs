//! Reading stored events back: listings, exports, reports. A row comes
//! back typed (dates, occurrences, categories, status); a column that does
//! not read as what `store::ingest` writes is an error naming the event,
//! never a silent null.

use super::Store;
use crate::lang::SourceLang;
use crate::model::{Category, Occurrence};
use crate::vocab::EventStatus;
use anyhow::{Context, Result};
use jiff::civil::{Date, DateTime, Weekday};
use rusqlite::{Row, params_from_iter};
use sha2::{Digest, Sha256};

/// Hash of a text, used to tell whether a translation still matches its original.
pub fn text_hash(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))[..32].to_string()
}

/// An event as stored, with its attribution (P19): the columns as
/// `store::ingest` wrote them. What a reader is shown of it (texts in a
/// language, labels, fields said in the reader's words) is
/// `shown::ShownEvent`, which keeps this row beside it unchanged.
#[derive(Debug, Clone)]
pub struct StoredEvent {
    pub row_id: i64,
    pub source: String,
    pub source_event_id: String,
    pub title: String,
    pub description: String,
    pub url: Option<String>,
    /// What `url` leads to, from the source's manifest (`citation`).
    pub link: crate::model::LinkKind,
    pub licence: String,
    pub licence_url: String,
    pub attribution: String,
    /// First day and start, last day and end, in the event's civil time.
    pub start: Option<DateTime>,
    pub end: Option<DateTime>,
    pub all_day: bool,
    pub time_zone: String,
    pub occurrences: Vec<Occurrence>,
    pub weekdays: Vec<Weekday>,
    pub excluded: Vec<Date>,
    pub free: Option<bool>,
    pub price: Option<String>,
    pub audience: Option<String>,
    pub venue: Option<String>,
    pub address: Option<String>,
    pub postal_code: Option<String>,
    pub locality: Option<String>,
    pub province: Option<String>,
    pub district: Option<String>,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub categories: Vec<Category>,
    pub source_categories: Vec<String>,
    /// The language `title` and `description` were published in, as its
    /// feed declares it (ISO 639-1). A `SourceLang`, not a `Lang`: a
    /// feed's language is whatever its adapter's manifest says
    /// (`Feed::lang`), which may be no display language (a Basque feed), and
    /// such a row still reads back; `SourceLang::lang` tells which it is.
    pub lang: SourceLang,
    pub status: EventStatus,
}

impl StoredEvent {
    /// A stored Madrid concert ("Concierto", 8 euros, music), for the unit
    /// tests that need a row: each sets what it is about over it.
    #[cfg(test)]
    pub(crate) fn sample() -> StoredEvent {
        StoredEvent {
            row_id: 1,
            source: "madrid".into(),
            source_event_id: "1".into(),
            title: "Concierto".into(),
            description: "Coro".into(),
            url: None,
            link: crate::model::LinkKind::EventPage,
            licence: "Licencia".into(),
            licence_url: "https://l.example/".into(),
            attribution: "Fuente: Ayuntamiento de Madrid".into(),
            start: None,
            end: None,
            all_day: false,
            time_zone: crate::model::TZ_MADRID.into(),
            occurrences: Vec::new(),
            weekdays: Vec::new(),
            excluded: Vec::new(),
            free: None,
            price: Some("8 euros".into()),
            audience: None,
            venue: None,
            address: None,
            postal_code: None,
            locality: None,
            province: None,
            district: None,
            lat: None,
            lon: None,
            categories: vec![Category::Music],
            source_categories: Vec::new(),
            lang: "es".into(),
            status: EventStatus::Active,
        }
    }
}

/// Which events to list.
#[derive(Debug, Default, Clone)]
pub struct EventFilter {
    pub sources: Vec<String>,
    pub include_withdrawn: bool,
    pub limit: Option<usize>,
    /// Only events whose last day is on or after this date (YYYY-MM-DD).
    pub from: Option<String>,
    /// Only events whose first day is on or before this date.
    pub to: Option<String>,
    pub source_event_id: Option<String>,
}

const COLUMNS: &str = "id, source, source_event_id, title, description, url, start, end,
    all_day, time_zone, occurrences, weekdays, excluded, free, price, audience, venue_name, address, postal_code, locality,
    province, district, lat, lon, categories, source_categories, lang, status";

/// One row as the event it stores; a column that does not read back is
/// an error that names the event and the column.
fn from_row(r: &Row) -> Result<StoredEvent> {
    let (source, id): (String, String) = (r.get(1)?, r.get(2)?);
    typed(r, source.clone(), id.clone()).with_context(|| format!("the stored event {source}:{id} cannot be read"))
}

/// The JSON of column `i` (`name`) as `T`.
fn json<T: serde::de::DeserializeOwned>(r: &Row, i: usize, name: &str) -> Result<T> {
    let text: String = r.get(i)?;
    serde_json::from_str(&text).with_context(|| format!("its {name} {text:?} do not parse"))
}

/// The civil date and time of column `i` (`name`), as `store::ingest` writes it.
fn civil(r: &Row, i: usize, name: &str) -> Result<Option<DateTime>> {
    let text: Option<String> = r.get(i)?;
    text.map(|t| t.parse::<DateTime>().with_context(|| format!("its {name} {t:?} is not a date and time"))).transpose()
}

fn typed(r: &Row, source: String, source_event_id: String) -> Result<StoredEvent> {
    let weekdays = json::<Vec<String>>(r, 11, "weekdays")?
        .iter()
        .map(|code| crate::model::weekday_from_code(code).with_context(|| format!("its weekday {code:?} is none of MO … SU")))
        .collect::<Result<_>>()?;
    Ok(StoredEvent {
        row_id: r.get(0)?,
        source,
        source_event_id,
        title: r.get(3)?,
        description: r.get(4)?,
        url: r.get(5)?,
        link: crate::model::LinkKind::EventPage,
        // Filled from the source's citation by the reader above (P19, `citation::Citations::list`).
        licence: String::new(),
        licence_url: String::new(),
        attribution: String::new(),
        start: civil(r, 6, "start")?,
        end: civil(r, 7, "end")?,
        all_day: r.get(8)?,
        time_zone: r.get(9)?,
        occurrences: json(r, 10, "occurrences")?,
        weekdays,
        excluded: json(r, 12, "excluded days")?,
        free: r.get(13)?,
        price: r.get(14)?,
        audience: r.get(15)?,
        venue: r.get(16)?,
        address: r.get(17)?,
        postal_code: r.get(18)?,
        locality: r.get(19)?,
        province: r.get(20)?,
        district: r.get(21)?,
        lat: r.get(22)?,
        lon: r.get(23)?,
        categories: json(r, 24, "categories")?,
        source_categories: json(r, 25, "source categories")?,
        lang: r.get(26)?,
        status: r.get(27).context("its status")?,
    })
}

/// Stored events by status (see [`Store::count_by_status`]).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct StatusCounts {
    /// Listed and exported.
    pub active: u64,
    /// Gone from their feed.
    pub withdrawn: u64,
    /// Kept out of every list by the operator (`source disable --withdraw`).
    pub withheld: u64,
    /// The sources whose events those withheld are, in id order.
    pub withheld_sources: Vec<String>,
}

impl Store {
    /// Events matching the filter, soonest first, not yet cited: the row
    /// keeps only its source's id, and the licence, its link and the
    /// attribution are filled above, as the source is cited now (P19,
    /// `citation::Citations::list`).
    pub fn list_events(&self, f: &EventFilter) -> Result<Vec<StoredEvent>> {
        let mut sql = format!("SELECT {COLUMNS} FROM events WHERE 1 = 1");
        let mut args: Vec<String> = Vec::new();
        if !f.include_withdrawn {
            sql.push_str(" AND status = 'active'");
        }
        if !f.sources.is_empty() {
            sql.push_str(&format!(" AND source IN ({})", vec!["?"; f.sources.len()].join(", ")));
            args.extend(f.sources.iter().cloned());
        }
        if let Some(from) = &f.from {
            // The span's own end too: a span longer than a year stores the
            // occurrences of its first year only.
            sql.push_str(" AND max(coalesce(last_end, first_start, ''), coalesce(end, '')) >= ?");
            args.push(from.clone());
        }
        if let Some(to) = &f.to {
            sql.push_str(" AND first_start <= ?");
            args.push(format!("{to}T23:59:59"));
        }
        if let Some(id) = &f.source_event_id {
            sql.push_str(" AND source_event_id = ?");
            args.push(id.clone());
        }
        sql.push_str(" ORDER BY first_start, source, source_event_id");
        if let Some(limit) = f.limit {
            sql.push_str(&format!(" LIMIT {limit}"));
        }
        let mut st = self.conn.prepare(&sql)?;
        let mut rows = st.query(params_from_iter(args.iter()))?;
        let mut events = Vec::new();
        while let Some(row) = rows.next()? {
            events.push(from_row(row)?);
        }
        Ok(events)
    }

    /// The stored events of `sources` (every source when empty) by status:
    /// why a list that shows none shows none.
    pub fn count_by_status(&self, sources: &[String]) -> Result<StatusCounts> {
        let mut counts = StatusCounts::default();
        let mut st = self.conn.prepare_cached("SELECT source, status, count(*) FROM events GROUP BY source, status ORDER BY source")?;
        let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, EventStatus>(1)?, r.get::<_, i64>(2)? as u64)))?;
        for row in rows {
            let (source, status, n) = row?;
            if !sources.is_empty() && !sources.contains(&source) {
                continue;
            }
            match status {
                EventStatus::Active => counts.active += n,
                EventStatus::Withheld => {
                    counts.withheld += n;
                    counts.withheld_sources.push(source);
                }
                EventStatus::Withdrawn => counts.withdrawn += n,
            }
        }
        Ok(counts)
    }

    /// Every stored event, of any source and status.
    pub fn count_all_events(&self) -> Result<u64> {
        Ok(self.conn.query_row("SELECT count(*) FROM events", [], |r| r.get::<_, i64>(0))? as u64)
    }

    pub fn count_events(&self, source: &str) -> Result<(u64, u64)> {
        Ok(self.conn.query_row(
            "SELECT coalesce(sum(status = 'active'), 0), coalesce(sum(status = 'withdrawn'), 0) FROM events WHERE source = ?1",
            [source],
            |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::citation::Citations;
    use crate::lang::Lang;

    /// A database holding one event of `jcyl` as a release before typed
    /// rows wrote it (schema 1, migrated on open).
    fn store_with_one_event(dir: &std::path::Path) -> Store {
        let path = dir.join("old.db");
        {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch(super::super::schema::MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO events (source, source_event_id, title, description, lang, time_zone, all_day, start, end, occurrences,
                    weekdays, excluded, categories, source_categories, licence, licence_url, attribution, content_hash, first_seen, last_changed)
                 VALUES ('jcyl', '1', 'T', '', 'es', 'Europe/Madrid', 0, '2026-12-01T19:00:00', '2026-12-15T21:00:00',
                    '[{\"start\":\"2026-12-01T19:00:00\",\"end\":\"2026-12-01T21:00:00\"},{\"start\":\"2026-12-15T19:00:00\",\"end\":null}]',
                    '[\"TU\"]', '[\"2026-12-08\"]', '[\"music\",\"family\"]', '[\"Música\"]', 'L', 'https://l/', 'A', 'h', 0, 0)",
                [],
            )
            .unwrap();
        }
        Store::open(&path).unwrap()
    }

    /// A row comes back typed, and is shown in its own language as the JSON
    /// stored (so `events list --json` and the exports print what they printed).
    #[test]
    fn a_typed_row_serializes_as_the_json_stored() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_with_one_event(dir.path());
        let events = store.list_events(&EventFilter::default()).unwrap();
        let e = &events[0];
        assert_eq!(e.status, EventStatus::Active);
        assert_eq!(e.start, Some(jiff::civil::date(2026, 12, 1).at(19, 0, 0, 0)));
        assert_eq!(e.categories, [Category::Music, Category::Family]);
        assert_eq!(e.weekdays, [Weekday::Tuesday]);
        assert_eq!(e.occurrences.len(), 2);
        let shown = crate::shown::ShownEvent::in_its_language(e.clone());
        let v = serde_json::to_value(&shown).unwrap();
        let stored = |column: &str| -> serde_json::Value {
            let text: String = store.conn.query_row(&format!("SELECT {column} FROM events"), [], |r| r.get(0)).unwrap();
            serde_json::from_str(&text).unwrap()
        };
        for column in ["occurrences", "weekdays", "excluded", "categories", "source_categories"] {
            assert_eq!(v[column], stored(column), "{column}");
        }
        assert_eq!(
            (v["start"].as_str(), v["end"].as_str(), v["status"].as_str()),
            (Some("2026-12-01T19:00:00"), Some("2026-12-15T21:00:00"), Some("active"))
        );
        assert_eq!(shown.category_labels, [Category::Music.label(Lang::Es), Category::Family.label(Lang::Es)]);
    }

    /// Stored JSON (or a date, or a status) that does not read back is an error
    /// naming the event and the column, not a null.
    #[test]
    fn a_stored_column_that_does_not_parse_is_an_error_naming_the_event() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_with_one_event(dir.path());
        for (column, bad, said) in [
            ("occurrences", "[{\"start\": \"2026-12-01T19:00", "its occurrences"),
            ("occurrences", "[{\"start\": \"tomorrow\", \"end\": null}]", "its occurrences"),
            ("categories", "[\"music\", \"opera\"]", "its categories"),
            ("weekdays", "[\"Tuesday\"]", "its weekday \"Tuesday\""),
            ("excluded", "null", "its excluded days"),
            ("start", "1 Dec", "its start \"1 Dec\""),
            ("status", "gone", "its status"),
        ] {
            let kept: String = store.conn.query_row(&format!("SELECT {column} FROM events"), [], |r| r.get(0)).unwrap();
            store.conn.execute(&format!("UPDATE events SET {column} = ?1"), [bad]).unwrap();
            let err = store.list_events(&EventFilter { include_withdrawn: true, ..Default::default() }).unwrap_err();
            let text = format!("{err:#}");
            assert!(text.starts_with("the stored event jcyl:1 cannot be read"), "{column}: {text}");
            assert!(text.contains(said), "{column}: {text}");
            store.conn.execute(&format!("UPDATE events SET {column} = ?1"), [kept]).unwrap();
        }
        assert_eq!(store.list_events(&EventFilter::default()).unwrap().len(), 1);
    }

    // P19: a database from before keeps its events; the copies made at ingest
    // are dropped and the source's citation is shown.
    #[test]
    fn copies_of_an_old_attribution_are_dropped_on_upgrade() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch(super::super::schema::MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO events (source, source_event_id, title, description, lang, time_zone, all_day, occurrences, weekdays,
                    excluded, categories, source_categories, licence, licence_url, attribution, content_hash, first_seen, last_changed)
                 VALUES ('jcyl', '1', 'T', '', 'es', 'Europe/Madrid', 0, '[]', '[]', '[]', '[]', '[]', 'Old', 'https://old/', 'Old text', 'h', 0, 0)",
                [],
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let config: crate::config::Config = toml::from_str("[sources.jcyl]\nattribution = \"New text\"\n").unwrap();
        let events = Citations::new(Some(&config)).list(&store, &EventFilter::default()).unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].attribution, "New text");
        assert_eq!(events[0].licence_url, crate::adapters::jcyl::MANIFEST.licence.url);
        let columns: Vec<String> = store
            .conn
            .prepare("SELECT name FROM pragma_table_info('events')")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(!columns.iter().any(|c| c == "licence" || c == "attribution"), "{columns:?}");
    }
}
