//! `cityvibe translate status`: per display language, how the texts of active
//! events are shown: given by the publisher, by a human, by an engine, or still
//! pending (shown in the original), with the engine and the version of the data
//! its translations are made with.
//!
//! Not for: translating (`plan`) or showing texts (`view`).

use super::plan::Options;
use super::prepare::terms::TermBase;
use crate::lang::Lang;
use crate::store::Store;
use crate::store::events::text_hash;
use crate::store::translations::{Existing, SourceText};
use crate::vocab::Field;
use crate::vocab::TextOrigin;
use anyhow::Result;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};

/// One display language's texts: titles, descriptions and prices no set
/// phrase says, of active events whose original is in another language.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LangStatus {
    pub lang: String,
    pub texts: u64,
    /// Current translations by origin.
    pub publisher: u64,
    pub human: u64,
    pub machine: u64,
    /// No current translation: shown in the original until one is made.
    pub pending: u64,
    /// Texts the engine failed on [`super::send::batches::MAX_FAILURES`] times: set aside, not
    /// sent again until they change (their event is shown in the original).
    pub failed: u64,
    /// Machine translations that came back garbled (a stop torn from its
    /// sentence, an engine's pronoun; `data/lang/garbled.tsv`) and were mended
    /// by house style, or translated again with the spans beside the form left
    /// to the engine.
    pub garbled_mended: u64,
    pub garbled_retranslated: u64,
    /// The house style's version and a digest of the term base the
    /// translations into this language are made with.
    pub data_version: String,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    /// The engine `[settings] translator` names (with its version when it says one), or `none`.
    pub engine: String,
    pub languages: Vec<LangStatus>,
}

/// The status of every language of `langs` in `store`.
pub fn of(store: &Store, langs: &[Lang], options: &Options, engine: Option<&str>) -> Result<Status> {
    // The plan step, as the next run would take it, tells which texts it sets aside.
    let set_aside = match engine {
        Some(engine) => super::plan::plan(store, engine, langs, &[], options, false, &mut Default::default())?.set_aside,
        None => Default::default(),
    };
    let repairs = store.garbled_repairs()?;
    let mut languages = counts(store, langs)?;
    for (s, &lang) in languages.iter_mut().zip(langs) {
        s.failed = set_aside.get(lang.as_str()).copied().unwrap_or(0);
        s.data_version = data_version(options, lang)?;
        let repaired =
            |how: super::finish::garble::Repair| repairs.get(&(lang.to_string(), how.as_str().to_string())).copied().unwrap_or(0);
        s.garbled_mended = repaired(super::finish::garble::Repair::Mended);
        s.garbled_retranslated = repaired(super::finish::garble::Repair::Retranslated);
    }
    Ok(Status { engine: engine.unwrap_or("none").to_string(), languages })
}

/// The texts of every language of `langs` by who gave their current
/// translation, and those pending: the one count `translate status` and the
/// report's translation chart both show (the fields about failures, repairs
/// and data left empty).
pub fn counts(store: &Store, langs: &[Lang]) -> Result<Vec<LangStatus>> {
    let texts = super::plan::texts_for_engines(store, &[])?;
    let existing = store.existing_translations()?;
    let mut languages = Vec::new();
    for &lang in langs {
        let mut s = LangStatus { lang: lang.to_string(), ..Default::default() };
        for (_, current) in states(&texts, &existing, lang) {
            s.texts += 1;
            match current {
                Some(TextOrigin::Publisher) => s.publisher += 1,
                Some(TextOrigin::Human) => s.human += 1,
                Some(TextOrigin::Machine(_)) => s.machine += 1,
                None => s.pending += 1,
            }
        }
        languages.push(s);
    }
    Ok(languages)
}

/// The texts of `langs` with no current translation, by source: what a run
/// stopped before its translation step (its deadline, a signal) leaves
/// pending for the next run, counted as `counts` counts them.
pub fn pending_by_source(store: &Store, langs: &[Lang]) -> Result<BTreeMap<String, u64>> {
    let texts = super::plan::texts_for_engines(store, &[])?;
    let existing = store.existing_translations()?;
    let mut pending = BTreeMap::new();
    for &lang in langs {
        for (t, _) in states(&texts, &existing, lang).filter(|(_, current)| current.is_none()) {
            *pending.entry(t.source.clone()).or_default() += 1;
        }
    }
    Ok(pending)
}

/// Every text an engine would translate into `lang`, with the origin of its
/// current translation (none: pending).
fn states<'a>(
    texts: &'a [SourceText],
    existing: &'a HashMap<(i64, String, Field), Existing>,
    lang: Lang,
) -> impl Iterator<Item = (&'a SourceText, Option<&'a TextOrigin>)> + 'a {
    texts.iter().filter(move |t| lang != t.lang && super::plan::needs_engine(t, lang)).map(move |t| {
        let hash = text_hash(&t.text);
        (t, existing.get(&(t.event_id, lang.to_string(), t.field)).filter(|e| e.source_hash == hash).map(|e| &e.origin))
    })
}

/// `lang DIGEST, terms DIGEST (K entries)`: what a translation into `lang`
/// is made with (the language data and house-style code, `lang::digest`;
/// the term base).
fn data_version(options: &Options, lang: Lang) -> Result<String> {
    let base = TermBase::load(options.terms_dir.as_deref(), lang.as_str())?;
    if base.is_empty() {
        return Ok(format!("lang {}, no terms", super::lang::digest(lang.as_str())));
    }
    let mut h = Sha256::new();
    for i in 0..base.len() {
        let t = base.term(i);
        h.update(t.spanish.as_bytes());
        h.update([0]);
        h.update(t.target.as_bytes());
        h.update([u8::from(t.initial_only), u8::from(t.name_head)]);
    }
    Ok(format!("lang {}, terms {} ({} entries)", super::lang::digest(lang.as_str()), &hex::encode(h.finalize())[..12], base.len()))
}
