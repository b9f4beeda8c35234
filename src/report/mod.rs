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
mod status;

use crate::adapter::Adapter;
use crate::config::Config;
use crate::http::Ledger;
use crate::i18n::{Catalogue, FluentValue};
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
    /// The largest page written, in bytes (each must stay under 150 KB).
    pub largest_bytes: u64,
    /// Hosts with requests but no page: their name is no DNS name.
    pub skipped_hosts: Vec<String>,
}

/// What every page is drawn from: the database, config, ledger, adapters and period.
pub(crate) struct Scope<'a> {
    pub store: &'a Store,
    pub config: Option<&'a Config>,
    pub ledger: Option<&'a Ledger>,
    pub adapters: &'a [&'static dyn Adapter],
    pub days: u32,
    pub now_ms: i64,
    pub since_ms: i64,
    /// The Europe/Madrid days covered, oldest first (`YYYY-MM-DD`), and the
    /// moment each one ends (ms).
    pub day_list: Vec<String>,
    pub day_ends_ms: Vec<i64>,
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

/// The file of a host's page in `lang`: Spanish is the plain name. Only
/// for a valid DNS name ([`dns_name`]), which the caller checks.
pub fn host_file(host: &str, lang: Lang) -> String {
    if lang == Lang::Es { format!("{host}.html") } else { format!("{host}.{lang}.html") }
}

/// Whether `host` is a DNS name that may become a file name: labels of
/// ASCII letters, digits and inner hyphens, 1 to 63 long, 253 at most in
/// all, the last not all digits (no address, no port, no `folder:` booking,
/// no path; RFC 1123 section 2.1, RFC 3696 section 2), and short enough
/// that each of its page files fits in a file name (255 bytes: a 253-byte
/// name is a DNS name, `NAME.pt.html` is no file name).
pub fn dns_name(host: &str) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    host.len() <= 253
        && Lang::ALL.into_iter().all(|l| host_file(host, l).len() <= MAX_FILE_NAME)
        && labels.iter().all(|l| {
            (1..=63).contains(&l.len())
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
        && labels.last().is_some_and(|l| !l.bytes().all(|b| b.is_ascii_digit()))
}

/// The longest file name (bytes) of the file systems the report lands on.
const MAX_FILE_NAME: usize = 255;

/// Whether `adapter` fetches from `host`.
pub(crate) fn serves(adapter: &dyn Adapter, host: &str) -> bool {
    adapter.manifest().host == host
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

/// Every request this machine made to one host in the period: this database's
/// fetch log, with each answer, and the host ledger's moments, shared by every
/// database of the machine. A request is in both under one moment (reserved,
/// then logged with that start); the fetch log alone holds what the ledger no
/// longer keeps.
pub(crate) struct HostLog {
    pub host: String,
    /// This database's requests, oldest first.
    pub requests: Vec<crate::store::report::Request>,
    /// The day (index into the period's days) of each of `requests`.
    pub request_days: Vec<Option<usize>>,
    /// Every request's moment, this machine's, oldest first.
    pub times: Vec<i64>,
    /// This machine's requests per day of the period.
    pub per_day: Vec<u64>,
    /// Of them, those made from this database, per day.
    pub own_per_day: Vec<u64>,
}

impl HostLog {
    /// Requests in the period sent from another database of this machine
    /// (their answers are in that database's fetch log, not this one's).
    pub fn elsewhere_per_day(&self) -> Vec<u64> {
        self.per_day.iter().zip(&self.own_per_day).map(|(all, own)| all.saturating_sub(*own)).collect()
    }
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

impl Scope<'_> {
    /// The period's day of a moment: the first whose end is after it.
    pub fn day_of(&self, ms: i64) -> Option<usize> {
        let i = self.day_ends_ms.partition_point(|end| *end <= ms);
        (i < self.day_ends_ms.len()).then_some(i)
    }
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

/// A moment as Europe/Madrid local time, to the second.
pub(crate) fn local(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .ok()
        .and_then(|t| t.in_tz(crate::model::TZ_MADRID).ok())
        .map(|z| z.strftime("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

/// Seconds from ms with three decimals, in the catalogue's decimal sign.
pub(crate) fn secs(t: &Catalogue, ms: i64) -> String {
    let s = format!("{}.{:03}", ms / 1000, (ms % 1000).abs());
    s.replace('.', &t.text("report-decimal-sign"))
}

/// Seconds for a promise: whole when whole ("10"), else as [`secs`].
pub(crate) fn promise_secs(t: &Catalogue, ms: i64) -> String {
    if ms % 1000 == 0 { (ms / 1000).to_string() } else { secs(t, ms) }
}

/// A message with arguments, numbers as Fluent numbers (plurals select on them).
pub(crate) fn say(t: &Catalogue, id: &str, args: &[(&str, Arg)]) -> String {
    let values: Vec<(&str, FluentValue)> = args
        .iter()
        .map(|(k, v)| {
            (
                *k,
                match v {
                    Arg::N(n) => FluentValue::from(*n),
                    Arg::S(s) => FluentValue::from(s.clone()),
                },
            )
        })
        .collect();
    t.text_with(id, &values)
}

/// A piece of a sentence: a command (the catalogue marks one with
/// backticks, the page shows it as `<code>`) or plain text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Span {
    pub code: bool,
    pub text: String,
}

/// A sentence in [`Span`]s.
pub(crate) type Spans = Vec<Span>;

/// Split a sentence at its backticks into [`Spans`].
pub(crate) fn spans(s: &str) -> Spans {
    s.split('`')
        .enumerate()
        .filter(|(_, part)| !part.is_empty())
        .map(|(i, part)| Span { code: i % 2 == 1, text: part.to_string() })
        .collect()
}

/// One argument of [`say`].
pub(crate) enum Arg {
    N(u64),
    S(String),
}

/// The stylesheet every page carries inline (no request for it): readable
/// measure, AA contrast light and dark, charts that shrink to the screen,
/// tables that scroll inside themselves rather than widen the page.
pub const STYLE: &str = include_str!("../../templates/report/style.css");

#[cfg(test)]
mod tests {
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
    fn a_month_of_cron_keeps_every_page_under_150_kb() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite")).unwrap();
        let now = crate::store::now_ms();
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
        assert!(written.largest_bytes < 150 * 1024, "the largest page is {} bytes", written.largest_bytes);
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
