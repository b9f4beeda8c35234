//! The scrubber's word lists, read from `data/pii/` (P5):
//! number words read as digits, labels that may be glued to a number, the
//! spelt-out and bracketed forms of an address's `@` and `.`, and the
//! characters read as digits (look-alikes). Each file's `example:` lines
//! are run by the test below.
//!
//! Not for the patterns built from them (`parse::pii`) nor the view they
//! are matched on (`view`, `fold`).

use crate::lang_data::entries;
use std::sync::LazyLock;

const NUMBER_WORDS: &str = include_str!("../../../data/pii/number-words.tsv");
const PHONE_LABELS: &str = include_str!("../../../data/pii/phone-labels.txt");
const ADDRESS_FORMS: &str = include_str!("../../../data/pii/address-forms.tsv");
const LOOK_ALIKES: &str = include_str!("../../../data/pii/look-alikes.tsv");
const CODE_LABELS: &str = include_str!("../../../data/pii/code-labels.txt");
const ID_HOSTS: &str = include_str!("../../../data/pii/id-hosts.txt");

/// Each number word, lower-case, and its digit.
pub static NUMBERS: LazyLock<Vec<(String, u8)>> = LazyLock::new(|| {
    entries(NUMBER_WORDS)
        .map(|l| {
            let (word, digit) = l.split_once('\t').expect("number-words.tsv: WORD<TAB>DIGIT");
            let digit = digit.trim().parse::<u8>().ok().filter(|d| *d <= 9).expect("number-words.tsv: a digit");
            (word.trim().to_lowercase(), b'0' + digit)
        })
        .collect()
});

/// The longest number word, in bytes: a longer word is none.
pub static LONGEST_NUMBER: LazyLock<usize> = LazyLock::new(|| NUMBERS.iter().map(|(w, _)| w.len()).max().unwrap_or(0));

/// The number words as keys of at most 8 bytes, ASCII letters lower-case:
/// every short word of a text is looked up here (`fold`), so a lookup
/// must cost a hash, not a walk of the list.
static NUMBER_KEYS: LazyLock<std::collections::HashMap<[u8; 8], u8>> =
    LazyLock::new(|| NUMBERS.iter().filter_map(|(w, d)| Some((key(w)?, *d))).collect());

fn key(word: &str) -> Option<[u8; 8]> {
    let mut k = [0u8; 8];
    k.get_mut(..word.len())?.copy_from_slice(word.as_bytes());
    k.make_ascii_lowercase();
    Some(k)
}

/// The digit of a number word (any case of its ASCII letters), if `word` is one.
pub fn number_word(word: &str) -> Option<u8> {
    NUMBER_KEYS.get(&key(word)?).copied()
}

/// The look-alikes of one kind (`sign`, `letter`) and their digits.
fn look_alikes(kind: &str) -> Vec<(char, u8)> {
    entries(LOOK_ALIKES)
        .filter_map(|l| {
            let mut cols = l.split('\t');
            (cols.next()? == kind).then_some(())?;
            let c = cols.next()?.chars().next()?;
            let d = cols.next()?.trim().parse::<u8>().ok().filter(|d| *d <= 9)?;
            Some((c, b'0' + d))
        })
        .collect()
}

/// Signs read as a digit wherever they stand (`❶`), with their ASCII digit.
pub static SIGNS: LazyLock<Vec<(char, u8)>> = LazyLock::new(|| look_alikes("sign"));

/// Letters read as a digit among digits (`O`, `l`, `S`, `З`), with their ASCII digit.
pub static LETTERS: LazyLock<Vec<(char, u8)>> = LazyLock::new(|| look_alikes("letter"));

/// The digit a sign stands for.
pub fn sign_digit(c: char) -> Option<u8> {
    SIGNS.iter().find(|(s, _)| *s == c).map(|(_, d)| *d)
}

/// The digit a letter stands for among digits.
pub fn letter_digit(c: char) -> Option<u8> {
    LETTERS.iter().find(|(s, _)| *s == c).map(|(_, d)| *d)
}

