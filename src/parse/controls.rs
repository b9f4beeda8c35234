//! Characters no stored text may hold: C0 and C1 controls (but tab and
//! line ends), ANSI escape sequences whole, and the bidi embeddings,
//! overrides and isolates that make a text read otherwise than it is
//! stored. A leaf of `parse`: the stored-text gate (`stored`) and the
//! contact-data scrubber (`pii`) both remove them.
//!
//! Not for: markup (`text`) or contact data (`pii`).

use std::borrow::Cow;

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

/// Whether `b` (UTF-8) holds a character [`is_forbidden`]. Every feed
/// field goes through it (`pii::scrub_event`), so it first tests 64-byte
/// blocks for a byte that can start one (below a space, DEL, or the lead
/// bytes 0xC2 and 0xE2), a test the compiler vectorises, and looks closer
/// only in a block that has one. In `perf` samples of an ingest of the
/// 100,000-event bench feed: 3.6 % byte by byte, 1.4 to 1.8 % so.
fn holds_forbidden(b: &[u8]) -> bool {
    const BLOCK: usize = 64;
    let may_start = |c: u8| c < 0x20 || c == 0x7F || c == 0xC2 || c == 0xE2;
    b.chunks(BLOCK).enumerate().any(|(k, block)| {
        block.iter().fold(false, |seen, &c| seen | may_start(c)) && (k * BLOCK..k * BLOCK + block.len()).any(|i| starts_forbidden(b, i))
    })
}

/// Whether the character at byte `i` of `b` (UTF-8) is [`is_forbidden`].
fn starts_forbidden(b: &[u8], i: usize) -> bool {
    match b[i] {
        b'\t' | b'\n' | b'\r' => false,
        0..0x20 | 0x7F => true,
        // C1 controls: U+0080..U+009F.
        0xC2 => b.get(i + 1).is_some_and(|n| (0x80..=0x9F).contains(n)),
        // U+202A..U+202E and U+2066..U+2069.
        0xE2 => matches!((b.get(i + 1), b.get(i + 2)), (Some(0x80), Some(0xAA..=0xAE)) | (Some(0x81), Some(0xA6..=0xA9))),
        _ => false,
    }
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
        // Found in any block, at a block's edge, and with its bytes split over two blocks.
        for at in [0, 1, 62, 63, 64, 65, 127, 200] {
            let mut text = "a".repeat(at);
            text.push('\u{202E}');
            text.push_str(&"b".repeat(130));
            assert!(holds_forbidden(text.as_bytes()), "bidi override at byte {at}");
            assert!(!holds_forbidden(text.replace('\u{202E}', "\u{2014}").as_bytes()), "dash at byte {at}");
        }
        assert_eq!(without_controls("a\x1B[31mroja\x1B[0m b\u{202E}c\0d\x07"), "aroja bcd");
        assert_eq!(without_controls("x\x1B]0;title\x07y\x1B]8;;u\x1B\\z"), "xyz");
    }
}
