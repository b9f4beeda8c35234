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
