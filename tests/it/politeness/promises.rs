//! Every polite promise kept across runs and per request, proven from the
//! server's side through the binary in real time: the period between runs (P7), the hours window
//! checked before every request (P9), a Retry-After remembered (P10),
//! robots.txt's Crawl-delay obeyed (rule 2), no credentials on the wire
//! (P2), bounded configuration. The same rules in simulated time, where a
//! wait costs nothing (a delay raised mid-run, diba's validators): the
//! `politeness::client` tests.
use crate::common;
use crate::politeness::ledger::{MADRID_JSON, json_of, madrid_body, run_args};

use common::server::{Reply, Seen, Server};
use common::{cityvibe, workdir};
use std::time::Duration;

fn gap(a: &Seen, b: &Seen) -> Duration {
    b.at.saturating_duration_since(a.at)
}

/// Seconds from now to an RFC 3339 time printed by `run --json`.
fn secs_from_now(rfc3339: &serde_json::Value) -> i64 {
    let t: jiff::Timestamp = rfc3339.as_str().unwrap_or_else(|| panic!("not a time: {rfc3339}")).parse().unwrap();
    t.as_second() - jiff::Timestamp::now().as_second()
}

/// `HH:MM-HH:MM` (Europe/Madrid) two to three hours from now: a window we are outside of.
pub fn window_outside_now() -> String {
    let now = jiff::Timestamp::now().in_tz("Europe/Madrid").unwrap();
    let minute = now.hour() as i32 * 60 + now.minute() as i32;
    let hhmm = |m: i32| {
        let m = m.rem_euclid(1440);
        format!("{:02}:{:02}", m / 60, m % 60)
    };
    format!("{}-{}", hhmm(minute + 120), hhmm(minute + 180))
}

/// P7: a second run within the period sends nothing and
/// says when the source is next due (in `--json`; silent for cron under
/// `--quiet`); `run --force` fetches, still keeping the delay; a row may
/// lengthen the period, never shorten it.
#[test]
fn a_run_within_the_period_is_skipped_until_next_due_and_force_still_waits_p7() {
    let body = madrid_body();
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    assert_eq!(json_of(&cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &[])))["sources"][0]["status"], "ok");
    let again = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &[]));
    assert_eq!(again.status.code(), Some(0));
    let s = &json_of(&again)["sources"][0];
    assert_eq!(s["status"], "skipped", "{s}");
    assert_eq!(s["requests"], 0);
    let due = secs_from_now(&s["next_due"]);
    assert!((3 * 3600 - 120..=3 * 3600).contains(&due), "next due in {due} s, not three hours after the last fetch: {s}");
    assert!(s["message"].as_str().unwrap().contains("next due"), "{s}");
    // What cron runs: nothing on stderr, exit 0.
    let quiet =
        cityvibe(dir.path(), &["--db", "cityvibe.db", "--mirror", &mirror, "run", "--source", "madrid", "--no-translate", "--quiet"]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
    assert_eq!(server.requests().len(), 1, "no request within the period");
    // The operator's manual run: fetched, the host's 2 s delay kept.
    let forced = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &["--force"]));
    assert_eq!(json_of(&forced)["sources"][0]["status"], "unchanged");
    let seen = server.requests();
    assert_eq!(seen.len(), 2);
    assert!(gap(&seen[0], &seen[1]) >= Duration::from_secs(2), "{:?}", gap(&seen[0], &seen[1]));
    // A row may only lengthen the period.
    let short = workdir("[sources.madrid]\nperiod_hours = 1\n");
    let out = cityvibe(short.path(), &run_args(&mirror, "cityvibe.db", &[]));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[sources.madrid] period_hours"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(server.requests().len(), 2);
}

/// P10: a Retry-After beyond what a run
/// waits (7200, 3601, an HTTP-date a day ahead, a year exactly)
/// ends the host's work at once, is said on stderr with the time, and
/// becomes the host's not-before time: the next run, even forced, sends
/// nothing and says so again.
#[test]
fn a_retry_after_beyond_the_wait_is_remembered_by_later_runs_p10() {
    let tomorrow = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(86400));
    let year = 365 * 86400;
    for (value, expect_secs) in [("7200", 7200), ("3601", 3601), (tomorrow.as_str(), 86400), ("31536000", year)] {
        let v = value.to_string();
        let server = Server::start(move |_, _| Reply::new(429).header("Retry-After", &v));
        let dir = workdir("[sources.madrid]\n");
        let mirror = server.url();
        for (round, extra) in [(1, &[][..]), (2, &["--force"][..])] {
            let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", extra));
            assert_eq!(out.status.code(), Some(0), "{value}: {}", String::from_utf8_lossy(&out.stderr));
            let s = &json_of(&out)["sources"][0];
            assert_eq!(s["status"], "skipped", "{value}, run {round}: {s}");
            let left = secs_from_now(&s["not_before"]);
            assert!((expect_secs - 120..=expect_secs + 5).contains(&left), "{value}, run {round}: not before in {left} s: {s}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let when = s["not_before"].as_str().unwrap();
            assert!(stderr.contains("madrid") && stderr.contains(when), "{value}, run {round}: stderr says the time: {stderr}");
        }
        assert_eq!(server.requests().len(), 1, "{value}: the second run asked again");
    }
}

