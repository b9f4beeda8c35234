//! One running Apertium pipeline for one mode: its stages in null-flush
//! mode, a writer thread feeding it, a reader thread cutting its output at
//! the NULs, the tail of its stderr kept for error messages, and its whole
//! process group killed when it is dropped.
//!
//! The pipeline is the pair's mode file run by `sh`, with `-z` given to every
//! stage (as apertium-apy does), not the `apertium` front-end: with its input
//! kept open, the front-end's gawk wrappers hold text back, so `apertium -z`
//! answers only at end of input.
//!
//! Not for: which modes a text goes through, or mending what they leave
//! (`apertium`); deformatting (`stream`).

use crate::translate::engines::{routes, stream};
use anyhow::{Context, Result, anyhow};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How much of the engine's stderr is kept for error messages.
const STDERR_TAIL: usize = 2048;

/// One text's answer: the translation, the words a pivot's second hop
/// left in the pivot's language, and the original's own words the last hop
/// left untranslated.
#[derive(Default)]
pub(super) struct Answer {
    pub(super) text: String,
    pub(super) leaked: Vec<String>,
    pub(super) unknown: Vec<String>,
    /// When a word leaked: the translation with `routes::LEAK` before each
    /// leaked word, where it stands (`routes::mark_leaks`).
    pub(super) marked: Option<String>,
}

/// One running null-flush pipeline for one mode.
pub(super) struct Engine {
    child: Child,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<std::io::Result<Vec<u8>>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    next_id: usize,
    /// Texts answered so far.
    answered: usize,
    /// Bytes of output read so far (by the reader thread): what shows the
    /// engine is working.
    progress: Arc<AtomicU64>,
    /// Whether the last hop marks unknown words (a pivot's).
    marks: bool,
    /// Its processes ([`Engine::processes_of`]).
    processes: usize,
    /// Its modes (`spa-cat+cat-por`), which decide some guard words (`stream::guard_joins`).
    mode: String,
}

/// Why an engine owing an answer is given up on ([`Engine::wait`]).
enum Stall {
    /// No output and no CPU time for a whole budget: hung.
    Silent,
    /// A whole budget of CPU time since its last output: spinning.
    Spinning,
    /// Its output closed (the reader thread ended).
    Lost,
}

/// How long the engine may write nothing while it owes the answer to
/// `core`: `timeout` for every started 1,000 characters of the text (a
/// long description takes longer than a title on any machine), doubled for
/// a fresh pipeline's first text, which also waits for the pair's data to
/// load.
pub(super) fn text_budget(timeout: Duration, core: &str, first: bool) -> Duration {
    let thousands = core.chars().count().div_ceil(1000).max(1) as u32;
    timeout * thousands * if first { 2 } else { 1 }
}

