//! `cityvibe run`: the cron job. Parses arguments, takes the lock, shows
//! progress on a terminal and prints; the run itself is [`crate::run::run`].

use super::Exit;
use crate::cli::{Cli, RunArgs};
use crate::http::{Client, Limits, Mirror};
use crate::ingest::RunOptions;
use crate::run::RunOutcome;
use crate::store::Store;
use anyhow::Result;

pub fn execute(cli: &Cli, args: &RunArgs) -> Result<Exit> {
    if args.dry_run {
        return dry_run(cli, &args.sources, args.force, args.json);
    }
    let config = super::load_switchboard(cli)?;
    super::check_source_ids(&args.sources)?;
    let mirror = cli.mirror.as_deref().map(Mirror::parse).transpose().map_err(crate::output::as_usage)?;
    // Fail closed: no ledger, no request (P8).
    let ledger = super::sending_ledger(cli)?;
    let lock = super::run_lock(cli)?;
    let mut store = Store::open(&cli.db)?;
    // Ctrl-C or SIGTERM stops the run at its next check, recorded as
    // interrupted, instead of killing it mid-way.
    crate::ingest::listen_for_stop()?;
    // Regenerated after the run, in the first display language.
    let report = config.settings.report_dir.clone().map(|d| (d, config.settings.langs().first().copied().unwrap_or(crate::lang::Lang::Es)));
    let limits = Limits { max_wait: std::time::Duration::from_secs(config.settings.max_wait_secs), ..Limits::default() };
    let client = Client::new(mirror, limits);
    let config_translates = config.settings.translator != crate::vocab::Translator::None;
    let opts = RunOptions {
        adapters: crate::adapters::ALL,
        config,
        config_path: Some(cli.config.clone()),
        only: args.sources.clone(),
        client: &client,
        ledger: &ledger,
        clock: &crate::clock::SystemClock,
        force: args.force,
    };
    let bars = !args.quiet && !args.json && super::stdout_is_terminal();
    let mut progress = super::progress::Progress::new(cli.verbose, bars)
        .fetching("fetching sources politely (each host's delay is kept)…", true)
        .then_translating(!args.no_translate && config_translates);
    let outcome = crate::run::run(&mut store, opts, !args.no_translate, &mut progress)?;
    drop(progress);
    drop(lock);
    let reported = report.as_ref().is_none_or(|(dir, lang)| super::report::after_run(cli, &store, dir, *lang));
    say_problems(&outcome);
    if args.json {
        super::print_json(&outcome)?;
    } else if !args.quiet && super::stdout_is_terminal() {
        print_table(&outcome)?;
    }
    // A report that could not be written is an I/O failure (exit 4), unless
    // the run already ends with a graver status of its own; the run's row
    // says the same exit as the process (`runs` shows it).
    let exit = match outcome.exit {
        Exit::Ok | Exit::SourceProblem if !reported => Exit::Internal,
        exit => exit,
    };
    if exit != outcome.exit {
        store.finish_run(outcome.report.run_id, exit.code() as i32)?;
    }
    Ok(exit)
}

/// How a failure reads when it is the network's, not a host's: no name
/// resolved, no route, nobody answering the connection. One of them alone
/// is a host's problem; every source failing so is the network down.
const NETWORK_DOWN: &[&str] =
    &[crate::http::client::UNRESOLVED, "Network is unreachable", "No route to host", "Host is unreachable", "Connection refused"];

/// One line per problem on stderr, always; when every source sent failed
/// before any host answered (no name resolved, the network unreachable, every
/// connection refused), one line for the run that says the network is down,
/// and no advice to switch sources off.
fn say_problems(outcome: &RunOutcome) {
    let unreached = |s: &crate::store::runs::SourceReport| {
        s.status == crate::vocab::SourceStatus::Failed && NETWORK_DOWN.iter().any(|w| s.message.contains(w))
    };
    let fetched: Vec<_> = outcome.report.sources.iter().filter(|s| s.requests > 0).collect();
    let no_network = !fetched.is_empty() && fetched.iter().all(|s| unreached(s));
    if no_network {
        let ids: Vec<&str> = fetched.iter().map(|s| s.id.as_str()).collect();
        let why = NETWORK_DOWN.iter().find(|w| fetched.iter().any(|s| s.message.contains(*w))).copied().unwrap_or_default();
        let how = if why == crate::http::client::UNRESOLVED { "resolved" } else { "reached" };
        eprintln!(
            "cityvibe: no host could be {how}: is the network or DNS up? the network looks down ({why}); \
             not fetched: {}; stored events are kept and the next run tries again",
            ids.join(", ")
        );
    }
    for s in &outcome.report.sources {
        // A host that asked us to wait is said too, with the time (P10); a
        // source within its period is normal for cron and stays silent (P7).
        if (s.status.is_problem() || s.not_before.is_some()) && !(no_network && unreached(s)) {
            eprintln!("cityvibe: {}: {}: {}", s.id, s.status, s.message);
        }
    }
    for line in outcome.translation.iter().flat_map(|stats| stats.problems()) {
        eprintln!("cityvibe: {line}");
    }
    if let Some(why) = &outcome.interrupted {
        eprintln!("cityvibe: the run stopped before its end: {why}; what it stored is kept, the rest comes next run");
    }
    if let Some(why) = &outcome.translation_error {
        eprintln!("cityvibe: the translation step failed; events are stored and texts stay pending: {why}");
    }
}

