//! The one gate of every text CityVibe stores or shows that did not come
//! through an adapter's parser: engine answers, PO/XLIFF imports, operator
//! corrections, term entries, attribution overrides and error messages.
//! Each passes the same steps as feed text: control characters, ANSI
//! escapes and bidi overrides removed, markup stripped (`parse::text`),
//! contact data scrubbed (`parse::pii`, P5) and the 64 KB a field may hold
//! ([`FIELD_CAP`]).
//!
//! [`line()`] and [`block()`] clean a text to store; [`refusal`] says why an
//! operator's text must be refused instead (contact data, or over the cap:
//! an operator is told, not silently cut); [`message`] makes an error text
//! safe to print or store.
//!
//! Not for feed events as a whole: `parse::pii::scrub_event` walks an
//! event's fields with the same steps, inside the record framework.

use crate::parse::controls::without_controls;
use crate::parse::{pii, text};
use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

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
/// when it may be stored, once cleaned by [`line()`] or [`block()`].
pub fn refusal(raw: &str) -> Option<String> {
    if raw.len() > FIELD_CAP {
        return Some(format!("is {} bytes, over the {} KB a text may hold", raw.len(), FIELD_CAP >> 10));
    }
    pii::contains_pii(&without_controls(raw)).then(|| "holds an e-mail address or a phone number (P5)".to_string())
}

/// An error text as it may be printed or stored: one line, without control
/// bytes, escapes read back (see [`unescaped`]), contact data scrubbed,
/// each of `secrets` hidden, cut short.
pub fn message(raw: &str, secrets: &[&str]) -> String {
    let mut s = text::one_line(&unescaped(&without_controls(raw)));
    for secret in secrets.iter().filter(|k| k.len() >= 4) {
        s = s.replace(secret, "[key]");
    }
    let s = pii::scrub(&s);
    match s.char_indices().nth(MESSAGE_CHARS) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s,
    }
}

/// A message with the escapes of Rust's `{:?}` and of JSON read back
/// (`\u{a0}`, `\u200b`, `\u{200b}`), so that the scrubber reads what they
/// hide: `912\u{a0}345\u{a0}617` is a number. A second
/// line of defence: messages quote no value ([`withhold_values`]).
pub fn unescaped(s: &str) -> Cow<'_, str> {
    static ESCAPE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\\u(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))").expect("escape"));
    if !s.contains("\\u") {
        return Cow::Borrowed(s);
    }
    ESCAPE.replace_all(s, |c: &regex::Captures| {
        let hex = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
        u32::from_str_radix(hex, 16).ok().and_then(char::from_u32).map_or_else(|| c[0].to_string(), String::from)
    })
}

/// A parser's error message with the values it quotes withheld: a quoted
/// string (`string "912 345 617"`, `'x'`) and a value in backticks
/// (`integer \`912345617\``, `unknown variant \`x\``), but not the name of
/// a field the record lacks (`missing field \`id\``). A record error says
/// which field and what is wrong, never the value.
pub fn withhold_values(message: &str) -> String {
    static QUOTED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(missing field |duplicate field )?(?:`[^`]*`|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"#).expect("quoted")
    });
    QUOTED
        .replace_all(message, |c: &regex::Captures| if c.get(1).is_some() { c[0].to_string() } else { "(value withheld)".to_string() })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn messages_quote_no_value_and_escapes_hide_nothing() {
        let serde = "invalid type: string \"912\u{a0}345\", expected u64 at line 1 column 9; unknown variant `q8@x.es`; missing field `id`";
        assert_eq!(
            withhold_values(serde),
            "invalid type: string (value withheld), expected u64 at line 1 column 9; unknown variant (value withheld); missing field `id`"
        );
        assert_eq!(unescaped("a 912\\u{a0}345\\u00a0617 q8\\u{200b}@x.es"), "a 912\u{a0}345\u{a0}617 q8\u{200b}@x.es");
        let m = message("bad start date \"q8\\u{200b}@example.es\" or \"912\\u{a0}345\\u{a0}617\"", &[]);
        assert!(!m.contains("example") && !m.contains("345"), "{m}");
    }

    #[test]
    fn messages_are_one_short_clean_line_without_the_key() {
        let m = message("bad key sk-SECRET-1\x1B[2J\nwrite to a@b.es", &["sk-SECRET-1"]);
        assert_eq!(m, format!("bad key [key] write to {}", pii::REDACTED));
        assert_eq!(message(&"é".repeat(1000), &[]).chars().count(), MESSAGE_CHARS + 1);
    }
}
