//! A poison text, through the binary: a text that makes the engine fail every
//! time (here a loopback LibreTranslate server that answers 500 to any
//! request holding it) is retried alone, after the others, with a doubling
//! wait, and skipped after three failures; the other texts are translated,
//! every run finishes, and a changed text is tried afresh. Time passing is
//! played by moving the failure's next try into the past in the SQLite file.
use crate::common;
use crate::translation::quality::{listed, record, write_feed};

use common::server::{Reply, Server};
use common::{cityvibe, workdir};
use serde_json::Value;
use std::path::Path;

const POISON: &str = "VENENO";

fn server() -> Server {
    Server::start(|seen, _| {
        let body: Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let q: Vec<&str> = body["q"].as_array().map(|q| q.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if q.iter().any(|t| t.contains(POISON)) {
            return Reply::new(500).header("Content-Type", "application/json");
        }
        let out: Vec<String> = q.iter().map(|t| format!("EN {t}")).collect();
        Reply::ok(serde_json::json!({ "translatedText": out }).to_string()).header("Content-Type", "application/json")
    })
}

fn feed(dir: &Path, second: &str) {
    write_feed(
        dir,
        &[record("1", "Concierto de jazz", "", "Sala X"), record("2", second, "", "Sala X"), record("3", "Taller de radio", "", "Sala X")],
    );
}

fn run(dir: &Path) -> String {
    let out = cityvibe(dir, &["--mirror", "mirror", "run", "--source", "madrid", "--force"]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{err}");
    err
}

fn db(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join("data/cityvibe.db")).unwrap()
}

/// (failures, milliseconds from now to the next try) of the one failing text.
fn failure(dir: &Path) -> (u32, i64) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    db(dir).query_row("SELECT failures, next_try_ms FROM translation_failures", [], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? - now))).unwrap()
}

/// The wait is over: the failure's next try is now.
fn time_passes(dir: &Path) {
    db(dir).execute("UPDATE translation_failures SET next_try_ms = 0", []).unwrap();
}

#[test]
fn a_text_the_engine_always_fails_on_is_skipped_after_three_failures() {
    let server = server();
    let dir = workdir(&format!(
        "[settings]\ntranslator = \"libretranslate\"\nlibretranslate_url = \"{}\"\nlanguages = [\"es\", \"en\"]\n[sources.madrid]\nenabled = true\n",
        server.url()
    ));
    feed(dir.path(), &format!("Ruta {POISON}"));
    // Requests holding the poison: (all of them, those holding it alone).
    let asked = || {
        let with: Vec<Value> = server
            .requests()
            .iter()
            .map(|r| serde_json::from_slice::<Value>(&r.body).unwrap())
            .filter(|b| b["q"].to_string().contains(POISON))
            .collect();
        (with.len(), with.iter().filter(|b| b["q"].as_array().unwrap().len() == 1).count())
    };

    // Run 1: the batch fails, each text is sent alone; the others pass.
    run(dir.path());
    let en = listed(dir.path(), "en");
    assert_eq!((en["1"]["lang"].as_str(), en["3"]["lang"].as_str()), (Some("en"), Some("en")), "{en:?}");
    assert_eq!(en["2"]["lang"], "es", "{}", en["2"]);
    assert_eq!(asked(), (2, 1), "once in the batch, once alone");
    let (failures, wait) = failure(dir.path());
    assert_eq!(failures, 1);
    assert!(wait >= 9 * 60 * 1000, "a first wait of 10 minutes: {wait} ms");

    // Within the wait, a run does not send it.
    run(dir.path());
    assert_eq!(asked(), (2, 1), "sent again before its wait was over");

    // Runs 2 and 3, each after the wait: alone, failed, the wait doubled.
    time_passes(dir.path());
    run(dir.path());
    assert_eq!(asked(), (3, 2));
    let (failures, wait) = failure(dir.path());
    assert_eq!(failures, 2, "a failure on a run with nothing else to translate is the text's too");
    assert!(wait >= 19 * 60 * 1000, "the wait doubled: {wait} ms");
    time_passes(dir.path());
    let err = run(dir.path());
    assert_eq!(asked(), (4, 3));
    assert_eq!(failure(dir.path()).0, 3);
    assert!(err.contains("pending"), "{err}");

    // Run 4: skipped, never sent again while it stays the same; the run says so.
    time_passes(dir.path());
    let err = run(dir.path());
    assert_eq!(asked(), (4, 3), "the poison text was asked a 4th time alone");
    assert!(err.contains("1 text skipped"), "one text, singular: {err}");
    let en = listed(dir.path(), "en");
    assert_eq!(en["2"]["lang"], "es", "{}", en["2"]);
    assert_eq!(en["1"]["lang"], "en", "{}", en["1"]);

    // A changed text is tried afresh.
    feed(dir.path(), "Ruta de otoño");
    let err = run(dir.path());
    assert!(!err.contains("skipped"), "{err}");
    assert_eq!(listed(dir.path(), "en")["2"]["lang"], "en");
}
