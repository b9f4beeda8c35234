//! sources.toml as a run sees it request by request: re-read before every
//! request, so `source disable`, a slower delay or narrower hours take
//! effect mid-run (P9, P16); an unreadable file keeps the settings the run
//! last read well, and says so once.
//!
//! Not for loading or validating the file (`config`), nor for what a
//! request may do under it (`driver`).

use crate::adapter::Adapter;
use crate::config::Config;
use crate::http::FetchReporter;
use std::path::PathBuf;

/// One source's view of the settings during a run.
pub(super) struct LiveConfig {
    /// The last good settings: those the run started with, or the last re-read.
    last_good: Config,
    /// The file to re-read (none: the settings stay those the run started with).
    path: Option<PathBuf>,
    /// The last re-read failed (said once, not per request).
    failed: bool,
}

impl LiveConfig {
    pub(super) fn new(config: &Config, path: Option<PathBuf>) -> LiveConfig {
        LiveConfig { last_good: config.clone(), path, failed: false }
    }

    /// The last good settings.
    pub(super) fn last_good(&self) -> &Config {
        &self.last_good
    }

    /// sources.toml as it is now, validated; `None` when it cannot be read
    /// (the run keeps the last good settings and says so once).
    pub(super) fn reload(&mut self, adapter: &'static dyn Adapter, reporter: &mut dyn FetchReporter) -> Option<Config> {
        let path = self.path.as_ref()?;
        match Config::reload(path, &[adapter]) {
            Ok(mut c) => {
                c.run_unlisted = self.last_good.run_unlisted;
                self.last_good = c.clone();
                self.failed = false;
                Some(c)
            }
            Err(e) => {
                if !self.failed {
                    reporter.warn(&format!(
                        "{}: {} changed and no longer reads ({e:#}); this run keeps its last good settings",
                        adapter.manifest().id,
                        path.display()
                    ));
                }
                self.failed = true;
                None
            }
        }
    }
}
