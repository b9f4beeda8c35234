//! The values the command line's options take: the formats of `export`,
//! the texts `translate export` writes, the shells of `completions`, and
//! the known source ids (offered by completion and `--help`, checked by
//! the command itself).
//!
//! Not for the commands and their options (`cli`, `cli::sources`).

use clap::builder::{PossibleValue, TypedValueParser};

/// Which texts `translate export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExchangeOnly {
    Machine,
    Missing,
}

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    Json,
    Csv,
    Ics,
    Jsonld,
}

/// Shells `completions` writes for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

/// A word from a known list, offered by shell completion and `--help` but
/// checked by the command itself, so a mistyped source id gets the one "unknown
/// source" message that names the known ones.
#[derive(Clone)]
pub struct Known(fn() -> Vec<&'static str>);

impl Known {
    /// The adapters' ids.
    pub fn sources() -> Known {
        Known(crate::adapters::ids)
    }
}

impl TypedValueParser for Known {
    type Value = String;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &std::ffi::OsStr) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter().map(PossibleValue::new)))
    }
}
