//! A month's name in lower case where it is a date's month, in the
//! languages that write months so (`data/lang/LANG/months.tsv`):
//! Apertium's `cat-por` gives every month a capital ("26 de Outubro de
//! 2021"), where Portuguese writes "26 de outubro de 2021" as its `es-pt`
//! does, and a publisher's capital ("Sesiones: 19 Junio") comes through
//! every pair as it is.
//!
//! A month is a date's after a day's number ("26 de Outubro"), after a
//! word that names a month ("o mês de Maio"), before a year ("em Maio de
//! 2020"), or joined to another month ("de Outubro a Junho",
//! "Janeiro-maio"). A month that opens a sentence, a line or a title
//! ("Outubro 2021" as a heading) keeps its capital, and so does one that
//! ends a name: a day after a street's or a building's word ("Avenida 25
//! de Abril"), a month after a capitalised word and a joining "de" ("Rio
//! de Janeiro 2016", "Avda. Quatro de Dezembro de 1977"). A month in
//! capitals, and any inside a kept name, stays as it is.
//!
//! Not for: the month names the term base puts in (`data/terms/`), or the
//! capitals of other words (`capitals`).

use super::cut::{Finishing, Segment, segments};
use crate::lang::Lang;
use crate::lang_data::DataFile;
use regex::Regex;
use std::sync::LazyLock;

/// Each display language's `months.tsv`, read once (in [`Lang::ALL`]'s
/// order; `None` for a language without the file): both stages run on
/// every finished text, and the range pattern is compiled from the rows
/// once. Measured (2,000 finishes of a Portuguese text holding eight
/// ranges of days, release build): 886 ms with the rows read and the pattern
/// compiled per text, 77 to 79 ms read once.
static MONTHS: LazyLock<Vec<Option<Months>>> = LazyLock::new(|| {
    Lang::ALL
        .iter()
        .map(|&l| {
            let file = &crate::lang_data::of(l).months;
            (!file.is_empty()).then(|| Months::read(file))
        })
        .collect()
});

/// What `months.tsv` says of `lang`'s months, if it has the file.
fn months_of(lang: Lang) -> Option<&'static Months> {
    MONTHS[lang.index()].as_ref()
}

/// What `months.tsv` says of a language's months.
struct Months {
    /// The twelve names, lower case.
    names: Vec<&'static str>,
    /// The word between a day's number and its month, and between a month and its year.
    of: Option<&'static str>,
    /// The words after which a month is a date's ("mês de"), lower case.
    after: Vec<&'static str>,
    /// The words and marks that join two months of a range or a list.
    joins: Vec<&'static str>,
    /// The words after which a day and its month are a name ("Avenida"), any case.
    name_heads: Vec<&'static str>,
    /// The small words that join a month to the capitalised word of a name ("de").
    name_joins: Vec<&'static str>,
    /// A range's two days with the engine's word between them (`range-opens`,
    /// `range-join`), and the word the language writes there.
    range: Option<(Regex, &'static str)>,
}

impl Months {
    fn read(file: &DataFile) -> Months {
        let row =
            |key: &str| -> Vec<&'static str> { file.rows().find(|r| r.first() == Some(&key)).map(|r| r[1..].to_vec()).unwrap_or_default() };
        let (names, of) = (row("months"), row("of").first().copied());
        let range = match (of, row("range-opens").as_slice(), row("range-join").as_slice()) {
            (Some(of), opens @ [_, ..], &[engine, written]) if !names.is_empty() => {
                let alternatives = |words: &[&str]| words.iter().map(|w| regex::escape(w)).collect::<Vec<_>>().join("|");
                let pattern = format!(
                    r"(?i:\b(?:{opens})) (\d{{1,2}})(?: {of} (?i:{months}))? ({engine}) (\d{{1,2}}) {of} (?i:{months})\b",
                    opens = alternatives(opens),
                    of = regex::escape(of),
                    months = alternatives(&names),
                    engine = regex::escape(engine),
                );
                let pattern = Regex::new(&pattern).unwrap_or_else(|e| panic!("data/lang/{}: the range rows: {e}", file.path()));
                Some((pattern, written))
            }
            _ => None,
        };
        Months { names, of, after: row("after"), joins: row("joins"), name_heads: row("name-heads"), name_joins: row("name-joins"), range }
    }

