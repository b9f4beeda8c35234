//! Set phrases of the fields around an event's text: a publisher's price
//! ("Entrada libre hasta completar aforo", "16 euros", "Gratuït") and audience
//! ("Niños,Familias") said in a reader's language, from
//! `data/lang/LANG/phrases.tsv` (built in; a linguist edits the file, each with
//! examples a test runs). An amount is written back as the language writes it
//! ("€12" in English, "12 €" in French).
//!
//! A price is matched whole, else sentence by sentence; it is said in the
//! reader's language only when every sentence is, never half (a price no
//! phrase covers is an engine's to translate, `plan`, or shown as
//! published; the caller says which).
//!
//! Not for: titles and descriptions (the engines' work), nor interface words
//! (`i18n`).

use crate::lang::Lang;
use crate::lang_data::{self, LangCode};
use regex::Regex;
use std::sync::OnceLock;

/// What a phrase says: a price or an audience.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Price,
    Audience,
}

impl Kind {
    fn from_name(name: &str) -> Option<Kind> {
        match name {
            "price" => Some(Kind::Price),
            "audience" => Some(Kind::Audience),
            _ => None,
        }
    }
}

/// One phrase: the publisher's wording as a pattern, and ours.
struct Phrase {
    kind: Kind,
    from: String,
    pattern: Regex,
    /// The slot names of `pattern`'s groups, in order (`n`, `place`).
    slots: Vec<String>,
    ours: String,
}

/// An example line of a phrase file: (kind, language, publisher's text, what a reader sees or `-`).
pub type Example = (Kind, String, String, String);

/// One language's phrases.
pub struct Phrases {
    decimal: String,
    phrases: Vec<Phrase>,
    examples: Vec<Example>,
}

/// The phrases into `lang` (none for a language with no file).
pub fn into(lang: Lang) -> &'static Phrases {
    // Each language's patterns are built the first time it is asked for.
    static ALL: [OnceLock<Phrases>; Lang::ALL.len()] = [const { OnceLock::new() }; Lang::ALL.len()];
    static NONE: Phrases = Phrases { decimal: String::new(), phrases: Vec::new(), examples: Vec::new() };
    let file = &lang_data::of(lang).phrases;
    match Lang::CODES.iter().position(|code| *code == lang.code()).filter(|_| file.exists()) {
        Some(i) => ALL[i].get_or_init(|| Phrases::parse(Lang::CODES[i], file.text()).unwrap_or_else(|e| panic!("{e}"))),
        None => &NONE,
    }
}

impl Phrases {
    /// Reads one phrase file; a malformed line is an error naming it.
    pub fn parse(lang: &'static str, text: &str) -> Result<Phrases, String> {
        let mut out = Phrases { decimal: ",".into(), phrases: Vec::new(), examples: Vec::new() };
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let at = || format!("data/lang/{lang}/phrases.tsv line {}", i + 1);
            let cols: Vec<&str> = line.split('\t').collect();
            match cols.as_slice() {
                ["decimal", mark] => out.decimal = mark.to_string(),
                ["example", kind, from, text, expected] => {
                    let kind = Kind::from_name(kind).ok_or_else(|| format!("{}: unknown kind {kind:?}", at()))?;
                    out.examples.push((kind, from.to_string(), text.to_string(), expected.to_string()));
                }
                [kind, from, phrase, ours] => {
                    let kind = Kind::from_name(kind).ok_or_else(|| format!("{}: unknown kind {kind:?}", at()))?;
                    let (pattern, slots) = pattern(phrase).map_err(|e| format!("{}: {e}", at()))?;
                    out.phrases.push(Phrase { kind, from: from.to_string(), pattern, slots, ours: ours.to_string() });
                }
                _ => return Err(format!("{}: expected `kind, language, phrase, ours` separated by tabs", at())),
            }
        }
        Ok(out)
    }

    /// The file's example lines.
    pub fn examples(&self) -> &[Example] {
        &self.examples
    }

    /// The price text `text`, written in `from`, in this language; `None`
    /// when a sentence of it has no phrase. Sentence by sentence first, so
    /// that a slot of words never swallows the next sentence.
    pub fn price(&self, text: &str, from: &str) -> Option<String> {
        let text = squeeze(text);
        let by_sentence = || -> Option<String> {
            let mut out = String::new();
            for (sentence, separator) in sentences(&text) {
                out.push_str(&self.phrase(Kind::Price, sentence, from)?);
                out.push_str(separator);
            }
            Some(out)
        };
        by_sentence().or_else(|| self.phrase(Kind::Price, &text, from))
    }

    /// The audience `text` (items separated by commas), written in `from`,
    /// in this language; `None` when an item has no phrase. With `partial`,
    /// an item with no phrase is kept as written instead.
    pub fn audience(&self, text: &str, from: &str, partial: bool) -> Option<String> {
        let items: Option<Vec<String>> = squeeze(text)
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| self.phrase(Kind::Audience, item, from).or_else(|| partial.then(|| item.to_string())))
            .collect();
        items.map(|items| items.join(", "))
    }

    /// The first phrase of `kind` from `from` matching all of `text` (a
    /// final full stop aside, which is kept), with its slots filled.
    fn phrase(&self, kind: Kind, text: &str, from: &str) -> Option<String> {
        let core = text.trim().trim_end_matches('.').trim_end();
        let stop = if core.len() < text.trim().len() { "." } else { "" };
        self.phrases.iter().filter(|p| p.kind == kind && p.from == from).find_map(|p| {
            let caps = p.pattern.captures(core)?;
            let values: Vec<(&str, String)> = p
                .slots
                .iter()
                .enumerate()
                .map(|(i, slot)| {
                    let value = caps.get(i + 1).map_or("", |m| m.as_str());
                    let value = if slot == "n" { value.replace([',', '.'], &self.decimal) } else { value.trim().to_string() };
                    (slot.as_str(), value)
                })
                .collect();
            Some(fill(&p.ours, &values) + stop)
        })
    }
}

