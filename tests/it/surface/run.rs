//! The run as one use case and per-source times, through the binary.
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use std::time::Duration;

const MADRID_AND_JCYL: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n\n[sources.jcyl]\nenabled = true\n";

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

// Each source's duration is its own, not the whole run's.
#[test]
fn each_source_has_its_own_duration() {
    let madrid = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap();
    let jcyl = std::fs::read(sample("datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json")).unwrap();
    let server = Server::start(move |seen, _| {
        if seen.path.starts_with("/datosabiertos.jcyl.es/") {
            // A slow host: its answer takes a while.
            std::thread::sleep(Duration::from_millis(1500));
            Reply::ok(jcyl.clone())
        } else {
            Reply::ok(madrid.clone())
        }
    });
    let dir = workdir(MADRID_AND_JCYL);
    let d = dir.path();
    let started = std::time::Instant::now();
    let out = cityvibe(d, &["--mirror", &server.url(), "run", "--json"]);
    let whole_ms = started.elapsed().as_millis() as u64;
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let runs = json(&cityvibe(d, &["runs", "--json"]));
    let line = |id: &str| runs[0]["sources"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap().clone();
    let (slow, quick) = (line("jcyl")["duration_ms"].as_u64().unwrap(), line("madrid")["duration_ms"].as_u64().unwrap());
    assert!(slow >= 1500, "jcyl waited 1.5 s for its answer: {slow} ms");
    // The scheduler's one thread does one source's work at a time, so the
    // sources' own times add up to at most the process's life; each given
    // the run's whole time, two would add up to about twice it. (Decided
    // from what was measured, whatever the load: madrid's own time may be
    // long on a busy machine.)
    assert!(
        quick + slow <= whole_ms,
        "madrid {quick} ms + jcyl {slow} ms over the process's {whole_ms} ms: a source counts another's time"
    );
    let text = String::from_utf8_lossy(&cityvibe(d, &["runs"]).stdout).into_owned();
    assert!(text.contains(&format!("{:.1} s", slow as f64 / 1000.0)), "{text}");
}

// Whatever the translation step meets, the run row is finished
// with its exit status and every source's problem line is printed; `run
// --json` and `runs --json` say the same of each source.
#[test]
fn a_run_with_a_failing_engine_still_reports_and_finishes() {
    let madrid = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap();
    let server = Server::start(
        move |seen, _| {
            if seen.path.starts_with("/datosabiertos.jcyl.es/") { Reply::new(404) } else { Reply::ok(madrid.clone()) }
        },
    );
    // An APy server nobody listens on: every text stays pending.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let apy = format!("http://127.0.0.1:{}", dead.local_addr().unwrap().port());
    drop(dead);
    let config = MADRID_AND_JCYL.replace("translator = \"none\"", &format!("translator = \"apy\"\napy_url = \"{apy}\""));
    let dir = workdir(&config);
    let d = dir.path();
    let out = cityvibe(d, &["--mirror", &server.url(), "run", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cityvibe: jcyl: failed:"), "the problem line: {err}");
    assert!(err.contains("translations pending"), "the pending line: {err}");
    let run = json(&out);
    assert!(run["translation_pending"].as_u64().unwrap() > 0, "{run}");
    let runs = json(&cityvibe(d, &["runs", "--json"]));
    assert_eq!(runs[0]["exit_code"], 1);
    assert!(runs[0]["finished_at"].is_string(), "the run row is finished: {}", runs[0]);
    // One report type: the same words for the same source in both outputs.
    let ran = run["sources"].as_array().unwrap().iter().find(|s| s["id"] == "madrid").unwrap().clone();
    let read = runs[0]["sources"].as_array().unwrap().iter().find(|s| s["id"] == "madrid").unwrap().clone();
    assert_eq!(ran, read);
    assert!(read["translation_pending"].as_u64().unwrap() > 0, "{read}");
}
