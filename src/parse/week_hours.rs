//! Opening-hours and show-time texts that give each day its own time
//! ("Dissabte: 19 h  Diumenge: 11 h", "De dimarts a divendres: de 17 a 20 h
//! Dissabtes: d'11 a 14 h Dilluns: tancat"), read into groups of weekdays
//! with a time each, and a span of days with such groups into a schedule.
//!
//! The words (weekday names, "festius", "tancat", "durada", the range word
//! "a") are data: `data/lang/LANG/hours.tsv`, each file with examples the
//! tests run. The times are read here: `20.30 h`, `20 h`, `20h`, `19:30`,
//! `de 9 a 20 h`, `d'11 a 14 h`, `12 i 17 h` (the first one counts).
//! Not for: a plain time or the first time of a sentence
//! (`dates::parse_time`, `occurrences::hours_in_text`).

use crate::model::Schedule;
use crate::parse::occurrences::merge;
use crate::parse::text::fold;
use jiff::civil::{Date, Time, Weekday};
use regex::Regex;
use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

/// Days of the week and the time (and end) the text gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayHours {
    /// Empty: every day.
    pub days: Vec<Weekday>,
    pub start: Time,
    pub end: Option<Time>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Day(Weekday),
    Weekdays,
    EveryDay,
    Holidays,
    Closed,
    Duration,
    Range,
}

/// The words of `lang`'s `hours.tsv`, folded, longest first.
fn vocabulary(lang: &str) -> &'static [(String, Word)] {
    static ALL: OnceLock<HashMap<&'static str, Vec<(String, Word)>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let mut map = HashMap::new();
        for lang in crate::lang::Lang::ALL.into_iter().filter(|l| crate::lang_data::of(l).hours.exists()) {
            let mut words: Vec<(String, Word)> = crate::lang_data::of(lang)
                .hours
                .rows()
                .filter_map(|row| {
                    let word = match *row.get(1)? {
                        "mo" => Word::Day(Weekday::Monday),
                        "tu" => Word::Day(Weekday::Tuesday),
                        "we" => Word::Day(Weekday::Wednesday),
                        "th" => Word::Day(Weekday::Thursday),
                        "fr" => Word::Day(Weekday::Friday),
                        "sa" => Word::Day(Weekday::Saturday),
                        "su" => Word::Day(Weekday::Sunday),
                        "weekdays" => Word::Weekdays,
                        "every-day" => Word::EveryDay,
                        "holidays" => Word::Holidays,
                        "closed" => Word::Closed,
                        "duration" => Word::Duration,
                        "range" => Word::Range,
                        _ => return None,
                    };
                    Some((fold(row[0]), word))
                })
                .collect();
            words.sort_by_key(|(w, _)| std::cmp::Reverse(w.split(' ').count()));
            map.insert(lang.as_str(), words);
        }
        map
    });
    all.get(lang).map_or(&[], Vec::as_slice)
}

// A number that may be an hour, with its minutes: "20", "20.30", "9:30".
static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(\d{1,2})(?:[.:](\d{2}))?").expect("number regex"));
// What may stand between two numbers of one time expression: "h", then a
// joiner ("a" for an end, "i" or "," for another time), "les", "de"/"d'".
static JOINER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(h\b\.?)?\s*(a|i|,|-|–|fins a|y|hasta)?\s*(?:les\s+|las\s+)?(?:de\s+|d')?\s*$").expect("joiner regex")
});

/// One time expression: where it stands, its time and end.
struct Clock {
    at: usize,
    start: Time,
    end: Option<Time>,
}

