//! Fuzzing the JSON, CSV and XML drivers: property tests (proptest,
//! on stable Rust) over the record drivers, through the adapters as a run
//! calls them (`parse_bytes`: byte-order mark, drivers, mapping, scrub).
//! The seeds are the real feeds of `../shared/realdata/` (read at test time,
//! never copied) and the project's samples, with the hostile cases of
//! [`HOSTILE`] as mutations. The properties: nothing panics; time stays linear in
//! the body (a bound per byte that a quadratic walk breaks at these sizes);
//! a valid record among garbage records is still found; garbage is record
//! errors, one per garbage record, never a hang or a lost feed.
//!
//! `make test` runs a short fixed number of cases (a few seconds);
//! `PROPTEST_CASES=N cargo test --test it sources::fuzz_drivers` runs N per property
//! (`CITYVIBE_REALDATA=DIR` when the real feeds are not at `../shared/realdata`).
use crate::common;

use cityvibe::adapter::{Adapter, Collect, Feed, Format, parse_bytes};
use cityvibe::adapters::{esmadrid::Esmadrid, jcyl::Jcyl, madrid::Madrid};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::time::Duration;

/// Cases per property: `PROPTEST_CASES`, else a few for `make test`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

fn runner(default: u32) -> TestRunner {
    TestRunner::new(Config { cases: cases(default), failure_persistence: None, ..Config::default() })
}

/// Hostile pieces: a 21-byte record whose stray bracket closes nothing, and
/// others that once hung or broke a driver.
const HOSTILE: &[&str] = &[
    r#"{"a": ]"x", "b": 1}"#,
    "]",
    "}",
    ":",
    "\"",
    "\\",
    "\\u",
    "\\uZZ",
    "\u{1}",
    "\r\n",
    ";",
    "\"\"",
    "<a>",
    "</a>",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&#x;",
    "&aacute;",
    "<script>",
    "\u{feff}",
];

/// A feed to parse and the adapter's feed of its format.
struct Seed {
    name: String,
    adapter: &'static dyn Adapter,
    feed: &'static Feed,
    body: Vec<u8>,
    /// Whether it is an agenda the adapter reads (not another table of the
    /// portal in the same format, kept as a seed of a feed error).
    agenda: bool,
}

