//! Machine translation of event texts into CityVibe's seven languages.
//!
//! A translation step runs as a pipeline, one folder per stage, each
//! importing only the ones below it:
//! - `plan`: what to translate and the cache; drives the step;
//! - `send`: the texts an engine must translate, sent batch by batch, the
//!   fallback engine, the check of every answer, what the step did;
//! - `finish`: house style on every answer, and the garbled forms it knows;
//! - `prepare`: what an engine must not translate (names, places, terms,
//!   ordinals), found before it sees a text, and the term base;
//! - `engines`: the [`engines::Translator`] trait, its backends and the
//!   route table.
//!
//! Beside the pipeline: `view` and `fields` (an event shown in a reader's
//! language), `phrases` (set phrases of prices and audiences), `lang` (the
//! language data), `exchange` (PO and XLIFF out and back) and `status`.
//! Callers hand in texts already scrubbed of personal data (P5) and get texts
//! of the same count and order back.

pub mod engines;
pub mod exchange;
pub mod fields;
pub mod finish;
pub mod lang;
pub mod phrases;
pub mod plan;
pub mod prepare;
pub mod send;
pub mod status;
pub mod view;

use engines::Translator;
use engines::apertium::ApertiumTranslator;
use engines::apy::ApyTranslator;

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
        T::Libretranslate => Box::new(engines::libretranslate::LibreTranslator::new(&url(&settings.libretranslate_url), key(), timeout)?),
        T::Openai => Box::new(engines::openai::OpenAiTranslator::new(
            &url(&settings.openai_url),
            settings.openai_model.as_deref().unwrap_or_default(),
            key(),
            timeout,
        )?),
    }))
}
