//! How the scrubber reads an e-mail address (P5): the patterns of an
//! address, with its `@` and `.` written as signs, spelt out or bracketed
//! (`data/pii/address-forms.tsv`), the weak form whose `@` is a word that
//! is mostly something else (`r502 en ejemplo punto es`), and the cheap
//! test that skips a text where no address can be.
//!
//! Not for phone numbers or links (`pii`), nor for cutting what is found
//! out of the text (`pii::scrub`).

use super::words;
use regex::Regex;
use std::sync::LazyLock;

/// The view's byte ranges that hold an e-mail address, in the order found
/// (those of the weak form after the others).
pub(super) fn addresses(view: &str) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = if may_hold_email(view) {
        EMAIL.find_iter(view).filter(|m| !names_a_website(m.as_str())).map(|m| (m.start(), m.end())).collect()
    } else {
        Vec::new()
    };
    if DOT_WORD.is_match(view) {
        let weak = EMAIL_WEAK.captures_iter(view).filter(|c| c.name("label").is_some_and(|l| weak_address(l.as_str())));
        found.extend(weak.filter_map(|c| c.get(0)).map(|m| (m.start(), m.end())));
    }
    found
}

/// What a local part and a domain label are made of. Both sets hold every
/// case variant of their members already, so they are matched without
/// `(?i)`: case-folding them again costs a third of the scrubber's setup,
/// about 26 M instructions in every process (the test
/// `the_address_classes_hold_their_case_variants` keeps this true).
pub(super) const LOCAL_CHAR: &str = r"(?-i:[\p{L}\p{N}\p{M}_%+\-])";
pub(super) const LABEL_CHAR: &str = r"(?-i:[\p{L}\p{N}\p{M}\-])";

/// `(?:a|b|c)` of the forms of one kind in `data/pii/address-forms.tsv`.
fn forms(kind: &str) -> String {
    let all: Vec<String> = words::address_forms(kind).iter().map(|f| regex::escape(f)).collect();
    format!("(?:{})", all.join("|"))
}

