//! `cityvibe source list|show|enable|disable`.

use super::{exit, local_time, print_json};
use crate::adapter::Adapter;
use crate::cli::Cli;
use crate::config::{Config, set_enabled};
use crate::store::{Store, now_ms};
use anyhow::{Result, bail};
use serde_json::json;

fn adapter(id: &str) -> Result<&'static dyn Adapter> {
    crate::adapters::require(id)
}

pub fn list(cli: &Cli, as_json: bool) -> Result<i32> {
    let config = Config::load(&cli.config, crate::adapters::ALL)?;
    let store = Store::open(&cli.db)?;
    let mut rows = Vec::new();
    for a in crate::adapters::ALL {
        let m = a.manifest();
        let state = store.source_state(m.id)?;
        let (active, withdrawn) = store.count_events(m.id)?;
        let row = config.sources.get(m.id);
        rows.push(json!({
            "id": m.id,
            "enabled": config.enabled(m.id),
            "disabled_reason": row.and_then(|r| r.disabled_reason.clone()),
            "host": m.host,
            "min_delay_secs": config.delay_for(*a).as_secs_f64(),
            "hours": row.and_then(|r| r.hours.clone()),
            "last_status": state.last_status,
            "last_message": state.last_message,
            "last_run": state.last_run_at.map(|m| local_time(Some(m))),
            "last_success": state.last_success_at.map(|m| local_time(Some(m))),
            "events_active": active,
            "events_withdrawn": withdrawn,
        }));
    }
    if as_json {
        print_json(&rows)?;
    } else {
        println!("{:<10} {:<8} {:<24} {:>6} {:<10} {:<17} {:>7}  note", "id", "enabled", "host", "delay", "last", "last success", "events");
        for r in &rows {
            println!(
                "{:<10} {:<8} {:<24} {:>5}s {:<10} {:<17} {:>7}  {}",
                r["id"].as_str().unwrap_or(""),
                if r["enabled"].as_bool() == Some(true) { "yes" } else { "NO" },
                r["host"].as_str().unwrap_or(""),
                r["min_delay_secs"],
                r["last_status"].as_str().unwrap_or("-"),
                r["last_success"].as_str().unwrap_or("-"),
                r["events_active"],
                r["disabled_reason"].as_str().unwrap_or("")
            );
        }
    }
    Ok(exit::OK)
}

pub fn show(cli: &Cli, id: &str, as_json: bool) -> Result<i32> {
    let a = adapter(id)?;
    let m = a.manifest();
    let config = Config::load(&cli.config, crate::adapters::ALL)?;
    let store = Store::open(&cli.db)?;
    let stats = store.host_stats(m.host, now_ms() - 30 * 24 * 3600 * 1000)?;
    let state = store.source_state(m.id)?;
    let (active, withdrawn) = store.count_events(m.id)?;
    let cited = crate::citation::of(Some(&config), m);
    let v = json!({
        "id": m.id,
        "name": m.name,
        "publisher": m.publisher,
        "host": m.host,
        "feeds": m.feeds.iter().map(|f| f.url).collect::<Vec<_>>(),
        "enabled": config.enabled(m.id),
        "min_delay_secs": config.delay_for(a).as_secs_f64(),
        "daily_cap": m.daily_cap,
        "licence": cited.licence,
        "licence_url": cited.licence_url,
        "attribution": cited.attribution,
        "last_status": state.last_status,
        "last_message": state.last_message,
        "events_active": active,
        "events_withdrawn": withdrawn,
        "fetch_log_30_days": stats,
    });
    if as_json {
        print_json(&v)?;
        return Ok(exit::OK);
    }
    println!("{} — {} ({})", m.id, m.name, m.publisher);
    println!("host {}  delay {} s  daily cap {}  enabled {}", m.host, config.delay_for(a).as_secs_f64(), m.daily_cap, config.enabled(m.id));
    for f in m.feeds {
        println!("  feed {}", f.url);
    }
    println!("licence {} <{}>\nattribution {}", cited.licence, cited.licence_url, cited.attribution);
    println!("events: {active} active, {withdrawn} withdrawn; last status {}", state.last_status.as_deref().unwrap_or("-"));
    println!("last 30 days of requests to {}:", m.host);
    println!("  requests {}  bytes {}  304 share {:.0} %", stats.requests, stats.bytes, stats.not_modified_share * 100.0);
    println!(
        "  smallest gap between two requests: {}",
        stats.min_gap_ms.map(|g| format!("{:.1} s", g as f64 / 1000.0)).unwrap_or("-".into())
    );
    println!("  statuses: {}", stats.statuses.iter().map(|(s, n)| format!("{s}×{n}")).collect::<Vec<_>>().join(", "));
    for (day, n) in &stats.requests_per_day {
        println!("  {day}: {n}");
    }
    Ok(exit::OK)
}

pub fn switch(cli: &Cli, id: &str, on: bool, reason: Option<&str>) -> Result<i32> {
    adapter(id)?;
    if !on && reason.is_none_or(|r| r.trim().is_empty()) {
        bail!("say why with --reason \"…\" (it is written into sources.toml)");
    }
    set_enabled(&cli.config, id, on, reason)?;
    Config::load(&cli.config, crate::adapters::ALL)?;
    eprintln!("{id} switched {} in {}", if on { "on" } else { "off" }, cli.config.display());
    Ok(exit::OK)
}
