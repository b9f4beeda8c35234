//! A quick measurement of the local engine, for `make bench`: how long one
//! batch takes through a long-lived null-flush process per pair, cold and
//! warm, with the targets run in parallel, against one `apertium` process
//! per text.
//!
//! Not for: tests (it asserts nothing) or production paths.

use super::ApertiumTranslator;
use super::engine::{Translator, translate_targets_parallel};
use anyhow::{Context, Result, bail};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Translates `texts` (Spanish, already scrubbed of personal data) into each
/// of `targets` with the system's Apertium, and returns a readable report.
/// `per_process_sample` texts per pair also go through one `apertium`
/// process each, to compare; 0 skips that part.
pub fn bench_engine(texts: &[String], targets: &[&str], per_process_sample: usize) -> Result<String> {
    let words: usize = texts.iter().map(|t| t.split_whitespace().count()).sum();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut report = String::new();
    let probe = ApertiumTranslator::system()?;
    writeln!(
        report,
        "engine {}, {} texts, {words} words, {threads} cores",
        probe.engine_id(),
        texts.len()
    )?;
    writeln!(
        report,
        "{:<8} {:>9} {:>9} {:>10} {:>14}",
        "pair", "cold s", "warm s", "warm w/s", "per-process s"
    )?;

    for tgt in targets {
        let mode = probe.mode("es", tgt).unwrap_or("(pivot)").to_string();
        let mut engine = ApertiumTranslator::system()?;
        let t = Instant::now();
        engine
            .translate("es", tgt, texts)
            .with_context(|| format!("es->{tgt}"))?;
        let cold = t.elapsed().as_secs_f64();
        let t = Instant::now();
        engine
            .translate("es", tgt, texts)
            .with_context(|| format!("es->{tgt}"))?;
        let warm = t.elapsed().as_secs_f64();
        let per_process = if per_process_sample > 0 && mode != "(pivot)" {
            let sample = &texts[..per_process_sample.min(texts.len())];
            let t = Instant::now();
            for text in sample {
                one_process(&mode, text)?;
            }
            let each = t.elapsed().as_secs_f64() / sample.len().max(1) as f64;
            format!("{:.1} (est.)", each * texts.len() as f64)
        } else {
            "-".to_string()
        };
        writeln!(
            report,
            "{mode:<8} {cold:>9.2} {warm:>9.2} {:>10.0} {per_process:>14}",
            words as f64 / warm
        )?;
    }

    let mut workers = Vec::new();
    for _ in 0..threads {
        workers.push(ApertiumTranslator::system()?);
    }
    let t = Instant::now();
    let results = translate_targets_parallel(&mut workers, "es", targets, texts);
    let wall = t.elapsed().as_secs_f64();
    for r in &results {
        if let Err(e) = &r.texts {
            bail!("parallel es->{}: {e:#}", r.lang);
        }
    }
    writeln!(
        report,
        "all {} targets, {threads} workers in parallel (cold): {wall:.2} s, {:.0} w/s",
        targets.len(),
        (words * targets.len()) as f64 / wall
    )?;
    Ok(report)
}

/// One text through one fresh `apertium -u MODE` (plain-text mode).
fn one_process(mode: &str, text: &str) -> Result<String> {
    let mut child = Command::new("apertium")
        .args(["-u", mode])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting apertium {mode}"))?;
    child.stdin.take().context("stdin")?.write_all(text.as_bytes())?;
    let out = child.wait_with_output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
