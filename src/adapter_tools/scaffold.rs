//! `cityvibe adapter new ID --host HOST --format json|xml|csv`: write a new
//! adapter that compiles and passes its own test before anyone edits it.
//!
//! It writes `adapters/ID.rs` (a manifest with every field to fill, marked
//! `TODO`; a typed record without contact or image fields; a parser; a unit
//! test), registers it in `adapters/mod.rs` (`pub mod ID;` and the `ALL`
//! entry), adds a *disabled* row to `sources.toml`, and writes a hand-made
//! sample under `data/samples/HOST/…` and, the same, as the adapter's PII
//! fixture under `data/samples/fixtures/pii/`. The conformance suite holds a source
//! whose manifest still has `TODO`s only to the rules a draft can keep; such
//! a source cannot be enabled until the review is written down.

use crate::adapter::Format;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// What `adapter new` was asked for.
#[derive(Debug, Clone)]
pub struct NewAdapter {
    pub id: String,
    pub host: String,
    pub format: Format,
}

/// The files written or changed.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Written {
    pub adapter: PathBuf,
    pub sample: PathBuf,
    /// The same sample as the adapter's PII fixture: its contact and image
    /// fields must come out of the parser unread (the conformance audit).
    pub pii_fixture: PathBuf,
    pub registry: PathBuf,
    pub sources: PathBuf,
}

/// Parse `json`, `xml` or `csv`.
pub fn parse_format(s: &str) -> Result<Format> {
    match s.to_ascii_lowercase().as_str() {
        "json" => Ok(Format::Json),
        "xml" => Ok(Format::Xml),
        "csv" => Ok(Format::Csv),
        other => bail!("--format {other:?}: use json, xml or csv"),
    }
}

/// The Rust type name of an adapter id: `my_city` → `MyCity`.
pub fn type_name(id: &str) -> String {
    id.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

const RESERVED: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop",
    "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
    "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try", "gen", "all", "by_id", "ids",
];

impl NewAdapter {
    /// Check the id and the host.
    pub fn validate(&self) -> Result<()> {
        let id = &self.id;
        if id.is_empty()
            || !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            || !id.starts_with(|c: char| c.is_ascii_lowercase())
            || id.ends_with('_')
            || id.contains("__")
        {
            bail!("adapter id {id:?}: use lower-case letters, digits and single '_', starting with a letter (it names adapters/{id}.rs)");
        }
        if RESERVED.contains(&id.as_str()) {
            bail!("adapter id {id:?} is a Rust keyword or a registry name");
        }
        let h = &self.host;
        let ok_host = !h.is_empty()
            && h.contains('.')
            && h.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
            && !h.starts_with(['.', '-'])
            && !h.ends_with(['.', '-']);
        if !ok_host {
            bail!("--host {h:?}: give a bare lower-case host name such as datos.example.es (no scheme, port or path)");
        }
        Ok(())
    }

