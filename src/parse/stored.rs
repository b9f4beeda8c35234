//! The one gate of every text CityVibe stores or shows that did not come
//! through an adapter's parser: engine answers, PO/XLIFF imports, operator
//! corrections, term entries, attribution overrides and error messages
//! (issue 19, "one scrubber and one checker"). Each passes the same steps
//! as feed text: control characters, ANSI escapes and bidi overrides
//! removed, markup stripped (`parse::text`), contact data scrubbed
//! (`parse::pii`, P5) and the 64 KB a field may hold ([`FIELD_CAP`]).
//!
//! [`line`] and [`block`] clean a text to store; [`refusal`] says why an
//! operator's text must be refused instead (contact data, or over the cap:
//! an operator is told, not silently cut); [`message`] makes an error text
//! safe to print or store.
//!
//! Not for feed events as a whole: `parse::pii::scrub_event` walks an
//! event's fields with the same steps, inside the record framework.

use crate::parse::{pii, text};
use std::borrow::Cow;

/// The most one stored text may hold, in bytes, whatever brought it: a
/// feed's field (the record framework cuts there, `records::FIELD_CAP`),
/// an import, a correction. A longer text is cut at the last character
/// boundary before it: no real description comes near it, and a poison
/// text must not reach the database or a translation engine whole.
pub const FIELD_CAP: usize = 64 * 1024;

/// The longest error text printed or stored, in characters.
const MESSAGE_CHARS: usize = 300;

/// A one-line text (a title, a venue, an attribution) as it may be stored.
pub fn line(raw: &str) -> String {
    finish(text::html_to_line(&without_controls(raw)))
}

/// A text of several lines (a description) as it may be stored.
pub fn block(raw: &str) -> String {
    finish(text::html_to_text(&without_controls(raw)))
}

/// Scrubbed, then cut to the cap, then scrubbed once more: a cut may leave
/// what reads as contact data (ten digits cut to nine).
fn finish(s: String) -> String {
    let mut s = pii::scrub(&s);
    if s.len() > FIELD_CAP {
        s.truncate(s.floor_char_boundary(FIELD_CAP));
        s = pii::scrub(&s);
    }
    s
}

/// Why an operator's text (an import, a correction) is refused rather
/// than stored: contact data (P5) or more than a field may hold. `None`
/// when it may be stored, once cleaned by [`line`] or [`block`].
pub fn refusal(raw: &str) -> Option<String> {
    if raw.len() > FIELD_CAP {
        return Some(format!("is {} bytes, over the {} KB a text may hold", raw.len(), FIELD_CAP >> 10));
    }
    pii::contains_pii(&without_controls(raw)).then(|| "holds an e-mail address or a phone number (P5)".to_string())
}

/// An error text as it may be printed or stored: one line, without control
/// bytes, contact data scrubbed, each of `secrets` hidden, cut short.
pub fn message(raw: &str, secrets: &[&str]) -> String {
    let mut s = text::one_line(&without_controls(raw));
    for secret in secrets.iter().filter(|k| k.len() >= 4) {
        s = s.replace(secret, "[key]");
    }
    let s = pii::scrub(&s);
    match s.char_indices().nth(MESSAGE_CHARS) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s,
    }
}

/// Whether a character may not be part of a stored text: C0 controls but
/// tab and line ends, DEL, C1 controls, and the bidi embeddings, overrides
/// and isolates that make a text read otherwise than it is stored.
pub fn is_forbidden(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0B' | '\x0C' | '\x0E'..='\x1F' | '\x7F'..='\u{9F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `s` without control characters, ANSI escape sequences (the whole
/// sequence, not only its ESC) and bidi overrides; borrowed when it holds
/// none, as nearly every text does.
pub fn without_controls(s: &str) -> Cow<'_, str> {
    if !holds_forbidden(s.as_bytes()) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1B' {
            skip_escape(&mut chars);
        } else if !is_forbidden(c) {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `b` (UTF-8) holds a character [`is_forbidden`]: one pass over
/// the bytes, since every feed field goes through it (`pii::scrub_event`).
fn holds_forbidden(b: &[u8]) -> bool {
    b.iter().enumerate().any(|(i, &c)| match c {
        b'\t' | b'\n' | b'\r' => false,
        0..0x20 | 0x7F => true,
        // C1 controls: U+0080..U+009F.
        0xC2 => b.get(i + 1).is_some_and(|n| (0x80..=0x9F).contains(n)),
        // U+202A..U+202E and U+2066..U+2069.
        0xE2 => matches!((b.get(i + 1), b.get(i + 2)), (Some(0x80), Some(0xAA..=0xAE)) | (Some(0x81), Some(0xA6..=0xA9))),
        _ => false,
    })
}

/// Skips the rest of an escape sequence whose ESC was just read: CSI
/// (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC \`), or one character.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.next() {
        Some('[') => {
            for c in chars.by_ref() {
                if ('\x40'..='\x7E').contains(&c) {
                    break;
                }
            }
        }
        Some(']') => {
            while let Some(c) = chars.next() {
                if c == '\x07' || (c == '\x1B' && chars.next_if_eq(&'\\').is_some()) {
                    break;
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_escapes_and_bidi_go_text_stays() {
        for c in (0..=0x3000u32).filter_map(char::from_u32) {
            assert_eq!(holds_forbidden(c.to_string().as_bytes()), is_forbidden(c), "{c:?}");
        }
        assert!(matches!(without_controls("Concierto — día 3\n\tsala"), Cow::Borrowed(_)));
        assert_eq!(without_controls("a\x1B[31mroja\x1B[0m b\u{202E}c\0d\x07"), "aroja bcd");
        assert_eq!(without_controls("x\x1B]0;title\x07y\x1B]8;;u\x1B\\z"), "xyz");
    }

    #[test]
    fn line_and_block_strip_markup_scrub_and_cap() {
        assert_eq!(line("<b>Jazz</b><script>alert(1)</script> en\nla sala"), "Jazz en la sala");
        assert_eq!(block("Uno<p>Dos</p>"), "Uno\nDos");
        assert!(!line("reservas: a@b.es o 912 345 678").contains("912"));
        assert!((FIELD_CAP - 2..=FIELD_CAP).contains(&line(&"x ".repeat(FIELD_CAP)).len()));
        assert!(refusal(&"x".repeat(FIELD_CAP + 1)).is_some());
        assert!(refusal("escribe a pii06 @ example . es").is_some());
        assert!(refusal("Concierto a las 20:00, 12 €").is_none());
    }

    #[test]
    fn messages_are_one_short_clean_line_without_the_key() {
        let m = message("bad key sk-SECRET-1\x1B[2J\nwrite to a@b.es", &["sk-SECRET-1"]);
        assert_eq!(m, format!("bad key [key] write to {}", pii::REDACTED));
        assert_eq!(message(&"é".repeat(1000), &[]).chars().count(), MESSAGE_CHARS + 1);
    }
}
