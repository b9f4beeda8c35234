//! Schedules built from more than one date range, and times of day found in
//! free text. For feeds that publish an event as several ranges (esmadrid's
//! `<rango>`s) or give its time only inside an opening-hours sentence.
//! Expanding one range is `model::Schedule::from_span`'s job, not this file's.

use crate::model::{MAX_OCCURRENCES, Schedule};
use jiff::civil::Time;
use regex::Regex;
use std::sync::LazyLock;

/// One schedule from several: occurrences are the union of the parts',
/// sorted, without duplicate starts, capped at [`MAX_OCCURRENCES`]. The span
/// runs from the earliest start to the latest end (open when any part is
/// open); the event is all-day only when every part is. Weekdays are the
/// parts' union, or none ("every day") when any part has none.
pub fn merge(parts: Vec<Schedule>) -> Schedule {
    let mut parts = parts.into_iter();
    let Some(mut out) = parts.next() else { return Schedule::default() };
    let mut open_end = out.end.is_none();
    let mut every_day = out.weekdays.is_empty();
    for p in parts {
        out.start = match (out.start, p.start) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        open_end |= p.end.is_none();
        out.end = out.end.max(p.end);
        out.all_day &= p.all_day;
        every_day |= p.weekdays.is_empty();
        out.weekdays.extend(p.weekdays);
        out.excluded.extend(p.excluded);
        out.occurrences.extend(p.occurrences);
    }
    if open_end {
        out.end = None;
    }
    if every_day {
        out.weekdays.clear();
    }
    out.weekdays.sort_by_key(|d| d.to_monday_zero_offset());
    out.weekdays.dedup();
    out.excluded.sort();
    out.excluded.dedup();
    out.occurrences.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    // Two ranges covering the same day give the same occurrence twice; keep
    // the first, which (sorted as above) is the one that ends latest.
    out.occurrences.dedup_by(|later, first| later.start == first.start);
    out.occurrences.truncate(MAX_OCCURRENCES);
    out
}

// "20:00", "9:30", "20.30": a colon or dotted time, checked around the
// match in `hours_in_text` so that dates ("12.10.2026") and amounts
// ("1.500") are not taken for times.
static CLOCK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(\d{1,2})\s?([:.])\s?(\d{2})\b").expect("clock regex"));

// What joins a start time to an end time: "10:00 a 20:00", "18.30 h - 20 h",
// "de 11:00 h hasta las 14:00".
static UNTIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:h\b\.?|horas?\b|hrs?\b\.?)?\s*(?:-|–|(?:a|al|hasta)\b)\s*(?:las\s+)?(\d{1,2})\s?[:.]\s?(\d{2})\b")
        .expect("until regex")
});

// English "10.30 am", "7:30 p.m.".
static MERIDIEM: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*([aApP])\.?\s?[mM]\b").expect("meridiem regex"));

/// The first time of day written in a sentence such as an opening-hours
/// text ("De martes a sábado, 20:00 h"; "a las 20.30 h"), and the end time
/// when the sentence gives one right after it ("10:00 a 20:00 h").
/// A dotted time counts only when "h" or an end time follows it, so
/// "1.500 personas" or a date "12.10.2026" is not a time.
///
/// ```
/// use cityvibe::parse::occurrences::hours_in_text;
/// use jiff::civil::time;
/// let range = "De 10:00 a 14:00 y de 17:00 a 20:00";
/// assert_eq!(hours_in_text(range), Some((time(10, 0, 0, 0), Some(time(14, 0, 0, 0)))));
/// assert_eq!(hours_in_text("a las 20.30 h"), Some((time(20, 30, 0, 0), None)));
/// assert_eq!(hours_in_text("Aforo de 1.500 personas"), None);
/// ```
pub fn hours_in_text(text: &str) -> Option<(Time, Option<Time>)> {
    for m in CLOCK.captures_iter(text) {
        let whole = m.get(0)?;
        let before = &text[..whole.start()];
        let after = &text[whole.end()..];
        let joined_after = after.starts_with(['.', '/', ':']) && after[1..].starts_with(|c: char| c.is_ascii_digit());
        if before.ends_with(['.', '/', ':']) || joined_after {
            continue;
        }
        let until = UNTIL.captures(after).and_then(|u| clock(&u[1], &u[2]));
        let meridiem = MERIDIEM.captures(after).map(|c| c[1].to_ascii_lowercase());
        if &m[2] == "." && until.is_none() && meridiem.is_none() && !after.trim_start().starts_with(['h', 'H']) {
            continue;
        }
        let hour = match (m[1].parse::<i8>(), meridiem.as_deref()) {
            (Ok(h @ 1..=11), Some("p")) => (h + 12).to_string(),
            (Ok(12), Some("a")) => "0".to_string(),
            _ => m[1].to_string(),
        };
        if let Some(t) = clock(&hour, &m[3]) {
            return Some((t, until.filter(|u| *u > t)));
        }
    }
    None
}

