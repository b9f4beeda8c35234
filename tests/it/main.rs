//! All integration tests in one binary: one link of the library instead of
//! one per file (link time dominated the suite). Each file is a module.

#[path = "../common/mod.rs"]
mod common;
#[path = "../golden/check.rs"]
mod golden;

// One folder per wing, each a module; a test's path says the wing and the
// promise it pins (`politeness::held::a_403_holds_the_host_until_the_operator_releases_it_p11`).
mod operator;
mod politeness;
mod privacy;
mod reader;
mod report;
mod sources;
mod store;
mod surface;
mod translation;
