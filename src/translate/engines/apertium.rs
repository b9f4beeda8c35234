//! The local Apertium engine, kept running: one null-flush pipeline per
//! language pair (mode), for the lifetime of the translator.
//!
//! Starting Apertium loads its transducers, which costs 60–400 ms per call;
//! in null-flush mode (`-z`) one pipeline takes text after text, each ended by
//! a NUL byte, and answers each with its translation and a NUL. A writer
//! thread feeds the engine and a reader thread cuts its output at the NULs, so
//! that a hung engine becomes a timeout (`recv_timeout`) and a dead one an
//! error, never a hang or a panic. Either way the pipeline's whole process
//! group is killed and the next batch starts a fresh one.
//!
//! This file chooses the modes and the route and mends what a route leaves;
//! the pipeline itself, its process and its threads, is `pipeline`'s.
//!
//! Not for: deformatting (see `stream`), or deciding what to translate.

mod mend;

use crate::lang::{Lang, SourceLang};
use crate::translate::engines::footprint;
use crate::translate::engines::pipeline::{Answer, Engine, kill_pgid, pipeline_of};
use crate::translate::engines::routes;
use crate::translate::engines::stream;
use crate::translate::engines::{PIVOT, PivotMemo, Translator, engine_codes, engine_lang, route, scrubbed};
use crate::vocab::Field;
use anyhow::{Context, Result, bail};
use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long one text may take before the engine counts as hung. The first
/// text of a pair also pays for loading the pair's data (under a second here).
pub const DEFAULT_TEXT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long `apertium -V` may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

/// The pair whose English analyser tells an English word in a Spanish
/// text from a Spanish word a route does not know (`mend_unknown`).
const ENGLISH: &str = "eng-spa";

/// The engine key of the English analyser: the one engine a worker keeps
/// from one wave to the next (`rest`). Its verdict on a word reads only
/// the marks its analyser (`*`, a word it does not know) and its
/// bilingual dictionary (`@`, a reading it has no translation for) write
/// on the reading its tagger chose, and eng-spa has no constraint grammar:
/// its answer to a word does not depend on the words sent before it, so
/// one engine serves every target of the run. Measured on every
/// lower-case word of four letters or more of the real Madrid 2025-10 feed
/// (8,003), sent one a text in three orders: 0 answers differ (es-pt and
/// spa-ita, whose taggers keep state, differ on 3 and 6 words).
const ENGLISH_WORDS: &str = "eng-spa/words";

pub struct ApertiumTranslator {
    modes_dir: PathBuf,
    engine_id: String,
    modes: BTreeSet<String>,
    timeout: Duration,
    /// Running engines by key, each with when it was last used (a count)
    /// and the MB it holds (`footprint`).
    engines: HashMap<String, (Engine, u64, u64)>,
    /// Uses so far: the clock of `engines`' last uses.
    uses: u64,
    /// What all the workers' engines may hold together, in processes
    /// ([`DEFAULT_MAX_PROCESSES`]): the second budget a run's waves are
    /// packed by.
    process_budget: usize,
    /// The processes this translator's engines may hold now (its share of
    /// the wave's process budget, `hold_at_most`); starting one more closes
    /// the least recently used first.
    max_processes: usize,
    /// What all the workers' engines may hold together, in MB
    /// ([`DEFAULT_MAX_MEMORY_MB`]): the budget a run's waves are packed by.
    memory_budget_mb: u64,
    /// The MB this translator's engines may hold now (its share of the
    /// wave's budget, `hold_at_most`); starting one more closes the least
    /// recently used first.
    max_mb: u64,
    pivot_memo: PivotMemo,
}

/// What translation's engines may hold together by default: the policy's
/// [`crate::policy::DEFAULT_MAX_MEMORY_MB`].
pub use crate::policy::DEFAULT_MAX_MEMORY_MB;

/// What translation's engines may hold together by default, in
/// processes: the policy's [`crate::policy::DEFAULT_MAX_PROCESSES`].
pub use crate::policy::DEFAULT_MAX_PROCESSES;

