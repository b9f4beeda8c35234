//! The fallback engine (`[settings] fallback = "apertium"`): texts the
//! configured server failed on, or is not asked this run (waiting after
//! failures, skipped), are translated by the local Apertium instead of staying
//! pending. Each such text is stored under the fallback's own name and cache
//! key, so `text_origin` names the engine that really translated it, and the
//! next run, finding a key of another engine, asks the configured server again:
//! the fallback's text is kept only until the better engine answers.
//!
//! The fallback's texts go out as the configured engine's do (`batches`):
//! in batches, a poison text isolated, waiting and skipped under its own key.
//!
//! Below the plan (`plan`), which calls it; above `batches`, `need` and
//! `stats`, which it uses.
//!
//! Not for: deciding what needs translating (`plan`).

use crate::store::Store;
use crate::store::translations::{Failure, MachineTranslation};
use crate::translate::engines::Workers;
use crate::translate::send::batches::{MAX_FAILURES, send};
use crate::translate::send::need::{Fallen, asked_key, prepared_key};
use crate::translate::send::stats::{Progress, TranslateStats};
use anyhow::Result;
use std::collections::HashMap;

/// Translates `fallen` with `workers`, from the cache where it can; counts
/// into `stats` (`fallback` too).
pub(in crate::translate) fn translate(
    store: &mut Store,
    workers: &mut [Workers],
    fallen: Fallen,
    failures: &HashMap<String, Failure>,
    stats: &mut TranslateStats,
    stop: &dyn Fn() -> Option<String>,
    progress: &mut dyn FnMut(Progress),
) -> Result<()> {
    let Some(engine) = workers.first().map(|w| w.engine_id()) else {
        return Ok(());
    };
    let translated_before = stats.translated;
    let now = store.now_ms();
    let mut from_cache: Vec<MachineTranslation> = Vec::new();
    let mut needs = Fallen::new();
    for ((src, tgt), list) in fallen {
        for mut n in list {
            n.asked = asked_key(&n.prepared.text, n.route, &n.field_key(), src.as_str(), tgt.as_str(), &engine);
            n.key = prepared_key(&n.prepared, &n.asked, src.as_str(), tgt.as_str());
            if let Some(text) = store.cached_translation(&n.key)? {
                from_cache.push(n.translated(tgt, &text, &engine, &n.key, stats));
                continue;
            }
            match failures.get(&n.key) {
                Some(f) if f.failures >= MAX_FAILURES || f.next_try_ms > now => {
                    stats.pending += 1;
                    stats.per_source.entry(n.source.clone()).or_default().pending += 1;
                }
                _ => needs.entry((src.clone(), tgt)).or_default().push(n),
            }
        }
    }
    store.save_translations(&from_cache)?;
    send(store, workers, &engine, needs, failures, stats, None, stop, progress)?;
    stats.fallback = stats.translated - translated_before;
    if stats.fallback > 0 {
        stats.fallback_engine = Some(engine);
    }
    Ok(())
}