pub(super) static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    let brackets = words::address_forms("brackets");
    let side = |k: usize| {
        let chars: String = brackets.iter().filter_map(|b| b.split(' ').nth(k)).map(regex::escape).collect::<Vec<_>>().join("|");
        format!("(?:{chars})")
    };
    let (open, close) = (side(0), side(1));
    let (at_word, at_sure, dot_word) = (forms("at-word"), forms("at-sure"), forms("dot-word"));
    let (at_bracketed, dot_bracketed, dot_sign, dot_glued) =
        (forms("at-bracketed"), forms("dot-bracketed"), forms("dot-sign"), forms("dot-glued"));
    let provider = forms("provider");
    // `(at)`, `[@]`, `(a)`, `-at-`, `_at_`, `«at»`: unmistakable, in any text.
    let at_enclosed = format!(r"\s*(?:{open}\s*(?:{at_word}|{at_bracketed})\s*{close}|-{at_word}-|_{at_word}_)\s*");
    let dot_enclosed =
        format!(r"(?:\s*(?:{open}\s*(?:{dot_word}|{dot_bracketed})\s*{close}|-{dot_word}-|_{dot_word}_)\s*|\s*{dot_sign}\s*)");
    let dot_spelt = format!(r"(?:{dot_enclosed}|\s+{dot_word}\s+)");
    // A quoted local part: `"r504"@ejemplo.es`.
    // Its content neither starts nor ends with a blank, and it is followed by
    // a whole domain only: in JSON, `"key": [ { "@type"` is a closing quote,
    // blanks and an opening one before a keyword, not a quoted local part.
    let quoted = r#"(?:"[^"\s@](?:[^"\n@]{0,62}[^"\s@])?"|“[^”\s@](?:[^”\n@]{0,62}[^”\s@])?”)"#;
    let plain_local = format!(r"(?:{LOCAL_CHAR}+(?:(?:\.|{dot_enclosed}){LOCAL_CHAR}+)*)");
    let local = format!(r"(?:{quoted}|{plain_local})");
    let label = format!(r"{LABEL_CHAR}+");
    let tld = r"(?:\p{L}{2,}|xn--[a-z0-9\-]+)";
    // A dot with a space before it is a spelt-out one too: `example . es`;
    // one with a space after it only ends a sentence (`info@x.es. Entradas`).
    // After a spaced dot the label is in one case, as an address is written
    // (`. es`, `. ES`): a capitalised word there starts the next sentence of
    // a portal that puts spaces around its full stops (`info@x.es .
    // Animamos a…`, which lost "Animamos" to the address).
    let dot = format!(r"(?:\.|{dot_spelt})");
    let spaced_dot = r"\s+\.\s*";
    let one_case_label = r"(?-i:\p{Ll}[\p{Ll}\p{N}\p{M}\-]*|\p{Lu}[\p{Lu}\p{N}\p{M}\-]*)";
    let one_case_tld = r"(?-i:\p{Ll}{2,}|\p{Lu}{2,})";
    // An IP literal: `r506@[192.168.1.20]`, `r507@10.0.0.7`, `[IPv6:…]`.
    let ip = r"(?:\[\s*(?:IPv6:[0-9a-f:.]+|[0-9]{1,3}(?:\.[0-9]{1,3}){3})\s*\]|[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?-u:\b))";
    // The last dot may be a glued comma: `ejemplo,es` (`dot-glued`).
    let domain = format!(
        r"(?:{ip}|{label}(?:{dot}{label}|{spaced_dot}{one_case_label})*(?:{dot}{tld}|{spaced_dot}{one_case_tld}|{dot_glued}{one_case_tld}))"
    );
    // After a bare ` at `, a domain whose top-level domain is in one case:
    // `maria.lopez at example.es`, `at example . es`, not `Concert at Palau.The show`.
    let bare_domain = format!(r"{label}(?:{dot}{label})*(?:{dot}|{spaced_dot}){one_case_tld}");
    // An `@` glued to the local part or with a blank on both sides: a
    // handle after a word (`Sigue a @teatro.real`) has a blank before only.
    let at = format!(r"(?:@\s*|\s+@\s+|{at_enclosed}|\s+{at_sure}\s+)");
    Regex::new(&format!(
        r"(?ix)
        (?:mailto:\s*)?
        (?:
            {local} {at} {domain}
          # a bare ' at ': 'nombre at example dot es', 'maria at example.es'
          | {local} \s+{at_word}\s+ {bare_domain}
          # an address without its top-level domain: 'reservas@gmail'
          | {plain_local} (?:@|{at_enclosed}) \p{{L}}{{3}}{LABEL_CHAR}*
          # or with a blank by its '@', of a mail provider: 'r505 @ gmail'
          | {plain_local} (?:@\s+|\s+@\s*) {provider}(?-u:\b)
        )"
    ))
    .expect("e-mail regex")
});

/// An address whose `@` is a word that is mostly something else (`en`,
/// `at-weak`): only with every dot spelt as a word and a top-level domain
/// of the `tld` list (`r502 en ejemplo punto es`); [`weak_address`] then
/// refuses a first label that a sentence puts after `en` (`en este punto es`).
static EMAIL_WEAK: LazyLock<Regex> = LazyLock::new(|| {
    let (at_weak, dot_word, tld) = (forms("at-weak"), forms("dot-word"), forms("tld"));
    Regex::new(&format!(
        r"(?x) {LOCAL_CHAR}+(?:\.{LOCAL_CHAR}+)* \s+(?i:{at_weak})\s+ (?P<label>{LABEL_CHAR}+)
          (?:\s+(?i:{dot_word})\s+{LABEL_CHAR}+)* \s+(?i:{dot_word})\s+ (?i:{tld})(?-u:\b)"
    ))
    .expect("weak e-mail regex")
});

/// A dot spelt as a word between blanks: what every [`EMAIL_WEAK`] match holds.
static DOT_WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!(r"(?i)\s{}\s", forms("dot-word"))).expect("dot word regex"));

/// Whether a [`EMAIL_WEAK`] match's first label may be a domain: not a
/// word a sentence puts after `en` (`not-domain`, the function words of
/// Spanish, Catalan and Galician).
fn weak_address(label: &str) -> bool {
    use crate::lang::Lang;
    let word = label.to_lowercase();
    !words::address_forms("not-domain").contains(&word.as_str())
        && ![Lang::Es, Lang::Ca, Lang::Gl].iter().any(|&l| crate::lang_data::of(l).function_words.has(&word))
}

