//! A span of days with a reading into a [`Schedule`]: no occurrence on a
//! day the text closes or does not name, never a guessed day. Not for:
//! reading the text (`reader.rs`).

use super::reading::{DatedHours, WeekHours};
use crate::model::Schedule;
use crate::parse::occurrences::merge;
use jiff::civil::{Date, Weekday};

/// The days of the span `first..=last` a dated day may be: for an open day
/// the earliest (a month and day with no year may come round twice), for a
/// closed day every one; none when a day of the month alone fits several.
fn resolve(d: &DatedHours, first: Date, last: Date) -> Vec<Date> {
    let mut found = Vec::new();
    let mut month = first.first_of_month();
    while month <= last && found.len() < 40 {
        let fits = d.month.is_none_or(|m| m == month.month()) && d.year.is_none_or(|y| y == month.year());
        if let (true, Ok(day)) = (fits, Date::new(month.year(), month.month(), d.day))
            && day >= first
            && day <= last
            && d.weekday.is_none_or(|w| w == day.weekday())
        {
            found.push(day);
        }
        let Ok(next) = month.checked_add(jiff::Span::new().months(1)) else { break };
        month = next;
    }
    if d.closed {
        found
    } else if d.month.is_none() && found.len() > 1 {
        Vec::new()
    } else {
        found.into_iter().take(1).collect()
    }
}

/// The longest span, in days after the first, over which a time the text
/// gives no day for is taken as every day's.
pub const GUESS_NO_DAYS_BEYOND: i32 = 7;

/// A span of days (`last` none: one day) with the reading of
/// [`week_hours`](super::week_hours): one occurrence on each day a weekly group names, at its
/// time (all day when it has none), none on a closed weekday or dated day;
/// each dated open day one occurrence. A text that names no day this reader
/// understood, or whose days the span does not hold, leaves the span as it
/// is (all day, its closed weekdays left out); so does an opening night's
/// text, its night added, and a time given no day over more than
/// [`GUESS_NO_DAYS_BEYOND`] days. Never a guessed day.
///
/// ```
/// use cityvibe::parse::week_hours::{schedule, week_hours};
/// use jiff::civil::date;
/// let hours = week_hours("Dissabte: 19 h  Diumenge: 11 h", "ca");
/// let weekend = schedule(date(2021, 2, 27), Some(date(2021, 2, 28)), &hours);
/// let starts: Vec<_> = weekend.occurrences.iter().map(|o| o.start.to_string()).collect();
/// assert_eq!(starts, ["2021-02-27T19:00:00", "2021-02-28T11:00:00"]);
/// let sunday = schedule(date(2021, 2, 28), None, &hours);
/// assert_eq!(sunday.occurrences[0].start.to_string(), "2021-02-28T11:00:00");
/// ```
pub fn schedule(first: Date, last: Option<Date>, hours: &WeekHours) -> Schedule {
    let last = last.filter(|l| *l > first);
    let span_end = last.unwrap_or(first);
    let all: Vec<Weekday> = (0..7).filter_map(|i| Weekday::from_monday_zero_offset(i).ok()).collect();
    let open_days = |days: &[Weekday]| -> Vec<Weekday> {
        if days.is_empty() && !hours.closed.is_empty() {
            all.iter().copied().filter(|d| !hours.closed.contains(d)).collect()
        } else {
            days.to_vec()
        }
    };
    let mut excluded = Vec::new();
    let mut dated = Vec::new();
    for d in &hours.dated {
        for day in resolve(d, first, span_end) {
            if d.closed {
                excluded.push(day);
            } else {
                dated.push((day, d.start, d.end));
            }
        }
    }
    excluded.sort();
    excluded.dedup();
    let mut parts: Vec<Schedule> = Vec::new();
    // A time the text gives no day for is every day's over a few days (a
    // festival's "20 h"), but over a longer span it would be a guess at the
    // days ("a les 18.30 h" of a lecture series over six months): the span
    // then stays as it is, with no invented time.
    let long = last.is_some_and(|l| (l - first).get_days() > GUESS_NO_DAYS_BEYOND);
    for g in hours.weekly.iter().filter(|g| !(long && g.days.is_empty())) {
        let days = open_days(&g.days);
        let part = match last {
            Some(_) => Schedule::from_span(first, last, g.start, g.end, days, excluded.clone()),
            None if days.is_empty() || days.contains(&first.weekday()) => {
                Schedule::from_span(first, None, g.start, g.end, vec![], excluded.clone())
            }
            None => continue,
        };
        if !part.occurrences.is_empty() {
            parts.push(part);
        }
    }
    if parts.is_empty() && (dated.is_empty() || hours.opening) {
        parts.push(Schedule::from_span(first, last, None, None, open_days(&[]), excluded.clone()));
    }
    parts.extend(
        dated.into_iter().filter(|(d, ..)| !excluded.contains(d)).map(|(d, s, e)| Schedule::from_span(d, None, s, e, vec![], vec![])),
    );
    let merged = merge(parts);
    // It starts at its first occurrence, not at a group's time on a day that group does not name.
    Schedule { start: merged.occurrences.first().map(|o| o.start).or(merged.start), ..merged }
}
