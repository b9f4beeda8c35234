//! Starting a thread or a child process when the system may say no: under an
//! address-space limit (`ulimit -v`, `prlimit --as`), a task limit (`ulimit
//! -u`, systemd's `TasksMax=`, a cgroup's `pids.max`) a new thread or process
//! is refused, and `std::thread::spawn` would panic (exit 101, the run row left
//! open). Every thread and child of the crate starts here instead, and a
//! refusal is an error ([`crate::error::Refused`], exit 6) that names the
//! limits in force, which the run records and reports like any other.
//!
//! Not for deciding how many threads or processes to start (the callers), nor
//! for what they do.

use crate::error::Refused;
use std::io;
use std::process::{Child, Command};
use std::thread::{JoinHandle, Scope, ScopedJoinHandle};

/// Start a thread named `name` running `f`; a refusal is a [`Refused`] error.
pub fn thread<F, T>(name: &str, f: F) -> anyhow::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    std::thread::Builder::new().name(name.to_string()).spawn(f).map_err(|e| refused(format!("a thread ({name})"), e))
}

/// Start a thread named `name` within `scope`; a refusal is a [`Refused`] error.
pub fn scoped<'scope, 'env, F, T>(scope: &'scope Scope<'scope, 'env>, name: &str, f: F) -> anyhow::Result<ScopedJoinHandle<'scope, T>>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    std::thread::Builder::new().name(name.to_string()).spawn_scoped(scope, f).map_err(|e| refused(format!("a thread ({name})"), e))
}

/// Start `command` as a child process (`what` says which, for the message).
/// A refusal for want of memory or tasks is a [`Refused`] error; any other
/// failure (a program not installed) is the plain error, with `what`.
pub fn process(command: &mut Command, what: &str) -> anyhow::Result<Child> {
    command.spawn().map_err(|e| {
        if is_limit(&e) { refused(format!("a process ({what})"), e) } else { anyhow::Error::new(e).context(format!("starting {what}")) }
    })
}

/// Whether the system said no for want of room: no memory (ENOMEM) or no
/// task left (EAGAIN).
pub fn is_limit(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::OutOfMemory | io::ErrorKind::WouldBlock)
}

fn refused(what: String, error: io::Error) -> anyhow::Error {
    Refused { what, error, limits: limits() }.into()
}

/// The limits on this process that can refuse a thread or a process, as
/// `/proc/self/limits` and its cgroup say them (`address space 805306368
/// bytes, processes 64, cgroup pids.max 50`); the limits not set are left
/// out; "unknown" where the system does not say.
pub fn limits() -> String {
    let mut said = Vec::new();
    if let Ok(text) = std::fs::read_to_string("/proc/self/limits") {
        for (row, name, unit) in [("Max address space", "address space", " bytes"), ("Max processes", "processes (tasks) per user", "")] {
            let soft = text.lines().find(|l| l.starts_with(row)).and_then(|l| l[row.len()..].split_whitespace().next());
            if let Some(v) = soft.filter(|v| *v != "unlimited") {
                said.push(format!("{name} {v}{unit}"));
            }
        }
    }
    // cgroup v2: "0::/PATH" names the group whose files hold its limits.
    let group =
        std::fs::read_to_string("/proc/self/cgroup").ok().and_then(|t| t.lines().find_map(|l| l.strip_prefix("0::").map(str::to_string)));
    if let Some(group) = group {
        for file in ["pids.max", "memory.max"] {
            let path = format!("/sys/fs/cgroup{}/{file}", group.trim_end_matches('/'));
            if let Some(v) = std::fs::read_to_string(path).ok().map(|v| v.trim().to_string()).filter(|v| v != "max") {
                said.push(format!("cgroup {file} {v}"));
            }
        }
    }
    if said.is_empty() { "unknown: none is set on this process".to_string() } else { said.join(", ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_thread_or_process_exits_6_naming_the_limits() {
        let e = refused("a thread (test)".into(), io::Error::from(io::ErrorKind::WouldBlock));
        assert_eq!(crate::error::exit_for(&e), crate::error::Exit::Refused);
        assert!(format!("{e:#}").contains("the system refused a thread (test)"), "{e:#}");
        let missing = process(&mut Command::new("/no/such/program"), "nothing").unwrap_err();
        assert_eq!(crate::error::exit_for(&missing), crate::error::Exit::Internal, "{missing:#}");
    }
}
