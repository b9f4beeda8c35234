//! No error dropped quietly, through the binary against the
//! recording server: a body that cannot be read to its end is told by kind
//! (a connection closed or reset early, an encoding that does not decode), not as
//! one undifferentiated failure.
use crate::common;
use crate::surface::output::MADRID_ONLY;

use common::server::{Reply, Server};
use common::{cityvibe, workdir};

/// Run madrid against a server answering every request with `reply`; the
/// run's stderr and its exit code.
fn run_against(reply: Reply) -> (Option<i32>, String) {
    let server = Server::start(move |_, _| reply.clone());
    let dir = workdir(MADRID_ONLY);
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--quiet", "--no-translate"]);
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

// A body shorter than its Content-Length (the server closed the
// connection early) is said to be cut, not a bare "reading the body: …".
#[test]
fn body_cut_short_is_told_by_kind() {
    let (code, err) = run_against(Reply::ok(b"[{\"id\": 1".to_vec()).header("Content-Length", "100000"));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("reading the body: the connection was closed or reset before the body's end"), "{err}");
}

// A connection reset mid-body is said to be cut too (ureq reads
// a reset while the body is read as the connection's end).
#[test]
fn body_reset_is_told_by_kind() {
    let (code, err) = run_against(Reply { reset: true, ..Reply::ok(b"[{\"id\": 1".to_vec()).header("Content-Length", "100000") });
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("reading the body: the connection was closed or reset before the body's end"), "{err}");
}

// A gzip body that does not decompress is said to be an encoding
// that could not be decoded.
#[test]
fn body_bad_gzip_is_told_by_kind() {
    let (code, err) = run_against(Reply::ok(b"this is not gzip at all".to_vec()).header("Content-Encoding", "gzip"));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("reading the body: the body's encoding could not be decoded"), "{err}");
}

// The record errors and warnings of a publisher's translation feed
// (diba's Spanish and English) are counted with the source's record errors and
// said in its report.
#[test]
fn translation_feed_errors_and_warnings_are_reported() {
    let dir = workdir(&common::sources_toml(&["diba"], ""));
    let d = dir.path();
    let mirror = d.join("mirror");
    let feed = |lang: &str| format!("do.diba.cat/api/dataset/actesturisme_{lang}/format/json/pag-ini/1/pag-fi/1000");
    let read = |lang: &str| std::fs::read_to_string(common::sample(&feed(lang))).unwrap();
    common::place(&mirror, &feed("ca"), read("ca").as_bytes());
    // One Spanish record with a start date nobody can read: a record error.
    let es = read("es").replacen("\"data_inici\":\"2026-12-05 00:00:00\"", "\"data_inici\":\"someday\"", 1);
    common::place(&mirror, &feed("es"), es.as_bytes());
    // One English title with an invalid escape, read as it shows: a warning.
    let en = read("en").replacen("\"titol\":\"", "\"titol\":\"\\q", 1);
    common::place(&mirror, &feed("en"), en.as_bytes());
    let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "run", "--no-translate", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = json["sources"].as_array().unwrap().iter().find(|s| s["id"] == "diba").unwrap();
    assert_eq!((s["status"].as_str(), s["record_errors"].as_u64()), (Some("ok"), Some(1)), "{s}");
    let message = s["message"].as_str().unwrap();
    assert!(message.contains("actesturisme_es/format/json/pag-ini/1/pag-fi/1000: 1 bad records (first: "), "{message}");
    // The field, never its value (P5).
    assert!(message.contains("bad start date in data_inici") && !message.contains("someday"), "{message}");
    assert!(message.contains("actesturisme_en/format/json/pag-ini/1/pag-fi/1000: 1 record warnings (first: "), "{message}");
    assert!(message.contains("invalid escape"), "{message}");
}

/// Run the binary in `dir` with its stdout on /dev/full (every write fails
/// with "no space left on device").
fn into_full_device(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let out = common::command(dir).args(args).stdout(full).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

// A failure to write stdout other than a closed pipe is said, and
// the command ends with exit 4, for `completions`, `--help` and `--version`
// as for a table command.
#[test]
fn stdout_write_errors_other_than_a_closed_pipe_are_reported() {
    let dir = workdir(MADRID_ONLY);
    for args in [&["completions", "bash"][..], &["--help"], &["--version"], &["run", "--dry-run"]] {
        let (code, err) = into_full_device(dir.path(), args);
        assert_eq!(code, Some(4), "{args:?}: {err}");
        assert!(err.starts_with("cityvibe: ") && err.contains("No space left on device"), "{args:?}: {err}");
    }
}

// Validators that cannot be read are said, not dropped unsaid,
// and the run still fetches, without them.
#[test]
fn unreadable_validators_are_reported() {
    let body = std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap();
    let server = Server::start(move |_, _| Reply::ok(body.clone()).header("ETag", "\"v1\""));
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let first = cityvibe(d, &["--mirror", &server.url(), "run", "--quiet"]);
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    let db = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    db.execute_batch("DROP TABLE validators").unwrap();
    drop(db);
    let again = cityvibe(d, &["--mirror", &server.url(), "run", "--quiet", "--force"]);
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("cityvibe: could not read the validators of https://datos.madrid.es/"), "{err}");
    let seen = server.requests();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[1].header("if-none-match"), None, "sent without the validators it could not read");
}

// `source list` and `source show` read the host ledger for the
// Crawl-delay; one that exists but cannot be read is said once (not left
// out of the delays shown, unsaid), and the listing still comes.
#[test]
fn an_unreadable_host_ledger_is_said_by_source_list_and_show() {
    let dir = crate::surface::output::stocked();
    let d = dir.path();
    let state = common::state_dir(d);
    for side in ["hosts.db-wal", "hosts.db-shm"] {
        let _ = std::fs::remove_file(state.join(side));
    }
    std::fs::write(state.join("hosts.db"), b"not a database, not at all, whatever its name says").unwrap();
    for args in [&["source", "list"][..], &["source", "show", "madrid"]] {
        let out = cityvibe(d, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert_eq!(err.matches("cityvibe: the host ledger in ").count(), 1, "{args:?}: {err}");
        assert!(err.contains("cannot be read") && err.contains("Crawl-delay"), "{args:?}: {err}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("madrid"), "{args:?}");
    }
}
