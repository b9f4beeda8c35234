//! What a failure means, for every layer: the exit statuses a command ends
//! with, the usage error (exit 2) and its helpers, the run lock's refusal
//! (exit 3), the system's refusal of a thread or a process ([`Refused`], exit
//! 6), and [`exit_for`], which maps an error to its status. A leaf:
//! it names no other module of the crate, so the store, the config and the
//! polite client can say "usage mistake" without reaching up to the printer.
//!
//! Not for printing: `output` prints results and turns the status into the
//! process's exit code (`output::finish`).

use std::path::PathBuf;

/// What a command's exit status means: one meaning per code (docs/OPERATING.md, "Exit codes").
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
    /// A run stopped before its end: its deadline passed, or a signal asked it
    /// to stop. What it stored is kept.
    Interrupted,
    /// The system refused a thread or a process (an address-space, task or
    /// cgroup limit): the message names the limit. What was stored is kept;
    /// the next run, given room, finishes the rest.
    Refused,
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
            Exit::Refused => 6,
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
/// `Config::load(..).map_err(error::as_usage)?`.
pub fn as_usage(e: anyhow::Error) -> anyhow::Error {
    UsageError(format!("{e:#}")).into()
}

/// `return Err(usage(format!(…)))`.
#[macro_export]
macro_rules! bail_usage {
    ($($t:tt)*) => { return Err($crate::error::usage(format!($($t)*))) };
}

/// The run lock of a database is held by another process (exit 3).
#[derive(Debug)]
pub struct Locked(pub PathBuf);

impl std::fmt::Display for Locked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "another cityvibe run holds {}; this run made no request and stops", self.0.display())
    }
}
impl std::error::Error for Locked {}

/// The system refused to start a thread or a process (exit 6): `what` was
/// being started, `error` is the system's answer, `limits` the limits in
/// force that may be why (read by `spawn`, which makes every such error).
#[derive(Debug)]
pub struct Refused {
    pub what: String,
    pub error: std::io::Error,
    pub limits: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the system refused {} ({}): a limit on this process is reached ({}); raise it (ulimit -v / -u, \
             systemd MemoryMax= / TasksMax=, the cgroup's memory.max / pids.max) or run with fewer other processes; \
             what was stored is kept and the next run finishes the rest",
            self.what, self.error, self.limits
        )
    }
}
impl std::error::Error for Refused {}

impl Refused {
    /// The same refusal once more (for each of the texts it stopped; an
    /// `io::Error` cannot be cloned).
    pub fn again(&self) -> Refused {
        let error = match self.error.raw_os_error() {
            Some(code) => std::io::Error::from_raw_os_error(code),
            None => std::io::Error::new(self.error.kind(), self.error.to_string()),
        };
        Refused { what: self.what.clone(), error, limits: self.limits.clone() }
    }
}

/// Whether the system refused a thread or a process somewhere in `e`'s chain.
pub fn is_refused(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<Refused>())
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
    } else if e.chain().any(|c| c.is::<Locked>()) {
        Exit::Locked
    } else if is_refused(e) {
        Exit::Refused
    } else {
        Exit::Internal
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
        assert_eq!(exit_for(&anyhow::Error::new(Locked("x.db".into())).context("run")), Exit::Locked);
    }
}