impl Engine {
    /// Starts the pipeline of `mode_files` run one after the other (one
    /// file: a direct pair; two: a pivot, the first's stream output going
    /// into the second as it is, superblanks and all).
    pub(super) fn start(mode_files: &[PathBuf], mode: &str, mark_direct: bool) -> Result<Engine> {
        let (pipeline, marks) = pipeline_of(mode_files, mark_direct)?;
        let mut child = crate::spawn::process(
            shell(&pipeline, mode)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                // Its own process group, so that the whole pipeline can be
                // killed at once.
                .process_group(0),
            &format!("the {mode} pipeline"),
        )?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let progress = Arc::new(AtomicU64::new(0));
        // A thread the system refuses ends the pipeline just started.
        let threads = writer(stdin).and_then(|input| Ok((input, reader(stdout, Arc::clone(&progress))?, stderr_tail(stderr_pipe)?)));
        let (input, output, stderr) = match threads {
            Ok(t) => t,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        Ok(Engine {
            child,
            input: Some(input),
            output,
            stderr,
            next_id: 0,
            answered: 0,
            progress,
            marks,
            processes: Engine::processes_of(&pipeline),
            mode: mode.to_string(),
        })
    }

    /// The processes of a pipeline: its stages and the shell running them.
    pub(super) fn processes_of(pipeline: &str) -> usize {
        pipeline.split('|').count() + 1
    }

    /// The processes this engine holds.
    pub(super) fn processes(&self) -> usize {
        self.processes
    }

    pub(super) fn translate(&mut self, cores: &[&str], timeout: Duration) -> Result<Vec<Answer>> {
        let first = self.next_id;
        self.next_id += cores.len();
        let mut buf = Vec::new();
        for (k, core) in cores.iter().enumerate() {
            buf.extend_from_slice(stream::deformat(core, first + k, &self.mode).as_bytes());
            buf.push(0);
        }
        let sent = self.input.as_ref().map(|tx| tx.send(buf));
        if !matches!(sent, Some(Ok(()))) {
            return Err(self.failure("engine no longer takes input"));
        }
        let mut out = Vec::with_capacity(cores.len());
        for (k, core) in cores.iter().enumerate() {
            // A fresh pipeline's first text also waits for its data to load.
            let budget = text_budget(timeout, core, self.answered == 0);
            match self.wait(budget) {
                Ok(Ok(seg)) => {
                    self.answered += 1;
                    let raw = String::from_utf8_lossy(&seg);
                    let (leaked, unknown) = if self.marks { routes::marked_words(core, &raw) } else { Default::default() };
                    let marked = if leaked.is_empty() { None } else { Some(stream::reformat(&routes::mark_leaks(core, &raw), first + k)?) };
                    out.push(Answer { text: stream::reformat(&raw, first + k)?, leaked, unknown, marked });
                }
                Ok(Err(e)) => return Err(self.failure(&format!("text {k}: {e}"))),
                Err(Stall::Lost) => return Err(self.failure(&format!("text {k}: engine output lost"))),
                Err(stall) => {
                    let (chars, secs) = (core.chars().count(), budget.as_secs_f64());
                    let what = if matches!(stall, Stall::Spinning) {
                        format!("no answer within {secs:.1} s of CPU time used since the engine's last output")
                    } else {
                        format!("no answer within {secs:.1} s, and no sign of work (output or CPU time) in them")
                    };
                    return Err(self.failure(&format!("text {k}: {what} (the budget of a text of {chars} characters)")));
                }
            }
        }
        Ok(out)
    }

    /// The next text's answer, waiting while the engine makes progress: the
    /// wait fails only once the engine has shown no sign of work for
    /// `budget` (neither a byte of output nor a tick of CPU time in its
    /// processes: a hung pipeline), or has used `budget` of CPU time since its
    /// last output without answering (a pipeline that spins). A busy machine
    /// slows an engine, and a starved one loads its pair's data for longer
    /// than its budget, without failing it.
    ///
    /// The processes' CPU time is read only when a poll has seen no output,
    /// so a text answered within the first poll costs no reading of `/proc`.
    fn wait(&self, budget: Duration) -> Result<std::io::Result<Vec<u8>>, Stall> {
        let poll = budget.min(Duration::from_millis(500));
        let group = self.child.id();
        let mut since = Instant::now();
        let mut seen = self.progress.load(Ordering::Relaxed);
        // The group's CPU at the last poll, and what it used since the
        // engine last wrote.
        let mut cpu = None;
        let mut cpu_since_output = Duration::ZERO;
        loop {
            match self.output.recv_timeout(poll) {
                Err(RecvTimeoutError::Timeout) => {
                    let now = self.progress.load(Ordering::Relaxed);
                    let used = group_cpu(group);
                    if now != seen {
                        (seen, since, cpu_since_output) = (now, Instant::now(), Duration::ZERO);
                    } else if let (Some(before), Some(after)) = (cpu, used)
                        && after > before
                    {
                        since = Instant::now();
                        cpu_since_output += after - before;
                    }
                    cpu = used;
                    if since.elapsed() >= budget {
                        return Err(Stall::Silent);
                    }
                    if cpu_since_output >= budget {
                        return Err(Stall::Spinning);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Stall::Lost),
                Ok(answer) => return Ok(answer),
            }
        }
    }

    /// An error that says what happened, with the exit status and the end of
    /// stderr when the engine has exited.
    fn failure(&mut self, what: &str) -> anyhow::Error {
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!("; {s}"),
            _ => String::new(),
        };
        // Give the stderr thread a moment to collect a dying engine's last words.
        thread::sleep(Duration::from_millis(50));
        let stderr = self.stderr.lock().map(|t| String::from_utf8_lossy(&t).trim().to_string());
        let stderr = match stderr {
            Ok(s) if !s.is_empty() => format!("; stderr: {s}"),
            _ => String::new(),
        };
        anyhow!("{what}{status}{stderr}")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.input = None;
        kill_group(&mut self.child);
    }
}

/// The shell pipeline of `mode_files` run one after the other, each stage in
/// null-flush mode, and whether its last hop marks unknown words (a pivot's,
/// or a direct pair's when `mark_direct`).
pub(super) fn pipeline_of(mode_files: &[PathBuf], mark_direct: bool) -> Result<(String, bool)> {
    let mut stages = Vec::new();
    for (k, file) in mode_files.iter().enumerate() {
        let pipeline = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let mut stage = null_flush_pipeline(&pipeline);
        // A pivot's second hop marks what it does not know ($3: -g), so
        // that a word left in the pivot's language is seen
        // (`routes::leaked_words`); the marks never reach a reader
        // (`stream::reformat` drops them).
        if (k > 0 || mark_direct) && k + 1 == mode_files.len() {
            stage = stage.replace("$1", "$3");
        }
        stages.push(stage);
    }
    let marks = stages.len() > 1 || mark_direct;
    Ok((stages.join(" | "), marks))
}

/// The command that runs `pipeline` (from [`pipeline_of`]) for `mode`, as
/// every engine runs: `sh -c PIPELINE MODE -n '' -g`.
pub(super) fn shell(pipeline: &str, mode: &str) -> Command {
    let mut sh = Command::new("sh");
    // In the mode file $1 is the generator's option: -n, no `*` before
    // unknown words (what `apertium -u` passes); $2 the tagger's, none; $3 a
    // pivot's second generator's, -g, marks.
    sh.args(["-c", pipeline, mode, "-n", "", "-g"]);
    sh
}

/// A thread writing into the engine's `stdin` what is sent on the channel it
/// gives, until the engine no longer takes input.
fn writer(mut stdin: ChildStdin) -> Result<Sender<Vec<u8>>> {
    let (input, to_write) = mpsc::channel::<Vec<u8>>();
    crate::spawn::thread("apertium-in", move || {
        for buf in to_write {
            if stdin.write_all(&buf).and_then(|()| stdin.flush()).is_err() {
                break;
            }
        }
    })?;
    Ok(input)
}

/// A thread cutting the engine's `stdout` at the NULs: each text's answer
/// comes on the channel it gives, and the first error (output closed, or
/// ended mid-text) ends it.
fn reader(stdout: ChildStdout, progress: Arc<AtomicU64>) -> Result<Receiver<std::io::Result<Vec<u8>>>> {
    let (segments, output) = mpsc::channel();
    crate::spawn::thread("apertium-out", move || {
        let mut reader = BufReader::new(Counting(stdout, progress));
        loop {
            let mut seg = Vec::new();
            let res = match reader.read_until(0, &mut seg) {
                Ok(0) => Err(std::io::Error::other("engine closed its output")),
                Ok(_) if seg.last() == Some(&0) => {
                    seg.pop();
                    Ok(seg)
                }
                Ok(_) => Err(std::io::Error::other("engine output ended mid-text")),
                Err(e) => Err(e),
            };
            let done = res.is_err();
            if segments.send(res).is_err() || done {
                break;
            }
        }
    })?;
    Ok(output)
}

/// The engine's output, counting in `.1` the bytes read from it.
struct Counting(ChildStdout, Arc<AtomicU64>);

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A thread keeping the last [`STDERR_TAIL`] bytes of the engine's stderr,
/// for error messages.
fn stderr_tail(mut stderr_pipe: ChildStderr) -> Result<Arc<Mutex<Vec<u8>>>> {
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let tail = Arc::clone(&stderr);
    crate::spawn::thread("apertium-err", move || {
        let mut buf = [0u8; 1024];
        while let Ok(n) = stderr_pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
            t.extend_from_slice(&buf[..n]);
            let excess = t.len().saturating_sub(STDERR_TAIL);
            t.drain(..excess);
        }
    })?;
    Ok(stderr)
}