fn feed_of(adapter: &'static dyn Adapter, format: Format) -> &'static Feed {
    adapter.manifest().feeds.iter().find(|f| f.format == format).expect("a feed of that format")
}

/// The corpus: every real feed there is, and the samples of the same shapes.
fn corpus() -> Vec<Seed> {
    let mut seeds = Vec::new();
    let mut add = |name: String, adapter: &'static dyn Adapter, format: Format, body: Vec<u8>| {
        let agenda = !name.contains("catalogo_rows");
        seeds.push(Seed { name, adapter, feed: feed_of(adapter, format), body, agenda })
    };
    for (rel, adapter, format) in [
        ("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json", &Madrid as &'static dyn Adapter, Format::Json),
        ("madrid_300107/300107-0-agenda-actividades-eventos_2018-02.json", &Madrid, Format::Json),
        ("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.csv", &Madrid, Format::Csv),
        ("madrid_300107/catalogo_rows_2025-10-20_cp1252.csv", &Madrid, Format::Csv),
        ("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.xml", &Madrid, Format::Xml),
        ("jcyl_agenda_cultural/eventos-de-la-agenda-cultural-categorizados-y-geolocalizados_2026-04.json", &Jcyl, Format::Json),
    ] {
        // `CITYVIBE_REALDATA=DIR` points elsewhere (a worktree whose
        // `../shared/` is not beside it).
        let path = match std::env::var_os("CITYVIBE_REALDATA") {
            Some(dir) => Some(std::path::PathBuf::from(dir).join(rel)),
            None => common::realdata(rel),
        };
        if let Some(path) = path {
            add(rel.to_string(), adapter, format, std::fs::read(path).unwrap());
        }
    }
    for (rel, adapter, format) in [
        ("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json", &Madrid as &'static dyn Adapter, Format::Json),
        ("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv", &Madrid, Format::Csv),
        ("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml", &Madrid, Format::Xml),
        ("www.esmadrid.com/opendata/agenda_v1_es.xml", &Esmadrid, Format::Xml),
        ("datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json", &Jcyl, Format::Json),
    ] {
        add(rel.to_string(), adapter, format, std::fs::read(common::sample(rel)).unwrap());
    }
    seeds
}

/// Parse, with the CPU time it took on this thread (the drivers start no
/// thread of their own): what a loaded machine does not stretch, unlike
/// wall time. A panic fails the property (proptest
/// catches it).
fn parse_timed(seed: &Seed, body: &[u8]) -> (Result<Collect, String>, Duration) {
    let started = common::thread_cpu();
    let out = parse_bytes(seed.adapter, seed.feed, body).map_err(|e| e.0);
    (out, common::thread_cpu() - started)
}

/// The CPU time a parse of `len` bytes may take here (a debug build):
/// generous per byte, yet a walk quadratic in the body breaks it by far at
/// these sizes.
fn time_bound(len: usize) -> Duration {
    Duration::from_secs(3) + Duration::from_micros(10 * len as u64)
}

/// One change to a body.
#[derive(Debug, Clone)]
enum Mutation {
    Flip { at: u32, byte: u8 },
    Insert { at: u32, piece: usize, times: u16 },
    Delete { at: u32, len: u16 },
    Repeat { at: u32, len: u16, times: u8 },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<u32>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        (any::<u32>(), 0..HOSTILE.len(), prop_oneof![Just(1u16), 1..20u16, Just(3000u16)])
            .prop_map(|(at, piece, times)| Mutation::Insert { at, piece, times }),
        (any::<u32>(), 1..400u16).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<u32>(), 1..200u16, 1..50u8).prop_map(|(at, len, times)| Mutation::Repeat { at, len, times }),
    ]
}

fn apply(body: &mut Vec<u8>, m: &Mutation) {
    let at = |a: u32, len: usize| if len == 0 { 0 } else { a as usize % len };
    match *m {
        Mutation::Flip { at: a, byte } if !body.is_empty() => {
            let i = at(a, body.len());
            body[i] = byte;
        }
        Mutation::Flip { .. } => {}
        Mutation::Insert { at: a, piece, times } => {
            let i = at(a, body.len() + 1);
            let piece = HOSTILE[piece].repeat(times as usize);
            body.splice(i..i, piece.into_bytes());
        }
        Mutation::Delete { at: a, len } => {
            let i = at(a, body.len());
            let end = (i + len as usize).min(body.len());
            body.drain(i..end);
        }
        Mutation::Repeat { at: a, len, times } => {
            let i = at(a, body.len());
            let end = (i + len as usize).min(body.len());
            let slice = body[i..end].repeat(times as usize);
            body.splice(end..end, slice);
        }
    }
}

/// Any seed, mutated up to eight times: the drivers never panic, and end
/// in time linear in the body, with events, record errors or a feed error.
#[test]
fn fuzz_any_feed_mutated_never_panics_and_ends_in_linear_time() {
    let seeds = corpus();
    let total: usize = seeds.iter().map(|s| s.body.len()).sum();
    eprintln!("corpus: {} seeds, {} bytes; {} cases", seeds.len(), total, cases(24));
    let mut runner = runner(24);
    runner
        .run(&(0..seeds.len(), proptest::collection::vec(mutation(), 1..8)), |(i, mutations)| {
            let seed = &seeds[i];
            let mut body = seed.body.clone();
            for m in &mutations {
                apply(&mut body, m);
            }
            let (_, took) = parse_timed(seed, &body);
            prop_assert!(took < time_bound(body.len()), "{}: {} bytes took {took:?}", seed.name, body.len());
            Ok(())
        })
        .unwrap();
}

