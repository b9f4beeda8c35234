//! A kept run word by word, through the binary with real
//! Apertium and a real SQLite file. Inside a capitalised run kept as a
//! name, the parts Apertium's Spanish dictionary knows as ordinary words go
//! to the engine ("Universidad Autónoma", "Museo Nacional de Ciencias
//! Naturales") where `data/translate/name-words.tsv` switches it on for the
//! (language, field); the words only a name has stay as written
//! ("Lavapiés", "Fernando Valladares").
use crate::common::{has_apertium, workdir};
use crate::translation::quality::{listed, record, run, write_feed};

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\n[sources.madrid]\nenabled = true\n";

const DESCRIPTION: &str = "Paseo por Lavapiés con Javier Sádaba, profesor de la Universidad Autónoma de Madrid, \
                           y charla de Fernando Valladares del Museo Nacional de Ciencias Naturales.";

fn description(dir: &std::path::Path, lang: &str) -> String {
    listed(dir, lang)["1"]["description"].as_str().unwrap().to_string()
}

/// A Catalan description translates "Universidad Autónoma"
/// and keeps "Lavapiés"; an English one translates the museum and keeps
/// the scientist's name (the run "Fernando Valladares del Museo Nacional
/// de Ciencias Naturales" is not left Spanish whole).
#[test]
fn kept_runs_are_split_word_by_word_in_descriptions() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(dir.path(), &[record("1", "Paseo con ciencia", DESCRIPTION, "Sala X")]);
    run(dir.path());
    let ca = description(dir.path(), "ca");
    assert!(ca.contains("Universitat Autònoma de Madrid"), "ca: {ca}");
    assert!(ca.contains("Lavapiés") && ca.contains("Javier Sádaba") && ca.contains("Fernando Valladares"), "ca: {ca}");
    assert!(!ca.contains("Universidad") && !ca.contains("Museo Nacional"), "ca: {ca}");
    let en = description(dir.path(), "en");
    assert!(en.contains("Lavapiés") && en.contains("Fernando Valladares"), "en: {en}");
    assert!(!en.contains("Museo Nacional") && !en.contains(" del "), "en: {en}");
}

/// The table decides per (language, field): English titles
/// keep the run whole, as the publisher wrote it; English descriptions
/// translate its dictionary words.
#[test]
fn the_word_by_word_table_decides_per_language_and_field() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let spanish = "Charla de la Universidad Autónoma de Madrid";
    write_feed(dir.path(), &[record("1", spanish, &format!("{spanish}."), "Sala X")]);
    run(dir.path());
    let en = &listed(dir.path(), "en")["1"];
    let (title, description) = (en["title"].as_str().unwrap(), en["description"].as_str().unwrap());
    assert!(title.contains("Universidad Autónoma de Madrid"), "en title: {title}");
    assert!(!description.contains("Universidad") && description.contains("Madrid"), "en description: {description}");
}