/// The time expressions of a folded text. A number is a time when an `h`
/// follows it or its group ("de 9 a 20 h"), or when it has colon minutes.
fn clocks(text: &str) -> Vec<Clock> {
    // (position, hour, minutes, joiner before it, h right after it)
    let mut numbers: Vec<(usize, usize, i8, i8, String)> = Vec::new();
    for m in NUMBER.captures_iter(text) {
        let whole = m.get(0).expect("match");
        let before = text[..whole.start()].chars().next_back();
        let after = text[whole.end()..].chars().next();
        // Part of a longer number, a date (12.10.2026, 3/2) or a word.
        if before.is_some_and(|c| c.is_ascii_digit() || c.is_alphabetic() || c == '.' || c == '/' || c == ':')
            || after.is_some_and(|c| {
                c.is_ascii_digit() || c == '/' || c == '.' && text[whole.end() + 1..].starts_with(|d: char| d.is_ascii_digit())
            })
        {
            continue;
        }
        let (Ok(h), Ok(min)) = (m[1].parse::<i8>(), m.get(2).map_or(Ok(0), |x| x.as_str().parse::<i8>())) else { continue };
        let colon = whole.as_str().contains(':');
        numbers.push((whole.start(), whole.end(), h, min, if colon { ":".into() } else { String::new() }));
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        // A group: numbers joined by what JOINER allows.
        let mut group = vec![(i, None::<String>)];
        let mut has_h = false;
        let mut j = i;
        while j + 1 < numbers.len() {
            let gap = &text[numbers[j].1..numbers[j + 1].0];
            let Some(c) = JOINER.captures(gap) else { break };
            has_h |= c.get(1).is_some();
            group.push((j + 1, c.get(2).map(|x| x.as_str().to_string())));
            j += 1;
        }
        let tail = &text[numbers[j].1..];
        has_h |= tail.trim_start().starts_with('h') && !tail.trim_start()[1..].starts_with(|c: char| c.is_alphabetic());
        let (first, ..) = group[0];
        let colon = !numbers[first].4.is_empty();
        if has_h || colon {
            let n = &numbers[first];
            if let Ok(start) = Time::new(n.2, n.3, 0, 0) {
                let end = group
                    .get(1)
                    .filter(|(_, joiner)| matches!(joiner.as_deref(), Some("a" | "-" | "–" | "fins a" | "hasta")))
                    .and_then(|(k, _)| Time::new(numbers[*k].2, numbers[*k].3, 0, 0).ok())
                    .filter(|e| *e > start);
                out.push(Clock { at: n.0, start, end });
            }
        }
        i = j + 1;
    }
    out
}

/// The groups of days of an opening-hours text in `lang` (its
/// `data/lang/LANG/hours.tsv`), each with its first time: a day or a list
/// or range of days starts a group, the first time after it is the group's,
/// days said to be closed have none. A text naming no day gives one group
/// of every day (empty `days`); days closed are left out of it.
///
/// ```
/// use cityvibe::parse::week_hours::{DayHours, week_hours};
/// use jiff::civil::{Weekday, time};
/// assert_eq!(
///     week_hours("Dissabte: 19 h  Diumenge: 11 h", "ca"),
///     vec![
///         DayHours { days: vec![Weekday::Saturday], start: time(19, 0, 0, 0), end: None },
///         DayHours { days: vec![Weekday::Sunday], start: time(11, 0, 0, 0), end: None },
///     ]
/// );
/// assert_eq!(week_hours("20.30 h", "ca"), vec![DayHours { days: vec![], start: time(20, 30, 0, 0), end: None }]);
/// ```
pub fn week_hours(text: &str, lang: &str) -> Vec<DayHours> {
    let text = fold(&text.replace(['’', '\u{2bc}'], "'").replace('\u{a0}', " "));
    let clocks = clocks(&text);
    let found = words_of(&text, vocabulary(lang));
    day_hours(groups(&found, &clocks))
}

/// The words of `vocabulary` in `text`, by position: (start, end, word), a
/// word of several tokens matched whole.
fn words_of(text: &str, vocabulary: &[(String, Word)]) -> Vec<(usize, usize, Word)> {
    let mut found: Vec<(usize, usize, Word)> = Vec::new();
    let mut tokens: Vec<(usize, &str)> = Vec::new();
    let mut from: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match (c.is_alphanumeric(), from) {
            (true, None) => from = Some(i),
            (false, Some(s)) => {
                tokens.push((s, &text[s..i]));
                from = None;
            }
            _ => {}
        }
    }
    if let Some(s) = from {
        tokens.push((s, &text[s..]));
    }
    let mut k = 0;
    while k < tokens.len() {
        let hit = vocabulary.iter().find_map(|(w, word)| {
            let parts: Vec<&str> = w.split(' ').collect();
            let here: Vec<&str> = tokens[k..].iter().take(parts.len()).map(|(_, t)| *t).collect();
            (here == parts).then_some((parts.len(), *word))
        });
        match hit {
            Some((n, word)) => {
                let (at, last) = (tokens[k].0, tokens[k + n - 1]);
                found.push((at, last.0 + last.1.len(), word));
                k += n;
            }
            None => k += 1,
        }
    }
    found
}

/// Days named together and the first time said after them.
#[derive(Default)]
struct Group {
    days: Vec<Weekday>,
    named: bool,
    time: Option<(Time, Option<Time>)>,
    closed: bool,
}

