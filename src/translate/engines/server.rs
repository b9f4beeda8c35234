//! What the clients of translation servers (APy, LibreTranslate, an
//! OpenAI-compatible one) share: an HTTP agent made one way (CityVibe's one
//! User-Agent, P1; no redirect followed; one timeout for the whole
//! exchange; an error status read as an answer, not raised), a base URL
//! checked once, and an answer read as JSON beside its status.
//!
//! Not for: the crawler's polite client (these servers are the operator's
//! own services, not sources), nor any API's own fields.

use crate::http::USER_AGENT;
use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::time::Duration;

/// An agent for a translation server.
pub(crate) fn agent(timeout: Duration) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .user_agent(USER_AGENT)
        .timeout_global(Some(timeout))
        .max_redirects(0)
        .http_status_as_error(false)
        .build();
    ureq::Agent::new_with_config(config)
}

/// `url` without its trailing slashes, if it is an http(s) URL; `setting`
/// names it in the error.
pub(crate) fn base_url(url: &str, setting: &str) -> Result<String> {
    let base = url.trim_end_matches('/').to_string();
    if !(base.starts_with("http://") || base.starts_with("https://")) {
        bail!("{setting} {base:?} is not an http(s) URL");
    }
    Ok(base)
}

/// A response's status and its body read as JSON; `what` (say `POST URL`)
/// names the exchange in errors.
pub(crate) fn json_answer(mut resp: ureq::http::Response<ureq::Body>, what: &str) -> Result<(ureq::http::StatusCode, Value)> {
    let status = resp.status();
    let body = resp.body_mut().read_to_string().with_context(|| format!("reading the answer to {what}"))?;
    let json = serde_json::from_str(&body).with_context(|| format!("{what}: {status}, not JSON"))?;
    Ok((status, json))
}

/// Whether `e` is a server not answering within the timeout.
fn is_timeout(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(c.downcast_ref::<ureq::Error>(), Some(ureq::Error::Timeout(_)))
            || c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut)
    })
}

/// A server that times out is not asked again in this run: against a hanging
/// server every later request would cost the whole timeout again, languages ×
/// (batch + single texts) of them, with the run lock held, before the fallback
/// could start. One short probe tells a hanging server from a text that hangs
/// it (that text waits, the others are still translated): the server is
/// silenced when the probe times out too, so a hanging server costs two
/// timeouts in a run.
#[derive(Debug, Default)]
pub(crate) struct Silence(std::sync::Mutex<Option<String>>);

impl Silence {
    /// `ask()`'s answer, unless the server is silenced in this run; after a
    /// timeout, `probe()` (a short harmless request) decides whether it is.
    pub(crate) fn ask<T>(&self, ask: impl FnOnce() -> Result<T>, probe: impl FnOnce() -> Result<()>) -> Result<T> {
        let silenced = || self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(why) = silenced().as_ref() {
            bail!("not asked again in this run, it did not answer in time: {why}");
        }
        let answer = ask();
        if let Err(e) = &answer
            && is_timeout(e)
            && probe().as_ref().is_err_and(is_timeout)
        {
            *silenced() = Some(format!("{e:#}"));
        }
        answer
    }
}

/// The text a probe asks to translate: short, and no one's data.
pub(crate) const PROBE: &str = "Hola.";

/// A server's explanation of an error, fit to print: one short line,
/// contact data scrubbed, control bytes gone, the API key hidden.
pub(crate) fn explanation(said: Option<&str>, api_key: Option<&str>) -> String {
    match said {
        Some(s) => crate::parse::stored::message(s, api_key.as_slice()),
        None => "no explanation".into(),
    }
}
