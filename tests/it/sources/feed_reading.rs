//! How the record readers take odd and
//! broken bodies, through the binary and `--mirror DIR` (P20: a broken feed
//! never wipes stored events; one odd record never sinks a feed).
use crate::common;

use common::{cityvibe, sample, workdir};
use std::path::Path;

const MADRID_JSON: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const MADRID_CSV: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv";
const MADRID_XML: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml";
const ESMADRID: &str = "www.esmadrid.com/opendata/agenda_v1_es.xml";
const JCYL: &str = "datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json";
const ANDALUCIA: &str = "datos.juntadeandalucia.es/api/v0/schedule/all?format=json";
/// gencat's first page (a paged feed: `--mirror DIR` serves each page at its URL).
const GENCAT: &str = "analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0";
const EUSKADI: &str = "opendata.euskadi.eus/contenidos/ds_eventos/agenda_cultura_euskadi/es_kultura/adjuntos/kulturklik.json";

fn diba(lang: &str) -> String {
    format!("do.diba.cat/api/dataset/actesturisme_{lang}/format/json/pag-ini/1/pag-fi/1000")
}

use common::place;

fn toml(sources: &[&str]) -> String {
    common::sources_toml(sources, "")
}

fn sample_bytes(rel: &str) -> Vec<u8> {
    std::fs::read(sample(rel)).unwrap()
}

fn with_bom(rel: &str) -> Vec<u8> {
    let mut b = b"\xEF\xBB\xBF".to_vec();
    b.extend(sample_bytes(rel));
    b
}

/// `run --json` with this mirror; the report's sources by id.
fn run(dir: &Path, mirror: &Path) -> serde_json::Map<String, serde_json::Value> {
    run_with(dir, mirror, &[])
}

fn run_with(dir: &Path, mirror: &Path, extra: &[&str]) -> serde_json::Map<String, serde_json::Value> {
    let mut args = vec!["--mirror", mirror.to_str().unwrap(), "run", "--json"];
    args.extend_from_slice(extra);
    let out = cityvibe(dir, &args);
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    v["sources"].as_array().unwrap().iter().map(|s| (s["id"].as_str().unwrap().to_string(), s.clone())).collect()
}

/// The same report as [`run`], from the library on simulated time (the
/// samples' crawl delays, 10 s between diba's feeds, are not the subject).
fn run_simulated(dir: &Path, mirror: &Path) -> serde_json::Map<String, serde_json::Value> {
    let v = serde_json::to_value(common::run_on_simulated_time(dir, mirror, &[])).unwrap();
    v["sources"].as_array().unwrap().iter().map(|s| (s["id"].as_str().unwrap().to_string(), s.clone())).collect()
}

fn db(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join("data/cityvibe.db")).unwrap()
}

fn active(dir: &Path, source: &str) -> i64 {
    db(dir).query_row("SELECT count(*) FROM events WHERE source = ?1 AND status = 'active'", [source], |r| r.get(0)).unwrap()
}

/// A UTF-8 byte-order mark before a JSON, CSV or XML feed
/// is skipped, for every adapter.
#[test]
fn byte_order_marks_are_skipped_for_every_adapter_and_format() {
    let dir = workdir(&toml(&["madrid", "esmadrid", "diba", "jcyl", "andalucia", "gencat", "euskadi"]));
    let mirror = dir.path().join("mirror");
    place(&mirror, ANDALUCIA, &with_bom(ANDALUCIA));
    place(&mirror, GENCAT, &with_bom(GENCAT));
    place(&mirror, EUSKADI, &with_bom(EUSKADI));
    // madrid: only its JSON answers, so no fallback can hide a failure.
    place(&mirror, MADRID_JSON, &with_bom(MADRID_JSON));
    place(&mirror, ESMADRID, &with_bom(ESMADRID));
    for l in ["ca", "es", "en"] {
        place(&mirror, &diba(l), &with_bom(&diba(l)));
    }
    place(&mirror, JCYL, &with_bom(JCYL));
    let report = run_simulated(dir.path(), &mirror);
    for (id, s) in &report {
        assert_eq!(s["status"], "ok", "{id}: {s}");
        assert!(s["added"].as_u64().unwrap() > 0, "{id}: {s}");
    }
    // madrid's CSV and XML alone, each with a mark.
    for rel in [MADRID_CSV, MADRID_XML] {
        let dir = workdir(&toml(&["madrid"]));
        let mirror = dir.path().join("mirror");
        place(&mirror, rel, &with_bom(rel));
        let s = &run(dir.path(), &mirror)["madrid"];
        assert_eq!(s["status"], "ok", "{rel}: {s}");
        assert!(s["added"].as_u64().unwrap() > 0, "{rel}: {s}");
    }
}

