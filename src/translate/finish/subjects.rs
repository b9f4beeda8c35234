//! The subject pronouns Apertium gives a verb whose subject it could not
//! see, a kept span, where they stand apart from the span: after the words
//! set off by commas after a name opening its sentence, after the name's
//! own verb and "and", after a number that ends the name; which pronouns
//! are subjects only, and which are the language's own ("il y a"). The
//! words are each language's `subject-pronouns.txt`.
//!
//! Not for: the pronoun right after a kept name, its brackets, a relative
//! or an adverb (`garbled::pronoun_after_a_name`, which asks these), or a
//! pronoun before a label or opening a text (`garbled`).

use super::cut::Segment;
use crate::lang::Lang;

/// A subject pronoun (`subject-pronouns.txt`) after the comma that closes
/// the words set off after a kept name opening its sentence (alone, or
/// after one capitalised word and its comma: "Finally, "): the name is the
/// subject, the words between its commas an apposition or the names listed
/// with it, and Apertium, which could not see the name, gave the verb a
/// subject of its own. "\[Georg Friedrich Händel\], juntament amb \[Haydn\],
/// és" came back "Händel, together with Haydn, it is"; "\[Miguel Cidoncha\],
/// \[Laura Coronel\] y \[Nuria Martín\], nos conducen" "…and Nuria Martín,
/// they drive us"; "Finalmente, \[Manuel Tena\]-\[Sempere\], \[Profesor de la
/// Universidad de Córdoba\], presentará" "…Córdoba, it will present"
/// (plain Apertium, which sees the names, has none). The pronoun goes and
/// the commas stay. A name after a preposition ("In \[Madrid\], it is
/// possible") is no subject, and the words set off hold no comma but
/// between names ("\[A\], \[B\], \[C\] and \[D\], they").
pub(super) fn pronoun_after_an_apposition(segs: &mut [Segment], lang: Lang, names: &[String]) {
    const NAME: char = '\u{1}';
    let data = crate::lang_data::of(lang);
    for j in 1..segs.len() {
        let Segment::Plain(stretch) = &segs[j] else { continue };
        // Each ", PRONOUN word" of the stretch, or " and PRONOUN word" (a
        // `coordinates` row), the word in lower case; the pronoun's byte
        // and the length of what stands before it.
        let pronoun_at = |at: usize| {
            let Some((pronoun, tail)) = stretch[at..].split_once(' ') else { return false };
            data.subject_pronouns.has(pronoun) && tail.starts_with(char::is_lowercase) && !own_pronoun(tail, lang)
        };
        let comma = stretch.match_indices(", ").map(|(at, _)| (at + 2, 2)).find(|&(at, _)| pronoun_at(at));
        let coordinated = || {
            data.subject_pronouns.lines().iter().filter_map(|l| l.strip_prefix("coordinates ")).find_map(|and| {
                let sep = format!(" {and} ");
                stretch.match_indices(&sep).map(|(at, _)| (at + sep.len(), sep.len())).find(|&(at, _)| pronoun_at(at))
            })
        };
        let Some((at, mark)) = comma.or_else(coordinated) else { continue };
        let after_a_comma = mark == 2;
        // The sentence before it, each kept name one mark.
        let mut before: String = segs[..j]
            .iter()
            .map(|s| match s {
                Segment::Name(n) if names.contains(n) => NAME.to_string(),
                Segment::Name(n) | Segment::Plain(n) => n.clone(),
            })
            .collect();
        before.push_str(&stretch[..at - mark]);
        let start = before
            .rfind(['.', '!', '?', ':', ';', '\n', '(', '"', '«', '“'])
            .map_or(0, |p| p + before[p..].chars().next().map_or(1, char::len_utf8));
        let mut sentence = before[start..].trim_start();
        // One capitalised word and its comma before the name ("Finally, ").
        if let Some((word, rest)) = sentence.split_once(", ")
            && word.starts_with(char::is_uppercase)
            && word.chars().all(char::is_alphabetic)
        {
            sentence = rest;
        }
        // The name, with the names a hyphen or a blank joins to it ("Manuel Tena-Sempere").
        let Some(rest) = sentence.strip_prefix(NAME) else { continue };
        let verb = rest.trim_start_matches([NAME, '-', '–']).trim_end_matches(',');
        let rest = rest.trim_start_matches([NAME, '-', '–', ' ']);
        // " and it": the name's own verb before, if any, no comma between
        // but one right before the conjunction ("[Kat Lumen] sings and it
        // touches"; "M. [Dolors Coll], and it substituted", where the
        // initial's stop ended Apertium's sentence).
        if !after_a_comma {
            if (verb.is_empty() || verb.starts_with(' ')) && !verb.contains(',') && !verb.contains(NAME) {
                let Segment::Plain(stretch) = &mut segs[j] else { continue };
                let pronoun = stretch[at..].split(' ').next().unwrap_or_default().len();
                stretch.replace_range(at..at + pronoun + 1, "");
            }
            continue;
        }
        let Some(set_off) = rest.strip_prefix(", ") else { continue };
        // Comma-free words, or names listed with one word at most between.
        let listed = set_off.split(NAME).skip(1).all(|gap| {
            let gap = gap.trim_matches([',', ' ']);
            !gap.contains(' ') && !gap.contains(',')
        }) && set_off.starts_with(NAME);
        if set_off.trim().is_empty() || (set_off.contains(',') && !listed) {
            continue;
        }
        let Segment::Plain(stretch) = &mut segs[j] else { continue };
        let pronoun = stretch[at..].split(' ').next().unwrap_or_default().len();
        stretch.replace_range(at..at + pronoun + 1, "");
    }
}

