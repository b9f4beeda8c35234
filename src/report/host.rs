//! One host's public transparency page, in one display language: every
//! request of the period summarised (per day, status codes, bytes, what the
//! 304s saved), the gaps between consecutive requests against the promised
//! delay (P8), Retry-After and backoff episodes (P10), hours windows kept
//! (P9), the robots.txt and TDM review (P14, P15), what we hold (P17), and
//! how to ask for a takedown or to be left alone (P16, P18).
//!
//! Every figure is a query of the fetch log, the ledger or the database.
//! Not for the operator's page (`status.rs`).

use super::chart::{Chart, Figures, Series};
use super::page::{Arg, HostLog, STYLE, Scope, Spans, local, promise_secs, say, secs, serves, spans};
use crate::adapter::Adapter;
use crate::i18n::Catalogue;
use crate::lang::Lang;
use crate::store::report::Request;
use anyhow::Result;
use askama::Template;

/// Where a webmaster writes to us: the page the User-Agent names (P1).
const BOT_PAGE: &str = "https://cityvibe.guide/bot-info";

#[derive(Template)]
#[template(path = "report/host.html")]
struct HostPage {
    lang: String,
    title: String,
    style: &'static str,
    generated: String,
    table_label: String,
    language_label: String,
    switcher: Vec<LangLink>,
    intro: String,
    period: String,
    requests_title: String,
    request_charts: Vec<Chart>,
    /// How many of the period's requests another database of this machine sent (none: empty).
    elsewhere_line: String,
    saved_line: String,
    gaps_title: String,
    min_gap_ms: String,
    promise_ms: i64,
    gaps_min: String,
    gaps_verdict: String,
    gap_charts: Vec<Chart>,
    backoff_title: String,
    backoff: Vec<String>,
    hours_title: String,
    hours: Vec<String>,
    review_title: String,
    review: Vec<Spans>,
    holdings_title: String,
    holdings: Vec<Held>,
    holdings_linked: String,
    holdings_command: Spans,
    optout_title: String,
    optout_takedown: Spans,
    optout_off: Spans,
}

struct LangLink {
    lang: &'static str,
    href: String,
    name: String,
    current: bool,
}

struct Held {
    text: String,
    dataset: String,
    licence: String,
    licence_url: String,
}

