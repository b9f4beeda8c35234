//! `cityvibe takedown add|list|remove` (P18).

use super::{exit, local_time, print_json};
use crate::cli::Cli;
use crate::store::Store;
use crate::store::takedowns::Target;
use anyhow::{Result, bail};

pub fn add(cli: &Cli, what: &str, reason: &str, as_json: bool) -> Result<i32> {
    let target = Target::parse(what, &crate::adapters::ids());
    if let Target::Event { source, .. } = &target {
        crate::adapters::require(source)?;
    }
    let mut store = Store::open(&cli.db)?;
    let r = store.add_takedown(&target, reason)?;
    if as_json {
        print_json(&r)?;
        return Ok(exit::OK);
    }
    if r.deleted.is_empty() {
        eprintln!("takedown {} recorded; no stored event matched it now, and none that it names will be stored", r.takedown.id);
    } else {
        eprintln!(
            "takedown {} recorded; deleted {} ({} translation rows); it will not come back on later runs",
            r.takedown.id,
            r.deleted.join(", "),
            r.translations_deleted
        );
    }
    Ok(exit::OK)
}

pub fn list(cli: &Cli, as_json: bool) -> Result<i32> {
    let store = Store::open(&cli.db)?;
    let rows = store.list_takedowns()?;
    if as_json {
        print_json(&rows)?;
        return Ok(exit::OK);
    }
    if rows.is_empty() {
        eprintln!("no takedowns");
        return Ok(exit::OK);
    }
    println!("{:>4}  {:<16}  {:<24}  {:<40}  reason", "id", "when", "event", "url");
    for t in &rows {
        let ev = match (&t.source, &t.source_event_id) {
            (Some(s), Some(i)) => format!("{s}:{i}"),
            _ => "-".into(),
        };
        println!("{:>4}  {:<16}  {:<24}  {:<40}  {}", t.id, local_time(Some(t.created_at)), ev, t.url.as_deref().unwrap_or("-"), t.reason);
    }
    Ok(exit::OK)
}

pub fn remove(cli: &Cli, id: i64) -> Result<i32> {
    let store = Store::open(&cli.db)?;
    match store.remove_takedown(id)? {
        Some(_) => {
            eprintln!("takedown {id} lifted; the event may come back when its feed next changes");
            Ok(exit::OK)
        }
        None => bail!("no takedown with id {id}; see `cityvibe takedown list`"),
    }
}