    /// Whether `word`, in any case, is a month's name.
    fn is_month(&self, word: &str) -> bool {
        let lower = word.to_lowercase();
        self.names.iter().any(|n| *n == lower)
    }

    /// `before` with the word `of` (and its blank) taken off its end, when
    /// it ends with it as a word; otherwise `before` as it is.
    fn without_of<'a>(&self, before: &'a str) -> &'a str {
        let Some(of) = self.of else { return before };
        match before.strip_suffix(of) {
            Some(rest) if rest.ends_with(' ') => rest.trim_end_matches(' '),
            _ => before,
        }
    }

    /// Whether the text `before` a month ends with a day's number: "26
    /// de ", "Sessões: 19 ", but not "Avenida 25 de " (a name) nor "10.30 ".
    fn after_a_day(&self, before: &str) -> bool {
        let Some(rest) = before.strip_suffix(' ') else { return false };
        let rest = self.without_of(rest.trim_end_matches(' '));
        let digits = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if !(1..=2).contains(&digits) || !(1..=31).contains(&rest[rest.len() - digits..].parse::<u32>().unwrap_or(0)) {
            return false;
        }
        let head = &rest[..rest.len() - digits];
        if head.ends_with(|c: char| c.is_alphanumeric() || matches!(c, '.' | ',' | ':')) {
            return false;
        }
        let word = head.trim_end_matches(' ').rsplit(' ').next().unwrap_or_default().to_lowercase();
        !self.name_heads.iter().any(|h| h.to_lowercase() == word)
    }

    /// Whether the text `before` a month ends with a word of `after` ("o mês de ").
    fn after_a_month_word(&self, before: &str) -> bool {
        let lower = before.to_lowercase();
        self.after.iter().any(|w| {
            let rest = if w.ends_with('\'') { lower.strip_suffix(w) } else { lower.strip_suffix(' ').and_then(|l| l.strip_suffix(w)) };
            rest.is_some_and(|r| !r.ends_with(char::is_alphanumeric))
        })
    }

    /// Whether the text `after` a month opens with its year: " de 2020", " 2021".
    fn before_a_year(&self, after: &str) -> bool {
        let Some(rest) = after.strip_prefix(' ') else { return false };
        let rest = self.of.and_then(|of| rest.strip_prefix(of)).and_then(|r| r.strip_prefix(' ')).unwrap_or(rest);
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        digits == 4 && !rest[4..].starts_with(char::is_alphanumeric)
    }

    /// Whether the text `before` a month ends with a capitalised word and
    /// a word of `name-joins`: the month ends a name ("Rio de ", "Quatro de ").
    fn ends_a_name(&self, before: &str) -> bool {
        let Some(rest) = before.strip_suffix(' ') else { return false };
        let Some(word_start) = self.name_joins.iter().find_map(|j| rest.strip_suffix(j).filter(|r| r.ends_with(' '))) else {
            return false;
        };
        let word = word_start.trim_end_matches(' ').rsplit([' ', '\n']).next().unwrap_or_default();
        word.starts_with(char::is_uppercase)
    }
}

/// Whether the text `before` a word leaves it opening a sentence, a line or
/// the text: nothing but blanks and opening marks after a stop, a colon or
/// a line break.
fn opens_a_sentence(before: &str) -> bool {
    let rest = before.trim_end_matches(' ').trim_end_matches(['"', '\'', '«', '“', '‘', '(', '¡', '¿', '[']).trim_end_matches(' ');
    rest.is_empty() || rest.ends_with(['.', '!', '?', ':', '\n'])
}

