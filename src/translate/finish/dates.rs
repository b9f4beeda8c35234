//! A date, a range of days, hours or prices as the language writes them,
//! where Apertium wrote the original's words one for one
//! (`data/lang/LANG/dates.tsv`): `cat-eng` gives the Catalan "Del 3 al 7
//! de novembre" as "Of the 3 at the 7 of November" and "el 21 de gener"
//! as "the 21 of January", where English writes "From 3 to 7 November"
//! and "21 January"; `cat-ita` gives "del 3 al 7 novembre", where Italian
//! writes "dal 3 al 7 novembre".
//!
//! Each row of the file is a pattern of the engine's words and the words
//! written instead, with slots for what the date holds (`{day}`,
//! `{month}`, `{year}`, `{date}`: a day, its month and maybe its year;
//! `{weekday}`, `{time}`, `{number}`) and optional words in square
//! brackets (`[the]`). The rows run in the file's order, each over the
//! plain text between kept names.
//!
//! Not for: a month's capital (`months`), the ranges `mend::from_to` opens
//! with "from" in English, or the hours a reader's schedule is read from
//! (`schedule`).

use crate::lang::Lang;
use crate::lang_data::DataFile;
use regex::{Captures, Regex};
use std::sync::LazyLock;

/// Each display language's rules, read once (in [`Lang::ALL`]'s order):
/// the stage runs on every stretch of every finished text.
static RULES: LazyLock<Vec<Vec<Rule>>> = LazyLock::new(|| Lang::ALL.iter().map(|&l| read(&crate::lang_data::of(l).dates)).collect());

/// One row: the engine's words as a pattern, and what is written instead.
struct Rule {
    pattern: Regex,
    /// The written words, a slot as `(kind, nth)`: the nth slot of that kind in the pattern.
    written: Vec<Piece>,
}

