//! `cityvibe events list|show`.

use crate::cli::{Cli, EventsListArgs, EventsShowArgs};
use crate::clock::{Clock, SystemClock};
use crate::lang::Lang;
use crate::shown::ShownEvent;
use crate::store::Store;
use crate::store::corrections::Correction;
use crate::store::events::{EventFilter, StoredEvent};
use anyhow::Result;

/// Events as a reader of `lang` is shown them, by the one rule
/// (`translate::view`); without `lang`, each in its own language.
pub fn in_language(store: &Store, events: Vec<StoredEvent>, lang: Option<Lang>) -> Result<Vec<ShownEvent>> {
    match lang {
        Some(lang) => crate::translate::view::show_in(store, events, lang),
        None => Ok(events.into_iter().map(ShownEvent::in_its_language).collect()),
    }
}

pub fn list(cli: &Cli, args: &EventsListArgs) -> Result<super::Exit> {
    let EventsListArgs { sources, limit, lang, all, at, json } = args;
    let (limit, lang, all, at, json) = (*limit, *lang, *all, at.as_deref(), *json);
    super::check_source_ids(sources)?;
    // The reader's moment: checked before anything is opened (exit 2).
    let moment = at.map(crate::schedule::parse_moment).transpose()?.unwrap_or_else(|| SystemClock.now());
    if limit == 0 {
        crate::bail_usage!("--limit 0 would show nothing: give 1 or more");
    }
    let cite = super::load_citations(cli)?;
    let store = Store::open_existing(&cli.db)?;
    let stored = cite.list(&store, &EventFilter { sources: sources.clone(), ..Default::default() })?;
    // Upcoming and current first, by next occurrence; ended only with --all.
    let ordered: Vec<_> = crate::schedule::for_reader(stored, all, moment).into_iter().take(limit).collect();
    let (standings, events): (Vec<_>, Vec<_>) = ordered.into_iter().unzip();
    let events = in_language(&store, events, lang)?;
    if json {
        // Listed in the table's order, with the occurrence that order is by:
        // `next` (now or next) or `ended` (the last), as the table's first column.
        #[derive(serde::Serialize)]
        struct Listed<'a> {
            #[serde(flatten)]
            event: &'a ShownEvent,
            next: Option<crate::export::Slot>,
            ended: Option<crate::export::Slot>,
        }
        let listed: Vec<Listed> = events
            .iter()
            .zip(&standings)
            .map(|(event, standing)| match *standing {
                crate::schedule::Standing::Next(s) => Listed { event, next: Some(s), ended: None },
                crate::schedule::Standing::Ended(s) => Listed { event, next: None, ended: Some(s) },
                crate::schedule::Standing::Undated => Listed { event, next: None, ended: None },
            })
            .collect();
        super::print_json(&listed)?;
        return Ok(super::exit::OK);
    }
    for (e, standing) in events.iter().zip(&standings) {
        let when = match standing {
            crate::schedule::Standing::Next(s) => crate::schedule::when(&e.stored, s),
            crate::schedule::Standing::Ended(s) => format!("ended {}", crate::schedule::when(&e.stored, s)),
            crate::schedule::Standing::Undated => "no date".to_string(),
        };
        crate::outln!(
            "{}  {:<9} {}\n      {} · {}\n      {}{}",
            when,
            e.stored.source,
            e.title,
            e.stored.venue.as_deref().unwrap_or("-"),
            e.stored.url.as_deref().unwrap_or("-"),
            e.attribution,
            if lang.is_some() { format!(" · text: {} [{}]", e.text_lang(), e.origin) } else { String::new() }
        )?;
    }
    if events.is_empty() {
        // Say which: nothing stored at all, or nothing of the sources asked for.
        let whose = if sources.is_empty() { String::new() } else { format!(" of {}", sources.join(", ")) };
        let counts = store.count_by_status(sources)?;
        if store.count_all_events()? == 0 {
            eprintln!("no events stored yet in {}: run `cityvibe run` (or `make demo`)", cli.db.display());
        } else if counts.active == 0 {
            eprintln!("no events{whose} to list: {}", unlisted(sources, &counts));
        } else {
            let more = if all { "" } else { " (events that ended are listed with --all)" };
            let when = at.map(|a| format!(" at {a}")).unwrap_or_default();
            eprintln!("no upcoming or current events{whose}{when} among the {} listed{more}", counts.active);
        }
    }
    Ok(super::exit::OK)
}

/// Why no stored event of `sources` is listed: withheld by the operator
/// (and how to bring them back), gone from their feeds, or none stored.
pub(super) fn unlisted(sources: &[String], counts: &crate::store::events::StatusCounts) -> String {
    let mut why = Vec::new();
    if counts.withheld > 0 {
        let enable: Vec<String> = counts.withheld_sources.iter().map(|id| format!("`cityvibe source enable {id}`")).collect();
        why.push(format!("{} withheld by the operator ({} brings them back)", counts.withheld, enable.join(", ")));
    }
    if counts.withdrawn > 0 {
        why.push(format!("{} gone from their feeds", counts.withdrawn));
    }
    if why.is_empty() {
        format!("none of {} is stored; `cityvibe source list` shows what each source holds", sources.join(", "))
    } else {
        why.join("; ")
    }
}

