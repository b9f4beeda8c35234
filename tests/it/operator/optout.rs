//! P16 "en parte": a row switches off single feeds of a
//! source (`feeds_off`, by language or URL); a feed switched off is never
//! requested and the rest still work; `source disable --withdraw` withholds
//! a source's stored events from every list and export (kept for
//! `holdings`, back with `source enable`).
use crate::common;
use crate::common::ok;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use std::path::Path;

/// A loopback origin that answers every mirrored path from data/samples.
fn samples_server() -> Server {
    Server::start(|seen, _| match std::fs::read(sample(seen.path.trim_start_matches('/'))) {
        Ok(body) => Reply::ok(body),
        Err(_) => Reply::new(404),
    })
}

fn events_in(dir: &Path, lang: &str) -> Vec<serde_json::Value> {
    serde_json::from_str(&ok(&cityvibe(dir, &["events", "list", "--json", "--limit", "1000", "--lang", lang, "--at", common::SAMPLES_AT])))
        .unwrap()
}

/// P16: diba without its English feed. The English feed is
/// never asked for again; the Catalan original and the publisher's Spanish
/// still come in, and English comes from the engine, not the publisher.
#[test]
fn a_feed_switched_off_is_never_requested_and_the_rest_still_work() {
    let server = samples_server();
    let dir =
        workdir("[settings]\nlanguages = [\"ca\", \"es\", \"en\"]\ntranslator = \"apertium\"\n\n# Diba.\n[sources.diba]\nenabled = true\n");
    let d = dir.path();
    let run = |d: &Path| -> serde_json::Value {
        serde_json::from_str(&ok(&cityvibe(d, &["--mirror", &server.url(), "run", "--force", "--source", "diba", "--json"]))).unwrap()
    };
    let first = run(d);
    assert_eq!(first["sources"][0]["status"], "ok", "{first}");
    let paths = |from: usize| server.requests()[from..].iter().map(|r| r.path.clone()).collect::<Vec<_>>();
    assert_eq!(paths(0).len(), 3);
    assert!(paths(0).iter().any(|p| p.contains("actesturisme_en")));
    let english = events_in(d, "en");
    assert!(!english.is_empty());
    // The publisher's English for all but the one event its feed lacks.
    let from_publisher = english.iter().filter(|e| e["text_origin"] == "publisher").count();
    assert!(from_publisher + 1 >= english.len() && from_publisher > 0, "{english:?}");

    // The webmaster asks us to leave the English feed alone.
    let config = d.join("sources.toml");
    let text = std::fs::read_to_string(&config).unwrap().replace("enabled = true\n", "enabled = true\nfeeds_off = [\"en\"]\n");
    std::fs::write(&config, text).unwrap();
    let before = server.requests().len();
    let second = run(d);
    let s = &second["sources"][0];
    assert!(s["status"] == "ok" || s["status"] == "unchanged", "{second}");
    let asked = paths(before);
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked.iter().all(|p| !p.contains("actesturisme_en")), "a switched-off feed was requested: {asked:?}");
    assert!(asked.iter().any(|p| p.contains("actesturisme_ca")) && asked.iter().any(|p| p.contains("actesturisme_es")), "{asked:?}");

    let english = events_in(d, "en");
    assert_eq!(english.len(), events_in(d, "ca").len());
    for e in &english {
        assert_eq!(e["lang"], "en", "{e}");
        assert!(e["text_origin"].as_str().unwrap().starts_with("apertium/"), "English should come from the engine now: {e}");
    }
    let spanish = events_in(d, "es");
    assert!(spanish.iter().all(|e| e["text_origin"] == "publisher"), "the Spanish feed still works: {spanish:?}");
    // Nothing of the English feed is held any more.
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let publisher_en: i64 =
        conn.query_row("SELECT count(*) FROM translations WHERE lang = 'en' AND origin = 'publisher'", [], |r| r.get(0)).unwrap();
    assert_eq!(publisher_en, 0);
}

