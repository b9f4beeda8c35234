//! The gazetteer: names of places, venues and organisations made of
//! ordinary words ("Casa de Campo"), which the dictionary alone would have
//! translated. `data/lang/es/gazetteer.txt` is built in; an operator's
//! `gazetteer.txt` in the term folder (`[settings] terms_dir`) adds to it.
//!
//! Not for: names the dictionary gives away (a proper noun or an unknown
//! word, see `analyser`), or the event's own venue and place (`places`).

use anyhow::{Context, Result};
use std::path::Path;

/// The phrases of a gazetteer file: one a line, `#` comments skipped.
pub fn parse(content: &str) -> Vec<String> {
    content.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect()
}

/// The shipped gazetteer, with the operator's `dir/gazetteer.txt` added.
pub fn load(dir: Option<&Path>) -> Result<Vec<String>> {
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
        let phrases = load(None).unwrap();
        assert!(phrases.contains(&"Casa de Campo".to_string()));
        assert!(phrases.iter().all(|p| !p.starts_with('#')));
    }
}
