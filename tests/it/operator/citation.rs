//! P19: the operator changes how a source is cited
//! (`attribution`, `licence`, `licence_url` in its sources.toml row) and
//! the change shows at once on every stored event, in every list and
//! export, in `holdings` and on the sources page, without a fetch.
use crate::common;
use crate::common::ok;

use common::{cityvibe, sample, workdir};
use std::path::Path;

const OLD_ATTRIBUTION: &str = "Fuente: Ayuntamiento de Madrid, datos.madrid.es";
const OLD_LICENCE_URL: &str = "https://datos.madrid.es/egob/catalogo/aviso-legal";
const NEW_ATTRIBUTION: &str = "Datos: Ayuntamiento de Madrid; revisados por CityVibe, «Madrid»";
const NEW_LICENCE: &str = "Aviso legal de datos.madrid.es (versión 2026)";
const NEW_LICENCE_URL: &str = "https://datos.madrid.es/portal/site/egob/aviso-legal-2026";

/// iCalendar text as a reader sees it: lines unfolded, TEXT escapes undone.
fn ics_text(ics: &str) -> String {
    ics.replace("\r\n ", "").replace("\\n", "\n").replace("\\,", ",").replace("\\;", ";").replace("\\\\", "\\")
}

/// Every place a stored event or the source is cited, as one text per place.
fn everywhere(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for format in ["json", "csv", "jsonld"] {
        out.push((format!("export {format}"), ok(&cityvibe(dir, &["export", "--format", format]))));
    }
    out.push(("export ics".into(), ics_text(&ok(&cityvibe(dir, &["export", "--format", "ics"])))));
    out.push(("events list".into(), ok(&cityvibe(dir, &["events", "list", "--at", common::SAMPLES_AT]))));
    out.push(("events list --json".into(), ok(&cityvibe(dir, &["events", "list", "--json", "--at", common::SAMPLES_AT]))));
    let list: Vec<serde_json::Value> = serde_json::from_str(&out.last().unwrap().1).unwrap();
    let id = format!("madrid:{}", list[0]["source_event_id"].as_str().unwrap());
    out.push(("events show".into(), ok(&cityvibe(dir, &["events", "show", &id]))));
    out.push(("events show --json".into(), ok(&cityvibe(dir, &["events", "show", &id, "--json"]))));
    out.push(("holdings".into(), ok(&cityvibe(dir, &["holdings", "madrid"]))));
    out.push(("holdings --json".into(), ok(&cityvibe(dir, &["holdings", "madrid", "--json"]))));
    out.push(("source show --json".into(), ok(&cityvibe(dir, &["source", "show", "madrid", "--json"]))));
    for format in ["md", "html", "json"] {
        out.push((format!("sources export {format}"), ok(&cityvibe(dir, &["sources", "export", "--format", format]))));
    }
    out
}

/// P19: after a run, the row's new attribution and licence
/// show everywhere, and the manifest's old ones nowhere, with no fetch.
#[test]
fn a_changed_attribution_shows_at_once_on_every_stored_event() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n\n# Madrid.\n[sources.madrid]\nenabled = true\n");
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "run", "--source", "madrid", "--json"]));
    // Before: the manifest's citation everywhere (so the check below can fail).
    for (place, text) in everywhere(d) {
        assert!(text.contains(OLD_ATTRIBUTION), "{place}: {text}");
        assert!(place == "events list" || text.contains(OLD_LICENCE_URL), "{place}: {text}");
    }
    let csv_before = ok(&cityvibe(d, &["export", "--format", "csv"]));

    let config = d.join("sources.toml");
    let row = format!(
        "[sources.madrid]\nenabled = true\nattribution = \"{NEW_ATTRIBUTION}\"\nlicence = \"{NEW_LICENCE}\"\nlicence_url = \"{NEW_LICENCE_URL}\"\n"
    );
    let text = std::fs::read_to_string(&config).unwrap().replace("[sources.madrid]\nenabled = true\n", &row);
    std::fs::write(&config, text).unwrap();

    let places = everywhere(d);
    assert_eq!(places.len(), 14);
    for (place, text) in &places {
        assert!(text.contains(NEW_ATTRIBUTION), "{place} lacks the new attribution:\n{text}");
        assert!(!text.contains(OLD_ATTRIBUTION), "{place} still shows the old attribution:\n{text}");
        assert!(!text.contains(OLD_LICENCE_URL), "{place} still shows the old licence link:\n{text}");
        // The table of `events list` names only the attribution; its JSON has all.
        if place != "events list" {
            assert!(text.contains(NEW_LICENCE_URL), "{place} lacks the new licence link:\n{text}");
            assert!(text.contains(NEW_LICENCE), "{place} lacks the new licence:\n{text}");
        }
    }
    // Every exported event carries it, not only some.
    let json: Vec<serde_json::Value> = serde_json::from_str(&places[0].1).unwrap();
    assert_eq!(json.len(), 8);
    assert!(json.iter().all(|e| e["attribution"] == NEW_ATTRIBUTION && e["licence"] == NEW_LICENCE), "{json:?}");
    let mut csv = csv::Reader::from_reader(places[1].1.as_bytes());
    let header = csv.headers().unwrap().clone();
    let col = header.iter().position(|h| h == "attribution").unwrap();
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| &r[col] == NEW_ATTRIBUTION));
    assert_ne!(csv_before, places[1].1);
    // No fetch: the database holds no copy, and no run was made.
    let conn = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let runs: i64 = conn.query_row("SELECT count(*) FROM runs", [], |r| r.get(0)).unwrap();
    assert_eq!(runs, 1);

    // Back to the adapter's own: remove the keys.
    let text = std::fs::read_to_string(&config).unwrap().replace(&row, "[sources.madrid]\nenabled = true\n");
    std::fs::write(&config, text).unwrap();
    let json: Vec<serde_json::Value> = serde_json::from_str(&ok(&cityvibe(d, &["export", "--format", "json"]))).unwrap();
    assert!(json.iter().all(|e| e["attribution"] == OLD_ATTRIBUTION && e["licence_url"] == OLD_LICENCE_URL));
}

/// A bad override is a clear configuration error (exit 2) naming the row,
/// not a silent fall back to the manifest's text.
#[test]
fn a_bad_licence_url_is_a_clear_error() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\nenabled = true\nlicence_url = \"datos.madrid.es/aviso\"\n");
    for args in [&["export", "--format", "json"][..], &["events", "list"], &["holdings", "madrid"], &["sources", "export"]] {
        let out = cityvibe(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("[sources.madrid] licence_url") && err.contains("not an http(s) URL"), "{args:?}: {err}");
    }
}
