//! P8, P9 on the wire: each host's delay holds across runs, the operator
//! can slow a source (never speed it up) or restrict its hours, hosts are
//! interleaved on one thread, and `source show` reports the gaps the
//! server saw (P17). Not for backoff (`backoff`).

use super::*;

/// P8: the delay holds across processes: the last request time per host is
/// in the host ledger, so a run started right after another (new store
/// connection, new client, new scheduler) still waits the host's delay.
#[test]
fn a_second_run_right_after_the_first_still_waits_the_delay() {
    let body = feed_body();
    let server = serve(move |_, _| Reply::ok(body.clone()));
    let a = source("twice", "twice.test", 400, &["a.json"]);
    let (_d, db) = fresh_db();
    assert_eq!(report(&run_once(&db, &server, &[a]), "twice").status, "ok");
    assert_eq!(report(&run_once(&db, &server, &[a]), "twice").status, "unchanged");
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(reqs.len(), 2);
    assert_spaced(&to_host(&reqs, "twice.test"), ms(400));
}

/// The boot clock of a simulated clock, as the clock a server stamps
/// arrivals with: the time that passes, whatever the wall clock is set to.
struct BootClockOf(std::sync::Arc<cityvibe::http::SimulatedClock>);

impl Clock for BootClockOf {
    fn now_us(&self) -> i64 {
        self.0.uptime().expect("a simulated clock has a boot clock").us
    }
    fn sleep(&self, d: Duration) {
        self.0.sleep(d);
    }
}

/// P8: the wall clock set forward by 8 s between two runs (NTP, a person)
/// does not let the second ask the host 2 s after the first against its
/// 10 s delay: the host ledger paces by the machine's boot clock too, which
/// no setting of the wall clock moves. The server stamps each arrival by
/// that boot clock: the time that really passed between the two requests.
#[test]
fn a_wall_clock_set_forward_between_two_runs_never_shortens_the_delay_p8() {
    let body = feed_body();
    let sim = common::server::simulated_clock();
    let server = Server::with_clock(std::sync::Arc::new(BootClockOf(sim.clone())), move |_, _| Reply::ok(body.clone()));
    let a = source("stepped", "stepped.test", 10_000, &["a.json"]);
    let (_d, db) = fresh_db();
    let first = run_on(&db, &server.url(), &*sim, &[a], Config::enable_all(), Limits::default());
    assert_eq!(report(&first, "stepped").status, "ok");
    sim.set_wall(8_000);
    let second = run_on(&db, &server.url(), &*sim, &[a], Config::enable_all(), Limits::default());
    assert_eq!(report(&second, "stepped").status, "unchanged");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    let gap = reqs[1].at_ms - reqs[0].at_ms;
    assert!(gap >= 10_000, "two requests {gap} ms apart by the time that passed, under the host's 10 s (P8)");
}

/// P9: sources.toml `min_delay_secs` makes a source slower (0.5 s over the
/// adapter's 0.1 s, on the wire), and never faster: a value under the
/// adapter's minimum is refused naming that minimum, and even if a caller
/// skipped validation the adapter's minimum still holds.
#[test]
fn config_delay_can_slow_a_source_never_speed_it_up() {
    let body = feed_body();
    let server = serve(move |path, _| if path.ends_with("/missing.json") { Reply::new(404) } else { Reply::ok(body.clone()) });
    let slow = source("slow", "slow.test", 100, &["missing.json", "a.json"]);
    let fast = source("fast", "fast.test", 300, &["missing.json", "a.json"]);
    let adapters: Vec<&'static dyn Adapter> = vec![slow, fast];
    let config = config_with(&[("slow", row(Some(0.5), None)), ("fast", row(Some(0.05), None))]);
    let err = config.validate(&adapters).unwrap_err().to_string();
    assert!(err.contains("fast") && err.contains("minimum of 0.3 s"), "{err}");
    let (_d, db) = fresh_db();
    let r = run_with(&db, &server, &adapters, config, Limits::default());
    let reqs = server.requests();
    assert_manners(&reqs);
    let slow_seen = to_host(&reqs, "slow.test");
    assert_eq!(slow_seen.len(), 2);
    assert_spaced(&slow_seen, ms(500));
    let fast_seen = to_host(&reqs, "fast.test");
    assert_eq!(fast_seen.len(), 2);
    assert_spaced(&fast_seen, ms(300));
    assert_eq!(report(&r, "slow").status, "ok");
}

