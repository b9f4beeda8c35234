//! The queries behind `cityvibe report` (issue 23): runs per source, events
//! over time, translation coverage, requests per host and day, and a host's
//! requests one by one. Every figure on a report page is one of these.
//!
//! Not for: drawing or wording (`crate::report`), nor for writing: the fetch
//! log and the run records are read here as they were written elsewhere.

use super::Store;
use crate::vocab::TextOrigin;
use anyhow::{Context, Result};
use rusqlite::params;

/// One source's line in one run, its status read as the word stored, so a
/// status this build does not know (an `interrupted` run, say) still shows.
#[derive(Debug, Clone, PartialEq)]
pub struct RunMark {
    pub run_id: i64,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
    pub exit_code: Option<i32>,
    pub source: String,
    pub status: String,
    pub requests: u64,
    pub not_modified: u64,
    pub added: u64,
    pub updated: u64,
    pub withdrawn: u64,
    pub record_errors: u64,
    pub duration_ms: u64,
    pub message: String,
}

/// One request of the fetch log, as the host page counts it.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub run_id: Option<i64>,
    pub source: String,
    pub url: String,
    pub started_ms: i64,
    pub status: Option<u16>,
    pub bytes: u64,
    pub outcome: String,
}

/// Translation rows per display language, by where they came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Coverage {
    pub lang: String,
    pub publisher: u64,
    pub human: u64,
    pub machine: u64,
    /// Texts of active events in another language with no translation row yet.
    pub pending: u64,
}

/// The Europe/Madrid day of a moment in ms, as `YYYY-MM-DD`.
pub fn madrid_day(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .ok()
        .and_then(|t| t.in_tz(crate::model::TZ_MADRID).ok())
        .map(|z| z.date().to_string())
        .unwrap_or_default()
}

impl Store {
    /// Every source line of every run started since `since_ms`, oldest first.
    pub fn run_marks(&self, since_ms: i64) -> Result<Vec<RunMark>> {
        let mut st = self.conn.prepare(
            "SELECT r.id, r.started_at, r.finished_at, r.exit_code, s.source, s.status, s.requests, s.not_modified,
                    s.added, s.updated, s.withdrawn, s.record_errors, s.duration_ms, s.message
             FROM runs r JOIN run_sources s ON s.run_id = r.id WHERE r.started_at >= ?1 ORDER BY r.id, s.source",
        )?;
        let n = |r: &rusqlite::Row, i: usize| r.get::<_, i64>(i).map(|v| v.max(0) as u64);
        let rows = st.query_map([since_ms], |r| {
            Ok(RunMark {
                run_id: r.get(0)?,
                started_ms: r.get(1)?,
                finished_ms: r.get(2)?,
                exit_code: r.get(3)?,
                source: r.get(4)?,
                status: r.get(5)?,
                requests: n(r, 6)?,
                not_modified: n(r, 7)?,
                added: n(r, 8)?,
                updated: n(r, 9)?,
                withdrawn: n(r, 10)?,
                record_errors: n(r, 11)?,
                duration_ms: n(r, 12)?,
                message: r.get(13)?,
            })
        })?;
        rows.collect::<rusqlite::Result<_>>().context("reading the runs for the report")
    }

    /// Events of `source` that were active at the end of each of `days`
    /// (Europe/Madrid, `YYYY-MM-DD`), from when each was first stored and
    /// withdrawn; a taken-down event is gone and counts on no day.
    pub fn active_per_day(&self, source: &str, day_ends_ms: &[i64]) -> Result<Vec<u64>> {
        let mut st = self.conn.prepare_cached(
            "SELECT count(*) FROM events WHERE source = ?1 AND first_seen < ?2 AND (withdrawn_at IS NULL OR withdrawn_at >= ?2)",
        )?;
        day_ends_ms.iter().map(|end| Ok(st.query_row(params![source, end], |r| r.get::<_, i64>(0))?.max(0) as u64)).collect()
    }

