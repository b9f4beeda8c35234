//! The one scrubber of e-mail addresses and phone numbers (POLICY P5, second
//! line of defence: adapters never read contact fields at all). Every event
//! passes through [`scrub_event`] in the record framework
//! (`records::parse_feed`) before it is stored, translated, logged or
//! exported; every stored text field of it is scrubbed,
//! the postal code is five digits or nothing, and an event whose id looks
//! like contact data is refused.
//!
//! Matching runs on a normalised [`view::View`] of the text (entities and
//! tags decoded, NFKC, zero-width characters gone), and what it finds is cut
//! from the original text, which otherwise stays as it was.
//!
//! Phone numbers are read over a second view ([`fold::Folded`]) where
//! number words are digits and a letter O among digits a zero; the view
//! already reads the digits of other scripts as ASCII ones. Any run of
//! separators (blanks, dots, dashes, `/`, `·`, `•`, `_`, `~`, the Braille
//! blank, a comma without a blank) is one gap, and a Spanish number is nine
//! digits in any grouping. Addresses are read with their
//! spelt-out and bracketed `@` and `.` (`data/pii/address-forms.tsv`).
//!
//! What a person follows is read too: a link that carries an address or a
//! number is cut whole (`wa.me/34…`, `tel:`, a number in a path or query),
//! and what tags and comments hold (an `href`, a `title`) is matched as a
//! text of its own ([`view::hidden`]).
//!
//! Not by a libphonenumber port: the Rust `phonenumber` crate parses and
//! validates one number but has no finder of numbers in free text (its
//! `PhoneNumberMatcher` is not ported), and its validity test would let
//! through numbers of ranges not (yet) assigned, which P5 must still remove.
//!
//! Not for contact fields (adapters do not read them) nor image URLs (P4,
//! `parse::text`).

mod email;
mod fold;
mod view;
pub mod words;

use crate::model::Event;
use crate::parse::screened::Screened;
use fold::Folded;
use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;
use view::View;

/// What replaces a scrubbed address or number.
pub const REDACTED: &str = "[…]";

/// What may part the digits of a number: one run of blanks, dots, dashes of
/// every kind, slashes, middle dots, bullets, underscores, tildes, the
/// Braille blank and parentheses, or a comma with no blank in its run (a
/// comma and a blank part the items of a list: `67, 28014`).
const GAP: &str = r"(?:[\s.\p{Pd}\x{2212}/·•_~\x{2800}()]{1,8}|[.\p{Pd}/·•_~]{0,3},[.\p{Pd}/·•_~]{0,3})";

/// A web or contact link: a scheme (`https://`, `tel:`, `sms:`, `mailto:`,
/// `whatsapp:`), `www.` or a host name with a path (`wa.me/34…`,
/// `api.whatsapp.com/send?phone=…`), up to a blank, a quote or a bracket.
/// Screened ([`crate::parse::screened`]): its `\b`s are Unicode's.
static LINK: LazyLock<Screened> = LazyLock::new(|| {
    Screened::new(
        r#"(?i)(?:\b(?:https?|ftp)://|\b(?:tel|sms|callto|whatsapp|facetime|skype|viber|mailto):|\bwww\.|\b(?:[a-z0-9\-]+\.)+[a-z]{2,}/)[^\s<>"'«»\[\]{}]*"#,
    )
    .expect("link regex")
});

/// The schemes whose link is contact data as soon as it carries a digit or an `@`.
const CONTACT_SCHEMES: &[&str] = &["tel:", "sms:", "callto:", "whatsapp:", "facetime:", "skype:", "viber:", "mailto:"];

/// Whether a link carries a phone number in its path or query: a piece
/// of it between `/`, `?`, `&`, `=`, `#`, `;` or `,` that is a Spanish
/// number (nine digits from 6 to 9, after `34`, `0034` or `+34` or not),
/// or, after a messaging host or a `phone`-like key (`wa.me/447911123456`,
/// `?phone=…`), any run of seven to fifteen digits. A host whose numbers
/// are ids (`data/pii/id-hosts.txt`) has only the second.
fn link_carries_a_number(link: &str) -> bool {
    let lower = link.to_ascii_lowercase();
    let messaging = ["wa.me/", "whatsapp.", "t.me/", "viber.", "signal.me", "phone=", "tel=", "telefono=", "movil=", "number="]
        .iter()
        .any(|m| lower.contains(m));
    lower.split(['/', '?', '&', '=', '#', ';', ',']).any(|piece| {
        let digits = piece.trim_start_matches('+');
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        let national = digits.strip_prefix("0034").or_else(|| digits.strip_prefix("34").filter(|n| n.len() == 9)).unwrap_or(digits);
        (national.len() == 9 && matches!(national.as_bytes()[0], b'6'..=b'9') && (messaging || !words::on_an_id_host(&lower)))
            || (messaging && (7..=15).contains(&digits.len()))
    })
}