/// The run's table of sources, for a terminal.
fn print_table(outcome: &RunOutcome) -> std::io::Result<()> {
    // `translated` as `runs` has it.
    let mut t =
        crate::output::Table::new(&[&["source"][..], &super::runs::COUNT_COLUMNS, &["errors", "translated", "time", "message"]].concat())
            .right(&[2, 3, 4, 5, 6, 7, 8, 9]);
    for s in &outcome.report.sources {
        t.row(std::iter::once(s.id.clone()).chain(super::runs::source_cells(s, true)));
    }
    t.print()
}

/// One source in `run --dry-run`: the gate's answer, as a run would get it now.
#[derive(Debug, serde::Serialize)]
pub struct DryRunLine {
    pub id: String,
    /// `fetch`, `skip` or `refuse`.
    pub would: &'static str,
    pub delay_secs: Option<f64>,
    /// Why not, when not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub feeds: Vec<DryRunFeed>,
}

/// A feed a run would request, and when.
#[derive(Debug, serde::Serialize)]
pub struct DryRunFeed {
    pub url: String,
    /// `always`, or `only if the JSON fails` for a fallback.
    pub when: String,
}

/// `run --dry-run`: what a run would fetch now and what it would not, and why,
/// as the run's own gate answers (period, ledger, caps, hours, not-before,
/// opt-outs); no request, no lock, nothing written: the database and the ledger
/// are read only when they exist. With `force`, it answers for a forced run:
/// the period does not hold (every other rule does).
pub fn dry_run(cli: &Cli, only: &[String], force: bool, json: bool) -> Result<Exit> {
    let config = super::load_switchboard(cli)?;
    super::check_source_ids(only)?;
    let store = if cli.db.is_file() { Some(Store::open_existing(&cli.db)?) } else { None };
    let ledger = super::state_dir(cli).ok().filter(|d| d.join("hosts.db").is_file()).map(|d| crate::http::Ledger::open(&d)).transpose()?;
    let gate = crate::ingest::SourceGate {
        local_mirror: super::private_ledger_allowed(cli),
        mirror_host: super::remote_mirror_host(cli),
        force,
        ..crate::ingest::SourceGate::new(&config, store.as_ref(), ledger.as_ref())
    };
    let mut lines = Vec::new();
    for id in gate.ids() {
        if !only.is_empty() && !only.iter().any(|o| o == id) {
            continue;
        }
        let adapter = crate::adapters::by_id(id);
        let delay_secs = adapter.map(|a| config.delay_for(a).as_secs_f64());
        let (would, why) = match gate.decide(id)? {
            crate::ingest::Decision::Go => ("fetch", None),
            crate::ingest::Decision::Skip(why) => ("skip", Some(why.message(id))),
            crate::ingest::Decision::Refuse(why) => ("refuse", Some(why.message(id))),
        };
        let feeds = match adapter {
            Some(a) if would == "fetch" => feeds_of(&config, a.manifest()),
            _ => Vec::new(),
        };
        lines.push(DryRunLine { id: id.to_string(), would, delay_secs, why, feeds });
    }
    if json {
        super::print_json(&serde_json::json!({ "dry_run": true, "sources": lines }))?;
        return Ok(Exit::Ok);
    }
    let mut t = crate::output::Table::new(&["source", "would", "delay", "feeds or why not"]);
    for l in &lines {
        let what = match &l.why {
            Some(why) => why.clone(),
            None => l.feeds.iter().map(|f| format!("{} ({})", f.url, f.when)).collect::<Vec<_>>().join("\n"),
        };
        t.row([l.id.clone(), l.would.to_string(), l.delay_secs.map_or("-".into(), |d| format!("{d} s")), what]);
    }
    t.print()?;
    crate::outln!("(a dry run: nothing was requested; every delay still holds when a run sends)")?;
    Ok(Exit::Ok)
}

/// The feeds a run would request: each switched-on feed, the fallbacks of a
/// `FirstThatParses` plan only if the ones before them fail.
fn feeds_of(config: &crate::config::Config, m: &crate::adapter::Manifest) -> Vec<DryRunFeed> {
    let on: Vec<&crate::adapter::Feed> = m.feeds.iter().filter(|f| config.feed_on(m.id, f)).collect();
    let first = on.first().map(|f| f.format.name().to_uppercase()).unwrap_or_default();
    on.iter()
        .enumerate()
        .map(|(i, f)| {
            let when = if i > 0 && m.plan == crate::adapter::FetchPlan::FirstThatParses {
                format!("only if the {first} fails")
            } else {
                "always".to_string()
            };
            DryRunFeed { url: f.url.to_string(), when }
        })
        .collect()
}
