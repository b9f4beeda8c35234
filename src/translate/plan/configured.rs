//! The engines the settings ask for, started for a step: the configured
//! one's workers (one per core for Apertium, one client for a server) and the
//! fallback's, an engine that cannot start standing in as [`Unavailable`] so
//! that a run still stores every event and counts what is pending.
//!
//! Not for: what to translate or the step itself (`plan`), or an engine's
//! own workings (`engines`).

use super::step::Step;
use crate::lang::{Lang, SourceLang};
use crate::store::Store;
use crate::translate::engines::apertium::ApertiumTranslator;
use crate::translate::engines::apy::ApyTranslator;
use crate::translate::engines::libretranslate::LibreTranslator;
use crate::translate::engines::openai::OpenAiTranslator;
use crate::translate::engines::{Translator, Workers};
use crate::translate::send::stats::{Progress, TranslateStats};
use anyhow::Result;

/// The engines the settings ask for: the configured one's workers, and the
/// fallback's when `[settings] fallback` names one.
pub struct Engines {
    pub workers: Vec<Workers>,
    pub fallback: Option<Vec<Workers>>,
}

impl Engines {
    /// Run `step` ([`Step::run`]) with these engines.
    pub fn translate(&mut self, store: &mut Store, step: &Step<'_>, progress: impl FnMut(Progress)) -> Result<TranslateStats> {
        step.run(store, &mut self.workers, self.fallback.as_deref_mut(), progress)
    }
}

/// A translator that is not there: every request fails with the reason, so
/// the texts are counted as pending and retried next run.
pub struct Unavailable(pub String);

impl Translator for Unavailable {
    fn engine_id(&self) -> String {
        "unavailable".into()
    }
    fn translate(&mut self, _src: &SourceLang, _tgt: Lang, _texts: &[String]) -> Result<Vec<String>> {
        anyhow::bail!("{}", self.0)
    }
    fn supports(&self, _src: &SourceLang, _tgt: Lang) -> bool {
        false
    }
}

/// The engine `settings.translator` names, built as a run builds each of its
/// workers (`None` when translation is switched off); `doctor` proves it
/// with a real translation.
pub fn engine(settings: &crate::config::Settings, timeout: std::time::Duration) -> Result<Option<Workers>> {
    engine_of_worker(settings, timeout)
}

/// [`engine`] as one of the run's workers: a local engine knows what all
/// the workers may hold together (`translate_max_processes`,
/// `translate_max_memory_mb`); a wave gives it its share (`send::batches`).
fn engine_of_worker(settings: &crate::config::Settings, timeout: std::time::Duration) -> Result<Option<Workers>> {
    use crate::vocab::Translator as T;
    let key = || settings.api_key_env.as_deref().and_then(|name| std::env::var(name).ok());
    let url = |u: &Option<String>| u.clone().unwrap_or_default();
    Ok(Some(match settings.translator {
        T::None => return Ok(None),
        T::Apertium => Box::new(
            ApertiumTranslator::system()?
                .with_timeout(timeout)
                .with_max_processes(settings.translate_max_processes)
                .with_max_memory_mb(settings.translate_max_memory_mb),
        ),
        T::Apy => Box::new(ApyTranslator::with_timeout(&url(&settings.apy_url), timeout)?),
        T::Libretranslate => Box::new(LibreTranslator::new(&url(&settings.libretranslate_url), key(), timeout)?),
        T::Openai => Box::new(OpenAiTranslator::new(
            &url(&settings.openai_url),
            settings.openai_model.as_deref().unwrap_or_default(),
            key(),
            timeout,
        )?),
    }))
}

/// What an engine that does not start is said to be, and what to do.
fn not_usable(settings: &crate::config::Settings) -> String {
    use crate::vocab::Translator as T;
    let url = |u: &Option<String>| u.clone().unwrap_or_default();
    match settings.translator {
        T::Apertium => "Apertium is not usable (install it with `make deps`)".into(),
        T::Apy => format!("the APy server at {} is not usable", url(&settings.apy_url)),
        T::Libretranslate => format!("the LibreTranslate server at {} is not usable", url(&settings.libretranslate_url)),
        T::Openai => format!("the OpenAI-compatible server at {} is not usable", url(&settings.openai_url)),
        T::None => "translation is switched off".into(),
    }
}

/// How many local engines translate at once: the operator's
/// `translate_workers`, else one per core, at most 4; never more than the
/// `cores`.
fn workers_for(asked: Option<std::num::NonZeroUsize>, cores: usize) -> usize {
    let cores = cores.max(1);
    asked.map_or(cores.min(4), |n| n.get().min(cores))
}

/// The engines the settings ask for, one per core (and the fallback's);
/// `None` when translation is switched off. An engine that cannot start
/// gives [`Unavailable`], so the run still stores every event and counts
/// what is pending.
pub fn engines(settings: &crate::config::Settings) -> Option<Engines> {
    use crate::vocab::Translator as T;
    let timeout = std::time::Duration::from_secs(settings.translate_timeout_secs.max(1));
    // No more workers than cores: a worker keeps a core busy.
    let cores = workers_for(settings.translate_workers, std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let make = |_: usize| -> Workers {
        match engine_of_worker(settings, timeout) {
            Ok(Some(engine)) => engine,
            Ok(None) => Box::new(Unavailable(not_usable(settings))),
            Err(e) => Box::new(Unavailable(format!("{:#}", e.context(not_usable(settings))))),
        }
    };
    let workers = match settings.translator {
        T::None => return None,
        // One client is enough: the server does the work.
        T::Apy | T::Libretranslate | T::Openai => vec![make(0)],
        T::Apertium => (0..cores).map(make).collect(),
    };
    let apertium = || -> Workers {
        ApertiumTranslator::system()
            .map(|t| {
                Box::new(
                    t.with_timeout(timeout)
                        .with_max_processes(settings.translate_max_processes)
                        .with_max_memory_mb(settings.translate_max_memory_mb),
                ) as Workers
            })
            .map_err(|e| e.context("Apertium is not usable (install it with `make deps`)"))
            .unwrap_or_else(|e| Box::new(Unavailable(format!("{e:#}"))))
    };
    let fallback = settings.fallback.map(|crate::vocab::Fallback::Apertium| (0..cores).map(|_| apertium()).collect());
    Some(Engines { workers, fallback })
}

#[cfg(test)]
mod tests {
    use super::workers_for;
    use std::num::NonZeroUsize;

    #[test]
    fn workers_are_one_per_core_at_most_four_or_the_operator_s_never_more_than_the_cores() {
        assert_eq!(workers_for(None, 2), 2);
        assert_eq!(workers_for(None, 16), 4);
        assert_eq!(workers_for(None, 0), 1);
        assert_eq!(workers_for(NonZeroUsize::new(1), 2), 1);
        assert_eq!(workers_for(NonZeroUsize::new(3), 2), 2);
        assert_eq!(workers_for(NonZeroUsize::new(8), 16), 8);
    }
}
