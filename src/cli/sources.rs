//! The command line of the commands that look after the sources and
//! their adapters: `source …` (list, show, switch off and on, release a
//! host, history, the "Fuentes de datos" page) and `adapter …` (check a
//! sample offline, scaffold a new adapter).
//!
//! Not for what they do (`commands::source`, `commands::adapter`), nor for
//! the other commands (`cli`).

use super::values::Known;
use crate::lang::Lang;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum SourceCommand {
    /// Every source, with its switch, host, delay and last status.
    List {
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// One source, with what the fetch log proves of our manners (P17).
    Show(SourceShowArgs),
    /// Switch a source off in sources.toml (P16).
    Disable(SourceDisableArgs),
    /// Switch a source back on (and show again the events `disable --withdraw` withheld).
    Enable {
        /// The source id (see `source list`).
        #[arg(value_parser = Known::sources())]
        id: String,
    },
    /// Lift a source's host's hold in the host ledger (a Retry-After of over
    /// a year, P10), or bring times ahead of the clock back to now.
    Release {
        /// The source id, or its host (`folder:HOST` for a folder mirror's books).
        target: String,
    },
    /// Every disable, enable and withdraw of a source, with its time and reason.
    History(SourceHistoryArgs),
    /// The "Fuentes de datos" page: publisher, dataset, licence, attribution, schedule, delay (P19).
    Export(SourcesExportArgs),
}

// `cityvibe source export`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct SourcesExportArgs {
    /// md (Markdown), html (a standalone page) or json.
    #[arg(long, value_enum, default_value = "md")]
    pub format: SourcesFormat,
    /// The page's language: es, ca, gl, en, fr, it or pt.
    #[arg(long, value_name = "xx", default_value = "es", value_enum)]
    pub lang: Lang,
}

// `cityvibe source history`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct SourceHistoryArgs {
    /// The source id (see `source list`).
    #[arg(value_parser = Known::sources())]
    pub id: String,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

// `cityvibe source disable`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct SourceDisableArgs {
    /// The source id (see `source list`).
    #[arg(value_parser = Known::sources())]
    pub id: String,
    /// Why (written down with the change).
    #[arg(long)]
    pub reason: String,
    /// Also withhold its stored events from every list and export (kept
    /// for `holdings`; `source enable` brings them back).
    #[arg(long)]
    pub withdraw: bool,
}

// `cityvibe source show`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct SourceShowArgs {
    /// The source id (see `source list`).
    #[arg(value_parser = Known::sources())]
    pub id: String,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// What `sources export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SourcesFormat {
    Md,
    Html,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum AdapterCommand {
    /// Parse a sample file offline and report events, errors, field coverage and PII.
    Check(AdapterCheckArgs),
    /// Write adapters/ID.rs, its registry entry, a disabled sources.toml row and a sample.
    New(AdapterNewArgs),
}

// `cityvibe adapter new`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct AdapterNewArgs {
    /// The new adapter's id: lower case letters, digits and `_`.
    pub id: String,
    /// The host the feeds live on, e.g. datos.example.es.
    #[arg(long)]
    pub host: String,
    /// json, xml or csv.
    #[arg(long, default_value = "json")]
    pub format: String,
    /// The crate to write into.
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub root: PathBuf,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

// `cityvibe adapter check`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct AdapterCheckArgs {
    /// The adapter id (see `source list`).
    #[arg(value_parser = Known::sources())]
    pub id: String,
    /// The sample file (the feed whose format matches its extension is used, else the first).
    #[arg(long, value_name = "FILE")]
    pub sample: PathBuf,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// How many events to print.
    #[arg(long, default_value_t = 5)]
    pub limit: usize,
}
