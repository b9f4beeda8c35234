//! The store's SQL spells a few vocabulary words as literals (`status =
//! 'active'`, `VALUES (…, 'publisher', …)`), where a bound value would make
//! every statement longer. This test ties each such literal to its type in
//! `vocab`: a word that no type reads back (a typo, a renamed spelling)
//! fails here, not as rows that silently match nothing.

use crate::vocab::{EventStatus, Field, RequestOutcome, TextOrigin};
use regex::Regex;
use std::sync::LazyLock;

/// The store's sources as compiled, each cut at its tests.
const SOURCES: [(&str, &str); 14] = [
    ("corrections.rs", include_str!("corrections.rs")),
    ("events.rs", include_str!("events.rs")),
    ("fetchlog.rs", include_str!("fetchlog.rs")),
    ("ingest.rs", include_str!("ingest.rs")),
    ("memory.rs", include_str!("memory.rs")),
    ("mod.rs", include_str!("mod.rs")),
    ("optout.rs", include_str!("optout.rs")),
    ("report.rs", include_str!("report.rs")),
    ("reports.rs", include_str!("reports.rs")),
    ("row.rs", include_str!("row.rs")),
    ("runs.rs", include_str!("runs.rs")),
    ("schema.rs", include_str!("schema.rs")),
    ("takedowns.rs", include_str!("takedowns.rs")),
    ("translations.rs", include_str!("translations.rs")),
];

/// Quoted words that are no vocabulary: a language code, a table name, a
/// JSON text.
const NOT_VOCAB: [&str; 3] = ["es", "events", "null"];

/// Whether `word` is a spelling the type of `column` reads back.
fn reads_back(column: &str, word: &str) -> Option<bool> {
    Some(match column {
        "status" => word.parse::<EventStatus>().is_ok(),
        "origin" => matches!(word.parse::<TextOrigin>(), Ok(TextOrigin::Publisher | TextOrigin::Human | TextOrigin::Machine(None))),
        "field" => word.parse::<Field>().is_ok(),
        "outcome" => word.parse::<RequestOutcome>().is_ok_and(|o| o.to_string() == word),
        _ => return None,
    })
}

/// The text of every string literal of `source` before its tests, as
/// written (escapes not undone): a small Rust lexer that steps over
/// comments, character literals, lifetimes and raw strings.
fn sql_texts(source: &str) -> Vec<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or(source).as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    let text = |from: usize, to: usize| String::from_utf8_lossy(&code[from..to]).into_owned();
    while i < code.len() {
        match code[i] {
            b'/' if code.get(i + 1) == Some(&b'/') => i += code[i..].iter().position(|&b| b == b'\n').unwrap_or(code.len() - i),
            // An escaped character literal: `'\''`, `'\n'`, `'\u{E000}'`.
            b'\'' if code.get(i + 1) == Some(&b'\\') => i += 3 + code[i + 3..].iter().position(|&b| b == b'\'').unwrap_or(0) + 1,
            // A character literal, or else a lifetime (stepped over).
            b'\'' => {
                let width = source.get(i + 1..).and_then(|rest| rest.chars().next()).map_or(1, char::len_utf8);
                i += if code.get(i + 1 + width) == Some(&b'\'') { width + 2 } else { 1 };
            }
            b'r' if matches!(code.get(i + 1), Some(b'"' | b'#')) && i > 0 && !code[i - 1].is_ascii_alphanumeric() => {
                let hashes = code[i + 1..].iter().take_while(|&&b| b == b'#').count();
                let start = i + 2 + hashes;
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                let len = code[start..].windows(close.len()).position(|w| w == close.as_slice()).expect("a raw string ends");
                out.push(text(start, start + len));
                i = start + len + close.len();
            }
            b'"' => {
                let mut end = i + 1;
                while code[end] != b'"' {
                    end += if code[end] == b'\\' { 2 } else { 1 };
                }
                out.push(text(i + 1, end));
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Each quoted word of `sql` with the column it is said of: `column = 'w'`,
/// `column <> 'w'`, `column TEXT … DEFAULT 'w'`, `CASE column WHEN 'w'`, or
/// its place in an `INSERT INTO t (columns) VALUES (values)`.
fn said_of(sql: &str) -> Vec<(String, String)> {
    static SAID: LazyLock<[Regex; 3]> = LazyLock::new(|| {
        [r"(?:\w+\.)?(\w+)\s*(?:=|<>)\s*'(\w+)'", r"(\w+) TEXT NOT NULL DEFAULT '(\w+)'", r"CASE (?:\w+\.)?(\w+) WHEN '(\w+)'"]
            .map(|re| Regex::new(re).unwrap())
    });
    static INSERT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?s)INSERT (?:OR \w+ )?INTO \w+ \(([^)]*)\)\s*VALUES \(([^)]*)\)").unwrap());
    let mut out: Vec<(String, String)> =
        SAID.iter().flat_map(|re| re.captures_iter(sql).map(|c| (c[1].to_string(), c[2].to_string()))).collect();
    for c in INSERT.captures_iter(sql) {
        let columns: Vec<&str> = c[1].split(',').map(str::trim).collect();
        let values: Vec<&str> = c[2].split(',').map(str::trim).collect();
        assert_eq!(columns.len(), values.len(), "an INSERT whose columns and values do not pair: {sql}");
        for (column, value) in columns.iter().zip(&values) {
            if let Some(word) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')).filter(|w| !w.is_empty()) {
                out.push((column.to_string(), word.to_string()));
            }
        }
    }
    out
}