/// The portal's own February 2018 snapshot carries one
/// invalid escape (`Usera\Pte de Vallecas`); it is read as the characters
/// it shows, with a record warning, and all 666 events are kept.
#[test]
fn invalid_escape_in_the_2018_snapshot_keeps_666_events() {
    let Some(path) = common::realdata("madrid_300107/300107-0-agenda-actividades-eventos_2018-02.json") else { return };
    let dir = workdir(&toml(&["madrid"]));
    let mirror = dir.path().join("mirror");
    place(&mirror, MADRID_JSON, &std::fs::read(path).unwrap());
    let s = &run(dir.path(), &mirror)["madrid"];
    assert_eq!(s["status"], "ok", "{s}");
    assert_eq!(s["added"], 666, "{s}");
    assert!(s["message"].as_str().unwrap().contains("invalid escape"), "the warning is reported: {s}");
    let venue: String = db(dir.path())
        .query_row("SELECT venue_name FROM events WHERE venue_name LIKE '%Usera%Vallecas%' LIMIT 1", [], |r| r.get(0))
        .unwrap();
    assert!(venue.contains("Usera\\Pte de Vallecas"), "{venue}");
}

/// `bytes` cut at the end of the last `</close>` before `share` of its length.
fn cut_after_last(bytes: &[u8], close: &str, share: f64) -> Vec<u8> {
    let limit = (bytes.len() as f64 * share) as usize;
    let text = &bytes[..limit];
    let at = text.windows(close.len()).rposition(|w| w == close.as_bytes()).expect("a record end") + close.len();
    bytes[..at].to_vec()
}

fn cut(bytes: &[u8], share: f64) -> Vec<u8> {
    bytes[..(bytes.len() as f64 * share) as usize].to_vec()
}

/// P20: a feed that ends without its closing structure is
/// a failed fetch for every adapter: nothing stored, nothing withdrawn (the
/// listed events the same, field for field), the run exits 1, and the
/// message and the log name the source's URL. madrid's three formats are all cut
/// (the CSV at 60 %, mid-row; the XML cleanly after a record, its root
/// unclosed; the JSON mid-file), so no fallback can answer.
#[test]
fn a_cut_feed_fails_and_withdraws_nothing_p20() {
    let dir = workdir(&toml(&["madrid", "esmadrid", "diba", "jcyl", "andalucia", "gencat", "euskadi"]));
    let whole = dir.path().join("whole");
    for rel in [MADRID_JSON, ESMADRID, JCYL, ANDALUCIA, GENCAT, EUSKADI, &diba("ca"), &diba("es"), &diba("en")] {
        place(&whole, rel, &sample_bytes(rel));
    }
    // The stored state before: through the library on simulated time.
    let first = run_simulated(dir.path(), &whole);
    let before: Vec<(String, i64)> = first.keys().map(|id| (id.clone(), active(dir.path(), id))).collect();
    for (id, n) in &before {
        assert_eq!(first[id]["status"], "ok", "{id}: {}", first[id]);
        assert!(*n > 0, "{id}");
    }

    let cut_dir = dir.path().join("cut");
    place(&cut_dir, MADRID_JSON, &cut(&sample_bytes(MADRID_JSON), 0.6));
    place(&cut_dir, MADRID_CSV, &cut(&sample_bytes(MADRID_CSV), 0.6));
    place(&cut_dir, MADRID_XML, &cut_after_last(&sample_bytes(MADRID_XML), "</contenido>", 0.8));
    place(&cut_dir, ESMADRID, &cut(&sample_bytes(ESMADRID), 0.7));
    place(&cut_dir, &diba("ca"), &cut(&sample_bytes(&diba("ca")), 0.95));
    for l in ["es", "en"] {
        place(&cut_dir, &diba(l), &sample_bytes(&diba(l)));
    }
    place(&cut_dir, JCYL, &cut(&sample_bytes(JCYL), 0.5));
    place(&cut_dir, ANDALUCIA, &cut(&sample_bytes(ANDALUCIA), 0.5));
    place(&cut_dir, GENCAT, &cut(&sample_bytes(GENCAT), 0.5));
    place(&cut_dir, EUSKADI, &cut(&sample_bytes(EUSKADI), 0.5));
    let listed_before = listed(dir.path());
    // A second run within the period is a manual one (P7).
    let out = cityvibe(dir.path(), &["--mirror", cut_dir.to_str().unwrap(), "run", "--json", "--force"]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("madrid") && said.contains("300107-0-agenda-actividades-eventos.json"), "{said}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {said}"));
    let second: serde_json::Map<String, serde_json::Value> =
        v["sources"].as_array().unwrap().iter().map(|s| (s["id"].as_str().unwrap().to_string(), s.clone())).collect();
    for (id, n) in &before {
        let s = &second[id];
        assert_eq!(s["status"], "failed", "{id}: {s}");
        assert_eq!(s["withdrawn"], 0, "{id}: {s}");
        assert_eq!(active(dir.path(), id), *n, "{id}: stored events kept");
    }
    let madrid = second["madrid"]["message"].as_str().unwrap();
    for (rel, why) in [(MADRID_JSON, "closing brackets"), (MADRID_CSV, "cut"), (MADRID_XML, "closing </Contenidos>")] {
        assert!(madrid.contains(&format!("https://{rel}")), "{madrid}");
        assert!(madrid.contains(why), "{why}: {madrid}");
    }
    assert!(second["diba"]["message"].as_str().unwrap().contains("https://do.diba.cat/"), "{}", second["diba"]);
    assert!(second["jcyl"]["message"].as_str().unwrap().contains("https://datosabiertos.jcyl.es/"), "{}", second["jcyl"]);
    assert!(second["andalucia"]["message"].as_str().unwrap().contains("https://datos.juntadeandalucia.es/"), "{}", second["andalucia"]);
    assert!(second["gencat"]["message"].as_str().unwrap().contains("https://analisi.transparenciacatalunya.cat/"), "{}", second["gencat"]);
    assert_eq!(listed(dir.path()), listed_before, "a cut feed changed the stored events");
}

