//! What to translate, and the cache: only new or changed texts reach an
//! engine; the publisher's own translations are never machine-translated
//! over; a failing engine leaves texts pending for the next run, never loses
//! an event.

use super::engine::{Translator, translate_targets_parallel};
use crate::store::Store;
use crate::store::events::text_hash;
use crate::store::translations::MachineTranslation;
use anyhow::Result;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};

/// Texts per engine batch: small enough to save progress often.
const BATCH: usize = 250;

/// What a translation step did, in total and per source.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct TranslateStats {
    /// Texts translated by the engine now.
    pub translated: u64,
    /// Texts answered by the cache (named as in `run --json`: one name per thing, issue 13).
    #[serde(rename = "translation_cache_hits")]
    pub cache_hits: u64,
    /// Texts still untranslated (engine missing, failed or timed out).
    #[serde(rename = "translation_pending")]
    pub pending: u64,
    /// Words sent to the engine.
    pub words: u64,
    #[serde(skip)]
    pub per_source: BTreeMap<String, (u64, u64, u64)>,
    /// The first engine error, for the report.
    pub error: Option<String>,
}

/// The cache key: a hash of (text, source language, target language, engine and version).
pub fn cache_key(text: &str, src: &str, tgt: &str, engine: &str) -> String {
    let mut h = Sha256::new();
    for part in [text, src, tgt, engine] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    hex::encode(h.finalize())
}

struct Need {
    event_id: i64,
    source: String,
    field: &'static str,
    text: String,
    hash: String,
}

/// Translate every active event's title and description into `langs` where
/// needed. `workers` are engine instances of one kind (one per core);
/// `progress` is told (done, total) as batches complete.
pub fn translate_pending<T: Translator + Send>(
    store: &mut Store,
    workers: &mut [T],
    langs: &[String],
    sources: &[String],
    mut progress: impl FnMut(u64, u64, u64),
) -> Result<TranslateStats> {
    let mut stats = TranslateStats::default();
    let Some(engine) = workers.first().map(|w| w.engine_id()) else {
        return Ok(stats);
    };
    let existing = store.existing_translations()?;
    // (source lang, target lang) → texts needing an engine.
    let mut needs: BTreeMap<(String, String), Vec<Need>> = BTreeMap::new();
    let mut from_cache: Vec<MachineTranslation> = Vec::new();
    for t in store.texts_to_translate(sources)? {
        // Belt and braces (P5): only scrubbed text ever reaches an engine.
        // The venue's own name is a name, not words to translate.
        let scrubbed = crate::parse::pii::scrub(&t.text);
        let text = match t.venue.as_deref() {
            Some(v) if scrubbed.contains(v) => super::keep_verbatim(&scrubbed, &[v]),
            _ => scrubbed,
        };
        let hash = text_hash(&t.text);
        for lang in langs {
            if *lang == t.lang {
                continue;
            }
            match existing.get(&(t.event_id, lang.clone(), t.field.to_string())) {
                Some(e) if e.origin == "publisher" => continue,
                Some(e) if e.source_hash == hash => continue,
                _ => {}
            }
            let key = cache_key(&text, &t.lang, lang, &engine);
            if let Some(cached) = store.cached_translation(&key)? {
                stats.cache_hits += 1;
                stats.per_source.entry(t.source.clone()).or_default().1 += 1;
                from_cache.push(MachineTranslation {
                    event_id: t.event_id,
                    lang: lang.clone(),
                    field: t.field,
                    text: cached,
                    engine: engine.clone(),
                    source_hash: hash.clone(),
                    cache_key: key,
                });
                continue;
            }
            needs.entry((t.lang.clone(), lang.clone())).or_default().push(Need {
                event_id: t.event_id,
                source: t.source.clone(),
                field: t.field,
                text: text.clone(),
                hash: hash.clone(),
            });
        }
    }
    store.save_translations(&from_cache)?;
    let total: u64 = needs.values().map(|v| v.len() as u64).sum();
    let mut done = 0u64;
    // Per source language: the distinct texts, each sent once per target,
    // the targets spread over the workers.
    let mut by_src: BTreeMap<String, Vec<(String, Vec<Need>)>> = BTreeMap::new();
    for ((src, tgt), list) in needs {
        by_src.entry(src).or_default().push((tgt, list));
    }
    for (src, targets) in by_src {
        let mut texts: Vec<String> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for (_, list) in &targets {
            for n in list {
                if !index.contains_key(&n.text) {
                    index.insert(n.text.clone(), texts.len());
                    texts.push(n.text.clone());
                }
            }
        }
        let tgt_names: Vec<&str> = targets.iter().map(|(t, _)| t.as_str()).collect();
        for chunk_start in (0..texts.len()).step_by(BATCH) {
            let chunk = &texts[chunk_start..(chunk_start + BATCH).min(texts.len())];
            let results = translate_targets_parallel(workers, &src, &tgt_names, chunk);
            let mut out = Vec::new();
            for ((tgt, list), result) in targets.iter().zip(results) {
                let in_chunk = list.iter().filter(|n| {
                    let i = index[&n.text];
                    i >= chunk_start && i < chunk_start + chunk.len()
                });
                match result.texts {
                    Ok(translated) => {
                        for n in in_chunk {
                            let t = &translated[index[&n.text] - chunk_start];
                            stats.translated += 1;
                            stats.words += n.text.split_whitespace().count() as u64;
                            stats.per_source.entry(n.source.clone()).or_default().0 += 1;
                            out.push(MachineTranslation {
                                event_id: n.event_id,
                                lang: tgt.clone(),
                                field: n.field,
                                text: t.clone(),
                                engine: engine.clone(),
                                source_hash: n.hash.clone(),
                                cache_key: cache_key(&n.text, &src, tgt, &engine),
                            });
                        }
                    }
                    Err(e) => {
                        stats.error.get_or_insert_with(|| format!("{src}→{tgt}: {e:#}"));
                        for n in in_chunk {
                            stats.pending += 1;
                            stats.per_source.entry(n.source.clone()).or_default().2 += 1;
                        }
                    }
                }
            }
            done += out.len() as u64;
            store.save_translations(&out)?;
            progress(done, total, stats.words);
        }
    }
    Ok(stats)
}

