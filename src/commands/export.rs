//! `cityvibe export`: events as JSON, CSV, iCalendar or JSON-LD (P19): the
//! current ones (not ended: `schedule::is_current`, as `events list` shows
//! them) unless `--from` asks for more.

use super::exit;
use crate::citation::Citations;
use crate::cli::{Cli, ExportArgs, ExportFormat};
use crate::clock::{Clock, SystemClock};
use crate::export::{ExportEvent, csv, ics, jsonld, parse_date};
use crate::store::Store;
use crate::store::events::EventFilter;
use anyhow::Result;
use std::io::Write;

/// The events an export holds, shown in `lang` by the one rule
/// (`translate::view`), each cited as `cite` says (P19).
pub fn collect(store: &Store, args: &ExportArgs, cite: &Citations) -> Result<Vec<ExportEvent>> {
    crate::commands::check_source_ids(&args.sources)?;
    let from = args.from.as_deref().map(|d| parse_date("--from", d)).transpose()?;
    let to = args.to.as_deref().map(|d| parse_date("--to", d)).transpose()?;
    if let (Some(f), Some(t)) = (from, to)
        && f > t
    {
        crate::bail_usage!("--from {f} is after --to {t}");
    }
    let filter = EventFilter {
        sources: args.sources.clone(),
        from: from.map(|d| d.to_string()),
        to: to.map(|d| d.to_string()),
        ..Default::default()
    };
    let mut events = cite.list(store, &filter)?;
    // No --from: what a reader is shown now, the events not ended; --from
    // opens the window back to that day.
    if from.is_none() {
        let now = SystemClock.now();
        events.retain(|e| crate::schedule::is_current(e, now));
    }
    let shown = super::events::in_language(store, events, args.lang)?;
    Ok(shown.into_iter().map(ExportEvent::new).collect())
}

pub fn execute(cli: &Cli, args: &ExportArgs) -> Result<super::Exit> {
    if args.bom && args.format != ExportFormat::Csv {
        crate::bail_usage!("--bom is for --format csv only");
    }
    let cite = super::load_citations(cli)?;
    let store = Store::open_existing(&cli.db)?;
    let events = collect(&store, args, &cite)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = match args.format {
        ExportFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&events)?),
        ExportFormat::Jsonld => writeln!(out, "{}", serde_json::to_string_pretty(&jsonld::document(&events))?),
        ExportFormat::Ics => out.write_all(ics::write(&events, SystemClock.now()).as_bytes()),
        ExportFormat::Csv => {
            csv::write(&mut out, &events, args.bom)?;
            Ok(())
        }
    };
    // A closed pipe (`| head`) ends the command quietly (see `output`).
    written?;
    out.flush()?;
    if events.is_empty() {
        let counts = store.count_by_status(&args.sources)?;
        if counts.active == 0 && store.count_all_events()? > 0 {
            eprintln!("no events to export: {}", super::events::unlisted(&args.sources, &counts));
        } else {
            let window = if args.from.is_none() { " (without --from, only events not ended are exported)" } else { "" };
            eprintln!("no events match{window}: run `cityvibe run`, or widen --source/--from/--to");
        }
    }
    Ok(exit::OK)
}
