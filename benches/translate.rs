//! The translation benchmark (`cargo bench --bench translate`, part of
//! `make bench`): what the release binary's translation of the real Madrid
//! feed costs (October 2025, read in place from `../shared/realdata`; from
//! Spanish into the six targets with the system's Apertium), beside
//! Apertium's own floor on exactly the texts the binary sent (issue 43). It
//! prints figures: it is not a pass/fail test, not a measure of translation
//! quality (`make mt-score` is), and not shipped (under `cargo test` it only
//! says how to run it, so `make test` pays nothing for it).
//!
//! * **run**: the release binary itself, `cityvibe run --force --source
//!   madrid --quiet` on a fresh database from a mirror of the feed, into
//!   Spanish and the six targets, as cron runs it (waves, memory budget,
//!   pivots shared, analysers, house style, the store). Its peak processes
//!   and peak summed PSS (its process tree sampled every half second,
//!   `/proc/*/smaps_rollup`, as scripts/footprint.py does), its CPU
//!   (user+sys of the whole tree, orphans reaped here) and its wall.
//!   `--runs N` runs it N times (default 1).
//! * **capture**: the same binary and run once more, with `APERTIUM_DATADIR`
//!   a copy of the system's Apertium data in a temporary folder whose mode
//!   files first copy their input to a file (`tee`): every engine's input
//!   stream, as the binary deformatted and sent it. Its figures are not the
//!   binary's (one more process a mode), so they are not printed; the text
//!   it stored is compared with the first run's (0 differ is expected: the
//!   copy changes nothing the engines read).
//! * **floor**: Apertium's own floor on those texts. For each main route
//!   (`data/translate/routes.tsv`: es to the six targets, titles and
//!   descriptions; prices go with titles), its captured streams (twins
//!   that repeat a stream, and streams of single words, the second
//!   opinions, left out; so are the mendings and the English analyser, no
//!   main route's) go in one stream through that route's own pipeline, the
//!   installed mode files in null-flush mode as the binary runs them
//!   (`translate::engines::main_engine_command`), one route at a time:
//!   user+sys of each pipeline's tree, summed; its peak processes and summed
//!   PSS sampled as the run's (this process beside it, as `cityvibe` is
//!   beside its engines). Then the run's CPU, wall and peaks against it.
//!   `--no-floor` leaves capture and floor out; `--workers N` writes
//!   `translate_workers = N` into the runs' config (the capture's too).
//!
//! Dropped on 2026-12-07 (issue 43) because they no longer measured what the
//! binary does: "ours" (library workers driven by `translate_targets_parallel`
//! in batches of 50: no waves, no memory budget, no shared pivots, no
//! analysers, and it cost more than three runs of the binary), the floor of
//! `apertium -f txt -u` over the raw texts (not what the binary sends), and
//! "per process" (one `apertium` process per text against "ours"), with
//! issue 5's targets that read them. Their last figures are in
//! docs/BENCHMARKS.md.
//!
//! `cargo bench --bench translate -- [--runs 1] [--no-floor] [--workers N]`

use anyhow::{Context, Result, bail};
use cityvibe::translate::engines::{main_engine_command, routes};
use cityvibe::vocab::Field;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
mod support;
use support::{Measure, Peaks, Sampler, become_subreaper, cpu_now, load_average, reap_orphans, run_measured_quiet};

const REAL_FEED: &str = "../shared/realdata/madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json";
const TARGETS: [&str; 6] = ["ca", "gl", "en", "fr", "it", "pt"];
/// The program the capture's mode files run first: a copy of the stream,
/// untouched. The engine gives every stage `-z`; `tee` takes none.
const CAPTURE_SCRIPT: &str = "#!/bin/sh\n# cityvibe's translate bench: copies the engine's input to the file named, untouched\n[ \"$1\" = -z ] && shift\nexec tee -a \"$1\"\n";

fn main() {
    if let Err(e) = real_main() {
        eprintln!("cityvibe-bench-translate: {e:#}");
        std::process::exit(1);
    }
}

struct Options {
    runs: usize,
    floor: bool,
    /// `translate_workers` in the runs' config (`None`: the binary's default).
    workers: Option<usize>,
}

fn real_main() -> Result<()> {
    let mut o = Options { runs: 1, floor: true, workers: None };
    let Some(args) = support::bench_args("translate", std::env::args().skip(1).collect()) else { return Ok(()) };
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => o.runs = it.next().context("--runs needs a value")?.parse::<usize>().context("--runs N")?.max(1),
            "--no-floor" => o.floor = false,
            "--workers" => o.workers = Some(it.next().context("--workers needs a value")?.parse::<usize>().context("--workers N")?.max(1)),
            "-h" | "--help" => {
                println!("cargo bench --bench translate -- [--runs 1] [--no-floor] [--workers N]");
                return Ok(());
            }
            other => bail!("unknown argument {other:?} (try --help)"),
        }
    }
    bench(o)
}

