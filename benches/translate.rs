//! The translation benchmark (`cargo bench --bench translate`,
//! part of `make bench`): how fast every text of the real Madrid feed is
//! (October 2025, read in place from `../shared/realdata`) translated from
//! Spanish into the six targets with the system's Apertium, as production
//! does it, beside two references. It prints figures: it is not a pass/fail
//! test, not a measure of translation quality (`make mt-score` is), and not
//! shipped (under `cargo test` it only says how to run it).
//!
//! * **ours**: `ApertiumTranslator::system()` workers, one per core, fresh
//!   (cold) for each run, driven by `translate_targets_parallel` over the
//!   texts in batches of 50 (as `Step::run` sends them; `--batch 0`
//!   sends all texts in one call). The texts are those `Step::run`
//!   sends: scrubbed, duplicates once, prepared per target as production
//!   does (venue and names kept, the term base applied) and put in house
//!   style afterwards, all inside the timing.
//!   Three runs (`--runs`), median wall time.
//! * **floor**: each field's route (`data/translate/routes.tsv`) as
//!   Apertium's own pipelines (`apertium -f txt -u MODE`), fed every text of
//!   that field in one stream (a blank line between texts), one process per
//!   mode run to its end, a pivot's two modes one after the other (Spanish
//!   descriptions into French, Italian and Portuguese go through Catalan);
//!   its user+sys CPU (of the whole process tree, from `wait4`) summed and
//!   divided by the cores is the least wall time any scheme could take on
//!   this machine. Each pivot's second hop is printed on its own beside the
//!   direct pair on the same texts: what the route costs. Measured on
//!   2026-12-02 (2 cores, loaded): cat-fra 14.4 s, cat-ita 15.1 s, cat-por
//!   13.1 s CPU as second hops, against 6.5, 6.6 and 4.0 s for es-fr,
//!   spa-ita and es-pt on the same descriptions; ours 122.3 s CPU against
//!   a floor of 115.8 s with the pivots in it (1.06×).
//! * **per process**: the texts of the first 50 events (`--events`), one
//!   `apertium -u -f txt MODE` process per text and pair, as many at once as
//!   cores, against ours (fresh workers, all six targets) on the same texts.
//!   `--per-process-pairs ca,en` measures only those pairs and scales the
//!   time to six, labelled as an estimate.
//!
//! * **run**: the release binary itself, `cityvibe run --source madrid` on
//!   a fresh database from a mirror of the same feed into Spanish and the
//!   six targets, as cron runs it (waves, memory budget, analysers, house
//!   style, the store): its peak processes and peak summed PSS (its process
//!   tree sampled every half second, as scripts/footprint.py does), its CPU
//!   (user+sys of the whole tree) and wall, beside the floor's peaks (one
//!   pipeline at a time) and CPU. `--no-run` leaves it out.
//!
//! Targets: median of the runs under 20 s; at least 10× faster than one
//! Apertium process per text. Prints words/s per pair.
//!
//! `cargo bench --bench translate -- [--runs 3] [--batch 50] [--events 50] [--per-process-pairs ca,gl,en,fr,it,pt] [--no-floor] [--no-per-process] [--no-run]`

use anyhow::{Context, Result, bail};
use cityvibe::adapters::madrid::{MANIFEST, Madrid};
use cityvibe::lang::{Lang, SourceLang};
use cityvibe::translate::engines::apertium::ApertiumTranslator;
use cityvibe::translate::engines::routes;
use cityvibe::translate::engines::{Translator, translate_each_target};
use cityvibe::translate::finish::finish;
use cityvibe::translate::prepare::analyser::Analyser;
use cityvibe::translate::prepare::terms::TermBase;
use cityvibe::translate::prepare::{Known, prepare};
use cityvibe::vocab::Field;
use std::collections::{BTreeMap, HashSet};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
mod support;
use support::{Measure, Peaks, Sampler, become_subreaper, cpu_now, load_average, reap_orphans, run_measured_quiet};

