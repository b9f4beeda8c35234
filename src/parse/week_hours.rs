//! Opening-hours and show-time texts, in the words of the feed's language,
//! read into what they say about days: groups of weekdays with a time each
//! ("Martes a sábado de 9 a 18 h. Domingos de 9 a 15 h. Lunes cerrado",
//! "Dissabte: 19 h  Diumenge: 11 h"), weekdays said to be closed, and dated
//! days ("Inauguració, dia 14 de febrer a les 18.30 h", "Cerrado 24 y 25 de
//! diciembre"); then a span of days with that reading into a schedule that
//! has no occurrence on a day the text closes or does not name.
//!
//! The entry point for an adapter is [`hours_schedule`] (text, language and
//! span in, schedule out); [`week_hours`] and [`schedule`] are its two
//! halves, and [`WeekHours::opening_hours`] writes a reading in
//! OpenStreetMap's `opening_hours` syntax (`Tu-Sa 09:00-18:00; Su,PH
//! 09:00-15:00; Mo off`), the form schema.org's `openingHours` takes and
//! the one the data files' examples are written in.
//!
//! The words (weekday and month names, "festivos", "cerrado", "durada",
//! "inauguració", the range word "a") are data: `data/lang/LANG/hours.tsv`,
//! each file with examples the tests run. The times are read here: `20.30
//! h`, `20 h`, `20h`, `19:30`, `de 9 a 20 h`, `d'11 a 14 h`, `12 i 17 h` (the
//! first one counts). Never a guessed day: a text that says nothing this
//! reader understands leaves the span as it is, with no time of day.
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

/// What an opening-hours text says about days: see [`week_hours`].
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Day(Weekday),
    Weekdays,
    EveryDay,
    Holidays,
    Closed,
    Duration,
    Range,
    Month(i8),
    DayOfMonth,
    Bound,
    Opening,
    Open,
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
                    let meaning = *row.get(1)?;
                    let word = match meaning {
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
                        "day" => Word::DayOfMonth,
                        "bound" => Word::Bound,
                        "opening" => Word::Opening,
                        "open" => Word::Open,
                        m => Word::Month(m.strip_prefix("month-")?.parse().ok().filter(|m| (1..=12).contains(m))?),
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
    Regex::new(r"^\s*(h\b\.?|horas\b\.?)?\s*(a|i|y|e|,|-|–|fins a|hasta|ata)?\s*(?:les\s+|las\s+|as\s+)?(?:de\s+|d')?\s*$")
        .expect("joiner regex")
});
// A lower-case letter glued to an upper-case one: "horasDomingos".
static GLUED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(\p{Ll})(\p{Lu})").expect("glued regex"));

/// One time expression: where it stands, its time and end.
struct Clock {
    at: usize,
    to: usize,
    start: Time,
    end: Option<Time>,
}

/// The time expressions of a folded text. A number is a time when an `h`
/// follows it or its group ("de 9 a 20 h"), or when it has colon minutes.
fn clocks(text: &str) -> Vec<Clock> {
    // (position, end, hour, minutes, colon)
    let mut numbers: Vec<(usize, usize, i8, i8, bool)> = Vec::new();
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
        numbers.push((whole.start(), whole.end(), h, min, whole.as_str().contains(':')));
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
        let tail = text[numbers[j].1..].trim_start();
        // "20 h", "20h.", "11 horas"; not "1 hora 15 minutos", a duration.
        has_h |= tail.starts_with('h') && (!tail[1..].starts_with(|c: char| c.is_alphabetic()) || tail.starts_with("horas"));
        let (first, ..) = group[0];
        if has_h || numbers[first].4 {
            let n = &numbers[first];
            if let Ok(start) = Time::new(n.2, n.3, 0, 0) {
                let end = group
                    .get(1)
                    .filter(|(_, joiner)| matches!(joiner.as_deref(), Some("a" | "-" | "–" | "fins a" | "hasta" | "ata")))
                    .and_then(|(k, _)| Time::new(numbers[*k].2, numbers[*k].3, 0, 0).ok())
                    .filter(|e| *e > start);
                out.push(Clock { at: n.0, to: numbers[j].1, start, end });
            }
        }
        i = j + 1;
    }
    out
}

