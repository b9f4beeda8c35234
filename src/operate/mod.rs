//! The operator's use cases, as `run` is the cron job's: switching a source
//! on or off (`switch`), taking an event down and lifting it (`takedown`),
//! correcting a field of a stored event (`correct`), and importing a
//! translator's file (`import`). Each takes its inputs (the store or the
//! database's path, sources.toml's path and the config as loaded, the
//! clock that dates what it writes) and returns a typed outcome; it prints
//! nothing. `commands/` parses the arguments, calls one of these and
//! prints what came of it.
//!
//! Not for the rules these apply: what the store keeps (`store`), how
//! sources.toml is edited (`config`), how a text is made fit to store
//! (`parse::stored`), how an exchange file reads (`translate::exchange`).

pub mod correct;
pub mod import;
pub mod switch;
pub mod takedown;
