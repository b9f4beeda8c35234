//! Apertium's steady slips inside the plain text, the same every time and
//! mended on its output only: words it chooses wrong (Italian "partorisca"
//! for "para", `data/lang/LANG/engine-words.tsv`), letters it writes
//! wrongly inside a word ("permití-los", `engine-endings.tsv`), a French
//! Roman numeral written as a word ("Xv" → "XV") or elided before "yoga",
//! and an English range written word for word ("Of 12 to 13 hours" →
//! "From 12 to 13 hours").
//!
//! Not for: the words it moves around a kept span (`moved`), or a
//! neural engine's output, which does not make these slips.

use crate::lang::Lang;
use regex::Regex;
use std::sync::LazyLock;

/// Apertium's English writes Spanish "de X a Y" word for word: "Of 12 to
/// 13 hours", "Of New Ministries to the Fundación Juan March", "Tuesday of
/// 18:30 to 19:30 hours". A range opens with "from": at a sentence's start
/// when "to" follows in the same sentence, and before a time or number
/// that "to" and another number follow.
pub(super) fn from_to(output: &str) -> String {
    static OPENING: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(^|[.:!?¡¿] )Of ([^.:!?]*? to )").expect("range regex"));
    static TIMES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bof (\d[\d:.,]*(?: hours| h)?) to (\d)").expect("time range regex"));
    let opened = OPENING.replace_all(output, "${1}From ${2}");
    TIMES.replace_all(&opened, "from ${1} to ${2}").into_owned()
}

/// Words an engine gets wrong the same way every time, put right: those of
/// `data/lang/LANG/engine-words.tsv` (Italian "partorisca" for "para",
/// English "childish" for "infantil"); Apertium's French writes a leading
/// Roman numeral as a word ("XV Mercado" → "Xv"; "Vii Journée", the letters:
/// `data/lang/fr/roman-numerals.txt`) and elides before "yoga" ("d'yoga").
pub(super) fn mend_words(text: &str, lang: Lang) -> String {
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
    use crate::lang::Lang;
    use crate::translate::finish::finish;
    use crate::vocab::Field;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
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
}
