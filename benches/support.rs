//! Shared by the benchmark binaries (`src/bin/cityvibe-bench*.rs`, included
//! with `#[path]`): run a child process to its end and measure its wall time,
//! CPU time and peak RSS (from `wait4`), plus small file helpers.
#![allow(dead_code)]

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one child process cost.
#[derive(Debug, Clone, Copy)]
pub struct Measure {
    pub wall: Duration,
    pub cpu: Duration,
    pub max_rss_bytes: u64,
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

/// Run a child to its end: wall time, CPU time and peak RSS (its own, from wait4).
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

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod sys {
    //! `wait4(2)` without the libc crate: std links libc already.
    #[repr(C)]
    pub struct Timeval {
        pub sec: i64,
        pub usec: i64,
    }
    /// `struct rusage` on 64-bit Linux: two timevals then fourteen longs.
    #[repr(C)]
    pub struct Rusage {
        pub utime: Timeval,
        pub stime: Timeval,
        /// Kilobytes.
        pub maxrss: i64,
        pub rest: [i64; 13],
    }
    unsafe extern "C" {
        pub fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
    }
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
pub fn wait_rusage(child: std::process::Child, start: Instant) -> Result<(Option<i32>, Measure)> {
    let pid = child.id() as i32;
    let mut status = 0i32;
    let mut ru = sys::Rusage { utime: sys::Timeval { sec: 0, usec: 0 }, stime: sys::Timeval { sec: 0, usec: 0 }, maxrss: 0, rest: [0; 13] };
    loop {
        // SAFETY: plain out-pointers to live locals of the right layout.
        let r = unsafe { sys::wait4(pid, &mut status, 0, &mut ru) };
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
    let code = if status & 0x7f == 0 { Some((status >> 8) & 0xff) } else { None };
    let tv = |t: &sys::Timeval| Duration::from_secs(t.sec as u64) + Duration::from_micros(t.usec as u64);
    Ok((code, Measure { wall, cpu: tv(&ru.utime) + tv(&ru.stime), max_rss_bytes: ru.maxrss as u64 * 1024 }))
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
pub fn wait_rusage(mut child: std::process::Child, start: Instant) -> Result<(Option<i32>, Measure)> {
    let st = child.wait()?;
    Ok((st.code(), Measure { wall: start.elapsed(), cpu: Duration::ZERO, max_rss_bytes: 0 }))
}
