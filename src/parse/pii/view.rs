//! The text as a matcher should see it, with the way back to the original:
//! HTML entities decoded (`&#64;` is `@`, and what an entity stands for is
//! read as the text around it is: `&#8203;` is invisible, `&#65312;` is
//! `@`), tags and comments dropped (`<span>@</span>`, `r519<!-- x -->@`),
//! a few percent-escapes decoded, once or twice (`mailto%3A…%40…`,
//! `%2540`), the escapes `\u0040` and `\u{40}` read, zero-width characters
//! and soft hyphens removed, odd blanks (the Braille blank `⠀`, fillers)
//! read as a space, a combining mark that stands on no letter dropped (a
//! keycap `9️⃣`, `9̶`), every character in NFKC form (full-width
//! `＠` and digits become ASCII), and the digits of other scripts and the
//! signs of `data/pii/look-alikes.tsv` read as ASCII digits (Arabic-Indic
//! `٩١٢`, Devanagari `९१२`, dingbats `❾❶❷`). What a tag or comment holds
//! (an attribute, a comment's text) is not in the view: [`hidden`] hands it
//! to the matcher apart. Each character of
//! the view remembers the byte range of the original it came from, so a
//! match found in the view
//! removes exactly those bytes from the original, and nothing else changes.
//!
//! Not for display or storage: the view is thrown away after matching.

use super::words;
use std::borrow::Cow;
use std::sync::LazyLock;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// The normalised text and, piece by piece, where it came from.
pub struct View<'a> {
    pub text: Cow<'a, str>,
    /// In the order of the text; empty when the view is the original itself.
    pieces: Vec<Piece>,
}

/// A piece of the view: its first byte in the view, and the original bytes
/// `from..to` it stands for, either copied as they are (byte for byte) or
/// replaced as a whole (a decoded entity, an NFKC form).
struct Piece {
    at: usize,
    from: usize,
    to: usize,
    copied: bool,
}

impl<'a> View<'a> {
    /// The view of `original`; borrowed (no copy) for text without
    /// entities, tags, percent-escapes or invisible characters, whose every
    /// character NFKC leaves as it is: nearly all text.
    pub fn of(original: &'a str) -> View<'a> {
        let mut changes = changes(original).peekable();
        if changes.peek().is_none() {
            return View { text: Cow::Borrowed(original), pieces: Vec::new() };
        }
        let mut text = String::with_capacity(original.len());
        let mut pieces = Vec::new();
        let mut push = |seen: &str, from: usize, to: usize, copied: bool| {
            if !seen.is_empty() {
                pieces.push(Piece { at: text.len(), from, to, copied });
                text.push_str(seen);
            }
        };
        let mut done = 0;
        for (at, seen, len) in changes {
            push(&original[done..at], done, at, true);
            push(&seen, at, at + len, false);
            done = at + len;
        }
        push(&original[done..], done, original.len(), true);
        View { text: Cow::Owned(text), pieces }
    }

    /// The original byte range behind the view's bytes `start..end` (both
    /// on character boundaries): a match that reaches into a replaced piece
    /// takes all of it.
    pub fn original_range(&self, start: usize, end: usize) -> (usize, usize) {
        if self.pieces.is_empty() {
            return (start, end);
        }
        let piece = |pos: usize| &self.pieces[self.pieces.partition_point(|p| p.at <= pos).saturating_sub(1)];
        let first = piece(start);
        let last = piece(end.saturating_sub(1).max(start));
        let from = if first.copied { first.from + (start - first.at) } else { first.from };
        let to = if last.copied { last.from + (end - last.at) } else { last.to };
        (from, to)
    }
}

/// The places where the view differs from `original`, in order: where each
/// starts, what the view holds instead, and how many bytes it replaces.
fn changes(original: &str) -> impl Iterator<Item = (usize, Cow<'_, str>, usize)> {
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            // Only these bytes can start a change: other ASCII stays as it is.
            let at = next_candidate(original.as_bytes(), from)?;
            if original.as_bytes()[at] == 0xC3 {
                // U+00C0..U+00FF, the accented letters: all kept (see `KEPT`'s test).
                from = at + 2;
                continue;
            }
            let c = original[at..].chars().next().expect("a change starts on a char boundary");
            if kept_as_is(c) {
                from = at + c.len_utf8();
                continue;
            }
            match change(original, at, c) {
                Some((seen, len)) => {
                    from = at + len;
                    return Some((at, seen, len));
                }
                None => from = at + c.len_utf8(),
            }
        }
    })
}

