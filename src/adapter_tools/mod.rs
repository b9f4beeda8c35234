//! Tools for the developer who writes an adapter (docs/ADAPTERS.md, "Writing an
//! adapter"): the checks every adapter must pass (shared by
//! `tests/it/sources/conformance.rs` and `cityvibe adapter check`), the offline check of
//! one sample file, and the scaffold behind `cityvibe adapter new`.
//!
//! Nothing here touches the network: samples are read from disk and parsed
//! with the adapter's pure parser.

pub mod check;
pub mod scaffold;

use crate::adapter::{Adapter, FeedRole, Manifest};
use crate::model::Event;
use crate::parse::pii::contains_pii;
use crate::parse::text::is_image_url;
use std::path::PathBuf;
use std::time::Duration;

/// Where the sample of a feed lives, relative to `data/samples/`: the same
/// `HOST/PATH[?QUERY]` layout `--mirror DIR` serves from.
pub fn sample_rel_path(feed_url: &str) -> Option<PathBuf> {
    let url = url::Url::parse(feed_url).ok()?;
    let host = url.host_str()?;
    let mut rel = url.path().trim_start_matches('/').to_string();
    if let Some(q) = url.query() {
        rel.push('?');
        rel.push_str(q);
    }
    Some(PathBuf::from(host).join(rel))
}

/// Whether a text is a calendar date `YYYY-MM-DD`.
fn is_iso_date(s: &str) -> bool {
    s.len() == 10 && s.parse::<jiff::civil::Date>().is_ok()
}

fn is_http_url(s: &str) -> bool {
    url::Url::parse(s).is_ok_and(|u| matches!(u.scheme(), "https" | "http") && u.host_str().is_some())
}

/// The marker `adapter new` leaves in every field a human must fill.
pub const TODO: &str = "TODO";

/// The manifest fields that still hold a `TODO` placeholder: the adapter is a
/// draft, and its source must stay disabled until they are filled.
pub fn todo_fields(m: &Manifest) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut check = |name: &'static str, v: &str| {
        if v.contains(TODO) {
            out.push(name);
        }
    };
    check("name", m.name);
    check("publisher", m.publisher);
    for f in m.feeds {
        check("feeds", f.url);
    }
    for r in m.redirects {
        check("redirects", r.path_prefix);
        check("redirects", r.host);
    }
    check("licence.name", m.licence.name);
    check("licence.url", m.licence.url);
    check("attribution", m.attribution);
    check("dataset_page", m.dataset_page);
    check("update_schedule", m.update_schedule);
    check("review.date", m.review.date);
    check("review.robots_txt", m.review.robots_txt);
    check("review.notes", m.review.notes);
    out.dedup();
    out
}

