//! How a stored time (ms since the Unix epoch) is written in JSON: RFC 3339
//! with its offset, never epoch ms. A leaf, so that the store's report rows
//! can say how they serialize without reaching up to the printer.
//!
//! Not for tables: `output::time` shows a time in the display zone.

use serde::Serializer;

/// ms since the epoch as RFC 3339 with its offset (UTC): `2026-05-01T16:30:00.123Z`.
pub fn rfc3339_string(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms).map(|t| t.to_string()).unwrap_or_else(|_| ms.to_string())
}

/// serde: ms since the epoch written as RFC 3339.
pub fn rfc3339<S: Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&rfc3339_string(*ms))
}

/// serde: optional ms since the epoch written as RFC 3339 (or null).
pub fn rfc3339_opt<S: Serializer>(ms: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
    match ms {
        Some(ms) => s.serialize_str(&rfc3339_string(*ms)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_times_are_rfc3339() {
        assert_eq!(super::rfc3339_string(0), "1970-01-01T00:00:00Z");
    }
}
