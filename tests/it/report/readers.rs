//! What the report's readers get, through the binary: pages a web server
//! running as another user can read (the umask, not a temporary file's
//! 0600); a fetch-log row whose host is too long to name a file is one
//! skipped row, never a stopped report; "zero" never reads as "one" in
//! French and Portuguese; a problem its source has recovered from is no
//! longer a problem to fix; the translation chart counts what `translate
//! status` counts.
use crate::common;
use crate::common::ok;
use crate::report::pages::{read, sel, text};

use common::{cityvibe, sample, workdir};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

const MADRID: &str = "[settings]\ntranslator = \"none\"\nlanguages = [\"es\", \"en\", \"fr\"]\n\n[sources.madrid]\n";
const MADRID_HOST: &str = "datos.madrid.es";

/// A folder with madrid's sample stored (through the binary, from the samples' folder).
fn with_madrid() -> tempfile::TempDir {
    let dir = workdir(MADRID);
    let samples = sample("");
    ok(&cityvibe(dir.path(), &["--mirror", samples.to_str().unwrap(), "run", "--source", "madrid", "--json"]));
    dir
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

/// `cityvibe report` under a umask, as a shell (cron) would start it.
fn report_under_umask(dir: &Path, umask: &str) -> std::process::Output {
    let bin = common::bin().display().to_string();
    std::process::Command::new("sh")
        .args(["-c", &format!("umask {umask} && exec {bin} report --out site --lang en")])
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("CITYVIBE_STATE_DIR", common::state_dir(dir))
        .output()
        .unwrap()
}

/// The report's pages follow the umask like any file the operator writes
/// (0644 under 022, 0640 under 027), so that a web server running as
/// another user can serve them; never a temporary file's 0600.
#[test]
fn report_pages_follow_the_umask_so_a_web_server_can_read_them() {
    let dir = with_madrid();
    let d = dir.path();
    for (umask, mode) in [("022", 0o644), ("027", 0o640)] {
        ok(&report_under_umask(d, umask));
        for page in ["site/index.html".to_string(), format!("site/hosts/{MADRID_HOST}.html"), format!("site/hosts/{MADRID_HOST}.fr.html")] {
            let got = std::fs::metadata(d.join(&page)).unwrap().permissions().mode() & 0o777;
            assert_eq!(got, mode, "{page} under umask {umask}: {got:o}");
        }
    }
}

/// A host of the fetch log 253 bytes long is a DNS name but no file name
/// (`NAME.pt.html` is over 255 bytes): its row is skipped and said, the
/// report writes every other page and ends well.
#[test]
fn a_host_name_too_long_for_a_file_is_one_skipped_row_not_a_stopped_report() {
    let dir = with_madrid();
    let d = dir.path();
    let label = "a".repeat(63);
    let long = format!("{label}.{label}.{label}.{}.es", "b".repeat(58));
    assert_eq!(long.len(), 253);
    let db = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    db.execute(
        "INSERT INTO fetch_log (run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome)
         VALUES (NULL, 'madrid', ?1, 'https://x/', ?2, 1, 200, 1, 0, 'ok')",
        rusqlite::params![long, now_ms() - 1000],
    )
    .unwrap();
    let out = cityvibe(d, &["report", "--out", "site", "--lang", "en"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "a bad row stopped the report: {said}");
    assert!(said.contains("no page for the host") && said.contains("(253 bytes)"), "the skipped row is said: {said}");
    assert!(d.join(format!("site/hosts/{MADRID_HOST}.pt.html")).is_file(), "the other hosts keep their pages");
    assert!(d.join("site/index.html").is_file());
}

/// French and Portuguese put 0 in CLDR's "one": a host with no request read
/// "Un code distinct" / "Um código distinto". Zero reads as zero.
#[test]
fn zero_codes_read_as_zero_in_french_and_portuguese() {
    let dir = workdir(MADRID);
    let d = dir.path();
    // A database with nothing fetched yet: every host has 0 codes.
    drop(cityvibe::store::Store::open(&d.join("data/cityvibe.db")).unwrap());
    ok(&cityvibe(d, &["report", "--out", "site"]));
    for (lang, zero, one) in [("fr", "0 codes distincts", "Un code distinct"), ("pt", "0 códigos distintos", "Um código distinto")] {
        let page = text(&read(&d.join(format!("site/hosts/{MADRID_HOST}.{lang}.html"))));
        assert!(page.contains(zero), "{lang}: {page}");
        assert!(!page.contains(one), "{lang}: zero codes read as one: {page}");
    }
}

/// The "latest problems" list: a failure its source has recovered from
/// (a later run `ok`) is no problem to fix any more, and its advice to
/// switch the source off is gone; a failure not followed by a success stays.
#[test]
fn a_problem_its_source_recovered_from_is_no_longer_a_problem_to_fix() {
    let dir = workdir(MADRID);
    let d = dir.path();
    drop(cityvibe::store::Store::open(&d.join("data/cityvibe.db")).unwrap());
    let db = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let at = now_ms() - 3_600_000;
    // Run 1: jcyl and madrid fail; run 2, 4 s later: jcyl is fine again.
    for (run, source, status, offset) in [(1, "jcyl", "failed", 0), (1, "madrid", "failed", 0), (2, "jcyl", "ok", 4_000)] {
        db.execute(
            "INSERT OR IGNORE INTO runs (id, started_at, finished_at, exit_code) VALUES (?1, ?2, ?2, 1)",
            rusqlite::params![run, at + offset],
        )
        .unwrap();
        let message = format!("HTTP 500; if it persists, run `cityvibe source disable {source} --reason \"…\"`");
        db.execute(
            "INSERT INTO run_sources (run_id, source, status, requests, not_modified, added, updated, withdrawn, record_errors, duration_ms, message)
             VALUES (?1, ?2, ?3, 1, 0, 0, 0, 0, 0, 100, ?4)",
            rusqlite::params![run, source, status, if status == "ok" { "1 events: 1 added" } else { &message }],
        )
        .unwrap();
    }
    ok(&cityvibe(d, &["report", "--out", "site", "--lang", "en"]));
    let index = read(&d.join("site/index.html"));
    let problems: String = index.select(&sel("ul.problems")).next().expect("the list of problems").text().collect();
    assert!(problems.contains("source disable madrid"), "madrid's open problem is listed: {problems}");
    assert!(!problems.contains("source disable jcyl"), "jcyl recovered 4 s later: {problems}");
}

/// The report's translation chart and `translate status` are one count: a
/// human translation made stale by a correction of its original is pending
/// in both, not "human" in one and "pending" in the other.
#[test]
fn the_translation_chart_counts_what_translate_status_counts() {
    let dir = with_madrid();
    let d = dir.path();
    let list = ok(&cityvibe(d, &["events", "list", "--json", "--source", "madrid", "--limit", "2", "--all"]));
    let ids: Vec<String> = serde_json::from_str::<serde_json::Value>(&list)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["source_event_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 2, "{list}");
    for id in &ids {
        ok(&cityvibe(d, &["translate", "correct", &format!("madrid:{id}"), "--lang", "en", "--title", "A human title"]));
    }
    // The second one's original changes: its human translation is no longer current.
    ok(&cityvibe(d, &["events", "correct", &format!("madrid:{}", ids[1]), "title", "Un título corregido", "--reason", "typo"]));
    let status: serde_json::Value = serde_json::from_str(&ok(&cityvibe(d, &["translate", "status", "--json"]))).unwrap();
    ok(&cityvibe(d, &["report", "--out", "site", "--lang", "en"]));
    let index = read(&d.join("site/index.html"));
    let table = index.select(&sel("table[data-chart=\"coverage\"]")).next().expect("the coverage chart's table");
    let series: Vec<String> =
        table.select(&sel("thead th[data-series]")).map(|th| th.value().attr("data-series").unwrap().to_string()).collect();
    let mut chart: BTreeMap<(String, String), u64> = BTreeMap::new();
    for row in table.select(&sel("tbody tr")) {
        let lang: String = row.select(&sel("th")).next().unwrap().text().collect();
        for (s, td) in series.iter().zip(row.select(&sel("td"))) {
            chart.insert((lang.trim().to_string(), s.clone()), td.text().collect::<String>().trim().parse().unwrap());
        }
    }
    for l in status["languages"].as_array().unwrap() {
        let lang = l["lang"].as_str().unwrap();
        for key in ["publisher", "human", "machine", "pending"] {
            assert_eq!(
                chart.get(&(lang.to_string(), key.to_string())).copied(),
                l[key].as_u64(),
                "{lang} {key}: chart {chart:?} status {l}"
            );
        }
    }
    let en = status["languages"].as_array().unwrap().iter().find(|l| l["lang"] == "en").unwrap();
    assert_eq!(en["human"], 1, "one current human translation: {en}");
}