/// P9: `hours = "HH:MM-HH:MM"` (Europe/Madrid): outside the window the source
/// is `skipped` and its host sees no request; inside, it is fetched.
#[test]
fn hours_window_outside_means_skipped_and_no_request() {
    let body = feed_body();
    let server = serve(move |_, _| Reply::ok(body.clone()));
    let now = jiff::Timestamp::now().in_tz("Europe/Madrid").unwrap();
    let minute = now.hour() as i32 * 60 + now.minute() as i32;
    let hhmm = |m: i32| {
        let m = m.rem_euclid(1440);
        format!("{:02}:{:02}", m / 60, m % 60)
    };
    let outside = format!("{}-{}", hhmm(minute + 120), hhmm(minute + 240));
    let inside = format!("{}-{}", hhmm(minute - 120), hhmm(minute + 120));
    let night = source("night", "night.test", 100, &["a.json"]);
    let day = source("day", "day.test", 100, &["a.json"]);
    let config = config_with(&[("night", row(None, Some(&outside))), ("day", row(None, Some(&inside)))]);
    let (_d, db) = fresh_db();
    let r = run_with(&db, &server, &[night, day], config, Limits::default());
    let reqs = server.requests();
    assert_manners(&reqs);
    assert!(to_host(&reqs, "night.test").is_empty());
    assert_eq!(to_host(&reqs, "day.test").len(), 1);
    let s = report(&r, "night");
    assert_eq!(s.status, "skipped");
    assert!(s.message.contains(&outside), "{}", s.message);
    assert_eq!(report(&r, "day").status, "ok");
}
/// P9: the delay is read before every request: raised in
/// sources.toml during a run, the next request (madrid's CSV fallback, after
/// its JSON failed) waits the new 4 s, not the 2 s the run started with.
/// (P9 through the binary in real time:
/// `politeness::promises::a_window_closing_between_a_429_and_its_retry_stops_the_retry_p9`.)
#[test]
fn a_delay_raised_during_a_run_holds_for_its_next_request_p9() {
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("sources.toml");
    std::fs::write(&config_path, "[sources.madrid]\n").unwrap();
    let csv = std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv")).unwrap();
    let raise = config_path.clone();
    let server = serve(move |path, _| {
        if path.ends_with(".json") {
            std::fs::write(&raise, "[sources.madrid]\nmin_delay_secs = 4\n").unwrap();
            Reply::new(500)
        } else {
            Reply::ok(csv.clone())
        }
    });
    let madrid = cityvibe::adapters::by_id("madrid").unwrap();
    let (_d, db) = fresh_db();
    let mut store = Store::open(&db).unwrap();
    let client = Client::new(Some(Mirror::parse(&server.url()).unwrap()), Limits::default());
    let ledger = common::ledger_beside(&db);
    let config = Config::load(&config_path, &[madrid]).unwrap();
    let opts = RunOptions {
        adapters: &[madrid],
        config,
        config_path: Some(config_path),
        only: vec![],
        client: &client,
        ledger: &ledger,
        clock: server.clock(),
        force: true,
    };
    let r = run(&mut store, opts).unwrap();
    assert_eq!(report(&r, "madrid").status, "ok");
    let reqs = server.requests();
    assert_manners(&reqs);
    let seen: Vec<&Seen> = reqs.iter().collect();
    assert!(paths(&seen).iter().map(|p| p.rsplit('.').next().unwrap()).eq(["json", "csv"]), "{:?}", paths(&seen));
    assert_eq!(gaps(&seen), [Duration::from_secs(4)], "the next request after the delay was raised to 4 s");
}

