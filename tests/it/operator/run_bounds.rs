//! Nothing hangs: a stray bracket, deep nesting, a record that cannot be read,
//! the run's deadline and a stop by signal, through the binary. Every child
//! runs under an address-space cap (RLIMIT_AS) and a time limit, so that a
//! regression fails the test instead of hanging the suite or eating the
//! machine. The limit is the CPU the child has used, which a loaded machine
//! does not stretch (two of these tests were killed at a 60 s wall-clock
//! limit while the suite ran at low priority beside CI and two release
//! builds, load 20 to 27); a child that waits without using CPU is killed at
//! ten times the limit in wall-clock time.
use crate::common;

use common::server::{Reply, Server};
use common::{sample, workdir};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const ESMADRID: &str = "www.esmadrid.com/opendata/agenda_v1_es.xml";
const MADRID_XML: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml";
const MADRID_JSON: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";

/// A 21-byte record whose stray bracket closes nothing.
const STRAY_BRACKET: &str = r#"{"a": ]"x", "b": 1}"#;

/// What a bounded child did.
pub(crate) struct Ended {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// Peak resident set of the child's own program, KiB: its `VmHWM`,
    /// read from /proc when it is about to exit (stopped there by ptrace's
    /// exit event, its memory still mapped). (`ru_maxrss` also counts the
    /// test process it was forked from, whose size depends on the other
    /// tests running beside it: 205 MB seen under load. Reading /proc while
    /// it ran missed a child that ended before the first read.)
    pub(crate) peak_kib: i64,
    pub(crate) took: Duration,
    /// The CPU time the child used (user and system, from wait4): what
    /// a loaded machine does not stretch, unlike `took`.
    pub(crate) cpu: Duration,
}

/// Run `cmd` with at most `mem` bytes of address space, killed and failed
/// once it has used `limit` of CPU (or after ten times `limit` of wall-clock
/// time); its output and peak memory.
pub(crate) fn bounded(cmd: Command, mem: u64, limit: Duration) -> Ended {
    start(cmd, mem).wait(limit)
}

/// A child started by [`start`].
struct Running {
    pid: i32,
    /// The program's name as /proc shows it once the child has exec'd it.
    name: String,
    started: Instant,
    out: std::path::PathBuf,
    err: std::path::PathBuf,
    _files: tempfile::TempDir,
}

