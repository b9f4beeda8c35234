//! `cityvibe events correct SOURCE:ID FIELD VALUE --reason "…"` and
//! `… FIELD --remove` (issue 12 item 9): the operator's correction of one
//! field of a stored event, shown until the feed itself changes that field.

use super::{exit, print_json};
use crate::cli::{Cli, CorrectArgs};
use crate::correction::Field;
use crate::store::Store;
use crate::store::corrections::Refused;
use anyhow::Result;

/// Correct (a value given) or lift (`--remove`) the correction of one field.
pub fn execute(cli: &Cli, args: &CorrectArgs) -> Result<super::Exit> {
    let CorrectArgs { event, field, value, reason, remove, json } = args;
    let value = if *remove { None } else { value.as_deref() };
    let (reason, json) = (reason.as_deref(), *json);
    let Ok(named) = event.parse::<crate::vocab::EventRef>() else {
        crate::bail_usage!("{event:?}: name the event as SOURCE:ID (see `cityvibe events list`), e.g. madrid:{}", event.trim());
    };
    let (source, id) = (named.source.as_str(), named.id.as_str());
    crate::commands::check_source_ids(&[source.to_string()])?;
    let f = Field::parse(field).map_err(crate::output::as_usage)?;
    // What the event's data refuses is the operator's to fix (exit 2).
    let refused = |e: anyhow::Error| if e.is::<Refused>() { crate::output::as_usage(e) } else { e };
    let mut store = Store::open_existing(&cli.db)?;
    let Some(raw) = value else {
        if !store.lift_correction(source, id, f)? {
            crate::bail_usage!("{source}:{id} has no correction of {field} in force; see `cityvibe events show {source}:{id}`");
        }
        eprintln!("correction of {field} on {source}:{id} lifted: the feed's value shows again");
        return Ok(exit::OK);
    };
    // The reason is stored and shown too: no contact data in it either (P5).
    let reason = crate::parse::pii::scrub(reason.unwrap_or("").trim());
    if reason.is_empty() {
        crate::bail_usage!("say why with --reason \"…\" (it is kept with the correction)");
    }
    let value = f.value(raw).map_err(crate::output::as_usage)?;
    let correction = store.correct(source, id, f, &value, &reason).map_err(refused)?;
    if json {
        print_json(&correction)?;
    } else {
        eprintln!(
            "{source}:{id} {field} corrected to {:?} (the feed says {:?}); it shows until the feed changes {field}",
            correction.value.as_deref().unwrap_or(""),
            correction.feed_value.as_deref().unwrap_or("")
        );
    }
    Ok(exit::OK)
}

/// One line for a correction, as `events show` and `holdings` print it.
pub fn describe(c: &crate::store::corrections::Correction) -> String {
    let state = match (&c.ended_at, &c.ended_why) {
        (None, _) => "in force".to_string(),
        (Some(at), why) => format!("ended {}: {}", super::local_time(Some(*at)), why.as_deref().unwrap_or("")),
    };
    format!(
        "correction {}:{} {} = {:?} (feed: {:?}) since {}, because {:?}; {state}",
        c.source,
        c.source_event_id,
        c.field,
        c.value.as_deref().unwrap_or(""),
        c.feed_value.as_deref().unwrap_or(""),
        super::local_time(Some(c.created_at)),
        c.reason
    )
}
