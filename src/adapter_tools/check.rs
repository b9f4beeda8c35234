//! `cityvibe adapter check ID --sample FILE`: parse one sample file offline
//! with an adapter and report what came out: counts, per-record errors,
//! field coverage, and anything personal or image-like that survived
//! (POLICY P4, P5). No network, no database.

use super::{Finding, audit_events};
use crate::adapter::{Adapter, EventSink, Feed, FeedError, RecordError};
use crate::model::Event;
use serde::Serialize;
use std::path::Path;

/// The share of events that carry each field.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Coverage {
    /// A venue name or address.
    pub venue: usize,
    /// Both latitude and longitude.
    pub coordinates: usize,
    /// An end date.
    pub end: usize,
    /// A price text, or the free/paid flag.
    pub price: usize,
    /// A non-empty description.
    pub description: usize,
    /// A link to the original.
    pub url: usize,
}

impl Coverage {
    pub fn of(events: &[Event]) -> Coverage {
        let count = |f: &dyn Fn(&Event) -> bool| events.iter().filter(|e| f(e)).count();
        Coverage {
            venue: count(&|e| e.venue.name.is_some() || e.venue.address.is_some()),
            coordinates: count(&|e| e.venue.lat.is_some() && e.venue.lon.is_some()),
            end: count(&|e| e.schedule.end.is_some()),
            price: count(&|e| e.price.is_some() || e.free.is_some()),
            description: count(&|e| !e.description.trim().is_empty()),
            url: count(&|e| e.url.is_some()),
        }
    }

    /// (field name, events that carry it), in display order.
    pub fn rows(&self) -> [(&'static str, usize); 6] {
        [
            ("venue", self.venue),
            ("coordinates", self.coordinates),
            ("end", self.end),
            ("price", self.price),
            ("description", self.description),
            ("url", self.url),
        ]
    }
}

/// A record error, serializable.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordProblem {
    pub record: String,
    pub reason: String,
}

impl From<&RecordError> for RecordProblem {
    fn from(e: &RecordError) -> Self {
        // A parser's error may quote the record's id or text: no contact data in the report (P5).
        RecordProblem { record: crate::parse::pii::scrub(&e.record), reason: crate::parse::pii::scrub(&e.reason) }
    }
}

/// What `adapter check` found.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub adapter: &'static str,
    pub feed_url: &'static str,
    pub format: &'static str,
    pub sample: String,
    /// The whole body could not be read (`None` when it parsed).
    pub parse_failure: Option<String>,
    pub event_count: usize,
    pub error_count: usize,
    /// The first [`ERRORS_KEPT`] of them.
    pub errors: Vec<RecordProblem>,
    pub coverage: Coverage,
    /// Parsing the same bytes twice gave the same events.
    pub deterministic: bool,
    /// PII-shaped text and image URLs that survived parsing and scrubbing.
    pub findings: Vec<Finding>,
    /// E-mail addresses and phone numbers the core's scrub replaced in free
    /// text (the feed carries contact data there: say so in `review.notes`).
    pub scrubbed: usize,
    /// Venue points outside the manifest's region, dropped.
    pub outside_region: usize,
    /// The first events, as they would be stored.
    pub events: Vec<Event>,
}

impl CheckReport {
    /// Whether the check failed: the body did not parse, or something
    /// personal or an image URL survived.
    pub fn failed(&self) -> bool {
        self.parse_failure.is_some() || !self.findings.is_empty()
    }
}

/// The record errors a report keeps; all are counted. A sample of garbage
/// records takes no more memory than a run of it would (keeping each of
/// millions of errors would not).
pub const ERRORS_KEPT: usize = 100;

/// What the parse of a sample gave: every event, the first errors.
#[derive(Default, PartialEq)]
struct Parsed {
    events: Vec<Event>,
    errors: Vec<RecordError>,
    error_count: usize,
    outside_region: usize,
}

impl EventSink for Parsed {
    fn push(&mut self, record: Result<Event, RecordError>) {
        match record {
            Ok(event) => self.events.push(event),
            Err(error) => {
                self.error_count += 1;
                if self.errors.len() < ERRORS_KEPT {
                    self.errors.push(error);
                }
            }
        }
    }
    fn warning(&mut self, _: RecordError) {}
    fn outside_region(&mut self, _: RecordError) {
        self.outside_region += 1;
    }
}

/// Parse `bytes` as a run parses a body (the same drivers and bounds).
fn parse_sample(adapter: &dyn Adapter, feed: &Feed, bytes: &[u8]) -> Result<Parsed, FeedError> {
    let mut parsed = Parsed::default();
    crate::records::parse_feed(adapter, feed, &mut &bytes[..], &mut parsed)?;
    Ok(parsed)
}