/// The links of `view` that carry contact data, whole, added to `found`:
/// a contact scheme with a digit or an `@` (`tel:+34…`, `mailto:…`), a
/// link that carries a number ([`link_carries_a_number`]) or one that holds
/// something [`findings`] found. A link's trailing full stop or bracket is
/// the text's. A number found in a link on a host whose numbers are ids
/// (`data/pii/id-hosts.txt`) with no phone key is an id: `found[phones_from..]`
/// (the numbers) loses it.
fn add_links_with_contact_data(view: &str, found: &mut Vec<(usize, usize)>, phones_from: usize) {
    let mut links = Vec::new();
    for m in LINK.find_iter(view) {
        let link = m.as_str().trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
        let (start, end) = (m.start(), m.start() + link.len());
        let inside = |&(s, e): &(usize, usize)| s < end && e > start;
        let lower = link.to_ascii_lowercase();
        if words::on_an_id_host(&lower) && !link_carries_a_number(link) {
            let mut k = phones_from;
            while k < found.len() {
                if inside(&found[k]) && found[k].0 >= start && found[k].1 <= end {
                    found.remove(k);
                } else {
                    k += 1;
                }
            }
        }
        let scheme = CONTACT_SCHEMES.iter().any(|s| lower.starts_with(s)) && link.bytes().any(|b| b.is_ascii_digit() || b == b'@');
        if scheme || link_carries_a_number(link) || found.iter().any(inside) {
            links.push((start, end));
        }
    }
    found.extend(links);
}

static PHONE: LazyLock<Regex> = LazyLock::new(|| {
    // A Spanish number: nine digits from 6 to 9, in any grouping.
    let national = format!(r"\(?[6-9](?:{GAP}?[0-9]){{8}}");
    let spain = r"(?:\(\s*(?:\+|00)\s*34\s*\)|(?:\+|(?-u:\b)00)\s*34)";
    Regex::new(&format!(
        r"(?x)
          # '34' glued before the nine digits is the prefix without its '+': 'wa.me/34655443302'
          (?:{spain}{GAP}? | 34)? (?P<nat>{national}) (?:\s*/\s*(?:{national}|[0-9]{{1,4}}(?-u:\b)))?
          # any number with its country prefix: '+33 1 23 45 67 89', '0033 1 23 45 46 14'
        | (?:\+|(?-u:\b)00)\s*\(?[1-9][0-9]{{0,2}}\)? (?:{GAP}?\(?[0-9]+\)?){{1,8}}"
    ))
    .expect("phone regex")
});

/// The view's byte ranges that hold an e-mail address or a phone number.
/// The patterns run over the whole view: windows around `@` and digit
/// clusters save nothing measurable and let through a number split over
/// lines and the head of a long local part.
/// A pattern is skipped only on a view where it cannot find anything kept
/// ([`may_hold_email`](email::may_hold_email), [`may_hold_phone`]), and most texts hold neither
/// an `@` nor seven digits: in `perf` samples of an ingest of the
/// 100,000-event bench feed the patterns' scans are 8.4 % without the
/// skip, 3 % with it.
fn findings(view: &str) -> Vec<(usize, usize)> {
    let mut found = email::addresses(view);
    let phones_from = found.len();
    let folded = Folded::of(view);
    let text: &str = &folded.text;
    if may_hold_phone(text) {
        // A candidate refused is tried again from its next character: the
        // `7` of `7 912 345 678` must not hide the number after it.
        // The match alone first: its groups (the slower capture engine)
        // only for a candidate the two cheap tests keep, most are not.
        let mut at = 0;
        while let Some(m) = PHONE.find_at(text, at) {
            let national = || {
                let c = PHONE.captures_at(text, m.start()).expect("the match found from its own start");
                debug_assert_eq!(c.get(0).map(|c| c.range()), Some(m.range()));
                c.name("nat").map(|n| n.range())
            };
            if enough_digits(m.as_str())
                && stands_alone(text, m.start(), m.end())
                && !words::after_a_code_label(&text[..m.start()])
                && national().is_none_or(|n| folded.has_words(n.start, n.end) || grouped(&text[n]))
            {
                found.push(folded.view_range(m.start(), m.end()));
                at = m.end();
            } else {
                at = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
            }
        }
    }
    if memchr::memchr2(b':', b'/', view.as_bytes()).is_some() {
        add_links_with_contact_data(view, &mut found, phones_from);
    }
    found.sort_unstable();
    found
}

/// What [`findings`] finds inside the tags and comments of `original` (a
/// link's `href`, a `title`, a comment's text: what a browser follows or
/// a reader of the source sees), as ranges of `original`.
fn hidden_findings(original: &str) -> Vec<(usize, usize)> {
    if memchr::memchr(b'<', original.as_bytes()).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (at, inner) in view::hidden(original) {
        let v = View::of(&inner);
        for (start, end) in findings(&v.text) {
            let (from, to) = v.original_range(start, end);
            out.push((at + from, at + to));
        }
    }
    out
}

