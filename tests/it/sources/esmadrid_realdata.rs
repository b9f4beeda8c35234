//! esmadrid on its real shape: the publisher's
//! tourist-information file (`../shared/realdata/esmadrid_turismo/`), which
//! has the agenda's XML shape exactly, on one line, with 580 filled
//! `<email>`s and 596 `<phone>`s and every `<fechas/>` empty. The adapter
//! never reads a contact element (P5), reports each service without dates
//! as a record error naming it (never as an event), and reads the one-line
//! body in memory that does not grow with it.
use crate::common;

use cityvibe::adapter::parse_bytes;
use cityvibe::adapters::esmadrid::{Esmadrid, MANIFEST};
use common::{cityvibe, workdir};
use std::path::Path;

const REAL: &str = "esmadrid_turismo/turismo_v1_es_2021-11.xml";
/// Where `--mirror DIR` serves the agenda feed.
const FEED: &str = "www.esmadrid.com/opendata/agenda_v1_es.xml";

/// The texts of every `<tag>` element of the file.
fn element_texts(xml: &str, tag: &str) -> Vec<String> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    xml.split(&open).skip(1).filter_map(|s| s.split_once(&close).map(|(t, _)| t.trim().to_string())).filter(|t| !t.is_empty()).collect()
}

/// Every service is a record error naming its id and the missing dates;
/// no event; no e-mail or phone of the file in any record error.
#[test]
fn real_services_without_dates_are_record_errors_never_events_p5() {
    let Some(path) = common::realdata(REAL) else { return };
    let xml = std::fs::read_to_string(&path).unwrap();
    let (emails, phones) = (element_texts(&xml, "email"), element_texts(&xml, "phone"));
    assert!(emails.len() > 570 && phones.len() > 590, "the file's filled contact elements: {} and {}", emails.len(), phones.len());
    let ids: Vec<&str> =
        xml.split("<service ").skip(1).filter_map(|s| s.split_once(" id=\"").map(|(_, r)| r.split('"').next().unwrap())).collect();
    let got = parse_bytes(&Esmadrid, &MANIFEST.feeds[0], xml.as_bytes()).expect("the real file reads as an esmadrid feed");
    assert!(got.events.is_empty(), "a service without dates became an event: {:?}", got.events.first().map(|e| &e.source_event_id));
    assert_eq!(got.errors.len(), 864);
    for (e, id) in got.errors.iter().zip(&ids) {
        assert_eq!(e.record, *id, "each error names its service");
        assert!(e.reason.contains("no dates"), "{e:?}");
    }
    let said = format!("{:?}", got.errors);
    for c in emails.iter().chain(&phones) {
        assert!(!said.contains(c.as_str()), "{c} in a record error");
    }
}

/// Exit code of `cityvibe` run on `args` in `dir` with its data (heap and
/// private mappings, `RLIMIT_DATA`) capped at `cap` bytes: a run that needs
/// more ends with an out-of-memory error instead. (A limit, not a measure:
/// the child's peak as the kernel counts it would include the test's own
/// memory, copied at the fork.)
fn exit_within(dir: &Path, cap: u64, args: &[&str]) -> Option<i32> {
    use std::os::unix::process::CommandExt;
    let mut c = common::command(dir);
    c.args(args).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        c.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: cap as libc::rlim_t, rlim_max: cap as libc::rlim_t };
            if libc::setrlimit(libc::RLIMIT_DATA, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c.status().unwrap().code()
}

/// The one-line real file, its services repeated twenty times (55 MB on
/// one line), through `run --mirror` with less memory than the body
/// takes: the body is streamed, not held (the file's own 2.7 MB could not
/// tell). Nothing is stored and the run says why (P20).
#[test]
fn the_one_line_real_feed_is_read_in_bounded_memory() {
    let Some(path) = common::realdata(REAL) else { return };
    let xml = std::fs::read_to_string(&path).unwrap();
    let (open, close) = (xml.find("<service ").unwrap(), xml.rfind("</serviceList>").unwrap());
    let big = format!("{}{}{}", &xml[..open], xml[open..close].repeat(20), &xml[close..]);
    assert!(!big[big.find("<serviceList>").unwrap()..].trim_end().contains('\n'), "the service list on one line");
    let dir = workdir("[settings]\ntranslator = \"none\"\n\n[sources.esmadrid]\nenabled = true\n");
    let mirror = tempfile::tempdir().unwrap();
    common::place(mirror.path(), FEED, big.as_bytes());
    // The body is 53 MB; the run may hold 40 MB of data at most.
    let cap = 40_000_000;
    assert!(big.len() > cap as usize + 10_000_000);
    let code = exit_within(dir.path(), cap, &["--mirror", mirror.path().to_str().unwrap(), "run", "--force", "--source", "esmadrid"]);
    assert_eq!(code, Some(1), "every record is an error: the source is an anomaly (exit 1), not out of memory");
    // The limit bites: reading the same file whole (as `adapter check` does a sample) runs out of memory.
    let sample = mirror.path().join(FEED);
    let check = exit_within(dir.path(), cap, &["adapter", "check", "esmadrid", "--sample", sample.to_str().unwrap()]);
    assert_eq!(check, Some(2), "a 53 MB body held whole fits in 40 MB");
    let conn = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let n: i64 = conn.query_row("SELECT count(*) FROM events", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 0);
    let out = cityvibe(dir.path(), &["runs", "--json"]);
    let runs = String::from_utf8_lossy(&out.stdout);
    assert!(runs.contains("no dates"), "{runs}");
    for c in element_texts(&xml, "email").iter().chain(&element_texts(&xml, "phone")) {
        assert!(!runs.contains(c.as_str()), "{c} in the run's record (P5)");
    }
}
