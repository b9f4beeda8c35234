//! The politeness wing (P1-P3, P7-P14): the polite client proven from the
//! server's side, the machine-wide host ledger and its faults, mirrors and
//! whose books they keep, pending robots.txt reviews. Not what is stored (store/).

mod books;
mod cli;
mod client;
mod held;
pub(crate) mod ledger;
mod ledger_faults;
mod mirror;
mod one_ledger;
pub(crate) mod promises;
mod review_pending;
