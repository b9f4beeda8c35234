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
use super::{Arg, STYLE, Scope, Spans, local, promise_secs, say, secs, spans};
use crate::adapter::Adapter;
use crate::i18n::Catalogue;
use crate::store::report::{Request, madrid_day};
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

/// The page of `host` in `lang`, rendered.
pub(super) fn page(cx: &Scope, host: &str, lang: &str) -> Result<String> {
    let t = crate::i18n::catalogue(lang);
    let adapters: Vec<&'static dyn Adapter> = cx.adapters.iter().copied().filter(|a| super::serves(*a, host)).collect();
    let requests = cx.store.requests_to(host, cx.since_ms)?;
    // The promise: the adapter's minimum delay (P8), the largest if several sources share the host.
    let promise_ms = adapters.iter().map(|a| a.manifest().min_delay.as_millis() as i64).max().unwrap_or(0);
    let gaps: Vec<i64> = requests.windows(2).map(|w| w[1].started_ms - w[0].started_ms).collect();
    let min_gap = gaps.iter().copied().min();
    let (gaps_min, gaps_verdict) = match min_gap {
        None => (t.text("report-gaps-none"), String::new()),
        Some(m) => {
            let short = gaps.iter().filter(|g| **g < promise_ms).count() as u64;
            let line = say(t, "report-gaps-min", &[("min", Arg::S(secs(t, m))), ("delay", Arg::S(promise_secs(t, promise_ms)))]);
            let verdict = if short == 0 { t.text("report-gaps-kept") } else { say(t, "report-gaps-broken", &[("n", Arg::N(short))]) };
            (line, verdict)
        }
    };
    let bytes: u64 = requests.iter().map(|r| r.bytes).sum();
    let days_with = cx.day_list.iter().filter(|d| requests.iter().any(|r| &madrid_day(r.started_ms) == *d)).count() as u64;
    let saved = saved_bytes(cx, &requests)?;
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
        request_charts: vec![day_chart(cx, t, &requests, days_with, bytes), code_chart(t, &requests)],
        saved_line: if saved > 0 { say(t, "report-saved", &[("bytes", Arg::N(saved))]) } else { String::new() },
        gaps_title: t.text("report-gaps-title"),
        min_gap_ms: min_gap.map_or(String::new(), |m| m.to_string()),
        promise_ms,
        gaps_min,
        gaps_verdict,
        gap_charts: if gaps.is_empty() { vec![] } else { vec![gap_chart(t, &gaps, promise_ms)] },
        backoff_title: t.text("report-backoff-title"),
        backoff: backoff_lines(t, &requests),
        hours_title: t.text("report-hours-title"),
        hours: hours_lines(cx, t, &adapters, &requests)?,
        review_title: t.text("report-review-title"),
        review: review_lines(cx, t, host, &adapters, &requests)?.iter().map(|l| spans(l)).collect(),
        holdings_title: t.text("report-holdings-title"),
        holdings: held(cx, t, &adapters)?,
        holdings_linked: say(t, "report-holdings-linked", &[("n", Arg::N(linked(cx, host)?))]),
        holdings_command: spans(&say(t, "report-holdings-command", &[("host", Arg::S(host.to_string()))])),
        optout_title: t.text("report-optout-title"),
        optout_takedown: spans(&say(t, "report-optout-takedown", &[("page", Arg::S(BOT_PAGE.into()))])),
        optout_off: spans(&say(t, "report-optout-off", &[("host", Arg::S(host.to_string()))])),
    };
    Ok(page.render()?)
}

/// The seven languages as plain links, each named in its own language.
fn switcher(host: &str, lang: &str) -> Vec<LangLink> {
    crate::model::DISPLAY_LANGS
        .iter()
        .map(|l| LangLink {
            lang: l,
            href: super::host_file(host, l),
            name: crate::i18n::catalogue(l).text(&format!("lang-{l}")),
            current: *l == lang,
        })
        .collect()
}

/// The status group a request counts in on the per-day chart.
fn group(r: &Request) -> &'static str {
    match r.status {
        Some(304) => "not_modified",
        Some(429 | 503) => "wait",
        Some(s) if (200..300).contains(&s) => "full",
        _ => "other",
    }
}

fn day_chart(cx: &Scope, t: &Catalogue, requests: &[Request], days_with: u64, bytes: u64) -> Chart {
    let series = ["full", "not_modified", "wait", "other"]
        .iter()
        .map(|key| Series {
            key: key.to_string(),
            label: t.text(&format!("report-series-{}", key.replace('_', "-"))),
            values: cx
                .day_list
                .iter()
                .map(|d| requests.iter().filter(|r| group(r) == *key && &madrid_day(r.started_ms) == d).count() as u64)
                .collect(),
        })
        .collect();
    let summary =
        say(t, "report-day-summary", &[("requests", Arg::N(requests.len() as u64)), ("days", Arg::N(days_with)), ("bytes", Arg::N(bytes))]);
    let figures = Figures { category_label: t.text("report-col-day"), categories: cx.day_list.clone(), series, limit: None, sparse: true };
    Chart::bars("per-day", t.text("report-day-title"), summary, &figures)
}

