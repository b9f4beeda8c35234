//! One run: for every enabled source, fetch (through the polite scheduler,
//! all hosts interleaved), parse, scrub, and store in one transaction per
//! source; then report. A failure of one source never stops the others.
//!
//! The door of the folder: it declares the parts and hands on what the
//! rest of the crate uses; it defines nothing.
//! - `runner`: one run over the selected sources ([`run`], [`run_within`]);
//! - `gate`: whether a source is fetched now ([`SourceGate`]);
//! - `driver`: one source's way through the run, request by request;
//! - `plan`: which feed of a source to ask next (pure state);
//! - `pages`: the pages of one paged feed;
//! - `take_in`: parsing and storing what came, with its typed error;
//! - `fetched`, `sinks`, `live`: what came, where its records go, the
//!   settings re-read mid-run;
//! - `bounds`, `lock`: the run's deadline and stop signal, the run lock.

mod bounds;
mod driver;
mod fetched;
pub mod gate;
mod live;
mod lock;
mod pages;
mod plan;
mod runner;
mod sinks;
mod take_in;

pub use bounds::{RunBounds, listen_for_stop};
pub use gate::{Decision, PERIOD_TOLERANCE_MS, SourceGate};
pub use lock::{Locked, RunLock};
pub use runner::{RunOptions, RunReport, run, run_within};
