//! Through the binary, with real Apertium and a real SQLite file, on a
//! bounded sample of real Madrid records (2025-10, `../shared/realdata/`):
//! a heading a title shouts in capitals beside words in sentence case is
//! translated whole and comes back in capitals ("MUESTRA DE CINE EUROPEO:
//! …" was French "Exposition DE CINE EUROPEO : …", its words in capitals
//! kept as a name), while a title all in capitals stays a name ("LA
//! HABITACIÓN ROJA" is a band).
//!
//! Not for: the rule's own examples (`prepare::headings`' unit tests), or
//! a heading in a description (no name already).
use crate::common::{MADRID_2025_10, listed_all, madrid_feed_cut_to, place, realdata_translated, run_each_from, workdir};
use serde_json::Value;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\"]\n\n\
[sources.madrid]\nenabled = true\n";
const MADRID: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
/// "MUESTRA DE CINE EUROPEO: Banda sonora…", "CONMEMORACIÓN DÍA DE LAS
/// ESCRITORAS. Cuentacuentos: …", "Concierto: 'FOLCLORE DIVERTIDO'.",
/// "LA HABITACIÓN ROJA".
const IDS: &[&str] = &["50070708", "50070508", "50071800", "50086825"];

#[test]
fn a_heading_in_capitals_is_translated_whole_and_a_title_in_capitals_stays_a_name_on_real_records() {
    let Some([madrid]) = realdata_translated([MADRID_2025_10]) else {
        return;
    };
    let dir = workdir(CONFIG);
    let (d, mirror) = (dir.path(), dir.path().join("mirror"));
    place(&mirror, MADRID, &madrid_feed_cut_to(&madrid, IDS, |r| r["description"] = Value::String(String::new())));
    run_each_from(d, &mirror, &["madrid"]);
    let title = |lang: &str, id: &str| listed_all(d, lang)[id]["title"].as_str().unwrap_or_default().to_string();
    for lang in ["en", "fr", "it", "pt"] {
        let t = title(lang, "50070708");
        assert!(!t.contains("DE CINE EUROPEO") && !t.contains("CINE EUROPEO:"), "{lang}: {t}");
        // Translated, and in capitals as published, up to the colon.
        let heading = t.split(':').next().unwrap_or_default();
        assert!(heading.chars().any(char::is_alphabetic) && !heading.chars().any(char::is_lowercase), "{lang}: {t}");
        let t = title(lang, "50070508");
        assert!(!t.contains("CONMEMORACIÓN") && !t.contains(" DE LAS "), "{lang}: {t}");
        let t = title(lang, "50086825");
        assert_eq!(t, "LA HABITACIÓN ROJA", "{lang}");
    }
    assert!(title("fr", "50070708").starts_with("FESTIVAL DE CINÉMA EUROPÉEN"), "{}", title("fr", "50070708"));
    assert!(title("fr", "50070508").starts_with("COMMÉMORATION JOURNÉE DES ÉCRIVAINES."), "{}", title("fr", "50070508"));
    assert!(title("en", "50071800").contains("'FUN FOLKLORE'"), "{}", title("en", "50071800"));
}
