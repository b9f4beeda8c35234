//! `--mirror`: send each request for `https://HOST/PATH?Q` to a local
//! directory or an `http://` base URL instead, while every politeness rule
//! still applies as if talking to HOST (offline demo, tests, staging). Only
//! a mirror whose reads never leave the machine may keep a private ledger.

use anyhow::{Result, bail};
use std::path::PathBuf;
use url::Url;

#[derive(Debug, Clone)]
pub enum Mirror {
    /// `DIR/HOST/PATH` (a query string is appended to the file name as is).
    Dir(PathBuf),
    /// `BASE/HOST/PATH?Q`.
    Http(Url),
}

impl Mirror {
    /// `--mirror DIR|URL`.
    pub fn parse(arg: &str) -> Result<Mirror> {
        if arg.starts_with("http://") || arg.starts_with("https://") {
            let url = Url::parse(arg).map_err(|e| anyhow::anyhow!("--mirror {arg}: not a URL: {e}"))?;
            Ok(Mirror::Http(url))
        } else {
            let dir = PathBuf::from(arg);
            if !dir.is_dir() {
                bail!("--mirror {arg}: no such directory (give a folder laid out as HOST/PATH, or an http:// base URL)");
            }
            Ok(Mirror::Dir(dir))
        }
    }

    /// Whether what this mirror serves never leaves the machine (a folder,
    /// or an `http://` base on a loopback address: 127.0.0.0/8, ::1,
    /// `localhost`), so that it may keep a private host ledger. A mirror on
    /// any other host is a real host to be polite to: its requests are
    /// booked in the system ledger like any real run's (else
    /// `--mirror https://datos.madrid.es --state-dir X` would keep a second
    /// schedule for datos.madrid.es).
    pub fn stays_on_this_machine(&self) -> bool {
        match self {
            Mirror::Dir(_) => true,
            Mirror::Http(url) => match url.host() {
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
                None => false,
            },
        }
    }

    /// The host a mirror on another machine is (an `http(s)://` base that
    /// is not loopback): every request through it goes to that one host,
    /// so it is booked and paced as that host, not as the feeds' hosts it
    /// stands in for (P8). `None` for a folder or a loopback base, whose
    /// reads never leave the machine.
    pub fn remote_host(&self) -> Option<&str> {
        match self {
            Mirror::Http(url) if !self.stays_on_this_machine() => url.host_str(),
            _ => None,
        }
    }

    /// Where the request for `url` really goes.
    pub fn map(&self, url: &Url) -> Target {
        let host = url.host_str().unwrap_or("");
        match self {
            Mirror::Dir(dir) => {
                let mut rel = url.path().trim_start_matches('/').to_string();
                if let Some(q) = url.query() {
                    rel.push('?');
                    rel.push_str(q);
                }
                Target::File(dir.join(host).join(rel))
            }
            Mirror::Http(base) => {
                let mut s = base.as_str().trim_end_matches('/').to_string();
                s.push('/');
                s.push_str(host);
                s.push_str(url.path());
                if let Some(q) = url.query() {
                    s.push('?');
                    s.push_str(q);
                }
                Target::Url(s)
            }
        }
    }
}

/// The real destination of a request.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Url(String),
    File(PathBuf),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_host_path_and_query() {
        let u = Url::parse("https://datos.madrid.es/egob/a.json?x=1").unwrap();
        let m = Mirror::Http(Url::parse("http://127.0.0.1:9/base/").unwrap());
        assert_eq!(m.map(&u), Target::Url("http://127.0.0.1:9/base/datos.madrid.es/egob/a.json?x=1".into()));
        let d = Mirror::Dir(PathBuf::from("samples"));
        assert_eq!(d.map(&u), Target::File(PathBuf::from("samples/datos.madrid.es/egob/a.json?x=1")));
    }

    // Only a folder or a loopback base may keep a private ledger.
    #[test]
    fn only_a_folder_or_a_loopback_mirror_stays_on_this_machine() {
        let http = |u: &str| Mirror::Http(Url::parse(u).unwrap()).stays_on_this_machine();
        assert!(Mirror::Dir(PathBuf::from("samples")).stays_on_this_machine());
        for local in ["http://127.0.0.1:9/", "http://127.8.0.1/", "http://[::1]:80/", "http://localhost:8080/"] {
            assert!(http(local), "{local}");
        }
        for public in
            ["https://datos.madrid.es", "http://0.0.0.0:9/", "http://10.0.0.1/", "http://staging.example.org/", "http://localhost.example/"]
        {
            assert!(!http(public), "{public}");
            assert!(Mirror::Http(Url::parse(public).unwrap()).remote_host().is_some(), "{public}");
        }
        assert_eq!(Mirror::Http(Url::parse("https://staging.example:8443/base/").unwrap()).remote_host(), Some("staging.example"));
        assert_eq!(Mirror::Http(Url::parse("http://127.0.0.1:9/").unwrap()).remote_host(), None);
        assert_eq!(Mirror::Dir(PathBuf::from("samples")).remote_host(), None);
    }
}
