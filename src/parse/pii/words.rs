//! The scrubber's word lists, read from `data/pii/` (P5):
//! number words read as digits, labels that may be glued to a number, and
//! the spelt-out and bracketed forms of an address's `@` and `.`. Each
//! file's `example:` lines are run by the test below.
//!
//! Not for the patterns built from them (`parse::pii`) nor the view they
//! are matched on (`view`, `fold`).

use std::sync::LazyLock;

const NUMBER_WORDS: &str = include_str!("../../../data/pii/number-words.tsv");
const PHONE_LABELS: &str = include_str!("../../../data/pii/phone-labels.txt");
const ADDRESS_FORMS: &str = include_str!("../../../data/pii/address-forms.tsv");

/// The lines of a data file that hold entries: no comments, no blanks.
fn entries(file: &'static str) -> impl Iterator<Item = &'static str> {
    file.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

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

/// The labels a number may be glued to, lower-case.
pub static LABELS: LazyLock<Vec<String>> = LazyLock::new(|| entries(PHONE_LABELS).map(str::to_lowercase).collect());

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
    fn every_example_of_the_word_lists_holds_p5_issue31() {
        let mut n = 0;
        for (file, text) in [("number-words.tsv", NUMBER_WORDS), ("phone-labels.txt", PHONE_LABELS), ("address-forms.tsv", ADDRESS_FORMS)] {
            for line in text.lines().filter_map(|l| l.trim().strip_prefix("# example:")) {
                let (input, want) = line.split_once(" => ").expect("example: TEXT => RESULT");
                assert_eq!(super::super::scrub(input.trim()), want.trim(), "{file}: {input:?}");
                n += 1;
            }
        }
        assert!(n >= 20, "{n} examples");
        assert!(NUMBERS.len() >= 25 && LABELS.len() >= 10);
        assert!(!address_forms("at-word").is_empty() && !address_forms("brackets").is_empty());
    }
}
