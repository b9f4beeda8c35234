//! P5, through the binary: every contact-data form the scrubber knows
//! (Spanish and foreign phone formats, disguised and encoded
//! e-mails) planted in every text field of every adapter's feed
//! (`data/samples/fixtures/pii/*_forms.*`, written by `scripts/pii_forms.py`),
//! and contact data used as an event id. None of it may reach the database
//! file (nor its WAL), any export format, the run's report, or the text sent
//! to the translation server.
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use std::path::Path;
use unicode_normalization::UnicodeNormalization;

/// What would show if a form got through: e-mail local parts and phone
/// digits (compared with separators removed, see [`project`]), searched
/// all at once: one pass of an Aho-Corasick automaton over a text instead
/// of one `contains` per needle (over 1000 of them: 22 s of the test's
/// 24 s of CPU in a debug build went there; the same matches).
struct Needles {
    list: Vec<String>,
    all: aho_corasick::AhoCorasick,
}

fn needles() -> Needles {
    let text = std::fs::read_to_string(sample("fixtures/pii/forms_needles.txt")).unwrap();
    let list: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
    let all = aho_corasick::AhoCorasick::new(&list).unwrap();
    Needles { list, all }
}

/// A text as the needles are written: NFKC, entities decoded, ICS lines
/// unfolded, and the separators a number may carry removed.
fn project(text: &str) -> String {
    let unfolded = text.replace("\r\n ", "").replace("\\,", ",");
    let decoded = htmlize::unescape(&unfolded).into_owned();
    decoded
        .nfkc()
        .filter(|c| !(c.is_whitespace() || matches!(c, '.' | '-' | '(' | ')' | '/' | '\u{200B}') || ('\u{2010}'..='\u{2015}').contains(c)))
        .collect()
}

fn assert_clean(what: &str, text: &str, needles: &Needles) {
    let p = project(text);
    let ids: std::collections::BTreeSet<usize> = needles.all.find_overlapping_iter(&p).map(|m| m.pattern().as_usize()).collect();
    let found: Vec<&String> = ids.into_iter().map(|i| &needles.list[i]).collect();
    assert!(found.is_empty(), "{what} holds contact data: {} of them, e.g. {:?}", found.len(), &found[..found.len().min(5)]);
}

/// A translation server on the loopback that records what it is sent and
/// sends it back as its "translation" (Spanish and Catalan into English).
fn recording_translator() -> Server {
    Server::start(|seen, _| {
        if seen.path.starts_with("/listPairs") {
            return Reply::ok(
                r#"{"responseData": [{"sourceLanguage": "spa", "targetLanguage": "eng"}, {"sourceLanguage": "cat", "targetLanguage": "eng"}], "responseStatus": 200}"#,
            );
        }
        let q = url::form_urlencoded::parse(&seen.body).find(|(k, _)| k == "q").map(|(_, v)| v.into_owned()).unwrap_or_default();
        Reply::ok(serde_json::json!({"responseData": {"translatedText": q}, "responseStatus": 200}).to_string())
    })
}

fn mirror_of_forms(dir: &Path) -> std::path::PathBuf {
    let mirror = dir.join("mirror");
    let place = |fixture: &str, target: &str| {
        let to = mirror.join(target);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(sample(fixture), to).unwrap();
    };
    place("fixtures/pii/madrid_forms.json", "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json");
    place("fixtures/pii/esmadrid_forms.xml", "www.esmadrid.com/opendata/agenda_v1_es.xml");
    place("fixtures/pii/diba_forms.json", "do.diba.cat/api/dataset/actesturisme_ca/format/json/pag-ini/1/pag-fi/1000");
    for l in ["es", "en"] {
        let p = format!("do.diba.cat/api/dataset/actesturisme_{l}/format/json/pag-ini/1/pag-fi/1000");
        place(&p, &p);
    }
    place("fixtures/pii/jcyl_forms.json", "datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json");
    mirror
}

