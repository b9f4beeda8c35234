//! `cityvibe audit`: the reviewer's aid (P14). Fetches each host's
//! robots.txt, tdmrep.json and ai.txt through the polite scheduler and
//! reports what no longer matches the adapter's review.

use super::exit;
use crate::audit::{SourceAudit, audit_watched};
use crate::cli::{AuditArgs, Cli};
use crate::clock::{Clock, SystemClock};
use crate::http::{Client, Limits, Mirror};
use crate::store::Store;
use anyhow::Result;

/// What `audit --json` prints.
#[derive(Debug, serde::Serialize)]
struct AuditReport<'a> {
    /// Whether any source no longer matches its review (exit 1).
    drift: bool,
    sources: &'a [SourceAudit],
    /// Sources switched off in sources.toml, not audited unless named.
    not_audited: &'a [&'static str],
}

pub fn execute(cli: &Cli, args: &AuditArgs) -> Result<super::Exit> {
    let all = crate::adapters::ALL;
    let config = super::load_config(cli)?;
    super::check_source_ids(&args.sources)?;
    // Named sources are audited even when switched off (to see whether they
    // may come back); otherwise every source that is switched on.
    let mut skipped = Vec::new();
    let chosen: Vec<&'static dyn crate::adapter::Adapter> = all
        .iter()
        .copied()
        .filter(|a| {
            let id = a.manifest().id;
            if args.sources.is_empty() {
                let on = config.enabled(id);
                if !on {
                    skipped.push(id);
                }
                on
            } else {
                args.sources.iter().any(|s| s == id)
            }
        })
        .collect();
    let mirror = cli.mirror.as_deref().map(Mirror::parse).transpose()?;
    let ledger = super::sending_ledger(cli)?;
    let lock = super::run_lock(cli)?;
    let mut store = Store::open(&cli.db)?;
    let client = Client::new(mirror, Limits::default());
    let mut progress = super::progress::Progress::new(cli.verbose, !args.json && super::stdout_is_terminal())
        .fetching("fetching robots.txt, tdmrep.json and ai.txt politely (each host's delay is kept)…", false);
    let mut reports = audit_watched(&mut store, &client, &ledger, &SystemClock, &config, &chosen, &mut progress)?;
    drop(progress);
    if args.disable_blocked {
        let today = SystemClock.now().in_tz(crate::model::TZ_MADRID).map(|z| z.date().to_string()).unwrap_or_default();
        for r in reports.iter_mut().filter(|r| !r.blocked.is_empty()) {
            if !config.enabled(&r.id) {
                continue;
            }
            let reason = format!("audit {today}: {}", r.blocked.join("; "));
            crate::operate::switch::switch_off(&cli.config, &r.id, &reason, &SystemClock)?;
            r.switched_off = Some(reason);
        }
    }
    drop(lock);
    let drift = reports.iter().any(SourceAudit::has_drift);
    for r in &reports {
        for d in &r.drift {
            eprintln!("cityvibe: {}: drift: {d}", r.id);
        }
        if let Some(why) = &r.switched_off {
            eprintln!("cityvibe: {}: switched off in {}: {why}", r.id, cli.config.display());
        }
    }
    if args.json {
        super::print_json(&AuditReport { drift, sources: &reports, not_audited: &skipped })?;
    } else {
        print_table(&reports, &skipped)?;
    }
    Ok(if drift { exit::SOURCE_PROBLEM } else { exit::OK })
}

fn print_table(reports: &[SourceAudit], skipped: &[&str]) -> std::io::Result<()> {
    for r in reports {
        let verdict = if r.drift.is_empty() { "ok" } else { "DRIFT" };
        crate::outln!("{} ({}): {verdict}; reviewed {}", r.id, r.host, r.review_date)?;
        let status = |s: Option<u16>| s.map(|s| s.to_string()).unwrap_or_else(|| "-".into());
        crate::outln!("  robots.txt   {:<4} {:<12} {}", status(r.robots.status), r.robots.state, r.robots.message)?;
        let cd = r.robots.crawl_delay_secs.map(|d| format!("{d} s")).unwrap_or_else(|| "none".into());
        crate::outln!(
            "    crawl-delay {cd} (adapter keeps {} s{}){}",
            r.min_delay_secs,
            if r.delay_secs > r.min_delay_secs { format!(", this config {} s", r.delay_secs) } else { String::new() },
            if r.robots.crawl_delay_drift { "  DRIFT" } else { "" }
        )?;
        match (&r.robots.digest[..], &r.robots.sha256) {
            ("no digest recorded", Some(now)) => {
                crate::outln!("    digest      no digest recorded; now sha256 {now} (record it in the review)")?
            }
            (d, Some(now)) => crate::outln!("    digest      {d}; now sha256 {now}")?,
            (d, None) => crate::outln!("    digest      {d}")?,
        }
        crate::outln!("  tdmrep.json  {:<4} {:<12} {}", status(r.tdmrep.status), r.tdmrep.state, r.tdmrep.message)?;
        crate::outln!(
            "  ai.txt       {:<4} {:<12} {}{}",
            status(r.ai_txt.status),
            r.ai_txt.state,
            if r.ai_txt.disallows { "disallows CityVibeBot or * " } else { "" },
            r.ai_txt.message
        )?;
        for l in &r.ai_txt.first_lines {
            crate::outln!("    | {l}")?;
        }
        crate::outln!("  {:<8} {:<4} feed", "robots", "tdm")?;
        for f in &r.feeds {
            let tdm = f.tdm_reservation.map(|t| t.to_string()).unwrap_or_else(|| "-".into());
            crate::outln!("  {:<8} {:<4} {}", if f.allowed { "allowed" } else { "DENIED" }, tdm, f.url)?;
        }
        for d in &r.drift {
            crate::outln!("  drift: {d}")?;
        }
        if let Some(why) = &r.switched_off {
            crate::outln!("  switched off: {why}")?;
        }
        crate::outln!()?;
    }
    for id in skipped {
        crate::outln!("{id}: not audited (switched off in sources.toml; name it with --source to audit it)")?;
    }
    Ok(())
}
