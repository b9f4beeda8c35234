//! The fixed words of the public "Fuentes de datos" page in CityVibe's seven
//! languages, read from `data/i18n/LANG/sources.ftl` (a translator edits
//! them there), and the publisher's update frequency as a structured value,
//! so no English note leaks into another language's page. Not for the
//! page's layout (`sources_export.rs`) or for event texts.

pub use crate::adapter::Frequency;
use crate::i18n;
use crate::lang::Lang;

/// The page's fixed words in one language, from its Fluent catalogue
/// (`data/i18n/LANG/sources.ftl`).
pub struct Words {
    pub lang: Lang,
    pub title: String,
    pub intro: String,
    pub publisher: String,
    pub dataset: String,
    pub licence: String,
    pub attribution: String,
    pub updated: String,
    /// "Pause between requests to" (the host follows).
    pub pause: String,
    pub status: String,
    pub off: String,
    /// Continuous, hourly, daily, weekly, monthly, unstated.
    frequencies: [String; 6],
}

impl Words {
    pub fn frequency(&self, f: Frequency) -> &str {
        &self.frequencies[match f {
            Frequency::Continuous => 0,
            Frequency::Hourly => 1,
            Frequency::Daily => 2,
            Frequency::Weekly => 3,
            Frequency::Monthly => 4,
            Frequency::Unstated => 5,
        }]
    }
}

/// The page's words in `lang`.
pub fn words(lang: Lang) -> Words {
    let c = i18n::catalogue(lang);
    let t = |id: &str| c.text(&format!("sources-{id}"));
    Words {
        lang,
        title: t("title"),
        intro: t("intro"),
        publisher: t("publisher"),
        dataset: t("dataset"),
        licence: t("licence"),
        attribution: t("attribution"),
        updated: t("updated"),
        pause: t("pause"),
        status: t("status"),
        off: t("off"),
        frequencies: ["continuous", "hourly", "daily", "weekly", "monthly", "unstated"].map(|f| t(&format!("frequency-{f}"))),
    }
}

/// A small, accessible stylesheet: readable measure and line height, large
/// tap targets, visible focus, AA contrast in light and dark, stacked
/// label/value pairs on a phone. No `<` or `&` (the page stays valid XML).
pub const STYLE: &str = "
:root { color-scheme: light dark; --fg: #1a1a1a; --bg: #ffffff; --muted: #4a4a4a; --link: #0b57d0; --rule: #d0d0d0; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececec; --bg: #121212; --muted: #c4c4c4; --link: #8ab4f8; --rule: #3a3a3a; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 46rem; padding: 1rem 1.25rem 3rem; font: 1.0625rem/1.6 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 1rem 0 0.5rem; }
h2 { font-size: 1.25rem; line-height: 1.3; margin: 2rem 0 0.5rem; padding-top: 1rem; border-top: 1px solid var(--rule); }
p { margin: 0 0 1rem; }
dl { margin: 0; display: grid; grid-template-columns: minmax(8rem, 14rem) 1fr; gap: 0.35rem 1rem; }
dt { font-weight: 600; color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
a { color: var(--link); text-underline-offset: 0.15em; }
a:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
@media (max-width: 36rem) { dl { grid-template-columns: 1fr; gap: 0; } dd { margin-bottom: 0.6rem; } }
";
