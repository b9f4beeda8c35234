//! The measuring helper shared by the benchmarks
//! (`benches/ingest/main.rs`, `benches/esmadrid.rs`, `benches/translate.rs`, `benches/report.rs`,
//! each as `mod support`): run a child process to its end and measure its
//! wall time, CPU time and peak RSS (`wait4`), count this process's and its
//! reaped descendants' CPU (`getrusage`), adopt orphaned grandchildren
//! (`PR_SET_CHILD_SUBREAPER`), all through the `libc` crate; plus the
//! `cargo bench` gate and small file helpers; and a sampler of a process
//! tree's processes and summed PSS every half second (`/proc/*/smaps_rollup`,
//! as scripts/footprint.py samples a run). Not a timing library and not
//! for the shipped binary.
#![allow(dead_code)]

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one child process cost.
#[derive(Debug, Clone, Copy)]
pub struct Measure {
    pub wall: Duration,
    /// User + system time of the child and every descendant it waited for.
    pub cpu: Duration,
    pub max_rss_bytes: u64,
}

/// The arguments to bench with, or `None` when this is not `cargo bench`.
///
/// `cargo bench` builds the benchmarks in release and appends `--bench` to
/// their arguments; `cargo test --all-targets` (and so `make test`) builds
/// them in debug and runs them without it. Then the workload, minutes of
/// CPU, must not run: say so and stop.
pub fn bench_args(name: &str, args: Vec<String>) -> Option<Vec<String>> {
    if !args.iter().any(|a| a == "--bench") {
        println!("{name}: a benchmark, not run under `cargo test`; run it with `cargo bench --bench {name}` (or `make bench`)");
        return None;
    }
    Some(args.into_iter().filter(|a| a != "--bench").collect())
}

/// The release `cityvibe` binary: cargo builds it for every benchmark and
/// names it here, wherever the target folder is (CARGO_TARGET_DIR included).
pub fn cityvibe_binary() -> Result<PathBuf> {
    let path = PathBuf::from(env!("CARGO_BIN_EXE_cityvibe"));
    if !path.is_file() {
        bail!("{} not found: run the benchmarks through `cargo bench --bench NAME` (or `make bench`)", path.display());
    }
    Ok(path)
}

pub fn fresh_dir(tmp: &Path, name: &str) -> Result<PathBuf> {
    let d = tmp.join(name);
    if d.exists() {
        std::fs::remove_dir_all(&d)?;
    }
    std::fs::create_dir_all(&d)?;
    Ok(d)
}

pub fn count_rows(db: &Path, sql: &str) -> Result<u64> {
    let conn = rusqlite::Connection::open(db).with_context(|| format!("opening {}", db.display()))?;
    Ok(conn.query_row(sql, [], |r| r.get::<_, i64>(0))? as u64)
}

/// Run a child to its end, its stdout and stderr into `work`: wall time, CPU
/// time and peak RSS (its own, from wait4), and its stdout.
pub fn run_measured(mut cmd: Command, work: &Path, what: &str) -> Result<(Measure, String)> {
    let out_path = work.join(format!("{what}.stdout"));
    let err_path = work.join(format!("{what}.stderr"));
    cmd.stdin(Stdio::null()).stdout(std::fs::File::create(&out_path)?).stderr(std::fs::File::create(&err_path)?);
    let start = Instant::now();
    let child = cmd.spawn().with_context(|| format!("starting {what}"))?;
    let (code, m) = wait_rusage(child, start)?;
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    if code != Some(0) {
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        bail!("{what} exited with {code:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    }
    Ok((m, stdout))
}

/// Run a child to its end with stdin from `input` (or nothing) and stdout
/// discarded; its stderr is shown if it fails.
pub fn run_measured_quiet(mut cmd: Command, input: Option<&Path>) -> Result<Measure> {
    match input {
        Some(p) => cmd.stdin(std::fs::File::open(p)?),
        None => cmd.stdin(Stdio::null()),
    };
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().context("starting")?;
    let mut stderr = child.stderr.take().expect("piped");
    let tail = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let (code, m) = wait_rusage(child, start)?;
    let stderr = tail.join().unwrap_or_default();
    if code != Some(0) {
        bail!("exited with {code:?}: {}", stderr.trim());
    }
    Ok(m)
}

/// The most a process tree held at one sample: processes, and summed PSS in kB.
#[derive(Debug, Clone, Copy, Default)]
pub struct Peaks {
    pub processes: usize,
    pub pss_kb: u64,
}

impl Peaks {
    pub fn max(self, other: Peaks) -> Peaks {
        Peaks { processes: self.processes.max(other.processes), pss_kb: self.pss_kb.max(other.pss_kb) }
    }
    pub fn pss_mb(&self) -> f64 {
        self.pss_kb as f64 / 1024.0
    }
}

/// Samples, every `every`, the tree of processes under `root` (itself
/// included) until the returned handle is stopped, and keeps the peaks.
pub struct Sampler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<Peaks>,
}

impl Sampler {
    pub fn start(root: u32, every: Duration) -> Sampler {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = std::sync::Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut peaks = Peaks::default();
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                peaks = peaks.max(sample_tree(root));
                std::thread::sleep(every);
            }
            peaks
        });
        Sampler { stop, thread }
    }

    pub fn stop(self) -> Peaks {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }
}