/// Every real feed, whole, parses with events and in linear time.
#[test]
fn fuzz_seeds_parse_whole() {
    for seed in corpus() {
        let (out, took) = parse_timed(&seed, &seed.body);
        if !seed.agenda {
            assert!(out.is_err(), "{}: not an agenda", seed.name);
            continue;
        }
        let out = out.unwrap_or_else(|e| panic!("{}: {e}", seed.name));
        eprintln!("{}: {} bytes, {} events, {} record errors, {took:?}", seed.name, seed.body.len(), out.events.len(), out.errors.len());
        assert!(!out.events.is_empty(), "{}", seed.name);
        assert!(took < time_bound(seed.body.len()), "{}: {took:?}", seed.name);
    }
}

/// A JSON string's inside: text, raw controls, valid and invalid escapes,
/// brackets; never an unescaped quote or a lone final backslash.
fn json_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-zA-Z0-9 áéñ]{0,8}",
        Just("\\n".to_string()),
        Just("\\\"".to_string()),
        Just("\\u00e9".to_string()),
        Just("\\P".to_string()),
        Just("\\uZZ".to_string()),
        Just("\n".to_string()),
        Just("\u{1}".to_string()),
        Just("]}[{:,".to_string()),
    ];
    proptest::collection::vec(piece, 0..6).prop_map(|p| p.concat())
}

/// One garbage element of a JSON array: an object of broken tokens (stray
/// `]`, `:` and `,`, bare words, strings as above, arrays nested up to 300
/// deep). Its brackets balance as the lenient walk reads them, so it is one
/// element, and it is no event (it has no id).
fn json_garbage() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        json_text().prop_map(|t| format!("\"{t}\"")),
        "[a-z0-9]{1,6}",
        Just("]".to_string()),
        Just(":".to_string()),
        Just(",".to_string()),
        (1..300usize).prop_map(|d| format!("{}1{}", "[".repeat(d), "]".repeat(d))),
    ];
    proptest::collection::vec(token, 0..8).prop_map(|t| format!("{{{}}}", t.join(" ")))
}

fn jcyl_record(id: u64) -> String {
    format!(
        r#"{{"id_evento": {id}, "titulo": "Concierto", "fecha_inicio": "2026-12-20", "fecha_fin": "2026-12-21", "categoria": "Conciertos", "nombre_localidad": "León"}}"#
    )
}

/// A valid jcyl record among garbage elements is read; each garbage element
/// is one record error; the feed is never lost.
#[test]
fn fuzz_a_valid_json_record_among_garbage_is_found() {
    let seed = Seed { name: "jcyl".into(), adapter: &Jcyl, feed: feed_of(&Jcyl, Format::Json), body: Vec::new(), agenda: true };
    let garbage = || proptest::collection::vec(json_garbage(), 0..6);
    runner(32)
        .run(&(garbage(), garbage()), |(before, after)| {
            let mut elements = before.clone();
            elements.push(jcyl_record(4242));
            elements.extend(after.iter().cloned());
            let body = format!("[{}]", elements.join(",\n"));
            let (out, took) = parse_timed(&seed, body.as_bytes());
            let out = out.map_err(|e| TestCaseError::fail(format!("feed lost: {e}: {body}")))?;
            prop_assert!(took < time_bound(body.len()));
            prop_assert_eq!(out.events.iter().map(|e| e.source_event_id.as_str()).collect::<Vec<_>>(), ["4242"], "{}", body);
            prop_assert_eq!(out.errors.len(), before.len() + after.len(), "{}", body);
            Ok(())
        })
        .unwrap();
}

/// One garbage CSV row of madrid's 29 fields: bare text, or quoted text
/// holding `;`, doubled quotes and line ends.
fn csv_garbage() -> impl Strategy<Value = String> {
    let field = prop_oneof!["[a-zA-Z0-9 .,-]{0,10}", "[a-zA-Z ;\n]{0,10}".prop_map(|t| format!("\"{}\"\"x\"", t)),];
    proptest::collection::vec(field, 29).prop_map(|f| f.join(";"))
}