fn bench(o: Options) -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let feed = std::env::var_os("CITYVIBE_REALDATA").map(PathBuf::from).unwrap_or_else(|| root.join(REAL_FEED));
    if !feed.is_file() {
        bail!("the real Madrid feed {} is missing (set CITYVIBE_REALDATA to another copy)", feed.display());
    }
    let datadir = PathBuf::from(std::env::var_os("APERTIUM_DATADIR").unwrap_or_else(|| "/usr/share/apertium".into()));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let subreaper = become_subreaper();
    if !subreaper {
        println!("cityvibe-bench-translate: cannot reap orphaned pipeline stages here: CPU figures miss a killed pipeline's");
    }
    println!(
        "cityvibe-bench-translate: {}, es + {} with Apertium ({}), {cores} cores; load average at start {}",
        feed.file_name().unwrap_or_default().to_string_lossy(),
        TARGETS.join(", "),
        datadir.display(),
        load_average()
    );
    let tmp = tempfile::tempdir()?;

    // --- the release binary, as cron runs it --------------------------------
    let mut runs = Vec::new();
    for k in 0..o.runs {
        let r = production_run(&feed, &tmp.path().join(format!("run{k}")), o.workers, &[])?;
        println!(
            "run {}: peak {} processes, peak {:.0} MB summed PSS, CPU {:.2} s (user+sys of its tree), wall {:.2} s, {} machine texts (load {})",
            k + 1,
            r.peaks.processes,
            r.peaks.pss_mb(),
            r.measure.cpu.as_secs_f64(),
            r.measure.wall.as_secs_f64(),
            r.machine_texts,
            load_average()
        );
        runs.push(r);
    }
    if !o.floor {
        return Ok(());
    }

    // --- the same run again, each engine's input copied ----------------------
    let capture = tmp.path().join("capture");
    let streams = capture.join("streams");
    let capdata = capture_datadir(&datadir, &capture.join("apertium"), &streams)?;
    let captured = production_run(&feed, &tmp.path().join("run-capture"), o.workers, &[("APERTIUM_DATADIR", capdata.as_os_str())])?;
    let differ = differing_texts(&runs[0].db, &captured.db)?;
    println!(
        "capture run (every engine's input copied; its own figures are not the binary's): {} machine texts, {differ} differ from run 1's",
        captured.machine_texts
    );

    // --- Apertium's floor on what the binary sent ----------------------------
    let main_routes: BTreeSet<String> = TARGETS
        .iter()
        .flat_map(|t| [Field::Title, Field::Description].map(|f| routes::route("es", t, Some(f)).map(|r| r.modes_name())))
        .collect::<Option<_>>()
        .context("routes.tsv declares no route for one of es->ca,gl,en,fr,it,pt")?;
    let by_route = streams_by_route(&streams, &main_routes)?;
    println!("\nfloor: each main route's captured streams in one stream through its own pipeline, one route at a time:");
    println!("{:<18} {:>7} {:>8} {:>9}   left out", "route", "texts", "KB", "CPU s");
    let sampler = Sampler::start(std::process::id(), Duration::from_millis(500));
    let started = Instant::now();
    let mut floor_cpu = Duration::ZERO;
    for route in &main_routes {
        let Some(s) = by_route.get(route) else {
            println!("{route:<18} (nothing captured)");
            continue;
        };
        let input = capture.join(format!("{route}.floor"));
        std::fs::write(&input, &s.stream)?;
        let files: Vec<PathBuf> = route.split('+').map(|m| datadir.join("modes").join(format!("{m}.mode"))).collect();
        let cmd = main_engine_command(&files, route)?;
        let m = run_measured_quiet(cmd, Some(&input)).with_context(|| format!("the {route} pipeline (floor)"))?;
        floor_cpu += m.cpu;
        println!(
            "{route:<18} {:>7} {:>8} {:>9.2}   {}",
            s.texts,
            s.stream.len() / 1024,
            m.cpu.as_secs_f64(),
            if s.left_out.is_empty() { "-".to_string() } else { s.left_out.join(", ") }
        );
    }
    let floor_wall = started.elapsed();
    let floor_peaks = sampler.stop();
    let others: Vec<String> = streams_of_other_routes(&streams, &main_routes)?;
    if !others.is_empty() {
        println!("not main routes, left out: {}", others.join(", "));
    }
    println!(
        "floor (one Apertium pipeline per route, one at a time, the same texts): peak {} processes, peak {:.0} MB summed PSS, CPU {:.2} s, wall {:.2} s (load {})",
        floor_peaks.processes,
        floor_peaks.pss_mb(),
        floor_cpu.as_secs_f64(),
        floor_wall.as_secs_f64(),
        load_average()
    );
    for (k, r) in runs.iter().enumerate() {
        println!(
            "run {} against the floor: CPU {:.2}×, peak processes {:.1}×, peak summed PSS {:.2}×, wall {:.2}× (the floor runs one pipeline at a time)",
            k + 1,
            r.measure.cpu.as_secs_f64() / floor_cpu.as_secs_f64(),
            r.peaks.processes as f64 / floor_peaks.processes.max(1) as f64,
            r.peaks.pss_kb as f64 / floor_peaks.pss_kb.max(1) as f64,
            r.measure.wall.as_secs_f64() / floor_wall.as_secs_f64()
        );
    }
    println!(
        "\nload average at the end {} (other work on the machine moves CPU figures too: compare runs measured side by side)",
        load_average()
    );
    Ok(())
}