impl ApertiumTranslator {
    /// The system's Apertium: its version from `apertium -V`, its pairs from
    /// `$APERTIUM_DATADIR/modes`, by default `/usr/share/apertium/modes`,
    /// where the `apertium` front-end and Debian's packages keep them.
    pub fn system() -> Result<Self> {
        let version = probe("apertium", &["-V"])?;
        let version = version.trim();
        let version = version.strip_prefix("Apertium ").unwrap_or(version);
        if version.is_empty() {
            bail!("apertium -V printed no version");
        }
        let datadir = std::env::var_os("APERTIUM_DATADIR").unwrap_or_else(|| "/usr/share/apertium".into());
        Self::new(Path::new(&datadir).join("modes"), format!("{}{version}", super::LOCAL_APERTIUM))
    }

    /// The pairs whose mode files (`NAME.mode`, one shell pipeline each) are
    /// in `modes_dir`, named `engine_id` in cache keys. Fails if the folder
    /// cannot be read or holds no mode.
    pub fn new(modes_dir: impl Into<PathBuf>, engine_id: impl Into<String>) -> Result<Self> {
        let modes_dir = modes_dir.into();
        let entries = std::fs::read_dir(&modes_dir)
            .with_context(|| format!("reading {} (is Apertium installed? see scripts/deps.sh)", modes_dir.display()))?;
        let modes: BTreeSet<String> =
            entries.filter_map(|e| e.ok()).filter_map(|e| e.file_name().to_str()?.strip_suffix(".mode").map(String::from)).collect();
        if modes.is_empty() {
            bail!("no Apertium modes in {}", modes_dir.display());
        }
        Ok(ApertiumTranslator {
            modes_dir,
            engine_id: engine_id.into(),
            modes,
            timeout: DEFAULT_TEXT_TIMEOUT,
            engines: HashMap::new(),
            uses: 0,
            process_budget: DEFAULT_MAX_PROCESSES,
            max_processes: DEFAULT_MAX_PROCESSES,
            memory_budget_mb: DEFAULT_MAX_MEMORY_MB,
            max_mb: DEFAULT_MAX_MEMORY_MB,
            pivot_memo: PivotMemo::default(),
        })
    }

    /// Sets the most processes all the workers' engines may hold together:
    /// each worker holds at most that until a wave gives it its share (one
    /// engine always may run, whatever its size).
    pub fn with_max_processes(mut self, max: usize) -> Self {
        self.process_budget = max;
        self.max_processes = max;
        self
    }

    /// Sets what all the workers' engines may hold together, in MB: each
    /// worker holds at most that until a wave gives it its share.
    pub fn with_max_memory_mb(mut self, mb: u64) -> Self {
        self.memory_budget_mb = mb;
        self.max_mb = mb;
        self
    }

    /// The MB this translator's engines hold now, as `footprint` weighs them.
    pub fn memory_mb(&self) -> u64 {
        self.engines.values().map(|(_, _, mb)| mb).sum()
    }

    /// The engines (their modes, `+` joined; a twin under its own key) a
    /// text of `field` from `src` into `tgt` may start, as
    /// [`Self::translate_routed`] starts them.
    fn engines_of(&self, src: &str, tgt: &str, field: Option<Field>) -> Vec<String> {
        if src == tgt {
            return Vec::new();
        }
        if let Some(declared) = routes::route(src, tgt, field) {
            let mut out = vec![declared.modes_name()];
            match declared.pivot {
                Some(via) => {
                    let back = routes::route("ca", src, None).filter(|r| r.pivot.is_none());
                    let direct = routes::route(src, tgt, None).filter(|r| r.pivot.is_none());
                    if let (Some(back), Some(direct), "ca") = (back, direct, via) {
                        out.push(format!("{}+{}", back.modes_name(), direct.modes_name()));
                    }
                }
                None if declared.second.is_some() => out.push(declared.modes_name()),
                None => {}
            }
            if let Some(second) = &declared.second {
                if self.modes.contains(ENGLISH) {
                    out.push(ENGLISH.to_string());
                }
                out.push(second.join("+"));
            }
            return out;
        }
        match route(src, tgt, |s, t| self.mode(s, t).map(String::from)) {
            Some(crate::translate::engines::Route::Direct(m)) => vec![m],
            Some(crate::translate::engines::Route::Pivot(a, b)) => vec![a, b],
            _ => Vec::new(),
        }
    }

