//! Paged feeds: a SODA dataset read page after page by the
//! framework (`Paging::LimitOffset`), each page a request under the host's
//! delay (P8), in a stable order, until a short page; a failed page fails
//! the source and withdraws nothing (P20). The gencat adapter's own parser
//! and delay (10 s) under a manifest whose pages hold two rows, against a
//! loopback server on simulated time.
use crate::common;

use cityvibe::adapter::{Adapter, Feed, Manifest, Paging};
use cityvibe::config::Config;
use cityvibe::http::{Client, Limits, Mirror};
use cityvibe::ingest::{RunOptions, run};
use cityvibe::store::Store;
use cityvibe::store::runs::SourceReport;
use common::TestAdapter;
use common::server::{Reply, Server};
use std::sync::{Arc, Mutex};

/// gencat, with pages of two rows (at most five pages).
fn gencat_in_pages_of_two() -> &'static dyn Adapter {
    let real = cityvibe::adapters::by_id("gencat").unwrap();
    let m = real.manifest();
    let feeds: &'static [Feed] = Box::leak(Box::new([Feed {
        paging: Paging::LimitOffset { limit: "$limit", offset: "$offset", size: 2, max_pages: 5 },
        ..m.feeds[0]
    }]));
    let manifest: &'static Manifest = Box::leak(Box::new(Manifest { feeds, ..*m }));
    Box::leak(Box::new(TestAdapter { manifest, inner: real }))
}

/// A SODA row as the portal writes it.
fn row(codi: u32, title: &str) -> String {
    format!(
        r#"{{"codi":"{codi}","data_fi":"2026-12-20T00:00:00.000","data_inici":"2026-12-20T00:00:00.000","denominaci":"{title}","horari":"20 h","espai":"Sala {codi}","email":"sala{codi}@example.com","tel_fon":"972 000 {codi:03}"}}"#
    )
}

/// The page the query asks for, from `rows`, as Socrata lays a page out.
fn page(rows: &[String], query: &str) -> Vec<u8> {
    let param = |name: &str| {
        query.split('&').find_map(|kv| kv.strip_prefix(&format!("{name}="))).and_then(|v| v.parse::<usize>().ok()).unwrap_or(0)
    };
    let (limit, offset) = (param("$limit"), param("$offset"));
    let part: Vec<&String> = rows.iter().skip(offset).take(limit).collect();
    let body: Vec<&str> = part.iter().map(|s| s.as_str()).collect();
    format!("[{}]\n", body.join("\n,")).into_bytes()
}

fn run_once(store: &mut Store, adapter: &'static dyn Adapter, server: &Server) -> SourceReport {
    let client = Client::new(Some(Mirror::Http(url::Url::parse(&server.url()).unwrap())), Limits::default());
    let adapters: &'static [&'static dyn Adapter] = Box::leak(Box::new([adapter]));
    let ledger = common::ledger_beside(store.path());
    let opts = RunOptions {
        adapters,
        config: Config::enable_all(),
        config_path: None,
        only: vec![],
        client: &client,
        ledger: &ledger,
        clock: server.clock(),
        force: true,
    };
    run(store, opts).unwrap().sources[0].clone()
}

fn active(store: &Store) -> i64 {
    store.connection().query_row("SELECT count(*) FROM events WHERE status = 'active'", [], |r| r.get(0)).unwrap()
}

