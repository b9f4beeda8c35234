//! `cityvibe source list|show|enable|disable|release`.

use super::{exit, local_time, print_json};
use crate::adapter::Adapter;
use crate::cli::{Cli, SourceDisableArgs, SourceHistoryArgs, SourceShowArgs};
use crate::clock::{Clock, SystemClock};
use crate::output::Table;
use crate::store::Store;
use crate::vocab::DelayRule;
use anyhow::Result;
use serde::Serialize;

fn adapter(id: &str) -> Result<&'static dyn Adapter> {
    crate::adapters::require(id)
}

/// One line of `source list`.
#[derive(Debug, serde::Serialize)]
pub struct SourceLine {
    pub id: &'static str,
    pub enabled: bool,
    pub disabled_reason: Option<String>,
    pub host: &'static str,
    pub min_delay_secs: f64,
    /// Whose word the delay is: `adapter`, `sources.toml` or `robots.txt Crawl-delay`.
    pub delay_rule: DelayRule,
    pub hours: Option<String>,
    pub last_status: Option<crate::vocab::SourceStatus>,
    pub last_message: Option<String>,
    pub last_run: Option<jiff::Timestamp>,
    pub last_success: Option<jiff::Timestamp>,
    pub events_active: u64,
    pub events_withdrawn: u64,
}

/// The host ledger, when one exists (listing never creates one). One that
/// exists but cannot be read is said, not dropped: the delays shown then leave
/// out robots.txt's Crawl-delay.
fn open_ledger(cli: &Cli) -> Option<crate::http::Ledger> {
    let dir = super::state_dir(cli).ok().filter(|d| d.join("hosts.db").exists())?;
    crate::http::Ledger::open(&dir)
        .map_err(|e| {
            eprintln!(
                "cityvibe: the host ledger in {} cannot be read ({e:#}); the delays shown leave out robots.txt's Crawl-delay",
                dir.display()
            )
        })
        .ok()
}

/// The delay in seconds that rules a source, and whose word it is (the slowest wins).
fn delay_rule(ledger: Option<&crate::http::Ledger>, config: &crate::config::Config, a: &dyn Adapter) -> (f64, DelayRule) {
    let crawl = ledger.and_then(|l| l.host(a.manifest().host, SystemClock.now_ms()).ok()).and_then(|e| e.crawl_delay_ms);
    let (d, rule) = config.ruling_delay(a, crawl.map(|ms| std::time::Duration::from_millis(ms.max(0) as u64)));
    (d.as_secs_f64(), rule)
}

pub fn list(cli: &Cli, as_json: bool) -> Result<super::Exit> {
    let config = super::load_config(cli)?;
    // No database at the path: a usage error like every read command's (zeros
    // and exit 0 would hide a mistyped --db).
    let store = Some(Store::open_existing(&cli.db)?);
    let ledger = open_ledger(cli);
    let mut rows = Vec::new();
    for a in crate::adapters::ALL {
        let m = a.manifest();
        let state = store.as_ref().map(|s| s.source_state(m.id)).transpose()?.unwrap_or_default();
        let (active, withdrawn) = store.as_ref().map(|s| s.count_events(m.id)).transpose()?.unwrap_or_default();
        let row = config.sources.get(m.id);
        let (min_delay_secs, delay_rule) = delay_rule(ledger.as_ref(), &config, *a);
        rows.push(SourceLine {
            id: m.id,
            enabled: config.enabled(m.id),
            disabled_reason: row.and_then(|r| r.disabled_reason.clone()),
            host: m.host,
            min_delay_secs,
            delay_rule,
            hours: row.and_then(|r| r.hours.clone()),
            last_status: state.last_status,
            last_message: state.last_message,
            last_run: state.last_run_at,
            last_success: state.last_success_at,
            events_active: active,
            events_withdrawn: withdrawn,
        });
    }
    if as_json {
        print_json(&rows)?;
        return Ok(exit::OK);
    }
    let mut t = Table::new(&["id", "enabled", "host", "delay", "last", "last success", "events", "note"]).right(&[3, 6]);
    for r in &rows {
        t.row([
            r.id.to_string(),
            if r.enabled { "yes" } else { "NO" }.to_string(),
            r.host.to_string(),
            if r.delay_rule == DelayRule::Adapter {
                format!("{} s", r.min_delay_secs)
            } else {
                format!("{} s ({})", r.min_delay_secs, r.delay_rule)
            },
            r.last_status.map_or("-", |s| s.as_str()).to_string(),
            local_time(r.last_success),
            r.events_active.to_string(),
            r.disabled_reason.clone().unwrap_or_default(),
        ]);
    }
    t.print()?;
    Ok(exit::OK)
}

/// What a run now would do with a source, and why (`source show`).
#[derive(Debug, Serialize)]
struct RunNow {
    /// `fetch`, `skip` or `refuse`.
    would: &'static str,
    why: Option<String>,
}

