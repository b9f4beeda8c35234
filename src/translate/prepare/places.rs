//! The places an event names, kept from the engine before any other span:
//! its own venue and locality (also where the feed writes them in capitals,
//! "MADRID", and a text "Madrid"), its district where it stands alone, the
//! gazetteer's entries (longest first), and web addresses.
//!
//! Not for: the names a text's capitals give away (`capitals`, `names`),
//! what the gazetteer lists (`gazetteer`) or what a web address is
//! (`addresses`).

use super::gazetteer::Gazetteer;

/// The spans kept before anything else: the event's own venue, locality
/// and district, the gazetteer's entries (longest first), and web addresses.
pub(super) fn places_and_addresses(
    text: &str,
    given: &[&str],
    district: Option<&str>,
    gazetteer: Option<&Gazetteer>,
) -> Vec<(usize, usize)> {
    let mut names: Vec<(usize, usize)> = Vec::new();
    // The district names a place that may also head a longer name
    // ("Centro" in "Centro Cultural X"): kept only where it stands alone.
    let mut places: Vec<(&str, bool)> = given.iter().map(|p| (*p, false)).collect();
    places.extend(district.map(str::trim).filter(|p| p.chars().count() > 2).map(|p| (p, true)));
    places.sort_by_key(|p| std::cmp::Reverse(p.0.len()));
    // The gazetteer's phrases the text holds, longest first, each after
    // the event's own places of its length.
    for phrase in gazetteer.map(|g| g.held_in(text)).unwrap_or_default() {
        let at = places.iter().position(|p| p.0.len() < phrase.len()).unwrap_or(places.len());
        places.insert(at, (phrase, false));
    }
    for (phrase, alone) in places {
        for (at, _) in text.match_indices(phrase) {
            let end = at + phrase.len();
            let fits = !alone || stands_alone(text, at, end);
            if fits && whole_word(text, at, end) && names.iter().all(|&(a, b)| end <= a || at >= b) {
                names.push((at, end));
            }
        }
    }
    // Web addresses stay as they are: an engine translates their words, and an
    // answer holding an address the text lacks is refused.
    for (at, end) in super::addresses::web_addresses(text) {
        if names.iter().all(|&(a, b)| end <= a || at >= b) {
            names.push((at, end));
        }
    }
    names
}

/// A feed that writes its venue or locality in capitals ("MADRID") names
/// the same place a title writes "Madrid": added to `names` where no other
/// span holds it.
pub(super) fn given_in_capitals(text: &str, given: &[&str], names: &mut Vec<(usize, usize)>, taken: &[(usize, usize)]) {
    for phrase in given.iter().map(|p| title_cased(p)).filter(|p| !p.is_empty()) {
        for (at, _) in text.match_indices(phrase.as_str()) {
            let end = at + phrase.len();
            let free = names.iter().chain(taken).all(|&(a, b)| end <= a || at >= b);
            if whole_word(text, at, end) && free {
                names.push((at, end));
            }
        }
    }
}

/// A phrase in capitals as a title writes it ("SAN SEBASTIÁN" → "San
/// Sebastián"); empty when it is not in capitals.
fn title_cased(phrase: &str) -> String {
    if phrase.chars().any(char::is_lowercase) {
        return String::new();
    }
    let mut out = String::with_capacity(phrase.len());
    let mut start = true;
    for c in phrase.chars() {
        if start {
            out.push(c);
        } else {
            out.extend(c.to_lowercase());
        }
        start = !c.is_alphanumeric();
    }
    out
}

/// Whether `a..b` of `text` is not part of a longer capitalised run: no
/// capitalised word right before or after it.
fn stands_alone(text: &str, a: usize, b: usize) -> bool {
    let capital_word = |w: Option<&str>| w.is_some_and(|w| w.starts_with(char::is_uppercase));
    let before = text[..a].strip_suffix(' ').map(|t| t.rsplit(' ').next().unwrap_or(t));
    let after = text[b..].strip_prefix(' ').map(|t| t.split(' ').next().unwrap_or(t));
    !capital_word(before.filter(|w| !w.is_empty() && w.chars().all(char::is_alphabetic))) && !capital_word(after)
}

/// Whether `a..b` of `text` is whole words: no letter or digit right
/// before or after it.
fn whole_word(text: &str, a: usize, b: usize) -> bool {
    let before = text[..a].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
    let after = text[b..].chars().next().is_none_or(|c| !c.is_alphanumeric());
    before && after
}