/// A bare ` at ` before `www.` introduces a website, not an address:
/// `Tickets at www.example.com`.
fn names_a_website(found: &str) -> bool {
    let lower = found.to_lowercase();
    lower.split_whitespace().collect::<Vec<_>>().windows(2).any(|w| w[0] == "at" && w[1].starts_with("www."))
}

/// Whether [`EMAIL`] can match in `view`: every address it finds holds an
/// `@` or a spelt-out `at`, `arroba` or `arrova`, in any case, with a blank, a
/// bracket, a dash or an underscore on either side (`nombre at example dot
/// es`, `nombre(arroba)x.es`, `maria-at-x-dot-es`), or a bracketed `a`
/// (`reservas(a)x.es`).
pub(super) fn may_hold_email(view: &str) -> bool {
    let b = view.as_bytes();
    memchr::memchr(b'@', b).is_some() || word_initial_as(b).any(|i| spelt_at(view, i))
}

/// The places of an `a` or `A` after a byte that is no ASCII letter or
/// digit: where [`spelt_at`] can hold (it needs a blank, a bracket, a dash
/// or an underscore before the `a`, so never at the start). Blocks of 32
/// bytes are tested at once, in a form the compiler vectorises, and only a
/// block holding one is walked: most `a`s are inside words. Before, every
/// `a` of a text was tried (`memchr2`). With it, the block digit search of
/// `fold` and the capture engine run only on kept candidates, valgrind
/// counts 1.984 → 1.887 G instructions (−4.9 %) for an ingest of a
/// generated 10,000-event feed (docs/BENCHMARKS.md, 2026-12-03).
fn word_initial_as(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    // Branch-free, on fixed blocks, so that the compiler vectorises it.
    fn hit(c: u8, before: u8) -> u8 {
        let letter = (before | 0x20).wrapping_sub(b'a') < 26;
        let digit = before.wrapping_sub(b'0') < 10;
        u8::from((c | 0x20) == b'a') & !(u8::from(letter) | u8::from(digit)) & 1
    }
    fn block(b: &[u8], k: usize) -> bool {
        match (b.get(k..k + 32), b.get(k - 1..k + 31)) {
            (Some(cur), Some(prev)) => {
                let (cur, prev): (&[u8; 32], &[u8; 32]) = (cur.try_into().expect("32"), prev.try_into().expect("32"));
                (0..32).fold(0u8, |any, j| any | hit(cur[j], prev[j])) != 0
            }
            _ => (k..b.len()).any(|i| hit(b[i], b[i - 1]) != 0),
        }
    }
    (1..b.len())
        .step_by(32)
        .filter(move |&k| block(b, k))
        .flat_map(move |k| (k..(k + 32).min(b.len())).filter(move |&i| hit(b[i], b[i - 1]) != 0))
}

/// Whether the `a` at byte `i` of `view` starts a spelt-out `at` or
/// `arroba` between blanks, brackets, dashes or underscores, or stands
/// bracketed as `(a)`.
pub(super) fn spelt_at(view: &str, i: usize) -> bool {
    let b = view.as_bytes();
    let opens = |c: char| c.is_whitespace() || matches!(c, '(' | '[' | '{' | '<' | '«' | '-' | '_');
    let closes = |c: char| c.is_whitespace() || matches!(c, ')' | ']' | '}' | '>' | '»' | '-' | '_');
    let bracket_opens = |c: char| matches!(c, '(' | '[' | '{' | '<' | '«');
    let bracket_closes = |c: char| matches!(c, ')' | ']' | '}' | '>' | '»');
    let before = view[..i].chars().next_back();
    let word = if b.get(i + 1).is_some_and(|c| c.eq_ignore_ascii_case(&b't')) {
        2
    } else if b.get(i + 1..i + 6).is_some_and(|w| w.eq_ignore_ascii_case(b"rroba") || w.eq_ignore_ascii_case(b"rrova")) {
        6
    } else {
        // `(a)`, `[ a ]`
        let next = view[i + 1..].trim_start().chars().next();
        let prev = view[..i].trim_end().chars().next_back();
        return prev.is_some_and(bracket_opens) && next.is_some_and(bracket_closes);
    };
    view[i + word..].chars().next().is_some_and(closes) && before.is_some_and(opens)
}
