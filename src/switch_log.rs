//! A source's switch history: every `source disable`, `enable` and
//! `--withdraw`, and every switch `audit --disable-blocked` makes, with its
//! time and reason, in a log beside sources.toml (`sources.history.jsonl`, one
//! JSON object a line, only ever appended). Written only by the switch use case
//! (`operate::switch`), read by `source history`.
//!
//! sources.toml holds the switch as it is now (a second disable overwrites
//! the reason there, and `enable` removes it); this log keeps who switched
//! a source and why, in order. Not for runs or fetches: those are in the
//! database.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What was done to a source's switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Disable,
    Enable,
    /// Its stored events withheld from every list and export.
    Withdraw,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Disable => "disable",
            Action::Enable => "enable",
            Action::Withdraw => "withdraw",
        }
    }
}

/// One line of the log.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Switch {
    /// RFC 3339, UTC.
    pub at: String,
    pub source: String,
    pub action: Action,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The log beside the config file `config`.
pub fn path_beside(config: &Path) -> PathBuf {
    config.with_file_name("sources.history.jsonl")
}

/// Append one switch, made at `now_ms` (the caller's clock), to the log
/// beside `config`; a reason is scrubbed of contact data first (P5).
pub fn record(config: &Path, source: &str, action: Action, reason: Option<&str>, now_ms: i64) -> Result<()> {
    let at = jiff::Timestamp::from_millisecond(now_ms).and_then(|t| t.round(jiff::Unit::Second));
    let line = Switch {
        at: at.map(|t| t.to_string()).unwrap_or_default(),
        source: source.to_string(),
        action,
        reason: reason.map(crate::parse::pii::scrub),
    };
    let path = path_beside(config);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("opening the switch history {}", path.display()))?;
    writeln!(file, "{}", serde_json::to_string(&line)?).with_context(|| format!("writing the switch history {}", path.display()))
}

/// Every switch of `source` in the log beside `config`, oldest first (none when
/// there is no log yet), and the lines that could not be read, each named by
/// its number, so that one bad line never stops the whole history. A file
/// edited by hand may hold anything: the texts read carry no control bytes, so
/// printing them cannot drive the terminal.
pub fn of(config: &Path, source: &str) -> Result<(Vec<Switch>, Vec<String>)> {
    let path = path_beside(config);
    let bytes = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(e) => return Err(e).with_context(|| format!("reading the switch history {}", path.display())),
    };
    let clean = |t: &str| crate::parse::controls::without_controls(t).into_owned();
    let (mut out, mut skipped) = (Vec::new(), Vec::new());
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        let line = String::from_utf8_lossy(line);
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Switch>(&line) {
            Ok(s) if s.source == source => {
                out.push(Switch { at: clean(&s.at), source: clean(&s.source), reason: s.reason.map(|r| clean(&r)), ..s })
            }
            Ok(_) => {}
            // Named by place, never quoted: the line may hold anything.
            Err(e) => skipped.push(format!("{} line {}: not a switch record (column {}), skipped", path.display(), n + 1, e.column())),
        }
    }
    Ok((out, skipped))
}
