//! `cityvibe doctor`: proves each part a run needs, fetching nothing from any
//! feed host and leaving no file: it reads the config, finds and opens the
//! database, opens the host ledger or proves that this user can make it (a
//! probe folder made and removed at once), proves the same of `report_dir`,
//! looks at the run lock, asks the source gate
//! what a run would do now, and probes the translation engine with a real
//! one-word translation and checks its es→xx pairs. One function per check, one
//! line each: ok, WARN or FAIL. Exit 2 when the config is wrong, 4 when any
//! other check fails, else 0 (a warning is something a run survives).
//!
//! Not for repairs: each line says what to do, the operator does it.

use super::Exit;
use crate::cli::Cli;
use crate::config::Config;
use crate::lang::Lang;
use crate::output::Table;
use crate::translate::engines::Translator as _;
use anyhow::Result;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Ok,
    Warn,
    Fail,
}

impl Verdict {
    fn word(self) -> &'static str {
        ["ok", "WARN", "FAIL"][self as usize]
    }
}

/// One line of the report.
#[derive(serde::Serialize)]
struct Check {
    what: String,
    #[serde(serialize_with = "verdict_word")]
    verdict: Verdict,
    detail: String,
}

fn verdict_word<S: serde::Serializer>(v: &Verdict, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.word())
}

fn check(what: impl Into<String>, verdict: Verdict, detail: impl Into<String>) -> Check {
    Check { what: what.into(), verdict, detail: detail.into() }
}

pub fn execute(cli: &Cli, json: bool) -> Result<Exit> {
    let config = super::load_switchboard(cli);
    let mut checks = vec![config_check(cli, &config)];
    checks.push(database_check(cli));
    let ledger = ledger_check(cli, &mut checks);
    if let Some(c) = lock_check(cli) {
        checks.push(c);
    }
    if let Ok(c) = &config {
        checks.extend(report_dir_check(c));
        checks.extend(gate_checks(cli, c, ledger.as_ref()));
        checks.push(engine_check(c));
        checks.extend(route_check(c));
        checks.extend(terms_check(c));
    }
    // A config that does not read, or a terms_dir that is not there, is the operator's file to fix.
    let terms_missing = checks.iter().any(|c| c.what == TERM_FILES && c.verdict == Verdict::Fail);
    let exit = if config.is_err() || terms_missing {
        Exit::Usage
    } else if checks.iter().any(|c| c.verdict == Verdict::Fail) {
        Exit::Internal
    } else {
        Exit::Ok
    };
    if json {
        super::print_json(&serde_json::json!({ "checks": checks, "exit": exit.code() }))?;
        return Ok(exit);
    }
    let mut t = Table::new(&["check", "", "detail"]);
    for c in &checks {
        t.row([c.what.clone(), c.verdict.word().to_string(), c.detail.clone()]);
    }
    t.print()?;
    Ok(exit)
}

/// Whether this process's user can write into `dir`, or make it: a probe
/// folder is made in `dir`, or in the nearest folder above it that exists,
/// and removed at once (the only proof that holds for every permission
/// model: modes, groups, ACLs, a read-only mount). The error says why not.
fn can_make(dir: &std::path::Path) -> std::io::Result<()> {
    let mut base = dir;
    while !base.exists() {
        match base.parent() {
            Some(p) if !p.as_os_str().is_empty() => base = p,
            _ => {
                base = std::path::Path::new(".");
                break;
            }
        }
    }
    if !base.is_dir() {
        return Err(std::io::Error::other(format!("{} is no folder", base.display())));
    }
    tempfile::Builder::new().prefix(".cityvibe-doctor-").tempdir_in(base)?.close()
}

/// The login name of the user this process runs as.
fn my_name() -> String {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map_or_else(|_| "this user".to_string(), |m| user_name(m.uid()))
}

