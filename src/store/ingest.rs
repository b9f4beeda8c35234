//! One source's ingest as one transaction: upsert what the feed holds,
//! withdraw what vanished (P20), unless the feed looks broken — then nothing
//! of the source changes (the transaction is rolled back).

use super::Store;
use super::row::{self, Columns};
use crate::adapter::Manifest;
use crate::model::Event;
use crate::vocab::Field;
use anyhow::Result;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, Transaction, params};
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
    /// Operator corrections that lapsed because the feed changed their field.
    pub corrections_lapsed: u64,
    /// Records that repeated an id an earlier record of the feed had: each
    /// merged into that id's one event, the last record winning.
    pub merged: u64,
}

/// What this ingest wrote for one id: its row, the content hash written,
/// and whether that first write left the stored row unchanged.
struct Written {
    row: i64,
    hash: String,
    unchanged: bool,
}

/// Why an ingest was not committed.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Committed(IngestCounts),
    /// The feed looks broken; nothing of the source changed.
    Anomaly(String),
}

/// The rule lives with the other tunable limits, in `policy`.
pub use crate::policy::WithdrawGuard;

/// An open per-source transaction.
pub struct SourceIngest<'a> {
    /// The new-row insert, prepared once (declared before `tx`: dropped first).
    insert: rusqlite::Statement<'a>,
    tx: Transaction<'a>,
    manifest: &'static Manifest,
    /// The operator's corrections, put back after the feed rewrites a row.
    corrections: super::corrections::Active,
    /// Stored events of the source: source event id → (row id, content hash, active).
    existing: HashMap<String, (i64, String, bool)>,
    seen: HashSet<String>,
    /// The rows written by this ingest, by source event id: a later record of
    /// the same id rewrites its row (the last one wins).
    written: HashMap<String, Written>,
    /// Ids of the feed skipped because a takedown names them: in the feed all
    /// the same, so they count among its distinct ids.
    taken_down_ids: HashSet<String>,
    /// Ids of records the feed lists but that could not be read: their stored
    /// events stay as they are.
    kept: HashSet<String>,
    /// The most of the source's active events one ingest may withdraw (P20).
    withdraw_guard: WithdrawGuard,
    tomb_ids: HashSet<String>,
    tomb_urls: HashSet<String>,
    counts: IngestCounts,
    now: i64,
    /// The store's clock, which dates a correction that lapses.
    clock: std::sync::Arc<dyn crate::clock::Clock + Send + Sync>,
    /// The highest event id any translation pointed at when the ingest began.
    max_translated: Option<i64>,
    /// The connection's page cache size, to restore after a larger one for the ingest.
    cache_size: Option<i64>,
}

/// Page cache for an ingest's transaction, in KiB (`PRAGMA cache_size = -N`).
/// Below about this size, SQLite re-reads spilled B-tree pages from the WAL
/// and writes them again: on 100 000 or 200 000 Madrid events, 2 MB (the
/// default) or 16 MB cost a third more page writes and twice the page reads;
/// 32 MB and more cost none (measured with `strace -c`).
const INGEST_CACHE_KIB: i64 = 32 * 1024;

// Licence and attribution are not copied into rows: readers cite the source (P19).
const INSERT_EVENT: &str = "INSERT INTO events (source, source_event_id, title, description, url, lang, time_zone, start, end, all_day,
        first_start, last_end, occurrences, weekdays, excluded, free, price, audience, venue_name, address,
        postal_code, locality, province, district, lat, lon, categories, source_categories,
        content_hash, first_seen, last_changed, status)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
        ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?30, 'active')";

