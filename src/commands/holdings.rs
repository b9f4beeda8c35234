//! `cityvibe holdings HOST|SOURCE_ID|URL` (P17): what CityVibe holds of a
//! publisher's, and how it was fetched, from the database and the fetch log;
//! for a page's URL, also the stored events whose original it is.

use super::{exit, print_json};
use crate::adapter::Adapter;
use crate::cli::{Cli, HoldingsArgs};
use crate::clock::{Clock, SystemClock};
use crate::store::Store;
use crate::store::corrections::Correction;
use crate::store::events::EventFilter;
use crate::store::fetchlog::HostStats;
use crate::store::reports::LinkingEvent;
use anyhow::Result;
use jiff::Timestamp;
use serde::Serialize;

/// The sources a query names: a source id, a host (with or without `www.`),
/// or any URL on that host.
pub fn resolve(query: &str) -> Vec<&'static dyn Adapter> {
    let q = query.trim();
    if let Some(a) = crate::adapters::by_id(q) {
        return vec![a];
    }
    let host = host_of(q);
    crate::adapters::ALL.iter().copied().filter(|a| bare(a.manifest().host) == bare(&host)).collect()
}

/// The host a query names: a URL's host, else the query itself, lower case.
fn host_of(q: &str) -> String {
    url::Url::parse(q.trim())
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| q.trim().trim_end_matches('/').to_string())
        .to_ascii_lowercase()
}

/// The page a query names, when it is a URL with a path or a query beyond
/// the host's root: its host (without `www.`), path and query, lower-case
/// host, scheme and fragment aside (a webmaster pastes `https://` for a
/// link the feed gave as `http://`).
fn page_of(q: &str) -> Option<(String, String, Option<String>)> {
    let u = url::Url::parse(q.trim()).ok()?;
    let host = bare(&u.host_str()?.to_ascii_lowercase());
    (u.path() != "/" || u.query().is_some()).then(|| (host, u.path().to_string(), u.query().map(str::to_string)))
}

fn bare(h: &str) -> String {
    h.strip_prefix("www.").unwrap_or(h).to_string()
}

/// Sources whose stored events link to a host we never fetch from, with
/// how many events each.
type Linked = Vec<(String, u64)>;

/// The sources a query names ([`resolve`]); for a host we never fetch
/// from, those whose stored events link to it, with how many each (else
/// none). A query that names neither is a usage error.
fn sources_of(cli: &Cli, query: &str) -> Result<(Vec<&'static dyn Adapter>, Linked)> {
    let mut adapters = resolve(query);
    // A host we never fetch from may still be where our stored events link to
    // (every Madrid event points at www.madrid.es): its webmaster asks what we
    // hold of theirs (P17).
    let mut linked = Vec::new();
    if adapters.is_empty() {
        if cli.db.is_file() {
            let store = Store::open(&cli.db)?;
            let host = host_of(query);
            let on_host = store.events_linking_to(&host, |u| {
                url::Url::parse(u).ok().and_then(|u| u.host_str().map(|h| bare(&h.to_ascii_lowercase()))) == Some(bare(&host))
            })?;
            // Per source, how many (the events come ordered by source).
            for e in on_host {
                match linked.last_mut() {
                    Some((source, n)) if *source == e.source => *n += 1,
                    _ => linked.push((e.source, 1)),
                }
            }
            adapters = linked.iter().filter_map(|(id, _)| crate::adapters::by_id(id)).collect();
        }
        if adapters.is_empty() {
            let hosts: Vec<String> = crate::adapters::ALL.iter().map(|a| format!("{} ({})", a.manifest().id, a.manifest().host)).collect();
            crate::bail_usage!("{query:?} names no source or host we fetch, and no stored event links to it; known: {}", hosts.join(", "));
        }
    }
    Ok((adapters, linked))
}

