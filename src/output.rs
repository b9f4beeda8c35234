//! The one way commands speak: what goes to stdout, how times look, and which
//! exit status a result becomes. A printer above the domain: what an exit
//! status or a usage mistake *is* lives in the leaf `error`, how a time is
//! written in JSON in the leaf `times` (both re-exported here). Not for
//! progress bars or per-problem stderr lines (those stay with the command that
//! knows them).
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
//! - holds a time as a `jiff::Timestamp` (`times::at_ms` from the ms the
//!   store keeps), shows it with [`time`] in tables (the zone of `TZ`, else
//!   the machine's, its abbreviation shown), and lets jiff serialize it in
//!   JSON: RFC 3339 with its offset, never epoch ms.
//!
//! `main` turns the result into a process exit code in one place, [`finish`].
//!
//! Verbosity (`-v`, or `CITYVIBE_LOG=info|debug`) is read with
//! [`verbosity`] by the commands that fetch; at 1 or more every request sent
//! is told on stderr (`commands::progress`: time, host, URL, status, bytes, ms;
//! no contact data).

use std::io::Write;

// The error vocabulary lives in a leaf below the domain (`error`); its old
// paths here keep resolving.
pub use crate::error::{Exit, UsageError, as_usage, exit_for, is_closed_pipe, usage};

/// The verbosity a command runs at: 0 quiet (cron), 1 one line per
/// request, 2 more. `CITYVIBE_LOG` (`info` = 1, `debug` = 2) counts when
/// no `-v` was given.
pub fn verbosity(flags: u8) -> u8 {
    let env = match std::env::var("CITYVIBE_LOG").unwrap_or_default().to_ascii_lowercase().as_str() {
        "debug" | "trace" => 2,
        "info" => 1,
        _ => 0,
    };
    flags.max(env)
}

/// `writeln!` to stdout; gives `io::Result<()>` to pass on with `?`.
#[macro_export]
macro_rules! outln {
    () => {{ use std::io::Write as _; writeln!(std::io::stdout().lock()) }};
    ($($t:tt)*) => {{ use std::io::Write as _; writeln!(std::io::stdout().lock(), $($t)*) }};
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

/// [`finish`] for a command asked for `--json`: a failure is also a JSON object
/// on stdout, `{"error": "…", "exit": N}`, beside its line on stderr, so that
/// a failure such as a held lock never leaves stdout empty.
pub fn finish_json(result: anyhow::Result<Exit>) -> std::process::ExitCode {
    /// A failure as `--json` prints it.
    #[derive(serde::Serialize)]
    struct Failure {
        error: String,
        exit: u8,
    }
    if let Err(e) = &result {
        let exit = exit_for(e);
        if exit != Exit::Ok {
            let _ = json(&Failure { error: format!("{e:#}"), exit: exit.code() });
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

/// A time for a table: `2026-05-01 18:30 CEST` in [`display_zone`]; `-`
/// when unknown.
pub fn time(t: Option<jiff::Timestamp>) -> String {
    t.map(|t| t.to_zoned_datetime(display_zone()).strftime("%Y-%m-%d %H:%M %Z").to_string()).unwrap_or_else(|| "-".into())
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
