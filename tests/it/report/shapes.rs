//! `holdings`, `source show` and `audit --json` print typed report
//! structs, whose JSON keys and values are pinned here through the binary,
//! on a real SQLite file (and, for the audit, the project's samples as the mirror).
use crate::common;

use common::{cityvibe, workdir};
use serde_json::Value;
use std::path::Path;

const JCYL_ON: &str = "[settings]\ntranslator = \"none\"\n\n[sources.jcyl]\nenabled = true\n";
/// 2026-05-01T16:30:00.123Z
const FIRST_SEEN_MS: i64 = 1_777_653_000_123;

fn json_of(d: &Path, args: &[&str]) -> Value {
    let out = cityvibe(d, args);
    assert!(out.status.success(), "{args:?}: exit {:?}\n{}", out.status.code(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

/// One stored jcyl event, first stored at [`FIRST_SEEN_MS`], and a translation.
fn one_event(d: &Path) {
    let store = cityvibe::store::Store::open(&d.join("data/cityvibe.db")).unwrap();
    let conn = store.connection();
    conn.execute(
        "INSERT INTO events (source, source_event_id, title, description, url, lang, time_zone, all_day, start, end, first_start, last_end,
            occurrences, weekdays, excluded, categories, source_categories, content_hash, first_seen, last_changed)
         VALUES ('jcyl', '7', 'Concierto', '', 'https://www.jcyl.es/e/7', 'es', 'Europe/Madrid', 0, '2026-12-01T19:00:00', NULL,
            '2026-12-01T19:00:00', '2026-12-01T19:00:00', '[{\"start\":\"2026-12-01T19:00:00\",\"end\":null}]', '[]', '[]', '[\"music\"]',
            '[]', 'h', ?1, ?1)",
        [FIRST_SEEN_MS],
    )
    .unwrap();
    conn.execute("INSERT INTO translations (event_id, lang, field, text, origin, source_hash) VALUES (1, 'en', 'title', 'Concert', 'publisher', 'x')", [])
        .unwrap();
}

#[test]
fn holdings_json_keeps_its_keys_and_values() {
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    one_event(d);
    let v = json_of(d, &["holdings", "jcyl", "--json"]);
    assert_eq!(keys(&v), ["fetch_log_30_days", "linked_from_events", "page_events", "query", "sources"]);
    assert_eq!((&v["query"], &v["page_events"], &v["linked_from_events"]), (&"jcyl".into(), &Value::Null, &serde_json::json!([])));
    let s = &v["sources"][0];
    assert_eq!(
        keys(s),
        [
            "attribution",
            "corrections",
            "dataset_page",
            "enabled",
            "events_active",
            "events_current",
            "events_withdrawn",
            "events_withheld",
            "feeds",
            "fields",
            "first_date",
            "first_stored",
            "host",
            "id",
            "last_changed",
            "last_date",
            "licence",
            "licence_url",
            "min_delay_secs",
            "name",
            "publisher",
            "translations",
        ]
    );
    assert_eq!((&s["id"], &s["enabled"], &s["events_active"], &s["events_withheld"]), (&"jcyl".into(), &true.into(), &1.into(), &0.into()));
    assert_eq!((&s["first_stored"], &s["last_changed"]), (&"2026-05-01T16:30:00.123Z".into(), &"2026-05-01T16:30:00.123Z".into()));
    assert_eq!((&s["first_date"], &s["last_date"]), (&"2026-12-01T19:00:00".into(), &"2026-12-01T19:00:00".into()));
    assert_eq!(s["translations"], serde_json::json!([["en", 1]]));
    assert_eq!(s["corrections"], serde_json::json!([]));
    assert!(s["fields"].as_array().unwrap().contains(&"title".into()), "{s}");
    let f = &v["fetch_log_30_days"][0];
    assert_eq!(
        keys(f),
        [
            "bytes",
            "first_request_at",
            "host",
            "last_request_at",
            "min_gap_ms",
            "not_modified_share",
            "requests",
            "requests_per_day",
            "statuses"
        ]
    );
    assert_eq!((&f["host"], &f["requests"], &f["first_request_at"]), (&"datosabiertos.jcyl.es".into(), &0.into(), &Value::Null));

    // A page's URL: the stored events whose original it is, with their status.
    let v = json_of(d, &["holdings", "https://www.jcyl.es/e/7", "--json"]);
    assert_eq!(v["linked_from_events"], serde_json::json!([{ "source": "jcyl", "events": 1 }]));
    // Active in the store, and ended for a reader (its one day, 2026-12-01, is over).
    assert_eq!(
        v["page_events"],
        serde_json::json!([{ "source": "jcyl", "id": "7", "title": "Concierto", "status": "active", "current": false }])
    );
}

#[test]
fn source_show_json_keeps_its_keys_and_values() {
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    one_event(d);
    let v = json_of(d, &["source", "show", "jcyl", "--json"]);
    assert_eq!(
        keys(&v),
        [
            "attribution",
            "daily_cap",
            "delay_rule",
            "enabled",
            "events_active",
            "events_withdrawn",
            "feeds",
            "feeds_off",
            "fetch_log_30_days",
            "host",
            "id",
            "last_message",
            "last_status",
            "licence",
            "licence_url",
            "min_delay_secs",
            "name",
            "publisher",
            "run_now",
        ]
    );
    assert_eq!(v["run_now"], serde_json::json!({ "would": "fetch", "why": null }));
    assert_eq!((&v["delay_rule"], &v["last_status"], &v["events_active"]), (&"adapter".into(), &Value::Null, &1.into()));
    assert_eq!(v["feeds_off"], serde_json::json!([]));
    assert_eq!(keys(&v["fetch_log_30_days"]).len(), 9);
}

#[test]
fn audit_json_keeps_its_keys() {
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    let mirror = common::sample("");
    let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "audit", "--source", "jcyl", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(keys(&v), ["drift", "not_audited", "sources"]);
    assert_eq!(v["drift"], Value::Bool(out.status.code() == Some(1)), "{v}");
    assert_eq!(v["not_audited"], serde_json::json!([]));
    let s = &v["sources"][0];
    assert_eq!(
        keys(s),
        ["ai_txt", "blocked", "delay_secs", "drift", "feeds", "host", "id", "min_delay_secs", "review_date", "robots", "tdmrep"]
    );
    assert_eq!(s["id"], "jcyl");
}

/// The delay rule is said in the words `source show` and `source
/// list` use: the operator's row when it is the
/// slowest, the adapter's minimum (unsaid in the table) otherwise.
#[test]
fn delay_rule_keeps_its_words() {
    let dir = workdir(&format!("{JCYL_ON}min_delay_secs = 120\n"));
    let d = dir.path();
    one_event(d);
    let v = json_of(d, &["source", "show", "jcyl", "--json"]);
    assert_eq!((&v["delay_rule"], &v["min_delay_secs"]), (&"sources.toml".into(), &120.0.into()), "{v}");
    let list = json_of(d, &["source", "list", "--json"]);
    let rule = |id: &str| list.as_array().unwrap().iter().find(|r| r["id"] == id).map(|r| r["delay_rule"].clone());
    assert_eq!((rule("jcyl"), rule("madrid")), (Some("sources.toml".into()), Some("adapter".into())));
    let out = cityvibe(d, &["source", "list"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = |id: &str| text.lines().find(|l| l.starts_with(id)).unwrap_or_default().to_string();
    assert!(line("jcyl").contains("120 s (sources.toml)"), "{text}");
    assert!(line("madrid").contains(" s ") && !line("madrid").contains('('), "{text}");
}

/// `events show --json` prints a typed struct, the event's own
/// keys (as `events list --json` has them) and `corrections`; a
/// correction's `created_at` and `ended_at` are RFC 3339 times like every
/// other report time, in `holdings --json` too.
#[test]
fn events_show_json_keeps_its_keys_and_correction_times_are_rfc3339() {
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    one_event(d);
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    conn.execute(
        "INSERT INTO corrections (event_id, field, value, feed_value, reason, created_at, ended_at, ended_why)
         VALUES (1, 'venue', 'Sala 2', NULL, 'moved', ?1, ?2, 'lifted by the operator'),
                (1, 'title', 'Concierto (aplazado)', 'Concierto', 'postponed', ?2, NULL, NULL)",
        [FIRST_SEEN_MS, FIRST_SEEN_MS + 60_000],
    )
    .unwrap();
    let listed = json_of(d, &["events", "list", "--json", "--all"]);
    let shown = json_of(d, &["events", "show", "jcyl:7", "--json"]);
    // The list adds the reader's `next` and `ended`; show has the corrections.
    let mut expected: Vec<&str> = keys(&listed[0]).into_iter().filter(|k| !["next", "ended"].contains(k)).collect();
    expected.push("corrections");
    expected.sort_unstable();
    assert_eq!(keys(&shown), expected);
    assert_eq!(shown["title"], listed[0]["title"]);
    let held = json_of(d, &["holdings", "jcyl", "--json"]);
    for corrections in [&shown["corrections"], &held["sources"][0]["corrections"]] {
        // Newest first.
        let times = |c: &Value| (c["field"].clone(), c["created_at"].clone(), c["ended_at"].clone());
        assert_eq!(
            corrections.as_array().unwrap().iter().map(times).collect::<Vec<_>>(),
            [
                ("title".into(), "2026-05-01T16:31:00.123Z".into(), Value::Null),
                ("venue".into(), "2026-05-01T16:30:00.123Z".into(), "2026-05-01T16:31:00.123Z".into()),
            ],
            "{corrections}"
        );
    }
}

/// A translation's origin is read from the rows every release
/// wrote: `text_origin` names the publisher, a human or
/// the engine (`apertium/3.8 via es`, from the `engine` column); `translate
/// status` counts each; an exchange file marks only the engine's for review.
#[test]
fn text_origins_read_back_as_every_release_wrote_them() {
    let dir = workdir("[settings]\ntranslator = \"none\"\nlanguages = [\"es\", \"en\"]\n\n[sources.jcyl]\nenabled = true\n");
    let d = dir.path();
    one_event(d);
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    conn.execute("DELETE FROM translations", []).unwrap();
    for (id, title, english, origin, engine) in [
        ("8", "Teatro", "Theatre", "human", None),
        ("9", "Danza", "Dance", "machine", Some("apertium/3.8 via es")),
        ("7", "Concierto", "Concert", "publisher", None),
    ] {
        if id != "7" {
            conn.execute(
                "INSERT INTO events (source, source_event_id, title, description, url, lang, time_zone, all_day, start, end, first_start,
                    last_end, occurrences, weekdays, excluded, categories, source_categories, content_hash, first_seen, last_changed)
                 SELECT source, ?1, ?2, description, url, lang, time_zone, all_day, start, end, first_start, last_end, occurrences,
                    weekdays, excluded, categories, source_categories, content_hash, first_seen, last_changed FROM events WHERE id = 1",
                [id, title],
            )
            .unwrap();
        }
        conn.execute(
            "INSERT INTO translations (event_id, lang, field, text, origin, engine, source_hash)
             SELECT id, 'en', 'title', ?2, ?3, ?4, ?5 FROM events WHERE source_event_id = ?1",
            rusqlite::params![id, english, origin, engine, cityvibe::store::events::text_hash(title)],
        )
        .unwrap();
    }
    drop(conn);
    let listed = json_of(d, &["events", "list", "--json", "--all", "--lang", "en"]);
    let said = |id: &str| listed.as_array().unwrap().iter().find(|e| e["source_event_id"] == id).map(|e| e["text_origin"].clone());
    assert_eq!((said("7"), said("8"), said("9")), (Some("publisher".into()), Some("human".into()), Some("apertium/3.8 via es".into())));
    let status = json_of(d, &["translate", "status", "--json"]);
    let en = status["languages"].as_array().unwrap().iter().find(|l| l["lang"] == "en").unwrap();
    assert_eq!((&en["publisher"], &en["human"], &en["machine"], &en["pending"]), (&1.into(), &1.into(), &1.into(), &0.into()), "{en}");
    let out = cityvibe(d, &["translate", "export", "--lang", "en", "--format", "po", "--only", "machine"]);
    let po = String::from_utf8_lossy(&out.stdout);
    assert!(po.contains("jcyl:9 (apertium/3.8 via es)") && po.contains("#, fuzzy") && po.contains("Dance"), "{po}");
    assert!(!po.contains("Theatre") && !po.contains("Concert"), "{po}");
    let all = String::from_utf8_lossy(&cityvibe(d, &["translate", "export", "--lang", "en", "--format", "xliff"]).stdout).to_string();
    assert_eq!(all.matches("state=\"needs-review-translation\"").count(), 1, "{all}");
    assert_eq!(all.matches("state=\"translated\"").count(), 2, "{all}");
}

/// A translation's field keeps its words: an
/// exchange file's `title` and `description` contexts are read, any other
/// (a price, `Title`) is refused, and what is stored is written
/// back under the same context.
#[test]
fn translation_fields_keep_their_words() {
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    one_event(d);
    let po = d.join("en.po");
    let entry = |ctxt: &str, text: &str| format!("msgctxt \"{ctxt}\"\nmsgid \"Concierto\"\nmsgstr \"{text}\"\n\n");
    let file = format!("msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\n{}{}", entry("price", "Free"), entry("Title", "Concert?"));
    std::fs::write(&po, format!("{file}{}", entry("title", "Concert night"))).unwrap();
    let out = cityvibe(d, &["translate", "import", po.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["applied"], 1, "{report}");
    let refused: Vec<(Value, Value)> =
        report["refused"].as_array().unwrap().iter().map(|r| (r["field"].clone(), r["why"].clone())).collect();
    let unknown: Value = "unknown field (expected title or description)".into();
    assert_eq!(refused, [("price".into(), unknown.clone()), ("Title".into(), unknown)]);
    let listed = json_of(d, &["events", "list", "--json", "--all", "--lang", "en"]);
    assert_eq!((&listed[0]["title"], &listed[0]["text_origin"]), (&"Concert night".into(), &"human".into()));
    let out = cityvibe(d, &["translate", "export", "--lang", "en", "--format", "po"]);
    let written = String::from_utf8_lossy(&out.stdout);
    assert!(written.contains("msgctxt \"title\"\nmsgid \"Concierto\"\nmsgstr \"Concert night\""), "{written}");
    let out = cityvibe(d, &["translate", "correct", "jcyl:7", "--lang", "fr", "--title", "Concert du soir"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "title in fr: stored, shown on 1 event(s) with the same original");
}
