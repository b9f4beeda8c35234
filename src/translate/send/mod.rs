//! Sending texts to an engine: what one text needs ([`need`]: its cache
//! key, the row its translation becomes), batch by batch with a failing text
//! sent alone ([`batches`]), what the configured engine failed on to the
//! fallback engine ([`fallback`]), the check of every answer before it is
//! stored ([`answer`]) and what the step did ([`stats`]).
//!
//! Not for: choosing what to translate (`plan`), preparing a text
//! (`prepare`) or house style (`finish`).

pub mod answer;
pub mod batches;
pub mod fallback;
pub mod need;
pub mod stats;
mod waves;
