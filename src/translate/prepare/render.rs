//! How a prepared text is written for an engine: each kept span between
//! [`KEEP_START`] and [`KEEP_END`], holding its own words (a name, listed
//! once) or what stands for them (a term's target phrase, an ordinal as the
//! target language writes it); a title into a language that writes titles
//! in sentence case with the capitals of Spanish title case undone on its
//! dictionary words; and the lead, the kept words the text starts with when
//! a lower-case word follows them (see `finish`).
//!
//! Not for: finding the spans (`places`, `capitals`, `names`, `terms`,
//! `ordinals`), or how a backend carries a kept span.

use super::analyser::{Analysis, WordKind};
use super::terms::{Found, TermBase, capitalize_not, shouted};
use super::words::{after_lead, function_word, opens_sentence, words};
use crate::translate::engines::stream::{KEEP_END, KEEP_START};

/// A kept span of a text: its byte range, and what stands for its words
/// (a term's or an ordinal's rendering); none, the words themselves.
pub(super) type Span = (usize, usize, Option<String>);

/// Each term put in as the span holding its rendering (the target phrase,
/// with the capital of the word it replaced).
pub(super) fn term_spans(text: &str, found: &[Found], terms: &TermBase, sentence_case: bool) -> Vec<Span> {
    found
        .iter()
        .map(|f| {
            let t = terms.term(f.term);
            let mut rendering = terms.rendering(text, f);
            // "Lámparas de Calabaza" into a sentence-case title: the term's
            // capital came from Spanish title case ("Lumières de citrouille").
            if sentence_case && !starts_sentence(text, f.start) && t.target.starts_with(char::is_lowercase) && !shouted(text) {
                rendering = capitalize_not(&rendering);
            }
            (f.start, f.end, Some(rendering))
        })
        .collect()
}

/// `text` with the capital of each word outside `spans` undone where
/// Spanish title case put it ("La Magia Existe" → "La magia existe"): a
/// capitalised word, not in capitals, not opening a sentence, that the
/// dictionary knows as a common or function word, and not as a place's
/// name too ("Granada", a town and a pomegranate: lowered, the engine wrote
/// the French "Il sale grenade" for the venue "Sala Granada").
pub(super) fn sentence_cased(text: &str, spans: &[Span], analysis: &Analysis) -> String {
    let mut out = text.to_string();
    let ws = words(text);
    let capital = |k: usize| text[ws[k].0..].starts_with(char::is_uppercase);
    // "(La La Land)": a run of capitalised words holding one the dictionary
    // does not know, or knows as a proper noun, is a name: all keep capitals.
    let mut in_name = vec![false; ws.len()];
    let mut k = 0;
    while k < ws.len() {
        let mut end = k;
        while end + 1 < ws.len() && capital(end) && capital(end + 1) && &text[ws[end].1..ws[end + 1].0] == " " {
            end += 1;
        }
        let named = (k..=end)
            .any(|j| matches!(analysis.kind_at(ws[j].0), Some(WordKind::Proper | WordKind::Unknown)) || analysis.place_at(ws[j].0));
        if end > k && named {
            in_name[k..=end].fill(true);
        }
        k = end + 1;
    }
    for (j, &(a, b)) in ws.iter().enumerate() {
        if in_name[j] {
            continue;
        }
        let word = &text[a..b];
        let lower = word.to_lowercase();
        let capital = word.starts_with(char::is_uppercase) && word.chars().skip(1).any(char::is_lowercase);
        let free = spans.iter().all(|s| b <= s.0 || a >= s.1);
        let common = matches!(analysis.kind_at(a), Some(WordKind::Common | WordKind::Function));
        if capital && free && common && !analysis.place_at(a) && lower.len() == word.len() && !starts_sentence(text, a) {
            out.replace_range(a..b, &lower);
        }
    }
    out
}

/// Whether the word at byte `a` opens `text` or a sentence in it.
fn starts_sentence(text: &str, a: usize) -> bool {
    let before = &text[..a];
    match before.rfind(|c: char| c.is_alphanumeric()) {
        None => true,
        Some(p) => {
            let end = p + before[p..].chars().next().map_or(1, char::len_utf8);
            opens_sentence(&before[end..]) || super::ordinals::leads(before)
        }
    }
}

