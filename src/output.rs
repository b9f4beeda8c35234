//! The one way commands speak (issue 13): what goes to stdout, how times
//! look, and which exit status a result becomes. Not for progress bars or
//! per-problem stderr lines (those stay with the command that knows them).
//!
//! A command:
//! - returns `anyhow::Result<Exit>`; a usage or configuration mistake is
//!   `Err(output::usage("…"))` (or `bail_usage!("…")`), anything else that
//!   fails is an internal or I/O failure (exit 4);
//! - prints a table with [`Table`] (`Table::new(&["id", "when"])`, `.row(..)`,
//!   `.print()?`), free text with `outln!("…")?`, JSON with [`json`];
//!   every stdout write returns `io::Result`: pass it on with `?` and a closed
//!   pipe (`cityvibe events list | head -1`) ends the command quietly with
//!   exit 0, as ripgrep does;
//! - shows a time stored as ms since the epoch with [`time`] in tables (the
//!   zone of `TZ`, else the machine's, its abbreviation shown) and serializes
//!   it with `#[serde(serialize_with = "output::rfc3339")]` (or
//!   [`rfc3339_opt`]) in JSON: RFC 3339 with its offset, never epoch ms.
//!
//! `main` turns the result into a process exit code in one place, [`finish`].
//!
//! Verbosity (`-v`, or `CITYVIBE_LOG=info|debug`) is set once by `main` with
//! [`set_verbosity`]; at 1 or more every request sent is told on stderr by
//! [`request_line`] (time, host, URL, status, bytes, ms: no contact data).

use serde::Serializer;
use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};

static VERBOSITY: AtomicU8 = AtomicU8::new(0);

/// 0 quiet (cron), 1 one line per request, 2 more. `CITYVIBE_LOG` (`info`
/// = 1, `debug` = 2) counts when no `-v` was given.
pub fn set_verbosity(flags: u8) {
    let env = match std::env::var("CITYVIBE_LOG").unwrap_or_default().to_ascii_lowercase().as_str() {
        "debug" | "trace" => 2,
        "info" => 1,
        _ => 0,
    };
    VERBOSITY.store(flags.max(env), Ordering::Relaxed);
}

pub fn verbosity() -> u8 {
    VERBOSITY.load(Ordering::Relaxed)
}

static WAITING_FOR: std::sync::Mutex<(String, i64)> = std::sync::Mutex::new((String::new(), 0));

/// The scheduler says which host the run waits for next and for how long (ms).
pub fn set_waiting_for(host: &str, ms: i64) {
    if let Ok(mut w) = WAITING_FOR.lock() {
        *w = (host.to_string(), ms);
    }
}

/// What a progress spinner shows: the host the run waits for, and for how long.
pub fn waiting_for() -> Option<(String, i64)> {
    WAITING_FOR.lock().ok().map(|w| w.clone()).filter(|(h, _)| !h.is_empty())
}

/// At `-v`: one stderr line per request sent, as a crawler's log has it.
pub fn request_line(r: &crate::store::fetchlog::FetchRecord) {
    if verbosity() == 0 {
        return;
    }
    eprintln!(
        "{} {} GET {} {} {} bytes {} ms{}",
        rfc3339_string(r.started_ms),
        r.host,
        r.url,
        r.status.map_or("-".to_string(), |s| s.to_string()),
        r.bytes,
        r.duration_ms,
        if r.conditional { " (conditional)" } else { "" }
    );
}

/// What a command's exit status means: one meaning per code (README's table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// All went well.
    Ok,
    /// At least one source failed, was refused or looked broken; for `audit`, drift.
    SourceProblem,
    /// A usage or configuration mistake: the message says what to fix.
    Usage,
    /// Another run holds the lock; nothing was fetched.
    Locked,
    /// An internal, database or I/O failure (a bug, a full disk, a broken file).
    Internal,
    /// A run stopped before its end: its deadline passed, or a signal asked
    /// it to stop (issue 19). What it stored is kept.
    Interrupted,
}

impl Exit {
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::SourceProblem => 1,
            Exit::Usage => 2,
            Exit::Locked => 3,
            Exit::Internal => 4,
            Exit::Interrupted => 5,
        }
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code())
    }
}

/// A mistake the user fixes by changing the command line or the config (exit 2).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for UsageError {}

/// A usage or configuration error (exit 2) with this message.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    UsageError(msg.into()).into()
}

/// Mark any error as a usage or configuration error (exit 2), keeping its chain:
/// `Config::load(..).map_err(output::as_usage)?`.
pub fn as_usage(e: anyhow::Error) -> anyhow::Error {
    UsageError(format!("{e:#}")).into()
}

/// `return Err(usage(format!(…)))`.
#[macro_export]
macro_rules! bail_usage {
    ($($t:tt)*) => { return Err($crate::output::usage(format!($($t)*))) };
}

/// `writeln!` to stdout; gives `io::Result<()>` to pass on with `?`.
#[macro_export]
macro_rules! outln {
    () => {{ use std::io::Write as _; writeln!(std::io::stdout().lock()) }};
    ($($t:tt)*) => {{ use std::io::Write as _; writeln!(std::io::stdout().lock(), $($t)*) }};
}

