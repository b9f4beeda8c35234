//! Through the binary, with real Apertium and a real SQLite file, on real
//! rows of the Catalonia agenda (`../shared/realdata/`): a Catalan original
//! translated from Catalan reads no worse than plain Apertium where the
//! kept names used to hide ordinary words. A status the publisher shouts in
//! capitals inside a title ("ACTIVITAT CANCEL·LADA", "NO S'HA FET") is
//! made of words the Catalan dictionary knows: the engine translates them,
//! while a name beside them the dictionary does not know ("Foramuralla")
//! stays as published.
//!
//! Not for: the rules' own examples (the data files' `# example:` lines),
//! or Spanish originals (`real_senses`, `real_slips`).
use crate::common::{cityvibe, has_apertium, place, realdata, workdir};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\", \"ca\", \"gl\"]\n\n\
[sources.gencat]\nenabled = true\n";
const GENCAT: &str = "analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0";
/// "ACTIVITAT CANCEL·LADA Roba Estesa", "Festival Foramuralla 2019 NO S'HA FET 2020".
const IDS: &[&str] = &["20210111026", "20210114034"];

/// The sample's titles in `lang`, by source event id.
fn titles(d: &Path, lang: &str) -> HashMap<String, String> {
    let out = cityvibe(d, &["events", "list", "--all", "--json", "--limit", "1000", "--lang", lang]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let all: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    all.into_iter()
        .map(|e| (e["source_event_id"].as_str().unwrap().to_string(), e["title"].as_str().unwrap_or_default().to_string()))
        .collect()
}

#[test]
fn a_status_shouted_in_a_catalan_title_is_translated_and_a_name_beside_it_kept() {
    let Some(gencat) = realdata("gencat_agenda_cultural/rhpv-yr4f_agenda-cultural-catalunya_2022-11.json") else {
        return;
    };
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let d = dir.path();
    let mirror = d.join("mirror");
    // The real rows as published, only the sample's (the feed repeats a
    // row: its first), titles only.
    let mut seen = std::collections::HashSet::new();
    let rows: Vec<Value> = serde_json::from_slice::<Vec<Value>>(&std::fs::read(gencat).unwrap())
        .unwrap()
        .into_iter()
        .filter(|r| IDS.contains(&r["codi"].as_str().unwrap_or_default()) && seen.insert(r["codi"].to_string()))
        .map(|mut r| {
            r["descripcio"] = Value::String(String::new());
            r["descripcio_html"] = Value::String(String::new());
            r
        })
        .collect();
    assert_eq!(rows.len(), IDS.len());
    place(&mirror, GENCAT, serde_json::to_string(&rows).unwrap().as_bytes());
    let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "run", "--force", "--source", "gencat"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for lang in ["es", "en", "fr", "it", "pt", "gl"] {
        let t = titles(d, lang);
        let cancelled = &t["20210111026"];
        assert!(!cancelled.contains("ACTIVITAT") && !cancelled.contains("CANCEL·LADA"), "{lang}: {cancelled}");
        let not_held = &t["20210114034"];
        assert!(!not_held.contains("S'HA FET"), "{lang}: {not_held}");
        assert!(not_held.contains("Foramuralla"), "{lang}: {not_held}");
    }
    // The status in the reader's words: Spanish "cancelada", "hecho".
    let es = titles(d, "es");
    assert!(es["20210111026"].to_lowercase().contains("cancelada"), "{}", es["20210111026"]);
    assert!(es["20210114034"].to_lowercase().contains("hecho"), "{}", es["20210114034"]);
}
