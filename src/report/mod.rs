//! `cityvibe report`: a small static site of pictures. The operator's status
//! page (`index.html`, one language, with `runs/DAY.html` behind its run marks)
//! and one public transparency page per host in the seven display languages
//! (`hosts/HOST.html` in Spanish, `hosts/HOST.LANG.html` in the others), as
//! plain HTML and CSS with inline SVG: no script, nothing loaded from elsewhere,
//! readable from disk or from any web server.
//!
//! Every figure on a page is a query (`store::report`, the fetch log, the
//! host ledger); the words come from the `report` message catalogue; the
//! markup from compiled templates (askama, `templates/report/`). Not for:
//! fetching or storing anything.

pub mod chart;
mod host;
mod page;
mod status;

use page::{HostLog, Scope};
pub use page::{STYLE, dns_name, host_file};

use crate::adapter::Adapter;
use crate::config::Config;
use crate::http::Ledger;
use crate::lang::Lang;
use crate::store::Store;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// What to write, for how long back, and in which language for the operator.
pub struct ReportOptions {
    pub out: PathBuf,
    /// Days back from `now_ms` that the pages cover.
    pub days: u32,
    /// The operator page's language (the host pages are in all seven).
    pub lang: Lang,
    pub now_ms: i64,
}

/// What was written, for the command to say.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Written {
    pub index: PathBuf,
    pub pages: Vec<PathBuf>,
    /// The largest page written, in bytes (each must stay under 150 KB; the
    /// status index, a table and chart per source, 25 KB a source).
    pub largest_bytes: u64,
    /// Hosts with requests but no page: their name is no DNS name.
    pub skipped_hosts: Vec<String>,
}

/// Write the whole site into `opts.out`.
pub fn write(
    store: &Store,
    config: Option<&Config>,
    ledger: Option<&Ledger>,
    adapters: &[&'static dyn Adapter],
    opts: &ReportOptions,
) -> Result<Written> {
    let since_ms = opts.now_ms - i64::from(opts.days) * 24 * 3600 * 1000;
    let (day_list, day_ends_ms) = days_between(since_ms, opts.now_ms)?;
    let cx = Scope { store, config, ledger, adapters, days: opts.days, now_ms: opts.now_ms, since_ms, day_list, day_ends_ms };
    let hosts_dir = folder(&opts.out.join("hosts"))?;
    let (hosts, skipped_hosts) = hosts(&cx)?;
    // Each host's requests are read once, for its seven pages and the operator's chart.
    let logs: Vec<HostLog> = hosts.iter().map(|h| host_log(&cx, h)).collect::<Result<_>>()?;
    let mut pages = Vec::new();
    for log in &logs {
        let facts = host::facts(&cx, log)?;
        for lang in Lang::ALL {
            let html = host::page(&cx, log, &facts, lang)?;
            pages.push(put(&hosts_dir.join(host_file(&log.host, lang)), &html)?);
        }
    }
    let (index, runs) = status::pages(&cx, crate::i18n::catalogue(opts.lang), &logs)?;
    let index_path = put(&opts.out.join("index.html"), &index)?;
    let runs_dir = folder(&opts.out.join("runs"))?;
    for (day, html) in &runs {
        pages.push(put(&runs_dir.join(format!("{day}.html")), html)?);
    }
    pages.insert(0, index_path.clone());
    let largest_bytes = pages.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).max().unwrap_or(0);
    Ok(Written { index: index_path, pages, largest_bytes, skipped_hosts })
}

/// A folder of the site, made if missing; a symbolic link there is refused,
/// never followed: the pages land only where they are named.
fn folder(dir: &Path) -> Result<PathBuf> {
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        anyhow::bail!(
            "the report folder {} is a symbolic link: the report writes only into real folders, and never follows a link \
             out of its output folder; remove the link (or give --out a folder of its own) and run again",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating the report folder {}", dir.display()))?;
    Ok(dir.to_path_buf())
}

/// Write one page whole (a reader never sees half a page): into a new file
/// beside it (created, never opened through a link), then renamed over the
/// page, which replaces a link standing there instead of writing through it.
/// The page is made mode 0666 less the umask, as any file the operator
/// writes (0644 under umask 022): a web server running as another user can
/// read it; a temporary file's own 0600 would hide it.
fn put(path: &Path, html: &str) -> Result<PathBuf> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".page-")
        .suffix(".part")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .with_context(|| format!("writing beside {}", path.display()))?;
    tmp.write_all(html.as_bytes()).with_context(|| format!("writing {}", path.display()))?;
    tmp.persist(path).with_context(|| format!("writing {}", path.display()))?;
    Ok(path.to_path_buf())
}

