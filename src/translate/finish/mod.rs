//! House style, applied to every engine's output before it is stored: an
//! ordered table of stages (`stages::STAGES`), each saying the languages,
//! engines and fields it applies to. In order:
//! 1. Apertium only: blanks tidied around the anchors (kept names and terms
//!    put in), and in French and Catalan a word or stop it moved before a
//!    kept span put back after it ("Concert D'en X Y" → "Concert de X en Y");
//!    with every engine, a comma moved between a function word and
//!    a kept span put back after the span ("del , C3A" → "del C3A,").
//! 2. The capital an engine gave the word after a leading kept span undone.
//! 3. Apertium only, English and Italian: dates, ranges of days, hours and
//!    prices written word for word put as the language writes them
//!    (`dates`: "Of the 3 at the 7 of November" → "From 3 to 7 November");
//!    English: a range opens with "from".
//! 4. In each stretch of plain text: blanks tidied, prepositions and
//!    articles contracted where an engine left them apart before a kept
//!    span ("in il" → "nel"); Apertium only, its steady slips mended
//!    (Italian "partorisca" for "para", French "Xv" for "XV") and articles
//!    put in the gender of a term; no opening ¿ ¡ outside Iberian
//!    languages; function words an engine capitalised put back in lower case;
//!    a date's month in lower case where the language writes it so (`months`).
//! 5. French and English: the preposition before a kept span (Apertium's
//!    moved "en" put back, on its output only).
//! 6. Elision before a kept span: with 5 (Catalan) and 9, the stages a text sent plain gets.
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
//! This file holds the entry points; `cut` what every stage works on: the
//! text cut into kept spans and the plain stretches between (`Segment`) and
//! joined again, and what a stage knows of the text (`Finishing`).
//! `stages` orders the rules, which live one family to a file: `blanks`;
//! `capitals` (after a lead, stray function words, English title case);
//! `dates` (dates and ranges written word for word);
//! `contract` (prepositions and articles before a word an engine could not
//! see); `mend` (Apertium's steady slips in plain text); `months` (a
//! date's month in lower case); `moved` (the words
//! it moves before a kept span); `places` (prepositions and elision at a
//! span's edge, French "vous"); `garbled` (the forms of `garble`), with
//! `subjects` (subject pronouns Apertium put in apart from a kept span);
//! `articles` and `compounds` (English); `typography` (punctuation).
//!
//! Not for: deciding what is a name (`prepare`) or engine framing.

mod articles;
mod blanks;
mod capitals;
mod compounds;
mod contract;
mod cut;
mod dates;
pub mod garble;
mod garbled;
mod mend;
mod months;
mod moved;
mod places;
mod stages;
mod subjects;
mod typography;

use crate::lang::Lang;
use crate::vocab::Field;
use cut::Finishing;
pub use cut::Slips;

/// The engine's output for one text in house style for `lang`; `names` are
/// the spans kept for it, which come back byte for byte; `lead` the kept
/// span the text starts with when a lower-case word follows it.
pub fn finish(output: &str, names: &[String], lead: Option<&str>, lang: Lang, field: Field) -> String {
    finish_from(output, names, names, &[], lead, lang, field, Slips::Apertium, None)
}

/// The engine's output for a text sent plain (`lang::plain`), where only
/// the elision an engine could not make before a kept name is mended
/// ("de Alasdair Roberts" → "d'Alasdair Roberts"; in Catalan, the "en"
/// before one reads "a": "a Madrid") and the punctuation set
/// as the language sets it (`typography`): the stages marked `sent_plain`.
/// `local` are the kept names that are the event's district, which take no exonym.
pub fn finish_plain(output: &str, names: &[String], local: &[String], lang: Lang) -> String {
    stages::run(
        output,
        &Finishing {
            names,
            anchors: names,
            local,
            lead: None,
            lang,
            field: Field::Description,
            slips: Slips::Apertium,
            plain: true,
            marked: None,
        },
    )
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
/// exonym. `marked`: the spans the text sent has a stop or comma right
/// after (`Prepared::marked_spans`), where known. Runs the stages of
/// [`stages::STAGES`] that apply, in order.
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
    marked: Option<&[String]>,
) -> String {
    stages::run(output, &Finishing { names, anchors, local, lead, lang, field, slips, plain: false, marked })
}

#[cfg(test)]
mod tests {
    use super::cut::{Segment, segments};
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