/// `events show --json`: the event as `events list --json` prints it, with
/// the operator's corrections of it beside its own keys.
#[derive(serde::Serialize)]
struct EventWithCorrections<'a> {
    #[serde(flatten)]
    event: &'a ShownEvent,
    corrections: &'a [Correction],
}

pub fn show(cli: &Cli, args: &EventsShowArgs) -> Result<super::Exit> {
    let (id, lang, json) = (args.id.as_str(), args.lang, args.json);
    let (source, event_id) = match id.parse::<crate::vocab::EventRef>() {
        Ok(named) if crate::adapters::by_id(&named.source).is_some() => (vec![named.source], named.id),
        _ => (vec![], id.to_string()),
    };
    let cite = super::load_citations(cli)?;
    let store = Store::open_existing(&cli.db)?;
    let found = cite
        .list(&store, &EventFilter { sources: source, source_event_id: Some(event_id), include_withdrawn: true, ..Default::default() })?;
    match found.len() {
        0 => crate::bail_usage!("no stored event {id}; see `cityvibe events list`"),
        1 => {}
        n => crate::bail_usage!("{n} events have the id {id}: say which with SOURCE:ID"),
    }
    let found = in_language(&store, found, lang)?;
    let (e, s) = (&found[0], &found[0].stored);
    // The operator's corrections of it, in force and ended.
    let corrections = store.corrections(&s.source, Some(&s.source_event_id))?;
    if json {
        super::print_json(&EventWithCorrections { event: e, corrections: &corrections })?;
        return Ok(super::exit::OK);
    }
    // An active event whose every occurrence is over reads "ended", not "active", however old it is.
    let ended = s.status == crate::vocab::EventStatus::Active
        && matches!(crate::schedule::standing(s, SystemClock.now()), crate::schedule::Standing::Ended(_));
    crate::outln!("{} ({}:{}, {})", e.title, s.source, s.source_event_id, if ended { "ended" } else { s.status.as_str() })?;
    crate::outln!("text: {} [{}]", e.text_lang(), e.origin)?;
    let civil = |t: Option<jiff::civil::DateTime>| t.map(|t| crate::schedule::civil_day_or_time(t, s.all_day));
    let (start, end) = (civil(s.start).unwrap_or("?".into()), civil(s.end).unwrap_or("no end given".into()));
    let span = if start == end { start } else { format!("{start} → {end}") };
    crate::outln!("when: {span}{} ({})", if s.all_day { ", all day" } else { "" }, s.time_zone)?;
    // Venue, street, postcode and locality, comma-separated as every export has them.
    crate::outln!("where: {}", crate::export::location_line(s).as_deref().unwrap_or("-"))?;
    // Each field in the reader's language, with the publisher's own words
    // beside it, or said to be as published.
    for (field, value) in [("price", &e.price), ("audience", &e.audience)] {
        if let Some(value) = value {
            crate::outln!("{field}: {value}{}", as_published(e, field))?;
        }
    }
    if !e.category_labels.is_empty() {
        crate::outln!("categories: {}", e.category_labels.join(", "))?;
    }
    if !e.description.trim().is_empty() {
        crate::outln!("\n{}\n", e.description.trim())?;
    }
    // Say what the link is, as the exports do: the event's page, the
    // publisher's "more information", or the dataset's page (P19).
    let link = match s.link {
        crate::model::LinkKind::EventPage => "original",
        crate::model::LinkKind::MoreInformation => "more information",
        crate::model::LinkKind::DatasetPage => "dataset page",
    };
    crate::outln!("{link}: {}", s.url.as_deref().unwrap_or("-"))?;
    crate::outln!("{} — licence: {} <{}>", e.attribution, e.licence, s.licence_url)?;
    if let Some(licence) = e.original_fields().get("licence") {
        crate::outln!("licence as the source names it: {licence}")?;
    }
    for c in &corrections {
        crate::outln!("{}", super::correct::describe(c))?;
    }
    Ok(super::exit::OK)
}

/// How `events show` marks a field not said as the publisher said it: its
/// publisher's words, or that no set phrase says it in the reader's language.
fn as_published(e: &ShownEvent, field: &str) -> String {
    let originals = e.original_fields();
    if let (Some(engine), Some(original)) = (e.machine_fields.get(field), originals.get(field)) {
        format!(" (machine translation, {engine}; as published: {original})")
    } else if let Some(original) = originals.get(field) {
        format!(" (as published: {original})")
    } else if e.untranslated_fields.contains(&field) {
        " (as published; no set phrase says it in this language)".to_string()
    } else {
        String::new()
    }
}
