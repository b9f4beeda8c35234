//! House style, applied to every engine's output before it is stored: an
//! ordered table of stages (`stages::STAGES`), each saying the languages,
//! engines and fields it applies to. In order:
//! 1. Apertium only: blanks tidied around the anchors (kept names and terms
//!    put in), and in French and Catalan a word or stop it moved before a
//!    kept span put back after it ("Concert D'en X Y" → "Concert de X en Y").
//! 2. The capital an engine gave the word after a leading kept span undone.
//! 3. Apertium only, English: a range opens with "from".
//! 4. In each stretch of plain text: blanks tidied, prepositions and
//!    articles contracted where an engine left them apart before a kept
//!    span ("in il" → "nel"); Apertium only, its steady slips mended
//!    (Italian "partorisca" for "para", French "Xv" for "XV") and articles
//!    put in the gender of a term; no opening ¿ ¡ outside Iberian
//!    languages; function words an engine capitalised put back in lower case.
//! 5. French and English: the preposition before a kept span (Apertium's
//!    moved "en" put back, on its output only).
//! 6. Elision before a kept span: with 9, the only stages a text sent plain gets.
//! 7. French: "vous" after an imperative. English: general nouns, and
//!    titles in title case (British usage: short function words lower case)
//!    with their compounds.
//! 8. Two blanks meeting at a span's edge become one.
//! 9. Punctuation as the language sets it (`typography`: French « » and a
//!    no-break space before : ; ! ?, the Madrid portal's `…´ quotes).
//!
//! A kept name comes back byte for byte: style never touches it. Repairs of
//! Apertium's own slips never run on a neural engine's output.
//!
//! This file holds the entry points and the cut: the text cut into kept
//! spans and the plain stretches between (`Segment`) and joined again.
//! `stages` orders the rules, which live one family to a file: `blanks`;
//! `capitals` (after a lead, stray function words, English title case);
//! `contract` (prepositions and articles before a word an engine could not
//! see); `mend` (Apertium's steady slips in plain text); `moved` (the words
//! it moves before a kept span); `places` (prepositions and elision at a
//! span's edge, French "vous"); `garbled` (the forms of `garble`);
//! `articles` and `compounds` (English); `typography` (punctuation).
//!
//! Not for: deciding what is a name (`prepare`) or engine framing.

mod articles;
mod blanks;
mod capitals;
mod compounds;
mod contract;
pub mod garble;
mod garbled;
mod mend;
mod moved;
mod places;
mod stages;
mod typography;

use crate::lang::Lang;
use crate::vocab::Field;

/// The engine's output for one text in house style for `lang`; `names` are
/// the spans kept for it, which come back byte for byte; `lead` the kept
/// span the text starts with when a lower-case word follows it.
pub fn finish(output: &str, names: &[String], lead: Option<&str>, lang: Lang, field: Field) -> String {
    finish_from(output, names, names, &[], lead, lang, field, Slips::Apertium)
}

/// The engine's output for a text sent plain (`lang::plain`), where only
/// the elision an engine could not make before a kept name is mended
/// ("de Alasdair Roberts" → "d'Alasdair Roberts") and the punctuation set
/// as the language sets it (`typography`): the stages marked `sent_plain`.
/// `local` are the kept names that are the event's district, which take no exonym.
pub fn finish_plain(output: &str, names: &[String], local: &[String], lang: Lang) -> String {
    stages::run(
        output,
        &Finishing { names, anchors: names, local, lead: None, lang, field: Field::Description, slips: Slips::Apertium, plain: true },
    )
}

/// Whose output a text is: Apertium's steady slips ("partorisca", "d'en",
/// "del.") are mended on its output only, never on a neural engine's, which
/// does not make them and may mean what they look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slips {
    Apertium,
    None,
}

/// The names of the stages of [`stages::STAGES`], in order (for the tests
/// that leave one out).
#[cfg(test)]
pub(crate) fn stage_names() -> Vec<&'static str> {
    stages::STAGES.iter().map(|s| s.name).collect()
}

/// `f`'s result with the stage `name` left out of every finishing it runs
/// on this thread: what the golden file's cover is checked by.
#[cfg(test)]
pub(crate) fn without_stage<R>(name: &'static str, f: impl FnOnce() -> R) -> R {
    stages::SKIP.with(|k| k.set(Some(name)));
    let out = f();
    stages::SKIP.with(|k| k.set(None));
    out
}