/// What a host's pages say, found once for its seven languages.
pub(super) struct Facts {
    adapters: Vec<&'static dyn Adapter>,
    /// The promise: the adapter's minimum delay (P8), the largest if several sources share the host.
    promise_ms: i64,
    /// Between consecutive requests of this machine, in ms.
    gaps: Vec<i64>,
    /// Bytes the 304s spared (P12), and bytes of the answers logged here.
    saved: u64,
    bytes: u64,
    /// (source, active, withdrawn, citation, dataset page) of each source of the host.
    held: Vec<(&'static str, u64, u64, crate::citation::Citation, &'static str)>,
    /// Stored events whose original page is on this host.
    linked: u64,
    /// (source, window, requests outside it) of each source kept to hours.
    hours: Vec<(&'static str, String, u64)>,
    /// (when, path, status) of the last `audit` request for each file.
    audits: Vec<(i64, &'static str, Option<u16>)>,
    crawl_delay_ms: Option<i64>,
    /// Why the host is held until the operator releases it (a 401, 403 or 451; P11).
    held_why: Option<String>,
}

/// The facts of `log`'s host: every query of its pages, run once.
pub(super) fn facts(cx: &Scope, log: &HostLog) -> Result<Facts> {
    let host = log.host.as_str();
    let adapters: Vec<&'static dyn Adapter> = cx.adapters.iter().copied().filter(|a| serves(*a, host)).collect();
    let mut held = Vec::new();
    for a in &adapters {
        let m = a.manifest();
        let (active, withdrawn) = cx.store.status_counts(m.id)?;
        held.push((m.id, active, withdrawn, crate::citation::of(cx.config, m), m.dataset_page));
    }
    let mut hours = Vec::new();
    for a in &adapters {
        let id = a.manifest().id;
        let Some(window) = cx.config.map(|c| c.policy(*a)).transpose()?.and_then(|p| p.hours) else { continue };
        let outside =
            log.requests.iter().filter(|r| r.source == id && r.run_id.is_some()).filter(|r| !window.contains(r.started_ms)).count() as u64;
        hours.push((id, window.to_string(), outside));
    }
    // `audit` asks for robots.txt, tdmrep.json and ai.txt outside any run (P14, P15).
    let audits = crate::audit::PATHS
        .iter()
        .filter_map(|path| log.requests.iter().rev().find(|r| audited(r, path)).map(|r| (r.started_ms, *path, r.status)))
        .collect();
    let entry = cx.ledger.map(|l| l.host(host, cx.now_ms)).transpose()?;
    Ok(Facts {
        promise_ms: adapters.iter().map(|a| a.manifest().min_delay.as_millis() as i64).max().unwrap_or(0),
        gaps: log.times.windows(2).map(|w| w[1] - w[0]).collect(),
        saved: saved_bytes(cx, &log.requests)?,
        bytes: log.requests.iter().map(|r| r.bytes).sum(),
        held,
        linked: linked(cx, host)?,
        hours,
        audits,
        crawl_delay_ms: entry.as_ref().and_then(|e| e.crawl_delay_ms),
        held_why: entry.filter(|e| e.not_before_ms == Some(crate::http::ledger::HELD)).and_then(|e| e.not_before_why),
        adapters,
    })
}

/// Whether `r` is `audit`'s request for `path` (made outside any run).
fn audited(r: &Request, path: &str) -> bool {
    r.run_id.is_none() && r.url.ends_with(path)
}

/// The page of `log`'s host in `lang`, rendered.
pub(super) fn page(cx: &Scope, log: &HostLog, f: &Facts, lang: Lang) -> Result<String> {
    let t = crate::i18n::catalogue(lang);
    let host = log.host.as_str();
    let promise_ms = f.promise_ms;
    let min_gap = f.gaps.iter().copied().min();
    let (gaps_min, gaps_verdict) = match min_gap {
        None => (t.text("report-gaps-none"), String::new()),
        Some(m) => {
            let short = f.gaps.iter().filter(|g| **g < promise_ms).count() as u64;
            let line = say(t, "report-gaps-min", &[("min", Arg::S(secs(t, m))), ("delay", Arg::S(promise_secs(t, promise_ms)))]);
            let verdict = if short == 0 { t.text("report-gaps-kept") } else { say(t, "report-gaps-broken", &[("n", Arg::N(short))]) };
            (line, verdict)
        }
    };
    let days_with = log.per_day.iter().filter(|n| **n > 0).count() as u64;
    let elsewhere: u64 = log.elsewhere_per_day().iter().sum();
    let page = HostPage {
        lang: lang.to_string(),
        title: say(t, "report-host-title", &[("host", Arg::S(host.to_string()))]),
        style: STYLE,
        generated: say(t, "report-generated", &[("at", Arg::S(local(cx.now_ms)))]),
        table_label: t.text("report-table"),
        language_label: t.text("report-language"),
        switcher: switcher(host, lang),
        intro: say(t, "report-host-intro", &[("host", Arg::S(host.to_string())), ("days", Arg::N(cx.days.into()))]),
        period: super::status::period(cx, t),
        requests_title: t.text("report-section-requests"),
        request_charts: vec![day_chart(cx, t, log, days_with, f.bytes), code_chart(t, log, elsewhere)],
        elsewhere_line: if elsewhere > 0 { say(t, "report-elsewhere", &[("n", Arg::N(elsewhere))]) } else { String::new() },
        saved_line: if f.saved > 0 { say(t, "report-saved", &[("bytes", Arg::N(f.saved))]) } else { String::new() },
        gaps_title: t.text("report-gaps-title"),
        min_gap_ms: min_gap.map_or(String::new(), |m| m.to_string()),
        promise_ms,
        gaps_min,
        gaps_verdict,
        gap_charts: if f.gaps.is_empty() { vec![] } else { vec![gap_chart(t, &f.gaps, promise_ms)] },
        backoff_title: t.text("report-backoff-title"),
        backoff: backoff_lines(t, &log.requests),
        hours_title: t.text("report-hours-title"),
        hours: hours_lines(t, f),
        review_title: t.text("report-review-title"),
        review: review_lines(t, f, lang).iter().map(|l| spans(l)).collect(),
        holdings_title: t.text("report-holdings-title"),
        holdings: held(t, f, lang),
        holdings_linked: say(t, "report-holdings-linked", &[("n", Arg::N(f.linked))]),
        holdings_command: spans(&say(t, "report-holdings-command", &[("host", Arg::S(host.to_string()))])),
        optout_title: t.text("report-optout-title"),
        optout_takedown: spans(&say(t, "report-optout-takedown", &[("page", Arg::S(BOT_PAGE.into()))])),
        optout_off: spans(&say(t, "report-optout-off", &[("host", Arg::S(host.to_string()))])),
    };
    Ok(page.render()?)
}

/// The seven languages as plain links, each named in its own language.
fn switcher(host: &str, lang: Lang) -> Vec<LangLink> {
    Lang::ALL
        .into_iter()
        .map(|l| LangLink {
            lang: l.as_str(),
            href: super::page::host_file(host, l),
            name: crate::i18n::catalogue(l).text(&format!("lang-{l}")),
            current: l == lang,
        })
        .collect()
}

/// The status group a request counts in on the per-day chart. `audit`'s 404
/// (or 410) for robots.txt, tdmrep.json or ai.txt is no error: the file is
/// absent, which RFC 9309 reads as no rule.
fn group(r: &Request) -> &'static str {
    match r.status {
        Some(404 | 410) if crate::audit::PATHS.iter().any(|p| audited(r, p)) => "absent",
        Some(304) => "not_modified",
        Some(429 | 503) => "wait",
        Some(s) if (200..300).contains(&s) => "full",
        _ => "other",
    }
}

/// The groups of the per-day chart, in the legend's order; `elsewhere`
/// counts the requests another database of this machine sent.
const GROUPS: [&str; 6] = ["full", "not_modified", "wait", "absent", "other", "elsewhere"];

fn day_chart(cx: &Scope, t: &Catalogue, log: &HostLog, days_with: u64, bytes: u64) -> Chart {
    let elsewhere = log.elsewhere_per_day();
    let series = GROUPS
        .iter()
        .map(|key| {
            let mut values = vec![0u64; cx.day_list.len()];
            if *key == "elsewhere" {
                values = elsewhere.clone();
            } else {
                for (r, d) in log.requests.iter().zip(&log.request_days) {
                    if let (Some(d), true) = (d, group(r) == *key) {
                        values[*d] += 1;
                    }
                }
            }
            Series { key: key.to_string(), label: t.text(&format!("report-series-{}", key.replace('_', "-"))), values }
        })
        .filter(|s| !["absent", "elsewhere"].contains(&s.key.as_str()) || s.values.iter().any(|v| *v > 0))
        .collect();
    let total: u64 = log.per_day.iter().sum();
    let summary = say(t, "report-day-summary", &[("requests", Arg::N(total)), ("days", Arg::N(days_with)), ("bytes", Arg::N(bytes))]);
    let figures = Figures { category_label: t.text("report-col-day"), categories: cx.day_list.clone(), series, limit: None, sparse: true };
    Chart::bars("per-day", t.text("report-day-title"), summary, &figures)
}

fn code_chart(t: &Catalogue, log: &HostLog, elsewhere: u64) -> Chart {
    let mut codes: std::collections::BTreeMap<String, u64> = Default::default();
    for r in &log.requests {
        *codes.entry(r.status.map_or_else(|| t.text("report-code-error"), |s| s.to_string())).or_default() += 1;
    }
    // Another database's answers are in its own fetch log: counted, their codes unknown here.
    if elsewhere > 0 {
        codes.insert(t.text("report-code-elsewhere"), elsewhere);
    }
    let not_modified = log.requests.iter().filter(|r| r.status == Some(304)).count() as u64;
    let summary = say(t, "report-codes-summary", &[("codes", Arg::N(codes.len() as u64)), ("not_modified", Arg::N(not_modified))]);
    let figures = Figures {
        category_label: t.text("report-col-code"),
        categories: codes.keys().cloned().collect(),
        series: vec![Series { key: "requests".into(), label: t.text("report-col-requests"), values: codes.values().copied().collect() }],
        limit: None,
        sparse: false,
    };
    Chart::bars("codes", t.text("report-codes-title"), summary, &figures)
}

/// What each 304 spared: the size of the last full answer of the same URL.
fn saved_bytes(cx: &Scope, requests: &[Request]) -> Result<u64> {
    let mut saved = 0;
    for r in requests.iter().filter(|r| r.status == Some(304)) {
        saved += cx.store.last_body_bytes(&r.url, r.started_ms)?.unwrap_or(0);
    }
    Ok(saved)
}

/// Gaps in bins that start at the promise: below it (a broken promise), up
/// to twice it, to a minute, an hour, three hours (a cron period), beyond.
fn gap_chart(t: &Catalogue, gaps: &[i64], promise_ms: i64) -> Chart {
    let mut bounds = vec![promise_ms.max(1)];
    for b in [2 * promise_ms, 60_000, 3_600_000, 3 * 3_600_000] {
        if b > *bounds.last().unwrap() {
            bounds.push(b);
        }
    }
    // (number, unit) of a bound: a bin reads "10–20 s" or "20 s–1 min",
    // short enough that six labels fit under the chart without overlapping.
    let part = |ms: i64| -> (String, &str) {
        match ms {
            ms if ms >= 3_600_000 && ms % 3_600_000 == 0 => ((ms / 3_600_000).to_string(), "h"),
            ms if ms >= 60_000 && ms % 60_000 == 0 => ((ms / 60_000).to_string(), "min"),
            ms => (promise_secs(t, ms), "s"),
        }
    };
    let span = |ms: i64| -> String {
        let (n, unit) = part(ms);
        format!("{n} {unit}")
    };
    let bin = |from: i64, to: i64| -> String {
        match (part(from), part(to)) {
            ((a, u), (b, v)) if u == v => format!("{a}–{b} {u}"),
            _ => format!("{}–{}", span(from), span(to)),
        }
    };
    let mut categories = vec![format!("< {}", span(bounds[0]))];
    let mut values = vec![gaps.iter().filter(|g| **g < bounds[0]).count() as u64];
    let mut keys = vec!["short"];
    for w in bounds.windows(2) {
        categories.push(bin(w[0], w[1]));
        values.push(gaps.iter().filter(|g| **g >= w[0] && **g < w[1]).count() as u64);
        keys.push("gap");
    }
    let last = *bounds.last().unwrap();
    categories.push(format!("≥ {}", span(last)));
    values.push(gaps.iter().filter(|g| **g >= last).count() as u64);
    keys.push("gap");
    // One series per colour: the bin below the promise is red.
    let series = ["short", "gap"]
        .iter()
        .map(|k| Series {
            key: k.to_string(),
            label: t.text(if *k == "short" { "report-series-short" } else { "report-series-pauses" }),
            values: values.iter().zip(&keys).map(|(v, key)| if key == k { *v } else { 0 }).collect(),
        })
        .collect();
    // The shortest gap and the promise are said just above the chart; its
    // own summary says what it counts.
    let summary = say(t, "report-gaps-count", &[("n", Arg::N(gaps.len() as u64))]);
    let figures = Figures { category_label: t.text("report-col-gap"), categories, series, limit: None, sparse: false };
    Chart::bars("gaps", t.text("report-gaps-chart-title"), summary, &figures)
}

/// Each 429 or 503 and what we did about it, from the outcome logged with it.
fn backoff_lines(t: &Catalogue, requests: &[Request]) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, r) in requests.iter().enumerate() {
        let Some(status @ (429 | 503)) = r.status else { continue };
        let at = Arg::S(local(r.started_ms));
        let status = Arg::N(status.into());
        let wait = r.outcome.strip_prefix("backoff ").and_then(|w| w.strip_suffix(" ms")).and_then(|w| w.parse::<i64>().ok());
        let tries = r.outcome.strip_prefix("backoff: gave up after ").and_then(|w| w.strip_suffix(" tries"));
        let line = match (wait, tries, requests.get(i + 1)) {
            (Some(w), _, Some(next)) => say(
                t,
                "report-backoff-episode",
                &[("at", at), ("status", status), ("wait", Arg::S(secs(t, w))), ("next", Arg::S(secs(t, next.started_ms - r.started_ms)))],
            ),
            (_, Some(n), _) => say(t, "report-backoff-gave-up", &[("at", at), ("status", status), ("tries", Arg::S(n.to_string()))]),
            _ => say(t, "report-backoff-last", &[("at", at), ("status", status)]),
        };
        lines.push(line);
    }
    if lines.is_empty() {
        lines.push(t.text("report-backoff-none"));
    }
    lines
}

