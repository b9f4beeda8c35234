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
//! Not for: deciding what is a name (`prepare`) or engine framing.

mod articles;
mod blanks;
mod capitals;
mod compounds;
mod contract;
pub mod garble;
mod garbled;
mod places;
mod stages;
mod typography;

use crate::lang::Lang;
use regex::Regex;
use stages::Finishing;
use std::sync::LazyLock;

use crate::vocab::Field;

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

/// The engine's output for one text in house style for `lang`; `names` are
/// the spans kept for it, which come back byte for byte; `lead` the kept
/// span the text starts with when a lower-case word follows it.
pub fn finish(output: &str, names: &[String], lead: Option<&str>, lang: Lang, field: Field) -> String {
    finish_from(output, names, names, lead, lang, field, Slips::Apertium)
}

/// The engine's output for a text sent plain (`lang::plain`), where only
/// the elision an engine could not make before a kept name is mended
/// ("de Alasdair Roberts" → "d'Alasdair Roberts") and the punctuation set
/// as the language sets it (`typography`): the stages marked `sent_plain`.
pub fn finish_plain(output: &str, names: &[String], lang: Lang) -> String {
    stages::run(
        output,
        &Finishing { names, anchors: names, lead: None, lang, field: Field::Description, slips: Slips::Apertium, plain: true },
    )
}

/// The segments' texts one after another.
fn concat(segs: Vec<Segment>) -> String {
    segs.into_iter()
        .map(|s| match s {
            Segment::Plain(t) | Segment::Name(t) => t,
        })
        .collect()
}

/// Whose output a text is: Apertium's steady slips ("partorisca", "d'en",
/// "del.") are mended on its output only, never on a neural engine's, which
/// does not make them and may mean what they look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slips {
    Apertium,
    None,
}

/// As [`finish`], for the output of an engine that makes `slips`.
/// `anchors` are the spans the engine saw as fixed (the kept names and the
/// terms put in, see `Prepared::anchors`): Apertium moves words around each.
/// Runs the stages of [`stages::STAGES`] that apply, in order.
pub fn finish_from(
    output: &str,
    names: &[String],
    anchors: &[String],
    lead: Option<&str>,
    lang: Lang,
    field: Field,
    slips: Slips,
) -> String {
    stages::run(output, &Finishing { names, anchors, lead, lang, field, slips, plain: false })
}

/// Apertium's English writes Spanish "de X a Y" word for word: "Of 12 to
/// 13 hours", "Of New Ministries to the Fundación Juan March", "Tuesday of
/// 18:30 to 19:30 hours". A range opens with "from": at a sentence's start
/// when "to" follows in the same sentence, and before a time or number
/// that "to" and another number follow.
fn from_to(output: &str) -> String {
    static OPENING: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(^|[.:!?¡¿] )Of ([^.:!?]*? to )").expect("range regex"));
    static TIMES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bof (\d[\d:.,]*(?: hours| h)?) to (\d)").expect("time range regex"));
    let opened = OPENING.replace_all(output, "${1}From ${2}");
    TIMES.replace_all(&opened, "from ${1} to ${2}").into_owned()
}

/// The letters inside words that Apertium writes wrongly in `lang`, put
/// right (`data/lang/LANG/engine-endings.tsv`: "permití-los" →
/// "permiti-los"); a row's letters must follow a letter.
fn mend_endings<'a>(text: &'a str, lang: Lang) -> std::borrow::Cow<'a, str> {
    let mut out = std::borrow::Cow::Borrowed(text);
    for row in crate::lang_data::of(lang).engine_endings.rows() {
        let [from, to] = row[..] else { continue };
        let mut at = 0;
        while let Some(found) = out[at..].find(from).map(|p| p + at) {
            let after_letter = out[..found].chars().next_back().is_some_and(char::is_alphabetic);
            if after_letter {
                out.to_mut().replace_range(found..found + from.len(), to);
            }
            at = found + if after_letter { to.len() } else { from.len() };
        }
    }
    out
}