/// Every problem with a manifest, one sentence each; empty when it is valid.
///
/// A valid manifest: an id of lower-case letters, digits and `_`; a name, a
/// publisher and a host; at least one feed, every feed URL `https://` on the
/// declared host, with no fragment and no duplicates, at least one primary
/// feed; redirect rules with a host and a path prefix starting with `/`; a
/// minimum delay of at least one second (P8); a daily cap; a two-letter
/// language; a licence with a name and an http(s) URL; an attribution text;
/// the dataset's page; and a review record with a `YYYY-MM-DD` date, what
/// robots.txt said, and notes on the personal-data and image fields (P14).
///
/// A field still holding a `TODO` placeholder (see [`todo_fields`]) is not
/// judged on its form here: a fresh scaffold is a valid draft.
pub fn manifest_problems(m: &Manifest) -> Vec<String> {
    let mut p = Vec::new();
    let todo = |v: &str| v.contains(TODO);
    let id = m.id;
    if id.is_empty()
        || !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        || id.starts_with(|c: char| c.is_ascii_digit())
    {
        p.push(format!("id {id:?} must be lower-case letters, digits and '_', not starting with a digit"));
    }
    for (what, v) in [
        ("name", m.name),
        ("publisher", m.publisher),
        ("host", m.host),
        ("attribution", m.attribution),
        ("update_schedule", m.update_schedule),
    ] {
        if v.trim().is_empty() {
            p.push(format!("{what} is empty"));
        }
    }
    if !todo(m.update_schedule)
        && !m.update_schedule.trim().is_empty()
        && crate::adapter::Frequency::of(m.update_schedule) == crate::adapter::Frequency::Unstated
    {
        // Else the public page silently says "Updated: not stated".
        p.push(format!(
            "update_schedule {:?} names no frequency the sources page knows: start it with one of {}, then any note in parentheses",
            m.update_schedule,
            crate::adapter::Frequency::KNOWN
        ));
    }
    if m.review.robots == crate::adapter::RobotsReview::Pending && m.review.robots_sha256.is_some() {
        p.push("review.robots_sha256 is set while review.robots is Pending: a digest says robots.txt was read; set Read".into());
    }
    if m.host.contains('/') || m.host.contains(':') || m.host.to_ascii_lowercase() != m.host {
        p.push(format!("host {:?} must be a bare lower-case host name", m.host));
    }
    if m.feeds.is_empty() {
        p.push("no feed URL".into());
    }
    if !m.feeds.iter().any(|f| f.role == FeedRole::Primary) {
        p.push("no primary feed".into());
    }
    feed_problems(m, &mut p);
    for r in m.redirects {
        if r.host.trim().is_empty() || !r.path_prefix.starts_with('/') {
            p.push(format!("redirect rule {}{} needs a host and a path prefix starting with '/'", r.host, r.path_prefix));
        }
    }
    if m.min_delay < Duration::from_secs(1) {
        p.push(format!("min_delay {:?} is below one second (P8)", m.min_delay));
    }
    if m.daily_cap == 0 {
        p.push("daily_cap is 0".into());
    }
    if m.language.len() != 2 || !m.language.bytes().all(|b| b.is_ascii_lowercase()) {
        p.push(format!("language {:?} is not an ISO 639-1 code", m.language));
    }
    if m.licence.name.trim().is_empty() {
        p.push("licence name is empty".into());
    }
    if !todo(m.licence.url) && !is_http_url(m.licence.url) {
        p.push(format!("licence URL {:?} is not an http(s) URL", m.licence.url));
    }
    if !todo(m.dataset_page) && !is_http_url(m.dataset_page) {
        p.push(format!("dataset_page {:?} is not an http(s) URL", m.dataset_page));
    }
    if !todo(m.review.date) && !is_iso_date(m.review.date) {
        p.push(format!("review date {:?} is not a YYYY-MM-DD date", m.review.date));
    }
    if m.review.robots_txt.trim().is_empty() {
        p.push("review.robots_txt is empty: say what robots.txt says for CityVibeBot and * (P14)".into());
    }
    if m.review.notes.trim().is_empty() {
        p.push("review.notes is empty: say where the personal-data and image fields are and that they are left out (P5, P4)".into());
    }
    if let Some(h) = m.review.robots_sha256
        && (h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        p.push(format!("review.robots_sha256 {h:?} is not 64 hex digits"));
    }
    p
}

/// What is wrong with the manifest's feed list: each URL https, on the
/// declared host, without a fragment, listed once, with a language code.
fn feed_problems(m: &Manifest, p: &mut Vec<String>) {
    for (i, f) in m.feeds.iter().enumerate() {
        match url::Url::parse(f.url) {
            Err(e) => p.push(format!("feed {:?} is not a URL: {e}", f.url)),
            Ok(u) => {
                if u.scheme() != "https" {
                    p.push(format!("feed {:?} is not https", f.url));
                }
                if u.host_str() != Some(m.host) {
                    p.push(format!("feed {:?} is not on the declared host {}", f.url, m.host));
                }
                if u.fragment().is_some() {
                    p.push(format!("feed {:?} has a #fragment", f.url));
                }
            }
        }
        if m.feeds[..i].iter().any(|g| g.url == f.url) {
            p.push(format!("feed {:?} is listed twice", f.url));
        }
        if f.lang.len() != 2 {
            p.push(format!("feed {:?}: lang {:?} is not an ISO 639-1 code", f.url, f.lang));
        }
    }
}

/// One finding of the PII and image audit of parsed events.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Finding {
    /// The event's id in the feed.
    pub event: String,
    /// The JSON path of the field, e.g. `venue.name`.
    pub field: String,
    /// `pii` (an e-mail- or phone-shaped text survived) or `image` (an image URL).
    pub kind: &'static str,
    /// The offending text, cut to 120 characters.
    pub text: String,
}

