//! The operator's status page (`index.html`) and the run details behind
//! its marks (`runs/DAY.html`, one page per Europe/Madrid day), in the one language `--lang` chose: runs per
//! source as a timeline, events over time, translation coverage, requests
//! per host and day against the daily cap, and the last problems with the
//! command that fixes each. Not for the public host pages (`host.rs`).

use super::chart::{Chart, Figures, Mark, Period, Series, Strip};
use super::page::{Arg, HostLog, STYLE, Scope, Spans, local, say, serves, spans};
use crate::i18n::Catalogue;
use crate::store::report::{RunMark, madrid_day};
use anyhow::Result;
use askama::Template;

/// The statuses a run line can have, in the order the legend shows them;
/// `interrupted` is drawn when a run records it.
const STATUSES: [&str; 8] = ["ok", "unchanged", "skipped", "anomaly", "failed", "interrupted", "refused", "disabled"];
/// Statuses that are no problem of their own.
const FINE: [&str; 4] = ["ok", "unchanged", "skipped", "disabled"];
/// Statuses that end a source's earlier problem: it fetched and stored again.
const RECOVERED: [&str; 2] = ["ok", "unchanged"];
/// How many problems the page lists, newest first.
const PROBLEMS_SHOWN: usize = 12;

#[derive(Template)]
#[template(path = "report/index.html")]
struct IndexPage {
    lang: String,
    title: String,
    style: &'static str,
    generated: String,
    table_label: String,
    intro: String,
    period: String,
    host_links: Vec<(String, String)>,
    hosts_title: String,
    runs_title: String,
    runs_details: String,
    /// The page of the latest day with runs (none: no run in the period).
    runs_latest: String,
    run_charts: Vec<Chart>,
    events_title: String,
    event_charts: Vec<Chart>,
    coverage_title: String,
    coverage_charts: Vec<Chart>,
    requests_title: String,
    request_charts: Vec<Chart>,
    problems_title: String,
    problems_none: String,
    problems: Vec<Problem>,
    fix_label: String,
}

struct Problem {
    href: String,
    at: String,
    source: String,
    status: String,
    message: Spans,
    fix: String,
}

#[derive(Template)]
#[template(path = "report/runs.html")]
struct RunsPage {
    lang: String,
    title: String,
    style: &'static str,
    generated: String,
    back: String,
    /// (href, day) of every day with runs, for moving between them.
    days: Vec<(String, String)>,
    head: Vec<String>,
    rows: Vec<RunLine>,
}

struct RunLine {
    anchor: String,
    cells: Vec<String>,
}

/// The page of a run's details, relative to the site's root.
fn run_href(m: &RunMark) -> String {
    format!("runs/{}.html#r{}", madrid_day(m.started_ms), m.run_id)
}

