//! What the client does with a host's answer: 401/403/451 are a "no"
//! (P11), a rights reservation is a "no" (P15), an unchanged body or a 304
//! costs nothing (P12). Not for 429/503 (`backoff`).

use super::*;
use std::sync::Arc;
use std::sync::atomic::Ordering;

// ---------------------------------------------------------------- P11 blocks

/// P11: 401, 403 and 451 are a "no": no further request to that host in this
/// run (not the source's other feed, not another source on the host), the
/// source is `refused`, and the source's state (what `source list` shows)
/// says so until a later run succeeds. The no is held in the host ledger
/// until the operator lifts it, as it is here.
#[test]
fn blocks_stop_the_host_and_the_source_is_refused_until_a_success() {
    let body = feed_body();
    let open = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let open2 = open.clone();
    let server = serve(move |path, _| {
        if open2.load(Ordering::SeqCst) {
            return Reply::ok(body.clone());
        }
        let status = path.split('/').nth(1).unwrap().trim_start_matches('s').split('.').next().unwrap().parse().unwrap();
        Reply::new(status)
    });
    let mut adapters: Vec<&'static dyn Adapter> = Vec::new();
    for (host, id, other) in [("s401.test", "b401", "c401"), ("s403.test", "b403", "c403"), ("s451.test", "b451", "c451")] {
        adapters.push(source(id, host, 100, &["a.json", "b.json"]));
        adapters.push(source(other, host, 100, &["c.json"]));
    }
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    for (host, id, other, status) in
        [("s401.test", "b401", "c401", "401"), ("s403.test", "b403", "c403", "403"), ("s451.test", "b451", "c451", "451")]
    {
        assert_eq!(to_host(&reqs, host).len(), 1, "{host}: one request, then none: {:?}", paths(&to_host(&reqs, host)));
        let first = to_host(&reqs, host)[0].path.clone();
        let (asked, spared) = if first.ends_with("/c.json") { (other, id) } else { (id, other) };
        let s = report(&r, asked);
        assert_eq!(s.status, "refused", "{s:?}");
        assert!(s.message.contains(status), "{}", s.message);
        let s = report(&r, spared);
        assert_eq!((s.status.as_str(), s.requests), ("refused", 0), "{s:?}");
        let st = Store::open(&db).unwrap().source_state(id).unwrap();
        assert_eq!(st.last_status.map(|s| s.as_str()), Some("refused"), "what `source list` shows for {id}");
    }
    // Each no is held in the host ledger until the operator lifts it.
    let release_all = || {
        let ledger = common::ledger_beside(&db);
        for host in ["s401.test", "s403.test", "s451.test"] {
            let now = server.clock().now_ms();
            assert_eq!(ledger.host(host, now).unwrap().not_before_ms, Some(cityvibe::http::ledger::HELD), "{host}");
            assert_eq!(ledger.release(host, now).unwrap().len(), 1, "{host}");
        }
    };
    release_all();
    // A later run that does not reach the source (outside its hours) leaves it shown.
    let now = jiff::Timestamp::now().in_tz("Europe/Madrid").unwrap();
    let later = (now.hour() as i32 + 3).rem_euclid(24);
    let away = format!("{later:02}:00-{:02}:00", (later + 1) % 24);
    let before = server.requests().len();
    let r1b = run_with(&db, &server, &adapters, config_with(&[("b403", row(None, Some(&away)))]), Limits::default());
    assert_eq!(report(&r1b, "b403").status, "skipped");
    assert!(to_host(&server.requests()[before..], "s403.test").len() <= 1);
    let st = Store::open(&db).unwrap().source_state("b403").unwrap();
    assert_eq!(st.last_status.map(|s| s.as_str()), Some("refused"), "a skipped run hid the refusal: {st:?}");
    // A later run that succeeds clears it (the hosts asked again said no again: lifted again).
    release_all();
    open.store(true, Ordering::SeqCst);
    let r2 = run_once(&db, &server, &adapters);
    for a in &adapters {
        let id = a.manifest().id;
        assert_eq!(report(&r2, id).status, "ok", "{id}");
        assert_eq!(Store::open(&db).unwrap().source_state(id).unwrap().last_status.map(|s| s.as_str()), Some("ok"));
    }
}

// ---------------------------------------------------------------- P15 reservations