/// P8, P14, rule 2: the Crawl-delay read in robots.txt
/// paces the same audit's next requests: 3 s asked, 3 s kept (madrid's own
/// 2 s is not enough); 600 s asked, beyond what a command waits: the rest
/// of the audit is not sent, and the audit does not wait for it. (The
/// Crawl-delay obeyed by the next run, through the binary in real time:
/// `politeness::promises::a_crawl_delay_raised_in_robots_txt_is_obeyed_by_the_next_run_p8_p14`.)
#[test]
fn audit_is_paced_by_the_crawl_delay_it_reads_p8_p14() {
    let madrid = cityvibe::adapters::by_id("madrid").unwrap();
    for (secs, sent) in [(3u64, 3usize), (600, 1)] {
        let robots = format!("User-agent: *\nCrawl-delay: {secs}\n");
        let server = serve(move |path, _| if path.ends_with("/robots.txt") { Reply::ok(robots.clone()) } else { Reply::new(404) });
        let (_d, db) = fresh_db();
        let started = server.clock().now_ms();
        audit_with(&db, &server, &[madrid], &Config::enable_all());
        let seen = server.requests();
        assert_manners(&seen);
        assert_eq!(seen.len(), sent, "Crawl-delay {secs}: {:?}", paths(&seen.iter().collect::<Vec<_>>()));
        assert_spaced(&seen.iter().collect::<Vec<_>>(), Duration::from_secs(secs));
        let waited = server.clock().now_ms() - started;
        assert!(waited < 60_000, "Crawl-delay {secs}: the audit waited {waited} ms");
    }
}

/// The fallback and P8: madrid's JSON fails (500), its CSV is an HTML
/// error page with status 200, its XML works: three requests, each exactly
/// madrid's 2 s after the last, and the XML's events stored.
#[test]
fn fallback_json_csv_xml_keeps_the_host_delay() {
    let sample = |ext: &str| {
        std::fs::read(common::sample(&format!("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.{ext}"))).unwrap()
    };
    let xml = sample("xml");
    let server = serve(move |path, _| match path.rsplit('.').next().unwrap() {
        "json" => Reply::new(500),
        "csv" => Reply::ok("<html><body>Servicio no disponible</body></html>").header("Content-Type", "text/html"),
        _ => Reply::ok(xml.clone()),
    });
    let madrid = cityvibe::adapters::by_id("madrid").unwrap();
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &[madrid]);
    let s = report(&r, "madrid");
    assert_eq!((s.status.as_str(), s.requests, s.added), ("ok", 3, 8), "{s:?}");
    let reqs = server.requests();
    assert_manners(&reqs);
    let seen: Vec<&Seen> = reqs.iter().collect();
    assert!(paths(&seen).iter().map(|p| p.rsplit('.').next().unwrap()).eq(["json", "csv", "xml"]), "{:?}", paths(&seen));
    assert_spaced(&seen, Duration::from_secs(2));
}

// ---------------------------------------------------------------- P8 interleaving