/// One run of the release binary: what it cost, its peaks, its database.
struct Production {
    measure: Measure,
    peaks: Peaks,
    db: PathBuf,
    machine_texts: u64,
}

/// The release binary's `run --source madrid` over the feed at `feed`, from
/// a fresh database in `work`, with `env` added to its environment: what it
/// cost (CPU of its whole tree, reaped orphans included) and its peaks,
/// sampled every half second.
fn production_run(feed: &Path, work: &Path, workers: Option<usize>, env: &[(&str, &std::ffi::OsStr)]) -> Result<Production> {
    let bin = support::cityvibe_binary()?;
    let mirror = work.join("m/datos.madrid.es/egob/catalogo");
    std::fs::create_dir_all(&mirror)?;
    std::fs::copy(feed, mirror.join("300107-0-agenda-actividades-eventos.json"))?;
    let config = work.join("sources.toml");
    let workers = workers.map(|n| format!("translate_workers = {n}\n")).unwrap_or_default();
    std::fs::write(
        &config,
        format!(
            "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\", \"ca\", \"gl\"]\n{workers}\n[sources.madrid]\nenabled = true\n"
        ),
    )?;
    let db = work.join("run.db");
    let mut cmd = Command::new(bin);
    cmd.arg("--config")
        .arg(&config)
        .arg("--db")
        .arg(&db)
        .arg("--mirror")
        .arg(work.join("m"))
        .args(["run", "--force", "--source", "madrid", "--quiet"])
        .env("CITYVIBE_STATE_DIR", work.join("state"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    reap_orphans();
    let cpu0 = cpu_now();
    let start = Instant::now();
    let mut child = cmd.spawn().context("starting the release binary")?;
    let sampler = Sampler::start(child.id(), Duration::from_millis(500));
    let mut stderr = child.stderr.take().expect("piped");
    let tail = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let status = child.wait()?;
    let wall = start.elapsed();
    let peaks = sampler.stop();
    reap_orphans();
    let cpu1 = cpu_now();
    let stderr = tail.join().unwrap_or_default();
    if !status.success() {
        bail!("cityvibe run exited with {status}: {}", stderr.trim());
    }
    let machine_texts = support::count_rows(&db, "SELECT COUNT(*) FROM translations WHERE origin = 'machine'")?;
    Ok(Production { measure: Measure { wall, cpu: cpu1.1 - cpu0.1, max_rss_bytes: 0 }, peaks, db, machine_texts })
}

/// A copy of the Apertium data folder `datadir` at `to` (every entry a
/// symbolic link) whose mode files first copy their input into a file of
/// `streams`, named `ROUTE.PID.MODE` (the shell's `$0` is the route the
/// engine runs, `$$` tells its pipelines apart). Returns `to`.
fn capture_datadir(datadir: &Path, to: &Path, streams: &Path) -> Result<PathBuf> {
    let modes = to.join("modes");
    std::fs::create_dir_all(&modes)?;
    std::fs::create_dir_all(streams)?;
    let script = to.join("capture-input");
    std::fs::write(&script, CAPTURE_SCRIPT)?;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))?;
    for path in [&script, streams] {
        // The paths go into shell lines between single quotes.
        if path.to_string_lossy().contains(['\'', ' ', '|']) {
            bail!("the temporary folder {} has a quote, blank or bar in its name", path.display());
        }
    }
    for entry in std::fs::read_dir(datadir).with_context(|| format!("reading {}", datadir.display()))? {
        let entry = entry?;
        if entry.file_name() != "modes" {
            std::os::unix::fs::symlink(entry.path(), to.join(entry.file_name()))?;
        }
    }
    for entry in std::fs::read_dir(datadir.join("modes"))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        match name.strip_suffix(".mode") {
            Some(mode) => {
                let line = std::fs::read_to_string(entry.path())?;
                std::fs::write(
                    modes.join(&name),
                    format!("'{}' '{}/'\"$0.$$.{mode}\" | {}", script.display(), streams.display(), line.trim_start()),
                )?;
            }
            None => std::os::unix::fs::symlink(entry.path(), modes.join(&name))?,
        }
    }
    Ok(to.to_path_buf())
}