/// The words and clocks of a text, in the text's order, as groups: a day
/// or a list or range of days after a time or a "closed" starts a group,
/// the first time after it is the group's, a time after a duration word
/// ("for 2 hours") is no start.
fn groups(found: &[(usize, usize, Word)], clocks: &[Clock]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut current = Group::default();
    let mut in_duration = false;
    let mut previous_day: Option<(Weekday, usize)> = None;
    let mut pending_range = false;
    let mut events: Vec<(usize, Option<Word>, Option<&Clock>)> = found.iter().map(|(at, _, w)| (*at, Some(*w), None)).collect();
    events.extend(clocks.iter().map(|c| (c.at, None, Some(c))));
    events.sort_by_key(|e| e.0);
    let ends: HashMap<usize, usize> = found.iter().map(|(at, end, _)| (*at, *end)).collect();
    for (at, word, clock) in events {
        if let Some(c) = clock {
            if !in_duration && !current.closed && current.time.is_none() {
                current.time = Some((c.start, c.end));
            }
            previous_day = None;
            continue;
        }
        let word = word.expect("a word or a clock");
        let days: Vec<Weekday> = match word {
            Word::Day(d) => vec![d],
            Word::Weekdays => (0..5).filter_map(|i| Weekday::from_monday_zero_offset(i).ok()).collect(),
            Word::EveryDay => (0..7).filter_map(|i| Weekday::from_monday_zero_offset(i).ok()).collect(),
            Word::Holidays => vec![],
            Word::Closed => {
                current.closed = true;
                continue;
            }
            Word::Duration => {
                in_duration = true;
                continue;
            }
            Word::Range => {
                pending_range = previous_day.is_some();
                continue;
            }
        };
        in_duration = false;
        if current.time.is_some() || current.closed {
            groups.push(std::mem::take(&mut current));
        }
        current.named = true;
        if let (true, Some((from, _)), Word::Day(to)) = (pending_range, previous_day, word) {
            let mut d = from;
            while d != to {
                d = d.next();
                if !current.days.contains(&d) {
                    current.days.push(d);
                }
            }
        }
        pending_range = false;
        for d in days {
            if !current.days.contains(&d) {
                current.days.push(d);
            }
        }
        previous_day = match word {
            Word::Day(d) => Some((d, ends.get(&at).copied().unwrap_or(at))),
            _ => None,
        };
    }
    groups.push(current);
    groups
}

/// The groups that have a time, as [`DayHours`]: days said to be closed
/// left out, a group naming no day taken as every day (empty `days`), a
/// group naming only holidays dropped.
fn day_hours(groups: Vec<Group>) -> Vec<DayHours> {
    let closed: Vec<Weekday> = groups.iter().filter(|g| g.closed).flat_map(|g| g.days.iter().copied()).collect();
    let mut out = Vec::new();
    for g in groups.into_iter().filter(|g| !g.closed) {
        let Some((start, end)) = g.time else { continue };
        // A group that names only holidays is no weekday of ours.
        if g.named && g.days.is_empty() {
            continue;
        }
        let mut days = if g.named { g.days } else { (0..7).filter_map(|i| Weekday::from_monday_zero_offset(i).ok()).collect() };
        days.retain(|d| !closed.contains(d));
        days.sort_by_key(|d| d.to_monday_zero_offset());
        if days.len() == 7 {
            days.clear();
        } else if days.is_empty() {
            continue;
        }
        out.push(DayHours { days, start, end });
    }
    out
}

/// A span of days (`last` none: one day) with the groups of
/// [`week_hours`]: one occurrence on each day a group names, at its time.
/// A single day takes the first group that names its weekday (or every
/// day), else the first; a span no group's days fall in takes the first
/// group's time every day; no group: all day.
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
pub fn schedule(first: Date, last: Option<Date>, hours: &[DayHours]) -> Schedule {
    let Some(head) = hours.first() else { return Schedule::from_span(first, last, None, None, vec![], vec![]) };
    if last.is_none_or(|l| l <= first) {
        let h = hours.iter().find(|h| h.days.is_empty() || h.days.contains(&first.weekday())).unwrap_or(head);
        return Schedule::from_span(first, last, Some(h.start), h.end, vec![], vec![]);
    }
    let merged = merge(hours.iter().map(|h| Schedule::from_span(first, last, Some(h.start), h.end, h.days.clone(), vec![])).collect());
    if merged.occurrences.is_empty() {
        return Schedule::from_span(first, last, Some(head.start), head.end, vec![], vec![]);
    }
    // It starts at its first occurrence, not at a group's time on a day that group does not name.
    Schedule { start: merged.occurrences.first().map(|o| o.start).or(merged.start), ..merged }
}

/// The groups as the data files' examples write them: `sa 19:00; su
/// 11:00`, `every day 20:30`, `tu we 17:00-20:00`, or `none`.
pub fn describe(hours: &[DayHours]) -> String {
    if hours.is_empty() {
        return "none".into();
    }
    let t = |t: Time| format!("{}:{:02}", t.hour(), t.minute());
    hours
        .iter()
        .map(|h| {
            let days = if h.days.is_empty() {
                "every day".to_string()
            } else {
                let code = |d: &Weekday| ["mo", "tu", "we", "th", "fr", "sa", "su"][d.to_monday_zero_offset() as usize];
                h.days.iter().map(code).collect::<Vec<_>>().join(" ")
            };
            match h.end {
                Some(e) => format!("{days} {}-{}", t(h.start), t(e)),
                None => format!("{days} {}", t(h.start)),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}
