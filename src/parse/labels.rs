//! The labelled parts of a description, each on a line of its own: the
//! Madrid portal runs them together ("… Compañía: Edulogic Producciones
//! Público: Familiar a partir de 4 años"), which a reader cannot scan and
//! an engine takes for one sentence (the label after a name read as more
//! of the name). The labels are data, per language
//! (`data/lang/XX/labels.txt`, with examples `translate::lang`'s test
//! runs): Spanish lists some; a language that lists none keeps its
//! descriptions as they are.
//!
//! Every description of every feed passes here, so only the few
//! characters before each colon are looked at, and a label is looked up
//! where one could start: the words up to the colon, lower-cased, in a set.
//! Copying each description into a `Vec<char>` and trying every label
//! after every blank took a tenth of the ingest's CPU samples (`perf`) on
//! the generated Madrid feed; this walk takes the run on 10k events from
//! 2 145 M to 1 851 M instructions (valgrind), and the bench's 100k run
//! from 5.03 to 4.32 CPU s (load 2.8, Python 5.5 to 5.8), the stored rows
//! unchanged.
//!
//! Not for: translating the labels (the engines and the term base do).

use crate::lang::Lang;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// The labels, lower case, and the length of the longest in characters.
struct Labels {
    words: HashSet<String>,
    longest: usize,
}

/// Each display language's labels.
static LABELS: LazyLock<HashMap<Lang, Labels>> = LazyLock::new(|| {
    Lang::ALL
        .into_iter()
        .map(|lang| {
            let words: HashSet<String> = crate::lang_data::of(lang).labels.lines().iter().map(|l| l.to_lowercase()).collect();
            // A label ends at the first colon after it (`label_at`): none may hold one.
            debug_assert!(words.iter().all(|w| !w.contains(':')), "a label holds a colon");
            let longest = words.iter().map(|w| w.chars().count()).max().unwrap_or(0);
            (lang, Labels { words, longest })
        })
        .collect()
});

fn labels(lang: Lang) -> &'static Labels {
    &LABELS[&lang]
}

/// The language of the code `code` when it lists labels: the one whose
/// descriptions [`split_labelled_parts`] splits.
pub fn labelled(code: &str) -> Option<Lang> {
    Lang::from_code(code).filter(|&lang| !labels(lang).words.is_empty())
}

/// `text`, in `lang`, with a line break before each label that follows
/// other text on its line: the blanks before the label become one line break.
pub fn split_labelled_parts(text: &str, lang: Lang) -> String {
    let blank = |c: char| c.is_whitespace() && c != '\n';
    let labels = labels(lang);
    let longest = labels.longest;
    let mut out = String::with_capacity(text.len() + 16);
    // `text[..done]` is in `out` already.
    let mut done = 0;
    // A label ends at the first colon after it: the labels before the colon
    // at `colon` start after the one before it, at most `longest` characters back.
    let mut from = 0;
    for colon in memchr::memchr_iter(b':', text.as_bytes()) {
        let back = text[from..colon].char_indices().rev().take(longest).last().map_or(colon, |(k, _)| from + k);
        for (k, _) in text[back..colon].char_indices() {
            let start = back + k;
            if !text[..start].chars().next_back().is_some_and(blank) || !label_at(labels, &text[start..]) {
                continue;
            }
            // The whole run of blanks before the label, and what comes before it.
            let run = text[..start].trim_end_matches(blank).len();
            if text[..run].chars().next_back().is_some_and(|p| p != '\n') {
                out.push_str(&text[done..run]);
                out.push('\n');
                done = start;
            }
        }
        from = colon + 1;
    }
    out.push_str(&text[done..]);
    out
}

/// Whether `rest` starts with a label, written with a capital and followed
/// by a colon: each character of it lower-cases to the label's character.
fn label_at(labels: &Labels, rest: &str) -> bool {
    if !rest.chars().next().is_some_and(char::is_uppercase) {
        return false;
    }
    let mut key = String::with_capacity(32);
    for (n, c) in rest.chars().enumerate() {
        if c == ':' {
            return labels.words.contains(&key);
        }
        if n >= labels.longest {
            return false;
        }
        let mut lower = c.to_lowercase();
        match (lower.next(), lower.next()) {
            (Some(l), None) => key.push(l),
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk as first written (a `Vec<char>`, every label tried after
    /// every blank), kept as the oracle of the one above.
    fn split_as_first_written(text: &str) -> String {
        let mut list: Vec<Vec<char>> =
            crate::lang_data::of(crate::lang::Lang::Es).labels.lines().iter().map(|l| l.to_lowercase().chars().collect()).collect();
        list.sort_by_key(|l| std::cmp::Reverse(l.len()));
        let label_at = |chars: &[char], at: usize| {
            chars[at].is_uppercase()
                && list.iter().any(|label| {
                    let end = at + label.len();
                    end < chars.len()
                        && chars[at..end].iter().zip(label).all(|(a, b)| a.to_lowercase().eq(std::iter::once(*b)))
                        && chars[end] == ':'
                })
        };
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() && c != '\n' {
                let mut j = i;
                while j < chars.len() && chars[j].is_whitespace() && chars[j] != '\n' {
                    j += 1;
                }
                let after_text = out.chars().next_back().is_some_and(|p| p != '\n');
                if after_text && j < chars.len() && label_at(&chars, j) {
                    out.push('\n');
                } else {
                    out.extend(&chars[i..j]);
                }
                i = j;
                continue;
            }
            out.push(c);
            i += 1;
        }
        out
    }

    #[test]
    fn the_one_walk_splits_as_the_first_did() {
        const PIECES: &[&str] = &[
            " ",
            "  ",
            "\t",
            "\n",
            "\u{a0}",
            "\u{2003}",
            ":",
            " : ",
            "Compañía:",
            "COMPAÑÍA:",
            "compañía:",
            "Duración",
            "Edad recomendada:",
            "Edad  recomendada:",
            "Dirigido a:",
            "Público: ",
            "Aforo:",
            "Autora:",
            "İ:",
            "Ǆ:",
            "x",
            "Texto",
            "60 min.",
            "é",
            "e\u{301}",
            "https://x.es",
            "¿",
            "Colabora",
        ];
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let len = (next() % 12) as usize;
            let text: String = (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
            assert_eq!(split_labelled_parts(&text, Lang::Es), split_as_first_written(&text), "{text:?}");
        }
    }
}