    fn ext(&self) -> &'static str {
        self.format.name()
    }

    /// The placeholder feed URL; its `/TODO/` path marks it as not reviewed.
    pub fn feed_url(&self) -> String {
        format!("https://{}/TODO/{}.{}", self.host, self.id, self.ext())
    }

    /// `data/samples/HOST/TODO/ID.EXT`, relative to the crate root.
    pub fn sample_path(&self) -> PathBuf {
        PathBuf::from("data/samples").join(super::sample_rel_path(&self.feed_url()).expect("a valid URL"))
    }

    /// The text of `adapters/ID.rs`.
    pub fn adapter_source(&self) -> String {
        let (variant, parser, imports) = match self.format {
            Format::Json => ("Json", JSON_PARSER, "use crate::parse::loose::Loose;\nuse crate::records::json;\nuse std::io::BufRead;\n"),
            Format::Xml => ("Xml", XML_PARSER, "use crate::records::xml;\nuse std::io::BufRead;\n"),
            Format::Csv => ("Csv", CSV_PARSER, "use crate::records::csv;\nuse std::io::BufRead;\n"),
        };
        let sample = self.sample_path();
        TEMPLATE
            .replace("{{PARSER}}", parser)
            .replace("{{IMPORTS}}", imports)
            .replace("{{VARIANT}}", variant)
            .replace("{{FEED_URL}}", &self.feed_url())
            .replace("{{SAMPLE}}", &sample.to_string_lossy())
            .replace("{{TYPE}}", &type_name(&self.id))
            .replace("{{ID}}", &self.id)
            .replace("{{HOST}}", &self.host)
            .replace("{{EXT}}", self.ext())
    }

    /// The hand-made sample: two invented events, the first with contact and
    /// image fields that the parser must leave unread.
    pub fn sample(&self) -> String {
        let sample = match self.format {
            Format::Json => JSON_SAMPLE,
            Format::Xml => XML_SAMPLE,
            Format::Csv => CSV_SAMPLE,
        };
        sample.replace("{{ID}}", &self.id).replace("{{HOST}}", &self.host)
    }

    /// The `[sources.ID]` row appended to sources.toml: off until reviewed.
    pub fn sources_row(&self) -> String {
        format!(
            "\n# {host}: new adapter `{id}`, not reviewed yet. A binary built before this row\n\
             # knows no `{id}`: rebuild (`cargo build --release`), then run\n\
             # `cityvibe adapter check {id} --sample FILE`; enable once docs/ADAPTERS.md's checklist is done.\n\
             [sources.{id}]\nenabled = false\ndisabled_reason = \"new adapter, not reviewed yet\"\n",
            host = self.host,
            id = self.id
        )
    }

    /// Write everything under the crate root `root`. Refuses to overwrite.
    pub fn write(&self, root: &Path) -> Result<Written> {
        self.validate()?;
        let adapter = root.join("adapters").join(format!("{}.rs", self.id));
        let registry = root.join("adapters/mod.rs");
        let sources = root.join("sources.toml");
        let sample = root.join(self.sample_path());
        let pii_fixture = root.join("data/samples/fixtures/pii").join(format!("{}.{}", self.id, self.ext()));
        // Mistakes in how the command was called are usage errors (exit 2),
        // not the tool's own failures.
        if adapter.exists() {
            crate::bail_usage!("{} already exists: pick another id, or edit that adapter", adapter.display());
        }
        if !registry.is_file() {
            crate::bail_usage!("there is no {} here: run `cityvibe adapter new` from the crate root", registry.display());
        }
        let mod_text = std::fs::read_to_string(&registry).with_context(|| format!("reading {}", registry.display()))?;
        let new_mod = register(&mod_text, &self.id, &type_name(&self.id))?;
        let sources_text = std::fs::read_to_string(&sources).with_context(|| format!("reading {}", sources.display()))?;
        let doc: toml_edit::DocumentMut = sources_text.parse().with_context(|| format!("{} is not valid TOML", sources.display()))?;
        if doc.get("sources").and_then(|s| s.get(&self.id)).is_some() {
            crate::bail_usage!("{} already has a [sources.{}] row: pick another id", sources.display(), self.id);
        }
        let mut new_sources = sources_text.clone();
        if !new_sources.ends_with('\n') {
            new_sources.push('\n');
        }
        new_sources.push_str(&self.sources_row());
        new_sources.parse::<toml_edit::DocumentMut>().context("the new sources.toml row does not parse")?;

        std::fs::write(&adapter, self.adapter_source()).with_context(|| format!("writing {}", adapter.display()))?;
        if !sample.exists() {
            std::fs::create_dir_all(sample.parent().expect("a folder")).with_context(|| format!("creating {}", sample.display()))?;
            std::fs::write(&sample, self.sample()).with_context(|| format!("writing {}", sample.display()))?;
        }
        if !pii_fixture.exists() {
            std::fs::create_dir_all(pii_fixture.parent().expect("a folder"))
                .with_context(|| format!("creating {}", pii_fixture.display()))?;
            std::fs::write(&pii_fixture, self.sample()).with_context(|| format!("writing {}", pii_fixture.display()))?;
        }
        std::fs::write(&registry, new_mod).with_context(|| format!("writing {}", registry.display()))?;
        std::fs::write(&sources, new_sources).with_context(|| format!("writing {}", sources.display()))?;
        Ok(Written { adapter, sample, pii_fixture, registry, sources })
    }
}