/// P9: the hours window is checked before every request,
/// retries included: a window that closes between a 429 and its retry stops
/// the retry.
#[test]
fn a_window_closing_between_a_429_and_its_retry_stops_the_retry_p9() {
    let dir = workdir("[sources.madrid]\n");
    let config = dir.path().join("sources.toml");
    let closed = format!("[sources.madrid]\nhours = \"{}\"\n", window_outside_now());
    let server = Server::start(move |_, _| {
        // The window closes while the host tells us to come back in a second.
        std::fs::write(&config, &closed).unwrap();
        Reply::new(429).header("Retry-After", "1")
    });
    let out = cityvibe(dir.path(), &run_args(&server.url(), "cityvibe.db", &[]));
    let s = &json_of(&out)["sources"][0];
    assert_eq!(s["status"], "skipped", "{s}");
    assert!(s["message"].as_str().unwrap().contains("outside its hours"), "{s}");
    server.settle();
    assert_eq!(server.requests().len(), 1, "the retry was sent outside the window");
}

/// Rule 2 ("the slowest word wins"), P8, P14: robots.txt raises its
/// Crawl-delay to 4 s (madrid's own is 2 s); `audit` records it and the next
/// run obeys it at once, from audit's last request; `source show` says the
/// delay is robots.txt's.
#[test]
fn a_crawl_delay_raised_in_robots_txt_is_obeyed_by_the_next_run_p8_p14() {
    let body = madrid_body();
    let server = Server::start(move |seen, _| match seen.path.as_str() {
        "/datos.madrid.es/robots.txt" => Reply::ok("User-agent: *\nCrawl-delay: 4\nAllow: /\n"),
        MADRID_JSON => Reply::ok(body.clone()),
        _ => Reply::new(404),
    });
    let dir = workdir("[sources.madrid]\n");
    let mirror = server.url();
    let audit = cityvibe(dir.path(), &["--db", "cityvibe.db", "--mirror", &mirror, "audit", "--source", "madrid", "--json"]);
    assert_eq!(audit.status.code(), Some(1), "a higher Crawl-delay is drift: {}", String::from_utf8_lossy(&audit.stdout));
    let audited = server.requests().len();
    assert_eq!(audited, 3, "robots.txt, tdmrep.json, ai.txt");
    let show: serde_json::Value =
        serde_json::from_slice(&cityvibe(dir.path(), &["--db", "cityvibe.db", "source", "show", "madrid", "--json"]).stdout).unwrap();
    assert_eq!((show["min_delay_secs"].as_f64(), show["delay_rule"].as_str()), (Some(4.0), Some("robots.txt Crawl-delay")), "{show}");
    let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &[]));
    assert_eq!(json_of(&out)["sources"][0]["status"], "ok");
    let seen = server.requests();
    assert_eq!(seen.len(), audited + 1);
    let g = gap(&seen[audited - 1], &seen[audited]);
    eprintln!("Crawl-delay 4 s: the run's request came {g:?} after audit's last");
    assert!(g >= Duration::from_secs(4), "the run asked {g:?} after audit's last request, under robots.txt's 4 s");
}

/// P2: no request carries credentials, whatever URL is
/// given: a `--mirror` with userinfo is sent without it (ureq would make it
/// an Authorization header), and a redirect to a URL carrying userinfo is
/// refused before any request.
#[test]
fn credentials_in_a_url_never_reach_the_wire_p2() {
    let body = madrid_body();
    let server = Server::start(move |seen, _| if seen.path == MADRID_JSON { Reply::ok(body.clone()) } else { Reply::new(404) });
    let dir = workdir("[sources.madrid]\n");
    let mirror = format!("http://user:secret@127.0.0.1:{}/", server.port);
    let out = cityvibe(dir.path(), &run_args(&mirror, "cityvibe.db", &[]));
    assert_eq!(json_of(&out)["sources"][0]["status"], "ok", "{}", String::from_utf8_lossy(&out.stderr));
    let seen = server.requests();
    assert_eq!(seen.len(), 1);
    assert!(seen[0].header("authorization").is_none(), "credentials were sent: {:?}", seen[0].headers);

    let hop = Server::start(|_, _| Reply::new(302).header("Location", "https://user:pw@datos.madrid.es/egob/catalogo/other.json"));
    let dir = workdir("[sources.madrid]\n");
    let out = cityvibe(dir.path(), &run_args(&hop.url(), "cityvibe.db", &[]));
    let s = &json_of(&out)["sources"][0];
    assert_eq!(s["status"], "refused", "{s}");
    assert!(s["message"].as_str().unwrap().contains("credentials"), "{s}");
    assert!(!s["message"].as_str().unwrap().contains("pw@"), "the credentials are not repeated: {s}");
    hop.settle();
    let seen = hop.requests();
    assert_eq!(seen.len(), 1, "the hop was requested: {seen:?}");
    assert!(seen.iter().all(|s| s.header("authorization").is_none()));
}

/// A delay over a day is refused at load with the row and
/// the bound (exit 2), for every command: `1e20` does not panic, and
/// `1000000` does not sleep 11 days.
#[test]
fn a_delay_beyond_a_day_is_refused_at_load_for_every_command_p9() {
    let server = Server::start(|_, _| Reply::ok(madrid_body()));
    for value in ["1e20", "1000000", "86401"] {
        let dir = workdir(&format!("[sources.madrid]\nmin_delay_secs = {value}\n"));
        for args in [run_args(&server.url(), "cityvibe.db", &[]), vec!["source", "list"]] {
            let out = cityvibe(dir.path(), &args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{value} {args:?}: {stderr}");
            assert!(stderr.contains("[sources.madrid] min_delay_secs") && stderr.contains("86400"), "{value}: {stderr}");
        }
    }
    server.settle();
    assert!(server.requests().is_empty());
}