    /// The keys of the engines a text of `field` from `src` into `tgt`
    /// runs on, as [`Self::translate_routed`] starts them (`engines_of`'s
    /// modes: a direct pair's twin is `MODE/marked`, and so is a direct
    /// second opinion's; the English analyser is [`ENGLISH_WORDS`]).
    fn keys_of(&self, src: &str, tgt: &str, field: Option<Field>) -> Vec<String> {
        let Some(declared) = routes::route(src, tgt, field).filter(|_| src != tgt) else { return self.engines_of(src, tgt, field) };
        let mut keys = self.engines_of(src, tgt, field);
        let main = declared.modes_name();
        if declared.pivot.is_none() && declared.second.is_some() {
            // Its twin, right after the route itself.
            keys[1] = format!("{main}/marked");
        }
        if let Some(second) = &declared.second {
            let n = keys.len();
            if keys.len() >= 2 && keys[n - 2] == ENGLISH {
                keys[n - 2] = ENGLISH_WORDS.to_string();
            }
            let second = second.join("+");
            keys[n - 1] = if second.contains('+') { second } else { format!("{second}/marked") };
        }
        keys
    }

    /// The processes one engine running `modes` (`spa-cat+cat-fra`: one
    /// pipeline of both) holds, counted from the installed mode files as a
    /// running engine counts them ([`Engine::processes_of`]): 0 for a mode
    /// not installed, which starts nothing.
    fn engine_processes(&self, modes: &str) -> usize {
        let files: Vec<PathBuf> = modes.split('+').map(|m| self.modes_dir.join(format!("{m}.mode"))).collect();
        pipeline_of(&files, false).map(|(pipeline, _)| Engine::processes_of(&pipeline)).unwrap_or(0)
    }

    /// The processes this translator's engines hold now (each pipeline's
    /// stages and the shell that runs them).
    pub fn processes(&self) -> usize {
        self.engines.values().map(|(e, _, _)| e.processes()).sum()
    }

    /// Makes room for an engine of `needed` processes holding `mb`: the
    /// least recently used engines are closed until it fits under
    /// `max_processes` and `max_mb`.
    fn make_room(&mut self, needed: usize, mb: u64) {
        while !self.engines.is_empty() && (self.processes() + needed > self.max_processes || self.memory_mb() + mb > self.max_mb) {
            let oldest = self.engines.iter().min_by_key(|(_, (_, used, _))| *used).map(|(k, _)| k.clone());
            if let Some(key) = oldest {
                self.engines.remove(&key);
            }
        }
    }

    /// Sets how long one text may take before the engine counts as hung.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The installed mode that translates `src` into `tgt` directly, if any
    /// (e.g. `es`,`gl` → `es-gl`; `es`,`ca` → `spa-cat`).
    pub fn mode(&self, src: &str, tgt: &str) -> Option<&str> {
        let (s, t) = (engine_codes(src)?, engine_codes(tgt)?);
        s.iter().flat_map(|a| t.iter().map(move |b| format!("{a}-{b}"))).find_map(|m| self.modes.get(&m).map(String::as_str))
    }

    /// Whether the mode `name` (`cat-eng`) is installed.
    pub fn has_mode(&self, name: &str) -> bool {
        self.modes.contains(name)
    }

    /// `text` translated through the one mode `name`, or modes joined by
    /// `+` run as one pipeline: `doctor`'s proof of a route of the table.
    pub fn translate_through(&mut self, name: &str, text: &str) -> Result<String> {
        if let Some(missing) = name.split('+').find(|m| !self.modes.contains(*m)) {
            bail!("the Apertium mode {missing} is not installed (install the pairs with `make deps`)");
        }
        Ok(self.run(name, &[text.to_string()])?.remove(0))
    }

