//! sources.toml: the operator's switchboard, one row per source (P9, P16).
//!
//! Reading and validating live here; editing in place, keeping every
//! comment and the key order, goes through toml_edit (see [`set_enabled`]).

use crate::adapter::{Adapter, Feed, FeedRole, Manifest};
use crate::vocab::DelayRule;
use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// The whole file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub sources: BTreeMap<String, SourceConfig>,
    /// Whether a source with no row runs. Never from the file: a source is a
    /// row in sources.toml (P16), so an operator who deletes a row stops it.
    /// Library callers (tests, tools) may turn it on with [`Config::enable_all`].
    #[serde(skip)]
    pub run_unlisted: bool,
}

/// Run-wide settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Display languages every event is shown in.
    #[serde(default = "default_languages")]
    pub languages: Vec<String>,
    /// `apertium` (default), `apy`, `libretranslate`, `openai` or `none`.
    #[serde(default)]
    pub translator: crate::vocab::Translator,
    /// Base URL of an Apertium APy server, for `translator = "apy"`.
    pub apy_url: Option<String>,
    /// Base URL of a LibreTranslate server, for `translator = "libretranslate"`.
    pub libretranslate_url: Option<String>,
    /// Base URL of an OpenAI-compatible server (`/v1/chat/completions`), for
    /// `translator = "openai"`, and the model to ask.
    pub openai_url: Option<String>,
    pub openai_model: Option<String>,
    /// `"apertium"`: when the server of `translator` fails (down, an error, a
    /// timeout, an answer that is no translation), its texts are translated by
    /// the local Apertium instead of staying pending, and asked of the server
    /// again on the next run.
    pub fallback: Option<crate::vocab::Fallback>,
    /// The name of the environment variable holding the translation server's
    /// API key (never the key itself: this file is not a secret).
    pub api_key_env: Option<String>,
    /// Seconds a translation engine may take on one text before it is given up.
    #[serde(default = "default_translate_timeout")]
    pub translate_timeout_secs: u64,
    /// The most processes the local translation engines of a run may hold
    /// at once, all workers together (default 140); the targets are packed
    /// into waves that fit, as for `translate_max_memory_mb`, and a worker
    /// closes its least recently used engine before it would hold more
    /// than its wave's share.
    #[serde(default = "default_translate_max_processes")]
    pub translate_max_processes: usize,
    /// What the local translation engines of a run may hold at once, all
    /// workers together, in MB of summed PSS as data/translate/footprint.tsv
    /// weighs each pipeline (default 1,300: the run stays under 1.5 GB); the
    /// targets are packed into waves that fit, and a target heavier alone
    /// runs alone, closing its least recently used engine to stay within.
    #[serde(default = "default_translate_max_memory_mb")]
    pub translate_max_memory_mb: u64,
    /// How many workers translate at once with the local Apertium, each
    /// holding one target's engines (default: one per core, at most 4;
    /// never more than the cores): fewer take longer and less CPU in all,
    /// as docs/OPERATING.md measures.
    pub translate_workers: Option<std::num::NonZeroUsize>,
    /// The longest a run waits for a host (a Retry-After, a backoff, a
    /// delay); beyond it the host waits for a later run (P10).
    #[serde(default = "default_max_wait")]
    pub max_wait_secs: u64,
    /// A folder of the operator's term files (`es-XX.tsv`, relative to this
    /// file); a language without one there uses the shipped `data/terms/`.
    pub terms_dir: Option<std::path::PathBuf>,
    /// Longest text, in characters, sent to an engine; a longer one is cut at a
    /// sentence end first.
    #[serde(default = "default_translate_max_chars")]
    pub translate_max_chars: usize,
    /// The longest a run may go on, in seconds (default 2 h, below the 3 h
    /// period): past it the run stops between two requests or steps, records
    /// itself as interrupted and frees its lock.
    #[serde(default = "default_run_deadline")]
    pub run_deadline_secs: u64,
    /// Where `cityvibe run` writes the report site after each run (relative to
    /// this file), as `cityvibe report --out` would.
    pub report_dir: Option<std::path::PathBuf>,
}