/// The first byte at or after `from` that can start a change: `&`, `<`,
/// `%`, `\\` or one that is not ASCII. Eight bytes are tested at a time while
/// none of them is one (bit tricks on a `u64`: a byte with its high bit
/// set, or equal to one of the four). With it an ingest of the
/// 10,000-event bench feed takes 1.7 % fewer instructions than with the
/// byte-by-byte test alone.
fn next_candidate(b: &[u8], mut from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let holds_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH != 0;
    let holds = |w: u64, c: u8| holds_zero(w ^ (ONES * u64::from(c)));
    while let Some(word) = b.get(from..from + 8) {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        if w & HIGH != 0 || holds(w, b'&') || holds(w, b'<') || holds(w, b'%') || holds(w, b'\\') {
            break;
        }
        from += 8;
    }
    b[from..].iter().position(|&c| matches!(c, b'&' | b'<' | b'%' | b'\\') || !c.is_ascii()).map(|k| from + k)
}

/// Below this, whether the view keeps a character as it is comes from a
/// table made once ([`KEPT`]): accented letters, `¿`, `«`, `€`, quotes and
/// dashes are most of what [`changes`] looks at in Spanish text, and the
/// NFKC quick check of each, one at a time, is skipped. With the table and
/// the walk past U+00C0..U+00FF below, an ingest of the 10,000-event bench
/// feed takes 2.5 % fewer instructions.
const TABLED: u32 = 0x3000;

/// For each character from U+0080 below [`TABLED`]: whether [`change`]
/// keeps it as it is (visible, and NFKC leaves it alone).
static KEPT: LazyLock<Vec<bool>> = LazyLock::new(|| {
    (0x80..TABLED)
        .map(|u| {
            char::from_u32(u).is_some_and(|c| {
                !is_invisible(c)
                    && blank(c).is_none()
                    && !is_combining_mark(c)
                    && words::sign_digit(c).is_none()
                    && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes
                    && lookalike_digit(c).is_none()
            })
        })
        .collect()
});

/// Whether the view surely keeps `c` (not ASCII) as it is; `false` when
/// [`change`] has to say.
fn kept_as_is(c: char) -> bool {
    KEPT.get((c as u32).wrapping_sub(0x80) as usize).copied().unwrap_or(false)
}

/// What the view holds instead of the text at byte `at` of `original`,
/// whose first character is `c`, and how many bytes of it that replaces;
/// `None` when the view keeps that character as it is.
#[inline]
fn change(original: &str, at: usize, c: char) -> Option<(Cow<'_, str>, usize)> {
    let rest = || &original[at..];
    match c {
        '&' => entity(rest()).map(|(decoded, len)| (Cow::Owned(read_as_text(&decoded)), len)),
        // Block tags part words; inline ones (`<span>`) and comments join them.
        '<' => tag(rest()).map(|(len, block)| (Cow::Borrowed(if block { " " } else { "" }), len)),
        '%' => percent(rest()).map(|(decoded, len)| (Cow::Borrowed(decoded), len)),
        '\\' => escape(rest()).map(|(decoded, len)| (Cow::Owned(read_as_text(&decoded.to_string())), len)),
        _ if c.is_ascii() => None,
        _ => one(c, original[..at].chars().rev().find(|p| !is_combining_mark(*p))).map(|seen| (seen, c.len_utf8())),
    }
}

/// What the view holds for the character `c` (not ASCII) whose base (the
/// last character before it that is no mark) is `base`: `None` when it
/// keeps it as it is.
fn one(c: char, base: Option<char>) -> Option<Cow<'static, str>> {
    if is_invisible(c) {
        return Some(Cow::Borrowed(""));
    }
    if let Some(b) = blank(c) {
        return Some(Cow::Borrowed(b));
    }
    if is_combining_mark(c) && !base.is_some_and(char::is_alphabetic) {
        // A keycap, a strike-through or an accent on a digit, a blank or `@`.
        return Some(Cow::Borrowed(""));
    }
    if let Some(d) = words::sign_digit(c) {
        let d = usize::from(d - b'0');
        return Some(Cow::Borrowed(&DIGITS[d..=d]));
    }
    if is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes {
        return lookalike_digit(c).map(|d| Cow::Borrowed(&DIGITS[d..=d]));
    }
    Some(Cow::Owned(std::iter::once(c).nfkc().collect()))
}

/// What a decoded entity or escape holds, read as the text around it is
/// read: `&#8203;` is invisible, `&#65312;` is `@`, `&#x2800;` a blank.
fn read_as_text(decoded: &str) -> String {
    let mut out = String::with_capacity(decoded.len());
    let mut base = None;
    for c in decoded.chars() {
        match (c.is_ascii(), one(c, base)) {
            (false, Some(seen)) => out.push_str(&seen),
            _ => out.push(c),
        }
        if !is_combining_mark(c) {
            base = Some(c);
        }
    }
    out
}