/// As [`finish`], for the output of an engine that makes `slips`.
/// `anchors` are the spans the engine saw as fixed (the kept names and the
/// terms put in, see `Prepared::anchors`): Apertium moves words around each.
/// `local` are the kept names that are the event's district, which take no
/// exonym. Runs the stages of [`stages::STAGES`] that apply, in order.
#[expect(clippy::too_many_arguments, reason = "what a stage knows of the text, named one by one")]
pub fn finish_from(
    output: &str,
    names: &[String],
    anchors: &[String],
    local: &[String],
    lead: Option<&str>,
    lang: Lang,
    field: Field,
    slips: Slips,
) -> String {
    stages::run(output, &Finishing { names, anchors, local, lead, lang, field, slips, plain: false })
}

/// What a stage knows of the text it finishes.
struct Finishing<'a> {
    /// The kept names, which come back byte for byte.
    names: &'a [String],
    /// The spans the engine saw as fixed: the names and the terms put in.
    anchors: &'a [String],
    /// The names that are the event's district: no exonym.
    local: &'a [String],
    /// The kept span the text starts with when a lower-case word follows it.
    lead: Option<&'a str>,
    lang: Lang,
    field: Field,
    slips: Slips,
    /// Sent plain (`lang::plain`): only the stages marked `sent_plain` run.
    plain: bool,
}

/// A piece of the text cut at its kept spans, what the stages work on: a
/// plain stretch house style may change, or a kept span it never touches.
#[derive(Debug, PartialEq)]
enum Segment {
    Plain(String),
    Name(String),
}

/// The output cut into the kept names (found again by their exact text,
/// longest first, never inside a word: the kept initial "F" of "M. F.
/// Quicho" is not the F of "Futures") and the words around them.
fn segments(output: &str, names: &[String]) -> Vec<Segment> {
    let mut names: Vec<&str> = names.iter().map(String::as_str).filter(|n| !n.is_empty()).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let glued = |a: Option<char>, b: Option<char>| a.zip(b).is_some_and(|(a, b)| a.is_alphanumeric() && b.is_alphanumeric());
    for name in names {
        for (at, _) in output.match_indices(name) {
            let end = at + name.len();
            let inside = glued(output[..at].chars().next_back(), name.chars().next())
                || glued(name.chars().next_back(), output[end..].chars().next());
            if !inside && spans.iter().all(|&(a, b)| end <= a || at >= b) {
                spans.push((at, end));
            }
        }
    }
    spans.sort_unstable();
    let mut out = Vec::new();
    let mut last = 0;
    for (a, b) in spans {
        if a > last {
            out.push(Segment::Plain(output[last..a].to_string()));
        }
        out.push(Segment::Name(output[a..b].to_string()));
        last = b;
    }
    if last < output.len() {
        out.push(Segment::Plain(output[last..].to_string()));
    }
    out
}

/// What stands around the kept span at `segs[i + 1]` when `segs[i]` is
/// plain: the plain text before it cut at its last word (`head`, `word`, the
/// blanks between the word and the span left out) and the plain text after
/// the span (empty at the end). `None` when no blank parts that word from the
/// span, or when another kept span follows straight: the rules that put a
/// word an engine moved before a span back after it work on these.
fn word_before_span(segs: &[Segment], i: usize) -> Option<(&str, &str, String)> {
    let Segment::Plain(before) = segs.get(i)? else { return None };
    let after = match segs.get(i + 2) {
        Some(Segment::Plain(a)) => a.clone(),
        Some(Segment::Name(_)) => return None,
        None => String::new(),
    };
    let cut = before.trim_end_matches(' ');
    if cut.len() == before.len() {
        return None;
    }
    let head = &cut[..cut.rfind(' ').map_or(0, |p| p + 1)];
    Some((head, &cut[head.len()..], after))
}

/// The segments' texts one after another.
fn concat(segs: Vec<Segment>) -> String {
    segs.into_iter()
        .map(|s| match s {
            Segment::Plain(t) | Segment::Name(t) => t,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// "Alex M. F. Quicho, mentora del LAB 4 Futuros Raros" came out "…LAB 4
    /// Rare FUtures": the kept initial "F" was found again inside "Futures" and
    /// title case capitalised the rest of the word.
    #[test]
    fn a_kept_name_is_never_found_inside_a_word() {
        let out = finish("Alex M. F. Quicho, Mentor of the LAB 4 Rare Futures", &names(&["F", "LAB"]), None, Lang::En, Field::Title);
        assert_eq!(out, "Alex M. F. Quicho, Mentor of the LAB 4 Rare Futures");
        let segs = segments("F. and Futures", &names(&["F"]));
        assert_eq!(segs, vec![Segment::Name("F".into()), Segment::Plain(". and Futures".into())]);
    }
}
