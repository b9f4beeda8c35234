//! What holds a host, through the binary against a loopback server
//! that records every request. P8: only a mirror whose reads never
//! leave the machine (a folder, a loopback address) keeps a private host
//! ledger; a mirror on any other host is a real host, booked in the system
//! ledger, so a private `--state-dir` is refused for it before any request.
//! P11: a 403 is remembered: the host is held, `run --force`
//! included, until `cityvibe source release ID`; every run says so once,
//! and `source show` and the host's page show it.
use crate::common;

use common::server::{Reply, Server};
use common::{cityvibe, workdir};
use std::path::Path;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn madrid_json() -> Vec<u8> {
    std::fs::read(common::sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json")).unwrap()
}

/// P8: `--mirror https://datos.madrid.es --state-dir X`
/// must not book datos.madrid.es in the private ledger X, where two such
/// runs would reach the real host 0.006 s apart. A mirror on an address that is not a
/// loopback one (here 0.0.0.0, which Linux routes to this machine, so the
/// test reaches nothing else) is a real host: a private ledger is refused
/// for it (exit 2), and the server sees nothing. A loopback mirror still
/// keeps its private ledger, and `doctor` says which ledger each would use.
#[test]
fn a_mirror_on_a_host_that_is_not_loopback_keeps_no_private_ledger_p8() {
    let server = Server::start(|seen, _| if seen.path.ends_with("robots.txt") { Reply::new(404) } else { Reply::ok(madrid_json()) });
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\n");
    let private = dir.path().join("private-ledger");
    let elsewhere = format!("http://0.0.0.0:{}", server.port);
    for _ in 0..2 {
        let out = cityvibe(dir.path(), &["--mirror", &elsewhere, "--state-dir", private.to_str().unwrap(), "run", "--force"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("system ledger /var/lib/cityvibe"), "{}", stderr(&out));
    }
    server.settle();
    assert_eq!(server.requests().len(), 0, "a private schedule was kept for a mirror off this machine");
    assert!(!private.join("hosts.db").exists(), "the private ledger was written");
    // `doctor` says the same, for a public mirror too (it sends nothing to it).
    for mirror in [elsewhere.as_str(), "https://datos.madrid.es"] {
        let out = cityvibe(dir.path(), &["--mirror", mirror, "--state-dir", private.to_str().unwrap(), "doctor"]);
        let said = stdout(&out);
        let line = said.lines().find(|l| l.contains("host ledger")).unwrap_or_else(|| panic!("{said}{}", stderr(&out)));
        assert!(line.contains("/var/lib/cityvibe") && !line.contains("private ledger,"), "{mirror}: {line}");
    }
    // A loopback mirror keeps its private ledger, as tests and staging need.
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "--state-dir", private.to_str().unwrap(), "run", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(private.join("hosts.db").exists());
    assert_eq!(server.requests().iter().filter(|r| !r.path.ends_with("robots.txt")).count(), 1);
}

/// `--mirror URL run --force` in `dir`.
fn run(dir: &Path, mirror: &str) -> std::process::Output {
    cityvibe(dir, &["--mirror", mirror, "run", "--force"])
}

/// P11: the host is held after a 403, not only for that
/// run (cron would ask the same URL again every three hours, and `run
/// --force` at once): the next runs, forced, send nothing
/// and say so once each, with the command that lifts the hold; `source
/// show` and the host's page show it; after `source release madrid` the
/// host is asked again.
#[test]
fn a_403_holds_the_host_until_the_operator_releases_it_p11() {
    let server = Server::start(|seen, i| {
        if seen.path.ends_with("robots.txt") {
            Reply::new(404)
        } else if i == 0 {
            Reply::new(403)
        } else {
            Reply::ok(madrid_json())
        }
    });
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\n");
    let first = run(dir.path(), &server.url());
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    assert!(stderr(&first).contains("HTTP 403") && stderr(&first).contains("cityvibe source release madrid"), "{}", stderr(&first));
    server.settle();
    let asked = server.requests().len();
    assert_eq!(asked, 1, "{:?}", server.requests());
    for round in 0..2 {
        let out = run(dir.path(), &server.url());
        server.settle();
        assert_eq!(server.requests().len(), asked, "round {round}: a forced run asked the host that said 403");
        assert_eq!(out.status.code(), Some(1), "round {round}: {}", stderr(&out));
        let said = stderr(&out);
        assert_eq!(said.matches("is held").count(), 1, "round {round}: said once: {said}");
        assert!(said.contains("HTTP 403") && said.contains("`run --force` included"), "round {round}: {said}");
        assert!(said.contains("cityvibe source release madrid"), "round {round}: {said}");
    }
    let show = cityvibe(dir.path(), &["source", "show", "madrid"]);
    assert!(stdout(&show).contains("is held") && stdout(&show).contains("HTTP 403"), "{}{}", stdout(&show), stderr(&show));
    let report = cityvibe(dir.path(), &["report", "--out", "site", "--lang", "en"]);
    assert!(report.status.success(), "{}", stderr(&report));
    let page = std::fs::read_to_string(dir.path().join("site/hosts/datos.madrid.es.html")).unwrap();
    assert!(page.contains("HTTP 403 to https://datos.madrid.es/"), "the host's page does not show the hold");
    // The operator's word lifts it: the next run asks again.
    let release = cityvibe(dir.path(), &["source", "release", "madrid"]);
    assert!(release.status.success() && stdout(&release).contains("lifted the hold"), "{}{}", stdout(&release), stderr(&release));
    let again = run(dir.path(), &server.url());
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    server.settle();
    assert!(server.requests().len() > asked);
}
