//! The polite client at the binary level: what only separate
//! `cityvibe` processes can prove. Requests go through `--mirror` to a
//! loopback server that records every request; the assertions are on what
//! that server saw. These use the real madrid adapter (2 s delay), so they
//! are kept few.
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, workdir};
use std::time::Duration;

const MADRID_JSON: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";

fn madrid_body() -> Vec<u8> {
    std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap()
}

fn list_json(dir: &std::path::Path) -> serde_json::Value {
    let out = cityvibe(dir, &["--db", "cityvibe.db", "source", "list", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    rows.as_array().unwrap().iter().find(|r| r["id"] == "madrid").cloned().expect("madrid row")
}

/// P8, P11: two runs in two processes, one right after the other, against
/// one database: the second process's request reaches the host no sooner
/// than madrid's 2 s delay after the first (the last request time lives in
/// the host ledger). The first run met a 403: it made no other request, exited
/// 1, and `source list` showed madrid `refused` until the second run succeeded,
/// once the operator had lifted the hold the 403 left.
#[test]
fn two_processes_keep_the_host_delay_and_a_refusal_shows_until_a_success() {
    let body = madrid_body();
    let server = Server::start(move |_, i| if i == 0 { Reply::new(403) } else { Reply::ok(body.clone()) });
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    // `--force`: the second run is the operator's manual retry within the period (P7).
    let args = ["--db", "cityvibe.db", "--mirror", mirror.as_str(), "run", "--force", "--source", "madrid", "--no-translate", "--quiet"];

    let first = cityvibe(dir.path(), &args);
    assert_eq!(first.status.code(), Some(1), "{}", String::from_utf8_lossy(&first.stderr));
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(stderr.contains("madrid") && stderr.contains("refused") && stderr.contains("403"), "the operator is told: {stderr}");
    assert_eq!(server.requests().len(), 1, "a 403 is a no: no other feed of the host was asked for");
    let row = list_json(dir.path());
    assert_eq!(row["last_status"], "refused", "{row}");
    assert!(row["last_message"].as_str().unwrap().contains("403"), "{row}");

    let release = cityvibe(dir.path(), &["--db", "cityvibe.db", "source", "release", "madrid"]);
    assert!(release.status.success(), "{}", String::from_utf8_lossy(&release.stderr));
    let second = cityvibe(dir.path(), &args);
    assert_eq!(second.status.code(), Some(0), "{}", String::from_utf8_lossy(&second.stderr));
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    for r in &reqs {
        assert_eq!(r.path, MADRID_JSON);
        assert_eq!(r.header_all("user-agent"), vec![cityvibe::http::USER_AGENT]);
    }
    let gap = reqs[1].at.duration_since(reqs[0].at);
    assert!(gap >= Duration::from_secs(2), "the second process asked {gap:?} after the first, under madrid's 2 s");
    assert_eq!(list_json(dir.path())["last_status"], "ok");
}

/// P9: a sources.toml that would make a source faster than its adapter's
/// minimum is refused, naming that minimum, before any request is sent.
#[test]
fn config_faster_than_the_adapter_is_refused_before_any_request() {
    let server = Server::start(|_, _| Reply::ok(madrid_body()));
    let dir = workdir("[sources.madrid]\nmin_delay_secs = 1\n");
    let mirror = server.url();
    let out = cityvibe(dir.path(), &["--db", "cityvibe.db", "--mirror", mirror.as_str(), "run", "--no-translate", "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("sources.madrid") && stderr.contains("minimum of 2 s"), "{stderr}");
    server.settle();
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}

/// P15 through the binary, in real time: madrid's feed answers with its
/// body and a rights reservation (`tdm-reservation: 1`). The run takes it
/// as a "no": madrid is `refused` (exit 1), the operator is told on stderr,
/// nothing of the answer is stored (no event, no validators), and no other
/// request goes to the host.
#[test]
fn a_rights_reservation_on_the_feed_is_a_no_and_nothing_is_stored_p15() {
    let body = madrid_body();
    let server = Server::start(move |_, _| Reply::ok(body.clone()).header("ETag", "\"e1\"").header("tdm-reservation", "1"));
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\n");
    let d = dir.path();
    let out = cityvibe(d, &["--db", "cityvibe.db", "--mirror", &server.url(), "run", "--source", "madrid", "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let madrid = &v["sources"][0];
    assert_eq!((&madrid["id"], &madrid["status"]), (&"madrid".into(), &"refused".into()), "{madrid}");
    assert_eq!((&madrid["added"], &madrid["requests"]), (&0.into(), &1.into()), "{madrid}");
    assert!(stderr.contains("madrid") && stderr.contains("P15"), "the operator is told: {stderr}");
    let seen = server.requests();
    assert_eq!(seen.iter().map(|s| s.path.as_str()).collect::<Vec<_>>(), [MADRID_JSON], "one request, then nothing more to the host");
    let store = cityvibe::store::Store::open(&d.join("cityvibe.db")).unwrap();
    assert_eq!(store.count_events("madrid").unwrap(), (0, 0), "nothing stored");
    let url = cityvibe::adapters::madrid::MANIFEST.feeds[0].url;
    assert_eq!(store.validators(url).unwrap(), Default::default(), "{url}: no validators kept");
    assert_eq!(list_json(d)["last_status"], "refused", "source list shows the refusal");
}