const REAL_FEED: &str = "../shared/realdata/madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json";
const TARGETS: [&str; 6] = ["ca", "gl", "en", "fr", "it", "pt"];
/// As `translate::plan::step::Step::run` sends texts to the engines.
const PIPELINE_BATCH: usize = 50;
const TARGET_MEDIAN: Duration = Duration::from_secs(20);
const TARGET_SPEEDUP: f64 = 10.0;

fn main() {
    if let Err(e) = real_main() {
        eprintln!("cityvibe-bench-translate: {e:#}");
        std::process::exit(1);
    }
}

struct Options {
    runs: usize,
    batch: usize,
    events: usize,
    per_process_pairs: Vec<String>,
    floor: bool,
    per_process: bool,
    run: bool,
}

fn real_main() -> Result<()> {
    let mut o = Options {
        runs: 3,
        batch: PIPELINE_BATCH,
        events: 50,
        per_process_pairs: TARGETS.iter().map(|s| s.to_string()).collect(),
        floor: true,
        per_process: true,
        run: true,
    };
    let Some(args) = support::bench_args("translate", std::env::args().skip(1).collect()) else { return Ok(()) };
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--runs" => o.runs = value("--runs")?.parse::<usize>().context("--runs N")?.max(1),
            "--batch" => o.batch = value("--batch")?.parse().context("--batch N")?,
            "--events" => o.events = value("--events")?.parse::<usize>().context("--events N")?.max(1),
            "--per-process-pairs" => {
                o.per_process_pairs =
                    value("--per-process-pairs")?.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
                if let Some(bad) = o.per_process_pairs.iter().find(|p| !TARGETS.contains(&p.as_str())) {
                    bail!("--per-process-pairs: {bad:?} is not one of {}", TARGETS.join(","));
                }
            }
            "--no-floor" => o.floor = false,
            "--no-per-process" => o.per_process = false,
            "--no-run" => o.run = false,
            "-h" | "--help" => {
                println!(
                    "cargo bench --bench translate -- [--runs 3] [--batch 50] [--events 50] [--per-process-pairs ca,gl,en,fr,it,pt] [--no-floor] [--no-per-process] [--no-run]"
                );
                return Ok(());
            }
            other => bail!("unknown argument {other:?} (try --help)"),
        }
    }
    bench(o)
}

/// The texts of some events, as `Step::run` sends them.
struct Texts {
    /// Distinct (scrubbed text, venue name) pairs, as the pipeline prepares them.
    texts: Vec<(String, Option<String>)>,
    /// The texts alone (for the `apertium` front-end).
    plain: Vec<String>,
    /// Each distinct text's field: titles and descriptions may take routes
    /// of their own (`data/translate/routes.tsv`).
    kinds: Vec<Field>,
    /// Non-empty titles and descriptions before removing duplicates.
    fields: usize,
    events: usize,
}

impl Texts {
    fn words(&self) -> usize {
        self.plain.iter().map(|t| t.split_whitespace().count()).sum()
    }
}

fn texts_of(events: &[cityvibe::model::Event]) -> Texts {
    let mut seen = HashSet::new();
    let mut texts = Vec::new();
    let mut kinds = Vec::new();
    let mut fields = 0;
    for e in events {
        for (kind, text) in [(Field::Title, &e.title), (Field::Description, &e.description)] {
            if text.trim().is_empty() {
                continue;
            }
            fields += 1;
            // As Step::run: scrubbed once more (P5).
            let item = (cityvibe::parse::pii::scrub(text), e.venue.name.clone());
            if seen.insert(item.clone()) {
                texts.push(item);
                kinds.push(kind);
            }
        }
    }
    let plain = texts.iter().map(|(t, _)| t.clone()).collect();
    Texts { texts, plain, kinds, fields, events: events.len() }
}

