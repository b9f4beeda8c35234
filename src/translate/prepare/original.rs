//! Which language a text was written in, when a feed mixes languages
//! (Kulturklik's titles: Spanish "El desahucio (Cancelado)", Basque
//! "Izoztutako haizea", names "Goraki"): the text itself decides, by which
//! candidate language's Apertium analyser knows more of its ordinary words
//! (common and function words; names and unknown words count for none).
//! A tie (a title made only of names) goes to the record's hint (the
//! language the adapter read from the record, e.g. the event's language),
//! then to the feed's usual language. Without an analyser the hint stands.
//!
//! Used once per event at ingest for an adapter that declares candidate
//! languages (`Adapter::original_languages`), so the stored event says its
//! original's language and the translation step routes it from there.
//!
//! Not for: deciding which words are names (`names`), or translating.

use super::analyser::{Analyser, Analysis, WordKind};
use crate::lang::SourceLang;

/// How many ordinary words (common or function words) an analysis knows;
/// a word the dictionary also knows as a given name ("Miren", Spanish's
/// "mirar" too) is a name here.
pub fn ordinary_words(analysis: &Analysis) -> usize {
    analysis.units.iter().filter(|u| matches!(u.2, WordKind::Common | WordKind::Function) && !analysis.given_name_at(u.0)).count()
}

/// The language chosen from each candidate's count of ordinary words known
/// (`None`: no analyser for it): the most; a tie among the most goes to
/// `hint` when it is among them, else to `usual` when it is, else to the
/// first; with no count at all, `hint`.
///
/// ```
/// use cityvibe::translate::prepare::original::choose;
/// // "Izoztutako haizea": Basque knows both words, Spanish neither.
/// assert_eq!(choose(&[("es", Some(0)), ("eu", Some(2))], "es", "es"), "eu");
/// // "Goraki", a band: no language knows it; the event's language decides.
/// assert_eq!(choose(&[("es", Some(0)), ("eu", Some(0))], "eu", "es"), "eu");
/// // "El desahucio (Cancelado)" at a Basque-language event: Spanish.
/// assert_eq!(choose(&[("es", Some(3)), ("eu", Some(0))], "eu", "es"), "es");
/// // No analyser installed: the hint.
/// assert_eq!(choose(&[("es", None), ("eu", None)], "eu", "es"), "eu");
/// ```
pub fn choose<'a>(counts: &[(&'a str, Option<usize>)], hint: &'a str, usual: &'a str) -> &'a str {
    let Some(best) = counts.iter().filter_map(|c| c.1).max() else { return hint };
    let top: Vec<&str> = counts.iter().filter(|c| c.1 == Some(best)).map(|c| c.0).collect();
    if top.contains(&hint) {
        hint
    } else if top.contains(&usual) {
        usual
    } else {
        top[0]
    }
}

/// The analysers of a feed's candidate languages, started on first use and
/// kept for the feed's whole ingest (one `lt-proc` each).
pub struct Decider {
    candidates: Vec<(&'static str, Option<Option<Analyser>>)>,
    usual: &'static str,
}

impl Decider {
    /// A decider among `candidates` (`["es", "eu"]`), `usual` being the
    /// feed's declared language.
    pub fn new(candidates: &[&'static str], usual: &'static str) -> Decider {
        Decider { candidates: candidates.iter().map(|&c| (c, None)).collect(), usual }
    }

    /// The language of `text`; `hint` is the record's (see [`choose`]).
    pub fn decide(&mut self, text: &str, hint: &SourceLang) -> SourceLang {
        let hint = hint.as_str();
        let mut counts: Vec<(&str, Option<usize>)> = Vec::with_capacity(self.candidates.len());
        for (code, analyser) in &mut self.candidates {
            let running = analyser.get_or_insert_with(|| Analyser::system_for_code(code).ok());
            let count = match running.as_mut().map(|a| a.analyse(text)) {
                Some(Ok(a)) => Some(ordinary_words(&a)),
                Some(Err(_)) => {
                    // A fresh process for the next text; this one counts for none.
                    *analyser = None;
                    None
                }
                None => None,
            };
            counts.push((code, count));
        }
        SourceLang::new(choose(&counts, hint, self.usual))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real analysers (Debian's apertium-eng-spa and apertium-eu-es): the
    /// titles the issue names go to the language they are written in.
    #[test]
    fn each_title_goes_to_the_language_whose_dictionary_knows_its_words() {
        if Analyser::system_for_code("eu").is_err() || Analyser::system_for_code("es").is_err() {
            assert!(std::env::var_os("CI").is_none(), "CI must have apertium-eu-es and apertium-eng-spa (make deps)");
            eprintln!("skipped: no Spanish or Basque analyser (make deps)");
            return;
        }
        let mut d = Decider::new(&["es", "eu"], "es");
        for (title, hint, lang) in [
            ("Izoztutako haizea", "es", "eu"),
            ("Tomaxen abenturak", "es", "eu"),
            ("Bertso-saioa: Miren Amuriza + Jon Maia", "eu", "eu"),
            ("Ni ala zu", "es", "eu"),
            ("El desahucio (Cancelado)", "eu", "es"),
            ("sesión de cuentacuentos de Ines Bengoa", "eu", "es"),
            ("Goraki", "eu", "eu"),
            ("Goraki", "es", "es"),
        ] {
            assert_eq!(d.decide(title, &SourceLang::new(hint)), lang, "{title} (hint {hint})");
        }
    }
}
