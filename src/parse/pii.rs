//! The one place where e-mail addresses and phone numbers are scrubbed out of
//! free text (POLICY P5, second line of defence: adapters never read contact
//! fields at all). Every event passes through [`scrub_event`] before it is
//! stored, translated, logged or exported.

use crate::model::Event;
use regex::Regex;
use std::sync::LazyLock;

/// What replaces a scrubbed address or number.
pub const REDACTED: &str = "[…]";

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi)
        [a-z0-9._%+\-]+ \s* (?: @ | \(at\) | \[at\] | \(arroba\) | \[arroba\] ) \s* [a-z0-9\-]+ (?: \.[a-z0-9\-]+ )* \.[a-z]{2,}",
    )
    .expect("e-mail regex")
});

// Spanish numbers: nine digits starting 6, 7, 8 or 9, solid or in the usual
// groupings (3-3-3, 3-2-2-2, 2-3-2-2, 2-3-4) with spaces, dots or dashes, an
// optional +34 / 0034 / (+34) prefix, and an optional "/734"-style
// alternative ending. Also any "+CC …" international number.
static PHONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?: \(? (?: \+ | \b00 ) \s? 34 \)? [\s.\-]* )?
        \b [6789] (?: \d{8} | \d{2} S \d{3} S \d{3} | \d{2} S \d{2} S \d{2} S \d{2}
                   | \d S \d{3} S \d{2} S \d{2} | \d S \d{3} S \d{4} ) \b
        (?: \s* / \s* \d{2,4} \b )?
      | \+ \s? [1-9] \d{0,2} [\s.\-]? \(? \d{1,4} \)? (?: [\s.\-]? \d ){6,10} \b"
            .replace('S', r"[\s.\-]")
            .as_str(),
    )
    .expect("phone regex")
});

/// Remove e-mail addresses and phone numbers from a text.
pub fn scrub(text: &str) -> String {
    if !might_match(text) || !might_hold_pii(text) {
        return text.to_string();
    }
    scrub_matches(text)
}

/// The regex work of [`scrub`], for a text that passed its pre-checks.
fn scrub_matches(text: &str) -> String {
    let no_mail = EMAIL.replace_all(text, REDACTED);
    let mut out = String::with_capacity(no_mail.len());
    let mut last = 0;
    for m in phones(&no_mail) {
        out.push_str(&no_mail[last..m.start()]);
        out.push_str(REDACTED);
        last = m.end();
    }
    out.push_str(&no_mail[last..]);
    out
}

/// Phone-shaped matches that stand alone: not part of a longer dash- or
/// dot-joined code such as an ISBN or a reference number.
fn phones(text: &str) -> impl Iterator<Item = regex::Match<'_>> {
    PHONE.find_iter(text).filter(move |m| {
        let before = &text.as_bytes()[..m.start()];
        let after = &text.as_bytes()[m.end()..];
        let joined_before = matches!(before, [.., d, b'-' | b'.'] if d.is_ascii_digit());
        let joined_after = matches!(after, [b'-' | b'.', d, ..] if d.is_ascii_digit());
        !joined_before && !joined_after
    })
}

/// Whether a text still holds anything shaped like an e-mail or phone number.
pub fn contains_pii(text: &str) -> bool {
    might_match(text) && (EMAIL.is_match(text) || phones(text).next().is_some())
}

/// A cheap pre-check: no '@'-like marker and fewer than nine digits means no PII.
fn might_hold_pii(text: &str) -> bool {
    // One pass for '@' and the digit count (what it always tested), then the words.
    let (at, digits) = text.bytes().fold((false, 0usize), |(at, n), b| (at | (b == b'@'), n + b.is_ascii_digit() as usize));
    at || digits >= 9 || text.contains("(at)") || text.contains("[at]") || text.contains("arroba")
}