/// Add `pub mod ID;` (in alphabetical place among the `pub mod` lines) and
/// `&ID::TYPE` at the end of the `ALL` array to the registry's text.
pub fn register(mod_rs: &str, id: &str, ty: &str) -> Result<String> {
    let mod_line = format!("pub mod {id};");
    if mod_rs.lines().any(|l| l.trim() == mod_line) {
        bail!("adapters/mod.rs already has `{mod_line}`");
    }
    // 1. The module line.
    let mut lines: Vec<String> = mod_rs.lines().map(str::to_string).collect();
    let mods: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("pub mod ") && lines[i].ends_with(';')).collect();
    let at = match mods.iter().find(|&&i| lines[i].as_str() > mod_line.as_str()) {
        Some(&i) => i,
        None => mods.last().map(|i| i + 1).context("adapters/mod.rs has no `pub mod` line to add to")?,
    };
    lines.insert(at, mod_line);
    let mut text = lines.join("\n");
    if mod_rs.ends_with('\n') {
        text.push('\n');
    }
    // 2. The ALL entry: before the `]` that closes `pub static ALL ... = &[`.
    let start = text.find("pub static ALL").context("adapters/mod.rs has no `pub static ALL`")?;
    let open = start + text[start..].find("&[").context("`pub static ALL` is not `= &[ ... ]`")? + 2;
    let close = open + text[open..].find("];").context("`pub static ALL` has no closing `];`")?;
    let inner = &text[open..close];
    let entry = format!("&{id}::{ty}");
    let replacement = if inner.contains('\n') {
        // One entry per line, with a trailing comma.
        let body = inner.trim_end();
        let indent = inner.lines().rfind(|l| !l.trim().is_empty()).map(|l| &l[..l.len() - l.trim_start().len()]).unwrap_or("    ");
        let comma = if body.trim().is_empty() || body.ends_with(',') { "" } else { "," };
        format!("{body}{comma}\n{indent}{entry},\n")
    } else if inner.trim().is_empty() {
        entry
    } else {
        format!("{}, {entry}", inner.trim_end().trim_end_matches(','))
    };
    text.replace_range(open..close, &replacement);
    Ok(text)
}

const TEMPLATE: &str = r#"//! {{HOST}}: TODO the dataset's name and what it holds.
//!
//! Written by `cityvibe adapter new`. NOT REVIEWED YET: its row in
//! sources.toml is disabled. Before enabling it, do the review in
//! docs/ADAPTERS.md and replace every TODO below:
//! - read https://{{HOST}}/robots.txt for CityVibeBot and `*`: no feed URL
//!   may be disallowed; a Crawl-delay becomes `min_delay` (P8, P14);
//! - write the exact feed URL(s) and where they may redirect (P3, P13), and
//!   move the sample to the matching path under data/samples/{{HOST}}/;
//! - copy the licence and the attribution wording from the publisher (P19);
//! - list in `review.notes` every field of the feed that holds personal data
//!   (e-mail, phone, fax, contact names) or images, and keep them out of the
//!   typed record below (P4, P5);
//! - rewrite the sample by hand in the real feed's shape (invented data).

use crate::adapter::*;
use crate::model::{Event, Schedule};
use crate::parse::dates::parse_date_and_time;
use crate::parse::text::{html_to_line, html_to_text, non_empty, one_line};
{{IMPORTS}}use std::time::Duration;

pub struct {{TYPE}};