/// Whether an error is stdout closed under us (`| head`): not a failure.
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// The exit status an error means.
pub fn exit_for(e: &anyhow::Error) -> Exit {
    if is_closed_pipe(e) {
        Exit::Ok
    } else if e.chain().any(|c| c.is::<UsageError>()) {
        Exit::Usage
    } else if e.chain().any(|c| c.is::<crate::ingest::Locked>()) {
        Exit::Locked
    } else {
        Exit::Internal
    }
}

/// The one place a command's result becomes the process's exit code; an
/// error is told on stderr in one line (nothing for a closed pipe).
pub fn finish(result: anyhow::Result<Exit>) -> std::process::ExitCode {
    match result {
        Ok(e) => e.into(),
        Err(e) => {
            let exit = exit_for(&e);
            if exit != Exit::Ok {
                eprintln!("cityvibe: {e:#}");
            }
            exit.into()
        }
    }
}

/// [`finish`] for a command asked for `--json`: a failure is also a JSON
/// object on stdout, `{"error": "…", "exit": N}`, beside its line on stderr
/// (issue 21 item 7: a held lock printed nothing on stdout).
pub fn finish_json(result: anyhow::Result<Exit>) -> std::process::ExitCode {
    if let Err(e) = &result {
        let exit = exit_for(e);
        if exit != Exit::Ok {
            let _ = json(&serde_json::json!({ "error": format!("{e:#}"), "exit": exit.code() }));
        }
    }
    finish(result)
}

/// Print a value as pretty JSON on stdout.
pub fn json<T: serde::Serialize + ?Sized>(v: &T) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(v)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

/// The zone tables show times in: `TZ`, else the machine's zone.
pub fn display_zone() -> jiff::tz::TimeZone {
    jiff::tz::TimeZone::system()
}

/// A time stored as ms since the epoch, for a table: `2026-05-01 18:30 CEST`
/// in [`display_zone`]; `-` when unknown.
pub fn time(ms: Option<i64>) -> String {
    ms.and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok())
        .map(|t| t.to_zoned_datetime(display_zone()).strftime("%Y-%m-%d %H:%M %Z").to_string())
        .unwrap_or_else(|| "-".into())
}

/// ms since the epoch as RFC 3339 with its offset (UTC): `2026-05-01T16:30:00.123Z`.
pub fn rfc3339_string(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms).map(|t| t.to_string()).unwrap_or_else(|_| ms.to_string())
}

/// serde: ms since the epoch written as RFC 3339.
pub fn rfc3339<S: Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&rfc3339_string(*ms))
}

/// serde: optional ms since the epoch written as RFC 3339 (or null).
pub fn rfc3339_opt<S: Serializer>(ms: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
    match ms {
        Some(ms) => s.serialize_str(&rfc3339_string(*ms)),
        None => s.serialize_none(),
    }
}

/// A table for a terminal or a pipe: columns line up whatever the cell
/// widths; on a terminal, long cells wrap to the window instead of spilling.
pub struct Table {
    inner: comfy_table::Table,
}

impl Table {
    pub fn new(header: &[&str]) -> Table {
        let mut inner = comfy_table::Table::new();
        inner.load_style(comfy_table::presets::NOTHING).set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
        // A terminal that reports no width (a pty nobody sized: `script`,
        // `expect`, some CI runners) would wrap every cell to one character
        // a line: line up the columns as for a pipe instead.
        if inner.width() == Some(0) {
            inner.force_no_tty();
        }
        inner.set_header(header.iter().copied());
        // Two spaces between columns and none before the first.
        for c in inner.column_iter_mut() {
            c.set_padding((0, 2));
        }
        Table { inner }
    }

    /// Right-align the columns at these indexes (numbers).
    pub fn right(mut self, columns: &[usize]) -> Table {
        for &i in columns {
            if let Some(c) = self.inner.column_mut(i) {
                c.set_cell_alignment(comfy_table::CellAlignment::Right);
            }
        }
        self
    }

    pub fn row<I, S>(&mut self, cells: I) -> &mut Table
    where
        I: IntoIterator<Item = S>,
        S: Into<comfy_table::Cell>,
    {
        self.inner.add_row(cells);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.inner.row_count() == 0
    }

    /// Write the table to stdout.
    pub fn print(&self) -> std::io::Result<()> {
        let mut out = std::io::stdout().lock();
        for line in self.inner.lines() {
            writeln!(out, "{}", line.trim_end())?;
        }
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_map_to_one_exit_each() {
        assert_eq!(exit_for(&usage("bad flag")), Exit::Usage);
        assert_eq!(exit_for(&anyhow::anyhow!("disk full")), Exit::Internal);
        let pipe: anyhow::Error = std::io::Error::from(std::io::ErrorKind::BrokenPipe).into();
        assert_eq!(exit_for(&pipe.context("writing")), Exit::Ok);
        assert_eq!(exit_for(&as_usage(anyhow::anyhow!("sources.toml line 3"))), Exit::Usage);
    }

    #[test]
    fn json_times_are_rfc3339() {
        assert_eq!(rfc3339_string(0), "1970-01-01T00:00:00Z");
    }
}