fn default_languages() -> Vec<String> {
    crate::lang::Lang::CODES.iter().map(|s| s.to_string()).collect()
}
fn default_translate_timeout() -> u64 {
    60
}
fn default_translate_max_processes() -> usize {
    crate::policy::DEFAULT_MAX_PROCESSES
}
fn default_translate_max_memory_mb() -> u64 {
    crate::policy::DEFAULT_MAX_MEMORY_MB
}
fn default_max_wait() -> u64 {
    300
}
fn default_run_deadline() -> u64 {
    2 * 3600
}

/// A source is fetched at most once per period (P7); a row may lengthen it.
pub const DEFAULT_PERIOD: Duration = Duration::from_secs(3 * 3600);
/// Bounds on a row's values, checked at load.
pub const MAX_DELAY_SECS: f64 = 24.0 * 3600.0;
pub const MAX_PERIOD_HOURS: f64 = 7.0 * 24.0;
pub const MAX_WAIT_SECS: u64 = 3600;
/// A run ends before the next one is due: the shortest period less cron's
/// jitter tolerance (`ingest::PERIOD_TOLERANCE_MS`).
pub const MAX_RUN_DEADLINE_SECS: u64 = DEFAULT_PERIOD.as_secs() - 600;
fn default_translate_max_chars() -> usize {
    crate::policy::DEFAULT_MAX_CHARS
}

impl Settings {
    /// The display languages, as `Config::load` checked them: a code that
    /// is none (only in a config never checked) is left out.
    pub fn langs(&self) -> Vec<crate::lang::Lang> {
        self.languages.iter().filter_map(|l| crate::lang::Lang::from_code(l)).collect()
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            languages: default_languages(),
            translator: Default::default(),
            apy_url: None,
            libretranslate_url: None,
            openai_url: None,
            openai_model: None,
            fallback: None,
            api_key_env: None,
            translate_timeout_secs: default_translate_timeout(),
            translate_max_processes: default_translate_max_processes(),
            translate_max_memory_mb: default_translate_max_memory_mb(),
            translate_workers: None,
            max_wait_secs: default_max_wait(),
            terms_dir: None,
            translate_max_chars: default_translate_max_chars(),
            run_deadline_secs: default_run_deadline(),
            report_dir: None,
        }
    }
}

/// One source's row.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceConfig {
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Why it was switched off, and when (written by `source disable`).
    pub disabled_reason: Option<String>,
    pub disabled_on: Option<String>,
    /// Slower than the adapter's minimum, never faster (P9).
    pub min_delay_secs: Option<f64>,
    /// Only fetch within these Europe/Madrid hours, e.g. "01:00-06:00".
    pub hours: Option<String>,
    /// The most of the source's active events one run may withdraw (P20):
    /// default 0.25, at most 0.5.
    pub max_withdraw_share: Option<f64>,
    /// How every event of the source is cited, over the manifest's own
    /// (P19; resolved at read time by [`crate::citation`]).
    pub attribution: Option<String>,
    pub licence: Option<String>,
    pub licence_url: Option<String>,
    /// Fetch at most once per this many hours: 3 or more, never fewer (P7).
    pub period_hours: Option<f64>,
    /// Feeds of the source switched off, each by its language or its exact
    /// URL (P16, "en parte"): never requested; the rest still run.
    #[serde(default)]
    pub feeds_off: Vec<String>,
}

fn yes() -> bool {
    true
}

impl Default for SourceConfig {
    /// A row that says only `[sources.ID]`: switched on, nothing else.
    fn default() -> Self {
        toml::from_str("").expect("an empty row is valid")
    }
}

impl Config {
    /// Read and validate the file against the known adapters. Every error
    /// is a configuration error (exit 2), whichever command loads the file.
    pub fn load(path: &Path, adapters: &[&dyn Adapter]) -> Result<Config> {
        Self::read(path, adapters).map_err(crate::error::as_usage)
    }

    /// Read it again during a run (P9, P16): validated as at load, so a mistake
    /// made meanwhile is an error the run reports while it keeps the last good
    /// settings.
    pub fn reload(path: &Path, adapters: &[&dyn Adapter]) -> Result<Config> {
        Self::read(path, adapters)
    }