enum Piece {
    Words(&'static str),
    Slot(&'static str, usize),
}

/// The slots a pattern may hold, with what each matches.
fn slot_pattern(kind: &str, words: &dyn Fn(&str) -> String) -> Option<String> {
    const DAY: &str = r"(?:3[01]|[12][0-9]|0?[1-9])";
    Some(match kind {
        "day" => DAY.to_string(),
        "year" => r"[12][0-9]{3}".to_string(),
        "time" => r"(?:2[0-4]|[01]?[0-9])(?:[.:][0-5][0-9])?".to_string(),
        "number" => r"[0-9]+(?:[.,][0-9]+)?".to_string(),
        "month" => format!("(?i:{})", words("months")),
        "weekday" => format!("(?i:{})", words("weekdays")),
        "date" => format!(r"{DAY} (?i:{})(?: [12][0-9]{{3}})?", words("months")),
        _ => return None,
    })
}

/// The pieces of a template: words, `{slot}`s and `[optional words]`.
enum Part<'a> {
    Words(&'a str),
    Slot(&'a str),
    Optional(&'a str),
}

fn parts(template: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        let next = rest.find(['{', '[']).unwrap_or(rest.len());
        if next > 0 {
            out.push(Part::Words(&rest[..next]));
            rest = &rest[next..];
            continue;
        }
        let close = if rest.starts_with('{') { '}' } else { ']' };
        let end = rest.find(close).unwrap_or_else(|| panic!("{template:?}: an unclosed {}", &rest[..1]));
        let inner = &rest[1..end];
        out.push(if close == '}' { Part::Slot(inner) } else { Part::Optional(inner) });
        rest = &rest[end + 1..];
        // An optional word takes the blank after it with it.
        if close == ']' {
            rest = rest.strip_prefix(' ').unwrap_or(rest);
        }
    }
    out
}

/// The rules of one language's `dates.tsv` (none without the file).
fn read(file: &DataFile) -> Vec<Rule> {
    let row = |key: &str| -> Option<Vec<&'static str>> { file.rows().find(|r| r.first() == Some(&key)).map(|r| r[1..].to_vec()) };
    // The words of a `months` or `weekdays` row, as alternatives.
    let words = |key: &str| -> String {
        let list = row(key).unwrap_or_else(|| panic!("data/lang/{}: a pattern's slot needs a `{key}` row", file.path()));
        list.iter().map(|w| regex::escape(w)).collect::<Vec<_>>().join("|")
    };
    file.rows()
        .filter(|r| r.len() == 2 && r[0].contains(['{', '[']))
        .map(|r| {
            let (engine, written) = (r[0], r[1]);
            let mut pattern = String::new();
            let mut counts: Vec<(&str, usize)> = Vec::new();
            for part in parts(engine) {
                match part {
                    Part::Words(w) => pattern.push_str(&format!("(?i:{})", regex::escape(w))),
                    Part::Optional(w) => pattern.push_str(&format!("(?i:{} )?", regex::escape(w))),
                    Part::Slot(kind) => {
                        let inner = slot_pattern(kind, &words)
                            .unwrap_or_else(|| panic!("data/lang/{}: {engine:?}: no slot {{{kind}}}", file.path()));
                        let nth = counts.iter().filter(|(k, _)| *k == kind).count();
                        counts.push((kind, nth));
                        pattern.push_str(&format!(r"\b(?P<{kind}{nth}>{inner})\b"));
                    }
                }
            }
            // Whole words: a pattern opening or ending with a word ends at a word's edge.
            let edge = |c: Option<char>| if c.is_some_and(|c| c.is_alphanumeric() || c == '[') { r"\b" } else { "" };
            let pattern = format!("{}{pattern}{}", edge(engine.chars().next()), edge(engine.chars().last()));
            let pattern = Regex::new(&pattern).unwrap_or_else(|e| panic!("data/lang/{}: {engine:?}: {e}", file.path()));
            let mut seen: Vec<&str> = Vec::new();
            let written = parts(written)
                .into_iter()
                .map(|p| match p {
                    Part::Words(w) => Piece::Words(w),
                    Part::Slot(kind) => {
                        let nth = seen.iter().filter(|k| **k == kind).count();
                        seen.push(kind);
                        assert!(
                            counts.iter().any(|&(k, n)| k == kind && n == nth),
                            "data/lang/{}: {written:?} writes a {{{kind}}} the pattern {engine:?} does not hold",
                            file.path()
                        );
                        Piece::Slot(kind, nth)
                    }
                    Part::Optional(_) => panic!("data/lang/{}: {written:?}: the written words have no optional part", file.path()),
                })
                .collect();
            Rule { pattern, written }
        })
        .collect()
}

/// What `rule` writes for one match: the written words with the slots
/// filled, opening with a capital where the engine's words did.
fn write(rule: &Rule, caps: &Captures) -> String {
    let mut out = String::new();
    for piece in &rule.written {
        match piece {
            Piece::Words(w) => out.push_str(w),
            Piece::Slot(kind, nth) => out.push_str(caps.name(&format!("{kind}{nth}")).map_or("", |m| m.as_str())),
        }
    }
    let opened_capital = caps[0].starts_with(char::is_uppercase);
    match out.chars().next() {
        Some(c) if opened_capital && c.is_lowercase() => crate::translate::prepare::terms::capitalize(&out),
        _ => out,
    }
}

/// The plain `text` with every row of `lang`'s `dates.tsv` applied, in order.
pub(super) fn dates(text: &str, lang: Lang) -> String {
    let mut out = text.to_string();
    for rule in &RULES[lang.index()] {
        if rule.pattern.is_match(&out) {
            out = rule.pattern.replace_all(&out, |c: &Captures| write(rule, c)).into_owned();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::finish::finish;
    use crate::vocab::Field;

    fn en(text: &str) -> String {
        finish(text, &[], None, Lang::En, Field::Description)
    }

    #[test]
    fn a_catalan_range_of_days_reads_from_3_to_7_november_in_english() {
        assert_eq!(en("Of the 3 at the 7 of November."), "From 3 to 7 November.");
        assert_eq!(en("of the 26 of September at the 4 of October"), "from 26 September to 4 October");
        assert_eq!(
            en("It will be open of the November 3, 2020 at the January 7, 2021."),
            "It will be open from 3 November 2020 to 7 January 2021."
        );
        assert_eq!(en("Of the 3 to 7 November."), "From 3 to 7 November.");
    }

    #[test]
    fn a_day_of_a_month_reads_21_january() {
        assert_eq!(en("Sale of entries from the 21 of January"), "Sale of entries from 21 January");
        assert_eq!(en("Saturday 30 of January at the 19 h."), "Saturday 30 January at 19 h.");
        assert_eq!(en("Tuesday November 3, 2020."), "Tuesday 3 November 2020.");
    }

    #[test]
    fn what_is_no_date_is_left_alone() {
        // No month after the second number; a number no day; a time.
        assert_eq!(en("a group of 3 at 7 people"), "a group of 3 at 7 people");
        assert_eq!(en("the 40 of November"), "the 40 of November");
        assert_eq!(en("at the 10.30 of the morning"), "at the 10.30 of the morning");
    }

    #[test]
    fn a_template_names_only_slots_it_knows() {
        let parts = parts("of [the] {day} at [the] {date}");
        assert_eq!(parts.len(), 6);
        assert!(matches!(parts[1], Part::Optional("the")));
        assert!(matches!(parts[2], Part::Slot("day")));
    }
}