/// P8: all hosts interleaved on one thread: three hosts (200, 300, 400 ms
/// delays, four requests each) finish within the slowest host's own
/// schedule (1.2 s), not the sum of the three (2.7 s), while every gap to
/// each host is its delay, never less. Set-Cookie is ignored (P2).
#[test]
fn hosts_are_interleaved_and_each_keeps_its_delay() {
    let body = feed_body();
    let server = serve(move |path, _| {
        if path.ends_with("/d.json") {
            Reply::ok(body.clone()).header("Set-Cookie", "session=abc; Path=/")
        } else {
            Reply::new(404).header("Set-Cookie", "tracker=1")
        }
    });
    let names = ["a.json", "b.json", "c.json", "d.json"];
    let hosts = [("one", "one.test", 200u64), ("two", "two.test", 300), ("three", "three.test", 400)];
    let adapters: Vec<&'static dyn Adapter> = hosts.iter().map(|(id, h, d)| source(id, h, *d, &names) as &dyn Adapter).collect();
    let (_d, db) = fresh_db();
    let r = run_once(&db, &server, &adapters);
    let reqs = server.requests();
    assert_manners(&reqs);
    for (id, host, delay) in hosts {
        let seen = to_host(&reqs, host);
        assert_eq!(seen.len(), 4, "{host}");
        assert_spaced(&seen, ms(delay));
        assert_eq!(report(&r, id).status, "ok");
    }
    // Interleaved: the hosts' requests are mixed, not one host after another.
    let order: Vec<&str> = reqs.iter().map(|s| s.path.split('/').nth(1).unwrap()).collect();
    assert_ne!(order[..4], ["one.test"; 4], "{order:?}");
    // No host waits for another's schedule: the first three requests go to
    // the three hosts, and the run is as long as the slowest host's schedule.
    let mut first_three = order[..3].to_vec();
    first_three.sort();
    assert_eq!(first_three, ["one.test", "three.test", "two.test"], "{order:?}");
    assert_eq!(gap(&reqs[0], reqs.last().unwrap()), ms(3 * 400), "{order:?}");
}
// ---------------------------------------------------------------- P17 source show

/// P17: `cityvibe source show ID --json` reports, from the fetch log, what
/// the server saw: requests per day, the smallest gap between two requests
/// to the host, status counts, the 304 share and the bytes sent.
#[test]
fn source_show_reports_what_the_server_saw() {
    let body = feed_body();
    let len = body.len() as u64;
    let server = serve(move |path, n| {
        if path.ends_with("/gone.json") {
            Reply::new(404)
        } else if n == 0 {
            Reply::ok(body.clone()).header("ETag", "\"x\"")
        } else {
            Reply::new(304)
        }
    });
    // The real madrid id and host, so the binary's `source show madrid` reads these rows.
    let m = source("madrid", "datos.madrid.es", 150, &["gone.json", "a.json"]);
    let (dir, db) = fresh_db();
    for _ in 0..3 {
        run_once(&db, &server, &[m]);
    }
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(reqs.len(), 6);
    let server_min_gap = gaps(&reqs.iter().collect::<Vec<_>>()).into_iter().min().unwrap();
    assert!(server_min_gap >= ms(150));

    std::fs::write(dir.path().join("sources.toml"), "").unwrap();
    let db_arg = db.to_str().unwrap();
    let out = common::cityvibe(dir.path(), &["--db", db_arg, "--config", "sources.toml", "source", "show", "madrid", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["fetch_log_30_days"];
    assert_eq!(s["requests"], 6);
    let per_day: u64 = s["requests_per_day"].as_array().unwrap().iter().map(|d| d[1].as_u64().unwrap()).sum();
    assert_eq!(per_day, 6);
    let statuses: HashMap<String, u64> =
        s["statuses"].as_array().unwrap().iter().map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap())).collect();
    assert_eq!(statuses, HashMap::from([("404".to_string(), 3), ("200".to_string(), 1), ("304".to_string(), 2)]));
    assert!((s["not_modified_share"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-9);
    assert_eq!(s["bytes"], len);
    let min_gap = s["min_gap_ms"].as_i64().unwrap();
    assert!(min_gap >= 150, "{min_gap}");
    // The smallest gap is the fetch log's own (each request timed before it
    // is sent), the server's clock above proving the same floor; the two
    // differ by scheduling noise only, so they are not held to each other.
    let logged: Vec<i64> = Store::open(&db).unwrap().fetch_log("datos.madrid.es", 0).unwrap().iter().map(|r| r.started_ms).collect();
    assert_eq!(Some(min_gap), logged.windows(2).map(|w| w[1] - w[0]).min(), "{logged:?}");

    let out = common::cityvibe(dir.path(), &["--db", db_arg, "--config", "sources.toml", "source", "show", "madrid"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("requests 6") && text.contains("304 share 33") && text.contains("smallest gap"), "{text}");
}
