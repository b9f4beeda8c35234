//! `cityvibe adapter check` and `cityvibe adapter new`. The full
//! proof that a fresh scaffold compiles and passes `cargo test` is
//! `make scaffold-check` (it builds a copy of the crate).

use crate::common;

use cityvibe::adapter::{Adapter, EventSink, Feed, FeedError, Manifest};
use cityvibe::adapter_tools::check::{check_bytes, feed_for_sample};
use cityvibe::adapter_tools::scaffold::{NewAdapter, type_name};
use cityvibe::model::Event;
use common::{cityvibe, sample};
use std::io::BufRead;
use std::path::Path;

const MADRID_JSON: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const MADRID_CSV: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv";

fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn check_reports_events_coverage_and_no_pii_as_json() {
    let file = sample(MADRID_JSON);
    let out = cityvibe(here(), &["adapter", "check", "madrid", "--sample", file.to_str().unwrap(), "--json", "--limit", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json_of(&out);
    assert_eq!(v["ok"], true);
    assert_eq!(v["adapter"], "madrid");
    assert_eq!(v["format"], "json");
    assert_eq!(v["event_count"], 8);
    assert_eq!(v["error_count"], 0);
    assert_eq!(v["events"].as_array().unwrap().len(), 3);
    assert_eq!(v["deterministic"], true);
    assert_eq!(v["findings"].as_array().unwrap().len(), 0);
    // 51000107 has no venue: 7 of 8.
    assert_eq!(v["coverage"]["venue"], 7);
    assert_eq!(v["coverage"]["url"], 8);
    for k in ["coordinates", "end", "price", "description"] {
        assert!(v["coverage"][k].as_u64().is_some(), "{k}");
    }
    // The sample's box-office e-mail and phones were scrubbed (P5), and counted.
    assert_eq!(v["scrubbed"], 3, "{v}");
    let text = out.stdout.clone();
    let text = String::from_utf8_lossy(&text);
    assert!(!text.contains("taquilla@example.es") && !text.contains("91 123 45 67"), "{text}");
}

#[test]
fn check_prints_a_readable_report_and_picks_the_feed_by_extension() {
    let file = sample(MADRID_CSV);
    let out = cityvibe(here(), &["adapter", "check", "madrid", "--sample", file.to_str().unwrap(), "--limit", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(".csv (csv)"), "{text}");
    assert!(text.contains("8 events, 0 record errors"), "{text}");
    assert!(text.contains("first 2 events"), "{text}");
    assert!(text.contains("field coverage (of 8 events)"), "{text}");
    assert!(text.contains("coordinates"), "{text}");
    assert!(text.contains("nothing e-mail-, phone- or image-shaped survived"), "{text}");
}

#[test]
fn a_file_without_a_known_extension_uses_the_first_feed() {
    let diba = cityvibe::adapters::by_id("diba").unwrap();
    let f = feed_for_sample(diba, Path::new("data/samples/do.diba.cat/api/dataset/actesturisme_ca/format/json/pag-ini/1/pag-fi/1000"));
    assert_eq!(f.url, diba.manifest().feeds[0].url);
    let madrid = cityvibe::adapters::by_id("madrid").unwrap();
    assert_eq!(feed_for_sample(madrid, Path::new("x.XML")).format.name(), "xml");
}

#[test]
fn check_fails_on_a_body_that_does_not_parse() {
    let file = sample("fixtures/bad/madrid_truncated.json");
    let out = cityvibe(here(), &["adapter", "check", "madrid", "--sample", file.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json_of(&out);
    assert_eq!(v["ok"], false);
    assert!(v["parse_failure"].as_str().is_some_and(|s| !s.is_empty()), "{v}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not parse"));
}

// Without --json the reason is said once (in the report on stdout), and
// stderr says the sample failed: it used to print the reason twice.
#[test]
fn check_says_a_parse_failure_once() {
    let file = sample("fixtures/bad/madrid_truncated.json");
    let out = cityvibe(here(), &["adapter", "check", "madrid", "--sample", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let reason = "a string is left open";
    assert_eq!(stdout.matches(reason).count() + stderr.matches(reason).count(), 1, "stdout: {stdout}\nstderr: {stderr}");
    assert!(stdout.contains("PARSE FAILURE") && stderr.contains("madrid: the sample does not parse"), "{stdout}\n{stderr}");
}

#[test]
fn check_lists_per_record_errors() {
    // One good service, one with 31/02/2026, one with a fin of 31/02/2027.
    let file = sample("fixtures/bad/esmadrid_bad_date.xml");
    let out = cityvibe(here(), &["adapter", "check", "esmadrid", "--sample", file.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "record errors are reported, not fatal");
    let v = json_of(&out);
    assert_eq!(v["event_count"], 1, "{v}");
    assert_eq!(v["error_count"], 2, "{v}");
    assert_eq!(v["errors"].as_array().unwrap().len() as u64, v["error_count"].as_u64().unwrap());
    assert!(v["errors"][0]["reason"].as_str().is_some());
}

#[test]
fn check_refuses_an_unknown_adapter_or_a_missing_file() {
    let out = cityvibe(here(), &["adapter", "check", "nowhere", "--sample", "x.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("madrid"), "names the known adapters");
    let out = cityvibe(here(), &["adapter", "check", "madrid", "--sample", "/nonexistent/x.json"]);
    assert_eq!(out.status.code(), Some(2));
}

/// An adapter that leaks: an e-mail as an id, a phone in the province, and
/// an image URL as the venue.
struct Leaky;

impl Adapter for Leaky {
    fn manifest(&self) -> &'static Manifest {
        // Any valid manifest will do: only the parser matters here.
        &cityvibe::adapters::madrid::MANIFEST
    }
    fn parse(&self, _: &Feed, _: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        sink.push(Ok(Event::new("taquilla@example.es", "Concierto", "es").unwrap()));
        let mut ev = Event::new("1", "Concierto", "es").unwrap();
        ev.venue.province = Some("912 345 678".into());
        ev.venue.name = Some("https://img.example.es/cartel.jpg".into());
        sink.push(Ok(ev));
        Ok(())
    }
}

#[test]
fn check_fails_when_personal_data_or_an_image_url_survives() {
    let feed = &cityvibe::adapters::madrid::MANIFEST.feeds[0];
    let r = check_bytes(&Leaky, feed, "leaky.json", b"[]", 5);
    assert!(r.failed());
    let kinds: Vec<(&str, &str)> = r.findings.iter().map(|f| (f.field.as_str(), f.kind)).collect();
    assert!(kinds.contains(&("venue.name", "image")), "{kinds:?}");
    // The core scrubs every text field (P5; the province too)
    // and refuses an id that is contact data, as a record error that does not quote it.
    assert!(!kinds.iter().any(|k| k.1 == "pii"), "{kinds:?}");
    assert_eq!((r.event_count, r.error_count), (1, 1));
    let json = serde_json::to_string(&r.errors).unwrap();
    assert!(json.contains("P5") && !json.contains("taquilla"), "{json}");
    let text = cityvibe::adapter_tools::check::render_text(&r);
    assert!(text.contains("image URL"), "{text}");
}

/// A crate skeleton: the registry and the switchboard of this crate.
fn skeleton() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("adapters")).unwrap();
    std::fs::copy(here().join("adapters/mod.rs"), dir.path().join("adapters/mod.rs")).unwrap();
    std::fs::copy(here().join("sources.toml"), dir.path().join("sources.toml")).unwrap();
    dir
}

#[test]
fn new_writes_the_adapter_its_registry_entry_a_disabled_row_and_a_sample() {
    let dir = skeleton();
    let root = dir.path().to_str().unwrap();
    let out = cityvibe(dir.path(), &["adapter", "new", "bilbao", "--host", "www.bilbao.eus", "--format", "xml", "--root", root]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));

    let src = std::fs::read_to_string(dir.path().join("adapters/bilbao.rs")).unwrap();
    assert!(src.contains("id: \"bilbao\""));
    assert!(src.contains("host: \"www.bilbao.eus\""));
    assert!(src.contains("url: \"https://www.bilbao.eus/TODO/bilbao.xml\", format: Format::Xml"));
    assert!(src.contains("#[test]"));
    assert!(src.contains("no e-mail, phone, fax, contact-name or image field"));
    // The typed record has no contact or image field (P4, P5).
    let record = &src[src.find("struct Record {").unwrap()..];
    let record = &record[..record.find('}').unwrap()];
    for bad in ["email", "mail", "phone", "tel", "fax", "contact", "image", "img"] {
        assert!(!record.contains(bad), "Record has {bad}: {record}");
    }
    // Adapters never do I/O: nothing the lint target forbids.
    for bad in ["std::fs", "std::net", "ureq", "rusqlite", "File::", "TcpStream", "Command::"] {
        assert!(!src.contains(bad), "{bad}");
    }

    let registry = std::fs::read_to_string(dir.path().join("adapters/mod.rs")).unwrap();
    assert!(registry.lines().any(|l| l == "pub mod bilbao;"));
    assert!(registry.contains("&bilbao::Bilbao"));

    let toml_text = std::fs::read_to_string(dir.path().join("sources.toml")).unwrap();
    let config: cityvibe::config::Config = toml::from_str(&toml_text).unwrap();
    let row = &config.sources["bilbao"];
    assert!(!row.enabled, "a new source starts disabled");
    assert!(toml_text.starts_with(&std::fs::read_to_string(here().join("sources.toml")).unwrap()), "the file keeps its layout");

    let sample = std::fs::read_to_string(dir.path().join("data/samples/www.bilbao.eus/TODO/bilbao.xml")).unwrap();
    assert!(sample.contains("<event id=\"bilbao-0001\">"));

    // Twice is refused as a usage mistake (exit 2, as the exit codes of
    // docs/OPERATING.md say), naming the file, and nothing is overwritten.
    let again = cityvibe(dir.path(), &["adapter", "new", "bilbao", "--host", "www.bilbao.eus", "--root", root]);
    assert_eq!(again.status.code(), Some(2), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(String::from_utf8_lossy(&again.stderr).contains("bilbao.rs already exists"));
    assert_eq!(std::fs::read_to_string(dir.path().join("adapters/bilbao.rs")).unwrap(), src);
}

/// Run outside the crate root, `adapter new` says where to run it, with
/// the usage exit (2), not the exit of an internal failure (4).
#[test]
fn new_outside_the_crate_root_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let out = cityvibe(dir.path(), &["adapter", "new", "bilbao", "--host", "www.bilbao.eus", "--root", root]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("from the crate root"), "{err}");
    assert!(!dir.path().join("adapters").exists(), "nothing written");
}

#[test]
fn new_refuses_bad_arguments() {
    let dir = skeleton();
    let root = dir.path().to_str().unwrap();
    for args in [
        vec!["adapter", "new", "bilbao", "--host", "www.bilbao.eus", "--format", "yaml", "--root", root],
        vec!["adapter", "new", "Bilbao", "--host", "www.bilbao.eus", "--root", root],
        vec!["adapter", "new", "bilbao", "--host", "https://www.bilbao.eus/", "--root", root],
    ] {
        let out = cityvibe(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    assert!(!dir.path().join("adapters/bilbao.rs").exists());
}

#[test]
fn every_format_scaffolds_a_sample_matching_its_feed() {
    for format in [cityvibe::adapter::Format::Json, cityvibe::adapter::Format::Xml, cityvibe::adapter::Format::Csv] {
        let n = NewAdapter { id: "zaragoza".into(), host: "www.zaragoza.es".into(), format };
        let src = n.adapter_source();
        assert!(src.contains(&format!("pub struct {};", type_name("zaragoza"))));
        assert!(src.contains(&n.sample_path().to_string_lossy().to_string()), "the unit test includes the sample");
        assert!(n.sample().contains("zaragoza-0002"));
        assert!(!src.contains("{{"), "a placeholder was left: {src}");
    }
}
