//! Machine translation of event texts into CityVibe's seven languages.
//!
//! `engine` holds the [`Translator`] trait and its backends; `stream` turns
//! plain text into Apertium's stream format and back. Callers hand in texts
//! already scrubbed of personal data (P5) and get texts of the same count and
//! order back.

mod apertium;
mod apy;
mod batches;
pub mod engine;
pub mod exchange;
mod fallback;
pub mod fields;
mod libretranslate;
mod openai;
pub mod phrases;
pub mod pipeline;
pub mod protect;
mod server;
pub mod status;
mod stream;
pub mod style;
pub mod terms;
pub mod view;

pub use engine::{
    ApertiumTranslator, ApyTranslator, LANGUAGES, NoneTranslator, PIVOT, TargetResult, Translator, translate_each_target,
    translate_targets_parallel,
};
pub use stream::{KEEP_END, KEEP_START, keep_verbatim};
