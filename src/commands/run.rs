//! `cityvibe run`: the cron job.

use super::exit;
use crate::cli::Cli;
use crate::http::{Client, Ledger, Limits, Mirror};
use crate::ingest::{RunOptions, run};
use crate::store::Store;
use anyhow::Result;

pub struct Args {
    pub sources: Vec<String>,
    pub json: bool,
    pub quiet: bool,
    pub no_translate: bool,
    pub force: bool,
}

pub fn execute(cli: &Cli, args: Args) -> Result<super::Exit> {
    let adapters = crate::adapters::ALL;
    let config = super::load_config(cli)?;
    super::check_source_ids(&args.sources)?;
    let mirror = cli.mirror.as_deref().map(Mirror::parse).transpose()?;
    // Fail closed: no ledger, no request (P8).
    let ledger = Ledger::open(&super::state_dir(cli)?)?;
    let lock = match super::lock_or_exit(cli)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let mut store = Store::open(&cli.db)?;
    let limits = Limits { max_wait: std::time::Duration::from_secs(config.settings.max_wait_secs), ..Limits::default() };
    let client = Client::new(mirror, limits);
    // A spinner on a terminal only; cron sees nothing.
    let spinner = (!args.quiet && !args.json && super::stdout_is_terminal()).then(|| {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_message("fetching sources politely (each host's delay is kept)…");
        pb.enable_steady_tick(std::time::Duration::from_millis(120));
        pb
    });
    let config_for_translation = config.clone();
    let report = run(
        &mut store,
        RunOptions {
            adapters,
            config,
            config_path: Some(cli.config.clone()),
            only: args.sources,
            client: &client,
            ledger: &ledger,
            force: args.force,
        },
    )?;
    if let Some(pb) = spinner {
        pb.finish_and_clear();
    }
    let mut report = report;
    // Translate after storing: a missing or failing engine leaves events
    // stored untranslated, counted as pending and retried next run.
    let mut totals = serde_json::Map::new();
    if !args.no_translate {
        let show = !args.quiet && !args.json && super::stdout_is_terminal();
        if let Some(stats) = super::translate::step(&mut store, &config_for_translation, &[], show)? {
            for s in report.sources.iter_mut() {
                if let Some((t, hits, pending)) = stats.per_source.get(&s.id) {
                    s.translated = *t;
                    s.translation_cache_hits = *hits;
                    s.translation_pending = *pending;
                    store.record_translated(report.run_id, &s.id, *t)?;
                }
            }
            if let Some(why) = &stats.error {
                eprintln!("cityvibe: {} translations pending, retried next run: {why}", stats.pending);
            }
            totals.insert("translated".into(), stats.translated.into());
            totals.insert("translation_cache_hits".into(), stats.cache_hits.into());
            totals.insert("translation_pending".into(), stats.pending.into());
        }
    }
    let code = if report.any_problem() { exit::SOURCE_PROBLEM } else { exit::OK };
    store.finish_run(report.run_id, code.code() as i32)?;
    drop(lock);
    // One line per problem on stderr, always.
    for s in &report.sources {
        // A host that asked us to wait is said too, with the time (P10); a
        // source within its period is normal for cron and stays silent (P7).
        if matches!(s.status.as_str(), "failed" | "refused" | "anomaly") || s.not_before.is_some() {
            eprintln!("cityvibe: {}: {}: {}", s.id, s.status, s.message);
        }
    }
    if args.json {
        let mut out = serde_json::Map::new();
        out.insert("run_id".into(), report.run_id.into());
        out.insert("sources".into(), serde_json::to_value(&report.sources)?);
        out.extend(totals);
        super::print_json(&out)?;
    } else if !args.quiet && super::stdout_is_terminal() {
        let mut t = crate::output::Table::new(&["source", "status", "req", "304", "added", "updated", "withdrawn", "errors", "message"])
            .right(&[2, 3, 4, 5, 6, 7]);
        for s in &report.sources {
            t.row([
                s.id.clone(),
                s.status.to_string(),
                s.requests.to_string(),
                s.not_modified.to_string(),
                s.added.to_string(),
                s.updated.to_string(),
                s.withdrawn.to_string(),
                s.record_errors.to_string(),
                s.message.clone(),
            ]);
        }
        t.print()?;
    }
    Ok(code)
}
