//! Human corrections in a translation memory, and translations
//! exchanged with translators' tools as PO or XLIFF, through the binary.
use crate::common;
use crate::common::ok;
use crate::translation::quality::{listed, record, run, write_feed};

use common::{cityvibe, workdir};
use serde_json::Value;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\"]\n[sources.madrid]\nenabled = true\n";

/// Real Apertium is here (a missing one is announced, and fails under CI).
use crate::common::has_apertium;

/// The report of an import that refused entries: it exits 2 (the file is the
/// operator's to fix), its report on stdout.
pub fn refused_some(out: std::process::Output) -> String {
    assert_eq!(out.status.code(), Some(2), "an import with refused entries exits 2: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A correction wins for every event with the same Spanish, shows as
/// `human`, survives later runs, and is dropped only where the Spanish changes.
#[test]
fn a_correction_wins_for_every_event_with_that_text_until_it_changes() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let feed = |first: &str| {
        vec![
            record("1", first, "", "Sala X"),
            record("2", "Club de lectura juvenil", "", "Sala X"),
            record("3", "Concierto de jazz", "", "Sala X"),
        ]
    };
    write_feed(dir.path(), &feed("Club de lectura juvenil"));
    run(dir.path());
    ok(&cityvibe(dir.path(), &["translate", "correct", "madrid:1", "--lang", "en", "--title", "Young Readers' Circle"]));
    let shown = |id: &str| listed(dir.path(), "en")[id].clone();
    for id in ["1", "2"] {
        assert_eq!(shown(id)["title"], "Young Readers' Circle", "{}", shown(id));
        assert_eq!(shown(id)["text_origin"], "human");
    }
    assert_ne!(shown("3")["text_origin"], "human");
    // Later runs keep it.
    let out = cityvibe(dir.path(), &["--mirror", "mirror", "run", "--source", "madrid", "--force"]);
    ok(&out);
    ok(&cityvibe(dir.path(), &["translate"]));
    assert_eq!(shown("2")["title"], "Young Readers' Circle");
    // The Spanish of event 1 changes: its correction no longer applies there.
    write_feed(dir.path(), &feed("Club de lectura para adultos"));
    ok(&cityvibe(dir.path(), &["--mirror", "mirror", "run", "--source", "madrid", "--force"]));
    assert_ne!(shown("1")["text_origin"], "human", "{}", shown("1"));
    assert_ne!(shown("1")["title"], "Young Readers' Circle");
    assert_eq!(shown("2")["title"], "Young Readers' Circle");
    // Contact data is refused (P5).
    let out = cityvibe(dir.path(), &["translate", "correct", "madrid:3", "--lang", "en", "--title", "Jazz: call 912 345 678"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Export for translators (PO and XLIFF, machine text marked for review),
/// and an import checked entry by entry: applied, or refused with a reason.
#[test]
fn corrections_go_out_and_come_back_as_po_and_xliff() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(dir.path(), &[record("1", "Concierto de jazz", "", "Sala X"), record("2", "Taller de radio", "", "Sala X")]);
    run(dir.path());
    let po = ok(&cityvibe(dir.path(), &["translate", "export", "--lang", "en", "--format", "po", "--only", "machine"]));
    assert!(po.contains("msgid \"Concierto de jazz\"") && po.contains("#, fuzzy") && po.contains("Language: en"), "{po}");
    let xliff = ok(&cityvibe(dir.path(), &["translate", "export", "--lang", "en", "--format", "xliff"]));
    assert!(xliff.contains("<source>Taller de radio</source>") && xliff.contains("needs-review-translation"), "{xliff}");
    let missing = ok(&cityvibe(dir.path(), &["translate", "export", "--lang", "en", "--format", "po", "--only", "missing"]));
    assert!(!missing.contains("Concierto"), "{missing}");

    let reviewed = "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
        msgctxt \"title\"\nmsgid \"Concierto de jazz\"\nmsgstr \"Jazz Evening\"\n\n\
        msgctxt \"title\"\nmsgid \"Texto que ningún evento tiene\"\nmsgstr \"Nothing\"\n\n\
        msgctxt \"title\"\nmsgid \"Taller de radio\"\nmsgstr \"Radio workshop: call 912 345 678\"\n";
    std::fs::write(dir.path().join("en.po"), reviewed).unwrap();
    let report: Value = serde_json::from_str(&refused_some(cityvibe(dir.path(), &["translate", "import", "en.po", "--json"]))).unwrap();
    assert_eq!(report["applied"], 1, "{report}");
    assert_eq!(report["refused"].as_array().unwrap().len(), 2, "{report}");
    let en = listed(dir.path(), "en");
    assert_eq!(en["1"]["title"], "Jazz Evening");
    assert_eq!(en["1"]["text_origin"], "human");
    assert!(!en["2"]["title"].as_str().unwrap().contains("912"));

    // XLIFF back in, once reviewed; a file in a language CityVibe does not publish is refused.
    let reviewed = xliff.replace("needs-review-translation", "translated").replace(">Radio Workshop<", ">Radio Lab<");
    std::fs::write(dir.path().join("en.xlf"), &reviewed).unwrap();
    let report: Value = serde_json::from_str(&ok(&cityvibe(dir.path(), &["translate", "import", "en.xlf", "--json"]))).unwrap();
    assert!(report["applied"].as_u64().unwrap() >= 1, "{report}");
    std::fs::write(dir.path().join("de.xlf"), reviewed.replace("target-language=\"en\"", "target-language=\"de\"")).unwrap();
    assert_eq!(cityvibe(dir.path(), &["translate", "import", "de.xlf"]).status.code(), Some(2));
}
