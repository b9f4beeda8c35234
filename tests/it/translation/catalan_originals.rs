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
use crate::common::{GENCAT_2022_11, json_rows_cut_to, place, realdata_translated, run_each_from, titles_all, workdir};
use serde_json::Value;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\", \"ca\", \"gl\"]\n\n\
[sources.gencat]\nenabled = true\n";
const GENCAT: &str = "analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0";
/// "ACTIVITAT CANCEL·LADA Roba Estesa", "Festival Foramuralla 2019 NO S'HA FET 2020".
const IDS: &[&str] = &["20210111026", "20210114034"];

#[test]
fn a_status_shouted_in_a_catalan_title_is_translated_and_a_name_beside_it_kept() {
    let Some([gencat]) = realdata_translated([GENCAT_2022_11]) else {
        return;
    };
    let dir = workdir(CONFIG);
    let (d, mirror) = (dir.path(), dir.path().join("mirror"));
    // The real rows as published, only the sample's (the feed repeats a
    // row: its first), titles only.
    let titles_only = |r: &mut Value| {
        r["descripcio"] = Value::String(String::new());
        r["descripcio_html"] = Value::String(String::new());
    };
    place(&mirror, GENCAT, &json_rows_cut_to(&gencat, "codi", IDS, titles_only));
    run_each_from(d, &mirror, &["gencat"]);
    for lang in ["es", "en", "fr", "it", "pt", "gl"] {
        let t = titles_all(d, lang);
        let cancelled = &t["20210111026"];
        assert!(!cancelled.contains("ACTIVITAT") && !cancelled.contains("CANCEL·LADA"), "{lang}: {cancelled}");
        let not_held = &t["20210114034"];
        assert!(!not_held.contains("S'HA FET"), "{lang}: {not_held}");
        assert!(not_held.contains("Foramuralla"), "{lang}: {not_held}");
    }
    // The status in the reader's words: Spanish "cancelada", "hecho".
    let es = titles_all(d, "es");
    assert!(es["20210111026"].to_lowercase().contains("cancelada"), "{}", es["20210111026"]);
    assert!(es["20210114034"].to_lowercase().contains("hecho"), "{}", es["20210114034"]);
}
