//! The fetch log (every request, P17) and per-URL validators (P12). Each
//! host's politeness state lives in the machine-wide host ledger
//! (http::ledger), not here: a database is one of several on a machine.

use super::Store;
use crate::http::FetchLog;
pub use crate::http::fetchlog::{FetchRecord, Validators};
use anyhow::{Context, Result};
use rusqlite::{OptionalExtension, params};

impl Store {
    pub fn log_fetch(&self, r: &FetchRecord) -> Result<()> {
        self.conn.execute(
            "INSERT INTO fetch_log (run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![r.run_id, r.source, r.host, r.url, r.started_ms, r.duration_ms, r.status, r.bytes as i64, r.conditional, r.outcome],
        )?;
        Ok(())
    }

    /// Whether a row can be written to the fetch log now: one is written and
    /// taken back, so a missing table, a column gone or a trigger refusing is
    /// found before a request is sent, not after (P17).
    pub fn fetch_log_writable(&self) -> Result<()> {
        self.conn.execute_batch("SAVEPOINT fetch_log_probe")?;
        let tried = self.conn.execute(
            "INSERT INTO fetch_log (run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome)
             VALUES (NULL, '', '', '', 0, 0, NULL, 0, 0, 'ok')",
            [],
        );
        self.conn.execute_batch("ROLLBACK TO fetch_log_probe; RELEASE fetch_log_probe")?;
        tried.map(|_| ()).map_err(Into::into)
    }

    /// The requests sent to `host` since `since_ms`, oldest first, each read
    /// back through the same mapping it was written with.
    pub fn fetch_log(&self, host: &str, since_ms: i64) -> Result<Vec<FetchRecord>> {
        let mut st = self.conn.prepare(
            "SELECT run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome
             FROM fetch_log WHERE host = ?1 AND started_ms >= ?2 ORDER BY started_ms, id",
        )?;
        let rows = st.query_map(params![host, since_ms], |r| {
            Ok(FetchRecord {
                run_id: r.get(0)?,
                source: r.get(1)?,
                host: r.get(2)?,
                url: r.get(3)?,
                started_ms: r.get(4)?,
                duration_ms: r.get(5)?,
                status: r.get(6)?,
                bytes: r.get::<_, i64>(7)?.max(0) as u64,
                conditional: r.get(8)?,
                outcome: r.get(9)?,
            })
        })?;
        rows.collect::<rusqlite::Result<_>>().with_context(|| format!("reading the fetch log of {host}"))
    }

    /// When a run last sent a request for `source` (its period counts from
    /// there, P7); `audit`'s requests (no run) do not count.
    pub fn last_fetch_ms(&self, source: &str) -> Result<Option<i64>> {
        Ok(self.conn.query_row("SELECT max(started_ms) FROM fetch_log WHERE source = ?1 AND run_id IS NOT NULL", [source], |r| r.get(0))?)
    }

    pub fn validators(&self, url: &str) -> Result<Validators> {
        Ok(self
            .conn
            .query_row("SELECT etag, last_modified, body_digest, records FROM validators WHERE url = ?1", [url], |r| {
                let records: Option<i64> = r.get(3)?;
                Ok(Validators {
                    etag: r.get(0)?,
                    last_modified: r.get(1)?,
                    body_digest: r.get(2)?,
                    records: records.map(|n| n.max(0) as u64),
                })
            })
            .optional()?
            .unwrap_or_default())
    }

    /// Store validators after a body was taken in, or refreshed by a 304.
    pub fn set_validators(&self, url: &str, v: &Validators) -> Result<()> {
        self.conn.execute(
            "INSERT INTO validators (url, etag, last_modified, body_digest, records, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                 body_digest = coalesce(excluded.body_digest, validators.body_digest),
                 records = coalesce(excluded.records, validators.records), updated_at = excluded.updated_at",
            params![url, v.etag, v.last_modified, v.body_digest, v.records.map(|n| n as i64), self.now_ms()],
        )?;
        Ok(())
    }
}

/// The client's port to this database: its requests go to the fetch log,
/// its validators to the validators table.
impl FetchLog for Store {
    fn writable(&self) -> Result<()> {
        self.fetch_log_writable()
    }

    fn record(&self, r: &FetchRecord) -> Result<()> {
        self.log_fetch(r)
    }

    fn validators(&self, url: &str) -> Result<Validators> {
        Store::validators(self, url)
    }

