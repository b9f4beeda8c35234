//! The switch (P16): `source disable|enable` edit sources.toml in place,
//! keeping every comment, and a run already under way sees it before its
//! next request.
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, workdir};

const COMMENTED: &str = "# CityVibe's switchboard.\n#\n# Comments and blank lines are the operator's.\n\n[settings]\ntranslator = \"none\"   # no engine in this test\n\n# Madrid first.\n[sources.madrid]\nenabled = true\n# keep this note\nmin_delay_secs = 3\n\n# Then jcyl.\n[sources.jcyl]\nenabled = true\n";

/// The edit changes the one row and nothing else, byte for byte.
#[test]
fn disable_and_enable_keep_the_file_as_written() {
    let dir = workdir(COMMENTED);
    let path = dir.path().join("sources.toml");
    let out = cityvibe(dir.path(), &["source", "disable", "jcyl", "--reason", "el webmaster lo pidió"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after = std::fs::read_to_string(&path).unwrap();
    let (head, tail) = COMMENTED.split_at(COMMENTED.find("[sources.jcyl]").unwrap());
    assert!(after.starts_with(head), "lines before the row changed:\n{after}");
    let row = &after[head.len()..];
    assert!(row.starts_with("[sources.jcyl]\nenabled = false\n"), "{row}");
    assert!(row.contains("disabled_reason = \"el webmaster lo pidió\""), "{row}");
    assert!(row.contains("disabled_on = \"20"), "{row}");
    assert_ne!(tail, row);
    // `source list` reads a database: an empty one will do.
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    cityvibe::store::Store::open(&dir.path().join("data/cityvibe.db")).unwrap();
    let list = cityvibe(dir.path(), &["source", "list", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let jcyl = v.as_array().unwrap().iter().find(|r| r["id"] == "jcyl").unwrap();
    assert_eq!(jcyl["enabled"], false);
    assert_eq!(jcyl["disabled_reason"], "el webmaster lo pidió");
    // Back on: the file is again exactly what the operator wrote.
    assert!(cityvibe(dir.path(), &["source", "enable", "jcyl"]).status.success());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), COMMENTED);
}

/// An unknown id is a clear error listing the known ones; the file is untouched.
#[test]
fn unknown_source_is_a_clear_error() {
    let dir = workdir(COMMENTED);
    let out = cityvibe(dir.path(), &["source", "disable", "barcelona", "--reason", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for id in ["barcelona", "madrid", "esmadrid", "diba", "jcyl"] {
        assert!(err.contains(id), "{err}");
    }
    assert_eq!(std::fs::read_to_string(dir.path().join("sources.toml")).unwrap(), COMMENTED);
}

/// A source is a row in sources.toml: an adapter with no row is not fetched.
#[test]
fn a_source_without_a_row_is_not_fetched() {
    let server = Server::start(|_, _| Reply::new(500));
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.jcyl]\nenabled = false\n");
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for s in v["sources"].as_array().unwrap() {
        assert_eq!(s["status"], "disabled", "{s}");
    }
    assert!(v["sources"][0]["message"].as_str().unwrap().contains("no row"), "{v}");
    assert!(server.requests().is_empty());
}

/// P16: a source switched off while its run is under way makes no further
/// request: here the JSON answers 500, and the CSV the fallback would fetch
/// next is never asked for.
#[test]
fn disable_takes_effect_before_the_next_request() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\nenabled = true\n");
    let config = dir.path().join("sources.toml");
    let server = Server::start(move |_, i| {
        if i == 0 {
            cityvibe::config::set_enabled(
                &config,
                "madrid",
                false,
                Some("opt-out received"),
                cityvibe::clock::Clock::now_ms(&cityvibe::clock::SystemClock),
            )
            .unwrap();
        }
        Reply::new(500)
    });
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["sources"][0];
    assert_eq!(s["status"], "disabled", "{v}");
    assert!(s["message"].as_str().unwrap().contains("opt-out received"), "{v}");
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, vec!["/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json"]);
}
