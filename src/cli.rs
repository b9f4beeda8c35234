//! The command line (clap derive): the global options, every command, and
//! the options of each; those of `source …` and `adapter …` stand in
//! `cli::sources`, the values options take in `cli::values`. The help text
//! is the doc comments; docs/OPERATING.md's command reference is made from
//! it (`make docs`).
//!
//! Not for what a command does (`commands`).

use crate::lang::Lang;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

mod sources;
mod values;
pub use sources::{
    AdapterCheckArgs, AdapterCommand, AdapterNewArgs, SourceCommand, SourceDisableArgs, SourceHistoryArgs, SourceShowArgs,
    SourcesExportArgs, SourcesFormat,
};
pub use values::{CompletionShell, ExchangeOnly, ExportFormat, Known};

#[derive(Debug, Parser)]
#[command(name = "cityvibe", version, about = "CityVibe's polite collector of Spanish cultural-event open data")]
pub struct Cli {
    /// The SQLite database [env: CITYVIBE_DB].
    #[arg(long, global = true, help_heading = "Global options", default_value = "data/cityvibe.db")]
    pub db: PathBuf,
    /// The operator's switchboard [env: CITYVIBE_CONFIG].
    #[arg(long, global = true, help_heading = "Global options", default_value = "sources.toml")]
    pub config: PathBuf,
    /// Whether `config` was named (`--config` or `CITYVIBE_CONFIG`), not the default.
    #[arg(skip)]
    pub config_named: bool,
    /// Send requests for https://HOST/PATH to DIR/HOST/PATH or URL/HOST/PATH instead;
    /// every politeness rule still applies as if to HOST.
    #[arg(long, global = true, help_heading = "Global options", value_name = "DIR|URL")]
    pub mirror: Option<String>,
    /// A private host ledger, for --mirror runs only; requests to real hosts are
    /// always booked in the system ledger, /var/lib/cityvibe [env: CITYVIBE_STATE_DIR]
    /// [--mirror default: $XDG_STATE_HOME/cityvibe, else ~/.local/state/cityvibe].
    #[arg(long, global = true, help_heading = "Global options", value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Say more on stderr: -v one line per request sent (time, host, URL,
    /// status, bytes, ms); also CITYVIBE_LOG=info|debug.
    #[arg(short, long, global = true, help_heading = "Global options", action = clap::ArgAction::Count)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Fetch, parse and store every enabled source (what cron runs).
    Run(RunArgs),
    /// Translate what changed into the display languages (what `run` does after storing);
    /// correct a translation, or exchange translations with translators' tools.
    Translate(TranslateArgs),
    /// Stored events.
    Events {
        #[command(subcommand)]
        command: EventsCommand,
    },
    /// The sources: list, show, enable, disable, export the "Fuentes de datos" page.
    #[command(visible_alias = "sources")]
    Source {
        #[command(subcommand)]
        command: SourceCommand,
    },
    /// Tools for writing an adapter: check a sample offline, scaffold a new one.
    Adapter {
        #[command(subcommand)]
        command: AdapterCommand,
    },
    /// What the last runs did, per source: status, requests, 304s, changes, duration.
    Runs(RunsArgs),
    /// What we hold of a host's or source's data and how we fetched it (P17).
    Holdings(HoldingsArgs),
    /// Current events (not ended; with --from, those lasting until that day) as json, csv,
    /// ics (RFC 5545) or jsonld (schema.org), with licence and attribution (P19).
    Export(ExportArgs),
    /// Print a shell completion script: `cityvibe completions bash > /etc/bash_completion.d/cityvibe`.
    Completions {
        /// The shell to write the script for.
        #[arg(value_enum)]
        shell: CompletionShell,
    },
    /// The reviewer's aid (P14): fetch each host's robots.txt, tdmrep.json and ai.txt
    /// politely and report what no longer matches the adapter's review.
    Audit(AuditArgs),
    /// Check what a run needs: config, database, run lock, translation engine
    /// and pairs, host ledger. Fetches nothing, creates nothing.
    Doctor {
        /// Print the checks as JSON: `{"checks": [{"what", "verdict", "detail"}], "exit"}`.
        #[arg(long)]
        json: bool,
    },
    /// Write the status report and each host's transparency page: static
    /// HTML and CSS with inline SVG charts, no script, nothing from elsewhere.
    Report(ReportArgs),
    /// Take an event down at once and keep it from coming back (P18).
    Takedown {
        #[command(subcommand)]
        command: TakedownCommand,
    },
}

// `cityvibe holdings`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct HoldingsArgs {
    /// A source id, a host (e.g. datos.madrid.es) or a URL on it.
    #[arg(value_name = "HOST|SOURCE_ID")]
    pub query: String,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

// `cityvibe runs`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct RunsArgs {
    /// How many runs, newest first.
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

// `cityvibe translate`'s options and its subcommands (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct TranslateArgs {
    #[command(subcommand)]
    pub command: Option<TranslateCommand>,
    /// Only events of this source (repeatable).
    #[arg(long = "source", value_name = "ID", value_parser = Known::sources())]
    pub sources: Vec<String>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

