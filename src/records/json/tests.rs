//! The JSON record driver's unit tests: the walk, the repair and the typed
//! driver together, through the driver's own entry points.

use super::repair::{Repaired, repair};
use super::*;
use std::cell::Cell;

fn records(body: &[u8], key: Option<&str>) -> Result<(Vec<serde_json::Value>, Vec<String>), Unreadable> {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for_each_element(
        body,
        key,
        |e| e.parse::<serde_json::Value>(),
        |item| match item {
            Item::Record(r) => out.push(r.unwrap_or_else(|e| panic!("{}: {}", e.record, e.reason))),
            Item::Refused(e) | Item::Warning(e) => notes.push(format!("{}: {}", e.record, e.reason)),
        },
    )?;
    Ok((out, notes))
}

#[test]
fn raw_controls_and_bad_escapes_are_read_as_shown() {
    let body = b"\xEF\xBB\xBF{\"@context\": {\"a\": [1, {\"b\": \"]\"}]}, \"@graph\": [\n{\"t\": \"line one\nline two\", \"n\": 1},\n{\"t\": \"Usera\\Pte \\u00e9 \\uZZ \\\" \x01\"}]}\n";
    let (recs, notes) = records(body, Some("@graph")).unwrap();
    assert_eq!(recs[0]["t"], "line one\nline two");
    assert_eq!(recs[0]["n"], 1);
    assert_eq!(recs[1]["t"], "Usera\\Pte \u{e9} \\uZZ \" \u{1}");
    assert_eq!(
        notes,
        [
            "#2 (line 4): invalid escape `\\P` read as the characters it shows",
            "#2 (line 4): invalid escape `\\u` read as the characters it shows"
        ]
    );
}

#[test]
fn a_body_cut_anywhere_is_unreadable() {
    let whole = br#"{"x": [1, 2], "elements": [{"id": "a", "v": [1, {"w": "x"}]}, {"id": "b"}], "n": 3}"#;
    assert_eq!(records(whole, Some("elements")).unwrap().0.len(), 2);
    for cut in 1..whole.len() - 1 {
        let r = records(&whole[..cut], Some("elements"));
        assert!(r.is_err(), "cut at {cut}: {:?}", String::from_utf8_lossy(&whole[..cut]));
    }
    assert!(records(b"[{\"a\": 1}, {\"a\": 2}", None).is_err());
    assert!(records(b"[1, 2]", None).is_ok());
    assert!(records(b"{\"other\": []}", Some("elements")).is_err());
    assert!(records(b"<html>", None).is_err());
}

/// The bytes an element was read from: itself when the strict read
/// found its end or when it was handed on whole (repaired or not).
fn read_bytes(e: &Element<'_>) -> Vec<u8> {
    let _ = e.parse::<serde_json::Value>();
    e.json[..e.len.get().unwrap_or(e.json.len())].to_vec()
}

/// An element the strict read could read is read as it was; every other
/// one as `repair` makes it: the same bytes and warnings as when every
/// element went through `repair`, alone or all in one array.
#[test]
fn only_elements_that_need_it_are_repaired_and_alike() {
    const PIECES: &[&str] = &["a", "é", " ", "\\n", "\n", "\r\n", "\t", "\x01", "\\P", "\\u00e9", "\\uZZ", "\\\"", "\\\\", "]", "}", ","];
    let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15);
    let mut elements: Vec<String> = (0..2000)
        .map(|_| {
            let text: String = (0..next() % 6).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
            format!("{{\"t\": \"{text}\", \"n\": [1, {{\"k\": \"{text}\"}}], \"m\": null}}")
        })
        .collect();
    elements.extend(["1\"2".to_string(), "{\"a\": 1\"x\", \"b\": \"\n\"}".to_string(), "{\"a\": 1} ".to_string()]);
    let (mut all_expected, mut all_expected_notes) = (Vec::new(), 0);
    for element in &elements {
        let body = format!("[{element}]");
        let (mut got, mut notes) = (Vec::new(), 0);
        for_each_element(body.as_bytes(), None, read_bytes, |item| match item {
            Item::Record(bytes) => got.push(bytes),
            Item::Warning(_) => notes += 1,
            Item::Refused(_) => unreachable!(),
        })
        .unwrap_or_else(|e| panic!("{element:?}: {}", e.0));
        let (mut fix, mut expected_notes) = (Vec::new(), 0);
        let expected = match repair(element.trim_end().as_bytes(), &mut fix, |_| expected_notes += 1) {
            Repaired::AsWas(j) => j.to_vec(),
            Repaired::InFix => fix.clone(),
        };
        assert_eq!(got, std::slice::from_ref(&expected), "{element:?}");
        assert_eq!(notes, expected_notes, "{element:?}");
        all_expected.push(expected);
        all_expected_notes += expected_notes;
    }
    let body = format!("[{}]", elements.join(",\n "));
    let (mut got, mut notes) = (Vec::new(), 0);
    let count = for_each_element(body.as_bytes(), None, read_bytes, |item| match item {
        Item::Record(bytes) => got.push(bytes),
        Item::Warning(_) => notes += 1,
        Item::Refused(_) => unreachable!(),
    })
    .unwrap();
    assert_eq!((count, notes), (elements.len(), all_expected_notes));
    assert!(got == all_expected, "the elements of one array read as each one alone");
}