/// Every range of `original` that holds contact data: what the view
/// shows, and what its tags and comments hold.
fn original_findings(original: &str) -> Vec<(usize, usize)> {
    let view = View::of(original);
    let mut found: Vec<(usize, usize)> = findings(&view.text).into_iter().map(|(s, e)| view.original_range(s, e)).collect();
    found.extend(hidden_findings(original));
    found.sort_unstable();
    found
}

/// Whether the digit groups of a national number read as a number: digit
/// by digit, or in groups of two or more, or mixed when the single digits
/// stand together before the last group (`9 1 2 345 678`) and the groups do
/// not count up as a list does (`7 8 9 10 11 12`, `8-10-12-14-16`); a lone
/// digit at the end is the start of something else (`6974.6974 0 0 1`, an
/// SVG path). Digits written as words are not held to this.
fn grouped(national: &str) -> bool {
    let groups: Vec<&str> = national.split(|c: char| !c.is_ascii_digit()).filter(|g| !g.is_empty()).collect();
    let singles: Vec<usize> = (0..groups.len()).filter(|&k| groups[k].len() == 1).collect();
    if singles.is_empty() || singles.len() == groups.len() {
        return true;
    }
    let together = singles.windows(2).all(|w| w[1] == w[0] + 1);
    let at_end = singles.last() == Some(&(groups.len() - 1));
    let values: Vec<u64> = groups.iter().filter_map(|g| g.parse().ok()).collect();
    together && !at_end && !values.windows(2).all(|w| w[0] < w[1])
}

/// Whether [`PHONE`] can find a number [`enough_digits`] keeps in `view`:
/// that takes at least seven ASCII digits.
fn may_hold_phone(view: &str) -> bool {
    // Counted in blocks of 64 into a byte, which the compiler vectorises.
    view.as_bytes().chunks(64).map(|block| block.iter().map(|b| u8::from(b.is_ascii_digit())).sum::<u8>() as usize).sum::<usize>() >= 7
}

/// A phone match must not be part of a longer code: no digit right before
/// or after it, no letter right before it unless they spell a label of a
/// number (`tel934501042`, `data/pii/phone-labels.txt`) or the number is
/// nine digits in a row (`Bizum655443301`), and not joined by
/// a separator to more digits (an ISBN, a reference number, a date). A
/// letter right after it is the text going on (`934501029h`).
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let before: Vec<char> = text[..start].chars().rev().take(2).collect();
    let after: Vec<char> = text[end..].chars().take(2).collect();
    let found = &text[start..end];
    let joiner =
        |c: &char| matches!(c, '-' | '.' | '/' | ',' | '·' | '•' | '_' | '~' | '\u{2800}') || ('\u{2010}'..='\u{2015}').contains(c);
    let joined = |s: &[char]| matches!(s, [j, d, ..] if joiner(j) && d.is_ascii_digit());
    let starts_with_digit = found.starts_with(|c: char| c.is_ascii_digit());
    // `20:00 34 …` is a time, not the `00` of a country prefix.
    let time = found.starts_with("00") && before.first() == Some(&':');
    let glued_before = starts_with_digit
        && match before.first() {
            Some(c) if c.is_ascii_digit() || *c == '_' => true,
            Some(c) if c.is_alphanumeric() => {
                let word: String = text[..start].chars().rev().take_while(|c| c.is_alphabetic()).collect();
                let word: String = word.chars().rev().collect();
                let whole = text[..start - word.len()].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
                // Nine digits in a row glued to letters read as a number
                // whatever the word (`Bizum655443301`, `Reserves937812328`).
                let a_run = matches!(found.len(), 9 | 11) && found.bytes().all(|b| b.is_ascii_digit());
                !(whole && (words::is_label(&word) || a_run))
            }
            _ => false,
        };
    // Letters after it: a short word that ends there (`934501029h`), not
    // the rest of a code (`vgnextoid=934659067b1de810…`).
    let letters = text[end..].chars().take_while(|c| c.is_alphabetic()).count();
    let glued_after = after.first().is_some_and(|c| c.is_numeric() || *c == '_')
        || (letters > 0 && (letters > 3 || text[end..].chars().nth(letters).is_some_and(char::is_alphanumeric)));
    !(glued_before || glued_after || joined(&before) || joined(&after) || time)
}

/// A Spanish number has nine digits (eighteen with its alternative:
/// `917 109 260 / 917 100 558`); one with its country prefix at least seven.
fn enough_digits(s: &str) -> bool {
    let n = s.bytes().filter(u8::is_ascii_digit).count();
    let prefixed = !s.starts_with(|c: char| c.is_ascii_digit() || c == '(') || s.starts_with("00");
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
        let found = original_findings(&cur);
        if found.is_empty() {
            break;
        }
        let mut out = String::with_capacity(cur.len());
        let mut last = 0;
        for (from, to) in found {
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
    !original_findings(text).is_empty()
}

/// Control characters, ANSI escapes and bidi overrides go too: the same
/// steps as every other stored text (`parse::stored`).
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
