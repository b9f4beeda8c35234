//! The madrid adapter (datos.madrid.es, the city's cultural agenda): its
//! three sample feeds (JSON, CSV, XML) against their golden files.
//! Not for: the real October 2025 download (`sources::madrid_realdata`),
//! nor a run through the binary (`surface::cli_foundation`).
use crate::common;
use crate::golden;

use cityvibe::adapter::{Collect, parse_bytes};
use cityvibe::adapters::madrid::{MANIFEST, Madrid};

const SAMPLE: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos";

fn sample(feed: usize, ext: &str) -> Collect {
    let path = common::sample(&format!("{SAMPLE}.{ext}"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_bytes(&Madrid, &MANIFEST.feeds[feed], &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Each of the three samples in, its events out, as reviewed once and kept
/// in `tests/golden/madrid_{json,csv,xml}.json`.
#[test]
fn the_three_samples_match_their_golden_files() {
    for (feed, ext) in [(0, "json"), (1, "csv"), (2, "xml")] {
        let c = sample(feed, ext);
        assert!(c.errors.is_empty(), "{ext}: {:?}", c.errors);
        assert!(!c.events.is_empty(), "{ext}: no events");
        golden::assert_golden(&format!("madrid_{ext}.json"), &c.events);
    }
}
