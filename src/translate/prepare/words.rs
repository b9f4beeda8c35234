//! Words of a Spanish text as the term base, the name finder and the
//! ordinals see them: their byte ranges, whether the characters between
//! two of them open a sentence, and the Spanish word lists that say which
//! words never start a name, start a person's name or join a name's parts.
//!
//! Not for: what the dictionary says a word is (the analyser) or what it
//! becomes (terms).

use crate::lang::Lang;
use crate::lang_data::{self, LangData};

/// The words of a text with their byte ranges: runs of letters, digits and `_`.
pub fn words(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let wordy = c.is_alphanumeric() || c == '_';
        match (wordy, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// What may stand between a leading kept span and the lower-case word
/// after it ("Marco Mezquida Piano+IA, con …").
pub(crate) fn after_lead(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | ':')
}

/// Whether the characters between two words start a sentence (or a quoted
/// title), so that the next word's capital says nothing about it.
pub fn opens_sentence(gap: &str) -> bool {
    gap.chars().any(|c| {
        matches!(
            c,
            '.' | ':'
                | '!'
                | '?'
                | '¡'
                | '¿'
                | '('
                | '"'
                | '«'
                | '\''
                | '‘'
                | '’'
                | '“'
                | '”'
                | '`'
                | '´'
                | '-'
                | '–'
                | '—'
                | '/'
                | '|'
                | '\n'
                | '['
                | '•'
                | ';'
        )
    })
}

/// The Spanish language data (`data/lang/es/`).
pub(super) fn spanish() -> &'static LangData {
    lang_data::of(Lang::Es)
}

/// The Spanish word lists of `data/lang/es/` (see `lang`): function words
/// that never start a name, capitalised words that are not names, given
/// names that start a text as part of a person's name, and the lower-case
/// words that join the parts of one name.
pub(super) fn function_word(w: &str) -> bool {
    spanish().function_words.has(w)
}
pub(super) fn not_a_name_start(w: &str) -> bool {
    spanish().not_name_starts.has(w)
}
/// Whether `w` (lower case) is a town's name that the dictionary of the
/// Apertium `mode` reads as an ordinary word (`data/lang/es/town-words.txt`:
/// "granada", a pomegranate to `spa-ita`).
pub(super) fn town_word(w: &str, mode: &str) -> bool {
    spanish().town_words.rows().any(|r| r.first() == Some(&w) && r.get(1).is_some_and(|modes| modes.split(' ').any(|m| m == mode)))
}
/// Whether the town `w` (in lower case) is kept alone into `mode`, the
/// words around it the engine's (`es/town-words.txt`, third column).
pub(super) fn town_alone(w: &str, mode: &str) -> bool {
    spanish().town_words.rows().any(|r| r.first() == Some(&w) && r.get(2).is_some_and(|modes| modes.split(' ').any(|m| m == mode)))
}
pub(super) fn given_name(w: &str) -> bool {
    spanish().given_names.has(w)
}
/// Whether the word right before byte `at` of `text` (one space between)
/// is a demonstrative or a possessive of `es/determiners.tsv` that the
/// engine into `lang` breaks before a kept span (any language's, for `None`).
pub(super) fn determiner_before(text: &str, at: usize, lang: Option<Lang>) -> bool {
    let Some(before) = text[..at].strip_suffix(' ') else { return false };
    let start = before.rfind(|c: char| !c.is_alphabetic()).map_or(0, |p| p + before[p..].chars().next().map_or(1, char::len_utf8));
    let word = before[start..].to_lowercase();
    listed_for(&spanish().determiners, &word, lang)
}
/// Whether `gap`, the text between two kept spans, is one word of
/// `es/name-joins.tsv` that the engine into `lang` drops or moves there
/// ("De {Casa de Campo} a {Madrid Río}" → Galician "Da Casa de Campo  Madrid Río").
pub(super) fn joins_names(gap: &str, lang: Lang) -> bool {
    let Some(word) = gap.strip_prefix(' ').and_then(|g| g.strip_suffix(' ')) else { return false };
    listed_for(&spanish().name_joins, word, Some(lang))
}
/// Whether `word` has a row of `file` (the word, then the target languages
/// it is listed for) naming `lang` (any language, for `None`).
fn listed_for(file: &lang_data::DataFile, word: &str, lang: Option<Lang>) -> bool {
    file.rows().any(|r| {
        r.first() == Some(&word) && lang.is_none_or(|l| r.get(1).is_some_and(|langs| langs.split_whitespace().any(|c| c == l.as_str())))
    })
}
/// Whether `w` (lower case) is the generic head of a public body's name in
/// an original, Spanish or Catalan (`data/lang/es/body-heads.txt`,
/// `data/lang/ca/body-heads.txt`: "consejería", "departament").
pub(super) fn body_head(w: &str) -> bool {
    spanish().body_heads.has(w) || lang_data::of(Lang::Ca).body_heads.has(w)
}
/// Whether a lower-case word is an adjective Spanish or Catalan puts before
/// its noun ("gran", "nou"): at a sentence's start, right before a kept
/// name, it is that name's first word.
pub(super) fn leading_adjective(w: &str) -> bool {
    spanish().leading_adjectives.has(w) || lang_data::of(Lang::Ca).leading_adjectives.has(w)
}
pub(super) fn connector(w: &str) -> bool {
    spanish().connectors.has(w)
}