/// Every stored event as `events list --json` gives it.
fn listed(dir: &Path) -> Vec<serde_json::Value> {
    let out = cityvibe(dir, &["events", "list", "--json", "--all", "--limit", "100000", "--at", common::SAMPLES_AT]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn mirror_run(dir: &Path, mirror: &Path) -> std::process::Command {
    let mut cmd = common::command(dir);
    cmd.args(["--mirror", mirror.to_str().unwrap(), "run"]);
    cmd
}

/// A record whose JSON string holds 100 MB of control
/// bytes is refused on its own (not read into 16 times the body), the
/// other records are stored, and the peak stays under twice the body plus
/// 50 MB.
#[test]
fn control_bytes_in_one_string_take_memory_bounded_by_the_body() {
    let dir = workdir(&toml(&["madrid"]));
    let mirror = dir.path().join("mirror");
    let sample = String::from_utf8(sample_bytes(MADRID_JSON)).unwrap();
    let graph = sample.find("\"@graph\"").unwrap();
    let open = graph + sample[graph..].find('[').unwrap() + 1;
    const POISON: usize = 40 << 20;
    let mut body = sample.as_bytes()[..open].to_vec();
    body.extend_from_slice(b"{\"id\": \"poison\", \"title\": \"x\", \"description\": \"");
    body.extend(std::iter::repeat_n(b'\x01', POISON));
    body.extend_from_slice(b"\"},");
    body.extend_from_slice(&sample.as_bytes()[open..]);
    place(&mirror, MADRID_JSON, &body);
    // Its own program's high-water mark, read at its exit (wait4's
    // ru_maxrss also counts the test process it was forked from).
    let ended = crate::operator::run_bounds::bounded(mirror_run(dir.path(), &mirror), u64::MAX, std::time::Duration::from_secs(600));
    let kib = ended.peak_kib;
    assert!(ended.status.success(), "{}: {}", ended.status, ended.stderr);
    let stored = active(dir.path(), "madrid");
    assert!(stored > 0);
    let poison: i64 = db(dir.path()).query_row("SELECT count(*) FROM events WHERE source_event_id = 'poison'", [], |r| r.get(0)).unwrap();
    assert_eq!(poison, 0, "the oversized record is refused");
    let bound = (2 * body.len() as i64 + (50 << 20)) / 1024;
    eprintln!("peak RSS {kib} KiB for a {} KiB body (bound {bound} KiB)", body.len() / 1024);
    assert!(kib < bound, "peak RSS {kib} KiB over {bound} KiB");
}

/// One text field is capped at 64 KB, cut at a character
/// boundary, with a record warning; the event is kept.
#[test]
fn a_huge_field_is_cut_to_64_kb_with_a_warning() {
    let dir = workdir(&toml(&["jcyl"]));
    let mirror = dir.path().join("mirror");
    let sample = String::from_utf8(sample_bytes(JCYL)).unwrap();
    // Just after the opening quote of the first description.
    let key = sample.find("\"descripcion\"").expect("a descripcion") + "\"descripcion\"".len();
    let at = key + sample[key..].find('"').unwrap() + 1;
    let mut body = sample[..at].to_string();
    body.push_str(&"ñandú ".repeat(30_000)); // about 240 KB, two-byte characters
    body.push_str(&sample[at..]);
    place(&mirror, JCYL, body.as_bytes());
    let s = &run(dir.path(), &mirror)["jcyl"];
    assert_eq!(s["status"], "ok", "{s}");
    assert!(s["message"].as_str().unwrap().contains("cut to the 64 KB"), "{s}");
    let longest: i64 = db(dir.path()).query_row("SELECT max(length(CAST(description AS BLOB))) FROM events", [], |r| r.get(0)).unwrap();
    assert!(longest <= 64 * 1024, "{longest}");
    assert!(longest > 60 * 1024, "{longest}");
}
