//! Whose books a request is kept in: a folder mirror's
//! reads never spend the real host's budget nor count as requests to it.
//! The real madrid adapter (2 s) against a folder. (`audit`
//! obeying the Crawl-delay it has just read, is proven on simulated time in
//! `politeness::client::pacing`.)
use crate::common;
use crate::politeness::ledger::{json_of, madrid_body, run_args};

use common::server::{Reply, Server};
use common::{cityvibe, workdir};

/// P7, P17: a `--mirror DIR` run reads files, not the
/// host: its reads are booked as `folder:HOST` in the ledger and the fetch
/// log, never against the real host's daily cap or delay, and `holdings`
/// reports no request to the host.
#[test]
fn a_folder_mirror_keeps_its_own_books_p8() {
    let dir = workdir("[sources.madrid]\n");
    let folder = dir.path().join("mirror/datos.madrid.es/egob/catalogo");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("300107-0-agenda-actividades-eventos.json"), madrid_body()).unwrap();
    let out = cityvibe(dir.path(), &run_args("mirror", "cityvibe.db", &[]));
    assert_eq!(json_of(&out)["sources"][0]["status"], "ok", "{}", String::from_utf8_lossy(&out.stderr));

    let ledger = rusqlite::Connection::open(common::state_dir(dir.path()).join("hosts.db")).unwrap();
    let count = |host: &str| -> i64 { ledger.query_row("SELECT count(*) FROM requests WHERE host = ?1", [host], |r| r.get(0)).unwrap() };
    assert_eq!(count("datos.madrid.es"), 0, "a folder read spent the real host's daily cap");
    assert_eq!(count("folder:datos.madrid.es"), 1, "the folder's own books");
    let hosts: i64 = ledger.query_row("SELECT count(*) FROM hosts WHERE host = 'datos.madrid.es'", [], |r| r.get(0)).unwrap();
    assert_eq!(hosts, 0, "a folder read set the real host's last request");

    let held = cityvibe(dir.path(), &["--db", "cityvibe.db", "holdings", "datos.madrid.es", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&held.stdout).unwrap();
    assert_eq!(v["fetch_log_30_days"][0]["requests"], 0, "holdings counts folder reads as requests: {v}");

    // The real host (here the loopback server) is asked at once: no delay
    // was spent on it by the folder read. Decided by what the run did, not
    // by how long it took, which a loaded machine stretches: with an hour's delay and a run
    // that waits at most 10 s, a delay counted from the folder read would
    // skip the host for this run instead of asking it.
    std::fs::write(dir.path().join("sources.toml"), "[settings]\nmax_wait_secs = 10\n[sources.madrid]\nmin_delay_secs = 3600\n").unwrap();
    let server = Server::start(|_, _| Reply::ok(madrid_body()));
    let out = cityvibe(dir.path(), &run_args(&server.url(), "cityvibe.db", &["--force"]));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let madrid = &json_of(&out)["sources"][0];
    assert_eq!(
        (madrid["status"].as_str(), madrid["requests"].as_u64()),
        (Some("unchanged"), Some(1)),
        "the real host waited for a folder read: {madrid}"
    );
    assert_eq!(server.requests().len(), 1);
}