    /// Every installed mode, including ones CityVibe does not use.
    pub fn modes(&self) -> impl Iterator<Item = &str> {
        self.modes.iter().map(String::as_str)
    }

    /// Translates along the route the table names for `field` (`None`: the
    /// pair's `*` row), one pipeline running its modes one after the other,
    /// so that kept spans travel as superblanks through both hops of a
    /// pivot. A pair the table does not declare goes direct, else through
    /// Spanish, as installed. A route whose mode is not installed is an
    /// error naming it: the table, not the machine, decides the route.
    fn translate_routed(&mut self, src: &str, tgt: &str, field: Option<Field>, texts: &[String]) -> Result<Vec<String>> {
        // An original-only language (Basque) goes where the table routes it.
        if routes::route(src, tgt, field).is_none() {
            engine_lang(src)?;
        }
        if src == tgt {
            return Ok(texts.to_vec());
        }
        if let Some(declared) = routes::route(src, tgt, field) {
            if let Some(missing) = declared.modes.iter().find(|m| !self.modes.contains(**m)) {
                bail!(
                    "the route {src}->{tgt} ({}) of data/translate/routes.tsv needs the Apertium mode {missing}, which is not installed (install the pairs with `make deps`)",
                    declared.name()
                );
            }
            if declared.pivot.is_none() && declared.second.is_none() {
                return self.run(&declared.modes_name(), texts);
            }
            let (mut out, unknown) = match declared.pivot {
                Some(_) => {
                    let mut answers = self.run_marked(&declared.modes_name(), false, texts)?;
                    let unknown: Vec<Vec<String>> = answers.iter_mut().map(|a| std::mem::take(&mut a.unknown)).collect();
                    (self.mend_leaks(src, tgt, declared.pivot, texts, answers)?, unknown)
                }
                // A direct pair's marks would change its text (French
                // elides no "le" before "*embaucador", English writes "a
                // *Emoticuento"): the text comes from its unmarked engine,
                // what it does not know from a marked one beside it.
                None => {
                    let out = self.run(&declared.modes_name(), texts)?;
                    let marked = self.run_marked(&declared.modes_name(), true, texts)?;
                    (out, marked.into_iter().map(|a| a.unknown).collect())
                }
            };
            if let Some(second) = &declared.second {
                self.mend_unknown(&second.join("+"), &unknown, &mut out)?;
            }
            return Ok(out);
        }
        let Some(route) = route(src, tgt, |s, t| self.mode(s, t).map(String::from)) else {
            bail!(
                "no apertium mode for {src}->{tgt}, directly or through {PIVOT} (installed: {})",
                self.modes().collect::<Vec<_>>().join(" ")
            );
        };
        // The memo is lent out while `run` borrows the backend.
        let mut memo = std::mem::take(&mut self.pivot_memo);
        let out = route.follow(src, texts, &mut memo, |mode, texts| self.run(mode, texts));
        self.pivot_memo = memo;
        out
    }

    /// Translates through one mode, or modes joined by `+` run as one
    /// pipeline, starting its engine if needed. On any failure the engine
    /// is dropped (and killed) so the next call starts anew.
    fn run(&mut self, mode: &str, texts: &[String]) -> Result<Vec<String>> {
        Ok(self.run_marked(mode, false, texts)?.into_iter().map(|a| a.text).collect())
    }

    /// As [`Self::run`], each answer with the words the last hop marked as
    /// foreign to it ([`routes::marked_words`]): a pivot's always, a direct
    /// pair's when `mark_direct` (its engine runs apart from the unmarked
    /// one, so that the two never share a tagger's state).
    fn run_marked(&mut self, mode: &str, mark_direct: bool, texts: &[String]) -> Result<Vec<Answer>> {
        let mark_direct = mark_direct && !mode.contains('+');
        let key = if mark_direct { format!("{mode}/marked") } else { mode.to_string() };
        self.run_on(&key, mode, mark_direct, texts)
    }