/// The lead of a text whose kept spans are `spans`: the spans it starts
/// with, or else its first word, when a lower-case word follows.
pub(super) fn lead(text: &str, spans: &[Span]) -> Option<String> {
    lead_of(text, spans).or_else(|| first_word_lead(text, spans))
}

/// The kept spans the text starts with, one after another ("XXI" "Premio
/// Internacional"), when a lower-case word follows the last of them.
fn lead_of(text: &str, spans: &[Span]) -> Option<String> {
    let mut lead = None;
    if let Some(&(first, _, _)) = spans.first()
        && !text[..first].chars().any(char::is_alphanumeric)
    {
        let mut run = String::new();
        let mut end = first;
        for (a, b, target) in spans {
            let gap = &text[end..*a];
            if !gap.chars().all(char::is_whitespace) {
                break;
            }
            run.push_str(gap);
            run.push_str(target.as_deref().unwrap_or(&text[*a..*b]));
            end = *b;
            // "[Madrid] [Distrito en Corto] en Salamanca": a term put in
            // right after the span goes on the run (its Spanish is lower
            // case, its target need not be).
            let rest = text[end..].trim_start_matches(after_lead);
            let spanned = spans.iter().any(|s| s.0 == text.len() - rest.len() && s.2.is_some());
            if rest.starts_with(char::is_lowercase) && !spanned {
                lead = Some(run);
                break;
            }
        }
    }
    lead
}

/// A text's first word, when no kept span holds it, it is capitalised only
/// as a first word is and not a function word, and a lower-case word
/// follows it ("Pachanga fútbol", "Arteterapia: crear para sanar"): an
/// engine that copies the word takes the next one for the sentence's first
/// ("Pachanga Foot"); the lead lets house style undo that capital.
fn first_word_lead(text: &str, spans: &[Span]) -> Option<String> {
    let &(a, b) = words(text).first()?;
    let word = &text[a..b];
    let free = spans.iter().all(|s| s.1 <= a || s.0 >= b);
    let capitalised = word.starts_with(char::is_uppercase) && !word.chars().skip(1).any(char::is_uppercase);
    if text[..a].chars().any(char::is_alphanumeric) || !free || !capitalised || function_word(&word.to_lowercase()) {
        return None;
    }
    text[b..].trim_start_matches(after_lead).starts_with(char::is_lowercase).then(|| word.to_string())
}

/// The text with each span between [`KEEP_START`] and [`KEEP_END`]: a
/// term's rendering, or the words kept as they are (returned, sorted, once each).
pub(super) fn marked(text: &str, spans: Vec<Span>) -> (String, Vec<String>) {
    let mut kept = Vec::new();
    let mut out = String::with_capacity(text.len() + spans.len() * 8);
    let mut last = 0;
    for (a, b, target) in spans {
        out.push_str(&text[last..a]);
        out.push(KEEP_START);
        match target {
            Some(t) => out.push_str(&t),
            None => {
                out.push_str(&text[a..b]);
                kept.push(text[a..b].to_string());
            }
        }
        out.push(KEEP_END);
        last = b;
    }
    out.push_str(&text[last..]);
    kept.sort();
    kept.dedup();
    (out, kept)
}

#[cfg(test)]
mod tests {
    use super::super::analyser::parse;
    use super::sentence_cased;

    /// Spanish title case undone on dictionary words, but not on a word
    /// the dictionary knows as a place's name too (spa-eng's `<np><loc>`):
    /// "Granada" lowered became the French "grenade" (a pomegranate).
    #[test]
    fn a_place_s_name_keeps_its_capital_in_a_sentence_cased_title() {
        let text = "Ciclo de Cine en la Sala Granada";
        let stream = "^Ciclo/Ciclo<n><m><sg>$ ^de/de<pr>$ ^Cine/Cine<n><m><sg>$ ^en/en<pr>$ ^la/el<det><def><f><sg>$ \
                      ^Sala/Sala<n><f><sg>$ ^Granada/Granada<n><f><sg>/Granada<np><loc><f><sg>$";
        assert_eq!(sentence_cased(text, &[], &parse(text, stream)), "Ciclo de cine en la Sala Granada");
        let stream = stream.replace("/Granada<np><loc><f><sg>", "");
        assert_eq!(sentence_cased(text, &[], &parse(text, &stream)), "Ciclo de cine en la sala granada");
    }
}