/// `[settings] report_dir`, which `run` writes after each run: this user
/// must be able to write it (or make it), else every run fails there.
fn report_dir_check(c: &Config) -> Option<Check> {
    let dir = c.settings.report_dir.as_deref()?;
    Some(match can_make(dir) {
        Ok(()) => check("report", Verdict::Ok, format!("{}: {} can write the report there after each run", dir.display(), my_name())),
        Err(e) => {
            let me = my_name();
            check(
                "report",
                Verdict::Fail,
                format!(
                    "report_dir {} cannot be written by {me} ({e}): every run would fail there (exit 4); \
                     `sudo install -d -o {me} {0}`, or set [settings] report_dir to a folder {me} writes",
                    dir.display()
                ),
            )
        }
    })
}

/// The config reads and validates; which sources are on; rows this binary has no adapter for.
fn config_check(cli: &Cli, config: &Result<Config>) -> Check {
    match config {
        Ok(c) => {
            let unknown = c.unknown_rows(crate::adapters::ALL);
            let on: Vec<&str> = crate::adapters::ALL.iter().map(|a| a.manifest().id).filter(|id| c.enabled(id)).collect();
            if unknown.is_empty() {
                check("config", Verdict::Ok, format!("{}: sources on: {}", cli.config.display(), on.join(", ")))
            } else {
                check(
                    "config",
                    Verdict::Warn,
                    format!(
                        "{}: sources on: {}; no adapter in this binary for {}: rebuild (`cargo build --release`)",
                        cli.config.display(),
                        on.join(", "),
                        unknown.join(", ")
                    ),
                )
            }
        }
        Err(e) => check("config", Verdict::Fail, format!("{e:#}")),
    }
}

/// The database is found, opens, and its schema and events can be read.
fn database_check(cli: &Cli) -> Check {
    if !cli.db.is_file() {
        return check("database", Verdict::Warn, format!("none yet at {}: `cityvibe run` makes it", cli.db.display()));
    }
    match crate::store::Store::open(&cli.db).and_then(|s| Ok((s.schema_version()?, s.count_all_events()?))) {
        Ok((v, n)) => check("database", Verdict::Ok, format!("{}: schema {v}, {n} events", cli.db.display())),
        Err(e) => check("database", Verdict::Fail, format!("{e:#}")),
    }
}

/// The host ledger a run would use with these options, and whose it is: the
/// system ledger, or a private one for --mirror runs (a warning). It opens
/// (only when it exists: doctor makes no file); it is returned for the gate.
fn ledger_check(cli: &Cli, checks: &mut Vec<Check>) -> Option<crate::http::Ledger> {
    let place = match crate::http::ledger::place(cli.state_dir.as_deref(), super::private_ledger_allowed(cli), true) {
        Ok(place) => place,
        Err(e) => {
            checks.push(check("host ledger", Verdict::Warn, format!("{e:#}")));
            return None;
        }
    };
    let (whose, verdict) = if place.system {
        ("system ledger, shared by every user and process on this machine".to_string(), Verdict::Ok)
    } else {
        let system = crate::http::ledger::SYSTEM_STATE_DIR;
        (
            format!(
                "private ledger, for a folder or loopback --mirror only: only processes given this folder share it (real hosts: {system})"
            ),
            Verdict::Warn,
        )
    };
    // Every process that books requests must be the ledger's own user: a run as
    // anyone else gets no request (or, as root, leaves files the owner cannot
    // write).
    if let Some(owner) = other_owner(&place.dir) {
        checks.push(check(
            "host ledger",
            Verdict::Fail,
            format!(
                "{} belongs to {owner}, not to the user running this: cron (and every manual run) must run as {owner} \
                 (`sudo -u {owner} cityvibe run`, or User={owner} in the systemd unit)",
                place.dir.display()
            ),
        ));
    }
    let db = place.dir.join("hosts.db");
    if !db.exists() {
        // "The first run makes it" only when this user can: proved, not assumed.
        let me = my_name();
        checks.push(match can_make(&place.dir) {
            Ok(()) => check(
                "host ledger",
                Verdict::Warn,
                format!("none yet in {} ({whose}): the first run makes it ({me} can)", place.dir.display()),
            ),
            Err(e) => check(
                "host ledger",
                Verdict::Fail,
                format!(
                    "none yet in {0} ({whose}), and {me} cannot make it ({e}): a run would send nothing and exit 4; \
                     `sudo install -d -o {me} {0}` (or StateDirectory=cityvibe in the systemd unit), then run as {me}",
                    place.dir.display()
                ),
            ),
        });
        return None;
    }
    match crate::http::Ledger::open(&place.dir) {
        Ok(l) => {
            checks.push(check("host ledger", verdict, format!("{}: {whose}", db.display())));
            Some(l)
        }
        Err(e) => {
            checks.push(check("host ledger", Verdict::Fail, format!("{whose}: {e:#}")));
            None
        }
    }
}