/// A record the strict read can read is read once; one it cannot is read
/// again after its repair, and only that outcome is handed on.
#[test]
fn a_strict_record_is_read_once_a_repaired_one_twice() {
    let body = b"[{\"t\": \"a\"}, {\"t\": \"line\nbreak\"}, {\"t\": \"c\"}]";
    let reads = Cell::new(0);
    let mut handed = Vec::new();
    for_each_element(
        body,
        None,
        |e| {
            reads.set(reads.get() + 1);
            e.parse::<serde_json::Value>().map(|v| v["t"].as_str().unwrap_or_default().to_string()).map_err(|_| e.open)
        },
        |item| match item {
            Item::Record(r) => handed.push(r),
            _ => unreachable!(),
        },
    )
    .unwrap();
    assert_eq!(handed, [Ok("a".to_string()), Ok("line\nbreak".to_string()), Ok("c".to_string())]);
    assert_eq!(reads.get(), 4);
}

/// Every element's outcome, in order: `ok`, or the record error.
fn outcomes(body: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for_each_element(
        body,
        None,
        |e| e.record::<serde_json::Value>(),
        |item| match item {
            Item::Record(Ok(_)) => out.push("ok".to_string()),
            Item::Record(Err(e)) | Item::Refused(e) => out.push(format!("{}: {}", e.record, e.reason)),
            Item::Warning(_) => {}
        },
    )
    .unwrap_or_else(|e| panic!("{}", e.0));
    out
}