/// The text with each capitalised month that is a date's in lower case
/// (see the module's head); `None` when the language has no months file.
pub(super) fn lower_months(text: &str, f: &Finishing) -> Option<String> {
    let months = months_of(f.lang)?;
    // The kept names' byte ranges, which no rule touches.
    let mut kept = Vec::new();
    let mut at = 0;
    for s in segments(text, f.names) {
        let (Segment::Plain(t) | Segment::Name(t)) = &s;
        if matches!(s, Segment::Name(_)) {
            kept.push(at..at + t.len());
        }
        at += t.len();
    }
    // Every month's name, in any case, outside the kept names.
    let mut found: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(a)) => {
                start = None;
                if months.is_month(&text[a..i]) && !kept.iter().any(|k| k.contains(&a)) {
                    found.push((a, i));
                }
            }
            _ => {}
        }
    }
    let dated: Vec<bool> = found
        .iter()
        .map(|&(a, b)| {
            let (before, after) = (&text[..a], &text[b..]);
            months.after_a_day(before)
                || months.after_a_month_word(before)
                || months.before_a_year(after) && !opens_a_sentence(before) && !months.ends_a_name(before)
        })
        .collect();
    // Two months joined ("Outubro a Junho", "Janeiro-maio") are months
    // both, unless a capitalised word beside one makes it a name's
    // ("García Abril e Abril Mateo").
    let mut joined = vec![false; found.len()];
    let a_names_word = |word: &str| {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        word.starts_with(char::is_uppercase) && !months.is_month(word)
    };
    let in_a_name = |&(a, b): &(usize, usize)| {
        let before = text[..a].strip_suffix(' ').unwrap_or_default();
        let word_before = before.rsplit([' ', '\n']).next().unwrap_or_default();
        let word_after = text[b..].strip_prefix(' ').unwrap_or_default().split([' ', '\n']).next().unwrap_or_default();
        a_names_word(word_before) && !opens_a_sentence(&before[..before.len() - word_before.len()]) || a_names_word(word_after)
    };
    for i in 1..found.len() {
        let between = text[found[i - 1].1..found[i].0].trim_matches(' ').to_lowercase();
        if months.joins.contains(&between.as_str()) && !in_a_name(&found[i - 1]) && !in_a_name(&found[i]) {
            joined[i - 1] = true;
            joined[i] = true;
        }
    }
    let mut out = text.to_string();
    let mut changed = false;
    for (k, &(a, b)) in found.iter().enumerate().rev() {
        let word = &text[a..b];
        let mut chars = word.chars();
        let capitalised = chars.next().is_some_and(char::is_uppercase) && chars.all(char::is_lowercase);
        if capitalised && (dated[k] || joined[k] && !opens_a_sentence(&text[..a])) {
            out.replace_range(a..b, &crate::translate::prepare::terms::capitalize_not(word));
            changed = true;
        }
    }
    changed.then_some(out)
}

/// The text with the word an engine put between the two days of a range
/// written as the language writes it (`range-join` in `months.tsv`):
/// `cat-por` gives the Catalan "Del 3 al 7 de novembre" as "De 3 em 7 de
/// Novembro", where Portuguese writes "de 3 a 7 de novembro". Only
/// between a day after a word of `range-opens` (with its month or
/// without) and a day with its month: "de 13 de janeiro em 28 de
/// fevereiro"; `None` when nothing changed or the language has no such row.
pub(super) fn day_ranges(text: &str, f: &Finishing) -> Option<String> {
    let (re, written) = months_of(f.lang)?.range.as_ref()?;
    let day = |s: &str| s.parse::<u32>().is_ok_and(|d| (1..=31).contains(&d));
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for c in re.captures_iter(text) {
        let (Some(first), Some(word), Some(second)) = (c.get(1), c.get(2), c.get(3)) else { continue };
        if day(first.as_str()) && day(second.as_str()) {
            out.push_str(&text[last..word.start()]);
            out.push_str(written);
            last = word.end();
        }
    }
    (last > 0).then(|| out + &text[last..])
}

#[cfg(test)]
mod tests {
    use crate::lang::Lang;
    use crate::translate::finish::finish;
    use crate::vocab::Field;