/// The name of the owner of `dir` when it is not this process's user (its
/// effective uid, which owns `/proc/self`); none when it is, or when
/// either cannot be read.
fn other_owner(dir: &std::path::Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let owner = std::fs::metadata(dir).ok()?.uid();
    let me = std::fs::metadata("/proc/self").ok()?.uid();
    (owner != me).then(|| user_name(owner))
}

/// The login name of `uid` in /etc/passwd, else `uid N`.
fn user_name(uid: u32) -> String {
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    passwd
        .lines()
        .map(|l| l.split(':').collect::<Vec<_>>())
        .find(|f| f.len() > 2 && f[2].parse() == Ok(uid))
        .map_or_else(|| format!("uid {uid}"), |f| f[0].to_string())
}

const TERM_FILES: &str = "term files";

/// The operator's term files (`[settings] terms_dir`): a folder that is not
/// there fails (a config mistake; runs use the shipped terms), a line a run
/// would skip warns, naming file and line.
fn terms_check(c: &Config) -> Option<Check> {
    let dir = c.settings.terms_dir.as_deref()?;
    if !dir.is_dir() {
        return Some(check(TERM_FILES, Verdict::Fail, format!("terms_dir {} is not a folder: fix [settings] terms_dir", dir.display())));
    }
    let problems = crate::translate::prepare::terms::TermBase::check_dir(dir, &c.settings.languages);
    Some(match problems.as_slice() {
        [] => check(TERM_FILES, Verdict::Ok, format!("{}: every line reads", dir.display())),
        [first, ..] => check(TERM_FILES, Verdict::Warn, format!("{} lines skipped, first: {first}", problems.len())),
    })
}

/// Whether a run started now would get the lock; in doctor's own words (a
/// run holding it is not this command stopping). Only with a database: no
/// lock file is made for a database that does not exist.
fn lock_check(cli: &Cli) -> Option<Check> {
    if !cli.db.is_file() {
        return None;
    }
    Some(match crate::ingest::RunLock::acquire(&cli.db, super::state_dir(cli).ok().as_deref()) {
        Ok(_) => check("run lock", Verdict::Ok, "free: a run started now would begin at once"),
        Err(e) if e.downcast_ref::<crate::ingest::Locked>().is_some() => check(
            "run lock",
            Verdict::Warn,
            "held: a run is under way on this database now; a run started before it ends stops at once with exit 3",
        ),
        Err(e) => check("run lock", Verdict::Fail, format!("{e:#}")),
    })
}

/// What a run started now would do with each source, as the run's own gate answers.
fn gate_checks(cli: &Cli, config: &Config, ledger: Option<&crate::http::Ledger>) -> Vec<Check> {
    let store = if cli.db.is_file() { crate::store::Store::open(&cli.db).ok() } else { None };
    let gate = crate::ingest::SourceGate {
        local_mirror: super::private_ledger_allowed(cli),
        mirror_host: super::remote_mirror_host(cli),
        ..crate::ingest::SourceGate::new(config, store.as_ref(), ledger)
    };
    gate.ids()
        .into_iter()
        .map(|id| {
            let what = format!("source {id}");
            match gate.decide(id) {
                Ok(crate::ingest::Decision::Go) => check(what, Verdict::Ok, "a run now would fetch it"),
                Ok(crate::ingest::Decision::Skip(why)) => check(what, Verdict::Ok, format!("a run now would skip it: {}", why.message(id))),
                Ok(crate::ingest::Decision::Refuse(why)) => check(what, Verdict::Fail, why.message(id)),
                Err(e) => check(what, Verdict::Fail, format!("{e:#}")),
            }
        })
        .collect()
}

