//! A reader is never sent to a closed door: on the real Andalucía and
//! Catalonia feeds (`../shared/realdata`), read through the binary (a
//! `--mirror` run, then the stored events read back from the database),
//! every event whose hours name weekdays has no occurrence on a day the
//! text closes or does not name, and an opening night is one dated
//! occurrence, never the exhibition's daily hour.
//!
//! The oracle here is the test's own, plainer reading of the texts (the
//! weekday names, their "X a Y" ranges and "cerrado"/"tancat"), not the
//! kit's: `parse::week_hours` and `data/lang/*/hours.tsv` are what is tested.
//! Not for: the kit's word lists one example at a time (the data files'
//! examples, run by the language data test).
use crate::common;

use common::{cityvibe, place, sources_toml, workdir};
use jiff::civil::{Date, DateTime, Weekday, date};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ANDALUCIA: &str = "andalucia_agenda/agenda-eventos-junta-andalucia_2026-01.json";
const ANDALUCIA_FEED: &str = "datos.juntadeandalucia.es/api/v0/schedule/all?format=json";
const GENCAT: &str = "gencat_agenda_cultural/rhpv-yr4f_agenda-cultural-catalunya_2022-11.json";
const GENCAT_FEED: &str = "analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0";

#[derive(Debug, serde::Deserialize)]
struct Occurrence {
    start: DateTime,
    end: Option<DateTime>,
}

/// The real file through `--mirror`, and each stored event's occurrences.
fn stored(source: &str, real: &Path, feed: &str) -> BTreeMap<String, Vec<Occurrence>> {
    let dir = workdir(&sources_toml(&[source], ""));
    let mirror = dir.path().join("mirror");
    place(&mirror, feed, &std::fs::read(real).unwrap());
    let out = cityvibe(dir.path(), &["--mirror", mirror.to_str().unwrap(), "run", "--force", "--source", source, "--json"]);
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report["sources"][0]["status"], "ok", "{report}");
    let conn = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let mut st = conn.prepare("SELECT source_event_id, occurrences FROM events WHERE source = ?1").unwrap();
    st.query_map([source], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(|r| {
            let (id, json) = r.unwrap();
            let occurrences = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{id}: {e}: {json}"));
            (id, occurrences)
        })
        .collect()
}

/// Each id's hours text, the last row's (the store keeps the last row of an id).
fn texts(real: &Path, id: &str, hours: &str) -> BTreeMap<String, String> {
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&std::fs::read(real).unwrap()).unwrap();
    rows.iter().map(|r| (r[id].as_str().unwrap_or_default().to_string(), r[hours].as_str().unwrap_or_default().to_string())).collect()
}

/// Lower case, no accents, words glued by the publisher ("horasDomingos") apart.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut previous = ' ';
    for c in text.chars() {
        if c.is_uppercase() && previous.is_lowercase() {
            out.push(' ');
        }
        previous = c;
        out.extend(c.to_lowercase());
    }
    out.replace(['á', 'à'], "a").replace(['é', 'è'], "e").replace('í', "i").replace(['ó', 'ò'], "o").replace('ú', "u").replace('’', "'")
}

/// The test's own reading: the weekdays a text names (with the days of its
/// "lunes a viernes" ranges), and those it says are closed.
struct Named {
    open: BTreeSet<i8>,
    closed: BTreeSet<i8>,
    /// Days of the month the text opens against its rule ("Cerrado los
    /// lunes, excepto 11 oct.").
    exceptions: BTreeSet<i8>,
}