/// Five rows in pages of two: three requests, offsets 0, 2, 4 in that
/// order under one stable `$order`, each at least the host's 10 s after
/// the one before (P8); the short third page ends the feed.
#[test]
fn a_soda_feed_is_read_in_three_pages_at_the_hosts_delay_p8_issue32() {
    let adapter = gencat_in_pages_of_two();
    let rows: Vec<String> = (1..=5).map(|n| row(n, &format!("Concert {n}"))).collect();
    let server = Server::simulated(move |seen, _| Reply::ok(page(&rows, seen.path.split_once('?').map_or("", |(_, q)| q))));
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    let r = run_once(&mut store, adapter, &server);
    assert_eq!((r.status.as_str(), r.requests, r.added), ("ok", 3, 5), "{r:?}");
    let seen = server.requests();
    let paths: Vec<&str> = seen.iter().map(|s| s.path.as_str()).collect();
    let base = "/analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=2&$offset=";
    assert_eq!(paths, [format!("{base}0"), format!("{base}2"), format!("{base}4")], "{paths:?}");
    for pair in seen.windows(2) {
        let gap = pair[1].at_ms - pair[0].at_ms;
        assert!(gap >= 10_000, "two pages {gap} ms apart, under the host's 10 s (P8)");
    }
    // The pages' contact fields were never read (P5).
    let stored: String = store
        .connection()
        .query_row("SELECT group_concat(title || coalesce(description, '') || coalesce(venue_name, ''), '|') FROM events", [], |r| r.get(0))
        .unwrap();
    assert!(!stored.contains("@example.com") && !stored.contains("972 000"), "{stored}");
}

/// A full feed, then one whose middle page fails: the source fails, names
/// the page, asks for no page after it, and nothing stored is withdrawn or
/// changed (P20), though the first page came back with other rows.
#[test]
fn a_failed_middle_page_fails_the_source_and_withdraws_nothing_p20_issue32() {
    let adapter = gencat_in_pages_of_two();
    let rows: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new((1..=5).map(|n| row(n, &format!("Concert {n}"))).collect()));
    let fail_middle = Arc::new(Mutex::new(false));
    let (rows2, fail2) = (rows.clone(), fail_middle.clone());
    let server = Server::simulated(move |seen, _| {
        let query = seen.path.split_once('?').map_or("", |(_, q)| q);
        if *fail2.lock().unwrap() && query.ends_with("$offset=2") {
            return Reply::new(500);
        }
        Reply::ok(page(&rows2.lock().unwrap(), query))
    });
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    let first = run_once(&mut store, adapter, &server);
    assert_eq!((first.status.as_str(), first.added), ("ok", 5), "{first:?}");
    // The first page now holds two other events: taken in, it would withdraw most of the five.
    *rows.lock().unwrap() = (11..=15).map(|n| row(n, &format!("Other {n}"))).collect();
    *fail_middle.lock().unwrap() = true;
    let asked_before = server.requests().len();
    let second = run_once(&mut store, adapter, &server);
    assert_eq!((second.status.as_str(), second.withdrawn, second.added), ("failed", 0, 0), "{second:?}");
    assert!(second.message.contains("$offset=2"), "the message names the failed page: {}", second.message);
    server.settle();
    let asked: Vec<String> = server.requests()[asked_before..].iter().map(|s| s.path.clone()).collect();
    assert!(asked.iter().all(|p| !p.ends_with("$offset=4")), "no page is asked after a failed one: {asked:?}");
    assert_eq!(active(&store), 5, "a partial read withdraws nothing");
    let titles: i64 = store.connection().query_row("SELECT count(*) FROM events WHERE title LIKE 'Other%'", [], |r| r.get(0)).unwrap();
    assert_eq!(titles, 0, "nothing of a partial read is stored");
}

/// A feed still full at the manifest's bound is not read at all: five
/// pages of two rows and more behind them.
#[test]
fn a_feed_still_full_at_the_page_bound_takes_nothing_in_p20_issue32() {
    let adapter = gencat_in_pages_of_two();
    let rows: Vec<String> = (1..=12).map(|n| row(n, &format!("Concert {n}"))).collect();
    let server = Server::simulated(move |seen, _| Reply::ok(page(&rows, seen.path.split_once('?').map_or("", |(_, q)| q))));
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    let r = run_once(&mut store, adapter, &server);
    assert_eq!((r.status.as_str(), r.requests, r.added), ("failed", 5, 0), "{r:?}");
    assert!(r.message.contains("max_pages"), "{}", r.message);
    assert_eq!(active(&store), 0);
}
