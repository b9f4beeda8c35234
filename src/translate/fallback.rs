//! The fallback engine (`[settings] fallback = "apertium"`, issue 11.5):
//! texts the configured server failed on, or is not asked this run (waiting
//! after failures, skipped), are translated by the local Apertium instead
//! of staying pending. Each such text is stored under the fallback's own
//! name and cache key, so `text_origin` names the engine that really
//! translated it, and the next run, finding a key of another engine, asks
//! the configured server again: the fallback's text is kept only until the
//! better engine answers.
//!
//! Not for: deciding what needs translating (`pipeline`), or poison-text
//! bookkeeping: a text the fallback fails on stays pending, uncounted.

use super::engine::translate_each_target;
use super::pipeline::{Fallen, Need, TranslateStats, Workers, prepared_key};
use crate::store::Store;
use crate::store::translations::MachineTranslation;
use anyhow::Result;
use std::collections::{BTreeMap, HashMap};

/// Translates `fallen` ((source, target) → texts, each with whether the
/// configured engine skipped it rather than left it pending) with `workers`,
/// from the cache where it can; counts into `stats`.
pub(super) fn translate(store: &mut Store, workers: &mut [Workers], fallen: Fallen, stats: &mut TranslateStats) -> Result<()> {
    let Some(engine) = workers.first().map(|w| w.engine_id()) else {
        return Ok(());
    };
    let mut by_src: BTreeMap<String, Fallen> = BTreeMap::new();
    for ((src, tgt), list) in fallen {
        by_src.entry(src.clone()).or_default().insert((src, tgt), list);
    }
    for (src, group) in by_src {
        let targets: Vec<(String, Vec<(Need, bool)>)> = group.into_iter().map(|((_, tgt), list)| (tgt, list)).collect();
        let mut out: Vec<MachineTranslation> = Vec::new();
        // Per target: the texts to send (distinct by key) and, per key, its answer.
        let mut asked: Vec<Vec<String>> = Vec::new();
        let mut keyed: Vec<Vec<(String, &Need, bool)>> = Vec::new();
        let mut cached: HashMap<String, String> = HashMap::new();
        for (tgt, list) in &targets {
            let (mut texts, mut entries) = (Vec::new(), Vec::new());
            let mut seen = std::collections::HashSet::new();
            for (n, skipped) in list {
                let key = prepared_key(&n.prepared, &n.field_key(), &src, tgt, &engine);
                if let Some(text) = store.cached_translation(&key)? {
                    cached.insert(key.clone(), text);
                } else if seen.insert(key.clone()) {
                    texts.push(n.prepared.text.clone());
                }
                entries.push((key, n, *skipped));
            }
            asked.push(texts);
            keyed.push(entries);
        }
        let tgt_names: Vec<&str> = targets.iter().map(|(t, _)| t.as_str()).collect();
        let results = translate_each_target(workers, &src, &tgt_names, &asked);
        for (t, result) in results.into_iter().enumerate() {
            let tgt = tgt_names[t];
            // The engine's answers by key, in the order asked.
            let mut answered: HashMap<&str, String> = HashMap::new();
            match result.texts {
                Ok(texts) => {
                    let mut sent = std::collections::HashSet::new();
                    let keys = keyed[t].iter().filter(|(k, _, _)| !cached.contains_key(k) && sent.insert(k.as_str()));
                    for ((key, n, _), text) in keys.zip(texts) {
                        answered.insert(key, n.finish(&text, tgt));
                    }
                }
                Err(e) => {
                    stats.error.get_or_insert_with(|| format!("{src}→{tgt} (fallback {engine}): {e:#}"));
                }
            }
            for (key, n, skipped) in &keyed[t] {
                let text = cached.get(key).or_else(|| answered.get(key.as_str()));
                let Some(text) = text else {
                    if !skipped {
                        stats.pending += 1;
                        stats.per_source.entry(n.source.clone()).or_default().2 += 1;
                    }
                    continue;
                };
                stats.fallback += 1;
                out.push(n.translated(tgt, text, &engine, key, stats));
            }
        }
        store.save_translations(&out)?;
    }
    if stats.fallback > 0 {
        stats.fallback_engine = Some(engine);
    }
    Ok(())
}
