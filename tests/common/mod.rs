//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod server;

use std::path::PathBuf;

/// `../shared/realdata/<rel>`; `None` (with a notice) when absent outside CI.
/// Under `CI=true` a missing folder fails the test, as the data README asks.
pub fn realdata(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realdata").join(rel);
    if p.exists() {
        return Some(p);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("real data missing under CI: {}", p.display());
    }
    eprintln!("notice: skipping, {} not found", p.display());
    None
}

/// A file of the project's own samples.
pub fn sample(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/samples").join(rel)
}
