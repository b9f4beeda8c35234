//! Through the binary, with real Apertium and a real SQLite file, on real
//! Madrid titles (2025-10, `../shared/realdata/`): a word alone between
//! two kept names stays between them. Each kept name reaches the engine as
//! a span its rules read as a blank, so in "De Casa de Campo a Madrid Río
//! I" the "a" stood beside "De": Galician and Portuguese wrote "Da Casa de
//! Campo Madrid Río I" and Catalan "D'I. Casa de Campo Madrid Río", where
//! plain Apertium keeps the "a". Into the languages that write the word as
//! Spanish does (`data/lang/es/name-joins.tsv`), the two names and the
//! word are kept as one.
//!
//! Not for: the rule's own examples (the data file's `# example` lines,
//! run by `every_example_in_the_language_data_holds`).
use crate::common::{MADRID_2025_10, listed_all, madrid_feed_cut_to, place, realdata_translated, run_each_from, workdir};
use serde_json::Value;

const MADRID: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
/// "De Casa de Campo a Madrid Río I", "Del Cerro del Tío Pío a Ruta
/// Escultórica de Palomeras: del Mirador del Cerro a Entrevías".
const IDS: &[&str] = &["12399262", "12278881"];

#[test]
fn a_word_between_two_kept_names_stays_between_them_in_real_titles() {
    let Some([madrid]) = realdata_translated([MADRID_2025_10]) else {
        return;
    };
    let config =
        "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"pt\", \"ca\", \"gl\"]\n\n[sources.madrid]\nenabled = true\n";
    let dir = workdir(config);
    let (d, mirror) = (dir.path(), dir.path().join("mirror"));
    place(&mirror, MADRID, &madrid_feed_cut_to(&madrid, IDS, |r| r["description"] = Value::String(String::new())));
    run_each_from(d, &mirror, &["madrid"]);
    for lang in ["gl", "pt", "ca"] {
        let events = listed_all(d, lang);
        let title = |id: &str| events[id]["title"].as_str().unwrap_or_default().to_string();
        let route = title("12399262");
        assert!(route.contains("Casa de Campo a Madrid Río"), "{lang}: {route}");
        assert!(!route.starts_with("Da ") && !route.starts_with("D'I"), "{lang}: {route}");
        let hill = title("12278881");
        assert!(hill.contains("Cerro del Tío Pío a Ruta Escultórica de Palomeras"), "{lang}: {hill}");
        assert!(!hill.contains("l'a "), "{lang}: {hill}");
    }
}
