//! The sources wing: each adapter against its sample, golden file and real
//! download; the conformance suite every adapter gets; how feeds are read
//! (odd bodies, pages, feeds needed together, fuzzed drivers); the adapter tools.
//! Not the polite client's rules (politeness/) nor the scrubber (privacy/).

mod adapter_tools;
mod all_sources;
mod andalucia;
mod conformance;
mod diba;
mod esmadrid;
mod esmadrid_realdata;
mod euskadi;
mod feed_reading;
mod fetch_plan_all;
mod fuzz_drivers;
mod gencat;
mod jcyl;
mod madrid;
mod madrid_realdata;
mod paged_feeds;
