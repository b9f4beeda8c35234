//! Targets packed into waves within the engines' budget: which target
//! languages translate together, and what share of the memory and process
//! budget each worker of a wave may hold (`Hold`).
//!
//! Not for: sending the texts (`batches`) or weighing an engine
//! (`engines`, from `data/translate/footprint.tsv` and the mode files).

use crate::lang::Lang;
use crate::translate::send::need::Need;

/// One source language's texts of one field, by target: (target, texts).
pub(super) type Targets = Vec<(Lang, Vec<Need>)>;

/// What a target's engines hold, or what a worker or the workers together
/// may hold: MB of summed PSS (`footprint`) and processes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Hold {
    pub(super) mb: u64,
    pub(super) processes: usize,
}

impl Hold {
    /// Effectively no bound: a backend that holds no process.
    const UNBOUNDED: Hold = Hold { mb: u64::MAX, processes: usize::MAX };

    fn plus(self, other: Hold) -> Hold {
        Hold { mb: self.mb.saturating_add(other.mb), processes: self.processes.saturating_add(other.processes) }
    }

    fn within(self, budget: Hold) -> bool {
        self.mb <= budget.mb && self.processes <= budget.processes
    }
}

/// `targets` packed into waves, target `i` of a wave going to worker `i`
/// (`engines::worker_of`): at most `n` a wave, and, when the engine holds
/// processes (a `budget` in MB and in processes), no more together than the
/// budget as `weights` (one per target: `Translator::footprint_mb` and
/// `Translator::footprint_processes`) weigh them. The heaviest in MB go
/// first, each into the first wave with room in both (first fit
/// decreasing, ties in the given order, so the same targets always make
/// the same waves); one heavier than the whole budget runs alone. Each
/// wave comes with each target's share of both budgets: its weight and an
/// equal part of what is left (the whole budget for one alone), so that a
/// worker never closes an engine its target still needs while the target
/// fits the budget.
pub(super) fn waves(targets: Targets, weights: &[Hold], n: usize, budget: Option<Hold>) -> Vec<(Targets, Vec<Hold>)> {
    let n = n.max(1);
    let Some(budget) = budget else {
        let mut out: Vec<(Targets, Vec<Hold>)> = Vec::new();
        for (k, t) in targets.into_iter().enumerate() {
            if k % n == 0 {
                out.push((Vec::new(), Vec::new()));
            }
            let last = out.last_mut().expect("a wave was just pushed");
            last.0.push(t);
            last.1.push(Hold::UNBOUNDED);
        }
        return out;
    };
    let weight = |i: usize| weights.get(i).copied().unwrap_or_default();
    let mut order: Vec<usize> = (0..targets.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse((weight(i).mb, weight(i).processes)));
    let sum = |w: &[usize]| w.iter().fold(Hold::default(), |acc, &j| acc.plus(weight(j)));
    let mut packed: Vec<Vec<usize>> = Vec::new();
    for i in order {
        match packed.iter_mut().find(|w| w.len() < n && sum(w).plus(weight(i)).within(budget)) {
            Some(wave) => wave.push(i),
            None => packed.push(vec![i]),
        }
    }
    let mut slots: Vec<Option<(Lang, Vec<Need>)>> = targets.into_iter().map(Some).collect();
    packed
        .into_iter()
        .map(|wave| {
            let held = sum(&wave);
            let left = Hold { mb: budget.mb.saturating_sub(held.mb), processes: budget.processes.saturating_sub(held.processes) };
            let k = wave.len();
            let shares = wave
                .iter()
                .map(|&j| match k {
                    1 => budget,
                    _ => Hold { mb: weight(j).mb + left.mb / k as u64, processes: weight(j).processes + left.processes / k },
                })
                .collect();
            (wave.into_iter().filter_map(|j| slots[j].take()).collect(), shares)
        })
        .collect()
}
