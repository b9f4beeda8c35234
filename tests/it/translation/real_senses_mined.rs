//! Through the binary, with real Apertium and a real SQLite file, on a
//! bounded sample of real titles (Madrid 2025-10, Andalucía 2026-01 and
//! Kulturklik 2018-07 of `../shared/realdata/`): more senses mined from
//! the real feeds, each repeated there and read the wrong way by the
//! engine, come out right in the languages it misread them in. "Cumple"
//! after an article or before "de" and a name is a birthday, not the verb
//! ("L'il accomplit de Cucudrito"); "Madrid Distrito en corto", the city's
//! short-film programme, keeps its name when the portal writes it in lower
//! case ("in Short"); a Madrid equality centre keeps its name whole
//! ("Space of Igualdad"); "búsqueda" is a search and "convocatoria" a call
//! in English ("The Research of", "the Announcement"); "Entre líneas" reads
//! between the lines ("Among Lines"); a "Ciclo de Grado Superior" is a
//! higher vocational training course ("Series of Upper Degree").
//!
//! Not for: the rules' own examples (the term files' `# example:` lines, run
//! by `every_multi_word_sense_has_an_example_that_holds`, and the
//! gazetteer's, run by `every_example_in_the_language_data_holds`).
use crate::common::{
    ANDALUCIA_2026_01, MADRID_2025_10, TitlesByLang, json_rows_cut_to, madrid_feed_cut_to, place, realdata_translated, run_each_from,
    workdir,
};
use serde_json::Value;
use std::path::Path;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\", \"ca\", \"gl\"]\n\n\
[sources.madrid]\nenabled = true\n[sources.andalucia]\nenabled = true\n[sources.euskadi]\nenabled = true\n";
const MADRID: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const ANDALUCIA: &str = "datos.juntadeandalucia.es/api/v0/schedule/all?format=json";
const KULTURKLIK: &str = "opendata.euskadi.eus/contenidos/ds_eventos/agenda_cultura_euskadi/es_kultura/adjuntos/kulturklik.json";
const KULTURKLIK_2018_07: &str = "euskadi_kulturklik/kulturklik_es_2018-07.json";
/// Madrid: "El cumple de Cucudrito", "Gymkana Halloween. El 4.º cumple de
/// Maris Stella…", "Madrid Distrito en corto" (and "… en Tetuán"), "Madrid
/// distrito en corto en Salamanca", "Entre líneas y ciencia con el CSIC:
/// 'Universo'", "Gimnasia mental. Espacio de Igualdad Dulce Chacón", "La
/// búsqueda de lo que no vemos".
const MADRID_IDS: &[&str] = &["50078007", "50067813", "50066149", "50066459", "50067729", "50006749", "50054723", "50077270"];
/// Andalucía: "Búsqueda de candidatos para la convocatoria 2024 de la
/// Acción C…", "III Convocatoria de Relatos Cortos…".
const ANDALUCIA_IDS: &[&str] = &["497914", "151185"];
/// Kulturklik: "Ciclo de Grado Superior: Técnicas Escultóricas",
/// "Exposición: \"La búsqueda de la felicidad\"".
const KULTURKLIK_IDS: &[&str] = &["2018053009204846", "2018030912325873"];

/// The real Kulturklik feed (a JSONP body) cut to the records whose
/// address names one of `ids`, titles only, as bytes a mirror serves.
fn kulturklik_cut_to(path: &Path, ids: &[&str]) -> Vec<u8> {
    let raw = std::fs::read_to_string(path).unwrap();
    let body = &raw[raw.find('(').unwrap() + 1..raw.rfind(')').unwrap()];
    let rows: Vec<Value> = serde_json::from_str::<Vec<Value>>(body)
        .unwrap()
        .into_iter()
        .filter(|r| ids.iter().any(|id| r["physicalUrl"].as_str().unwrap_or_default().contains(&format!("/{id}/"))))
        .collect();
    assert_eq!(rows.len(), ids.len(), "every id of {ids:?} in {}", path.display());
    format!("jsonCallback({});", serde_json::to_string(&rows).unwrap()).into_bytes()
}

#[test]
fn senses_mined_from_the_real_feeds_read_right_in_every_language_they_broke() {
    let Some([madrid, andalucia, kulturklik]) = realdata_translated([MADRID_2025_10, ANDALUCIA_2026_01, KULTURKLIK_2018_07]) else {
        return;
    };
    let dir = workdir(CONFIG);
    let (d, mirror) = (dir.path(), dir.path().join("mirror"));
    // Titles only: the descriptions would cost the engines seconds and are
    // not what this reads.
    let no_description = |r: &mut Value| r["description"] = Value::String(String::new());
    place(&mirror, MADRID, &madrid_feed_cut_to(&madrid, MADRID_IDS, no_description));
    place(&mirror, ANDALUCIA, &json_rows_cut_to(&andalucia, "id", ANDALUCIA_IDS, no_description));
    place(&mirror, KULTURKLIK, &kulturklik_cut_to(&kulturklik, KULTURKLIK_IDS));
    run_each_from(d, &mirror, &["madrid", "andalucia", "euskadi"]);
    let titles = TitlesByLang::of(d);
    let has = |lang: &str, id: &str, want: &str| titles.has(lang, id, want);
    let lacks = |lang: &str, id: &str, wrong: &str| titles.lacks(lang, id, wrong);

    // A birthday, not the verb.
    has("en", "50078007", "Birthday of Cucudrito");
    lacks("en", "50078007", "Fulfils");
    has("fr", "50078007", "L'anniversaire de Cucudrito");
    lacks("fr", "50078007", "accomplit");
    has("it", "50078007", "compleanno di Cucudrito");
    has("pt", "50078007", "aniversário de Cucudrito");
    has("ca", "50078007", "aniversari de Cucudrito");
    has("gl", "50078007", "aniversario de Cucudrito");
    has("en", "50067813", "4th Birthday of Maris Stella");
    has("fr", "50067813", "4e anniversaire de Maris Stella");
    has("it", "50067813", "compleanno di Maris Stella");
    has("pt", "50067813", "aniversário de Maris Stella");
    // The programme's name, however the portal writes it.
    for lang in ["en", "fr", "it", "pt", "ca", "gl"] {
        for id in ["50066149", "50066459", "50067729"] {
            has(lang, id, "Madrid Distrito en Corto");
        }
        has(lang, "50054723", "Espacio de Igualdad Dulce Chacón");
    }
    lacks("en", "50067729", "in Short");
    // English: a search and a call.
    has("en", "50077270", "Search for");
    has("en", "2018030912325873", "Search for");
    has("en", "497914", "Search for Candidates");
    has("en", "497914", "Call");
    has("en", "151185", "Call for");
    for id in ["50077270", "2018030912325873", "497914"] {
        lacks("en", id, "Research");
    }
    lacks("en", "497914", "Announcement");
    lacks("en", "151185", "Announcement");
    // Between the lines.
    has("en", "50006749", "Between the Lines");
    has("fr", "50006749", "Entre les lignes");
    has("it", "50006749", "Tra le righe");
    // A higher vocational training course.
    has("en", "2018053009204846", "Higher Vocational Training Course");
    lacks("en", "2018053009204846", "Upper Degree");
    has("fr", "2018053009204846", "Formation professionnelle supérieure");
    lacks("fr", "2018053009204846", "degré");
}