/// The labels a number may be glued to, lower-case.
pub static LABELS: LazyLock<Vec<String>> = LazyLock::new(|| entries(PHONE_LABELS).map(str::to_lowercase).collect());

/// The words that make the digits after them a code (`ISBN`), lower-case.
pub static CODE_LABELS_LIST: LazyLock<Vec<String>> = LazyLock::new(|| entries(CODE_LABELS).map(str::to_lowercase).collect());

/// Whether the text right before a number (`before`) ends in a code's
/// label, with numbers and separators after it (`ISBN-10: `): the last
/// word of letters in the last 24 bytes, after what is no letter.
pub fn after_a_code_label(before: &str) -> bool {
    if before.ends_with(char::is_alphabetic) {
        return false;
    }
    let tail = &before[before.floor_char_boundary(before.len().saturating_sub(24))..];
    let tail = tail.trim_end_matches(|c: char| !c.is_alphabetic());
    let word: String = tail.chars().rev().take_while(|c| c.is_alphabetic()).collect::<Vec<_>>().into_iter().rev().collect();
    !word.is_empty() && CODE_LABELS_LIST.contains(&word.to_lowercase())
}

/// Whether a link (lower-case) is on a host whose numbers are ids
/// (`data/pii/id-hosts.txt`), or one of its subdomains.
pub fn on_an_id_host(link: &str) -> bool {
    static HOSTS: LazyLock<Vec<&'static str>> = LazyLock::new(|| entries(ID_HOSTS).collect());
    let rest = link.split_once("://").map_or(link, |(_, r)| r);
    let host = rest.split(['/', '?', '#', ':']).next().unwrap_or_default();
    HOSTS.iter().any(|h| host == *h || host.strip_suffix(h).is_some_and(|sub| sub.ends_with('.')))
}

/// Whether `word` (letters only) is a label of a number.
pub fn is_label(word: &str) -> bool {
    let word = word.to_lowercase();
    LABELS.contains(&word)
}

/// The entries of `address-forms.tsv` of one kind.
pub fn address_forms(kind: &str) -> Vec<&'static str> {
    entries(ADDRESS_FORMS).filter_map(|l| l.split_once('\t')).filter(|(k, _)| k.trim() == kind).map(|(_, form)| form.trim()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `example: TEXT => RESULT` line of the three files holds.
    #[test]
    fn every_example_of_the_word_lists_holds_p5() {
        let mut n = 0;
        for (file, text) in [
            ("number-words.tsv", NUMBER_WORDS),
            ("phone-labels.txt", PHONE_LABELS),
            ("address-forms.tsv", ADDRESS_FORMS),
            ("look-alikes.tsv", LOOK_ALIKES),
            ("code-labels.txt", CODE_LABELS),
            ("id-hosts.txt", ID_HOSTS),
        ] {
            for line in text.lines().filter_map(|l| l.trim().strip_prefix("# example:")) {
                let (input, want) = line.split_once(" => ").expect("example: TEXT => RESULT");
                assert_eq!(super::super::scrub(input.trim()), want.trim(), "{file}: {input:?}");
                n += 1;
            }
        }
        assert!(n >= 50, "{n} examples");
        assert!(SIGNS.len() >= 36 && LETTERS.len() >= 6, "{} signs, {} letters", SIGNS.len(), LETTERS.len());
        for kind in ["at-sure", "at-weak", "dot-glued", "provider", "tld", "not-domain"] {
            assert!(!address_forms(kind).is_empty(), "address-forms.tsv has no {kind}");
        }
        assert!(NUMBERS.len() >= 25 && LABELS.len() >= 10);
        assert!(
            NUMBERS
                .iter()
                .all(|(w, d)| w.len() <= 8 && number_word(&w.to_uppercase()).is_none_or(|x| x == *d) && number_word(w) == Some(*d))
        );
        assert!(!address_forms("at-word").is_empty() && !address_forms("brackets").is_empty());
    }
}
