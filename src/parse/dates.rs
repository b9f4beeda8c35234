//! Dates and times as Spanish feeds write them, into jiff civil values.

use jiff::civil::{Date, DateTime, Time, Weekday};

/// `2025-10-25 19:00:00.0`, `2025-10-25T19:00:00`, `2025-10-25 19:00`, `2025-10-25`,
/// `25/10/2025 19:00`; a date alone is at midnight.
///
/// ```
/// use cityvibe::parse::dates::parse_datetime;
/// use jiff::civil::date;
/// assert_eq!(parse_datetime("25/10/2025 19:30"), Some(date(2025, 10, 25).at(19, 30, 0, 0)));
/// assert_eq!(parse_datetime("2025-10-25 19:00:00.0"), Some(date(2025, 10, 25).at(19, 0, 0, 0)));
/// ```
pub fn parse_datetime(s: &str) -> Option<DateTime> {
    let (date, time) = parse_date_and_time(s)?;
    Some(date.to_datetime(time.unwrap_or(Time::midnight())))
}

/// As [`parse_datetime`], the time `None` when only a date is written.
///
/// ```
/// use cityvibe::parse::dates::parse_date_and_time;
/// use jiff::civil::{date, time};
/// assert_eq!(parse_date_and_time("2026-12-05"), Some((date(2026, 12, 5), None)));
/// assert_eq!(parse_date_and_time("2026-12-05T19:00:00.0"), Some((date(2026, 12, 5), Some(time(19, 0, 0, 0)))));
/// assert_eq!(parse_date_and_time("2026-12-05 25:00"), None);
/// ```
pub fn parse_date_and_time(s: &str) -> Option<(Date, Option<Time>)> {
    let s = s.trim();
    let (d, t) = match s.split_once([' ', 'T']) {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    let date = parse_date(d)?;
    let time = match t {
        Some(t) => Some(parse_time(t.split('.').next().unwrap_or(t))?),
        None => None,
    };
    Some((date, time))
}

/// The time of a feed's date-time when it is a real time of day; `None`
/// when it means "no time given": midnight (a date written as a date-time),
/// 23:59 or 23:59:59 (an end written as the last minute of its day).
///
/// ```
/// use cityvibe::parse::dates::real_time;
/// use jiff::civil::time;
/// assert_eq!(real_time(time(19, 30, 0, 0)), Some(time(19, 30, 0, 0)));
/// assert_eq!(real_time(time(0, 0, 0, 0)), None);
/// assert_eq!(real_time(time(23, 59, 0, 0)), None);
/// assert_eq!(real_time(time(23, 59, 59, 0)), None);
/// ```
pub fn real_time(t: Time) -> Option<Time> {
    (t != Time::midnight() && t != jiff::civil::time(23, 59, 0, 0) && t != jiff::civil::time(23, 59, 59, 0)).then_some(t)
}

/// `YYYY-MM-DD`, `DD/MM/YYYY` or `D/M/YYYY`; invalid days such as 31/02 are `None`.
///
/// ```
/// use cityvibe::parse::dates::parse_date;
/// use jiff::civil::date;
/// assert_eq!(parse_date("05/12/2026"), Some(date(2026, 12, 5)));
/// assert_eq!(parse_date("5/1/2027"), Some(date(2027, 1, 5)));
/// assert_eq!(parse_date("2026-12-05"), Some(date(2026, 12, 5)));
/// assert_eq!(parse_date("31/02/2026"), None);
/// ```
pub fn parse_date(s: &str) -> Option<Date> {
    let mut nums = s.trim().split(['-', '/']);
    let (first, second, third) = (nums.next()?, nums.next()?, nums.next()?);
    if nums.next().is_some() {
        return None;
    }
    let n = |x: &str| x.trim().parse::<i32>().ok();
    let (y, m, d) = if first.len() == 4 { (n(first)?, n(second)?, n(third)?) } else { (n(third)?, n(second)?, n(first)?) };
    Date::new(i16::try_from(y).ok()?, i8::try_from(m).ok()?, i8::try_from(d).ok()?).ok()
}

/// The first year a feed's date may fall in: earlier is a junk date
/// (`0021` for 2021, `1900` for "unknown"), never an event of that year.
pub const PLAUSIBLE_FROM_YEAR: i16 = 1990;
/// How many years ahead of the reading a date may fall: later is a junk
/// date (`2221` for 2021, `9999` for "open-ended").
pub const PLAUSIBLE_YEARS_AHEAD: i16 = 10;

/// The window a feed's dates must fall in when read on `today`: from
/// 1 January [`PLAUSIBLE_FROM_YEAR`] to [`PLAUSIBLE_YEARS_AHEAD`] years
/// after `today`, both included.
pub fn plausible_window(today: Date) -> (Date, Date) {
    let last = today.saturating_add(jiff::Span::new().years(PLAUSIBLE_YEARS_AHEAD));
    (jiff::civil::date(PLAUSIBLE_FROM_YEAR, 1, 1), last)
}

/// Today in Madrid: the reading time the plausible window is counted from.
pub fn reading_day() -> Date {
    let tz = jiff::tz::TimeZone::get(crate::model::TZ_MADRID).unwrap_or(jiff::tz::TimeZone::UTC);
    tz.to_datetime(jiff::Timestamp::now()).date()
}

/// `Ok(date)` when `date` falls in the plausible window read on `today`,
/// else the record error's reason, naming the feed's `field`. A junk year
/// (`0021`, `2221`, `9999`) is never stored as that year.
///
/// ```
/// use cityvibe::parse::dates::plausible;
/// use jiff::civil::date;
/// let today = date(2026, 12, 2);
/// assert_eq!(plausible("fecha_inicio", date(2021, 5, 8), today), Ok(date(2021, 5, 8)));
/// assert_eq!(plausible("data_fi", date(2036, 12, 2), today), Ok(date(2036, 12, 2)));
/// let told = plausible("data_inici", date(21, 5, 8), today).unwrap_err();
/// assert!(told.contains("data_inici") && !told.contains("0021"), "{told}");
/// assert!(plausible("data_fi", date(2221, 5, 8), today).is_err());
/// assert!(plausible("data_fi", date(9999, 12, 31), today).is_err());
/// assert!(plausible("start", date(1989, 12, 31), today).is_err());
/// ```
pub fn plausible(field: &str, date: Date, today: Date) -> Result<Date, String> {
    let (first, last) = plausible_window(today);
    if (first..=last).contains(&date) {
        Ok(date)
    } else {
        Err(format!(
            "{field} is outside the plausible dates ({first} to {last}, {PLAUSIBLE_YEARS_AHEAD} years ahead of the reading): a junk date, not stored"
        ))
    }
}

/// [`parse_date`] of a feed's `field`, in the plausible window read today
/// ([`reading_day`]): `Ok(None)` when the text is blank, `Err` (the reason,
/// naming the field) when it is no date or a junk one. The record kit's
/// way to read a date field; the record framework checks every event's
/// dates against the same window all the same.
pub fn read_date(field: &str, text: &str) -> Result<Option<Date>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    // The field and what is wrong, never the value (P5).
    let date = parse_date(text).ok_or_else(|| format!("{field} is no date"))?;
    plausible(field, date, reading_day()).map(Some)
}

