//! `cityvibe runs`: what each recent run did, per source.

use super::{exit, local_time, print_json};
use crate::cli::Cli;
use crate::store::Store;
use anyhow::Result;

pub fn list(cli: &Cli, limit: usize, as_json: bool) -> Result<i32> {
    let store = Store::open(&cli.db)?;
    let runs = store.list_runs(limit)?;
    if as_json {
        print_json(&runs)?;
        return Ok(exit::OK);
    }
    if runs.is_empty() {
        eprintln!("no runs yet: run `cityvibe run`");
        return Ok(exit::OK);
    }
    println!(
        "{:>5} {:<16} {:>4} {:<10} {:<10} {:>4} {:>4} {:>6} {:>7} {:>9} {:>10} {:>8}  message",
        "run", "started", "exit", "source", "status", "req", "304", "added", "updated", "withdrawn", "translated", "duration"
    );
    for r in &runs {
        let exit_code = r.exit_code.map_or("-".to_string(), |c| c.to_string());
        if r.sources.is_empty() {
            println!("{:>5} {:<16} {:>4} (no source)", r.run_id, local_time(Some(r.started_at)), exit_code);
        }
        for s in &r.sources {
            println!(
                "{:>5} {:<16} {:>4} {:<10} {:<10} {:>4} {:>4} {:>6} {:>7} {:>9} {:>10} {:>7.1}s  {}",
                r.run_id,
                local_time(Some(r.started_at)),
                exit_code,
                s.source,
                s.status,
                s.requests,
                s.not_modified,
                s.added,
                s.updated,
                s.withdrawn,
                s.translated,
                s.duration_ms as f64 / 1000.0,
                s.message
            );
        }
    }
    Ok(exit::OK)
}
