//! A translator's file taken in (`translate import FILE`): each entry checked
//! against the current originals, the accepted ones applied in one transaction
//! (dated by the caller's clock), every refusal kept with its reason in the
//! report.
//!
//! Not for reading PO or XLIFF (`translate::exchange`) nor for how a human
//! translation is stored and shown (`store::memory`).

use crate::clock::Clock;
use crate::lang::Lang;
use crate::store::Store;
use crate::store::memory::EXCHANGE_SOURCE_LANG;
use crate::translate::exchange::{Entry, Imported};
use crate::vocab::Field;
use anyhow::Result;
use std::collections::HashSet;

/// What an import did with each entry.
#[derive(Debug, Default, serde::Serialize)]
pub struct ImportReport {
    pub lang: String,
    pub applied: usize,
    /// Events whose shown text changed.
    pub events: usize,
    /// Entries still fuzzy or empty: left for review.
    pub unreviewed: usize,
    pub refused: Vec<Refused>,
}

/// An entry not applied, and why.
#[derive(Debug, serde::Serialize)]
pub struct Refused {
    pub field: String,
    pub original: String,
    pub why: String,
}

/// The file's own language (there is no `--lang` for an import) must be a
/// display language other than the originals': a usage error naming the
/// file `name` otherwise; the language it is.
pub fn check_language(imported: &Imported, name: &str) -> Result<Lang> {
    let code = imported.lang.as_str();
    match Lang::from_code(code) {
        Some(lang) if lang != EXCHANGE_SOURCE_LANG => Ok(lang),
        _ => {
            let said = if code.is_empty() { "names no language".to_string() } else { format!("is in {code:?}") };
            crate::bail_usage!(
                "{name} {said}: set its `Language:` header (PO) or target-language (XLIFF) to the language it translates \
                 the {EXCHANGE_SOURCE_LANG} originals into: one of {}",
                Lang::CODES.iter().filter(|l| **l != EXCHANGE_SOURCE_LANG).copied().collect::<Vec<_>>().join(", ")
            );
        }
    }
}

/// Check each entry of a file into `lang` (as [`check_language`] read it)
/// and apply the accepted ones, all or none.
pub fn apply(store: &mut Store, imported: &Imported, lang: Lang, clock: &dyn Clock) -> Result<ImportReport> {
    let current: HashSet<(Field, String)> = store.exchange_texts(lang, &[])?.into_iter().map(|t| (t.field, t.original)).collect();
    let mut report = ImportReport { lang: imported.lang.clone(), unreviewed: imported.unreviewed, ..Default::default() };
    // An original twice in the file is refused every time, not applied
    // last-one-wins: which translation was meant is the translator's call.
    let mut apply: Vec<(Field, String, String)> = Vec::new();
    for e in &imported.entries {
        match checked(e, &current, imported.times(&e.field, &e.original)) {
            Err(why) => report.refused.push(Refused {
                field: crate::parse::stored::message(&e.field, &[]),
                original: crate::parse::stored::message(&e.original, &[]),
                why,
            }),
            Ok(field) => apply.push((field, e.original.clone(), human_text(field, &e.text))),
        }
    }
    let entries: Vec<(Field, &str, &str)> = apply.iter().map(|(f, o, t)| (*f, o.as_str(), t.as_str())).collect();
    report.events = store.save_human_translations(&EXCHANGE_SOURCE_LANG.into(), lang, &entries, clock.now_ms())?;
    report.applied = entries.len();
    Ok(report)
}

/// A human translation as it is stored: through the gate of every stored text,
/// markup, control characters and bidi overrides stripped as from feed text;
/// one line for a title.
pub fn human_text(field: Field, text: &str) -> String {
    if field == Field::Title { crate::parse::stored::line(text) } else { crate::parse::stored::block(text) }
}

/// The field an imported entry translates, or why it is not applied. The
/// file's context is the translator's text: only `title` and `description`
/// are read as fields, anything else is refused with the reason.
fn checked(e: &Entry, current: &HashSet<(Field, String)>, times: usize) -> Result<Field, String> {
    let Some(field) = e.field.parse::<Field>().ok().filter(|f| Field::TEXTS.contains(f)) else {
        return Err("unknown field (expected title or description)".into());
    };
    if times > 1 {
        return Err(format!("appears {times} times in the file: keep the one translation meant"));
    }
    if !current.contains(&(field, e.original.clone())) {
        return Err("not a current original text of any active event".into());
    }
    if let Some(why) = crate::parse::stored::refusal(&e.text).or_else(|| crate::parse::stored::refusal(&e.original)) {
        return Err(why);
    }
    if human_text(field, &e.text).is_empty() {
        return Err("empty once its markup and control characters are gone".into());
    }
    Ok(field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Exit, exit_for};
    use crate::testing::{clock_at, store_with_madrid};

    fn entry(field: &str, original: &str, text: &str) -> Entry {
        Entry { field: field.into(), original: original.into(), text: text.into() }
    }

    fn file(lang: &str, entries: Vec<Entry>) -> Imported {
        Imported { lang: lang.into(), entries, unreviewed: 2, repeated: Default::default() }
    }

    // What fits is applied, dated by the clock handed in; what does not is
    // refused, each with its reason.
    #[test]
    fn an_import_applies_what_fits_dated_by_the_clock_and_refuses_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = store_with_madrid(&dir.path().join("cityvibe.db"), &[("1", "Concierto"), ("2", "Teatro")]);
        let imported =
            file("en", vec![entry("title", "Concierto", "Concert"), entry("title", "Ópera", "Opera"), entry("venue", "Teatro", "Theatre")]);
        let lang = check_language(&imported, "en.po").unwrap();
        let report = apply(&mut store, &imported, lang, &clock_at("2020-02-29T23:30:00Z")).unwrap();
        assert_eq!((report.lang.as_str(), report.applied, report.events, report.unreviewed), ("en", 1, 1, 2));
        let why: Vec<&str> = report.refused.iter().map(|r| r.why.as_str()).collect();
        assert_eq!(why, ["not a current original text of any active event", "unknown field (expected title or description)"]);
        let at: i64 = store.connection().query_row("SELECT created_at FROM translation_memory", [], |r| r.get(0)).unwrap();
        assert_eq!(at, clock_at("2020-02-29T23:30:00Z").now_ms());
    }

    // The originals' own language, or none, is no language to import into.
    #[test]
    fn an_import_into_the_originals_language_is_refused() {
        for lang in ["es", "", "xx"] {
            let e = check_language(&file(lang, Vec::new()), "f.po").unwrap_err();
            assert_eq!(exit_for(&e), Exit::Usage);
            assert!(format!("{e:#}").starts_with("f.po "), "{e:#}");
        }
    }
}
