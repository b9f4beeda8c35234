//! The translation memory's remaining promises through the
//! binary with real Apertium: a correction reaches an occurrence that
//! arrives in a later run, whatever the engine (or none), and shows as
//! `human` in `events show` and exports; an import refuses an entry whose
//! Spanish changed since the export, and one carrying an e-mail (P5).
//!
//! Not for: the basic correct / export / import round trip (`translation::memory`).
use crate::common;
use crate::common::ok;
use crate::translation::memory::refused_some;
use crate::translation::quality::{listed, record, run, write_feed};

use common::{cityvibe, workdir};
use serde_json::Value;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\"]\n[sources.madrid]\nenabled = true\n";

/// Real Apertium is here (a missing one is announced, and fails under CI).
use crate::common::has_apertium;

fn forced_run(dir: &std::path::Path) -> std::process::Output {
    cityvibe(dir, &["--mirror", "mirror", "run", "--source", "madrid", "--force"])
}

/// A recurring activity published again later (a new id, the same Spanish)
/// gets the human text at once, even after the operator changed engine or
/// switched machine translation off; events show and every export say human.
#[test]
fn a_later_occurrence_gets_the_human_text_whatever_the_engine() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(dir.path(), &[record("1", "Cuentacuentos en familia", "", "Sala X")]);
    run(dir.path());
    ok(&cityvibe(dir.path(), &["translate", "correct", "madrid:1", "--lang", "en", "--title", "Family Storytelling"]));

    // The operator turns machine translation off; the activity recurs.
    let none = CONFIG.replace("\"apertium\"", "\"none\"");
    std::fs::write(dir.path().join("sources.toml"), &none).unwrap();
    write_feed(dir.path(), &[record("1", "Cuentacuentos en familia", "", "Sala X"), record("4", "Cuentacuentos en familia", "", "Sala Y")]);
    ok(&forced_run(dir.path()));
    let en = listed(dir.path(), "en");
    for id in ["1", "4"] {
        assert_eq!(en[id]["title"], "Family Storytelling", "translator none, event {id}: {}", en[id]);
        assert_eq!(en[id]["text_origin"], "human", "{}", en[id]);
    }

    // Back on Apertium, another occurrence: still the human text, not the engine's.
    std::fs::write(dir.path().join("sources.toml"), CONFIG).unwrap();
    write_feed(
        dir.path(),
        &[
            record("1", "Cuentacuentos en familia", "", "Sala X"),
            record("4", "Cuentacuentos en familia", "", "Sala Y"),
            record("5", "Cuentacuentos en familia", "", "Sala Z"),
        ],
    );
    ok(&forced_run(dir.path()));
    let shown: Value = serde_json::from_str(&ok(&cityvibe(dir.path(), &["events", "show", "madrid:5", "--lang", "en", "--json"]))).unwrap();
    assert_eq!(shown["title"], "Family Storytelling", "{shown}");
    assert_eq!(shown["text_origin"], "human", "{shown}");
    let exported: Value = serde_json::from_str(&ok(&cityvibe(dir.path(), &["export", "--format", "json", "--lang", "en"]))).unwrap();
    let events = exported.as_array().or_else(|| exported["events"].as_array()).expect("a list of events");
    assert_eq!(events.len(), 3, "{exported}");
    for e in events {
        assert_eq!(e["title"], "Family Storytelling", "{e}");
        assert_eq!(e["text_origin"], "human", "{e}");
    }
}

