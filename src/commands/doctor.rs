//! `cityvibe doctor` (issue 13 item 12): checks what a run needs, without
//! fetching anything or creating a file: the config, the database, the run
//! lock, the translation engine and its pairs, the host ledger's folder.
//! One line per check; exit 2 when the config is wrong, 4 when something a
//! run needs is broken, else 0 (a missing engine only warns: texts wait).

use super::Exit;
use crate::cli::Cli;
use crate::output::Table;
use crate::translate::Translator as _;
use crate::vocab::Translator;
use anyhow::Result;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Ok,
    Warn,
    Fail,
}

pub fn execute(cli: &Cli) -> Result<Exit> {
    let mut rows: Vec<(&str, Verdict, String)> = Vec::new();
    let config = super::load_config(cli);
    let mut exit = Exit::Ok;
    match &config {
        Ok(c) => {
            let on: Vec<&str> = crate::adapters::ALL.iter().map(|a| a.manifest().id).filter(|id| c.enabled(id)).collect();
            rows.push(("config", Verdict::Ok, format!("{}: sources on: {}", cli.config.display(), on.join(", "))));
        }
        Err(e) => {
            rows.push(("config", Verdict::Fail, format!("{e:#}")));
            exit = Exit::Usage;
        }
    }
    if cli.db.is_file() {
        match crate::store::Store::open(&cli.db).and_then(|s| Ok((s.schema_version()?, s.count_all_events()?))) {
            Ok((v, n)) => rows.push(("database", Verdict::Ok, format!("{}: schema {v}, {n} events", cli.db.display()))),
            Err(e) => {
                rows.push(("database", Verdict::Fail, format!("{e:#}")));
                exit = exit.max_with(Exit::Internal);
            }
        }
    } else {
        rows.push(("database", Verdict::Warn, format!("none yet at {}: `cityvibe run` makes it", cli.db.display())));
    }
    // Which ledger `run` would use with these options, and whose it is (issue 19 item 5).
    match crate::http::ledger::place(cli.state_dir.as_deref(), cli.mirror.is_some(), true) {
        Ok(place) => {
            let (whose, verdict) = if place.system {
                ("system ledger, shared by every user and process on this machine".to_string(), Verdict::Ok)
            } else {
                let system = crate::http::ledger::SYSTEM_STATE_DIR;
                (
                    format!("private ledger, for --mirror runs: only processes given this folder share it (real hosts: {system})"),
                    Verdict::Warn,
                )
            };
            let db = place.dir.join("hosts.db");
            match db.exists().then(|| crate::http::Ledger::open(&place.dir)) {
                Some(Ok(_)) => rows.push(("host ledger", verdict, format!("{}: {whose}", db.display()))),
                Some(Err(e)) => {
                    rows.push(("host ledger", Verdict::Fail, format!("{whose}: {e:#}")));
                    exit = exit.max_with(Exit::Internal);
                }
                None => rows.push((
                    "host ledger",
                    Verdict::Warn,
                    format!("none yet in {} ({whose}): the first run makes it", place.dir.display()),
                )),
            }
        }
        Err(e) => rows.push(("host ledger", Verdict::Warn, format!("{e:#}"))),
    }
    // The lock, only when there is a database to lock (no file is made for it otherwise).
    if cli.db.is_file() {
        match crate::ingest::RunLock::acquire(&cli.db, super::state_dir(cli).ok().as_deref()) {
            Ok(_) => rows.push(("run lock", Verdict::Ok, "free".into())),
            Err(e) if e.downcast_ref::<crate::ingest::Locked>().is_some() => rows.push(("run lock", Verdict::Warn, format!("{e}"))),
            Err(e) => {
                rows.push(("run lock", Verdict::Fail, format!("{e:#}")));
                exit = exit.max_with(Exit::Internal);
            }
        }
    }
    if let Ok(c) = &config {
        rows.push(engine_row(c));
    }
    let mut t = Table::new(&["check", "", "detail"]);
    for (what, verdict, detail) in &rows {
        t.row([what.to_string(), ["ok", "WARN", "FAIL"][*verdict as usize].to_string(), detail.clone()]);
    }
    t.print()?;
    Ok(exit)
}

/// The translator the settings name, and whether it can do every pair needed.
fn engine_row(c: &crate::config::Config) -> (&'static str, Verdict, String) {
    match c.settings.translator {
        Translator::None => ("translation", Verdict::Ok, "switched off (translator = \"none\")".into()),
        Translator::Apy => ("translation", Verdict::Ok, format!("APy at {}", c.settings.apy_url.as_deref().unwrap_or("?"))),
        Translator::Libretranslate => {
            ("translation", Verdict::Ok, format!("LibreTranslate at {}", c.settings.libretranslate_url.as_deref().unwrap_or("?")))
        }
        Translator::Openai => {
            ("translation", Verdict::Ok, format!("OpenAI-compatible server at {}", c.settings.openai_url.as_deref().unwrap_or("?")))
        }
        Translator::Apertium => match crate::translate::ApertiumTranslator::system() {
            Err(e) => ("translation", Verdict::Warn, format!("{e:#}; texts wait untranslated (`make deps`)")),
            Ok(a) => {
                // Events come in Spanish (and co-official languages routed through it).
                let missing: Vec<String> =
                    c.settings.languages.iter().filter(|t| t.as_str() != "es" && !a.supports("es", t)).map(|t| format!("es-{t}")).collect();
                if missing.is_empty() {
                    ("translation", Verdict::Ok, format!("{}: every es-xx pair for {}", a.engine_id(), c.settings.languages.join(", ")))
                } else {
                    ("translation", Verdict::Warn, format!("{}: no route for {}", a.engine_id(), missing.join(", ")))
                }
            }
        },
    }
}

trait Worst {
    fn max_with(self, other: Exit) -> Exit;
}

impl Worst for Exit {
    /// A configuration mistake is said first; an internal failure outranks "all fine".
    fn max_with(self, other: Exit) -> Exit {
        if self == Exit::Ok { other } else { self }
    }
}