/// The madrid CSV sample with garbage rows among its rows: all its events
/// are read, each garbage row is one record error.
#[test]
fn fuzz_valid_csv_rows_among_garbage_are_found() {
    let sample = std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv")).unwrap();
    let seed = Seed { name: "madrid csv".into(), adapter: &Madrid, feed: feed_of(&Madrid, Format::Csv), body: Vec::new(), agenda: true };
    let (whole, _) = parse_timed(&seed, &sample);
    let expected = whole.unwrap().events.len();
    let header_end = sample.iter().position(|&c| c == b'\n').unwrap() + 1;
    runner(32)
        .run(&(proptest::collection::vec(csv_garbage(), 0..6), any::<bool>()), |(rows, crlf)| {
            let end = if crlf { "\r\n" } else { "\n" };
            let mut body = sample[..header_end].to_vec();
            for row in &rows {
                body.extend_from_slice(row.as_bytes());
                body.extend_from_slice(end.as_bytes());
            }
            body.extend_from_slice(&sample[header_end..]);
            let (out, took) = parse_timed(&seed, &body);
            let out = out.map_err(|e| TestCaseError::fail(format!("feed lost: {e}")))?;
            prop_assert!(took < time_bound(body.len()));
            prop_assert_eq!(out.events.len(), expected);
            prop_assert_eq!(out.errors.len(), rows.len());
            Ok(())
        })
        .unwrap();
}

/// One garbage `<service>` of esmadrid: no id, elements nested up to 300
/// deep, text with entities and CDATA.
fn xml_garbage() -> impl Strategy<Value = String> {
    let text = prop_oneof![
        "[a-zA-Z0-9 ]{0,8}",
        Just("&amp;".to_string()),
        Just("&aacute;".to_string()),
        Just("&#233;".to_string()),
        Just("<![CDATA[<p>x]]>".to_string()),
    ];
    (proptest::collection::vec(text, 0..5), 0..300usize, "[a-z]{1,5}").prop_map(|(texts, depth, name)| {
        let inner = texts.concat();
        format!("<service>{}{inner}{}</service>", format!("<{name}>").repeat(depth), format!("</{name}>").repeat(depth))
    })
}

/// The esmadrid sample with garbage services among its services: all its
/// events are read, each garbage service is one record error.
#[test]
fn fuzz_valid_xml_records_among_garbage_are_found() {
    let sample = String::from_utf8(std::fs::read(common::sample("www.esmadrid.com/opendata/agenda_v1_es.xml")).unwrap()).unwrap();
    let seed = Seed { name: "esmadrid".into(), adapter: &Esmadrid, feed: feed_of(&Esmadrid, Format::Xml), body: Vec::new(), agenda: true };
    let (whole, _) = parse_timed(&seed, sample.as_bytes());
    let expected = whole.unwrap().events.len();
    let starts: Vec<usize> = sample.match_indices("<service ").map(|(i, _)| i).collect();
    runner(32)
        .run(&(proptest::collection::vec((xml_garbage(), 0..starts.len()), 0..6)), |garbage| {
            let mut body = sample.clone();
            // From the last position back, so earlier positions stay right.
            let mut placed = garbage.clone();
            placed.sort_by_key(|(_, at)| std::cmp::Reverse(*at));
            for (service, at) in &placed {
                body.insert_str(starts[*at], service);
            }
            let (out, took) = parse_timed(&seed, body.as_bytes());
            let out = out.map_err(|e| TestCaseError::fail(format!("feed lost: {e}")))?;
            prop_assert!(took < time_bound(body.len()));
            prop_assert_eq!(out.events.len(), expected);
            prop_assert_eq!(out.errors.len(), garbage.len());
            Ok(())
        })
        .unwrap();
}