/// Every e-mail- or phone-shaped text and every image URL left in the
/// events, looked for in every string of their serialized form (so a field
/// added to the model later is covered too).
pub fn audit_events(events: &[Event]) -> Vec<Finding> {
    let mut out = Vec::new();
    for ev in events {
        let Ok(value) = serde_json::to_value(ev) else { continue };
        walk(&value, String::new(), &mut |path, text| {
            let cut = || text.chars().take(120).collect::<String>();
            if contains_pii(text) {
                out.push(Finding { event: ev.source_event_id.clone(), field: path.to_string(), kind: "pii", text: cut() });
            }
            if is_image_url(text) || text.split_whitespace().any(is_image_url) {
                out.push(Finding { event: ev.source_event_id.clone(), field: path.to_string(), kind: "image", text: cut() });
            }
        });
    }
    out
}

fn walk(v: &serde_json::Value, path: String, f: &mut dyn FnMut(&str, &str)) {
    match v {
        serde_json::Value::String(s) => f(&path, s),
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                walk(x, format!("{path}[{i}]"), f);
            }
        }
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                walk(x, p, f);
            }
        }
        _ => {}
    }
}

/// The ids of the adapters, and the first id that is used twice.
pub fn duplicate_id(adapters: &[&dyn Adapter]) -> Option<&'static str> {
    adapters
        .iter()
        .enumerate()
        .find(|(i, a)| adapters[..*i].iter().any(|b| b.manifest().id == a.manifest().id))
        .map(|(_, a)| a.manifest().id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_paths_follow_the_mirror_layout() {
        assert_eq!(sample_rel_path("https://h.example/a/b.json").unwrap(), PathBuf::from("h.example/a/b.json"));
        assert_eq!(sample_rel_path("https://h.example/a?x=1").unwrap(), PathBuf::from("h.example/a?x=1"));
    }

    #[test]
    fn a_bad_manifest_is_caught() {
        use crate::adapter::*;
        static BAD: Manifest = Manifest {
            id: "Bad-Id",
            name: "x",
            publisher: "x",
            host: "datos.example.es",
            feeds: &[
                Feed {
                    url: "http://datos.example.es/a.json",
                    format: Format::Json,
                    lang: "es",
                    role: FeedRole::Translation,
                    paging: Paging::Whole,
                },
                Feed {
                    url: "https://otro.example.es/a.json",
                    format: Format::Json,
                    lang: "es",
                    role: FeedRole::Translation,
                    paging: Paging::Whole,
                },
            ],
            plan: FetchPlan::All,
            redirects: &[RedirectRule { host: "datos.example.es", path_prefix: "a/" }],
            min_delay: Duration::from_millis(500),
            daily_cap: 0,
            language: "spanish",
            region: &[],
            licence: Licence { name: "", url: "licence" },
            attribution: " ",
            dataset_page: "",
            links: crate::adapter::EventLinks::EventPage,
            update_schedule: "x",
            review: Review {
                date: "20/10/2025",
                robots_txt: "",
                robots_sha256: Some("abc"),
                notes: "",
                robots: crate::adapter::RobotsReview::Read,
            },
        };
        let p = manifest_problems(&BAD).join("\n");
        for needle in [
            "id \"Bad-Id\"",
            "no primary feed",
            "is not https",
            "not on the declared host",
            "redirect rule",
            "below one second",
            "daily_cap",
            "language",
            "licence name",
            "licence URL",
            "attribution is empty",
            "dataset_page",
            "review date",
            "robots_txt is empty",
            "notes is empty",
            "robots_sha256",
            "update_schedule \"x\" names no frequency",
        ] {
            assert!(p.contains(needle), "{needle} not in\n{p}");
        }
        assert!(todo_fields(&BAD).is_empty());
    }

    #[test]
    fn the_audit_finds_pii_and_images_in_any_field() {
        let mut ev = Event::new("1", "t", "es").unwrap();
        ev.venue.postal_code = Some("info@example.es".into());
        ev.description = "cartel: https://x.example.es/a.png más texto".into();
        let f = audit_events(&[ev]);
        assert!(f.iter().any(|f| f.field == "venue.postal_code" && f.kind == "pii"), "{f:?}");
        assert!(f.iter().any(|f| f.field == "description" && f.kind == "image"), "{f:?}");
    }

    #[test]
    fn every_registered_manifest_is_valid() {
        for a in crate::adapters::ALL {
            assert_eq!(manifest_problems(a.manifest()), Vec::<String>::new(), "{}", a.manifest().id);
        }
    }
}
