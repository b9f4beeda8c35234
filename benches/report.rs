//! The report benchmark (`cargo bench --bench report`,
//! part of `make bench`): the CPU time of `cityvibe report` on databases
//! of growing size, to show that its cost follows the days and hosts it
//! draws, not the events stored. It prints figures: it is not a pass/fail
//! test (`store::report::tests::the_report_reads_events_through_indexes`
//! pins the shape of the queries) and is
//! not shipped (under `cargo test` it only says how to run it).
//!
//! Each database is made here with SQL (the schema by `Store::open`): N
//! events spread over the four sources, a fifth withdrawn, first stored
//! over the last 90 days, each with a link on its source's host and an
//! English title and description and a French title; and the same 30 days
//! of cron for every size (a run every 3 h, every source, three requests
//! each). Then the release binary writes the 30-day report, as a child
//! whose CPU time (`wait4`) is its own:
//!
//! `cityvibe --db TMP/N.db --config TMP/sources.toml report --out TMP/site-N --days 30 --lang en`
//!
//! `cargo bench --bench report -- [--events 10000,100000] [--keep] [--tmp DIR]`

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
mod support;
use support::{Rng, fresh_dir, run_measured};

/// The target: at most this many CPU seconds at 100,000 events.
const TARGET_CPU_S: f64 = 10.0;

fn main() {
    if let Err(e) = real_main() {
        eprintln!("cityvibe-bench-report: {e:#}");
        std::process::exit(1);
    }
}

fn real_main() -> Result<()> {
    let Some(args) = support::bench_args("report", std::env::args().skip(1).collect()) else { return Ok(()) };
    let mut sizes = vec![10_000u64, 100_000];
    let (mut keep, mut tmp) = (false, None::<PathBuf>);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--events" => sizes = it.next().context("--events N,N")?.split(',').map(|s| s.trim().parse()).collect::<Result<_, _>>()?,
            "--keep" => keep = true,
            "--tmp" => tmp = Some(it.next().context("--tmp DIR")?.into()),
            other => anyhow::bail!("unknown argument {other}"),
        }
    }
    let holder = tempfile::Builder::new().prefix("cityvibe-bench-report").tempdir_in(tmp.unwrap_or_else(std::env::temp_dir))?;
    let work = holder.path().to_path_buf();
    let exe = support::cityvibe_binary()?;
    std::fs::write(work.join("sources.toml"), "[settings]\ntranslator = \"none\"\n")?;
    println!("report benchmark: 30 days of cron (240 runs x 4 sources), load {}", support::load_average());
    println!("{:>9}  {:>8}  {:>8}  {:>8}  {:>9}", "events", "cpu s", "wall s", "rss MB", "us/event");
    for n in sizes {
        let db = work.join(format!("{n}.db"));
        build(&db, n)?;
        let site = fresh_dir(&work, &format!("site-{n}"))?;
        let state = fresh_dir(&work, &format!("state-{n}"))?;
        let mut cmd = Command::new(&exe);
        cmd.env("CITYVIBE_STATE_DIR", &state).args(["--db"]).arg(&db).arg("--config").arg(work.join("sources.toml"));
        cmd.args(["report", "--out"]).arg(&site).args(["--days", "30", "--lang", "en"]);
        let (m, _) = run_measured(cmd, &work, &format!("report-{n}"))?;
        let cpu = m.cpu.as_secs_f64();
        println!(
            "{n:>9}  {cpu:>8.2}  {:>8.2}  {:>8.1}  {:>9.1}",
            m.wall.as_secs_f64(),
            m.max_rss_bytes as f64 / 1024.0 / 1024.0,
            cpu * 1e6 / n as f64
        );
        if n == 100_000 {
            println!("  target at 100,000 events: at most {TARGET_CPU_S} CPU s: {}", if cpu <= TARGET_CPU_S { "met" } else { "NOT met" });
        }
    }
    if keep {
        println!("kept: {}", holder.keep().display());
    }
    Ok(())
}

