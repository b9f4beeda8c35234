//! The operator's last frictions, through the binary:
//! `run --force --dry-run` answers for a forced run; "stored events kept"
//! only when there are some; `doctor` run by a user who does not own the
//! ledger says whose user cron must run as; `source history` skips a bad
//! line, names it and prints no control bytes; a second `source disable`
//! says the source was already off. ("1 translation": `translation::neural_poison`;
//! a run that can resolve no host: `operator::traps`.)
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, workdir};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn madrid_json() -> Vec<u8> {
    std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap()
}

const MADRID: &str = "[settings]\ntranslator = \"none\"\n[sources.madrid]\n";

/// `run --dry-run [--force] --json`: madrid's line.
fn dry_madrid(dir: &Path, force: bool) -> Value {
    let mut args = vec!["run", "--dry-run", "--json", "--source", "madrid"];
    if force {
        args.push("--force");
    }
    let out = cityvibe(dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice::<Value>(&out.stdout).unwrap()["sources"][0].clone()
}

/// `run --force --dry-run` answers for a forced run:
/// within the period, it would fetch (not `skip … (run --force for a
/// manual run)`, the answer for a run that is not forced).
#[test]
fn a_forced_dry_run_answers_for_a_forced_run() {
    let server = Server::start(|_, _| Reply::ok(madrid_json()));
    let dir = workdir(MADRID);
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plain = dry_madrid(dir.path(), false);
    assert_eq!(plain["would"], "skip", "{plain}");
    let forced = dry_madrid(dir.path(), true);
    assert_eq!(forced["would"], "fetch", "{forced}");
    assert!(forced["feeds"][0]["url"].as_str().is_some_and(|u| u.ends_with(".json")), "{forced}");
}

/// A source that failed says "stored events kept" only
/// when there are some, with their number.
#[test]
fn stored_events_kept_is_said_only_when_there_are_some() {
    let fail = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let f = fail.clone();
    let server = Server::start(move |seen, _| {
        if seen.path.ends_with("robots.txt") || f.load(std::sync::atomic::Ordering::SeqCst) {
            Reply::new(500)
        } else {
            Reply::ok(madrid_json())
        }
    });
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.jcyl]\n");
    let run = |dir: &Path| cityvibe(dir, &["--mirror", &server.url(), "run", "--force", "--json", "--source", "jcyl"]);
    let message =
        |out: &Output| serde_json::from_slice::<Value>(&out.stdout).unwrap()["sources"][0]["message"].as_str().unwrap().to_string();
    let first = run(dir.path());
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    assert!(message(&first).contains("HTTP 500") && !message(&first).contains("stored events kept"), "{}", message(&first));
    // Once some are stored, a failure says they are kept.
    let jcyl =
        std::fs::read(common::sample("datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json")).unwrap();
    let stored = Server::start(move |_, _| Reply::ok(jcyl.clone()));
    let ok = cityvibe(dir.path(), &["--mirror", &stored.url(), "run", "--force", "--json", "--source", "jcyl"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let again = run(dir.path());
    assert!(message(&again).contains("stored events kept"), "{}", message(&again));
}

/// `doctor` run by a user who does not own the host ledger
/// says that cron must run as the ledger's user. (The folder is given to
/// `nobody`; the test runs as root, as CI does.)
#[test]
fn doctor_says_cron_must_run_as_the_ledgers_user() {
    let dir = workdir(MADRID);
    let state = common::state_dir(dir.path());
    let mirror = dir.path().join("mirror");
    std::fs::create_dir_all(&mirror).unwrap();
    // A run makes the ledger (the empty folder answers 404: no matter).
    cityvibe(dir.path(), &["--mirror", mirror.to_str().unwrap(), "run"]);
    assert!(state.join("hosts.db").exists());
    let own = std::process::Command::new("chown").args(["-R", "65534", state.to_str().unwrap()]).output().unwrap();
    if !own.status.success() {
        eprintln!("notice: skipping, cannot give a folder to another user here: {}", stderr(&own));
        return;
    }
    let out = cityvibe(dir.path(), &["--mirror", mirror.to_str().unwrap(), "doctor"]);
    let said = stdout(&out);
    assert!(said.contains("cron (and every manual run) must run as nobody"), "{said}{}", stderr(&out));
    assert_eq!(out.status.code(), Some(4), "{said}");
}

/// A line of `sources.history.jsonl` that is not a
/// switch record does not stop `source history`: it is skipped and named
/// by its number; nothing printed carries a control byte (a reason's
/// included).
#[test]
fn source_history_skips_a_bad_line_and_prints_no_control_bytes() {
    let dir = workdir(MADRID);
    let off = cityvibe(dir.path(), &["source", "disable", "madrid", "--reason", "first"]);
    assert!(off.status.success(), "{}", stderr(&off));
    let log = dir.path().join("sources.history.jsonl");
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("\u{1b}[31mnot json at all\u{7}\n");
    text.push_str(
        "{\"at\":\"2026-12-01T10:00:00Z\",\"source\":\"madrid\",\"action\":\"enable\",\"reason\":\"back \\u001b[2J\\u0007on\"}\n",
    );
    std::fs::write(&log, text).unwrap();
    let out = cityvibe(dir.path(), &["source", "history", "madrid"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (said, err) = (stdout(&out), stderr(&out));
    assert!(said.contains("disable") && said.contains("first") && said.contains("enable"), "{said}");
    assert!(err.contains("line 2") && err.contains("skipped"), "{err}");
    for text in [&said, &err] {
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "a control byte printed: {text:?}");
    }
}

/// A second `source disable` says the source was already
/// off (not "switched off" again, replacing the first reason), since
/// when and why, and changes nothing in sources.toml (the history keeps
/// the second reason beside the first).
#[test]
fn a_second_disable_says_the_source_was_already_off() {
    let dir = workdir(MADRID);
    let first = cityvibe(dir.path(), &["source", "disable", "madrid", "--reason", "the publisher asked"]);
    assert!(stderr(&first).contains("madrid switched off"), "{}", stderr(&first));
    let toml = std::fs::read_to_string(dir.path().join("sources.toml")).unwrap();
    let second = cityvibe(dir.path(), &["source", "disable", "madrid", "--reason", "again"]);
    assert!(second.status.success(), "{}", stderr(&second));
    let said = stderr(&second);
    assert!(said.contains("madrid was already switched off since") && said.contains("(the publisher asked)"), "{said}");
    assert_eq!(std::fs::read_to_string(dir.path().join("sources.toml")).unwrap(), toml, "the file changed");
    // The history keeps both words.
    let history = std::fs::read_to_string(dir.path().join("sources.history.jsonl")).unwrap();
    assert!(history.lines().count() == 2 && history.contains("again"), "{history}");
}
