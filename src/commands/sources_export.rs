//! `cityvibe sources export --format md|html|json`: the "Fuentes de datos"
//! page (P19): every source with its publisher, dataset page, licence (with
//! its link), the attribution we show, how often the publisher updates it,
//! and how gently we fetch it.

use super::{exit, print_json};
use crate::cli::{Cli, SourcesFormat};
use crate::config::Config;
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

pub fn markdown(list: &[SourceEntry]) -> String {
    let mut out = String::from("# Fuentes de datos\n\n");
    out.push_str(
        "CityVibe muestra eventos culturales publicados como datos abiertos por estas entidades. \
         Cada evento enlaza a su original y cita su fuente y su licencia.\n\n",
    );
    for s in list {
        out.push_str(&format!("## {} — {}\n\n", md(&s.publisher), md(&s.name)));
        out.push_str(&format!("- Editor: {}\n", md(&s.publisher)));
        out.push_str(&format!("- Conjunto de datos: <{}>\n", md_url(&s.dataset_page)));
        out.push_str(&format!("- Licencia: [{}](<{}>)\n", md(&s.licence), md_url(&s.licence_url)));
        out.push_str(&format!("- Atribución: {}\n", md(&s.attribution)));
        out.push_str(&format!("- Actualización: {}\n", md(&s.update_schedule)));
        out.push_str(&format!("- Pausa entre peticiones a {}: {} s\n", md(&s.host), secs(s.delay_secs)));
        if !s.enabled {
            out.push_str("- Estado: desactivada (no se consulta)\n");
        }
        out.push('\n');
    }
    out
}

/// HTML text and attribute escaping.
fn h(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A standalone HTML5 page (also well-formed XML).
pub fn html(list: &[SourceEntry]) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"es\">\n<head>\n<meta charset=\"utf-8\" />\n<title>Fuentes de datos — CityVibe</title>\n</head>\n<body>\n<h1>Fuentes de datos</h1>\n",
    );
    out.push_str(
        "<p>CityVibe muestra eventos culturales publicados como datos abiertos por estas entidades. \
         Cada evento enlaza a su original y cita su fuente y su licencia.</p>\n",
    );
    for s in list {
        out.push_str(&format!("<section id=\"{}\">\n<h2>{} — {}</h2>\n<dl>\n", h(&s.id), h(&s.publisher), h(&s.name)));
        let row = |k: &str, v: String| format!("<dt>{k}</dt><dd>{v}</dd>\n");
        out.push_str(&row("Editor", h(&s.publisher)));
        out.push_str(&row("Conjunto de datos", format!("<a href=\"{0}\">{0}</a>", h(&s.dataset_page))));
        out.push_str(&row("Licencia", format!("<a href=\"{}\" rel=\"license\">{}</a>", h(&s.licence_url), h(&s.licence))));
        out.push_str(&row("Atribución", h(&s.attribution)));
        out.push_str(&row("Actualización", h(&s.update_schedule)));
        out.push_str(&row(&format!("Pausa entre peticiones a {}", h(&s.host)), format!("{} s", secs(s.delay_secs))));
        if !s.enabled {
            out.push_str(&row("Estado", "desactivada (no se consulta)".into()));
        }
        out.push_str("</dl>\n</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

pub fn execute(cli: &Cli, format: SourcesFormat) -> Result<super::Exit> {
    // The page can be made without a sources.toml: then the adapters' own delays.
    let config = if cli.config.exists() { Some(super::load_config(cli)?) } else { None };
    let list = entries(config.as_ref());
    match format {
        SourcesFormat::Json => print_json(&list)?,
        SourcesFormat::Md => write!(std::io::stdout().lock(), "{}", markdown(&list))?,
        SourcesFormat::Html => write!(std::io::stdout().lock(), "{}", html(&list))?,
    }
    Ok(exit::OK)
}
