//! robots.txt in an audit: RFC 9309's status rules (a 4xx means no rules,
//! a 5xx, a persisting 429 or no answer means everything disallowed), the
//! group for CityVibeBot (else `*`) through `texting_robots`, its
//! Crawl-delay against the adapter's minimum, and the body's digest against
//! the review's. Not for tdmrep.json or ai.txt (their own modules).

use super::got::{FileState, Got, nothing};
use crate::adapter::Manifest;
use crate::http::headers::AGENT_TOKEN;
use serde::Serialize;
use url::Url;

/// robots.txt as read now.
#[derive(Debug, Clone, Serialize)]
pub struct RobotsReport {
    pub url: String,
    pub status: Option<u16>,
    /// `ok` (parsed), `unavailable` (4xx: no rules, all allowed) or
    /// `unreachable` (5xx, no answer: all disallowed, nothing cached).
    pub state: FileState,
    pub message: String,
    /// SHA-256 (hex) of the body fetched now.
    pub sha256: Option<String>,
    /// SHA-256 recorded in the adapter's review.
    pub recorded_sha256: Option<String>,
    /// `unchanged`, `changed`, `no digest recorded` or `unknown`.
    pub digest: String,
    /// Crawl-delay of the group that applies to CityVibeBot (or `*`).
    pub crawl_delay_secs: Option<f64>,
    /// Crawl-delay above the adapter's minimum delay.
    pub crawl_delay_drift: bool,
}

/// What robots.txt means for us now.
pub(super) enum RobotsRules {
    Parsed(texting_robots::Robot),
    /// 4xx: no rules, everything allowed.
    AllowAll,
    /// 5xx, no answer: everything disallowed.
    DisallowAll,
}

impl RobotsRules {
    /// Whether robots.txt as read now lets CityVibeBot fetch `url`.
    pub(super) fn allows(&self, url: &str) -> bool {
        match self {
            RobotsRules::Parsed(r) => r.allowed(url),
            RobotsRules::AllowAll => true,
            RobotsRules::DisallowAll => false,
        }
    }

    /// Rules were read (a disallow is the host's word, not our caution).
    pub(super) fn was_read(&self) -> bool {
        matches!(self, RobotsRules::Parsed(_))
    }
}

/// Read what came back for `/robots.txt` against the manifest's review,
/// adding every drift found to `drift`.
pub(super) fn read(m: &Manifest, url: &Url, got: Option<&Got>, drift: &mut Vec<String>) -> (RobotsReport, RobotsRules) {
    let min_delay = m.min_delay.as_secs_f64();
    // robots.txt, with RFC 9309's status rules.
    let recorded = m.review.robots_sha256.map(|s| s.to_ascii_lowercase());
    let mut robots = RobotsReport {
        url: url.to_string(),
        status: None,
        state: FileState::Unreachable,
        message: String::new(),
        sha256: None,
        recorded_sha256: recorded.clone(),
        digest: "unknown".into(),
        crawl_delay_secs: None,
        crawl_delay_drift: false,
    };
    let rules = match got {
        Some(Got::Body { status, bytes, sha256 }) => {
            robots.status = Some(*status);
            robots.sha256 = Some(sha256.clone());
            match texting_robots::Robot::new(AGENT_TOKEN, bytes) {
                Ok(r) => {
                    robots.state = FileState::Ok;
                    RobotsRules::Parsed(r)
                }
                Err(e) => {
                    robots.state = FileState::Unreachable;
                    robots.message = format!("robots.txt could not be parsed ({e:#}): everything treated as disallowed");
                    RobotsRules::DisallowAll
                }
            }
        }
        // A 429 that persists is a server asking us to stay away, like a 5xx.
        Some(Got::Status { status, message }) if (400..500).contains(status) && *status != 429 => {
            robots.status = Some(*status);
            robots.state = FileState::Unavailable;
            robots.message = format!("HTTP {status}: no rules, everything allowed (RFC 9309 §2.3.1.3)");
            if matches!(status, 401 | 403 | 451) {
                // RFC 9309 allows all, but the host just refused our bot (P11).
                drift.push(format!("the host answered HTTP {status} to CityVibeBot: a run would be refused (P11); {message}"));
            }
            RobotsRules::AllowAll
        }
        other => {
            let (status, message) = nothing(other);
            robots.status = status;
            robots.state = FileState::Unreachable;
            robots.message = format!("{message}: everything treated as disallowed, nothing cached (RFC 9309 §2.3.1.4)");
            drift.push(format!("robots.txt unreachable ({message}): everything is disallowed until it can be read"));
            RobotsRules::DisallowAll
        }
    };
    robots.digest = match (robots.state, &recorded, &robots.sha256) {
        (FileState::Unreachable, _, _) => "unknown".into(),
        (_, None, _) => "no digest recorded".into(),
        (_, Some(r), Some(now)) if r == now => "unchanged".into(),
        (_, Some(_), _) => "changed".into(),
    };
    if robots.digest == "changed" {
        let now = robots.sha256.as_deref().unwrap_or("none: no robots.txt now");
        drift.push(format!(
            "robots.txt changed since the review of {}: sha256 {now}, recorded {}",
            m.review.date,
            recorded.as_deref().unwrap_or("")
        ));
    }
    if let RobotsRules::Parsed(r) = &rules {
        robots.crawl_delay_secs = r.delay.map(f64::from);
        if let Some(cd) = robots.crawl_delay_secs.filter(|cd| *cd > min_delay) {
            robots.crawl_delay_drift = true;
            drift.push(format!("robots.txt asks for Crawl-delay {cd} s, more than the adapter's {min_delay} s"));
        }
    }
    (robots, rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_group_for_our_agent_or_star() {
        let r = texting_robots::Robot::new(
            AGENT_TOKEN,
            b"User-agent: *\nDisallow: /\n\nUser-agent: CityVibeBot\nAllow: /egob/\nCrawl-delay: 5\n",
        )
        .unwrap();
        assert!(r.allowed("https://h.es/egob/a.json"));
        // Only our group applies: the `Disallow: /` of `*` does not.
        assert!(r.allowed("https://h.es/other"));
        assert_eq!(r.delay, Some(5.0));
        let star = texting_robots::Robot::new(AGENT_TOKEN, b"User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n").unwrap();
        assert!(star.allowed("https://h.es/egob/a.json"));
        assert_eq!(star.delay, Some(10.0));
    }
}