/// Each source of the host kept to an hours window, and its requests outside it.
fn hours_lines(t: &Catalogue, f: &Facts) -> Vec<String> {
    let mut lines: Vec<String> = f
        .hours
        .iter()
        .map(|(id, window, outside)| {
            say(
                t,
                "report-hours-window",
                &[("source", Arg::S(id.to_string())), ("window", Arg::S(window.clone())), ("outside", Arg::N(*outside))],
            )
        })
        .collect();
    if lines.is_empty() {
        lines.push(t.text("report-hours-none"));
    }
    lines
}

/// The language the manifests' review notes are written in: the page in
/// that language quotes them; every page says the review in its own words.
const NOTES_LANG: Lang = Lang::En;

/// Whether a manifest's robots.txt review is still to be done: the manifest
/// says so (`RobotsReview::Pending`), or it names no date of review.
fn review_pending(m: &crate::adapter::Manifest) -> bool {
    m.pending_review().is_some() || jiff::civil::Date::strptime("%Y-%m-%d", m.review.date).is_err()
}

/// The human review in each manifest, in the page's language, the last `audit`
/// request for each file, and the Crawl-delay the ledger last saw.
fn review_lines(t: &Catalogue, f: &Facts, lang: Lang) -> Vec<String> {
    let mut lines = Vec::new();
    for a in &f.adapters {
        let m = a.manifest();
        let source = Arg::S(m.id.into());
        if review_pending(m) {
            lines.push(say(t, "report-review-pending", &[("source", source)]));
            continue;
        }
        let delay = Arg::S(promise_secs(t, m.min_delay.as_millis() as i64));
        let mut line = say(t, "report-review-manual", &[("source", source), ("date", Arg::S(m.review.date.into())), ("delay", delay)]);
        if lang == NOTES_LANG && !m.review.robots_txt.trim().is_empty() {
            line = format!("{line} {}", say(t, "report-review-note", &[("note", Arg::S(m.review.robots_txt.into()))]));
        }
        lines.push(line);
    }
    for (at, path, status) in &f.audits {
        let (at, path) = (Arg::S(local(*at)), Arg::S(path.to_string()));
        let line = match status {
            Some(404 | 410) => say(t, "report-review-audit-absent", &[("at", at), ("path", path)]),
            _ => {
                let status = status.map_or_else(|| t.text("report-code-error"), |s| s.to_string());
                say(t, "report-review-audit", &[("at", at), ("path", path), ("status", Arg::S(status))])
            }
        };
        lines.push(line);
    }
    if f.audits.is_empty() {
        lines.push(t.text("report-review-no-audit"));
    }
    if let Some(delay) = f.crawl_delay_ms {
        lines.push(say(t, "report-review-crawl-delay", &[("secs", Arg::S(promise_secs(t, delay)))]));
    }
    if let Some(why) = &f.held_why {
        lines.push(say(t, "report-review-held", &[("why", Arg::S(why.clone()))]));
    }
    lines
}

