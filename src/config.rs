//! sources.toml: the operator's switchboard, one row per source (P9, P16).
//!
//! Reading and validating live here; editing in place, keeping every
//! comment and the key order, goes through toml_edit (see [`set_enabled`]).

use crate::adapter::Adapter;
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
    /// `apertium` (default), `apy` or `none`.
    #[serde(default = "default_translator")]
    pub translator: String,
    /// Base URL of an Apertium APy server, for `translator = "apy"`.
    pub apy_url: Option<String>,
    /// Seconds a translation engine may take on one text before it is given up.
    #[serde(default = "default_translate_timeout")]
    pub translate_timeout_secs: u64,
}

fn default_languages() -> Vec<String> {
    crate::model::DISPLAY_LANGS.iter().map(|s| s.to_string()).collect()
}
fn default_translator() -> String {
    "apertium".into()
}
fn default_translate_timeout() -> u64 {
    60
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            languages: default_languages(),
            translator: default_translator(),
            apy_url: None,
            translate_timeout_secs: default_translate_timeout(),
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
    /// Read and validate the file against the known adapters.
    pub fn load(path: &Path, adapters: &[&dyn Adapter]) -> Result<Config> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the config {} (pass --config PATH, or run from the project folder)", path.display()))?;
        let config: Config = toml::from_str(&text).with_context(|| format!("{} is not a valid sources.toml", path.display()))?;
        config.validate(adapters).with_context(|| format!("in {}", path.display()))?;
        Ok(config)
    }

    pub fn validate(&self, adapters: &[&dyn Adapter]) -> Result<()> {
        for (id, row) in &self.sources {
            let Some(a) = adapters.iter().find(|a| a.manifest().id == id) else {
                let known: Vec<&str> = adapters.iter().map(|a| a.manifest().id).collect();
                bail!("[sources.{id}] names no known adapter; known: {}", known.join(", "));
            };
            let min = a.manifest().min_delay;
            if let Some(secs) = row.min_delay_secs
                && (!(secs.is_finite() && secs >= 0.0) || Duration::from_secs_f64(secs) < min)
            {
                bail!(
                    "[sources.{id}] min_delay_secs = {secs} is faster than the adapter's minimum of {} s; config can only make a source slower (P9)",
                    min.as_secs_f64()
                );
            }
            if let Some(share) = row.max_withdraw_share {
                let ceiling = crate::store::ingest::WithdrawGuard::CEILING;
                if !(share > 0.0 && share <= ceiling) {
                    bail!(
                        "[sources.{id}] max_withdraw_share = {share}: give a share above 0 and at most {ceiling} (default {}); \
                         a feed that takes away more than half of a source at once is treated as broken (P20)",
                        crate::store::ingest::WithdrawGuard::DEFAULT_SHARE
                    );
                }
            }
            if let Some(h) = &row.hours {
                parse_hours(h).with_context(|| format!("[sources.{id}] hours"))?;
            }
            validate_citation(id, row)?;
        }
        for l in &self.settings.languages {
            if !crate::model::DISPLAY_LANGS.contains(&l.as_str()) {
                bail!("[settings] languages: {l:?} is not one of {}", crate::model::DISPLAY_LANGS.join(", "));
            }
        }
        if !["apertium", "apy", "none"].contains(&self.settings.translator.as_str()) {
            bail!("[settings] translator = {:?}: use apertium, apy or none", self.settings.translator);
        }
        if self.settings.translator == "apy" && self.settings.apy_url.is_none() {
            bail!("[settings] translator = \"apy\" needs apy_url = \"http://HOST:PORT\"");
        }
        Ok(())
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
    pub fn withdraw_guard(&self, id: &str) -> crate::store::ingest::WithdrawGuard {
        let mut guard = crate::store::ingest::WithdrawGuard::default();
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

    /// The delay to keep for a source: the adapter's, or slower from config.
    pub fn delay_for(&self, adapter: &dyn Adapter) -> Duration {
        let m = adapter.manifest();
        let configured = self.sources.get(m.id).and_then(|r| r.min_delay_secs).map(Duration::from_secs_f64);
        configured.map_or(m.min_delay, |c| c.max(m.min_delay))
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

/// `"01:00-06:00"` → minutes since midnight (start, end); a window may wrap midnight.
pub fn parse_hours(s: &str) -> Result<(u32, u32)> {
    let (a, b) = s.split_once('-').context("expected HH:MM-HH:MM")?;
    let m = |t: &str| -> Result<u32> {
        let time = crate::parse::dates::parse_time(t).with_context(|| format!("{t:?} is not HH:MM"))?;
        Ok(time.hour() as u32 * 60 + time.minute() as u32)
    };
    Ok((m(a)?, m(b)?))
}

/// Whether `minute` (since midnight) falls in the window.
pub fn in_window((start, end): (u32, u32), minute: u32) -> bool {
    if start <= end { (start..end).contains(&minute) } else { minute >= start || minute < end }
}

/// The current minute of the day in Europe/Madrid.
pub fn madrid_minute_now() -> u32 {
    let now = jiff::Timestamp::now().in_tz(crate::model::TZ_MADRID).ok();
    now.map(|n| n.hour() as u32 * 60 + n.minute() as u32).unwrap_or(0)
}

/// Switch a source on or off in place, keeping every comment, blank line and
/// key order of the file (P16). Writes the reason and the date when off.
pub fn set_enabled(path: &Path, id: &str, enabled: bool, reason: Option<&str>) -> Result<()> {
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
        let today = jiff::Timestamp::now().in_tz(crate::model::TZ_MADRID).map(|z| z.date().to_string()).unwrap_or_default();
        row["disabled_on"] = toml_edit::value(today);
    }
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, doc.to_string()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_window_wraps_midnight() {
        let w = parse_hours("22:00-02:00").unwrap();
        assert!(in_window(w, 23 * 60));
        assert!(in_window(w, 60));
        assert!(!in_window(w, 12 * 60));
        assert!(parse_hours("25:00-02:00").is_err());
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

    // P19, issue 12 item 8: citation overrides are checked, each with a clear error.
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
}
