//! The machine-translation seam: one small trait, the backends that implement
//! it, and running several target languages at once.
//!
//! Backends, one file each: [`apertium::ApertiumTranslator`] (local engine,
//! one long-lived null-flush process per language pair, `pipeline`, with
//! `stream` its format), [`apy::ApyTranslator`] (an apertium-apy server over HTTP),
//! `libretranslate` and `openai` (servers of their kinds, sharing `server`),
//! and [`NoneTranslator`] (translation switched off); `routes` is the route
//! table Apertium and APy follow. Texts handed to a
//! translator are already scrubbed of personal data (P5); each backend still
//! runs them through the one scrubber, `parse::pii`, before an engine sees
//! them, since an APy server may be another machine's.
//!
//! Not for: caching, storing translations or choosing what to translate.

use crate::lang::{Lang, SourceLang};
use crate::vocab::Field;
use anyhow::{Result, anyhow, bail};
use std::sync::Mutex;

pub mod apertium;
pub mod apy;
pub mod footprint;
pub mod libretranslate;
pub mod openai;
mod pipeline;
pub mod routes;
mod server;
pub mod stream;

/// The command cityvibe runs as a route's main engine: the mode files at
/// `mode_files` one after the other, every stage in null-flush mode, a
/// pivot's last hop marking what it does not know, under
/// `sh -c PIPELINE ROUTE -n '' -g` (as [`apertium::ApertiumTranslator`]
/// starts it; no stdin, stdout or process group set). For
/// `benches/translate.rs`, whose floor runs Apertium's own pipelines as
/// cityvibe runs them; nothing in the binary calls it.
pub fn main_engine_command(mode_files: &[std::path::PathBuf], route: &str) -> Result<std::process::Command> {
    let (shell_pipeline, _) = pipeline::pipeline_of(mode_files, false)?;
    Ok(pipeline::shell(&shell_pipeline, route))
}

/// The language every pair goes through when there is no direct one.
pub const PIVOT: &str = "es";