    /// As [`Self::run_marked`], on the engine kept under `key` (its mode,
    /// `/marked` for a direct pair's marked twin): a second opinion's words
    /// go to the engine of the same pipeline as [`Self::run_marked`] keys
    /// it, so that French descriptions, whose route is the French titles'
    /// second opinion, find it running when they follow the titles on the
    /// same worker (Apertium's tagger keeps state along a stream: their
    /// text depends on the titles' words sent before them, in a fixed
    /// order).
    fn run_on(&mut self, key: &str, mode: &str, mark_direct: bool, texts: &[String]) -> Result<Vec<Answer>> {
        let texts = &scrubbed(texts);
        let framed: Vec<stream::Framed> = texts.iter().map(|t| stream::frame(t)).collect();
        let cores: Vec<&str> = framed.iter().map(|f| f.core).filter(|c| !c.is_empty()).collect();
        let mut translated = Vec::new();
        if !cores.is_empty() {
            self.uses += 1;
            if !self.engines.contains_key(key) {
                let files: Vec<PathBuf> = mode.split('+').map(|m| self.modes_dir.join(format!("{m}.mode"))).collect();
                let (pipeline, _) = pipeline_of(&files, mark_direct)?;
                let mb = footprint::engine_mb(mode);
                self.make_room(Engine::processes_of(&pipeline), mb);
                let engine = Engine::start(&files, mode, mark_direct)
                    .map_err(|e| e.context(format!("starting an engine beside {} processes of this worker's", self.processes())))?;
                self.engines.insert(key.to_string(), (engine, 0, mb));
            }
            let (engine, used, _) = self.engines.get_mut(key).expect("started just above");
            *used = self.uses;
            match engine.translate(&cores, self.timeout) {
                Ok(out) => translated = out,
                Err(e) => {
                    self.engines.remove(key);
                    return Err(e.context(format!("apertium {mode}")));
                }
            }
        }
        let mut translated = translated.into_iter();
        Ok(framed
            .iter()
            .map(|f| {
                let answer = if f.core.is_empty() { Answer::default() } else { translated.next().unwrap_or_default() };
                let marked = answer.marked.as_ref().map(|m| format!("{}{m}{}", f.lead, f.trail));
                Answer { text: format!("{}{}{}", f.lead, answer.text, f.trail), marked, ..answer }
            })
            .collect())
    }
}

impl Translator for ApertiumTranslator {
    fn engine_id(&self) -> String {
        self.engine_id.clone()
    }

    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>> {
        self.translate_routed(src.as_str(), tgt.as_str(), None, texts)
    }

    fn translate_field(&mut self, src: &SourceLang, tgt: Lang, field: Field, texts: &[String]) -> Result<Vec<String>> {
        self.translate_routed(src.as_str(), tgt.as_str(), Some(field), texts)
    }

    /// Closes every engine but the English analyser ([`ENGLISH_WORDS`]),
    /// whose answers never depend on what it read before: their processes
    /// end, and the next text starts what it needs. The analyser stays for
    /// the next wave within the worker's share (`hold_at_most` closes it
    /// when the share has no room for it), so that a run loads it once a
    /// worker rather than once a target.
    fn rest(&mut self) {
        self.engines.retain(|key, _| key == ENGLISH_WORDS);
        self.pivot_memo = PivotMemo::default();
    }

    fn memory_budget_mb(&self) -> Option<u64> {
        Some(self.memory_budget_mb)
    }

    fn footprint_mb(&self, src: &SourceLang, tgt: Lang, field: Field) -> u64 {
        self.engines_of(src.as_str(), tgt.as_str(), Some(field)).iter().map(|m| footprint::engine_mb(m)).sum()
    }

    fn process_budget(&self) -> Option<usize> {
        Some(self.process_budget)
    }