/// What an opening-hours text in `lang` (its `data/lang/LANG/hours.tsv`)
/// says about days:
/// - a day, or a list or range of days, and the first time said next to it
///   (after it, or before it when the text writes times first: "De 9:00 a
///   14:00 horas de lunes a viernes") make a weekly group; days named with
///   no time are open all day; the second range of a day does not count;
/// - days next to "closed" are closed, and so are dated days;
/// - a day of the month ("14 de febrero", "Dissabte 20") with its time is a
///   dated day, an occurrence of its own, never every day's hour; a range of
///   dates ("del 21 de febrero al 6 de marzo") or a bound ("hasta el 30 de
///   septiembre") is no occurrence;
/// - a text naming no day gives its first time to every day but the closed.
///
/// ```
/// use cityvibe::parse::week_hours::{DayHours, week_hours};
/// use jiff::civil::{Weekday, time};
/// let h = week_hours("Dissabte: 19 h  Diumenge: 11 h", "ca");
/// assert_eq!(
///     h.weekly,
///     vec![
///         DayHours { days: vec![Weekday::Saturday], holidays: false, start: Some(time(19, 0, 0, 0)), end: None },
///         DayHours { days: vec![Weekday::Sunday], holidays: false, start: Some(time(11, 0, 0, 0)), end: None },
///     ]
/// );
/// assert_eq!(week_hours("20.30 h", "ca").opening_hours(), "Mo-Su 20:30");
/// assert_eq!(week_hours("Inauguració, dia 14 de febrer a les 18.30 h", "ca").opening_hours(), "Feb 14 18:30");
/// ```
pub fn week_hours(text: &str, lang: &str) -> WeekHours {
    let text = GLUED.replace_all(text, "$1 $2");
    let text = fold(&text.replace(['’', '\u{2bc}'], "'").replace('\u{a0}', " "));
    let clocks = clocks(&text);
    let items = items(&text, vocabulary(lang), &clocks);
    read(units(&items, &clocks))
}

/// A word, number or time of the text, in its order.
#[derive(Debug, Clone, Copy)]
enum Item {
    Word(Word),
    Number(i16),
    Clock(usize),
    /// The end of a sentence (". "), not a month's abbreviation ("oct.").
    Stop,
}

/// The words of `vocabulary`, the numbers that are no time, and the times
/// of `text`, by position; a word of several tokens matched whole.
fn items(text: &str, vocabulary: &[(String, Word)], clocks: &[Clock]) -> Vec<(usize, Item)> {
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
    let mut out: Vec<(usize, Item)> = clocks.iter().enumerate().map(|(i, c)| (c.at, Item::Clock(i))).collect();
    let in_clock = |at: usize| clocks.iter().any(|c| (c.at..c.to).contains(&at));
    let mut k = 0;
    while k < tokens.len() {
        let (at, token) = tokens[k];
        if in_clock(at) {
            k += 1;
            continue;
        }
        if let Ok(n) = token.parse::<i16>() {
            out.push((at, Item::Number(n)));
            k += 1;
            continue;
        }
        let hit = vocabulary.iter().find_map(|(w, word)| {
            let parts: Vec<&str> = w.split(' ').collect();
            let here: Vec<&str> = tokens[k..].iter().take(parts.len()).map(|(_, t)| *t).collect();
            (here == parts).then_some((parts.len(), *word))
        });
        match hit {
            Some((n, word)) => {
                out.push((at, Item::Word(word)));
                k += n;
            }
            None => k += 1,
        }
    }
    // Sentence ends: a stop after a word, but not after a month's abbreviation ("11 oct. y 1 nov.").
    for (i, (at, token)) in tokens.iter().enumerate() {
        let end = at + token.len();
        let stops = text[end..].starts_with(". ") || text[end..].starts_with(".\n");
        let abbreviation = token.chars().count() <= 4
            && vocabulary.iter().any(|(w, word)| w == token && matches!(word, Word::Month(_)))
            && tokens.get(i + 1).is_some_and(|(_, t)| !t.chars().next().is_some_and(char::is_uppercase));
        if stops && token.chars().next_back().is_some_and(char::is_alphabetic) && !abbreviation {
            out.push((end, Item::Stop));
        }
    }
    out.sort_by_key(|(at, _)| *at);
    out
}

