//! `cityvibe run`: the cron job. Parses arguments, takes the lock, shows
//! progress on a terminal and prints; the run itself is [`crate::run::run`].

use super::Exit;
use crate::cli::Cli;
use crate::http::{Client, Limits, Mirror};
use crate::ingest::RunOptions;
use crate::run::{Quiet, RunProgress};
use crate::store::Store;
use anyhow::Result;

pub struct Args {
    pub sources: Vec<String>,
    pub json: bool,
    pub quiet: bool,
    pub no_translate: bool,
    pub force: bool,
}

/// A spinner while fetching, then a bar while translating; on a terminal only.
struct Bars {
    spinner: Option<indicatif::ProgressBar>,
    bar: Option<indicatif::ProgressBar>,
    started: std::time::Instant,
}

impl Bars {
    fn new() -> Bars {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_message("fetching sources politely (each host's delay is kept)…");
        pb.enable_steady_tick(std::time::Duration::from_millis(120));
        // Name the host the scheduler waits for, refreshed while the spinner lives.
        let watched = pb.downgrade();
        std::thread::spawn(move || {
            while let Some(pb) = watched.upgrade() {
                if pb.is_finished() {
                    break;
                }
                if let Some((host, ms)) = crate::output::waiting_for() {
                    pb.set_message(if ms > 0 {
                        format!("waiting {:.0} s for {host} (its delay is kept)…", ms as f64 / 1000.0)
                    } else {
                        format!("fetching from {host}…")
                    });
                }
                drop(pb);
                std::thread::sleep(std::time::Duration::from_millis(250));
            }
        });
        Bars { spinner: Some(pb), bar: None, started: std::time::Instant::now() }
    }
}

impl RunProgress for Bars {
    fn fetched(&mut self) {
        if let Some(pb) = self.spinner.take() {
            pb.finish_and_clear();
        }
        let pb = indicatif::ProgressBar::new(0);
        pb.set_style(
            indicatif::ProgressStyle::with_template("translating {bar:30} {pos}/{len} texts {msg} (ETA {eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        pb.set_message("starting the engine…");
        pb.enable_steady_tick(std::time::Duration::from_millis(200));
        self.started = std::time::Instant::now();
        self.bar = Some(pb);
    }

    fn translating(&mut self, done: u64, total: u64, words: u64) {
        if let Some(pb) = &self.bar {
            pb.set_length(total);
            pb.set_position(done);
            let secs = self.started.elapsed().as_secs_f64().max(0.001);
            pb.set_message(format!("{:.0} words/s", words as f64 / secs));
        }
    }
}

impl Drop for Bars {
    fn drop(&mut self) {
        for pb in [self.spinner.take(), self.bar.take()].into_iter().flatten() {
            pb.finish_and_clear();
        }
    }
}

pub fn execute(cli: &Cli, args: Args) -> Result<Exit> {
    let config = super::load_config(cli)?;
    super::check_source_ids(&args.sources)?;
    let mirror = cli.mirror.as_deref().map(Mirror::parse).transpose().map_err(crate::output::as_usage)?;
    // Fail closed: no ledger, no request (P8).
    let ledger = super::sending_ledger(cli)?;
    let lock = match super::lock_or_exit(cli)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let mut store = Store::open(&cli.db)?;
    let limits = Limits { max_wait: std::time::Duration::from_secs(config.settings.max_wait_secs), ..Limits::default() };
    let client = Client::new(mirror, limits);
    let opts = RunOptions {
        adapters: crate::adapters::ALL,
        config,
        config_path: Some(cli.config.clone()),
        only: args.sources,
        client: &client,
        ledger: &ledger,
        force: args.force,
    };
    let outcome = if !args.quiet && !args.json && super::stdout_is_terminal() {
        let mut bars = Bars::new();
        crate::run::run(&mut store, opts, !args.no_translate, &mut bars)?
    } else {
        crate::run::run(&mut store, opts, !args.no_translate, &mut Quiet)?
    };
    drop(lock);
    // One line per problem on stderr, always.
    for s in &outcome.report.sources {
        // A host that asked us to wait is said too, with the time (P10); a
        // source within its period is normal for cron and stays silent (P7).
        if s.status.is_problem() || s.not_before.is_some() {
            eprintln!("cityvibe: {}: {}: {}", s.id, s.status, s.message);
        }
    }
    for line in outcome.translation.iter().flat_map(|stats| stats.problems()) {
        eprintln!("cityvibe: {line}");
    }
    if let Some(why) = &outcome.translation_error {
        eprintln!("cityvibe: the translation step failed; events are stored and texts stay pending: {why}");
    }
    if args.json {
        super::print_json(&outcome)?;
    } else if !args.quiet && super::stdout_is_terminal() {
        let mut t =
            crate::output::Table::new(&["source", "status", "req", "304", "added", "updated", "withdrawn", "errors", "time", "message"])
                .right(&[2, 3, 4, 5, 6, 7, 8]);
        for s in &outcome.report.sources {
            t.row([
                s.id.clone(),
                s.status.to_string(),
                s.requests.to_string(),
                s.not_modified.to_string(),
                s.added.to_string(),
                s.updated.to_string(),
                s.withdrawn.to_string(),
                s.record_errors.to_string(),
                format!("{:.1} s", s.duration_ms as f64 / 1000.0),
                s.message.clone(),
            ]);
        }
        t.print()?;
    }
    Ok(outcome.exit)
}

/// `run --dry-run`: what a run would fetch now and what it would not, and
/// why; no request, no lock, no database, no ledger (issue 13 item 12).
pub fn dry_run(cli: &Cli, only: &[String]) -> Result<Exit> {
    let config = super::load_config(cli)?;
    super::check_source_ids(only)?;
    let mut t = crate::output::Table::new(&["source", "would", "delay", "feeds or why not"]);
    for a in crate::adapters::ALL {
        let m = a.manifest();
        if !only.is_empty() && !only.iter().any(|o| o == m.id) {
            continue;
        }
        let todo = crate::adapter_tools::todo_fields(m);
        let hours = config.sources.get(m.id).and_then(|r| r.hours.clone());
        let outside = hours
            .as_deref()
            .and_then(|h| crate::config::parse_hours(h).ok())
            .is_some_and(|w| !crate::config::in_window(w, crate::config::madrid_minute_now()));
        let (would, what) = if !config.enabled(m.id) {
            ("skip", config.why_off(m.id))
        } else if !todo.is_empty() {
            ("refuse", format!("manifest still says TODO in {} (P3)", todo.join(", ")))
        } else if outside {
            ("skip", format!("outside its hours {} (Europe/Madrid)", hours.unwrap_or_default()))
        } else {
            ("fetch", m.feeds.iter().map(|f| f.url).collect::<Vec<_>>().join("\n"))
        };
        t.row([m.id.to_string(), would.to_string(), format!("{} s", config.delay_for(*a).as_secs_f64()), what]);
    }
    t.print()?;
    crate::outln!("(a dry run: nothing was requested; a real run also keeps each source's period, P7, and each host's ledger)")?;
    Ok(Exit::Ok)
}
