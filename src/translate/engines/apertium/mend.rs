//! The mending of a route's answers: words a pivot's second hop left in
//! the pivot's language put back through the direct pair
//! ([`ApertiumTranslator::mend_leaks`]), and words a route left as the
//! original wrote them put in from a second route
//! ([`ApertiumTranslator::mend_unknown`]).
//!
//! Not for: choosing a route or running a pipeline (the parent,
//! `apertium`), or finding the marked words in an answer (`routes`).

use super::{ApertiumTranslator, ENGLISH, ENGLISH_WORDS};
use crate::translate::engines::pipeline::Answer;
use crate::translate::engines::routes;
use anyhow::Result;

impl ApertiumTranslator {
    /// A pivot's answers, each word its second hop left in the pivot's
    /// language (Catalan "menjadores", "Sinopsi" in Portuguese) put back as
    /// the word's own translation: into Spanish with the pivot's pair, then
    /// into the target with the direct one ("Sinopsi" → "Sinopsis" →
    /// "Sinopse"), the rest of the text as the pivot made it. A word the
    /// direct pair does not know either stays. Only a pivot through Catalan from Spanish is
    /// mended, where both pairs exist. Clock times go back as the original
    /// wrote them (`keep_clock_times`). No leak's mark (`routes::LEAK`)
    /// is left in a text, whichever way it ends.
    pub(super) fn mend_leaks(
        &mut self,
        src: &str,
        tgt: &str,
        via: Option<&str>,
        texts: &[String],
        answers: Vec<Answer>,
    ) -> Result<Vec<String>> {
        // Where a swap did not reach, the leak's mark goes too.
        let unmarked = |out: Vec<String>| out.into_iter().map(|t| t.replace(routes::LEAK, "")).collect();
        let mut out: Vec<String> = Vec::with_capacity(answers.len());
        let mut leaked: Vec<String> = Vec::new();
        // Each text with its leaks marked where they stand, until swapped.
        for (original, a) in texts.iter().zip(&answers) {
            out.push(routes::keep_clock_times(original, a.marked.as_ref().unwrap_or(&a.text)));
            for w in &a.leaked {
                if !leaked.contains(w) {
                    leaked.push(w.clone());
                }
            }
        }
        let back = routes::route("ca", src, None).filter(|r| r.pivot.is_none());
        let direct = routes::route(src, tgt, None).filter(|r| r.pivot.is_none());
        let (Some(back), Some(direct)) = (back, direct) else { return Ok(unmarked(out)) };
        if leaked.is_empty() || via != Some("ca") || !back.modes.iter().chain(&direct.modes).all(|m| self.modes.contains(*m)) {
            return Ok(unmarked(out));
        }
        // The mending pipeline's second hop (the direct pair) marks a word
        // it does not know: such a word would come back Spanish, and stays
        // as the pivot made it ("duo", Portuguese as well as Catalan).
        let mended = self.run_marked(&format!("{}+{}", back.modes_name(), direct.modes_name()), false, &leaked)?;
        let swaps: Vec<(&str, &str)> = leaked
            .iter()
            .zip(&mended)
            .filter(|(_, m)| m.leaked.is_empty())
            .map(|(w, m)| (w.as_str(), m.text.trim().trim_end_matches('.')))
            .filter(|(w, m)| routes::is_one_word(m) && !m.eq_ignore_ascii_case(w))
            // A word in lower case that comes back capitalised was read as
            // a name or an abbreviation: Catalan "des" (since) alone is
            // "des." of desembre, "Déc" in French.
            .filter(|(w, m)| !(w.starts_with(char::is_lowercase) && m.starts_with(char::is_uppercase)))
            .collect();
        for text in &mut out {
            *text = routes::swap_leaks(text, &swaps);
        }
        Ok(unmarked(out))
    }

    /// Each text's words its route left as the original wrote them
    /// (`unknown[k]`, marked by the route's last hop) put in as a second
    /// route `modes` translates each alone ("sexualidad" through
    /// spa-cat+cat-por: "sexualidade"), where that route knows the word:
    /// neither of its hops marks it, and it comes back one other word. A
    /// word the second route does not know either stays as it was, and so
    /// does a word English knows.
    pub(super) fn mend_unknown(&mut self, modes: &str, unknown: &[Vec<String>], out: &mut [String]) -> Result<()> {
        let mut words: Vec<String> = Vec::new();
        for w in unknown.iter().flatten() {
            if !words.contains(w) {
                words.push(w.clone());
            }
        }
        if words.is_empty() || modes.split('+').any(|m| !self.modes.contains(m)) {
            return Ok(());
        }
        // A word English knows is English written into the Spanish ("Party
        // time!", "the most"), no Spanish word the pair lacks: it stays,
        // rather than come back as a Spanish homograph's translation
        // ("time", to swindle: "escroquez").
        if self.modes.contains(ENGLISH) {
            let english = self.run_on(ENGLISH_WORDS, ENGLISH, true, &words)?;
            words =
                words.into_iter().zip(english).filter(|(_, a)| !(a.unknown.is_empty() && a.leaked.is_empty())).map(|(w, _)| w).collect();
            if words.is_empty() {
                return Ok(());
            }
        }
        // The pipeline's engine as its own route keys it (a pivot's, or a
        // direct pair's marked twin): the French titles' second opinion is
        // the French descriptions' engine, started once for both.
        let answers = self.run_marked(modes, true, &words)?;
        let known: Vec<(&str, &str)> = words
            .iter()
            .zip(&answers)
            .filter(|(_, a)| a.leaked.is_empty() && a.unknown.is_empty())
            .map(|(w, a)| (w.as_str(), a.text.trim().trim_end_matches('.')))
            .filter(|(w, a)| routes::is_one_word(a) && !a.eq_ignore_ascii_case(w))
            .collect();
        for (text, own) in out.iter_mut().zip(unknown) {
            let swaps: Vec<(&str, &str)> = known.iter().filter(|(w, _)| own.iter().any(|o| o == w)).copied().collect();
            if !swaps.is_empty() {
                *text = routes::swap_unknown_words(text, &swaps);
            }
        }
        Ok(())
    }
}
