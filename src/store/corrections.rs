//! Operator corrections in the store: the corrected value is written into the
//! event's row, so every list, export, ordering and the translation step (a
//! changed original is translated again) see it; the feed's value at correction
//! time is kept beside it. When an ingest rewrites the row, a correction whose
//! field the feed left alone is put back; one whose field the feed changed
//! lapses, saying so.
//!
//! Not for the rules of what may be corrected (`crate::correction`), nor
//! for takedowns (a taken-down event's corrections go with its row).

use super::Store;
use crate::clock::Clock;
use crate::correction::Field;
use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use std::collections::HashMap;

/// A correction the event's data does not allow (no such event, an end
/// before the start, a start on an event with several occurrences): the
/// operator's to fix, unlike a database failure.
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

macro_rules! refuse {
    ($($t:tt)*) => { return Err(Refused(format!($($t)*)).into()) };
}

/// A correction as stored; its times are instants, serialized by jiff as every
/// report's are (RFC 3339), not epoch ms.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct Correction {
    pub source: String,
    pub source_event_id: String,
    pub field: Field,
    pub value: Option<String>,
    /// What the feed said when the correction was made.
    pub feed_value: Option<String>,
    pub reason: String,
    pub created_at: jiff::Timestamp,
    /// When and why it stopped applying (the feed changed the field, or the operator lifted it).
    pub ended_at: Option<jiff::Timestamp>,
    pub ended_why: Option<String>,
}

/// A correction in force: its id, field, value and the feed's value it replaced.
type InForce = (i64, Field, Option<String>, Option<String>);

/// Active corrections of one source, by event row id, for an ingest.
#[derive(Debug, Default)]
pub(crate) struct Active(HashMap<i64, Vec<InForce>>);

fn field(name: &str) -> rusqlite::Result<Field> {
    Field::parse(name).map_err(|e| rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, e.into()))
}