#[test]
fn every_vocabulary_word_the_sql_spells_is_one_its_type_reads_back() {
    let quoted = Regex::new(r"'(\w+)'").unwrap();
    let mut checked = 0;
    for (file, source) in SOURCES {
        for sql in sql_texts(source) {
            let said = said_of(&sql);
            for (column, word) in &said {
                if let Some(ok) = reads_back(column, word) {
                    assert!(ok, "{file}: {column} = '{word}' is no spelling of the column's type: {sql}");
                    checked += 1;
                }
            }
            // Every quoted word is accounted for: said of a typed column,
            // or known to be no vocabulary.
            for c in quoted.captures_iter(&sql) {
                let word = &c[1];
                let typed = said.iter().any(|(column, w)| w == word && reads_back(column, w).is_some());
                assert!(typed || NOT_VOCAB.contains(&word), "{file}: '{word}' is said of no typed column: {sql}");
            }
        }
    }
    // 27 today, of status, origin, field and outcome.
    assert!(checked >= 20, "only {checked} words checked: the literal finder has stopped finding them");
}

#[test]
fn every_file_of_the_store_is_read() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs") && name != "vocab_in_sql.rs")
        .collect();
    files.sort();
    assert_eq!(files, SOURCES.map(|(name, _)| name.to_string()));
}

#[test]
fn the_lexer_reads_each_kind_of_literal_whole() {
    let source = "fn f<'a>(x: &'a str) { let q = ['\\'','\"']; let u = '\\u{E000}'; let e = 'é';\n\
                  // a \"comment\"\n\
                  g(\"status = 'active' \\\" x\", r#\"a \"b\" c\"#, br\"raw\"); }";
    assert_eq!(sql_texts(source), ["status = 'active' \\\" x", "a \"b\" c", "raw"]);
}

#[test]
fn a_misspelt_or_untyped_word_is_found() {
    let said = said_of("UPDATE events SET status = 'actve' WHERE origin <> 'publisher'");
    assert_eq!(said, [("status".to_string(), "actve".to_string()), ("origin".to_string(), "publisher".to_string())]);
    assert_eq!(reads_back("status", "actve"), Some(false));
    assert_eq!(reads_back("origin", "publisher"), Some(true));
    // An engine's name is a TextOrigin, but never a word of the column.
    assert_eq!(reads_back("origin", "apertium"), Some(false));
    let inserted = said_of("INSERT INTO translations (event_id, origin, engine) VALUES (?1, 'machine', NULL)");
    assert_eq!(inserted, [("origin".to_string(), "machine".to_string())]);
    assert_eq!(reads_back("outcome", "ok"), Some(true));
    assert_eq!(reads_back("outcome", "okay"), Some(false));
}
