//! `cityvibe translate status [--json]` says per display
//! language how many texts the publisher, a human and an engine gave, how
//! many are pending, how many are set aside, the engine and the data version.
use crate::common;
use crate::common::has_apertium;
use crate::common::ok;
use crate::translation::quality::{record, write_feed};

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use serde_json::Value;

fn config(translator: &str, source: &str) -> String {
    format!("[settings]\ntranslator = \"{translator}\"\nlanguages = [\"es\", \"en\", \"fr\"]\n[sources.{source}]\nenabled = true\n")
}

fn status(d: &std::path::Path) -> Value {
    serde_json::from_str(&ok(&cityvibe(d, &["translate", "status", "--json"]))).unwrap()
}

fn lang<'a>(s: &'a Value, lang: &str) -> &'a Value {
    s["languages"].as_array().unwrap().iter().find(|l| l["lang"] == lang).unwrap()
}

/// `translate status` shows, per language, what a reader
/// gets in it; diba's publisher gives Spanish and English, nobody French.
#[test]
fn translate_status_counts_texts_by_origin_per_language() {
    let dir = workdir(&config("none", "diba"));
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "run", "--source", "diba"]));
    let s = status(d);
    assert_eq!(s["engine"], "none");
    let (en, fr) = (lang(&s, "en"), lang(&s, "fr"));
    let n = |v: &Value, k: &str| v[k].as_u64().unwrap();
    assert!(n(en, "texts") >= 10, "{en}");
    assert!(n(en, "publisher") >= 10, "{en}");
    assert_eq!(n(en, "publisher") + n(en, "pending"), n(en, "texts"), "{en}");
    assert_eq!((n(fr, "publisher"), n(fr, "machine"), n(fr, "pending"), n(fr, "failed")), (0, 0, n(fr, "texts"), 0), "{fr}");
    assert!(fr["data_version"].as_str().unwrap().starts_with("lang "), "{fr}");

    // A human's French of one event: two texts.
    ok(&cityvibe(
        d,
        &["translate", "correct", "diba:agendaturisme41201", "--lang", "fr", "--title", "Foire de Noël", "--description", "Foire."],
    ));
    let fr2 = lang(&status(d), "fr").clone();
    assert_eq!((n(&fr2, "human"), n(&fr2, "pending")), (2, n(fr, "pending") - 2), "{fr2}");

    let table = ok(&cityvibe(d, &["translate", "status"]));
    assert!(table.contains("engine: none"), "{table}");
    assert!(table.lines().any(|l| l.contains("fr") && l.contains("lang ")), "{table}");
}

/// With real Apertium every text of the Madrid samples is the engine's in English.
#[test]
fn translate_status_names_the_engine_and_its_texts() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(&config("apertium", "madrid"));
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "run", "--source", "madrid"]));
    let s = status(d);
    assert!(s["engine"].as_str().unwrap().starts_with("apertium"), "{s}");
    let en = lang(&s, "en");
    assert!(en["texts"].as_u64().unwrap() > 0);
    assert_eq!(en["machine"], en["texts"], "{en}");
    assert_eq!(en["pending"], 0, "{en}");
    assert_eq!(lang(&s, "es")["texts"], 0, "the originals are Spanish");
}

/// A text the engine keeps failing on in French only is counted as failed
/// in French, not in English: the plan step, as the next run takes it, tells.
#[test]
fn translate_status_counts_failed_texts_per_language() {
    let server = Server::start(|seen, _| {
        let body: Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let q: Vec<&str> = body["q"].as_array().map(|q| q.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if body["target"] == "fr" && q.iter().any(|t| t.contains("VENENO")) {
            return Reply::new(500).header("Content-Type", "application/json");
        }
        let out: Vec<String> = q.iter().map(|t| format!("XX {t}")).collect();
        Reply::ok(serde_json::json!({ "translatedText": out }).to_string()).header("Content-Type", "application/json")
    });
    let dir = workdir(&format!(
        "[settings]\ntranslator = \"libretranslate\"\nlibretranslate_url = \"{}\"\nlanguages = [\"es\", \"en\", \"fr\"]\n[sources.madrid]\nenabled = true\n",
        server.url()
    ));
    let d = dir.path();
    write_feed(d, &[record("1", "Concierto de jazz", "", "Sala X"), record("2", "Ruta VENENO", "", "Sala X")]);
    ok(&cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid"]));
    // Three failures, as after three runs past their waits (see translation::neural_poison).
    let db = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    assert_eq!(db.execute("UPDATE translation_failures SET failures = 3", []).unwrap(), 1);
    let s = status(d);
    assert!(s["engine"].as_str().unwrap().starts_with("libretranslate@http://127.0.0.1:"), "{s}");
    let (en, fr) = (lang(&s, "en"), lang(&s, "fr"));
    assert_eq!((&en["machine"], &en["pending"], &en["failed"]), (&2.into(), &0.into(), &0.into()), "{en}");
    assert_eq!((&fr["machine"], &fr["pending"], &fr["failed"]), (&1.into(), &1.into(), &1.into()), "{fr}");
}
