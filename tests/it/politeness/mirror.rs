//! A `--mirror` on another host is a real host (P8, P14), through the
//! binary against a loopback server that records every request. Every
//! request through such a mirror reaches the mirror's own host, whatever
//! feed it stands in for: it is booked and paced as that one host, at the
//! slowest delay of the sources it serves; and a source whose robots.txt
//! review is pending is never read through it (only through a folder or a
//! loopback mirror).
//!
//! "Another host" without leaving the machine: `http://0.0.0.0:PORT`,
//! which `--mirror` does not count as loopback but which Linux routes to
//! this machine (the server listens on 127.0.0.1). Such a run is booked in
//! the system ledger, so each runs in a mount namespace of its own with a
//! tmpfs over /var/lib: the machine's own ledger is never touched (root
//! needed, as in CI; elsewhere the test says so and skips).
use crate::common;

use common::server::{Reply, Server};
use common::workdir;
use std::path::Path;
use std::process::Output;

const MADRID_JSON: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const JCYL_JSON: &str = "datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// `script` run by `sh` in `dir`, in a mount namespace of its own, with
/// nothing of the environment but `PATH`.
fn in_a_mount_namespace(dir: &Path, script: &str) -> Output {
    std::process::Command::new("unshare")
        .args(["--mount", "sh", "-c", script])
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .unwrap()
}

/// `args` for a shell line, each in single quotes.
fn quoted(args: &[&str]) -> String {
    args.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(" ")
}

/// `cityvibe ARGS` in `dir` with a system ledger of its own (a tmpfs over
/// /var/lib in a mount namespace) and no private state folder; `None`,
/// announced, where no mount namespace can be made (not root).
fn run_with_a_system_ledger_of_its_own(dir: &Path, args: &[&str]) -> Option<Output> {
    let bin = common::bin().display().to_string();
    let script = format!("mount -t tmpfs tmpfs /var/lib && mkdir /var/lib/cityvibe && exec {bin} {}", quoted(args));
    let out = in_a_mount_namespace(dir, &script);
    let said = stderr(&out);
    if said.contains("unshare:") || said.contains("mount:") {
        eprintln!("notice: skipping, no mount namespace here (root needed): {said}");
        return None;
    }
    Some(out)
}

/// A server mirroring madrid's and jcyl's samples at `/HOST/PATH`.
fn mirror_of_madrid_and_jcyl() -> Server {
    let madrid = std::fs::read(common::sample(MADRID_JSON)).unwrap();
    let jcyl = std::fs::read(common::sample(JCYL_JSON)).unwrap();
    Server::start(move |seen, _| {
        if seen.path == format!("/{MADRID_JSON}") {
            Reply::ok(madrid.clone())
        } else if seen.path == format!("/{JCYL_JSON}") {
            Reply::ok(jcyl.clone())
        } else {
            Reply::new(404)
        }
    })
}

/// P8, P9: two sources (madrid 2 s, jcyl slowed to 3 s by its row) read
/// through a mirror on another host reach that one host: their requests
/// are booked under it (the fetch log says `0.0.0.0`), and the second waits
/// the slowest of the two delays after the first, not a moment's gap for
/// each feed's own host. A loopback mirror keeps each feed host's own books.
#[test]
fn a_mirror_on_another_host_is_paced_as_that_host_at_its_slowest_sources_delay_p8() {
    let server = mirror_of_madrid_and_jcyl();
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\n[sources.jcyl]\nmin_delay_secs = 3\n");
    let elsewhere = format!("http://0.0.0.0:{}", server.port);
    let Some(out) = run_with_a_system_ledger_of_its_own(dir.path(), &["--mirror", &elsewhere, "run", "--force"]) else { return };
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    server.settle();
    let seen = server.requests();
    let paths: Vec<&str> = seen.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(seen.len(), 2, "{paths:?}");
    let gap = seen[1].at.duration_since(seen[0].at);
    assert!(
        gap.as_millis() >= 3000,
        "two requests to the mirror's host {} ms apart, under the slowest delay, 3 s (P8): {paths:?}",
        gap.as_millis()
    );
    let db = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let hosts: Vec<String> =
        db.prepare("SELECT DISTINCT host FROM fetch_log").unwrap().query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert_eq!(hosts, ["0.0.0.0"], "booked under the feeds' hosts, not the mirror's");
}