/// The status page, and each day's page of run details as (day, page), rendered.
pub(super) fn pages(cx: &Scope, t: &Catalogue, logs: &[HostLog]) -> Result<(String, Vec<(String, String)>)> {
    let marks = cx.store.run_marks(cx.since_ms)?;
    let generated = say(t, "report-generated", &[("at", Arg::S(local(cx.now_ms)))]);
    let status_label = |s: &str| if t.has(&format!("report-status-{s}")) { t.text(&format!("report-status-{s}")) } else { s.to_string() };
    // Newest first; a problem its source has since recovered from (a later
    // run of it `ok` or `unchanged`) is over: the timeline still shows it,
    // the list of problems to fix does not advise on it.
    let mut recovered: std::collections::HashSet<&str> = Default::default();
    let problems: Vec<Problem> = marks
        .iter()
        .rev()
        .filter(|m| {
            if RECOVERED.contains(&m.status.as_str()) {
                recovered.insert(m.source.as_str());
            }
            !FINE.contains(&m.status.as_str()) && !recovered.contains(m.source.as_str())
        })
        .take(PROBLEMS_SHOWN)
        .map(|m| Problem {
            href: run_href(m),
            at: local(m.started_ms),
            source: m.source.clone(),
            status: status_label(&m.status),
            message: spans(&m.message),
            fix: fix_for(m),
        })
        .collect();
    let index = IndexPage {
        lang: t.lang().to_string(),
        title: t.text("report-status-title"),
        style: STYLE,
        generated: generated.clone(),
        table_label: t.text("report-table"),
        intro: say(t, "report-status-intro", &[("days", Arg::N(cx.days.into()))]),
        period: period(cx, t),
        host_links: logs.iter().map(|l| (format!("hosts/{}", super::page::host_file(&l.host, t.lang())), l.host.clone())).collect(),
        hosts_title: t.text("report-hosts-title"),
        runs_title: t.text("report-runs-title"),
        runs_details: t.text("report-runs-details"),
        runs_latest: marks.last().map(|m| format!("runs/{}.html", madrid_day(m.started_ms))).unwrap_or_default(),
        run_charts: vec![runs_chart(cx, t, &marks, &status_label, &period_of(cx))],
        events_title: t.text("report-events-title"),
        event_charts: event_charts(cx, t, &marks)?,
        coverage_title: t.text("report-coverage-title"),
        coverage_charts: vec![coverage_chart(cx, t)?],
        requests_title: t.text("report-col-requests"),
        request_charts: request_charts(cx, t, logs),
        problems_title: t.text("report-problems-title"),
        problems_none: t.text("report-problems-none"),
        problems,
        fix_label: t.text("report-fix"),
    };
    // The figures first, the message (the one long cell) last.
    let head: Vec<String> = ["report-col-run", "report-col-started", "report-col-source", "report-col-status", "report-col-requests"]
        .iter()
        .map(|id| t.text(id))
        .chain(["304", "+", "~", "−"].map(String::from))
        .chain([t.text("report-col-message")])
        .collect();
    let mut days: Vec<String> = marks.iter().map(|m| madrid_day(m.started_ms)).collect();
    days.dedup();
    let nav: Vec<(String, String)> = days.iter().map(|d| (format!("{d}.html"), d.clone())).collect();
    let mut runs = Vec::new();
    for day in &days {
        let of_day: Vec<RunMark> = marks.iter().filter(|m| &madrid_day(m.started_ms) == day).cloned().collect();
        let page = RunsPage {
            lang: t.lang().to_string(),
            title: format!("{} · {day}", t.text("report-runs-details")),
            style: STYLE,
            generated: generated.clone(),
            back: t.text("report-status-title"),
            days: nav.clone(),
            head: head.clone(),
            rows: run_lines(&of_day, &status_label),
        };
        runs.push((day.clone(), page.render()?));
    }
    Ok((index.render()?, runs))
}

/// "From … to …" of the period.
pub(super) fn period(cx: &Scope, t: &Catalogue) -> String {
    let first = cx.day_list.first().cloned().unwrap_or_default();
    let last = cx.day_list.last().cloned().unwrap_or_default();
    say(t, "report-period", &[("from", Arg::S(first)), ("to", Arg::S(last))])
}

/// The command that fixes a problem: the one its message names (the hint
/// the CLI gave), else the next step for its status.
fn fix_for(m: &RunMark) -> String {
    let named = m.message.split('`').skip(1).step_by(2).find(|s| s.starts_with("cityvibe "));
    match (named, m.status.as_str()) {
        (Some(cmd), _) => cmd.to_string(),
        (None, "refused") => format!("cityvibe audit --source {}", m.source),
        (None, "anomaly") => format!("cityvibe source show {}", m.source),
        (None, _) => format!("cityvibe run --source {} --force", m.source),
    }
}

/// Newest first, one line per source of each run, the first line of a run
/// carrying its anchor.
fn run_lines(marks: &[RunMark], status_label: &dyn Fn(&str) -> String) -> Vec<RunLine> {
    let mut seen = std::collections::HashSet::new();
    marks
        .iter()
        .rev()
        .map(|m| RunLine {
            anchor: if seen.insert(m.run_id) { format!("r{}", m.run_id) } else { String::new() },
            cells: vec![
                m.run_id.to_string(),
                local(m.started_ms),
                m.source.clone(),
                status_label(&m.status),
                m.requests.to_string(),
                m.not_modified.to_string(),
                m.added.to_string(),
                m.updated.to_string(),
                m.withdrawn.to_string(),
                m.message.clone(),
            ],
        })
        .collect()
}

/// The report's days as a strip chart spans them: from the start of the
/// first to the end of the last (a day is 24 h here; a DST day is off by an
/// hour, less than a mark's width).
fn period_of<'a>(cx: &'a Scope) -> Period<'a> {
    let to_ms = cx.day_ends_ms.last().copied().unwrap_or(cx.now_ms);
    let from_ms = cx.day_ends_ms.first().map_or(cx.since_ms, |end| end - 86_400_000);
    Period { from_ms, to_ms, days: &cx.day_list }
}