/// The adapter's feed for a sample file: the one whose format matches the
/// file's extension, else the first.
pub fn feed_for_sample(adapter: &dyn Adapter, sample: &Path) -> &'static Feed {
    let feeds = adapter.manifest().feeds;
    let ext = sample.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase());
    ext.and_then(|ext| feeds.iter().find(|f| f.format.name() == ext)).unwrap_or(&feeds[0])
}

/// Parse `bytes` (the content of `sample`) with the adapter and report.
/// `limit` caps the events kept in the report.
pub fn check_bytes(adapter: &dyn Adapter, feed: &'static Feed, sample: &str, bytes: &[u8], limit: usize) -> CheckReport {
    let m = adapter.manifest();
    let mut report = CheckReport {
        adapter: m.id,
        feed_url: feed.url,
        format: feed.format.name(),
        sample: sample.to_string(),
        parse_failure: None,
        event_count: 0,
        error_count: 0,
        errors: Vec::new(),
        coverage: Coverage::default(),
        deterministic: true,
        findings: Vec::new(),
        scrubbed: 0,
        outside_region: 0,
        events: Vec::new(),
    };
    match parse_sample(adapter, feed, bytes) {
        Err(e) => report.parse_failure = Some(e.to_string()),
        Ok(collect) => {
            report.event_count = collect.events.len();
            report.error_count = collect.error_count;
            report.errors = collect.errors.iter().map(RecordProblem::from).collect();
            report.coverage = Coverage::of(&collect.events);
            report.outside_region = collect.outside_region;
            report.findings = audit_events(&collect.events);
            report.scrubbed = serde_json::to_string(&collect.events).map(|j| j.matches(crate::parse::pii::REDACTED).count()).unwrap_or(0);
            report.deterministic = parse_sample(adapter, feed, bytes).is_ok_and(|again| again == collect);
            report.events = collect.events.into_iter().take(limit).collect();
        }
    }
    report
}

fn pct(n: usize, total: usize) -> String {
    if total == 0 { "-".into() } else { format!("{:.0}%", 100.0 * n as f64 / total as f64) }
}

/// The report as text for a terminal or a log.
pub fn render_text(r: &CheckReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "adapter {}: feed {} ({}), sample {}", r.adapter, r.feed_url, r.format, r.sample);
    if let Some(e) = &r.parse_failure {
        let _ = writeln!(s, "PARSE FAILURE: {e}");
        return s;
    }
    let _ = writeln!(
        s,
        "{} events, {} record errors{}",
        r.event_count,
        r.error_count,
        if r.deterministic { "" } else { ", NOT DETERMINISTIC (two parses differ)" }
    );
    if !r.events.is_empty() {
        let _ = writeln!(s, "\nfirst {} events:", r.events.len());
        for e in &r.events {
            let when = e.schedule.start.map(|d| d.strftime("%Y-%m-%d %H:%M").to_string()).unwrap_or_else(|| "-".into());
            let venue = e.venue.name.as_deref().or(e.venue.address.as_deref()).unwrap_or("-");
            let _ = writeln!(s, "  {:<20} {:<16} {} @ {}", e.source_event_id, when, e.title, venue);
            if let Some(u) = &e.url {
                let _ = writeln!(s, "  {:<20} {:<16} {}", "", "", u);
            }
        }
    }
    if !r.errors.is_empty() {
        let shown =
            if r.errors.len() < r.error_count { format!(" (the first {} of {})", r.errors.len(), r.error_count) } else { String::new() };
        let _ = writeln!(s, "\nrecord errors{shown}:");
        for e in &r.errors {
            let _ = writeln!(s, "  {}: {}", e.record, e.reason);
        }
    }
    let _ = writeln!(s, "\nfield coverage (of {} events):", r.event_count);
    for (name, n) in r.coverage.rows() {
        let _ = writeln!(s, "  {name:<12} {n:>5}  {:>4}", pct(n, r.event_count));
    }
    if r.outside_region > 0 {
        let _ = writeln!(s, "  {} venue point(s) outside the manifest's region were dropped (not stored)", r.outside_region);
    }
    let _ = writeln!(s, "\nPII and image report:");
    if r.scrubbed > 0 {
        let _ = writeln!(
            s,
            "  {} e-mail address(es) or phone number(s) in free text were scrubbed to {}",
            r.scrubbed,
            crate::parse::pii::REDACTED
        );
    }
    if r.findings.is_empty() {
        let _ = writeln!(s, "  nothing e-mail-, phone- or image-shaped survived");
    } else {
        for f in &r.findings {
            let what = if f.kind == "pii" { "e-mail/phone-shaped text" } else { "image URL" };
            let _ = writeln!(s, "  {} {}: {what}: {:?}", f.event, f.field, f.text);
        }
    }
    s
}
