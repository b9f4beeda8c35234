//! Machine translation of event texts into CityVibe's seven languages.
//!
//! `engine` holds the [`Translator`] trait and its backends; `stream` turns
//! plain text into Apertium's stream format and back. Callers hand in texts
//! already scrubbed of personal data (P5) and get texts of the same count and
//! order back. A translation step runs from `pipeline` (the plan) through
//! `fallback` to `batches` (the sending), over `need` and `stats`.

pub mod analyser;
mod answer;
mod apertium;
mod apy;
mod batches;
pub mod engine;
pub mod exchange;
mod fallback;
pub mod fields;
pub mod garble;
pub mod gazetteer;
pub mod lang;
mod libretranslate;
mod namewords;
mod need;
mod openai;
mod ordinals;
pub mod phrases;
pub mod pipeline;
pub mod protect;
pub mod routes;
mod server;
mod stats;
pub mod status;
mod stream;
pub mod style;
pub mod terms;
pub mod view;
mod words;

pub use engine::{
    ApertiumTranslator, ApyTranslator, NoneTranslator, PIVOT, TargetResult, Translator, translate_each_target, translate_targets_parallel,
};
pub use stream::{KEEP_END, KEEP_START, keep_verbatim};

/// The one engine `settings.translator` names, built as a run builds it (`None`
/// when translation is switched off); for `doctor`'s probe, which proves it
/// with a real translation.
pub fn engine_for(settings: &crate::config::Settings, timeout: std::time::Duration) -> anyhow::Result<Option<Box<dyn Translator + Send>>> {
    use crate::vocab::Translator as T;
    let key = || settings.api_key_env.as_deref().and_then(|name| std::env::var(name).ok());
    let url = |u: &Option<String>| u.clone().unwrap_or_default();
    Ok(Some(match settings.translator {
        T::None => return Ok(None),
        T::Apertium => Box::new(ApertiumTranslator::system()?.with_timeout(timeout)),
        T::Apy => Box::new(ApyTranslator::with_timeout(&url(&settings.apy_url), timeout)?),
        T::Libretranslate => Box::new(libretranslate::LibreTranslator::new(&url(&settings.libretranslate_url), key(), timeout)?),
        T::Openai => Box::new(openai::OpenAiTranslator::new(
            &url(&settings.openai_url),
            settings.openai_model.as_deref().unwrap_or_default(),
            key(),
            timeout,
        )?),
    }))
}
