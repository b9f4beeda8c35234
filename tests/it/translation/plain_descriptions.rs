//! Through the binary, with real Apertium and a real SQLite file: a
//! Spanish description into Catalan or Galician goes to Apertium plain,
//! keeping apart only the names its own dictionary would translate as
//! ordinary words; the Spanish "en" Apertium writes before a kept place it
//! cannot see reads Catalan "a".
//!
//! Not for: titles, which get the full preparation (`name_words`,
//! `names`), or Catalan originals (`catalan_originals`).
use crate::common::{has_apertium, workdir};
use crate::translation::quality::{listed, record, run, write_feed};

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\n[sources.madrid]\nenabled = true\n";

fn description(dir: &std::path::Path, lang: &str, id: &str) -> String {
    listed(dir, lang)[id]["description"].as_str().unwrap().to_string()
}

/// The event's town, kept as published, reads "a Madrid" in Catalan, not
/// the Spanish "en Madrid" Apertium writes before what it cannot see.
#[test]
fn a_catalan_description_says_a_before_a_kept_place() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(dir.path(), &[record("1", "Cante", "Reivindicar su faceta de cantaora, en Madrid, cosa no sencilla.", "Sala X")]);
    run(dir.path());
    let ca = description(dir.path(), "ca", "1");
    assert!(ca.contains("a Madrid") && !ca.contains("en Madrid"), "ca: {ca}");
}

/// A name the engine's own dictionary knows as a proper noun alone goes
/// to it with its sentence: Catalan "Caputxeta", "Nova York", and the
/// words around it come back whole ("de Nova York a Castella", not "De
/// Nueva York Castella"; "inspirats en Halloween"). A name it would
/// translate as ordinary words, one it does not know and a person's stay
/// as published: "Lavapiés" (not "Llavapeus"), "Chamberí", "Gloria
/// Fuertes" (not Galician "Gloria Fortes"), "José Luis" (not "José Luís").
#[test]
fn a_plain_description_keeps_apart_only_the_names_its_engine_would_mangle() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(
        dir.path(),
        &[
            record(
                "1",
                "Cuento",
                "No digamos la mismísima Caperucita. Adornos inspirados en Halloween. De Nueva York a Castilla.",
                "Sala X",
            ),
            record("2", "Paseo", "Paseo por Lavapiés y Chamberí con Gloria Fuertes en la plaza José Luis Hoys.", "Sala X"),
        ],
    );
    run(dir.path());
    let ca = description(dir.path(), "ca", "1");
    assert!(ca.contains("la mateixa Caputxeta") && ca.contains("inspirats en Halloween"), "ca: {ca}");
    assert!(ca.contains("De Nova York a Castella"), "ca: {ca}");
    let ca = description(dir.path(), "ca", "2");
    assert!(ca.contains("per Lavapiés i Chamberí") && ca.contains("Gloria Fuertes") && ca.contains("José Luis Hoys"), "ca: {ca}");
    let gl = description(dir.path(), "gl", "2");
    assert!(gl.contains("Gloria Fuertes") && gl.contains("José Luis Hoys"), "gl: {gl}");
}
