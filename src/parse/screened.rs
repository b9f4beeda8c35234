//! A regex with Unicode word boundaries (`\b`), screened first by the same
//! pattern without them: a speed trick, and nothing else.
//!
//! The regex crate's fast engine (the lazy DFA) cannot decide a Unicode
//! `\b` on a text that holds a character outside ASCII, and every Spanish,
//! Catalan or French text does: the search then falls back to the bounded
//! backtracker, an order of magnitude slower. The same pattern with its
//! `\b`s taken out matches wherever the pattern does (a `\b` only ever
//! forbids a match), and the lazy DFA runs it on any text: where it finds
//! nothing, the pattern finds nothing, and the slow search is skipped.
//! Where it finds something, the pattern itself decides, so every match is
//! the pattern's own.
//!
//! Measured gain (`perf record` of the main thread of one `run --source
//! madrid` of the real 2025-10 feed into six languages, 4.2 CPU-s): the
//! three patterns screened here (contact links in `parse::pii`, bare web
//! addresses in `translate::prepare::addresses`, domain names in
//! `translate::send::answer`) held 162 of 1,058 samples in the backtracker
//! before; see `docs/BENCHMARKS.md` for the run after. It goes when the
//! regex crate's lazy DFA learns Unicode word boundaries.
//!
//! Not for: patterns without `\b` (the lazy DFA runs them already), or
//! changing what any pattern matches.

use regex::{Match, Regex};

/// A pattern, and the same pattern without its `\b`s.
#[derive(Debug)]
pub struct Screened {
    pattern: Regex,
    screen: Regex,
}

impl Screened {
    /// `pattern` compiled twice: as written, and without its `\b`s.
    pub fn new(pattern: &str) -> Result<Self, regex::Error> {
        Ok(Screened { pattern: Regex::new(pattern)?, screen: Regex::new(&without_word_boundaries(pattern))? })
    }

    /// The pattern's matches in `haystack`, as `Regex::find_iter` gives them.
    pub fn find_iter<'h>(&self, haystack: &'h str) -> impl Iterator<Item = Match<'h>> {
        let may = self.screen.is_match(haystack);
        may.then(|| self.pattern.find_iter(haystack)).into_iter().flatten()
    }
}

/// `pattern` with every `\b` taken out (an escaped backslash stays as it is).
fn without_word_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => {}
            Some(next) => {
                out.push(c);
                out.push(next);
            }
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_screen_is_the_pattern_without_its_word_boundaries() {
        assert_eq!(without_word_boundaries(r"(?i)\bwww\.\w+\b"), r"(?i)www\.\w+");
        assert_eq!(without_word_boundaries(r"(?-u:\b)00\\b\B"), r"(?-u:)00\\b\B");
    }

    /// On texts in and outside ASCII, with matches the `\b`s refuse and
    /// texts the screen finds nothing in, the screened pattern finds what
    /// the pattern alone finds, match for match.
    #[test]
    fn a_screened_pattern_finds_exactly_what_the_pattern_finds() {
        let patterns = [
            r#"(?i)(?:\b(?:https?|ftp)://|\b(?:tel|mailto):|\bwww\.|\b(?:[a-z0-9\-]+\.)+[a-z]{2,}/)[^\s<>"']*"#,
            r"\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|es|cat)\b(?:/[^\s<>]*)?",
            r"[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{Ll}{2,}\b",
        ];
        let texts = [
            "Más información en www.madrid.es/cultura y en la taquilla.",
            "Inscripción: añowww.ejemplo.com/x, café-bar.com/menú, é--.com/a",
            "Reservas en conventagusti.com o en tel:+34 600 000 000.",
            "Duración: 90 minutos.Reserva previa en la web municipal.",
            "herencia.duración y p.ej. el 11.30 h; xcom.esá",
            "Sin enlaces: teatro, música y danza para toda la familia.",
            "",
        ];
        for p in patterns {
            let (plain, screened) = (Regex::new(p).unwrap(), Screened::new(p).unwrap());
            for t in texts {
                let want: Vec<(usize, usize)> = plain.find_iter(t).map(|m| (m.start(), m.end())).collect();
                let got: Vec<(usize, usize)> = screened.find_iter(t).map(|m| (m.start(), m.end())).collect();
                assert_eq!(got, want, "{p} on {t:?}");
            }
        }
    }
}
