//! `cityvibe holdings HOST|SOURCE_ID|URL` (P17): what CityVibe holds of a
//! publisher's, and how it was fetched, from the database and the fetch log;
//! for a page's URL, also the stored events whose original it is.

use super::{exit, print_json};
use crate::adapter::Adapter;
use crate::cli::{Cli, HoldingsArgs};
use crate::store::{Store, now_ms};
use anyhow::Result;
use serde_json::json;

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
    // A host we never fetch from may still be where our stored events link
    // to (every Madrid event points at www.madrid.es): its webmaster asks
    // what we hold of theirs (issue 13 item 10, P17).
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

/// What we hold of one source and how it is cited now (P17, P19), as
/// `holdings --json` prints it.
fn source_json(store: &Store, config: Option<&crate::config::Config>, a: &dyn Adapter) -> Result<serde_json::Value> {
    let m = a.manifest();
    let held = store.holdings(m.id)?;
    let cited = crate::citation::of(config, m);
    Ok(json!({
        "id": m.id,
        "name": m.name,
        "publisher": m.publisher,
        "host": m.host,
        "dataset_page": m.dataset_page,
        "feeds": m.feeds.iter().map(|f| f.url).collect::<Vec<_>>(),
        "licence": cited.licence,
        "licence_url": cited.licence_url,
        "attribution": cited.attribution,
        "min_delay_secs": config.map_or(m.min_delay.as_secs_f64(), |c| c.delay_for(a).as_secs_f64()),
        "enabled": config.map(|c| c.enabled(m.id)),
        "events_active": held.events_active,
        "events_withdrawn": held.events_withdrawn,
        "events_withheld": store.count_withheld(m.id)?,
        // The operator's corrections of its events, in force and ended (issue 12 item 9).
        "corrections": store.corrections(m.id, None)?,
        "first_date": held.first_date,
        "last_date": held.last_date,
        "fields": held.fields,
        "translations": held.translations,
        "first_stored": held.first_seen,
        "last_changed": held.last_changed,
    }))
}

pub fn show(cli: &Cli, args: &HoldingsArgs) -> Result<super::Exit> {
    let (query, as_json) = (args.query.as_str(), args.json);
    let (adapters, linked) = sources_of(cli, query)?;
    // Without a sources.toml, the adapters' own values; a file that does not
    // validate is an error (its citation overrides could not be shown, P19).
    let config = if cli.config.exists() { Some(super::load_config(cli)?) } else { None };
    let store = Store::open_existing(&cli.db)?;
    let since = now_ms() - 30 * 24 * 3600 * 1000;
    let mut hosts: Vec<&str> = adapters.iter().map(|a| a.manifest().host).collect();
    hosts.dedup();
    let mut fetched = Vec::new();
    for h in &hosts {
        fetched.push(store.host_stats(h, since)?);
    }
    let mut sources = Vec::new();
    for a in &adapters {
        sources.push(source_json(&store, config.as_ref(), *a)?);
    }
    // A page's webmaster asks about that page: which stored events have it
    // as their original (P17), so that they can be taken down by it (P18).
    let page = page_of(query);
    let page_events = match &page {
        Some(p) => store.events_linking_to(&p.0, |u| page_of(u).as_ref() == Some(p))?,
        None => Vec::new(),
    };
    let linked_json: Vec<_> = linked.iter().map(|(id, n)| json!({ "source": id, "events": n })).collect();
    let v = json!({
        "query": query,
        "sources": sources,
        "linked_from_events": linked_json,
        "page_events": page.is_some().then_some(&page_events),
        "fetch_log_30_days": fetched,
    });
    if as_json {
        print_json(&v)?;
        return Ok(exit::OK);
    }
    // One label column, wide enough for the longest label.
    let line = |label: &str, value: String| crate::outln!("  {label:<13}{value}");
    if page.is_some() {
        match page_events.len() {
            0 => crate::outln!("no stored event has this page as its original")?,
            n => crate::outln!("{n} stored event(s) have this page as their original:")?,
        }
        for e in &page_events {
            crate::outln!("  {}:{}  {} ({})", e.source, e.id, e.title, e.status)?;
        }
        // By id: the stored link may differ from the query in its scheme.
        if let Some(e) = page_events.first() {
            crate::outln!("  `cityvibe takedown add {}:{} --reason \"…\"` deletes one and keeps it out (P18)", e.source, e.id)?;
        }
    }
    for (id, n) in &linked {
        crate::outln!("{} is not fetched by CityVibe; {n} stored events of {id} link to it (their original pages)", host_of(query))?;
    }
    for s in &sources {
        let text = |k: &str| s[k].as_str().unwrap_or("-").to_string();
        crate::outln!("{} — {} ({})", text("id"), text("name"), text("publisher"))?;
        line("dataset", text("dataset_page"))?;
        line("licence", format!("{} <{}>", text("licence"), text("licence_url")))?;
        line("attribution", format!("{} (shown with every event)", text("attribution")))?;
        line("events", format!("{} active, {} withdrawn", s["events_active"], s["events_withdrawn"]))?;
        if s["events_withheld"].as_u64().is_some_and(|n| n > 0) {
            line("withheld", format!("{} events kept but shown nowhere (source disable --withdraw)", s["events_withheld"]))?;
        }
        let day = |k: &str| crate::schedule::civil_text(&text(k), false);
        line("dates", format!("{} … {}", day("first_date"), day("last_date")))?;
        let fields: Vec<&str> = s["fields"].as_array().map(|a| a.iter().filter_map(|f| f.as_str()).collect()).unwrap_or_default();
        line("fields", if fields.is_empty() { "-".to_string() } else { fields.join(", ") })?;
        if let Some(t) = s["translations"].as_array().filter(|t| !t.is_empty()) {
            let parts: Vec<String> = t.iter().map(|p| format!("{}×{}", p[0].as_str().unwrap_or("?"), p[1])).collect();
            line("translations", parts.join(", "))?;
        }
        let corrections: Vec<crate::store::corrections::Correction> = serde_json::from_value(s["corrections"].clone())?;
        for c in &corrections {
            line("corrected", super::correct::describe(c))?;
        }
    }
    for st in &fetched {
        crate::outln!("requests to {} in the last 30 days (fetch log):", st.host)?;
        line("fetched", format!("requests {}  bytes {}  304 share {:.0} %", st.requests, st.bytes, st.not_modified_share * 100.0))?;
        line("smallest gap", st.min_gap_ms.map(|g| format!("{:.1} s between two requests", g as f64 / 1000.0)).unwrap_or("-".into()))?;
        line("statuses", st.statuses.iter().map(|(s, n)| format!("{s}×{n}")).collect::<Vec<_>>().join(", "))?;
        for (day, n) in &st.requests_per_day {
            line(day, n.to_string())?;
        }
    }
    Ok(exit::OK)
}
