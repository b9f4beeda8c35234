//! One source's ingest as one transaction: upsert what the feed holds,
//! withdraw what vanished (P20), unless the feed looks broken — then nothing
//! of the source changes (the transaction is rolled back).

use super::{Store, now_ms};
use crate::adapter::Manifest;
use crate::model::{Event, weekday_code};
use anyhow::Result;
use rusqlite::{Transaction, params};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};

/// What an ingest changed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct IngestCounts {
    pub added: u64,
    pub updated: u64,
    pub unchanged: u64,
    pub withdrawn: u64,
    /// Events skipped because a takedown names them (P18).
    pub taken_down: u64,
}

/// Why an ingest was not committed.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Committed(IngestCounts),
    /// The feed looks broken; nothing of the source changed.
    Anomaly(String),
}

/// An open per-source transaction.
pub struct SourceIngest<'a> {
    tx: Option<Transaction<'a>>,
    manifest: &'static Manifest,
    /// Stored events of the source: source event id → (row id, content hash, active).
    existing: HashMap<String, (i64, String, bool)>,
    seen: HashSet<String>,
    tomb_ids: HashSet<String>,
    tomb_urls: HashSet<String>,
    counts: IngestCounts,
    now: i64,
    /// Reused for every event: its JSON (hashed) and its occurrences' JSON (stored).
    json: Vec<u8>,
    occurrences: Vec<u8>,
    /// The connection's page cache size before this ingest, restored after it.
    cache_size: Option<i64>,
}

/// Page cache for the ingest's transaction (KiB, as `PRAGMA cache_size` takes
/// negative values): a feed's rows then stay in memory until the commit
/// instead of being spilled to the WAL and read back while the B-tree grows.
const INGEST_CACHE_KIB: i64 = 64 * 1024;

impl Store {
    /// Begin the ingest of one source.
    pub fn begin_ingest(&mut self, manifest: &'static Manifest) -> Result<SourceIngest<'_>> {
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut existing = HashMap::new();
        {
            let mut st = tx.prepare("SELECT source_event_id, id, content_hash, status FROM events WHERE source = ?1")?;
            let rows = st.query_map([manifest.id], |r| {
                Ok((r.get::<_, String>(0)?, (r.get::<_, i64>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)? == "active")))
            })?;
            for row in rows {
                let (k, v) = row?;
                existing.insert(k, v);
            }
        }
        let mut tomb_ids = HashSet::new();
        let mut tomb_urls = HashSet::new();
        {
            let mut st = tx.prepare("SELECT source, source_event_id, url FROM takedowns")?;
            let rows = st.query_map([], |r| Ok((r.get::<_, Option<String>>(0)?, r.get::<_, Option<String>>(1)?, r.get::<_, Option<String>>(2)?)))?;
            for row in rows {
                let (src, id, url) = row?;
                if let (Some(src), Some(id)) = (src, id)
                    && src == manifest.id {
                        tomb_ids.insert(id);
                    }
                if let Some(url) = url {
                    tomb_urls.insert(url);
                }
            }
        }
        // Not transactional: restored by finish/abandon/rollback (and on drop).
        let cache_size = tx.pragma_query_value(None, "cache_size", |r| r.get::<_, i64>(0)).ok();
        if cache_size.is_some_and(|c| c > -INGEST_CACHE_KIB && c < INGEST_CACHE_KIB / 4) {
            tx.pragma_update(None, "cache_size", -INGEST_CACHE_KIB)?;
        }
        Ok(SourceIngest {
            tx: Some(tx),
            manifest,
            existing,
            seen: HashSet::new(),
            tomb_ids,
            tomb_urls,
            counts: IngestCounts::default(),
            now: now_ms(),
            json: Vec::with_capacity(16 * 1024),
            occurrences: Vec::with_capacity(16 * 1024),
            cache_size,
        })
    }
}

/// A stable digest of everything stored about an event.
pub fn content_hash(ev: &Event) -> String {
    content_hash_with(ev, &mut Vec::new())
}

/// [`content_hash`], serializing into `buf` (reused across events).
fn content_hash_with(ev: &Event, buf: &mut Vec<u8>) -> String {
    buf.clear();
    if serde_json::to_writer(&mut *buf, ev).is_err() {
        buf.clear();
    }
    hex(&Sha256::digest(&buf[..]))
}

