//! The text as a matcher should see it, with the way back to the original:
//! HTML entities decoded (`&#64;` is `@`), tags dropped (`<span>@</span>`),
//! a few percent-escapes decoded (`mailto%3A…%40…`), zero-width characters
//! and soft hyphens removed, and every character in NFKC form (full-width
//! `＠` and digits become ASCII). Each character of the view remembers the
//! byte range of the original it came from, so a match found in the view
//! removes exactly those bytes from the original, and nothing else changes.
//!
//! Not for display or storage: the view is thrown away after matching.

use std::borrow::Cow;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// The normalised text and, per character of it, where it came from.
pub struct View<'a> {
    pub text: Cow<'a, str>,
    /// `(view byte offset, original start, original end)` per view
    /// character; empty when the view is the original itself.
    map: Vec<(usize, usize, usize)>,
}

impl<'a> View<'a> {
    /// The view of `original`; borrowed (no copy) for text without
    /// entities, tags, percent-escapes or invisible characters that NFKC
    /// leaves as it is, which is nearly all text.
    pub fn of(original: &'a str) -> View<'a> {
        // `&`, `<` and `%` are common in links and prices; only an entity, a
        // tag or an escape of interest makes the view differ.
        let plain = !original.bytes().enumerate().any(|(i, b)| match b {
            b'&' => entity(&original[i..]).is_some(),
            b'<' => tag(&original[i..]).is_some(),
            b'%' => percent(&original[i..]).is_some(),
            _ => false,
        });
        if plain && (original.is_ascii() || (!original.chars().any(is_invisible) && is_nfkc_quick(original.chars()) == IsNormalized::Yes)) {
            return View { text: Cow::Borrowed(original), map: Vec::new() };
        }
        let mut text = String::with_capacity(original.len());
        let mut map = Vec::with_capacity(original.len());
        let mut push = |text: &mut String, s: &str, from: usize, to: usize| {
            for c in s.chars() {
                map.push((text.len(), from, to));
                text.push(c);
            }
        };
        let mut i = 0;
        while i < original.len() {
            let rest = &original[i..];
            let c = rest.chars().next().expect("i is on a char boundary");
            if c == '&'
                && let Some((decoded, len)) = entity(rest)
            {
                push(&mut text, &decoded, i, i + len);
                i += len;
                continue;
            }
            if c == '<'
                && let Some((len, block)) = tag(rest)
            {
                // Block tags part words; inline ones (`<span>`) join them.
                if block {
                    push(&mut text, " ", i, i + len);
                }
                i += len;
                continue;
            }
            if c == '%'
                && let Some(decoded) = percent(rest)
            {
                push(&mut text, decoded, i, i + 3);
                i += 3;
                continue;
            }
            let end = i + c.len_utf8();
            if is_invisible(c) {
            } else if c.is_ascii() || is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes {
                push(&mut text, &original[i..end], i, end);
            } else {
                let n: String = std::iter::once(c).nfkc().collect();
                push(&mut text, &n, i, end);
            }
            i = end;
        }
        View { text: Cow::Owned(text), map }
    }

    /// The original byte range behind the view's bytes `start..end`.
    pub fn original_range(&self, start: usize, end: usize) -> (usize, usize) {
        if self.map.is_empty() {
            return (start, end);
        }
        let at = |pos: usize| match self.map.binary_search_by_key(&pos, |m| m.0) {
            Ok(k) => k,
            Err(k) => k.saturating_sub(1),
        };
        let first = self.map[at(start)];
        let last = self.map[at(end.saturating_sub(1).max(start))];
        (first.1, last.2)
    }
}

/// Zero-width characters and the soft hyphen: invisible, so they may hide
/// inside an address (`nombre\u{200B}@example.es`).
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}' | '\u{180E}')
}

/// An HTML entity at the start of `s` (`&#64;`, `&#x40;`, `&commat;`, and
/// once more when escaped twice: `&amp;#64;`): its text and its length.
fn entity(s: &str) -> Option<(String, usize)> {
    let end = s.bytes().take(34).position(|b| b == b';')?;
    let name = &s[1..end];
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'#') {
        return None;
    }
    let decoded = htmlize::unescape(&s[..=end]).into_owned();
    if decoded == s[..=end] {
        return None;
    }
    if decoded == "&"
        && let Some((again, len)) = entity(&s[end..].replacen(';', "&", 1))
    {
        return Some((again, end + len));
    }
    Some((decoded, end + 1))
}

/// A tag at the start of `s` (`<span class="x">`, `</p>`, `<br/>`): its
/// length and whether it is a block-level one.
fn tag(s: &str) -> Option<(usize, bool)> {
    let b = s.as_bytes();
    let name_at = 1 + usize::from(matches!(b.get(1), Some(b'/' | b'!')));
    if !b.get(name_at).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let len = b.iter().take(512).position(|&c| c == b'>')? + 1;
    if b[1..len - 1].contains(&b'<') {
        return None;
    }
    let name: String = s[name_at..len].chars().take_while(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
    let inline = ["span", "a", "b", "i", "em", "strong", "u", "small", "font", "sup", "sub", "mark", "wbr"];
    Some((len, !inline.contains(&name.as_str())))
}

/// A percent-escape at the start of `s` for a character that may be part of
/// an address or a number: `%40` `@`, `%3A` `:`, `%2E` `.`, `%2B` `+`,
/// `%20` space, `%2D` `-`.
fn percent(s: &str) -> Option<&'static str> {
    let hex = s.get(1..3)?;
    Some(match hex.to_ascii_uppercase().as_str() {
        "40" => "@",
        "3A" => ":",
        "2E" => ".",
        "2B" => "+",
        "20" => " ",
        "2D" => "-",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::View;

    #[test]
    fn view_decodes_and_maps_back() {
        let s = "a&#64;b <span>x</span>＠ y\u{200B}z mailto%3Ac%40d &amp;#64; <p>q";
        let v = View::of(s);
        assert_eq!(v.text, "a@b x@ yz mailto:c@d @  q");
        let at = v.text.find("c@d").unwrap();
        let (from, to) = v.original_range(at, at + 3);
        assert_eq!(&s[from..to], "c%40d");
        let (from, to) = v.original_range(1, 2);
        assert_eq!(&s[from..to], "&#64;");
        assert!(matches!(View::of("plain text 12").text, std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn lone_marks_are_text() {
        for s in ["a < b y c > d", "50 % de 20", "R&D; AT&T", "<3 <>"] {
            assert_eq!(View::of(s).text, s);
        }
    }
}
