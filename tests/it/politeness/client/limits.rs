//! The client's caps: requests per host per day (P7, P8), body size, and
//! the total and read timeouts. Not for delays (`pacing`).

use super::*;
use cityvibe::http::SimulatedClock;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Daily cap (P7, P8): at most `daily_cap` requests per host per day, counted
/// across runs (and processes and databases) in the host ledger; a request that timed out still reached the
/// host and counts. With a cap of 3: a 200, a timeout, a 200, then the fourth
/// run sends nothing and says why.
#[test]
fn daily_cap_counts_every_request_across_runs() {
    let body = feed_body();
    let server = serve(move |_, n| match n {
        1 => Reply { trickle: Some(Duration::from_secs(3)), ..Reply::ok(body.clone()) },
        _ => Reply::ok(body.clone()),
    });
    let a = variant(source("capd", "capd.test", 100, &["a.json"]), Some(3), &[]);
    let (_d, db) = fresh_db();
    let limits = Limits { read_timeout: ms(300), total_timeout: Duration::from_secs(2), ..Limits::default() };
    let statuses: Vec<String> = (0..4)
        .map(|_| report(&run_with(&db, &server, &[a], Config::enable_all(), limits.clone()), "capd").clone())
        .map(|s| s.status.to_string())
        .collect();
    assert_eq!(statuses[..3], ["ok", "failed", "unchanged"]);
    assert_eq!(statuses[3], "skipped");
    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(reqs.len(), 3, "the cap of 3 held across runs");
    let st = Store::open(&db).unwrap().source_state("capd").unwrap();
    assert!(st.last_message.unwrap_or_default().contains("daily cap of 3"));
}

/// Body cap: a body over `Limits::max_body_bytes` is refused when announced
/// (Content-Length) and cut off while streaming when not announced: the
/// source is `failed`, nothing is stored, and the server could not push more
/// than a bounded amount before the client hung up (no memory blow-up).
#[test]
fn body_over_the_cap_is_aborted() {
    let limits = Limits { max_body_bytes: 4096, ..Limits::default() };
    // Announced: the sample feed is 15 KB.
    let body = feed_body();
    assert!(body.len() > 4096);
    let server = serve(move |_, _| Reply::ok(body.clone()));
    let a = source("big", "big.test", 100, &["a.json"]);
    let (_d, db) = fresh_db();
    let r = run_with(&db, &server, &[a], Config::enable_all(), limits.clone());
    assert_eq!(server.requests().len(), 1);
    let s = report(&r, "big");
    assert_eq!(s.status, "failed", "{s:?}");
    assert!(s.message.contains("cap"), "{}", s.message);
    assert_eq!(events(&db, "big"), 0);

    // Not announced: a raw server streams until the client hangs up.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let written = Arc::new(AtomicU64::new(0));
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let (w2, s2) = (written.clone(), seen.clone());
    // Told when the server stops pushing: the client hung up (or it pushed a GB).
    let (stopped, pushing_ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            s2.lock().unwrap().push(line.trim().to_string());
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                    break;
                }
            }
            let mut out = stream;
            out.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[").unwrap();
            let chunk = vec![b' '; 64 * 1024];
            for _ in 0..(1024 * 1024 * 1024 / chunk.len()) {
                if out.write_all(&chunk).is_err() {
                    break;
                }
                w2.fetch_add(chunk.len() as u64, Ordering::SeqCst);
            }
            let _ = stopped.send(());
        }
    });
    let b = source("stream", "stream.test", 100, &["a.json"]);
    let r = run_on(&db, &format!("http://127.0.0.1:{port}"), &SimulatedClock::starting_now(), &[b], Config::enable_all(), limits);
    let s = report(&r, "stream");
    assert_eq!(s.status, "failed", "{s:?}");
    assert!(s.message.contains("cap"), "{}", s.message);
    assert_eq!(seen.lock().unwrap().as_slice(), ["GET /stream.test/feeds/a.json HTTP/1.1"]);
    pushing_ended.recv_timeout(Duration::from_secs(60)).expect("the server still pushes: the client did not hang up");
    let pushed = written.load(Ordering::SeqCst);
    assert!(pushed < 64 * 1024 * 1024, "the client kept reading: the server pushed {pushed} bytes for a 4 KB cap");
    assert_eq!(events(&db, "stream"), 0);
}

/// Timeouts: a server that trickles its body a byte at a time is cut off by
/// the total timeout; one that stalls mid-body is cut off by the read
/// timeout. Both sources are `failed` ("timed out"), each after one request,
/// and the message names the timeout that fired (ureq's own word for it),
/// so no stopwatch bound is needed to tell one from the other.
#[test]
fn trickling_and_stalling_servers_are_cut_off() {
    let body = feed_body();
    let server = serve(move |path, _| {
        let pause = if path.starts_with("/trickle.test/") { ms(20) } else { Duration::from_secs(30) };
        Reply { trickle: Some(pause), ..Reply::ok(body.clone()) }
    });
    // Total: 1.5 s; a byte every 20 ms never trips the 1 s read timeout.
    let trickle = source("trickle", "trickle.test", 100, &["a.json"]);
    let (_d, db) = fresh_db();
    let limits = Limits { read_timeout: Duration::from_secs(1), total_timeout: ms(1500), ..Limits::default() };
    let started = Instant::now();
    let r = run_with(&db, &server, &[trickle], Config::enable_all(), limits);
    let took = started.elapsed();
    assert!(took >= ms(1400), "cut off after {took:?}, before the total timeout");
    let s = report(&r, "trickle");
    assert_eq!(s.status, "failed", "{s:?}");
    assert!(s.message.contains("timed out") && s.message.contains("global"), "{}", s.message);

    // Read: a byte, then nothing for 30 s; the read timeout is 300 ms.
    let stall = source("stall", "stall.test", 100, &["a.json"]);
    let limits = Limits { read_timeout: ms(300), total_timeout: Duration::from_secs(20), ..Limits::default() };
    let started = Instant::now();
    let r = run_with(&db, &server, &[stall], Config::enable_all(), limits);
    let took = started.elapsed();
    assert!(took >= ms(300), "cut off after {took:?}, before the read timeout");
    let s = report(&r, "stall");
    assert_eq!(s.status, "failed", "{s:?}");
    assert!(s.message.contains("timed out") && s.message.contains("per read"), "{}", s.message);
    assert!(!s.message.contains("global"), "{}", s.message);

    let reqs = server.requests();
    assert_manners(&reqs);
    assert_eq!(to_host(&reqs, "trickle.test").len(), 1);
    assert_eq!(to_host(&reqs, "stall.test").len(), 1);
}
