//! The conformance suite every adapter gets for free: each test
//! walks `cityvibe::adapters::ALL`, so a new adapter is checked the moment it
//! is registered. Each test collects every failure before asserting, so one
//! run lists everything that is wrong.

use cityvibe::adapter::{Adapter, FeedRole, parse_bytes};
use cityvibe::adapter_tools::{audit_events, manifest_problems, sample_rel_path, todo_fields};
use cityvibe::adapters::ALL;
use cityvibe::config::Config;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn assert_none(what: &str, failures: Vec<String>) {
    assert!(failures.is_empty(), "{what}:\n  {}", failures.join("\n  "));
}

fn sources_toml() -> Config {
    let text = std::fs::read_to_string(root().join("sources.toml")).expect("sources.toml");
    toml::from_str(&text).expect("sources.toml parses")
}

/// The bytes of the sample of each feed: data/samples/<host>/<path>, where
/// `--mirror data/samples` serves its first page (the feed itself when not paged).
fn sample_of(url: &str) -> Result<(PathBuf, Vec<u8>), String> {
    let rel = sample_rel_path(url).ok_or_else(|| format!("{url} is not a URL"))?;
    let path = root().join("data/samples").join(rel);
    let bytes = std::fs::read(&path).map_err(|e| format!("no sample for {url}: {} ({e})", path.display()))?;
    Ok((path, bytes))
}

#[test]
fn there_are_adapters() {
    assert!(!ALL.is_empty());
}

#[test]
fn ids_are_unique_and_match_their_file() {
    let mut failures = Vec::new();
    let mut seen = BTreeSet::new();
    let registry = std::fs::read_to_string(root().join("adapters/mod.rs")).unwrap();
    for a in ALL {
        let id = a.manifest().id;
        if !seen.insert(id) {
            failures.push(format!("id {id:?} is used by two adapters"));
        }
        let file = root().join("adapters").join(format!("{id}.rs"));
        match std::fs::read_to_string(&file) {
            Err(_) => failures.push(format!("adapter {id:?} has no file adapters/{id}.rs")),
            Ok(text) => {
                if !text.contains(&format!("id: \"{id}\"")) {
                    failures.push(format!("adapters/{id}.rs does not declare `id: \"{id}\"`"));
                }
            }
        }
        if !registry.lines().any(|l| l.trim() == format!("pub mod {id};")) {
            failures.push(format!("adapters/mod.rs has no `pub mod {id};`"));
        }
    }
    assert_none("adapter ids", failures);
}

#[test]
fn manifests_are_valid() {
    let config = sources_toml();
    let mut failures = Vec::new();
    for a in ALL {
        let m = a.manifest();
        for p in manifest_problems(m) {
            failures.push(format!("{}: {p}", m.id));
        }
        // A draft (fields still `TODO`) may exist, but only switched off.
        let todo = todo_fields(m);
        if !todo.is_empty() && config.enabled(m.id) {
            failures.push(format!(
                "{}: enabled in sources.toml (or has no row) while its manifest still has TODO in: {}",
                m.id,
                todo.join(", ")
            ));
        }
        // P14: a robots.txt review still pending ships switched off.
        if m.pending_review().is_some() && config.enabled(m.id) {
            failures.push(format!("{}: enabled in sources.toml (or has no row) while its robots.txt review is pending", m.id));
        }
    }
    assert_none("manifests", failures);
}

#[test]
fn every_sample_parses_to_events() {
    let mut failures = Vec::new();
    for a in ALL {
        let m = a.manifest();
        for feed in m.feeds {
            let (path, bytes) = match sample_of(&feed.page_url(0)) {
                Ok(x) => x,
                Err(e) => {
                    failures.push(format!("{}: {e}", m.id));
                    continue;
                }
            };
            match parse_bytes(*a, feed, &bytes) {
                Err(e) => failures.push(format!("{}: sample {} does not parse: {e}", m.id, path.display())),
                Ok(got) if got.events.is_empty() => {
                    failures.push(format!("{}: sample {} gives no event ({} record errors)", m.id, path.display(), got.errors.len()))
                }
                Ok(got) => {
                    for e in &got.events {
                        // A feed that mixes languages names its candidates
                        // (`Adapter::original_languages`): an event's is one of them.
                        let mixed = a.original_languages();
                        let known = e.lang == feed.lang || mixed.contains(&e.lang.as_str());
                        if feed.role == FeedRole::Primary && !known {
                            failures.push(format!(
                                "{}: event {} has lang {:?}, the feed says {:?} (and its adapter names {mixed:?})",
                                m.id, e.source_event_id, e.lang, feed.lang
                            ));
                        }
                    }
                }
            }
        }
    }
    assert_none("samples", failures);
}

