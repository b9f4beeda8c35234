//! Through the binary, with real Apertium and a real SQLite file, on a
//! bounded sample of real records (Madrid 2025-10 and the Catalonia agenda
//! of `../shared/realdata/`): what the finishing and the kept spans used to
//! break where plain Apertium had it right. A demonstrative before a term
//! is no pronoun ("In east course", "de celle-ci [exposition]"), Catalan's
//! "I" opening a sentence is no first edition ("1st Now What?"), the
//! Catalan "i" between two places is translated ("Lleida i Tarragona"),
//! and a place alone takes the reader's name for it (French "Gérone",
//! English "Catalonia").
//!
//! Not for: the rules' own examples (the data files' `# example:` lines,
//! run by `every_example_in_the_language_data_holds`).
use crate::common::{cityvibe, has_apertium, place, realdata, workdir};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\", \"ca\", \"gl\"]\n\n\
[sources.madrid]\nenabled = true\n[sources.gencat]\nenabled = true\n";
const MADRID: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const GENCAT: &str = "analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0";
/// Madrid: "En este curso trabajaremos…", "Las ilustraciones de esta exposición…".
const MADRID_IDS: &[&str] = &["50043503", "50093156"];
/// Catalonia: "…Diputacions de Barcelona, Girona, Lleida i Tarragona", "I ara què?".
const GENCAT_IDS: &[&str] = &["20210127002", "20210127025"];

/// The sample's events in `lang`, by source event id.
fn listed(d: &Path, lang: &str) -> HashMap<String, Value> {
    let out = cityvibe(d, &["events", "list", "--all", "--json", "--limit", "1000", "--lang", lang]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let all: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    all.into_iter().map(|e| (e["source_event_id"].as_str().unwrap().to_string(), e)).collect()
}

#[test]
fn the_finishing_breaks_none_of_the_words_plain_apertium_has_right_on_real_records() {
    let (Some(madrid), Some(gencat)) = (
        realdata("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json"),
        realdata("gencat_agenda_cultural/rhpv-yr4f_agenda-cultural-catalunya_2022-11.json"),
    ) else {
        return;
    };
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let d = dir.path();
    let mirror = d.join("mirror");
    // The real records as published, only the sample's (the feed has raw line breaks in strings).
    let raw = std::fs::read_to_string(madrid).unwrap();
    let mut feed: serde_json::Map<String, Value> = serde_json::from_str(&raw.replace('\n', " ")).unwrap();
    let graph: Vec<Value> =
        feed["@graph"].as_array().unwrap().iter().filter(|r| MADRID_IDS.contains(&r["id"].as_str().unwrap_or_default())).cloned().collect();
    assert_eq!(graph.len(), MADRID_IDS.len());
    feed.insert("@graph".into(), Value::Array(graph));
    place(&mirror, MADRID, serde_json::to_string(&feed).unwrap().as_bytes());
    let rows: Vec<Value> = serde_json::from_slice::<Vec<Value>>(&std::fs::read(gencat).unwrap())
        .unwrap()
        .into_iter()
        .filter(|r| GENCAT_IDS.contains(&r["codi"].as_str().unwrap_or_default()))
        .collect();
    place(&mirror, GENCAT, serde_json::to_string(&rows).unwrap().as_bytes());
    for source in ["madrid", "gencat"] {
        let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "run", "--force", "--source", source]);
        assert!(out.status.success(), "{source}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let text = |lang: &str, id: &str, field: &str| listed(d, lang)[id][field].as_str().unwrap_or_default().to_string();

    // A demonstrative before a term reads as one.
    let en = text("en", "50043503", "description");
    assert!(en.contains("this course") && !en.contains("east course"), "{en}");
    let fr = text("fr", "50093156", "description");
    assert!(!fr.contains("celle-ci") && fr.contains("Les illustrations de cet"), "{fr}");
    // Catalan "I" opening a title is its "and".
    let en = text("en", "20210127025", "title");
    assert!(!en.contains("1st") && en.starts_with("And"), "{en}");
    // The Catalan "i" between two places is translated, and places take the reader's name.
    let en = text("en", "20210127002", "description");
    assert!(en.contains("Lleida and Tarragona") && !en.contains(" i Tarragona"), "{en}");
    let fr = text("fr", "20210127002", "description");
    assert!(fr.contains("Gérone") && fr.contains("et Tarragone") && !fr.contains(" i Tarragona"), "{fr}");
    assert!(fr.contains("Generalitat de Catalunya"), "an organisation's name stays as published: {fr}");
}
