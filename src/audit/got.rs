//! What came back when a host was asked for one of the three files
//! (robots.txt, tdmrep.json, ai.txt): the answer ([`Got`]) and what became
//! of the file ([`FileState`]), which each file's reader starts from.
//!
//! Not for: asking (`mod.rs`, through the scheduler) or reading a file's rules.

use serde::Serialize;

/// What became of asking a host for one of the three files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileState {
    /// Read and understood.
    Ok,
    /// Not there (a 4xx answer): no rules.
    Absent,
    /// robots.txt answered 401/403/451 (allowed by RFC 9309, drift for us).
    Unavailable,
    /// There but not understood.
    Unreadable,
    /// No answer, a 5xx, a persisting 429 or a refused redirect.
    Unreachable,
}

impl FileState {
    pub fn as_str(self) -> &'static str {
        match self {
            FileState::Ok => "ok",
            FileState::Absent => "absent",
            FileState::Unavailable => "unavailable",
            FileState::Unreadable => "unreadable",
            FileState::Unreachable => "unreachable",
        }
    }
}

impl std::fmt::Display for FileState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad`, so table widths (`{:<12}`) apply.
        f.pad(self.as_str())
    }
}

/// What came back for one of the three URLs.
#[derive(Debug)]
pub(super) enum Got {
    /// A 2xx body.
    Body { status: u16, bytes: Vec<u8>, sha256: String },
    /// An answer without a usable body (4xx, 5xx, refused redirect…).
    Status { status: u16, message: String },
    /// No answer: network error, timeout, or no request sent (host blocked, cap).
    Nothing { message: String },
}

/// The status and message of an answer without a usable body.
pub(super) fn nothing(got: Option<&Got>) -> (Option<u16>, String) {
    match got {
        Some(Got::Body { status, .. }) => (Some(*status), String::new()),
        Some(Got::Status { status, message }) => (Some(*status), message.clone()),
        Some(Got::Nothing { message }) => (None, message.clone()),
        None => (None, "not fetched".into()),
    }
}
