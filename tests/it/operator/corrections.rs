//! A publisher's "hay un error en tus eventos tal y como los mostramos":
//! `events correct SOURCE:ID FIELD VALUE --reason "…"` shows the corrected
//! value instead of the feed's, in every list and export, until the feed
//! itself changes that field; `events show` and `holdings` (P17) list the
//! corrections; `--remove` lifts one. Corrected text is scrubbed (P5), and a
//! corrected Spanish title is translated again.
use crate::common;
use crate::common::ok;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use std::path::Path;
use std::sync::{Arc, Mutex};

const FEED: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const EVENT: &str = "madrid:51000104";
const FEED_TITLE: &str = "Cine: El espíritu de la colmena";
const CORRECTED: &str = "Cine: El espíritu de la colmena (pase cancelado)";

fn show(d: &Path, lang: Option<&str>) -> serde_json::Value {
    let mut args = vec!["events", "show", EVENT, "--json"];
    if let Some(l) = lang {
        args.extend(["--lang", l]);
    }
    serde_json::from_str(&ok(&cityvibe(d, &args))).unwrap()
}

/// A corrected title shows everywhere until the feed
/// changes the title; a feed change elsewhere keeps it; then it lapses and says so.
#[test]
fn a_correction_shows_until_the_feed_changes_that_field() {
    let body = Arc::new(Mutex::new(std::fs::read_to_string(sample(FEED)).unwrap()));
    let served = body.clone();
    let server = Server::start(move |_, _| Reply::ok(served.lock().unwrap().clone()));
    let dir = workdir("[settings]\nlanguages = [\"es\", \"en\"]\ntranslator = \"apertium\"\n[sources.madrid]\nenabled = true\n");
    let d = dir.path();
    let run = || -> serde_json::Value {
        serde_json::from_str(&ok(&cityvibe(d, &["--mirror", &server.url(), "run", "--force", "--source", "madrid", "--json"]))).unwrap()
    };
    run();
    assert_eq!(show(d, None)["title"], FEED_TITLE);
    let english_before = show(d, Some("en"))["title"].as_str().unwrap().to_string();
    assert!(show(d, Some("en"))["text_origin"].as_str().unwrap().starts_with("apertium/"));

    let out = cityvibe(d, &["events", "correct", EVENT, "title", CORRECTED, "--reason", "el centro anuló el pase"]);
    ok(&out);
    let e = show(d, None);
    assert_eq!(e["title"], CORRECTED);
    let c = &e["corrections"][0];
    assert_eq!((c["field"].as_str(), c["value"].as_str(), c["feed_value"].as_str()), (Some("title"), Some(CORRECTED), Some(FEED_TITLE)));
    assert_eq!(c["reason"], "el centro anuló el pase");
    assert!(ok(&cityvibe(d, &["events", "show", EVENT])).contains("el centro anuló el pase"));
    for format in ["json", "csv", "ics", "jsonld"] {
        let text = ok(&cityvibe(d, &["export", "--format", format])).replace("\r\n ", "");
        assert!(text.contains("(pase cancelado)"), "{format}: {text}");
    }
    let held: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["holdings", "madrid", "--json"]))).unwrap();
    assert_eq!(held["sources"][0]["corrections"][0]["value"], CORRECTED, "{held}");
    assert!(ok(&cityvibe(d, &["holdings", "madrid"])).contains("(pase cancelado)"));

    // A changed original: the old English no longer shows; the correction
    // itself translated the new one, before any `translate`.
    assert!(String::from_utf8_lossy(&out.stderr).contains("translated at once"), "{}", String::from_utf8_lossy(&out.stderr));
    let en = show(d, Some("en"));
    assert!(en["text_origin"].as_str().unwrap().starts_with("apertium/"), "{en}");
    assert_ne!(en["title"].as_str().unwrap(), english_before);

    // The feed changes another field of the event: the title stays corrected.
    {
        let mut b = body.lock().unwrap();
        *b = b.replace("Dirigida por Víctor Erice (1973).", "Dirigida por Víctor Erice (1973), copia restaurada.");
    }
    let r = run();
    assert_eq!(r["sources"][0]["updated"], 1, "{r}");
    let e = show(d, None);
    assert!(e["description"].as_str().unwrap().contains("copia restaurada"), "{e}");
    assert_eq!(e["title"], CORRECTED);

    // The feed changes the title itself: the feed is right again; the correction lapses, saying so.
    {
        let mut b = body.lock().unwrap();
        *b = b.replace(FEED_TITLE, "Cine: El espíritu de la colmena (suspendido)");
    }
    let r = run();
    let message = r["sources"][0]["message"].as_str().unwrap();
    assert!(message.contains("1 operator corrections lapsed"), "{message}");
    let e = show(d, None);
    assert_eq!(e["title"], "Cine: El espíritu de la colmena (suspendido)");
    let c = &e["corrections"][0];
    // An RFC 3339 time like every report's.
    assert!(c["ended_at"].as_str().is_some_and(|t| t.parse::<jiff::Timestamp>().is_ok()), "{e}");
    assert!(c["ended_why"].as_str().unwrap().contains("the feed changed title"), "{e}");
    // And a later run does not bring it back.
    {
        let mut b = body.lock().unwrap();
        *b = b.replace("copia restaurada", "copia nueva");
    }
    run();
    assert_eq!(show(d, None)["title"], "Cine: El espíritu de la colmena (suspendido)");
}