/// The statuses from worst to least: a day's mark of a source shows its worst
/// run, so a failure is never hidden by a later run; on a day without a
/// problem, what the source did (new content, then unchanged) before the runs
/// that fetched nothing (disabled, skipped). A status this build does not know
/// ranks as a problem, after `anomaly`.
const WORST_FIRST: [&str; 9] = ["failed", "refused", "interrupted", "anomaly", "", "ok", "unchanged", "disabled", "skipped"];

fn rank(status: &str) -> usize {
    WORST_FIRST.iter().position(|s| *s == status).unwrap_or(4)
}

fn runs_chart(cx: &Scope, t: &Catalogue, marks: &[RunMark], status_label: &dyn Fn(&str) -> String, period: &Period) -> Chart {
    let mut sources: Vec<&str> = marks.iter().map(|m| m.source.as_str()).collect();
    sources.sort();
    sources.dedup();
    // (source, day) -> the day's worst run.
    let mut worst: std::collections::BTreeMap<(&str, usize), &RunMark> = Default::default();
    for m in marks {
        let Some(day) = cx.day_of(m.started_ms) else { continue };
        let slot = worst.entry((m.source.as_str(), day)).or_insert(m);
        if rank(&m.status) < rank(&slot.status) {
            *slot = m;
        }
    }
    let strips: Vec<Strip> = sources
        .iter()
        .map(|s| Strip {
            label: s.to_string(),
            marks: worst
                .range((*s, 0)..=(*s, usize::MAX))
                .map(|((_, day), m)| Mark {
                    // In the middle of its day.
                    at_ms: cx.day_ends_ms[*day] - 43_200_000,
                    key: m.status.clone(),
                    href: format!("runs/{}.html#r{}", cx.day_list[*day], m.run_id),
                })
                .collect(),
        })
        .collect();
    let days: Vec<&RunMark> = worst.values().copied().collect();
    // Every status the legend knows, and any other a run recorded.
    let mut keys: Vec<String> = STATUSES.iter().map(|s| s.to_string()).collect();
    for m in &days {
        if !keys.contains(&m.status) {
            keys.push(m.status.clone());
        }
    }
    keys.retain(|k| days.iter().any(|m| &m.status == k) || ["ok", "failed"].contains(&k.as_str()));
    let keys: Vec<(String, String)> = keys.into_iter().map(|k| (k.clone(), status_label(&k))).collect();
    let problems = marks.iter().filter(|m| !FINE.contains(&m.status.as_str())).count() as u64;
    let mut runs: Vec<i64> = marks.iter().map(|m| m.run_id).collect();
    runs.dedup();
    let summary = say(t, "report-runs-summary", &[("runs", Arg::N(runs.len() as u64)), ("problems", Arg::N(problems))]);
    Chart::strips("runs", t.text("report-runs-title"), summary, &strips, &keys, &t.text("report-col-source"), period)
}