/// The text as a row of units: days named together, dated days named
/// together, times, "closed".
#[derive(Debug, Clone)]
enum Unit {
    Days {
        days: Vec<Weekday>,
        holidays: bool,
    },
    /// Dated days, each with the number of the sentence it was written in
    /// within the group ("Cerrado el 25 de diciembre. 24 y 31 de diciembre de 10 a 14 h").
    Dated(Vec<(DatedHours, u8)>),
    Stop,
    Clock(Time, Option<Time>),
    Closed,
    Opening,
    /// "Abierto", "Hi haurà funció": what follows is open; it parts dated days.
    Open,
}

/// Groups the items: consecutive day words (with ranges) into one set of
/// days; numbers with a month (or after a weekday or "dia") into dated
/// days; a range of dates or a bounded date dropped; a time after a
/// duration word dropped.
fn units(items: &[(usize, Item)], clocks: &[Clock]) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut heading: Option<i8> = None;
    let mut in_duration = false;
    let mut i = 0;
    let word = |k: usize| match items.get(k).map(|x| x.1) {
        Some(Item::Word(w)) => Some(w),
        _ => None,
    };
    while i < items.len() {
        match items[i].1 {
            Item::Clock(c) => {
                if !in_duration {
                    out.push(Unit::Clock(clocks[c].start, clocks[c].end));
                }
                i += 1;
            }
            Item::Word(Word::Duration) => {
                in_duration = true;
                i += 1;
            }
            Item::Word(Word::Closed) => {
                out.push(Unit::Closed);
                i += 1;
            }
            Item::Word(Word::Opening) => {
                out.push(Unit::Opening);
                i += 1;
            }
            Item::Word(Word::Open) => {
                out.push(Unit::Open);
                i += 1;
            }
            Item::Word(Word::Range) => i += 1,
            Item::Stop => {
                out.push(Unit::Stop);
                i += 1;
            }
            Item::Word(Word::Month(m)) => {
                heading = Some(m);
                i += 1;
            }
            Item::Word(Word::Bound) => {
                // "hasta el 30 de septiembre", "desde el 7 de enero": a bound, no day of its own.
                let (_, mut end) = dates(items, i + 1, None, None, false);
                if end > i + 1 && word(end) == Some(Word::Range) {
                    end = dates(items, end + 1, None, None, false).1;
                }
                i = end.max(i + 1);
            }
            Item::Word(Word::Day(_) | Word::Weekdays | Word::EveryDay | Word::Holidays) => {
                in_duration = false;
                let (mut days, mut holidays, mut j, mut last_day, mut range) = (Vec::new(), false, i, None::<Weekday>, false);
                let add = |d: Weekday, days: &mut Vec<Weekday>| {
                    if !days.contains(&d) {
                        days.push(d);
                    }
                };
                loop {
                    match word(j) {
                        Some(Word::Day(d)) => {
                            if let (true, Some(from)) = (range, last_day) {
                                let mut x = from;
                                while x != d {
                                    x = x.next();
                                    add(x, &mut days);
                                }
                            }
                            add(d, &mut days);
                            (last_day, range) = (Some(d), false);
                        }
                        Some(Word::Weekdays) => {
                            (0..5).filter_map(|k| Weekday::from_monday_zero_offset(k).ok()).for_each(|d| add(d, &mut days))
                        }
                        Some(Word::EveryDay) => {
                            (0..7).filter_map(|k| Weekday::from_monday_zero_offset(k).ok()).for_each(|d| add(d, &mut days))
                        }
                        Some(Word::Holidays) => holidays = true,
                        Some(Word::Range) if last_day.is_some() && matches!(word(j + 1), Some(Word::Day(_))) => range = true,
                        _ => break,
                    }
                    j += 1;
                }
                // A weekday with a day of the month ("Dissabte 20", "Viernes 5 de diciembre"): a dated day.
                if let ([one], false, Some(Item::Number(1..=31))) = (days.as_slice(), holidays, items.get(j).map(|x| x.1)) {
                    let (dated, end) = dates(items, j, Some(*one), heading, true);
                    if !dated.is_empty() {
                        push_dated(&mut out, dated);
                        i = end;
                        continue;
                    }
                }
                out.push(Unit::Days { days, holidays });
                i = j;
            }
            Item::Word(Word::DayOfMonth) | Item::Number(_) => {
                let after_word = matches!(items[i].1, Item::Word(Word::DayOfMonth));
                let from = if after_word { i + 1 } else { i };
                // "De 14 a 30 de junio": a range of days of one month, no day of its own.
                if let (Some(Item::Number(1..=31)), Some(Word::Range)) = (items.get(from).map(|x| x.1), word(from + 1)) {
                    let (then, end) = dates(items, from + 2, None, None, false);
                    if !then.is_empty() {
                        i = end;
                        continue;
                    }
                }
                let (dated, end) = dates(items, from, None, heading, after_word);
                if dated.is_empty() {
                    i += 1;
                    continue;
                }
                // "del 21 de febrero al 6 de marzo": a range of dates, no day of its own.
                if word(end) == Some(Word::Range) {
                    let (then, after) = dates(items, end + 1, None, None, false);
                    if !then.is_empty() {
                        i = after;
                        continue;
                    }
                }
                push_dated(&mut out, dated);
                i = end;
            }
        }
    }
    out
}

