//! The operator wing: the commands an operator runs in a day (audit, export,
//! holdings, corrections, opt-outs, takedowns, switches, stops, doctor) and the
//! run's bounds and limits, through the binary.

mod audit;
mod citation;
mod completions;
mod corrections;
mod day;
mod export;
mod frictions;
mod holdings;
mod optout;
pub(crate) mod run_bounds;
mod run_limits;
mod runs;
mod sources_export;
mod stop;
mod switch;
mod takedown;
mod traps;
