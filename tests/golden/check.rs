//! Golden files for the adapter tests: the normalized events of a sample
//! feed, serialized as pretty JSON, reviewed by eye once and then kept.
//! Run with `UPDATE_GOLDEN=1` to rewrite them after a deliberate change.

use std::path::PathBuf;

/// Compare `value` (serialized) with `tests/golden/<name>`, or write it
/// there when `UPDATE_GOLDEN=1`.
pub fn assert_golden<T: serde::Serialize>(name: &str, value: &T) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    let actual = serde_json::to_string_pretty(value).expect("serializable") + "\n";
    if std::env::var("UPDATE_GOLDEN").as_deref() == Ok("1") {
        std::fs::write(&path, &actual).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        eprintln!("golden file written: {}", path.display());
        return;
    }
    let expected =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1 to create it)", path.display()));
    if expected != actual {
        let line =
            expected.lines().zip(actual.lines()).position(|(a, b)| a != b).unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the parser's output at line {}:\n  golden: {:?}\n  actual: {:?}\n(rerun with UPDATE_GOLDEN=1 if the change is intended, and review the diff)",
            path.display(),
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            actual.lines().nth(line).unwrap_or("<end>"),
        );
    }
}
