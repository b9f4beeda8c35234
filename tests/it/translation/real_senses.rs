//! Through the binary, with real Apertium and a real SQLite file, on a
//! bounded sample of real records (Madrid 2025-10 and Andalucía 2026-01 of
//! `../shared/realdata/`): senses the real feeds repeat and the engine
//! reads the wrong way come out right in every language it misread them
//! in. Places and programmes named with ordinary words stay as published
//! (the gazetteer: "Calle 30" is no "Street 30", "Fuencarral - El Pardo" no
//! "The Pardo", "Madrid Distrito en Corto" no "in Short", "Salón Gourmets"
//! no "Living Room"); the domain's fixed expressions are the term base's
//! ("Marcha nórdica" is Nordic walking, "suelo pélvico" a pelvic floor,
//! "Red Natura 2000" the Natura 2000 network, "hablamos de trata" talks
//! about trafficking); a term heads a place's name in a title-case title
//! ("Itinerario Ornitológico Parque del Oeste"); and a title all in
//! capitals takes its terms in capitals ("FERIA DE EMPLEO Y
//! EMPRENDIMIENTO", which read "Fair OF USE").
//!
//! Not for: the rules' own examples (the data files' `# example:` lines,
//! run by `every_example_in_the_language_data_holds` and
//! `every_multi_word_sense_has_an_example_that_holds`).
use crate::common::{
    ANDALUCIA_2026_01, MADRID_2025_10, TitlesByLang, json_rows_cut_to, madrid_feed_cut_to, place, realdata_translated, run_each_from,
    workdir,
};
use serde_json::Value;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\", \"ca\", \"gl\"]\n\n\
[sources.madrid]\nenabled = true\n[sources.andalucia]\nenabled = true\n";
const MADRID: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const ANDALUCIA: &str = "datos.juntadeandalucia.es/api/v0/schedule/all?format=json";
/// Madrid: "Correr por Madrid", "Marcha nórdica por Madrid", "Calle 30",
/// "(Fuencarral - El Pardo)", "Cine: Madrid Distrito en Corto",
/// "Itinerario Ornitológico Parque del Oeste", "Activando mi suelo
/// pélvico…", "…: hablamos de trata".
const MADRID_IDS: &[&str] = &["12810210", "12810699", "12728551", "12309514", "50070659", "12233848", "50015577", "12812923"];
/// Andalucía: "Salón Gourmets", "FERIA DE EMPLEO Y EMPRENDIMIENTO…", "…en Red Natura 2000".
const ANDALUCIA_IDS: &[&str] = &["475498", "636271", "636442"];

#[test]
fn senses_the_real_feeds_repeat_read_right_in_every_language() {
    let Some([madrid, andalucia]) = realdata_translated([MADRID_2025_10, ANDALUCIA_2026_01]) else {
        return;
    };
    let dir = workdir(CONFIG);
    let (d, mirror) = (dir.path(), dir.path().join("mirror"));
    // The real records as published, only the sample's. Titles only: the
    // descriptions would cost the engines seconds and are not what this reads.
    let no_description = |r: &mut Value| r["description"] = Value::String(String::new());
    place(&mirror, MADRID, &madrid_feed_cut_to(&madrid, MADRID_IDS, no_description));
    place(&mirror, ANDALUCIA, &json_rows_cut_to(&andalucia, "id", ANDALUCIA_IDS, no_description));
    run_each_from(d, &mirror, &["madrid", "andalucia"]);
    let titles = TitlesByLang::of(d);
    let has = |lang: &str, id: &str, want: &str| titles.has(lang, id, want);
    let lacks = |lang: &str, id: &str, wrong: &str| titles.lacks(lang, id, wrong);

    // Places and programmes named with ordinary words stay as published.
    for lang in ["en", "fr", "it", "pt", "ca", "gl"] {
        has(lang, "12728551", "Calle 30");
        has(lang, "12309514", "Fuencarral - El Pardo");
        has(lang, "50070659", "Madrid Distrito en Corto");
        has(lang, "475498", "Salón Gourmets");
    }
    lacks("en", "12728551", "Street");
    lacks("en", "50070659", "in Short");
    lacks("en", "475498", "Living Room");
    // The domain's fixed expressions.
    has("en", "12810210", "Running Around Madrid");
    lacks("en", "12810210", "Run by");
    has("en", "12810699", "Nordic Walking Around Madrid");
    has("fr", "12810699", "Marche nordique");
    lacks("fr", "12810699", "Part nordique");
    has("it", "12810699", "Camminata nordica");
    has("en", "12233848", "Birdwatching Route");
    lacks("en", "12233848", "Ornitológico");
    has("fr", "12233848", "ornithologique");
    has("en", "50015577", "Pelvic Floor");
    lacks("en", "50015577", "Soil");
    has("fr", "50015577", "plancher pelvien");
    has("it", "50015577", "pavimento pelvico");
    has("en", "12812923", "Trafficking");
    lacks("en", "12812923", "It Treats");
    has("en", "636442", "Natura 2000 Network");
    lacks("en", "636442", "Net Nature");
    has("fr", "636442", "Natura 2000");
    has("it", "636442", "Natura 2000");
    // A title all in capitals: its terms in capitals, no "OF USE".
    has("en", "636271", "EMPLOYMENT AND ENTREPRENEURSHIP FAIR");
    lacks("en", "636271", "OF USE");
    has("fr", "636271", "SALON DE L'EMPLOI");
}
