//! Through the binary, with real Apertium and a real SQLite file: a
//! Spanish description into Catalan goes to Apertium plain, keeping only
//! the parts of a name the engine would translate ("Fuertes", not
//! "Forts"). The rest of a name is the engine's: an unknown word comes back
//! as written, a known proper noun with its established Catalan name, and
//! the words around it are translated with their context (the "y" between
//! two names → "i", "de" elided before a vowel); the Spanish "en" before a
//! kept place reads Catalan "a".
//!
//! Not for: titles, which get the full preparation (`name_words`,
//! `names`), or Catalan originals (`catalan_originals`).
use crate::common::{has_apertium, workdir};
use crate::translation::quality::{listed, record, run, write_feed};

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\n[sources.madrid]\nenabled = true\n";

fn description(dir: &std::path::Path, lang: &str, id: &str) -> String {
    listed(dir, lang)[id]["description"].as_str().unwrap().to_string()
}

/// A name's words the engine leaves or knows go to it with their context:
/// "CMM Antonio Mingote i CMM Santa Engracia",
/// "Caputxeta", "d'Alcorcón"; a person's surname that is also a Spanish
/// word stays as published ("Gloria Fuertes").
#[test]
fn a_catalan_description_keeps_only_the_name_words_the_engine_would_translate() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(
        dir.path(),
        &[
            record("2", "Excursión", "Excursión única para CMM Antonio Mingote y CMM Santa Engracia.", "Sala X"),
            record("3", "Teatro", "Y no digamos la misma Caperucita, que es un trasto de cuidado.", "Sala X"),
            record("4", "Exposición", "Exposición de la Asociación de Pirograbadores de Alcorcón.", "Sala X"),
            record("5", "Recital", "Recital de poemas de Gloria Fuertes.", "Sala X"),
        ],
    );
    run(dir.path());
    let ca = |id: &str| description(dir.path(), "ca", id);
    assert!(ca("2").contains("Antonio Mingote i CMM Santa Engracia"), "ca: {}", ca("2"));
    assert!(ca("3").contains("Caputxeta"), "ca: {}", ca("3"));
    assert!(ca("4").contains("d'Alcorcón"), "ca: {}", ca("4"));
    assert!(ca("5").contains("Gloria Fuertes"), "ca: {}", ca("5"));
}

/// The event's town, kept as published, reads "a Madrid" in Catalan, not
/// the Spanish "en Madrid" Apertium writes before what it cannot see; a
/// place with an established Catalan name takes it ("a Lleó").
#[test]
fn a_catalan_description_says_a_before_a_kept_place() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(
        dir.path(),
        &[
            record("1", "Cante", "Reivindicar su faceta de cantaora, en Madrid, cosa no sencilla.", "Sala X"),
            record("2", "Ciclo", "Ciclo de conferencias sobre Urraca I de León.", "Sala X"),
        ],
    );
    run(dir.path());
    let ca = description(dir.path(), "ca", "1");
    assert!(ca.contains("a Madrid") && !ca.contains("en Madrid"), "ca: {ca}");
    let ca = description(dir.path(), "ca", "2");
    assert!(ca.contains("sobre Urraca I de Lleó"), "ca: {ca}");
}