/// The value of the schedule's `occurrences` in an event's compact JSON.
///
/// Exact: in compact JSON a `"` inside a string is always escaped, so
/// `"occurrences":[` (a quote right after a letter, then a colon) can only be
/// the key itself; the array holds objects of date strings and nulls, so its
/// first `]` closes it.
fn occurrences_in(event_json: &[u8]) -> Option<&str> {
    const KEY: &str = "\"occurrences\":[";
    let text = std::str::from_utf8(event_json).ok()?;
    let start = text.find(KEY)? + KEY.len() - 1;
    let len = text[start..].find(']')? + 1;
    Some(&text[start..start + len])
}

/// Lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 0xf) as usize] as char);
    }
    out
}

impl<'a> SourceIngest<'a> {
    /// How many active events the source held before this ingest.
    pub fn active_before(&self) -> u64 {
        self.existing.values().filter(|v| v.2).count() as u64
    }

    /// Insert or update one (already scrubbed) event.
    pub fn upsert(&mut self, ev: &Event) -> Result<()> {
        if self.tomb_ids.contains(&ev.source_event_id) || ev.url.as_ref().is_some_and(|u| self.tomb_urls.contains(u)) {
            self.counts.taken_down += 1;
            return Ok(());
        }
        if !self.seen.insert(ev.source_event_id.clone()) {
            // The feed lists the same id twice: the first one wins.
            return Ok(());
        }
        let hash = content_hash_with(ev, &mut self.json);
        let row_id = match self.existing.get(&ev.source_event_id) {
            Some((_, h, true)) if *h == hash => {
                self.counts.unchanged += 1;
                return Ok(());
            }
            Some((id, _, _)) => {
                let id = *id;
                self.write(ev, &hash, Some(id))?;
                self.counts.updated += 1;
                id
            }
            None => {
                let id = self.write(ev, &hash, None)?;
                self.counts.added += 1;
                id
            }
        };
        self.write_publisher_translations(row_id, ev)?;
        Ok(())
    }

