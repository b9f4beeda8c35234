//! The one scrubber of e-mail addresses and phone numbers (POLICY P5, second
//! line of defence: adapters never read contact fields at all). Every event
//! passes through [`scrub_event`] in the record framework
//! (`records::parse_feed`) before it is stored, translated, logged or
//! exported; every stored text field of it is scrubbed,
//! the postal code is five digits or nothing, and an event whose id looks
//! like contact data is refused (issue 10 items 3 and 4).
//!
//! Matching runs on a normalised [`view::View`] of the text (entities and
//! tags decoded, NFKC, zero-width characters gone), and what it finds is cut
//! from the original text, which otherwise stays as it was.
//!
//! Phone numbers are found by a table of patterns, not by a libphonenumber
//! port: the Rust `phonenumber` crate parses and validates one number but
//! cannot find numbers inside free text, and its validity test would let
//! through numbers of ranges not (yet) assigned, which P5 must still remove.
//!
//! Not for contact fields (adapters do not read them) nor image URLs (P4,
//! `parse::text`).

mod view;

use crate::model::Event;
use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;
use view::View;

/// What replaces a scrubbed address or number.
pub const REDACTED: &str = "[…]";

/// Separators inside a number: spaces, dots, dashes of every kind (the
/// hyphen-minus, the Unicode dash punctuation, the minus sign).
const SEP: &str = r"(?:\s*[.\p{Pd}\x{2212}]\s*|\s+)";

/// What a local part and a domain label are made of. Both sets hold every
/// case variant of their members already, so they are matched without
/// `(?i)`: case-folding them again cost a third of the scrubber's setup,
/// about 26 M instructions in every process (issue 14 item 5; the test
/// `the_address_classes_hold_their_case_variants` keeps this true).
const LOCAL_CHAR: &str = r"(?-i:[\p{L}\p{N}\p{M}_%+\-])";
const LABEL_CHAR: &str = r"(?-i:[\p{L}\p{N}\p{M}\-])";

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    let local = format!(r"{LOCAL_CHAR}+(?:\.{LOCAL_CHAR}+)*");
    let label = format!(r"{LABEL_CHAR}+");
    let tld = r"(?:\p{L}{2,}|xn--[a-z0-9\-]+)";
    // `(at)`, `[arroba]`, `{at}`, `<at>`: unmistakable, in any text.
    let at_bracketed = r"\s*[(\[{<]\s*(?:at|arroba)\s*[)\]}>]\s*";
    let dot_word = r"(?:\s*[(\[{<]\s*(?:dot|punto)\s*[)\]}>]\s*|\s+(?:dot|punto)\s+)";
    // A dot with a space before it is a spelt-out one too: `example . es`;
    // one with a space after it only ends a sentence (`info@x.es. Entradas`).
    // After a spaced dot the label is in one case, as an address is written
    // (`. es`, `. ES`): a capitalised word there starts the next sentence of
    // a portal that puts spaces around its full stops (`info@x.es .
    // Animamos a…`, which lost "Animamos" to the address).
    let dot = format!(r"(?:\.|{dot_word})");
    let spaced_dot = r"\s+\.\s*";
    let one_case_label = r"(?-i:\p{Ll}[\p{Ll}\p{N}\p{M}\-]*|\p{Lu}[\p{Lu}\p{N}\p{M}\-]*)";
    let one_case_tld = r"(?-i:\p{Ll}{2,}|\p{Lu}{2,})";
    let domain = format!(r"{label}(?:{dot}{label}|{spaced_dot}{one_case_label})*(?:{dot}{tld}|{spaced_dot}{one_case_tld})");
    Regex::new(&format!(
        r"(?ix)
        (?:mailto:\s*)?
        (?:
            {local} (?: \s*@\s* | {at_bracketed} | \s+arroba\s+ ) {domain}
          # a bare ' at ' only with a spelt-out dot: 'nombre at example dot es'
          | {local} \s+at\s+ {label} {dot_word} {label} (?:{dot}{label})*
        )"
    ))
    .expect("e-mail regex")
});