/// What the floor sends a route: its streams joined, and what was left out.
#[derive(Default)]
struct RouteStream {
    stream: Vec<u8>,
    texts: usize,
    left_out: Vec<String>,
}

/// The captured inputs of `streams`, in the order they were written, that a
/// main route's first mode read (`ROUTE.PID.MODE` with MODE the route's
/// first), joined by route: a stream that repeats one already taken (a
/// direct pair's marked twin) and a stream of single words (second
/// opinions) are left out, as the floor is the main engines' work.
fn streams_by_route(streams: &Path, main_routes: &BTreeSet<String>) -> Result<BTreeMap<String, RouteStream>> {
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(streams)? {
        let entry = entry?;
        files.push((entry.metadata()?.modified()?, entry.path()));
    }
    files.sort();
    let mut out: BTreeMap<String, RouteStream> = BTreeMap::new();
    let mut seen: HashSet<(String, Vec<u8>)> = HashSet::new();
    for (_, path) in files {
        let Some((route, mode)) = route_and_mode(&path) else { continue };
        if !main_routes.contains(&route) || route.split('+').next() != Some(mode.as_str()) {
            continue;
        }
        let data = std::fs::read(&path)?;
        let texts: Vec<&[u8]> = data.split(|&b| b == 0).filter(|t| t.iter().any(|b| !b.is_ascii_whitespace())).collect();
        let words = texts.iter().all(|t| t.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty()).count() <= 2)
            && texts.iter().map(|t| t.len()).sum::<usize>() < 40 * texts.len().max(1);
        let entry = out.entry(route.clone()).or_default();
        if words {
            entry.left_out.push(format!("words {}", texts.len()));
        } else if !seen.insert((route, data.clone())) {
            entry.left_out.push(format!("twin {}", texts.len()));
        } else {
            entry.texts += texts.len();
            entry.stream.extend_from_slice(&data);
        }
    }
    Ok(out)
}

/// The routes captured that are no main route (mendings, the English
/// analyser, second opinions of their own), with their texts.
fn streams_of_other_routes(streams: &Path, main_routes: &BTreeSet<String>) -> Result<Vec<String>> {
    let mut texts: BTreeMap<String, usize> = BTreeMap::new();
    for entry in std::fs::read_dir(streams)? {
        let path = entry?.path();
        let Some((route, mode)) = route_and_mode(&path) else { continue };
        if main_routes.contains(&route) || route.split('+').next() != Some(mode.as_str()) {
            continue;
        }
        let n = std::fs::read(&path)?.split(|&b| b == 0).filter(|t| t.iter().any(|b| !b.is_ascii_whitespace())).count();
        *texts.entry(route).or_default() += n;
    }
    Ok(texts.into_iter().map(|(r, n)| format!("{r} ({n} texts)")).collect())
}

/// `spa-cat+cat-fra.1234.spa-cat` → (`spa-cat+cat-fra`, `spa-cat`).
fn route_and_mode(path: &Path) -> Option<(String, String)> {
    let name = path.file_name()?.to_str()?;
    let mut parts = name.rsplitn(3, '.');
    let mode = parts.next()?;
    let _pid = parts.next()?;
    Some((parts.next()?.to_string(), mode.to_string()))
}

/// Machine texts of `a` whose text differs in `b`, by (source, event, language, field).
fn differing_texts(a: &Path, b: &Path) -> Result<u64> {
    let conn = rusqlite::Connection::open(a).with_context(|| format!("opening {}", a.display()))?;
    conn.execute("ATTACH DATABASE ?1 AS other", [b.to_string_lossy()])?;
    let n: i64 = conn.query_row(
        "SELECT COUNT(*) FROM translations t JOIN events e ON e.id = t.event_id
         LEFT JOIN other.events oe ON oe.source = e.source AND oe.source_event_id = e.source_event_id
         LEFT JOIN other.translations ot ON ot.event_id = oe.id AND ot.lang = t.lang AND ot.field = t.field
         WHERE t.origin = 'machine' AND (ot.text IS NULL OR ot.text != t.text)",
        [],
        |r| r.get(0),
    )?;
    Ok(n as u64)
}
