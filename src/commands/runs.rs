//! `cityvibe runs`: what each recent run did, per source.

use super::{Exit, exit, local_time, print_json};
use crate::cli::{Cli, RunsArgs};
use crate::output::Table;
use crate::store::Store;
use crate::store::runs::SourceReport;
use anyhow::Result;

pub fn list(cli: &Cli, args: &RunsArgs) -> Result<Exit> {
    let (limit, as_json) = (args.limit, args.json);
    if limit == 0 {
        crate::bail_usage!("--limit 0 would show nothing: give 1 or more");
    }
    let store = Store::open_existing(&cli.db)?;
    let runs = store.list_runs(limit)?;
    if as_json {
        print_json(&runs)?;
        return Ok(exit::OK);
    }
    if runs.is_empty() {
        eprintln!("no runs yet: run `cityvibe run`");
        return Ok(exit::OK);
    }
    let mut t = Table::new(&[&["run", "started", "exit", "source"][..], &COUNT_COLUMNS, &["translated", "duration", "message"]].concat())
        .right(&[0, 2, 5, 6, 7, 8, 9, 10, 11]);
    for r in &runs {
        let exit_code = match (r.exit_code, r.status) {
            (Some(c), crate::store::reports::RunStatus::Interrupted) => format!("{c} interrupted"),
            (Some(c), _) => c.to_string(),
            (None, _) => "-".to_string(),
        };
        if r.sources.is_empty() {
            t.row([r.run_id.to_string(), local_time(Some(r.started_at)), exit_code.clone(), "(no source)".into()]);
        }
        for s in &r.sources {
            t.row(
                [r.run_id.to_string(), local_time(Some(r.started_at)), exit_code.clone(), s.id.clone()]
                    .into_iter()
                    .chain(source_cells(s, false)),
            );
        }
    }
    t.print()?;
    Ok(exit::OK)
}

/// The heads of the columns [`source_cells`] opens with.
pub(super) const COUNT_COLUMNS: [&str; 6] = ["status", "req", "304", "added", "updated", "withdrawn"];

/// One source's cells of a run's table after its id, as `run` prints them
/// and `runs` reads them back: status, requests, 304s, added, updated,
/// withdrawn, the record errors where `errors` (the run says them, the
/// stored runs do not), translated, time and message.
pub(super) fn source_cells(s: &SourceReport, errors: bool) -> Vec<String> {
    let mut cells = vec![
        s.status.to_string(),
        s.requests.to_string(),
        s.not_modified.to_string(),
        s.added.to_string(),
        s.updated.to_string(),
        s.withdrawn.to_string(),
    ];
    if errors {
        cells.push(s.record_errors.to_string());
    }
    cells.extend([s.translated.to_string(), format!("{:.1} s", s.duration_ms as f64 / 1000.0), s.message.clone()]);
    cells
}
