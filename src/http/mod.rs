//! The polite client: the ONLY code that touches the network.
//!
//! `client` sends one request; `scheduler` decides when, how often, and what
//! follows (delays, retries, redirects, blocks, caps); `ledger` keeps each
//! host's politeness state for every process on the machine, in the
//! time of the crate's one clock (`crate::clock`), handed in; `headers`
//! reads a host's wishes; `mirror` serves `--mirror`.
//!
//! Below everything that fetches (`ingest`, `audit`, the APy backend of
//! `translate`), and below the store: the client writes what it sent and
//! reads each URL's validators through one port, `fetchlog::FetchLog`,
//! which the run hands in (the store implements it). Whoever watches a
//! fetch (the `-v` request lines, the run's spinner) implements
//! `reporter::FetchReporter` above and hands it in; nothing here points
//! up to the printer or the store.

pub mod client;
pub mod fetchlog;
pub mod headers;
pub mod ledger;
pub mod mirror;
pub mod reporter;
pub mod scheduler;
pub mod validators;

pub use client::{Body, Client, Limits, USER_AGENT};
// The clock the scheduler keeps its rules in is the crate's one clock.
pub use crate::clock::{Clock, SimulatedClock, SystemClock, Uptime};
pub use fetchlog::{FetchLog, FetchRecord, Validators};
pub use ledger::Ledger;
pub use mirror::Mirror;
pub use reporter::{FetchReporter, Unwatched};
pub use scheduler::{Allowed, FetchDriver, FetchOutcome, FetchRequest, FetchResult, Gate, Scheduler};
pub use validators::keep_validators;
