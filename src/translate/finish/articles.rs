//! Spanish puts the definite article before a noun used in general ("la
//! música", "el arte", "la inteligencia artificial"); English does not, and
//! an engine that copies it reads as a translation: "Through the Music",
//! "The Art of the Crochet", "The Artificial Intelligence: Progress or
//! Danger?". This drops English "the" before such a noun where it stands
//! for the thing in general, and keeps it where it is specific ("the music
//! of Bach", "the music festival", "at the theatre").
//!
//! Not for: other languages (they use the article as Spanish does), or
//! kept spans (names keep their "The").

use super::cut::Segment;
use crate::lang::Lang;

/// Nouns English uses without an article when they mean the thing in
/// general (`data/lang/en/general-nouns.txt`).
fn general(noun: &str) -> bool {
    crate::lang_data::of(Lang::En).general_nouns.has(noun)
}

/// Words after which "the" + a general noun means the thing in general
/// ("history of the cinema"; `data/lang/en/general-after.txt`).
fn general_after(word: &str) -> bool {
    crate::lang_data::of(Lang::En).general_after.has(word)
}

/// Words that may follow the noun without making it specific: the end of
/// the phrase. Anything else ("of Bach", "festival") makes it specific.
fn ends_phrase(next: Option<&str>) -> bool {
    match next {
        None => true,
        Some(w) => {
            let bare = w.trim_start_matches(|c: char| !c.is_alphanumeric());
            bare.is_empty()
                || matches!(bare.to_lowercase().as_str(), "and" | "or" | "in" | "at" | "for" | "with" | "through" | "from" | "as")
        }
    }
}

/// The word as a lowercase bare word, and whether punctuation follows it.
fn bare(word: &str) -> (String, bool) {
    let core = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    (core.to_lowercase(), core.len() < word.len())
}

/// An adjective that may stand between "the" and the noun ("the artificial
/// intelligence", "the contemporary art", "the urban music"), by ending.
fn adjective(word: &str) -> bool {
    word.chars().all(char::is_lowercase)
        && ["al", "ic", "ary", "ous", "ive", "an", "ish", "ese", "ar", "ern"].iter().any(|e| word.ends_with(e))
}

/// Drops "the" before a general noun in the plain text of English output.
/// `opens` tells whether the segment starts a title or sentence (so a
/// leading "The" counts as after nothing).
fn drop_general_the(text: &str, opens: bool) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let mut drop = vec![false; words.len()];
    for i in 0..words.len() {
        let (w, punct) = bare(words[i]);
        if w != "the" || punct || words[i].starts_with(|c: char| !c.is_alphanumeric()) {
            continue;
        }
        let before = (0..i).rev().find(|&k| !words[k].is_empty());
        let general_slot = match before {
            None => opens,
            Some(k) => {
                let (b, b_punct) = bare(words[k]);
                b_punct || general_after(&b)
            }
        };
        if !general_slot {
            continue;
        }
        // "the" [adjective] noun, then the end of the phrase.
        let mut n = i + 1;
        let Some(first) = words.get(n) else { continue };
        let (mut noun, mut noun_punct) = bare(first);
        if !general(&noun) && !noun_punct && adjective(&noun) {
            n += 1;
            let Some(second) = words.get(n) else { continue };
            (noun, noun_punct) = bare(second);
        }
        if general(&noun) && (noun_punct || ends_phrase(words.get(n + 1).copied())) {
            drop[i] = true;
        }
    }
    let mut kept: Vec<String> = Vec::with_capacity(words.len());
    let mut capital_next = false;
    for (w, dropped) in words.iter().zip(drop) {
        if dropped {
            // A dropped capital "The" hands its capital on.
            capital_next = w.starts_with('T');
        } else if capital_next && !w.is_empty() {
            kept.push(crate::translate::prepare::terms::capitalize(w));
            capital_next = false;
        } else {
            kept.push(w.to_string());
        }
    }
    kept.join(" ")
}

/// English: "the" dropped before a noun meant in general, in every plain
/// segment. A segment opens a sentence when it is first, or follows a kept
/// span that ends one.
pub(super) fn general_nouns(segs: &mut [Segment]) {
    let mut opens = true;
    for s in segs.iter_mut() {
        match s {
            Segment::Plain(t) => {
                *t = drop_general_the(t, opens);
                opens = false;
            }
            Segment::Name(n) => opens = n.trim_end().ends_with([':', '.', '?', '!']),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en(text: &str) -> String {
        drop_general_the(text, true)
    }

    #[test]
    fn the_goes_before_a_noun_meant_in_general() {
        assert_eq!(en("The Artificial Intelligence: Progress or Danger?"), "Artificial Intelligence: Progress or Danger?");
        assert_eq!(en("The Retiro through the music"), "The Retiro through music");
        assert_eq!(en("The art of the crochet"), "The art of crochet");
        assert_eq!(en("history of the cinema and the literature"), "history of cinema and literature");
        assert_eq!(en("The sparrow and the biodiversity"), "The sparrow and biodiversity");
        assert_eq!(en("A course on the history, the art and the music."), "A course on history, art and music.");
    }

    #[test]
    fn the_stays_where_the_noun_is_specific() {
        assert_eq!(en("the music of Bach"), "the music of Bach");
        assert_eq!(en("The music festival"), "The music festival");
        assert_eq!(en("a night at the theatre"), "a night at the theatre");
        assert_eq!(en("the history of the neighbourhood"), "the history of the neighbourhood");
        assert_eq!(en("in the painting"), "in the painting");
        assert_eq!(en("the theatre's poison"), "the theatre's poison");
        assert_eq!(drop_general_the("the music", false), "the music");
    }
}
