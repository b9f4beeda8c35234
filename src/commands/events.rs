//! `cityvibe events list`.

use crate::cli::Cli;
use crate::store::Store;
use crate::store::events::EventFilter;
use anyhow::Result;

pub fn list(cli: &Cli, sources: Vec<String>, limit: usize, json: bool) -> Result<i32> {
    let store = Store::open(&cli.db)?;
    let events = store.list_events(&EventFilter { sources, limit: Some(limit), ..Default::default() })?;
    if json {
        super::print_json(&events)?;
        return Ok(super::exit::OK);
    }
    for e in &events {
        println!(
            "{}  {:<9} {}\n      {} · {}\n      {}",
            e.start.as_deref().unwrap_or("?").replace('T', " "),
            e.source,
            e.title,
            e.venue.as_deref().unwrap_or("-"),
            e.url.as_deref().unwrap_or("-"),
            e.attribution
        );
    }
    if events.is_empty() {
        eprintln!("no events stored yet: run `cityvibe run` (or `make demo`)");
    }
    Ok(super::exit::OK)
}