/// Apertium moves a short word or stop that followed a kept span to before
/// it: French "Concierto de [X] en [Y]" comes back "Concert d'en X Y"
/// (the words it moves: `data/lang/fr/moved-words.txt`),
/// Catalan "del [Espronceda]. Sombras" comes back "del. Espronceda Ombres"
/// (and "del. Campo del Moro" with no stop at all; the contracted
/// prepositions it does this after: `data/lang/ca/contracted-prepositions.txt`).
/// The word or stop goes back after the span. A French "d'" or "l'" that
/// stood before the moved word stays elided before a vowel
/// (`data/lang/vowels.txt`) or a mute h of a word put in.
fn mend_around_names(segs: &mut [Segment], lang: Lang) {
    for i in 0..segs.len().saturating_sub(1) {
        let (Segment::Plain(before), Segment::Name(name)) = (&segs[i], &segs[i + 1]) else {
            continue;
        };
        let after = match segs.get(i + 2) {
            Some(Segment::Plain(a)) => a.clone(),
            Some(Segment::Name(_)) => continue,
            None => String::new(),
        };
        if !after.is_empty() && !after.starts_with(' ') {
            continue;
        }
        let cut = before.trim_end_matches(' ');
        if cut.len() == before.len() {
            continue;
        }
        let head = &cut[..cut.rfind(' ').map_or(0, |p| p + 1)];
        let word = &cut[head.len()..];
        let lower = word.to_lowercase();
        let moved = |w: &str| w.get(2..).is_some_and(|m| crate::lang_data::of(crate::lang::Lang::Fr).moved_words.has(m));
        // A kept name's h never elides; a word put in (lower case) elides before a mute h.
        let elides = crate::translate::lang::starts_with_vowel(name) || name.starts_with('h') && places::mute_h(name, Lang::Fr);
        let contracted = |w: &str| w.strip_suffix('.').is_some_and(|p| crate::lang_data::of(lang).contracted_prepositions.has(p));
        let mended = match (lang.as_str(), lower.as_str()) {
            ("fr", w) if w.starts_with("d'") && moved(w) && !after.is_empty() => {
                let de = if elides { "d'" } else { "de " };
                let de = if word.starts_with('D') && i == 0 && head.trim().is_empty() {
                    crate::translate::prepare::terms::capitalize(de)
                } else {
                    de.to_string()
                };
                Some((format!("{head}{de}"), format!(" {}{after}", &w[2..])))
            }
            ("fr", w) if w.starts_with("l'") && moved(w) && !after.is_empty() => {
                // The elided article belongs to the kept name: "L'en Dehesa guerre" → "La Dehesa en guerre".
                let art = if elides {
                    "l'"
                } else if name.split(' ').next().is_some_and(|f| f.ends_with('a')) {
                    "la "
                } else {
                    "le "
                };
                let art = if word.starts_with('L') && i == 0 && head.trim().is_empty() {
                    crate::translate::prepare::terms::capitalize(art)
                } else {
                    art.to_string()
                };
                Some((format!("{head}{art}"), format!(" {}{after}", &w[2..])))
            }
            (_, w) if contracted(w) => {
                let new_sentence = after.chars().nth(1).is_some_and(char::is_uppercase);
                Some((format!("{head}{} ", word.trim_end_matches('.')), if new_sentence { format!(".{after}") } else { after }))
            }
            _ => None,
        };
        if let Some((b, a)) = mended {
            segs[i] = Segment::Plain(b);
            if i + 2 < segs.len() {
                segs[i + 2] = Segment::Plain(a);
            }
        }
    }
}

/// Words an engine gets wrong the same way every time, put right: those of
/// `data/lang/LANG/engine-words.tsv` (Italian "partorisca" for "para",
/// English "childish" for "infantil"); Apertium's French writes a leading
/// Roman numeral as a word ("XV Mercado" → "Xv"; "Vii Journée", the letters:
/// `data/lang/fr/roman-numerals.txt`) and elides before "yoga" ("d'yoga").
fn mend_words(text: &str, lang: Lang) -> String {
    let text = &*mend_endings(text, lang);
    let data = crate::lang_data::of(lang);
    let table = &data.engine_words;
    if lang != "fr" && table.is_empty() && data.roman_numerals.is_empty() {
        return text.to_string();
    }
    let mut out: Vec<String> = Vec::new();
    for token in text.split(' ') {
        let word = token.trim_matches(|c: char| !c.is_alphanumeric());
        let at = token.find(word).unwrap_or(0);
        let lower = word.to_lowercase();
        let listed = table.rows().find(|r| r.first() == Some(&lower.as_str())).and_then(|r| r.get(1).copied());
        let fixed = match (lang.as_str(), word, listed) {
            (_, w, Some(house)) => Some(if w.starts_with(char::is_uppercase) {
                crate::translate::prepare::terms::capitalize(house)
            } else {
                house.to_string()
            }),
            (_, w, None) if numeral_written_as_a_word(w, &data.roman_numerals) => Some(w.to_uppercase()),
            // "Atelier d'yoga": French does not elide before "yo", "ya"…
            ("fr", w, None) if (w.starts_with("d'y") || w.starts_with("D'y")) && w[3..].starts_with(['a', 'e', 'i', 'o', 'u']) => {
                Some(format!("{}e {}", &w[..1], &w[2..]))
            }
            _ => None,
        };
        match fixed {
            Some(f) if !word.is_empty() => out.push(format!("{}{f}{}", &token[..at], &token[at + word.len()..])),
            _ => out.push(token.to_string()),
        }
    }
    out.join(" ")
}

