//! The translation knowledge as data: the word lists and small rules of
//! `data/lang/LANG/` (names lists, connectors, contractions, elisions,
//! venue heads with their gender, title-case small words, English general
//! nouns…), one plain file per kind and language that a linguist reads and
//! edits, built into the binary like the term base. The files are read
//! once by [`crate::lang_data`], below every layer (the ingest's description
//! labels read one); this module holds what the translation makes of them.
//!
//! Each file says what it is for in its `#` head, and holds its examples as
//! `# example[ LANG][ title]: INPUT => EXPECTED` lines, and inputs its rule
//! must leave alone as `# unchanged[ LANG][ title]: INPUT` lines (as
//! LanguageTool's rule files have), which one test runs (see the tests
//! below): adding a given name, a contraction or a venue gender is a line
//! of data with an example, and a test fails when the example does not hold. The cache key of a finished translation carries a digest of
//! the files its languages read ([`digest`]), so an edit of the data
//! finishes again what it may change, with no version bumped by hand; the
//! code that finishes counts by its version, [`FINISH_VERSION`].
//!
//! Not for: the mechanism that applies the data (`prepare`, `finish`), or
//! the term base (`terms`, `data/terms/`).

use crate::lang::Lang;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::lang_data::{self, DataFile};

/// The version of what is done to an engine's answer before it is stored
/// (`finish`: house style, mends, names put back), in every finished
/// translation's cache key. Raise it by hand, by one, in the commit that
/// changes what finishing writes for some answer: the next run then
/// finishes every stored engine answer again, locally, and rewrites the
/// texts that change, asking the engine nothing. A change that writes the
/// same text (a comment, a move, a faster way) leaves it, and the next run
/// rewrites nothing. `send::need::finish_golden` (tests/golden/finish.jsonl) holds recorded
/// engine answers with what finishing made of them: it fails when the
/// output changes and this number did not.
pub const FINISH_VERSION: u32 = 19;

/// Whether `text` opens with a vowel, accented or not, in either case
/// (`data/lang/vowels.txt`): what a word before it elides before.
pub fn starts_with_vowel(text: &str) -> bool {
    let vowels = lang_data::shared().vowels.lines();
    text.chars().next().is_some_and(|c| vowels.iter().any(|v| v.chars().eq(c.to_lowercase())))
}

/// Whether `field` of texts into `lang` goes to Apertium as it is and
/// comes back as Apertium gives it (`LANG/plain.txt`).
pub fn plain(lang: Lang, field: crate::vocab::Field) -> bool {
    lang_data::of(lang).plain.has(field.as_str())
}

/// Whether `lang` puts an adjective before its noun (`LANG/word-order.txt`).
pub fn adjective_first(lang: Lang) -> bool {
    lang_data::of(lang).word_order.has("adjective-before-noun")
}

/// Whether `lang` writes titles in sentence case (`LANG/titles.txt`).
pub fn sentence_case_titles(lang: Lang) -> bool {
    lang_data::of(lang).titles.has("sentence case")
}

/// Whether `lang` writes edition ordinals its own way (`LANG/ordinals.tsv`).
pub fn has_ordinals(lang: Lang) -> bool {
    !lang_data::of(lang).ordinals.is_empty()
}

/// How `lang` writes the ordinal `n` (`LANG/ordinals.tsv`): the figures and
/// the ending of the line for `=n`, else of the longest line the figures
/// end with, else of `*`; `None` where that ending is `-` (kept as the
/// publisher wrote it) or the language has no such file.
pub fn ordinal(lang: Lang, n: u32) -> Option<String> {
    let figures = n.to_string();
    let exact = format!("={figures}");
    let rows: Vec<Vec<&str>> = lang_data::of(lang).ordinals.rows().filter(|r| r.len() == 2).collect();
    let ending = rows.iter().find(|r| r[0] == exact).or_else(|| {
        rows.iter()
            .filter(|r| !r[0].starts_with('=') && (r[0] == "*" || figures.ends_with(r[0])))
            .max_by_key(|r| if r[0] == "*" { 0 } else { r[0].len() })
    })?;
    (ending[1] != "-").then(|| format!("{figures}{}", ending[1]))
}

