//! `cityvibe report --out DIR [--days N] [--lang xx]`: write the status report
//! and the hosts' transparency pages; also what `run` calls after each run when
//! `[settings] report_dir` is set.

use super::{exit, print_json};
use crate::cli::{Cli, ReportArgs};
use crate::lang::Lang;
use crate::report::{ReportOptions, Written};
use crate::store::{Store, now_ms};
use anyhow::Result;
use std::path::Path;

pub fn execute(cli: &Cli, args: &ReportArgs) -> Result<super::Exit> {
    let ReportArgs { out, days, lang, json: as_json } = args;
    let (days, lang, as_json) = (*days, *lang, *as_json);
    let store = Store::open_existing(&cli.db)?;
    let written = write(cli, &store, out, days, lang)?;
    if as_json {
        print_json(&written)?;
    } else {
        crate::outln!(
            "report written: {} ({} pages, the largest {} KB)",
            written.index.display(),
            written.pages.len(),
            written.largest_bytes.div_ceil(1024)
        )?;
    }
    Ok(exit::OK)
}

/// Write the site into `out` from the database, the config (when there is
/// one) and the host ledger (when there is one; none is created for it).
pub fn write(cli: &Cli, store: &Store, out: &Path, days: u32, lang: Lang) -> Result<Written> {
    let config = if cli.config.exists() { Some(super::load_config(cli)?) } else { None };
    let ledger_dir = super::state_dir(cli).ok().filter(|d| d.is_dir());
    let ledger = ledger_dir.map(|d| crate::http::Ledger::open(&d)).transpose()?;
    let opts = ReportOptions { out: out.to_path_buf(), days, lang, now_ms: now_ms() };
    let written = crate::report::write(store, config.as_ref(), ledger.as_ref(), crate::adapters::ALL, &opts)?;
    for host in &written.skipped_hosts {
        eprintln!("cityvibe: no page for the host {host:?} of the fetch log: it is not a valid DNS name");
    }
    Ok(written)
}

/// After a run: the report into `[settings] report_dir`, 30 days, the first
/// display language of the config. A failure is said, never the run's.
pub fn after_run(cli: &Cli, store: &Store, dir: &Path, lang: Lang) {
    if let Err(e) = write(cli, store, dir, 30, lang) {
        eprintln!("cityvibe: the report in {} was not written: {e:#}", dir.display());
    }
}
