//! Reading stored events back: listings, exports, reports.

use super::Store;
use anyhow::Result;
use rusqlite::{Row, params_from_iter};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// Hash of a text, used to tell whether a translation still matches its original.
pub fn text_hash(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))[..32].to_string()
}

/// An event as stored, with its attribution (P19).
#[derive(Debug, Clone, Serialize)]
pub struct StoredEvent {
    #[serde(skip)]
    pub row_id: i64,
    pub source: String,
    pub source_event_id: String,
    pub title: String,
    pub description: String,
    pub url: Option<String>,
    pub licence: String,
    pub licence_url: String,
    pub attribution: String,
    pub start: Option<String>,
    pub end: Option<String>,
    pub all_day: bool,
    pub time_zone: String,
    pub occurrences: serde_json::Value,
    pub weekdays: serde_json::Value,
    pub excluded: serde_json::Value,
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
    pub categories: serde_json::Value,
    pub source_categories: serde_json::Value,
    /// Language of `title` and `description` as shown.
    pub lang: String,
    /// Who produced the shown text: `original`, `publisher`, or the MT engine.
    pub text_origin: String,
    pub status: String,
    /// The categories' labels in the language shown (`--lang`, else the event's own).
    pub category_labels: Vec<String>,
    /// The publisher's own wording of each field shown in the reader's
    /// language instead (price, audience, attribution, licence).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub original_fields: std::collections::BTreeMap<String, String>,
    /// Fields shown as published, in the original's language, because no
    /// set phrase says them in the reader's (`data/lang/LANG/phrases.tsv`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub untranslated_fields: Vec<String>,
    /// Fields a translation engine said in the reader's language, no set
    /// phrase covering them: field → engine.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub machine_fields: std::collections::BTreeMap<String, String>,
}

/// The text list of a JSON array of strings (a stored event's categories,
/// weekdays, excluded days).
pub fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default()
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

fn json(s: String) -> serde_json::Value {
    serde_json::from_str(&s).unwrap_or(serde_json::Value::Null)
}

fn from_row(r: &Row) -> rusqlite::Result<StoredEvent> {
    Ok(StoredEvent {
        row_id: r.get(0)?,
        source: r.get(1)?,
        source_event_id: r.get(2)?,
        title: r.get(3)?,
        description: r.get(4)?,
        url: r.get(5)?,
        // Filled from the source's citation by the reader above (P19, `citation::Citations::list`).
        licence: String::new(),
        licence_url: String::new(),
        attribution: String::new(),
        start: r.get(6)?,
        end: r.get(7)?,
        all_day: r.get(8)?,
        time_zone: r.get(9)?,
        occurrences: json(r.get(10)?),
        weekdays: json(r.get(11)?),
        excluded: json(r.get(12)?),
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
        categories: json(r.get(24)?),
        source_categories: json(r.get(25)?),
        lang: r.get(26)?,
        text_origin: "original".into(),
        status: r.get(27)?,
        category_labels: Vec::new(),
        original_fields: Default::default(),
        untranslated_fields: Vec::new(),
        machine_fields: Default::default(),
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
            sql.push_str(" AND coalesce(last_end, first_start) >= ?");
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
        let rows = st.query_map(params_from_iter(args.iter()), from_row)?;
        let mut events = rows.collect::<rusqlite::Result<Vec<_>>>()?;
        for e in &mut events {
            let ids = strings(&e.categories);
            e.category_labels = crate::model::Category::labels(ids.iter().map(String::as_str), &e.lang);
        }
        Ok(events)
    }

    /// The stored events of `sources` (every source when empty) by status:
    /// why a list that shows none shows none.
    pub fn count_by_status(&self, sources: &[String]) -> Result<StatusCounts> {
        let mut counts = StatusCounts::default();
        let mut st = self.conn.prepare_cached("SELECT source, status, count(*) FROM events GROUP BY source, status ORDER BY source")?;
        let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)? as u64)))?;
        for row in rows {
            let (source, status, n) = row?;
            if !sources.is_empty() && !sources.contains(&source) {
                continue;
            }
            match status.as_str() {
                "active" => counts.active += n,
                super::optout::WITHHELD => {
                    counts.withheld += n;
                    counts.withheld_sources.push(source);
                }
                _ => counts.withdrawn += n,
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

    // P19, issue 12 item 8: a database from before keeps its events; the
    // copies made at ingest are dropped and the source's citation is shown.
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