/// What `source show` tells of one source, as `--json` prints it and the text says it.
#[derive(Debug, Serialize)]
struct SourceShow {
    id: &'static str,
    name: &'static str,
    publisher: &'static str,
    host: &'static str,
    /// The host of a `--mirror` on another machine, whose books a run
    /// through it keeps (its delay, hold and cap are the ones shown); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    mirror_host: Option<String>,
    feeds: Vec<&'static str>,
    /// The feeds sources.toml switches off (`feeds_off`).
    feeds_off: Vec<&'static str>,
    enabled: bool,
    min_delay_secs: f64,
    delay_rule: DelayRule,
    run_now: RunNow,
    daily_cap: u32,
    licence: String,
    licence_url: String,
    attribution: String,
    last_status: Option<crate::vocab::SourceStatus>,
    last_message: Option<String>,
    events_active: u64,
    events_withdrawn: u64,
    fetch_log_30_days: crate::store::fetchlog::HostStats,
}

fn source_show(cli: &Cli, a: &'static dyn Adapter) -> Result<SourceShow> {
    let m = a.manifest();
    let config = super::load_config(cli)?;
    let store = Store::open_existing(&cli.db)?;
    let ledger = open_ledger(cli);
    let (mut min_delay_secs, mut delay_rule) = delay_rule(ledger.as_ref(), &config, a);
    // A mirror on another host is one host for every source read through
    // it, paced at the slowest of their delays, as `run` paces it (P8).
    let mirror_host = super::remote_mirror_host(cli);
    if mirror_host.is_some() {
        let on = crate::adapters::ALL.iter().filter(|o| config.enabled(o.manifest().id));
        let slowest = on.map(|o| config.delay_for(*o)).max().unwrap_or_default().as_secs_f64();
        if slowest > min_delay_secs {
            (min_delay_secs, delay_rule) = (slowest, DelayRule::Mirror);
        }
    }
    let state = store.source_state(m.id)?;
    let (events_active, events_withdrawn) = store.count_events(m.id)?;
    let cited = crate::citation::of(Some(&config), m);
    // What a run now would do with it: the run's own gate.
    let gate = crate::ingest::SourceGate {
        local_mirror: super::private_ledger_allowed(cli),
        mirror_host: super::remote_mirror_host(cli),
        ..crate::ingest::SourceGate::new(&config, Some(&store), ledger.as_ref())
    };
    let run_now = match gate.decide(m.id)? {
        crate::ingest::Decision::Go => RunNow { would: "fetch", why: None },
        crate::ingest::Decision::Skip(why) => RunNow { would: "skip", why: Some(why.message(m.id)) },
        crate::ingest::Decision::Refuse(why) => RunNow { would: "refuse", why: Some(why.message(m.id)) },
    };
    Ok(SourceShow {
        id: m.id,
        name: m.name,
        publisher: m.publisher,
        host: m.host,
        mirror_host,
        feeds: m.feeds.iter().map(|f| f.url).collect(),
        feeds_off: m.feeds.iter().filter(|f| !config.feed_on(m.id, f)).map(|f| f.url).collect(),
        enabled: config.enabled(m.id),
        min_delay_secs,
        delay_rule,
        run_now,
        daily_cap: m.daily_cap,
        licence: cited.licence,
        licence_url: cited.licence_url,
        attribution: cited.attribution,
        last_status: state.last_status,
        last_message: state.last_message,
        events_active,
        events_withdrawn,
        fetch_log_30_days: store.host_stats(m.host, SystemClock.now_ms() - 30 * 24 * 3600 * 1000)?,
    })
}

pub fn show(cli: &Cli, args: &SourceShowArgs) -> Result<super::Exit> {
    let a = adapter(&args.id)?;
    let v = source_show(cli, a)?;
    if args.json {
        print_json(&v)?;
        return Ok(exit::OK);
    }
    let (m, stats) = (a.manifest(), &v.fetch_log_30_days);
    crate::outln!("{} — {} ({})", v.id, v.name, v.publisher)?;
    let through = v.mirror_host.as_deref().map(|h| format!(", read through the mirror {h} (its books)")).unwrap_or_default();
    crate::outln!(
        "host {}{through}  delay {} s ({})  daily cap {}  enabled {}",
        v.host,
        v.min_delay_secs,
        v.delay_rule,
        v.daily_cap,
        v.enabled
    )?;
    for f in m.feeds {
        let off = if v.feeds_off.contains(&f.url) { "  (switched off: feeds_off)" } else { "" };
        crate::outln!("  feed {} {}{off}", f.lang, f.url)?;
    }
    crate::outln!("a run now would {}{}", v.run_now.would, v.run_now.why.as_deref().map(|w| format!(": {w}")).unwrap_or_default())?;
    crate::outln!("licence {} <{}>\nattribution {}", v.licence, v.licence_url, v.attribution)?;
    let last = v.last_status.map_or("-", |s| s.as_str());
    crate::outln!("events: {} active, {} withdrawn; last status {last}", v.events_active, v.events_withdrawn)?;
    crate::outln!("last 30 days of requests to {}:", v.host)?;
    crate::outln!("  requests {}  bytes {}  304 share {:.0} %", stats.requests, stats.bytes, stats.not_modified_share * 100.0)?;
    crate::outln!(
        "  smallest gap between two requests: {}",
        stats.min_gap_ms.map(|g| format!("{:.1} s", g as f64 / 1000.0)).unwrap_or("-".into())
    )?;
    crate::outln!("  statuses: {}", stats.statuses.iter().map(|(s, n)| format!("{s}×{n}")).collect::<Vec<_>>().join(", "))?;
    for (day, n) in &stats.requests_per_day {
        crate::outln!("  {day}: {n}")?;
    }
    Ok(exit::OK)
}