    fn read(path: &Path, adapters: &[&dyn Adapter]) -> Result<Config> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the config {} (pass --config PATH, or run from the project folder)", path.display()))?;
        let mut config: Config = toml::from_str(&text).with_context(|| format!("{} is not a valid sources.toml", path.display()))?;
        if let Some(dir) = config.settings.report_dir.take() {
            config.settings.report_dir = Some(path.parent().unwrap_or(Path::new(".")).join(dir));
        }
        if let Some(dir) = config.settings.terms_dir.take() {
            config.settings.terms_dir = Some(path.parent().unwrap_or(Path::new(".")).join(dir));
        }
        config.validate(adapters).with_context(|| format!("in {}", path.display()))?;
        Ok(config)
    }

    pub fn validate(&self, adapters: &[&dyn Adapter]) -> Result<()> {
        for (id, row) in &self.sources {
            // A row this binary has no adapter for (a scaffold not yet built) never
            // stops the other sources: the gate reports it.
            let Some(a) = adapters.iter().find(|a| a.manifest().id == id) else { continue };
            let min = a.manifest().min_delay;
            if let Some(secs) = row.min_delay_secs {
                // Compared as numbers first: 1e20 s is no Duration (it would panic).
                if !(secs.is_finite() && secs <= MAX_DELAY_SECS) {
                    bail!(
                        "[sources.{id}] min_delay_secs = {secs} is over the bound of {MAX_DELAY_SECS} s (one day); a slower source takes a longer period_hours, not a longer delay"
                    );
                }
                if secs < min.as_secs_f64() {
                    bail!(
                        "[sources.{id}] min_delay_secs = {secs} is faster than the adapter's minimum of {} s; config can only make a source slower (P9)",
                        min.as_secs_f64()
                    );
                }
            }
            if let Some(h) = row.period_hours
                && !(h.is_finite() && h >= DEFAULT_PERIOD.as_secs_f64() / 3600.0 && h <= MAX_PERIOD_HOURS)
            {
                bail!(
                    "[sources.{id}] period_hours = {h} is out of bounds: at least {} (a row may lengthen the period, never shorten it, P7) and at most {MAX_PERIOD_HOURS}",
                    DEFAULT_PERIOD.as_secs() / 3600
                );
            }
            if let Some(share) = row.max_withdraw_share {
                let ceiling = crate::policy::WithdrawGuard::CEILING;
                if !(share > 0.0 && share <= ceiling) {
                    bail!(
                        "[sources.{id}] max_withdraw_share = {share}: give a share above 0 and at most {ceiling} (default {}); \
                         a feed that takes away more than half of a source at once is treated as broken (P20)",
                        crate::policy::WithdrawGuard::DEFAULT_SHARE
                    );
                }
            }
            // The hours window, read as the gate, the driver and the report read it.
            self.policy(*a)?;
            validate_citation(id, row)?;
            validate_feeds_off(id, row, a.manifest())?;
        }
        for l in &self.settings.languages {
            if crate::lang::Lang::from_code(l).is_none() {
                bail!("[settings] languages: {l:?} is not one of {}", crate::lang::Lang::CODES.join(", "));
            }
        }
        if !(1..=MAX_WAIT_SECS).contains(&self.settings.max_wait_secs) {
            bail!("[settings] max_wait_secs = {} is out of bounds: 1 to {MAX_WAIT_SECS}", self.settings.max_wait_secs);
        }
        if !(1..=MAX_RUN_DEADLINE_SECS).contains(&self.settings.run_deadline_secs) {
            bail!(
                "[settings] run_deadline_secs = {} is out of bounds: 1 to {MAX_RUN_DEADLINE_SECS} (a run must end before the next is due, 3 h after it)",
                self.settings.run_deadline_secs
            );
        }
        // An unknown translator is refused while reading (the enum's variants are the list).
        use crate::vocab::Translator as T;
        if self.settings.translator == T::Openai && (self.settings.openai_url.is_none() || self.settings.openai_model.is_none()) {
            bail!("[settings] translator = \"openai\" needs openai_url = \"http://HOST:PORT\" and openai_model = \"NAME\"");
        }
        if self.settings.translator == T::Libretranslate && self.settings.libretranslate_url.is_none() {
            bail!("[settings] translator = \"libretranslate\" needs libretranslate_url = \"http://HOST:PORT\"");
        }
        if self.settings.translator == T::Apy && self.settings.apy_url.is_none() {
            bail!("[settings] translator = \"apy\" needs apy_url = \"http://HOST:PORT\"");
        }
        if let Some(fallback) = self.settings.fallback
            && matches!(self.settings.translator, T::Apertium | T::None)
        {
            bail!(
                "[settings] fallback = \"{fallback}\" stands in for a translation server: it needs translator = \"apy\", \"libretranslate\" or \"openai\" (translator is \"{}\")",
                self.settings.translator
            );
        }
        Ok(())
    }

    /// The rows naming no adapter of `adapters` (a scaffold in the checkout
    /// that this binary was built before): reported, never fatal.
    pub fn unknown_rows<'a>(&'a self, adapters: &[&dyn Adapter]) -> Vec<&'a str> {
        self.sources.keys().map(String::as_str).filter(|id| !adapters.iter().any(|a| a.manifest().id == *id)).collect()
    }

    /// A config under which every source runs, unless a row says otherwise.
    pub fn enable_all() -> Config {
        Config { run_unlisted: true, ..Config::default() }
    }

    /// Whether a source is switched on: it has a row, and the row says so.
    pub fn enabled(&self, id: &str) -> bool {
        match self.sources.get(id) {
            Some(row) => row.enabled,
            None => self.run_unlisted,
        }
    }

    /// How much of a source one run may withdraw at once (P20).
    pub fn withdraw_guard(&self, id: &str) -> crate::policy::WithdrawGuard {
        let mut guard = crate::policy::WithdrawGuard::default();
        if let Some(share) = self.sources.get(id).and_then(|r| r.max_withdraw_share) {
            guard.max_share = share;
        }
        guard
    }

    /// Why a source is off, for reports.
    pub fn why_off(&self, id: &str) -> String {
        match self.sources.get(id) {
            None => "no row in sources.toml (a source is a row there: add [sources.ID] to switch it on)".into(),
            Some(row) => row
                .disabled_reason
                .clone()
                .map(|why| format!("switched off: {why}"))
                .unwrap_or_else(|| "switched off in sources.toml".into()),
        }
    }

    /// Whether a feed of the source is switched on: its row's `feeds_off`
    /// names neither its language nor its URL.
    pub fn feed_on(&self, id: &str, feed: &Feed) -> bool {
        self.sources.get(id).is_none_or(|r| !r.feeds_off.iter().any(|k| k == feed.lang || k == feed.url))
    }

    /// The delay to keep for a source: the adapter's, or slower from config
    /// (held to the bound even for a row that skipped validation).
    pub fn delay_for(&self, adapter: &dyn Adapter) -> Duration {
        let m = adapter.manifest();
        let configured = self
            .sources
            .get(m.id)
            .and_then(|r| r.min_delay_secs)
            .filter(|s| s.is_finite())
            .map(|s| Duration::from_secs_f64(s.clamp(0.0, MAX_DELAY_SECS)));
        configured.map_or(m.min_delay, |c| c.max(m.min_delay))
    }

    /// The delay that rules a source and whose word it is: the slowest of the
    /// adapter's minimum, the operator's row and robots.txt's Crawl-delay as
    /// `audit` last read it (rule 2: the slowest word wins).
    pub fn ruling_delay(&self, adapter: &dyn Adapter, crawl_delay: Option<Duration>) -> (Duration, DelayRule) {
        let m = adapter.manifest();
        let row = self.delay_for(adapter);
        let mut rule = if row > m.min_delay { (row, DelayRule::SourcesToml) } else { (m.min_delay, DelayRule::Adapter) };
        if let Some(cd) = crawl_delay.filter(|cd| *cd > rule.0) {
            rule = (cd, DelayRule::CrawlDelay);
        }
        rule
    }

    /// The policy of `adapter`'s source (its row's, or the defaults when it
    /// has none). A config built by hand rather than loaded (a library
    /// caller, a test) is held to the same bounds: the delay and the period
    /// are clamped to them, and an hours window that does not read is an
    /// error (fail closed: no window proved, no request).
    pub fn policy(&self, adapter: &dyn Adapter) -> Result<SourcePolicy> {
        let id = adapter.manifest().id;
        let hours = self.sources.get(id).and_then(|r| r.hours.as_deref()).map(Hours::parse).transpose();
        let hours = hours.with_context(|| format!("[sources.{id}] hours"))?;
        Ok(SourcePolicy { delay: self.delay_for(adapter), period: self.period_for(id), hours })
    }

    /// A source's period: the default, or longer from its row (P7).
    pub fn period_for(&self, id: &str) -> Duration {
        let row = self.sources.get(id).and_then(|r| r.period_hours).filter(|h| h.is_finite());
        row.map(|h| Duration::from_secs_f64(h.clamp(0.0, MAX_PERIOD_HOURS) * 3600.0)).map_or(DEFAULT_PERIOD, |p| p.max(DEFAULT_PERIOD))
    }
}

