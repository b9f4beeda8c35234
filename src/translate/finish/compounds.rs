//! English titles: "festival of circus" → "circus festival". An engine
//! copies the Spanish "N de N" word for word; English puts a lone noun in
//! front of an event noun instead (`data/lang/en/compound-heads.txt`, which
//! also says when a noun stands alone). Only within one plain segment: a
//! kept name after "of" stays where it is ("Festival of Otoño"); after a
//! performance noun (`data/lang/en/performer-heads.txt`) that "of" is the
//! performer's "by" ("Concert by Marta Mansilla").
//!
//! Not for descriptions (running text keeps "a course of robotics for
//! children" as the engine wrote it), nor other languages.

use super::cut::Segment;
use crate::lang::Lang;

/// What may follow the moved noun: the title goes on with a preposition.
const AFTER: &[&str] = &["in", "at", "on", "for", "with", "by", "from", "to"];
/// What the noun after "of" may not be: it then is no lone noun.
const NOT_A_NOUN: &[&str] =
    &["the", "a", "an", "my", "your", "his", "her", "its", "our", "their", "this", "that", "these", "those", "all", "some"];

/// Every "HEAD of NOUN" of the plain segments turned into "NOUN HEAD".
pub(super) fn compounds(segs: &mut [Segment]) {
    let n = segs.len();
    for (i, s) in segs.iter_mut().enumerate() {
        // A segment that ends where a kept name begins: its last word is followed by that name.
        let name_follows = i + 1 < n;
        if let Segment::Plain(t) = s {
            *t = compound_words(t, name_follows);
            if name_follows {
                *t = by_performer(t);
            }
        }
    }
}

/// "Concert of " (or "Concert of the ") right before a kept name: "Concert by ".
fn by_performer(text: &str) -> String {
    let Some(head_end) = text.strip_suffix(" of ").or_else(|| text.strip_suffix(" of the ")) else {
        return text.to_string();
    };
    let head = head_end.rsplit([' ', '(', '\'', '"', '‘', '“']).next().unwrap_or_default();
    if !crate::lang_data::of(Lang::En).performer_heads.has(&head.to_lowercase()) {
        return text.to_string();
    }
    let the = if text.ends_with(" of the ") { "the " } else { "" };
    format!("{head_end} by {the}")
}

fn is_head(word: &str) -> bool {
    crate::lang_data::of(Lang::En).compound_heads.has(&word.to_lowercase())
}

/// The noun after "of" when it stands alone, as it goes before the head
/// (a plural in its singular: "puppets" → "puppet", as English compounds
/// take it), and the punctuation it carries.
fn lone_noun(word: &str) -> Option<(String, &str)> {
    let end = word.find(|c: char| !c.is_alphabetic()).unwrap_or(word.len());
    let (noun, rest) = word.split_at(end);
    let lower = noun.to_lowercase();
    // "plants" is a plural; "circus", "class", "thesis", "robotics" are not.
    let plural = lower.ends_with('s') && !["ics", "ss", "us", "is"].iter().any(|e| lower.ends_with(e));
    let fine = noun.chars().count() >= 3 && !NOT_A_NOUN.contains(&lower.as_str());
    let noun = if plural { pluralizer::pluralize(noun, 1, false) } else { noun.to_string() };
    (fine && rest.chars().all(|c| matches!(c, ':' | ',' | '.' | ';' | ')' | '!' | '?'))).then_some((noun, rest))
}

fn compound_words(text: &str, name_follows: bool) -> String {
    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
    let mut i = 0;
    while i + 2 < words.len() {
        let (head, of) = (&words[i], &words[i + 1]);
        if !(is_head(head) && of == "of") {
            i += 1;
            continue;
        }
        let Some((noun, punct)) = lone_noun(&words[i + 2]) else {
            i += 1;
            continue;
        };
        let next = words.get(i + 3).map(String::as_str);
        let ends = !punct.is_empty()
            || match next {
                // The segment ends after the noun: a kept name may follow it.
                None => !name_follows,
                Some("") => !name_follows || i + 4 < words.len(),
                Some(w) => AFTER.contains(&w),
            };
        if !ends {
            i += 1;
            continue;
        }
        let punct = punct.to_string();
        let head = std::mem::take(&mut words[i]);
        words.splice(i..i + 3, [noun, format!("{head}{punct}")]);
        i += 2;
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::compound_words;

    #[test]
    fn a_lone_noun_goes_before_the_event_noun() {
        assert_eq!(compound_words("Festival of circus in ", true), "circus Festival in ");
        assert_eq!(compound_words("Free workshops of robotics", false), "Free robotics workshops");
        assert_eq!(compound_words("Concert of jazz: ", true), "jazz Concert: ");
        assert_eq!(compound_words("Festival of ", true), "Festival of ");
        assert_eq!(compound_words("Workshop of puppets", false), "puppet Workshop");
        assert_eq!(compound_words("Workshop of activities for children", false), "activity Workshop for children");
        assert_eq!(compound_words("Competition of painting fast", false), "Competition of painting fast");
        assert_eq!(compound_words("Day of the book", false), "Day of the book");
    }

    /// "Concierto de Nistra y Caliza" came out "Concert of Nistra y Caliza"; a
    /// performer after a concert is "by".
    #[test]
    fn a_performer_after_a_concert_is_by() {
        use super::by_performer;
        assert_eq!(by_performer("Concert of "), "Concert by ");
        assert_eq!(by_performer("Christmas Concert of the "), "Christmas Concert by the ");
        assert_eq!(by_performer("Exhibition of "), "Exhibition of ");
        assert_eq!(by_performer("Concert of jazz"), "Concert of jazz");
    }
}