/// The CPU time (user and system) used so far by the processes of process
/// group `group` and by the children they have reaped, from each
/// process's `/proc/PID/stat`; `None` where `/proc` cannot be read. A
/// process that ends between two readings takes its time away with it
/// (unless its parent in the group has reaped it), which reads as no work,
/// never as more.
fn group_cpu(group: u32) -> Option<Duration> {
    /// The kernel's unit of those fields (`USER_HZ`), 100 on every Linux
    /// architecture that exposes it.
    const TICKS_PER_SEC: u64 = 100;
    let group = group.to_string();
    let mut ticks = 0u64;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        if !name.to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())) {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // The fields after the parenthesised command name, from the state
        // (field 3): pgrp is field 5, utime, stime, cutime, cstime 14 to 17.
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2) != Some(&group.as_str()) {
            continue;
        }
        ticks += fields.get(11..15).map_or(0, |f| f.iter().filter_map(|v| v.parse::<u64>().ok()).sum());
    }
    Some(Duration::from_millis(ticks * 1000 / TICKS_PER_SEC))
}

/// A mode's pipeline with `-z` (flush at every NUL) given to each stage but
/// those that take no such flag, as apertium-apy does.
fn null_flush_pipeline(mode: &str) -> String {
    const NO_Z: &[&str] = &["vislcg3", "cg-mwesplit", "hfst-tokenise", "hfst-tokenize", "divvun-suggest"];
    mode.trim()
        .split('|')
        .map(|stage| {
            let stage = stage.trim();
            let (program, rest) = stage.split_once(char::is_whitespace).unwrap_or((stage, ""));
            let name = program.trim_matches('\'').rsplit('/').next().unwrap_or(program);
            if NO_Z.contains(&name) { stage.to_string() } else { format!("{program} -z {rest}").trim_end().to_string() }
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Kills the child's whole process group (the front-end script and every
/// stage of its pipeline) and reaps the child. The helper threads end on
/// their own when the pipes close.
fn kill_group(child: &mut Child) {
    if !kill_pgid(child.id()) {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// Sends SIGKILL to process group `pgid`; std has no killpg, but the shell's
/// builtin kill takes a negative pid.
pub(super) fn kill_pgid(pgid: u32) -> bool {
    Command::new("sh")
        .args(["-c", "kill -9 -\"$1\" 2>/dev/null", "sh", &pgid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_gets_null_flush() {
        let mode = "lt-proc -w 'a.bin' | cg-proc -w 'b.bin' | apertium-tagger -g $2 'c.prob' | lt-proc $1 'd.bin'\n";
        assert_eq!(
            null_flush_pipeline(mode),
            "lt-proc -z -w 'a.bin' | cg-proc -z -w 'b.bin' | apertium-tagger -z -g $2 'c.prob' | lt-proc -z $1 'd.bin'"
        );
        assert_eq!(null_flush_pipeline("'/x/vislcg3' -g r.bin | cat"), "'/x/vislcg3' -g r.bin | cat -z");
    }
}
