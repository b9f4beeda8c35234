//! The queries behind `cityvibe report`: runs per source, events over time,
//! translation coverage, requests per host and day, and a host's requests one
//! by one. Every figure on a report page is one of these.
//!
//! Not for: drawing or wording (`crate::report`), nor for writing: the fetch
//! log and the run records are read here as they were written elsewhere.

use super::Store;
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

/// Events of a source active at a moment: first stored before it, not withdrawn by it.
const ACTIVE_AT: &str = "SELECT count(*) FROM events INDEXED BY events_seen
     WHERE source = ?1 AND first_seen < ?2 AND (withdrawn_at IS NULL OR withdrawn_at >= ?2)";
/// (first stored, withdrawn) of a source's events that changed after a moment.
const CHANGED_SINCE: &str = "SELECT first_seen, withdrawn_at FROM events WHERE source = ?1 AND first_seen >= ?2
     UNION ALL
     SELECT first_seen, withdrawn_at FROM events INDEXED BY events_withdrawn WHERE source = ?1 AND withdrawn_at >= ?2 AND first_seen < ?2";
/// The distinct sources of the events table, one index seek each.
const SOURCES: &str = "WITH RECURSIVE s(source) AS (
         SELECT min(source) FROM events
         UNION ALL SELECT (SELECT min(source) FROM events WHERE source > s.source) FROM s WHERE s.source IS NOT NULL)
     SELECT source FROM s WHERE source IS NOT NULL";
/// The queries `report` runs whose cost could follow the events stored:
/// each must find its rows through an index (a test reads their plans).
pub const EVENT_QUERIES: [&str; 4] = [ACTIVE_AT, CHANGED_SINCE, SOURCES, COUNT_BY_STATUS];
/// A source's events by status, from the `(source, status)` index alone.
const COUNT_BY_STATUS: &str = "SELECT coalesce(sum(status = 'active'), 0), coalesce(sum(status = 'withdrawn'), 0)
     FROM events INDEXED BY events_source_status WHERE source = ?1";

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
    ///
    /// Drawn from aggregates: one count of the events active when the first day
    /// ends (an index-only pass, `events_seen`), then only the events first
    /// stored or withdrawn after that, each found through its index and placed
    /// on its day here.
    pub fn active_per_day(&self, source: &str, day_ends_ms: &[i64]) -> Result<Vec<u64>> {
        let Some(&first) = day_ends_ms.first() else { return Ok(vec![]) };
        let base: i64 = self.conn.prepare_cached(ACTIVE_AT)?.query_row(params![source, first], |r| r.get(0))?;
        // (first stored, withdrawn) of each event that changed after the first day ended.
        let mut st = self.conn.prepare_cached(CHANGED_SINCE)?;
        let changed = st
            .query_map(params![source, first], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let active_at = |end: i64, (seen, gone): (i64, Option<i64>)| seen < end && gone.is_none_or(|g| g >= end);
        Ok(day_ends_ms
            .iter()
            .map(|&end| {
                // `base` counts them as at `first`; each changed one is counted again as at `end`.
                let then: i64 = changed.iter().map(|c| i64::from(active_at(end, *c)) - i64::from(active_at(first, *c))).sum();
                (base + then).max(0) as u64
            })
            .collect())
    }

    /// The sources with stored events, by id: one index step per source
    /// (a skip through the `(source, …)` index), not one per event.
    pub fn sources_with_events(&self) -> Result<Vec<String>> {
        let mut st = self.conn.prepare(SOURCES)?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// (active, withdrawn) events of `source`, counted in its index.
    pub fn status_counts(&self, source: &str) -> Result<(u64, u64)> {
        let n = |r: &rusqlite::Row, i| r.get::<_, i64>(i).map(|v| v.max(0) as u64);
        Ok(self.conn.prepare_cached(COUNT_BY_STATUS)?.query_row([source], |r| Ok((n(r, 0)?, n(r, 1)?)))?)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The report's queries over events find their rows through an index (a
    /// SEARCH, or an index-only scan of one source's range), never a scan of
    /// the events table per day or per host; the plan is SQLite's own, whatever
    /// the machine's load.
    #[test]
    fn the_report_reads_events_through_indexes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite")).unwrap();
        for sql in EVENT_QUERIES {
            let mut st = store.conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let n = st.parameter_count();
            let args: Vec<rusqlite::types::Value> =
                (0..n).map(|i| if i == 0 { "madrid".to_string().into() } else { 0i64.into() }).collect();
            let plan: Vec<String> =
                st.query_map(rusqlite::params_from_iter(args), |r| r.get::<_, String>(3)).unwrap().collect::<Result<_, _>>().unwrap();
            // Index-only: no event row is read.
            for step in plan.iter().filter(|s| s.contains(" events ")) {
                assert!(step.starts_with("SEARCH events USING COVERING INDEX"), "{sql}\nreads event rows: {plan:?}");
            }
            assert!(plan.iter().any(|s| s.contains("SEARCH events USING COVERING INDEX")), "{sql}: {plan:?}");
            // The changes of a period: only the entries after its start.
            if sql == CHANGED_SINCE {
                let ranged = plan.iter().filter(|s| s.contains("first_seen>?") || s.contains("withdrawn_at>?")).count();
                assert_eq!(ranged, 2, "{sql}: {plan:?}");
            }
        }
    }

    /// The per-day counts from aggregates equal a count per day.
    #[test]
    fn active_per_day_counts_as_a_count_per_day_would() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite")).unwrap();
        let day = 86_400_000i64;
        // (first stored, withdrawn) in days
        let events: [(i64, Option<i64>); 6] = [(0, None), (1, Some(3)), (4, None), (4, Some(4)), (2, Some(9)), (6, Some(7))];
        for (i, (seen, gone)) in events.iter().enumerate() {
            store
                .conn
                .execute(
                    "INSERT INTO events (source, source_event_id, title, description, lang, time_zone, all_day, occurrences, weekdays,
                        excluded, categories, source_categories, content_hash, first_seen, last_changed, withdrawn_at)
                     VALUES ('s', ?1, 't', '', 'es', 'Europe/Madrid', 0, '[]', '[]', '[]', '[]', '[]', 'h', ?2, ?2, ?3)",
                    params![i.to_string(), seen * day + 5, gone.map(|g| g * day + 7)],
                )
                .unwrap();
        }
        let ends: Vec<i64> = (3..9).map(|d| d * day).collect();
        let expected: Vec<u64> = ends
            .iter()
            .map(|e| events.iter().filter(|(s, g)| s * day + 5 < *e && g.is_none_or(|g| g * day + 7 >= *e)).count() as u64)
            .collect();
        assert_eq!(store.active_per_day("s", &ends).unwrap(), expected);
        assert_eq!(store.sources_with_events().unwrap(), ["s"]);
    }
}
