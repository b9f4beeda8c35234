//! How a language sets its punctuation (`data/lang/LANG/punctuation.tsv`):
//! French puts a no-break space before its double marks ("Art-thérapie :
//! créer", "le froid arrive !") and quotes a title in guillemets with a
//! no-break space inside ("« Contes d'hiver »"), where the engine copied
//! the Spanish marks ("Atelier: 'Contes d'hiver'"). Every engine, titles
//! and descriptions alike. The Spanish opening ¿ ¡ go in the languages
//! that do not write them (which: `stages`).
//!
//! Not for: the marks of a kept name, which come back byte for byte.

use super::cut::{Segment, segments};
use crate::lang::Lang;

/// The blank French sets beside a double mark and inside guillemets: a
/// line never breaks there.
const NO_BREAK: char = '\u{a0}';

/// Quote marks an engine may give, each with a mark that closes it: the
/// Madrid portal quotes with a grave accent and an acute one ("`A Nuestro
/// Ritmo´"), or a curly apostrophe.
const PAIRS: &[(char, char)] = &[('\'', '\''), ('"', '"'), ('“', '”'), ('‘', '’'), ('«', '»'), ('`', '´'), ('`', '’')];

/// The language's rules: the marks a no-break space goes before and
/// after, the quote marks it writes, and the opening marks it writes so.
struct Rules {
    space_before: Vec<char>,
    space_after: Vec<char>,
    quotes: Option<(char, char)>,
    from: Vec<char>,
}

impl Rules {
    fn of(lang: Lang) -> Option<Rules> {
        let mut rules = Rules { space_before: Vec::new(), space_after: Vec::new(), quotes: None, from: Vec::new() };
        for row in crate::lang_data::of(lang).punctuation.rows() {
            match row.as_slice() {
                ["space-before", marks] => rules.space_before.extend(marks.chars()),
                ["space-after", marks] => rules.space_after.extend(marks.chars()),
                ["quotes", open, close, from] => {
                    rules.quotes = open.chars().next().zip(close.chars().next());
                    rules.from.extend(from.chars());
                }
                _ => {}
            }
        }
        (!rules.space_before.is_empty() || !rules.space_after.is_empty() || rules.quotes.is_some()).then_some(rules)
    }
}

/// `text` with its punctuation set as `lang` sets it, kept `names` left as
/// they are.
pub(super) fn punctuate(text: &str, names: &[String], lang: Lang) -> String {
    let Some(rules) = Rules::of(lang) else { return text.to_string() };
    // Each char, and whether it belongs to a kept name.
    let mut chars: Vec<(char, bool)> = Vec::with_capacity(text.len());
    for seg in segments(text, names) {
        match seg {
            Segment::Plain(t) => chars.extend(t.chars().map(|c| (c, false))),
            Segment::Name(t) => chars.extend(t.chars().map(|c| (c, true))),
        }
    }
    if let Some(quotes) = rules.quotes {
        chars = requote(&chars, quotes, &rules.from);
    }
    if !rules.space_before.is_empty() {
        chars = space_before(&chars, &rules.space_before);
    }
    if !rules.space_after.is_empty() {
        chars = space_after(&chars, &rules.space_after);
    }
    chars.into_iter().map(|(c, _)| c).collect()
}

/// The quotes of `chars` that open and close a quotation (an opening mark
/// of `from` after a blank, a bracket or the start and before a word; its
/// closing mark after a word and before a blank, a stop or the end)
/// written with `quotes`; a mark without its pair, or an apostrophe inside
/// a word, left alone.
fn requote(chars: &[(char, bool)], quotes: (char, char), from: &[char]) -> Vec<(char, bool)> {
    let at = |i: usize| chars.get(i).map(|&(c, _)| c);
    let mut out = chars.to_vec();
    let mut open: Option<(usize, char)> = None;
    for (i, &(c, in_name)) in chars.iter().enumerate() {
        if in_name {
            continue;
        }
        let before = i.checked_sub(1).and_then(at);
        let after = at(i + 1);
        let closes = |close: char| {
            c == close
                && (c == '»' || before.is_some_and(|b| !b.is_whitespace()))
                && after.is_none_or(|a| a.is_whitespace() || ".,:;!?)]".contains(a))
        };
        if let Some((start, opened)) = open
            && PAIRS.iter().any(|&(o, close)| o == opened && closes(close))
        {
            out[start].0 = quotes.0;
            out[i].0 = quotes.1;
            open = None;
        } else if open.is_none()
            && from.contains(&c)
            && before.is_none_or(|b| b.is_whitespace() || b == '(' || b == '[')
            && (c == '«' || after.is_some_and(|a| !a.is_whitespace()))
        {
            open = Some((i, c));
        }
    }
    out
}

