//! P5, through the binary: a record error says which field is wrong and
//! how, never the value. A start date holding an address with a zero-width
//! space or a number parted by no-break spaces, quoted by `{:?}`
//! (`q8\u{200b}@example.es`), would hide from the scrubber and reach
//! `runs`, `source list` and the report's problem list.
use crate::common;
use crate::translation::quality::{record, write_feed};

use common::{cityvibe, workdir};
use serde_json::Value;

fn text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Every file under `dir`, as text.
fn every_file(dir: &std::path::Path) -> String {
    let mut all = String::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            all.push_str(&every_file(&path));
        } else {
            all.push_str(&String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()));
        }
    }
    all
}

fn assert_no_value(what: &str, shown: &str) {
    for needle in ["q8", "example.es", "example\\", "345", "617", "u{200b}", "u{a0}", "someday"] {
        assert!(!shown.contains(needle), "P5: {what} quotes the bad value ({needle:?}): {shown}");
    }
}

#[test]
fn a_record_error_names_the_field_never_the_value_p5() {
    let dir =
        workdir("[settings]\ntranslator = \"none\"\nlanguages = [\"es\"]\nreport_dir = \"site\"\n\n[sources.madrid]\nenabled = true\n");
    let d = dir.path();
    let mut records: Vec<Value> = (1..=12).map(|i| record(&i.to_string(), "Taller de radio", "Un taller.", "Sala X")).collect();
    for (id, start, end) in [
        ("20", "q8\u{200b}@example.es", "2030-12-01 21:00:00.0"),
        ("21", "912\u{a0}345\u{a0}617", "2030-12-01 21:00:00.0"),
        ("22", "2030-12-01 19:00:00.0", "someday q8\u{200b}@example.es"),
    ] {
        let mut r = record(id, "Concierto", "Un concierto.", "Sala X");
        r["dtstart"] = Value::from(start);
        r["dtend"] = Value::from(end);
        records.push(r);
    }
    write_feed(d, &records);
    let run = cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid", "--json"]);
    assert!(run.status.success(), "{}", text(&run));
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    let source = &report["sources"][0];
    assert_eq!(source["record_errors"], 3, "{source}");
    let message = source["message"].as_str().unwrap();
    assert!(message.contains("bad start date in dtstart"), "the error names the field and what is wrong: {message}");
    assert_no_value("run --json", &text(&run));

    for args in [&["runs"][..], &["runs", "--json"], &["source", "list"], &["source", "list", "--json"], &["source", "show", "madrid"]] {
        let out = cityvibe(d, args);
        assert!(out.status.success(), "{args:?}: {}", text(&out));
        assert_no_value(&format!("`{}`", args.join(" ")), &text(&out));
    }
    let out = cityvibe(d, &["report", "--out", "site"]);
    assert!(out.status.success(), "{}", text(&out));
    let site = every_file(&d.join("site"));
    assert!(site.contains("bad start date in dtstart"), "the report lists the problem");
    assert_no_value("the report's pages", &site);
    assert_no_value("the database", &every_file(&d.join("data")));
}