#[test]
fn parsing_is_deterministic() {
    let mut failures = Vec::new();
    for a in ALL {
        let m = a.manifest();
        for feed in m.feeds {
            let Ok((_, bytes)) = sample_of(&feed.page_url(0)) else { continue };
            let (Ok(one), Ok(two)) = (parse_bytes(*a, feed, &bytes), parse_bytes(*a, feed, &bytes)) else { continue };
            let json = |c: &cityvibe::adapter::Collect| serde_json::to_string(&c.events).unwrap();
            if one.events != two.events || json(&one) != json(&two) || one.errors != two.errors {
                failures.push(format!("{}: two parses of {} differ", m.id, feed.url));
            }
        }
    }
    assert_none("determinism", failures);
}

// P4, P5: nothing e-mail- or phone-shaped, and no image URL, in any text
// field of the events as they would be stored.
#[test]
fn no_personal_data_or_image_urls_come_out() {
    let mut failures = Vec::new();
    for a in ALL {
        let m = a.manifest();
        for feed in m.feeds {
            let Ok((_, bytes)) = sample_of(&feed.page_url(0)) else { continue };
            let Ok(got) = parse_bytes(*a, feed, &bytes) else { continue };
            for f in audit_events(&got.events) {
                failures.push(format!("{}: {} event {} field {}: {} {:?}", m.id, feed.url, f.event, f.field, f.kind, f.text));
            }
        }
    }
    assert_none("PII and images in parsed samples", failures);
}

// The same audit over the project's PII fixtures, where every field that can
// carry contact data or an image holds one.
#[test]
fn pii_fixtures_leave_nothing_behind() {
    let dir = root().join("data/samples/fixtures/pii");
    let mut failures = Vec::new();
    // A missing folder, an adapter without a fixture, or a fixture that does
    // not parse would each make this audit pass without auditing: all fail.
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten().collect();
    for a in ALL {
        let m = a.manifest();
        let mine: Vec<_> = entries.iter().filter(|e| e.file_name().to_string_lossy().starts_with(m.id)).collect();
        if mine.is_empty() {
            failures.push(format!("{}: no PII fixture in {}", m.id, dir.display()));
        }
        for entry in mine {
            let name = entry.file_name().to_string_lossy().to_string();
            let feed = m.feeds.iter().find(|f| name.ends_with(&format!(".{}", f.format.name()))).unwrap_or(&m.feeds[0]);
            let bytes = std::fs::read(entry.path()).unwrap();
            let got = match parse_bytes(*a, feed, &bytes) {
                Ok(got) if !got.events.is_empty() => got,
                Ok(_) => {
                    failures.push(format!("{}: fixture {name} yields no event to audit", m.id));
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{}: fixture {name} does not parse: {e}", m.id));
                    continue;
                }
            };
            for f in audit_events(&got.events) {
                failures.push(format!("{}: fixture {name} event {} field {}: {} {:?}", m.id, f.event, f.field, f.kind, f.text));
            }
        }
    }
    assert_none("PII and images from the fixtures", failures);
}

#[test]
fn every_sources_toml_row_names_a_known_adapter() {
    let config = sources_toml();
    let known: BTreeSet<&str> = ALL.iter().map(|a| a.manifest().id).collect();
    let unknown: Vec<String> =
        config.sources.keys().filter(|id| !known.contains(id.as_str())).map(|id| format!("[sources.{id}]")).collect();
    assert_none("rows of sources.toml naming no adapter", unknown);
    config.validate(ALL).expect("sources.toml validates against the adapters");
}

#[test]
fn every_adapter_file_is_registered() {
    let registered: BTreeSet<&str> = ALL.iter().map(|a| a.manifest().id).collect();
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(root().join("adapters")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if let Some(stem) = name.strip_suffix(".rs")
            && stem != "mod"
            && !registered.contains(stem)
        {
            failures.push(format!("adapters/{name} is not in adapters::ALL"));
        }
    }
    assert_none("unregistered adapter files", failures);
}

/// The adapter trait object is usable from outside the crate (the suite's premise).
#[test]
fn by_id_finds_every_adapter() {
    for a in ALL {
        let id = a.manifest().id;
        let found: &dyn Adapter = cityvibe::adapters::by_id(id).unwrap();
        assert_eq!(found.manifest().id, id);
    }
}
