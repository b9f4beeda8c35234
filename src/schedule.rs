//! When an event happens next, for lists a reader wants: upcoming and current
//! events first, by their next occurrence; ended ones only on request. Times
//! are the event's own civil time in its zone. The moment is always handed in
//! (`events list --at`, else now), so a list can be read as a reader would see
//! it on any day. Not for storing or exporting occurrences (`export::slots`
//! reads them).

use crate::export::{Slot, slots, slots_at};
use crate::store::events::StoredEvent;
use jiff::Timestamp;
use jiff::civil::DateTime;

/// Where an event stands now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Standing {
    /// Its next (or current) occurrence.
    Next(Slot),
    /// Every occurrence is over; the last one.
    Ended(Slot),
    /// No date at all.
    Undated,
}

/// When an occurrence is over: its end, else the end of its first day.
fn over_at(s: &Slot) -> DateTime {
    s.end.unwrap_or_else(|| s.start.date().to_datetime(jiff::civil::time(23, 59, 59, 0)))
}

/// A moment as a reader names it on the command line (`events list --at`):
/// `YYYY-MM-DD` (the start of that day), `YYYY-MM-DDTHH:MM[:SS]` (a wall
/// clock), both in Europe/Madrid, the catalogue's own zone; or RFC 3339 with
/// its offset (`2026-12-01T18:00:00Z`). Anything else is a usage error.
pub fn parse_moment(s: &str) -> anyhow::Result<Timestamp> {
    let t = s.trim();
    let bad = |why: &str| {
        crate::error::usage(format!(
            "--at {s:?}: {why}; give a date (YYYY-MM-DD), a Madrid time (YYYY-MM-DDTHH:MM) or RFC 3339 with its offset"
        ))
    };
    // An offset decides the instant itself.
    if let Ok(ts) = t.parse::<Timestamp>() {
        return Ok(ts);
    }
    // jiff reads a civil time past an offset it then ignores: refuse one
    // that did not make a valid instant above rather than drop it.
    if t.get(10..).is_some_and(|rest| rest.contains(['+', '-', 'Z', 'z', '['])) {
        return Err(bad("not a valid time with offset"));
    }
    let civil = if t.len() == 10 {
        t.parse::<jiff::civil::Date>().map(|d| d.to_datetime(jiff::civil::Time::midnight()))
    } else {
        t.parse::<DateTime>()
    };
    let civil = civil.map_err(|_| bad("not a moment"))?;
    Ok(civil.in_tz(crate::model::TZ_MADRID).map_err(|e| bad(&e.to_string()))?.timestamp())
}

/// Where `e` stands at the moment `at`, read on the event's own clock.
pub fn standing(e: &StoredEvent, at: Timestamp) -> Standing {
    let now = at.in_tz(&e.time_zone).map(|z| z.datetime()).unwrap_or(DateTime::MIN);
    standing_at(e, now)
}

/// Where `e` stands at `now` (its own civil time).
pub fn standing_at(e: &StoredEvent, now: DateTime) -> Standing {
    let all = slots_at(e, now.date());
    match all.iter().find(|s| over_at(s) >= now) {
        Some(s) => Standing::Next(*s),
        None => all.last().map_or(Standing::Undated, |s| Standing::Ended(*s)),
    }
}

/// Whether `e` is current for a reader at `at`: not ended (on now, still to
/// come, or undated). The one meaning of "current" that `events list`,
/// `export`, `holdings` and the report share; "active" is the store's word
/// for an event not withdrawn, whether or not it has ended.
pub fn is_current(e: &StoredEvent, at: Timestamp) -> bool {
    !matches!(standing(e, at), Standing::Ended(_))
}