pub static MANIFEST: Manifest = Manifest {
    id: "{{ID}}",
    name: "TODO: the dataset's name",
    publisher: "TODO: who publishes it",
    host: "{{HOST}}",
    // TODO: the exact feed URL(s), written after reading robots.txt (P3, P14).
    feeds: &[Feed { url: "{{FEED_URL}}", format: Format::{{VARIANT}}, lang: "es", role: FeedRole::Primary, paging: Paging::Whole }],
    plan: FetchPlan::FirstThatParses,
    // TODO: the hosts and path prefixes a feed URL may redirect to (P13).
    redirects: &[RedirectRule { host: "{{HOST}}", path_prefix: "/TODO/" }],
    // TODO: at least robots.txt's Crawl-delay for CityVibeBot or `*` (P8); never below 1 s.
    min_delay: Duration::from_secs(10),
    daily_cap: 40,
    language: "es",
    // Where the source's events are, as WGS84 boxes (south, west, north, east): a point
    // outside is dropped and counted. `&[]` leaves Spain's outline alone as the check.
    region: &[],
    licence: Licence { name: "TODO: the licence's name", url: "https://TODO.invalid/licence" },
    attribution: "TODO: the attribution text the publisher asks for",
    dataset_page: "https://TODO.invalid/dataset-page",
    links: EventLinks::EventPage,
    update_schedule: "TODO: how often the publisher updates the feed",
    review: Review {
        date: "TODO: YYYY-MM-DD",
        robots_txt: "TODO: what robots.txt says for CityVibeBot and *, and its Crawl-delay",
        robots_sha256: None,
        notes: "TODO: which fields hold personal data (e-mail, phone, fax, contact names) or images, and that the record leaves them out",
        // Read once a person has read https://{{HOST}}/robots.txt and written it above. While
        // Pending, only a `--mirror` run reads this source (no request reaches {{HOST}}).
        robots: RobotsReview::Pending,
    },
};

impl Adapter for {{TYPE}} {
    fn manifest(&self) -> &'static Manifest {
        &MANIFEST
    }

    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        parse_feed(feed, body, sink)
    }
}

/// One record of the feed: only the fields CityVibe keeps.
///
/// There is deliberately no e-mail, phone, fax, contact-name or image field
/// here, whatever the feed offers: a field that is not in the record is
/// never read, so personal data cannot reach the store, the logs, the
/// exports or the translator (POLICY P5), and image URLs are never kept
/// (P4). Do not add such a field; list it in `review.notes` instead.
#[derive(Debug, Default, serde::Deserialize)]
struct Record {
    #[serde(default)]
    id: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    start: String,
    #[serde(default)]
    end: String,
    #[serde(default)]
    venue: String,
    #[serde(default)]
    url: String,
}

/// One record as an event. A record error without an id is named by the
/// framework by its place in the feed.
fn map(r: &Record, lang: &str) -> Result<Event, RecordError> {
    let err = |reason: String| RecordError::new(r.id.trim(), reason);
    let mut ev = Event::new(&r.id, &html_to_line(&r.title), lang).map_err(err)?;
    ev.description = html_to_text(&r.description);
    ev.url = non_empty(&r.url);
    let (first, start_time) = parse_date_and_time(&r.start).ok_or_else(|| err("bad start date in the start field".into()))?;
    let end = if r.end.trim().is_empty() { None } else { Some(parse_date_and_time(&r.end).ok_or_else(|| err("bad end date in the end field".into()))?) };
    ev.schedule = Schedule::from_span(first, end.map(|e| e.0), start_time, end.and_then(|e| e.1), Vec::new(), Vec::new());
    ev.venue.name = non_empty(&one_line(&r.venue));
    // TODO: map the feed's own categories (ev.source_categories) to CityVibe's
    // with `Category::from_label`; an event left without one is filed under Other.
    Ok(ev)
}
{{PARSER}}
#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written sample (invented data), as the mirror serves it.
    const SAMPLE: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/{{SAMPLE}}"));

    #[test]
    fn sample_parses_without_contact_data_or_images() {
        let got = parse_bytes(&{{TYPE}}, &MANIFEST.feeds[0], SAMPLE).expect("the sample parses");
        assert!(got.errors.is_empty(), "{:?}", got.errors);
        assert_eq!(got.events.len(), 2);
        let first = &got.events[0];
        assert_eq!(first.source_event_id, "{{ID}}-0001");
        assert_eq!(first.title, "Concierto de ejemplo");
        assert_eq!(first.venue.name.as_deref(), Some("Auditorio de ejemplo"));
        assert!(first.schedule.start.is_some());
        // The sample's e-mail, phone and image fields are never read (P4, P5).
        let all = format!("{:?}", got.events);
        for needle in ["taquilla@", "912 345 678", ".jpg"] {
            assert!(!all.contains(needle), "{needle} leaked into {all}");
        }
    }
}
"#;