fn bench(o: Options) -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = std::env::var_os("CITYVIBE_REALDATA").map(PathBuf::from).unwrap_or_else(|| root.join(REAL_FEED));
    let bytes = std::fs::read(&path).with_context(|| format!("reading the real Madrid feed {}", path.display()))?;
    let feed = &MANIFEST.feeds[0];
    let parsed = cityvibe::adapter::parse_bytes(&Madrid, feed, &bytes).map_err(|e| anyhow::anyhow!("{e}"))?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let probe = ApertiumTranslator::system().context("Apertium is needed (make deps)")?;
    let modes: Vec<(&str, String)> = TARGETS
        .iter()
        .map(|t| Ok((*t, probe.mode("es", t).with_context(|| format!("no direct es->{t} mode installed"))?.to_string())))
        .collect::<Result<_>>()?;
    let all = texts_of(&parsed.events);
    let words = all.words();
    println!(
        "cityvibe-bench-translate: {} ({} events, {} non-empty titles and descriptions, {} distinct texts, {words} words), engine {}, {cores} cores",
        path.file_name().unwrap_or_default().to_string_lossy(),
        all.events,
        all.fields,
        all.texts.len(),
        probe.engine_id()
    );
    println!("cityvibe-bench-translate: load average at start {}", load_average());
    println!("cityvibe-bench-translate: pairs {}", modes.iter().map(|(t, m)| format!("es->{t} = {m}")).collect::<Vec<_>>().join(", "));

    // --- the floor: each field's route, all its texts in one stream -------
    // A pivot (`routes.tsv`: Spanish descriptions into French, Italian and
    // Portuguese go through Catalan) is its two modes one after the other,
    // each measured: the second hop's CPU is said on its own below.
    let mut floor: BTreeMap<&str, Measure> = BTreeMap::new();
    let mut second_hops: Vec<(String, Measure, Measure)> = Vec::new();
    // One pipeline at a time: the floor's peaks are its heaviest route's
    // (this process's own memory beside it, as cityvibe's is beside its engines).
    let floor_sampler = o.floor.then(|| Sampler::start(std::process::id(), Duration::from_millis(500)));
    if o.floor {
        let tmp = tempfile::tempdir()?;
        for (tgt, _) in &modes {
            let mut total: Option<Measure> = None;
            for field in [Field::Title, Field::Description] {
                let texts: Vec<&str> = all.plain.iter().zip(&all.kinds).filter(|(_, k)| **k == field).map(|(t, _)| t.as_str()).collect();
                let route = routes::route("es", tgt, Some(field)).with_context(|| format!("routes.tsv declares no es->{tgt}"))?;
                let mut input = tmp.path().join(format!("{tgt}-{field}-0.txt"));
                std::fs::write(&input, texts.join("\n\n") + "\n")?;
                for (hop, mode) in route.modes.iter().enumerate() {
                    let mut cmd = Command::new("apertium");
                    cmd.args(["-f", "txt", "-u", mode]);
                    let m = run_measured_quiet(cmd, Some(&input)).with_context(|| format!("apertium {mode} (floor)"))?;
                    if hop + 1 < route.modes.len() {
                        // The next hop reads this one's output (made again, untimed).
                        let next = tmp.path().join(format!("{tgt}-{field}-{}.txt", hop + 1));
                        let out = Command::new("apertium").args(["-f", "txt", "-u", mode]).stdin(std::fs::File::open(&input)?).output()?;
                        std::fs::write(&next, out.stdout)?;
                        input = next;
                    } else if hop > 0 {
                        let mut direct = Command::new("apertium");
                        direct.args(["-f", "txt", "-u", probe.mode("es", tgt).unwrap_or(mode)]);
                        let d = run_measured_quiet(direct, Some(&tmp.path().join(format!("{tgt}-{field}-0.txt"))))?;
                        second_hops.push((format!("es->{tgt} {field}s {}", route.name()), m, d));
                    }
                    total = Some(match total {
                        Some(t) => Measure { cpu: t.cpu + m.cpu, wall: t.wall + m.wall, ..m },
                        None => m,
                    });
                }
            }
            floor.insert(tgt, total.expect("two fields measured"));
        }
    }

    let floor_peaks = floor_sampler.map(Sampler::stop);

    // --- ours: fresh workers per run, all pairs in parallel ----------------
    let subreaper = become_subreaper();
    let mut runs: Vec<Run> = Vec::new();
    for run in 0..o.runs {
        let r = ours(&all.texts, &all.kinds, cores, o.batch)?;
        println!(
            "cityvibe-bench-translate: run {}: {:.2} s wall; CPU {:.2} s in the engines + {:.2} s here",
            run + 1,
            r.wall.as_secs_f64(),
            r.cpu_engines.as_secs_f64(),
            r.cpu_self.as_secs_f64()
        );
        runs.push(r);
    }
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| runs[i].wall);
    let median_run = runs[order[order.len() / 2]].clone();
    let (median, median_pairs) = (median_run.wall, median_run.held.clone());

    // --- the release binary, as cron runs it --------------------------------
    let production = if o.run { Some(production_run(&path)?) } else { None };

    // --- the table ----------------------------------------------------------
    let floor_cpu: Duration = floor.values().map(|m| m.cpu).sum();
    let floor_wall = floor_cpu / cores as u32;
    println!();
    println!("all {} texts ({words} words) into each pair; ours = the median run, time each pair held a worker:", all.texts.len());
    println!("{:<9} {:<8} {:>10} {:>12} {:>10} {:>12}", "pair", "mode", "ours s", "ours w/s", "floor cpu s", "floor w/s");
    for (tgt, mode) in &modes {
        let ours_s = median_pairs.get(*tgt).copied().unwrap_or_default().as_secs_f64();
        let (fl_s, fl_rate) = match floor.get(tgt) {
            Some(m) => (format!("{:.2}", m.cpu.as_secs_f64()), format!("{:.0}", words as f64 / m.cpu.as_secs_f64())),
            None => ("-".into(), "-".into()),
        };
        println!("es->{tgt:<5} {mode:<8} {ours_s:>10.2} {:>12.0} {fl_s:>11} {fl_rate:>12}", words as f64 / ours_s);
    }
    let total_words = words * TARGETS.len();
    println!(
        "\nours, {cores} workers, {} runs (cold, batch {}): {} s; median {:.2} s = {:.0} words/s over six pairs",
        runs.len(),
        if o.batch == 0 { "all".to_string() } else { o.batch.to_string() },
        runs.iter().map(|r| format!("{:.2}", r.wall.as_secs_f64())).collect::<Vec<_>>().join(", "),
        median.as_secs_f64(),
        total_words as f64 / median.as_secs_f64()
    );
    if subreaper {
        println!(
            "ours, CPU of the median run: {:.2} s in the engine pipelines + {:.2} s in this process = {:.2} s",
            median_run.cpu_engines.as_secs_f64(),
            median_run.cpu_self.as_secs_f64(),
            (median_run.cpu_engines + median_run.cpu_self).as_secs_f64()
        );
    }
    if o.floor && subreaper {
        let ours_cpu = median_run.cpu_engines + median_run.cpu_self;
        println!(
            "ours vs floor in CPU (robust to other work on the machine): {:.2} s vs {:.2} s = {:.2}×; ours' CPU / {cores} cores = {:.2} s",
            ours_cpu.as_secs_f64(),
            floor_cpu.as_secs_f64(),
            ours_cpu.as_secs_f64() / floor_cpu.as_secs_f64(),
            (ours_cpu / cores as u32).as_secs_f64()
        );
    }
    if o.floor {
        println!(
            "floor: Apertium's own pipelines, one stream per pair: {:.2} s CPU (wall {:.2} s run one after another) / {cores} cores = {:.2} s; ours is {:.2}× the floor",
            floor_cpu.as_secs_f64(),
            floor.values().map(|m| m.wall).sum::<Duration>().as_secs_f64(),
            floor_wall.as_secs_f64(),
            median.as_secs_f64() / floor_wall.as_secs_f64()
        );
    }

    if let Some((m, peaks)) = &production {
        println!(
            "run (the release binary, `run --source madrid` from a fresh database into es + six targets): peak {} processes, peak {:.0} MB summed PSS, CPU {:.2} s (user+sys of its tree), wall {:.2} s",
            peaks.processes,
            peaks.pss_mb(),
            m.cpu.as_secs_f64(),
            m.wall.as_secs_f64()
        );
    }
    if let Some(fp) = floor_peaks {
        println!(
            "floor (one Apertium pipeline per pair, one at a time, the same texts): peak {} processes, peak {:.0} MB summed PSS, CPU {:.2} s",
            fp.processes,
            fp.pss_mb(),
            floor_cpu.as_secs_f64()
        );
        if let Some((m, _)) = &production {
            println!("run vs floor in CPU: {:.2}×", m.cpu.as_secs_f64() / floor_cpu.as_secs_f64());
        }
    }
    for (what, hop, direct) in &second_hops {
        println!(
            "second hop of {what}: {:.2} s CPU (the direct pair on the same texts: {:.2} s), in the floor above",
            hop.cpu.as_secs_f64(),
            direct.cpu.as_secs_f64()
        );
    }

    // --- side by side on 50 events: one process per text ------------------
    let mut speedup = None;
    if o.per_process {
        let with_text: Vec<cityvibe::model::Event> = parsed.events.iter().take(o.events).cloned().collect();
        let sample = texts_of(&with_text);
        let sample_words = sample.words();
        println!(
            "\nside by side on the first {} events ({} texts, {sample_words} words), {cores} at a time:",
            sample.events,
            sample.texts.len()
        );
        let Run { wall: ours_wall, held: ours_pairs, .. } = ours(&sample.texts, &sample.kinds, cores, o.batch)?;
        let pairs: Vec<(&str, &str)> =
            modes.iter().filter(|(t, _)| o.per_process_pairs.iter().any(|p| p == t)).map(|(t, m)| (*t, m.as_str())).collect();
        let (pp_wall, pp_pairs) = per_process(&pairs, &sample.plain, cores)?;
        println!("{:<9} {:>14} {:>12} {:>16} {:>14}", "pair", "ours (held) s", "ours w/s", "per-process s", "per-proc w/s");
        for (tgt, _) in &modes {
            let ours_s = ours_pairs.get(*tgt).copied().unwrap_or_default().as_secs_f64();
            let (pp_s, pp_rate) = match pp_pairs.get(*tgt) {
                Some(d) => (format!("{:.2}", d.as_secs_f64()), format!("{:.0}", sample_words as f64 / d.as_secs_f64())),
                None => ("(not run)".into(), "-".into()),
            };
            println!("es->{tgt:<5} {ours_s:>14.2} {:>12.0} {pp_s:>16} {pp_rate:>14}", sample_words as f64 / ours_s);
        }
        let scale = TARGETS.len() as f64 / pairs.len().max(1) as f64;
        let pp_six = pp_wall.as_secs_f64() * scale;
        let label = if pairs.len() == TARGETS.len() {
            format!("{:.2} s", pp_six)
        } else {
            format!("{:.2} s (ESTIMATE: {} of 6 pairs measured, {:.2} s, scaled ×{scale:.1})", pp_six, pairs.len(), pp_wall.as_secs_f64())
        };
        println!("six pairs, wall: ours (fresh workers) {:.2} s; one process per text {label}", ours_wall.as_secs_f64());
        speedup = Some(pp_six / ours_wall.as_secs_f64());
    }

    println!("\nload average at the end {} (other work on the machine slows wall times, not CPU times)", load_average());
    println!("\ntargets (issue 5):");
    let verdict = |ok: bool| if ok { "PASS" } else { "MISS" };
    println!(
        "  {}  median of {} runs under {} s: {:.2} s (floor {})",
        verdict(median < TARGET_MEDIAN),
        runs.len(),
        TARGET_MEDIAN.as_secs(),
        median.as_secs_f64(),
        if o.floor { format!("{:.2} s", floor_wall.as_secs_f64()) } else { "not measured".into() }
    );
    match speedup {
        Some(x) => println!(
            "  {}  at least {TARGET_SPEEDUP:.0}× faster than one process per text (same {} events): {x:.1}×",
            verdict(x >= TARGET_SPEEDUP),
            o.events
        ),
        None => println!("  ----  one process per text: not measured (--no-per-process)"),
    }
    Ok(())
}