    fn pt(text: &str) -> String {
        finish(text, &[], None, Lang::Pt, Field::Description)
    }

    #[test]
    fn a_dates_month_goes_to_lower_case() {
        assert_eq!(pt("O concerto será em 26 de Outubro de 2021 às 19 h."), "O concerto será em 26 de outubro de 2021 às 19 h.");
        assert_eq!(pt("Sessões: 26 Junho 20:30 horas / 3 Julho 20:30 horas."), "Sessões: 26 junho 20:30 horas / 3 julho 20:30 horas.");
        assert_eq!(pt("durante o mês de Setembro. Em Maio de 2020 sai"), "durante o mês de setembro. Em maio de 2020 sai");
        assert_eq!(
            pt("Quinta-feira (de Outubro a Junho) e nos meses de Setembro, Outubro e Novembro"),
            "Quinta-feira (de outubro a junho) e nos meses de setembro, outubro e novembro"
        );
        assert_eq!(pt("no período Janeiro-maio de 2021"), "no período janeiro-maio de 2021");
    }

    #[test]
    fn a_month_opening_a_sentence_or_ending_a_name_keeps_its_capital() {
        // A heading, a title's first word, a line's.
        assert_eq!(pt("PROGRAMA:\nOutubro 2021\n\nDia 17 (18 h)"), "PROGRAMA:\nOutubro 2021\n\nDia 17 (18 h)");
        assert_eq!(pt("Fevereiro e Março no espaço Hiroshima"), "Fevereiro e março no espaço Hiroshima");
        assert_eq!(pt("(Villa de Vallecas). Outubro 2025"), "(Villa de Vallecas). Outubro 2025");
        // Names: a street's, a city's, a person's.
        assert_eq!(pt("na Avenida 25 de Abril e no Rio de Janeiro 2016"), "na Avenida 25 de Abril e no Rio de Janeiro 2016");
        assert_eq!(pt("Avda. Quatro de Dezembro de 1977, nº 16"), "Avda. Quatro de Dezembro de 1977, nº 16");
        assert_eq!(pt("o compositor Antón García Abril e Abril Mateo Badía"), "o compositor Antón García Abril e Abril Mateo Badía");
        // Not a day: a time, a number in a word.
        assert_eq!(pt("às 10.30 Maio e 2x3 Maio"), "às 10.30 Maio e 2x3 Maio");
        // In capitals, and inside a kept name.
        assert_eq!(pt("26 de OUTUBRO"), "26 de OUTUBRO");
        let kept = vec!["Parque 2 de Maio".to_string()];
        let out = finish("Do Parque 2 de Maio ao 2 de Maio", &kept, None, Lang::Pt, Field::Title);
        assert_eq!(out, "Do Parque 2 de Maio ao 2 de maio");
    }

    #[test]
    fn a_range_of_days_is_joined_as_portuguese_writes_it() {
        assert_eq!(pt("Currents de 3 em 7 de Novembro. De 13 em 17 de março"), "Currents de 3 a 7 de novembro. De 13 a 17 de março");
        assert_eq!(
            pt("de 13 de Janeiro em 28 de Fevereiro. Do 1 em 26 de maio 2019"),
            "de 13 de janeiro a 28 de fevereiro. Do 1 a 26 de maio 2019"
        );
        // Not a range of days: no opening word, no month after, not a day.
        assert_eq!(pt("a sala 3 em 7 de novembro"), "a sala 3 em 7 de novembro");
        assert_eq!(pt("de 3 em 7 pessoas"), "de 3 em 7 pessoas");
        assert_eq!(pt("de 3 em 40 de novembro"), "de 3 em 40 de novembro");
    }

    /// A language with no months file keeps its engine's capitals.
    #[test]
    fn a_language_without_the_rule_is_left_alone() {
        assert_eq!(finish("Concert le 26 Octobre", &[], None, Lang::Fr, Field::Description), "Concert le 26 Octobre");
    }
}