const JSON_PARSER: &str = r#"
/// The record as it comes in JSON: tolerant of numbers, nulls and objects
/// where text was expected, so one odd record does not sink the feed.
#[derive(serde::Deserialize)]
struct JsonRecord<'a> {
    #[serde(borrow, default)]
    id: Loose<'a>,
    #[serde(borrow, default)]
    title: Loose<'a>,
    #[serde(borrow, default)]
    description: Loose<'a>,
    #[serde(borrow, default)]
    start: Loose<'a>,
    #[serde(borrow, default)]
    end: Loose<'a>,
    #[serde(borrow, default)]
    venue: Loose<'a>,
    #[serde(borrow, default)]
    url: Loose<'a>,
}

/// What each element of the array is read as.
impl json::Record for JsonRecord<'_> {
    type Of<'de> = JsonRecord<'de>;
    // TODO: the key of the event id: a record that cannot be read but whose
    // id can keeps its stored event.
    const ID_KEY: &'static str = "id";
}

fn parse_feed(feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
    // The framework reads the body leniently (BOMs, raw line breaks, bad
    // escapes), refuses a cut one, and names records by position.
    // TODO: `None` reads a top-level array; give the key when the records sit under one.
    json::read_records::<JsonRecord>(body, None, sink, |j, _position| {
        let s = |l: &Loose| l.as_str().to_string();
        let r = Record {
            id: s(&j.id),
            title: s(&j.title),
            description: s(&j.description),
            start: s(&j.start),
            end: s(&j.end),
            venue: s(&j.venue),
            url: s(&j.url),
        };
        map(&r, feed.lang)
    })
    .map_err(|e| FeedError::new(format!("not a JSON array of records: {e}")))?;
    Ok(())
}
"#;

const XML_PARSER: &str = r#"
/// Where the records are. Elements that hold contact data or images are
/// skipped whole by the driver, unread, wherever they appear (P4, P5).
/// TODO: the real feed's root and record elements; its contact and image elements.
const SHAPE: xml::Shape = xml::Shape { root: "events", record: "event", never_read: &["contact", "email", "phone", "image"] };

fn parse_feed(feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
    // The driver streams the body, checks the root, refuses a cut body and
    // names records by position; each record element comes as a small tree.
    xml::read(body, &SHAPE, sink, |event, _position| {
        let text = |name: &str| event.text_of(name).to_string();
        let r = Record {
            id: event.attribute("id").to_string(),
            title: text("title"),
            description: text("description"),
            start: text("start"),
            end: text("end"),
            venue: text("venue"),
            url: text("url"),
        };
        map(&r, feed.lang)
    })
    .map_err(|e| FeedError::new(format!("not this feed's XML: {e}")))?;
    Ok(())
}
"#;

const CSV_PARSER: &str = r#"
fn parse_feed(feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
    // The framework decodes (BOM, UTF-8 or Windows-1252), checks the header,
    // refuses a cut body and names rows by line. Only the record's columns
    // are deserialized; contact and image columns are never read (P4, P5).
    // TODO: the real feed's delimiter (often ';') and header names.
    csv::read(body, b',', &["id", "title"], sink, |row| map(&row.record::<Record>()?, feed.lang))
        .map_err(|e| FeedError::new(format!("not this feed's CSV: {e}")))?;
    Ok(())
}
"#;