/// The hosts with a page: every adapter's host, and any other that this
/// database's fetch log or the host ledger has requests to in the period (a
/// source since removed still answers for what it did); and the names booked
/// that are no DNS name, which get no page (a folder mirror's `folder:HOST`:
/// its reads never left the machine).
fn hosts(cx: &Scope) -> Result<(Vec<String>, Vec<String>)> {
    let mut hosts: Vec<String> = cx.adapters.iter().map(|a| a.manifest().host.to_string()).collect();
    hosts.extend(cx.store.hosts_requested(cx.since_ms)?);
    if let Some(l) = cx.ledger {
        hosts.extend(l.hosts_since(cx.since_ms)?);
    }
    hosts.sort();
    hosts.dedup();
    let (named, other): (Vec<String>, Vec<String>) = hosts.into_iter().partition(|h| dns_name(h));
    Ok((named, other.into_iter().filter(|h| !h.starts_with("folder:")).collect()))
}

fn host_log(cx: &Scope, host: &str) -> Result<HostLog> {
    let requests = cx.store.requests_to(host, cx.since_ms)?;
    let mut times: Vec<i64> = requests.iter().map(|r| r.started_ms).collect();
    if let Some(l) = cx.ledger {
        times.extend(l.requests_since(host, cx.since_ms)?);
    }
    times.sort_unstable();
    times.dedup();
    let request_days: Vec<Option<usize>> = requests.iter().map(|r| cx.day_of(r.started_ms)).collect();
    let mut per_day = vec![0; cx.day_list.len()];
    for d in times.iter().filter_map(|t| cx.day_of(*t)) {
        per_day[d] += 1;
    }
    let mut own_per_day = vec![0; cx.day_list.len()];
    for d in request_days.iter().flatten() {
        own_per_day[*d] += 1;
    }
    Ok(HostLog { host: host.to_string(), requests, request_days, times, per_day, own_per_day })
}

/// The Europe/Madrid days from `since_ms` to `now_ms`, and when each ends.
fn days_between(since_ms: i64, now_ms: i64) -> Result<(Vec<String>, Vec<i64>)> {
    let tz = crate::model::TZ_MADRID;
    let mut day = jiff::Timestamp::from_millisecond(since_ms)?.in_tz(tz)?.date();
    let last = jiff::Timestamp::from_millisecond(now_ms)?.in_tz(tz)?.date();
    let (mut list, mut ends) = (Vec::new(), Vec::new());
    while day <= last {
        let next = day.tomorrow()?;
        list.push(day.to_string());
        ends.push(next.in_tz(tz)?.timestamp().as_millisecond());
        day = next;
    }
    Ok((list, ends))
}

#[cfg(test)]
mod tests {
    use super::page::{Arg, promise_secs, say, secs, spans};
    use super::*;

    /// The report's words choose their plural by the number (Fluent
    /// selectors), a zero by its own variant where a language has one.
    #[test]
    fn report_messages_agree_with_their_numbers() {
        let en = crate::i18n::catalogue(Lang::En);
        assert_eq!(say(en, "report-gaps-broken", &[("n", Arg::N(1))]), "One pause was shorter than promised.");
        assert_eq!(say(en, "report-gaps-broken", &[("n", Arg::N(3))]), "3 pauses were shorter than promised.");
        let day = |lang, n| {
            say(crate::i18n::catalogue(lang), "report-day-summary", &[("requests", Arg::N(n)), ("days", Arg::N(1)), ("bytes", Arg::N(0))])
        };
        assert_eq!(day(Lang::En, 0), "No request in the period.");
        assert_eq!(day(Lang::Fr, 0), "Aucune requête sur la période.");
        assert!(day(Lang::Fr, 2).starts_with("2 requêtes sur un jour"), "{}", day(Lang::Fr, 2));
        assert!(day(Lang::Es, 1).starts_with("Una petición en un día"), "{}", day(Lang::Es, 1));
        assert_eq!(secs(crate::i18n::catalogue(Lang::Es), 10_002), "10,002");
        assert_eq!(secs(en, 10_002), "10.002");
        assert_eq!(promise_secs(en, 10_000), "10");
        let said = spans("run `cityvibe audit` now");
        let pieces: Vec<(bool, &str)> = said.iter().map(|s| (s.code, s.text.as_str())).collect();
        assert_eq!(pieces, [(false, "run "), (true, "cityvibe audit"), (false, " now")]);
    }