/// Start `cmd` with at most `mem` bytes of address space.
fn start(mut cmd: Command, mem: u64) -> Running {
    let files = tempfile::tempdir().unwrap();
    let (out, err) = (files.path().join("out"), files.path().join("err"));
    cmd.stdout(std::fs::File::create(&out).unwrap()).stderr(std::fs::File::create(&err).unwrap()).stdin(Stdio::null());
    // SAFETY: setrlimit and ptrace are async-signal-safe; they touch only the child.
    unsafe {
        cmd.pre_exec(move || {
            let cap = libc::rlimit { rlim_cur: mem, rlim_max: mem };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // Traced by this thread: stopped at its exec, then at its exit
            // with its memory still there to be read (see `wait`).
            if libc::ptrace(libc::PTRACE_TRACEME, 0, std::ptr::null_mut::<libc::c_void>(), std::ptr::null_mut::<libc::c_void>()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let name = Path::new(cmd.get_program()).file_name().unwrap().to_string_lossy().chars().take(15).collect();
    // Reaped by wait4 in `wait`, which also gives its exit status.
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().unwrap();
    let pid = child.id() as i32;
    // The stop at its exec: ask to be told of its exit too, and let it go.
    let mut status = 0;
    // SAFETY: our own child, traced by this thread.
    unsafe {
        assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
        assert!(libc::WIFSTOPPED(status), "the child did not stop at its exec: {status:#x}");
        let options = (libc::PTRACE_O_TRACEEXIT | libc::PTRACE_O_EXITKILL) as usize as *mut libc::c_void;
        assert_eq!(libc::ptrace(libc::PTRACE_SETOPTIONS, pid, std::ptr::null_mut::<libc::c_void>(), options), 0);
        assert_eq!(libc::ptrace(libc::PTRACE_CONT, pid, std::ptr::null_mut::<libc::c_void>(), std::ptr::null_mut::<libc::c_void>()), 0);
    }
    Running { pid, name, started: Instant::now(), out, err, _files: files }
}

impl Running {
    /// Wait for the child's end; killed and failed once it has used `limit`
    /// of CPU, or after ten times `limit` of wall-clock time.
    fn wait(self, limit: Duration) -> Ended {
        use std::os::unix::process::ExitStatusExt;
        let mut status = 0;
        // SAFETY: a plain C struct, filled in by wait4.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let mut peak_kib = 0;
        loop {
            // SAFETY: waits for our own child, writing into the two locals.
            let got = unsafe { libc::wait4(self.pid, &mut status, libc::WNOHANG, &mut usage) };
            if got == self.pid && libc::WIFSTOPPED(status) {
                // Stopped by ptrace: at its exit (read its high-water mark,
                // which holds every earlier peak, then let it end), or for a
                // signal (handed on, so a SIGTERM still reaches it).
                let exiting = status >> 8 == (libc::SIGTRAP | (libc::PTRACE_EVENT_EXIT << 8));
                let signal = if exiting || libc::WSTOPSIG(status) == libc::SIGTRAP { 0 } else { libc::WSTOPSIG(status) };
                if exiting {
                    peak_kib = high_water_kib(self.pid, &self.name).unwrap_or(peak_kib).max(peak_kib);
                }
                // SAFETY: our own child, stopped and traced by this thread.
                unsafe {
                    libc::ptrace(libc::PTRACE_CONT, self.pid, std::ptr::null_mut::<libc::c_void>(), signal as usize as *mut libc::c_void)
                };
                continue;
            }
            if got == self.pid {
                break;
            }
            if cpu_used(self.pid).is_some_and(|cpu| cpu > limit) || self.started.elapsed() > limit * 10 {
                // SAFETY: our own child.
                unsafe {
                    libc::kill(self.pid, libc::SIGKILL);
                    while libc::wait4(self.pid, &mut status, 0, &mut usage) == self.pid && libc::WIFSTOPPED(status) {
                        libc::ptrace(
                            libc::PTRACE_CONT,
                            self.pid,
                            std::ptr::null_mut::<libc::c_void>(),
                            std::ptr::null_mut::<libc::c_void>(),
                        );
                    }
                }
                panic!(
                    "still running after {limit:?} of CPU or {:?} of wall-clock time (killed): {}",
                    limit * 10,
                    std::fs::read_to_string(&self.err).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(peak_kib > 0, "the child's peak memory was not read from /proc/{}/status at its exit", self.pid);
        Ended {
            status: ExitStatus::from_raw(status),
            stdout: std::fs::read_to_string(&self.out).unwrap(),
            stderr: std::fs::read_to_string(&self.err).unwrap(),
            peak_kib,
            took: self.started.elapsed(),
            cpu: [usage.ru_utime, usage.ru_stime]
                .iter()
                .map(|t| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64))
                .sum(),
        }
    }
}

/// The CPU process `pid` has used so far (user and system, from
/// `/proc/PID/stat`); none once it is gone.
fn cpu_used(pid: i32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing bracket: utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf reads a constant of the system.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(Duration::from_millis(ticks * 1000 / hz))
}

/// The peak resident set of process `pid`'s program `name` so far
/// (`VmHWM`, which starts afresh at its exec), KiB; none before the exec
/// (the fork's copy of the test process) or once it has ended.
fn high_water_kib(pid: i32, name: &str) -> Option<i64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find(|l| l.starts_with("Name:")).filter(|l| l.split_whitespace().nth(1) == Some(name))?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

const MIB: u64 = 1 << 20;

use common::{place, sources_toml as toml};

fn db(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join("data/cityvibe.db")).unwrap()
}

/// The run's report, by source id.
fn sources(stdout: &str) -> serde_json::Map<String, serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    v["sources"].as_array().unwrap().iter().map(|s| (s["id"].as_str().unwrap().to_string(), s.clone())).collect()
}

/// A jcyl feed of `n` flat records (ids 9000…), `bad` put in place of the
/// records at the given positions.
fn jcyl_feed(n: usize, bad: &[(usize, &str)]) -> String {
    let records: Vec<String> = (0..n)
        .map(|i| match bad.iter().find(|(at, _)| *at == i) {
            Some((_, record)) => record.to_string(),
            None => jcyl_record(i, &format!("Concierto {i}")),
        })
        .collect();
    format!("[\n{}\n]\n", records.join(",\n"))
}

fn jcyl_record(i: usize, title: &str) -> String {
    format!(
        r#"{{"id_evento": {id}, "titulo": "{title}", "descripcion": "Un concierto en la plaza.", "categoria": "Conciertos", "fecha_inicio": "2026-12-20", "fecha_fin": "2026-12-21", "lugar_celebracion": "Plaza Mayor", "nombre_localidad": "León", "nombre_provincia": "León"}}"#,
        id = 9000 + i
    )
}

/// A loopback server answering the jcyl feed `body` (robots.txt: none).
fn serve(body: String) -> Server {
    Server::start(move |seen, _| if seen.path.ends_with("robots.txt") { Reply::new(404) } else { Reply::ok(body.clone()) })
}

fn run_cmd(dir: &Path, mirror: &str, extra: &[&str]) -> Command {
    let mut cmd = common::command(dir);
    cmd.args(["--mirror", mirror, "run", "--json", "--force"]).args(extra);
    cmd
}

/// The 21-byte record `{"a": ]"x", "b": 1}` among good
/// jcyl records is one record error, the good records are stored, and the
/// run ends at once within a small memory (not spinning at 100 % CPU with
/// the run lock held).
#[test]
fn a_stray_bracket_record_is_one_record_error_and_the_run_ends() {
    let server = serve(jcyl_feed(12, &[(5, STRAY_BRACKET)]));
    let dir = workdir(&toml(&["jcyl"], ""));
    let ended = bounded(run_cmd(dir.path(), &server.url(), &[]), 1024 * MIB, Duration::from_secs(60));
    assert!(ended.status.success(), "{}: {}", ended.status, ended.stderr);
    let jcyl = &sources(&ended.stdout)["jcyl"];
    assert_eq!(jcyl["status"], "ok", "{jcyl}");
    assert_eq!(jcyl["added"], 11, "{jcyl}");
    assert_eq!(jcyl["record_errors"], 1, "{jcyl}");
    assert!(jcyl["message"].as_str().unwrap().contains("#6"), "the bad record is named by its position: {jcyl}");
    eprintln!("run: {:?}, peak RSS {} KiB", ended.took, ended.peak_kib);
    assert!(ended.peak_kib < 200 * 1024, "peak RSS {} KiB", ended.peak_kib);
    // The lock is free: the next run goes (exit 3 would say it is held).
    let again = bounded(run_cmd(dir.path(), &server.url(), &[]), 1024 * MIB, Duration::from_secs(60));
    assert!(again.status.success(), "{}: {}", again.status, again.stderr);
}

/// `adapter check --sample` on that record is held
/// to the run's bounds (not allocating until it aborts): the same record
/// error, at once, in a small memory; and a record nested too deep is
/// refused the same way.
#[test]
fn adapter_check_on_hostile_samples_ends_within_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!(r#"{{"id_evento": 1, "titulo": "t", "d": {}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
    for (name, record, why) in
        [("stray.json", STRAY_BRACKET.to_string(), "unreadable record"), ("deep.json", deep, "nests deeper than 128 levels")]
    {
        let path = dir.path().join(name);
        std::fs::write(&path, jcyl_feed(6, &[(2, &record)])).unwrap();
        let mut cmd = common::command(dir.path());
        cmd.args(["adapter", "check", "jcyl", "--sample", path.to_str().unwrap(), "--json"]);
        let ended = bounded(cmd, 1024 * MIB, Duration::from_secs(60));
        let report: serde_json::Value = serde_json::from_str(&ended.stdout).unwrap_or_else(|e| panic!("{e}: {}", ended.stderr));
        assert_eq!(report["event_count"], 5, "{name}: {report}");
        assert_eq!(report["error_count"], 1, "{name}: {report}");
        assert!(report["errors"][0]["reason"].as_str().unwrap().contains(why), "{name}: {report}");
        eprintln!("{name}: {:?}, peak RSS {} KiB", ended.took, ended.peak_kib);
        assert!(ended.peak_kib < 200 * 1024, "{name}: peak RSS {} KiB", ended.peak_kib);
    }
}

/// `adapter check` keeps the first 100 record errors of a
/// sample and counts the rest (millions of one-byte garbage records would
/// take many times the sample's size), within the run's bounds; and
/// a sample over the run's body cap is refused before it is read.
#[test]
fn adapter_check_keeps_its_memory_on_a_sample_of_garbage_records() {
    let dir = tempfile::tempdir().unwrap();
    let n = 1_000_000;
    let path = dir.path().join("garbage.json");
    std::fs::write(&path, format!("[{}{}]", "1,".repeat(n), jcyl_record(1, "Concierto"))).unwrap();
    let mut cmd = common::command(dir.path());
    cmd.args(["adapter", "check", "jcyl", "--sample", path.to_str().unwrap(), "--json", "--limit", "1"]);
    let ended = bounded(cmd, 1024 * MIB, Duration::from_secs(120));
    let report: serde_json::Value = serde_json::from_str(&ended.stdout).unwrap_or_else(|e| panic!("{e}: {}", ended.stderr));
    assert_eq!((report["event_count"].as_u64(), report["error_count"].as_u64()), (Some(1), Some(n as u64)));
    assert_eq!(report["errors"].as_array().unwrap().len(), 100);
    eprintln!("{n} garbage records: {:?}, peak RSS {} KiB", ended.took, ended.peak_kib);
    assert!(ended.peak_kib < 200 * 1024, "peak RSS {} KiB", ended.peak_kib);
    // Over the 512 MB a run takes of a body (a sparse file: no disk used).
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge).unwrap().set_len((512 << 20) + 1).unwrap();
    let mut cmd = common::command(dir.path());
    cmd.args(["adapter", "check", "jcyl", "--sample", huge.to_str().unwrap()]);
    let ended = bounded(cmd, 256 * MIB, Duration::from_secs(60));
    assert_eq!(ended.status.code(), Some(2), "{}", ended.stderr);
    assert!(ended.stderr.contains("over the 512 MB"), "{}", ended.stderr);
}

/// `body` with `insert` put right after the `n`-th (1-based) `marker`.
fn insert_after(body: &str, marker: &str, n: usize, insert: &str) -> String {
    let at = body.match_indices(marker).nth(n - 1).map(|(i, _)| i + marker.len()).expect("marker");
    format!("{}{insert}{}", &body[..at], &body[at..])
}

/// `body` with `insert` put right before the `n`-th (1-based) `marker`.
fn insert_before(body: &str, marker: &str, n: usize, insert: &str) -> String {
    let at = body.match_indices(marker).nth(n - 1).map(|(i, _)| i).expect("marker");
    format!("{}{insert}{}", &body[..at], &body[at..])
}

/// A record nested deeper than 128 (30,000 `<a>` in one
/// esmadrid record, madrid's XML or JSON 10,000 deep) is one record error;
/// the rest is stored, in time and memory linear in the body.
#[test]
fn deep_nesting_is_refused_alone_in_linear_time_and_memory() {
    let deep_xml = |n: usize| format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
    let deep_json = |n: usize| format!(r#""deep": {}{}, "#, "[".repeat(n), "]".repeat(n));
    let esmadrid = std::fs::read_to_string(sample(ESMADRID)).unwrap();
    let madrid_xml = std::fs::read_to_string(sample(MADRID_XML)).unwrap();
    let madrid_json = std::fs::read_to_string(sample(MADRID_JSON)).unwrap();
    let cases = [
        ("esmadrid", ESMADRID, insert_after(&esmadrid, "<basicData>", 2, &deep_xml(100_000)), 7),
        ("madrid", MADRID_XML, insert_after(&madrid_xml, "<atributos idioma=\"es\">", 2, &deep_xml(100_000)), 7),
        ("madrid", MADRID_JSON, insert_before(&madrid_json, "\"@id\"", 2, &deep_json(1_000_000)), 7),
    ];
    for (source, rel, body, stored) in cases {
        let dir = workdir(&toml(&[source], ""));
        let mirror = dir.path().join("mirror");
        place(&mirror, rel, body.as_bytes());
        let mut cmd = common::command(dir.path());
        cmd.args(["--mirror", mirror.to_str().unwrap(), "run", "--json"]);
        let ended = bounded(cmd, 1024 * MIB, Duration::from_secs(60));
        let s = &sources(&ended.stdout)[source];
        eprintln!("{rel} ({} KB): {:?} ({:?} of CPU), peak RSS {} KiB", body.len() / 1024, ended.took, ended.cpu, ended.peak_kib);
        assert_eq!(s["status"], "ok", "{rel}: {s}");
        assert_eq!(s["record_errors"], 1, "{rel}: {s}");
        assert!(s["message"].as_str().unwrap().contains("nests deeper than 128"), "{rel}: {s}");
        let active: i64 = db(dir.path()).query_row("SELECT count(*) FROM events WHERE status = 'active'", [], |r| r.get(0)).unwrap();
        assert!(active >= stored, "{rel}: {active} stored");
        assert!(ended.cpu < Duration::from_secs(20), "{rel}: {:?} of CPU", ended.cpu);
        assert!(ended.peak_kib < 200 * 1024, "{rel}: peak RSS {} KiB", ended.peak_kib);
    }
}

/// A record that cannot be read but whose id can (broken
/// JSON after its id; a date no one can read) keeps its stored event as it
/// was, since the feed still lists it: active, not updated, not withdrawn.
#[test]
fn an_unreadable_record_with_a_readable_id_keeps_its_event() {
    let dir = workdir(&toml(&["jcyl"], ""));
    let first = serve(jcyl_feed(20, &[]));
    let ended = bounded(run_cmd(dir.path(), &first.url(), &[]), 1024 * MIB, Duration::from_secs(60));
    assert!(ended.status.success(), "{}", ended.stderr);
    assert_eq!(sources(&ended.stdout)["jcyl"]["added"], 20);
    // The same feed, with record 9003 broken after its id, record 9007's
    // date unreadable, and both retitled: neither can be taken in.
    let broken = r#"{"id_evento": 9003, "titulo": ]"Retitulado", "fecha_inicio": "2026-12-20"}"#;
    let undated = jcyl_record(7, "Retitulado").replace("2026-12-20", "nunca");
    let second = serve(jcyl_feed(20, &[(3, broken), (7, &undated)]));
    let ended = bounded(run_cmd(dir.path(), &second.url(), &[]), 1024 * MIB, Duration::from_secs(60));
    assert!(ended.status.success(), "{}", ended.stderr);
    let jcyl = &sources(&ended.stdout)["jcyl"];
    assert_eq!((jcyl["record_errors"].as_u64(), jcyl["withdrawn"].as_u64()), (Some(2), Some(0)), "{jcyl}");
    for id in ["9003", "9007"] {
        let (status, title): (String, String) = db(dir.path())
            .query_row("SELECT status, title FROM events WHERE source = 'jcyl' AND source_event_id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(status, "active", "{id}");
        assert!(title.starts_with("Concierto"), "{id} not updated: {title}");
    }
    // A record whose id cannot be read still lets its event go, as before.
    let third = serve(jcyl_feed(20, &[(3, STRAY_BRACKET)]));
    let ended = bounded(run_cmd(dir.path(), &third.url(), &[]), 1024 * MIB, Duration::from_secs(60));
    assert_eq!(sources(&ended.stdout)["jcyl"]["withdrawn"], 1, "{}", ended.stdout);
}

/// A server whose feed answers take `slow` each; robots.txt: none.
fn slow_server(slow: Duration) -> Server {
    let body = std::fs::read(sample(MADRID_JSON)).unwrap();
    Server::start(move |seen, _| {
        if seen.path.ends_with("robots.txt") {
            return Reply::new(404);
        }
        std::thread::sleep(slow);
        // Not JSON: madrid moves on to its next feed, if the run lets it.
        if seen.path.ends_with(".json") { Reply::ok("<html>busy</html>") } else { Reply::ok(body.clone()) }
    })
}

/// `runs --json`: the newest run.
fn last_run(dir: &Path) -> serde_json::Value {
    let out = common::cityvibe(dir, &["runs", "--json"]);
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    runs[0].clone()
}

/// A run has a deadline below the period: past
/// `run_deadline_secs` the run sends nothing more, ends `interrupted` (exit
/// 5, `runs` says so) and frees its lock. The setting is checked on load.
#[test]
fn a_run_past_its_deadline_stops_records_itself_interrupted_and_frees_the_lock() {
    let server = slow_server(Duration::from_millis(2500));
    let dir = workdir(&toml(&["madrid"], "run_deadline_secs = 1\n"));
    let ended = bounded(run_cmd(dir.path(), &server.url(), &[]), 1024 * MIB, Duration::from_secs(60));
    assert_eq!(ended.status.code(), Some(5), "{}", ended.stderr);
    assert!(ended.stderr.contains("deadline passed"), "{}", ended.stderr);
    let madrid = &sources(&ended.stdout)["madrid"];
    assert_eq!(madrid["status"], "skipped", "{madrid}");
    assert!(madrid["message"].as_str().unwrap().contains("run_deadline_secs = 1"), "{madrid}");
    let feeds: Vec<String> = server.requests().iter().map(|r| r.path.clone()).filter(|p| !p.ends_with("robots.txt")).collect();
    assert_eq!(feeds.len(), 1, "nothing is asked past the deadline: {feeds:?}");
    let run = last_run(dir.path());
    assert_eq!((run["status"].as_str(), run["exit_code"].as_i64()), (Some("interrupted"), Some(5)), "{run}");
    let table = common::cityvibe(dir.path(), &["runs"]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("interrupted"), "{}", String::from_utf8_lossy(&table.stdout));
    // The lock is free: the next run is not refused with exit 3.
    let again = bounded(run_cmd(dir.path(), &server.url(), &[]), 1024 * MIB, Duration::from_secs(60));
    assert_eq!(again.status.code(), Some(5), "{}", again.stderr);
    // Validated when loaded: 0, or not below the period, is refused.
    for bad in ["0", "10800"] {
        let d = workdir(&toml(&["madrid"], &format!("run_deadline_secs = {bad}\n")));
        let out = common::cityvibe(d.path(), &["--mirror", &server.url(), "run"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("run_deadline_secs"), "{bad}");
    }
}

/// A run stopped by SIGTERM (systemd's stop) or SIGINT (Ctrl-C) ends its
/// request in flight, sends nothing more, and is recorded as interrupted
/// (exit 5 in `runs`, not `-`).
#[test]
fn a_run_stopped_by_a_signal_is_recorded_as_interrupted() {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let server = slow_server(Duration::from_millis(1500));
        let dir = workdir(&toml(&["madrid"], ""));
        let child = start(run_cmd(dir.path(), &server.url(), &[]), 1024 * MIB);
        // Once the first feed is asked for, the signal comes mid-request.
        let started = Instant::now();
        while !server.requests().iter().any(|r| r.path.ends_with(".json")) {
            assert!(started.elapsed() < Duration::from_secs(30), "no feed request");
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: a signal to the run we started.
        assert_eq!(unsafe { libc::kill(child.pid, signal) }, 0);
        let ended = child.wait(Duration::from_secs(60));
        assert_eq!(ended.status.code(), Some(5), "signal {signal}: {}", ended.stderr);
        assert!(ended.stderr.contains("asked to stop"), "{}", ended.stderr);
        let run = last_run(dir.path());
        assert_eq!(run["status"], "interrupted", "signal {signal}: {run}");
        let feeds = server.requests().iter().filter(|r| !r.path.ends_with("robots.txt")).count();
        assert_eq!(feeds, 1, "signal {signal}: nothing is asked after the signal");
    }
}
