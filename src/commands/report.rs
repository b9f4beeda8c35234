//! `cityvibe report --out DIR [--days N] [--lang xx]`: write the status report
//! and the hosts' transparency pages; also what `run` calls after each run when
//! `[settings] report_dir` is set.

use super::{exit, print_json};
use crate::cli::{Cli, ReportArgs};
use crate::clock::{Clock, SystemClock};
use crate::lang::Lang;
use crate::report::{ReportOptions, Written};
use crate::store::Store;
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
    let opts = ReportOptions { out: out.to_path_buf(), days, lang, now_ms: SystemClock.now_ms() };
    let written = crate::report::write(store, config.as_ref(), ledger.as_ref(), crate::adapters::ALL, &opts)?;
    // A bad row is one bad row: the other pages are written, and each skipped name is said.
    for host in &written.skipped_hosts {
        let shown: String = host.chars().take(80).collect();
        let cut = if shown.len() < host.len() { format!("… ({} bytes)", host.len()) } else { String::new() };
        eprintln!(
            "cityvibe: no page for the host {shown:?}{cut} of the fetch log: it is no DNS name, or too long to name a file; \
             the report shows every other host"
        );
    }
    Ok(written)
}

/// After a run: the report into `[settings] report_dir`, 30 days, the first
/// display language of the config. A failure is said, and returned for the
/// run's exit status (4): what the run stored is kept, but a report nobody
/// can see must not pass for a good run (`doctor` proves the folder too).
pub fn after_run(cli: &Cli, store: &Store, dir: &Path, lang: Lang) -> bool {
    match write(cli, store, dir, 30, lang) {
        Ok(_) => true,
        Err(e) => {
            eprintln!(
                "cityvibe: the report in {} was not written: {e:#}; the run's events are stored; make the folder writable \
                 for this user or change [settings] report_dir (`cityvibe doctor` checks it)",
                dir.display()
            );
            false
        }
    }
}
