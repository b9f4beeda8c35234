//! Words of a Spanish text as the term base, the name finder and the
//! ordinals see them: their byte ranges, and whether the characters
//! between two of them open a sentence.
//!
//! Not for: what a word is (the analyser) or what it becomes (terms).

/// The words of a text with their byte ranges: runs of letters, digits and `_`.
pub fn words(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let wordy = c.is_alphanumeric() || c == '_';
        match (wordy, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// What may stand between a leading kept span and the lower-case word
/// after it ("Marco Mezquida Piano+IA, con …").
pub(crate) fn after_lead(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | ':')
}

/// Whether the characters between two words start a sentence (or a quoted
/// title), so that the next word's capital says nothing about it.
pub fn opens_sentence(gap: &str) -> bool {
    gap.chars().any(|c| {
        matches!(
            c,
            '.' | ':'
                | '!'
                | '?'
                | '¡'
                | '¿'
                | '('
                | '"'
                | '«'
                | '\''
                | '‘'
                | '’'
                | '“'
                | '”'
                | '`'
                | '´'
                | '-'
                | '–'
                | '—'
                | '/'
                | '|'
                | '\n'
                | '['
                | '•'
                | ';'
        )
    })
}