/// The engine the config names translates a real word, and has every es→xx pair needed.
fn engine_check(c: &Config) -> Check {
    let s = &c.settings;
    let timeout = std::time::Duration::from_secs(s.translate_timeout_secs.clamp(1, 15));
    let mut engine = match crate::translate::plan::configured::engine(s, timeout) {
        Ok(None) => return check("translation", Verdict::Ok, "switched off (translator = \"none\")"),
        Ok(Some(e)) => e,
        Err(e) if s.translator == crate::vocab::Translator::Apertium => {
            return check("translation", Verdict::Warn, format!("{e:#}; texts wait untranslated (`make deps`)"));
        }
        Err(e) => return check("translation", Verdict::Fail, format!("{}: {e:#}; a run would leave every text pending", s.translator)),
    };
    let target = s.langs().into_iter().find(|&l| l != Lang::Es).unwrap_or(Lang::Ca);
    let probe = engine.translate(&Lang::Es.into(), target, &["hola".to_string()]);
    let id = engine.engine_id();
    match probe {
        Ok(out) if out.first().is_some_and(|t| !t.trim().is_empty()) => {
            // Events come in Spanish (and co-official languages routed through it).
            let missing: Vec<String> = s
                .langs()
                .into_iter()
                .filter(|&t| t != Lang::Es && !engine.supports(&Lang::Es.into(), t))
                .map(|t| format!("es-{t}"))
                .collect();
            let proved = format!("{id}: \"hola\" → {target} \"{}\"", out[0].trim());
            if missing.is_empty() {
                check("translation", Verdict::Ok, format!("{proved}; every es-xx pair for {}", s.languages.join(", ")))
            } else {
                check("translation", Verdict::Warn, format!("{proved}; no route for {}", missing.join(", ")))
            }
        }
        Ok(_) => check("translation", Verdict::Fail, format!("{id}: translating \"hola\" into {target} gave nothing back")),
        Err(e) => check("translation", Verdict::Fail, format!("{id}: translating \"hola\" into {target} failed: {e:#}")),
    }
}

/// Every Apertium mode the route table (`data/translate/routes.tsv`) runs into
/// one of the configured languages, proved with a real word from its source
/// language: a mode not installed warns (its texts wait untranslated, `make
/// deps`), a mode that fails is a failure.
fn route_check(c: &Config) -> Option<Check> {
    let s = &c.settings;
    let apertium = s.translator == crate::vocab::Translator::Apertium || s.fallback.is_some();
    if !apertium {
        return None;
    }
    let Ok(mut engine) = crate::translate::engines::apertium::ApertiumTranslator::system() else { return None };
    let (mut proved, mut missing, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for mode in crate::translate::engines::routes::modes_into(&s.languages) {
        if !engine.has_mode(mode) {
            missing.push(mode.to_string());
            continue;
        }
        let word = if mode.starts_with("cat") || mode.starts_with("ca-") {
            "bon dia"
        } else if mode.starts_with("eu-") {
            "egun on"
        } else {
            "hola"
        };
        match engine.translate_through(mode, word) {
            Ok(out) if !out.trim().is_empty() => proved.push(format!("{mode} \"{}\"", out.trim())),
            Ok(_) => failed.push(format!("{mode} gave nothing back")),
            Err(e) => failed.push(format!("{mode}: {e:#}")),
        }
    }
    Some(if !failed.is_empty() {
        check("routes", Verdict::Fail, format!("the route table's modes failed: {}", failed.join("; ")))
    } else if !missing.is_empty() {
        check("routes", Verdict::Warn, format!("not installed: {} (`make deps`); proved: {}", missing.join(", "), proved.join(", ")))
    } else {
        check("routes", Verdict::Ok, format!("every mode of the route table proved: {}", proved.join(", ")))
    })
}
