//! Edition ordinals: Spanish puts a Roman numeral ("V Concurso", "XXV
//! Semana") or a figure with the ordinal mark ("4º Encuentro", "1.ª
//! Jornada") before the noun it numbers. Engines keep the numeral, or read
//! a one-letter one as a word, and a language such as English writes the
//! edition in figures with its own ending ("5th", "4th"). How each language
//! writes them is data: `data/lang/LANG/ordinals.tsv`; a language without
//! the file keeps the Spanish numeral as it is.
//!
//! Not for: deciding names (`names`), numbers in running text.

use crate::lang::Lang;
use crate::translate::prepare::words::{opens_sentence, words};

/// The ordinals of `text` that `lang` writes its own way, with how it
/// writes them: a Roman numeral opening a sentence before a word that
/// `common` says the dictionary knows as a common word, and a figure with
/// the ordinal mark before a word. Empty when `lang` has no ordinals file.
pub fn find(text: &str, lang: Lang, common: &dyn Fn(usize) -> bool) -> Vec<(usize, usize, String)> {
    if !crate::translate::lang::has_ordinals(lang) {
        return Vec::new();
    }
    let ws = words(text);
    let mut out = Vec::new();
    for (i, &(a, b)) in ws.iter().enumerate() {
        let Some(&(next, _)) = ws.get(i + 1) else { break };
        let gap = &text[b..next];
        let opens = if i == 0 { !text[..a].chars().any(char::is_alphanumeric) } else { opens_sentence(&text[ws[i - 1].1..a]) };
        let roman = roman(&text[a..b]).filter(|_| opens && gap == " " && common(next));
        let (end, n) = match roman {
            Some(n) => (b, n),
            None => match marked_figure(text, a, b) {
                Some((end, n)) if text[end..].starts_with(' ') => (end, n),
                _ => continue,
            },
        };
        if let Some(written) = crate::translate::lang::ordinal(lang, n) {
            out.push((a, end, written));
        }
    }
    out
}

/// Whether `before`, the text before a word, ends in an ordinal that opens
/// the text or a sentence ("4º ", "V "): the word after it then opens the
/// title as much as the ordinal does ("4º Encuentro" takes its capital from
/// the title's start, not from a name).
pub fn leads(before: &str) -> bool {
    let trimmed = before.trim_end_matches(' ');
    if trimmed.len() == before.len() {
        return false;
    }
    let start = trimmed.rfind(' ').map_or(0, |p| p + 1);
    let word = &trimmed[start..];
    let ordinal = roman(word).is_some() || marked_figure(word, 0, word.len()).is_some_and(|(end, _)| end == word.len());
    let prefix = &trimmed[..start];
    let gap = prefix.char_indices().rev().find(|(_, c)| c.is_alphanumeric()).map(|(p, c)| &prefix[p + c.len_utf8()..]);
    ordinal && gap.is_none_or(opens_sentence)
}

/// A figure with the Spanish ordinal mark at the word `a..b`: "4º", "4ª",
/// "4.º", "1.ª"; its end and value.
fn marked_figure(text: &str, a: usize, b: usize) -> Option<(usize, u32)> {
    let word = &text[a..b];
    let digits = word.trim_end_matches(['º', 'ª']);
    if digits.len() < word.len() {
        return digits.parse().ok().map(|n| (b, n));
    }
    let mark = text[b..].strip_prefix('.').filter(|rest| rest.starts_with(['º', 'ª']))?;
    let end = b + 1 + mark.chars().next().map_or(0, char::len_utf8);
    word.parse().ok().map(|n| (end, n))
}

/// The value of a Roman numeral in capitals, written the usual way ("XXV"
/// → 25, up to 199), so a word made of those letters ("CIVIL", "LI") is
/// not one.
pub fn roman(word: &str) -> Option<u32> {
    if word.is_empty() || word.len() > 9 || !word.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C')) {
        return None;
    }
    let value = |c: char| match c {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        _ => 100,
    };
    let digits: Vec<i64> = word.chars().map(value).collect();
    let signed = |i: usize| if digits.get(i + 1).is_some_and(|&next| next > digits[i]) { -digits[i] } else { digits[i] };
    let n = u32::try_from((0..digits.len()).map(signed).sum::<i64>()).ok()?;
    // Only the usual spelling of the value counts ("IIII", "VX" do not).
    (n > 0 && n < 200 && to_roman(n) == word).then_some(n)
}

fn to_roman(mut n: u32) -> String {
    const DIGITS: [(u32, &str); 9] = [(100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")];
    let mut out = String::new();
    for (value, letters) in DIGITS {
        while n >= value {
            out.push_str(letters);
            n -= value;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roman_numerals_in_their_usual_form_only() {
        assert_eq!(roman("V"), Some(5));
        assert_eq!(roman("XXV"), Some(25));
        assert_eq!(roman("XIV"), Some(14));
        assert_eq!(roman("CIVIL"), None);
        assert_eq!(roman("IIII"), None);
        assert_eq!(roman("LI"), Some(51));
        assert_eq!(roman("v"), None);
    }

    #[test]
    fn figures_with_the_ordinal_mark() {
        assert_eq!(marked_figure("4º Encuentro", 0, 3), Some((3, 4)));
        let t = "1.ª Jornada";
        assert_eq!(marked_figure(t, 0, 1), Some((4, 1)));
        assert_eq!(marked_figure("12 horas", 0, 2), None);
    }

    #[test]
    fn an_ordinal_opening_a_title_leads_it() {
        assert!(leads("4º "));
        assert!(leads("Taller. VII "));
        assert!(!leads("Carlos V "));
        assert!(!leads("los 4 "));
    }
}
