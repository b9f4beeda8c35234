//! One request on the wire: the only owner of a `ureq::Agent`.
//!
//! Exact User-Agent (P1), GET only, no cookie store, no Authorization (P2),
//! conditional headers (P12), ureq's own redirect following off (P13), and
//! a cap on time and body size. Bodies are spooled to an anonymous
//! temporary file while digested, so memory does not grow with a feed.

use super::mirror::{Mirror, Target};
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, Write};
use std::time::Duration;
use url::Url;
use xxhash_rust::xxh3::Xxh3Default;

/// The one User-Agent every request carries (P1).
pub const USER_AGENT: &str = "CityVibeBot/1.0 (+https://cityvibe.guide/bot-info)";

/// Caps on one exchange.
#[derive(Debug, Clone)]
pub struct Limits {
    pub connect_timeout: Duration,
    /// No byte for this long while reading: the server is cut off.
    pub read_timeout: Duration,
    /// The whole exchange, body included.
    pub total_timeout: Duration,
    pub max_body_bytes: u64,
    pub max_redirects: u32,
    /// Tries per URL on 429/503 before giving up.
    pub max_tries: u32,
    /// The longest a run waits for a host (a Retry-After, a backoff, a delay):
    /// beyond it the host is skipped for the run and, for a Retry-After or a
    /// backoff, remembered as its not-before time (P10).
    pub max_wait: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connect_timeout: Duration::from_secs(15),
            read_timeout: Duration::from_secs(30),
            total_timeout: Duration::from_secs(300),
            max_body_bytes: 512 * 1024 * 1024,
            max_redirects: 3,
            max_tries: 4,
            max_wait: Duration::from_secs(300),
        }
    }
}

/// A response body, spooled and digested.
#[derive(Debug)]
pub struct Body {
    file: File,
    pub len: u64,
    /// XXH3-128 of the body in hex: tells the body taken in last time
    /// (P12). It signs nothing; whoever needs a SHA-256 (the audit's
    /// robots.txt) computes it from the body.
    pub digest: String,
}

impl Body {
    /// Read the body from its start.
    pub fn reader(&mut self) -> io::Result<BufReader<&mut File>> {
        self.file.rewind()?;
        Ok(BufReader::with_capacity(256 * 1024, &mut self.file))
    }

    /// Spool a reader into a body, stopping with an error past `max` bytes.
    pub fn spool(mut from: impl Read, max: u64) -> Result<Body, SpoolError> {
        let mut file = tempfile::tempfile().map_err(SpoolError::Spool)?;
        let mut hasher = Xxh3Default::new();
        let mut buf = vec![0u8; 64 * 1024];
        let mut len = 0u64;
        loop {
            let n = match from.read(&mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(SpoolError::Read(e)),
            };
            if n == 0 {
                break;
            }
            len += n as u64;
            if len > max {
                return Err(SpoolError::TooLarge(max));
            }
            hasher.update(&buf[..n]);
            file.write_all(&buf[..n]).map_err(SpoolError::Spool)?;
        }
        let digest = format!("{:032x}", hasher.digest128());
        Ok(Body { file, len, digest })
    }
}

/// Why a body could not be taken in.
#[derive(Debug)]
pub enum SpoolError {
    /// Reading it (from the wire, or a mirror's file) failed.
    Read(io::Error),
    /// It went past the cap of this many bytes.
    TooLarge(u64),
    /// Our own temporary file could not be made or written (the local disk).
    Spool(io::Error),
}

impl std::fmt::Display for SpoolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpoolError::Read(e) => write!(f, "{e}"),
            SpoolError::TooLarge(max) => write!(f, "body exceeds the cap of {max} bytes"),
            SpoolError::Spool(e) => write!(f, "writing the body to a temporary file: {e}"),
        }
    }
}

impl std::error::Error for SpoolError {}

/// What came back from one request.
#[derive(Debug)]
pub struct Exchange {
    pub status: u16,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub location: Option<String>,
    pub retry_after: Option<String>,
    pub content_type: Option<String>,
    pub tdm_reservation: Vec<String>,
    pub x_robots_tag: Vec<String>,
    /// Present for 2xx responses only.
    pub body: Option<Body>,
    /// Bytes received on the wire for this exchange.
    pub bytes: u64,
}

/// Why no response came back.
#[derive(Debug, Clone, PartialEq)]
pub enum WireError {
    Timeout(String),
    TooLarge(String),
    /// The answer began but its body could not be read to its end; the
    /// kind says why (no error dropped into one "other").
    Body(BodyFault, String),
    /// The host's name could not be resolved (DNS, or no network at all).
    NoHost(String),
    Other(String),
}

/// How a request whose host name could not be resolved is said, so that a
/// run can tell "the network or DNS is down" from a host's own failure.
pub const UNRESOLVED: &str = "the host name could not be resolved";