/// A translator that is not there: every request fails with the reason, so
/// the texts are counted as pending and retried next run.
pub struct Unavailable(pub String);

impl Translator for Unavailable {
    fn engine_id(&self) -> String {
        "unavailable".into()
    }
    fn translate(&mut self, _src: &str, _tgt: &str, _texts: &[String]) -> Result<Vec<String>> {
        anyhow::bail!("{}", self.0)
    }
    fn supports(&self, _src: &str, _tgt: &str) -> bool {
        false
    }
}

/// The engines the settings ask for, one per core; `None` when translation
/// is switched off. An engine that cannot start gives [`Unavailable`], so the
/// run still stores every event and counts what is pending.
pub fn engines(settings: &crate::config::Settings) -> Option<Vec<Box<dyn Translator + Send>>> {
    let timeout = std::time::Duration::from_secs(settings.translate_timeout_secs.max(1));
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).clamp(1, 4);
    let make = |_: usize| -> Box<dyn Translator + Send> {
        let made: Result<Box<dyn Translator + Send>> = match settings.translator.as_str() {
            "apertium" => super::ApertiumTranslator::system()
                .map(|t| Box::new(t.with_timeout(timeout)) as Box<dyn Translator + Send>)
                .map_err(|e| e.context("Apertium is not usable (install it with `make deps`)")),
            "apy" => {
                let url = settings.apy_url.clone().unwrap_or_default();
                super::ApyTranslator::with_timeout(&url, timeout)
                    .map(|t| Box::new(t) as Box<dyn Translator + Send>)
                    .map_err(|e| e.context(format!("the APy server at {url} is not usable")))
            }
            _ => return Box::new(Unavailable("translation is switched off".into())),
        };
        made.unwrap_or_else(|e| Box::new(Unavailable(format!("{e:#}"))))
    };
    match settings.translator.as_str() {
        "none" => None,
        // One APy client is enough: the server does the work.
        "apy" => Some(vec![make(0)]),
        _ => Some((0..workers).map(make).collect()),
    }
}
