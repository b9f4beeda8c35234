//! The promise "when a server fails, the run never fails for it: texts stay
//! pending, or fall back to Apertium when the operator asks for that".
//! Through the binary, against a loopback LibreTranslate or
//! OpenAI-compatible server that records every request, and real Apertium:
//! with `fallback = "apertium"` a failing server's texts are shown as
//! Apertium's with that origin, the run exits as usual, and the next run
//! with the server back replaces them with the server's; without the
//! setting they stay pending. Only scrubbed texts ever leave (P5).
use crate::common;
use crate::common::has_apertium;
use crate::translation::quality::{listed, record, write_feed};

use common::server::{Reply, Server};
use common::{cityvibe, workdir};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A LibreTranslate server that answers 503 while `down` holds, else
/// "translates" by putting `EN:` before each text.
fn libretranslate(down: Arc<AtomicBool>) -> Server {
    Server::start(move |seen, _| {
        if down.load(Ordering::SeqCst) {
            return Reply::new(503).header("Content-Type", "application/json");
        }
        let body: Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let out: Vec<String> =
            body["q"].as_array().map(|q| q.iter().map(|t| format!("EN: {}", t.as_str().unwrap_or(""))).collect()).unwrap_or_default();
        Reply::ok(serde_json::json!({ "translatedText": out }).to_string()).header("Content-Type", "application/json")
    })
}

fn config(engine_lines: &str, fallback: bool) -> String {
    let fallback = if fallback { "fallback = \"apertium\"\n" } else { "" };
    format!("[settings]\n{engine_lines}{fallback}languages = [\"es\", \"en\"]\n[sources.madrid]\nenabled = true\n")
}

fn lt_config(server_url: &str, fallback: bool) -> String {
    config(&format!("translator = \"libretranslate\"\nlibretranslate_url = \"{server_url}\"\n"), fallback)
}

const TITLE: &str = "Concierto de jazz";
const DESCRIPTION: &str = "Música en directo. Reservas: taquilla@example.es o 912 345 678.";

fn feed(dir: &Path) {
    write_feed(dir, &[record("1", TITLE, DESCRIPTION, "Sala X")]);
}

/// `run --force`; its stderr, after checking it exits 0.
fn run(dir: &Path) -> String {
    let out = cityvibe(dir, &["--mirror", "mirror", "run", "--source", "madrid", "--force"]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "the run fails for a translation server: {err}");
    err
}

/// P5: no request carried the contact data of the description.
fn assert_scrubbed(server: &Server) {
    for r in server.requests() {
        let body = String::from_utf8_lossy(&r.body);
        assert!(!body.contains("taquilla@") && !body.contains("912 345 678"), "P5: {body}");
    }
}

#[test]
fn a_failing_libretranslate_falls_back_to_apertium_and_is_asked_again_next_run() {
    if !has_apertium() {
        return;
    }
    let down = Arc::new(AtomicBool::new(true));
    let server = libretranslate(down.clone());
    let dir = workdir(&lt_config(&server.url(), true));
    feed(dir.path());

    let err = run(dir.path());
    assert!(err.contains("fallback (apertium/"), "the operator is told: {err}");
    assert!(!server.requests().is_empty(), "the configured server was asked first");
    let en = listed(dir.path(), "en");
    assert_eq!(en["1"]["lang"], "en", "{}", en["1"]);
    assert!(en["1"]["text_origin"].as_str().unwrap().starts_with("apertium/"), "the engine that really translated: {}", en["1"]);
    let title = en["1"]["title"].as_str().unwrap();
    assert!(!title.starts_with("EN:") && title != TITLE, "{title}");
    let stats: Value = serde_json::from_slice(&cityvibe(dir.path(), &["translate", "--json"]).stdout).unwrap();
    assert_eq!(stats["translation_pending"], 0, "{stats}");

    // The server is back: the next run asks it again and its texts replace Apertium's.
    down.store(false, Ordering::SeqCst);
    let before = server.requests().len();
    run(dir.path());
    assert!(server.requests().len() > before, "the fallback texts were not asked of the server again");
    let en = listed(dir.path(), "en");
    assert!(en["1"]["title"].as_str().unwrap().to_lowercase().starts_with("en: "), "{}", en["1"]);
    assert!(en["1"]["text_origin"].as_str().unwrap().starts_with("libretranslate@"), "{}", en["1"]);
    assert!(en["1"]["description"].as_str().unwrap().starts_with("EN: "), "{}", en["1"]);
    assert_scrubbed(&server);

    // And once the server's texts are stored, it is not asked again.
    let before = server.requests().len();
    run(dir.path());
    assert_eq!(server.requests().len(), before, "{:?}", server.requests().last());
}