/// Order for a reader at the moment `at`: upcoming and current by next
/// occurrence, then the undated, then (kept only with `all`) the ended,
/// most recent first.
pub fn for_reader(events: Vec<StoredEvent>, all: bool, at: Timestamp) -> Vec<(Standing, StoredEvent)> {
    let mut out: Vec<(Standing, StoredEvent)> =
        events.into_iter().map(|e| (standing(&e, at), e)).filter(|(s, _)| all || !matches!(s, Standing::Ended(_))).collect();
    // (`!Ended` is [`is_current`], read once per event here for the order too.)
    out.sort_by(|(a, x), (b, y)| {
        let rank = |s: &Standing| match s {
            Standing::Next(_) => 0,
            Standing::Undated => 1,
            Standing::Ended(_) => 2,
        };
        rank(a)
            .cmp(&rank(b))
            .then_with(|| match (a, b) {
                (Standing::Next(p), Standing::Next(q)) => p.cmp(q),
                // Most recently over first: by when the last occurrence ended,
                // not when it began (a long run that just closed comes first).
                (Standing::Ended(p), Standing::Ended(q)) => (over_at(q), q).cmp(&(over_at(p), p)),
                _ => std::cmp::Ordering::Equal,
            })
            .then_with(|| (&x.source, &x.source_event_id).cmp(&(&y.source, &y.source_event_id)))
    });
    out
}

/// An occurrence as a reader reads it: a date for all-day events, else date and time.
pub fn when(e: &StoredEvent, s: &Slot) -> String {
    let day = |d: DateTime| d.date().to_string();
    let time = |d: DateTime| d.strftime("%Y-%m-%d %H:%M").to_string();
    // A span longer than a year runs to its own last day, past the slots around today.
    let last_day = match crate::export::repeated_span(e) {
        Some(span) => Some(span.last_day()),
        None => slots(e).last().map(|l| over_at(l).date()),
    };
    let until = last_day.filter(|d| *d > s.start.date()).map(|d| format!(" → {d}")).unwrap_or_default();
    if e.all_day { format!("{}{until}", day(s.start)) } else { format!("{}{until}", time(s.start)) }
}

/// A stored civil time (`2026-12-01T19:30:00`) as a reader reads it: the date
/// alone for an all-day event or a day's bound (`T00:00:00`, `T23:59:59`), else
/// date and time to the minute.
pub fn civil_text(stored: &str, all_day: bool) -> String {
    match stored.parse::<DateTime>() {
        Ok(dt) => civil_day_or_time(dt, all_day),
        Err(_) => stored.to_string(),
    }
}

/// A civil time as [`civil_text`] shows it: the day alone when all-day or
/// at midnight or 23:59:59, else the day and the minute.
pub fn civil_day_or_time(dt: DateTime, all_day: bool) -> String {
    if all_day || dt.time() == jiff::civil::Time::midnight() || dt.time() == jiff::civil::time(23, 59, 59, 0) {
        dt.date().to_string()
    } else {
        dt.strftime("%Y-%m-%d %H:%M").to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::parse_moment;

    #[test]
    fn moments_a_reader_names() {
        let at = |s: &str| parse_moment(s).map(|t| t.to_string()).map_err(|e| e.to_string());
        // A date is the start of that day in Madrid (CET in winter, CEST in summer).
        assert_eq!(at("2026-12-01").unwrap(), "2026-11-30T23:00:00Z");
        assert_eq!(at("2027-06-01").unwrap(), "2027-05-31T22:00:00Z");
        assert_eq!(at("2026-12-01T18:30").unwrap(), "2026-12-01T17:30:00Z");
        assert_eq!(at("2026-12-01 18:30:15").unwrap(), "2026-12-01T17:30:15Z");
        assert_eq!(at("2026-12-01T18:30:00Z").unwrap(), "2026-12-01T18:30:00Z");
        assert_eq!(at("2026-12-01T18:30:00-03:00").unwrap(), "2026-12-01T21:30:00Z");
        for bad in
            ["", "tomorrow", "2026-13-01", "2026-02-30", "01/12/2026", "2026-12-01T25:00", "2026-12-01+01:00", "2026-12-01T18:00+99:00"]
        {
            let e = at(bad).unwrap_err();
            assert!(e.contains("--at"), "{bad}: {e}");
        }
    }
}
