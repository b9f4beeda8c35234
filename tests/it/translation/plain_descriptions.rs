//! Through the binary, with real Apertium and a real SQLite file: a
//! Spanish description into Catalan goes to Apertium plain, with its names
//! kept; the Spanish "en" Apertium writes before a kept place it cannot
//! see reads Catalan "a".
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
