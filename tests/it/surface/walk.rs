//! A new user's and an operator's walk through the commands of docs/OPERATING.md, the
//! defects it found pinned through the binary: an error names the option or
//! the file it is about, a table line reads as one, on any terminal (that a
//! read command never makes a database is `surface::honest`'s). Not for the commands' main behaviour
//! (their own modules).
use crate::common;
use crate::translation::quality::{record, run, write_feed};

use common::{cityvibe, workdir};
use std::path::Path;

const CONFIG: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";

/// One run over a madrid feed of one event at "Sala A", CALLE MAYOR 1.
fn one_run() -> tempfile::TempDir {
    let dir = workdir(CONFIG);
    write_feed(dir.path(), &[record("1", "Concierto", "Un concierto.", "Sala A")]);
    run(dir.path());
    dir
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

// `events show` printed "where: Sala A CALLE MAYOR 1": venue and street run
// together as one name (and a trailing blank with no street).
#[test]
fn events_show_separates_venue_and_street() {
    let dir = one_run();
    let out = cityvibe(dir.path(), &["events", "show", "madrid:1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("where:")).unwrap_or_else(|| panic!("no where line: {text}"));
    assert_eq!(line, "where: Sala A, CALLE MAYOR 1, 28001 MADRID");
}

// `runs --limit 0` said "no runs yet: run `cityvibe run`" (exit 0) after a
// run: a usage mistake, as `events list --limit 0` is (exit 2).
#[test]
fn runs_limit_zero_is_a_usage_error_not_no_runs() {
    let dir = one_run();
    let out = cityvibe(dir.path(), &["runs", "--limit", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--limit"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("no runs yet"), "{}", stderr(&out));
}

// `export --from 2026-12-40` said only "\"2026-12-40\" is not a date": which
// of --from and --to was wrong went unsaid.
#[test]
fn export_bad_date_names_its_option() {
    let dir = one_run();
    for option in ["--from", "--to"] {
        let out = cityvibe(dir.path(), &["export", "--format", "json", option, "2026-12-40"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(&format!("{option} \"2026-12-40\"")), "{}", stderr(&out));
    }
}

fn import(dir: &Path, name: &str, content: &str) -> std::process::Output {
    std::fs::write(dir.join(name), content).unwrap();
    cityvibe(dir, &["translate", "import", name])
}

// `translate import FILE` whose file names no language, or one CityVibe does
// not publish, said "--lang : use one of …" or "--lang de: …": an option the
// command has not, and not the file.
#[test]
fn translate_import_names_the_file_whose_language_is_wrong() {
    let dir = one_run();
    let d = dir.path();
    let po = |lang: &str| {
        format!(
            "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n{lang}\n\nmsgctxt \"title\"\nmsgid \"Concierto\"\nmsgstr \"Concert\"\n"
        )
    };
    let xliff = |lang: &str| {
        format!(
            "<?xml version=\"1.0\"?><xliff version=\"1.2\"><file source-language=\"es\" target-language=\"{lang}\"><body>\
             <trans-unit id=\"t\" resname=\"title\"><source>Concierto</source><target>Concert</target></trans-unit></body></file></xliff>"
        )
    };
    for (name, content, said) in [
        ("none.po", po(""), "names no language"),
        ("german.po", po("\"Language: de\\n\""), "\"de\""),
        ("spanish.po", po("\"Language: es\\n\""), "\"es\""),
        ("german.xlf", xliff("de"), "\"de\""),
    ] {
        let out = import(d, name, &content);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name) && err.contains(said), "{name}: {err}");
        assert!(!err.contains("--lang"), "{name}: names an option import has not: {err}");
    }
    // The same file in a published language applies.
    let out = import(d, "english.po", &po("\"Language: en\\n\""));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("en: 1 applied"), "{}", String::from_utf8_lossy(&out.stdout));
}

/// `cityvibe ARGS` with stdout on a fresh pseudo-terminal that nobody sized
/// (0 columns) and no controlling terminal; what it wrote there.
fn on_unsized_terminal(dir: &Path, args: &[&str]) -> String {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::process::CommandExt;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two new descriptors into the two ints; a null
    // name, termios and winsize leave the size at 0x0.
    let rc = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors are fresh and owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut cmd = common::command(dir);
    cmd.args(args).stdout(slave.try_clone().unwrap()).stderr(std::process::Stdio::null());
    // SAFETY: setsid is async-signal-safe; a new session has no controlling
    // terminal, so the width can only come from the unsized stdout.
    unsafe {
        cmd.pre_exec(|| if libc::setsid() < 0 { Err(std::io::Error::last_os_error()) } else { Ok(()) });
    }
    let status = cmd.status().unwrap();
    assert!(status.success());
    // Every copy of the terminal's side closed (the command holds one), so
    // the read below ends.
    drop((cmd, slave));
    let mut text = Vec::new();
    // Reading the master ends in EIO once the child's side is closed.
    let _ = std::fs::File::from(master).read_to_end(&mut text);
    String::from_utf8_lossy(&text).replace('\r', "")
}

// On a terminal that reports 0 columns every table cell wrapped to one
// character a line (`source list`, `runs`, `run`'s report): unreadable.
#[test]
fn tables_on_a_terminal_of_no_width_keep_each_row_on_one_line() {
    let dir = one_run();
    let text = on_unsized_terminal(dir.path(), &["source", "list"]);
    assert!(text.lines().any(|l| l.starts_with("madrid ") && l.contains("datos.madrid.es")), "{text}");
    // A header and one line per adapter.
    assert!(text.lines().count() <= 1 + cityvibe::adapters::ALL.len(), "rows wrapped: {text}");
}
