//! The surface wing: the command line as a user meets it (exit codes, output,
//! lists, tools, help), the documents and the deployment files kept true to the
//! code, and the end-to-end foundation run.

mod cli_foundation;
mod deploy;
mod docs;
mod docs_repo;
mod honest;
mod lists;
mod no_error_dropped;
pub(crate) mod output;
mod run;
mod tools;
mod walk;