/// A worker that notes how long each target held it.
struct Timed {
    inner: ApertiumTranslator,
    held: Arc<Mutex<BTreeMap<String, Duration>>>,
}

impl Translator for Timed {
    fn engine_id(&self) -> String {
        self.inner.engine_id()
    }
    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>> {
        let t = Instant::now();
        let out = self.inner.translate(src, tgt, texts);
        *self.held.lock().unwrap().entry(tgt.to_string()).or_default() += t.elapsed();
        out
    }
    fn supports(&self, src: &SourceLang, tgt: Lang) -> bool {
        self.inner.supports(src, tgt)
    }
    fn translate_field(&mut self, src: &SourceLang, tgt: Lang, field: Field, texts: &[String]) -> Result<Vec<String>> {
        let t = Instant::now();
        let out = self.inner.translate_field(src, tgt, field, texts);
        *self.held.lock().unwrap().entry(tgt.to_string()).or_default() += t.elapsed();
        out
    }
}

/// One cold run of the production path: fresh workers (one per core), the
/// six targets in parallel, in batches as `Step::run` sends them.
/// Wall time (workers' start included) and the time each pair held a worker.
fn ours(texts: &[(String, Option<String>)], kinds: &[Field], cores: usize, batch: usize) -> Result<Run> {
    let held = Arc::new(Mutex::new(BTreeMap::new()));
    reap_orphans();
    let cpu0 = cpu_now();
    let start = Instant::now();
    let mut workers =
        (0..cores).map(|_| Ok(Timed { inner: ApertiumTranslator::system()?, held: Arc::clone(&held) })).collect::<Result<Vec<_>>>()?;
    let batch = if batch == 0 { texts.len().max(1) } else { batch };
    let terms = TARGETS.iter().map(|t| TermBase::load(None, t)).collect::<Result<Vec<_>>>()?;
    // Names are decided by Apertium's Spanish analyser, one process for the
    // run, each text analysed once: its CPU counts with the engines'.
    let mut analyser = Analyser::system().ok();
    let mut start_at = 0;
    for chunk in texts.chunks(batch) {
        let analyses: Vec<_> = chunk.iter().map(|(t, _)| analyser.as_mut().and_then(|a| a.analyse(t).ok())).collect();
        let prepared: Vec<Vec<_>> = terms
            .iter()
            .map(|b| {
                chunk
                    .iter()
                    .zip(&analyses)
                    .map(|((t, v), a)| prepare(t, Known { venue: v.as_deref(), analysis: a.as_ref(), ..Known::default() }, b))
                    .collect()
            })
            .collect();
        // As `batches` sends them: each field on its own, along its route.
        for field in [Field::Title, Field::Description] {
            let of_field: Vec<usize> = (0..chunk.len()).filter(|&i| kinds[start_at + i] == field).collect();
            if of_field.is_empty() {
                continue;
            }
            let sent: Vec<Vec<String>> = prepared.iter().map(|p| of_field.iter().map(|&i| p[i].text.clone()).collect()).collect();
            for (k, r) in translate_each_target(
                &mut workers,
                &Lang::Es.into(),
                &TARGETS.map(|t| t.parse::<Lang>().expect("a display language")),
                Some(field),
                &sent,
            )
            .into_iter()
            .enumerate()
            {
                let out = r.texts.with_context(|| format!("es->{}", r.lang))?;
                if out.len() != of_field.len() {
                    bail!("es->{}: {} texts back for {}", r.lang, out.len(), of_field.len());
                }
                for (o, &i) in out.iter().zip(&of_field) {
                    let p = &prepared[k][i];
                    std::hint::black_box(finish(
                        o,
                        &p.names,
                        p.lead.as_deref(),
                        cityvibe::lang::Lang::from_code(TARGETS[k]).unwrap(),
                        field,
                    ));
                }
            }
        }
        start_at += chunk.len();
    }
    let wall = start.elapsed();
    drop(workers); // engines killed; not timed
    drop(analyser);
    reap_orphans();
    let cpu1 = cpu_now();
    let held = held.lock().unwrap().clone();
    Ok(Run { wall, cpu_self: cpu1.0 - cpu0.0, cpu_engines: cpu1.1 - cpu0.1, held })
}

