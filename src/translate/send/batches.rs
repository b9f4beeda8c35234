//! Sending texts to an engine, batch by batch: each target's distinct texts go
//! in batches of [`BATCH`], those the engine failed on before last and each
//! alone; a failed batch is sent again text by text so that one poison text
//! does not sink the others; a text the engine fails on while it is alive waits
//! a doubling time and is skipped after [`MAX_FAILURES`]; an engine that
//! translates nothing of a failed batch is down for the rest of the run for
//! that language. Every answer is checked (`answer`) before it is stored: a
//! batch holding one that is not a translation of its text is sent again text
//! by text, and such an answer to a text alone is that text's failure, never
//! its translation.
//!
//! Below the plan (`plan`) and the fallback (`fallback`), which both
//! send through it; it takes the texts (`need`) and the counts (`stats`)
//! from the files under it, and imports neither of those above.
//!
//! Not for: deciding what needs translating or the cache (`plan`).

use crate::lang::{Lang, SourceLang};
use crate::store::Store;
use crate::store::translations::{Failure, MachineTranslation};
use crate::translate::engines::{Translator, translate_each_target, worker_of};
use crate::translate::finish;
use crate::translate::finish::garble::{self, Repair};
use crate::translate::prepare::Prepared;
use crate::translate::send::answer::{Referee, check, needs_referee};
use crate::translate::send::need::{Fallen, Need, asked_key};
use crate::translate::send::stats::{Progress, TranslateStats};
use crate::translate::send::waves::{Hold, Targets, waves};
use crate::vocab::Field;
use anyhow::Result;
use std::collections::{BTreeMap, HashMap};

/// Texts per engine batch: small enough to save progress often and to show
/// it in fine steps (batches of 250 move `run`'s bar about 1,550 texts at a
/// time, one round of every target language). The engines stay running
/// between batches, so a smaller one costs a round trip, not a start.
const BATCH: usize = 50;

/// Failures after which a text is no longer sent (until it changes).
pub const MAX_FAILURES: u32 = 3;

/// The first wait after a failure; it doubles with each further one.
const FIRST_BACKOFF_MS: i64 = 10 * 60 * 1000;

