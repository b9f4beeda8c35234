//! House style, applied to every engine's output before it is stored:
//! English titles in title case (British usage: short function words lower
//! case), no doubled spaces or a blank before a comma or full stop left by a
//! dropped unknown word, and the kept-span marks removed. A kept name comes
//! back byte for byte: style never touches it.
//!
//! Not for: deciding what is a name (`protect`) or engine framing.

/// Which field a text is: titles get title case in English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Title,
    Description,
}

impl Field {
    pub fn from_name(name: &str) -> Field {
        if name == "title" { Field::Title } else { Field::Description }
    }
}

/// Bumped whenever the output of [`finish`] changes for the same engine
/// output, so cached translations are made again (it is part of cache keys).
pub const VERSION: u32 = 1;

/// Words English title case leaves in lower case unless they come first.
const SMALL_WORDS: &[&str] = &[
    "a", "an", "the", "and", "but", "or", "nor", "for", "at", "by", "in", "of", "on", "to", "up", "as", "via", "vs", "per", "from", "with",
    "into", "onto",
];

#[derive(Debug, PartialEq)]
enum Segment {
    Plain(String),
    Name(String),
}

/// The output cut into the kept names (found again by their exact text,
/// longest first) and the words around them.
fn segments(output: &str, names: &[String]) -> Vec<Segment> {
    let mut names: Vec<&str> = names.iter().map(String::as_str).filter(|n| !n.is_empty()).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for name in names {
        for (at, _) in output.match_indices(name) {
            let end = at + name.len();
            if spans.iter().all(|&(a, b)| end <= a || at >= b) {
                spans.push((at, end));
            }
        }
    }
    spans.sort_unstable();
    let mut out = Vec::new();
    let mut last = 0;
    for (a, b) in spans {
        if a > last {
            out.push(Segment::Plain(output[last..a].to_string()));
        }
        out.push(Segment::Name(output[a..b].to_string()));
        last = b;
    }
    if last < output.len() {
        out.push(Segment::Plain(output[last..].to_string()));
    }
    out
}

/// The engine's output for one text in house style for `lang`; `names` are
/// the spans kept for it, which come back byte for byte.
pub fn finish(output: &str, names: &[String], lang: &str, field: Field) -> String {
    let mut segs = segments(output, names);
    for s in &mut segs {
        if let Segment::Plain(t) = s {
            *t = tidy_blanks(t);
        }
    }
    if lang == "en" && field == Field::Title {
        title_case(&mut segs);
    }
    let mut out = String::with_capacity(output.len());
    for s in segs {
        let t = match s {
            Segment::Plain(t) | Segment::Name(t) => t,
        };
        // Two blanks meeting at a span's edge.
        if out.ends_with(' ') && t.starts_with(' ') {
            out.push_str(t.trim_start_matches(' '));
        } else {
            out.push_str(&t);
        }
    }
    out
}

/// Runs of spaces become one; a space left before `,` `.` or `)` by a
/// dropped word goes (French spaces before `:;!?` are typography, kept).
fn tidy_blanks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ' ' && out.ends_with(' ') {
            continue;
        }
        if matches!(c, ',' | '.' | ')') && out.ends_with(' ') && out.len() > 1 {
            let trimmed = out.trim_end_matches(' ');
            if !trimmed.is_empty() && !trimmed.ends_with(['\n', '.', ',']) {
                out.truncate(trimmed.len());
            }
        }
        out.push(c);
    }
    out
}

/// Capitalises each word of the plain segments but the small ones; the
/// first word, and any after a colon, full stop, dash or opening bracket,
/// always.
fn title_case(segs: &mut [Segment]) {
    let mut first = true;
    for s in segs.iter_mut() {
        match s {
            Segment::Name(t) => {
                if t.chars().any(char::is_alphanumeric) {
                    first = false;
                }
                if t.trim_end().ends_with([':', '.', '—', '–', '(', '«', '"']) {
                    first = true;
                }
            }
            Segment::Plain(t) => {
                let mut out = String::with_capacity(t.len());
                let mut word = String::new();
                let flush = |word: &mut String, out: &mut String, first: &mut bool| {
                    if word.is_empty() {
                        return;
                    }
                    let letters: String = word.chars().skip_while(|c| !c.is_alphanumeric()).collect();
                    let lead = &word[..word.len() - letters.len()];
                    let bare = letters.trim_end_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
                    let small = SMALL_WORDS.contains(&bare.as_str()) && !*first;
                    if !small && !letters.is_empty() {
                        out.push_str(lead);
                        out.push_str(&super::terms::capitalize(&letters));
                    } else {
                        out.push_str(word);
                    }
                    if !letters.is_empty() {
                        *first = false;
                    }
                    if word.ends_with([':', '.', '—', '–', '(', '?', '!'])
                        || letters.is_empty() && word.contains(['—', '–', '-', '(', '«', '"'])
                    {
                        *first = true;
                    }
                    word.clear();
                };
                for c in t.chars() {
                    if c.is_whitespace() {
                        flush(&mut word, &mut out, &mut first);
                        out.push(c);
                    } else {
                        word.push(c);
                    }
                }
                flush(&mut word, &mut out, &mut first);
                *t = out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn english_titles_get_title_case_but_names_stay_as_they_are() {
        let out = "storytelling in the library of Eloy de la Iglesia: a tale of the sea";
        let kept = names(&["Eloy de la Iglesia"]);
        assert_eq!(finish(out, &kept, "en", Field::Title), "Storytelling in the Library of Eloy de la Iglesia: A Tale of the Sea");
        assert_eq!(finish(out, &kept, "en", Field::Description), out);
        assert_eq!(finish(out, &kept, "fr", Field::Title), out);
    }

    #[test]
    fn blanks_are_tidied() {
        assert_eq!(finish("book club of  the month ,  celebrate  soon", &[], "en", Field::Title), "Book Club of the Month, Celebrate Soon");
        assert_eq!(finish("a  b", &[], "fr", Field::Description), "a b");
        assert_eq!(finish("Quoi ? Rien !", &[], "fr", Field::Description), "Quoi ? Rien !");
        assert_eq!(finish("at  Teatro  X", &names(&["Teatro  X"]), "en", Field::Description), "at Teatro  X");
    }
}
