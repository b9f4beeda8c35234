//! A LibreTranslate server as the engine, through the binary,
//! against a loopback server speaking its documented API (`POST /translate`,
//! JSON `{q, source, target, format}` → `{translatedText}`) that records
//! every request: names come back byte for byte, only scrubbed texts leave
//! (P5), the API key comes from the environment. (A failing server never
//! fails the run: `translation::neural_fallback`; answers refused:
//! `translation::answers_checked`.)
use crate::common;
use crate::translation::quality::{listed, record, write_feed};

use common::server::{Reply, Server};
use common::workdir;
use serde_json::Value;

/// A "neural engine" that translates two words and, like a careless one,
/// would translate a name too if it saw it as text.
fn fake_translate(q: &str) -> String {
    q.replace("Concierto", "Concert").replace("Iglesia", "Church").replace("en la sala", "in the hall")
}

/// One run over a concert of Eloy de la Iglesia whose description holds
/// an e-mail address and a phone number (P5: neither may leave).
fn run_a_concert_with_contacts(dir: &std::path::Path) -> std::process::Output {
    write_feed(
        dir,
        &[record("1", "Concierto de Eloy de la Iglesia", "Concierto en la sala. Reservas: taquilla@example.es o 912 345 678.", "Sala X")],
    );
    run_with_key(dir)
}

fn run_with_key(dir: &std::path::Path) -> std::process::Output {
    common::command(dir).args(["--mirror", "mirror", "run", "--source", "madrid"]).env("CITYVIBE_LT_KEY", "k-123").output().unwrap()
}

#[test]
fn libretranslate_keeps_names_and_sends_only_scrubbed_texts_p5() {
    let server = Server::start(|seen, _| {
        let body: Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let out: Vec<String> =
            body["q"].as_array().map(|q| q.iter().map(|t| fake_translate(t.as_str().unwrap_or(""))).collect()).unwrap_or_default();
        Reply::ok(serde_json::json!({ "translatedText": out }).to_string()).header("Content-Type", "application/json")
    });
    let dir = workdir(&format!(
        "[settings]\ntranslator = \"libretranslate\"\nlibretranslate_url = \"{}\"\napi_key_env = \"CITYVIBE_LT_KEY\"\nlanguages = [\"es\", \"en\"]\n[sources.madrid]\nenabled = true\n",
        server.url()
    ));
    let out = run_a_concert_with_contacts(dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let en = listed(dir.path(), "en");
    assert_eq!(en["1"]["lang"], "en", "{}", en["1"]);
    let title = en["1"]["title"].as_str().unwrap();
    assert!(title.contains("Eloy de la Iglesia") && title.starts_with("Concert"), "{title}");
    assert!(en["1"]["text_origin"].as_str().unwrap().starts_with("libretranslate"), "{}", en["1"]);
    let requests = server.requests();
    assert!(!requests.is_empty());
    for r in &requests {
        assert_eq!(r.path, "/translate");
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        let mut keys: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["api_key", "format", "q", "source", "target"], "nothing but the texts leave: {body}");
        assert_eq!(body["api_key"], "k-123");
        let text = body["q"].to_string();
        assert!(!text.contains("taquilla@") && !text.contains("912 345 678"), "P5: {text}");
    }
    assert!(!std::fs::read_to_string(dir.path().join("sources.toml")).unwrap().contains("k-123"));
}

/// An OpenAI-compatible server that answers every text translated.
fn openai_server() -> Server {
    Server::start(move |seen, _| {
        let body: Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let user = body["messages"][1]["content"].as_str().unwrap_or("").to_string();
        let content = fake_translate(&user);
        Reply::ok(serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}).to_string())
            .header("Content-Type", "application/json")
    })
}

fn openai_config(server: &Server) -> String {
    format!(
        "[settings]\ntranslator = \"openai\"\nopenai_url = \"{}\"\nopenai_model = \"local-model\"\napi_key_env = \"CITYVIBE_LT_KEY\"\nlanguages = [\"es\", \"en\"]\n[sources.madrid]\nenabled = true\n",
        server.url()
    )
}

#[test]
fn openai_compatible_server_translates_one_text_per_request_keeping_names() {
    let server = openai_server();
    let dir = workdir(&openai_config(&server));
    let out = run_a_concert_with_contacts(dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let en = listed(dir.path(), "en");
    let title = en["1"]["title"].as_str().unwrap();
    assert!(title.contains("Eloy de la Iglesia") && title.starts_with("Concert"), "{title}");
    assert!(en["1"]["text_origin"].as_str().unwrap().starts_with("openai:local-model"), "{}", en["1"]);
    for r in server.requests() {
        assert_eq!(r.path, "/v1/chat/completions");
        assert_eq!(r.header("Authorization"), Some("Bearer k-123"));
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        let mut keys: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["messages", "model", "temperature"], "{body}");
        let user = body["messages"][1]["content"].as_str().unwrap();
        assert!(!user.contains("taquilla@") && !user.contains("912 345 678"), "P5: {user}");
    }
}
