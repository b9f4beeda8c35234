//! Issue 33 item 2 through the binary, with real Apertium: the real Madrid
//! feed of 2025-10 translated into all six languages holds none of the
//! garbled forms of `data/lang/garbled.tsv` (a stop standing alone or
//! doubled, a Catalan article fused with a pronoun, a French subject pronoun
//! the original lacks, a stop torn from its sentence) that its original
//! lacks; `translate status` counts the texts house style mended and those
//! translated again.
use crate::common;

use cityvibe::translate::garble::forms;
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

#[test]
fn issue33_2_no_garbled_form_in_any_language_of_the_real_madrid_feed() {
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
    let original: HashMap<String, Value> = listed(d, None).into_iter().map(|e| (e["source_event_id"].as_str().unwrap().to_string(), e)).collect();
    let mut garbled = Vec::new();
    for lang in ["en", "fr", "it", "pt", "ca", "gl"] {
        for e in listed(d, Some(lang)) {
            let o = &original[e["source_event_id"].as_str().unwrap()];
            for field in ["title", "description"] {
                let (es, text) = (o[field].as_str().unwrap_or_default(), e[field].as_str().unwrap_or_default());
                let found = forms(es, text, lang);
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
