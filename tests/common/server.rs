//! A real HTTP/1.1 server on 127.0.0.1 for the tests: a thread per
//! connection, a handler that writes a raw response, and a record of every
//! request received (arrival time, method, path, headers) for the tests to
//! assert on. No async runtime, no mock of our own client. A test that
//! asserts nothing more was asked waits for [`Server::settle`], not a pause.
//! A server on simulated time ([`Server::simulated`]) stamps each arrival
//! with the clock the run under test keeps its rules in, so the gaps it saw
//! are the politeness rules' own, in milliseconds of simulated time.

use cityvibe::http::{Clock, SimulatedClock, SystemClock};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub at: Instant,
    /// When it arrived by the server's clock, in ms since the epoch (the
    /// simulated time, on a [`Server::simulated`]).
    pub at_ms: i64,
    pub method: String,
    /// Path and query as requested (with `--mirror`, `/HOST/PATH?Q`).
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The request body (a form posted to a translation server, say).
    pub body: Vec<u8>,
}

impl Seen {
    /// Every value of a header (case-insensitive name).
    pub fn header_all(&self, name: &str) -> Vec<&str> {
        self.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect()
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.header_all(name).first().copied()
    }
}

/// What to answer.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Send the body one byte at a time with this pause (a trickling server).
    pub trickle: Option<Duration>,
    /// Reset the connection (SO_LINGER 0, then close) once the body is sent:
    /// a server or a middlebox that cuts the line mid-answer.
    pub reset: bool,
}

impl Reply {
    pub fn new(status: u16) -> Reply {
        Reply { status, headers: vec![], body: vec![], trickle: None, reset: false }
    }
    pub fn ok(body: impl Into<Vec<u8>>) -> Reply {
        Reply { body: body.into(), ..Reply::new(200) }
    }
    pub fn header(mut self, k: &str, v: &str) -> Reply {
        self.headers.push((k.into(), v.into()));
        self
    }
}

type Handler = dyn Fn(&Seen, usize) -> Reply + Send + Sync;

/// The clock a server stamps arrivals with: shared with the run under test.
pub type SharedClock = Arc<dyn Clock + Send + Sync>;

/// A simulated clock starting now, on a whole second (so that an HTTP-date,
/// which names whole seconds, falls on a millisecond the rules can keep
/// exactly), for a [`Server::with_clock`] whose handler reads it too.
pub fn simulated_clock() -> Arc<SimulatedClock> {
    let now = SystemClock.now_us();
    Arc::new(SimulatedClock::at_us(now - now.rem_euclid(1_000_000)))
}

/// The running server; it stops when the test process ends.
pub struct Server {
    pub port: u16,
    log: Arc<Mutex<Vec<Seen>>>,
    intake: Arc<Intake>,
    clock: SharedClock,
}

/// What the accept loop has taken in: the client ports of the connections
/// accepted, in order, and how many of them are not yet in the log (nor
/// closed without a request). [`Server::settle`] waits on it.
#[derive(Default)]
struct Intake {
    state: Mutex<(Vec<u16>, usize)>,
    changed: Condvar,
}

impl Intake {
    fn accepted(&self, stream: &TcpStream) {
        let mut s = self.state.lock().unwrap();
        if let Ok(peer) = stream.peer_addr() {
            s.0.push(peer.port());
        }
        s.1 += 1;
        self.changed.notify_all();
    }

    fn done(&self) {
        self.state.lock().unwrap().1 -= 1;
        self.changed.notify_all();
    }

    /// Wait until `until` holds of the state (or panic after `limit`).
    fn wait(&self, what: &str, until: impl Fn(&(Vec<u16>, usize)) -> bool) {
        let limit = Duration::from_secs(20);
        let s = self.state.lock().unwrap();
        let (s, timeout) = self.changed.wait_timeout_while(s, limit, |s| !until(s)).unwrap();
        drop(s);
        assert!(!timeout.timed_out(), "the test server did not settle in {limit:?}: {what}");
    }
}

/// Marks one accepted connection done when it is logged or ends, once.
struct Taken<'a>(Option<&'a Intake>);

impl Taken<'_> {
    fn done(&mut self) {
        if let Some(intake) = self.0.take() {
            intake.done();
        }
    }
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        self.done();
    }
}

