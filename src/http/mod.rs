//! The polite client: the ONLY code that touches the network.
//!
//! `client` sends one request; `scheduler` decides when, how often, and what
//! follows (delays, retries, redirects, blocks, caps); `headers` reads a
//! host's wishes; `mirror` serves `--mirror`.

pub mod client;
pub mod headers;
pub mod mirror;
pub mod scheduler;

pub use client::{Body, Client, Limits, USER_AGENT};
pub use mirror::Mirror;
pub use scheduler::{Allowed, FetchDriver, FetchOutcome, FetchRequest, FetchResult, Scheduler};
