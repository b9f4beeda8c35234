//! `cityvibe completions bash|zsh|fish`: a shell completion script on stdout.

use super::exit;
use crate::cli::{Cli, CompletionShell};
use anyhow::Result;
use clap::CommandFactory;

/// The script for `shell`, as text.
pub fn script(shell: CompletionShell) -> String {
    let shell = match shell {
        CompletionShell::Bash => clap_complete::Shell::Bash,
        CompletionShell::Zsh => clap_complete::Shell::Zsh,
        CompletionShell::Fish => clap_complete::Shell::Fish,
    };
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "cityvibe", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

pub fn execute(shell: CompletionShell) -> Result<super::Exit> {
    use anyhow::Context;
    use std::io::Write;
    // A closed pipe ends it quietly (`output::finish`); any other failure to
    // write is said.
    std::io::stdout().lock().write_all(script(shell).as_bytes()).context("writing to stdout")?;
    Ok(exit::OK)
}
