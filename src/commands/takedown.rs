//! `cityvibe takedown add|list|remove` (P18).

use super::{exit, local_time, print_json};
use crate::cli::{Cli, TakedownAddArgs};
use crate::store::Store;
use crate::store::takedowns::TakedownOutcome;
use anyhow::Result;

pub fn add(cli: &Cli, args: &TakedownAddArgs) -> Result<super::Exit> {
    let (what, reason, force, as_json) = (args.target.as_str(), args.reason.as_str(), args.force, args.json);
    let added = crate::operate::takedown::add(&cli.db, what, reason, force, &crate::clock::SystemClock)?;
    if added.created_db {
        eprintln!(
            "cityvibe: note: there was no database at {}; it was created to hold this takedown. \
             If cron runs with another database, add the takedown there (--db or CITYVIBE_DB)",
            cli.db.display()
        );
    }
    let outcome = added.outcome;
    if let TakedownOutcome::Unconfirmed { source, id, examples } = &outcome {
        // A tombstone for a mistyped id would protect nothing.
        let like = if examples.is_empty() {
            format!("no event of {source} is stored to compare it with")
        } else {
            format!("{source}'s stored ids look like {}", examples.join(", "))
        };
        eprintln!(
            "cityvibe: {source}:{id} names no stored event and does not look like an id of {source} ({like}); \
             nothing recorded. Check the id (`cityvibe events list --source {source}`, or take it down by its URL), \
             or pass --force to record the takedown anyway"
        );
        return Ok(exit::USAGE);
    }
    if as_json {
        print_json(&outcome)?;
        return Ok(exit::OK);
    }
    match outcome {
        TakedownOutcome::AlreadyTakenDown { takedown: t } => eprintln!(
            "already taken down by takedown {} ({}, reason: {}); nothing new recorded",
            t.id,
            local_time(Some(t.created_at)),
            t.reason
        ),
        TakedownOutcome::Recorded(r) if r.deleted.is_empty() => {
            eprintln!("takedown {} recorded; no stored event matched it now, and none that it names will be stored", r.takedown.id)
        }
        TakedownOutcome::Recorded(r) => eprintln!(
            "takedown {} recorded; deleted {} ({} translation rows); it will not come back on later runs",
            r.takedown.id,
            r.deleted.join(", "),
            r.translations_deleted
        ),
        TakedownOutcome::Unconfirmed { .. } => unreachable!("handled above"),
    }
    Ok(exit::OK)
}

pub fn list(cli: &Cli, as_json: bool) -> Result<super::Exit> {
    let store = Store::open_existing(&cli.db)?;
    let rows = store.list_takedowns()?;
    if as_json {
        print_json(&rows)?;
        return Ok(exit::OK);
    }
    if rows.is_empty() {
        eprintln!("no takedowns");
        return Ok(exit::OK);
    }
    let mut table = crate::output::Table::new(&["id", "when", "event", "url", "reason"]).right(&[0]);
    for t in &rows {
        let ev = match (&t.source, &t.source_event_id) {
            (Some(s), Some(i)) => format!("{s}:{i}"),
            _ => "-".into(),
        };
        table.row([t.id.to_string(), local_time(Some(t.created_at)), ev, t.url.clone().unwrap_or_else(|| "-".into()), t.reason.clone()]);
    }
    table.print()?;
    Ok(exit::OK)
}

pub fn remove(cli: &Cli, id: i64) -> Result<super::Exit> {
    let store = Store::open_existing(&cli.db)?;
    crate::operate::takedown::remove(&store, id)?;
    eprintln!("takedown {id} lifted; the event may come back when its feed next changes");
    Ok(exit::OK)
}
