//! The translation memory knows the language of the original it
//! translates. The same bytes in two languages are two texts ("Nadal" is
//! Christmas in diba's Catalan and a surname in Madrid's Spanish): a human
//! correction of one never shows on the other, and rows stored without a
//! language by earlier releases keep working for the Spanish texts they came from.
//!
//! Not for: the correction round trip itself (`translation::memory`,
//! `translation::memory_gaps`).
use crate::common;
use crate::common::ok;
use crate::translation::quality::{listed, record, write_feed};

use common::{cityvibe, workdir};
use std::path::Path;

const DIBA_CA: &str = "do.diba.cat/api/dataset/actesturisme_ca/format/json/pag-ini/1/pag-fi/1000";
const DIBA_EVENT: &str = "agendaturisme41201";

fn config(translator: &str) -> String {
    format!(
        "[settings]\ntranslator = \"{translator}\"\nlanguages = [\"es\", \"fr\"]\n[sources.madrid]\nenabled = true\n[sources.diba]\nenabled = true\n"
    )
}

/// The diba sample feeds in the work folder's mirror, the first Catalan
/// event titled `title`.
fn write_diba(dir: &Path, title: &str) {
    for lang in ["ca", "es", "en"] {
        let rel = DIBA_CA.replace("actesturisme_ca", &format!("actesturisme_{lang}"));
        let mut body = std::fs::read_to_string(common::sample(&rel)).unwrap();
        if lang == "ca" {
            assert!(body.contains("\"Fira de Nadal i del Pessebre de Vic\""));
            body = body.replace("\"Fira de Nadal i del Pessebre de Vic\"", &format!("\"{title}\""));
        }
        let path = dir.join("mirror").join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
}

/// Both sources, translation as `sources.toml` says.
fn run_both(dir: &Path) {
    for source in ["madrid", "diba"] {
        ok(&cityvibe(dir, &["--mirror", "mirror", "run", "--source", source, "--force"]));
    }
}

/// Before the fix the Catalan correction replaced the Spanish one (one key
/// per language, field and bytes) and showed on the Spanish event too.
#[test]
fn a_correction_reaches_only_texts_in_its_originals_language() {
    let dir = workdir(&config("none"));
    write_feed(dir.path(), &[record("1", "Nadal", "", "Sala X")]);
    write_diba(dir.path(), "Nadal");
    run_both(dir.path());
    let fr = listed(dir.path(), "fr");
    assert_eq!((fr["1"]["lang"].as_str(), fr[DIBA_EVENT]["lang"].as_str()), (Some("es"), Some("ca")), "{fr:?}");

    ok(&cityvibe(dir.path(), &["translate", "correct", "madrid:1", "--lang", "fr", "--title", "Nadal, le joueur"]));
    // The description too: a view shows an event in French only when all of it is.
    let diba = format!("diba:{DIBA_EVENT}");
    ok(&cityvibe(dir.path(), &["translate", "correct", &diba, "--lang", "fr", "--title", "Noël", "--description", "Foire de Noël."]));
    let fr = listed(dir.path(), "fr");
    assert_eq!(fr["1"]["title"], "Nadal, le joueur", "{}", fr["1"]);
    assert_eq!(fr[DIBA_EVENT]["title"], "Noël", "{}", fr[DIBA_EVENT]);

    // A later occurrence of each, translated by the engine pipeline this
    // time: each gets the correction of its own language's text.
    if crate::common::has_apertium() {
        std::fs::write(dir.path().join("sources.toml"), config("apertium")).unwrap();
    }
    write_feed(dir.path(), &[record("1", "Nadal", "", "Sala X"), record("2", "Nadal", "", "Sala Y")]);
    run_both(dir.path());
    let fr = listed(dir.path(), "fr");
    for id in ["1", "2"] {
        assert_eq!(fr[id]["title"], "Nadal, le joueur", "{}", fr[id]);
        assert_eq!(fr[id]["text_origin"], "human", "{}", fr[id]);
    }
    assert_eq!(fr[DIBA_EVENT]["title"], "Noël", "{}", fr[DIBA_EVENT]);
}

/// A database whose memory predates the language key (schema 7) migrates
/// with its rows: a correction of a Spanish text keeps showing on the
/// Spanish events, and not on a Catalan one with the same bytes.
#[test]
fn corrections_stored_before_the_language_key_survive_the_migration() {
    let dir = workdir(&config("none"));
    write_feed(dir.path(), &[record("1", "Nadal", "", "Sala X")]);
    write_diba(dir.path(), "Nadal");
    run_both(dir.path());
    {
        // The memory as schema 7 kept it, with one Spanish correction (and
        // the validators' column as schema 7 named it, without the indexes,
        // the repair column, the pages' record counts and the engine answers'
        // table of later migrations, which run again).
        let db = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
        db.execute_batch(
            "DROP TABLE translation_memory;
             CREATE TABLE translation_memory (lang TEXT NOT NULL, field TEXT NOT NULL, source_hash TEXT NOT NULL,
                 original TEXT NOT NULL, text TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (lang, field, source_hash));
             ALTER TABLE validators RENAME COLUMN body_digest TO body_sha256;
             DROP INDEX events_seen; DROP INDEX events_withdrawn; DROP INDEX events_source_status;
             DROP INDEX fetch_log_url; DROP INDEX runs_started;
             ALTER TABLE translation_cache DROP COLUMN repair;
             ALTER TABLE validators DROP COLUMN records;
             DROP TABLE engine_answers;
             PRAGMA user_version = 7;",
        )
        .unwrap();
        let hash = cityvibe::store::events::text_hash("Nadal");
        db.execute("INSERT INTO translation_memory VALUES ('fr', 'title', ?1, 'Nadal', 'Nadal, le joueur', 1)", rusqlite::params![hash])
            .unwrap();
    }
    run_both(dir.path());
    let fr = listed(dir.path(), "fr");
    assert_eq!(fr["1"]["title"], "Nadal, le joueur", "{}", fr["1"]);
    assert_eq!(fr["1"]["text_origin"], "human", "{}", fr["1"]);
    assert_ne!(fr[DIBA_EVENT]["title"], "Nadal, le joueur", "{}", fr[DIBA_EVENT]);
}
