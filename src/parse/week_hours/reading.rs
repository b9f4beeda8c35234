//! What a text says about days, as read: weekly groups of days with a time
//! ([`DayHours`]), dated days ([`DatedHours`]), closed weekdays, all in a
//! [`WeekHours`], which writes itself in OpenStreetMap's `opening_hours`
//! syntax. Not for: reading a text (`reader.rs`) or making a schedule
//! (`days.rs`).

use jiff::civil::{Time, Weekday};

/// Days of the week and the time (and end) the text gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayHours {
    /// Empty: every day.
    pub days: Vec<Weekday>,
    /// Public holidays too ("Domingos y festivos").
    pub holidays: bool,
    /// None: the days are named with no time ("Sábados y domingos"): all day.
    pub start: Option<Time>,
    pub end: Option<Time>,
}

/// A day the text dates ("14 de febrero", "Dissabte 20", "dies 3, 10 i 17
/// de febrer"), open at a time, all day, or closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatedHours {
    pub day: i8,
    /// None when the text gives the day of the month alone ("Dissabte 20").
    pub month: Option<i8>,
    pub year: Option<i16>,
    /// The weekday written beside it, which the day must fall on.
    pub weekday: Option<Weekday>,
    pub start: Option<Time>,
    pub end: Option<Time>,
    pub closed: bool,
}

/// What an opening-hours text says about days: see [`week_hours`](super::week_hours).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WeekHours {
    /// Weekly groups: each day a group names is open, at its time.
    pub weekly: Vec<DayHours>,
    /// Weekdays said to be closed ("Lunes cerrado", "Dilluns: tancat").
    pub closed: Vec<Weekday>,
    /// Dated days: occurrences of their own, or closed days.
    pub dated: Vec<DatedHours>,
    /// The text opens with an opening night ("Inauguració", "Inauguración"):
    /// its dated day is one occurrence, the span's other days keep theirs.
    pub opening: bool,
}

impl WeekHours {
    /// Whether the text said anything this reader understood.
    pub fn is_empty(&self) -> bool {
        self.weekly.is_empty() && self.closed.is_empty() && self.dated.is_empty()
    }

    /// The reading in OpenStreetMap's `opening_hours` syntax: `Tu-Sa
    /// 09:00-18:00; Su,PH 09:00-15:00; Mo off`, dated days as `2020 Feb 14
    /// 18:30` (`Feb 14` without a year, `day 20` for a day of the month alone,
    /// which the syntax cannot say); `none` when nothing was read.
    ///
    /// ```
    /// use cityvibe::parse::week_hours::week_hours;
    /// let h = week_hours("Martes a sábado de 9 a 18 h. Domingos y festivos de 9 a 15 h. Lunes cerrado", "es");
    /// assert_eq!(h.opening_hours(), "Tu-Sa 09:00-18:00; Su,PH 09:00-15:00; Mo off");
    /// ```
    pub fn opening_hours(&self) -> String {
        let t = |t: Time| format!("{:02}:{:02}", t.hour(), t.minute());
        let times = |start: Option<Time>, end: Option<Time>| match (start, end) {
            (Some(s), Some(e)) => format!(" {}-{}", t(s), t(e)),
            (Some(s), None) => format!(" {}", t(s)),
            _ => String::new(),
        };
        let mut rules: Vec<String> = Vec::new();
        for h in &self.weekly {
            let mut days = if h.days.is_empty() { "Mo-Su".to_string() } else { day_ranges(&h.days) };
            if h.holidays {
                days.push_str(",PH");
            }
            rules.push(format!("{days}{}", times(h.start, h.end)));
        }
        if !self.closed.is_empty() {
            rules.push(format!("{} off", day_ranges(&self.closed)));
        }
        for d in &self.dated {
            const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
            let mut day = match d.month {
                Some(m) => format!("{} {:02}", MONTHS[(m - 1) as usize], d.day),
                None => format!("day {}", d.day),
            };
            if let Some(y) = d.year {
                day = format!("{y} {day}");
            }
            rules.push(if d.closed { format!("{day} off") } else { format!("{day}{}", times(d.start, d.end)) });
        }
        if rules.is_empty() { "none".into() } else { rules.join("; ") }
    }
}

const CODES: [&str; 7] = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];

/// `Tu-Sa`, `Mo,We,Fr`, `Th-Sa,Mo`: runs of three or more days as ranges.
fn day_ranges(days: &[Weekday]) -> String {
    let mut n: Vec<i8> = days.iter().map(|d| d.to_monday_zero_offset()).collect();
    n.sort();
    n.dedup();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < n.len() {
        let mut j = i;
        while j + 1 < n.len() && n[j + 1] == n[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            out.push(format!("{}-{}", CODES[n[i] as usize], CODES[n[j] as usize]));
        } else {
            out.extend((i..=j).map(|k| CODES[n[k] as usize].to_string()));
        }
        i = j + 1;
    }
    out.join(",")
}