/// A server answering 503 (down) or 500 (failing) never fails the run: the
/// texts stay pending, shown as the original, and nothing falls back.
#[test]
fn without_the_setting_a_failing_server_leaves_texts_pending() {
    let down = libretranslate(Arc::new(AtomicBool::new(true)));
    let failing = Server::start(|_, _| Reply::new(500).header("Content-Type", "application/json"));
    for server in [down, failing] {
        let dir = workdir(&lt_config(&server.url(), false));
        feed(dir.path());
        let err = run(dir.path());
        assert!(err.contains("pending") && !err.contains("fallback"), "{err}");
        let en = listed(dir.path(), "en");
        assert_eq!(en["1"]["lang"], "es", "{}", en["1"]);
        assert_scrubbed(&server);
    }
}

/// A server that refuses connections, and an OpenAI-compatible one whose
/// answers are chatter, both fall back; so does one that answers too late.
#[test]
fn connection_refused_chatter_and_timeouts_fall_back_too() {
    if !has_apertium() {
        return;
    }
    // A port nothing listens on: bind one, then let it go.
    let refused = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://127.0.0.1:{}", l.local_addr().unwrap().port())
    };
    let chatty = Server::start(|seen, _| {
        let body: Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let user = body["messages"][1]["content"].as_str().unwrap_or("").to_string();
        let content = format!("Sure! Here is the translation: {user}");
        Reply::ok(serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}).to_string())
            .header("Content-Type", "application/json")
    });
    // Answers after the 2 s timeout below. The Apertium fallback gets that
    // timeout too: 1 s was seen to cut it short on a loaded machine.
    let slow = Server::start(|_, _| {
        std::thread::sleep(std::time::Duration::from_secs(5));
        Reply::new(500)
    });
    let cases = [
        ("refused", format!("translator = \"libretranslate\"\nlibretranslate_url = \"{refused}\"\n"), None),
        ("chatter", format!("translator = \"openai\"\nopenai_url = \"{}\"\nopenai_model = \"m\"\n", chatty.url()), Some(&chatty)),
        (
            "timeout",
            format!("translator = \"libretranslate\"\nlibretranslate_url = \"{}\"\ntranslate_timeout_secs = 2\n", slow.url()),
            Some(&slow),
        ),
    ];
    for (case, lines, server) in cases {
        let dir = workdir(&config(&lines, true));
        feed(dir.path());
        let err = run(dir.path());
        assert!(err.contains("fallback (apertium/"), "{case}: {err}");
        let en = listed(dir.path(), "en");
        assert_eq!(en["1"]["lang"], "en", "{case}: {}", en["1"]);
        assert!(en["1"]["text_origin"].as_str().unwrap().starts_with("apertium/"), "{case}: {}", en["1"]);
        if let Some(server) = server {
            assert!(!server.requests().is_empty(), "{case}: the server was asked first");
            assert_scrubbed(server);
        }
    }
}

#[test]
fn a_fallback_without_a_server_to_stand_in_for_is_refused() {
    let dir = workdir(&config("translator = \"apertium\"\n", true));
    let out = cityvibe(dir.path(), &["translate"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("fallback"), "{}", String::from_utf8_lossy(&out.stderr));
    let dir =
        workdir(&config("translator = \"libretranslate\"\nlibretranslate_url = \"http://127.0.0.1:9\"\nfallback = \"deepl\"\n", false));
    let out = cityvibe(dir.path(), &["translate"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A server found down (a batch failed, then each of three texts alone,
/// nothing translated) is not asked again batch after batch in the same
/// run: against a hanging server each request would cost a timeout. 300
/// titles make six batches of 50; only the first is sent.
#[test]
fn a_server_found_down_is_not_sent_the_later_batches_of_the_run() {
    let down = Arc::new(AtomicBool::new(true));
    let server = libretranslate(down);
    let dir = workdir(&lt_config(&server.url(), false));
    let records: Vec<Value> = (0..300).map(|i| record(&i.to_string(), &format!("Concierto número {i}"), "", "Sala X")).collect();
    write_feed(dir.path(), &records);
    let err = run(dir.path());
    assert!(err.contains("300 translations pending"), "{err}");
    let sizes: Vec<usize> =
        server.requests().iter().map(|r| serde_json::from_slice::<Value>(&r.body).unwrap()["q"].as_array().map_or(0, Vec::len)).collect();
    assert_eq!(sizes, [50, 1, 1, 1], "one batch, then three texts alone; the later batches never sent");
}