/// Whether [`EMAIL`] or [`PHONE`] could match at all: a strict superset of
/// their matches, so a `false` skips the regexes without changing a result.
/// E-mail needs `@`, or `(`/`[` before an `a` of "at"/"arroba" (its
/// separators, in any case: only `A` folds to `a`). A phone needs `+` (the
/// international branch) or a digit 6–9 at the start of a word followed by
/// eight more digits, at most one separator (`[\s.\-]`) between two digits.
fn might_match(text: &str) -> bool {
    let b = text.as_bytes();
    let marker = b.iter().fold(false, |any, &c| any | (c == b'@') | (c == b'+'));
    let bracket_a =
        b.iter().zip(&b[1.min(b.len())..]).fold(false, |any, (&x, &y)| any | ((x == b'(') | (x == b'[')) & ((y == b'a') | (y == b'A')));
    if marker || bracket_a {
        return true;
    }
    // Nine digits at least: ASCII ones, or characters from U+0660 on (where
    // the other decimal digits lie; in UTF-8 they start with a byte ≥ 0xD9).
    let digits: usize = b.chunks(255).map(|c| c.iter().fold(0u8, |n, &c| n + (c.is_ascii_digit() | (c >= 0xd9)) as u8) as usize).sum();
    if digits < 9 {
        return false;
    }
    (0..b.len()).any(|i| {
        matches!(b[i], b'6'..=b'9') && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) && nine_digits_from(&text[i..])
    })
}

/// Whether `s` starts with nine digits (Unicode, as `\d`), consecutive ones
/// at most one whitespace, '.' or '-' apart.
fn nine_digits_from(s: &str) -> bool {
    let mut digits = 0;
    let mut after_separator = false;
    for c in s.chars() {
        if c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric()) {
            digits += 1;
            if digits == 9 {
                return true;
            }
            after_separator = false;
        } else if !after_separator && (c == '.' || c == '-' || c.is_whitespace()) {
            after_separator = true;
        } else {
            return false;
        }
    }
    false
}

/// Scrub every free-text field of an event, including the publisher's translations.
pub fn scrub_event(ev: &mut Event) {
    scrub_in_place(&mut ev.title);
    scrub_in_place(&mut ev.description);
    for s in [&mut ev.price, &mut ev.audience].into_iter().flatten() {
        scrub_in_place(s);
    }
    let v = &mut ev.venue;
    for s in [&mut v.name, &mut v.address, &mut v.locality, &mut v.district].into_iter().flatten() {
        scrub_in_place(s);
    }
    for s in &mut ev.source_categories {
        scrub_in_place(s);
    }
    for t in &mut ev.translations {
        scrub_in_place(&mut t.title);
        scrub_in_place(&mut t.description);
    }
    // A link carrying a mailto: or tel: is contact data, not an original.
    if ev.url.as_deref().is_some_and(|u| {
        let prefix = |p: &str| u.as_bytes().get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p.as_bytes()));
        prefix("mailto:") || prefix("tel:") || contains_pii(u)
    }) {
        ev.url = None;
    }
}