    fn footprint_processes(&self, src: &SourceLang, tgt: Lang, field: Field) -> usize {
        self.engines_of(src.as_str(), tgt.as_str(), Some(field)).iter().map(|m| self.engine_processes(m)).sum()
    }

    /// A wave's share: closes what no longer fits (least recently used
    /// first) and holds at most `mb` and `processes` from now on.
    fn hold_at_most(&mut self, mb: u64, processes: usize) {
        self.max_mb = mb;
        self.max_processes = processes;
        self.make_room(0, 0);
    }

    /// The same engines: the two fields' routes of the table name the same
    /// modes, twins and second opinions (a Spanish price goes as its title).
    fn shares_engines(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        let (src, tgt) = (src.as_str(), tgt.as_str());
        self.engines_of(src, tgt, Some(a)) == self.engines_of(src, tgt, Some(b))
    }

    /// The same engines (`shares_engines`), each a pair that
    /// `data/translate/one-stream.txt` lists: its answers to one field do
    /// not change for the other's texts sent before them.
    fn shares_a_stream(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        let engines = self.engines_of(src.as_str(), tgt.as_str(), Some(a));
        self.shares_engines(src, tgt, a, b) && !engines.is_empty() && engines.iter().all(|m| one_stream(m))
    }

    /// A pivot pipeline (`spa-cat+cat-fra`) among both fields' engines:
    /// the French titles' second opinion is the French descriptions' route.
    fn shares_a_pivot(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        let (src, tgt) = (src.as_str(), tgt.as_str());
        let first = self.engines_of(src, tgt, Some(a));
        self.engines_of(src, tgt, Some(b)).iter().any(|m| m.contains('+') && first.contains(m))
    }

    /// Closes every engine but those texts of `field` start (by key: a
    /// direct pair's marked twin and a second opinion's words run on the
    /// engine `run_marked` keys) and the English analyser, as `rest` keeps
    /// it.
    fn keep_only_for(&mut self, src: &SourceLang, tgt: Lang, field: Field) {
        let keys = self.keys_of(src.as_str(), tgt.as_str(), Some(field));
        self.engines.retain(|key, _| key == ENGLISH_WORDS || keys.contains(key));
    }

    fn supports(&self, src: &SourceLang, tgt: Lang) -> bool {
        match routes::route(src.as_str(), tgt.as_str(), None) {
            Some(declared) if *src != tgt => declared.modes.iter().all(|m| self.modes.contains(*m)),
            _ => route(src.as_str(), tgt.as_str(), |s, t| self.mode(s, t)).is_some(),
        }
    }
}

/// The pairs whose targets' descriptions may follow their titles through one engine.
const ONE_STREAM: &str = include_str!("../../../data/translate/one-stream.txt");

/// Whether the pair `mode` is listed in [`ONE_STREAM`]:
/// a target's descriptions may follow its titles through one engine of it.
fn one_stream(mode: &str) -> bool {
    crate::lang_data::entries(ONE_STREAM).any(|m| m == mode)
}

