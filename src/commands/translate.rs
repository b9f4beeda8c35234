//! `cityvibe translate`, and the translation step of `run`; `translate
//! correct|export|import`, the human side of translation.

use super::exit;
use crate::cli::{Cli, ExchangeOnly, TranslateArgs, TranslateCommand};
use crate::config::Config;
use crate::lang::Lang;
use crate::run::RunProgress;
use crate::store::Store;
use crate::translate::exchange;
use crate::translate::plan::Options;
use crate::translate::plan::configured::engines;
use crate::translate::plan::step::Step;
use crate::translate::send::stats::TranslateStats;
use crate::vocab::Field;
use anyhow::Result;

/// Translate what needs it; a progress bar on a terminal (texts done / total, words/s).
pub fn step(store: &mut Store, config: &Config, sources: &[String], show_progress: bool) -> Result<Option<TranslateStats>> {
    let Some(mut engines) = engines(&config.settings) else {
        // No engine: human corrections still reach new events with their text.
        store.apply_translation_memory(&config.settings.langs(), sources)?;
        return Ok(None);
    };
    // The same progress as `run`'s translation step.
    let mut progress = super::progress::Progress::new(0, show_progress);
    progress.start_translating();
    let langs = config.settings.langs();
    let step = Step::new(&langs, sources).with_options(Options::from_settings(&config.settings));
    let stats = engines.translate(store, &step, |p| progress.translating(p.done, p.total, p.words))?;
    drop(progress);
    Ok(Some(stats))
}

pub fn execute(cli: &Cli, args: &TranslateArgs) -> Result<super::Exit> {
    if let Some(command) = &args.command {
        return exchange(cli, command);
    }
    let (sources, json) = (&args.sources, args.json);
    let config = super::load_config(cli)?;
    super::check_source_ids(sources)?;
    Store::require(&cli.db)?;
    let _lock = super::run_lock(cli)?;
    let mut store = Store::open(&cli.db)?;
    let Some(stats) = step(&mut store, &config, sources, !json && super::stdout_is_terminal())? else {
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

/// Exchange files carry Spanish originals: Spanish is no target for them.
fn check_not_source(lang: Lang) -> Result<()> {
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
    match command {
        TranslateCommand::Export { lang, format, sources, only } => {
            let lang = *lang;
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
                    Some(ExchangeOnly::Machine) => t.current.as_ref().is_some_and(|(_, o)| o.is_machine()),
                })
                .collect();
            crate::outln!("{}", exchange::write(*format, lang, &texts)?.trim_end())?;
            Ok(exit::OK)
        }
        TranslateCommand::Correct { id, lang, title, description } => {
            let lang = *lang;
            let Ok(named) = id.parse::<crate::vocab::EventRef>() else {
                crate::bail_usage!("{id}: say which event as SOURCE:ID (see `cityvibe events list`)");
            };
            let (source, event_id) = (named.source.as_str(), named.id.as_str());
            if title.is_none() && description.is_none() {
                crate::bail_usage!("give --title, --description or both");
            }
            Store::require(&cli.db)?;
            let _lock = super::run_lock(cli)?;
            let mut store = Store::open(&cli.db)?;
            let Some((own, original_title, original_description)) = store.event_texts(source.trim(), event_id.trim())? else {
                crate::bail_usage!("no stored event {id}; see `cityvibe events list`");
            };
            if own == lang {
                crate::bail_usage!("{id} is published in {lang} already: correct the original with `cityvibe events correct`");
            }
            for (field, text, original) in
                [(Field::Title, title, &original_title), (Field::Description, description, &original_description)]
            {
                let Some(text) = text else { continue };
                if let Some(why) = crate::parse::stored::refusal(text) {
                    crate::bail_usage!("the {field} {why}: CityVibe does not store it");
                }
                let text = crate::operate::import::human_text(field, text);
                if original.trim().is_empty() || text.is_empty() {
                    crate::bail_usage!("{id} has no {field} to translate, or the translation is empty");
                }
                let events = store.save_human_translation(&own, lang, field, original, &text)?;
                crate::outln!("{field} in {lang}: stored, shown on {events} event(s) with the same original")?;
            }
            Ok(exit::OK)
        }
        TranslateCommand::Status { json } => status(cli, *json),
        TranslateCommand::Import { file, json } => import(cli, file, *json),
    }
}

/// `translate import FILE`: each entry checked, the accepted ones applied in
/// one transaction, every refusal reported (exit 2 when there is one).
fn import(cli: &Cli, file: &std::path::Path, json: bool) -> Result<super::Exit> {
    let content = std::fs::read_to_string(file).map_err(|e| crate::output::usage(format!("reading {}: {e}", file.display())))?;
    let imported = exchange::read(&content, &file.display().to_string()).map_err(|e| crate::output::usage(format!("{e:#}")))?;
    // The file's own language, not a --lang option: the message names the file.
    let name = file.display();
    let lang = crate::operate::import::check_language(&imported, &name.to_string())?;
    Store::require(&cli.db)?;
    let _lock = super::run_lock(cli)?;
    let mut store = Store::open(&cli.db)?;
    let report = crate::operate::import::apply(&mut store, &imported, lang, &crate::clock::SystemClock)?;
    if json {
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
    if !report.refused.is_empty() {
        eprintln!(
            "cityvibe: {name}: {} entries refused (each with its reason in the report), the other {} applied; fix them in the file and import it again",
            report.refused.len(),
            report.applied
        );
        return Ok(exit::USAGE);
    }
    Ok(exit::OK)
}

/// `translate status`: per language, the texts by who translated them, what is
/// pending, what is set aside, the engine and the data.
fn status(cli: &Cli, json: bool) -> Result<super::Exit> {
    let config = super::load_config(cli)?;
    let store = Store::open_existing(&cli.db)?;
    let engine = engines(&config.settings).and_then(|e| e.workers.first().map(|w| w.engine_id()));
    let options = Options::from_settings(&config.settings);
    let report = crate::translate::status::of(&store, &config.settings.langs(), &options, engine.as_deref())?;
    if json {
        return super::print_json(&report).map(|_| exit::OK);
    }
    crate::outln!("engine: {}", report.engine)?;
    let mut table = crate::output::Table::new(&[
        "lang",
        "texts",
        "publisher",
        "human",
        "machine",
        "pending",
        "failed",
        "mended",
        "retranslated",
        "data",
    ])
    .right(&[1, 2, 3, 4, 5, 6, 7, 8]);
    for l in &report.languages {
        let n = |v: u64| v.to_string();
        table.row([
            l.lang.clone(),
            n(l.texts),
            n(l.publisher),
            n(l.human),
            n(l.machine),
            n(l.pending),
            n(l.failed),
            n(l.garbled_mended),
            n(l.garbled_retranslated),
            l.data_version.clone(),
        ]);
    }
    table.print()?;
    Ok(exit::OK)
}