/// The length of the number (digits, with "+", "-", "/" or "." between)
/// that `rest`, the words after a kept name, opens with, and the blank
/// after it: "2020 It HAS", "2021 + 1 they will"; 0 where none does.
pub(super) fn number_after_a_name(rest: &str) -> usize {
    let mut len = 0;
    let mut digits = false;
    for word in rest.split_inclusive(' ') {
        let w = word.trim_end_matches(' ');
        if !word.ends_with(' ') || w.is_empty() || !w.chars().all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '/' | '.')) {
            break;
        }
        digits |= w.chars().any(|c| c.is_ascii_digit());
        len += word.len();
    }
    if digits { len } else { 0 }
}

/// Whether `rest` opens with a subject pronoun that is a subject only, so
/// that it goes after a term put in too (`subject-pronouns.txt`, `after-term`
/// rows: French "il", "ils"; not English "it", an object as well, "The
/// workshop it imparts Ana"): "[L'illustratrice] il dialoguera" came
/// back so where plain Apertium, which sees the noun, has "L'illustratrice
/// dialoguera". Not where the term and the pronoun are a pair the
/// language's contractions write otherwise (`contractions.tsv`: the term
/// "entre" before "ils" is "entre eux").
pub(super) fn subject_only(term: &str, rest: &str, lang: Lang) -> bool {
    let data = crate::lang_data::of(lang);
    let pronoun = rest.split(' ').next().unwrap_or_default().to_lowercase();
    let term = term.to_lowercase();
    data.subject_pronouns.has(&format!("after-term {pronoun}"))
        && !data.contractions.rows().any(|r| r.len() == 3 && r[0] == term && r[1] == pronoun)
}

/// Whether a subject pronoun before `tail` is the language's own, not one
/// Apertium put in (`subject-pronouns.txt`, `own` rows: French "il y a",
/// but "ils y présentent" is Apertium's).
pub(super) fn own_pronoun(tail: &str, lang: Lang) -> bool {
    crate::lang_data::of(lang)
        .subject_pronouns
        .lines()
        .iter()
        .filter_map(|l| l.strip_prefix("own "))
        .any(|own| tail.strip_prefix(own).is_some_and(|r| r.is_empty() || r.starts_with(|c: char| !c.is_alphanumeric())))
}

/// `tail` (the words after a subject pronoun that went, the name before it
/// being the subject) without the same pronoun Apertium gave the next verb
/// of the series: "[Federico García Lorca] (1898-1936) it has written, it
/// follows writing" came back so where plain Apertium, which sees the
/// name, has "has written, follows writing". Only where one or two
/// lower-case words (a verb and its participle, nothing an object could
/// be) stand before the comma, and the pronoun after it is the same, before
/// a lower-case word, and not the language's own ("il y a").
pub(super) fn next_verb_of_the_series<'t>(tail: &'t str, pronoun: &str, lang: Lang) -> std::borrow::Cow<'t, str> {
    let Some(comma) = tail.find(',') else { return tail.into() };
    let (verb, rest) = (&tail[..comma], tail[comma + 1..].trim_start());
    let words: Vec<&str> = verb.split_whitespace().collect();
    let plain_verb = (1..=2).contains(&words.len()) && words.iter().all(|w| w.chars().all(char::is_lowercase));
    let Some(after) = rest.strip_prefix(pronoun).and_then(|r| r.strip_prefix(' ')) else { return tail.into() };
    if !plain_verb || !after.trim_start().starts_with(char::is_lowercase) || own_pronoun(after, lang) {
        return tail.into();
    }
    let cut = tail.len() - rest.len();
    format!("{}{}", &tail[..cut], after).into()
}
