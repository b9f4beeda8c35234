//! `--mirror`: send each request for `https://HOST/PATH?Q` to a local
//! directory or an `http://` base URL instead, while every politeness rule
//! still applies as if talking to HOST (offline demo, tests, staging).

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
}