fn named(text: &str, names: [&str; 7], closed_word: &str) -> Named {
    let pattern = names.join("|");
    // A weekday with its day of the month ("el dissabte 15 de gener") dates one day: it names no weekly day.
    // Not "dissabte 9 a 13.30 h", an hour.
    let dated = regex::Regex::new(&format!(r"\b({pattern})s?,?\s+(\d{{1,2}}(?:\s*(?:,|i|y)\s*\d{{1,2}})*)\b(\s+a\s+\d|[.:]\d)?")).unwrap();
    let plain_text = plain(text);
    let mut dated_days: Vec<i8> = Vec::new();
    let mut text = plain_text.clone();
    let figures = regex::Regex::new(r"\d+").unwrap();
    for c in dated.captures_iter(&plain_text).filter(|c| c.get(3).is_none()) {
        dated_days.extend(figures.find_iter(&c[2]).filter_map(|n| n.as_str().parse::<i8>().ok()));
        text = text.replace(&c[0], "");
    }
    // "Feiners", "laborables": Monday to Friday.
    let text =
        regex::Regex::new(r"\b(feiners|laborables)\b").unwrap().replace_all(&text, &format!("{} a {}", names[0], names[4])).to_string();
    let day = |w: &str| names.iter().position(|n| w.starts_with(n)).map(|i| i as i8);
    let word = regex::Regex::new(&format!(r"\b({pattern})s?\b")).unwrap();
    let range = regex::Regex::new(&format!(r"\b({pattern})s?\s+a\s+(?:les\s+|los\s+)?({pattern})s?\b")).unwrap();
    let closed_after = regex::Regex::new(&format!(
        r"\b({pattern})s?(?:\s*(?:,|y|i)\s*(?:els\s+|los\s+)?({pattern})s?)*(?:\s*(?:,|y|i)\s*(?:altres\s+|otros\s+)?festi\w*)?\s*:?\s*{closed_word}"
    ))
    .unwrap();
    let closed_before = regex::Regex::new(&format!(r"{closed_word}\w*\s+(?:los\s+|els\s+)?({pattern})s?\b")).unwrap();
    let mut open: BTreeSet<i8> = word.captures_iter(&text).filter_map(|c| day(&c[1])).collect();
    for c in range.captures_iter(&text) {
        let (Some(a), Some(b)) = (day(&c[1]), day(&c[2])) else { continue };
        let mut d = a;
        while d != b {
            d = (d + 1) % 7;
            open.insert(d);
        }
    }
    let mut closed = BTreeSet::new();
    for m in closed_after.find_iter(&text) {
        closed.extend(word.captures_iter(m.as_str()).filter_map(|c| day(&c[1])));
    }
    let dated_after = regex::Regex::new(r"^\s*,?\s*\d").unwrap();
    for c in closed_before.captures_iter(&text) {
        // "Cerrado los lunes, excepto…" / "tancat els dilluns", but not a
        // dated closing ("Cerrada, domingo, 1 de mayo").
        let after = &text[c.get(0).unwrap().end()..];
        if !dated_after.is_match(after) {
            closed.extend(day(&c[1]));
        }
    }
    let exception = regex::Regex::new(r"(?:excepto|salvo|llevat|excepcional)([^:]*)").unwrap();
    let number = regex::Regex::new(r"\b(\d{1,2})\b").unwrap();
    let mut exceptions: BTreeSet<i8> = exception
        .captures_iter(&text)
        .flat_map(|c| number.captures_iter(&c[1]).filter_map(|n| n[1].parse().ok()).collect::<Vec<i8>>())
        .collect();
    // A dated day ("Diada de la Candelera (dimarts 2 de febrer)") is open against the weekly rule.
    exceptions.extend(dated_days);
    // Days named only to close them ("Els dimarts i els diumenges: tancat"): the others are open.
    if !closed.is_empty() && open.is_subset(&closed) {
        open = (0..7).filter(|d| !closed.contains(d)).collect();
    }
    Named { open, closed, exceptions }
}

fn offset(d: Date) -> i8 {
    d.weekday().to_monday_zero_offset()
}

fn days_of(o: &Occurrence) -> Vec<Date> {
    let last = o.end.map_or(o.start.date(), |e| e.date());
    let mut out = vec![o.start.date()];
    while *out.last().unwrap() < last {
        out.push(out.last().unwrap().tomorrow().unwrap());
    }
    out
}

