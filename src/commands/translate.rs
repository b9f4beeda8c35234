//! `cityvibe translate`, and the translation step of `run`; `translate
//! correct|export|import`, the human side of translation (issue 11.4).

use super::exit;
use crate::cli::{Cli, ExchangeOnly, TranslateCommand};
use crate::config::Config;
use crate::store::Store;
use crate::translate::exchange;
use crate::translate::pipeline::{Options, TranslateStats, engines};
use anyhow::Result;
use std::time::Instant;

/// Translate what needs it; a progress bar on a terminal (texts done / total, words/s).
pub fn step(store: &mut Store, config: &Config, sources: &[String], show_progress: bool) -> Result<Option<TranslateStats>> {
    let Some(mut engines) = engines(&config.settings) else {
        // No engine: human corrections still reach new events with their text (issue 11.4).
        store.apply_translation_memory(&config.settings.languages, sources)?;
        return Ok(None);
    };
    let bar = show_progress.then(|| {
        let pb = indicatif::ProgressBar::new(0);
        pb.set_style(
            indicatif::ProgressStyle::with_template("translating {bar:30} {pos}/{len} texts {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        pb
    });
    let started = Instant::now();
    let options = Options::from_settings(&config.settings);
    let stats = engines.translate(store, &config.settings.languages, sources, &options, |done, total, words| {
        if let Some(pb) = &bar {
            pb.set_length(total);
            pb.set_position(done);
            let secs = started.elapsed().as_secs_f64().max(0.001);
            pb.set_message(format!("{:.0} words/s", words as f64 / secs));
        }
    })?;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    Ok(Some(stats))
}

pub fn execute(cli: &Cli, sources: Vec<String>, json: bool) -> Result<super::Exit> {
    let config = super::load_config(cli)?;
    super::check_source_ids(&sources)?;
    Store::require(&cli.db)?;
    let _lock = match super::lock_or_exit(cli)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let mut store = Store::open(&cli.db)?;
    let Some(stats) = step(&mut store, &config, &sources, !json && super::stdout_is_terminal())? else {
        eprintln!("translation is switched off in {} ([settings] translator = \"none\")", cli.config.display());
        return Ok(exit::OK);
    };
    for line in stats.problems() {
        eprintln!("cityvibe: {line}");
    }
    if json {
        super::print_json(&stats)?;
    } else if super::stdout_is_terminal() {
        crate::outln!(
            "{} translated, {} from the cache, {} pending, {} shortened, {} skipped",
            stats.translated,
            stats.cache_hits,
            stats.pending,
            stats.shortened,
            stats.skipped
        )?;
    }
    Ok(exit::OK)
}

/// What an import did with each entry (issue 11.4).
#[derive(Debug, Default, serde::Serialize)]
struct ImportReport {
    lang: String,
    applied: usize,
    /// Events whose shown text changed.
    events: usize,
    /// Entries still fuzzy or empty: left for review.
    unreviewed: usize,
    refused: Vec<Refused>,
}

#[derive(Debug, serde::Serialize)]
struct Refused {
    field: String,
    original: String,
    why: &'static str,
}

/// A human translation must not carry contact data (P5).
fn holds_personal_data(text: &str) -> bool {
    crate::parse::pii::scrub(text) != text
}

/// Exchange files carry Spanish originals: Spanish is no target for them.
fn check_not_source(lang: &str) -> Result<()> {
    use crate::store::memory::EXCHANGE_SOURCE_LANG;
    if lang == EXCHANGE_SOURCE_LANG {
        crate::bail_usage!(
            "--lang {lang}: exchange files carry the {EXCHANGE_SOURCE_LANG} originals; choose a language to translate them into \
             (correct one event's text into {lang} with `translate correct`)"
        );
    }
    Ok(())
}

/// `translate correct|export|import`.
pub fn exchange(cli: &Cli, command: &TranslateCommand) -> Result<super::Exit> {
    let check_lang = |lang: &str| -> Result<()> {
        if !crate::model::DISPLAY_LANGS.contains(&lang) {
            crate::bail_usage!("--lang {lang}: use one of {}", crate::model::DISPLAY_LANGS.join(", "));
        }
        Ok(())
    };
    match command {
        TranslateCommand::Export { lang, format, sources, only } => {
            check_lang(lang)?;
            check_not_source(lang)?;
            super::check_source_ids(sources)?;
            // A read command: a mistyped --db is said, not made into an empty file.
            let store = Store::open_existing(&cli.db)?;
            let texts: Vec<_> = store
                .exchange_texts(lang, sources)?
                .into_iter()
                .filter(|t| match only {
                    None => true,
                    Some(ExchangeOnly::Missing) => t.current.is_none(),
                    Some(ExchangeOnly::Machine) => t.current.as_ref().is_some_and(|(_, o)| o != "human" && o != "publisher"),
                })
                .collect();
            crate::outln!("{}", exchange::write(*format, lang, &texts)?.trim_end())?;
            Ok(exit::OK)
        }
        TranslateCommand::Correct { id, lang, title, description } => {
            check_lang(lang)?;
            let Ok(named) = id.parse::<crate::vocab::EventRef>() else {
                crate::bail_usage!("{id}: say which event as SOURCE:ID (see `cityvibe events list`)");
            };
            let (source, event_id) = (named.source.as_str(), named.id.as_str());
            if title.is_none() && description.is_none() {
                crate::bail_usage!("give --title, --description or both");
            }
            Store::require(&cli.db)?;
            let _lock = match super::lock_or_exit(cli)? {
                Ok(l) => l,
                Err(code) => return Ok(code),
            };
            let mut store = Store::open(&cli.db)?;
            let Some((own, original_title, original_description)) = store.event_texts(source.trim(), event_id.trim())? else {
                crate::bail_usage!("no stored event {id}; see `cityvibe events list`");
            };
            if own == *lang {
                crate::bail_usage!("{id} is published in {lang} already: correct the original with `cityvibe events correct`");
            }
            for (field, text, original) in [("title", title, &original_title), ("description", description, &original_description)] {
                let Some(text) = text else { continue };
                if holds_personal_data(text) {
                    crate::bail_usage!("the {field} holds an e-mail address or a phone number, which CityVibe never stores (P5)");
                }
                if original.trim().is_empty() || text.trim().is_empty() {
                    crate::bail_usage!("{id} has no {field} to translate, or the translation is empty");
                }
                let events = store.save_human_translation(&own, lang, field, original, text.trim())?;
                crate::outln!("{field} in {lang}: stored, shown on {events} event(s) with the same original")?;
            }
            Ok(exit::OK)
        }
        TranslateCommand::Status { json } => status(cli, *json),
        TranslateCommand::Import { file, json } => {
            let content = std::fs::read_to_string(file).map_err(|e| crate::output::usage(format!("reading {}: {e}", file.display())))?;
            let imported = exchange::read(&content, &file.display().to_string()).map_err(|e| crate::output::usage(format!("{e:#}")))?;
            // The file's own language, not a --lang option: the message names the file.
            let lang = imported.lang.as_str();
            let name = file.display();
            if !crate::model::DISPLAY_LANGS.contains(&lang) || lang == crate::store::memory::EXCHANGE_SOURCE_LANG {
                let said = if lang.is_empty() { "names no language".to_string() } else { format!("is in {lang:?}") };
                crate::bail_usage!(
                    "{name} {said}: set its `Language:` header (PO) or target-language (XLIFF) to the language it translates \
                     the {} originals into: one of {}",
                    crate::store::memory::EXCHANGE_SOURCE_LANG,
                    crate::model::DISPLAY_LANGS
                        .iter()
                        .filter(|l| **l != crate::store::memory::EXCHANGE_SOURCE_LANG)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            Store::require(&cli.db)?;
            let _lock = match super::lock_or_exit(cli)? {
                Ok(l) => l,
                Err(code) => return Ok(code),
            };
            let mut store = Store::open(&cli.db)?;
            let current: std::collections::HashSet<(String, String)> =
                store.exchange_texts(&imported.lang, &[])?.into_iter().map(|t| (t.field.to_string(), t.original)).collect();
            let mut report = ImportReport { lang: imported.lang.clone(), unreviewed: imported.unreviewed, ..Default::default() };
            for e in imported.entries {
                let why = if !matches!(e.field.as_str(), "title" | "description") {
                    Some("unknown field (expected title or description)")
                } else if !current.contains(&(e.field.clone(), e.original.clone())) {
                    Some("not a current original text of any active event")
                } else if holds_personal_data(&e.text) || holds_personal_data(&e.original) {
                    Some("holds an e-mail address or a phone number (P5)")
                } else {
                    None
                };
                match why {
                    Some(why) => report.refused.push(Refused { field: e.field, original: e.original, why }),
                    None => {
                        report.events += store.save_human_translation(
                            crate::store::memory::EXCHANGE_SOURCE_LANG,
                            &imported.lang,
                            &e.field,
                            &e.original,
                            e.text.trim(),
                        )?;
                        report.applied += 1;
                    }
                }
            }
            if *json {
                super::print_json(&report)?;
            } else {
                crate::outln!(
                    "{}: {} applied ({} events), {} refused, {} left for review",
                    imported.lang,
                    report.applied,
                    report.events,
                    report.refused.len(),
                    report.unreviewed
                )?;
                for r in &report.refused {
                    let head: String = r.original.chars().take(60).collect();
                    crate::outln!("  refused {} {head:?}: {}", r.field, r.why)?;
                }
            }
            Ok(exit::OK)
        }
    }
}

/// `translate status`: per language, the texts by who translated them, what
/// is pending, what is set aside, the engine and the data (issue 20 item 6).
fn status(cli: &Cli, json: bool) -> Result<super::Exit> {
    let config = super::load_config(cli)?;
    let store = Store::open_existing(&cli.db)?;
    let engine = engines(&config.settings).and_then(|e| e.workers.first().map(|w| w.engine_id()));
    let options = Options::from_settings(&config.settings);
    let report = crate::translate::status::of(&store, &config.settings.languages, &options, engine.as_deref())?;
    if json {
        return super::print_json(&report).map(|_| exit::OK);
    }
    crate::outln!("engine: {}", report.engine)?;
    let mut table =
        crate::output::Table::new(&["lang", "texts", "publisher", "human", "machine", "pending", "failed", "data"]).right(&[1, 2, 3, 4, 5, 6]);
    for l in &report.languages {
        let n = |v: u64| v.to_string();
        table.row([l.lang.clone(), n(l.texts), n(l.publisher), n(l.human), n(l.machine), n(l.pending), n(l.failed), l.data_version.clone()]);
    }
    table.print()?;
    Ok(exit::OK)
}
