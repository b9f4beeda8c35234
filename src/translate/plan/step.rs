//! One translation step as a value: into which languages, of which
//! sources' events, with which term files and limits, and until when
//! ([`Step`]); [`Step::run`] plans it (`plan`), stores what the cache and
//! the humans answer, sends the rest to the engines (`send::batches`) and
//! what they fail on to the fallback (`send::fallback`).
//!
//! Not for what to translate (`plan`), nor for starting the engines the
//! settings ask for (`configured`).

use super::{HumanRow, Options, Plan, plan};
use crate::lang::Lang;
use crate::store::Store;
use crate::translate::engines::{Translator, Workers};
use crate::translate::send::stats::{Progress, TranslateStats};
use anyhow::Result;

/// One translation step.
pub struct Step<'a> {
    /// The display languages to translate into.
    pub langs: &'a [Lang],
    /// Only these sources' events (empty: every source's).
    pub sources: &'a [String],
    /// The term files and the size limit.
    pub options: Options,
    /// Asked before every engine batch: when it gives a reason (the run's
    /// deadline passed, a signal asked it to stop), what is translated is
    /// kept, the rest stays pending for the next run, and the reason is in
    /// [`TranslateStats::interrupted`]. None: the step runs to its end.
    pub stop: Option<&'a dyn Fn() -> Option<String>>,
}

impl<'a> Step<'a> {
    /// Every active event of `sources` (empty: all) into `langs`, with the
    /// shipped term base and the default limits, to its end.
    pub fn new(langs: &'a [Lang], sources: &'a [String]) -> Step<'a> {
        Step { langs, sources, options: Options::default(), stop: None }
    }

    /// This step with the term files and limits of `options`.
    pub fn with_options(self, options: Options) -> Step<'a> {
        Step { options, ..self }
    }

    /// This step, asking `stop` before every engine batch.
    pub fn until(self, stop: &'a dyn Fn() -> Option<String>) -> Step<'a> {
        Step { stop: Some(stop), ..self }
    }

    /// Translate every title, description and price of the step's events
    /// into its languages where needed. `workers` are engine instances of
    /// one kind (one per core); what they fail on, or are not asked this
    /// run (a text waiting after failures, or skipped), goes to `fallback`
    /// when there is one (`[settings] fallback`). Its texts are stored under
    /// its own name and cache key, so the next run asks `workers` again: a
    /// fallback text is a lesser engine's, kept only until the configured
    /// one answers. `progress` is told as batches complete.
    pub fn run<T: Translator + Send>(
        &self,
        store: &mut Store,
        workers: &mut [T],
        fallback: Option<&mut [Workers]>,
        mut progress: impl FnMut(Progress),
    ) -> Result<TranslateStats> {
        let mut stats = TranslateStats::default();
        let Some(engine) = workers.first().map(|w| w.engine_id()) else {
            return Ok(stats);
        };
        let stop = self.stop.unwrap_or(&|| None);
        let Plan { needs, from_cache, mut human_rows, mut fallen, failures, .. } =
            plan(store, &engine, self.langs, self.sources, &self.options, fallback.is_some(), &mut stats)?;
        store.save_translations(&from_cache)?;
        human_rows.sort();
        human_rows.dedup();
        for HumanRow { source_lang, lang, field, original, text } in &human_rows {
            store.save_human_translation(source_lang, *lang, *field, original, text)?;
        }
        let fallen_into = if fallback.is_some() { Some(&mut fallen) } else { None };
        crate::translate::send::batches::send(store, workers, &engine, needs, &failures, &mut stats, fallen_into, stop, &mut progress)?;
        if stats.interrupted.is_some() {
            // Stopped: what the fallback would have had waits for the next run.
            for n in fallen.into_values().flatten() {
                stats.pending += 1;
                stats.per_source.entry(n.source.clone()).or_default().pending += 1;
            }
        } else if let Some(fallback) = fallback
            && !fallen.is_empty()
        {
            crate::translate::send::fallback::translate(store, fallback, fallen, &failures, &mut stats, stop, &mut progress)?;
        }
        Ok(stats)
    }
}