/// A row's citation overrides (P19): no empty text, a licence link that is an
/// http(s) URL, and a new licence name only with its link.
fn validate_citation(id: &str, row: &SourceConfig) -> Result<()> {
    for (key, value) in [("attribution", &row.attribution), ("licence", &row.licence), ("licence_url", &row.licence_url)] {
        if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
            bail!("[sources.{id}] {key} is empty: remove the key to use the adapter's own, or write the text to show");
        }
    }
    if let Some(u) = &row.licence_url {
        let scheme = url::Url::parse(u).ok().map(|u| u.scheme().to_string());
        if !matches!(scheme.as_deref(), Some("http" | "https")) {
            bail!("[sources.{id}] licence_url = {u:?} is not an http(s) URL");
        }
    }
    if row.licence.is_some() && row.licence_url.is_none() {
        bail!(
            "[sources.{id}] licence without licence_url: a licence shown with another's link would mislead; add licence_url = \"https://…\""
        );
    }
    Ok(())
}

/// `feeds_off` names feeds of the manifest, and leaves one that carries the
/// source's events (switching them all off is `source disable`).
fn validate_feeds_off(id: &str, row: &SourceConfig, m: &Manifest) -> Result<()> {
    let feeds = || m.feeds.iter().map(|f| format!("{} {}", f.lang, f.url)).collect::<Vec<_>>().join(", ");
    for key in &row.feeds_off {
        if !m.feeds.iter().any(|f| f.lang == key || f.url == key) {
            bail!("[sources.{id}] feeds_off: {key:?} is neither the language nor the URL of a feed of {id}; its feeds: {}", feeds());
        }
    }
    let off = |f: &Feed| row.feeds_off.iter().any(|k| k == f.lang || k == f.url);
    if !m.feeds.iter().any(|f| f.role == FeedRole::Primary && !off(f)) {
        bail!(
            "[sources.{id}] feeds_off switches off every feed that carries {id}'s events ({}); to stop the source, \
             run `cityvibe source disable {id} --reason \"…\"`",
            m.feeds.iter().filter(|f| f.role == FeedRole::Primary).map(|f| f.url).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(())
}

/// What a source's row sets for its fetching, read and checked in one
/// place (P7, P9): the gate, the run's driver and the report read this,
/// never the row's raw settings. Every row's policy is checked when
/// sources.toml is loaded or re-read ([`Config::load`], [`Config::reload`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SourcePolicy {
    /// The delay between two requests to its host: the adapter's minimum,
    /// or slower from the row, never over a day.
    pub delay: Duration,
    /// Fetched at most once per this long: the default, or longer from the row.
    pub period: Duration,
    /// Fetched only within these hours (Europe/Madrid), when the row says so.
    pub hours: Option<Hours>,
}

/// An hours window in Europe/Madrid, as the row writes it (`"01:00-06:00"`)
/// and as minutes since midnight; it may wrap midnight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hours {
    text: String,
    window: (u32, u32),
}