#[test]
fn no_form_of_contact_data_reaches_db_exports_reports_or_translation_p5() {
    let needles = needles();
    assert!(needles.list.len() > 1000, "{}", needles.list.len());
    // The search finds what was planted: the feeds as published hold them.
    let planted = project(&std::fs::read_to_string(sample("fixtures/pii/madrid_forms.json")).unwrap());
    assert!(needles.all.find_iter(&planted).count() > 100, "the needles are found in the planted feed");
    let apy = recording_translator();
    let dir = workdir(&format!(
        "[settings]\nlanguages = [\"es\", \"en\"]\ntranslator = \"apy\"\napy_url = \"{}\"\n\n\
         [sources.madrid]\n[sources.esmadrid]\n[sources.diba]\n[sources.jcyl]\n",
        apy.url()
    ));
    let d = dir.path();
    let mirror = mirror_of_forms(d);
    let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "run", "--json"]);
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let v: serde_json::Value =
        serde_json::from_str(&report).unwrap_or_else(|e| panic!("{e}: {report} {}", String::from_utf8_lossy(&out.stderr)));
    // The four sources with a forms fixture (a source with no row is reported "disabled").
    let configured = ["madrid", "esmadrid", "diba", "jcyl"];
    let lines: Vec<&serde_json::Value> =
        v["sources"].as_array().unwrap().iter().filter(|s| configured.iter().any(|c| s["id"] == *c)).collect();
    assert_eq!(lines.len(), configured.len(), "{report}");
    for s in lines {
        assert_eq!(s["status"], "ok", "{s}");
        // The two records whose id is contact data are refused; the rest stored.
        assert!(s["record_errors"].as_u64().unwrap() >= 2, "{s}");
        assert!(s["added"].as_u64().unwrap() >= 30, "{s}");
    }
    assert_clean("run --json", &report, &needles);
    assert_clean("run's stderr", &String::from_utf8_lossy(&out.stderr), &needles);
    let out = cityvibe(d, &["translate"]);
    assert_clean(
        "translate's output",
        &format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
        &needles,
    );

    // What the translation server was sent.
    let sent: Vec<String> =
        apy.requests().iter().filter(|r| r.method == "POST").map(|r| String::from_utf8_lossy(&r.body).into_owned()).collect();
    let sent: String = sent.iter().flat_map(|b| url::form_urlencoded::parse(b.as_bytes()).map(|(_, v)| v.into_owned())).collect();
    // Scrubbed, the planted texts are nearly all alike: few reach the server.
    assert!(sent.len() > 300 && sent.contains("[…]"), "the texts were sent for translation, scrubbed: {} bytes", sent.len());
    assert_clean("the text sent to translation", &sent, &needles);

    // The database file and its WAL, byte for byte.
    let mut bytes = String::new();
    for f in ["data/cityvibe.db", "data/cityvibe.db-wal"] {
        if let Ok(b) = std::fs::read(d.join(f)) {
            bytes.push_str(&String::from_utf8_lossy(&b));
        }
    }
    assert!(bytes.contains("[…]"));
    assert_clean("the database file and WAL", &bytes, &needles);

    // Every export format, and the listing.
    for format in ["json", "csv", "ics", "jsonld"] {
        let out = cityvibe(d, &["export", "--format", format]);
        assert!(out.status.success(), "export {format}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.len() > 1000, "export {format} is nearly empty");
        assert_clean(&format!("export --format {format}"), &text, &needles);
    }
    let out = cityvibe(d, &["events", "list", "--json", "--limit", "100000", "--at", common::SAMPLES_AT]);
    let listed: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("events list --json");
    assert!(!listed.is_empty(), "events list shows nothing to check");
    assert_clean("events list", &String::from_utf8_lossy(&out.stdout), &needles);
}

/// `adapter check` lists bad records: a parser's error that quotes an id or
/// a text holding contact data must not print it (P5).
#[test]
fn adapter_check_never_prints_contact_data_from_a_bad_record_p5() {
    let dir = tempfile::tempdir().unwrap();
    let feed = dir.path().join("feed.json");
    std::fs::write(
        &feed,
        r#"{"@graph": [{"id": "buzon77@example.es", "title": "Taller", "dtstart": "no es una fecha buzon78@example.es 912 778 899"},
                      {"id": "1", "title": "Concierto", "dtstart": "2026-12-11 18:00:00.0"}]}"#,
    )
    .unwrap();
    let out = cityvibe(dir.path(), &["adapter", "check", "madrid", "--sample", feed.to_str().unwrap(), "--json"]);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("error_count"), "{text}");
    for needle in ["buzon77", "buzon78", "912 778 899"] {
        assert!(!text.contains(needle), "{needle} printed: {text}");
    }
}

/// The scrubber's windows (patterns tried only near `@` and digit
/// clusters) must not let through a number split over lines or the head of
/// an address with a long local part: neither is stored (P5).
#[test]
fn a_number_over_lines_and_a_long_address_never_reach_the_database_p5() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n\n[sources.madrid]\n");
    let d = dir.path();
    let long = format!("Escribe a {}@example.es hoy", "nombre.apellido".repeat(8));
    let graph: Vec<serde_json::Value> = [("1", "Reservas: 912\n345\n678."), ("2", long.as_str())]
        .iter()
        .map(|(id, description)| {
            serde_json::json!({"id": id, "title": "Taller", "description": description,
                "dtstart": "2025-12-02 09:00:00.0", "dtend": "2025-12-02 23:59:00.0"})
        })
        .collect();
    let mirror = d.join("mirror");
    let feed = mirror.join("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json");
    std::fs::create_dir_all(feed.parent().unwrap()).unwrap();
    std::fs::write(&feed, serde_json::json!({ "@graph": graph }).to_string()).unwrap();
    let out = cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "run", "--json", "--no-translate"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let db = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let mut st = db.prepare("SELECT description FROM events ORDER BY source_event_id").unwrap();
    let stored: Vec<String> = st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert_eq!(stored, ["Reservas: […].", "Escribe a […] hoy"]);
}