    /// Whether the site has a page of runs for `day` (a day of the period).
    fn opts_days(written: &Written, day: &str) -> bool {
        written.pages.iter().any(|p| p.ends_with(format!("runs/{day}.html")))
    }

    /// A month of cron (a run every 3 h, every source, three requests each, statuses
    /// mixed) stays under the 150 KB each page is allowed.
    #[test]
    fn a_month_of_cron_keeps_every_page_under_25_kb_a_source() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite")).unwrap();
        let now = store.now_ms();
        // `interrupted` is written by runs cut short (another change): drawn as any status.
        let statuses = ["ok", "unchanged", "unchanged", "skipped", "ok", "failed", "interrupted", "anomaly"];
        let hour = 3_600_000;
        for run in 0..240i64 {
            let at = now - 30 * 24 * hour + run * 3 * hour;
            store.conn.execute("INSERT INTO runs (id, started_at, finished_at, exit_code) VALUES (?1, ?2, ?2, 0)", [run + 1, at]).unwrap();
            for (i, a) in crate::adapters::ALL.iter().enumerate() {
                let m = a.manifest();
                let status = statuses[(run as usize + i) % statuses.len()];
                let message = format!(
                    "{}: HTTP 500; stored events kept; if it persists, run `cityvibe source disable {} --reason \"…\"`",
                    m.feeds[0].url, m.id
                );
                store
                    .conn
                    .execute(
                        "INSERT INTO run_sources (run_id, source, status, requests, not_modified, added, updated, withdrawn, record_errors, duration_ms, message)
                         VALUES (?1, ?2, ?3, 3, 1, 2, 5, 1, 0, 1200, ?4)",
                        rusqlite::params![run + 1, m.id, status, message],
                    )
                    .unwrap();
                for k in 0..3i64 {
                    let status = [200, 304, 500][k as usize];
                    store
                        .conn
                        .execute(
                            "INSERT INTO fetch_log (run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome)
                             VALUES (?1, ?2, ?3, ?4, ?5, 300, ?6, 40000, 1, 'ok')",
                            rusqlite::params![run + 1, m.id, m.host, m.feeds[0].url, at + k * 10_500, status],
                        )
                        .unwrap();
                }
            }
        }
        let out = dir.path().join("site");
        let opts = ReportOptions { out: out.clone(), days: 30, lang: Lang::En, now_ms: now };
        let written = write(&store, None, None, crate::adapters::ALL, &opts).unwrap();
        // A page of runs per Madrid day that has one: 30 or 31 of them, by the hour the test runs at.
        let run_days: std::collections::BTreeSet<String> =
            (0..240i64).map(|run| crate::store::report::madrid_day(now - 30 * 24 * hour + run * 3 * hour)).collect();
        assert_eq!(
            written.pages.len(),
            1 + run_days.len() + 7 * crate::adapters::ALL.len(),
            "the index, a page of runs per day, 7 per host"
        );
        // The index holds a table and a chart per source: its budget was 150 KB
        // for six sources, 25 KB a source (165 KB with a seventh, euskadi).
        let budget = 25 * 1024 * crate::adapters::ALL.len().max(6) as u64;
        assert!(written.largest_bytes < budget, "the largest page is {} bytes (budget {budget})", written.largest_bytes);
        let index = std::fs::read_to_string(&written.index).unwrap();
        // A mark per source and day of runs in the period, its worst run: every
        // whole day here had a failed run among its eight, so its mark is failed
        // (the first and last days may be partial).
        let days_in_period = run_days.iter().filter(|d| opts_days(&written, d)).count();
        assert_eq!(index.matches("<use href=").count(), days_in_period * crate::adapters::ALL.len(), "a mark per day and source");
        let failed = index.matches(r#"class="k-failed"/>"#).count();
        assert!(failed >= (days_in_period - 2) * crate::adapters::ALL.len(), "each day's worst run: {failed} failed marks");
    }
}
