//! What a running Apertium pipeline holds in memory, from the measured
//! figures of `data/translate/footprint.tsv` (MB of summed PSS per mode):
//! the weight translation packs its waves by (`send::batches`) and a worker
//! closes engines by (`apertium`).
//!
//! Not for: measuring (scripts/footprint.py does, once per Apertium
//! release), or choosing which engines a route starts (`apertium`).

use std::collections::HashMap;
use std::sync::OnceLock;

const TABLE: &str = include_str!("../../../data/translate/footprint.tsv");

fn table() -> &'static HashMap<&'static str, u64> {
    static ROWS: OnceLock<HashMap<&'static str, u64>> = OnceLock::new();
    ROWS.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| {
                let mut cols = l.split('\t');
                Some((cols.next()?.trim(), cols.next()?.trim().parse().ok()?))
            })
            .collect()
    })
}

/// MB one pipeline of `mode` holds; a mode the table does not list counts
/// as the heaviest listed, so that an unknown pair never lets a wave hold more.
pub fn mode_mb(mode: &str) -> u64 {
    table().get(mode).copied().unwrap_or_else(|| table().values().copied().max().unwrap_or(0))
}

/// MB one engine running `modes` (`spa-cat+cat-fra`: one pipeline of both) holds.
pub fn engine_mb(modes: &str) -> u64 {
    modes.split('+').map(mode_mb).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every mode a route of the table runs has a measured figure, so that
    /// the fallback (the heaviest) is for an operator's own pairs only.
    #[test]
    fn every_routed_mode_has_a_measured_footprint() {
        let missing: Vec<&str> = crate::translate::engines::routes::modes().into_iter().filter(|m| !table().contains_key(m)).collect();
        assert!(missing.is_empty(), "data/translate/footprint.tsv lacks {missing:?}");
        assert!(table().contains_key("eng-spa"), "the English analyser of the second opinions");
    }

    /// The example of the table's head: a pivot holds both its pairs, and
    /// a mode not listed weighs as the heaviest listed.
    #[test]
    fn a_pivot_weighs_both_its_pairs_and_an_unknown_mode_the_heaviest() {
        assert_eq!(engine_mb("spa-cat+cat-fra"), mode_mb("spa-cat") + mode_mb("cat-fra"));
        assert_eq!(mode_mb("xxx-yyy"), table().values().copied().max().unwrap());
        assert_eq!(mode_mb("xxx-yyy"), mode_mb("cat-fra"));
    }
}