/// P15: a rights reservation on a feed response (`tdm-reservation: 1`,
/// `X-Robots-Tag: noai`, `X-Robots-Tag: CityVibeBot: noml`) is a "no" like a
/// block: nothing of it is parsed or stored (no events, no validators), the
/// source is `refused`, and no further request goes to that host. A
/// reservation addressed to another bot is not ours.
#[test]
fn rights_reservations_are_a_no_and_nothing_is_stored() {
    let body = feed_body();
    let server = serve(move |path, _| {
        let r = Reply::ok(body.clone()).header("ETag", "\"e1\"");
        match path.split('/').nth(1).unwrap() {
            "tdm.test" => r.header("tdm-reservation", "1"),
            "noai.test" => r.header("X-Robots-Tag", "noai"),
            "scoped.test" => r.header("X-Robots-Tag", "noindex").header("X-Robots-Tag", "CityVibeBot: noml"),
            _ => r.header("X-Robots-Tag", "otherbot: noai").header("tdm-reservation", "0"),
        }
    });
    let cases = [("tdm", "tdm.test"), ("noai", "noai.test"), ("scoped", "scoped.test"), ("otherbot", "other.test")];
    let mut adapters: Vec<&'static dyn Adapter> = Vec::new();
    for (id, host) in cases {
        adapters.push(source(id, host, 100, &["a.json", "b.json"]));
        adapters.push(source(leak_str(format!("{id}2")), host, 100, &["c.json"]));
    }
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    let store = Store::open(&db).unwrap();
    for (id, host) in &cases[..3] {
        assert_eq!(to_host(&reqs, host).len(), 1, "{host}: {:?}", paths(&to_host(&reqs, host)));
        for sid in [id.to_string(), format!("{id}2")] {
            let s = report(&r, &sid);
            assert_eq!(s.status, "refused", "{s:?}");
            assert_eq!(store.count_events(&sid).unwrap(), (0, 0), "{sid}: nothing stored");
        }
        let asked = &to_host(&reqs, host)[0].path;
        let url = format!("https:/{asked}");
        assert_eq!(store.validators(&url).unwrap(), Default::default(), "{url}: no validators kept");
        let s = if asked.ends_with("/c.json") { report(&r, &format!("{id}2")) } else { report(&r, id) };
        assert!(s.message.contains("P15") && s.message.contains("nothing"), "{}", s.message);
    }
    // Not for us: fetched and stored.
    assert_eq!(report(&r, "otherbot").status, "ok");
    assert!(store.count_events("otherbot").unwrap().0 > 0);
}
// ---------------------------------------------------------------- P12 unchanged bodies

/// P12: a 200 whose body hashes like the last stored one is `unchanged`: not
/// parsed, nothing written but the fetch log (an event deleted behind the
/// store's back is not brought back). A 304 costs nothing either, and its
/// validators replace the stored ones: the next request carries them.
#[test]
fn same_body_is_unchanged_and_304_refreshes_validators() {
    let body = feed_body();
    let server = serve(move |path, n| {
        if path.starts_with("/same.test/") {
            return Reply::ok(body.clone());
        }
        match n {
            0 => Reply::ok(body.clone()).header("ETag", "\"v1\"").header("Last-Modified", "Sun, 01 Nov 2026 10:00:00 GMT"),
            1 => Reply::new(304).header("ETag", "\"v2\"").header("Last-Modified", "Mon, 02 Nov 2026 10:00:00 GMT"),
            _ => Reply::new(304),
        }
    });
    let same = source("same", "same.test", 100, &["a.json"]);
    let cond = source("cond", "cond.test", 100, &["a.json"]);
    let (_d, db) = fresh_db();
    let r1 = run_once(&db, &server, &[same, cond]);
    assert_eq!(report(&r1, "same").status, "ok");
    assert_eq!(report(&r1, "cond").status, "ok");
    let stored = events(&db, "same");
    assert!(stored > 1);
    Store::open(&db)
        .unwrap()
        .connection()
        .execute("DELETE FROM events WHERE id = (SELECT min(id) FROM events WHERE source = 'same')", [])
        .unwrap();
    let r2 = run_once(&db, &server, &[same, cond]);
    let s = report(&r2, "same");
    assert_eq!((s.status.as_str(), s.added, s.updated), ("unchanged", 0, 0), "{s:?}");
    assert_eq!(events(&db, "same"), stored - 1, "the body was not parsed nor stored again");
    let c = report(&r2, "cond");
    assert_eq!((c.status.as_str(), c.not_modified), ("unchanged", 1), "{c:?}");
    let r3 = run_once(&db, &server, &[same, cond]);
    assert_eq!(report(&r3, "cond").status, "unchanged");

    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(to_host(&reqs, "same.test").len(), 3);
    let c = to_host(&reqs, "cond.test");
    assert_eq!(c.len(), 3);
    assert_eq!(c[0].header("if-none-match"), None);
    assert_eq!(c[1].header("if-none-match"), Some("\"v1\""));
    assert_eq!(c[1].header("if-modified-since"), Some("Sun, 01 Nov 2026 10:00:00 GMT"));
    assert_eq!(c[2].header("if-none-match"), Some("\"v2\""), "the 304's validators were stored");
    assert_eq!(c[2].header("if-modified-since"), Some("Mon, 02 Nov 2026 10:00:00 GMT"));
}

