//! The engines the settings ask for, started for a step: the configured
//! one's workers (one per core for Apertium, one client for a server) and the
//! fallback's, an engine that cannot start standing in as [`Unavailable`] so
//! that a run still stores every event and counts what is pending.
//!
//! Not for: what to translate or the step itself (`plan`), or an engine's
//! own workings (`engines`).

use super::{Options, translate_pending_falling_back, translate_until};
use crate::lang::Lang;
use crate::store::Store;
use crate::translate::engines::apertium::ApertiumTranslator;
use crate::translate::engines::apy::ApyTranslator;
use crate::translate::engines::{Translator, Workers};
use crate::translate::send::stats::TranslateStats;
use anyhow::Result;

/// The engines the settings ask for: the configured one's workers, and the
/// fallback's when `[settings] fallback` names one.
pub struct Engines {
    pub workers: Vec<Workers>,
    pub fallback: Option<Vec<Workers>>,
}

impl Engines {
    /// [`translate_pending_falling_back`] with these engines.
    pub fn translate(
        &mut self,
        store: &mut Store,
        langs: &[Lang],
        sources: &[String],
        options: &Options,
        progress: impl FnMut(u64, u64, u64),
    ) -> Result<TranslateStats> {
        translate_pending_falling_back(store, &mut self.workers, self.fallback.as_deref_mut(), langs, sources, options, progress)
    }

    /// [`translate_until`] with these engines: `stop` is asked before every batch.
    pub fn translate_until(
        &mut self,
        store: &mut Store,
        langs: &[Lang],
        sources: &[String],
        options: &Options,
        stop: &dyn Fn() -> Option<String>,
        progress: impl FnMut(u64, u64, u64),
    ) -> Result<TranslateStats> {
        translate_until(store, &mut self.workers, self.fallback.as_deref_mut(), langs, sources, options, stop, progress)
    }
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

/// The engines the settings ask for, one per core (and the fallback's);
/// `None` when translation is switched off. An engine that cannot start
/// gives [`Unavailable`], so the run still stores every event and counts
/// what is pending.
pub fn engines(settings: &crate::config::Settings) -> Option<Engines> {
    let timeout = std::time::Duration::from_secs(settings.translate_timeout_secs.max(1));
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).clamp(1, 4);
    let apertium = || -> Workers {
        ApertiumTranslator::system()
            .map(|t| Box::new(t.with_timeout(timeout)) as Workers)
            .map_err(|e| e.context("Apertium is not usable (install it with `make deps`)"))
            .unwrap_or_else(|e| Box::new(Unavailable(format!("{e:#}"))))
    };
    let make = |_: usize| -> Box<dyn Translator + Send> {
        let made: Result<Box<dyn Translator + Send>> = match settings.translator {
            crate::vocab::Translator::Apertium => return apertium(),
            crate::vocab::Translator::Apy => {
                let url = settings.apy_url.clone().unwrap_or_default();
                ApyTranslator::with_timeout(&url, timeout)
                    .map(|t| Box::new(t) as Box<dyn Translator + Send>)
                    .map_err(|e| e.context(format!("the APy server at {url} is not usable")))
            }
            crate::vocab::Translator::Libretranslate => {
                let url = settings.libretranslate_url.clone().unwrap_or_default();
                let key = settings.api_key_env.as_deref().and_then(|name| std::env::var(name).ok());
                crate::translate::engines::libretranslate::LibreTranslator::new(&url, key, timeout)
                    .map(|t| Box::new(t) as Box<dyn Translator + Send>)
                    .map_err(|e| e.context(format!("the LibreTranslate server at {url} is not usable")))
            }
            crate::vocab::Translator::Openai => {
                let url = settings.openai_url.clone().unwrap_or_default();
                let key = settings.api_key_env.as_deref().and_then(|name| std::env::var(name).ok());
                crate::translate::engines::openai::OpenAiTranslator::new(
                    &url,
                    settings.openai_model.as_deref().unwrap_or_default(),
                    key,
                    timeout,
                )
                .map(|t| Box::new(t) as Box<dyn Translator + Send>)
                .map_err(|e| e.context(format!("the OpenAI-compatible server at {url} is not usable")))
            }
            crate::vocab::Translator::None => return Box::new(Unavailable("translation is switched off".into())),
        };
        made.unwrap_or_else(|e| Box::new(Unavailable(format!("{e:#}"))))
    };
    let workers = match settings.translator {
        crate::vocab::Translator::None => return None,
        // One client is enough: the server does the work.
        crate::vocab::Translator::Apy | crate::vocab::Translator::Libretranslate | crate::vocab::Translator::Openai => vec![make(0)],
        crate::vocab::Translator::Apertium => (0..cores).map(make).collect(),
    };
    let fallback = settings.fallback.map(|crate::vocab::Fallback::Apertium| (0..cores).map(|_| apertium()).collect());
    Some(Engines { workers, fallback })
}
