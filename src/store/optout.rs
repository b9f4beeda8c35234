//! The store's side of an opt-out (P16): what a switched-off feed leaves
//! behind, and a source's events withheld from every list and export by
//! `source disable --withdraw` (kept for `holdings`, back with `source enable`).
//!
//! Not for the switch itself (sources.toml, `crate::config`) nor for
//! takedowns of single events (`super::takedowns`).

use super::Store;
use crate::adapter::{Feed, FeedRole};
use crate::vocab::EventStatus;
use anyhow::Result;
use rusqlite::params;

/// The status of an event withheld by the operator: not `active`, so no
/// list, export or translation shows it; not `withdrawn`, so `source enable`
/// knows which to bring back.
const WITHHELD: EventStatus = EventStatus::Withheld;

impl Store {
    /// Forget what the source's switched-off feeds gave: the publisher's
    /// translations a translation feed carried (its language then falls to
    /// the engine) and the feed's validators, each page's of a paged feed
    /// too (so that, switched back on, its body counts as new and is taken
    /// in again, never answered 304 page by page).
    pub fn forget_feeds(&self, source: &str, off: &[&Feed]) -> Result<()> {
        for feed in off {
            if feed.role == FeedRole::Translation {
                self.conn.execute(
                    "DELETE FROM translations WHERE origin = 'publisher' AND lang = ?1
                        AND event_id IN (SELECT id FROM events WHERE source = ?2)",
                    params![feed.lang, source],
                )?;
            }
            self.conn.execute("DELETE FROM validators WHERE url = ?1", [feed.url])?;
            for page in 0..feed.paging.max_requests() {
                let url = feed.page_url(page);
                // As the request's URL writes it, which keys the page's validators.
                let parsed = url::Url::parse(&url).map_or_else(|_| url.clone(), String::from);
                self.conn.execute("DELETE FROM validators WHERE url IN (?1, ?2)", [&url, &parsed])?;
            }
        }
        Ok(())
    }

    /// Withhold every active event of a source, as of `now_ms`; returns how many.
    pub fn withhold_source(&self, source: &str, now_ms: i64) -> Result<u64> {
        let n = self.conn.execute(
            "UPDATE events SET status = ?2, withdrawn_at = ?3 WHERE source = ?1 AND status = 'active'",
            params![source, WITHHELD, now_ms],
        )?;
        Ok(n as u64)
    }

    /// Bring back the events of a source the operator withheld; returns how many.
    pub fn restore_withheld(&self, source: &str) -> Result<u64> {
        let n = self.conn.execute(
            "UPDATE events SET status = 'active', withdrawn_at = NULL WHERE source = ?1 AND status = ?2",
            params![source, WITHHELD],
        )?;
        Ok(n as u64)
    }

    /// How many events of a source the operator withholds.
    pub fn count_withheld(&self, source: &str) -> Result<u64> {
        let n: i64 =
            self.conn
                .query_row("SELECT count(*) FROM events WHERE source = ?1 AND status = ?2", params![source, WITHHELD], |r| r.get(0))?;
        Ok(n as u64)
    }
}