/// A digest of what translating Spanish into `tgt` reads: the shared
/// files, the Spanish ones, the target language's own (but the set phrases,
/// which the reader's view applies), and the version of the code that
/// finishes a translation ([`FINISH_VERSION`]), not its source: a release
/// that changes no output changes no key.
pub fn digest(tgt: &str) -> String {
    static DIGESTS: OnceLock<std::sync::Mutex<HashMap<String, String>>> = OnceLock::new();
    let memo = DIGESTS.get_or_init(Default::default);
    let mut memo = memo.lock().unwrap_or_else(|e| e.into_inner());
    memo.entry(tgt.to_string()).or_insert_with(|| digest_of(tgt)).clone()
}

fn digest_of(tgt: &str) -> String {
    let mut h = Sha256::new();
    h.update(format!("finish/{FINISH_VERSION}\0").as_bytes());
    for file in
        translation_files().filter(|f| !f.path().contains('/') || f.path().starts_with("es/") || f.path().starts_with(&format!("{tgt}/")))
    {
        h.update(file.path().as_bytes());
        h.update([0u8]);
        h.update(file.text().as_bytes());
        h.update([0u8]);
    }
    hex::encode(&h.finalize()[..8])
}

/// Every file of `data/lang/` that house style and the span finder read:
/// all but the set phrases (`phrases`, with examples of their own).
pub fn translation_files() -> impl Iterator<Item = &'static DataFile> {
    lang_data::files().filter(|f| !Lang::ALL.iter().any(|l| std::ptr::eq(*f, &lang_data::of(l).phrases)))
}

/// One example of a data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The file it stands in.
    pub path: &'static str,
    /// The language whose output it shows (`None`: the file's own, or the
    /// Spanish span finder for Spanish files).
    pub lang: Option<String>,
    /// Whether it shows a title (English title case).
    pub title: bool,
    /// Whether its input is a Catalan original (`example catalan en:`),
    /// which takes the routes from Catalan.
    pub catalan: bool,
    pub input: String,
    /// What the rule makes of it; `None`: the input as it is (an
    /// `unchanged` line, an input the rule must leave alone).
    pub expected: Option<String>,
}