// `cityvibe report`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The folder to write into (index.html, runs.html, hosts/).
    #[arg(long, value_name = "DIR")]
    pub out: std::path::PathBuf,
    /// How many days back the pages cover.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=366))]
    pub days: u32,
    /// The language of the operator's page (host pages are in all seven).
    #[arg(long, value_name = "xx", default_value = "es", value_enum)]
    pub lang: Lang,
    /// Print what was written as JSON.
    #[arg(long)]
    pub json: bool,
}

// `cityvibe audit`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// Only this source (repeatable); a named source is audited even when switched off.
    #[arg(long = "source", value_name = "ID", value_parser = Known::sources())]
    pub sources: Vec<String>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Switch off (in sources.toml) every source now disallowed or reserved.
    #[arg(long)]
    pub disable_blocked: bool,
}

// `cityvibe export`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// json, csv, ics (RFC 5545) or jsonld (schema.org).
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Show titles and descriptions in this language where a translation is stored.
    #[arg(long, value_name = "xx", value_enum)]
    pub lang: Option<Lang>,
    /// Only these sources (repeatable).
    #[arg(long = "source", value_name = "ID", value_parser = Known::sources())]
    pub sources: Vec<String>,
    /// Only events that last until this day or later (YYYY-MM-DD). Without it,
    /// only current events: those not ended now, as `events list` shows them.
    #[arg(long, value_name = "DATE")]
    pub from: Option<String>,
    /// Only events that begin on this day or earlier (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub to: Option<String>,
    /// CSV only: start with a UTF-8 byte-order mark, for spreadsheet programs.
    #[arg(long)]
    pub bom: bool,
}

// `cityvibe run`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Only this source (repeatable).
    #[arg(long = "source", value_name = "ID", value_parser = Known::sources())]
    pub sources: Vec<String>,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print nothing but problems (on stderr).
    #[arg(long)]
    pub quiet: bool,
    /// Store originals only; translate later with `cityvibe translate`.
    #[arg(long)]
    pub no_translate: bool,
    /// An operator's manual run: fetch sources even within their period
    /// (every delay, window and cap still holds).
    #[arg(long)]
    pub force: bool,
    /// Say what would be fetched (sources, feed URLs, delays) and what would
    /// not and why; send no request, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Subcommand)]