/// Why a body could not be read to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyFault {
    /// The connection ended before the body's announced end: closed, reset
    /// or aborted (ureq reads a reset mid-body as an early close, so the
    /// two are one kind).
    Cut,
    /// Its content or transfer encoding (gzip, chunks) could not be decoded.
    Decoding,
    /// Our own temporary file could not be written (the local disk).
    Spool,
    /// Anything else the reader said.
    Other,
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Timeout(s) => write!(f, "timed out: {s}"),
            WireError::TooLarge(s) => write!(f, "{s}"),
            WireError::Body(kind, s) => {
                let what = match kind {
                    BodyFault::Cut => "the connection was closed or reset before the body's end",
                    BodyFault::Decoding => "the body's encoding could not be decoded",
                    BodyFault::Spool => "the body could not be kept on the local disk",
                    BodyFault::Other => "failed",
                };
                write!(f, "reading the body: {what} ({s})")
            }
            WireError::NoHost(s) => write!(f, "{UNRESOLVED} ({s})"),
            WireError::Other(s) => write!(f, "{s}"),
        }
    }
}

/// A body that could not be taken in, by kind: a cap, a timeout, a cut or
/// reset connection, an encoding that does not decode, our own disk.
fn body_error(e: SpoolError) -> WireError {
    match e {
        SpoolError::TooLarge(max) => WireError::TooLarge(format!("body over the cap of {max} bytes")),
        SpoolError::Spool(e) => WireError::Body(BodyFault::Spool, e.to_string()),
        // ureq wraps its own errors in an `io::Error`; this unwraps them.
        SpoolError::Read(e) => match ureq::Error::from(e) {
            ureq::Error::Timeout(t) => WireError::Timeout(format!("reading the body: {t}")),
            ureq::Error::BodyExceedsLimit(n) => WireError::TooLarge(format!("body over the cap of {n} bytes")),
            e @ (ureq::Error::Decompress(..) | ureq::Error::Protocol(_)) => WireError::Body(BodyFault::Decoding, e.to_string()),
            ureq::Error::Io(e) => match e.kind() {
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => WireError::Timeout(format!("reading the body: {e}")),
                io::ErrorKind::ConnectionReset
                | io::ErrorKind::ConnectionAborted
                | io::ErrorKind::BrokenPipe
                | io::ErrorKind::UnexpectedEof => WireError::Body(BodyFault::Cut, e.to_string()),
                io::ErrorKind::InvalidData => WireError::Body(BodyFault::Decoding, e.to_string()),
                _ => WireError::Body(BodyFault::Other, e.to_string()),
            },
            e => WireError::Body(BodyFault::Other, e.to_string()),
        },
    }
}

/// The wire: ureq for http(s), or a mirror.
pub struct Client {
    agent: ureq::Agent,
    mirror: Option<Mirror>,
    pub limits: Limits,
}

impl Client {
    pub fn new(mirror: Option<Mirror>, limits: Limits) -> Client {
        let config = ureq::Agent::config_builder()
            .user_agent(USER_AGENT)
            .max_redirects(0)
            .http_status_as_error(false)
            .proxy(None)
            .timeout_connect(Some(limits.connect_timeout))
            .timeout_recv_response(Some(limits.read_timeout))
            .timeout_per_read(Some(limits.read_timeout))
            .timeout_global(Some(limits.total_timeout))
            .build();
        Client { agent: config.new_agent(), mirror, limits }
    }

    /// The name `host`'s requests are booked under, in the host ledger and
    /// the fetch log: the host itself, but `folder:HOST` for a folder
    /// mirror, whose reads never leave the machine (they keep their own
    /// delays and cap, never spend the real host's, and never count as
    /// requests to it, `holdings`), and the mirror's own host for a mirror
    /// on another machine, which every request through it reaches whatever
    /// feed it stands in for (P8).
    pub fn books(&self, host: &str) -> String {
        match &self.mirror {
            Some(Mirror::Dir(_)) => format!("folder:{host}"),
            Some(m) => m.remote_host().unwrap_or(host).to_string(),
            None => host.to_string(),
        }
    }

    /// Whether requests go to a mirror on another machine (`--mirror
    /// https://staging.example`): one host for every source, paced as one.
    pub fn reads_remote_mirror(&self) -> bool {
        self.remote_mirror_host().is_some()
    }

    /// The host of the mirror on another machine requests go to, if any.
    pub fn remote_mirror_host(&self) -> Option<String> {
        self.mirror.as_ref().and_then(|m| m.remote_host()).map(str::to_string)
    }

    /// Whether requests go to a mirror whose reads never leave the machine
    /// (a folder, a loopback base): the only runs that may read a source
    /// whose robots.txt review is pending (P3, P14).
    pub fn reads_local_mirror(&self) -> bool {
        self.mirror.as_ref().is_some_and(Mirror::stays_on_this_machine)
    }

    /// Send one GET for `url` (already checked against the manifest), with
    /// conditional headers when given. Redirects come back as they are.
    pub fn get(&self, url: &Url, if_none_match: Option<&str>, if_modified_since: Option<&str>) -> Result<Exchange, WireError> {
        let target = match &self.mirror {
            Some(m) => m.map(url),
            None => Target::Url(url.to_string()),
        };
        match target {
            Target::File(path) => self.read_mirror_file(&path),
            Target::Url(u) => self.over_http(&u, if_none_match, if_modified_since),
        }
    }