/// Every example of every file (`\n` in one is a line break).
pub fn examples() -> Vec<Example> {
    let mut out = Vec::new();
    for file in translation_files() {
        for line in file.text().lines() {
            let line = line.trim_start_matches(['#', ' ']);
            let (rest, unchanged) = match (line.strip_prefix("example"), line.strip_prefix("unchanged")) {
                (Some(rest), _) => (rest, false),
                (None, Some(rest)) => (rest, true),
                (None, None) => continue,
            };
            let Some((how, body)) = rest.split_once(':') else { continue };
            let (input, expected) = match body.split_once(" => ") {
                Some((input, expected)) if !unchanged => (input, Some(expected.trim().replace("\\n", "\n"))),
                None if unchanged => (body, None),
                _ => continue,
            };
            let how: Vec<&str> = how.split_whitespace().collect();
            out.push(Example {
                path: file.path(),
                lang: how.iter().find(|w| w.len() == 2).map(|w| w.to_string()),
                title: how.contains(&"title"),
                catalan: how.contains(&"catalan"),
                input: input.trim().replace("\\n", "\n"),
                expected,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest reads the data and the finishing's version, never the
    /// source of the code: a comment added to finish/ changes no key.
    #[test]
    fn the_digest_is_the_data_and_the_finishing_version_not_the_source() {
        let mut h = Sha256::new();
        h.update(format!("finish/{FINISH_VERSION}\0").as_bytes());
        for file in translation_files().filter(|f| !f.path().contains('/') || f.path().starts_with("es/") || f.path().starts_with("fr/")) {
            h.update(file.path().as_bytes());
            h.update([0u8]);
            h.update(file.text().as_bytes());
            h.update([0u8]);
        }
        assert_eq!(digest("fr"), hex::encode(&h.finalize()[..8]));
    }
    use crate::translate::engines::stream::{KEEP_END, KEEP_START};
    use crate::translate::finish::finish;
    use crate::translate::prepare::terms::TermBase;
    use crate::translate::prepare::{Known, prepare};
    use crate::vocab::Field;

    /// The input with its `{kept}` spans unmarked, and those spans.
    fn kept_spans(input: &str) -> (String, Vec<String>) {
        let mut text = String::new();
        let mut names = Vec::new();
        let mut rest = input;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else { break };
            text.push_str(&rest[..open]);
            let name = &rest[open + 1..open + close];
            text.push_str(name);
            names.push(name.to_string());
            rest = &rest[open + close + 1..];
        }
        text.push_str(rest);
        (text, names)
    }

    /// What the example's rule makes of its input, and the input as the
    /// rule gives it back when it changes nothing (an `unchanged` line's
    /// expectation: the kept spans unmarked where house style runs).
    fn outcome(e: &Example, gazetteer: &crate::translate::prepare::gazetteer::Gazetteer) -> (String, String) {
        let dir = e.path.split('/').next().unwrap_or_default();
        let lang_of = |code: &str| Lang::from_code(code).unwrap_or_else(|| panic!("{}: {code:?} is no display language", e.path));
        let data = lang_data::of(dir);
        let untouched = e.input.clone();
        if e.path == data.plain.path() {
            let field = e.input.parse::<crate::vocab::Field>();
            return (if field.is_ok_and(|f| plain(lang_of(dir), f)) { "plain" } else { "prepared" }.to_string(), untouched);
        }
        if e.path == data.word_order.path() || e.path == data.titles.path() {
            let listed = data.word_order.has(&e.input) || data.titles.has(&e.input);
            return (if listed { "yes" } else { "no" }.to_string(), untouched);
        }
        if e.path == data.ordinals.path() {
            let mut out = e.input.clone();
            for (a, b, written) in crate::translate::prepare::ordinals::find(&e.input, lang_of(dir), &|_| true).into_iter().rev() {
                out.replace_range(a..b, &format!("{{{written}}}"));
            }
            return (out, untouched);
        }
        if e.path == data.hours.path() {
            return (crate::parse::week_hours::describe(&crate::parse::week_hours::week_hours(&e.input, dir)), untouched);
        }
        if e.path == lang_data::shared().garbled.path() {
            let lang = lang_of(e.lang.as_deref().unwrap_or_default());
            let (original, translation) = e.input.split_once(" | ").unwrap_or_default();
            let found = crate::translate::finish::garble::forms(original, translation, lang);
            return (if found.is_empty() { "none".to_string() } else { found.join(", ") }, untouched);
        }
        if e.path == data.joined_across_spans.path() {
            let core = e.input.replace('{', &KEEP_START.to_string()).replace('}', &KEEP_END.to_string());
            // An example naming a target shows the route of its descriptions
            // (from Catalan where it says `catalan`).
            let from = if e.catalan { "ca" } else { "es" };
            let route = e.lang.as_deref().and_then(|to| crate::translate::engines::routes::route(from, to, Some(Field::Description)));
            let modes = route.map(|r| r.modes_name()).unwrap_or_default();
            let guarded = crate::translate::engines::stream::guard_joins(&core, &modes);
            return (guarded.replace(KEEP_START, "{").replace(KEEP_END, "}"), untouched);
        }
        if e.path == data.locatives.path() {
            let code = e.lang.as_deref().unwrap_or_else(|| panic!("{}: an example names its target", e.path));
            let (text, names) = kept_spans(&e.input);
            // Apertium's analysis of the original (Catalan or Spanish), which knows a place's name.
            let analysis = crate::translate::prepare::analyser::Analyser::system_for_code(dir).unwrap().analyse(&text).unwrap();
            let known = Known {
                locality: names.first().map(String::as_str),
                analysis: Some(&analysis),
                capitals_are_headings: dir == "ca",
                lang: Some(lang_of(code)),
                ..Known::default()
            };
            let p = prepare(&text, known, &TermBase::default());
            return (p.text.replace(KEEP_START, "{").replace(KEEP_END, "}"), untouched);
        }
        if e.path == data.town_words.path() {
            // With Apertium's analysis of the original, which reads these
            // towns as ordinary words too, into the target the example names
            // (the route of a title, or of a description).
            let code = e.lang.as_deref().unwrap_or_else(|| panic!("{}: an example names its target", e.path));
            let field = if e.title { Field::Title } else { Field::Description };
            let first_mode = crate::translate::engines::routes::first_mode(dir, code, field);
            let analysis = crate::translate::prepare::analyser::Analyser::system_for_code(dir).unwrap().analyse(&e.input).unwrap();
            let known = Known { analysis: Some(&analysis), running_text: !e.title, first_mode, ..Known::default() };
            return (prepare(&e.input, known, &TermBase::default()).text.replace(KEEP_START, "{").replace(KEEP_END, "}"), untouched);
        }
        if e.path == data.articles_before_names.path() {
            // The braces stay on a name kept whatever the engine's dictionary knows.
            let (text, names) = kept_spans(&e.input);
            let mut out = text.clone();
            for name in names.iter().rev() {
                let a = text.find(name.as_str()).unwrap_or_else(|| panic!("{}: {name:?} not in the input", e.path));
                if crate::translate::prepare::namewords::after_an_article(&text, a) {
                    out.replace_range(a..a + name.len(), &format!("{{{name}}}"));
                }
            }
            return (out, untouched);
        }
        if e.path == data.labels.path() {
            return (crate::parse::labels::split_labelled_parts(&e.input, lang_of(dir)), untouched);
        }
        if e.path == data.exonyms.path() {
            let (text, names) = kept_spans(&e.input);
            return (finish(&text, &names, None, lang_of(dir), if e.title { Field::Title } else { Field::Description }), text);
        }
        if e.path == data.determiners.path() {
            let code = e.lang.as_deref().unwrap_or_else(|| panic!("{}: an example names its term base", e.path));
            let terms = TermBase::load(None, code).unwrap();
            let known = Known { running_text: !e.title, lang: Some(lang_of(code)), ..Known::default() };
            return (prepare(&e.input, known, &terms).text.replace(KEEP_START, "{").replace(KEEP_END, "}"), untouched);
        }
        if e.path == data.name_joins.path() {
            let code = e.lang.as_deref().unwrap_or_else(|| panic!("{}: an example names its target", e.path));
            let known = Known { running_text: !e.title, lang: Some(lang_of(code)), ..Known::default() };
            return (prepare(&e.input, known, &TermBase::default()).text.replace(KEEP_START, "{").replace(KEEP_END, "}"), untouched);
        }
        if e.path == data.leading_adjectives.path() {
            // A description: capitals alone decide, as without the analyser.
            let known = Known { running_text: true, capitals_are_headings: dir == "ca", ..Known::default() };
            let p = prepare(&e.input, known, &TermBase::default());
            return (p.text.replace(KEEP_START, "{").replace(KEEP_END, "}"), untouched);
        }
        if e.path == data.body_heads.path() && dir != "es" {
            let p = prepare(&e.input, Known::default(), &TermBase::default());
            return (p.text.replace(KEEP_START, "{").replace(KEEP_END, "}"), untouched);
        }
        if dir == "es" && e.lang.is_none() {
            let known = Known { gazetteer: Some(gazetteer), ..Known::default() };
            let p = prepare(&e.input, known, &TermBase::default());
            return (p.text.replace(KEEP_START, "{").replace(KEEP_END, "}"), untouched);
        }
        let lang = lang_of(e.lang.as_deref().unwrap_or(dir));
        let (text, names) = kept_spans(&e.input);
        (finish(&text, &names, None, lang, if e.title { Field::Title } else { Field::Description }), text)
    }

    /// Every example in `data/lang/` holds (an `unchanged` one: its input comes
    /// back as it is), and every file but the plain lists of words has at least
    /// one.
    #[test]
    fn every_example_in_the_language_data_holds() {
        let gazetteer = crate::translate::prepare::gazetteer::load(None).unwrap();
        let examples = examples();
        let mut failed = Vec::new();
        for e in &examples {
            let (got, untouched) = outcome(e, &gazetteer);
            let want = e.expected.clone().unwrap_or(untouched);
            if got != want {
                failed.push(format!("{}: {:?} gave {got:?}, the file says {want:?}", e.path, e.input));
            }
        }
        assert!(failed.is_empty(), "{}", failed.join("\n"));
        for file in translation_files() {
            assert!(examples.iter().any(|e| e.path == file.path()), "{} has no example", file.path());
        }
        assert!(examples.iter().any(|e| e.expected.is_none()), "no `unchanged` line was read");
        // A line that opens as an example but does not read as one (no
        // ` => `, or an `unchanged` line with one) is not skipped silently.
        let opened: Vec<&str> = translation_files()
            .flat_map(|f| f.text().lines())
            .filter(|l| ["example", "unchanged"].iter().any(|k| l.trim_start_matches(['#', ' ']).starts_with(k)))
            .collect();
        assert_eq!(opened.len(), examples.len(), "a line reads as no example: {opened:#?}");
    }

    #[test]
    fn lists_rows_and_digests() {
        assert!(lang_data::of("es").connectors.has("del"));
        assert!(lang_data::of("it").contractions.rows().any(|r| r == ["in", "il", "nel"]));
        // A code that is no language has no data (a misspelt kind does not compile).
        assert!(lang_data::of("xx").connectors.is_empty());
        assert_ne!(digest("en"), digest("fr"));
        assert_eq!(digest("en").len(), 16);
    }
}
