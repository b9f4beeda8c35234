//! Translations per (event, language, field) and the translation cache.

use super::Store;
use crate::lang::{Lang, SourceLang};
use crate::vocab::{Field, TextOrigin};
use anyhow::Result;
use rusqlite::{OptionalExtension, params};
use std::collections::HashMap;

/// One text of an active event that a display language may need.
#[derive(Debug, Clone)]
pub struct SourceText {
    pub event_id: i64,
    pub source: String,
    pub lang: SourceLang,
    pub field: Field,
    pub text: String,
    /// The venue's name: kept verbatim by the engine.
    pub venue: Option<String>,
    /// The locality's name: kept verbatim too.
    pub locality: Option<String>,
    /// The district's name: kept verbatim too.
    pub district: Option<String>,
}

/// What is stored for one (event, language, field): origin and the hash of
/// the original it was made from.
#[derive(Debug, Clone, PartialEq)]
pub struct Existing {
    pub origin: TextOrigin,
    pub source_hash: String,
    /// The cache key a machine translation was made under.
    pub cache_key: Option<String>,
}

/// A translation ready to be written.
#[derive(Debug, Clone)]
pub struct MachineTranslation {
    pub event_id: i64,
    pub lang: Lang,
    pub field: Field,
    pub text: String,
    pub engine: String,
    pub source_hash: String,
    pub cache_key: String,
    /// How a garbled answer was put right (`mended`, `retranslated`), kept with
    /// its cache entry; `None` keeps what the entry says.
    pub repair: Option<&'static str>,
}

impl MachineTranslation {
    /// The translation of `text`'s field into `lang`, as `engine` gave it
    /// (or the cache under `cache_key` kept it).
    pub fn of(
        text: &SourceText,
        lang: Lang,
        translated: String,
        engine: String,
        source_hash: &str,
        cache_key: String,
    ) -> MachineTranslation {
        MachineTranslation {
            event_id: text.event_id,
            lang,
            field: text.field,
            text: translated,
            engine,
            source_hash: source_hash.to_string(),
            cache_key,
            repair: None,
        }
    }
}