/// P12: diba itself (its real manifest and its 10 s delay,
/// kept to the millisecond on the server's simulated clock): its three
/// feeds, fetched together, each keep and send their own validators; when
/// all three answer 304 the run costs three 304s and writes nothing but the
/// fetch log and its own record. (One 304 beside a changed feed:
/// `sources::fetch_plan_all`; P12 through the binary in real time:
/// `surface::cli_foundation::identity_cookies_and_conditional_requests`.)
#[test]
fn diba_sends_each_feeds_validators_and_three_304s_change_nothing_p12() {
    let server = Server::simulated(|seen, _| {
        let lang = ["ca", "es", "en"].into_iter().find(|l| seen.path.contains(&format!("actesturisme_{l}/"))).expect("a diba feed");
        let etag = format!("\"diba-{lang}\"");
        if seen.header("if-none-match") == Some(etag.as_str()) {
            return Reply::new(304).header("ETag", &etag);
        }
        let body = std::fs::read(common::sample(&format!("do.diba.cat/api/dataset/actesturisme_{lang}/format/json/pag-ini/1/pag-fi/1000")))
            .unwrap();
        Reply::ok(body).header("ETag", &etag).header("Last-Modified", "Mon, 30 Nov 2026 08:00:00 GMT")
    });
    let diba = cityvibe::adapters::by_id("diba").unwrap();
    let (_d, db) = fresh_db();
    assert_eq!(report(&run_once(&db, &server, &[diba]), "diba").status, "ok");
    let before = everything_but_the_run_record(&db);
    assert!(before.contains("events: "), "the first run stored events");
    // A second run right after (`force`: within the period on purpose, P7).
    let second = run_once(&db, &server, &[diba]);
    let s = report(&second, "diba");
    assert_eq!((s.status.as_str(), s.requests, s.not_modified), ("unchanged", 3, 3), "{s:?}");
    let seen = server.requests();
    assert_manners(&seen);
    assert_eq!(seen.len(), 6);
    for (r, lang) in seen[3..].iter().zip(["ca", "es", "en"]) {
        assert_eq!(r.header("if-none-match"), Some(format!("\"diba-{lang}\"").as_str()), "{}", r.path);
        assert_eq!(r.header("if-modified-since"), Some("Mon, 30 Nov 2026 08:00:00 GMT"), "{}", r.path);
    }
    assert_spaced(&seen.iter().collect::<Vec<_>>(), Duration::from_secs(10));
    assert_eq!(everything_but_the_run_record(&db), before, "a 304 run changed stored data");
}

/// Every row of every table but the run's own record (runs, run_sources,
/// source_state) and the fetch log, as text: what a run may not change.
fn everything_but_the_run_record(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('runs', 'run_sources', 'source_state', 'fetch_log') ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut out = String::new();
    for t in tables {
        let mut st = conn.prepare(&format!("SELECT * FROM \"{t}\" ORDER BY rowid")).unwrap();
        let n = st.column_count();
        let rows = st
            .query_map([], |r| Ok((0..n).map(|i| format!("{:?}", r.get_ref(i).unwrap())).collect::<Vec<_>>().join("|")))
            .unwrap()
            .map(Result::unwrap);
        for row in rows {
            out.push_str(&format!("{t}: {row}\n"));
        }
    }
    out
}