/// Every occurrence of every event whose text names weekdays falls on a
/// day the text opens: never a closed day, never one it does not name.
fn no_occurrence_on_a_closed_day(
    source: &str,
    by_id: &BTreeMap<String, Vec<Occurrence>>,
    texts: &BTreeMap<String, String>,
    names: [&str; 7],
    closed_word: &str,
) -> usize {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (id, occurrences) in by_id {
        let text = texts.get(id).map(String::as_str).unwrap_or_default();
        let n = named(text, names, closed_word);
        if n.open.is_empty() && n.closed.is_empty() {
            continue;
        }
        checked += 1;
        for o in occurrences {
            for d in days_of(o) {
                let wd = offset(d);
                let every_day = n.open.len() == 7 || n.open.is_empty();
                if n.exceptions.contains(&d.day()) {
                    continue;
                }
                if n.closed.contains(&wd) || (!every_day && !n.open.contains(&wd)) {
                    wrong.push(format!("{source}:{id} on {d} ({:?}): {text:?}", d.weekday()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} occurrences on a closed day:\n{}", wrong.len(), wrong.join("\n"));
    checked
}

fn starts(o: &[Occurrence]) -> Vec<String> {
    o.iter().map(|o| o.start.to_string()).collect()
}

const ES: [&str; 7] = ["lunes", "martes", "miercoles", "jueves", "viernes", "sabado", "domingo"];
const CA: [&str; 7] = ["dilluns", "dimarts", "dimecres", "dijous", "divendres", "dissabte", "diumenge"];

#[test]
fn andalucia_events_are_only_on_the_weekdays_their_hours_open() {
    let Some(real) = common::realdata(ANDALUCIA) else { return };
    let by_id = stored("andalucia", &real, ANDALUCIA_FEED);
    let texts = texts(&real, "id", "schedule");

    // "Sábados 10:30 horas", 14 March to 25 April 2020: the seven Saturdays, at 10:30.
    let saturdays = &by_id["148171"];
    assert_eq!(saturdays.len(), 7, "{:?}", starts(saturdays));
    assert!(saturdays.iter().all(|o| o.start.weekday() == Weekday::Saturday && o.start.time() == jiff::civil::time(10, 30, 0, 0)));
    // "Lunes a viernes de 09:00 a 14:00": no weekend, 09:00 to 14:00.
    let weekdays = &by_id["629857"];
    assert!(!weekdays.is_empty());
    for o in weekdays {
        assert!(offset(o.start.date()) < 5, "629857 on a {:?}: {}", o.start.weekday(), o.start);
        assert_eq!((o.start.time().hour(), o.end.map(|e| e.time().hour())), (9, Some(14)));
    }
    // "De martes a sábado … Domingos y festivos … Lunes cerrado": Tuesday to Sunday, each with its hours.
    let museum = &by_id["211051"];
    assert!(museum.iter().all(|o| o.start.weekday() != Weekday::Monday), "{:?}", starts(museum));
    assert!(museum.iter().any(|o| o.start.weekday() == Weekday::Wednesday && o.start.time().hour() == 11));
    assert!(museum.iter().any(|o| o.start.weekday() == Weekday::Sunday && o.start.time().hour() == 10));
    // "Viernes 5 de diciembre de 2025 a las 18:00 horas" in a span of five weeks: one dated occurrence.
    assert_eq!(starts(&by_id["627490"]), ["2025-12-05T18:00:00"]);
    // Closed weekends and dated closings: "Sábados y domingos cerrado Los días 24, 25 y 31 de diciembre…cerrado".
    let closings = &by_id["227656"];
    assert!(!closings.is_empty());
    for o in closings {
        let d = o.start.date();
        assert!(
            offset(d) < 5 && ![date(2020, 12, 24), date(2020, 12, 25), date(2020, 12, 31), date(2021, 1, 1), date(2021, 1, 6)].contains(&d),
            "{d}"
        );
    }

    // "Cerrado los lunes, excepto 11 oct. y 1 nov., de 11:00 a 14:00 horas": that Monday is open, the others closed.
    let exception = &by_id["289348"];
    let mondays: Vec<String> = exception.iter().filter(|o| o.start.weekday() == Weekday::Monday).map(|o| o.start.to_string()).collect();
    assert_eq!(mondays, ["2021-10-11T11:00:00", "2021-11-01T11:00:00"]);

    let checked = no_occurrence_on_a_closed_day("andalucia", &by_id, &texts, ES, "cerrad");
    assert!(checked >= 70, "only {checked} events whose hours name weekdays were read");
}

#[test]
fn gencat_an_opening_night_is_one_occurrence_and_no_event_is_on_a_closed_day() {
    let Some(real) = common::realdata(GENCAT) else { return };
    let by_id = stored("gencat", &real, GENCAT_FEED);
    let texts = texts(&real, "codi", "horari");

    // "Inauguració, dia 14 de febrer a les 18.30 h" over seventeen months: one evening at 18:30, the span without an invented hour.
    let opening = &by_id["20200214005"];
    let evenings: Vec<&Occurrence> = opening.iter().filter(|o| o.start.time() == jiff::civil::time(18, 30, 0, 0)).collect();
    assert_eq!(evenings.len(), 1, "{:?}", starts(opening));
    assert_eq!(evenings[0].start.date(), date(2020, 2, 14));
    assert!(opening.len() <= 2, "{:?}", starts(opening));
    // "Inauguració: 11 d'octubre a les 19 h  Dijous i divendres: de 17 a 20 h Dissabtes… Diumenges…":
    // 19:00 once, and Thursday to Sunday only.
    let show = &by_id["20181003026"];
    let at_seven: Vec<String> = show.iter().filter(|o| o.start.time().hour() == 19).map(|o| o.start.to_string()).collect();
    assert_eq!(at_seven, ["2018-10-11T19:00:00"]);
    assert!(show.iter().all(|o| offset(o.start.date()) >= 3), "{:?}", starts(show));

    // No opening night repeats: an opening's time falls on no weekday the text does not name, but once.
    let clock = regex::Regex::new(r"(\d{1,2})(?:[.:](\d{2}))?\s*h").unwrap();
    let mut openings = 0;
    for (id, text) in &texts {
        let lower = plain(text);
        let (Some(occurrences), Some(at)) = (by_id.get(id), lower.find("inaugur")) else { continue };
        let Some(c) = clock.captures(&lower[at..]) else { continue };
        openings += 1;
        let (h, m): (i8, i8) = (c[1].parse().unwrap(), c.get(2).map_or(0, |m| m.as_str().parse().unwrap()));
        let n = named(text, CA, "tancat");
        let stray = occurrences
            .iter()
            .filter(|o| o.start.time() == jiff::civil::time(h, m, 0, 0) && !n.open.contains(&offset(o.start.date())))
            .count();
        assert!(stray <= 1, "{id}: the opening's {h}:{m:02} on {stray} days: {text:?}");
    }
    assert!(openings >= 5, "only {openings} openings read");

    let checked = no_occurrence_on_a_closed_day("gencat", &by_id, &texts, CA, "tancat");
    assert!(checked >= 40, "only {checked} events whose hours name weekdays were read");
}
