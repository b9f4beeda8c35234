//! The words and times of an hours text: the language's vocabulary
//! (`data/lang/LANG/hours.tsv`) and the time expressions ("20.30 h", "de 9
//! a 20 h", "19:30"). Not for: putting them together (`reader.rs`).

use crate::parse::text::fold;
use jiff::civil::{Time, Weekday};
use regex::Regex;
use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Word {
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
pub(super) fn vocabulary(lang: &str) -> &'static [(String, Word)] {
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
pub(super) static GLUED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(\p{Ll})(\p{Lu})").expect("glued regex"));

/// One time expression: where it stands, its time and end.
pub(super) struct Clock {
    pub at: usize,
    pub to: usize,
    pub start: Time,
    pub end: Option<Time>,
}

/// The time expressions of a folded text. A number is a time when an `h`
/// follows it or its group ("de 9 a 20 h"), or when it has colon minutes.
pub(super) fn clocks(text: &str) -> Vec<Clock> {
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
