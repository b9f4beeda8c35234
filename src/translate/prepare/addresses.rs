//! Web addresses in a text, written out with a scheme or `www.`
//! (`https://coral.example.es/`) or bare, ending in a top-level domain of
//! `data/translate/top-level-domains.txt` (`conventagusti.com`): `prepare`
//! keeps them from the engine, and the check of an answer (`send::answer`)
//! refuses one that holds an address the text sent lacks.
//!
//! Not for: contact data (`parse::pii`).

use crate::parse::screened::Screened;
use regex::Regex;
use std::sync::LazyLock;

/// Top-level domains a bare address ends in, one per line.
const TOP_LEVEL_DOMAINS: &str = include_str!("../../../data/translate/top-level-domains.txt");

/// A web address written out, with a scheme or `www.`.
static URL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)(?:https?://|www\.)[^\s<>]+").expect("url regex"));

/// An address written bare, in lower case, ending in one of
/// [`TOP_LEVEL_DOMAINS`] (`conventagusti.com`): kept from the engine, but
/// not looked for in an answer, where a sentence run on and lower-cased
/// (`sala.Es` → `sala.es`) would read as one. Screened
/// ([`crate::parse::screened`]): its `\b`s are Unicode's.
static BARE: LazyLock<Screened> = LazyLock::new(|| {
    let tlds: Vec<&str> = crate::lang_data::entries(TOP_LEVEL_DOMAINS).collect();
    Screened::new(&format!(r"\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:{})\b(?:/[^\s<>]*)?", tlds.join("|"))).expect("bare address regex")
});

/// What may follow an address without being part of it.
const TRAILING: &[char] = &['.', ',', ';', ':', ')', '!', '?', '"', '\''];

/// The byte ranges of the web addresses written out in `text` with a
/// scheme or `www.`, without the punctuation after them.
pub(in crate::translate) fn written_addresses(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    URL.find_iter(text).map(without_trailing)
}

/// A match's byte range without the punctuation after the address.
fn without_trailing(m: regex::Match) -> (usize, usize) {
    (m.start(), m.start() + m.as_str().trim_end_matches(TRAILING).len())
}

/// The byte ranges of the web addresses in `text`, written out or bare, in
/// order: `prepare` keeps them from the engine, which would translate their
/// words (Apertium es-gl wrote `example.é`, cat-fra `office.comme`).
pub(crate) fn web_addresses(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let written: Vec<(usize, usize)> = written_addresses(text).collect();
    let bare: Vec<(usize, usize)> =
        BARE.find_iter(text).map(without_trailing).filter(|&(a, b)| !written.iter().any(|&(x, y)| a < y && x < b)).collect();
    let mut all = written;
    all.extend(bare);
    all.sort_unstable();
    all.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each example of data/translate/top-level-domains.txt: the address
    /// found in the text, or none.
    #[test]
    fn top_level_domain_examples_find_their_address() {
        let examples: Vec<&str> = TOP_LEVEL_DOMAINS.lines().filter_map(|l| l.strip_prefix("# example: ")).collect();
        assert!(examples.len() >= 4);
        for example in examples {
            let (text, want) = example.split_once(" => ").unwrap();
            let found: Vec<&str> = web_addresses(text).map(|(a, b)| &text[a..b]).collect();
            let want: Vec<&str> = if want == "none" { vec![] } else { vec![want] };
            assert_eq!(found, want, "{example}");
        }
    }
}
