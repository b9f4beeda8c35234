//! `cityvibe runs`: each run's per-source line, as recorded by `run`.
use crate::common;
use crate::common::ok;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};

const MADRID_ONLY: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";

#[test]
fn runs_lists_each_run_and_source_newest_first() {
    let body = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap();
    let server = Server::start(move |seen, _| {
        if seen.header("If-None-Match") == Some("\"v1\"") {
            Reply::new(304).header("ETag", "\"v1\"")
        } else {
            Reply::ok(body.clone()).header("ETag", "\"v1\"")
        }
    });
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    // No database yet: a read command creates none and says so.
    let none = cityvibe(d, &["runs", "--json"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no database at"));
    for _ in 0..2 {
        // `--force`: runs in a row within the source's period (P7), as an operator's manual runs; every delay still holds.
        ok(&cityvibe(d, &["--mirror", &server.url(), "run", "--force", "--source", "madrid", "--json"]));
    }
    let runs: Vec<serde_json::Value> = serde_json::from_str(&ok(&cityvibe(d, &["runs", "--json"]))).unwrap();
    assert_eq!(runs.len(), 2);
    assert!(runs[0]["run_id"].as_i64() > runs[1]["run_id"].as_i64(), "newest first");
    let (second, first) = (&runs[0]["sources"][0], &runs[1]["sources"][0]);
    assert_eq!(first["id"], "madrid");
    assert_eq!(first["status"], "ok");
    assert_eq!(first["requests"], 1);
    assert_eq!(first["not_modified"], 0);
    assert_eq!(first["added"], 8);
    assert_eq!(second["status"], "unchanged");
    assert_eq!(second["requests"], 1);
    assert_eq!(second["not_modified"], 1);
    assert_eq!(second["added"], 0);
    for r in &runs {
        assert_eq!(r["exit_code"], 0);
        for k in ["updated", "withdrawn", "translated", "duration_ms", "message"] {
            assert!(r["sources"][0].get(k).is_some(), "runs --json lacks {k}");
        }
    }
    // The server saw exactly the requests the runs report.
    assert_eq!(server.requests().len(), 2);
    let limited: Vec<serde_json::Value> = serde_json::from_str(&ok(&cityvibe(d, &["runs", "--limit", "1", "--json"]))).unwrap();
    assert_eq!(limited.len(), 1);
    assert_eq!(limited[0]["run_id"], runs[0]["run_id"]);
    let text = ok(&cityvibe(d, &["runs"]));
    assert!(text.contains("unchanged") && text.contains("madrid"), "{text}");
}
