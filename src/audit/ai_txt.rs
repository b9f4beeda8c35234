//! `/ai.txt` in an audit, read like robots.txt for CityVibeBot (or `*`):
//! drift and a block when it disallows a feed URL or the site root; its
//! first lines are quoted for the reviewer. Not for robots.txt or
//! tdmrep.json (their own modules).

use super::got::{FileState, Got, nothing};
use crate::adapter::Manifest;
use crate::http::headers::AGENT_TOKEN;
use serde::Serialize;
use url::Url;

/// How many lines of ai.txt the report quotes.
const AI_LINES: usize = 5;

/// `/ai.txt` as read now.
#[derive(Debug, Clone, Serialize)]
pub struct AiReport {
    pub url: String,
    pub status: Option<u16>,
    /// `ok`, `absent` or `unreachable`.
    pub state: FileState,
    pub message: String,
    /// Whether it disallows CityVibeBot (or `*`) a feed URL or the whole site.
    pub disallows: bool,
    pub first_lines: Vec<String>,
}

/// Read what came back for `/ai.txt`; a disallow of a feed URL or of the
/// site root is both drift and a block.
pub(super) fn read(m: &Manifest, url: &Url, got: Option<&Got>, drift: &mut Vec<String>, blocked: &mut Vec<String>) -> AiReport {
    let mut ai = AiReport {
        url: url.to_string(),
        status: None,
        state: FileState::Unreachable,
        message: String::new(),
        disallows: false,
        first_lines: vec![],
    };
    let mut ai_robot = None;
    match got {
        Some(Got::Body { status, bytes, .. }) => {
            ai.status = Some(*status);
            ai.state = FileState::Ok;
            let text = String::from_utf8_lossy(bytes);
            ai.first_lines = text.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).take(AI_LINES).map(str::to_string).collect();
            match texting_robots::Robot::new(AGENT_TOKEN, bytes) {
                Ok(r) => ai_robot = Some(r),
                Err(e) => ai.message = format!("not readable as robots-like rules: {e:#}"),
            }
        }
        Some(Got::Status { status, .. }) if (400..500).contains(status) && *status != 429 => {
            ai.status = Some(*status);
            ai.state = FileState::Absent;
            ai.message = format!("HTTP {status}: no ai.txt");
        }
        other => {
            let (status, message) = nothing(other);
            ai.status = status;
            ai.state = FileState::Unreachable;
            ai.message = format!("{message}: unknown");
        }
    }
    if let Some(r) = &ai_robot {
        let denied: Vec<&str> = m.feeds.iter().map(|f| f.url).filter(|u| !r.allowed(u)).collect();
        if !r.allowed("/") || !denied.is_empty() {
            ai.disallows = true;
            let what = if denied.is_empty() { "the site root".to_string() } else { denied.join(", ") };
            let why = format!("ai.txt disallows {what} for CityVibeBot or *");
            drift.push(why.clone());
            blocked.push(why);
        }
    }
    ai
}
