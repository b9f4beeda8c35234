//! Thin: parse flags, call the library, map the result to an exit code.

use cityvibe::cli::{AdapterCommand, Cli, Command, EventsCommand, SourceCommand, TakedownCommand};
use cityvibe::commands;
use cityvibe::output::{self, Exit};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::parse_with_env() {
        Ok(c) => c,
        Err(e) => {
            if e.use_stderr() {
                // Nowhere left to say that stderr failed.
                let _ = e.print();
                return Exit::Usage.into();
            }
            // `--help`, `--version` on stdout: a closed pipe ends quietly, any
            // other failure to write is said.
            return output::finish(e.print().map(|()| Exit::Ok).map_err(|io| anyhow::Error::new(io).context("writing to stdout")));
        }
    };
    let result = cli.named_config_exists().and_then(|()| match &cli.command {
        Command::Run(args) => commands::run::execute(&cli, args),
        Command::Doctor { json } => commands::doctor::execute(&cli, *json),
        Command::Events { command: EventsCommand::List(args) } => commands::events::list(&cli, args),
        Command::Events { command: EventsCommand::Show(args) } => commands::events::show(&cli, args),
        Command::Events { command: EventsCommand::Correct(args) } => commands::correct::execute(&cli, args),
        Command::Translate(args) => commands::translate::execute(&cli, args),
        Command::Source { command } => match command {
            SourceCommand::List { json } => commands::source::list(&cli, *json),
            SourceCommand::Show(args) => commands::source::show(&cli, args),
            SourceCommand::Disable(args) => commands::source::disable(&cli, args),
            SourceCommand::Enable { id } => commands::source::enable(&cli, id),
            SourceCommand::Release { target } => commands::source::release(&cli, target),
            SourceCommand::History(args) => commands::source::history(&cli, args),
            SourceCommand::Export(args) => commands::sources_export::execute(&cli, args),
        },
        Command::Adapter { command } => match command {
            AdapterCommand::Check(args) => commands::adapter::check(args),
            AdapterCommand::New(args) => commands::adapter::new(args),
        },
        Command::Runs(args) => commands::runs::list(&cli, args),
        Command::Holdings(args) => commands::holdings::show(&cli, args),
        Command::Export(args) => commands::export::execute(&cli, args),
        Command::Audit(args) => commands::audit::execute(&cli, args),
        Command::Completions { shell } => commands::completions::execute(*shell),
        Command::Report(args) => commands::report::execute(&cli, args),
        Command::Takedown { command } => match command {
            TakedownCommand::Add(args) => commands::takedown::add(&cli, args),
            TakedownCommand::List { json } => commands::takedown::list(&cli, *json),
            TakedownCommand::Remove { id } => commands::takedown::remove(&cli, *id),
        },
    });
    if cli.command.wants_json() { output::finish_json(result) } else { output::finish(result) }
}
