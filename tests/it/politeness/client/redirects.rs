//! P13 on the wire: each redirect hop is checked against the manifest
//! before any request is sent, counted, and paced by its target host's
//! delay.

use super::*;

/// P13: redirects are never followed blindly. A relative Location is
/// resolved; each hop is checked against the manifest (host + path prefix)
/// BEFORE any request, so nothing reaches an off-host, off-path or plain-http
/// target; a loop is detected; at most 3 hops; each hop waits the host's
/// delay and is written to the fetch log.
#[test]
fn redirects_are_checked_before_any_request() {
    let body = feed_body();
    let server = serve(move |path, _| {
        let loc = match path {
            "/rel.test/feeds/a.json" => "b.json",
            "/rel.test/feeds/b.json" => "/feeds/c.json",
            "/offhost.test/feeds/a.json" => "https://evil.test/feeds/a.json",
            "/offpath.test/feeds/a.json" => "/private/a.json",
            "/http.test/feeds/a.json" => "http://http.test/feeds/b.json",
            "/loop.test/feeds/a.json" => "b.json",
            "/loop.test/feeds/b.json" => "a.json",
            "/hops.test/feeds/a.json" => "b.json",
            "/hops.test/feeds/b.json" => "c.json",
            "/hops.test/feeds/c.json" => "d.json",
            "/hops.test/feeds/d.json" => "e.json",
            _ => return Reply::ok(body.clone()),
        };
        let status = if path.ends_with("b.json") { 307 } else { 302 };
        Reply::new(status).header("Location", loc)
    });
    let ids = ["rel", "offhost", "offpath", "http", "loop", "hops"];
    let adapters: Vec<&'static dyn Adapter> =
        ids.iter().map(|id| source(id, leak_str(format!("{id}.test")), 150, &["a.json"]) as &dyn Adapter).collect();
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    let p = |host: &str| paths(&to_host(&reqs, host));
    assert_eq!(p("rel.test"), ["/rel.test/feeds/a.json", "/rel.test/feeds/b.json", "/rel.test/feeds/c.json"]);
    assert_eq!(report(&r, "rel").status, "ok");
    for (id, host) in [("offhost", "offhost.test"), ("offpath", "offpath.test"), ("http", "http.test")] {
        assert_eq!(p(host), [format!("/{host}/feeds/a.json")], "{id}: the hop was refused before any request");
        let s = report(&r, id);
        assert_eq!(s.status, "refused", "{s:?}");
        assert!(s.message.contains("P13"), "{}", s.message);
    }
    assert!(to_host(&reqs, "evil.test").is_empty());
    assert_eq!(p("loop.test"), ["/loop.test/feeds/a.json", "/loop.test/feeds/b.json"]);
    let s = report(&r, "loop");
    assert_eq!(s.status, "failed");
    assert!(s.message.contains("loop"), "{}", s.message);
    assert_eq!(
        p("hops.test"),
        ["/hops.test/feeds/a.json", "/hops.test/feeds/b.json", "/hops.test/feeds/c.json", "/hops.test/feeds/d.json"]
    );
    let s = report(&r, "hops");
    assert_eq!(s.status, "failed");
    assert!(s.message.contains("more than 3 redirects"), "{}", s.message);
    // Paced and logged, hop by hop.
    let store = Store::open(&db).unwrap();
    for id in ids {
        let host = format!("{id}.test");
        let seen = to_host(&reqs, &host);
        assert_spaced(&seen, ms(150));
        let logged: Vec<String> = store
            .connection()
            .prepare("SELECT url FROM fetch_log WHERE host = ?1 ORDER BY id")
            .unwrap()
            .query_map([&host], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let on_wire: Vec<String> = seen.iter().map(|s| format!("https:/{}", s.path)).collect();
        assert_eq!(logged, on_wire, "{host}: every hop logged");
    }
}

/// P13, P8: a hop to another host (allowed by the manifest) is paced by THAT
/// host's delay: another source fetched it 400 ms before at most, so the hop
/// waits, though the redirecting source's own delay is 100 ms.
#[test]
fn a_hop_to_another_host_waits_that_hosts_delay() {
    let body = feed_body();
    let server = serve(move |path, _| {
        if path == "/from.test/feeds/a.json" {
            Reply::new(301).header("Location", "https://to.test/feeds/moved.json")
        } else {
            Reply::ok(body.clone())
        }
    });
    let from = variant(source("from", "from.test", 100, &["a.json"]), None, &[("to.test", "/feeds/")]);
    let to = source("to", "to.test", 400, &["b.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[from, to]);
    let reqs = server.requests();
    assert_manners(&reqs);
    let seen = to_host(&reqs, "to.test");
    let mut got = paths(&seen);
    got.sort();
    assert_eq!(got, ["/to.test/feeds/b.json", "/to.test/feeds/moved.json"]);
    assert_spaced(&seen, ms(400));
    assert_eq!(report(&r, "from").status, "ok");
    assert_eq!(report(&r, "to").status, "ok");
}
