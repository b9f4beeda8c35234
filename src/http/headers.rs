//! Reading the response headers that carry a host's wishes: Retry-After
//! (P10) and rights reservations (P15).

use std::time::{Duration, SystemTime};

/// The product token robots.txt and X-Robots-Tag address us by.
pub const AGENT_TOKEN: &str = "CityVibeBot";

/// What a `Retry-After` value asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum RetryAfter {
    /// Wait this long (a delta, or an HTTP-date in the future; zero for a past
    /// date).
    Wait(Duration),
    /// Missing or unreadable (`-5`, `abc`, `1.5`): use the normal backoff.
    Unusable,
}

/// Parse `Retry-After`: delta-seconds or an HTTP-date in any of its three
/// forms (IMF-fixdate, RFC 850, asctime), relative to `now`.
pub fn parse_retry_after(value: Option<&str>, now: SystemTime) -> RetryAfter {
    let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return RetryAfter::Unusable;
    };
    // Any size is read exactly, none ignored (P10): what a wait beyond a year
    // means is the ledger's to say (the host is held).
    if v.bytes().all(|b| b.is_ascii_digit()) {
        let secs = v.parse::<u64>().unwrap_or(u64::MAX);
        return RetryAfter::Wait(Duration::from_secs(secs));
    }
    match httpdate::parse_http_date(v) {
        Ok(when) => RetryAfter::Wait(when.duration_since(now).unwrap_or(Duration::ZERO)),
        Err(_) => RetryAfter::Unusable,
    }
}

/// Whether the response reserves its rights against text and data mining or
/// AI use (P15): `tdm-reservation: 1`, or an `X-Robots-Tag` with `noai` or
/// `noml`, bare or addressed to CityVibeBot (or `*`). Returns the reason.
pub fn reservation(tdm: &[String], robots_tags: &[String]) -> Option<String> {
    if tdm.iter().any(|v| v.trim() == "1") {
        return Some("the response carries tdm-reservation: 1".into());
    }
    for value in robots_tags {
        let lower = value.to_ascii_lowercase();
        let (agent, rules) = match lower.split_once(':') {
            Some((head, rest)) if is_agent_token(head.trim()) => (Some(head.trim().to_string()), rest.to_string()),
            _ => (None, lower.clone()),
        };
        let for_us = agent.as_deref().is_none_or(|a| a == AGENT_TOKEN.to_ascii_lowercase() || a == "*");
        if for_us && rules.split([',', ' ']).map(str::trim).any(|d| d == "noai" || d == "noml") {
            return Some(format!("the response carries X-Robots-Tag: {value}"));
        }
    }
    None
}

/// `X-Robots-Tag: googlebot: noindex` names an agent; `unavailable_after: …`
/// or `max-snippet: 20` are directives with values, not agents.
fn is_agent_token(s: &str) -> bool {
    !s.is_empty() && !s.contains([' ', ',']) && !["unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"].contains(&s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> SystemTime {
        httpdate::parse_http_date(s).unwrap()
    }

    // P10: every form of Retry-After, and the bad ones.
    #[test]
    fn retry_after_forms() {
        let now = at("Sun, 06 Nov 1994 08:49:07 GMT");
        assert_eq!(parse_retry_after(Some("120"), now), RetryAfter::Wait(Duration::from_secs(120)));
        assert_eq!(parse_retry_after(Some("Sun, 06 Nov 1994 08:49:37 GMT"), now), RetryAfter::Wait(Duration::from_secs(30)));
        assert_eq!(parse_retry_after(Some("Sunday, 06-Nov-94 08:49:37 GMT"), now), RetryAfter::Wait(Duration::from_secs(30)));
        assert_eq!(parse_retry_after(Some("Sun Nov  6 08:49:37 1994"), now), RetryAfter::Wait(Duration::from_secs(30)));
        assert_eq!(parse_retry_after(Some("Sun, 06 Nov 1994 08:00:00 GMT"), now), RetryAfter::Wait(Duration::ZERO));
        // Beyond sense is read as it is, neither unreadable nor cut short.
        for (huge, secs) in [("1000000000", 1_000_000_000), ("99999999999999999999999", u64::MAX), ("604801", 604_801)] {
            assert_eq!(parse_retry_after(Some(huge), now), RetryAfter::Wait(Duration::from_secs(secs)), "{huge}");
        }
        let far = parse_retry_after(Some("Fri, 01 Jan 2100 00:00:00 GMT"), now);
        assert!(matches!(far, RetryAfter::Wait(d) if d > Duration::from_secs(100 * 365 * 86400)), "{far:?}");
        for bad in ["-5", "abc", "1.5", ""] {
            assert_eq!(parse_retry_after(Some(bad), now), RetryAfter::Unusable, "{bad}");
        }
        assert_eq!(parse_retry_after(None, now), RetryAfter::Unusable);
    }

    // P15: reservations for us or for everyone; not for another bot.
    #[test]
    fn reservations() {
        let none: Vec<String> = vec![];
        assert!(reservation(&["1".into()], &none).is_some());
        assert!(reservation(&["0".into()], &none).is_none());
        assert!(reservation(&none, &["noai".into()]).is_some());
        assert!(reservation(&none, &["noindex, noml".into()]).is_some());
        assert!(reservation(&none, &["CityVibeBot: noai".into()]).is_some());
        assert!(reservation(&none, &["otherbot: noai".into()]).is_none());
        assert!(reservation(&none, &["noindex".into(), "unavailable_after: 25 Jun 2010 15:00:00 PST".into()]).is_none());
    }
}
