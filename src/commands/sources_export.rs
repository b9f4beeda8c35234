//! `cityvibe sources export --format md|html|json`: the "Fuentes de datos"
//! page (P19): every source with its publisher, dataset page, licence (with
//! its link), the attribution we show, how often the publisher updates it,
//! and how gently we fetch it.

use super::sources_page::{Frequency, Words, words};
use super::{exit, print_json};
use crate::cli::{Cli, SourcesExportArgs, SourcesFormat};
use crate::config::Config;
use crate::lang::Lang;
use anyhow::Result;
use serde::Serialize;
use std::io::Write;

/// One row of the page.
#[derive(Debug, Clone, Serialize)]
pub struct SourceEntry {
    pub id: String,
    pub name: String,
    pub publisher: String,
    pub host: String,
    pub dataset_page: String,
    pub licence: String,
    pub licence_url: String,
    pub attribution: String,
    pub update_schedule: String,
    /// The frequency `update_schedule` names, as the page shows it in every language.
    pub update_frequency: Frequency,
    /// Seconds between two requests to the host (the adapter's minimum or the operator's slower setting).
    pub delay_secs: f64,
    pub enabled: bool,
}

pub fn entries(config: Option<&Config>) -> Vec<SourceEntry> {
    crate::adapters::ALL
        .iter()
        .map(|a| {
            let m = a.manifest();
            let cited = crate::citation::of(config, m);
            SourceEntry {
                id: m.id.into(),
                name: m.name.into(),
                publisher: m.publisher.into(),
                host: m.host.into(),
                dataset_page: m.dataset_page.into(),
                licence: cited.licence,
                licence_url: cited.licence_url,
                attribution: cited.attribution,
                update_schedule: m.update_schedule.into(),
                update_frequency: Frequency::of(m.update_schedule),
                delay_secs: config.map_or(m.min_delay.as_secs_f64(), |c| c.delay_for(*a).as_secs_f64()),
                enabled: config.is_none_or(|c| c.enabled(m.id)),
            }
        })
        .collect()
}

/// Markdown: text that could start markup is escaped.
fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#') {
            out.push('\\');
        }
        out.push(if c == '\n' { ' ' } else { c });
    }
    out
}

/// A URL inside `<…>` in Markdown.
fn md_url(u: &str) -> String {
    u.replace(['<', '>', ' '], "")
}

fn secs(s: f64) -> String {
    if s.fract() == 0.0 { format!("{s:.0}") } else { format!("{s}") }
}

pub fn markdown(list: &[SourceEntry], w: &Words) -> String {
    let mut out = format!("# {}\n\n{}\n\n", w.title, w.intro);
    for s in list {
        out.push_str(&format!("## {} — {}\n\n", md(&s.publisher), md(&s.name)));
        out.push_str(&format!("- {}: {}\n", w.publisher, md(&s.publisher)));
        out.push_str(&format!("- {}: <{}>\n", w.dataset, md_url(&s.dataset_page)));
        out.push_str(&format!("- {}: [{}](<{}>)\n", w.licence, md(&s.licence), md_url(&s.licence_url)));
        out.push_str(&format!("- {}: {}\n", w.attribution, md(&s.attribution)));
        out.push_str(&format!("- {}: {}\n", w.updated, w.frequency(s.update_frequency)));
        out.push_str(&format!("- {} {}: {} s\n", w.pause, md(&s.host), secs(s.delay_secs)));
        if !s.enabled {
            out.push_str(&format!("- {}: {}\n", w.status, w.off));
        }
        out.push('\n');
    }
    out
}

/// One source as the HTML page shows it, its words already in the page's language.
struct PageRow<'a> {
    id: &'a str,
    publisher: &'a str,
    name: &'a str,
    host: &'a str,
    dataset_page: &'a str,
    licence: &'a str,
    licence_url: &'a str,
    attribution: &'a str,
    updated: &'a str,
    delay: String,
    enabled: bool,
}

/// The HTML page, from its compiled template (`templates/sources.html`),
/// which escapes every value.
#[derive(askama::Template)]
#[template(path = "sources.html")]
struct SourcesPage<'a> {
    lang: &'static str,
    title: &'a str,
    intro: &'a str,
    style: &'static str,
    words: &'a Words,
    rows: Vec<PageRow<'a>>,
}

/// A standalone HTML5 page (also well-formed XML).
pub fn html(list: &[SourceEntry], w: &Words) -> Result<String> {
    let rows = list
        .iter()
        .map(|s| PageRow {
            id: &s.id,
            publisher: &s.publisher,
            name: &s.name,
            host: &s.host,
            dataset_page: &s.dataset_page,
            licence: &s.licence,
            licence_url: &s.licence_url,
            attribution: &s.attribution,
            updated: w.frequency(s.update_frequency),
            delay: secs(s.delay_secs),
            enabled: s.enabled,
        })
        .collect();
    let page = SourcesPage { lang: w.lang.as_str(), title: &w.title, intro: &w.intro, style: super::sources_page::STYLE, words: w, rows };
    Ok(askama::Template::render(&page)?)
}

pub fn execute(cli: &Cli, args: &SourcesExportArgs) -> Result<super::Exit> {
    let (format, lang) = (args.format, args.lang);
    let w = words(lang);
    // The page can be made without a sources.toml: then the adapters' own delays.
    let config = if cli.config.exists() { Some(super::load_config(cli)?) } else { None };
    let list = entries(config.as_ref());
    // The page says licence names and the attribution's label in its language;
    // the JSON keeps the sources' own words.
    let page: Vec<SourceEntry> = list.iter().cloned().map(|s| in_language(s, lang)).collect();
    match format {
        SourcesFormat::Json => print_json(&list)?,
        SourcesFormat::Md => write!(std::io::stdout().lock(), "{}", markdown(&page, &w))?,
        SourcesFormat::Html => write!(std::io::stdout().lock(), "{}", html(&page, &w)?)?,
    }
    Ok(exit::OK)
}

/// A row as the page in `lang` shows it: the licence's name and the
/// attribution's label in that language, where the catalogue has them.
fn in_language(mut s: SourceEntry, lang: Lang) -> SourceEntry {
    s.attribution = crate::translate::fields::attribution_in(&s.attribution, lang);
    if let Some(name) = crate::translate::fields::licence_name(&s.licence_url, lang) {
        s.licence = name;
    }
    s
}
