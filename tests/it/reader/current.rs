//! One meaning of "current" through the binary: "active" is the store's word
//! (not withdrawn), "current" the reader's (not ended). `events list`,
//! `export` (without `--from`), `holdings` and the report's summary count
//! the same current events on the same database and day; an ended fair is
//! "ended" in `holdings`, not "(active)"; `export --from` brings ended ones back.
use crate::common;
use crate::common::ok;

use common::{cityvibe, sample, workdir};
use serde_json::Value;
use std::process::Output;

fn json(out: &Output) -> Value {
    serde_json::from_str(&ok(out)).unwrap()
}

/// The number the report's events summary gives as current.
fn report_current(index: &str) -> u64 {
    let text: String = scraper::Html::parse_document(index).root_element().text().collect();
    if text.contains("None is current") {
        return 0;
    }
    if text.contains("One is current") {
        return 1;
    }
    let at = text.find(" are current").unwrap_or_else(|| panic!("no current count in the report: {text}"));
    let digits: String = text[..at].chars().rev().take_while(char::is_ascii_digit).collect::<Vec<_>>().into_iter().rev().collect();
    digits.parse().unwrap()
}

#[test]
fn events_list_holdings_export_and_the_report_agree_on_what_is_current() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\n");
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "run", "--source", "madrid"]));
    let all = json(&cityvibe(d, &["events", "list", "--all", "--json", "--limit", "100000"]));
    let ids: Vec<String> = all.as_array().unwrap().iter().map(|e| e["source_event_id"].as_str().unwrap().to_string()).collect();
    // One event becomes an April fair of a past year (ended whatever today
    // is), another one of a year to come (current whatever today is).
    let correct = |id: &str, field: &str, value: &str| {
        cityvibe(d, &["events", "correct", &format!("madrid:{id}"), field, value, "--reason", "test dates"]).status.success()
    };
    let mut dated = ids.iter().filter(|id| correct(id, "start", "2025-04-10T10:00") && correct(id, "end", "2025-04-13T20:00"));
    let fair = dated.next().expect("an event with one occurrence to date in the past").clone();
    let future = ids
        .iter()
        .find(|id| **id != fair && correct(id, "end", "2031-05-02T20:00") && correct(id, "start", "2031-05-02T10:00"))
        .expect("an event to date ahead")
        .clone();

    let listed = json(&cityvibe(d, &["events", "list", "--json", "--limit", "100000"]));
    let listed: Vec<&str> = listed.as_array().unwrap().iter().map(|e| e["source_event_id"].as_str().unwrap()).collect();
    let exported = json(&cityvibe(d, &["export", "--format", "json"]));
    let exported: Vec<&str> = exported.as_array().unwrap().iter().map(|e| e["source_event_id"].as_str().unwrap()).collect();
    let holdings = json(&cityvibe(d, &["holdings", "madrid", "--json"]));
    let held = &holdings["sources"][0];
    ok(&cityvibe(d, &["report", "--out", "site", "--lang", "en"]));
    let reported = report_current(&std::fs::read_to_string(d.join("site/index.html")).unwrap());

    assert!(!listed.contains(&fair.as_str()) && listed.contains(&future.as_str()), "{listed:?}");
    assert_eq!(exported.len(), listed.len(), "export without dates holds the events not ended: {exported:?} vs {listed:?}");
    assert!(!exported.contains(&fair.as_str()));
    assert_eq!(held["events_current"].as_u64(), Some(listed.len() as u64), "{held}");
    assert_eq!(held["events_active"].as_u64(), Some(ids.len() as u64), "active is the store's word: {held}");
    assert_eq!(reported, listed.len() as u64, "the report's current count");

    // --from opens the window back: the ended fair is exported again.
    let from = json(&cityvibe(d, &["export", "--format", "json", "--from", "2025-01-01"]));
    assert!(from.as_array().unwrap().iter().any(|e| e["source_event_id"] == fair.as_str()), "{from}");
    // The fair's page, asked about: "ended", not "(active)".
    let url = all.as_array().unwrap().iter().find(|e| e["source_event_id"] == fair.as_str()).unwrap()["url"].as_str().map(str::to_string);
    if let Some(url) = url {
        let text = ok(&cityvibe(d, &["holdings", &url]));
        let line = text.lines().find(|l| l.contains(&format!("madrid:{fair}"))).unwrap_or_else(|| panic!("{text}"));
        assert!(line.ends_with("(ended)"), "{line}");
    }
    let help = ok(&cityvibe(d, &["export", "--help"]));
    assert!(help.contains("not ended"), "export --help says what it holds without dates: {help}");
}