impl Server {
    /// Start a server whose handler gets each request and its index (0-based).
    pub fn start(handler: impl Fn(&Seen, usize) -> Reply + Send + Sync + 'static) -> Server {
        Server::with_clock(Arc::new(SystemClock), handler)
    }

    /// A server on simulated time: it stamps arrivals with a new
    /// [`SimulatedClock`] (starting now, on a whole second), which the run
    /// under test is to keep its rules in ([`Server::clock`]).
    pub fn simulated(handler: impl Fn(&Seen, usize) -> Reply + Send + Sync + 'static) -> Server {
        Server::with_clock(simulated_clock(), handler)
    }

    /// A server stamping arrivals with `clock`.
    pub fn with_clock(clock: SharedClock, handler: impl Fn(&Seen, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let log: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let intake: Arc<Intake> = Arc::default();
        let handler: Arc<Handler> = Arc::new(handler);
        let (l2, i2, c2) = (log.clone(), intake.clone(), clock.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                i2.accepted(&stream);
                let (log, handler, intake, clock) = (l2.clone(), handler.clone(), i2.clone(), c2.clone());
                std::thread::spawn(move || serve(stream, &log, &*handler, &*clock, &mut Taken(Some(&intake))));
            }
        });
        Server { port, log, intake, clock }
    }

    /// The clock this server stamps arrivals with; a run on simulated time
    /// keeps its rules in it.
    pub fn clock(&self) -> &dyn Clock {
        &*self.clock
    }

    /// Wait until every connection made to the server before this call is
    /// in the log (or closed without a request): what a client that has
    /// ended sent is then all in [`Server::requests`]. A connection of our
    /// own goes through the accept queue behind all earlier ones (a FIFO);
    /// once it is accepted and no accepted connection is still being read,
    /// nothing sent earlier can arrive later. The observable event a test
    /// that asserts "no request was sent" waits for, instead of a pause.
    pub fn settle(&self) {
        let before = self.intake.state.lock().unwrap().0.len();
        let marker = TcpStream::connect(("127.0.0.1", self.port)).expect("connect to the test server");
        let port = marker.local_addr().unwrap().port();
        self.intake.wait("our own connection was not accepted", |s| s.0[before..].contains(&port));
        drop(marker);
        self.intake.wait("a connection is still being read", |s| s.1 == 0);
    }

    /// The base URL to give `--mirror`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.log.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Seen>>, handler: &Handler, clock: &dyn Clock, taken: &mut Taken<'_>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let (at, at_ms) = (Instant::now(), clock.now_ms());
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let len: usize = headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("content-length")).and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; len];
    let _ = reader.read_exact(&mut body);
    let seen = Seen { at, at_ms, method, path, headers, body };
    let index = {
        let mut l = log.lock().unwrap();
        l.push(seen.clone());
        l.len() - 1
    };
    taken.done();
    let reply = handler(&seen, index);
    let mut out = stream;
    let mut head = format!("HTTP/1.1 {} X\r\nConnection: close\r\n", reply.status);
    let has_len = reply.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-length"));
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !has_len && reply.status != 304 {
        head.push_str(&format!("Content-Length: {}\r\n", reply.body.len()));
    }
    head.push_str("\r\n");
    if out.write_all(head.as_bytes()).is_err() {
        return;
    }
    match reply.trickle {
        None => {
            let _ = out.write_all(&reply.body);
        }
        Some(pause) => {
            for b in &reply.body {
                if out.write_all(&[*b]).is_err() {
                    return;
                }
                let _ = out.flush();
                std::thread::sleep(pause);
            }
        }
    }
    let _ = out.flush();
    if reply.reset {
        reset(&out);
    }
}

/// Make the close of `stream` a reset (RST) instead of an orderly end (FIN).
fn reset(stream: &TcpStream) {
    use std::os::fd::AsRawFd;
    let linger = libc::linger { l_onoff: 1, l_linger: 0 };
    // SAFETY: a valid socket and a `linger` of the size given.
    let rc = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&linger as *const libc::linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        )
    };
    assert_eq!(rc, 0, "SO_LINGER: {}", std::io::Error::last_os_error());
}