/// P5, P17: values are checked, text is scrubbed, start and
/// end move the occurrence, and `--remove` brings back the feed's value.
#[test]
fn corrections_are_checked_scrubbed_and_lifted() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\nenabled = true\n");
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "run", "--source", "madrid"]));
    let bad = |args: &[&str], says: &str| {
        let out = cityvibe(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    };
    bad(&["events", "correct", EVENT, "start", "mañana", "--reason", "x"], "not a local date and time");
    bad(&["events", "correct", EVENT, "url", "ftp://x.es/e", "--reason", "x"], "not an http(s) URL");
    bad(&["events", "correct", EVENT, "lat", "40", "--reason", "x"], "title, description, venue");
    bad(&["events", "correct", "madrid:999", "title", "X", "--reason", "x"], "no stored event madrid:999");
    bad(&["events", "correct", "51000104", "title", "X", "--reason", "x"], "SOURCE:ID");
    bad(&["events", "correct", EVENT, "end", "2026-12-10T10:00", "--reason", "x"], "before the start");
    bad(&["events", "correct", "madrid:51000102", "start", "2026-12-03T17:30", "--reason", "x"], "occurrences");
    bad(&["events", "correct", EVENT, "venue", "--remove"], "no correction of venue");

    // P5: neither the value nor the reason keeps contact data.
    ok(&cityvibe(
        d,
        &[
            "events",
            "correct",
            EVENT,
            "description",
            "Pase cancelado. Dudas: taquilla@centro.es o 913 184 733",
            "--reason",
            "aviso de info@madrid.es",
        ],
    ));
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let stored: Vec<String> = conn
        .prepare("SELECT description FROM events UNION ALL SELECT coalesce(value, '') || ' ' || reason FROM corrections")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(stored.iter().any(|s| s.starts_with("Pase cancelado.")), "{stored:?}");
    for s in &stored {
        for needle in ["taquilla@centro.es", "913 184 733", "info@madrid.es"] {
            assert!(!s.contains(needle), "{needle} reached the database: {s}");
        }
    }

    // Start and end move the one occurrence (exports and ordering follow).
    ok(&cityvibe(d, &["events", "correct", EVENT, "start", "2026-12-11 19:30", "--reason", "cambio de hora"]));
    let e = show(d, None);
    assert_eq!(e["start"], "2026-12-11T19:30:00");
    assert_eq!(e["occurrences"][0]["start"], "2026-12-11T19:30:00", "{e}");
    assert!(ok(&cityvibe(d, &["export", "--format", "ics"])).contains("DTSTART;TZID=Europe/Madrid:20261211T193000"));

    // A venue corrected, then lifted: the feed's value again, the correction kept as ended.
    ok(&cityvibe(d, &["events", "correct", EVENT, "venue", "Sala 2", "--reason", "cambio de sala"]));
    assert_eq!(show(d, None)["venue"], "Sala 2");
    ok(&cityvibe(d, &["events", "correct", EVENT, "venue", "--remove"]));
    let e = show(d, None);
    assert_eq!(e["venue"], "Centro Cultural Puerta del Río (Arganzuela)");
    let venue = e["corrections"].as_array().unwrap().iter().find(|c| c["field"] == "venue").unwrap().clone();
    assert_eq!(venue["ended_why"], "lifted by the operator");
    ok(&cityvibe(d, &["events", "correct", EVENT, "start", "--remove"]));
    let e = show(d, None);
    assert_eq!(e["start"], "2026-12-11T18:00:00");
    assert_eq!(e["occurrences"][0]["start"], "2026-12-11T18:00:00", "{e}");
}