static PHONE: LazyLock<Regex> = LazyLock::new(|| {
    // The first group of a Spanish number, maybe in parentheses: `91`, `(91)`, `912`, `(912)`.
    let g2 = format!(r"(?:\([6-9][0-9]\)\s*|[6-9][0-9]{SEP})");
    let g3 = format!(r"(?:\([6-9][0-9]{{2}}\)\s*|[6-9][0-9]{{2}}{SEP})");
    let national = format!(
        r"(?:[6-9][0-9]{{8}}
           |{g3}[0-9]{{3}}{SEP}[0-9]{{3}}
           |{g3}[0-9]{{2}}{SEP}[0-9]{{2}}{SEP}[0-9]{{2}}
           |{g3}[0-9]{{6}}
           |{g2}[0-9]{{3}}{SEP}[0-9]{{2}}{SEP}[0-9]{{2}}
           |{g2}[0-9]{{3}}{SEP}[0-9]{{4}}
           |{g2}[0-9]{{7}}
           |{g2}[0-9]{{2}}{SEP}[0-9]{{2}}{SEP}[0-9]{{3}}
           # digit by digit, to slip past a reader: '9 1 2 3 4 5 6 0 9'
           |[6-9](?:[\x20.\-][0-9]){{8}})"
    );
    let spain = r"(?:\(\s*(?:\+|00)\s*34\s*\)|(?:\+|(?-u:\b)00)\s*34)";
    Regex::new(&format!(
        r"(?x)
          (?:{spain}{SEP}?)? {national} (?:\s*/\s*(?:{national}|[0-9]{{2,4}}(?-u:\b)))?
          # any number with its country prefix: '+33 1 23 45 67 89', '0033 1 23 45 46 14'
        | (?:\+|(?-u:\b)00)\s*\(?[1-9][0-9]{{0,2}}\)? (?:{SEP}?\(?[0-9]+\)?){{1,8}}"
    ))
    .expect("phone regex")
});

/// The view's byte ranges that hold an e-mail address or a phone number.
/// The patterns run over the whole view: windows around `@` and digit
/// clusters, tried before, saved nothing measurable (issue 14 item 5) and
/// let through a number split over lines and the head of a long local part.
/// A pattern is skipped only on a view where it cannot find anything kept
/// ([`may_hold_email`], [`may_hold_phone`]), and most texts hold neither
/// an `@` nor seven digits: the patterns' scans were 8.4 % of the `perf`
/// samples of an ingest of the 100,000-event bench feed, and are 3 % so
/// (issue 22).
fn findings(view: &str) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> =
        if may_hold_email(view) { EMAIL.find_iter(view).map(|m| (m.start(), m.end())).collect() } else { Vec::new() };
    if may_hold_phone(view) {
        found.extend(
            PHONE
                .find_iter(view)
                .filter(|m| enough_digits(m.as_str()))
                .map(|m| (m.start(), m.end()))
                .filter(|&(start, end)| stands_alone(view, start, end)),
        );
    }
    found.sort_unstable();
    found
}

/// Whether [`EMAIL`] can match in `view`: every address it finds holds an
/// `@` or a spelt-out `at` or `arroba`, in any case, with a blank or a
/// bracket on either side (`nombre at example dot es`, `nombre(arroba)x.es`).
fn may_hold_email(view: &str) -> bool {
    let b = view.as_bytes();
    if memchr::memchr(b'@', b).is_some() {
        return true;
    }
    let opens = |c: char| c.is_whitespace() || matches!(c, '(' | '[' | '{' | '<');
    let closes = |c: char| c.is_whitespace() || matches!(c, ')' | ']' | '}' | '>');
    memchr::memchr2_iter(b'a', b'A', b).any(|i| {
        let word = if b.get(i + 1).is_some_and(|c| c.eq_ignore_ascii_case(&b't')) {
            2
        } else if b.get(i + 1..i + 6).is_some_and(|w| w.eq_ignore_ascii_case(b"rroba")) {
            6
        } else {
            return false;
        };
        view[i + word..].chars().next().is_some_and(closes) && view[..i].chars().next_back().is_some_and(opens)
    })
}

/// Whether [`PHONE`] can find a number [`enough_digits`] keeps in `view`:
/// that takes at least seven ASCII digits.
fn may_hold_phone(view: &str) -> bool {
    // Counted in blocks of 64 into a byte, which the compiler vectorises.
    view.as_bytes().chunks(64).map(|block| block.iter().map(|b| u8::from(b.is_ascii_digit())).sum::<u8>() as usize).sum::<usize>() >= 7
}

/// A phone match must not be part of a longer code: no letter or digit
/// right before or after it, and not joined by `-`, `.`, `/` or `,` to more
/// digits (an ISBN, a reference number, a date).
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let before: Vec<char> = text[..start].chars().rev().take(2).collect();
    let after: Vec<char> = text[end..].chars().take(2).collect();
    let found = &text[start..end];
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    let joined = |s: &[char]| matches!(s, [j, d, ..] if matches!(j, '-' | '.' | '/' | ',') && d.is_ascii_digit());
    let starts_with_digit = found.starts_with(|c: char| c.is_ascii_digit());
    // `20:00 34 …` is a time, not the `00` of a country prefix.
    let time = found.starts_with("00") && before.first() == Some(&':');
    let glued = (starts_with_digit && word(before.first())) || word(after.first());
    !(glued || joined(&before) || joined(&after) || time)
}