pub trait Translator {
    /// Stable id including engine version, used in cache keys, e.g. "apertium/3.8.3".
    fn engine_id(&self) -> String;
    /// Translate a batch of plain texts from `src` (a display language or
    /// another original's, Basque) into `tgt`. Output same length/order.
    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>>;
    /// Language pairs this backend can do directly or via Spanish pivot.
    fn supports(&self, src: &SourceLang, tgt: Lang) -> bool;
    /// As [`Translator::translate`], for texts of one `field`: a backend
    /// that follows the route table (`routes`, Apertium) takes the field's
    /// route; the others translate as `translate` does.
    fn translate_field(&mut self, src: &SourceLang, tgt: Lang, field: Field, texts: &[String]) -> Result<Vec<String>> {
        let _ = field;
        self.translate(src, tgt, texts)
    }
    /// The work that needed the engines this backend holds is done: close
    /// them (a local engine's processes end; the next text starts what it
    /// needs; one whose answers never depend on the texts before may stay,
    /// within the share `hold_at_most` gives). A backend that holds
    /// nothing does nothing.
    fn rest(&mut self) {}
    /// What this engine's workers may hold together, in MB of summed PSS
    /// (`translate_max_memory_mb`); `None` when it holds no process (a
    /// server does the work).
    fn memory_budget_mb(&self) -> Option<u64> {
        None
    }
    /// MB the engines translating `field` from `src` into `tgt` may hold at
    /// once (its pipeline and its helpers); 0 for a backend that holds none.
    fn footprint_mb(&self, src: &SourceLang, tgt: Lang, field: Field) -> u64 {
        let _ = (src, tgt, field);
        0
    }
    /// What this engine's workers may hold together, in processes
    /// (`translate_max_processes`); `None` when it holds no process.
    fn process_budget(&self) -> Option<usize> {
        None
    }
    /// Processes the engines translating `field` from `src` into `tgt` may
    /// hold at once, as [`Translator::footprint_mb`] counts MB.
    fn footprint_processes(&self, src: &SourceLang, tgt: Lang, field: Field) -> usize {
        let _ = (src, tgt, field);
        0
    }
    /// Sets what this worker may hold until told otherwise: its share of
    /// a wave's budgets, in MB and in processes. A backend that holds
    /// nothing ignores it.
    fn hold_at_most(&mut self, mb: u64, processes: usize) {
        let _ = (mb, processes);
    }
    /// Whether texts of field `b` from `src` into `tgt` go through exactly
    /// the engines of field `a` (the same route, twins and second opinions),
    /// so that they may be sent through the engines `a`'s texts started,
    /// after them, rather than start them again: never for a backend that
    /// holds no engine (nothing to share).
    fn shares_engines(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        let _ = (src, tgt, a, b);
        false
    }
    /// Whether texts of field `b` from `src` into `tgt` go through exactly
    /// the engines of field `a` ([`Translator::shares_engines`]), each one
    /// whose answers do not depend on which field's texts came before, so
    /// that `b`'s texts may follow `a`'s through them: never for a backend
    /// that holds no engine.
    fn shares_a_stream(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        let _ = (src, tgt, a, b);
        false
    }
    /// Whether texts of field `b` from `src` into `tgt` go through a pivot
    /// pipeline (two pairs in one, the costliest to load) that texts of
    /// field `a` start too, so that `b`'s texts may follow `a`'s on the
    /// same worker, in the same wave, rather than load it again: never
    /// for a backend that holds no engine.
    fn shares_a_pivot(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        let _ = (src, tgt, a, b);
        false
    }
    /// The next texts are of `field` from `src` into `tgt`, after another
    /// field's on this worker: close the engines they will not start,
    /// keep those they will (the pivot French titles and descriptions
    /// share), within the share `hold_at_most` gave. A backend that holds
    /// nothing does nothing.
    fn keep_only_for(&mut self, src: &SourceLang, tgt: Lang, field: Field) {
        let _ = (src, tgt, field);
    }
}

/// Engine instances of any kind, one per worker.
pub type Workers = Box<dyn Translator + Send>;

impl<T: Translator + ?Sized> Translator for Box<T> {
    fn engine_id(&self) -> String {
        (**self).engine_id()
    }
    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>> {
        (**self).translate(src, tgt, texts)
    }
    fn supports(&self, src: &SourceLang, tgt: Lang) -> bool {
        (**self).supports(src, tgt)
    }
    fn translate_field(&mut self, src: &SourceLang, tgt: Lang, field: Field, texts: &[String]) -> Result<Vec<String>> {
        (**self).translate_field(src, tgt, field, texts)
    }
    fn rest(&mut self) {
        (**self).rest()
    }
    fn memory_budget_mb(&self) -> Option<u64> {
        (**self).memory_budget_mb()
    }
    fn footprint_mb(&self, src: &SourceLang, tgt: Lang, field: Field) -> u64 {
        (**self).footprint_mb(src, tgt, field)
    }
    fn process_budget(&self) -> Option<usize> {
        (**self).process_budget()
    }
    fn footprint_processes(&self, src: &SourceLang, tgt: Lang, field: Field) -> usize {
        (**self).footprint_processes(src, tgt, field)
    }
    fn hold_at_most(&mut self, mb: u64, processes: usize) {
        (**self).hold_at_most(mb, processes)
    }
    fn shares_engines(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        (**self).shares_engines(src, tgt, a, b)
    }
    fn shares_a_pivot(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        (**self).shares_a_pivot(src, tgt, a, b)
    }
    fn shares_a_stream(&self, src: &SourceLang, tgt: Lang, a: Field, b: Field) -> bool {
        (**self).shares_a_stream(src, tgt, a, b)
    }
    fn keep_only_for(&mut self, src: &SourceLang, tgt: Lang, field: Field) {
        (**self).keep_only_for(src, tgt, field)
    }
}

