//! Read-only reports over runs, the fetch log and stored events: `runs`,
//! `holdings` (P17).

use super::Store;
use crate::lang::Lang;
use crate::vocab::Field;
use anyhow::Result;
use rusqlite::params;
use serde::Serialize;

/// One run and its sources.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunRow {
    pub run_id: i64,
    pub started_at: jiff::Timestamp,
    pub finished_at: Option<jiff::Timestamp>,
    pub exit_code: Option<i32>,
    pub status: RunStatus,
    pub sources: Vec<super::runs::SourceReport>,
}

/// How a run ended, as its row says (from its exit code; not stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    Finished,
    /// Its deadline passed or a signal stopped it (exit 5).
    Interrupted,
    /// Still running, or killed outright.
    Unfinished,
}

/// What a run's row says of its end.
fn run_status(exit_code: Option<i32>) -> RunStatus {
    match exit_code {
        None => RunStatus::Unfinished,
        Some(code) if code == i32::from(crate::output::Exit::Interrupted.code()) => RunStatus::Interrupted,
        Some(_) => RunStatus::Finished,
    }
}

/// What we hold of one source (P17).
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct Holdings {
    pub events_active: u64,
    pub events_withdrawn: u64,
    /// Earliest start and latest end over the source's events (local dates/times as stored).
    pub first_date: Option<String>,
    pub last_date: Option<String>,
    /// Columns of `events` that hold a value for at least one of the source's events.
    pub fields: Vec<String>,
    /// Translation rows held, per language.
    pub translations: Vec<(String, u64)>,
    /// When we first stored one of its events, and when one last changed.
    pub first_seen: Option<jiff::Timestamp>,
    pub last_changed: Option<jiff::Timestamp>,
}

/// Bookkeeping columns: always set by us, not content taken from the source.
const INTERNAL: &[&str] = &["id", "content_hash", "status", "first_seen", "last_changed", "withdrawn_at"];

impl Store {
    /// The stored events whose link (`url`) `is_link` accepts, by source
    /// and id; only links holding `host` (without `www.`) are looked at: the
    /// text match narrows, `is_link` decides.
    pub fn events_linking_to(&self, host: &str, is_link: impl Fn(&str) -> bool) -> Result<Vec<LinkingEvent>> {
        let needle = host.strip_prefix("www.").unwrap_or(host);
        let mut st = self.conn.prepare(
            "SELECT source, source_event_id, title, status, url FROM events WHERE url LIKE '%' || ?1 || '%' ORDER BY source, source_event_id",
        )?;
        let rows = st.query_map([needle], |r| {
            Ok((LinkingEvent { source: r.get(0)?, id: r.get(1)?, title: r.get(2)?, status: r.get(3)? }, r.get::<_, String>(4)?))
        })?;
        let mut found = Vec::new();
        for row in rows {
            let (event, url) = row?;
            if is_link(&url) {
                found.push(event);
            }
        }
        Ok(found)
    }