/// `chars` with a no-break space before each mark of `marks` that ends a
/// word's clause (a blank, a closing quote or bracket, or the end after
/// it; a colon only before a blank or the end), in place of a blank there.
fn space_before(chars: &[(char, bool)], marks: &[char]) -> Vec<(char, bool)> {
    let mut out: Vec<(char, bool)> = Vec::with_capacity(chars.len() + 8);
    for (i, &(c, in_name)) in chars.iter().enumerate() {
        let after = chars.get(i + 1).map(|&(a, _)| a);
        let ends = match c {
            ':' => after.is_none_or(char::is_whitespace),
            '»' => true,
            _ => after.is_none_or(|a| a.is_whitespace() || marks.contains(&a) || "»\"”’')]".contains(a)),
        };
        let prior = out.last().map(|&(p, _)| p);
        // "?!": one blank before the run of marks; a guillemet closes after them.
        let run = c != '»' && prior.is_some_and(|p| marks.contains(&p) && p != '»');
        if !in_name && marks.contains(&c) && ends && !run && prior.is_some_and(|p| p != NO_BREAK) {
            if out.last().is_some_and(|&(p, n)| p.is_whitespace() && !n) {
                out.pop();
            }
            if out.last().is_some_and(|&(p, _)| !p.is_whitespace()) {
                out.push((NO_BREAK, false));
            }
        }
        out.push((c, in_name));
    }
    out
}

/// `chars` with a no-break space after each mark of `marks` (an opening
/// guillemet), in place of a blank there.
fn space_after(chars: &[(char, bool)], marks: &[char]) -> Vec<(char, bool)> {
    let mut out: Vec<(char, bool)> = Vec::with_capacity(chars.len() + 8);
    let mut after_mark = false;
    for &(c, in_name) in chars {
        if after_mark && c.is_whitespace() && !in_name {
            continue;
        }
        if after_mark && c != NO_BREAK {
            out.push((NO_BREAK, false));
        }
        out.push((c, in_name));
        after_mark = !in_name && marks.contains(&c);
    }
    out
}

/// Only Spanish (and, optionally, Galician and Catalan) opens a question or
/// exclamation with ¿ ¡; es-it Apertium keeps them.
pub(super) fn drop_opening_marks(text: &str) -> String {
    if text.contains(['¿', '¡']) { text.chars().filter(|c| *c != '¿' && *c != '¡').collect() } else { text.to_string() }
}

#[cfg(test)]
mod tests {
    use super::punctuate;
    use crate::lang::Lang;
    use crate::translate::finish::finish;
    use crate::vocab::Field;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn french_sets_its_double_marks_and_guillemets() {
        let fr = |t: &str| punctuate(t, &[], Lang::Fr).replace('\u{a0}', "_");
        assert_eq!(fr("Atelier: 'Contes d'hiver'"), "Atelier_: «_Contes d'hiver_»");
        assert_eq!(fr("« Déjà »"), "«_Déjà_»");
        assert_eq!(fr("À 19:30, voir http://x.org/a?b=c"), "À 19:30, voir http://x.org/a?b=c");
        assert_eq!(fr("Quoi ?! Non"), "Quoi_?! Non");
        assert_eq!(fr("l'été d'un 'seul mot"), "l'été d'un 'seul mot");
        assert_eq!(punctuate("Atelier: 'Contes'", &[], Lang::En), "Atelier: 'Contes'");
        let kept = punctuate("Inspira_DOS: Univers", &["Inspira_DOS: Univers".to_string()], Lang::Fr);
        assert_eq!(kept, "Inspira_DOS: Univers");
    }

    #[test]
    fn no_spanish_opening_marks_outside_iberian_languages() {
        let out = "L'intelligenza artificiale: ¿progresso o pericolo? ¡Venite!";
        assert_eq!(finish(out, &[], None, Lang::It, Field::Title), "L'intelligenza artificiale: progresso o pericolo? Venite!");
        assert_eq!(finish("¿Qué tal?", &[], None, Lang::Gl, Field::Title), "¿Qué tal?");
        // A kept name keeps its marks byte for byte.
        let kept = names(&["¡Ay, Carmela!"]);
        assert_eq!(finish("Teatro: ¡Ay, Carmela!", &kept, None, Lang::It, Field::Title), "Teatro: ¡Ay, Carmela!");
    }
}
