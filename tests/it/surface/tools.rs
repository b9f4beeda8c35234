//! The tools around a run, through the binary: completion offers source ids
//! and languages; -v logs each request; `run --dry-run` requests nothing;
//! `doctor` checks what a run needs; every option has help text.
use crate::common;
use crate::surface::output::{MADRID_ONLY, stocked};

use clap::CommandFactory;
use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};

// Bash completion after --source, `source show` and --lang
// offers the ids and languages, not file names.
#[test]
fn completion_offers_source_ids_and_languages() {
    let dir = workdir(MADRID_ONLY);
    let out = cityvibe(dir.path(), &["completions", "bash"]);
    assert!(out.status.success());
    let script = String::from_utf8(out.stdout).unwrap();
    let ids = cityvibe::adapters::ids().join(" ");
    assert!(script.contains(&ids), "the source ids {ids:?} are not offered");
    assert!(script.contains("es ca gl en fr it pt"), "the languages are not offered");
    // A mistyped id still gets cityvibe's own message naming the known ones.
    let out = cityvibe(dir.path(), &["source", "show", "madird"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown source \"madird\""));
}

// -v tells each request on stderr (time, host, URL, status,
// bytes, ms); without it a run stays silent.
#[test]
fn verbose_logs_one_line_per_request() {
    let body = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap();
    let len = body.len();
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let out = cityvibe(d, &["-v", "--mirror", &server.url(), "run", "--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = err.lines().find(|l| l.contains(" GET ")).unwrap_or_else(|| panic!("no request line: {err}"));
    assert!(
        line.contains("datos.madrid.es") && line.contains(" 200 ") && line.contains(&format!("{len} bytes")) && line.contains(" ms"),
        "{line}"
    );
    line.split(' ').next().unwrap().parse::<jiff::Timestamp>().expect("an RFC 3339 time first");
    let quiet = cityvibe(d, &["--mirror", &server.url(), "run", "--quiet", "--force"]);
    assert!(quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
}

// `run --dry-run` says what would be fetched and sends nothing.
#[test]
fn dry_run_requests_nothing() {
    let server = Server::start(|_, _| Reply::ok(b"[]".to_vec()));
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let out = cityvibe(d, &["--mirror", &server.url(), "run", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("fetch") && text.contains(cityvibe::adapters::madrid::MANIFEST.feeds[0].url), "{text}");
    assert!(text.contains("diba") && text.contains("skip"), "{text}");
    assert!(server.requests().is_empty());
    assert!(!d.join("data").exists(), "a dry run wrote a database");
}

// `doctor` checks config, database, lock, engine and ledger,
// and says which is wrong.
#[test]
fn doctor_checks_what_a_run_needs() {
    let dir = stocked();
    let d = dir.path();
    let out = cityvibe(d, &["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&out.stderr));
    for check in ["config", "database", "host ledger", "run lock", "translation"] {
        assert!(text.lines().any(|l| l.starts_with(check)), "no {check} line: {text}");
    }
    std::fs::write(d.join("sources.toml"), "[sources.madrid\n").unwrap();
    let out = cityvibe(d, &["doctor"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("FAIL"));
}

// Every option and argument says what it is for in --help.
#[test]
fn every_option_has_help_text() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for a in cmd.get_arguments() {
            let id = a.get_id().as_str();
            if id == "help" || id == "version" || a.is_hide_set() {
                continue;
            }
            if a.get_help().is_none() && a.get_long_help().is_none() {
                missing.push(format!("{path} {id}"));
            }
        }
        for s in cmd.get_subcommands() {
            walk(s, &format!("{path} {}", s.get_name()), missing);
        }
    }
    let mut missing = Vec::new();
    walk(&cityvibe::cli::Cli::command(), "cityvibe", &mut missing);
    assert!(missing.is_empty(), "no help text: {missing:#?}");
}
