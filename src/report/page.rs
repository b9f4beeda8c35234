//! What every page of the report is drawn from and how it speaks: the
//! [`Scope`] (database, config, ledger, adapters, period), a host's requests
//! ([`HostLog`]), a host page's file name, and the wording helpers (moments,
//! seconds, catalogue messages, sentences in spans, the stylesheet) that the
//! operator's page and the host pages share. Not for: writing files or
//! drawing a page (`report/mod.rs`, `status.rs`, `host.rs`).

use crate::adapter::Adapter;
use crate::config::Config;
use crate::http::Ledger;
use crate::i18n::{Catalogue, FluentValue};
use crate::lang::Lang;
use crate::store::Store;

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

impl Scope<'_> {
    /// The period's day of a moment: the first whose end is after it.
    pub fn day_of(&self, ms: i64) -> Option<usize> {
        let i = self.day_ends_ms.partition_point(|end| *end <= ms);
        (i < self.day_ends_ms.len()).then_some(i)
    }
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
