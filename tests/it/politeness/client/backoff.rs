//! P10, P11 on the wire: 429 and 503 back off exponentially from the
//! host's delay, Retry-After (delta-seconds, the three HTTP-date forms, a
//! past date, unusable values) is honoured to the letter, waits over the
//! cap skip the host, and a 429 pauses the whole host. Not for blocks or
//! redirects (`answers`, `redirects`).

use super::*;
use RequestOutcome::{Backoff, BackoffGaveUp};
use common::server::simulated_clock;
use std::sync::Arc;
use std::time::SystemTime;

/// P10, P11: on 429 and on 503 the bot backs off exponentially from the
/// host's delay (d, 2d, 4d), tries a URL at most 4 times, then the source is
/// `failed` with the reason, and nothing more is asked of that host in this
/// run (not the source's next feed, not another source on the same host).
#[test]
fn backoff_doubles_from_the_host_delay_and_gives_up_after_four_tries() {
    let body = feed_body();
    let server = serve(move |path, _| {
        if path.starts_with("/busy.test/") {
            Reply::new(429)
        } else if path.starts_with("/down.test/") {
            Reply::new(503)
        } else {
            Reply::ok(body.clone())
        }
    });
    let busy = source("busy", "busy.test", 150, &["a.json", "b.json"]);
    let busy_too = source("busytoo", "busy.test", 150, &["c.json"]);
    let down = source("down", "down.test", 100, &["a.json", "b.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[busy, down, busy_too]);
    let reqs = server.requests();
    assert_manners(&reqs);
    for (host, delay, status) in [("busy.test", 150u64, "429"), ("down.test", 100, "503")] {
        let seen = to_host(&reqs, host);
        assert_eq!(paths(&seen), vec![format!("/{host}/feeds/a.json"); 4], "4 tries of the first URL, then nothing more to {host}");
        // On the server's clock, exactly d, 2d, 4d: none cut short, none
        // longer (a doubling, not a steeper curve); the fetch log says the
        // same waits were the ones chosen.
        assert_eq!(gaps(&seen), [ms(delay), ms(2 * delay), ms(4 * delay)], "{host}");
        let d = delay as i64;
        assert_eq!(
            outcomes(&db, host),
            [Backoff { wait_ms: d }, Backoff { wait_ms: 2 * d }, Backoff { wait_ms: 4 * d }, BackoffGaveUp { tries: 4 }],
            "{host}"
        );
        let id = if host == "busy.test" { "busy" } else { "down" };
        let s = report(&r, id);
        assert_eq!(s.status, "failed", "{s:?}");
        assert!(s.message.contains(status) && s.message.contains("4 times"), "the reason is recorded: {}", s.message);
        assert_eq!(s.requests, 4);
        let state = Store::open(&db).unwrap().source_state(id).unwrap();
        assert_eq!(state.last_status.map(|s| s.as_str()), Some("failed"));
        assert!(state.last_message.unwrap_or_default().contains(status));
    }
    let other = report(&r, "busytoo");
    assert_eq!(other.requests, 0, "the other source on the host that kept saying 429 is not fetched: {other:?}");
    assert_ne!(other.status, "ok");
}

/// P10: `Retry-After: 1` (delta-seconds) is honoured to the letter: the retry
/// comes one second later, though the host's delay is 100 ms: no sooner,
/// and no later either.
#[test]
fn retry_after_delta_seconds_is_honoured() {
    let body = feed_body();
    let server = serve(move |_, n| match n {
        0 => Reply::new(429).header("Retry-After", "1"),
        _ => Reply::ok(body.clone()),
    });
    let a = source("ra", "ra.test", 100, &["a.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[a]);
    let reqs = server.requests();
    assert_manners(&reqs);
    let seen = to_host(&reqs, "ra.test");
    assert_eq!(gaps(&seen), [Duration::from_secs(1)], "Retry-After said 1 s");
    assert_eq!(outcomes(&db, "ra.test")[0], Backoff { wait_ms: 1000 }, "the wait chosen is the one asked for");
    assert_eq!(report(&r, "ra").status, "ok");
}

/// The three forms of an HTTP-date (RFC 9110 §5.6.7).
fn http_date_forms(t: SystemTime) -> [String; 3] {
    let secs = t.duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs() as i64;
    let ts = jiff::Timestamp::from_second(secs).unwrap();
    [httpdate::fmt_http_date(t), ts.strftime("%A, %d-%b-%y %H:%M:%S GMT").to_string(), ts.strftime("%a %b %e %H:%M:%S %Y").to_string()]
}

/// P10: `Retry-After` as an HTTP-date in all three forms (IMF-fixdate,
/// RFC 850, asctime) is honoured to the letter: the retry reaches the server
/// at that instant, never before, and no later.
#[test]
fn retry_after_http_date_in_all_three_forms_is_never_undercut() {
    let body = feed_body();
    // The date each 503 named, read back as the server's clock's ms.
    let named: Arc<Mutex<HashMap<String, i64>>> = Arc::default();
    let n2 = named.clone();
    let clock = simulated_clock();
    let now = clock.clone();
    let counts: Mutex<HashMap<String, usize>> = Mutex::default();
    let server = Server::with_clock(clock, move |seen, _| {
        let n = std::mem::replace(counts.lock().unwrap().entry(seen.path.clone()).or_default(), 1);
        if n > 0 {
            return Reply::ok(body.clone());
        }
        let forms = http_date_forms(now.system_time() + Duration::from_secs(2));
        let (i, _) =
            ["/imf.test/", "/rfc850.test/", "/asctime.test/"].iter().enumerate().find(|(_, h)| seen.path.starts_with(**h)).unwrap();
        let named_at = httpdate::parse_http_date(&forms[i]).unwrap().duration_since(SystemTime::UNIX_EPOCH).unwrap();
        n2.lock().unwrap().insert(seen.path.clone(), named_at.as_millis() as i64);
        Reply::new(503).header("Retry-After", &forms[i])
    });
    let adapters: Vec<&'static dyn Adapter> = vec![
        source("imf", "imf.test", 100, &["a.json"]),
        source("rfc850", "rfc850.test", 100, &["a.json"]),
        source("asctime", "asctime.test", 100, &["a.json"]),
    ];
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    let named = named.lock().unwrap();
    for host in ["imf.test", "rfc850.test", "asctime.test"] {
        let seen = to_host(&reqs, host);
        assert_eq!(seen.len(), 2, "{host}: one 503, one retry");
        let target = named[&seen[0].path];
        assert_eq!(seen[1].at_ms, target, "{host}: the retry came {} ms off the date named", seen[1].at_ms - target);
        assert_eq!(gap(seen[0], seen[1]), Duration::from_secs(2), "{host}");
    }
    for id in ["imf", "rfc850", "asctime"] {
        assert_eq!(report(&r, id).status, "ok", "{id}");
    }
    // Interleaved: the three waits overlap, so every host's first request
    // arrived before any host's retry.
    let positions: Vec<usize> = ["imf.test", "rfc850.test", "asctime.test"].iter().map(|h| arrivals(&reqs, h)[0]).collect();
    assert!(positions.iter().all(|&p| p < 3), "a retry came before another host's first request: {positions:?}");
}

/// P10: a Retry-After date in the past means no extra wait: three 429s in a
/// row are each retried after the host's delay (300 ms), never sooner, and
/// not after a backoff that would double (300, 600, 1200 ms): on the wire
/// and in the bot's chosen waits, 300 ms each, like a host asking
/// `Retry-After: 0`.
#[test]
fn retry_after_in_the_past_waits_only_the_host_delay() {
    let body = feed_body();
    let server = serve(move |path, n| match n {
        0..3 => Reply::new(429).header("Retry-After", if path.starts_with("/past.test/") { "Sun Nov  6 08:49:37 1994" } else { "0" }),
        _ => Reply::ok(body.clone()),
    });
    let a = source("past", "past.test", 300, &["a.json"]);
    let control = source("zero", "zero.test", 300, &["a.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[a, control]);
    let reqs = server.requests();
    assert_manners(&reqs);
    for host in ["past.test", "zero.test"] {
        let seen = to_host(&reqs, host);
        assert_eq!(seen.len(), 4, "{host}");
        assert_spaced(&seen, ms(300));
        assert_eq!(
            outcomes(&db, host),
            [Backoff { wait_ms: 300 }, Backoff { wait_ms: 300 }, Backoff { wait_ms: 300 }, RequestOutcome::Ok],
            "{host}"
        );
    }
    assert_eq!(report(&r, "past").status, "ok");
    assert_eq!(report(&r, "zero").status, "ok");
}

/// P10: an unusable Retry-After (`-5`, `abc`, `1e3`, `1.5`) is ignored and
/// the normal backoff applies: d, then 2d. (A number too big for sense is
/// not unusable: it is capped at a week, see
/// `politeness::ledger::a_huge_retry_after_is_capped_and_remembered_p10`.)
#[test]
fn unusable_retry_after_falls_back_to_the_normal_backoff() {
    let body = feed_body();
    let values = ["-5", "abc", "1e3", "1.5"];
    let hosts = ["neg.test", "abc.test", "exp.test", "frac.test"];
    let server = serve(move |path, n| {
        let i = hosts.iter().position(|h| path.starts_with(&format!("/{h}/"))).unwrap();
        if n < 2 { Reply::new(429).header("Retry-After", values[i]) } else { Reply::ok(body.clone()) }
    });
    let adapters: Vec<&'static dyn Adapter> = vec![
        source("neg", "neg.test", 200, &["a.json"]),
        source("abc", "abc.test", 200, &["a.json"]),
        source("exp", "exp.test", 200, &["a.json"]),
        source("frac", "frac.test", 200, &["a.json"]),
    ];
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    for (host, value) in hosts.iter().zip(values) {
        let seen = to_host(&reqs, host);
        assert_eq!(seen.len(), 3, "{host}");
        assert_eq!(gaps(&seen), [ms(200), ms(400)], "{host} ({value}): the backoff's d, 2d");
        // The waits chosen are the backoff's, the value read as nothing.
        assert_eq!(outcomes(&db, host), [Backoff { wait_ms: 200 }, Backoff { wait_ms: 400 }, RequestOutcome::Ok], "{host} ({value})");
    }
    for a in &adapters {
        assert_eq!(report(&r, a.manifest().id).status, "ok");
    }
}

/// P10: a Retry-After beyond the cap (default `Limits::max_wait`, 5 min) is not
/// waited: the host is skipped for this run with the reason recorded, and no
/// other request goes to it (another source on the same host included).
#[test]
fn retry_after_beyond_the_cap_skips_the_host_for_the_run() {
    let server = serve(|_, _| Reply::new(429).header("Retry-After", "7200"));
    let a = source("far", "far.test", 100, &["a.json", "b.json"]);
    let b = source("fartoo", "far.test", 100, &["c.json"]);
    let (_d, db) = fresh_db();
    // Had the 7200 s been waited, this call would not return within the test.
    let r = run_once(&db, &server, &[a, b]);
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(paths(&to_host(&reqs, "far.test")), vec!["/far.test/feeds/a.json"]);
    for id in ["far", "fartoo"] {
        let s = report(&r, id);
        assert_eq!(s.status, "skipped", "{s:?}");
        assert!(s.message.contains("7200") && s.message.contains("cap"), "the reason is recorded: {}", s.message);
        let st = Store::open(&db).unwrap().source_state(id).unwrap();
        assert!(st.last_message.unwrap_or_default().contains("7200"));
    }
}

/// P10: the backoff itself is capped too: with `max_wait` at 300 ms and a
/// 200 ms delay, the second backoff (400 ms) is not waited; the host is skipped.
#[test]
fn backoff_beyond_the_cap_skips_the_host() {
    let server = serve(|_, _| Reply::new(503));
    let a = source("capped", "capped.test", 200, &["a.json"]);
    let (_d, db) = fresh_db();
    let limits = Limits { max_wait: ms(300), ..Limits::default() };
    let r = run_with(&db, &server, &[a], Config::enable_all(), limits);
    let seen = server.requests();
    assert_manners(&seen);
    assert_eq!(seen.len(), 2, "one 503, one retry after 200 ms, then the 400 ms backoff is over the cap");
    let s = report(&r, "capped");
    assert_eq!(s.status, "skipped", "{s:?}");
    assert!(s.message.contains("cap"), "{}", s.message);
}

/// P10: a 429 pauses the whole host, not only the URL that got it: another
/// source's request to the same host waits out the Retry-After as well.
#[test]
fn a_429_pauses_the_whole_host() {
    let body = feed_body();
    let server = Server::simulated(move |_, i| if i == 0 { Reply::new(429).header("Retry-After", "1") } else { Reply::ok(body.clone()) });
    let a = source("first", "shared.test", 100, &["a.json"]);
    let b = source("second", "shared.test", 100, &["b.json"]);
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[a, b]);
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(reqs.len(), 3, "{:?}", reqs.iter().map(|s| &s.path).collect::<Vec<_>>());
    for later in &reqs[1..] {
        let g = gap(&reqs[0], later);
        assert!(g >= Duration::from_secs(1), "{} came {g:?} after the 429 that asked for 1 s", later.path);
    }
    assert!(reqs[1..].iter().any(|s| s.path == "/shared.test/feeds/b.json"));
    assert_eq!(report(&r, "first").status, "ok");
    assert_eq!(report(&r, "second").status, "ok");
}

/// P10: a backoff episode without Retry-After outlives
/// its run: madrid (its real 2 s delay) answering 429 is asked again after
/// 2, 4 and 8 s, given up after the fourth, and its next backoff step (16 s
/// on: 8 times the delay) becomes its not-before time in the host ledger; a
/// run right after, with new store and ledger connections as a new command
/// would have, sends nothing and says until when. Runs here wait at most
/// 10 s, so the 16 s step is not waited. docs/POLITENESS.md states the factor
/// measured here.
#[test]
fn a_backoff_given_up_is_remembered_by_the_next_run_p10() {
    let server = serve(|_, _| Reply::new(429));
    let madrid = cityvibe::adapters::by_id("madrid").unwrap();
    let mut config = Config::enable_all();
    config.settings.max_wait_secs = 10;
    let limits = Limits { max_wait: Duration::from_secs(10), ..Limits::default() };
    let (_d, db) = fresh_db();
    let first = run_with(&db, &server, &[madrid], config.clone(), limits.clone());
    assert_eq!(report(&first, "madrid").status, "failed");
    let seen = server.requests();
    assert_manners(&seen);
    let secs = Duration::from_secs;
    assert_eq!(gaps(&seen.iter().collect::<Vec<_>>()), [secs(2), secs(4), secs(8)]);
    let second = run_with(&db, &server, &[madrid], config, limits);
    assert_eq!(server.requests().len(), 4, "the next run asked again");
    let s = report(&second, "madrid");
    assert_eq!(s.status, "skipped", "{s:?}");
    let when = s.not_before.expect("a not-before time");
    assert!(s.message.contains(&when.to_string()) && s.message.contains("our backoff"), "{}", s.message);
    let at = when.as_millisecond();
    assert_eq!(at, seen[3].at_ms + 16_000, "the next step of the backoff, 16 s after the fourth 429");
    // docs/POLITENESS.md's figure is this one: the step after 1, 2 and 4 times the delay.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/POLITENESS.md")).unwrap();
    let said = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let factor: i64 = said
        .split_once(" times the delay after four tries")
        .and_then(|(before, _)| before.rsplit(['(', ' ']).next()?.parse().ok())
        .expect("docs/POLITENESS.md states the backoff's next step as `(N times the delay after four tries`");
    assert_eq!(at - seen[3].at_ms, factor * 2_000, "docs/POLITENESS.md: {factor} times madrid's 2 s delay");
}

/// P10, the audit's side: robots.txt answering 503 until
/// the audit gives up (retried after 2, 4 and 8 s, from madrid's real
/// delay) leaves the host's next pause in the ledger, the later of the
/// backoff's next step (16 s) and the pause for a robots.txt that could
/// not be read (16 times the delay, 32 s): a run right after sends nothing
/// to the host and says why, as our own pause, not the host's word.
#[test]
fn an_audit_that_gave_up_on_robots_txt_holds_back_the_next_run_p10() {
    let body = feed_body();
    let server = serve(move |path, _| if path.ends_with("/robots.txt") { Reply::new(503) } else { Reply::ok(body.clone()) });
    let madrid = cityvibe::adapters::by_id("madrid").unwrap();
    let mut config = Config::enable_all();
    config.settings.max_wait_secs = 10;
    let (_d, db) = fresh_db();
    audit_with(&db, &server, &[madrid], &config);
    let audited = server.requests();
    assert_manners(&audited);
    let asked: Vec<&Seen> = audited.iter().collect();
    assert_eq!(paths(&asked), vec!["/datos.madrid.es/robots.txt"; 4], "four tries of robots.txt, then nothing more to the host");
    let secs = Duration::from_secs;
    assert_eq!(gaps(&asked), [secs(2), secs(4), secs(8)]);
    let r = run_with(&db, &server, &[madrid], config, Limits { max_wait: secs(10), ..Limits::default() });
    assert_eq!(server.requests().len(), 4, "the run asked right after the audit gave up");
    let s = report(&r, "madrid");
    assert_eq!(s.status, "skipped", "{s:?}");
    assert!(s.message.contains("robots.txt unreadable in the last audit (HTTP 503)") && !s.message.contains("asked us"), "{}", s.message);
    let until = s.not_before.expect("a not-before time");
    assert_eq!(until.as_millisecond(), audited[3].at_ms + 32_000, "the later of the two pauses");
}