/// Whether `word` is a Roman numeral an engine wrote as a word: two or
/// more of the numeral `letters`, the first a capital and the rest lower
/// case ("Xv", "Vii").
fn numeral_written_as_a_word(word: &str, letters: &crate::lang_data::DataFile) -> bool {
    let letter = |c: char| letters.lines().iter().any(|l| l.chars().eq(c.to_lowercase()));
    let mut chars = word.chars();
    word.chars().count() >= 2 && chars.next().is_some_and(|c| c.is_uppercase() && letter(c)) && chars.all(|c| c.is_lowercase() && letter(c))
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
    fn issue33_a_kept_name_is_never_found_inside_a_word() {
        let out = finish("Alex M. F. Quicho, Mentor of the LAB 4 Rare Futures", &names(&["F", "LAB"]), None, Lang::En, Field::Title);
        assert_eq!(out, "Alex M. F. Quicho, Mentor of the LAB 4 Rare Futures");
        let segs = segments("F. and Futures", &names(&["F"]));
        assert_eq!(segs, vec![Segment::Name("F".into()), Segment::Plain(". and Futures".into())]);
    }

    #[test]
    fn words_an_engine_always_gets_wrong_are_mended() {
        assert_eq!(finish("Ali partorisca volare", &[], None, Lang::It, Field::Title), "Ali per volare");
        assert_eq!(finish("Partorisca tutti", &[], None, Lang::It, Field::Description), "Per tutti");
        assert_eq!(finish("Xv Mercado de la Flor", &names(&["Mercado de la Flor"]), None, Lang::Fr, Field::Title), "XV Mercado de la Flor");
        assert_eq!(finish("Vii Journée européenne (Iii)", &[], None, Lang::Fr, Field::Title), "VII Journée européenne (III)");
        assert_eq!(finish("Vi sono corsi", &[], None, Lang::It, Field::Title), "Vi sono corsi");
        assert_eq!(finish("Ivre de joie", &[], None, Lang::Fr, Field::Title), "Ivre de joie");
        // No elision before "yo".
        assert_eq!(finish("Atelier d'yoga", &[], None, Lang::Fr, Field::Title), "Atelier de yoga");
        assert_eq!(finish("Il n'y a pas d'ypérite", &[], None, Lang::Fr, Field::Title), "Il n'y a pas d'ypérite");
    }

    #[test]
    fn english_ranges_open_with_from() {
        let en = |out: &str| super::from_to(out);
        assert_eq!(en("Of 12 to 13 hours. Age: all"), "From 12 to 13 hours. Age: all");
        assert_eq!(en("Date: Tuesday of February of 18:30 to 19:30 hours."), "Date: Tuesday of February from 18:30 to 19:30 hours.");
        assert_eq!(en("Gardens Hid. Of New Ministries to the Fundación"), "Gardens Hid. From New Ministries to the Fundación");
        assert_eq!(
            en("Of the Cerro del Tío Pío to Ruta Escultórica: Of the Hill to Entrevías"),
            "From the Cerro del Tío Pío to Ruta Escultórica: From the Hill to Entrevías"
        );
        // No range: left alone.
        assert_eq!(en("History of Lavapiés: A Gaze of the 80 Until Today"), "History of Lavapiés: A Gaze of the 80 Until Today");
        assert_eq!(en("Of mice and men"), "Of mice and men");
    }

    #[test]
    fn a_word_moved_before_a_kept_span_goes_back_after_it() {
        let kept = names(&["Marta Mansilla", "Arganzuela"]);
        assert_eq!(
            finish("Concert D'en Marta Mansilla Arganzuela", &kept, None, Lang::Fr, Field::Title),
            "Concert de Marta Mansilla à Arganzuela"
        );
        let kept = names(&["Pirograbados", "ASPIRAL"]);
        assert_eq!(
            finish("Exposition d'en Pirograbados bois par ASPIRAL", &kept, None, Lang::Fr, Field::Title),
            "Exposition de Pirograbados en bois par ASPIRAL"
        );
        assert_eq!(
            finish("Festival D'en Arte Villaverde", &names(&["Arte", "Villaverde"]), None, Lang::Fr, Field::Title),
            "Festival d'Arte à Villaverde"
        );
        assert_eq!(finish("L'en Dehesa guerre", &names(&["Dehesa"]), None, Lang::Fr, Field::Title), "La Dehesa en guerre");
        assert_eq!(finish("Visite de l'et Prado Retiro", &names(&["Prado"]), None, Lang::Fr, Field::Title), "Visite du Prado et Retiro");
        assert_eq!(finish("L'en Alcázar Segovia", &names(&["Alcázar"]), None, Lang::Fr, Field::Title), "L'Alcázar en Segovia");
        assert_eq!(finish("Le goût d'en haut", &[], None, Lang::Fr, Field::Title), "Le goût d'en haut");
        let kept = names(&["Espronceda"]);
        assert_eq!(
            finish("Clàssics del. Espronceda Ombres acusadores", &kept, None, Lang::Ca, Field::Title),
            // Catalan elides before the vowel the engine could not see.
            "Clàssics de l'Espronceda. Ombres acusadores"
        );
        let kept = names(&["Campo del Moro"]);
        assert_eq!(finish("Jardins del. Campo del Moro", &kept, None, Lang::Ca, Field::Title), "Jardins del Campo del Moro");
        assert_eq!(
            finish("Visita pel. Campo del Moro amb guia", &kept, None, Lang::Ca, Field::Title),
            "Visita pel Campo del Moro amb guia"
        );
    }

}
