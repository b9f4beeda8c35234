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