/// Dated days named one after another ("el diumenge 7 ni el dissabte 20 de
/// novembre") are one group: what follows them (a time, "closed") is all
/// theirs, and a day with no month takes the month of the next that has one.
fn push_dated(out: &mut Vec<Unit>, dated: Vec<(DatedHours, u8)>) {
    if let Some(Unit::Dated(group)) = out.last_mut() {
        let part = group.iter().map(|(_, p)| *p).max().unwrap_or(0);
        group.extend(dated.into_iter().map(|(d, p)| (d, p + part)));
    } else {
        out.push(Unit::Dated(dated));
    }
    if let Some(Unit::Dated(group)) = out.last_mut() {
        let mut next: Option<(i8, Option<i16>)> = None;
        for (d, _) in group.iter_mut().rev() {
            match d.month {
                Some(m) => next = Some((m, d.year)),
                None => {
                    if let Some((m, y)) = next {
                        (d.month, d.year) = (Some(m), y);
                    }
                }
            }
        }
    }
}

/// The dated days written from item `from` on: runs of days of the month
/// ("24, 25 y 31"), each closed by a month ("de diciembre") and maybe a year,
/// runs following one another ("…de 2020, 1 y 6 de enero de 2021"). A run
/// with no month takes `heading` when `bare` allows a day alone (after a
/// weekday or "dia"), else it is no date. Gives the days and the item after them.
fn dates(
    items: &[(usize, Item)],
    from: usize,
    weekday: Option<Weekday>,
    heading: Option<i8>,
    bare: bool,
) -> (Vec<(DatedHours, u8)>, usize) {
    let mut out = Vec::new();
    let mut k = from;
    let mut part = 0u8;
    loop {
        let before = k;
        // A list of dates goes on past a sentence's end ("…31 de diciembre. 1 y 6 de enero").
        let mut stop = false;
        if !out.is_empty() && matches!(items.get(k).map(|x| x.1), Some(Item::Stop)) {
            k += 1;
            stop = true;
        }
        let mut run = Vec::new();
        let mut j = k;
        while let Some(Item::Number(n @ 1..=31)) = items.get(j).map(|x| x.1) {
            run.push(n as i8);
            j += 1;
        }
        let (month, year, next) = match items.get(j).map(|x| x.1) {
            _ if run.is_empty() => {
                k = before;
                break;
            }
            Some(Item::Word(Word::Month(m))) => match items.get(j + 1).map(|x| x.1) {
                Some(Item::Number(y @ 1990..=2100)) => (Some(m), Some(y), j + 2),
                _ => (Some(m), None, j + 1),
            },
            _ if bare && out.is_empty() => (heading, None, j),
            _ => {
                k = before;
                break;
            }
        };
        if stop {
            part = part.saturating_add(1);
        }
        let weekday = if run.len() == 1 { weekday } else { None };
        out.extend(run.into_iter().map(|day| (DatedHours { day, month, year, weekday, start: None, end: None, closed: false }, part)));
        k = next;
        if month.is_none() {
            break;
        }
    }
    (out, k)
}