/// A database of `n` events and 30 days of cron, as described at the top.
fn build(db: &Path, n: u64) -> Result<()> {
    let _ = std::fs::remove_file(db);
    drop(cityvibe::store::Store::open(db)?);
    let mut conn = rusqlite::Connection::open(db)?;
    conn.pragma_update(None, "synchronous", "OFF")?;
    let tx = conn.transaction()?;
    let now = cityvibe::clock::Clock::now_ms(&cityvibe::clock::SystemClock);
    let day = 86_400_000i64;
    let sources: Vec<(&str, &str)> = cityvibe::adapters::ALL.iter().map(|a| (a.manifest().id, a.manifest().host)).collect();
    let mut rng = Rng(n);
    {
        let mut ev = tx.prepare(
            "INSERT INTO events (source, source_event_id, title, description, url, lang, time_zone, all_day, start, end, first_start,
                last_end, occurrences, weekdays, excluded, categories, source_categories, content_hash, status, first_seen, last_changed,
                withdrawn_at, price, venue_name)
             VALUES (?1, ?2, ?3, ?4, ?5, 'es', 'Europe/Madrid', 0, '2026-12-01T19:00:00', NULL, '2026-12-01T19:00:00',
                '2026-12-01T21:00:00', '[]', '[]', '[]', '[\"music\"]', '[]', 'h', ?6, ?7, ?7, ?8, 'Gratis', 'Teatro')",
        )?;
        let mut tr = tx.prepare(
            "INSERT INTO translations (event_id, lang, field, text, origin, engine, source_hash) VALUES (?1, ?2, ?3, ?4, 'machine', 'apertium', 'x')",
        )?;
        for i in 0..n {
            let (source, host) = sources[i as usize % sources.len()];
            let first_seen = now - (rng.unit() * 90.0 * day as f64) as i64;
            let withdrawn = rng.pct(20).then(|| first_seen + (rng.unit() * (now - first_seen) as f64) as i64);
            let status = if withdrawn.is_some() { "withdrawn" } else { "active" };
            let title = format!("Concierto número {i} en la sala");
            let url = format!("https://{host}/evento/{i}");
            ev.execute(rusqlite::params![
                source,
                i.to_string(),
                title,
                "Una descripción de la actividad, con su horario y su lugar.",
                url,
                status,
                first_seen,
                withdrawn
            ])?;
            let id = tx.last_insert_rowid();
            tr.execute(rusqlite::params![id, "en", "title", format!("Concert number {i} in the hall")])?;
            tr.execute(rusqlite::params![id, "en", "description", "A description of the activity."])?;
            tr.execute(rusqlite::params![id, "fr", "title", format!("Concert numéro {i} dans la salle")])?;
        }
        let statuses = ["ok", "unchanged", "unchanged", "skipped", "ok", "failed", "unchanged", "anomaly"];
        let hour = 3_600_000i64;
        let mut run = tx.prepare("INSERT INTO runs (id, started_at, finished_at, exit_code) VALUES (?1, ?2, ?2, 0)")?;
        let mut line = tx.prepare(
            "INSERT INTO run_sources (run_id, source, status, requests, not_modified, added, updated, withdrawn, record_errors, duration_ms, message)
             VALUES (?1, ?2, ?3, 3, 1, 2, 5, 1, 0, 1200, ?4)",
        )?;
        let mut log = tx.prepare(
            "INSERT INTO fetch_log (run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome)
             VALUES (?1, ?2, ?3, ?4, ?5, 300, ?6, 40000, 1, 'ok')",
        )?;
        for r in 0..240i64 {
            let at = now - 30 * day + r * 3 * hour;
            run.execute(rusqlite::params![r + 1, at])?;
            for (i, (source, host)) in sources.iter().enumerate() {
                let status = statuses[(r as usize + i) % statuses.len()];
                line.execute(rusqlite::params![r + 1, source, status, format!("https://{host}/feed: HTTP 500")])?;
                for k in 0..3i64 {
                    let code = [200, 304, 500][k as usize];
                    log.execute(rusqlite::params![r + 1, source, host, format!("https://{host}/feed{k}"), at + k * 10_500, code])?;
                }
            }
        }
    }
    tx.commit()?;
    Ok(())
}