/// Odd blanks a text may part an address or a number with: the Braille
/// blank (`q411⠀@⠀example.es`) and the Hangul fillers, read as a space.
fn blank(c: char) -> Option<&'static str> {
    matches!(c, '\u{2800}' | '\u{3164}' | '\u{115F}' | '\u{1160}' | '\u{FFA0}').then_some(" ")
}

/// An escape of a character as JSON or Rust write one, at the start of
/// `s`: `\u0040`, `\u{40}`; the character and the escape's length.
fn escape(s: &str) -> Option<(char, usize)> {
    let b = s.as_bytes();
    if b.get(1) != Some(&b'u') {
        return None;
    }
    let (hex, len) = if b.get(2) == Some(&b'{') {
        let close = s.get(3..12)?.find('}')?;
        (&s[3..3 + close], close + 4)
    } else {
        (s.get(2..6)?, 6)
    };
    if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some((char::from_u32(u32::from_str_radix(hex, 16).ok()?)?, len))
}

const DIGITS: &str = "0123456789";

/// A decimal digit of a script other than ASCII (`\p{Nd}`, which NFKC
/// leaves as it is: `٣`, `३`, `৩`), as its value. Unicode writes each such
/// set as ten characters in a row from zero, so a digit's value is its
/// place in its row.
fn lookalike_digit(c: char) -> Option<usize> {
    static ND: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"^\p{Nd}$").expect("Nd"));
    let is_digit = |c: char| ND.is_match(c.encode_utf8(&mut [0; 4]));
    if c.is_ascii() || !is_digit(c) {
        return None;
    }
    let before = (1..).map_while(|k| char::from_u32((c as u32).checked_sub(k)?).filter(|&p| is_digit(p))).count();
    Some(before % 10)
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

/// A tag or a comment at the start of `s` (`<span class="x">`, `</p>`,
/// `<br/>`, `<!-- x -->`): its length and whether it is a block-level one.
fn tag(s: &str) -> Option<(usize, bool)> {
    let b = s.as_bytes();
    if s.starts_with("<!--") {
        // A comment, shown as nothing: `r519<!-- x -->@ejemplo.es` reads `r519@ejemplo.es`.
        return memchr::memmem::find(&b[4..], b"-->").map(|k| (k + 7, false));
    }
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
/// `%20` space, `%2D` `-`, also escaped twice (`%2540`); the character and
/// the escape's length.
fn percent(s: &str) -> Option<(&'static str, usize)> {
    let code = |hex: &str| -> Option<&'static str> {
        Some(match hex.to_ascii_uppercase().as_str() {
            "40" => "@",
            "3A" => ":",
            "2E" => ".",
            "2B" => "+",
            "20" => " ",
            "2D" => "-",
            _ => return None,
        })
    };
    let hex = s.get(1..3)?;
    if hex == "25"
        && let Some(twice) = s.get(3..5).and_then(code)
    {
        return Some((twice, 5));
    }
    code(hex).map(|c| (c, 3))
}

/// A tag's text with its syntax made blanks, byte for byte: `<`, `>`,
/// quotes, and an `=` before a quote (`href="`); an `=` inside a value
/// stays (`?phone=34…`).
fn blank_syntax(tag: &str) -> String {
    let b = tag.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    for (k, &c) in b.iter().enumerate() {
        let syntax = matches!(c, b'<' | b'>' | b'"' | b'\'' | b'`') || (c == b'=' && matches!(b.get(k + 1), Some(b'"' | b'\'')));
        out.push(if syntax { b' ' } else { c });
    }
    String::from_utf8(out).expect("ASCII bytes replaced by ASCII bytes")
}

