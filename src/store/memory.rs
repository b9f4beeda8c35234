//! The translation memory: human translations of exact original texts. A
//! correction is stored once per (original's language, language, field,
//! original text) and wins over any engine for every event whose text is the
//! same in the same language (the same bytes in Catalan and Spanish are two
//! texts), across runs and engine changes; it stops applying to an event whose
//! original changes (its hash no longer matches).
//!
//! Not for: machine translations or the cache (`translations`), nor reading
//! exchange files (`translate::exchange`).

use super::Store;
use super::events::text_hash;
use crate::lang::{Lang, SourceLang};
use crate::vocab::{Field, TextOrigin};
use anyhow::Result;
use rusqlite::params;
use std::collections::HashMap;

/// The language of the source strings in exchange (PO, XLIFF) files.
pub const EXCHANGE_SOURCE_LANG: Lang = Lang::Es;

/// A translation memory entry's key: (original's language, language, field, original's hash).
pub type MemoryKey = (SourceLang, String, Field, String);

/// One original text of active events, with what is shown for it in a language.
#[derive(Debug, Clone)]
pub struct ExchangeText {
    pub field: Field,
    pub original: String,
    /// `source:id` of the events that carry it.
    pub events: Vec<String>,
    /// The current translation into the language and its origin, if any.
    pub current: Option<(String, TextOrigin)>,
}

impl Store {
    /// Every human translation: (original's language, lang, field, original's hash) → text.
    pub fn human_translations(&self) -> Result<HashMap<MemoryKey, String>> {
        let mut st = self.conn.prepare("SELECT source_lang, lang, field, source_hash, text FROM translation_memory")?;
        let rows = st.query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?), r.get(4)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Stores a human translation into `lang` of `original` (a text in
    /// `source_lang`) and shows it at once on every active event in
    /// `source_lang` whose `field` is that text; returns how many events.
    pub fn save_human_translation(
        &mut self,
        source_lang: &SourceLang,
        lang: Lang,
        field: Field,
        original: &str,
        text: &str,
    ) -> Result<usize> {
        self.save_human_translations(source_lang, lang, &[(field, original, text)], self.now_ms())
    }

    /// [`Store::save_human_translation`] for each (field, original, text), all
    /// in one transaction: an import is applied whole or not at all, each
    /// stamped `now_ms` (the caller's clock). Returns how many event texts
    /// changed.
    pub fn save_human_translations(
        &mut self,
        source_lang: &SourceLang,
        lang: Lang,
        entries: &[(Field, &str, &str)],
        now_ms: i64,
    ) -> Result<usize> {
        let tx = self.conn.transaction()?;
        let mut events = 0;
        for (field, original, text) in entries {
            events += save_human(&tx, source_lang, lang, *field, original, text, now_ms)?;
        }
        tx.commit()?;
        Ok(events)
    }

    /// Shows each stored human translation on every active event (of some
    /// sources, or all) whose text it translates and which does not show it
    /// yet, never over a publisher's own translation; returns how many
    /// (language, text) pairs were applied. For runs with machine translation
    /// switched off: the pipeline does the same before any engine, and a
    /// correction must not wait for an engine to reach a recurring activity.
    pub fn apply_translation_memory(&mut self, langs: &[Lang], sources: &[String]) -> Result<usize> {
        let humans = self.human_translations()?;
        if humans.is_empty() {
            return Ok(0);
        }
        let existing = self.existing_translations()?;
        let mut due: Vec<(SourceLang, Lang, Field, String, String)> = Vec::new();
        for t in self.texts_to_translate(sources)? {
            let hash = text_hash(&t.text);
            for lang in langs.iter().filter(|l| **l != t.lang) {
                let here = existing.get(&(t.event_id, lang.to_string(), t.field));
                if here.is_some_and(|e| e.origin == TextOrigin::Publisher || (e.origin == TextOrigin::Human && e.source_hash == hash)) {
                    continue;
                }
                if let Some(text) = humans.get(&(t.lang.clone(), lang.to_string(), t.field, hash.clone())) {
                    due.push((t.lang.clone(), *lang, t.field, t.text.clone(), text.clone()));
                }
            }
        }
        // In the order of the codes, as when they were strings.
        due.sort_by(|a, b| (&a.0, a.1.as_str(), a.2, &a.3, &a.4).cmp(&(&b.0, b.1.as_str(), b.2, &b.3, &b.4)));
        due.dedup();
        for (source_lang, lang, field, original, text) in &due {
            self.save_human_translation(source_lang, *lang, *field, original, text)?;
        }
        Ok(due.len())
    }

    /// An event's language, title and description, by source and id.
    pub fn event_texts(&self, source: &str, id: &str) -> Result<Option<(SourceLang, String, String)>> {
        use rusqlite::OptionalExtension;
        Ok(self
            .conn
            .query_row("SELECT lang, title, description FROM events WHERE source = ?1 AND source_event_id = ?2", [source, id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?)
    }

    /// The distinct Spanish original texts of active events (of some sources,
    /// or all), each with its current translation into `lang`. Only Spanish
    /// ([`EXCHANGE_SOURCE_LANG`]): an exchange file has one source language,
    /// and another language's originals labelled Spanish would mislead the
    /// translator.
    pub fn exchange_texts(&self, lang: Lang, sources: &[String]) -> Result<Vec<ExchangeText>> {
        let shown = self.translations_into(lang)?;
        let mut st = self.conn.prepare(
            "SELECT id, source, source_event_id, title, description FROM events WHERE status = 'active' AND lang = ?1 AND lang <> ?2 ORDER BY id",
        )?;
        let rows = st.query_map(params![EXCHANGE_SOURCE_LANG, lang], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?, r.get::<_, String>(4)?))
        })?;
        let mut out: Vec<ExchangeText> = Vec::new();
        let mut index: HashMap<(Field, String), usize> = HashMap::new();
        for row in rows {
            let (id, source, event_id, title, description) = row?;
            if !sources.is_empty() && !sources.contains(&source) {
                continue;
            }
            for (field, original) in Field::TEXTS.into_iter().zip([title, description]) {
                if original.trim().is_empty() {
                    continue;
                }
                let current = shown.get(&(id, field)).filter(|t| t.current).map(|t| (t.text.clone(), t.origin.clone()));
                let at = *index.entry((field, original.clone())).or_insert_with(|| {
                    out.push(ExchangeText { field, original, events: Vec::new(), current: None });
                    out.len() - 1
                });
                out[at].events.push(format!("{source}:{event_id}"));
                if out[at].current.is_none() {
                    out[at].current = current;
                }
            }
        }
        Ok(out)
    }
}