/// Sends `needs` ((source, target) → texts) to `workers`, named `engines` in
/// what is stored, and stores what they answer. What they fail on goes into
/// `fallen` when there is a fallback, and counts as pending otherwise;
/// `progress` is told how far it has come as batches complete. `stop` is asked
/// before every batch: once it gives a reason, no batch more is sent, and the
/// texts not sent count as pending.
#[allow(clippy::too_many_arguments)]
pub(in crate::translate) fn send<T: Translator + Send>(
    store: &mut Store,
    workers: &mut [T],
    engine: &str,
    needs: BTreeMap<(SourceLang, Lang), Vec<Need>>,
    failures: &HashMap<String, Failure>,
    stats: &mut TranslateStats,
    fallen: Option<&mut Fallen>,
    stop: &dyn Fn() -> Option<String>,
    progress: &mut dyn FnMut(Progress),
) -> Result<()> {
    let total: u64 = needs.values().map(|v| v.len() as u64).sum();
    let mut done = 0u64;
    // A neural engine's answers meet a referee too (started on first use).
    let referee = needs_referee(engine).then(Referee::default);
    let mut sending = Sending { store, workers, engine, failures, stats, fallen, referee, asked: Vec::new() };
    let n = sending.workers.len().max(1);
    let same = |src: &SourceLang, tgt: Lang, a: Field, b: Field| sending.workers.first().is_some_and(|w| w.shares_engines(src, tgt, a, b));
    let pivot = |src: &SourceLang, tgt: Lang, a: Field, b: Field| sending.workers.first().is_some_and(|w| w.shares_a_pivot(src, tgt, a, b));
    let stream =
        |src: &SourceLang, tgt: Lang, a: Field, b: Field| sending.workers.first().is_some_and(|w| w.shares_a_stream(src, tgt, a, b));
    let groups = by_source_and_field(needs, &same, &pivot, &stream);
    for ((src, field), targets) in groups {
        // A wave is at most as many targets as workers, one each: a worker
        // holds the engines of one target at a time, closed when the wave
        // is done, so what translation holds is bounded by the workers and
        // the memory budget, not by the routes.
        let budget = sending.workers.first().and_then(|w| Some(Hold { mb: w.memory_budget_mb()?, processes: w.process_budget()? }));
        let weights: Vec<Hold> = match sending.workers.first() {
            Some(w) => targets
                .iter()
                .map(|(t, list)| {
                    // A target's descriptions may go with its titles (a
                    // pivot both start): what the heaviest of its fields
                    // holds, each field's engines but the next one's
                    // closing when it is done (`keep_only_for`).
                    // Each field once (its footprint reads the mode files).
                    let mut fields: std::collections::BTreeSet<Field> = list.iter().map(|n| n.field).collect();
                    fields.insert(field);
                    fields.iter().fold(Hold::default(), |most, &f| Hold {
                        mb: most.mb.max(w.footprint_mb(&src, *t, f)),
                        processes: most.processes.max(w.footprint_processes(&src, *t, f)),
                    })
                })
                .collect(),
            None => vec![Hold::default(); targets.len()],
        };
        for (wave, shares) in waves(targets, &weights, n, budget) {
            // A worker with no target in this wave holds nothing (an engine
            // kept from the last wave closes), so that the wave's workers
            // have the whole budget between them.
            let busy = shares.len();
            for (w, worker) in sending.workers.iter_mut().enumerate() {
                if !(0..busy).any(|i| worker_of(i, n) == w) {
                    worker.hold_at_most(0, 0);
                }
            }
            for (i, share) in shares.into_iter().enumerate() {
                sending.workers[worker_of(i, n)].hold_at_most(share.mb, share.processes);
            }
            // Field by field (a price after its title), each target on
            // the same worker, through the engines the wave started.
            for (k, (field, wave)) in by_field(wave).into_iter().enumerate() {
                // After another field: each worker closes what this
                // field's texts will not start and keeps what they will.
                for (i, (tgt, list)) in wave.iter().enumerate() {
                    if k > 0 && !list.is_empty() {
                        sending.workers[worker_of(i, n)].keep_only_for(&src, *tgt, field);
                    }
                }
                let mut rounds = Rounds::new(src.clone(), field, wave, failures);
                for round in 0..rounds.count {
                    if sending.stats.interrupted.is_none() {
                        sending.stats.interrupted = stop();
                    }
                    if sending.stats.interrupted.is_some() {
                        // Between two batches: the rest waits for the next run.
                        rounds.count_unsent(round, sending.stats);
                        break;
                    }
                    let out = sending.round(&mut rounds, round)?;
                    done += out.len() as u64;
                    // What the engine said, before house style, then the texts made of it.
                    sending.store.save_engine_answers(&std::mem::take(&mut sending.asked))?;
                    sending.store.save_translations(&out)?;
                    progress(Progress { done, total, words: sending.stats.words });
                }
                sending.record_failures(&rounds)?;
            }
            for worker in sending.workers.iter_mut() {
                worker.rest();
            }
        }
    }
    Ok(())
}

/// `needs` by source language and field, each with its targets: each field
/// of a pair may have a route of its own (`routes`), so a batch holds texts
/// of one field. A target's prices go with its titles when `shares` says
/// both fields start the same engines (a Spanish price's route is its
/// title's): sent after the titles, through the engines the titles
/// started, rather than in waves of their own that load the same pairs
/// again for a few texts a language.
///
/// A target's descriptions go with its titles too when both fields start
/// the same pivot pipeline (`pivot`: the French, Italian and Portuguese
/// titles' second opinion, spa-cat+cat-fra, is their descriptions' route):
/// after the titles and prices, on the same worker, in the same wave, so
/// that the pivot is loaded once, not once a field. So do its
/// descriptions when both fields start the same engines and their
/// answers do not depend on the field sent before (`stream`: Catalan and
/// English, whose one pair translates every field,
/// `data/translate/one-stream.txt`): the pair is loaded once for the
/// target, not once for its titles and again for its descriptions.
///
/// Measured (issue 43), a run of the real Madrid 2025-10 feed into the six
/// languages (16 prices a language): the prices' own waves started 12
/// pipelines (each language's pair, and French, Italian and Portuguese's
/// marked twins and second opinions through Catalan) for 4.2 CPU-s of the
/// run's 115 (load 58 to 70, pipelines sampled); none now. Titles and
/// descriptions store the same text; 8 of the 96 prices differ (Galician
/// "Si tes" became "Se tes").
fn by_source_and_field(
    needs: BTreeMap<(SourceLang, Lang), Vec<Need>>,
    shares: &dyn Fn(&SourceLang, Lang, Field, Field) -> bool,
    pivot: &dyn Fn(&SourceLang, Lang, Field, Field) -> bool,
    stream: &dyn Fn(&SourceLang, Lang, Field, Field) -> bool,
) -> BTreeMap<(SourceLang, Field), Targets> {
    let mut by_src: BTreeMap<(SourceLang, Field), Targets> = BTreeMap::new();
    for ((src, tgt), list) in needs {
        let mut by_field: BTreeMap<Field, Vec<Need>> = BTreeMap::new();
        for n in list {
            let group = match n.field {
                Field::Price if shares(&src, tgt, Field::Title, Field::Price) => Field::Title,
                Field::Description
                    if pivot(&src, tgt, Field::Title, Field::Description) || stream(&src, tgt, Field::Title, Field::Description) =>
                {
                    Field::Title
                }
                field => field,
            };
            by_field.entry(group).or_default().push(n);
        }
        for (field, list) in by_field {
            by_src.entry((src.clone(), field)).or_default().push((tgt, list));
        }
    }
    by_src
}