/// The tags and comments of `original` that hold something a browser
/// shows or follows apart from the text (an attribute's value, a
/// comment's text): where each starts, and its text with its syntax made
/// blanks ([`blank_syntax`], as long as it, byte for byte), for the matcher
/// to read as a text of its own: `<a href="tel:+34655443302">` reads
/// ` a href  tel:+34655443302  `.
pub fn hidden(original: &str) -> impl Iterator<Item = (usize, String)> + '_ {
    let b = original.as_bytes();
    memchr::memchr_iter(b'<', b).filter_map(move |at| {
        let (len, _) = tag(&original[at..])?;
        let inner = &original[at..at + len];
        inner.contains(['=', '-', ' ']).then(|| (at, blank_syntax(inner)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_reads_what_a_person_reads_p5() {
        let s = "r519<!-- x -->@e.es q\u{2800}@\u{2800}e 9\u{FE0F}\u{20E3}1\u{336}2 jose\u{301} ❾❶ a\\u0040b c\\u{40}d e%2540f g&#8203;@h i&#65312;j";
        assert_eq!(View::of(s).text, "r519@e.es q @ e 912 jose\u{301} 91 a@b c@d e@f g@h i@j");
        let v = View::of(s);
        let at = v.text.find("c@d").unwrap();
        let (from, to) = v.original_range(at, at + 3);
        assert_eq!(&s[from..to], "c\\u{40}d");
        let hidden: Vec<(usize, String)> = hidden("x <a href=\"tel:+34 6\">y</a> <b>").collect();
        assert_eq!(hidden, [(2, " a href  tel:+34 6  ".to_string())]);
    }

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
    fn the_table_of_kept_characters_agrees_with_change() {
        for c in (0x80..0x3100).filter_map(char::from_u32) {
            let text = c.to_string();
            if kept_as_is(c) {
                assert_eq!(change(&text, 0, c), None, "{c:?} is kept by the table but changed by `change`");
            } else if (c as u32) < TABLED {
                assert!(change(&text, 0, c).is_some(), "{c:?} is changed by the table but kept by `change`");
            }
        }
        assert!(('\u{C0}'..='\u{FF}').all(kept_as_is), "the view's walk skips U+00C0..U+00FF without a look");
        assert!(kept_as_is('ñ') && kept_as_is('€') && !kept_as_is('\u{00A0}') && !kept_as_is('\u{200B}') && !kept_as_is('ｶ'));
    }

    #[test]
    fn the_eight_byte_test_finds_the_byte_the_plain_walk_finds() {
        let plain = |b: &[u8], from: usize| {
            b[from..].iter().position(|&c| matches!(c, b'&' | b'<' | b'%' | b'\\') || !c.is_ascii()).map(|k| from + k)
        };
        for mark in ["&", "<", "%", "\\", "é", "\u{200B}", "\u{7F}"] {
            for at in 0..20 {
                let text = format!("{}{mark}{}", "a".repeat(at), "b".repeat(at % 9));
                for from in 0..text.len() {
                    assert_eq!(next_candidate(text.as_bytes(), from), plain(text.as_bytes(), from), "{text:?} from {from}");
                }
            }
        }
    }

    #[test]
    fn lone_marks_are_text() {
        for s in ["a < b y c > d", "50 % de 20", "R&D; AT&T", "<3 <>"] {
            assert_eq!(View::of(s).text, s);
        }
    }

    /// The view built the plain way, one map entry per character of it,
    /// kept as the oracle of the pieces: each change as `change` says,
    /// every other character as it is.
    fn per_character(original: &str) -> (String, Vec<(usize, usize, usize)>) {
        let (mut text, mut map) = (String::new(), Vec::new());
        let mut i = 0;
        while i < original.len() {
            let c = original[i..].chars().next().unwrap();
            let (seen, len) = change(original, i, c).unwrap_or(((&original[i..i + c.len_utf8()]).into(), c.len_utf8()));
            for ch in seen.chars() {
                map.push((text.len(), i, i + len));
                text.push(ch);
            }
            i += len;
        }
        (text, map)
    }

    #[test]
    fn pieces_map_back_as_one_entry_per_character_did() {
        let fixtures = [
            include_str!("../../../data/samples/fixtures/pii/madrid_forms.json"),
            include_str!("../../../data/samples/fixtures/pii/esmadrid_forms.xml"),
            include_str!("../../../data/samples/fixtures/pii/diba_forms.json"),
            include_str!("../../../data/samples/fixtures/pii/jcyl_forms.json"),
        ];
        let odd = [
            "e\u{301}te",
            "a…b",
            "ﬁn ½ ① ｔｅｌ\u{A0}９",
            "x\u{200B}\u{AD}y",
            "<span></span>@<b>x</b>",
            "&amp;amp;&#64;&zz;",
            "%2e%2E%zz%4",
            "<p><br/>q",
            "r519<!-- x -->@ejemplo.es <a href=\"mailto:q@x.es\">",
            "q411\u{2800}@\u{2800}x.es 9\u{FE0F}\u{20E3}1\u{336} \u{301}a\u{301} ❾❶",
            "r\\u0040x.es r\\u{40}x %2540 %25 &#8203;@ &#65312; \\u00",
        ];
        let texts = fixtures.iter().chain(super::super::tests::FORMS).chain(super::super::tests::KEEP).chain(&odd);
        for original in texts {
            let view = View::of(original);
            let (text, map) = per_character(original);
            assert!(view.text == text, "{original:?}");
            let old_range = |start: usize, end: usize| {
                let at = |pos: usize| map.binary_search_by_key(&pos, |m| m.0).unwrap_or_else(|k| k.saturating_sub(1));
                (map[at(start)].1, map[at(end.saturating_sub(1).max(start))].2)
            };
            let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
            for (k, &start) in bounds.iter().enumerate() {
                for &end in bounds[k + 1..].iter().take(16) {
                    assert_eq!(view.original_range(start, end), old_range(start, end), "{:?}", &text[start..end]);
                }
            }
        }
    }
}