fn code_chart(t: &Catalogue, requests: &[Request]) -> Chart {
    let mut codes: std::collections::BTreeMap<String, u64> = Default::default();
    for r in requests {
        *codes.entry(r.status.map_or_else(|| t.text("report-code-error"), |s| s.to_string())).or_default() += 1;
    }
    let not_modified = requests.iter().filter(|r| r.status == Some(304)).count() as u64;
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
fn hours_lines(cx: &Scope, t: &Catalogue, adapters: &[&'static dyn Adapter], requests: &[Request]) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    for a in adapters {
        let id = a.manifest().id;
        let Some(window) = cx.config.and_then(|c| c.sources.get(id)).and_then(|row| row.hours.clone()) else { continue };
        let bounds = crate::config::parse_hours(&window)?;
        let outside = requests
            .iter()
            .filter(|r| r.source == id && r.run_id.is_some())
            .filter(|r| !crate::config::in_window(bounds, crate::config::madrid_minute(r.started_ms)))
            .count() as u64;
        lines.push(say(
            t,
            "report-hours-window",
            &[("source", Arg::S(id.into())), ("window", Arg::S(window)), ("outside", Arg::N(outside))],
        ));
    }
    if lines.is_empty() {
        lines.push(t.text("report-hours-none"));
    }
    Ok(lines)
}

/// The human review in each manifest, the last `audit` request for
/// robots.txt in the fetch log, and the Crawl-delay the ledger last saw.
fn review_lines(cx: &Scope, t: &Catalogue, host: &str, adapters: &[&'static dyn Adapter], requests: &[Request]) -> Result<Vec<String>> {
    let mut lines: Vec<String> = adapters
        .iter()
        .map(|a| {
            let m = a.manifest();
            say(
                t,
                "report-review-manual",
                &[("source", Arg::S(m.id.into())), ("date", Arg::S(m.review.date.into())), ("note", Arg::S(m.review.robots_txt.into()))],
            )
        })
        .collect();
    // `audit` asks for robots.txt, tdmrep.json and ai.txt outside any run (P14, P15).
    let mut audited = false;
    for path in crate::audit::PATHS {
        let Some(r) = requests.iter().rev().find(|r| r.run_id.is_none() && r.url.ends_with(path)) else { continue };
        audited = true;
        let status = r.status.map_or_else(|| t.text("report-code-error"), |s| s.to_string());
        lines.push(say(
            t,
            "report-review-audit",
            &[("at", Arg::S(local(r.started_ms))), ("path", Arg::S(path.into())), ("status", Arg::S(status))],
        ));
    }
    if !audited {
        lines.push(t.text("report-review-no-audit"));
    }
    let entry = cx.ledger.map(|l| l.host(host, cx.now_ms)).transpose()?;
    if let Some(delay) = entry.as_ref().and_then(|e| e.crawl_delay_ms) {
        lines.push(say(t, "report-review-crawl-delay", &[("secs", Arg::S(promise_secs(t, delay)))]));
    }
    // A no (401, 403, 451) held until the operator releases it (P11, issue 31 item 6).
    if let Some(why) = entry.filter(|e| e.not_before_ms == Some(crate::http::ledger::HELD)).and_then(|e| e.not_before_why) {
        lines.push(say(t, "report-review-held", &[("why", Arg::S(why))]));
    }
    Ok(lines)
}

fn held(cx: &Scope, t: &Catalogue, adapters: &[&'static dyn Adapter]) -> Result<Vec<Held>> {
    let mut out = Vec::new();
    for a in adapters {
        let m = a.manifest();
        let h = cx.store.holdings(m.id)?;
        let cited = crate::citation::of(cx.config, m);
        let text = say(
            t,
            "report-holdings-source",
            &[
                ("source", Arg::S(m.id.into())),
                ("active", Arg::N(h.events_active)),
                ("withdrawn", Arg::N(h.events_withdrawn)),
                ("licence", Arg::S(cited.licence.clone())),
            ],
        );
        out.push(Held { text, dataset: m.dataset_page.into(), licence: cited.licence, licence_url: cited.licence_url });
    }
    Ok(out)
}

/// Stored events whose original page is on this host.
fn linked(cx: &Scope, host: &str) -> Result<u64> {
    let bare = |h: &str| h.strip_prefix("www.").unwrap_or(h).to_ascii_lowercase();
    let on_host = cx
        .store
        .events_linking_to(host, |u| url::Url::parse(u).ok().and_then(|u| u.host_str().map(bare)).is_some_and(|h| h == bare(host)))?;
    Ok(on_host.len() as u64)
}