const JSON_SAMPLE: &str = r#"[
  {
    "id": "{{ID}}-0001",
    "title": "Concierto de ejemplo",
    "description": "<p>Un concierto <strong>inventado</strong> para probar el adaptador.</p>",
    "start": "2026-12-12 19:00",
    "end": "2026-12-12 21:00",
    "venue": "Auditorio de ejemplo",
    "url": "https://{{HOST}}/agenda/{{ID}}-0001",
    "email": "taquilla@example.es",
    "phone": "912 345 678",
    "image": "https://{{HOST}}/img/{{ID}}-0001.jpg"
  },
  {
    "id": "{{ID}}-0002",
    "title": "Exposición de ejemplo",
    "description": "Una exposición inventada.",
    "start": "2026-12-01",
    "end": "2027-01-15",
    "venue": "Sala de ejemplo",
    "url": "https://{{HOST}}/agenda/{{ID}}-0002",
    "email": "",
    "phone": "",
    "image": ""
  }
]
"#;

const XML_SAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<events>
  <event id="{{ID}}-0001">
    <title>Concierto de ejemplo</title>
    <description><![CDATA[<p>Un concierto <strong>inventado</strong> para probar el adaptador.</p>]]></description>
    <start>2026-12-12 19:00</start>
    <end>2026-12-12 21:00</end>
    <venue>Auditorio de ejemplo</venue>
    <url>https://{{HOST}}/agenda/{{ID}}-0001</url>
    <contact><email>taquilla@example.es</email><phone>912 345 678</phone></contact>
    <image>https://{{HOST}}/img/{{ID}}-0001.jpg</image>
  </event>
  <event id="{{ID}}-0002">
    <title>Exposición de ejemplo</title>
    <description>Una exposición inventada.</description>
    <start>2026-12-01</start>
    <end>2027-01-15</end>
    <venue>Sala de ejemplo</venue>
    <url>https://{{HOST}}/agenda/{{ID}}-0002</url>
  </event>
</events>
"#;

const CSV_SAMPLE: &str = r#"id,title,description,start,end,venue,url,email,phone,image
{{ID}}-0001,Concierto de ejemplo,"<p>Un concierto <strong>inventado</strong> para probar el adaptador.</p>",2026-12-12 19:00,2026-12-12 21:00,Auditorio de ejemplo,https://{{HOST}}/agenda/{{ID}}-0001,taquilla@example.es,912 345 678,https://{{HOST}}/img/{{ID}}-0001.jpg
{{ID}}-0002,Exposición de ejemplo,Una exposición inventada.,2026-12-01,2027-01-15,Sala de ejemplo,https://{{HOST}}/agenda/{{ID}}-0002,,,
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names() {
        assert_eq!(type_name("madrid"), "Madrid");
        assert_eq!(type_name("my_city2"), "MyCity2");
    }

    #[test]
    fn registers_in_one_line_and_multi_line_arrays() {
        let one = "use x;\n\npub mod diba;\npub mod madrid;\n\npub static ALL: &[&dyn Adapter] = &[&madrid::Madrid, &diba::Diba];\n";
        let out = register(one, "bilbao", "Bilbao").unwrap();
        assert!(out.contains("pub mod bilbao;\npub mod diba;"), "{out}");
        assert!(out.contains("= &[&madrid::Madrid, &diba::Diba, &bilbao::Bilbao];"), "{out}");
        let multi = "pub mod madrid;\n\npub static ALL: &[&dyn Adapter] = &[\n    &madrid::Madrid,\n];\n";
        let out = register(multi, "zaragoza", "Zaragoza").unwrap();
        assert!(out.contains("pub mod madrid;\npub mod zaragoza;"), "{out}");
        assert!(out.contains("&[\n    &madrid::Madrid,\n    &zaragoza::Zaragoza,\n];"), "{out}");
        assert!(register(&out, "zaragoza", "Zaragoza").is_err());
    }

    #[test]
    fn refuses_bad_ids_and_hosts() {
        let n = |id: &str, host: &str| NewAdapter { id: id.into(), host: host.into(), format: Format::Json }.validate();
        assert!(n("bilbao", "www.bilbao.eus").is_ok());
        for (id, host) in [("Bilbao", "a.es"), ("1x", "a.es"), ("self", "a.es"), ("b", "https://a.es"), ("b", "a.es/x"), ("b", "localhost")]
        {
            assert!(n(id, host).is_err(), "{id} {host}");
        }
    }
}