impl Store {
    /// Begin the ingest of one source.
    pub fn begin_ingest(&mut self, manifest: &'static Manifest) -> Result<SourceIngest<'_>> {
        // `&mut self` keeps transactions from nesting, as `Connection::transaction`
        // would; a shared borrow for the ingest's life lets it hold a statement.
        let conn: &Connection = &self.conn;
        let tx = Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)?;
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
            let rows =
                st.query_map([], |r| Ok((r.get::<_, Option<String>>(0)?, r.get::<_, Option<String>>(1)?, r.get::<_, Option<String>>(2)?)))?;
            for row in rows {
                let (src, id, url) = row?;
                if let (Some(src), Some(id)) = (src, id)
                    && src == manifest.id
                {
                    tomb_ids.insert(id);
                }
                if let Some(url) = url {
                    tomb_urls.insert(url);
                }
            }
        }
        let max_translated = tx.query_row("SELECT max(event_id) FROM translations", [], |r| r.get::<_, Option<i64>>(0))?;
        let corrections = super::corrections::Active::load(&tx, manifest.id)?;
        let now = self.clock.now_ms();
        let mut insert = conn.prepare(INSERT_EVENT)?;
        // What every new row of this ingest shares is bound once, not per row.
        for (i, shared) in [(1, &manifest.id as &dyn rusqlite::ToSql), (30, &now)] {
            insert.raw_bind_parameter(i, shared)?;
        }
        // Not transactional: put back by finish, abandon and rollback.
        let before = tx.pragma_query_value(None, "cache_size", |r| r.get::<_, i64>(0))?;
        let kib = |size: i64| if size < 0 { -size } else { size * 4 };
        let cache_size = (kib(before) < INGEST_CACHE_KIB).then_some(before);
        if cache_size.is_some() {
            tx.pragma_update(None, "cache_size", -INGEST_CACHE_KIB)?;
        }
        Ok(SourceIngest {
            insert,
            tx,
            manifest,
            corrections,
            existing,
            seen: HashSet::new(),
            written: HashMap::new(),
            taken_down_ids: HashSet::new(),
            kept: HashSet::new(),
            withdraw_guard: WithdrawGuard::default(),
            tomb_ids,
            tomb_urls,
            counts: IngestCounts::default(),
            now,
            clock: self.clock.clone(),
            max_translated,
            cache_size,
        })
    }
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
            if !self.taken_down_ids.contains(&ev.source_event_id) {
                self.taken_down_ids.insert(ev.source_event_id.clone());
            }
            return Ok(());
        }
        let columns = Columns::of(ev)?;
        let values = columns.values(ev);
        let hash = row::content_hash(&values, &ev.translations);
        if !self.seen.insert(ev.source_event_id.clone()) {
            // The feed lists the id again: one event, the last record wins.
            return self.merge(ev, &values, hash);
        }
        let row_id = match self.existing.get(&ev.source_event_id) {
            Some((id, h, true)) if *h == hash => {
                self.counts.unchanged += 1;
                self.written.insert(ev.source_event_id.clone(), Written { row: *id, hash, unchanged: true });
                return Ok(());
            }
            Some((id, h, true)) if row::legacy_hash_matches(h, ev) => {
                // Unchanged since a run before the hash's form changed: only the hash is new.
                self.tx.prepare_cached("UPDATE events SET content_hash = ?2 WHERE id = ?1")?.execute(params![id, hash])?;
                self.counts.unchanged += 1;
                self.written.insert(ev.source_event_id.clone(), Written { row: *id, hash, unchanged: true });
                return Ok(());
            }
            Some((id, _, _)) => {
                let id = *id;
                self.write(&values, &hash, Some(id))?;
                self.counts.corrections_lapsed += self.corrections.after_write(&self.tx, id, &*self.clock)?;
                self.counts.updated += 1;
                self.written.insert(ev.source_event_id.clone(), Written { row: id, hash: hash.clone(), unchanged: false });
                id
            }
            None => {
                let id = self.write(&values, &hash, None)?;
                self.counts.added += 1;
                self.written.insert(ev.source_event_id.clone(), Written { row: id, hash: hash.clone(), unchanged: false });
                // A row id above every id translations pointed at when the
                // ingest began has none: only this ingest writes them, each
                // for its own row, after its own delete.
                if self.max_translated.is_none_or(|m| id > m) {
                    if !ev.translations.is_empty() {
                        self.insert_publisher_translations(id, ev)?;
                    }
                    return Ok(());
                }
                id
            }
        };
        self.write_publisher_translations(row_id, ev)?;
        Ok(())
    }

    /// A record the adapter merged into an earlier one of the same id before
    /// it came here (its dates joined): counted as merged, as [`Self::merge`] counts.
    pub fn count_merged_repeat(&mut self) {
        self.counts.merged += 1;
    }

    /// A later record of an id this ingest already wrote: counted as merged,
    /// and when it differs, written over that row (the last record wins; an
    /// event the first record had left unchanged counts as updated).
    fn merge(&mut self, ev: &Event, values: &[ValueRef<'_>; row::VALUES], hash: String) -> Result<()> {
        self.counts.merged += 1;
        let Some(w) = self.written.get(&ev.source_event_id) else { return Ok(()) };
        if w.hash == hash {
            return Ok(());
        }
        let (row, was_unchanged) = (w.row, w.unchanged);
        self.write(values, &hash, Some(row))?;
        self.counts.corrections_lapsed += self.corrections.after_write(&self.tx, row, &*self.clock)?;
        if was_unchanged {
            self.counts.unchanged -= 1;
            self.counts.updated += 1;
        }
        self.write_publisher_translations(row, ev)?;
        self.written.insert(ev.source_event_id.clone(), Written { row, hash, unchanged: false });
        Ok(())
    }

    /// Write the row: a new one, or over the row `row` (parameters 2 to 28 are `values`).
    fn write(&mut self, values: &[ValueRef<'_>; row::VALUES], hash: &str, row: Option<i64>) -> Result<i64> {
        match row {
            None => {
                // Parameters 1 (source) and 30 (now) were bound by `begin_ingest`.
                for (i, value) in values.iter().enumerate() {
                    self.insert.raw_bind_parameter(i + 2, ToSqlOutput::Borrowed(*value))?;
                }
                self.insert.raw_bind_parameter(29, hash)?;
                self.insert.raw_execute()?;
                Ok(self.tx.last_insert_rowid())
            }
            Some(id) => {
                let mut st = self.tx.prepare_cached(
                    "UPDATE events SET source = ?1, source_event_id = ?2, title = ?3, description = ?4, url = ?5, lang = ?6,
                        time_zone = ?7, start = ?8, end = ?9, all_day = ?10, first_start = ?11, last_end = ?12,
                        occurrences = ?13, weekdays = ?14, excluded = ?15, free = ?16, price = ?17, audience = ?18,
                        venue_name = ?19, address = ?20, postal_code = ?21, locality = ?22, province = ?23, district = ?24,
                        lat = ?25, lon = ?26, categories = ?27, source_categories = ?28,
                        content_hash = ?29, last_changed = ?30, status = 'active', withdrawn_at = NULL
                     WHERE id = ?31",
                )?;
                let values = values.iter().map(|v| ToSqlOutput::Borrowed(*v));
                let all: Vec<ToSqlOutput<'_>> =
                    std::iter::once(self.manifest.id.into()).chain(values).chain([hash.into(), self.now.into(), id.into()]).collect();
                st.execute(rusqlite::params_from_iter(all))?;
                Ok(id)
            }
        }
    }

    fn write_publisher_translations(&self, row_id: i64, ev: &Event) -> Result<()> {
        let mut del = self.tx.prepare_cached("DELETE FROM translations WHERE event_id = ?1 AND origin = 'publisher'")?;
        del.execute([row_id])?;
        self.insert_publisher_translations(row_id, ev)
    }

    fn insert_publisher_translations(&self, row_id: i64, ev: &Event) -> Result<()> {
        let mut ins = self.tx.prepare_cached(
            "INSERT OR REPLACE INTO translations (event_id, lang, field, text, origin, engine, source_hash)
             VALUES (?1, ?2, ?3, ?4, 'publisher', NULL, ?5)",
        )?;
        for t in &ev.translations {
            for (field, text, original) in [(Field::Title, &t.title, &ev.title), (Field::Description, &t.description, &ev.description)] {
                if !text.is_empty() {
                    ins.execute(params![row_id, t.lang, field, text, super::events::text_hash(original)])?;
                }
            }
        }
        Ok(())
    }

    /// A record the feed lists under `id` could not be read: its stored event,
    /// if any, is neither updated nor withdrawn.
    pub fn keep(&mut self, id: &str) {
        if !self.kept.contains(id) {
            self.kept.insert(id.to_string());
        }
    }

    /// Set the most this ingest may withdraw at once (default: [`WithdrawGuard::default`]).
    pub fn set_withdraw_guard(&mut self, guard: WithdrawGuard) {
        self.withdraw_guard = guard;
    }

    /// Finish: withdraw what vanished and commit, unless the feed looks broken.
    /// `parsed` and `record_errors` are counts over the feed's records; the
    /// rules count the feed's distinct ids, so that records repeating one id
    /// cannot pass for a full feed (P20).
    pub fn finish(self, parsed: u64, record_errors: u64) -> Result<Verdict> {
        let source = self.manifest.id;
        let before = self.active_before();
        let distinct = (self.seen.len() + self.taken_down_ids.len()) as u64;
        let repeats = if parsed > distinct { format!(" ({parsed} records, only {distinct} distinct ids)") } else { String::new() };
        let total = distinct + record_errors;
        if total == 0 && before > 0 {
            return self.abandon(format!("{source}: the feed holds no records; the {before} stored events are kept"));
        }
        if total > 0 && record_errors * 5 > total {
            return self.abandon(format!(
                "{source}: {record_errors} of {total} records failed to parse (over 20 %){repeats}; the stored events are kept"
            ));
        }
        if before > 0 && distinct * 2 < before {
            return self.abandon(format!(
                "{source}: the feed yields {distinct} distinct events{repeats}, fewer than half of the {before} stored; the stored events are kept"
            ));
        }
        let vanished: Vec<i64> = self
            .existing
            .iter()
            .filter(|(id, (_, _, active))| *active && !self.seen.contains(*id) && !self.kept.contains(*id))
            .map(|(_, (row, _, _))| *row)
            .collect();
        let gone = vanished.len() as u64;
        if self.withdraw_guard.refuses(gone, before) {
            let share = self.withdraw_guard.max_share;
            return self.abandon(format!(
                "{source}: the feed would withdraw {gone} of the {before} active events at once ({:.0} %, over the {:.0} % allowed){repeats}; \
                 nothing changed; if the feed is right, allow more for one run with max_withdraw_share = {} (at most {}) on [sources.{source}] in sources.toml",
                gone as f64 * 100.0 / before as f64,
                share * 100.0,
                ((gone as f64 / before as f64 * 100.0).ceil() / 100.0).min(WithdrawGuard::CEILING),
                WithdrawGuard::CEILING
            ));
        }
        let mut counts = self.counts;
        {
            let mut st =
                self.tx.prepare_cached("UPDATE events SET status = 'withdrawn', withdrawn_at = ?2 WHERE id = ?1 AND status = 'active'")?;
            for row in &vanished {
                st.execute(params![row, self.now])?;
                counts.withdrawn += 1;
            }
        }
        self.restore_cache_size();
        drop(self.insert);
        self.tx.commit()?;
        Ok(Verdict::Committed(counts))
    }

    fn abandon(self, why: String) -> Result<Verdict> {
        self.restore_cache_size();
        drop(self.insert);
        self.tx.rollback()?;
        Ok(Verdict::Anomaly(why))
    }

    /// Give up on this ingest (the feed failed): nothing changes.
    pub fn rollback(self) -> Result<()> {
        self.restore_cache_size();
        drop(self.insert);
        self.tx.rollback()?;
        Ok(())
    }

    fn restore_cache_size(&self) {
        if let Some(size) = self.cache_size {
            let _ = self.tx.pragma_update(None, "cache_size", size);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Category, Occurrence, PublisherTranslation, Schedule};
    use jiff::civil::{date, time};
    use sha2::{Digest, Sha256};

    fn events() -> Vec<Event> {
        let mut plain = Event::new("1", "Concierto", "es").unwrap();
        plain.schedule = Schedule::from_span(
            date(2026, 12, 1),
            Some(date(2026, 12, 31)),
            Some(time(18, 0, 0, 0)),
            None,
            vec![jiff::civil::Weekday::Tuesday],
            vec![date(2026, 12, 8)],
        );
        let mut full = Event::new("a\"b\\c", "Tít\u{1}ulo «x» \u{7f} \u{2028} 😀", "es").unwrap();
        full.description = "línea\nsegunda\t\r </script> [x] \"q\"".into();
        full.url = Some("https://x.es/?a=1&b=\"2\"".into());
        full.free = Some(false);
        full.price = Some("12,50 €".into());
        full.audience = Some("Familias".into());
        full.venue.name = Some("Sala \\ 1".into());
        full.venue.address = Some(String::new());
        full.venue.postal_code = Some("28001".into());
        full.venue.locality = Some("Madrid".into());
        full.venue.province = Some("Madrid".into());
        full.venue.district = Some("Centro".into());
        full.venue.lat = Some(40.4249721516942);
        full.venue.lon = Some(-3.7);
        full.categories = vec![Category::Music, Category::Family, Category::Other];
        full.source_categories = vec!["Música]".into(), "\"[a,b]\"".into()];
        full.translations = vec![PublisherTranslation { lang: "en".into(), title: "Concert".into(), description: "Desc ]".into() }];
        full.schedule = Schedule {
            start: Some(date(-44, 3, 15).to_datetime(time(12, 0, 0, 5))),
            end: Some(date(0, 1, 1).to_datetime(time(0, 0, 0, 0))),
            all_day: true,
            weekdays: vec![jiff::civil::Weekday::Sunday, jiff::civil::Weekday::Monday],
            excluded: vec![date(-1, 12, 31), date(9999, 12, 31), date(5, 6, 7)],
            occurrences: vec![
                Occurrence { start: date(2025, 10, 25).to_datetime(time(19, 0, 0, 0)), end: None },
                Occurrence {
                    start: date(1, 2, 3).to_datetime(time(4, 5, 6, 0)),
                    end: Some(date(2025, 1, 1).to_datetime(time(23, 59, 59, 999_999_999))),
                },
                Occurrence {
                    start: date(-9999, 1, 1).to_datetime(time(0, 0, 0, 100_000_000)),
                    end: Some(date(9999, 12, 31).to_datetime(time(23, 59, 59, 0))),
                },
            ],
        };
        let mut odd = full.clone();
        odd.free = None;
        odd.venue.lat = Some(f64::NAN);
        odd.venue.lon = Some(f64::INFINITY);
        odd.venue.name = None;
        odd.url = None;
        odd.schedule.start = None;
        odd.schedule.end = None;
        odd.schedule.all_day = false;
        odd.categories.clear();
        odd.source_categories.clear();
        odd.translations.push(PublisherTranslation { lang: "fr".into(), title: String::new(), description: "é".into() });
        vec![plain, full, odd, Event::new("x", "y", "ca").unwrap()]
    }

    #[test]
    fn page_cache_is_put_back_after_an_ingest() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let size = |s: &Store| s.connection().pragma_query_value(None, "cache_size", |r| r.get::<_, i64>(0)).unwrap();
        let before = size(&store);
        let mut ingest = store.begin_ingest(&crate::adapters::madrid::MANIFEST).unwrap();
        assert_eq!(ingest.tx.pragma_query_value(None, "cache_size", |r| r.get::<_, i64>(0)).unwrap(), -INGEST_CACHE_KIB);
        ingest.upsert(&events()[0]).unwrap();
        assert!(matches!(ingest.finish(1, 0).unwrap(), Verdict::Committed(_)));
        assert_eq!(size(&store), before);
        let ingest = store.begin_ingest(&crate::adapters::madrid::MANIFEST).unwrap();
        ingest.rollback().unwrap();
        assert_eq!(size(&store), before);
    }

    /// [`events`] with one id each (two of them share one there).
    fn distinct_events() -> Vec<Event> {
        let mut events = events();
        events[2].source_event_id = "odd".into();
        events
    }

    fn ingest_all(store: &mut Store, events: &[Event]) -> IngestCounts {
        let mut ingest = store.begin_ingest(&crate::adapters::madrid::MANIFEST).unwrap();
        for ev in events {
            ingest.upsert(ev).unwrap();
        }
        match ingest.finish(events.len() as u64, 0).unwrap() {
            Verdict::Committed(counts) => counts,
            Verdict::Anomaly(why) => panic!("{why}"),
        }
    }

    fn stored_hashes(store: &Store) -> Vec<(String, String, i64)> {
        let mut st = store.connection().prepare("SELECT source_event_id, content_hash, last_changed FROM events ORDER BY id").unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
    }

    /// Rows written before the content hash changed form hold the hex SHA-256
    /// of the event's JSON. An upgrade must show none of those events as
    /// changed (an update rewrites the row and may lapse an operator's
    /// correction): they stay unchanged and take the new hash.
    #[test]
    fn events_stored_with_the_old_hash_stay_unchanged_across_the_upgrade() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let events = distinct_events();
        assert_eq!(ingest_all(&mut store, &events).added, 4);
        let new_form = stored_hashes(&store);
        for ev in &events {
            let old = hex::encode(Sha256::digest(serde_json::to_vec(ev).unwrap()));
            store
                .connection()
                .execute(
                    "UPDATE events SET content_hash = ?1, last_changed = 7 WHERE source_event_id = ?2",
                    params![old, ev.source_event_id],
                )
                .unwrap();
        }
        let counts = ingest_all(&mut store, &events);
        assert_eq!((counts.unchanged, counts.updated, counts.added), (4, 0, 0), "{counts:?}");
        let after = stored_hashes(&store);
        assert!(after.iter().all(|(_, hash, last_changed)| hash.len() == 32 && *last_changed == 7), "{after:?}");
        assert_eq!(after.iter().map(|r| &r.1).collect::<Vec<_>>(), new_form.iter().map(|r| &r.1).collect::<Vec<_>>());
        let again = ingest_all(&mut store, &events);
        assert_eq!((again.unchanged, again.updated), (4, 0), "{again:?}");
    }

    /// The old hash of an event that changed since is no match: it is updated.
    #[test]
    fn an_event_changed_since_its_old_hash_is_updated() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let mut events = distinct_events();
        ingest_all(&mut store, &events);
        for ev in &events {
            let old = hex::encode(Sha256::digest(serde_json::to_vec(ev).unwrap()));
            store
                .connection()
                .execute("UPDATE events SET content_hash = ?1 WHERE source_event_id = ?2", params![old, ev.source_event_id])
                .unwrap();
        }
        events[1].venue.locality = Some("Getafe".into());
        let counts = ingest_all(&mut store, &events);
        assert_eq!((counts.unchanged, counts.updated), (3, 1), "{counts:?}");
    }

    /// Every difference in what is stored of an event changes its hash, and
    /// only those: a value that moves to the next column or becomes NULL
    /// instead of empty is a change too.
    #[test]
    fn the_content_hash_tells_every_stored_difference() {
        let hash = |ev: &Event| {
            let columns = Columns::of(ev).unwrap();
            row::content_hash(&columns.values(ev), &ev.translations)
        };
        let base = events().swap_remove(1);
        assert_eq!(hash(&base), hash(&base.clone()));
        let changes: Vec<fn(&mut Event)> = vec![
            |e| e.title.push('x'),
            |e| e.url = None,
            |e| e.venue.address = None,
            |e| e.price = Some(String::new()),
            |e| {
                // The same bytes, split at another column.
                e.description = format!("{}{}", e.title, e.description);
                e.title.clear();
            },
            |e| e.free = Some(true),
            |e| e.free = None,
            |e| e.venue.lat = Some(40.42497215169421),
            |e| e.schedule.all_day = false,
            |e| e.schedule.occurrences.pop().map(drop).unwrap_or_default(),
            |e| e.schedule.excluded.clear(),
            |e| e.categories.reverse(),
            |e| e.source_categories.push(String::new()),
            |e| e.translations[0].description.push('!'),
            |e| e.translations[0].lang = "fr".into(),
            |e| e.translations.clear(),
        ];
        let mut seen = HashSet::from([hash(&base)]);
        for (i, change) in changes.iter().enumerate() {
            let mut ev = base.clone();
            change(&mut ev);
            assert!(seen.insert(hash(&ev)), "change {i} left the hash as another event's");
        }
    }
}