    fn write(&mut self, ev: &Event, hash: &str, row: Option<i64>) -> Result<i64> {
        let m = self.manifest;
        let s = &ev.schedule;
        // The event's JSON, just serialized for its hash, holds the very bytes
        // `serde_json::to_string(&s.occurrences)` gives: cut them out rather
        // than format every date a second time.
        let occurrences = match occurrences_in(&self.json) {
            Some(o) => o,
            None => {
                self.occurrences.clear();
                serde_json::to_writer(&mut self.occurrences, &s.occurrences)?;
                std::str::from_utf8(&self.occurrences)?
            }
        };
        debug_assert_eq!(occurrences, serde_json::to_string(&s.occurrences)?);
        let weekdays = serde_json::to_string(&s.weekdays.iter().map(|d| weekday_code(*d)).collect::<Vec<_>>())?;
        let excluded = serde_json::to_string(&s.excluded)?;
        let categories = serde_json::to_string(&ev.categories)?;
        let source_categories = serde_json::to_string(&ev.source_categories)?;
        let first_start = s.occurrences.first().map(|o| o.start.to_string()).or_else(|| s.start.map(|d| d.to_string()));
        let last_end = s
            .occurrences
            .iter()
            .map(|o| o.end.unwrap_or(o.start))
            .max()
            .map(|d| d.to_string())
            .or_else(|| s.end.map(|d| d.to_string()));
        let v = &ev.venue;
        let values = params![
            m.id,
            ev.source_event_id,
            ev.title,
            ev.description,
            ev.url,
            ev.lang,
            ev.time_zone(),
            s.start.map(|d| d.to_string()),
            s.end.map(|d| d.to_string()),
            s.all_day,
            first_start,
            last_end,
            occurrences,
            weekdays,
            excluded,
            ev.free,
            ev.price,
            ev.audience,
            v.name,
            v.address,
            v.postal_code,
            v.locality,
            v.province,
            v.district,
            v.lat,
            v.lon,
            categories,
            source_categories,
            m.licence.name,
            m.licence.url,
            m.attribution,
            hash,
            self.now,
        ];
        match row {
            None => {
                let mut st = self.tx().prepare_cached(
                    "INSERT INTO events (source, source_event_id, title, description, url, lang, time_zone, start, end, all_day,
                        first_start, last_end, occurrences, weekdays, excluded, free, price, audience, venue_name, address,
                        postal_code, locality, province, district, lat, lon, categories, source_categories, licence,
                        licence_url, attribution, content_hash, first_seen, last_changed, status)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
                        ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?33, 'active')",
                )?;
                st.execute(values)?;
                Ok(self.tx().last_insert_rowid())
            }
            Some(id) => {
                let mut st = self.tx().prepare_cached(
                    "UPDATE events SET source = ?1, source_event_id = ?2, title = ?3, description = ?4, url = ?5, lang = ?6,
                        time_zone = ?7, start = ?8, end = ?9, all_day = ?10, first_start = ?11, last_end = ?12,
                        occurrences = ?13, weekdays = ?14, excluded = ?15, free = ?16, price = ?17, audience = ?18,
                        venue_name = ?19, address = ?20, postal_code = ?21, locality = ?22, province = ?23, district = ?24,
                        lat = ?25, lon = ?26, categories = ?27, source_categories = ?28, licence = ?29, licence_url = ?30,
                        attribution = ?31, content_hash = ?32, last_changed = ?33, status = 'active', withdrawn_at = NULL
                     WHERE id = ?34",
                )?;
                let mut all: Vec<&dyn rusqlite::ToSql> = values.to_vec();
                all.push(&id);
                st.execute(all.as_slice())?;
                Ok(id)
            }
        }
    }

    fn write_publisher_translations(&self, row_id: i64, ev: &Event) -> Result<()> {
        let mut del = self.tx().prepare_cached("DELETE FROM translations WHERE event_id = ?1 AND origin = 'publisher'")?;
        del.execute([row_id])?;
        let mut ins = self.tx().prepare_cached(
            "INSERT OR REPLACE INTO translations (event_id, lang, field, text, origin, engine, source_hash)
             VALUES (?1, ?2, ?3, ?4, 'publisher', NULL, ?5)",
        )?;
        for t in &ev.translations {
            for (field, text, original) in [("title", &t.title, &ev.title), ("description", &t.description, &ev.description)] {
                if !text.is_empty() {
                    ins.execute(params![row_id, t.lang, field, text, super::events::text_hash(original)])?;
                }
            }
        }
        Ok(())
    }

    /// Finish: withdraw what vanished and commit, unless the feed looks broken.
    /// `parsed` and `record_errors` are counts over the feed's records.
    pub fn finish(mut self, parsed: u64, record_errors: u64) -> Result<Verdict> {
        let before = self.active_before();
        let total = parsed + record_errors;
        if total == 0 && before > 0 {
            return self.abandon("the feed holds no records; the stored events are kept".into());
        }
        if total > 0 && record_errors * 5 > total {
            return self.abandon(format!("{record_errors} of {total} records failed to parse (over 20 %); the stored events are kept"));
        }
        if before > 0 && parsed * 2 < before {
            return self.abandon(format!(
                "the feed yields {parsed} events, fewer than half of the {before} stored; the stored events are kept"
            ));
        }
        let mut counts = self.counts;
        {
            let mut st = self.tx().prepare_cached(
                "UPDATE events SET status = 'withdrawn', withdrawn_at = ?2 WHERE id = ?1 AND status = 'active'",
            )?;
            for (id, (row, _, active)) in &self.existing {
                if *active && !self.seen.contains(id) {
                    st.execute(params![row, self.now])?;
                    counts.withdrawn += 1;
                }
            }
        }
        self.restore_cache_size();
        self.tx.take().expect("open transaction").commit()?;
        Ok(Verdict::Committed(counts))
    }

    fn abandon(mut self, why: String) -> Result<Verdict> {
        self.restore_cache_size();
        self.tx.take().expect("open transaction").rollback()?;
        Ok(Verdict::Anomaly(why))
    }

    /// Give up on this ingest (the feed failed): nothing changes.
    pub fn rollback(mut self) -> Result<()> {
        self.restore_cache_size();
        self.tx.take().expect("open transaction").rollback()?;
        Ok(())
    }

    /// The open transaction (present until finish, abandon or rollback).
    fn tx(&self) -> &Transaction<'a> {
        self.tx.as_ref().expect("open transaction")
    }

    /// Put the connection's page cache back as it was before the ingest.
    fn restore_cache_size(&mut self) {
        if let (Some(c), Some(tx)) = (self.cache_size.take(), self.tx.as_ref()) {
            let _ = tx.pragma_update(None, "cache_size", c);
        }
    }
}

impl Drop for SourceIngest<'_> {
    /// Dropped unfinished: the transaction rolls back; the cache size is restored.
    fn drop(&mut self) {
        self.restore_cache_size();
    }
}
