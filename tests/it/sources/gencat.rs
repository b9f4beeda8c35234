//! The `gencat` source: the Generalitat's Catalan agenda, a
//! Socrata dataset read in pages. Through the binary with `--mirror DIR`:
//! one id on several rows is one event, the last row winning, and the run
//! counts the merged rows; the real page of `../shared/realdata/` stores
//! each distinct id as one event or a named record error, with no contact
//! data in the database or any export (P5), no date outside the plausible
//! window, old events kept as ended; it shows on the sources page, in
//! `holdings` and the exports with its licence in the reader's language.
use crate::common;
use crate::golden;

use cityvibe::adapter::parse_bytes;
use cityvibe::adapter_tools::audit_events;
use common::{cityvibe, workdir};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const GENCAT_ON: &str = "[settings]\ntranslator = \"none\"\n\n[sources.gencat]\nenabled = true\n";
const REAL: &str = "gencat_agenda_cultural/rhpv-yr4f_agenda-cultural-catalunya_2022-11.json";
/// Where `--mirror DIR` serves the feed's first page.
const FIRST_PAGE: &str = "analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0";

fn run(dir: &Path, mirror: &Path) -> (i32, serde_json::Value) {
    let out = cityvibe(dir, &["--mirror", mirror.to_str().unwrap(), "run", "--force", "--source", "gencat", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: stdout {} stderr {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v["sources"][0].clone())
}

fn row(codi: &str, title: &str, description: &str) -> String {
    format!(
        r#"{{"codi":"{codi}","data_fi":"2026-12-20T00:00:00.000","data_inici":"2026-12-20T00:00:00.000","denominaci":"{title}","descripcio":"{description}","horari":"20.30 h"}}"#
    )
}

fn page(rows: &[String]) -> Vec<u8> {
    format!("[{}]\n", rows.join("\n,")).into_bytes()
}

/// The sample page in (the first page `--mirror` serves), its events out,
/// as reviewed once and kept in `tests/golden/gencat.json`; its row with a
/// junk start date is a record error, not an event.
#[test]
fn the_sample_page_matches_its_golden_file() {
    let bytes = std::fs::read(common::sample(FIRST_PAGE)).unwrap();
    let c = parse_bytes(&cityvibe::adapters::gencat::Gencat, &cityvibe::adapters::gencat::MANIFEST.feeds[0], &bytes)
        .expect("the sample parses");
    assert_eq!(c.errors.iter().map(|e| e.record.as_str()).collect::<Vec<_>>(), ["20261105004"], "{:?}", c.errors);
    assert!(!c.events.is_empty());
    golden::assert_golden("gencat.json", &c.events);
}

fn db(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join("data/cityvibe.db")).unwrap()
}

/// A `codi` on three rows (a copy and an edited version) is one
/// event holding the last row; the run's report counts the two merged
/// rows; the distinct-id guard (P20) counts ids, not rows.
#[test]
fn one_id_on_several_rows_is_one_event_the_last_row_winning() {
    let dir = workdir(GENCAT_ON);
    let mirror = tempfile::tempdir().unwrap();
    let rows = [
        row("1", "Concert", "Primera versió."),
        row("2", "Teatre", "Una obra."),
        row("1", "Concert", "Primera versió."),
        row("3", "Dansa", "Un ballet."),
        row("4", "Cinema", "Una pel·lícula."),
        row("1", "Concert", "Versió editada."),
    ];
    common::place(mirror.path(), FIRST_PAGE, &page(&rows));
    let (code, r) = run(dir.path(), mirror.path());
    assert_eq!((code, r["status"].as_str(), r["added"].as_u64(), r["merged"].as_u64()), (0, Some("ok"), Some(4), Some(2)), "{r}");
    assert!(r["message"].as_str().unwrap().contains("2 records merged"), "{r}");
    let (n, description): (i64, String) = db(dir.path())
        .query_row("SELECT count(*), max(description) FROM events WHERE source_event_id = '1'", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!((n, description.as_str()), (1, "Versió editada."));
    // Six rows of one id after four distinct events: one distinct id is
    // fewer than half of the four stored, whatever the rows count (P20).
    common::place(mirror.path(), FIRST_PAGE, &page(&vec![row("1", "Concert", "Altra."); 6]));
    let (code, r) = run(dir.path(), mirror.path());
    assert_eq!((code, r["status"].as_str(), r["withdrawn"].as_u64()), (1, Some("anomaly"), Some(0)), "{r}");
    assert!(r["message"].as_str().unwrap().contains("6 records, only 1 distinct ids"), "{r}");
}

/// The real rows: codi → the rows carrying it, in the file's order.
fn real_rows(path: &Path) -> BTreeMap<String, Vec<serde_json::Value>> {
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut by: BTreeMap<String, Vec<serde_json::Value>> = BTreeMap::new();
    for r in rows {
        by.entry(r["codi"].as_str().unwrap().to_string()).or_default().push(r);
    }
    by
}

/// Every e-mail and phone the real rows carry in their contact fields.
fn contacts(by: &BTreeMap<String, Vec<serde_json::Value>>) -> BTreeSet<String> {
    by.values()
        .flatten()
        .flat_map(|r| [r["email"].as_str(), r["tel_fon"].as_str()])
        .flatten()
        .flat_map(|s| s.split([',', ';', '/']).map(|p| p.trim().to_string()).collect::<Vec<_>>())
        .filter(|s| s.len() >= 6)
        .collect()
}

/// The real page through `run --mirror`, and
/// `adapter check` and the conformance audit on the real file.
#[test]
fn the_real_page_stores_each_id_once_or_names_its_error() {
    let Some(real) = common::realdata(REAL) else { return };
    let by = real_rows(&real);
    let ids: BTreeSet<&String> = by.keys().collect();

    // `adapter check` and the conformance suite's audit, on the real file.
    let check =
        cityvibe(Path::new(env!("CARGO_MANIFEST_DIR")), &["adapter", "check", "gencat", "--sample", real.to_str().unwrap(), "--json"]);
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stdout));
    let adapter = cityvibe::adapters::by_id("gencat").unwrap();
    let feed = &adapter.manifest().feeds[0];
    let bytes = std::fs::read(&real).unwrap();
    let (one, two) = (parse_bytes(adapter, feed, &bytes).unwrap(), parse_bytes(adapter, feed, &bytes).unwrap());
    assert_eq!(one.events, two.events, "two parses of the real page differ");
    let leaks: Vec<String> =
        audit_events(&one.events).iter().map(|f| format!("{} {}: {} {:?}", f.event, f.field, f.kind, f.text)).collect();
    assert!(leaks.is_empty(), "{leaks:#?}");
    assert!(one.events.iter().all(|e| e.lang == "ca"));
    let errored: BTreeSet<String> = one.errors.iter().map(|e| e.record.clone()).collect();

    let dir = workdir(GENCAT_ON);
    let mirror = tempfile::tempdir().unwrap();
    common::place(mirror.path(), FIRST_PAGE, &bytes);
    let (code, r) = run(dir.path(), mirror.path());
    assert_eq!((code, r["status"].as_str(), r["requests"].as_u64()), (0, Some("ok"), Some(1)), "{r}");
    let rows: usize = by.values().map(Vec::len).sum();
    let stored: BTreeSet<String> = {
        let conn = db(dir.path());
        let mut st = conn.prepare("SELECT source_event_id FROM events WHERE source = 'gencat'").unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    // Each distinct id: one event (its rows that read), or a record error
    // that names it (at most 2 % of the ids).
    let read: BTreeSet<&String> = one.events.iter().map(|e| &e.source_event_id).collect();
    assert_eq!(stored.iter().collect::<BTreeSet<_>>(), read, "the ids stored are the ids read");
    let unread: Vec<&&String> = ids.iter().filter(|id| !stored.contains(**id)).collect();
    for id in &unread {
        assert!(errored.contains(**id), "{id}: neither stored nor named by a record error");
    }
    assert!(unread.len() * 50 <= ids.len(), "{} of {} ids are record errors", unread.len(), ids.len());
    assert!(errored.iter().all(|e| ids.contains(e)), "a record error names no id of the feed: {errored:?}");
    // Every row of an id after its first read one is counted as merged.
    let merged = one.events.len() - read.len();
    assert_eq!(r["merged"].as_u64(), Some(merged as u64), "{r}");
    assert_eq!(r["record_errors"].as_u64(), Some(one.errors.len() as u64), "{r}");
    eprintln!("{rows} rows, {} ids: {} stored, {} ids only as record errors, {merged} rows merged", ids.len(), stored.len(), unread.len());
    // The last row of an id wins: its stored description is the last row's.
    let last = |id: &str| one.events.iter().rev().find(|e| e.source_event_id == id).unwrap().description.clone();
    let edited: Vec<&String> = stored.iter().filter(|id| by[*id].windows(2).any(|w| w[0]["descripcio"] != w[1]["descripcio"])).collect();
    assert!(!edited.is_empty(), "the real page has edited versions of a row");
    for id in edited {
        let got: String =
            db(dir.path()).query_row("SELECT description FROM events WHERE source_event_id = ?1", [id], |r| r.get(0)).unwrap();
        assert_eq!(got, last(id), "{id}: not the last row's description");
    }
    // No date outside 1990 to ten years ahead was stored.
    let (first, last_end): (String, String) = db(dir.path())
        .query_row("SELECT min(first_start), max(coalesce(last_end, first_start)) FROM events", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    let year = 1970 + std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() / 31_556_952;
    assert!(first.as_str() >= "1990", "{first}");
    assert!(last_end.as_str() < format!("{}", year + 11).as_str(), "{last_end}");
    // Old events are stored as ended: listed with --all only, never as current.
    let list = |extra: &[&str]| -> Vec<serde_json::Value> {
        let mut args = vec!["events", "list", "--source", "gencat", "--json", "--limit", "100000"];
        args.extend(extra);
        serde_json::from_slice(&cityvibe(dir.path(), &args).stdout).unwrap()
    };
    assert!(list(&[]).is_empty(), "events of 2018 to 2023 listed as current");
    assert_eq!(list(&["--all"]).len(), stored.len());
    // No contact data in the database or in any export (P5).
    let conn = db(dir.path());
    let dump: String = conn
        .query_row(
            "SELECT group_concat(concat_ws(' | ', title, description, price, venue_name, address, url, source_categories), ' | ') FROM events",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut outputs = vec![("database".to_string(), dump)];
    for format in ["json", "csv", "ics", "jsonld"] {
        let out = cityvibe(dir.path(), &["export", "--format", format, "--source", "gencat", "--from", "1990-01-01"]);
        assert!(out.status.success(), "export {format}: {}", String::from_utf8_lossy(&out.stderr));
        // iCalendar folds long lines (RFC 5545 3.1): unfolded, each line is one property.
        let text = String::from_utf8_lossy(&out.stdout).replace("\r\n ", "").replace("\n ", "");
        outputs.push((format!("export {format}"), text));
    }
    let contacts = contacts(&by);
    assert!(contacts.len() > 100, "the real page's contact fields: {}", contacts.len());
    for (what, text) in &outputs {
        assert!(!text.is_empty(), "{what} is empty");
        for c in &contacts {
            assert!(!text.contains(c.as_str()), "{what} holds {c:?} (P5)");
        }
        // (An iCalendar UID is `source-id@cityvibe.guide` by RFC 5545's own
        // advice: ours, not a contact.)
        let line = text.lines().filter(|l| !l.starts_with("UID:")).find(|l| cityvibe::parse::pii::contains_pii(l));
        assert!(line.is_none(), "{what} holds contact-shaped text (P5): {line:?}");
    }
}

/// The source shows on the sources page, in `holdings`
/// and in the exports, with its attribution and its licence named in the
/// reader's language.
#[test]
fn gencat_shows_everywhere_with_its_licence_in_the_readers_language_p19() {
    let dir = workdir(GENCAT_ON);
    let mirror = tempfile::tempdir().unwrap();
    common::place(mirror.path(), FIRST_PAGE, &page(&[row("7", "Concert", "Un concert.")]));
    let (code, r) = run(dir.path(), mirror.path());
    assert_eq!(code, 0, "{r}");
    let text = |args: &[&str]| {
        let out = cityvibe(dir.path(), args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let holdings = text(&["holdings", "gencat"]);
    assert!(holdings.contains("gencat") && holdings.contains("analisi.transparenciacatalunya.cat"), "{holdings}");
    let json: Vec<serde_json::Value> = serde_json::from_str(&text(&["export", "--format", "json", "--lang", "en"])).unwrap();
    let e = json.iter().find(|e| e["source"] == "gencat").expect("gencat in the export");
    assert_eq!(e["licence"], "Generalitat de Catalunya open information licence (reuse citing the source)", "{e}");
    assert_eq!(
        e["attribution"], "Source: Generalitat de Catalunya, Agenda cultural de Catalunya (analisi.transparenciacatalunya.cat)",
        "{e}"
    );
    let es: Vec<serde_json::Value> = serde_json::from_str(&text(&["export", "--format", "json", "--lang", "es"])).unwrap();
    assert!(es[0]["licence"].as_str().unwrap().starts_with("Licencia abierta de uso de información"), "{}", es[0]);
    let html = text(&["source", "export", "--format", "html", "--lang", "fr"]);
    assert!(html.contains("Agenda cultural de Catalunya"), "the sources page lacks gencat");
    assert!(html.contains("Licence ouverte d’utilisation des informations de la Generalitat de Catalunya"), "{html}");
    // The status report and the host's transparency page.
    let out = dir.path().join("report");
    text(&["report", "--out", out.to_str().unwrap()]);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("gencat"), "the status report lacks gencat");
    let hosts: Vec<String> =
        std::fs::read_dir(out.join("hosts")).unwrap().flatten().map(|f| f.file_name().to_string_lossy().to_string()).collect();
    assert!(hosts.iter().any(|h| h.contains("analisi.transparenciacatalunya.cat")), "{hosts:?}");
}
