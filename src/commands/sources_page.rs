//! The fixed words of the public "Fuentes de datos" page in CityVibe's seven
//! languages, and the publisher's update frequency as a structured value, so no
//! English note leaks into another language's page. Not for the page's layout
//! (`sources_export.rs`) or for event texts.

pub use crate::adapter::Frequency;
use crate::lang::Lang;

/// The page's fixed words in one language.
pub struct Words {
    pub lang: Lang,
    pub title: &'static str,
    pub intro: &'static str,
    pub publisher: &'static str,
    pub dataset: &'static str,
    pub licence: &'static str,
    pub attribution: &'static str,
    pub updated: &'static str,
    /// "Pause between requests to" (the host follows).
    pub pause: &'static str,
    pub status: &'static str,
    pub off: &'static str,
    /// Continuous, hourly, daily, weekly, monthly, unstated.
    frequencies: [&'static str; 6],
}

impl Words {
    pub fn frequency(&self, f: Frequency) -> &'static str {
        self.frequencies[match f {
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
pub fn words(lang: Lang) -> &'static Words {
    ALL.iter().find(|w| w.lang == lang).expect("the page has words in every display language")
}

const ALL: [Words; 7] = [
    Words {
        lang: Lang::Es,
        title: "Fuentes de datos",
        intro: "CityVibe muestra eventos culturales publicados como datos abiertos por estas entidades. \
                Cada evento enlaza a su original y cita su fuente y su licencia.",
        publisher: "Editor",
        dataset: "Conjunto de datos",
        licence: "Licencia",
        attribution: "Atribución",
        updated: "Actualización",
        pause: "Pausa entre peticiones a",
        status: "Estado",
        off: "desactivada (no se consulta)",
        frequencies: ["continua", "cada hora", "diaria", "semanal", "mensual", "no indicada"],
    },
    Words {
        lang: Lang::Ca,
        title: "Fonts de dades",
        intro: "CityVibe mostra esdeveniments culturals publicats com a dades obertes per aquestes entitats. \
                Cada esdeveniment enllaça amb l’original i en cita la font i la llicència.",
        publisher: "Editor",
        dataset: "Conjunt de dades",
        licence: "Llicència",
        attribution: "Atribució",
        updated: "Actualització",
        pause: "Pausa entre peticions a",
        status: "Estat",
        off: "desactivada (no es consulta)",
        frequencies: ["contínua", "cada hora", "diària", "setmanal", "mensual", "no indicada"],
    },
    Words {
        lang: Lang::Gl,
        title: "Fontes de datos",
        intro: "CityVibe mostra eventos culturais publicados como datos abertos por estas entidades. \
                Cada evento leva unha ligazón ao orixinal e cita a súa fonte e a súa licenza.",
        publisher: "Editor",
        dataset: "Conxunto de datos",
        licence: "Licenza",
        attribution: "Atribución",
        updated: "Actualización",
        pause: "Pausa entre peticións a",
        status: "Estado",
        off: "desactivada (non se consulta)",
        frequencies: ["continua", "cada hora", "diaria", "semanal", "mensual", "non indicada"],
    },
    Words {
        lang: Lang::En,
        title: "Data sources",
        intro: "CityVibe shows cultural events published as open data by these organisations. \
                Every event links to its original and credits its source and licence.",
        publisher: "Publisher",
        dataset: "Dataset",
        licence: "Licence",
        attribution: "Attribution",
        updated: "Updated",
        pause: "Pause between requests to",
        status: "Status",
        off: "switched off (not fetched)",
        frequencies: ["continuously", "hourly", "daily", "weekly", "monthly", "not stated"],
    },
    Words {
        lang: Lang::Fr,
        title: "Sources de données",
        intro: "CityVibe présente des événements culturels publiés en données ouvertes par ces organismes. \
                Chaque événement renvoie à sa page d’origine et en cite la source et la licence.",
        publisher: "Éditeur",
        dataset: "Jeu de données",
        licence: "Licence",
        attribution: "Attribution",
        updated: "Mise à jour",
        pause: "Pause entre deux requêtes vers",
        status: "État",
        off: "désactivée (non consultée)",
        frequencies: ["en continu", "toutes les heures", "quotidienne", "hebdomadaire", "mensuelle", "non précisée"],
    },
    Words {
        lang: Lang::It,
        title: "Fonti dei dati",
        intro: "CityVibe mostra eventi culturali pubblicati come dati aperti da questi enti. \
                Ogni evento rimanda alla pagina originale e ne cita la fonte e la licenza.",
        publisher: "Editore",
        dataset: "Dataset",
        licence: "Licenza",
        attribution: "Attribuzione",
        updated: "Aggiornamento",
        pause: "Pausa tra due richieste a",
        status: "Stato",
        off: "disattivata (non consultata)",
        frequencies: ["continuo", "ogni ora", "quotidiano", "settimanale", "mensile", "non indicato"],
    },
    Words {
        lang: Lang::Pt,
        title: "Fontes de dados",
        intro: "A CityVibe mostra eventos culturais publicados como dados abertos por estas entidades. \
                Cada evento tem uma ligação para o original e cita a sua fonte e a sua licença.",
        publisher: "Editor",
        dataset: "Conjunto de dados",
        licence: "Licença",
        attribution: "Atribuição",
        updated: "Atualização",
        pause: "Pausa entre pedidos a",
        status: "Estado",
        off: "desativada (não é consultada)",
        frequencies: ["contínua", "de hora a hora", "diária", "semanal", "mensal", "não indicada"],
    },
];

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
