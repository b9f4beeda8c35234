//! Sources whose feeds are needed together (diba: one feed per language):
//! unchanged when every body is the same, stored whole when one changed
//! (feeds that answered 304 meanwhile are asked again in full), nothing
//! stored when one feed fails.
use crate::common;

use cityvibe::adapter::{Adapter, EventSink, Feed, FeedError, Manifest};
use cityvibe::config::Config;
use cityvibe::http::{Client, Limits, Mirror};
use cityvibe::ingest::{RunOptions, run};
use cityvibe::store::Store;
use common::server::{Reply, Server};
use std::io::BufRead;
use std::sync::{Arc, Mutex};

/// diba's parser under a manifest with a short delay.
struct QuickDiba(&'static Manifest);

impl Adapter for QuickDiba {
    fn manifest(&self) -> &'static Manifest {
        self.0
    }
    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        let real = cityvibe::adapters::by_id("diba").unwrap();
        let i = self.0.feeds.iter().position(|f| f.url == feed.url).unwrap();
        real.parse(&real.manifest().feeds[i], body, sink)
    }
}

fn quick_diba() -> &'static dyn Adapter {
    let m = cityvibe::adapters::by_id("diba").unwrap().manifest();
    let manifest: &'static Manifest = Box::leak(Box::new(Manifest { min_delay: std::time::Duration::from_millis(100), ..*m }));
    Box::leak(Box::new(QuickDiba(manifest)))
}

fn body(lang: &str) -> Vec<u8> {
    std::fs::read(common::sample(&format!("do.diba.cat/api/dataset/actesturisme_{lang}/format/json/pag-ini/1/pag-fi/1000"))).unwrap()
}

/// One run against `server`, on its simulated clock (the delays are not what is tested here).
fn run_once(store: &mut Store, adapter: &'static dyn Adapter, server: &Server) -> cityvibe::store::runs::SourceReport {
    let client = Client::new(Some(Mirror::Http(url::Url::parse(&server.url()).unwrap())), Limits::default());
    let clock = server.clock();
    let adapters: &'static [&'static dyn Adapter] = Box::leak(Box::new([adapter]));
    // The test's own ledger beside its database; runs in a row on purpose (`force`).
    let ledger = common::ledger_beside(store.path());
    let config = Config::enable_all();
    let r =
        run(store, RunOptions { adapters, config, config_path: None, only: vec![], client: &client, ledger: &ledger, clock, force: true })
            .unwrap();
    r.sources[0].clone()
}

#[test]
fn all_feeds_plan_unchanged_changed_and_failed() {
    let adapter = quick_diba();
    let english = Arc::new(Mutex::new(body("en")));
    let fail_es = Arc::new(Mutex::new(false));
    let (en2, fail2) = (english.clone(), fail_es.clone());
    let server = Server::simulated(move |seen, _| {
        if seen.path.contains("actesturisme_ca") {
            Reply::ok(body("ca"))
        } else if seen.path.contains("actesturisme_es") {
            if *fail2.lock().unwrap() { Reply::new(500) } else { Reply::ok(body("es")) }
        } else {
            Reply::ok(en2.lock().unwrap().clone())
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    let first = run_once(&mut store, adapter, &server);
    assert_eq!((first.status.as_str(), first.requests), ("ok", 3), "{first:?}");
    assert!(first.added > 0);
    // Same three bodies: unchanged, nothing parsed.
    let second = run_once(&mut store, adapter, &server);
    assert_eq!((second.status.as_str(), second.requests, second.updated), ("unchanged", 3, 0), "{second:?}");
    // Only the English translation changes: the events carrying it are updated.
    let changed = String::from_utf8(body("en")).unwrap().replacen("\"titol\":\"", "\"titol\":\"New: ", 1);
    assert_ne!(changed.as_bytes(), body("en").as_slice(), "the sample has no titol to change");
    *english.lock().unwrap() = changed.into_bytes();
    let third = run_once(&mut store, adapter, &server);
    assert_eq!(third.status, "ok", "{third:?}");
    assert_eq!(third.updated, 1, "{third:?}");
    let titles: Vec<String> = store
        .connection()
        .prepare("SELECT text FROM translations WHERE origin = 'publisher' AND lang = 'en' AND field = 'title'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(titles.iter().any(|t| t.starts_with("New: ")), "{titles:?}");
    // One feed fails: nothing of the source changes.
    *fail_es.lock().unwrap() = true;
    *english.lock().unwrap() = body("en");
    let before: i64 = store.connection().query_row("SELECT count(*) FROM translations", [], |r| r.get(0)).unwrap();
    let fourth = run_once(&mut store, adapter, &server);
    assert_eq!(fourth.status, "failed", "{fourth:?}");
    assert!(fourth.message.contains("actesturisme_es"), "{}", fourth.message);
    let after: i64 = store.connection().query_row("SELECT count(*) FROM translations", [], |r| r.get(0)).unwrap();
    assert_eq!(before, after);
}

/// P12: feeds fetched together each send their own
/// validators; when two answer 304 and the third changed, the two are asked
/// again in full (no raw body is kept between runs: it may hold contact
/// data, P5), so the change is taken in whole and the publisher's Spanish
/// translations (from a feed that first answered 304) are all still there.
#[test]
fn a_304_on_one_feed_while_another_changed_is_asked_again_in_full_to_merge() {
    let adapter = quick_diba();
    let english = Arc::new(Mutex::new((body("en"), "\"en-1\"")));
    let en2 = english.clone();
    let server = Server::simulated(move |seen, _| {
        let (bytes, etag) = if seen.path.contains("actesturisme_ca") {
            (body("ca"), "\"ca-1\"")
        } else if seen.path.contains("actesturisme_es") {
            (body("es"), "\"es-1\"")
        } else {
            en2.lock().unwrap().clone()
        };
        if seen.header("if-none-match") == Some(etag) {
            Reply::new(304).header("ETag", etag)
        } else {
            Reply::ok(bytes).header("ETag", etag)
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    assert_eq!(run_once(&mut store, adapter, &server).status, "ok");
    let spanish = |store: &Store| -> i64 {
        store
            .connection()
            .query_row("SELECT count(*) FROM translations WHERE origin = 'publisher' AND lang = 'es'", [], |r| r.get(0))
            .unwrap()
    };
    let es_before = spanish(&store);
    assert!(es_before > 0);
    let changed = String::from_utf8(body("en")).unwrap().replacen("\"titol\":\"", "\"titol\":\"New: ", 1);
    *english.lock().unwrap() = (changed.into_bytes(), "\"en-2\"");
    let second = run_once(&mut store, adapter, &server);
    assert_eq!((second.status.as_str(), second.requests, second.not_modified), ("ok", 5, 2), "{second:?}");
    assert_eq!(second.updated, 1, "{second:?}");
    assert_eq!(spanish(&store), es_before, "the Spanish feed's translations were merged again");
    let seen = server.requests();
    let conditional: Vec<bool> = seen[3..].iter().map(|s| s.header("if-none-match").is_some()).collect();
    assert_eq!(conditional, [true, true, true, false, false], "each feed sent its own validator, then two were asked in full");
    // All three unchanged again: three 304s.
    let third = run_once(&mut store, adapter, &server);
    assert_eq!((third.status.as_str(), third.requests, third.not_modified), ("unchanged", 3, 3), "{third:?}");
}