/// A wave's targets field by field, titles, prices, then descriptions
/// (prices through the titles' engines before the descriptions' make
/// them close): each field's targets hold every target of the wave, in
/// place (one with no text of the field has none), so that a target keeps
/// its worker.
fn by_field(wave: Targets) -> Vec<(Field, Targets)> {
    let fields: std::collections::BTreeSet<Field> = wave.iter().flat_map(|(_, list)| list.iter().map(|n| n.field)).collect();
    let order = |f: &Field| match f {
        Field::Title => 0,
        Field::Price => 1,
        Field::Description => 2,
    };
    let mut fields: Vec<Field> = fields.into_iter().collect();
    fields.sort_by_key(order);
    fields
        .into_iter()
        .map(|field| {
            let targets = wave.iter().map(|(t, list)| (*t, list.iter().filter(|n| n.field == field).cloned().collect())).collect();
            (field, targets)
        })
        .collect()
}

/// One call of [`send`]: the engine's workers and the name its answers are
/// stored under, the failures known before it, and where answers go (the
/// store, the counts, the fallback's texts).
struct Sending<'a, T> {
    store: &'a mut Store,
    workers: &'a mut [T],
    engine: &'a str,
    failures: &'a HashMap<String, Failure>,
    stats: &'a mut TranslateStats,
    fallen: Option<&'a mut Fallen>,
    /// Judges a neural engine's answers against Apertium's (`answer::Referee`).
    referee: Option<Referee>,
    /// The engine's answers of this round, (asked key, answer, engine), to keep.
    asked: Vec<(String, String, String)>,
}

/// One source language's texts of one field on their way to every target,
/// round by round (a round sends each target's next batch): per target, the
/// order of its texts, what its engine did so far and whether it is down.
struct Rounds {
    src: SourceLang,
    field: Field,
    targets: Targets,
    plans: Vec<Plan>,
    /// How many rounds: as many as the batches of the target with most.
    count: usize,
    outcome: Outcome,
    /// A target whose engine failed a whole batch, text by text, before
    /// translating anything is down for this run, and why: its later batches
    /// are not sent (against a hanging server each would cost timeouts).
    down: Vec<Option<String>>,
}

impl Rounds {
    fn new(src: SourceLang, field: Field, targets: Targets, failures: &HashMap<String, Failure>) -> Rounds {
        // Per target: its distinct prepared texts, those an engine failed on
        // before last and each in a batch of its own.
        let plans: Vec<Plan> = targets.iter().map(|(_, list)| Plan::new(list, failures)).collect();
        let count = plans.iter().map(|p| p.batches.len()).max().unwrap_or(0);
        let outcome = Outcome { succeeded: vec![false; targets.len()], suspects: vec![Vec::new(); targets.len()] };
        let down = vec![None; targets.len()];
        Rounds { src, field, targets, plans, count, outcome, down }
    }

    /// The targets' languages, in order.
    fn target_names(&self) -> Vec<Lang> {
        self.targets.iter().map(|(t, _)| *t).collect()
    }

