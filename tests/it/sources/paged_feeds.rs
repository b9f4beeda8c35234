//! Paged feeds: a SODA dataset read page after page by the
//! framework (`Paging::LimitOffset`), each page a request under the host's
//! delay (P8), in a stable order, until a short page; a failed page fails
//! the source and withdraws nothing (P20). The gencat adapter's own parser
//! and delay (10 s) under a manifest whose pages hold two rows, against a
//! loopback server on simulated time.
use crate::common;

use cityvibe::adapter::{Adapter, Feed, Manifest, Paging};
use cityvibe::http::{Client, Limits, Mirror};
use cityvibe::store::Store;
use cityvibe::store::runs::SourceReport;
use common::TestAdapter;
use common::server::{Reply, Server};
use std::hash::{DefaultHasher, Hash, Hasher};
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
    run_within_limits(store, adapter, server, Limits::default())
}

fn run_within_limits(store: &mut Store, adapter: &'static dyn Adapter, server: &Server, limits: Limits) -> SourceReport {
    let client = Client::new(Some(Mirror::Http(url::Url::parse(&server.url()).unwrap())), limits);
    let adapters: &'static [&'static dyn Adapter] = Box::leak(Box::new([adapter]));
    common::run_forced(store, adapters, &client, server.clock()).sources[0].clone()
}

fn active(store: &Store) -> i64 {
    store.connection().query_row("SELECT count(*) FROM events WHERE status = 'active'", [], |r| r.get(0)).unwrap()
}