/// What the local Apertium's engine id starts with, its version after it
/// (`apertium/3.8.3`, as [`apertium::ApertiumTranslator::system`] names it).
pub(crate) const LOCAL_APERTIUM: &str = "apertium/";

/// Whether `engine_id` names the local Apertium (not APy's `apertium-apy`):
/// the one engine whose translations name the route of the table they
/// followed (`send::need::origin_name`).
pub(crate) fn is_local_apertium(engine_id: &str) -> bool {
    engine_id.starts_with(LOCAL_APERTIUM)
}

/// Apertium's names for a language, most specific first (see
/// [`crate::lang::Lang::apertium_codes`]); none for a code that is no
/// display language.
pub(crate) fn engine_codes(lang: &str) -> Option<[&'static str; 2]> {
    crate::lang::Lang::from_code(lang).map(crate::lang::Lang::apertium_codes)
}

/// The texts as they may reach an engine: e-mail addresses and phone
/// numbers scrubbed once more (P5), so that neither an engine nor a stored
/// translation ever holds one, even if a caller forgot.
pub(crate) fn scrubbed(texts: &[String]) -> Vec<String> {
    texts.iter().map(|t| crate::parse::pii::scrub(t)).collect()
}

/// The display language a code handed to a backend names, or a clear
/// error: the one parse of the codes [`Translator`] is called with.
pub(crate) fn engine_lang(code: &str) -> Result<Lang> {
    Lang::from_code(code).ok_or_else(|| anyhow!("unsupported language {code:?} (expected one of {})", Lang::CODES.join(", ")))
}

/// How a backend gets from one language to another, with what it needs for
/// each leg (a mode name, a langpair).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route<T> {
    Same,
    Direct(T),
    /// `src` into Spanish, then Spanish into `tgt`.
    Pivot(T, T),
}

impl<T> Route<T> {
    /// Translate along the route, `run` doing each leg; a pivot's first leg
    /// (into Spanish) is remembered in `memo` for the next target.
    pub(crate) fn follow(
        self,
        src: &str,
        texts: &[String],
        memo: &mut PivotMemo,
        mut run: impl FnMut(&T, &[String]) -> Result<Vec<String>>,
    ) -> Result<Vec<String>> {
        match self {
            Route::Same => Ok(texts.to_vec()),
            Route::Direct(leg) => run(&leg, texts),
            Route::Pivot(into_spanish, out_of_spanish) => {
                let spanish = match memo.get(src, texts) {
                    Some(spanish) => spanish,
                    None => {
                        let spanish = run(&into_spanish, texts)?;
                        memo.put(src, texts, &spanish);
                        spanish
                    }
                };
                run(&out_of_spanish, &spanish)
            }
        }
    }
}

/// Picks a route, given how a backend `find`s a direct pair.
pub(crate) fn route<T>(src: &str, tgt: &str, find: impl Fn(&str, &str) -> Option<T>) -> Option<Route<T>> {
    if engine_codes(src).is_none() || engine_codes(tgt).is_none() {
        return None;
    }
    if src == tgt {
        return Some(Route::Same);
    }
    if let Some(direct) = find(src, tgt) {
        return Some(Route::Direct(direct));
    }
    if src == PIVOT || tgt == PIVOT {
        return None;
    }
    Some(Route::Pivot(find(src, PIVOT)?, find(PIVOT, tgt)?))
}

/// The last first leg of a pivot, so that one batch going into several
/// targets is put into Spanish once per worker, not once per target.
#[derive(Debug, Default)]
pub(crate) struct PivotMemo(Option<(String, Vec<String>, Vec<String>)>);

impl PivotMemo {
    pub(crate) fn get(&self, src: &str, texts: &[String]) -> Option<Vec<String>> {
        match &self.0 {
            Some((s, input, output)) if s == src && input.as_slice() == texts => Some(output.clone()),
            _ => None,
        }
    }
    pub(crate) fn put(&mut self, src: &str, texts: &[String], spanish: &[String]) {
        self.0 = Some((src.to_string(), texts.to_vec(), spanish.to_vec()));
    }
}

