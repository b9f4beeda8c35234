//! Output, through the binary: stdout closed under a
//! command ends it quietly with exit 0; one meaning per exit code; tables
//! whose columns line up; times in RFC 3339 in JSON and in a labelled zone
//! (honouring TZ) in tables.
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use std::path::Path;
use std::process::{Command, Stdio};

pub const MADRID_ONLY: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";

/// A folder whose database holds the madrid sample's events, one run and a takedown.
pub fn stocked() -> tempfile::TempDir {
    let body = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap();
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let dir = workdir(MADRID_ONLY);
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    dir
}

/// Take the first stored event down (so `takedown list` has a row).
pub fn take_one_down(d: &Path) {
    let events: serde_json::Value =
        serde_json::from_str(&stdout(&cityvibe(d, &["events", "list", "--json", "--at", common::SAMPLES_AT]))).unwrap();
    let id = format!("madrid:{}", events[0]["source_event_id"].as_str().unwrap());
    let out = cityvibe(d, &["takedown", "add", &id, "--reason", "test"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Run the binary with its stdout a pipe whose reading end is already
/// closed (what `| head -1` does once it has its line), with `env` set.
pub fn into_closed_pipe(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child =
        Command::new(common::bin()).args(args).current_dir(dir).env_clear().stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn with_tz(dir: &Path, tz: &str, args: &[&str]) -> std::process::Output {
    Command::new(common::bin()).args(args).current_dir(dir).env_clear().env("TZ", tz).output().unwrap()
}

fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

// `events list | head -1`, `runs`, `holdings madrid`, `export --format csv | head`,
// `completions`, `--help`, `--version` end quietly with exit 0 and nothing on
// stderr, neither a panic (101) nor 2: a closed pipe is not a failure.
#[test]
fn closed_stdout_ends_every_command_quietly_with_exit_0() {
    let dir = stocked();
    let d = dir.path();
    take_one_down(d);
    for args in [
        &["events", "list", "--at", common::SAMPLES_AT][..],
        &["events", "list", "--json", "--at", common::SAMPLES_AT],
        &["runs"],
        &["runs", "--json"],
        &["holdings", "madrid"],
        &["source", "list"],
        &["takedown", "list"],
        &["export", "--format", "csv"],
        &["export", "--format", "json"],
        &["export", "--format", "ics"],
        &["export", "--format", "jsonld"],
        &["sources", "export", "--format", "html"],
        &["completions", "bash"],
        &["--help"],
        &["--version"],
    ] {
        let (code, stderr) = into_closed_pipe(d, args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?} should end quietly");
    }
}

// A database failure is not a usage error (2): it has its own code, 4.
#[test]
fn a_database_failure_exits_4_naming_the_file() {
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    std::fs::write(d.join("broken.db"), b"this is not an SQLite database, but it is long enough to have a header....").unwrap();
    let out = cityvibe(d, &["--db", "broken.db", "runs"]);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.db"), "{}", String::from_utf8_lossy(&out.stderr));
    // A usage mistake stays 2, a configuration mistake too.
    assert_eq!(cityvibe(d, &["runs", "--limit", "x"]).status.code(), Some(2));
    std::fs::write(d.join("sources.toml"), "[sources.madrid\n").unwrap();
    let out = cityvibe(d, &["run"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

// JSON times are RFC 3339 with an offset (no epoch ms); one name
// for pending translations in `run --json` and `translate --json`.
#[test]
fn json_times_are_rfc3339_everywhere() {
    let dir = stocked();
    let d = dir.path();
    take_one_down(d);
    let rfc3339 = |v: &serde_json::Value, what: &str| {
        let s = v.as_str().unwrap_or_else(|| panic!("{what} is not a string: {v}"));
        s.parse::<jiff::Timestamp>().unwrap_or_else(|e| panic!("{what} {s:?} is not RFC 3339: {e}"));
    };
    let runs: serde_json::Value = serde_json::from_str(&stdout(&cityvibe(d, &["runs", "--json"]))).unwrap();
    rfc3339(&runs[0]["started_at"], "runs started_at");
    rfc3339(&runs[0]["finished_at"], "runs finished_at");
    let tk: serde_json::Value = serde_json::from_str(&stdout(&cityvibe(d, &["takedown", "list", "--json"]))).unwrap();
    rfc3339(&tk[0]["created_at"], "takedown created_at");
    let src: serde_json::Value = serde_json::from_str(&stdout(&cityvibe(d, &["source", "list", "--json"]))).unwrap();
    let madrid = src.as_array().unwrap().iter().find(|s| s["id"] == "madrid").unwrap();
    rfc3339(&madrid["last_run"], "source list last_run");
    rfc3339(&madrid["last_success"], "source list last_success");
    let h: serde_json::Value = serde_json::from_str(&stdout(&cityvibe(d, &["holdings", "madrid", "--json"]))).unwrap();
    rfc3339(&h["sources"][0]["first_stored"], "holdings first_stored");
    rfc3339(&h["fetch_log_30_days"][0]["last_request_at"], "holdings last request");
    // One name for translations still to do.
    let dir = workdir("[settings]\ntranslator = \"apertium\"\n\n[sources.madrid]\nenabled = true\n");
    // `translate` needs a database (it never makes one); an empty one will do.
    cityvibe::store::Store::open(&dir.path().join("data/cityvibe.db")).unwrap();
    let tr: serde_json::Value = serde_json::from_str(&stdout(&cityvibe(dir.path(), &["translate", "--json"]))).unwrap();
    assert!(tr.get("translation_pending").is_some() && tr.get("pending").is_none(), "{tr}");
}

// Tables show times in the zone of TZ, labelled.
#[test]
fn tables_show_times_in_the_zone_of_tz_with_its_label() {
    let dir = stocked();
    let d = dir.path();
    let utc = stdout(&with_tz(d, "UTC", &["runs"]));
    assert!(utc.contains(" UTC"), "{utc}");
    let tokyo = stdout(&with_tz(d, "Asia/Tokyo", &["runs"]));
    assert!(tokyo.contains(" JST"), "{tokyo}");
    assert_ne!(utc, tokyo);
}

// `source list` columns line up (each column starts where its header does).
#[test]
fn table_columns_line_up() {
    let dir = stocked();
    let d = dir.path();
    let text = stdout(&cityvibe(d, &["source", "list"]));
    let lines: Vec<&str> = text.lines().collect();
    let col = lines[0].find("host").unwrap();
    let delay_end = lines[0].find("delay").unwrap() + "delay".len();
    for l in &lines[1..] {
        let host = crate::surface::output::host_of(l);
        assert_eq!(l.find(host), Some(col), "host column of {l:?} in\n{text}");
        // Right-aligned delays end where their header ends.
        assert_eq!(&l[delay_end - 1..delay_end], "s", "delay column of {l:?} in\n{text}");
    }
}

/// The host in a `source list` line (the third cell).
pub fn host_of(line: &str) -> &str {
    line.split_whitespace().nth(2).unwrap()
}
