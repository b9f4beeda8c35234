//! Every source together, through `--mirror DIR` (andalucia and
//! gencat, whose robots.txt reviews are pending, are read through a mirror too).
use crate::common;

use common::{cityvibe, sample, workdir};
use std::path::Path;

const ALL_ON: &str = "[settings]\ntranslator = \"none\"\n[sources.madrid]\n[sources.esmadrid]\n[sources.diba]\n[sources.jcyl]\n[sources.andalucia]\n[sources.gencat]\n[sources.euskadi]\n";

fn run(dir: &Path, mirror: &Path) -> serde_json::Value {
    let out = cityvibe(dir, &["--mirror", mirror.to_str().unwrap(), "run", "--json"]);
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(0), "{v}");
    v
}

/// All four adapters' samples are stored, and `run --json` says `ok` for each.
#[test]
fn every_source_from_the_samples_is_ok() {
    let dir = workdir(ALL_ON);
    let v = run(dir.path(), &sample(""));
    let sources = v["sources"].as_array().unwrap();
    let ids: Vec<&str> = sources.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec!["madrid", "esmadrid", "diba", "jcyl", "andalucia", "gencat", "euskadi"]);
    for s in sources {
        assert_eq!(s["status"], "ok", "{s}");
        assert!(s["added"].as_u64().unwrap() > 0, "{s}");
    }
    assert_eq!(v["sources"][2]["requests"], 3, "diba fetches its three language feeds");
    let out = cityvibe(dir.path(), &["events", "list", "--json", "--limit", "1000", "--at", common::SAMPLES_AT]);
    let events: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    for id in ["madrid", "esmadrid", "diba", "jcyl", "andalucia", "gencat", "euskadi"] {
        assert!(events.iter().any(|e| e["source"] == id), "no {id} event listed");
    }
    // The publisher's own Spanish and English versions of diba's events are kept as such.
    let conn = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let publisher: i64 =
        conn.query_row("SELECT count(*) FROM translations WHERE origin = 'publisher' AND lang IN ('es', 'en')", [], |r| r.get(0)).unwrap();
    assert!(publisher > 0);
}

/// P4, P5: feeds full of e-mails, phones, faxes and image URLs in every field
/// that carries them leave none of it in the database file.
#[test]
fn contact_data_and_images_never_reach_the_database() {
    let dir = workdir(ALL_ON);
    let mirror = dir.path().join("mirror");
    let place = |fixture: &str, target: &str| {
        let to = mirror.join(target);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(sample(fixture), to).unwrap();
    };
    place("fixtures/pii/madrid.json", "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json");
    place("fixtures/pii/esmadrid.xml", "www.esmadrid.com/opendata/agenda_v1_es.xml");
    place("fixtures/pii/diba_ca.json", "do.diba.cat/api/dataset/actesturisme_ca/format/json/pag-ini/1/pag-fi/1000");
    for l in ["es", "en"] {
        let p = format!("do.diba.cat/api/dataset/actesturisme_{l}/format/json/pag-ini/1/pag-fi/1000");
        place(&p, &p);
    }
    place("fixtures/pii/jcyl.json", "datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json");
    place("fixtures/pii/andalucia.json", "datos.juntadeandalucia.es/api/v0/schedule/all?format=json");
    place("fixtures/pii/gencat.json", "analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0");
    place(
        "fixtures/pii/euskadi.json",
        "opendata.euskadi.eus/contenidos/ds_eventos/agenda_cultura_euskadi/es_kultura/adjuntos/kulturklik.json",
    );
    // Stored through the library on simulated time: what reaches the file is
    // the subject, not the samples' crawl delays (10 s between diba's feeds).
    let v = serde_json::to_value(common::run_on_simulated_time(dir.path(), &mirror, &[])).unwrap();
    for s in v["sources"].as_array().unwrap() {
        assert_eq!(s["status"], "ok", "{s}");
    }
    let needles: Vec<String> = std::fs::read_to_string(sample("fixtures/pii/needles.txt"))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    assert!(needles.len() > 50);
    // Checkpoint the WAL into the file, then read every byte of both.
    let conn = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let mut texts = String::new();
    for f in ["data/cityvibe.db", "data/cityvibe.db-wal"] {
        if let Ok(b) = std::fs::read(dir.path().join(f)) {
            texts.push_str(&String::from_utf8_lossy(&b));
        }
    }
    let _: String = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get::<_, i64>(0).map(|x| x.to_string())).unwrap();
    texts.push_str(&String::from_utf8_lossy(&std::fs::read(dir.path().join("data/cityvibe.db")).unwrap()));
    for n in &needles {
        assert!(!texts.contains(n.as_str()), "the database holds {n:?}");
    }
    let out = cityvibe(dir.path(), &["events", "list", "--json", "--limit", "1000", "--at", common::SAMPLES_AT]);
    let listed = String::from_utf8_lossy(&out.stdout);
    for n in &needles {
        assert!(!listed.contains(n.as_str()), "events list shows {n:?}");
    }
}