/// Pairs the units into a reading: a dated day takes the time or "closed"
/// beside it; days take "closed" beside them, else a time (the next one,
/// or the one before when the text writes its times first).
fn read(units: Vec<Unit>) -> WeekHours {
    let mut h = WeekHours { opening: units.iter().any(|u| matches!(u, Unit::Opening)), ..WeekHours::default() };
    let mut dated: Vec<Vec<DatedHours>> = Vec::new();
    let units: Vec<Unit> = units.into_iter().filter(|u| !matches!(u, Unit::Opening | Unit::Open)).collect();
    let n = units.len();
    let mut used = vec![false; n];
    for i in 0..n {
        let Unit::Dated(days) = &units[i] else { continue };
        let mut days = days.clone();
        used[i] = true;
        let last = days.iter().map(|(_, part)| *part).max().unwrap_or(0);
        match units.get(i + 1) {
            Some(Unit::Clock(s, e)) => {
                // "Cerrado el 25 de diciembre. 24 y 31 de diciembre de 10 a 14 h": the time is the
                // last sentence's dates', the dates before it are the "closed"'s before them.
                let closed_before = last > 0 && i > 0 && matches!(units[i - 1], Unit::Closed) && !used[i - 1];
                for (d, part) in days.iter_mut() {
                    if closed_before && *part < last {
                        d.closed = true;
                    } else {
                        (d.start, d.end) = (Some(*s), *e);
                    }
                }
                if closed_before {
                    used[i - 1] = true;
                }
                used[i + 1] = true;
            }
            Some(Unit::Closed) => {
                days.iter_mut().for_each(|(d, _)| d.closed = true);
                used[i + 1] = true;
            }
            _ => {}
        }
        dated.push(days.into_iter().map(|(d, _)| d).collect());
    }
    // Days closed: "Lunes cerrado" first, so that a "closed" after days is
    // theirs before it is taken for dates after it.
    for i in 0..n {
        // "…y festivos. Cerrado los días 24 y 25": holidays alone close no weekday.
        if let (Unit::Days { days, .. }, Some(Unit::Closed)) = (&units[i], units.get(i + 1))
            && !used[i + 1]
            && !days.is_empty()
        {
            h.closed.extend(days.iter().copied());
            (used[i], used[i + 1]) = (true, true);
        }
    }
    // "Cerrado el 25 de diciembre": dates after a "closed" no days took.
    let mut k = 0;
    for i in 0..n {
        if !matches!(units[i], Unit::Dated(_)) {
            continue;
        }
        let plain_dated = matches!(units.get(i + 1), Some(Unit::Clock(..)) | Some(Unit::Closed)) && used.get(i + 1) == Some(&true);
        if !plain_dated && i > 0 && matches!(units[i - 1], Unit::Closed) && !used[i - 1] {
            dated[k].iter_mut().for_each(|d| d.closed = true);
            used[i - 1] = true;
        }
        k += 1;
    }
    h.dated = dated.into_iter().flatten().collect();
    for i in 1..n {
        if let (Unit::Closed, Unit::Days { days, .. }) = (&units[i - 1], &units[i])
            && !used[i - 1]
            && !used[i]
            && !matches!(units.get(i + 1), Some(Unit::Clock(..)))
        {
            h.closed.extend(days.iter().copied());
            (used[i - 1], used[i]) = (true, true);
        }
    }
    let free: Vec<usize> = (0..n).filter(|i| !used[*i] && matches!(units[*i], Unit::Days { .. } | Unit::Clock(..))).collect();
    let time_first = free.first().is_some_and(|i| matches!(units[*i], Unit::Clock(..)));
    let mut named_days = false;
    for (k, &i) in free.iter().enumerate() {
        let Unit::Days { days, holidays } = &units[i] else { continue };
        named_days = true;
        let beside = if time_first { k.checked_sub(1) } else { Some(k + 1) }.and_then(|k| free.get(k)).copied();
        let mut time = (None, None);
        if let Some(j) = beside
            && let (Unit::Clock(s, e), false) = (&units[j], used[j])
        {
            time = (Some(*s), *e);
            used[j] = true;
        }
        used[i] = true;
        h.weekly.push(DayHours { days: days.clone(), holidays: *holidays, start: time.0, end: time.1 });
    }
    if !named_days && let Some(Unit::Clock(s, e)) = free.iter().map(|i| &units[*i]).find(|u| matches!(u, Unit::Clock(..))) {
        h.weekly.push(DayHours { days: vec![], holidays: false, start: Some(*s), end: *e });
    }
    h.closed.sort_by_key(|d| d.to_monday_zero_offset());
    h.closed.dedup();
    let closed = h.closed.clone();
    h.weekly.retain_mut(|g| {
        // A group that names only holidays is no weekday of ours.
        if g.days.is_empty() && g.holidays {
            return false;
        }
        let every = g.days.is_empty();
        if every {
            g.days = (0..7).filter_map(|i| Weekday::from_monday_zero_offset(i).ok()).collect();
        }
        g.days.retain(|d| !closed.contains(d));
        g.days.sort_by_key(|d| d.to_monday_zero_offset());
        // Empty days: a time the text gives no day for (not "cada dia", which names all seven).
        if every && g.days.len() == 7 {
            g.days.clear();
            return true;
        }
        !g.days.is_empty()
    });
    h
}

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
/// [`week_hours`]: one occurrence on each day a weekly group names, at its
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

