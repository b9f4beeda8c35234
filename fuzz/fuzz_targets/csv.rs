//! libFuzzer target: any bytes as a CSV feed, through every adapter that
//! reads CSV, as a run parses a body. A panic, a hang (libFuzzer's
//! `-timeout`) or memory past `-rss_limit_mb` is a finding.
#![no_main]

use cityvibe::adapter::{Adapter, Format, parse_bytes};
use cityvibe::adapters::madrid::Madrid;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|body: &[u8]| {
    let adapters: &[(&dyn Adapter, Format)] = &[(&Madrid, Format::Csv)];
    for (adapter, format) in adapters {
        let feed = adapter.manifest().feeds.iter().find(|f| f.format == *format).expect("a feed of the format");
        let _ = parse_bytes(*adapter, feed, body);
    }
});