/// A Spanish number has nine digits (eighteen with its alternative:
/// `917 109 260 / 917 100 558`); one with its country prefix at least seven.
fn enough_digits(s: &str) -> bool {
    let n = s.bytes().filter(u8::is_ascii_digit).count();
    let prefixed = !s.starts_with(|c: char| c.is_ascii_digit()) || s.starts_with("00");
    n >= 9 || (prefixed && n >= 7)
}

/// Remove e-mail addresses and phone numbers from a text.
pub fn scrub(text: &str) -> String {
    scrub_cow(text).into_owned()
}

/// [`scrub`], borrowing when there is nothing to remove. Repeats until
/// stable, so that no cut ever joins two halves into something to remove:
/// at most eight rounds, as many as when every event was scrubbed twice
/// (once by the record framework, once by the store's sink).
fn scrub_cow(text: &str) -> Cow<'_, str> {
    let mut cur: Cow<str> = Cow::Borrowed(text);
    for _ in 0..8 {
        let view = View::of(&cur);
        let found = findings(&view.text);
        if found.is_empty() {
            break;
        }
        let mut out = String::with_capacity(cur.len());
        let mut last = 0;
        for (start, end) in found {
            let (from, to) = view.original_range(start, end);
            if from < last {
                last = last.max(to);
                continue;
            }
            out.push_str(&cur[last..from]);
            out.push_str(REDACTED);
            last = to;
        }
        out.push_str(&cur[last..]);
        cur = Cow::Owned(out);
    }
    cur
}

/// Whether a text holds anything shaped like an e-mail or phone number.
pub fn contains_pii(text: &str) -> bool {
    !findings(&View::of(text).text).is_empty()
}

/// Control characters, ANSI escapes and bidi overrides go too: the same
/// steps as every other stored text (`parse::stored`, issue 19).
fn scrub_in_place(s: &mut String) {
    if let Cow::Owned(clean) = crate::parse::controls::without_controls(s) {
        *s = clean;
    }
    if let Cow::Owned(clean) = scrub_cow(s) {
        *s = clean;
    }
}

/// Scrub every stored text field of an event, the publisher's translations
/// included; keep a postal code only when it is five digits. `Err` (a
/// record error, which never quotes the id) when the event's id itself
/// looks like contact data: no scrubbed form of it could serve as an id.
pub fn scrub_event(ev: &mut Event) -> Result<(), String> {
    if contains_pii(&ev.source_event_id) {
        return Err("the record's id looks like an e-mail address or a phone number (P5): record skipped".into());
    }
    scrub_in_place(&mut ev.title);
    scrub_in_place(&mut ev.description);
    for s in [&mut ev.price, &mut ev.audience].into_iter().flatten() {
        scrub_in_place(s);
    }
    let v = &mut ev.venue;
    for s in [&mut v.name, &mut v.address, &mut v.locality, &mut v.province, &mut v.district].into_iter().flatten() {
        scrub_in_place(s);
    }
    v.postal_code = v.postal_code.as_deref().and_then(postal_code);
    for s in &mut ev.source_categories {
        scrub_in_place(s);
    }
    for t in &mut ev.translations {
        scrub_in_place(&mut t.title);
        scrub_in_place(&mut t.description);
    }
    ev.url = ev.url.take().and_then(original_link);
    Ok(())
}

/// A Spanish postal code is five digits: anything else in that field is
/// not one (and may be anything, contact data included).
fn postal_code(s: &str) -> Option<String> {
    let digits: String = View::of(s.trim()).text.chars().filter(|c| !c.is_whitespace()).collect();
    (digits.len() == 5 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// The link to the original (P19): a web address without contact data in
/// it. A `mailto:` or `tel:` link, or one carrying an address or number,
/// is contact data, not an original, and so is any other text in that field
/// that holds some.
fn original_link(u: String) -> Option<String> {
    let lower = u.trim_start().get(..8).unwrap_or(u.trim_start()).to_ascii_lowercase();
    if lower.starts_with("mailto") || lower.starts_with("tel:") || lower.starts_with("sms:") {
        return None;
    }
    (!contains_pii(&u)).then_some(u)
}

#[cfg(test)]
mod tests;