/// What we hold of one source and how it is cited now (P17, P19).
#[derive(Debug, Serialize)]
struct SourceHoldings {
    id: &'static str,
    name: &'static str,
    publisher: &'static str,
    host: &'static str,
    dataset_page: &'static str,
    feeds: Vec<&'static str>,
    licence: String,
    licence_url: String,
    attribution: String,
    min_delay_secs: f64,
    /// Whether sources.toml switches it on; unknown without a sources.toml.
    enabled: Option<bool>,
    /// Stored and not withdrawn ("active", the store's word), ended or not.
    events_active: u64,
    /// Of the active, those a reader is shown now: not ended
    /// (`schedule::is_current`, as `events list` and `export` count them).
    events_current: u64,
    events_withdrawn: u64,
    events_withheld: u64,
    /// The operator's corrections of its events, in force and ended.
    corrections: Vec<Correction>,
    first_date: Option<String>,
    last_date: Option<String>,
    fields: Vec<String>,
    translations: Vec<(String, u64)>,
    first_stored: Option<Timestamp>,
    last_changed: Option<Timestamp>,
}

/// How many stored events of a source link to a host we never fetch from.
#[derive(Debug, Serialize)]
struct LinkedSource {
    source: String,
    events: u64,
}

/// What `holdings` tells, as `--json` prints it and the text says it.
#[derive(Debug, Serialize)]
struct HoldingsReport<'a> {
    query: &'a str,
    sources: Vec<SourceHoldings>,
    linked_from_events: Vec<LinkedSource>,
    /// For a page's URL, the stored events whose original it is; null for a host or a source.
    page_events: Option<Vec<PageEvent>>,
    fetch_log_30_days: Vec<HostStats>,
}

/// A stored event whose original is the page asked about.
#[derive(Debug, Serialize)]
struct PageEvent {
    #[serde(flatten)]
    event: LinkingEvent,
    /// Whether a reader is shown it now: active and not ended.
    current: bool,
}

impl PageEvent {
    /// `current` or `ended` for an active event (an April fair read in
    /// December is over, however active its row), else its status.
    fn standing(&self) -> &str {
        match (self.event.status, self.current) {
            (crate::vocab::EventStatus::Active, true) => "current",
            (crate::vocab::EventStatus::Active, false) => "ended",
            (status, _) => status.as_str(),
        }
    }
}

/// The active events of `source` (or the one with `id`) a reader is shown now.
fn current_events(store: &Store, source: &str, id: Option<&str>) -> Result<u64> {
    let filter = EventFilter { sources: vec![source.to_string()], source_event_id: id.map(str::to_string), ..Default::default() };
    let now = SystemClock.now();
    Ok(store.list_events(&filter)?.iter().filter(|e| crate::schedule::is_current(e, now)).count() as u64)
}

fn source_holdings(store: &Store, config: Option<&crate::config::Config>, a: &dyn Adapter) -> Result<SourceHoldings> {
    let m = a.manifest();
    let held = store.holdings(m.id)?;
    let cited = crate::citation::of(config, m);
    Ok(SourceHoldings {
        id: m.id,
        name: m.name,
        publisher: m.publisher,
        host: m.host,
        dataset_page: m.dataset_page,
        feeds: m.feeds.iter().map(|f| f.url).collect(),
        licence: cited.licence,
        licence_url: cited.licence_url,
        attribution: cited.attribution,
        min_delay_secs: config.map_or(m.min_delay.as_secs_f64(), |c| c.delay_for(a).as_secs_f64()),
        enabled: config.map(|c| c.enabled(m.id)),
        events_active: held.events_active,
        events_current: current_events(store, m.id, None)?,
        events_withdrawn: held.events_withdrawn,
        events_withheld: store.count_withheld(m.id)?,
        corrections: store.corrections(m.id, None)?,
        first_date: held.first_date,
        last_date: held.last_date,
        fields: held.fields,
        translations: held.translations,
        first_stored: held.first_seen,
        last_changed: held.last_changed,
    })
}

