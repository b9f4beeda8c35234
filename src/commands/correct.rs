//! `cityvibe events correct SOURCE:ID FIELD VALUE --reason "…"` and `… FIELD
//! --remove`: the operator's correction of one field of a stored event, shown
//! until the feed itself changes that field.

use super::{exit, print_json};
use crate::cli::{Cli, CorrectArgs};
use crate::correction::Field;
use crate::operate::correct::Corrected;
use crate::store::Store;
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
    let mut store = Store::open_existing(&cli.db)?;
    match crate::operate::correct::correct(&mut store, (source, id), f, value, reason, &crate::http::SystemClock)? {
        Corrected::Lifted => eprintln!("correction of {field} on {source}:{id} lifted: the feed's value shows again"),
        Corrected::Corrected(correction) if json => print_json(&correction)?,
        Corrected::Corrected(correction) => eprintln!(
            "{source}:{id} {field} corrected to {:?} (the feed says {:?}); it shows until the feed changes {field}",
            correction.value.as_deref().unwrap_or(""),
            correction.feed_value.as_deref().unwrap_or("")
        ),
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
