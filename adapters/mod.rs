//! The registry of sources: one human-reviewed file per source, listed in
//! [`ALL`]. Compiled into the library from outside `src/` so that adapters
//! stay a folder of their own, reviewed file by file.
//!
//! Adapters never do I/O: clippy.toml's network, file, database and process
//! APIs are denied here and in every adapter (`make lint`).
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use crate::adapter::Adapter;

pub mod andalucia;
pub mod diba;
pub mod esmadrid;
pub mod euskadi;
pub mod gencat;
pub mod jcyl;
pub mod madrid;

/// Every adapter, in a fixed order.
pub static ALL: &[&dyn Adapter] =
    &[&madrid::Madrid, &esmadrid::Esmadrid, &diba::Diba, &jcyl::Jcyl, &andalucia::Andalucia, &gencat::Gencat, &euskadi::Euskadi];

/// The adapter with this id.
pub fn by_id(id: &str) -> Option<&'static dyn Adapter> {
    ALL.iter().copied().find(|a| a.manifest().id == id)
}

/// The adapter with this id, or the one error every command gives for an
/// unknown id (it names the known ones).
pub fn require(id: &str) -> anyhow::Result<&'static dyn Adapter> {
    by_id(id).ok_or_else(|| crate::error::usage(format!("unknown source {id:?}; known: {}", ids().join(", "))))
}

/// The ids of every adapter, for error messages.
pub fn ids() -> Vec<&'static str> {
    ALL.iter().map(|a| a.manifest().id).collect()
}