/// Switch a source on or off (P16). Off with `withdraw`, its stored events
/// are withheld from every list and export; on, any withheld come back.
/// `source disable`: switch a source off, saying why.
pub fn disable(cli: &Cli, args: &SourceDisableArgs) -> Result<super::Exit> {
    switch(cli, &args.id, false, Some(&args.reason), args.withdraw)
}

/// `source enable`: switch a source back on.
pub fn enable(cli: &Cli, id: &str) -> Result<super::Exit> {
    switch(cli, id, true, None, false)
}

pub fn switch(cli: &Cli, id: &str, on: bool, reason: Option<&str>, withdraw: bool) -> Result<super::Exit> {
    use crate::operate::switch::{Change, Events, Request};
    let checked = crate::operate::switch::check(Request { id, on, reason, withdraw, mirror: cli.mirror.is_some() })?;
    if let Some(what) = &checked.mirror_only {
        eprintln!("cityvibe: warning: {what}. Switched on for mirror runs only: a run without --mirror refuses it.");
    }
    let before = super::load_config(cli)?;
    let outcome = crate::operate::switch::apply(&checked, &cli.config, &before, &cli.db, &SystemClock)?;
    let (state, file) = (if on { "on" } else { "off" }, cli.config.display());
    match &outcome.change {
        Change::Already { since } => {
            let since = since.as_ref().map(|(day, why)| format!(" since {day} ({why})")).unwrap_or_default();
            eprintln!("{id} was already switched {state}{since} in {file}; nothing changed");
        }
        Change::Switched => eprintln!("{id} switched {state} in {file}"),
    }
    if let Some(e) = outcome.then_failed {
        return Err(e);
    }
    match outcome.events {
        Some(Events::Withheld(n)) => eprintln!(
            "{n} stored events of {id} withheld from every list and export (kept for `holdings`; `source enable {id}` brings them back)"
        ),
        Some(Events::Restored(n)) if n > 0 => eprintln!("{n} withheld events of {id} shown again"),
        _ => {}
    }
    Ok(exit::OK)
}

/// `source release ID|HOST`: the operator's word that lifts a host's hold (a
/// Retry-After of over a year) or brings times recorded ahead of the clock back
/// to now, in the host ledger in use (P10).
pub fn release(cli: &Cli, target: &str) -> Result<super::Exit> {
    let hosts: Vec<&str> = crate::adapters::ALL.iter().map(|a| a.manifest().host).collect();
    // A folder mirror's reads are booked as `folder:HOST`.
    let folder = matches!(cli.mirror.as_deref().map(crate::http::Mirror::parse), Some(Ok(crate::http::Mirror::Dir(_))));
    let host = match crate::adapters::require(target) {
        Ok(a) if folder => format!("folder:{}", a.manifest().host),
        Ok(a) => a.manifest().host.to_string(),
        Err(_) if hosts.iter().any(|h| *h == target.strip_prefix("folder:").unwrap_or(target)) => target.to_string(),
        Err(e) => {
            return Err(crate::output::as_usage(
                e.context(format!("{target}: neither a source id nor a source's host ({})", hosts.join(", "))),
            ));
        }
    };
    let ledger = crate::http::Ledger::open(&super::state_dir(cli)?)?;
    let done = ledger.release(&host, SystemClock.now_ms())?;
    if done.is_empty() {
        crate::outln!("{host}: nothing to release in {} (no hold, no time ahead of the clock)", ledger.dir().join("hosts.db").display())?;
    }
    for d in done {
        crate::outln!("{host}: {d}")?;
    }
    Ok(exit::OK)
}

/// `source history ID`: every switch of the source, oldest first, from the log
/// beside sources.toml.
pub fn history(cli: &Cli, args: &SourceHistoryArgs) -> Result<super::Exit> {
    let (id, as_json) = (args.id.as_str(), args.json);
    adapter(id)?;
    let (switches, skipped) = crate::switch_log::of(&cli.config, id)?;
    for line in &skipped {
        eprintln!("cityvibe: {line}");
    }
    if as_json {
        print_json(&switches)?;
        return Ok(exit::OK);
    }
    if switches.is_empty() {
        eprintln!(
            "{id} was never switched by `source disable`/`enable` (no record in {})",
            crate::switch_log::path_beside(&cli.config).display()
        );
        return Ok(exit::OK);
    }
    let mut t = Table::new(&["when", "action", "reason"]);
    for s in &switches {
        t.row([local_time(s.at.parse::<jiff::Timestamp>().ok()), s.action.as_str().to_string(), s.reason.clone().unwrap_or_default()]);
    }
    t.print()?;
    Ok(exit::OK)
}
