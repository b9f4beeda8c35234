//! `cityvibe events correct SOURCE:ID FIELD VALUE --reason "…"` and `… FIELD
//! --remove`: the operator's correction of one field of a stored event, shown
//! until the feed itself changes that field. A corrected (or restored) title,
//! description or price reaches every display language at once: the
//! translation step runs for the event's source when an engine is
//! configured, and the command says when readers will see it otherwise.

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
    match crate::operate::correct::correct(&mut store, (source, id), f, value, reason, &crate::clock::SystemClock)? {
        Corrected::Lifted => eprintln!("correction of {field} on {source}:{id} lifted: the feed's value shows again"),
        Corrected::Corrected(correction) if json => print_json(&correction)?,
        Corrected::Corrected(correction) => eprintln!(
            "{source}:{id} {field} corrected to {:?} (the feed says {:?}); it shows until the feed changes {field}",
            correction.value.as_deref().unwrap_or(""),
            correction.feed_value.as_deref().unwrap_or("")
        ),
    }
    if matches!(f, Field::Title | Field::Description | Field::Price) {
        eprintln!("{}", translate_now(cli, &mut store, source, field));
    }
    Ok(exit::OK)
}

/// Translate the source's texts that now need it (the corrected one among
/// them) into every display language, as `translate --source` does; what
/// the reader sees and until when, in one line.
fn translate_now(cli: &Cli, store: &mut Store, source: &str, field: &str) -> String {
    let later = format!("readers in other languages see the new {field} in its original language until then");
    let config = match cli.config.is_file().then(|| super::load_config(cli)) {
        Some(Ok(config)) => config,
        Some(Err(e)) => return format!("not translated now ({e:#}): the next `cityvibe run` or `cityvibe translate` does it; {later}"),
        None => {
            return format!(
                "not translated now: no {} to name the engine; the next `cityvibe run` or `cityvibe translate` does it; {later}",
                cli.config.display()
            );
        }
    };
    if config.settings.translator == crate::vocab::Translator::None {
        return format!(
            "not translated: translation is switched off in {} (translator = \"none\"); \
             readers in other languages see the new {field} in its original language",
            cli.config.display()
        );
    }
    // A run under way holds the lock and translates it itself.
    let _lock = match super::run_lock(cli) {
        Ok(lock) => lock,
        Err(e) if e.is::<crate::ingest::Locked>() => return format!("a run is under way: it translates the new {field} before it ends"),
        Err(e) => return format!("not translated now ({e:#}): the next `cityvibe run` or `cityvibe translate` does it; {later}"),
    };
    let langs: Vec<String> = config.settings.langs().iter().map(|l| l.to_string()).collect();
    match super::translate::step(store, &config, &[source.to_string()], false) {
        Ok(Some(stats)) if stats.pending == 0 => {
            format!(
                "translated at once into {} ({} texts of {source} made, {} from the cache)",
                langs.join(", "),
                stats.translated,
                stats.cache_hits
            )
        }
        Ok(Some(stats)) => format!(
            "{} texts of {source} could not be translated now ({}): the next `cityvibe run` or `cityvibe translate` retries; {later}",
            stats.pending,
            stats.error.as_deref().unwrap_or("the engine did not answer")
        ),
        Ok(None) => format!("not translated: translation is switched off in {}", cli.config.display()),
        Err(e) => format!("not translated now ({e:#}): the next `cityvibe run` or `cityvibe translate` does it; {later}"),
    }
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