impl Hours {
    /// Read `"HH:MM-HH:MM"`; anything else is an error saying what to write.
    pub fn parse(text: &str) -> Result<Hours> {
        Ok(Hours { text: text.to_string(), window: parse_hours(text)? })
    }

    /// Whether the instant `ms` (since the epoch, a run's clock) falls in
    /// the window, by the clock of Europe/Madrid.
    pub fn contains(&self, ms: i64) -> bool {
        in_window(self.window, madrid_minute(ms))
    }
}

impl std::fmt::Display for Hours {
    /// As the row writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// `"01:00-06:00"` → minutes since midnight (start, end); a window may wrap midnight.
fn parse_hours(s: &str) -> Result<(u32, u32)> {
    let (a, b) = s.split_once('-').context("expected HH:MM-HH:MM")?;
    let m = |t: &str| -> Result<u32> {
        let time = crate::parse::dates::parse_time(t).with_context(|| format!("{t:?} is not HH:MM"))?;
        Ok(time.hour() as u32 * 60 + time.minute() as u32)
    };
    Ok((m(a)?, m(b)?))
}

/// Whether `minute` (since midnight) falls in the window.
fn in_window((start, end): (u32, u32), minute: u32) -> bool {
    if start <= end { (start..end).contains(&minute) } else { minute >= start || minute < end }
}

/// The minute of the day in Europe/Madrid at `ms` since the epoch (a
/// run's clock, the machine's or a test's simulated one).
fn madrid_minute(ms: i64) -> u32 {
    let z = jiff::Timestamp::from_millisecond(ms).ok().and_then(|t| t.in_tz(crate::model::TZ_MADRID).ok());
    z.map_or(0, |z| z.hour() as u32 * 60 + z.minute() as u32)
}

/// Switch a source on or off in place, keeping every comment, blank line and
/// key order of the file (P16). Writes the reason and the date when off
/// (the Europe/Madrid day of `now_ms`, the caller's clock). The switch's
/// history is the use case's to append (`operate::switch`), not this edit's.
pub fn set_enabled(path: &Path, id: &str, enabled: bool, reason: Option<&str>, now_ms: i64) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut doc: toml_edit::DocumentMut = text.parse().with_context(|| format!("{} is not valid TOML", path.display()))?;
    let sources = doc
        .entry("sources")
        .or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        })
        .as_table_mut()
        .context("[sources] is not a table")?;
    let row =
        sources.entry(id).or_insert_with(toml_edit::table).as_table_mut().with_context(|| format!("[sources.{id}] is not a table"))?;
    row["enabled"] = toml_edit::value(enabled);
    if enabled {
        row.remove("disabled_reason");
        row.remove("disabled_on");
    } else {
        row["disabled_reason"] = toml_edit::value(reason.unwrap_or("").to_string());
        let today = jiff::Timestamp::from_millisecond(now_ms)
            .and_then(|t| t.in_tz(crate::model::TZ_MADRID))
            .map(|z| z.date().to_string())
            .unwrap_or_default();
        row["disabled_on"] = toml_edit::value(today);
    }
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, doc.to_string()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_window_wraps_midnight() {
        let w = Hours::parse("22:00-02:00").unwrap().window;
        assert!(in_window(w, 23 * 60));
        assert!(in_window(w, 60));
        assert!(!in_window(w, 12 * 60));
        assert!(Hours::parse("25:00-02:00").is_err());
    }

    // A row's settings read once into its policy: the delay and period it sets,
    // and its window by Madrid's clock (23:30 UTC on 29 February 2020 is 00:30
    // on 1 March in Madrid, within 00:00-01:00).
    #[test]
    fn a_rows_settings_are_its_policy() {
        let madrid = crate::adapters::by_id("madrid").unwrap();
        let config: Config = toml::from_str("[sources.madrid]\nmin_delay_secs = 5\nperiod_hours = 6\nhours = \"00:00-01:00\"\n").unwrap();
        let p = config.policy(madrid).unwrap();
        assert_eq!((p.delay, p.period), (Duration::from_secs(5), Duration::from_secs(6 * 3600)));
        let at = |t: &str| t.parse::<jiff::Timestamp>().unwrap().as_millisecond();
        let hours = p.hours.unwrap();
        assert_eq!(hours.to_string(), "00:00-01:00");
        assert!(hours.contains(at("2020-02-29T23:30:00Z")));
        assert!(!hours.contains(at("2020-03-01T00:30:00Z")));
        // No row: the adapter's delay, the default period, no window.
        let none = Config::enable_all().policy(madrid).unwrap();
        assert_eq!((none.delay, none.period, none.hours), (madrid.manifest().min_delay, DEFAULT_PERIOD, None));
        // A window that does not read is refused at load, naming the row.
        let bad: Config = toml::from_str("[sources.madrid]\nhours = \"night\"\n").unwrap();
        let err = bad.validate(crate::adapters::ALL).unwrap_err();
        assert!(format!("{err:#}").starts_with("[sources.madrid] hours: expected HH:MM-HH:MM"), "{err:#}");
    }

    // P9: config can slow a source down, never speed it up.
    #[test]
    fn delay_below_adapter_minimum_is_refused() {
        let adapters = crate::adapters::ALL;
        let fast: Config = toml::from_str("[sources.madrid]\nmin_delay_secs = 1\n").unwrap();
        let err = fast.validate(adapters).unwrap_err().to_string();
        assert!(err.contains("minimum of 2 s"), "{err}");
        let slow: Config = toml::from_str("[sources.madrid]\nmin_delay_secs = 5\n").unwrap();
        slow.validate(adapters).unwrap();
        assert_eq!(slow.delay_for(crate::adapters::by_id("madrid").unwrap()), Duration::from_secs(5));
    }

    // P16: feeds_off names real feeds and leaves one with the events.
    #[test]
    fn feeds_off_is_validated_against_the_manifest() {
        let check = |t: &str| toml::from_str::<Config>(t).unwrap().validate(crate::adapters::ALL);
        let err = check("[sources.diba]\nfeeds_off = [\"de\"]\n").unwrap_err().to_string();
        assert!(err.contains("\"de\" is neither") && err.contains("en https://do.diba.cat/api/dataset/actesturisme_en"), "{err}");
        let err = check("[sources.diba]\nfeeds_off = [\"ca\"]\n").unwrap_err().to_string();
        assert!(err.contains("every feed that carries diba's events") && err.contains("source disable diba"), "{err}");
        let err = check("[sources.madrid]\nfeeds_off = [\"es\"]\n").unwrap_err().to_string();
        assert!(err.contains("every feed"), "{err}");
        let c: Config = toml::from_str("[sources.diba]\nfeeds_off = [\"en\"]\n").unwrap();
        c.validate(crate::adapters::ALL).unwrap();
        let m = &crate::adapters::diba::MANIFEST;
        assert_eq!(m.feeds.iter().map(|f| c.feed_on("diba", f)).collect::<Vec<_>>(), [true, true, false]);
        let json = crate::adapters::madrid::MANIFEST.feeds[0].url;
        let c: Config = toml::from_str(&format!("[sources.madrid]\nfeeds_off = [\"{json}\"]\n")).unwrap();
        c.validate(crate::adapters::ALL).unwrap();
        assert!(!c.feed_on("madrid", &crate::adapters::madrid::MANIFEST.feeds[0]));
        assert!(c.feed_on("madrid", &crate::adapters::madrid::MANIFEST.feeds[1]));
    }

    // P19: citation overrides are checked, each with a clear error.
    #[test]
    fn citation_overrides_are_validated() {
        let err = |t: &str| toml::from_str::<Config>(t).unwrap().validate(crate::adapters::ALL).unwrap_err().to_string();
        assert!(err("[sources.jcyl]\nattribution = \" \"\n").contains("attribution is empty"));
        assert!(err("[sources.jcyl]\nlicence_url = \"ftp://x\"\n").contains("not an http(s) URL"));
        assert!(err("[sources.jcyl]\nlicence = \"CC0\"\n").contains("without licence_url"));
        let ok: Config = toml::from_str(
            "[sources.jcyl]\nattribution = \"A\"\nlicence = \"CC0\"\nlicence_url = \"https://creativecommons.org/publicdomain/zero/1.0/\"\n",
        )
        .unwrap();
        ok.validate(crate::adapters::ALL).unwrap();
    }

    // A delay over a day is refused at load, never a panic.
    #[test]
    fn delays_and_periods_have_bounds() {
        let adapters = crate::adapters::ALL;
        for bad in ["1e20", "1000000", "inf", "nan"] {
            let c: Config = toml::from_str(&format!("[sources.madrid]\nmin_delay_secs = {bad}\n")).unwrap();
            let err = c.validate(adapters).unwrap_err().to_string();
            assert!(err.contains("[sources.madrid]") && err.contains("86400"), "{bad}: {err}");
            assert!(c.delay_for(crate::adapters::by_id("madrid").unwrap()) <= Duration::from_secs(86400));
        }
        let short: Config = toml::from_str("[sources.madrid]\nperiod_hours = 1\n").unwrap();
        assert!(short.validate(adapters).unwrap_err().to_string().contains("never shorten"));
        let long: Config = toml::from_str("[sources.madrid]\nperiod_hours = 6\n").unwrap();
        long.validate(adapters).unwrap();
        assert_eq!(long.period_for("madrid"), Duration::from_secs(6 * 3600));
        assert_eq!(Config::default().period_for("madrid"), DEFAULT_PERIOD);
    }
}