/// A file exported before the Spanish changed comes back: the entry for the
/// old Spanish is refused (it would label the new text with a translation
/// of the old one), as is an entry whose translation holds an e-mail (P5),
/// which never reaches the database; the good entry is applied.
#[test]
fn import_refuses_a_stale_original_and_an_email_p5() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let feed = |first: &str| {
        vec![
            record("1", first, "", "Sala X"),
            record("2", "Taller de cerámica", "", "Sala X"),
            record("3", "Concierto de jazz", "", "Sala X"),
        ]
    };
    write_feed(dir.path(), &feed("Visita guiada al jardín"));
    run(dir.path());
    let po = ok(&cityvibe(dir.path(), &["translate", "export", "--lang", "en", "--format", "po"]));
    assert!(po.contains("msgid \"Visita guiada al jardín\""), "{po}");
    // The feed changes event 1's Spanish after the export.
    write_feed(dir.path(), &feed("Visita guiada al huerto"));
    ok(&forced_run(dir.path()));

    // The translator reviews the three entries (clearing the fuzzy marks).
    let entry = |msgid: &str, msgstr: &str| format!("msgctxt \"title\"\nmsgid \"{msgid}\"\nmsgstr \"{msgstr}\"\n\n");
    let reviewed = format!(
        "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n{}{}{}",
        entry("Visita guiada al jardín", "Guided Garden Tour"),
        entry("Taller de cerámica", "Pottery Workshop: write to info@taller.example"),
        entry("Concierto de jazz", "Jazz Concert Night"),
    );
    std::fs::write(dir.path().join("en.po"), reviewed).unwrap();
    let report: Value = serde_json::from_str(&refused_some(cityvibe(dir.path(), &["translate", "import", "en.po", "--json"]))).unwrap();
    assert_eq!(report["applied"], 1, "{report}");
    let refused = report["refused"].as_array().unwrap();
    let why = |original: &str| {
        refused.iter().find(|r| r["original"] == original).map(|r| r["why"].as_str().unwrap().to_string()).unwrap_or_default()
    };
    assert!(why("Visita guiada al jardín").contains("not a current original"), "{report}");
    assert!(why("Taller de cerámica").contains("e-mail"), "{report}");

    let en = listed(dir.path(), "en");
    assert_eq!(en["3"]["title"], "Jazz Concert Night");
    assert_eq!(en["3"]["text_origin"], "human");
    assert_ne!(en["1"]["title"], "Guided Garden Tour", "{}", en["1"]);
    assert_ne!(en["1"]["text_origin"], "human", "{}", en["1"]);
    assert_ne!(en["2"]["text_origin"], "human", "{}", en["2"]);
    let db = std::fs::read(dir.path().join("data/cityvibe.db")).unwrap();
    assert!(!String::from_utf8_lossy(&db).contains("info@taller.example"), "the e-mail reached the database (P5)");
}

/// An exchange file says its source strings are Spanish (XLIFF's
/// `source-language="es"`, the PO a translator opens as a Spanish project):
/// diba's Catalan originals are not put in it under that label, and an
/// entry carrying one is refused on import; `--lang es` has no Spanish
/// originals to offer and is a usage error.
#[test]
fn exchange_files_carry_only_spanish_originals() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(&format!("{CONFIG}[sources.diba]\nenabled = true\n"));
    write_feed(dir.path(), &[record("1", "Concierto de jazz", "", "Sala X")]);
    run(dir.path());
    let samples = common::sample("");
    let out = cityvibe(dir.path(), &["--mirror", samples.to_str().unwrap(), "run", "--source", "diba", "--no-translate"]);
    ok(&out);
    let catalan = "Fira de Nadal i del Pessebre de Vic";
    assert!(listed(dir.path(), "ca").values().any(|e| e["title"] == catalan), "the diba sample is stored in Catalan");

    for format in ["po", "xliff"] {
        let file = ok(&cityvibe(dir.path(), &["translate", "export", "--lang", "en", "--format", format]));
        assert!(file.contains("Concierto de jazz"), "{file}");
        assert!(!file.contains(catalan), "a Catalan original exported as Spanish ({format}): {file}");
    }
    let reviewed = format!(
        "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
         msgctxt \"title\"\nmsgid \"{catalan}\"\nmsgstr \"Vic Christmas Fair\"\n"
    );
    std::fs::write(dir.path().join("en.po"), reviewed).unwrap();
    let report: Value = serde_json::from_str(&refused_some(cityvibe(dir.path(), &["translate", "import", "en.po", "--json"]))).unwrap();
    assert_eq!(report["applied"], 0, "{report}");
    assert_eq!(report["refused"].as_array().unwrap().len(), 1, "{report}");
    let out = cityvibe(dir.path(), &["translate", "export", "--lang", "es", "--format", "po"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
}

/// A translation tool (Weblate, Pontoon) keys XLIFF units by id: a text
/// keeps its unit id from one export to the next when other events come
/// and go, so the tool never pairs a translation with another original.
#[test]
fn xliff_unit_ids_stay_with_their_text_across_exports() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let taller = record("2", "Taller de radio", "", "Sala X");
    write_feed(dir.path(), &[record("1", "Concierto de jazz", "", "Sala X"), taller.clone()]);
    run(dir.path());
    let unit_id = |xliff: &str| {
        let at = xliff.find("<source>Taller de radio</source>").expect("the unit is exported");
        let open = xliff[..at].rfind("<trans-unit id=\"").unwrap() + "<trans-unit id=\"".len();
        xliff[open..open + xliff[open..].find('"').unwrap()].to_string()
    };
    let export = || ok(&cityvibe(dir.path(), &["translate", "export", "--lang", "en", "--format", "xliff"]));
    let before = unit_id(&export());
    // Event 1 leaves the feed (withdrawn); event 2 is unchanged.
    write_feed(dir.path(), &[taller]);
    ok(&forced_run(dir.path()));
    let after = export();
    assert!(!after.contains("Concierto de jazz"), "{after}");
    assert_eq!(unit_id(&after), before, "{after}");
}
