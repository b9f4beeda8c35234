//! A real HTTP/1.1 server on 127.0.0.1 for the tests: a thread per
//! connection, a handler that writes a raw response, and a record of every
//! request received (arrival time, method, path, headers) for the tests to
//! assert on. No async runtime, no mock of our own client.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub at: Instant,
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
}

impl Reply {
    pub fn new(status: u16) -> Reply {
        Reply { status, headers: vec![], body: vec![], trickle: None }
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

/// The running server; it stops when the test process ends.
pub struct Server {
    pub port: u16,
    log: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    /// Start a server whose handler gets each request and its index (0-based).
    pub fn start(handler: impl Fn(&Seen, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let log: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let handler: Arc<Handler> = Arc::new(handler);
        let l2 = log.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (log, handler) = (l2.clone(), handler.clone());
                std::thread::spawn(move || serve(stream, &log, &*handler));
            }
        });
        Server { port, log }
    }

    /// The base URL to give `--mirror`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.log.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Seen>>, handler: &Handler) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let at = Instant::now();
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
    let seen = Seen { at, method, path, headers, body };
    let index = {
        let mut l = log.lock().unwrap();
        l.push(seen.clone());
        l.len() - 1
    };
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
}