    fn set_validators(&self, url: &str, v: &Validators) -> Result<()> {
        Store::set_validators(self, url, v)
    }
}

/// What the fetch log proves about how a host was treated (P17).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct HostStats {
    pub host: String,
    pub requests: u64,
    /// (Europe/Madrid date, requests) for each day with requests.
    pub requests_per_day: Vec<(String, u64)>,
    /// Smallest time between the starts of two consecutive requests, in ms.
    pub min_gap_ms: Option<i64>,
    /// (HTTP status or "error", count).
    pub statuses: Vec<(String, u64)>,
    pub not_modified_share: f64,
    pub bytes: u64,
    /// The first and last request in the period.
    pub first_request_at: Option<jiff::Timestamp>,
    pub last_request_at: Option<jiff::Timestamp>,
}

impl Store {
    /// Statistics of the requests sent to `host` since `since_ms`. Every row of
    /// the fetch log is a request that went on the wire (it is written after
    /// the exchange), so all of them count; the old `outcome NOT LIKE
    /// 'skipped%'` filter matched nothing ever written.
    pub fn host_stats(&self, host: &str, since_ms: i64) -> Result<HostStats> {
        let rows = self.fetch_log(host, since_ms)?;
        let mut s = HostStats { host: host.to_string(), ..Default::default() };
        let mut per_day: std::collections::BTreeMap<String, u64> = Default::default();
        let mut statuses: std::collections::BTreeMap<String, u64> = Default::default();
        let mut prev: Option<i64> = None;
        let mut not_modified = 0u64;
        for FetchRecord { started_ms: start, status, bytes, .. } in &rows {
            s.requests += 1;
            s.bytes += *bytes;
            let day = request_day(host, *start)?;
            *per_day.entry(day).or_default() += 1;
            *statuses.entry(status.map_or("error".to_string(), |c| c.to_string())).or_default() += 1;
            if *status == Some(304) {
                not_modified += 1;
            }
            if let Some(p) = prev {
                let gap = start - p;
                s.min_gap_ms = Some(s.min_gap_ms.map_or(gap, |m| m.min(gap)));
            }
            prev = Some(*start);
        }
        s.first_request_at = rows.first().map(|r| crate::times::at_ms(r.started_ms)).transpose()?;
        s.last_request_at = rows.last().map(|r| crate::times::at_ms(r.started_ms)).transpose()?;
        s.requests_per_day = per_day.into_iter().collect();
        s.statuses = statuses.into_iter().collect();
        s.not_modified_share = if s.requests > 0 { not_modified as f64 / s.requests as f64 } else { 0.0 };
        Ok(s)
    }
}

/// The Europe/Madrid day a request started on. A start that is not a time (past
/// jiff's range) is an error naming the host and the stored value, not a
/// request counted on a day with no name.
fn request_day(host: &str, started_ms: i64) -> Result<String> {
    let day = crate::times::at_ms(started_ms).and_then(|t| t.in_tz(crate::model::TZ_MADRID)).map(|z| z.date().to_string());
    day.with_context(|| {
        format!("the fetch log of {host} cannot be read: a request's start {started_ms} (ms since the epoch) is not a time")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database from before bodies were told apart by their XXH3-128 keeps
    /// each URL's ETag and Last-Modified (P12); the SHA-256 it held stays as it
    /// was and matches no new digest, so each feed is taken in once more.
    #[test]
    fn validators_stored_before_the_body_digest_keep_their_etag() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        let sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        {
            let conn = rusqlite::Connection::open(&path).unwrap();
            for sql in &super::super::schema::MIGRATIONS[..8] {
                conn.execute_batch(sql).unwrap();
            }
            conn.pragma_update(None, "user_version", 8).unwrap();
            conn.execute(
                "INSERT INTO validators (url, etag, last_modified, body_sha256, updated_at) VALUES ('https://x.es/f.json', '\"e1\"', 'Mon, 30 Nov 2026 10:00:00 GMT', ?1, 1)",
                [sha256],
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let v = store.validators("https://x.es/f.json").unwrap();
        assert_eq!(v.etag.as_deref(), Some("\"e1\""));
        assert_eq!(v.last_modified.as_deref(), Some("Mon, 30 Nov 2026 10:00:00 GMT"));
        assert_eq!(v.body_digest.as_deref(), Some(sha256));
        let empty = crate::http::Body::spool(&b""[..], 10).unwrap();
        assert_ne!(v.body_digest.as_deref(), Some(empty.digest.as_str()));
    }
}
