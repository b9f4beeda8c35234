//! What the engine said, kept and finished again locally, and the same text
//! from one run to the next, through the binary with real Apertium on the
//! first events of the real 2025-10 Madrid feed (docs/TRANSLATION.md,
//! "Cache and upgrades").
//!
//! Not for: house style itself (`translation::pipeline`, the finishing's
//! golden file in `send::need`), or the engines' processes (`translation::engine`).

use crate::common::{self, cityvibe, has_apertium, workdir};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

const FEED: &str = "mirror/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";

/// The first `n` events of the real feed, into the work folder's mirror;
/// `false` when the real data is missing (outside CI).
pub(crate) fn write_real_sample(dir: &Path, n: usize) -> bool {
    let Some(path) = common::realdata("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json") else { return false };
    // The feed holds raw control characters inside its strings.
    let raw: String =
        String::from_utf8_lossy(&std::fs::read(path).unwrap()).chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let mut feed: Value = serde_json::from_str(&raw).unwrap();
    let graph = feed["@graph"].as_array_mut().unwrap();
    graph.truncate(n);
    let out = dir.join(FEED);
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::write(out, serde_json::to_vec(&feed).unwrap()).unwrap();
    true
}

pub(crate) fn config(langs: &str) -> String {
    format!("[settings]\ntranslator = \"apertium\"\nlanguages = [{langs}]\n[sources.madrid]\nenabled = true\n")
}

fn run(dir: &Path) {
    let out = cityvibe(dir, &["--mirror", "mirror", "run", "--source", "madrid"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every machine translation stored: (event, lang, field) → text.
pub(crate) fn stored(dir: &Path) -> BTreeMap<(String, String, String), String> {
    let db = rusqlite::Connection::open(dir.join("data/cityvibe.db")).unwrap();
    let mut st = db
        .prepare(
            "SELECT e.source_event_id, t.lang, t.field, t.text FROM translations t JOIN events e ON e.id = t.event_id
             WHERE t.origin = 'machine'",
        )
        .unwrap();
    st.query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get(3)?))).unwrap().map(Result::unwrap).collect()
}

/// A release whose finishing changed (its key no longer matches what is
/// stored, its finished cache is gone) finishes the engine's kept answers
/// again and asks the engine nothing; the same finishing gives the same
/// stored text.
#[test]
fn a_new_finishing_finishes_the_kept_engine_answers_and_asks_the_engine_nothing() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(&config("\"es\", \"fr\", \"pt\""));
    if !write_real_sample(dir.path(), 6) {
        return;
    }
    run(dir.path());
    let before = stored(dir.path());
    assert!(before.len() >= 20, "{} translations", before.len());
    // What a release with another FINISH_VERSION finds: every finished key
    // stale, the finished cache of no use.
    let db = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    db.execute_batch("UPDATE translations SET cache_key = 'finished by another version'; DELETE FROM translation_cache;").unwrap();
    drop(db);
    let out = cityvibe(dir.path(), &["translate", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["translated"], 0, "the engine was asked again: {stats}");
    assert_eq!(stats["translation_cache_hits"].as_u64(), Some(before.len() as u64), "{stats}");
    assert_eq!(stored(dir.path()), before);
}

/// The same feed gives the same text in two fresh databases, even when the
/// other languages of the run differ: each target's texts go through
/// engines of their own, in the same order, whatever runs beside them.
#[test]
fn the_same_feed_stores_the_same_text_in_two_fresh_databases() {
    if !has_apertium() {
        return;
    }
    let one = workdir(&config("\"es\", \"fr\", \"pt\""));
    let two = workdir(&config("\"es\", \"gl\", \"fr\", \"pt\""));
    if !write_real_sample(one.path(), 6) || !write_real_sample(two.path(), 6) {
        return;
    }
    run(one.path());
    run(two.path());
    let (a, b) = (stored(one.path()), stored(two.path()));
    let b: BTreeMap<_, _> = b.into_iter().filter(|((_, lang, _), _)| lang != "gl").collect();
    assert!(a.len() >= 20, "{} translations", a.len());
    let differ: Vec<_> = a.iter().filter(|(k, v)| b.get(*k) != Some(*v)).map(|(k, v)| (k, v, b.get(k))).collect();
    assert!(differ.is_empty(), "{} of {} differ, first: {:?}", differ.len(), a.len(), differ.first());
    assert_eq!(a.len(), b.len());
}

/// An upgrade, through the binary, against a loopback LibreTranslate that
/// records every request: on the database a run filled, a release whose
/// finishing is unchanged asks the engine nothing and stores the same text;
/// one whose finishing changed (every finished key stale and the finished
/// cache gone, as a raised `FINISH_VERSION` leaves them) finishes the kept
/// answers again, still asking the engine nothing.
#[test]
fn an_upgrade_sends_the_engine_nothing_whether_or_not_its_finishing_changed() {
    use crate::common::server::{Reply, Server};
    use crate::translation::quality::{record, write_feed};
    let server = Server::start(|seen, _| {
        let body: Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let out: Vec<String> = body["q"]
            .as_array()
            .map(|q| q.iter().map(|t| format!("[{}] {}", body["target"], t.as_str().unwrap_or(""))).collect())
            .unwrap_or_default();
        Reply::ok(serde_json::json!({ "translatedText": out }).to_string()).header("Content-Type", "application/json")
    });
    let dir = workdir(&format!(
        "[settings]\ntranslator = \"libretranslate\"\nlibretranslate_url = \"{}\"\nlanguages = [\"es\", \"en\", \"fr\"]\n[sources.madrid]\nenabled = true\n",
        server.url()
    ));
    write_feed(
        dir.path(),
        &[
            record("1", "Concierto de jazz", "Un concierto en la sala grande.", "Sala X"),
            record("2", "Taller de cerámica", "Para toda la familia.", "Centro Y"),
        ],
    );
    let once = |args: &[&str]| {
        let out = cityvibe(dir.path(), args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    once(&["--mirror", "mirror", "run", "--source", "madrid"]);
    let asked = server.requests().len();
    let before = stored(dir.path());
    assert!(asked > 0 && before.len() == 8, "{asked} requests, {} translations", before.len());
    // The next release, its finishing unchanged: the whole feed again.
    once(&["--mirror", "mirror", "run", "--force", "--source", "madrid"]);
    assert_eq!(server.requests().len(), asked, "the engine was asked again by an unchanged finishing");
    assert_eq!(stored(dir.path()), before);
    // A release whose finishing changed.
    let db = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    db.execute_batch("UPDATE translations SET cache_key = 'finished by another version'; DELETE FROM translation_cache;").unwrap();
    drop(db);
    once(&["--mirror", "mirror", "run", "--force", "--source", "madrid"]);
    assert_eq!(server.requests().len(), asked, "the engine was asked again by a new finishing");
    assert_eq!(stored(dir.path()), before);
    let db = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let stale: i64 =
        db.query_row("SELECT count(*) FROM translations WHERE cache_key = 'finished by another version'", [], |r| r.get(0)).unwrap();
    assert_eq!(stale, 0, "every text finished again under the new finishing's key");
}
