//! Shared helpers for adapters: text cleaning, PII scrubbing, tolerant types,
//! encodings and dates. Pure functions; no I/O beyond the readers handed in.

pub mod category;
pub mod dates;
pub mod encoding;
pub mod labels;
pub mod loose;
pub mod loose_list;
pub mod occurrences;
pub mod pii;
pub mod price;
pub mod text;
pub mod xml;
