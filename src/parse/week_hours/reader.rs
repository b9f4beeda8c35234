//! Reads an hours text ([`week_hours`]): its words, numbers and times put
//! together into a reading:
//! items in order, units (days named together, dated days, times,
//! "closed"), then the [`WeekHours`] they say. Not for: the words themselves
//! (`words.rs`) or the days of a span (`days.rs`).

use super::reading::{DatedHours, DayHours, WeekHours};
use super::words::{Clock, GLUED, Word, clocks, vocabulary};
use crate::parse::text::fold;
use jiff::civil::{Time, Weekday};

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