    /// The sources with stored events, by id.
    pub fn sources_with_events(&self) -> Result<Vec<String>> {
        let mut st = self.conn.prepare("SELECT DISTINCT source FROM events ORDER BY source")?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Translation coverage of active events in each of `langs`: stored rows
    /// by origin, and the texts (non-empty titles and descriptions of events
    /// in another language) that have none yet.
    pub fn translation_coverage(&self, langs: &[String]) -> Result<Vec<Coverage>> {
        let mut out = Vec::new();
        let mut by_origin = self.conn.prepare(
            "SELECT t.origin, count(*) FROM translations t JOIN events e ON e.id = t.event_id
             WHERE e.status = 'active' AND t.lang = ?1 AND e.lang <> ?1 GROUP BY t.origin",
        )?;
        let mut texts = self.conn.prepare(
            "SELECT coalesce(sum(trim(title) <> ''), 0) + coalesce(sum(trim(description) <> ''), 0)
             FROM events WHERE status = 'active' AND lang <> ?1",
        )?;
        for lang in langs {
            let mut c = Coverage { lang: lang.clone(), ..Default::default() };
            let rows = by_origin.query_map([lang], |r| Ok((r.get::<_, TextOrigin>(0)?, r.get::<_, i64>(1)?.max(0) as u64)))?;
            for row in rows {
                let (origin, n) = row?;
                match origin {
                    TextOrigin::Publisher => c.publisher += n,
                    TextOrigin::Human => c.human += n,
                    TextOrigin::Machine(_) => c.machine += n,
                }
            }
            let wanted: i64 = texts.query_row([lang], |r| r.get(0))?;
            c.pending = (wanted.max(0) as u64).saturating_sub(c.publisher + c.human + c.machine);
            out.push(c);
        }
        Ok(out)
    }

    /// Texts an engine failed on repeatedly and that wait for a later try
    /// (the failure record is kept per text, not per language).
    pub fn translation_failures_count(&self) -> Result<u64> {
        Ok(self.conn.query_row("SELECT count(*) FROM translation_failures", [], |r| r.get::<_, i64>(0))?.max(0) as u64)
    }

    /// The hosts the fetch log has requests to since `since_ms`.
    pub fn hosts_requested(&self, since_ms: i64) -> Result<Vec<String>> {
        let mut st = self.conn.prepare("SELECT DISTINCT host FROM fetch_log WHERE started_ms >= ?1 ORDER BY host")?;
        let rows = st.query_map([since_ms], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every request to `host` since `since_ms`, oldest first.
    pub fn requests_to(&self, host: &str, since_ms: i64) -> Result<Vec<Request>> {
        let mut st = self.conn.prepare(
            "SELECT run_id, source, url, started_ms, status, bytes, outcome FROM fetch_log
             WHERE host = ?1 AND started_ms >= ?2 ORDER BY started_ms, id",
        )?;
        let rows = st.query_map(params![host, since_ms], |r| {
            Ok(Request {
                run_id: r.get(0)?,
                source: r.get(1)?,
                url: r.get(2)?,
                started_ms: r.get(3)?,
                status: r.get(4)?,
                bytes: r.get::<_, i64>(5)?.max(0) as u64,
                outcome: r.get(6)?,
            })
        })?;
        rows.collect::<rusqlite::Result<_>>().with_context(|| format!("reading the fetch log of {host}"))
    }

    /// Bytes of the last full answer (a 2xx with a body) for `url` before
    /// `before_ms`: what a 304 at that moment spared both sides (P12).
    pub fn last_body_bytes(&self, url: &str, before_ms: i64) -> Result<Option<u64>> {
        let mut st = self.conn.prepare_cached(
            "SELECT bytes FROM fetch_log WHERE url = ?1 AND started_ms < ?2 AND status BETWEEN 200 AND 299 AND bytes > 0
             ORDER BY started_ms DESC LIMIT 1",
        )?;
        let mut rows = st.query(params![url, before_ms])?;
        Ok(rows.next()?.map(|r| r.get::<_, i64>(0)).transpose()?.map(|b| b.max(0) as u64))
    }
}