    /// The texts round `round` sends, target by target: none for a target
    /// whose batches are over or whose engine is down.
    fn batches(&self, round: usize) -> Vec<Vec<String>> {
        self.plans
            .iter()
            .zip(&self.down)
            .map(|(p, down)| match p.batches.get(round) {
                Some(b) if down.is_none() => b.iter().map(|&i| p.keys[i].1.text.clone()).collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// Counts as pending, in `stats`, every text of round `round` and after:
    /// they wait for the next run.
    fn count_unsent(&self, round: usize, stats: &mut TranslateStats) {
        for ((_, list), plan) in self.targets.iter().zip(&self.plans) {
            for &i in plan.batches.iter().skip(round).flatten() {
                for n in list.iter().filter(|n| n.key == plan.keys[i].0) {
                    stats.pending += 1;
                    stats.per_source.entry(n.source.clone()).or_default().pending += 1;
                }
            }
        }
    }
}

impl<T: Translator + Send> Sending<'_, T> {
    /// The worker that translates into target `t` of a wave: every text
    /// into that target, retries included, goes through its engines.
    fn worker(&mut self, t: usize) -> &mut T {
        let n = self.workers.len();
        &mut self.workers[worker_of(t, n)]
    }

    /// Sends round `round` of `rounds`, each target's batch to a worker of
    /// its own, and takes every answer: the rows to store.
    fn round(&mut self, rounds: &mut Rounds, round: usize) -> Result<Vec<MachineTranslation>> {
        let batches = rounds.batches(round);
        let mut results = translate_each_target(self.workers, &rounds.src, &rounds.target_names(), Some(rounds.field), &batches);
        // The system refused a thread or a process: no text's fault, and no
        // engine's; the step stops here (exit 6), the texts wait for the next run.
        if let Some(i) = results.iter().position(|r| r.texts.as_ref().is_err_and(crate::error::is_refused))
            && let Err(e) = results.swap_remove(i).texts
        {
            return Err(e);
        }
        let mut out = Vec::new();
        for (t, result) in results.into_iter().enumerate() {
            let Some(batch) = rounds.plans[t].batches.get(round).cloned() else { continue };
            let texts = result.texts.and_then(|answers| checked(&batch, &rounds.plans[t], answers));
            let mut answers = self.answers(rounds, t, &batch, texts);
            if let Some(referee) = self.referee.as_mut() {
                let plan = &rounds.plans[t];
                referee.judge((&rounds.src, rounds.targets[t].0, rounds.field), &|i| plan.keys[i].1.text.clone(), &mut answers);
            }
            for (i, answer) in answers {
                self.take(rounds, t, i, answer, &mut out)?;
            }
        }
        Ok(out)
    }

    /// The answer to each text of target `t`'s `batch`, from what the engine
    /// answered to the whole batch (`texts`, checked): none when the engine
    /// is down; a failed batch of several is sent again text by text, and an
    /// engine that fails every text of it before translating anything is
    /// down from then on.
    fn answers(&mut self, rounds: &mut Rounds, t: usize, batch: &[usize], texts: Result<Vec<String>>) -> Vec<(usize, Result<String>)> {
        match (texts, &rounds.down[t]) {
            (_, Some(why)) => batch.iter().map(|&i| (i, Err(anyhow::anyhow!("not sent, the engine is down: {why}")))).collect(),
            (Ok(translated), None) => batch.iter().copied().zip(translated.into_iter().map(Ok)).collect(),
            // A failed batch of several is sent again text by text, so
            // that one poison text does not sink the others.
            (Err(e), None) if batch.len() > 1 => {
                let why = format!("{e:#}");
                let tgt = rounds.targets[t].0;
                let worker = self.worker(t);
                let answers = one_by_one(worker, (&rounds.src, tgt, rounds.field), batch, &rounds.plans[t], e);
                if !rounds.outcome.succeeded[t] && answers.iter().all(|(_, a)| a.is_err()) {
                    rounds.down[t] = Some(why);
                }
                answers
            }
            (Err(e), None) => vec![(batch[0], Err(e))],
        }
    }

    /// Takes the `answer` to text `i` of target `t`: a translation, in house
    /// style, goes into `out` for every text waiting on it and clears the
    /// text's past failures; a failure is remembered as a suspect, and its
    /// texts go to the fallback or count as pending.
    fn take(&mut self, rounds: &mut Rounds, t: usize, i: usize, answer: Result<String>, out: &mut Vec<MachineTranslation>) -> Result<()> {
        let n = self.workers.len();
        let src = &rounds.src;
        let (tgt, list) = &rounds.targets[t];
        let (key, prepared) = &rounds.plans[t].keys[i];
        let waiting = list.iter().filter(|n| &n.key == key);
        match answer {
            Ok(text) => {
                rounds.outcome.succeeded[t] = true;
                let (text, repair) = match waiting.clone().next() {
                    Some(first) => {
                        self.asked.push((first.asked.clone(), text.clone(), self.engine.to_string()));
                        let asking = Asking { engine: self.engine, asked: &mut self.asked, referee: self.referee.as_mut() };
                        finish_checked(&mut self.workers[worker_of(t, n)], asking, src, *tgt, first, &text, self.stats)
                    }
                    None => (finish::finish(&text, &prepared.names, prepared.lead.as_deref(), *tgt, Field::Description), None),
                };
                if self.failures.contains_key(key) {
                    self.store.clear_translation_failure(key)?;
                }
                for n in waiting {
                    let mut row = n.translated(*tgt, &text, self.engine, key, self.stats);
                    row.repair = repair.map(Repair::as_str);
                    out.push(row);
                }
            }
            Err(e) => {
                self.stats.error.get_or_insert_with(|| format!("{src}→{tgt}: {e:#}"));
                rounds.outcome.suspects[t].push((i, format!("{e:#}")));
                for n in waiting {
                    if let Some(fallen) = self.fallen.as_deref_mut() {
                        fallen.entry((src.clone(), *tgt)).or_default().push(n.clone());
                    } else {
                        self.stats.pending += 1;
                        self.stats.per_source.entry(n.source.clone()).or_default().pending += 1;
                    }
                }
            }
        }
        Ok(())
    }

    /// Records the texts `rounds` failed on for their backoff.
    fn record_failures(&mut self, rounds: &Rounds) -> Result<()> {
        let tgt_names = rounds.target_names();
        // A text counts as poison only when the engine translated others into
        // the same language meanwhile: a dead engine is not the texts' fault.
        // When the only texts sent were ones it had failed on before (a
        // steady feed), a short text that is no one's data asks whether the
        // engine is alive.
        for (t, list) in rounds.outcome.suspects.iter().enumerate() {
            let only_suspects = !list.is_empty() && list.iter().all(|(i, _)| self.failures.contains_key(&rounds.plans[t].keys[*i].0));
            let alive = rounds.outcome.succeeded[t] || (only_suspects && engine_answers(self.worker(t), &rounds.src, tgt_names[t]));
            if !alive {
                continue;
            }
            for (i, error) in list {
                let key = &rounds.plans[t].keys[*i].0;
                let before = self.failures.get(key).map_or(0, |f| f.failures);
                let backoff = FIRST_BACKOFF_MS.saturating_mul(1 << before.min(10));
                self.store.record_translation_failure(key, error, backoff)?;
            }
        }
        Ok(())
    }
}

/// What one source language's rounds left: per target, whether the engine
/// translated anything, and the texts it failed on with why.
struct Outcome {
    succeeded: Vec<bool>,
    suspects: Vec<Vec<(usize, String)>>,
}

/// The engine's answers to `batch` when each is a translation of its text
/// (`answer::check`); else an error naming the first that is not, and the batch
/// is sent again text by text.
fn checked(batch: &[usize], plan: &Plan, answers: Vec<String>) -> Result<Vec<String>> {
    if answers.len() != batch.len() {
        anyhow::bail!("sent {} texts, the engine answered {}", batch.len(), answers.len());
    }
    for (n, (&i, answer)) in batch.iter().zip(&answers).enumerate() {
        check(&plan.keys[i].1.text, answer).map_err(|e| e.context(format!("answer {} of {}", n + 1, batch.len())))?;
    }
    Ok(answers)
}

/// An engine's answer to `need` in house style, checked for the garbled forms
/// of `data/lang/garbled.tsv` whatever the engine or route: one that house
/// style mended is `Mended`; one still garbled is translated again with the
/// kept spans beside the form left to the engine, and that text taken when it
/// is less garbled (`Retranslated`) and, from a neural engine, the referee
/// accepts it (else the first answer stays, and the second is not kept).
/// Where [`finish_checked`] keeps a second answer it asks for: the engine's
/// name, and the answers to keep, (asked key, answer, engine); and the
/// referee a neural engine's second answer meets, as its first did.
pub(in crate::translate) struct Asking<'a> {
    pub(in crate::translate) engine: &'a str,
    pub(in crate::translate) asked: &'a mut Vec<(String, String, String)>,
    pub(in crate::translate) referee: Option<&'a mut Referee>,
}

pub(in crate::translate) fn finish_checked<T: Translator>(
    worker: &mut T,
    mut asking: Asking,
    src: &SourceLang,
    tgt: Lang,
    need: &Need,
    answer: &str,
    stats: &mut TranslateStats,
) -> (String, Option<Repair>) {
    let original = crate::translate::prepare::unmark(&need.prepared.text);
    let text = need.finish(answer, tgt);
    let left = garble::forms(&original, &text, tgt);
    if left.is_empty() {
        let mended = !garble::forms(&original, answer, tgt).is_empty();
        stats.garbled_mended += u64::from(mended);
        return (text, mended.then_some(Repair::Mended));
    }
    let at_fault = garble::spans_at_fault(&original, &text, tgt, &need.prepared.names);
    let mut again = need.clone();
    again.prepared = garble::unkept(&need.prepared, &at_fault);
    let sent = std::slice::from_ref(&again.prepared.text);
    // Along the field's own route (a description into French goes through
    // Catalan), as the first translation went.
    if let Ok(mut answers) = worker.translate_field(src, tgt, need.field, sent)
        && answers.len() == 1
        && check(&sent[0], &answers[0]).is_ok()
        && asking.referee.as_deref_mut().is_none_or(|r| r.accepts((src, tgt, need.field), &sent[0], &answers[0]))
    {
        let key = asked_key(&sent[0], again.route, &again.field_key(), src.as_str(), tgt.as_str(), asking.engine);
        asking.asked.push((key, answers[0].clone(), asking.engine.to_string()));
        let retried = again.finish(&answers.remove(0), tgt);
        if garble::forms(&original, &retried, tgt).len() < left.len() {
            stats.garbled_retranslated += 1;
            return (retried, Some(Repair::Retranslated));
        }
    }
    (text, None)
}

/// Whether the engine translates a short, harmless text from `src` into `tgt`.
fn engine_answers<T: Translator>(worker: &mut T, src: &SourceLang, tgt: Lang) -> bool {
    worker.translate(src, tgt, &["Hola.".to_string()]).is_ok_and(|t| t.len() == 1)
}

/// The order in which one target's distinct texts go to the engine.
struct Plan {
    /// Distinct (cache key, prepared text).
    keys: Vec<(String, Prepared)>,
    /// Indexes into `keys`, batch by batch: texts an engine failed on come
    /// last, each alone.
    batches: Vec<Vec<usize>>,
}

impl Plan {
    fn new(list: &[Need], failures: &HashMap<String, Failure>) -> Plan {
        let mut keys: Vec<(String, Prepared)> = Vec::new();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for n in list {
            if !seen.contains_key(n.key.as_str()) {
                seen.insert(&n.key, keys.len());
                keys.push((n.key.clone(), n.prepared.clone()));
            }
        }
        let (suspect, clean): (Vec<usize>, Vec<usize>) = (0..keys.len()).partition(|&i| failures.contains_key(&keys[i].0));
        let mut batches: Vec<Vec<usize>> = clean.chunks(BATCH).map(<[usize]>::to_vec).collect();
        batches.extend(suspect.into_iter().map(|i| vec![i]));
        Plan { keys, batches }
    }
}

/// Sends the texts of a failed batch one at a time; after three failures in
/// a row with no success the engine itself is taken to be down and the rest
/// are not tried.
fn one_by_one<T: Translator + Send>(
    worker: &mut T,
    (src, tgt, field): (&SourceLang, Lang, Field),
    batch: &[usize],
    plan: &Plan,
    first_error: anyhow::Error,
) -> Vec<(usize, Result<String>)> {
    let mut out = Vec::new();
    let mut failed_in_a_row = 0;
    let mut any_ok = false;
    let mut first_error = Some(first_error);
    for &i in batch {
        if failed_in_a_row >= 3 && !any_ok {
            let e = first_error.take().unwrap_or_else(|| anyhow::anyhow!("engine down"));
            out.push((i, Err(e)));
            continue;
        }
        let text = std::slice::from_ref(&plan.keys[i].1.text);
        match worker.translate_field(src, tgt, field, text) {
            // An answer that is no translation fails its text; the engine
            // answered, so it is alive all the same.
            Ok(mut t) if t.len() == 1 => {
                any_ok = true;
                failed_in_a_row = 0;
                let answer = t.remove(0);
                out.push((i, check(&text[0], &answer).map(|()| answer)));
            }
            Ok(_) => out.push((i, Err(anyhow::anyhow!("the engine answered a different number of texts")))),
            Err(e) => {
                failed_in_a_row += 1;
                out.push((i, Err(e)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The waves of targets weighing `weights` MB (and no process, under a
    /// process budget no wave reaches), with their shares in MB.
    fn packed(weights: &[u64], n: usize, budget: Option<u64>) -> Vec<(Vec<Lang>, Vec<u64>)> {
        let weights: Vec<Hold> = weights.iter().map(|&mb| Hold { mb, processes: 0 }).collect();
        packed_in(&weights, n, budget.map(|mb| Hold { mb, processes: usize::MAX }))
            .into_iter()
            .map(|(w, s)| (w, s.into_iter().map(|h| h.mb).collect()))
            .collect()
    }

    fn packed_in(weights: &[Hold], n: usize, budget: Option<Hold>) -> Vec<(Vec<Lang>, Vec<Hold>)> {
        let langs = [Lang::En, Lang::Fr, Lang::It, Lang::Pt, Lang::Ca, Lang::Gl];
        let targets: Targets = langs.iter().take(weights.len()).map(|&l| (l, Vec::new())).collect();
        waves(targets, weights, n, budget).into_iter().map(|(w, s)| (w.into_iter().map(|(l, _)| l).collect(), s)).collect()
    }

    /// Two targets that fit the memory budget together but not the process
    /// budget go in waves of their own, each with the whole process budget
    /// when alone: a worker's share is never below what its target's
    /// engines need while the target fits the budget (a French
    /// description's four engines are 65 processes with Apertium's 2025
    /// pairs; a fixed half of 140 left it 70, and 71 with one more stage a
    /// pipeline).
    #[test]
    fn targets_run_in_waves_that_fit_the_process_budget() {
        let h = |mb, processes| Hold { mb, processes };
        let got = packed_in(&[h(300, 71), h(200, 65), h(100, 20)], 2, Some(h(1300, 100)));
        assert_eq!(
            got,
            vec![(vec![Lang::En, Lang::It], vec![h(300 + 450, 71 + 4), h(100 + 450, 20 + 4)]), (vec![Lang::Fr], vec![h(1300, 100)])]
        );
        for (wave, shares) in &got {
            assert!(shares.iter().map(|s| s.processes).sum::<usize>() <= 100, "{wave:?} {shares:?}");
        }
    }

    /// Two heavy targets never share a wave when together they pass the
    /// budget; the heaviest runs alone with the whole budget, and a light
    /// one goes beside the next heaviest that leaves it room.
    #[test]
    fn heavy_targets_run_in_waves_that_fit_the_memory_budget() {
        // Spanish descriptions as footprint.tsv weighs them: en, fr (via ca),
        // it (via ca), pt (via ca), ca, gl.
        let got = packed(&[110, 1280, 800, 790, 190, 265], 2, Some(1300));
        assert_eq!(
            got,
            vec![
                (vec![Lang::Fr], vec![1300]),
                (vec![Lang::It, Lang::Gl], vec![800 + 117, 265 + 117]),
                (vec![Lang::Pt, Lang::Ca], vec![790 + 160, 190 + 160]),
                (vec![Lang::En], vec![1300]),
            ]
        );
        for (wave, shares) in &got {
            assert!(shares.iter().sum::<u64>() <= 1300, "{wave:?} {shares:?}");
        }
    }

    /// Without a budget (a server does the work) the targets go in order,
    /// as many a wave as workers.
    #[test]
    fn without_a_budget_the_targets_go_in_order_one_a_worker() {
        let got: Vec<Vec<Lang>> = packed(&[0, 0, 0, 0, 0], 2, None).into_iter().map(|(w, _)| w).collect();
        assert_eq!(got, vec![vec![Lang::En, Lang::Fr], vec![Lang::It, Lang::Pt], vec![Lang::Ca]]);
    }
}
