//! When an event happens next, for lists a reader wants (issue 13 item 6):
//! upcoming and current events first, by their next occurrence; ended ones
//! only on request. Times are the event's own civil time in its zone. Not
//! for storing or exporting occurrences (`export::slots` reads them).

use crate::export::{Slot, slots};
use crate::store::events::StoredEvent;
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

/// Where `e` stands at this moment.
pub fn standing(e: &StoredEvent) -> Standing {
    let now = jiff::Timestamp::now().in_tz(&e.time_zone).map(|z| z.datetime()).unwrap_or_else(|_| jiff::civil::DateTime::MIN);
    standing_at(e, now)
}

/// Where `e` stands at `now` (its own civil time).
pub fn standing_at(e: &StoredEvent, now: DateTime) -> Standing {
    let all = slots(e);
    match all.iter().find(|s| over_at(s) >= now) {
        Some(s) => Standing::Next(*s),
        None => all.last().map_or(Standing::Undated, |s| Standing::Ended(*s)),
    }
}

/// Order for a reader: upcoming and current by next occurrence, then the
/// undated, then (kept only with `all`) the ended, most recent first.
pub fn for_reader(events: Vec<StoredEvent>, all: bool) -> Vec<(Standing, StoredEvent)> {
    let mut out: Vec<(Standing, StoredEvent)> =
        events.into_iter().map(|e| (standing(&e), e)).filter(|(s, _)| all || !matches!(s, Standing::Ended(_))).collect();
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
                (Standing::Ended(p), Standing::Ended(q)) => q.cmp(p),
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
    let last_day = slots(e).last().map(|l| over_at(l).date());
    let until = last_day.filter(|d| *d > s.start.date()).map(|d| format!(" → {d}")).unwrap_or_default();
    if e.all_day { format!("{}{until}", day(s.start)) } else { format!("{}{until}", time(s.start)) }
}