/// The release binary's `run --source madrid` over the feed at `feed`, from
/// a fresh database in a temporary folder: what it cost (CPU of its whole
/// tree, reaped orphans included) and its peaks, sampled every half second.
fn production_run(feed: &std::path::Path) -> Result<(Measure, Peaks)> {
    let bin = support::cityvibe_binary()?;
    let tmp = tempfile::tempdir()?;
    let mirror = tmp.path().join("m/datos.madrid.es/egob/catalogo");
    std::fs::create_dir_all(&mirror)?;
    std::fs::copy(feed, mirror.join("300107-0-agenda-actividades-eventos.json"))?;
    let config = tmp.path().join("sources.toml");
    std::fs::write(
        &config,
        "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\", \"pt\", \"ca\", \"gl\"]\n\n[sources.madrid]\nenabled = true\n",
    )?;
    let mut cmd = Command::new(bin);
    cmd.arg("--config")
        .arg(&config)
        .arg("--db")
        .arg(tmp.path().join("run.db"))
        .arg("--mirror")
        .arg(tmp.path().join("m"))
        .args(["run", "--force", "--source", "madrid", "--quiet"])
        .env("CITYVIBE_STATE_DIR", tmp.path().join("state"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
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
    Ok((Measure { wall, cpu: cpu1.1 - cpu0.1, max_rss_bytes: 0 }, peaks))
}

/// One run of ours.
#[derive(Clone)]
struct Run {
    wall: Duration,
    /// This process: framing, deformatting, threads.
    cpu_self: Duration,
    /// The engine pipelines (every stage, reaped by this process).
    cpu_engines: Duration,
    /// Per target, how long it held a worker.
    held: BTreeMap<String, Duration>,
}

/// One `apertium -u -f txt MODE` process per text and pair, `cores` at once.
/// Wall time in all, and per pair the sum of its processes' wall times
/// divided by `cores` (its share of the wall).
fn per_process(pairs: &[(&str, &str)], texts: &[String], cores: usize) -> Result<(Duration, BTreeMap<String, Duration>)> {
    let jobs: Vec<(&str, &str, &String)> = pairs.iter().flat_map(|(t, m)| texts.iter().map(move |x| (*t, *m, x))).collect();
    let next = AtomicUsize::new(0);
    let spent: Mutex<BTreeMap<String, Duration>> = Mutex::new(BTreeMap::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..cores {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((tgt, mode, text)) = jobs.get(i) else { break };
                    let t = Instant::now();
                    if let Err(e) = one_process(mode, text) {
                        failure.lock().unwrap().get_or_insert(e);
                        break;
                    }
                    *spent.lock().unwrap().entry(tgt.to_string()).or_default() += t.elapsed();
                }
            });
        }
    });
    let wall = start.elapsed();
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let spent = spent.into_inner().unwrap().into_iter().map(|(k, d)| (k, d / cores as u32)).collect();
    Ok((wall, spent))
}

/// One text through one fresh `apertium -u -f txt MODE`.
fn one_process(mode: &str, text: &str) -> Result<String> {
    let mut child = Command::new("apertium")
        .args(["-u", "-f", "txt", mode])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting apertium {mode}"))?;
    child.stdin.take().context("stdin")?.write_all(text.as_bytes())?;
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!("apertium {mode}: {}", out.status);
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