/// The first time of day in a sentence; see [`hours_in_text`].
///
/// ```
/// use cityvibe::parse::occurrences::time_in_text;
/// use jiff::civil::time;
/// assert_eq!(time_in_text("De 10:00 a 14:00 y de 17:00 a 20:00"), Some(time(10, 0, 0, 0)));
/// assert_eq!(time_in_text("De martes a sábado, 20:00 h"), Some(time(20, 0, 0, 0)));
/// ```
pub fn time_in_text(text: &str) -> Option<Time> {
    hours_in_text(text).map(|(t, _)| t)
}

fn clock(h: &str, m: &str) -> Option<Time> {
    Time::new(h.parse().ok()?, m.parse().ok()?, 0, 0).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::{Weekday, date, time};

    #[test]
    fn ranges_merge_sorted_without_duplicates() {
        let a =
            Schedule::from_span(date(2026, 10, 5), Some(date(2026, 10, 10)), Some(time(20, 0, 0, 0)), None, vec![Weekday::Monday], vec![]);
        let b = Schedule::from_span(
            date(2026, 10, 1),
            Some(date(2026, 10, 12)),
            Some(time(20, 0, 0, 0)),
            None,
            vec![Weekday::Monday, Weekday::Thursday],
            vec![],
        );
        let m = merge(vec![a, b]);
        let days: Vec<_> = m.occurrences.iter().map(|o| o.start.date()).collect();
        assert_eq!(days, vec![date(2026, 10, 1), date(2026, 10, 5), date(2026, 10, 8), date(2026, 10, 12)]);
        assert_eq!(m.start.unwrap().date(), date(2026, 10, 1));
        assert_eq!(m.end.unwrap().date(), date(2026, 10, 12));
        assert_eq!(m.weekdays, vec![Weekday::Monday, Weekday::Thursday]);
    }

    #[test]
    fn an_open_part_leaves_the_whole_open() {
        let a = Schedule::from_span(date(2026, 10, 5), Some(date(2026, 10, 10)), None, None, vec![], vec![]);
        let b = Schedule::from_span(date(2026, 11, 1), None, None, None, vec![], vec![]);
        let m = merge(vec![a, b]);
        assert_eq!(m.end, None);
        assert!(m.all_day);
        assert_eq!(m.occurrences.len(), 2);
    }

    #[test]
    fn merge_caps_occurrences() {
        let parts = (0..3)
            .map(|y| Schedule::from_span(date(2026 + y, 1, 1), Some(date(2026 + y, 12, 31)), Some(time(10, 0, 0, 0)), None, vec![], vec![]))
            .collect();
        assert_eq!(merge(parts).occurrences.len(), MAX_OCCURRENCES);
    }

    #[test]
    fn times_in_opening_hours_text() {
        assert_eq!(time_in_text("De martes a sábado, 20:00 h. Domingos 18:00"), Some(time(20, 0, 0, 0)));
        assert_eq!(time_in_text("Funciones a las 20.30 h"), Some(time(20, 30, 0, 0)));
        assert_eq!(time_in_text("Del 12.10.2026 al 14.10.2026, 19:30"), Some(time(19, 30, 0, 0)));
        assert_eq!(time_in_text("Aforo 1.500 personas"), None);
        assert_eq!(time_in_text("Consultar horarios"), None);
        assert_eq!(time_in_text("25:00"), None);
        let t = |h, m| time(h, m, 0, 0);
        assert_eq!(hours_in_text("Martes a sábado: 10:00 a 20:00 h. Domingos: 10:00 a 14:30 h"), Some((t(10, 0), Some(t(20, 0)))));
        assert_eq!(hours_in_text("De 18.30 h a 20.00 h"), Some((t(18, 30), Some(t(20, 0)))));
        assert_eq!(hours_in_text("De martes a domingo de 10.00 a 13.30 horas y de 16.00 a 19.00 horas"), Some((t(10, 0), Some(t(13, 30)))));
        assert_eq!(hours_in_text("Pases a las 19:00 h y a las 21:30 h"), Some((t(19, 0), None)));
        assert_eq!(time_in_text("Meeting point at 10.30 am."), Some(t(10, 30)));
        assert_eq!(time_in_text("Starts 7:30 p.m."), Some(t(19, 30)));
        assert_eq!(time_in_text("12.15 am"), Some(t(0, 15)));
        assert_eq!(hours_in_text("11:00-14:00"), Some((t(11, 0), Some(t(14, 0)))));
        assert_eq!(hours_in_text("De 22:00 a 02:00"), Some((t(22, 0), None)), "an end past midnight is no end time");
    }
}