/// Translation switched off: the operator chose to publish originals only, or
/// no engine is installed. Every request for an actual translation is an
/// error, so a missing engine can never pass for a translation; a text asked
/// for in its own language comes back unchanged.
#[derive(Debug, Default, Clone)]
pub struct NoneTranslator;

impl Translator for NoneTranslator {
    fn engine_id(&self) -> String {
        "none".to_string()
    }
    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>> {
        if *src == tgt {
            return Ok(texts.to_vec());
        }
        bail!("translation is switched off (asked for {src}->{tgt})")
    }
    fn supports(&self, src: &SourceLang, tgt: Lang) -> bool {
        *src == tgt
    }
}

/// One target language's outcome from [`translate_targets_parallel`].
#[derive(Debug)]
pub struct TargetResult {
    pub lang: Lang,
    pub texts: Result<Vec<String>>,
}

/// Translates `texts` from `src` into each of `targets`, one thread per
/// worker (use as many workers as cores). Target `i` goes to worker
/// `i % workers` ([`worker_of`]), always: each engine is fed the same texts in
/// the same order from one run to the next, whatever the machine's load, so
/// that what an engine keeps from one text to the next (Apertium's tagger and
/// constraint grammar do) cannot make two runs differ. A failing target
/// does not stop the others; results come back in the order of `targets`.
pub fn translate_targets_parallel<T: Translator + Send>(
    workers: &mut [T],
    src: &SourceLang,
    targets: &[Lang],
    texts: &[String],
) -> Vec<TargetResult> {
    let each: Vec<Vec<String>> = targets.iter().map(|_| texts.to_vec()).collect();
    translate_each_target(workers, src, targets, None, &each)
}

/// The worker that translates into target `i` of `n` workers: the same one
/// for a target every time.
pub fn worker_of(i: usize, n: usize) -> usize {
    i % n.max(1)
}

/// As [`translate_targets_parallel`], with texts of their own for each
/// target (`texts[i]` goes into `targets[i]`; an empty list is not sent),
/// all of one `field` when one is given (its route, `routes`).
pub fn translate_each_target<T: Translator + Send>(
    workers: &mut [T],
    src: &SourceLang,
    targets: &[Lang],
    field: Option<Field>,
    texts: &[Vec<String>],
) -> Vec<TargetResult> {
    let slots: Vec<Mutex<Option<Result<Vec<String>>>>> = targets.iter().map(|_| Mutex::new(None)).collect();
    let n = workers.len();
    // A worker thread the system refuses (a task or address-space limit) is
    // an error for every target of the workers not started, never a panic.
    let mut refused: Option<crate::error::Refused> = None;
    std::thread::scope(|scope| {
        for (w, worker) in workers.iter_mut().enumerate() {
            let slots = &slots;
            let started = crate::spawn::scoped(scope, "translate", move || {
                for (i, &tgt) in targets.iter().enumerate().filter(|(i, _)| worker_of(*i, n) == w) {
                    let texts = texts.get(i).map(Vec::as_slice).unwrap_or_default();
                    let result = match field {
                        _ if texts.is_empty() => Ok(Vec::new()),
                        Some(field) => worker.translate_field(src, tgt, field, texts),
                        None => worker.translate(src, tgt, texts),
                    };
                    *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                }
            });
            if let Err(e) = started {
                refused = e.downcast::<crate::error::Refused>().ok();
                break;
            }
        }
    });
    targets
        .iter()
        .zip(slots)
        .map(|(&lang, slot)| TargetResult {
            lang,
            texts: slot.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or_else(|| match &refused {
                Some(r) => Err(r.again().into()),
                None => Err(anyhow!("no worker to translate into {lang}")),
            }),
        })
        .collect()
}
