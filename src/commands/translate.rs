//! `cityvibe translate`, and the translation step of `run`.

use super::exit;
use crate::cli::Cli;
use crate::config::Config;
use crate::store::Store;
use crate::translate::pipeline::{Options, TranslateStats, engines, translate_pending_with};
use anyhow::Result;
use std::time::Instant;

/// Translate what needs it; a progress bar on a terminal (texts done / total, words/s).
pub fn step(store: &mut Store, config: &Config, sources: &[String], show_progress: bool) -> Result<Option<TranslateStats>> {
    let Some(mut workers) = engines(&config.settings) else {
        return Ok(None);
    };
    let bar = show_progress.then(|| {
        let pb = indicatif::ProgressBar::new(0);
        pb.set_style(
            indicatif::ProgressStyle::with_template("translating {bar:30} {pos}/{len} texts {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        pb
    });
    let started = Instant::now();
    let options = Options::from_settings(&config.settings);
    let stats = translate_pending_with(store, &mut workers, &config.settings.languages, sources, &options, |done, total, words| {
        if let Some(pb) = &bar {
            pb.set_length(total);
            pb.set_position(done);
            let secs = started.elapsed().as_secs_f64().max(0.001);
            pb.set_message(format!("{:.0} words/s", words as f64 / secs));
        }
    })?;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    Ok(Some(stats))
}

pub fn execute(cli: &Cli, sources: Vec<String>, json: bool) -> Result<super::Exit> {
    let config = super::load_config(cli)?;
    super::check_source_ids(&sources)?;
    let _lock = match super::lock_or_exit(cli)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let mut store = Store::open(&cli.db)?;
    let Some(stats) = step(&mut store, &config, &sources, !json && super::stdout_is_terminal())? else {
        eprintln!("translation is switched off in {} ([settings] translator = \"none\")", cli.config.display());
        return Ok(exit::OK);
    };
    if let Some(why) = &stats.error {
        eprintln!("cityvibe: {} translations pending, retried next run: {why}", stats.pending);
    }
    if stats.skipped > 0 {
        eprintln!("cityvibe: {} texts skipped: the engine failed on each of them repeatedly (retried when they change)", stats.skipped);
    }
    if json {
        super::print_json(&stats)?;
    } else if super::stdout_is_terminal() {
        crate::outln!(
            "{} translated, {} from the cache, {} pending, {} shortened, {} skipped",
            stats.translated,
            stats.cache_hits,
            stats.pending,
            stats.shortened,
            stats.skipped
        )?;
    }
    Ok(exit::OK)
}