/// What we hold of each source of the host, its licence named in the page's language
/// where the catalogue names it (`data/i18n/licences.tsv`).
fn held(t: &Catalogue, f: &Facts, lang: Lang) -> Vec<Held> {
    f.held
        .iter()
        .map(|(id, active, withdrawn, cited, dataset)| {
            let licence = crate::translate::fields::licence_name(&cited.licence_url, lang).unwrap_or_else(|| cited.licence.clone());
            let text = say(
                t,
                "report-holdings-source",
                &[
                    ("source", Arg::S(id.to_string())),
                    ("active", Arg::N(*active)),
                    ("withdrawn", Arg::N(*withdrawn)),
                    ("licence", Arg::S(licence.clone())),
                ],
            );
            Held { text, dataset: dataset.to_string(), licence, licence_url: cited.licence_url.clone() }
        })
        .collect()
}

/// Stored events whose original page is on this host.
fn linked(cx: &Scope, host: &str) -> Result<u64> {
    let bare = |h: &str| h.strip_prefix("www.").unwrap_or(h).to_ascii_lowercase();
    let on_host = cx
        .store
        .events_linking_to(host, |u| url::Url::parse(u).ok().and_then(|u| u.host_str().map(bare)).is_some_and(|h| h == bare(host)))?;
    Ok(on_host.len() as u64)
}