pub fn show(cli: &Cli, args: &HoldingsArgs) -> Result<super::Exit> {
    let query = args.query.as_str();
    let (adapters, linked) = sources_of(cli, query)?;
    // Without a sources.toml, the adapters' own values; a file that does not
    // validate is an error (its citation overrides could not be shown, P19).
    let config = if cli.config.exists() { Some(super::load_config(cli)?) } else { None };
    let store = Store::open_existing(&cli.db)?;
    let since = SystemClock.now_ms() - 30 * 24 * 3600 * 1000;
    let mut hosts: Vec<&str> = adapters.iter().map(|a| a.manifest().host).collect();
    hosts.dedup();
    let mut fetch_log_30_days = Vec::new();
    for h in &hosts {
        fetch_log_30_days.push(store.host_stats(h, since)?);
    }
    let mut sources = Vec::new();
    for a in &adapters {
        sources.push(source_holdings(&store, config.as_ref(), *a)?);
    }
    // A page's webmaster asks about that page: which stored events have it
    // as their original (P17), so that they can be taken down by it (P18).
    let page_events = match page_of(query) {
        Some(p) => {
            let mut events = Vec::new();
            for event in store.events_linking_to(&p.0, |u| page_of(u).as_ref() == Some(&p))? {
                let current =
                    event.status == crate::vocab::EventStatus::Active && current_events(&store, &event.source, Some(&event.id))? > 0;
                events.push(PageEvent { event, current });
            }
            Some(events)
        }
        None => None,
    };
    let linked_from_events = linked.into_iter().map(|(source, events)| LinkedSource { source, events }).collect();
    let report = HoldingsReport { query, sources, linked_from_events, page_events, fetch_log_30_days };
    if args.json {
        print_json(&report)?;
    } else {
        print_text(&report)?;
    }
    Ok(exit::OK)
}

/// One label column, wide enough for the longest label.
fn line(label: &str, value: String) -> std::io::Result<()> {
    crate::outln!("  {label:<13}{value}")
}

fn print_text(report: &HoldingsReport) -> std::io::Result<()> {
    if let Some(page_events) = &report.page_events {
        match page_events.len() {
            0 => crate::outln!("no stored event has this page as its original")?,
            n => crate::outln!("{n} stored event(s) have this page as their original:")?,
        }
        for e in page_events {
            crate::outln!("  {}:{}  {} ({})", e.event.source, e.event.id, e.event.title, e.standing())?;
        }
        // By id: the stored link may differ from the query in its scheme.
        if let Some(PageEvent { event: e, .. }) = page_events.first() {
            crate::outln!("  `cityvibe takedown add {}:{} --reason \"…\"` deletes one and keeps it out (P18)", e.source, e.id)?;
        }
    }
    for l in &report.linked_from_events {
        crate::outln!(
            "{} is not fetched by CityVibe; {} stored events of {} link to it (their original pages)",
            host_of(report.query),
            l.events,
            l.source
        )?;
    }
    for s in &report.sources {
        print_source(s)?;
    }
    for st in &report.fetch_log_30_days {
        crate::outln!("requests to {} in the last 30 days (fetch log):", st.host)?;
        line("fetched", format!("requests {}  bytes {}  304 share {:.0} %", st.requests, st.bytes, st.not_modified_share * 100.0))?;
        line("smallest gap", st.min_gap_ms.map(|g| format!("{:.1} s between two requests", g as f64 / 1000.0)).unwrap_or("-".into()))?;
        line("statuses", st.statuses.iter().map(|(s, n)| format!("{s}×{n}")).collect::<Vec<_>>().join(", "))?;
        for (day, n) in &st.requests_per_day {
            line(day, n.to_string())?;
        }
    }
    Ok(())
}

fn print_source(s: &SourceHoldings) -> std::io::Result<()> {
    crate::outln!("{} — {} ({})", s.id, s.name, s.publisher)?;
    line("dataset", s.dataset_page.to_string())?;
    line("licence", format!("{} <{}>", s.licence, s.licence_url))?;
    line("attribution", format!("{} (shown with every event)", s.attribution))?;
    line(
        "events",
        format!(
            "{} active ({} current, {} ended), {} withdrawn",
            s.events_active,
            s.events_current,
            s.events_active.saturating_sub(s.events_current),
            s.events_withdrawn
        ),
    )?;
    if s.events_withheld > 0 {
        line("withheld", format!("{} events kept but shown nowhere (source disable --withdraw)", s.events_withheld))?;
    }
    let day = |d: &Option<String>| crate::schedule::civil_text(d.as_deref().unwrap_or("-"), false);
    line("dates", format!("{} … {}", day(&s.first_date), day(&s.last_date)))?;
    line("fields", if s.fields.is_empty() { "-".to_string() } else { s.fields.join(", ") })?;
    if !s.translations.is_empty() {
        let parts: Vec<String> = s.translations.iter().map(|(lang, n)| format!("{lang}×{n}")).collect();
        line("translations", parts.join(", "))?;
    }
    for c in &s.corrections {
        line("corrected", super::correct::describe(c))?;
    }
    Ok(())
}