    fn read_mirror_file(&self, path: &std::path::Path) -> Result<Exchange, WireError> {
        let empty = |status| Exchange {
            status,
            etag: None,
            last_modified: None,
            location: None,
            retry_after: None,
            content_type: None,
            tdm_reservation: vec![],
            x_robots_tag: vec![],
            body: None,
            bytes: 0,
        };
        match File::open(path) {
            Ok(f) => {
                let body = Body::spool(f, self.limits.max_body_bytes).map_err(body_error)?;
                let mut ex = empty(200);
                ex.bytes = body.len;
                ex.body = Some(body);
                Ok(ex)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(empty(404)),
            Err(e) => Err(WireError::Other(format!("mirror file {}: {e}", path.display()))),
        }
    }

    fn over_http(&self, url: &str, inm: Option<&str>, ims: Option<&str>) -> Result<Exchange, WireError> {
        // ureq turns a URL's userinfo into an Authorization header: strip it,
        // whatever URL was given, a mirror's included (P2).
        let mut parsed = Url::parse(url).map_err(|e| WireError::Other(format!("{url}: not a URL: {e}")))?;
        if (!parsed.username().is_empty() || parsed.password().is_some())
            && (parsed.set_username("").is_err() || parsed.set_password(None).is_err())
        {
            return Err(WireError::Other(format!(
                "{}: credentials in the URL cannot be removed; no request sent (P2)",
                parsed.host_str().unwrap_or("")
            )));
        }
        let mut req = self.agent.get(parsed.as_str());
        if let Some(v) = inm {
            req = req.header("If-None-Match", v);
        }
        if let Some(v) = ims {
            req = req.header("If-Modified-Since", v);
        }
        let mut resp = req.call().map_err(classify)?;
        let h = resp.headers();
        let one = |name: &str| h.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        let all = |name: &str| h.get_all(name).iter().filter_map(|v| v.to_str().ok()).map(str::to_string).collect::<Vec<_>>();
        let status = resp.status().as_u16();
        let mut ex = Exchange {
            status,
            etag: one("etag"),
            last_modified: one("last-modified"),
            location: one("location"),
            retry_after: one("retry-after"),
            content_type: one("content-type"),
            tdm_reservation: all("tdm-reservation"),
            x_robots_tag: all("x-robots-tag"),
            body: None,
            bytes: 0,
        };
        if (200..300).contains(&status) {
            let max = self.limits.max_body_bytes;
            // Refuse at once when the server announces more than the cap.
            if let Some(len) = one("content-length").and_then(|l| l.trim().parse::<u64>().ok())
                && len > max
            {
                return Err(WireError::TooLarge(format!("the server announces {len} bytes, over the cap of {max}")));
            }
            let reader = resp.body_mut().with_config().limit(max.saturating_add(1)).reader();
            let body = Body::spool(reader, max).map_err(body_error)?;
            ex.bytes = body.len;
            ex.body = Some(body);
        }
        Ok(ex)
    }
}

fn classify(e: ureq::Error) -> WireError {
    match e {
        ureq::Error::Timeout(t) => WireError::Timeout(t.to_string()),
        ureq::Error::BodyExceedsLimit(n) => WireError::TooLarge(format!("body over the cap of {n} bytes")),
        ureq::Error::HostNotFound => WireError::NoHost("no address found".into()),
        // std's getaddrinfo failure, as ureq's resolver hands it on.
        ureq::Error::Io(e) if e.to_string().contains("failed to lookup address") => WireError::NoHost(e.to_string()),
        other => WireError::Other(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives a few bytes, then fails with `kind`.
    struct Failing(io::ErrorKind, bool);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if std::mem::replace(&mut self.1, true) {
                return Err(self.0.into());
            }
            buf[..3].copy_from_slice(b"abc");
            Ok(3)
        }
    }

    fn kind_of(kind: io::ErrorKind) -> WireError {
        body_error(Body::spool(Failing(kind, false), 100).unwrap_err())
    }

    #[test]
    fn body_read_errors_are_classified_by_kind() {
        assert!(matches!(kind_of(io::ErrorKind::TimedOut), WireError::Timeout(_)));
        assert!(matches!(kind_of(io::ErrorKind::ConnectionReset), WireError::Body(BodyFault::Cut, _)));
        assert!(matches!(kind_of(io::ErrorKind::UnexpectedEof), WireError::Body(BodyFault::Cut, _)));
        assert!(matches!(kind_of(io::ErrorKind::InvalidData), WireError::Body(BodyFault::Decoding, _)));
        assert!(matches!(kind_of(io::ErrorKind::PermissionDenied), WireError::Body(BodyFault::Other, _)));
        let over = body_error(Body::spool(&[0u8; 101][..], 100).unwrap_err());
        assert_eq!(over, WireError::TooLarge("body over the cap of 100 bytes".into()));
    }
}
