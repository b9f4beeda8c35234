//! The operator's and the adapter writer's day, through the binary.
//! A scaffold never breaks the deployed binary, the dry run answers the
//! run's own question (one source gate), nothing says "ok"
//! that isn't, and nothing is made by mistake.
use crate::common;
use crate::surface::output::MADRID_ONLY;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use serde_json::Value;

fn madrid_server() -> Server {
    let body = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap();
    Server::start(move |_, _| Reply::ok(body.clone()))
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json_of(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", String::from_utf8_lossy(&out.stdout), stderr(out)))
}

fn source<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["sources"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap_or_else(|| panic!("no {id} in {report}"))
}

/// The row `cityvibe adapter new segovia …` appends to sources.toml.
fn scaffold_row() -> String {
    use cityvibe::adapter::Format;
    use cityvibe::adapter_tools::scaffold::NewAdapter;
    NewAdapter { id: "segovia".into(), host: "www.segovia.es".into(), format: Format::Csv }.sources_row()
}

// The binary was built before `adapter new segovia` wrote
// its row; the scaffolded sources.toml (this binary knows no segovia) must
// not stop cron, the read commands, or `source list`.
#[test]
fn a_scaffold_row_never_breaks_the_binary_built_before_it() {
    let server = madrid_server();
    let dir = workdir(&format!("{MADRID_ONLY}{}", scaffold_row()));
    let d = dir.path();
    let out = cityvibe(d, &["--mirror", &server.url(), "run", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "a switched-off scaffold row failed cron: {}", stderr(&out));
    assert!(!server.requests().is_empty(), "madrid was not fetched");
    for args in [&["events", "list", "--at", common::SAMPLES_AT][..], &["source", "list"], &["source", "show", "madrid"]] {
        let out = cityvibe(d, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.matches("[sources.segovia]").count(), 1, "{args:?} should warn once: {err}");
        assert!(err.contains("rebuild"), "{args:?}: {err}");
    }
    // The operator switched it on before rebuilding: that source fails, with the rebuild command; the rest runs.
    std::fs::write(d.join("sources.toml"), format!("{MADRID_ONLY}\n[sources.segovia]\nenabled = true\n")).unwrap();
    let before = server.requests().len();
    let out = cityvibe(d, &["--mirror", &server.url(), "run", "--json", "--force"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = json_of(&out);
    assert_eq!(source(&report, "segovia")["status"], "failed");
    assert!(source(&report, "segovia")["message"].as_str().unwrap().contains("cargo build --release"), "{report}");
    assert!(stderr(&out).contains("segovia") && stderr(&out).contains("cargo build --release"), "{}", stderr(&out));
    assert!(source(&report, "madrid")["status"] != "failed", "{report}");
    assert!(server.requests().len() > before, "madrid was not fetched beside the unknown row");
    // `adapter check` on this binary says to rebuild.
    let out = cityvibe(d, &["adapter", "check", "segovia", "--sample", "x.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("rebuild"), "{}", stderr(&out));
}

// `adapter new` writes its row switched off, with a
// comment saying to rebuild and run `adapter check`.
#[test]
fn the_scaffold_row_is_off_and_says_to_rebuild() {
    let row = scaffold_row();
    assert!(row.contains("enabled = false"), "{row}");
    assert!(row.contains("cargo build --release") && row.contains("cityvibe adapter check segovia"), "{row}");
}

// Right after a run, the dry run says what the run then
// does (skip within the period, P7), as JSON when asked; before it, it
// lists madrid's CSV and XML as fallbacks, not fetches.
#[test]
fn the_dry_run_answers_the_runs_question() {
    let server = madrid_server();
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let out = cityvibe(d, &["run", "--dry-run", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dry = json_of(&out);
    let madrid = source(&dry, "madrid");
    assert_eq!(madrid["would"], "fetch", "{dry}");
    let feeds = madrid["feeds"].as_array().unwrap();
    assert_eq!(feeds.len(), 3, "{dry}");
    assert_eq!(feeds[0]["when"], "always");
    assert_eq!(feeds[1]["when"], "only if the JSON fails", "{dry}");
    assert_eq!(feeds[2]["when"], "only if the JSON fails", "{dry}");
    assert_eq!(source(&dry, "diba")["would"], "skip");
    let text = String::from_utf8_lossy(&cityvibe(d, &["run", "--dry-run"]).stdout).into_owned();
    assert!(text.contains("only if the JSON fails"), "{text}");

    let out = cityvibe(d, &["--mirror", &server.url(), "run", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dry = json_of(&cityvibe(d, &["run", "--dry-run", "--json"]));
    let madrid = source(&dry, "madrid");
    assert_eq!(madrid["would"], "skip", "the dry run would fetch what the run skips: {dry}");
    assert!(madrid["why"].as_str().unwrap().contains("period"), "{dry}");
    let run = json_of(&cityvibe(d, &["--mirror", &server.url(), "run", "--json"]));
    assert_eq!(source(&run, "madrid")["status"], "skipped", "{run}");
}

/// A loopback port with nothing listening: bound, then let go.
fn dead_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

// With translator = "apy" at a dead port, doctor proves
// the engine with a real one-word translation, says FAIL and exits non-zero
// (not "translation ok" before a run that leaves every text pending).
#[test]
fn doctor_fails_an_engine_that_cannot_translate() {
    let port = dead_port();
    let dir =
        workdir(&format!("[settings]\ntranslator = \"apy\"\napy_url = \"http://127.0.0.1:{port}\"\n\n[sources.madrid]\nenabled = true\n"));
    let out = cityvibe(dir.path(), &["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("translation")).unwrap_or_else(|| panic!("no translation line: {text}"));
    assert!(line.contains("FAIL") && line.contains(&port.to_string()), "{text}");
    assert_eq!(out.status.code(), Some(4), "{text}");
    // Each source's line is the run's own gate answer.
    assert!(text.lines().any(|l| l.starts_with("source madrid") && l.contains("would fetch")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("source diba") && l.contains("would skip")), "{text}");
}

// With real Apertium, doctor shows the word it translated.
#[test]
fn doctor_proves_apertium_with_a_real_translation() {
    if !crate::common::has_apertium() {
        return;
    }
    let dir = workdir("[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"ca\"]\n\n[sources.madrid]\nenabled = true\n");
    let out = cityvibe(dir.path(), &["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    let line = text.lines().find(|l| l.starts_with("translation")).unwrap();
    assert!(line.contains("\"hola\" → ca") && line.contains("ok"), "{text}");
}

// During a run, doctor's lock line is its own, not the
// run's "this run made no request and stops".
#[test]
fn doctor_says_a_run_holds_the_lock_in_its_own_words() {
    let dir = crate::surface::output::stocked();
    let d = dir.path();
    let db = d.join("data/cityvibe.db");
    let _held = cityvibe::ingest::RunLock::acquire(&db, Some(&common::state_dir(d))).unwrap();
    let out = cityvibe(d, &["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("run lock")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("a run is under way") && !line.contains("this run"), "{line}");
}

// A refused takedown on a mistyped --db makes no database
// that later read commands would take for a real one.
#[test]
fn a_refused_takedown_creates_no_database() {
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let out = cityvibe(d, &["--db", "typo/cityvibe.db", "takedown", "add", "madrid:123", "--reason", "asked"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!d.join("typo").exists(), "a refused takedown left {:?}", std::fs::read_dir(d.join("typo")).map(|r| r.count()));
    let out = cityvibe(d, &["--db", "typo/cityvibe.db", "events", "list"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no database at"), "{}", stderr(&out));
}

// A failure under --json (the lock held, a usage error) is a
// JSON object on stdout, beside the line on stderr.
#[test]
fn a_json_failure_is_json_on_stdout() {
    let dir = crate::surface::output::stocked();
    let d = dir.path();
    let db = d.join("data/cityvibe.db");
    let held = cityvibe::ingest::RunLock::acquire(&db, Some(&common::state_dir(d))).unwrap();
    // A mirror run (a run to real hosts with a private ledger is refused,
    // exit 2, before the lock is asked); nothing is sent.
    let out = cityvibe(d, &["--mirror", "http://127.0.0.1:9", "run", "--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v = json_of(&out);
    assert_eq!(v["exit"], 3, "{v}");
    assert!(v["error"].as_str().unwrap().contains("another cityvibe run holds"), "{v}");
    assert!(stderr(&out).contains("another cityvibe run holds"), "{}", stderr(&out));
    drop(held);
    // A usage error too.
    let out = cityvibe(d, &["--db", "typo.db", "runs", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(json_of(&out)["exit"], 2);
}

// A date error names the option and the form, not the parser's internals.
#[test]
fn date_errors_name_the_option_and_the_form() {
    let dir = crate::surface::output::stocked();
    let out = cityvibe(dir.path(), &["export", "--format", "csv", "--from", "2026-13-01"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--from \"2026-13-01\"") && err.contains("YYYY-MM-DD"), "{err}");
    assert!(!err.contains("parse") && !err.contains("1..=12"), "parser internals leak: {err}");
}

// `events show` calls a year-old event "ended", prints no
// run of blank lines for an empty description, and an all-day event as dates, not
// `T00:00:00 → T23:59:59`; `holdings` shows no such raw times either.
#[test]
fn events_show_an_old_all_day_event_as_ended_dates() {
    let feed = r#"{"@graph": [{"id": "900001", "title": "Feria del libro antiguo", "description": "",
        "dtstart": "2025-11-01 00:00:00.0", "dtend": "2025-11-03 23:59:00.0",
        "link": "https://www.madrid.es/feria", "event-location": "Paseo de Recoletos"}]}"#;
    let server = Server::start(move |_, _| Reply::ok(feed.as_bytes().to_vec()));
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let out = cityvibe(d, &["--mirror", &server.url(), "run", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = cityvibe(d, &["events", "show", "madrid:900001"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.lines().next().unwrap().contains(", ended)"), "{text}");
    assert!(!text.contains("T00:00:00") && !text.contains("T23:59"), "{text}");
    assert!(text.contains("when: 2025-11-01 → 2025-11-03"), "{text}");
    assert!(!text.contains("\n\n\n"), "blank lines for an empty description: {text:?}");
    let holdings = String::from_utf8_lossy(&cityvibe(d, &["holdings", "madrid"]).stdout).into_owned();
    assert!(!holdings.contains("T00:00:00") && !holdings.contains("T23:59"), "{holdings}");
}

// `source history` keeps every switch with its reason and
// date, a second `source disable` and an `enable` included.
#[test]
fn source_history_keeps_every_switch_and_reason() {
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    for args in [
        &["source", "disable", "madrid", "--reason", "el webmaster lo pidió"][..],
        &["source", "disable", "madrid", "--reason", "otra razón"],
        &["source", "enable", "madrid"],
    ] {
        let out = cityvibe(d, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
    let out = cityvibe(d, &["source", "history", "madrid", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let h = json_of(&out);
    let rows = h.as_array().unwrap();
    let actions: Vec<&str> = rows.iter().map(|r| r["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["disable", "disable", "enable"], "{h}");
    assert_eq!(rows[0]["reason"], "el webmaster lo pidió");
    assert_eq!(rows[1]["reason"], "otra razón");
    assert!(rows.iter().all(|r| r["at"].as_str().unwrap().parse::<jiff::Timestamp>().is_ok()), "{h}");
    let text = String::from_utf8_lossy(&cityvibe(d, &["source", "history", "madrid"]).stdout).into_owned();
    assert!(text.contains("el webmaster lo pidió") && text.contains("enable"), "{text}");
}

/// `cityvibe ARGS` with stdout and stderr on one pseudo-terminal of 120x40
/// (progress bars draw only on a terminal); everything written there.
fn on_terminal(dir: &std::path::Path, args: &[&str]) -> String {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::process::CommandExt;
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize { ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: openpty writes two new descriptors into the two ints; a null name and termios, and a size.
    let rc = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &size) };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors are fresh and owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut cmd = common::command(dir);
    // A terminal type, as a shell has one: without it nothing is drawn.
    cmd.env("TERM", "xterm").args(args).stdout(slave.try_clone().unwrap()).stderr(slave.try_clone().unwrap());
    // SAFETY: setsid is async-signal-safe.
    unsafe {
        cmd.pre_exec(|| if libc::setsid() < 0 { Err(std::io::Error::last_os_error()) } else { Ok(()) });
    }
    let mut child = cmd.spawn().unwrap();
    drop((cmd, slave));
    // Read while it runs (a full terminal buffer would block it), until every copy of the slave is closed.
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::fs::File::from(master).read_to_end(&mut text);
        text
    });
    assert!(child.wait().unwrap().success());
    String::from_utf8_lossy(&reader.join().unwrap()).replace('\r', "")
}

// The run's bar never stands at a full "0/0 texts
// starting the engine… (ETA 0s)" while nothing is translated yet; the
// end-of-run table has a translated count, as `runs` has.
#[test]
fn no_full_bar_at_nothing_and_a_translated_column() {
    if !crate::common::has_apertium() {
        return;
    }
    let server = madrid_server();
    // Real Apertium, which takes a while to start: no 0/0 bar meanwhile.
    let dir = workdir("[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"ca\"]\n\n[sources.madrid]\nenabled = true\n");
    let text = on_terminal(dir.path(), &["--mirror", &server.url(), "run"]);
    assert!(!text.contains("0/0"), "a bar at 0/0: {text}");
    assert!(text.contains("starting the translation engine"), "{text}");
    let header = text
        .lines()
        .find(|l| l.contains("source") && l.contains("status") && l.contains("withdrawn"))
        .unwrap_or_else(|| panic!("no table: {text}"));
    assert!(header.contains("translated"), "{header}");
}

// The five global options stand under their own heading
// on every help page, apart from the command's own options.
#[test]
fn global_options_have_their_own_heading() {
    let dir = workdir(MADRID_ONLY);
    let out = cityvibe(dir.path(), &["source", "disable", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (own, global) = text.split_once("Global options:").unwrap_or_else(|| panic!("no Global options heading: {text}"));
    for opt in ["--db", "--config", "--mirror", "--state-dir", "--verbose"] {
        assert!(global.contains(opt) && !own.contains(opt), "{opt} not under Global options alone: {text}");
    }
    assert!(own.contains("--reason"), "{text}");
}

// An option set from the environment (CITYVIBE_STATE_DIR
// under the systemd unit) is not shown in a usage error's line as if it
// were required; the environment still sets it.
#[test]
fn an_option_from_the_environment_is_not_shown_as_required() {
    let dir = workdir(MADRID_ONLY);
    let out = common::command(dir.path()).env("CITYVIBE_DB", "env.db").args(["source", "disable", "madrid"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let usage = stderr(&out);
    let line = usage.lines().find(|l| l.starts_with("Usage:")).unwrap_or_else(|| panic!("{usage}"));
    assert!(!line.contains("--state-dir") && !line.contains("--db"), "{line}");
    // The variables still count, and a typed option still wins over them.
    let out = common::command(dir.path()).env("CITYVIBE_DB", "env.db").args(["runs"]).output().unwrap();
    assert!(stderr(&out).contains("no database at env.db"), "{}", stderr(&out));
    let out = common::command(dir.path()).env("CITYVIBE_DB", "env.db").args(["runs", "--db", "typed.db"]).output().unwrap();
    assert!(stderr(&out).contains("no database at typed.db"), "{}", stderr(&out));
}

// Only the first word of `update_schedule` counts; Spanish
// adverbs ("Semanalmente (…)") are known, never "Updated: not stated" on the
// public page, and an unknown first word is a manifest problem that `adapter
// check` and the conformance suite report.
#[test]
fn an_unknown_update_frequency_is_flagged() {
    use cityvibe::adapter::{Frequency, Manifest};
    use cityvibe::adapter_tools::manifest_problems;
    let madrid = cityvibe::adapters::madrid::MANIFEST;
    let weekly = Manifest { update_schedule: "Semanalmente (los lunes)", ..madrid };
    assert_eq!(Frequency::of(weekly.update_schedule), Frequency::Weekly);
    assert_eq!(manifest_problems(&weekly), Vec::<String>::new());
    let vague = Manifest { update_schedule: "Cada semana (los lunes)", ..madrid };
    let problems = manifest_problems(&vague).join("\n");
    assert!(problems.contains("update_schedule \"Cada semana (los lunes)\" names no frequency"), "{problems}");
    // `adapter check` says so for a built-in adapter's manifest: none has one.
    let dir = workdir(MADRID_ONLY);
    let sample = sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json");
    let out = cityvibe(dir.path(), &["adapter", "check", "madrid", "--sample", sample.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json_of(&out)["manifest_problems"], serde_json::json!([]));
}

// `source show` asks the same gate as the run: right after
// a run it says the source would be skipped within its period (P7).
#[test]
fn source_show_gives_the_gates_answer() {
    let server = madrid_server();
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    assert_eq!(cityvibe(d, &["--mirror", &server.url(), "run", "--quiet"]).status.code(), Some(0));
    let show = json_of(&cityvibe(d, &["source", "show", "madrid", "--json"]));
    assert_eq!(show["run_now"]["would"], "skip", "{show}");
    assert!(show["run_now"]["why"].as_str().unwrap().contains("period"), "{show}");
    let show = json_of(&cityvibe(d, &["source", "show", "diba", "--json"]));
    assert_eq!(show["run_now"]["would"], "skip", "{show}");
    let text = String::from_utf8_lossy(&cityvibe(d, &["source", "show", "madrid"]).stdout).into_owned();
    assert!(text.contains("a run now would skip: fetched less than its period"), "{text}");
}

// The translation step tells its progress in steps of at
// most 50 texts a language, not one batch of 250 per language (real
// Apertium, a real database).
#[test]
fn translation_progress_moves_in_fine_steps() {
    let Some(engine) = crate::common::apertium() else {
        return;
    };
    let events: Vec<String> = (1..=120)
        .map(|i| {
            format!(
                r#"{{"id": "{i}", "title": "Concierto número {i} en la plaza", "description": "Un concierto al aire libre, el {i}.º del ciclo de invierno.",
                   "dtstart": "2026-12-20 19:00:00.0", "dtend": "2026-12-20 21:00:00.0", "time": "19:00",
                   "link": "https://www.madrid.es/e{i}", "event-location": "Plaza Mayor"}}"#
            )
        })
        .collect();
    let feed = format!("{{\"@graph\": [{}]}}", events.join(","));
    let server = Server::start(move |_, _| Reply::ok(feed.as_bytes().to_vec()));
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    assert_eq!(cityvibe(d, &["--mirror", &server.url(), "run", "--quiet", "--no-translate"]).status.code(), Some(0));
    let mut store = cityvibe::store::Store::open(&d.join("data/cityvibe.db")).unwrap();
    let mut workers = vec![engine.with_timeout(std::time::Duration::from_secs(120))];
    let mut seen: Vec<(u64, u64)> = Vec::new();
    let langs = [cityvibe::lang::Lang::Es, cityvibe::lang::Lang::Ca];
    let stats = cityvibe::translate::plan::step::Step::new(&langs, &[])
        .run(&mut store, &mut workers, None, |p| seen.push((p.done, p.total)))
        .unwrap();
    assert_eq!(stats.translated, 240, "{stats:?}");
    let mut last = 0;
    for (done, total) in &seen {
        assert_eq!(*total, 240);
        assert!(done - last <= 50, "a jump of {} texts: {seen:?}", done - last);
        last = *done;
    }
    assert_eq!(last, 240, "{seen:?}");
}

// sources.toml re-read before each request is validated as
// at load; one that no longer reads is said once on stderr, and the run
// keeps its last good settings (neither silent nor taking an unchecked file).
#[test]
fn a_failed_live_reload_is_reported_and_the_run_goes_on() {
    let csv = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv")).unwrap();
    let dir = workdir(MADRID_ONLY);
    let config = dir.path().join("sources.toml");
    let server = Server::start(move |seen, _| {
        if seen.path.ends_with(".json") {
            // Mid-run, the operator saves a mistake: a delay under the adapter's minimum (P9).
            std::fs::write(&config, format!("{MADRID_ONLY}min_delay_secs = 0.5\n")).unwrap();
            Reply::new(404)
        } else {
            Reply::ok(csv.clone())
        }
    });
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--json"]);
    let err = stderr(&out);
    assert_eq!(err.matches("no longer reads").count(), 1, "said once: {err}");
    assert!(err.contains("min_delay_secs = 0.5") && err.contains("last good settings"), "{err}");
    let report = json_of(&out);
    assert_eq!(source(&report, "madrid")["status"], "ok", "the run went on with the CSV: {report}");
    let seen = server.requests();
    assert_eq!(seen.len(), 2, "{:?}", seen.iter().map(|s| &s.path).collect::<Vec<_>>());
    assert!(seen[1].at - seen[0].at >= std::time::Duration::from_secs(2), "madrid's 2 s delay kept");
}

// The skip's message gives the next due time in the
// display zone (TZ), as the tables do, not `2026-12-01T20:41:35Z`.
#[test]
fn next_due_follows_tz() {
    let server = madrid_server();
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    assert_eq!(cityvibe(d, &["--mirror", &server.url(), "run", "--quiet"]).status.code(), Some(0));
    let out = common::command(d).env("TZ", "Europe/Madrid").args(["--mirror", &server.url(), "run", "--json"]).output().unwrap();
    let report = json_of(&out);
    let message = source(&report, "madrid")["message"].as_str().unwrap().to_string();
    assert!(message.contains("next due at 20") && (message.contains(" CET") || message.contains(" CEST")), "{message}");
    assert!(!message.contains("Z (P7"), "{message}");
    // JSON keeps its RFC 3339 value.
    assert!(source(&report, "madrid")["next_due"].as_str().unwrap().ends_with('Z'), "{report}");
}