/// Non-breaking spaces and runs of blanks as one space.
fn squeeze(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c == '\u{a0}').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
}

/// The sentences of a price text, each with the separator after it (". ",
/// "; " or nothing at the end); a full stop inside a number or a word does
/// not end a sentence.
fn sentences(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if matches!(bytes[i], b'.' | b';') && bytes.get(i + 1) == Some(&b' ') {
            let mut end = i + 1;
            // Several stops ("Plaza Mayor..") end one sentence.
            while end < bytes.len() && bytes[end] == b'.' {
                end += 1;
            }
            out.push((&text[start..i], if bytes[i] == b';' { "; " } else { ". " }));
            start = end + 1;
            i = start;
            continue;
        }
        i += 1;
    }
    out.push((&text[start..], ""));
    out
}

/// `ours` with each `{slot}` replaced by the next value of that slot.
fn fill(ours: &str, values: &[(&str, String)]) -> String {
    let mut used = vec![false; values.len()];
    let mut out = String::new();
    let mut rest = ours;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else { break };
        out.push_str(&rest[..open]);
        let name = &rest[open + 1..close];
        if let Some(i) = (0..values.len()).find(|&i| !used[i] && values[i].0 == name) {
            used[i] = true;
            out.push_str(&values[i].1);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The letters a folded letter stands for: case and accents are ignored.
fn letter_class(c: char) -> Option<&'static str> {
    Some(match crate::parse::text::fold(&c.to_string()).as_str() {
        "a" => "aáàâä",
        "e" => "eéèêë",
        "i" => "iíìïî",
        "o" => "oóòöô",
        "u" => "uúùüû",
        "n" => "nñ",
        "c" => "cç",
        "'" | "’" => "'’",
        _ => return None,
    })
}

/// The pattern of a publisher's phrase: whole text only, any case and
/// accents, blanks as any blanks (none needed beside an amount: "3euros"),
/// `{n}` an amount, any other `{slot}` some words.
fn pattern(phrase: &str) -> Result<(Regex, Vec<String>), String> {
    let mut re = String::from("(?i)^");
    let mut slots = Vec::new();
    let mut chars = phrase.trim().chars().peekable();
    let mut after_amount = false;
    while let Some(c) = chars.next() {
        if c == '{' {
            let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase()) {
                return Err(format!("bad slot {{{name}}} in {phrase:?}"));
            }
            if name == "n" {
                if re.ends_with(r"\s+") {
                    re.truncate(re.len() - 3);
                    re.push_str(r"\s*");
                }
                re.push_str(r"(\d+(?:[.,]\d+)?)");
            } else {
                re.push_str("(.+?)");
            }
            after_amount = name == "n";
            slots.push(name);
            continue;
        }
        if c.is_whitespace() {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            re.push_str(if after_amount { r"\s*" } else { r"\s+" });
        } else if let Some(class) = letter_class(c) {
            re.push('[');
            re.push_str(class);
            re.push(']');
        } else {
            re.push_str(&regex::escape(&c.to_string()));
        }
        after_amount = false;
    }
    re.push('$');
    Regex::new(&re).map(|r| (r, slots)).map_err(|e| format!("{phrase:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example of every phrase file holds (a new phrase is a data
    /// edit with its example, no Rust change).
    #[test]
    fn every_example_of_the_phrase_files_holds() {
        let mut checked = 0;
        for lang in Lang::ALL {
            let phrases = into(lang);
            for (kind, from, text, expected) in phrases.examples() {
                let got = match kind {
                    Kind::Price => phrases.price(text, from),
                    Kind::Audience => phrases.audience(text, from, false),
                };
                let want = (expected != "-").then(|| expected.clone());
                assert_eq!(got, want, "data/lang/{lang}/phrases.tsv: example {text:?} from {from}");
                checked += 1;
            }
        }
        assert!(checked >= 7 * 10, "{checked} examples");
    }

    /// Every phrase's own slots are the ones its rendering uses.
    #[test]
    fn every_phrase_fills_the_slots_it_has() {
        for lang in Lang::CODES {
            for line in lang_data::of(lang)
                .phrases
                .text()
                .lines()
                .filter(|l| !l.starts_with('#') && !l.starts_with("example") && l.matches('\t').count() == 3)
            {
                let cols: Vec<&str> = line.split('\t').collect();
                let slots = |s: &str| {
                    let mut v: Vec<String> = s.split('{').skip(1).filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string())).collect();
                    v.sort();
                    v
                };
                assert_eq!(slots(cols[2]), slots(cols[3]), "data/lang/{lang}/phrases.tsv: {line}");
            }
        }
    }

    #[test]
    fn a_malformed_line_is_named() {
        let e = Phrases::parse("en", "price\tes\tGratis").err().unwrap();
        assert!(e.contains("data/lang/en/phrases.tsv line 1"), "{e}");
        assert!(Phrases::parse("en", "colour\tes\ta\tb").is_err());
    }

    #[test]
    fn sentences_keep_their_separators() {
        assert_eq!(
            sentences("Gratuita. Se celebrará en la Plaza Mayor.."),
            vec![("Gratuita", ". "), ("Se celebrará en la Plaza Mayor..", "")]
        );
        assert_eq!(sentences("12 € adults; 8 €"), vec![("12 € adults", "; "), ("8 €", "")]);
        assert_eq!(sentences("3.50 euros"), vec![("3.50 euros", "")]);
    }
}