/// P3, P14: gencat's robots.txt review is pending. Through a mirror on
/// another host (a staging copy, or the real host given as a mirror) it is
/// refused before any request, by the run and by its dry run alike, saying
/// that only a folder or a loopback mirror reads it; through a loopback
/// mirror it is still read (tests, demos).
#[test]
fn a_pending_review_is_never_read_through_a_mirror_on_another_host_p14() {
    let page =
        std::fs::read(common::sample("analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0"))
            .unwrap();
    let server = Server::start(move |_, _| Reply::ok(page.clone()));
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.gencat]\n");
    let elsewhere = format!("http://0.0.0.0:{}", server.port);
    let Some(out) = run_with_a_system_ledger_of_its_own(dir.path(), &["--mirror", &elsewhere, "run", "--force", "--json"]) else {
        return;
    };
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("robots.txt review is pending") && said.contains("refused"), "{said}");
    assert!(said.contains("--mirror run on a folder or a loopback address"), "{said}");
    let dry = run_with_a_system_ledger_of_its_own(dir.path(), &["--mirror", &elsewhere, "run", "--dry-run", "--source", "gencat"]).unwrap();
    let planned = String::from_utf8_lossy(&dry.stdout).to_string();
    assert!(planned.contains("refuse") && planned.contains("robots.txt review is pending"), "{planned}{}", stderr(&dry));
    server.settle();
    assert!(server.requests().is_empty(), "an unreviewed host was read through a mirror on another host: {:?}", server.requests());
    // A loopback mirror still reads it.
    let local = common::cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--force", "--source", "gencat"]);
    assert_eq!(local.status.code(), Some(0), "{}", stderr(&local));
    server.settle();
    assert_eq!(server.requests().len(), 1);
}

/// Each of `runs` (the arguments of one `cityvibe` command) in turn in
/// `dir`, sharing one system ledger of their own (a tmpfs over /var/lib in
/// one mount namespace): each one's exit code, stdout and stderr. `None`,
/// announced, where no mount namespace can be made (not root).
fn in_one_system_ledger(dir: &Path, runs: &[&[&str]]) -> Option<Vec<(Option<i32>, String, String)>> {
    let bin = common::bin().display().to_string();
    let mut script = String::from("mount -t tmpfs tmpfs /var/lib && mkdir /var/lib/cityvibe || exit 97\n");
    for (k, args) in runs.iter().enumerate() {
        script.push_str(&format!("{bin} {} > out{k} 2> err{k}; echo $? > code{k}\n", quoted(args)));
    }
    let out = in_a_mount_namespace(dir, &script);
    if !out.status.success() {
        eprintln!("notice: skipping, no mount namespace here (root needed): {}", stderr(&out));
        return None;
    }
    let read = |name: String| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    Some(
        (0..runs.len()).map(|k| (read(format!("code{k}")).trim().parse().ok(), read(format!("out{k}")), read(format!("err{k}")))).collect(),
    )
}

/// P8, P10: through a mirror on another host, the host whose books the
/// gate weighs and names is the mirror's. The mirror asks for two hours'
/// rest (503, Retry-After): the dry run says the next would skip, naming
/// the mirror's host, and the next run skips both sources before any
/// request, naming it too; `source show` gives the mirror's host and its
/// delay, the slowest of the sources it serves (jcyl's row: 3 s).
#[test]
fn a_mirror_on_another_host_has_its_own_not_before_delay_and_name_in_the_gate_p8_p10() {
    let server = Server::start(|_, _| Reply::new(503).header("Retry-After", "7200"));
    let dir = workdir("[settings]\ntranslator = \"none\"\n[sources.madrid]\n[sources.jcyl]\nmin_delay_secs = 3\n");
    let elsewhere = format!("http://0.0.0.0:{}", server.port);
    let run: &[&str] = &["--mirror", &elsewhere, "run", "--force", "--json"];
    let dry: &[&str] = &["--mirror", &elsewhere, "run", "--dry-run", "--force", "--source", "madrid"];
    let show: &[&str] = &["--mirror", &elsewhere, "source", "show", "madrid"];
    let Some(said) = in_one_system_ledger(dir.path(), &[run, dry, show, run]) else { return };
    server.settle();
    assert_eq!(server.requests().len(), 1, "the first answer asked the mirror's host to wait: {said:?}");
    let (_, planned, err) = &said[1];
    assert!(planned.contains("skip") && planned.contains("0.0.0.0 asked us not to come back before"), "{planned}{err}");
    let (code, shown, err) = &said[2];
    assert_eq!(*code, Some(0), "{err}");
    assert!(shown.contains("read through the mirror 0.0.0.0") && shown.contains("delay 3 s (mirror (slowest source))"), "{shown}");
    let (_, second, err) = &said[3];
    let report: serde_json::Value = serde_json::from_str(second).unwrap_or_else(|e| panic!("{e}: {second}{err}"));
    for source in report["sources"].as_array().unwrap().iter().filter(|s| s["id"] == "madrid" || s["id"] == "jcyl") {
        assert_eq!(source["status"], "skipped", "{source}");
        assert!(source["message"].as_str().unwrap().starts_with("0.0.0.0 asked us not to come back"), "{source}");
    }
}