/// P16: a feed named by URL; with alternatives, the next one
/// serves (madrid without its JSON reads its CSV).
#[test]
fn a_feed_switched_off_by_url_leaves_the_alternatives() {
    let server = samples_server();
    let json = cityvibe::adapters::madrid::MANIFEST.feeds[0].url;
    let dir = workdir(&format!("[settings]\ntranslator = \"none\"\n[sources.madrid]\nfeeds_off = [\"{json}\"]\n"));
    let out: serde_json::Value =
        serde_json::from_str(&ok(&cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--source", "madrid", "--json"]))).unwrap();
    assert_eq!(out["sources"][0]["status"], "ok", "{out}");
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, vec!["/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv"]);
    assert_eq!(events_in(dir.path(), "es").len(), 8);
    let shown: serde_json::Value = serde_json::from_str(&ok(&cityvibe(dir.path(), &["source", "show", "madrid", "--json"]))).unwrap();
    assert_eq!(shown["feeds_off"], serde_json::json!([json]));
    assert!(ok(&cityvibe(dir.path(), &["source", "show", "madrid"])).contains(&format!("feed es {json}  (switched off: feeds_off)")));
}

/// P16, P13: a switched-off feed is not requested even when
/// another feed redirects to it inside the adapter's allowed paths.
#[test]
fn a_redirect_to_a_switched_off_feed_is_refused() {
    let csv = cityvibe::adapters::madrid::MANIFEST.feeds[1].url;
    let server = Server::start(move |seen, _| {
        if seen.path.ends_with(".json") {
            Reply::new(301).header("Location", csv)
        } else {
            match std::fs::read(sample(seen.path.trim_start_matches('/'))) {
                Ok(body) => Reply::ok(body),
                Err(_) => Reply::new(404),
            }
        }
    });
    let dir = workdir(&format!("[settings]\ntranslator = \"none\"\n[sources.madrid]\nfeeds_off = [\"{csv}\"]\n"));
    let out: serde_json::Value =
        serde_json::from_str(&String::from_utf8_lossy(&cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--json"]).stdout))
            .unwrap();
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert!(!paths.iter().any(|p| p.ends_with(".csv")), "the switched-off CSV was requested: {paths:?}");
    assert!(out["sources"][0]["message"].as_str().unwrap().contains("switched off in sources.toml"), "{out}");
}

/// P16: a feed switched off while the run is under way is
/// not asked for: madrid's JSON answers 500, the operator switches off the
/// CSV meanwhile, and the fallback never requests it.
#[test]
fn a_feed_switched_off_mid_run_is_not_requested() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\nenabled = true\n");
    let config = dir.path().join("sources.toml");
    let csv = cityvibe::adapters::madrid::MANIFEST.feeds[1].url;
    let server = Server::start(move |_, i| {
        if i == 0 {
            let text = std::fs::read_to_string(&config)
                .unwrap()
                .replace("enabled = true\n", &format!("enabled = true\nfeeds_off = [\"{csv}\"]\n"));
            std::fs::write(&config, text).unwrap();
        }
        Reply::new(500)
    });
    let out: serde_json::Value =
        serde_json::from_str(&String::from_utf8_lossy(&cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--json"]).stdout))
            .unwrap();
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert!(paths.iter().all(|p| !p.ends_with(".csv")), "{paths:?}");
    assert!(paths[0].ends_with(".json"), "{paths:?}");
    let s = &out["sources"][0];
    assert_eq!(s["status"], "disabled", "{out}");
    assert!(s["message"].as_str().unwrap().contains("feed switched off during the run"), "{out}");
}

/// A key that names no feed, or one that leaves no feed with the events, is
/// a configuration error (exit 2) that lists the source's feeds; nothing is requested.
#[test]
fn feeds_off_that_names_no_feed_is_a_clear_error() {
    let server = samples_server();
    for (key, says) in
        [("de", "\"de\" is neither the language nor the URL of a feed of diba"), ("ca", "every feed that carries diba's events")]
    {
        let dir = workdir(&format!("[settings]\ntranslator = \"none\"\n[sources.diba]\nfeeds_off = [\"{key}\"]\n"));
        let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run"]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.contains("https://do.diba.cat/api/dataset/actesturisme_ca"), "{err}");
    }
    assert!(server.requests().is_empty());
}

/// P16/P17: `source disable --withdraw` takes a source's
/// events out of every list and export at once; `holdings` still tells what
/// is kept; `source enable` brings them back.
#[test]
fn disable_withdraw_withholds_stored_events_until_enabled() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n# Madrid.\n[sources.madrid]\nenabled = true\n");
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "run", "--source", "madrid", "--json"]));
    let count = |d: &Path| -> usize {
        let json: Vec<serde_json::Value> = serde_json::from_str(&ok(&cityvibe(d, &["export", "--format", "json"]))).unwrap();
        json.len()
    };
    assert_eq!(count(d), 8);
    let id = events_in(d, "es")[0]["source_event_id"].as_str().unwrap().to_string();
    // Switched off without --withdraw: the events stay shown (as before).
    ok(&cityvibe(d, &["source", "disable", "madrid", "--reason", "pausa"]));
    assert_eq!(count(d), 8);
    ok(&cityvibe(d, &["source", "enable", "madrid"]));

    let out = cityvibe(d, &["source", "disable", "madrid", "--reason", "el webmaster lo pidió", "--withdraw"]);
    ok(&out);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("8 stored events of madrid withheld"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(d.join("sources.toml")).unwrap().contains("# Madrid.\n[sources.madrid]\nenabled = false\n"));
    assert_eq!(count(d), 0);
    assert!(events_in(d, "es").is_empty());
    for format in ["csv", "ics", "jsonld"] {
        let text = ok(&cityvibe(d, &["export", "--format", format]));
        assert!(!text.contains(&id), "{format} still holds {id}:\n{text}");
    }
    let held: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["holdings", "madrid", "--json"]))).unwrap();
    let s = &held["sources"][0];
    assert_eq!((s["events_active"].as_u64(), s["events_withheld"].as_u64()), (Some(0), Some(8)), "{held}");
    assert!(ok(&cityvibe(d, &["holdings", "madrid"])).contains("8 events kept but shown nowhere"));
    let shown: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["events", "show", &format!("madrid:{id}"), "--json"]))).unwrap();
    assert_eq!(shown["status"], "withheld");

    let out = cityvibe(d, &["source", "enable", "madrid"]);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("8 withheld events of madrid shown again"));
    assert_eq!(count(d), 8);
    let held: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["holdings", "madrid", "--json"]))).unwrap();
    assert_eq!(held["sources"][0]["events_withheld"], 0);
}

/// P16: with a source withheld, an empty list or export says why (the
/// operator withheld its events, and how to bring them back), not that they
/// ended or that a run is needed; and it counts only the sources asked for.
#[test]
fn an_empty_list_says_the_events_are_withheld_p16() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\nenabled = true\n");
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "run", "--source", "madrid", "--json"]));
    ok(&cityvibe(d, &["source", "disable", "madrid", "--reason", "el webmaster lo pidió", "--withdraw"]));
    for args in [&["events", "list"][..], &["events", "list", "--source", "madrid", "--all"], &["export", "--format", "csv"]] {
        let out = cityvibe(d, args);
        ok(&out);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("8 withheld by the operator") && err.contains("`cityvibe source enable madrid`"), "{args:?}: {err}");
        assert!(!err.contains("ended") && !err.contains("cityvibe run"), "{args:?}: {err}");
    }
    // A source with nothing stored is not said to hold madrid's events.
    let out = cityvibe(d, &["events", "list", "--source", "jcyl"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("none of jcyl is stored") && !err.contains('8'), "{err}");
}