/// Five rows in pages of two: three requests, offsets 0, 2, 4 in that
/// order under one stable `$order`, each at least the host's 10 s after
/// the one before (P8); the short third page ends the feed.
#[test]
fn a_soda_feed_is_read_in_three_pages_at_the_hosts_delay_p8() {
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
fn a_failed_middle_page_fails_the_source_and_withdraws_nothing_p20() {
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
fn a_feed_still_full_at_the_page_bound_takes_nothing_in_p20() {
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

/// The page the query asks for with its own ETag (a digest of the page), or
/// a 304 when the request's If-None-Match names it, as Socrata answers.
fn page_with_etag(rows: &[String], seen: &common::server::Seen) -> Reply {
    let body = page(rows, seen.path.split_once('?').map_or("", |(_, q)| q));
    let mut h = DefaultHasher::new();
    body.hash(&mut h);
    let etag = format!("\"{:016x}\"", h.finish());
    if seen.header("if-none-match") == Some(etag.as_str()) {
        return Reply::new(304).header("ETag", &etag);
    }
    Reply::ok(body).header("ETag", &etag)
}

/// The offsets asked and the If-None-Match each carried, from `from` on.
fn asked(server: &Server, from: usize) -> Vec<(String, Option<String>)> {
    server.settle();
    server.requests()[from..]
        .iter()
        .map(|s| (s.path.rsplit_once("$offset=").map_or("", |(_, o)| o).to_string(), s.header("if-none-match").map(str::to_string)))
        .collect()
}

/// P12: each page keeps its own validators and sends them back. Five rows
/// in pages of two, read once; the next run asks the three pages again,
/// each with the ETag its own answer gave, past a first page answered 304;
/// three 304s are the source unchanged, with nothing taken in.
#[test]
fn each_page_asks_with_its_own_validators_and_every_304_is_the_feed_unchanged_p12() {
    let adapter = gencat_in_pages_of_two();
    let rows: Vec<String> = (1..=5).map(|n| row(n, &format!("Concert {n}"))).collect();
    let server = Server::simulated(move |seen, _| page_with_etag(&rows, seen));
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    let first = run_once(&mut store, adapter, &server);
    assert_eq!((first.status.as_str(), first.added), ("ok", 5), "{first:?}");
    assert!(asked(&server, 0).iter().all(|(_, inm)| inm.is_none()), "{:?}", asked(&server, 0));
    let second = run_once(&mut store, adapter, &server);
    let pages = asked(&server, 3);
    assert_eq!(pages.iter().map(|(o, _)| o.as_str()).collect::<Vec<_>>(), ["0", "2", "4"], "{pages:?}");
    assert!(pages.iter().all(|(_, inm)| inm.is_some()), "a page was asked without its validators: {pages:?}");
    let etags: std::collections::HashSet<_> = pages.iter().map(|(_, inm)| inm.clone()).collect();
    assert_eq!(etags.len(), 3, "each page sends its own ETag: {pages:?}");
    assert_eq!((second.status.as_str(), second.requests, second.not_modified), ("unchanged", 3, 3), "{second:?}");
    assert!(second.message.contains("every page (3)"), "{}", second.message);
    assert_eq!(active(&store), 5);
}

/// P12, P20: the first and last pages answer 304, the middle one changed:
/// the two pages that answered 304 are asked again in full (no raw body is
/// kept between runs) and the feed is taken in whole, the change stored
/// and nothing withdrawn.
#[test]
fn a_page_changed_among_304s_takes_the_feed_in_whole_p12_p20() {
    let adapter = gencat_in_pages_of_two();
    let rows: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new((1..=5).map(|n| row(n, &format!("Concert {n}"))).collect()));
    let rows2 = rows.clone();
    let server = Server::simulated(move |seen, _| page_with_etag(&rows2.lock().unwrap(), seen));
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    assert_eq!(run_once(&mut store, adapter, &server).status.as_str(), "ok");
    rows.lock().unwrap()[2] = row(3, "Concert 3, new date");
    let second = run_once(&mut store, adapter, &server);
    let pages = asked(&server, 3);
    let shape: Vec<(&str, bool)> = pages.iter().map(|(o, inm)| (o.as_str(), inm.is_some())).collect();
    assert_eq!(shape, [("0", true), ("2", true), ("4", true), ("0", false), ("4", false)], "{pages:?}");
    assert_eq!((second.status.as_str(), second.updated, second.withdrawn), ("ok", 1, 0), "{second:?}");
    let title: String = store.connection().query_row("SELECT title FROM events WHERE source_event_id = '3'", [], |r| r.get(0)).unwrap();
    assert_eq!(title, "Concert 3, new date");
    assert_eq!(active(&store), 5);
    // Then all 304 again: unchanged.
    let third = run_once(&mut store, adapter, &server);
    assert_eq!((third.status.as_str(), third.not_modified), ("unchanged", 3), "{third:?}");
}

/// What a paged read keeps is bounded: its pages together are held to the
/// cap of one body; past it the feed fails saying so, nothing taken in.
#[test]
fn a_paged_read_past_the_cap_of_one_body_fails_and_takes_nothing_in_p20() {
    let adapter = gencat_in_pages_of_two();
    let rows: Vec<String> = (1..=5).map(|n| row(n, &format!("Concert {n}"))).collect();
    let one_page = page(&rows, "$limit=2&$offset=0").len() as u64;
    let server = Server::simulated(move |seen, _| Reply::ok(page(&rows, seen.path.split_once('?').map_or("", |(_, q)| q))));
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    let limits = Limits { max_body_bytes: one_page * 3 / 2, ..Limits::default() };
    let r = run_within_limits(&mut store, adapter, &server, limits);
    assert_eq!((r.status.as_str(), r.requests, r.added), ("failed", 2, 0), "{r:?}");
    assert!(r.message.contains("over the") && r.message.contains("one feed's body may hold"), "{}", r.message);
    assert_eq!(active(&store), 0);
}

/// `n` SODA rows from `first` on, as gencat's real pages hold them.
fn rows_from(first: u32, n: u32) -> Vec<String> {
    (first..first + n).map(|c| row(c, &format!("Concert {c}"))).collect()
}

/// P12 through the binary: gencat (its own page size, 1000) through a
/// loopback mirror whose page carries an ETag. The next run asks the page
/// with If-None-Match; the 304 is the source unchanged.
#[test]
fn the_binary_asks_a_page_again_with_its_etag_and_a_304_is_unchanged_p12() {
    let rows = rows_from(1, 3);
    let server = Server::start(move |seen, _| page_with_etag(&rows, seen));
    let dir = common::workdir(&common::sources_toml(&["gencat"], ""));
    for _ in 0..2 {
        let out = common::cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--force", "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let pages = asked(&server, 0);
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert!(pages[0].1.is_none() && pages[1].1.is_some(), "the page's ETag was not sent back: {pages:?}");
    let db = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let (status, not_modified): (String, i64) = db
        .query_row("SELECT status, not_modified FROM run_sources WHERE source = 'gencat' ORDER BY run_id DESC LIMIT 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!((status.as_str(), not_modified), ("unchanged", 1));
}

/// What a paged read keeps, through the binary: while gencat's second page
/// is being asked, the first page's body is no longer held (each page is
/// parsed as it comes; only its records are kept). The server looks at the
/// bodies the process holds open in its temporary folder at that moment.
#[test]
fn a_paged_read_holds_no_earlier_pages_body_while_it_asks_the_next() {
    let dir = common::workdir(&common::sources_toml(&["gencat"], ""));
    let tmp = dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let pid = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let held: Arc<Mutex<Option<u64>>> = Arc::default();
    let (pid2, held2, tmp2) = (pid.clone(), held.clone(), tmp.clone());
    let rows = rows_from(1, 1003);
    let server = Server::start(move |seen, _| {
        let query = seen.path.split_once('?').map_or("", |(_, q)| q);
        if query.ends_with("$offset=1000") {
            *held2.lock().unwrap() = Some(spooled_bytes(pid2.load(std::sync::atomic::Ordering::SeqCst), &tmp2));
        }
        Reply::ok(page(&rows, query))
    });
    let mut child = common::command(dir.path())
        .env("TMPDIR", &tmp)
        .args(["--mirror", &server.url(), "run", "--force"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    pid.store(child.id(), std::sync::atomic::Ordering::SeqCst);
    let status = child.wait().unwrap();
    assert!(status.success(), "the run failed");
    let held = held.lock().unwrap().expect("the second page was asked");
    assert_eq!(held, 0, "{held} bytes of earlier pages were held while the next page was asked");
    let db = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let stored: i64 = db.query_row("SELECT count(*) FROM events WHERE source = 'gencat'", [], |r| r.get(0)).unwrap();
    assert_eq!(stored, 1003);
}

/// The bytes of the spooled bodies under `tmp` that process `pid` holds
/// open (SQLite's own temporary files, `etilqs_…`, aside).
fn spooled_bytes(pid: u32, tmp: &std::path::Path) -> u64 {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return 0 };
    fds.flatten()
        .filter(|fd| std::fs::read_link(fd.path()).is_ok_and(|to| to.starts_with(tmp) && !to.to_string_lossy().contains("etilqs")))
        .filter_map(|fd| std::fs::metadata(fd.path()).ok())
        .map(|m| m.len())
        .sum()
}

/// P16, P12: a paged feed switched off (`feeds_off`) forgets every page's
/// validators, not only the feed URL's, so that, switched back on, no page
/// is answered 304 as if the store still held it. No built-in source can
/// switch its paged feed off (gencat's is its only feed, and `feeds_off`
/// keeps one that carries events), so the store's step is asked directly.
#[test]
fn a_paged_feed_switched_off_forgets_every_pages_validators_p16() {
    let adapter = gencat_in_pages_of_two();
    let feed = &adapter.manifest().feeds[0];
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    let v = cityvibe::store::fetchlog::Validators { etag: Some("\"p\"".into()), records: Some(2), ..Default::default() };
    let pages: Vec<String> = (0..3).map(|p| url::Url::parse(&feed.page_url(p)).unwrap().to_string()).collect();
    for page in &pages {
        store.set_validators(page, &v).unwrap();
    }
    store.forget_feeds("gencat", &[feed]).unwrap();
    for page in &pages {
        assert_eq!(store.validators(page).unwrap().etag, None, "{page} keeps its validators");
    }
}
