//! What a translation step did ([`TranslateStats`]): texts translated,
//! answered by the cache, pending, cut, set aside, sent to the fallback,
//! in total and per source, and the lines the operator is told of it. Every
//! layer of the step counts into it (`plan`, `fallback`, `batches`); it
//! imports none of them.
//!
//! Not for: `translate status`, which tells how the stored texts are shown
//! (`status`).

use std::collections::BTreeMap;

/// What a translation step did, in total and per source.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct TranslateStats {
    /// Texts translated by the engine now.
    pub translated: u64,
    /// Texts answered by the cache (named as in `run --json`: one name per thing).
    #[serde(rename = "translation_cache_hits")]
    pub cache_hits: u64,
    /// Texts still untranslated (engine missing, failed or timed out).
    #[serde(rename = "translation_pending")]
    pub pending: u64,
    /// Texts over the size limit, cut at a sentence end before translation.
    pub shortened: u64,
    /// Texts an engine failed on repeatedly: not sent again until they change.
    pub skipped: u64,
    /// Texts the fallback engine translated because the configured one
    /// failed on them (counted in `translated` too).
    #[serde(rename = "translated_by_fallback")]
    pub fallback: u64,
    /// Translations that came back garbled (`data/lang/garbled.tsv`) and were
    /// mended by house style, or translated again.
    #[serde(skip)]
    pub garbled_mended: u64,
    #[serde(skip)]
    pub garbled_retranslated: u64,
    /// Words sent to the engine.
    pub words: u64,
    #[serde(skip)]
    pub per_source: BTreeMap<String, SourceCounts>,
    /// The first engine error, for the report.
    pub error: Option<String>,
    /// The fallback engine's name, when it translated something.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_engine: Option<String>,
    /// Lines of the operator's term files that were skipped, or a missing
    /// `terms_dir`: said, and translation goes on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub term_problems: Vec<String>,
    /// Texts whose names capital letters decided because Apertium's Spanish
    /// analyser failed on them.
    #[serde(skip)]
    pub analyser_failures: u64,
    /// The analyser's first error.
    #[serde(skip)]
    pub analyser_error: Option<String>,
    /// Why the step stopped before its end (the run's deadline, a signal): the
    /// texts not sent are counted in `pending`.
    #[serde(skip)]
    pub interrupted: Option<String>,
}

/// What a translation step did for one source's texts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SourceCounts {
    /// Texts translated by an engine now.
    pub translated: u64,
    /// Texts answered by the cache.
    pub cache_hits: u64,
    /// Texts still untranslated.
    pub pending: u64,
}

/// How far a translation step has come, as batches complete.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Texts sent and answered (or given up on) so far.
    pub done: u64,
    /// Texts the step sends in all.
    pub total: u64,
    /// Words sent so far.
    pub words: u64,
}

impl TranslateStats {
    /// The lines the operator is told on stderr after a translation step.
    pub fn problems(&self) -> Vec<String> {
        let mut lines = self.term_problems.clone();
        if let (Some(engine), Some(why)) = (&self.fallback_engine, &self.error) {
            lines.push(format!(
                "{} translated by the fallback ({engine}) instead, asked of the configured engine again next run: {why}",
                count(self.fallback, "text")
            ));
        }
        if let Some(why) = self.error.as_ref().filter(|_| self.pending > 0 || self.fallback == 0) {
            // "1 translation", not "1 translations".
            lines.push(format!("{} pending, retried next run: {why}", count(self.pending, "translation")));
        }
        if let (n @ 1.., Some(why)) = (self.analyser_failures, &self.analyser_error) {
            lines
                .push(format!("Apertium's Spanish analyser failed on {n} texts, whose names were decided by capital letters alone: {why}"));
        }
        if self.skipped > 0 {
            lines.push(format!(
                "{} skipped: the engine failed on each of them repeatedly (retried when they change)",
                count(self.skipped, "text")
            ));
        }
        lines
    }
}

/// `n` and the English noun, singular for one (`pluralizer`'s rules).
fn count(n: u64, noun: &str) -> String {
    pluralizer::pluralize(noun, n.min(isize::MAX as u64) as isize, true)
}

#[cfg(test)]
mod tests {
    // "1 translations pending" reads wrong.
    #[test]
    fn one_is_singular() {
        assert_eq!(super::count(1, "translation"), "1 translation");
        assert_eq!(super::count(2, "translation"), "2 translations");
        assert_eq!(super::count(0, "text"), "0 texts");
    }
}