fn scrub_in_place(s: &mut String) {
    if might_match(s) && might_hold_pii(s) {
        *s = scrub_matches(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // P5: the shapes seen in the real Madrid feed, and the usual Spanish ones.
    #[test]
    fn scrubs_real_world_shapes() {
        let cases = [
            "Correo electrónico: inforetiro@madrid.es Teléfono: 91 376 91 97, en horario",
            "Reservas:\u{a0}taquilla.fernangomez@teatrofernangomez.es\u{a0} /\u{a0} amigos@teatrofernangomez.com. Tlfonos: 913184733 /734.  Este",
            "llamando al teléfono 917109263 el mismo día",
            "a los teléfonos 917 109 260 / 917 100 558.",
            "Llama al +34 600 11 22 33 o al 0034 934 567 890, gratis 900 123 456, (+34) 983 41 23 45",
            "escribe a info (at) example.es o info[arroba]example.com",
            "Call +33 1 23 45 67 89",
        ];
        for c in cases {
            let out = scrub(c);
            assert!(!contains_pii(&out), "left PII in {out:?}");
            assert!(!out.contains("913184") && !out.contains("734."), "{out}");
            assert!(!out.contains('@'), "{out}");
        }
    }

    #[test]
    fn keeps_ordinary_numbers_and_handles() {
        for keep in [
            "Niñ@s de 6 a 12 años, 2025-10-25 a las 19:00, 80 min.",
            "Entrada: 12,50 €. Aforo: 120 personas. CP 28025.",
            "ISBN 978-84-376-0494-7",
            "Sigue a @alomabye en redes",
        ] {
            assert_eq!(scrub(keep), keep);
        }
    }

    /// The functions before the pre-check rewrite (performance only), kept
    /// to prove that it changes no result.
    mod reference {
        use super::super::{EMAIL, REDACTED, phones};

        pub fn might_hold_pii(text: &str) -> bool {
            text.contains('@')
                || text.contains("(at)")
                || text.contains("[at]")
                || text.contains("arroba")
                || text.bytes().filter(u8::is_ascii_digit).count() >= 9
        }

        pub fn scrub(text: &str) -> String {
            if !might_hold_pii(text) {
                return text.to_string();
            }
            let no_mail = EMAIL.replace_all(text, REDACTED);
            let mut out = String::with_capacity(no_mail.len());
            let mut last = 0;
            for m in phones(&no_mail) {
                out.push_str(&no_mail[last..m.start()]);
                out.push_str(REDACTED);
                last = m.end();
            }
            out.push_str(&no_mail[last..]);
            out
        }

        pub fn contains_pii(text: &str) -> bool {
            EMAIL.is_match(text) || phones(text).next().is_some()
        }
    }

    #[test]
    fn no_decimal_digit_between_ascii_and_u0660() {
        // `might_match` counts on it.
        let digit = Regex::new(r"^\d$").unwrap();
        for c in (0x80u32..0x660).filter_map(char::from_u32) {
            assert!(!digit.is_match(&c.to_string()), "{c:?}");
        }
        assert!(digit.is_match("\u{660}"));
    }

    #[test]
    fn pre_checks_change_no_result() {
        const PIECES: &[&str] = &[
            " ",
            "  ",
            "\n",
            "\u{a0}",
            "\u{2003}",
            ".",
            "-",
            "/",
            "(",
            ")",
            "[",
            "]",
            "+",
            "@",
            "at",
            "(at)",
            "[AT]",
            "arroba",
            "(Arroba)",
            "[ARROBA]",
            "(aT)",
            "(a",
            "[A",
            "(Madrid)",
            "info",
            "madrid.es",
            "x_",
            "a",
            "Tel",
            "6",
            "7",
            "8",
            "9",
            "1",
            "0",
            "34",
            "0034",
            "00",
            "91",
            "376",
            "2025",
            "12",
            "\u{661}",
            "\u{966}",
            "²",
            "é",
            "913184733",
            "917 109 260",
            "+34 600 11 22 33",
            "ISBN 978-84-376-0494-7",
            "€",
            "https://www.madrid.es/sites/v/index.jsp?vgnextoid=dce145cbf9a79910VgnVCM100000891ecb1aRCRD",
            "mailto:",
            "TEL:",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut with_pii = 0;
        for _ in 0..60_000 {
            let len = (next() % 20) as usize;
            let t: String = (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
            assert_eq!(might_hold_pii(&t), reference::might_hold_pii(&t), "might_hold_pii {t:?}");
            assert_eq!(scrub(&t), reference::scrub(&t), "scrub {t:?}");
            let has = reference::contains_pii(&t);
            assert_eq!(contains_pii(&t), has, "contains_pii {t:?}");
            with_pii += has as usize;
            let mut in_place = t.clone();
            scrub_in_place(&mut in_place);
            assert_eq!(in_place, reference::scrub(&t), "scrub_in_place {t:?}");
        }
        assert!(with_pii > 1000, "the random texts hold too little PII to prove anything: {with_pii}");
    }
}