    /// The last `limit` runs, newest first, each with its sources.
    pub fn list_runs(&self, limit: usize) -> Result<Vec<RunRow>> {
        let mut st = self.conn.prepare("SELECT id, started_at, finished_at, exit_code FROM runs ORDER BY id DESC LIMIT ?1")?;
        let mut runs: Vec<RunRow> = st
            .query_map([limit as i64], |r| {
                let exit_code = r.get(3)?;
                Ok(RunRow {
                    run_id: r.get(0)?,
                    started_at: crate::times::column(r, 1)?,
                    finished_at: crate::times::column_opt(r, 2)?,
                    exit_code,
                    status: run_status(exit_code),
                    sources: vec![],
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut st = self.conn.prepare(
            "SELECT source, status, requests, not_modified, added, updated, withdrawn, record_errors, translated, duration_ms, message,
                translation_cache_hits, translation_pending
             FROM run_sources WHERE run_id = ?1 ORDER BY source",
        )?;
        for run in &mut runs {
            run.sources = st
                .query_map([run.run_id], |r| {
                    Ok(super::runs::SourceReport {
                        id: r.get(0)?,
                        status: r.get(1)?,
                        requests: r.get::<_, i64>(2)? as u64,
                        not_modified: r.get::<_, i64>(3)? as u64,
                        added: r.get::<_, i64>(4)? as u64,
                        updated: r.get::<_, i64>(5)? as u64,
                        withdrawn: r.get::<_, i64>(6)? as u64,
                        record_errors: r.get::<_, i64>(7)? as u64,
                        // In the stored message; not a column.
                        merged: 0,
                        translated: r.get::<_, i64>(8)? as u64,
                        duration_ms: r.get::<_, i64>(9)? as u64,
                        message: r.get(10)?,
                        translation_cache_hits: r.get::<_, i64>(11)? as u64,
                        translation_pending: r.get::<_, i64>(12)? as u64,
                        // Said once, by the run that skipped the source (not stored).
                        next_due: None,
                        not_before: None,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(runs)
    }

    /// What the database holds of one source: counts, dates, fields.
    pub fn holdings(&self, source: &str) -> Result<Holdings> {
        let mut h = Holdings::default();
        (h.events_active, h.events_withdrawn) = self.count_events(source)?;
        (h.first_date, h.last_date, h.first_seen, h.last_changed) = self.conn.query_row(
            "SELECT min(coalesce(first_start, start)), max(coalesce(last_end, end, first_start, start)), min(first_seen), max(last_changed)
             FROM events WHERE source = ?1",
            [source],
            |r| Ok((r.get(0)?, r.get(1)?, crate::times::column_opt(r, 2)?, crate::times::column_opt(r, 3)?)),
        )?;
        let columns: Vec<String> = {
            let mut st = self.conn.prepare("SELECT name FROM pragma_table_info('events') ORDER BY cid")?;
            st.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?
        };
        for c in columns {
            if INTERNAL.contains(&c.as_str()) {
                continue;
            }
            // A JSON list or text that is empty holds nothing of theirs.
            let sql = format!(
                "SELECT EXISTS (SELECT 1 FROM events WHERE source = ?1 AND \"{c}\" IS NOT NULL
                     AND CAST(\"{c}\" AS TEXT) NOT IN ('', '[]', '{{}}', 'null'))"
            );
            let present: bool = self.conn.query_row(&sql, params![source], |r| r.get(0))?;
            if present {
                h.fields.push(c);
            }
        }
        let mut st = self.conn.prepare(
            "SELECT t.lang, count(*) FROM translations t JOIN events e ON e.id = t.event_id WHERE e.source = ?1 GROUP BY t.lang ORDER BY t.lang",
        )?;
        h.translations = st.query_map([source], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?.collect::<rusqlite::Result<_>>()?;
        Ok(h)
    }
}

/// A translation of one event's field as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownText {
    pub text: String,
    /// The publisher, a human, or the engine that made it.
    pub origin: crate::vocab::TextOrigin,
    /// Whether it was made from the event's current original text.
    pub current: bool,
}

impl Store {
    /// The stored translations into `lang` of events (by row id): (row id, field) → text.
    pub fn translations_into(&self, lang: Lang) -> Result<std::collections::HashMap<(i64, Field), ShownText>> {
        let mut st = self.conn.prepare(
            "SELECT t.event_id, t.field, t.text, t.origin, t.engine, t.source_hash, e.title, e.description, e.price
             FROM translations t JOIN events e ON e.id = t.event_id WHERE t.lang = ?1",
        )?;
        let rows = st.query_map([lang], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Field>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, crate::vocab::TextOrigin>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, Option<String>>(8)?.unwrap_or_default(),
            ))
        })?;
        let mut out = std::collections::HashMap::new();
        for row in rows {
            let (id, field, text, origin, engine, hash, title, description, price) = row?;
            let original = match field {
                Field::Title => &title,
                Field::Description => &description,
                Field::Price => &price,
            };
            let current = super::events::text_hash(original) == hash;
            out.insert((id, field), ShownText { text, origin: origin.made_by(engine), current });
        }
        Ok(out)
    }
}

/// A stored event found by its link (`holdings`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct LinkingEvent {
    pub source: String,
    pub id: String,
    pub title: String,
    /// `active`, `withdrawn` (gone from the feed) or `withheld` (by the operator).
    pub status: crate::vocab::EventStatus,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's end reads as `runs --json` has always written it.
    #[test]
    fn a_runs_end_keeps_its_spelling() {
        let word = |code| serde_json::to_value(run_status(code)).unwrap();
        assert_eq!(word(None), "unfinished");
        assert_eq!(word(Some(0)), "finished");
        assert_eq!(word(Some(1)), "finished");
        assert_eq!(word(Some(5)), "interrupted");
    }
}