/// A closing bracket that closes nothing open does not make the walk stand
/// still on the next element: the broken record is one record error; the
/// records around it are read.
#[test]
fn a_stray_closing_bracket_is_one_record_error() {
    let got = outcomes(br#"[{"a": 1}, {"a": ]"x", "b": 1}, {"a": 2}]"#);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!((got[0].as_str(), got[2].as_str()), ("ok", "ok"), "{got:?}");
    assert!(got[1].starts_with("#2 (line 1): unreadable record"), "{got:?}");
    // A stray delimiter where an element should start moves the walk on too.
    let got = outcomes(br#"[{"a": 1} : {"a": 2}, ]"#);
    assert_eq!(got, ["ok", "#2 (line 1): record is not an object", "ok"]);
}

/// A record nested deeper than [`MAX_DEPTH`] is refused
/// alone, in time linear in its size.
#[test]
fn a_record_nested_too_deep_is_refused_alone() {
    let deep = 200_000;
    let body = format!("[{{\"a\": 1}}, {{\"d\": {}{}}}, {{\"a\": 2}}]", "[".repeat(deep), "]".repeat(deep));
    let started = crate::testing::thread_cpu();
    let got = outcomes(body.as_bytes());
    // Not a timed test of speed: quadratic depth handling of 400,000
    // brackets takes many minutes of CPU; linear, milliseconds. Its own CPU
    // time, which a loaded machine does not stretch; 30 s leaves room for a
    // debug build.
    let cpu = crate::testing::thread_cpu() - started;
    assert!(cpu < std::time::Duration::from_secs(30), "{cpu:?} of CPU");
    assert_eq!(got, ["ok", "#2 (line 1): record nests deeper than 128 levels; not read", "ok"]);
    let fine = format!("[{{\"d\": {}{}}}]", "[".repeat(100), "]".repeat(100));
    assert_eq!(outcomes(fine.as_bytes()), ["ok"]);
    // A mapping that skips the deep field reads it without a limit of
    // its own: the record is refused all the same.
    let mut refused = Vec::new();
    for_each_element(
        body.as_bytes(),
        None,
        |e| e.record::<serde::de::IgnoredAny>().is_ok(),
        |item| match item {
            Item::Refused(e) => refused.push(e.record),
            Item::Record(ok) => assert!(ok),
            Item::Warning(_) => {}
        },
    )
    .unwrap();
    assert_eq!(refused, ["#2 (line 1)"]);
}

#[test]
fn an_oversized_record_is_refused_alone() {
    let mut body = b"[{\"a\": \"".to_vec();
    body.extend(std::iter::repeat_n(b'\x01', RECORD_CAP));
    body.extend_from_slice(b"\"}, {\"a\": \"ok\"}]");
    let (recs, notes) = records(&body, None).unwrap();
    assert_eq!(recs.len(), 1);
    assert!(notes[0].contains("over the 32 MB"), "{notes:?}");
}

/// The typed driver maps each record once, a repaired one included, with
/// its position; an element that is not an object, or not the type, is a
/// record error carrying the id still readable from its bytes.
#[test]
fn read_records_maps_each_record_once_as_its_type() {
    #[derive(serde::Deserialize)]
    struct Rec<'a> {
        id: &'a str,
        t: String,
    }
    impl Record for Rec<'_> {
        type Of<'de> = Rec<'de>;
        const ID_KEY: &'static str = "id";
    }
    let body = b"{\"items\": [{\"id\": \"a\", \"t\": \"one\ntwo\"}, null, {\"id\": \"c\", \"t\": 3}, {\"id\": \"d\", \"t\": \"x\"}]}";
    let mut calls = Vec::new();
    let mut sink = crate::adapter::Collect::default();
    let count = read_records::<Rec>(&mut &body[..], Some("items"), &mut sink, |r, position| {
        calls.push(format!("{position} {} {:?}", r.id, r.t));
        Event::new(r.id, &r.t, "es").map_err(|e| RecordError::new(r.id, e))
    })
    .unwrap();
    assert_eq!(count, 4);
    assert_eq!(calls, ["1 a \"one\\ntwo\"", "4 d \"x\""]);
    let titles: Vec<&str> = sink.events.iter().map(|e| e.title.as_str()).collect();
    assert_eq!(titles, ["one\ntwo", "x"]);
    let errors: Vec<(String, Option<String>)> = sink.errors.iter().map(|e| (e.record.clone(), e.id.clone())).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0].0, "#2 (line 2)");
    assert_eq!(errors[1].1.as_deref(), Some("c"));
}

#[test]
fn a_jsonp_body_is_read_as_its_array_and_nothing_else_may_wrap_it() {
    let body = b"jsonCallback([ {\n  \"documentName\" : \"Goraki\"\n}, {\n  \"documentName\" : \"Ni ala zu\"\n} ]);\n";
    let (recs, notes) = records(body, None).unwrap();
    assert_eq!(recs.len(), 2, "{notes:?}");
    assert_eq!(recs[1]["documentName"], "Ni ala zu");
    // Without the semicolon, with blanks, a dotted name: still the array.
    assert_eq!(records(b"  cb.x ( [1, 2] )  ", None).unwrap().0.len(), 2);
    // A plain document is read as before.
    assert_eq!(records(b"[true, null]", None).unwrap().0.len(), 2);
    // Anything else around the array is refused, saying what is wrong.
    for (bad, says) in [
        (&b"jsonCallback([1, 2]"[..], "ends before its closing brackets"),
        (b"jsonCallback([1, 2]) x", "data after the JSONP callback"),
        (b"jsonCallback([1, 2]);;", "data after the JSONP callback"),
        (b"jsonCallback [1, 2]);", "expected `(`"),
        (b"jsonCallback([1, 2];", "not closed by `)`"),
        (b"<html>([1])", "expected an array"),
        (b"[1, 2]);", "data after the end of the document"),
    ] {
        let Err(Unreadable(why)) = records(bad, None) else { panic!("{:?} was read", String::from_utf8_lossy(bad)) };
        assert!(why.contains(says), "{:?}: {why}", String::from_utf8_lossy(bad));
    }
}
