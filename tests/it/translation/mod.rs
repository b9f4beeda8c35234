//! The translation wing: the engines run for real (Apertium, apertium-apy,
//! LibreTranslate and OpenAI-compatible servers on loopback), the pipeline that
//! decides what to translate, the finishing, the term base, the routes, the
//! memory of human corrections, and every engine answer checked before it is stored.

mod answers_checked;
mod catalan_originals;
mod engine;
pub(crate) mod engine_answers;
mod english;
mod garbled;
pub(crate) mod memory;
mod memory_gaps;
mod memory_lang;
mod name_words;
mod names;
mod neural;
mod neural_fallback;
mod neural_poison;
mod neural_referee;
mod pipeline;
mod plain_descriptions;
pub(crate) mod quality;
mod real_bodies;
mod real_headings;
mod real_joins;
mod real_senses;
mod real_senses_mined;
mod real_slips;
mod routes;
mod senses;
mod status;
mod titles_fr_it;
mod unknown_words;