/// `19:00`, `19:00:00`, `19.30`, `20:30 h.`, `20.30h`, `20 h` → a time; anything else `None`.
/// A whole sentence or a range is [`crate::parse::occurrences::time_in_text`]'s.
///
/// ```
/// use cityvibe::parse::dates::parse_time;
/// use jiff::civil::time;
/// assert_eq!(parse_time("19.30"), Some(time(19, 30, 0, 0)));
/// assert_eq!(parse_time("20:00 h"), Some(time(20, 0, 0, 0)));
/// assert_eq!(parse_time("20 h"), Some(time(20, 0, 0, 0)));
/// assert_eq!(parse_time("25:00"), None);
/// assert_eq!(parse_time("De 10:00 a 14:00"), None);
/// ```
pub fn parse_time(s: &str) -> Option<Time> {
    let s = s.trim().trim_end_matches(['.', ' ']).trim_end_matches(['h', 'H']).trim();
    let mut parts = s.split([':', '.']);
    let h: i8 = parts.next()?.trim().parse().ok()?;
    let m: i8 = parts.next().map(|m| m.trim().parse().ok()).unwrap_or(Some(0))?;
    let sec: i8 = parts.next().map(|m| m.trim().parse().ok()).unwrap_or(Some(0))?;
    Time::new(h, m, sec, 0).ok()
}

/// Weekday lists in the styles feeds use: `MO,TU` (iCalendar), `L,M,X,J,V,S,D`
/// (Spanish initials), or Spanish/Catalan names. Unknown items are skipped.
pub fn parse_weekdays(s: &str) -> Vec<Weekday> {
    let mut out = Vec::new();
    for item in s.split([',', ';', ' ']).map(str::trim).filter(|x| !x.is_empty()) {
        let f = crate::parse::text::fold(item);
        let day = match f.as_str() {
            "mo" | "l" | "lunes" | "dilluns" | "monday" => Weekday::Monday,
            "tu" | "m" | "martes" | "dimarts" | "tuesday" => Weekday::Tuesday,
            "we" | "x" | "miercoles" | "dimecres" | "wednesday" => Weekday::Wednesday,
            "th" | "j" | "jueves" | "dijous" | "thursday" => Weekday::Thursday,
            "fr" | "v" | "viernes" | "divendres" | "friday" => Weekday::Friday,
            "sa" | "s" | "sabado" | "dissabte" | "saturday" => Weekday::Saturday,
            "su" | "d" | "domingo" | "diumenge" | "sunday" => Weekday::Sunday,
            _ => continue,
        };
        if !out.contains(&day) {
            out.push(day);
        }
    }
    out
}

/// `23/9/2025;30/9/2025;` → dates (invalid items skipped).
pub fn parse_date_list(s: &str) -> Vec<Date> {
    s.split([';', ',']).filter_map(parse_date).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::{date, time};

    #[test]
    fn feed_date_styles() {
        assert_eq!(parse_datetime("2025-10-25 19:00:00.0"), Some(date(2025, 10, 25).to_datetime(time(19, 0, 0, 0))));
        assert_eq!(parse_date("23/9/2025"), Some(date(2025, 9, 23)));
        assert_eq!(parse_date("31/02/2026"), None);
        // Three numbers exactly.
        assert_eq!(parse_date("2025-09"), None);
        assert_eq!(parse_date("23/9/2025/1"), None);
        assert_eq!(parse_date(" 2025-09-23 "), Some(date(2025, 9, 23)));
        assert_eq!(parse_time("20:30 h."), Some(time(20, 30, 0, 0)));
        assert_eq!(parse_time("a partir de las 8"), None);
        assert_eq!(parse_weekdays("L,M,X"), vec![Weekday::Monday, Weekday::Tuesday, Weekday::Wednesday]);
        assert_eq!(parse_weekdays("MO,TU"), vec![Weekday::Monday, Weekday::Tuesday]);
        assert_eq!(parse_date_list("23/9/2025;30/9/2025;"), vec![date(2025, 9, 23), date(2025, 9, 30)]);
    }
}