/// Active events per day stacked by source, and each source's changes per day.
fn event_charts(cx: &Scope, t: &Catalogue, marks: &[RunMark]) -> Result<Vec<Chart>> {
    let mut sources = cx.store.sources_with_events()?;
    for m in marks {
        if !sources.contains(&m.source) {
            sources.push(m.source.clone());
        }
    }
    let mut active = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        active.push(Series { key: format!("s{}", i % 6), label: s.clone(), values: cx.store.active_per_day(s, &cx.day_ends_ms)? });
    }
    let today: u64 = active.iter().map(|s| s.values.last().copied().unwrap_or(0)).sum();
    let summary = say(
        t,
        "report-events-summary",
        &[("active", Arg::N(today)), ("sources", Arg::N(active.iter().filter(|s| s.values.last() > Some(&0)).count() as u64))],
    );
    // Of them, those a reader is shown at the report's moment: not ended, the
    // count `events list`, `export` and `holdings` give on the same database.
    let at = jiff::Timestamp::from_millisecond(cx.now_ms)?;
    let current = cx.store.list_events(&Default::default())?.iter().filter(|e| crate::schedule::is_current(e, at)).count() as u64;
    let summary = format!("{summary} {}", say(t, "report-events-current", &[("current", Arg::N(current))]));
    let figures =
        Figures { category_label: t.text("report-col-day"), categories: cx.day_list.clone(), series: active, limit: None, sparse: true };
    let mut charts = vec![Chart::bars("events", t.text("report-events-title"), summary, &figures)];
    let mark_days: Vec<Option<usize>> = marks.iter().map(|m| cx.day_of(m.started_ms)).collect();
    for (i, s) in sources.iter().enumerate() {
        let per_day = |f: fn(&RunMark) -> u64| -> Vec<u64> {
            let mut days = vec![0; cx.day_list.len()];
            for (m, d) in marks.iter().zip(&mark_days) {
                if let (Some(d), true) = (d, &m.source == s) {
                    days[*d] += f(m);
                }
            }
            days
        };
        let series = vec![
            Series { key: "added".into(), label: t.text("report-series-added"), values: per_day(|m| m.added) },
            Series { key: "updated".into(), label: t.text("report-series-updated"), values: per_day(|m| m.updated) },
            Series { key: "withdrawn".into(), label: t.text("report-series-withdrawn"), values: per_day(|m| m.withdrawn) },
        ];
        let total = |k: usize| Arg::N(series[k].values.iter().sum());
        let summary = say(t, "report-changes-summary", &[("added", total(0)), ("updated", total(1)), ("withdrawn", total(2))]);
        let title = say(t, "report-changes-title", &[("source", Arg::S(s.clone()))]);
        let figures =
            Figures { category_label: t.text("report-col-day"), categories: cx.day_list.clone(), series, limit: None, sparse: true };
        charts.push(Chart::bars(&format!("changes-{i}"), title, summary, &figures));
    }
    Ok(charts)
}

/// Translation rows per display language, by origin, and the pending ones.
fn coverage_chart(cx: &Scope, t: &Catalogue) -> Result<Chart> {
    let langs = cx.config.map_or_else(|| crate::lang::Lang::ALL.to_vec(), |c| c.settings.langs());
    // The very count `translate status` shows (texts of active events in another
    // language, by who gave their current translation), not a second query.
    let coverage = crate::translate::status::counts(cx.store, &langs)?;
    let col = |key: &str, f: fn(&crate::translate::status::LangStatus) -> u64| Series {
        key: key.into(),
        label: t.text(&format!("report-series-{key}")),
        values: coverage.iter().map(f).collect(),
    };
    let series =
        vec![col("publisher", |c| c.publisher), col("human", |c| c.human), col("machine", |c| c.machine), col("pending", |c| c.pending)];
    let pending: u64 = coverage.iter().map(|c| c.pending).sum();
    let failed = cx.store.translation_failures_count()?;
    let summary = say(t, "report-coverage-summary", &[("pending", Arg::N(pending)), ("failed", Arg::N(failed))]);
    let figures = Figures {
        category_label: t.text("report-col-language"),
        categories: langs.iter().map(|l| l.to_string()).collect(),
        series,
        limit: None,
        sparse: false,
    };
    Ok(Chart::bars("coverage", t.text("report-coverage-title"), summary, &figures))
}

/// Requests per day to each host, this machine's, against the host's daily cap.
fn request_charts(cx: &Scope, t: &Catalogue, logs: &[HostLog]) -> Vec<Chart> {
    let mut charts = Vec::new();
    for (i, log) in logs.iter().enumerate() {
        let host = &log.host;
        let cap = cx.adapters.iter().filter(|a| serves(**a, host)).map(|a| a.manifest().daily_cap).min();
        let series = vec![Series { key: "requests".into(), label: t.text("report-col-requests"), values: log.per_day.clone() }];
        let figures = Figures {
            category_label: t.text("report-col-day"),
            categories: cx.day_list.clone(),
            series,
            limit: cap.map(|c| (t.text("report-col-cap"), u64::from(c))),
            sparse: true,
        };
        let summary = say(
            t,
            "report-host-requests-summary",
            &[("requests", Arg::N(log.times.len() as u64)), ("cap", Arg::S(cap.map_or("-".into(), |c| c.to_string())))],
        );
        let title = say(t, "report-host-requests-title", &[("host", Arg::S(host.clone()))]);
        charts.push(Chart::bars(&format!("requests-{i}"), title, summary, &figures));
    }
    charts
}