pub enum TranslateCommand {
    /// Store a human translation of an event's current text; it wins for
    /// every event with the same original, until that original changes.
    Correct {
        /// SOURCE:ID of the event.
        id: String,
        /// The language of the translation (ca, gl, en, fr, it, pt).
        #[arg(long, value_enum)]
        lang: Lang,
        /// The translated title.
        #[arg(long)]
        title: Option<String>,
        /// The translated description.
        #[arg(long)]
        description: Option<String>,
    },
    /// Write the current originals and their translations into one language
    /// as a PO or XLIFF file, for Weblate, Pontoon or Poedit.
    Export {
        /// The language to write (ca, gl, en, fr, it, pt).
        #[arg(long, value_enum)]
        lang: Lang,
        /// po or xliff.
        #[arg(long, value_enum)]
        format: crate::translate::exchange::Format,
        /// Only events of this source (repeatable).
        #[arg(long = "source", value_name = "ID", value_parser = Known::sources())]
        sources: Vec<String>,
        /// Only texts whose translation is a machine's, or is missing.
        #[arg(long, value_enum)]
        only: Option<ExchangeOnly>,
    },
    /// Per display language: texts given by the publisher, by a human, by
    /// an engine, still pending; texts set aside; the engine and data version.
    Status {
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Read reviewed translations back from a PO or XLIFF file into the memory.
    Import {
        /// The reviewed PO or XLIFF file.
        file: std::path::PathBuf,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum EventsCommand {
    /// List active events: happening now or next first, by their next occurrence; ended ones with --all.
    List(EventsListArgs),
    /// Correct one field of a stored event until its feed changes that field
    /// (title, description, venue, address, price, url, start, end).
    Correct(CorrectArgs),
    /// One event, whole: SOURCE:ID, or an id that is unique.
    Show(EventsShowArgs),
}

// `cityvibe events show`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct EventsShowArgs {
    /// The event: SOURCE:ID, or a bare id that only one event has.
    pub id: String,
    /// Show titles and descriptions in this language (es, ca, gl, en, fr, it, pt).
    #[arg(long, value_name = "xx", value_enum)]
    pub lang: Option<Lang>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

// `cityvibe events correct`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct CorrectArgs {
    /// The event, as SOURCE:ID.
    #[arg(value_name = "SOURCE:ID")]
    pub event: String,
    /// title, description, venue, address, price, url, start or end.
    pub field: String,
    /// The value to show instead of the feed's (start/end: YYYY-MM-DDTHH:MM).
    #[arg(required_unless_present = "remove", conflicts_with = "remove")]
    pub value: Option<String>,
    /// Why (kept with the correction).
    #[arg(long, required_unless_present = "remove")]
    pub reason: Option<String>,
    /// Lift the correction of FIELD: the feed's value shows again.
    #[arg(long)]
    pub remove: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

// `cityvibe events list`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct EventsListArgs {
    /// Only this source (repeatable).
    #[arg(long = "source", value_name = "ID", value_parser = Known::sources())]
    pub sources: Vec<String>,
    /// How many events at most (1 or more).
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// Show titles and descriptions in this language (es, ca, gl, en, fr, it, pt).
    #[arg(long, value_name = "xx", value_enum)]
    pub lang: Option<Lang>,
    /// Also list events whose every occurrence is over (most recent first, after the rest).
    #[arg(long)]
    pub all: bool,
    /// List as a reader would see it at that moment (default: now): YYYY-MM-DD
    /// (start of that day) or YYYY-MM-DDTHH:MM in Europe/Madrid, or RFC 3339 with offset.
    #[arg(long, value_name = "DATE|DATETIME")]
    pub at: Option<String>,
    /// Print the events as one JSON array.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum TakedownCommand {
    /// Delete an event now and keep a tombstone so later runs skip it.
    Add(TakedownAddArgs),
    /// Every takedown.
    List {
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Lift a takedown (the event may come back when its feed next changes).
    Remove {
        /// The takedown's number (see `takedown list`).
        id: i64,
    },
}

// `cityvibe takedown add`'s options (a plain comment: a doc comment here would become its help text).
#[derive(Debug, clap::Args)]
pub struct TakedownAddArgs {
    /// The event's original URL, or SOURCE:ID, or a bare id if only one event has it.
    #[arg(value_name = "URL|EVENT_ID")]
    pub target: String,
    /// Why (kept with the takedown).
    #[arg(long)]
    pub reason: String,
    /// Record SOURCE:ID even though it names no stored event and does not look like that source's ids.
    #[arg(long)]
    pub force: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

impl Cli {
    /// Parse the command line, then take `CITYVIBE_DB`, `CITYVIBE_CONFIG` and
    /// `CITYVIBE_STATE_DIR` for an option not given on it. Done here, not with
    /// clap's `env`: clap counts an option the environment gives as one typed,
    /// and its usage line in errors then shows it as if required (`--state-dir <DIR>`
    /// under the systemd unit).
    pub fn parse_with_env() -> Result<Cli, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let matches = Cli::command().try_get_matches()?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        let typed = |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        let env = |var: &str| std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from);
        if !typed("db")
            && let Some(v) = env("CITYVIBE_DB")
        {
            cli.db = v;
        }
        cli.config_named = typed("config");
        if !typed("config")
            && let Some(v) = env("CITYVIBE_CONFIG")
        {
            cli.config = v;
            cli.config_named = true;
        }
        if !typed("state_dir")
            && let Some(v) = env("CITYVIBE_STATE_DIR")
        {
            cli.state_dir = Some(v);
        }
        Ok(cli)
    }
}

impl Cli {
    /// A config the operator named (`--config`, `CITYVIBE_CONFIG`) that is no
    /// file is a usage mistake for every command: a command that could go on
    /// without one (`events list`, `export`) would otherwise answer from
    /// another switchboard than the one asked for. The default `sources.toml`
    /// may be missing where a command needs none.
    pub fn named_config_exists(&self) -> anyhow::Result<()> {
        if self.config_named && !self.config.is_file() {
            crate::bail_usage!(
                "the config {} named by --config (or CITYVIBE_CONFIG) is no file; give the path of sources.toml, or leave the option out",
                self.config.display()
            );
        }
        Ok(())
    }
}

impl Command {
    /// Whether the command was asked for `--json`: a failure is then told as a
    /// JSON object on stdout too, so a script reading stdout is never left with
    /// nothing.
    pub fn wants_json(&self) -> bool {
        match self {
            Command::Run(RunArgs { json, .. })
            | Command::Runs(RunsArgs { json, .. })
            | Command::Holdings(HoldingsArgs { json, .. })
            | Command::Audit(AuditArgs { json, .. })
            | Command::Doctor { json } => *json,
            Command::Translate(TranslateArgs { command: Some(TranslateCommand::Import { json, .. }), .. }) => *json,
            Command::Translate(TranslateArgs { command: None, json, .. }) => *json,
            Command::Events {
                command:
                    EventsCommand::List(EventsListArgs { json, .. })
                    | EventsCommand::Show(EventsShowArgs { json, .. })
                    | EventsCommand::Correct(CorrectArgs { json, .. }),
            } => *json,
            Command::Source {
                command:
                    SourceCommand::List { json }
                    | SourceCommand::Show(SourceShowArgs { json, .. })
                    | SourceCommand::History(SourceHistoryArgs { json, .. }),
            } => *json,
            Command::Takedown { command: TakedownCommand::Add(TakedownAddArgs { json, .. }) | TakedownCommand::List { json } } => *json,
            Command::Adapter {
                command: AdapterCommand::Check(AdapterCheckArgs { json, .. }) | AdapterCommand::New(AdapterNewArgs { json, .. }),
            } => *json,
            _ => false,
        }
    }
}
