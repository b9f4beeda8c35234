//! Runs, their per-source results, and each source's last state.

use super::Store;
use crate::vocab::SourceStatus;
use anyhow::Result;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

/// The outcome of one source in one run: what `run` reports and what `runs`
/// reads back (one type for both).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SourceReport {
    pub id: String,
    pub status: SourceStatus,
    pub requests: u64,
    pub not_modified: u64,
    pub added: u64,
    pub updated: u64,
    pub withdrawn: u64,
    pub record_errors: u64,
    /// Records that repeated an id of an earlier record of the feed, merged
    /// into its one event (the last record wins). Said by the run itself and in
    /// its message; not a column of the stored runs (0 there).
    pub merged: u64,
    pub translated: u64,
    pub translation_cache_hits: u64,
    pub translation_pending: u64,
    /// The source's own time in the run: its requests on the wire and storing what came back (0 when not attempted).
    pub duration_ms: u64,
    pub message: String,
    /// Skipped within its period (P7): when it is next due (to the second).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_due: Option<jiff::Timestamp>,
    /// Skipped because its host asked us to wait (P10): not before this time (to the second).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_before: Option<jiff::Timestamp>,
}

impl SourceReport {
    pub fn new(id: &str, status: SourceStatus) -> SourceReport {
        SourceReport {
            id: id.into(),
            status,
            requests: 0,
            not_modified: 0,
            added: 0,
            updated: 0,
            withdrawn: 0,
            record_errors: 0,
            merged: 0,
            translated: 0,
            translation_cache_hits: 0,
            translation_pending: 0,
            duration_ms: 0,
            message: String::new(),
            next_due: None,
            not_before: None,
        }
    }
}

/// A source's last known state.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SourceState {
    pub last_status: Option<SourceStatus>,
    pub last_message: Option<String>,
    pub last_run_at: Option<jiff::Timestamp>,
    pub last_success_at: Option<jiff::Timestamp>,
}

impl Store {
    pub fn begin_run(&self) -> Result<i64> {
        self.conn.execute("INSERT INTO runs (started_at) VALUES (?1)", [self.now_ms()])?;
        Ok(self.conn.last_insert_rowid())
    }

    pub fn finish_run(&self, run_id: i64, exit_code: i32) -> Result<()> {
        self.conn.execute("UPDATE runs SET finished_at = ?2, exit_code = ?3 WHERE id = ?1", params![run_id, self.now_ms(), exit_code])?;
        Ok(())
    }

    /// Record a source's result in the run and as its last state.
    pub fn record_source_result(&self, run_id: i64, r: &SourceReport) -> Result<()> {
        self.conn.execute(
            "INSERT OR REPLACE INTO run_sources (run_id, source, status, requests, not_modified, added, updated, withdrawn,
                record_errors, translated, duration_ms, message, translation_cache_hits, translation_pending)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                run_id,
                r.id,
                r.status,
                r.requests as i64,
                r.not_modified as i64,
                r.added as i64,
                r.updated as i64,
                r.withdrawn as i64,
                r.record_errors as i64,
                r.translated as i64,
                r.duration_ms as i64,
                r.message,
                r.translation_cache_hits as i64,
                r.translation_pending as i64
            ],
        )?;
        let success = r.status.is_success();
        // A run that never reached the host (outside its hours, switched off,
        // daily cap) does not hide a refusal or failure the operator must see:
        // that stays shown until a run succeeds (P11).
        let not_reached = r.status.is_not_attempted() && r.requests == 0;
        let problems = SourceStatus::ALL.iter().filter(|s| s.is_problem()).map(|s| format!("'{s}'")).collect::<Vec<_>>().join(", ");
        self.conn.execute(
            &format!(
                "INSERT INTO source_state (source, last_status, last_message, last_run_at, last_success_at)
             VALUES (?1, ?2, ?3, ?4, CASE WHEN ?5 THEN ?4 END)
             ON CONFLICT (source) DO UPDATE SET
                last_status = CASE WHEN ?6 AND source_state.last_status IN ({problems})
                    THEN source_state.last_status ELSE excluded.last_status END,
                last_message = CASE WHEN ?6 AND source_state.last_status IN ({problems})
                    THEN source_state.last_message ELSE excluded.last_message END,
                last_run_at = excluded.last_run_at,
                last_success_at = CASE WHEN ?5 THEN excluded.last_run_at ELSE source_state.last_success_at END"
            ),
            params![r.id, r.status, r.message, self.now_ms(), success, not_reached],
        )?;
        Ok(())
    }

    /// Record what the translation step did for a source already recorded in the run.
    pub fn record_source_translation(&self, run_id: i64, r: &SourceReport) -> Result<()> {
        self.conn.execute(
            "UPDATE run_sources SET translated = ?3, translation_cache_hits = ?4, translation_pending = ?5
             WHERE run_id = ?1 AND source = ?2",
            params![run_id, r.id, r.translated as i64, r.translation_cache_hits as i64, r.translation_pending as i64],
        )?;
        Ok(())
    }

    pub fn source_state(&self, source: &str) -> Result<SourceState> {
        Ok(self
            .conn
            .query_row(
                "SELECT last_status, last_message, last_run_at, last_success_at FROM source_state WHERE source = ?1",
                [source],
                |r| {
                    Ok(SourceState {
                        last_status: r.get(0)?,
                        last_message: r.get(1)?,
                        last_run_at: crate::times::column_opt(r, 2)?,
                        last_success_at: crate::times::column_opt(r, 3)?,
                    })
                },
            )
            .optional()?
            .unwrap_or_default())
    }
}
