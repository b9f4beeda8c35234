//! `/.well-known/tdmrep.json` in an audit (W3C TDMRep): an array of
//! `{location, tdm-reservation, tdm-policy}` rules, locations matched like
//! robots.txt paths, the first matching rule deciding. Not for robots.txt
//! or ai.txt (their own modules).

use super::got::{FileState, Got, nothing};
use serde::Serialize;
use url::Url;

/// `/.well-known/tdmrep.json` as read now.
#[derive(Debug, Clone, Serialize)]
pub struct TdmrepReport {
    pub url: String,
    pub status: Option<u16>,
    /// `ok`, `absent` (4xx: no reservation), `unreadable` (not a TDMRep array)
    /// or `unreachable` (no answer: unknown).
    pub state: FileState,
    pub message: String,
    pub rules: usize,
}

/// Read what came back for `/.well-known/tdmrep.json`, adding drift when it
/// cannot be read (a reservation may be missed).
pub(super) fn read(url: &Url, got: Option<&Got>, drift: &mut Vec<String>) -> (TdmrepReport, Vec<TdmRule>) {
    let mut tdmrep = TdmrepReport { url: url.to_string(), status: None, state: FileState::Unreachable, message: String::new(), rules: 0 };
    let mut tdm_rules: Vec<TdmRule> = Vec::new();
    match got {
        Some(Got::Body { status, bytes, .. }) => {
            tdmrep.status = Some(*status);
            match parse_tdmrep(bytes) {
                Ok(r) => {
                    tdmrep.state = FileState::Ok;
                    tdmrep.rules = r.len();
                    tdm_rules = r;
                }
                Err(e) => {
                    // A rule we cannot read may be a reservation: the reviewer looks.
                    tdmrep.state = FileState::Unreadable;
                    tdmrep.message = format!("not a TDMRep rule array: {e}; no reservation read");
                    drift.push(format!("tdmrep.json cannot be read ({e}): a reservation may be missed"));
                }
            }
        }
        Some(Got::Status { status, .. }) if (400..500).contains(status) && *status != 429 => {
            tdmrep.status = Some(*status);
            tdmrep.state = FileState::Absent;
            tdmrep.message = format!("HTTP {status}: no tdmrep.json, no reservation");
        }
        other => {
            let (status, message) = nothing(other);
            tdmrep.status = status;
            tdmrep.state = FileState::Unreachable;
            tdmrep.message = format!("{message}: reservation unknown");
        }
    }
    (tdmrep, tdm_rules)
}

/// One TDMRep rule (W3C TDMRep, §4 "the tdmrep.json file").
#[derive(Debug, Clone, PartialEq)]
pub struct TdmRule {
    pub location: String,
    pub reservation: u8,
    pub policy: Option<String>,
}

/// Read tdmrep.json: an array of `{location, tdm-reservation, tdm-policy}`.
/// A rule without a readable location or with a reservation other than 0/1
/// is an error: the reviewer must look at the file.
pub fn parse_tdmrep(bytes: &[u8]) -> Result<Vec<TdmRule>, String> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_start_matches('\u{feff}');
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let arr = v.as_array().ok_or("the top level is not an array")?;
    let mut rules = Vec::new();
    for (i, r) in arr.iter().enumerate() {
        let location = r.get("location").and_then(|l| l.as_str()).ok_or_else(|| format!("rule {i} has no location"))?;
        let res = r.get("tdm-reservation").ok_or_else(|| format!("rule {i} has no tdm-reservation"))?;
        let reservation = match res {
            serde_json::Value::Number(n) => n.as_u64(),
            serde_json::Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        let reservation = match reservation {
            Some(0) => 0,
            Some(1) => 1,
            _ => return Err(format!("rule {i}: tdm-reservation {res} is neither 0 nor 1")),
        };
        let policy = r.get("tdm-policy").and_then(|p| p.as_str()).map(str::to_string);
        rules.push(TdmRule { location: location.to_string(), reservation, policy });
    }
    Ok(rules)
}

/// The first rule whose location matches the URL's path (and query).
pub fn first_tdm_rule<'r>(rules: &'r [TdmRule], url: &Url) -> Option<&'r TdmRule> {
    let mut target = url.path().to_string();
    if let Some(q) = url.query() {
        target.push('?');
        target.push_str(q);
    }
    rules.iter().find(|r| location_matches(&r.location, &target))
}

/// TDMRep location patterns follow robots.txt's path syntax: a path from
/// the site root, `*` for any run of characters, a final `$` anchoring the
/// end; otherwise the pattern matches as a prefix.
pub fn location_matches(pattern: &str, path: &str) -> bool {
    // An absolute URL as location: its path (and query).
    let owned;
    let pattern = if pattern.starts_with("http://") || pattern.starts_with("https://") {
        match Url::parse(pattern) {
            Ok(u) => {
                owned = format!("{}{}", u.path(), u.query().map(|q| format!("?{q}")).unwrap_or_default());
                owned.as_str()
            }
            Err(_) => return false,
        }
    } else {
        pattern
    };
    let (body, anchored) = match pattern.strip_suffix('$') {
        Some(b) => (b, true),
        None => (pattern, false),
    };
    let mut re = String::from("^");
    re.push_str(&body.split('*').map(regex::escape).collect::<Vec<_>>().join(".*"));
    if anchored {
        re.push('$');
    }
    regex::Regex::new(&re).map(|r| r.is_match(path)).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tdmrep_locations_match_like_robots_paths() {
        assert!(location_matches("/", "/egob/a.json"));
        assert!(location_matches("/egob/", "/egob/a.json"));
        assert!(!location_matches("/egob/", "/web/a.json"));
        assert!(location_matches("/*.json", "/egob/a.json"));
        assert!(location_matches("/*.json$", "/egob/a.json"));
        assert!(!location_matches("/*.json$", "/egob/a.json?x=1"));
        assert!(!location_matches("/a.json$", "/a.json.bak"));
        assert!(location_matches("https://h.es/egob/*", "/egob/x"));
    }

    #[test]
    fn first_matching_tdmrep_rule_wins() {
        let rules = parse_tdmrep(
            br#"[{"location":"/egob/*.json","tdm-reservation":0},
                 {"location":"/","tdm-reservation":1,"tdm-policy":"https://h.es/policy.json"}]"#,
        )
        .unwrap();
        let json = Url::parse("https://h.es/egob/a.json").unwrap();
        let csv = Url::parse("https://h.es/egob/a.csv").unwrap();
        assert_eq!(first_tdm_rule(&rules, &json).unwrap().reservation, 0);
        assert_eq!(first_tdm_rule(&rules, &csv).unwrap().reservation, 1);
        assert!(parse_tdmrep(br#"{"location":"/"}"#).is_err());
        assert!(parse_tdmrep(br#"[{"location":"/","tdm-reservation":2}]"#).is_err());
        assert_eq!(parse_tdmrep(br#"[{"location":"/","tdm-reservation":"1"}]"#).unwrap()[0].reservation, 1);
    }
}
