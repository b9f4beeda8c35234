//! No panic, ever: a run the system refuses threads or processes (a task
//! limit, an address-space limit) ends with a message naming the limit and
//! a documented exit code (6, docs/OPERATING.md), never a panic's 101; its
//! run row is closed with that code, and the next run, given room, finishes
//! the rest. Through the binary under `prlimit`, on the project's samples
//! (a folder mirror: nothing leaves the machine) with real Apertium.
use crate::common;

use common::{cityvibe, sample, workdir};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Output;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\"]\n[sources.madrid]\n";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// `cityvibe --mirror SAMPLES run --source madrid --json` in `dir`, behind `wrap` (a limit).
fn limited_run(dir: &Path, wrap: &[&str]) -> Output {
    let bin = common::bin().display().to_string();
    let samples = sample("");
    let state = common::state_dir(dir);
    let mut args: Vec<&str> = wrap.to_vec();
    args.extend([
        bin.as_str(),
        "--mirror",
        samples.to_str().unwrap(),
        "--state-dir",
        state.to_str().unwrap(),
        "run",
        "--source",
        "madrid",
        "--json",
    ]);
    std::process::Command::new(args[0])
        .args(&args[1..])
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .unwrap()
}

/// The last run's row as `runs --json` gives it.
fn last_run(dir: &Path) -> Value {
    let out = cityvibe(dir, &["runs", "--json", "--limit", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice::<Value>(&out.stdout).unwrap()[0].clone()
}

/// Under a task limit the system refuses every new thread and process
/// (`prlimit --nproc=1`, as an unprivileged user: root is exempt). The
/// translation step's engine cannot start: the run ends 6, naming the
/// limit, its row closed with 6 and its events stored; the next run,
/// without the limit, translates what waited.
#[test]
fn a_task_limit_ends_the_run_with_exit_6_naming_it_and_the_next_run_finishes() {
    if !common::has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let d = dir.path();
    // The unprivileged user must be able to write the folder.
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = limited_run(d, &["prlimit", "--nproc=1", "--", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]);
    let said = stderr(&out);
    if said.contains("setpriv:") || said.contains("prlimit:") {
        eprintln!("notice: skipping, cannot run as another user under a task limit here: {said}");
        return;
    }
    assert_ne!(out.status.code(), Some(101), "a panic: {said}");
    assert_eq!(out.status.code(), Some(6), "{said}");
    assert!(said.contains("the system refused") && said.contains("processes (tasks) per user 1"), "the limit is named: {said}");
    assert!(!said.contains("panicked"), "{said}");
    let run: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {said}"));
    assert!(run["sources"][0]["added"].as_u64().unwrap() > 0, "the events are stored: {run}");
    let row = last_run(d);
    assert_eq!((row["exit_code"].as_i64(), row["status"].as_str()), (Some(6), Some("finished")), "the run row is closed: {row}");
    // The next run, given room, translates what waited.
    let next = cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "translate", "--json"]);
    assert!(next.status.success(), "{}", stderr(&next));
    let stats: Value = serde_json::from_slice(&next.stdout).unwrap();
    assert!(stats["translated"].as_u64().unwrap() > 0 && stats["translation_pending"] == 0, "{stats}");
}

/// On a terminal `run` shows a spinner, whose redrawing thread is a thread
/// like any other: under a task limit it is refused, never a panic (101);
/// the run goes on without it and ends 6 as without a terminal. A terminal
/// of its own from `script` (util-linux), the run as an unprivileged user
/// under `prlimit --nproc=1`.
#[test]
fn a_task_limit_on_a_terminal_ends_the_run_with_exit_6_not_a_panic() {
    if !common::has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let d = dir.path();
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).unwrap();
    let (bin, samples, state) = (common::bin(), sample(""), common::state_dir(d));
    let inner = format!(
        "prlimit --nproc=1 -- setpriv --reuid=65534 --regid=65534 --clear-groups -- {} --mirror {} --state-dir {} run --source madrid",
        bin.display(),
        samples.display(),
        state.display()
    );
    let out = std::process::Command::new("script")
        .args(["--quiet", "--return", "--command", &inner, "/dev/null"])
        .current_dir(d)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("SHELL", "/bin/sh")
        .env("TERM", "xterm")
        .output();
    let Ok(out) = out else {
        eprintln!("notice: skipping, no `script` (util-linux) to give the run a terminal");
        return;
    };
    // On a terminal stdout and stderr are one stream, script's stdout.
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    if said.contains("setpriv:") || said.contains("prlimit:") || said.contains("script:") {
        eprintln!("notice: skipping, cannot run as another user under a task limit on a terminal here: {said}");
        return;
    }
    assert!(!said.contains("panicked"), "a panic: {said}");
    assert_eq!(out.status.code(), Some(6), "{said}");
    assert!(said.contains("processes (tasks) per user 1"), "the limit is named: {said}");
}

/// Under an address space of 768 MiB (`prlimit --as`), the whole run,
/// translation included, ends with a documented exit code: done (0), or
/// refused (6, naming the limit); never a panic, and its row is closed.
#[test]
fn a_run_under_768_mib_of_address_space_never_panics() {
    if !common::has_apertium() {
        return;
    }
    // All seven languages: a worker thread and an Apertium pipeline (with
    // three threads of its own) per target, more than 768 MiB holds.
    let dir = workdir("[settings]\ntranslator = \"apertium\"\n[sources.madrid]\n");
    let d = dir.path();
    let out = limited_run(d, &["prlimit", "--as=805306368", "--"]);
    let said = stderr(&out);
    assert!(!said.contains("panicked"), "{said}");
    match out.status.code() {
        Some(0) => {}
        Some(6) => assert!(said.contains("address space 805306368 bytes"), "the limit is named: {said}"),
        other => panic!("exit {other:?}, not a documented end of a run under the limit: {said}"),
    }
    let row = last_run(d);
    assert_eq!(row["status"], "finished", "the run row is closed: {row}");
    assert_eq!(row["exit_code"].as_i64(), out.status.code().map(i64::from), "{row}");
}

/// Every thread and child process of the crate starts through `spawn`,
/// whose refusal is an error (exit 6): none through `std::thread::spawn`,
/// a scope's `spawn` or `Command::spawn`, which panic or lose the limit, in
/// any code that ships (test modules aside).
#[test]
fn every_thread_and_process_starts_through_the_spawn_helper() {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("src/spawn.rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let shipped = text.split("#[cfg(test)]").next().unwrap_or_default();
                for (n, line) in shipped.lines().enumerate() {
                    let code = line.split("//").next().unwrap_or_default();
                    // indicatif's steady tick starts a thread of its own with `thread::spawn`.
                    if ["thread::spawn(", "scope.spawn(", ".spawn()", "spawn_scoped(", "enable_steady_tick("]
                        .iter()
                        .any(|p| code.contains(p))
                    {
                        found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    for folder in ["src", "adapters"] {
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(folder), &mut found);
    }
    assert!(found.is_empty(), "spawned around `cityvibe::spawn`: {found:#?}");
}
