//! The labelled parts of a Spanish description, each on a line of its own:
//! the Madrid portal runs them together ("… Compañía: Edulogic
//! Producciones Público: Familiar a partir de 4 años"), which a reader
//! cannot scan and an engine takes for one sentence (the label after a
//! name read as more of the name). The labels are data
//! (`data/lang/es/labels.txt`, with examples `translate::lang`'s test runs).
//!
//! Not for: translating the labels (the engines and the term base do), or
//! texts in other languages.

use std::sync::OnceLock;

/// The labels, lower case, longest first (so "Edad recomendada" wins over "Edad").
fn labels() -> &'static [Vec<char>] {
    static LABELS: OnceLock<Vec<Vec<char>>> = OnceLock::new();
    LABELS.get_or_init(|| {
        let mut list: Vec<Vec<char>> =
            crate::translate::lang::lines("es/labels.txt").iter().map(|l| l.to_lowercase().chars().collect()).collect();
        list.sort_by_key(|l| std::cmp::Reverse(l.len()));
        list
    })
}

/// `text` with a line break before each label that follows other text on
/// its line: the blanks before the label become one line break.
pub fn split_labelled_parts(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 16);
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

/// Whether a label, written with a capital and followed by a colon, starts at `at`.
fn label_at(chars: &[char], at: usize) -> bool {
    if !chars[at].is_uppercase() {
        return false;
    }
    labels().iter().any(|label| {
        let end = at + label.len();
        end < chars.len() && chars[at..end].iter().zip(label).all(|(a, b)| a.to_lowercase().eq(std::iter::once(*b))) && chars[end] == ':'
    })
}
