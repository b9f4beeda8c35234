//! Garbled forms, through the binary with real Apertium: the real Madrid
//! feed of 2025-10 translated into all six languages holds none of the
//! garbled forms of `data/lang/garbled.tsv` (a stop standing alone or
//! doubled, a Catalan article fused with a pronoun, a French subject pronoun
//! the original lacks, a stop torn from its sentence) that its original
//! lacks; `translate status` counts the texts house style mended and those
//! translated again.
use crate::common;

use crate::translation::quality::{record, write_feed};
use cityvibe::translate::finish::garble::forms;
use common::{cityvibe, realdata, workdir};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\", \"ca\", \"gl\"]\n\n[sources.madrid]\nenabled = true\n";
const FEED: &str = "mirror/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";

fn listed(d: &Path, lang: Option<&str>) -> Vec<Value> {
    let mut args = vec!["events", "list", "--all", "--json", "--limit", "100000"];
    args.extend(lang.map(|l| ["--lang", l]).into_iter().flatten());
    let out = cityvibe(d, &args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

/// None of the forms in any language of the whole real
/// feed (1,579 events, titles and descriptions). Without house style's
/// repairs: 25 French texts (Apertium's "Il arrive chaque année" for "Sucede
/// cada año", "Alpha il est une fille") and one Catalan ("en l'El Cairo").
/// Impersonal "il" and "il" after "Et", "Quand" are French's own and not
/// counted (`data/lang/garbled.tsv`). Real Apertium, six languages.
#[test]
fn no_garbled_form_in_any_language_of_the_real_madrid_feed() {
    let Some(feed) = realdata("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json") else { return };
    if !common::has_apertium() {
        eprintln!("skipped: Apertium is not installed");
        return;
    }
    let dir = workdir(CONFIG);
    let d = dir.path();
    std::fs::create_dir_all(d.join(FEED).parent().unwrap()).unwrap();
    std::fs::copy(feed, d.join(FEED)).unwrap();
    let out = cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let original: HashMap<String, Value> =
        listed(d, None).into_iter().map(|e| (e["source_event_id"].as_str().unwrap().to_string(), e)).collect();
    let mut garbled = Vec::new();
    for lang in ["en", "fr", "it", "pt", "ca", "gl"] {
        for e in listed(d, Some(lang)) {
            let o = &original[e["source_event_id"].as_str().unwrap()];
            for field in ["title", "description"] {
                let (es, text) = (o[field].as_str().unwrap_or_default(), e[field].as_str().unwrap_or_default());
                let found = forms(es, text, lang.parse().unwrap());
                if !found.is_empty() {
                    garbled.push(format!("{lang} {} {field} {found:?}: {text}", e["source_event_id"]));
                }
            }
        }
    }
    assert!(garbled.is_empty(), "{} garbled texts:\n{}", garbled.len(), garbled.join("\n"));
    // The status counts what was put right: the real feed needs both in French and Catalan.
    let out = cityvibe(d, &["translate", "status", "--json"]);
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    let of = |lang: &str, key: &str| {
        status["languages"].as_array().unwrap().iter().find(|l| l["lang"] == lang).map_or(0, |l| l[key].as_u64().unwrap_or(0))
    };
    assert!(of("fr", "garbled_mended") > 0 && of("ca", "garbled_mended") > 0, "{status}");
    let table = String::from_utf8_lossy(&cityvibe(d, &["translate", "status"]).stdout).into_owned();
    assert!(table.contains("mended") && table.contains("retranslated"), "{table}");
}

/// Madrid's feed translated by Apertium into French and Catalan.
const FR_CA: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"fr\", \"ca\"]\n\n[sources.madrid]\nenabled = true\n";

/// The forms house style knows, through the binary with
/// real Apertium: a stop Catalan moved before a kept venue ("del . CEAC
/// Maris Stella"), a French subject pronoun after a kept name ("Ismael
/// Serrano il commençait") are mended, and `translate status` counts them.
#[test]
fn known_garbled_forms_are_mended_and_counted() {
    if !common::has_apertium() {
        eprintln!("skipped: Apertium is not installed");
        return;
    }
    let dir = workdir(FR_CA);
    let d = dir.path();
    let stop = "Lugar: Comienza en la recepción del CEAC Maris Stella. Edad: para mayores de 10 años.";
    let pronoun = "En 2023, Ismael Serrano comenzaba a trabajar en un proyecto sinfónico.";
    write_feed(d, &[record("1", "Senda de las aves", stop, "CEAC Maris Stella"), record("2", "Concierto sinfónico", pronoun, "Sala A")]);
    let out = cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let original: HashMap<String, Value> =
        listed(d, None).into_iter().map(|e| (e["source_event_id"].as_str().unwrap().to_string(), e)).collect();
    for lang in ["fr", "ca"] {
        for e in listed(d, Some(lang)) {
            let o = &original[e["source_event_id"].as_str().unwrap()];
            let text = e["description"].as_str().unwrap();
            assert!(forms(o["description"].as_str().unwrap(), text, lang.parse().unwrap()).is_empty(), "{lang}: {text}");
        }
    }
    let status: Value = serde_json::from_slice(&cityvibe(d, &["translate", "status", "--json"]).stdout).unwrap();
    let mended: u64 = status["languages"].as_array().unwrap().iter().map(|l| l["garbled_mended"].as_u64().unwrap_or(0)).sum();
    assert!(mended >= 1, "{status}");
}

/// A text's opening pronoun and a name's doubled article, through the
/// binary with real Apertium: the subject pronoun Apertium's French opens a
/// text with when the Spanish verb has no subject ("Sucede cada año" → "Il
/// arrive chaque année", "Es un concierto" → "Il est un concert") or puts
/// after the subject ("Alpha es una niña" → "Alpha il est une fille"), and
/// the Catalan article Apertium doubles before a name's own ("en el El
/// Cairo" → "en l'El Cairo", on a description sent plain) are mended and
/// counted; French's own "il faut" stays.
#[test]
fn an_opening_pronoun_and_a_doubled_article_are_mended() {
    if !common::has_apertium() {
        eprintln!("skipped: Apertium is not installed");
        return;
    }
    let dir = workdir(FR_CA);
    let d = dir.path();
    let records = [
        record("1", "Pasea Madrid", "Sucede cada año y la presente edición no iba a ser diferente.", "Sala A"),
        record("2", "Concierto familiar", "Es un concierto ideal para público familiar. Hay que reservar.", "Sala A"),
        record("3", "Alpha", "Alpha es una niña de 13 años que vive con su madre.", "Sala A"),
        record("4", "Happy Birthday", "Una ópera prima que explora el clasismo en el El Cairo contemporáneo.", "Sala A"),
    ];
    write_feed(d, &records);
    let out = cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let original: HashMap<String, Value> =
        listed(d, None).into_iter().map(|e| (e["source_event_id"].as_str().unwrap().to_string(), e)).collect();
    let mut fr = HashMap::new();
    for lang in ["fr", "ca"] {
        for e in listed(d, Some(lang)) {
            let o = &original[e["source_event_id"].as_str().unwrap()];
            for field in ["title", "description"] {
                let (es, text) = (o[field].as_str().unwrap(), e[field].as_str().unwrap());
                assert!(forms(es, text, lang.parse().unwrap()).is_empty(), "{lang} {field}: {text}");
                assert!(!text.contains("l'El "), "{lang} {field}: {text}");
            }
            if lang == "fr" {
                fr.insert(e["source_event_id"].as_str().unwrap().to_string(), e["description"].as_str().unwrap().to_string());
            }
        }
    }
    assert!(fr["2"].starts_with("C'est un concert") && fr["2"].contains("Il faut"), "{}", fr["2"]);
    assert!(fr["3"].starts_with("Alpha est"), "{}", fr["3"]);
    let status: Value = serde_json::from_slice(&cityvibe(d, &["translate", "status", "--json"]).stdout).unwrap();
    let of = |lang: &str| {
        status["languages"].as_array().unwrap().iter().find(|l| l["lang"] == lang).map_or(0, |l| l["garbled_mended"].as_u64().unwrap_or(0))
    };
    assert!(of("fr") >= 3 && of("ca") >= 1, "{status}");
}