impl Store {
    /// Titles and descriptions of active events (optionally of some sources).
    pub fn texts_to_translate(&self, sources: &[String]) -> Result<Vec<SourceText>> {
        let mut st = self.conn.prepare(
            "SELECT id, source, lang, title, description, venue_name, locality, district FROM events WHERE status = 'active' ORDER BY id",
        )?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, SourceLang>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, Option<String>>(6)?,
                r.get::<_, Option<String>>(7)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, source, lang, title, description, venue, locality, district) = row?;
            if !sources.is_empty() && !sources.contains(&source) {
                continue;
            }
            for (field, text) in Field::TEXTS.into_iter().zip([title, description]) {
                if !text.trim().is_empty() {
                    out.push(SourceText {
                        event_id: id,
                        source: source.clone(),
                        lang: lang.clone(),
                        field,
                        text,
                        venue: venue.clone(),
                        locality: locality.clone(),
                        district: district.clone(),
                    });
                }
            }
        }
        Ok(out)
    }

    /// The price texts of active events (of some sources, or all), as texts an
    /// engine may translate where no set phrase says them
    /// (`translate::phrases`).
    pub fn prices_to_translate(&self, sources: &[String]) -> Result<Vec<SourceText>> {
        let mut st = self.conn.prepare(
            "SELECT id, source, lang, price, venue_name, locality FROM events
             WHERE status = 'active' AND trim(coalesce(price, '')) <> '' ORDER BY id",
        )?;
        let rows = st.query_map([], |r| {
            Ok(SourceText {
                event_id: r.get(0)?,
                source: r.get(1)?,
                lang: r.get(2)?,
                field: Field::Price,
                text: r.get(3)?,
                venue: r.get(4)?,
                locality: r.get(5)?,
                district: None,
            })
        })?;
        let mut out = rows.collect::<rusqlite::Result<Vec<_>>>()?;
        out.retain(|t| sources.is_empty() || sources.contains(&t.source));
        Ok(out)
    }

    /// Every stored translation: (event, lang, field) → origin and source hash.
    pub fn existing_translations(&self) -> Result<HashMap<(i64, String, Field), Existing>> {
        let mut st = self.conn.prepare("SELECT event_id, lang, field, origin, source_hash, cache_key FROM translations")?;
        let rows = st.query_map([], |r| {
            Ok(((r.get(0)?, r.get(1)?, r.get(2)?), Existing { origin: r.get(3)?, source_hash: r.get(4)?, cache_key: r.get(5)? }))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The finished translation kept under `key`. Asked once per text and
    /// language on every run, so its statement is prepared once
    /// (`prepare_cached`), not parsed on each call (6 % of the main thread
    /// of a Madrid run into six languages, with [`Self::engine_answer`]'s).
    pub fn cached_translation(&self, key: &str) -> Result<Option<String>> {
        let mut st = self.conn.prepare_cached("SELECT text FROM translation_cache WHERE key = ?1")?;
        Ok(st.query_row([key], |r| r.get(0)).optional()?)
    }

    /// What the engine answered when asked what `key` names
    /// (`send::need::asked_key`), before house style.
    pub fn engine_answer(&self, key: &str) -> Result<Option<String>> {
        let mut st = self.conn.prepare_cached("SELECT answer FROM engine_answers WHERE key = ?1")?;
        Ok(st.query_row([key], |r| r.get(0)).optional()?)
    }

    /// Keeps engine answers, (asked key, answer, engine), in one transaction:
    /// scrubbed, as everything stored is (P5).
    pub fn save_engine_answers(&mut self, answers: &[(String, String, String)]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO engine_answers (key, answer, engine, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (key) DO UPDATE SET answer = excluded.answer, engine = excluded.engine, created_at = excluded.created_at",
            )?;
            let now = self.clock.now_ms();
            for (key, answer, engine) in answers {
                let answer = crate::parse::pii::scrub(&crate::parse::controls::without_controls(answer));
                st.execute(params![key, answer, engine, now])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Current machine translations of active events that came back garbled and were
    /// put right, by (language, `mended` or `retranslated`).
    pub fn garbled_repairs(&self) -> Result<std::collections::HashMap<(String, String), u64>> {
        let mut st = self.conn.prepare(
            "SELECT t.lang, c.repair, count(*) FROM translations t
             JOIN translation_cache c ON c.key = t.cache_key JOIN events e ON e.id = t.event_id
             WHERE e.status = 'active' AND t.origin = 'machine' AND c.repair IS NOT NULL GROUP BY t.lang, c.repair",
        )?;
        let rows = st.query_map([], |r| Ok(((r.get::<_, String>(0)?, r.get::<_, String>(1)?), r.get::<_, i64>(2)?)))?;
        rows.map(|r| r.map(|(k, n)| (k, n.max(0) as u64)).map_err(Into::into)).collect()
    }

    /// Write machine translations (and their cache entries) in one transaction.
    pub fn save_translations(&mut self, items: &[MachineTranslation]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut cache = tx.prepare_cached(
                "INSERT INTO translation_cache (key, text, engine, created_at, repair) VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (key) DO UPDATE SET text = excluded.text, engine = excluded.engine,
                        created_at = excluded.created_at, repair = coalesce(excluded.repair, translation_cache.repair)",
            )?;
            let mut tr = tx.prepare_cached(
                "INSERT INTO translations (event_id, lang, field, text, origin, engine, source_hash, cache_key)
                 VALUES (?1, ?2, ?3, ?4, 'machine', ?5, ?6, ?7)
                 ON CONFLICT (event_id, lang, field) DO UPDATE SET text = excluded.text, origin = 'machine',
                    engine = excluded.engine, source_hash = excluded.source_hash, cache_key = excluded.cache_key
                 WHERE translations.origin <> 'publisher'",
            )?;
            let now = self.clock.now_ms();
            for t in items {
                // The last line of P5 for engine answers, which `translate::send::answer`
                // checks first: nothing reaches the table or the cache unscrubbed.
                let text = crate::parse::pii::scrub(&crate::parse::controls::without_controls(&t.text));
                cache.execute(params![t.cache_key, text, t.engine, now, t.repair])?;
                tr.execute(params![t.event_id, t.lang, t.field, text, t.engine, t.source_hash, t.cache_key])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

/// What is known of an engine's past failures on one text (by cache key).
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub failures: u32,
    pub next_try_ms: i64,
}

impl Store {
    /// Texts an engine failed on, by cache key.
    pub fn translation_failures(&self) -> Result<HashMap<String, Failure>> {
        let mut st = self.conn.prepare("SELECT key, failures, next_try_ms FROM translation_failures")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, Failure { failures: r.get(1)?, next_try_ms: r.get(2)? })))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// One more failure of the engine on the text under `key`; it waits
    /// `backoff_ms` before its next try.
    pub fn record_translation_failure(&self, key: &str, error: &str, backoff_ms: i64) -> Result<u32> {
        let now = self.now_ms();
        self.conn.execute(
            "INSERT INTO translation_failures (key, failures, last_error, next_try_ms) VALUES (?1, 1, ?2, ?3)
             ON CONFLICT (key) DO UPDATE SET failures = failures + 1, last_error = excluded.last_error, next_try_ms = excluded.next_try_ms",
            params![key, error, now + backoff_ms],
        )?;
        Ok(self.conn.query_row("SELECT failures FROM translation_failures WHERE key = ?1", [key], |r| r.get(0))?)
    }

    /// The engine got the text under `key` right after all.
    pub fn clear_translation_failure(&self, key: &str) -> Result<()> {
        self.conn.execute("DELETE FROM translation_failures WHERE key = ?1", [key])?;
        Ok(())
    }
}

impl Store {
    /// Record how many texts of a source a run translated.
    pub fn record_translated(&self, run_id: i64, source: &str, translated: u64) -> Result<()> {
        self.conn.execute(
            "UPDATE run_sources SET translated = ?3 WHERE run_id = ?1 AND source = ?2",
            params![run_id, source, translated as i64],
        )?;
        Ok(())
    }
}
