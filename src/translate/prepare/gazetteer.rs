//! The gazetteer: names of places, venues and organisations made of
//! ordinary words ("Casa de Campo"), which the dictionary alone would have
//! translated. `data/lang/es/gazetteer.txt` is built in; an operator's
//! `gazetteer.txt` in the term folder (`[settings] terms_dir`) adds to it.
//!
//! Not for: names the dictionary gives away (a proper noun or an unknown
//! word, see `analyser`), or the event's own venue and place (`places`).

use aho_corasick::AhoCorasick;
use anyhow::{Context, Result};
use std::path::Path;

/// A gazetteer's phrases, longest first (phrases of one length in the
/// order given: [`load`] gives them sorted), with one automaton that tells which of them a
/// text holds: a text is read once for all of them, not once per phrase
/// (`places::places_and_addresses` runs for every text and target: 12 % of
/// the main thread of a Madrid run before, sorting and searching 104
/// phrases each time).
#[derive(Debug, Default)]
pub struct Gazetteer {
    longest_first: Vec<String>,
    finder: Option<AhoCorasick>,
}

impl Gazetteer {
    /// The gazetteer of `phrases` (none empty).
    pub fn new(mut phrases: Vec<String>) -> Result<Self> {
        phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let finder = (!phrases.is_empty()).then(|| AhoCorasick::new(&phrases)).transpose().context("building the gazetteer's finder")?;
        Ok(Gazetteer { longest_first: phrases, finder })
    }

    /// The phrases `text` holds, longest first.
    pub fn held_in(&self, text: &str) -> Vec<&str> {
        let Some(finder) = &self.finder else { return Vec::new() };
        let mut held = vec![false; self.longest_first.len()];
        for m in finder.find_overlapping_iter(text) {
            held[m.pattern().as_usize()] = true;
        }
        self.longest_first.iter().zip(held).filter(|(_, h)| *h).map(|(p, _)| p.as_str()).collect()
    }
}

/// The phrases of a gazetteer file: one a line, `#` comments skipped.
pub fn parse(content: &str) -> Vec<String> {
    crate::lang_data::entries(content).map(String::from).collect()
}

/// The shipped gazetteer, with the operator's `dir/gazetteer.txt` added.
pub fn load(dir: Option<&Path>) -> Result<Gazetteer> {
    Gazetteer::new(phrases(dir)?)
}

/// The phrases of [`load`], sorted, each once.
fn phrases(dir: Option<&Path>) -> Result<Vec<String>> {
    let mut phrases: Vec<String> = crate::lang_data::of(crate::lang::Lang::Es).gazetteer.lines().iter().map(|l| l.to_string()).collect();
    if let Some(path) = dir.map(|d| d.join("gazetteer.txt")).filter(|p| p.exists()) {
        let content = std::fs::read_to_string(&path).with_context(|| format!("reading the gazetteer {}", path.display()))?;
        phrases.extend(parse(&content));
    }
    phrases.sort();
    phrases.dedup();
    Ok(phrases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_gazetteer_parses() {
        let phrases = phrases(None).unwrap();
        assert!(phrases.contains(&"Casa de Campo".to_string()));
        assert!(phrases.iter().all(|p| !p.starts_with('#')));
    }

    /// A text's phrases come longest first, one length in the order given,
    /// each once however often and wherever it stands (inside a longer one
    /// too); a phrase the text lacks does not come.
    #[test]
    fn the_phrases_a_text_holds_come_longest_first() {
        let g = Gazetteer::new(vec!["Casa de Campo".into(), "Campo".into(), "Retiro".into(), "Prado".into()]).unwrap();
        let text = "Del Prado al Retiro, y de la Casa de Campo al Campo.";
        assert_eq!(g.held_in(text), ["Casa de Campo", "Retiro", "Campo", "Prado"]);
        assert!(g.held_in("Matadero").is_empty());
        assert!(Gazetteer::default().held_in(text).is_empty());
    }
}