/// The processes of `root`'s tree now, and their summed PSS.
fn sample_tree(root: u32) -> Peaks {
    let mut kids: std::collections::HashMap<u32, Vec<u32>> = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read(entry.path().join("stat")) else { continue };
        // The command may hold blanks and parentheses: the ppid follows the last ')'.
        let Some(close) = stat.iter().rposition(|&b| b == b')') else { continue };
        let rest = String::from_utf8_lossy(&stat[close + 1..]).into_owned();
        if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok()) {
            kids.entry(ppid).or_default().push(pid);
        }
    }
    let (mut todo, mut peaks) = (vec![root], Peaks::default());
    while let Some(pid) = todo.pop() {
        if let Ok(rollup) = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")) {
            peaks.processes += 1;
            peaks.pss_kb += rollup
                .lines()
                .find_map(|l| l.strip_prefix("Pss:"))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
                .unwrap_or(0);
        }
        todo.extend(kids.get(&pid).into_iter().flatten());
    }
    peaks
}

/// The 1, 5 and 15 minute load averages, as /proc/loadavg gives them.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

#[cfg(target_os = "linux")]
fn cpu_of(ru: &libc::rusage) -> Duration {
    let tv = |t: &libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    tv(&ru.ru_utime) + tv(&ru.ru_stime)
}

/// Wait for a child (already spawned at `start`): its exit code (None if a
/// signal ended it) and what it cost, its waited-for descendants included.
#[cfg(target_os = "linux")]
pub fn wait_rusage(child: std::process::Child, start: Instant) -> Result<(Option<i32>, Measure)> {
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain integers; all zeroes is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: out-pointers to live locals of the types wait4 expects.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
        if r == pid {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(anyhow::Error::new(e).context("wait4"));
        }
    }
    let wall = start.elapsed();
    drop(child); // already reaped; dropping a Child never waits or kills
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    // ru_maxrss is in kilobytes on Linux.
    Ok((code, Measure { wall, cpu: cpu_of(&ru), max_rss_bytes: ru.ru_maxrss as u64 * 1024 }))
}

/// CPU time (user + system) of this process, and of every descendant reaped so far.
#[cfg(target_os = "linux")]
pub fn cpu_now() -> (Duration, Duration) {
    // SAFETY: rusage is plain integers; all zeroes is a valid value.
    let (mut me, mut kids): (libc::rusage, libc::rusage) = unsafe { (std::mem::zeroed(), std::mem::zeroed()) };
    // SAFETY: out-pointers to live locals of the type getrusage expects.
    unsafe {
        libc::getrusage(libc::RUSAGE_SELF, &mut me);
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut kids);
    }
    (cpu_of(&me), cpu_of(&kids))
}

/// Become the reaper of orphaned descendants: the stages of a killed engine
/// pipeline then come back to this process, which reaps them (and so
/// counts their CPU time) in [`reap_orphans`].
#[cfg(target_os = "linux")]
pub fn become_subreaper() -> bool {
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0 as libc::c_ulong, 0 as libc::c_ulong, 0 as libc::c_ulong) == 0
    }
}

/// Reap every child left (only called when no std `Child` is in flight).
#[cfg(target_os = "linux")]
pub fn reap_orphans() {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an out-pointer to a live local; no rusage wanted.
        let r = unsafe { libc::waitpid(-1, &mut status, 0) };
        if r > 0 {
            continue;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() == std::io::ErrorKind::Interrupted && Instant::now() < deadline {
            continue;
        }
        break; // ECHILD: none left
    }
}

// Elsewhere: exit codes and wall times only.
#[cfg(not(target_os = "linux"))]
pub fn wait_rusage(mut child: std::process::Child, start: Instant) -> Result<(Option<i32>, Measure)> {
    let st = child.wait()?;
    Ok((st.code(), Measure { wall: start.elapsed(), cpu: Duration::ZERO, max_rss_bytes: 0 }))
}
#[cfg(not(target_os = "linux"))]
pub fn cpu_now() -> (Duration, Duration) {
    (Duration::ZERO, Duration::ZERO)
}
#[cfg(not(target_os = "linux"))]
pub fn become_subreaper() -> bool {
    false
}
#[cfg(not(target_os = "linux"))]
pub fn reap_orphans() {}

/// splitmix64: deterministic, so every bench run sees the same generated feed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// 0..n
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `p` percent.
    pub fn pct(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
