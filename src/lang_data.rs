//! The files of `data/lang/` (the word lists and small rules of each
//! language), built into the binary and parsed once: the one place every
//! layer reads that knowledge from. The ingest's description labels
//! (`parse::labels`) read `es/labels.txt` here, below the translation that
//! reads the rest; `translate::lang` holds the files' examples test and the
//! digest a translation's cache key carries.
//!
//! Not for: what the rules mean (their readers), the term base
//! (`translate::terms`, `data/terms/`) or the message catalogues (`i18n`).

use std::collections::HashMap;
use std::sync::OnceLock;

/// Every file of `data/lang/`, by its path there.
pub const FILES: &[(&str, &str)] = &[
    ("es/connectors.txt", include_str!("../data/lang/es/connectors.txt")),
    ("es/function-words.txt", include_str!("../data/lang/es/function-words.txt")),
    ("es/gazetteer.txt", include_str!("../data/lang/es/gazetteer.txt")),
    ("es/given-names.txt", include_str!("../data/lang/es/given-names.txt")),
    ("es/labels.txt", include_str!("../data/lang/es/labels.txt")),
    ("es/not-name-starts.txt", include_str!("../data/lang/es/not-name-starts.txt")),
    ("es/article-names.tsv", include_str!("../data/lang/es/article-names.tsv")),
    ("es/venue-heads.tsv", include_str!("../data/lang/es/venue-heads.tsv")),
    ("es/joined-across-spans.tsv", include_str!("../data/lang/es/joined-across-spans.tsv")),
    ("en/general-after.txt", include_str!("../data/lang/en/general-after.txt")),
    ("en/general-nouns.txt", include_str!("../data/lang/en/general-nouns.txt")),
    ("en/compound-heads.txt", include_str!("../data/lang/en/compound-heads.txt")),
    ("en/performer-heads.txt", include_str!("../data/lang/en/performer-heads.txt")),
    ("en/small-words.txt", include_str!("../data/lang/en/small-words.txt")),
    ("en/word-order.txt", include_str!("../data/lang/en/word-order.txt")),
    ("en/engine-words.tsv", include_str!("../data/lang/en/engine-words.tsv")),
    ("it/engine-words.tsv", include_str!("../data/lang/it/engine-words.tsv")),
    ("fr/contractions.tsv", include_str!("../data/lang/fr/contractions.tsv")),
    ("fr/elisions.tsv", include_str!("../data/lang/fr/elisions.tsv")),
    ("fr/function-words.txt", include_str!("../data/lang/fr/function-words.txt")),
    ("fr/h-aspire.txt", include_str!("../data/lang/fr/h-aspire.txt")),
    ("fr/moved-words.txt", include_str!("../data/lang/fr/moved-words.txt")),
    ("it/contractions.tsv", include_str!("../data/lang/it/contractions.tsv")),
    ("it/function-words.txt", include_str!("../data/lang/it/function-words.txt")),
    ("pt/contractions.tsv", include_str!("../data/lang/pt/contractions.tsv")),
    ("pt/engine-endings.tsv", include_str!("../data/lang/pt/engine-endings.tsv")),
    ("pt/function-words.txt", include_str!("../data/lang/pt/function-words.txt")),
    ("gl/contractions.tsv", include_str!("../data/lang/gl/contractions.tsv")),
    ("gl/function-words.txt", include_str!("../data/lang/gl/function-words.txt")),
    ("ca/contractions.tsv", include_str!("../data/lang/ca/contractions.tsv")),
    ("ca/function-words.txt", include_str!("../data/lang/ca/function-words.txt")),
    ("ca/plain.txt", include_str!("../data/lang/ca/plain.txt")),
    ("ca/elisions.tsv", include_str!("../data/lang/ca/elisions.tsv")),
    ("it/elisions.tsv", include_str!("../data/lang/it/elisions.tsv")),
    ("fr/titles.txt", include_str!("../data/lang/fr/titles.txt")),
    ("it/titles.txt", include_str!("../data/lang/it/titles.txt")),
    ("gl/plain.txt", include_str!("../data/lang/gl/plain.txt")),
    ("en/ordinals.tsv", include_str!("../data/lang/en/ordinals.tsv")),
    ("fr/ordinals.tsv", include_str!("../data/lang/fr/ordinals.tsv")),
    ("pt/genders.tsv", include_str!("../data/lang/pt/genders.tsv")),
    ("it/genders.tsv", include_str!("../data/lang/it/genders.tsv")),
    ("fr/genders.tsv", include_str!("../data/lang/fr/genders.tsv")),
    ("fr/punctuation.tsv", include_str!("../data/lang/fr/punctuation.tsv")),
    ("en/punctuation.tsv", include_str!("../data/lang/en/punctuation.tsv")),
    ("it/punctuation.tsv", include_str!("../data/lang/it/punctuation.tsv")),
    ("pt/punctuation.tsv", include_str!("../data/lang/pt/punctuation.tsv")),
    ("ca/punctuation.tsv", include_str!("../data/lang/ca/punctuation.tsv")),
    ("gl/punctuation.tsv", include_str!("../data/lang/gl/punctuation.tsv")),
    ("ca/hours.tsv", include_str!("../data/lang/ca/hours.tsv")),
    ("ca/moved-words.txt", include_str!("../data/lang/ca/moved-words.txt")),
    ("fr/subject-pronouns.txt", include_str!("../data/lang/fr/subject-pronouns.txt")),
    ("fr/pronoun-openings.tsv", include_str!("../data/lang/fr/pronoun-openings.tsv")),
    ("garbled.tsv", include_str!("../data/lang/garbled.tsv")),
];

/// The data lines of each file: neither blank nor a `#` comment, trimmed.
fn parsed() -> &'static HashMap<&'static str, Vec<&'static str>> {
    static PARSED: OnceLock<HashMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    PARSED.get_or_init(|| {
        FILES
            .iter()
            .map(|(path, content)| {
                let lines = content.lines().map(|l| l.trim_end_matches('\r').trim()).filter(|l| !l.is_empty() && !l.starts_with('#'));
                (*path, lines.collect())
            })
            .collect()
    })
}

/// The data lines of `path` (under `data/lang/`); none for a file not there
/// (a language with no such rule).
pub fn lines(path: &str) -> &'static [&'static str] {
    parsed().get(path).map_or(&[], Vec::as_slice)
}

/// Whether `word` is a line of the list `path`.
pub fn has(path: &str, word: &str) -> bool {
    lines(path).contains(&word)
}

/// The tab-separated columns of each line of `path`.
pub fn rows(path: &str) -> impl Iterator<Item = Vec<&'static str>> {
    lines(path).iter().map(|l| l.split('\t').map(str::trim).collect())
}