/// An opening-hours text in `lang` over the span `first..=last` as a
/// schedule: [`week_hours`] then [`schedule`]. The one call an adapter makes
/// for a free-text hours field.
///
/// ```
/// use cityvibe::parse::week_hours::hours_schedule;
/// use jiff::civil::date;
/// // Saturdays only, never the other days of the span.
/// let s = hours_schedule("Sábados 10:30 horas", "es", date(2020, 3, 14), Some(date(2020, 4, 25)));
/// assert_eq!(s.occurrences.len(), 7);
/// assert!(s.occurrences.iter().all(|o| o.start.date().weekday() == jiff::civil::Weekday::Saturday));
/// ```
pub fn hours_schedule(text: &str, lang: &str, first: Date, last: Option<Date>) -> Schedule {
    schedule(first, last, &week_hours(text, lang))
}

/// The reading as the data files' examples write it: [`WeekHours::opening_hours`].
pub fn describe(hours: &WeekHours) -> String {
    hours.opening_hours()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real texts of the feeds, read as their words say.
    #[test]
    fn real_texts_read_as_their_words_say() {
        for (text, lang, want) in [
            (
                "Martes y sábados de 09:00 a 21:00. domingos y festivos de 09:00 a 15:00. Lunes cerrado (excepto víspera de festivo, con horario de festivo) Abierto todos los festivos, incluso los locales.Cerrado los días: 24, 25 y 31 de diciembre. 1 y 6 de enero",
                "es",
                "Tu,Sa 09:00-21:00; Su,PH 09:00-15:00; Mo off; Dec 24 off; Dec 25 off; Dec 31 off; Jan 01 off; Jan 06 off",
            ),
            (
                "Inauguració 22 d'agost a les 19 h  De dilluns a dissabte 9 a 13.30 h i 17 a 19.30 h Diumenge 9.30 a 13.30 h.",
                "ca",
                "Mo-Sa 09:00-13:30; Su 09:30-13:30; Aug 22 19:00",
            ),
        ] {
            assert_eq!(week_hours(text, lang).opening_hours(), want, "{text}");
        }
    }
}