/// Runs `command args` and returns its stdout, within [`PROBE_TIMEOUT`].
fn probe(command: &str, args: &[&str]) -> Result<String> {
    let shown = format!("{command} {}", args.join(" "));
    let mut child = crate::spawn::process(
        Command::new(command).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null()).process_group(0),
        &shown,
    )
    .map_err(|e| {
        if crate::error::is_refused(&e) { e } else { e.context(format!("running {shown} (is Apertium installed? see scripts/deps.sh)")) }
    })?;
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    crate::spawn::thread("apertium-probe", move || {
        let mut out = String::new();
        let read = child.stdout.take().expect("stdout is piped").read_to_string(&mut out);
        let _ = tx.send(read.and_then(|_| child.wait()).map(|status| (status, out)));
    })
    .inspect_err(|_| {
        kill_pgid(pid);
    })?;
    match rx.recv_timeout(PROBE_TIMEOUT) {
        Ok(Ok((status, _))) if !status.success() => bail!("{shown} failed: {status}"),
        Ok(Ok((_, out))) => Ok(out),
        Ok(Err(e)) => Err(e).with_context(|| format!("reading the output of {shown}")),
        Err(_) => {
            kill_pgid(pid);
            bail!("{shown} did not answer within {} s", PROBE_TIMEOUT.as_secs());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The English analyser is kept from one wave to the next
    /// ([`ENGLISH_WORDS`]) because its answer to a word does not depend on
    /// the words sent before it: every lower-case word of the Spanish
    /// language data, sent one a text in one order through one engine and
    /// in the reverse order through another, comes back the same (text and
    /// marks). An Apertium upgrade whose eng-spa keeps state fails here.
    #[test]
    fn the_english_analyser_answers_a_word_the_same_whatever_came_before() {
        let Ok(mut t) = ApertiumTranslator::system() else { return };
        if !t.has_mode(ENGLISH) {
            return;
        }
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/lang/es");
        let mut words = BTreeSet::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let lower = |w: &&str| w.chars().count() >= 4 && w.chars().all(char::is_lowercase);
                words.extend(line.split(|c: char| !c.is_alphabetic()).filter(lower).map(String::from));
            }
        }
        let words: Vec<String> = words.into_iter().collect();
        assert!(words.len() > 200, "{}", words.len());
        let reversed: Vec<String> = words.iter().rev().cloned().collect();
        let seen = |answers: Vec<Answer>| -> Vec<(String, Vec<String>, Vec<String>)> {
            answers.into_iter().map(|a| (a.text, a.unknown, a.leaked)).collect()
        };
        let forward = seen(t.run_on("forward", ENGLISH, true, &words).unwrap());
        let mut backward = seen(t.run_on("backward", ENGLISH, true, &reversed).unwrap());
        backward.reverse();
        let differ: Vec<_> = words.iter().zip(forward.iter().zip(&backward)).filter(|(_, (f, b))| f != b).collect();
        assert!(differ.is_empty(), "{differ:?}");
    }

    /// The examples of `data/translate/one-stream.txt` hold, and every
    /// pair it lists is a route's of the table.
    #[test]
    fn the_one_stream_examples_hold() {
        let mut n = 0;
        for line in ONE_STREAM.lines().filter_map(|l| l.strip_prefix("# example: ")) {
            let (mode, said) = line.split_once(" => ").unwrap();
            assert_eq!(one_stream(mode), said == "one stream", "{line}");
            n += 1;
        }
        assert!(n >= 2);
        let modes = routes::modes();
        for mode in crate::lang_data::entries(ONE_STREAM) {
            assert!(modes.contains(&mode), "{mode} is no route's pair");
        }
    }

    /// Every target of every original language, titles and descriptions,
    /// holds at most the default budget with all its engines running: by
    /// default no worker closes an engine it will need again (which would
    /// cost the pair's start once more), and the heaviest, Spanish
    /// descriptions into French through Catalan, runs alone.
    #[test]
    fn every_route_with_its_helpers_fits_the_default_memory_budget() {
        let Ok(t) = ApertiumTranslator::system() else { return };
        let mut heaviest = (0, String::new());
        for src in ["es", "ca", "eu"].map(SourceLang::new) {
            for tgt in Lang::ALL {
                for field in [Field::Title, Field::Description] {
                    let mb = t.footprint_mb(&src, tgt, field);
                    println!("{src}->{tgt} {}: {mb} MB {:?}", field.as_str(), t.engines_of(src.as_str(), tgt.as_str(), Some(field)));
                    assert!(mb <= DEFAULT_MAX_MEMORY_MB, "{src}->{tgt} {}: {mb} MB", field.as_str());
                    if mb > heaviest.0 {
                        heaviest = (mb, format!("{src}->{tgt} {}", field.as_str()));
                    }
                }
            }
        }
        assert_eq!(heaviest.1, "es->fr description", "{heaviest:?}");
        assert!(heaviest.0 * 2 > DEFAULT_MAX_MEMORY_MB, "the heaviest runs alone");
    }
}