/// Write `value` into the row's column for `field`. A start or an end also
/// moves the one occurrence and the row's first start or last end.
///
/// A start with a time makes an all-day event timed, in the row and so in every
/// output (JSON, CSV, ICS, JSON-LD alike); a start that is a date alone (an
/// all-day feed value put back) makes it all-day again. An end with a time on
/// an all-day event is refused: it would start at midnight.
fn write_field(conn: &Connection, row: i64, f: Field, value: Option<&str>) -> Result<()> {
    if !matches!(f, Field::Start | Field::End) {
        conn.execute(&format!("UPDATE events SET \"{}\" = ?2 WHERE id = ?1", f.column()), params![row, value])?;
        return Ok(());
    }
    let (start, end, occurrences, all_day, event): (Option<String>, Option<String>, String, bool, String) = conn.query_row(
        "SELECT start, end, occurrences, all_day, source || ':' || source_event_id FROM events WHERE id = ?1",
        [row],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    let date_only = value.is_some_and(|v| !v.contains('T'));
    let all_day = match f {
        Field::Start => date_only,
        _ if all_day && value.is_some() && !date_only => {
            refuse!("the event is all-day: correct its start with a time first, then its end")
        }
        _ => all_day,
    };
    let value = value.map(|v| if date_only { format!("{v}T00:00:00") } else { v.to_string() });
    let (start, end) = if f == Field::Start { (value.clone(), end) } else { (start, value.clone()) };
    // Stored JSON that does not parse is an error naming the event, not an
    // empty list that would drop its occurrences.
    let mut list: Vec<serde_json::Value> = serde_json::from_str(&occurrences)
        .with_context(|| format!("the stored event {event} cannot be read: its occurrences {occurrences:?} do not parse"))?;
    if list.len() > 1 {
        refuse!("the event has {} occurrences: a start or end can be corrected only on an event with one", list.len());
    }
    if let Some(o) = list.first_mut() {
        o[f.name()] = serde_json::json!(value);
    }
    let last_end = end.clone().or_else(|| start.clone());
    conn.execute(
        "UPDATE events SET start = ?2, end = ?3, occurrences = ?4, first_start = ?2, last_end = ?5, all_day = ?6 WHERE id = ?1",
        params![row, start, end, serde_json::to_string(&list)?, last_end, all_day],
    )?;
    Ok(())
}

/// The row's value of `field`; an all-day event's start and end are their
/// dates alone, so that putting the feed's value back makes it all-day again.
fn read_field(conn: &Connection, row: i64, f: Field) -> Result<Option<String>> {
    let (value, all_day): (Option<String>, bool) =
        conn.query_row(&format!("SELECT \"{}\", all_day FROM events WHERE id = ?1", f.column()), [row], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(match f {
        Field::Start | Field::End if all_day => value.map(|v| v.split('T').next().unwrap_or(&v).to_string()),
        _ => value,
    })
}

impl Store {
    /// Correct one field of a stored event; replaces an earlier correction
    /// of the same field (keeping the feed's value it recorded). Dated
    /// `now_ms` (the caller's clock).
    pub fn correct(&mut self, source: &str, source_event_id: &str, f: Field, value: &str, reason: &str, now_ms: i64) -> Result<Correction> {
        let tx = self.conn.transaction()?;
        let row: i64 = tx
            .query_row("SELECT id FROM events WHERE source = ?1 AND source_event_id = ?2", params![source, source_event_id], |r| r.get(0))
            .optional()?
            .ok_or_else(|| Refused(format!("no stored event {source}:{source_event_id}; see `cityvibe events list --source {source}`")))?;
        let earlier: Option<Option<String>> = tx
            .query_row(
                "SELECT feed_value FROM corrections WHERE event_id = ?1 AND field = ?2 AND ended_at IS NULL",
                params![row, f.name()],
                |r| r.get(0),
            )
            .optional()?;
        let feed_value = match earlier {
            Some(v) => v,
            None => read_field(&tx, row, f)?,
        };
        if f == Field::End || f == Field::Start {
            let (start, end) = if f == Field::Start {
                (Some(value.to_string()), read_field(&tx, row, Field::End)?)
            } else {
                (read_field(&tx, row, Field::Start)?, Some(value.to_string()))
            };
            // A date alone (an all-day event's) stands for its whole day.
            let day = |t: &str| t.get(..10).unwrap_or(t).to_string();
            if let (Some(s), Some(e)) = (start, end)
                && if s.len() == 10 || e.len() == 10 { day(&e) < day(&s) } else { e < s }
            {
                refuse!("the end {e} would come before the start {s}");
            }
        }
        write_field(&tx, row, f, Some(value))?;
        tx.execute("DELETE FROM corrections WHERE event_id = ?1 AND field = ?2 AND ended_at IS NULL", params![row, f.name()])?;
        let now = now_ms;
        tx.execute(
            "INSERT INTO corrections (event_id, field, value, feed_value, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![row, f.name(), value, feed_value, reason, now],
        )?;
        tx.commit()?;
        Ok(Correction {
            source: source.into(),
            source_event_id: source_event_id.into(),
            field: f,
            value: Some(value.into()),
            feed_value,
            reason: reason.into(),
            created_at: crate::times::at_ms(now)?,
            ended_at: None,
            ended_why: None,
        })
    }

    /// Lift the active correction of a field: the feed's value shows again.
    /// `false` when there was none. Ended at `now_ms` (the caller's clock).
    pub fn lift_correction(&mut self, source: &str, source_event_id: &str, f: Field, now_ms: i64) -> Result<bool> {
        let tx = self.conn.transaction()?;
        let found: Option<(i64, i64, Option<String>)> = tx
            .query_row(
                "SELECT c.id, c.event_id, c.feed_value FROM corrections c JOIN events e ON e.id = c.event_id
                 WHERE e.source = ?1 AND e.source_event_id = ?2 AND c.field = ?3 AND c.ended_at IS NULL",
                params![source, source_event_id, f.name()],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        let Some((id, row, feed_value)) = found else { return Ok(false) };
        write_field(&tx, row, f, feed_value.as_deref())?;
        tx.execute("UPDATE corrections SET ended_at = ?2, ended_why = 'lifted by the operator' WHERE id = ?1", params![id, now_ms])?;
        tx.commit()?;
        Ok(true)
    }

    /// Corrections of a source (or of one of its events), newest first, ended ones included.
    pub fn corrections(&self, source: &str, source_event_id: Option<&str>) -> Result<Vec<Correction>> {
        let mut st = self.conn.prepare(
            "SELECT e.source, e.source_event_id, c.field, c.value, c.feed_value, c.reason, c.created_at, c.ended_at, c.ended_why
             FROM corrections c JOIN events e ON e.id = c.event_id
             WHERE e.source = ?1 AND (?2 IS NULL OR e.source_event_id = ?2) ORDER BY c.id DESC",
        )?;
        let rows = st.query_map(params![source, source_event_id], |r| {
            Ok(Correction {
                source: r.get(0)?,
                source_event_id: r.get(1)?,
                field: r.get(2)?,
                value: r.get(3)?,
                feed_value: r.get(4)?,
                reason: r.get(5)?,
                created_at: crate::times::column(r, 6)?,
                ended_at: crate::times::column_opt(r, 7)?,
                ended_why: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

impl Active {
    /// The active corrections of a source's events.
    pub(crate) fn load(conn: &Connection, source: &str) -> Result<Active> {
        let mut st = conn.prepare(
            "SELECT c.event_id, c.id, c.field, c.value, c.feed_value FROM corrections c JOIN events e ON e.id = c.event_id
             WHERE e.source = ?1 AND c.ended_at IS NULL",
        )?;
        let mut map: HashMap<i64, Vec<_>> = HashMap::new();
        let rows =
            st.query_map([source], |r| Ok((r.get::<_, i64>(0)?, (r.get(1)?, field(&r.get::<_, String>(2)?)?, r.get(3)?, r.get(4)?))))?;
        for row in rows {
            let (event, c) = row?;
            map.entry(event).or_default().push(c);
        }
        Ok(Active(map))
    }

    /// After the feed rewrote a row: put back each correction whose field
    /// the feed left as it was; let lapse, saying why, each one whose field
    /// the feed changed, dated by `clock`. Returns how many lapsed.
    pub(crate) fn after_write(&self, conn: &Connection, row: i64, clock: &dyn Clock) -> Result<u64> {
        let Some(list) = self.0.get(&row) else { return Ok(0) };
        let mut lapsed = 0;
        for (id, f, value, feed_value) in list {
            let now_in_feed = read_field(conn, row, *f)?;
            let why = if now_in_feed != *feed_value {
                format!(
                    "the feed changed {} from {:?} to {:?}; its value shows again",
                    f.name(),
                    feed_value.as_deref().unwrap_or(""),
                    now_in_feed.as_deref().unwrap_or("")
                )
            } else {
                match write_field(conn, row, *f, value.as_deref()) {
                    Ok(()) => continue,
                    // E.g. the feed now lists several occurrences: the
                    // correction lapses rather than failing the ingest.
                    Err(e) => format!("{e:#}; the feed's value shows again"),
                }
            };
            conn.execute("UPDATE corrections SET ended_at = ?2, ended_why = ?3 WHERE id = ?1", params![id, clock.now_ms(), why])?;
            lapsed += 1;
        }
        Ok(lapsed)
    }
}