/// One human translation stored and shown, inside `tx`.
fn save_human(
    tx: &rusqlite::Transaction<'_>,
    source_lang: &SourceLang,
    lang: Lang,
    field: Field,
    original: &str,
    text: &str,
    now_ms: i64,
) -> Result<usize> {
    let hash = text_hash(original);
    tx.execute(
        "INSERT INTO translation_memory (source_lang, lang, field, source_hash, original, text, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (source_lang, lang, field, source_hash) DO UPDATE SET text = excluded.text, created_at = excluded.created_at",
        params![source_lang, lang, field, hash, original, text, now_ms],
    )?;
    // The events column the field translates has its name.
    let column = field.as_str();
    let ids: Vec<i64> = {
        let mut st =
            tx.prepare(&format!("SELECT id FROM events WHERE status = 'active' AND lang = ?1 AND lang <> ?2 AND {column} = ?3"))?;
        st.query_map(params![source_lang, lang, original], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?
    };
    for id in &ids {
        tx.execute(
            "INSERT INTO translations (event_id, lang, field, text, origin, engine, source_hash, cache_key)
                 VALUES (?1, ?2, ?3, ?4, 'human', NULL, ?5, NULL)
                 ON CONFLICT (event_id, lang, field) DO UPDATE SET text = excluded.text, origin = 'human', engine = NULL,
                    source_hash = excluded.source_hash, cache_key = NULL",
            params![id, lang, field, text, hash],
        )?;
    }
    Ok(ids.len())
}
