//! How a stored time (ms since the Unix epoch) becomes a report's time: a
//! `jiff::Timestamp`, read once at the store's edge and serialized by jiff
//! itself in JSON (RFC 3339 with its offset, never epoch ms). A leaf, so
//! that the store's report rows can hold their times without reaching up to
//! the printer. The ledger and the scheduler keep their ms; only what a
//! report shows is converted.
//!
//! Not for tables: `output::time` shows a time in the display zone.

use jiff::Timestamp;
use rusqlite::Row;
use rusqlite::types::Type;

/// ms since the epoch as the instant it is; an error past jiff's range
/// (years -9999 to 9999), which no clock writes.
pub fn at_ms(ms: i64) -> Result<Timestamp, jiff::Error> {
    Timestamp::from_millisecond(ms)
}

/// ms since the epoch to the second below, as the run says a time a host
/// may be asked again (`2026-12-01T18:00:00Z`).
pub fn at_second(ms: i64) -> Result<Timestamp, jiff::Error> {
    Timestamp::from_second(ms.div_euclid(1000))
}

/// `ms` since the epoch as an RFC 3339 UTC time, to the second, for a
/// message; "N ms" past jiff's range.
pub fn utc(ms: i64) -> String {
    at_second(ms).map(|t| t.to_string()).unwrap_or_else(|_| format!("{ms} ms"))
}

/// Column `i` of a stored row (ms since the epoch) as a time.
pub fn column(r: &Row, i: usize) -> rusqlite::Result<Timestamp> {
    at_ms(r.get(i)?).map_err(|e| rusqlite::Error::FromSqlConversionFailure(i, Type::Integer, e.into()))
}

/// Column `i` of a stored row, NULL or ms since the epoch, as a time.
pub fn column_opt(r: &Row, i: usize) -> rusqlite::Result<Option<Timestamp>> {
    r.get::<_, Option<i64>>(i)?
        .map(|ms| at_ms(ms).map_err(|e| rusqlite::Error::FromSqlConversionFailure(i, Type::Integer, e.into())))
        .transpose()
}

#[cfg(test)]
mod tests {
    /// A report's time in JSON is what earlier releases wrote from ms: RFC
    /// 3339 in UTC, the milliseconds kept when there are any.
    #[test]
    fn json_times_are_rfc3339() {
        let json = |t| serde_json::to_value(t).unwrap();
        assert_eq!(json(super::at_ms(0).unwrap()), "1970-01-01T00:00:00Z");
        assert_eq!(json(super::at_ms(1_777_653_000_123).unwrap()), "2026-05-01T16:30:00.123Z");
        assert_eq!(json(super::at_second(1_777_653_000_999).unwrap()), "2026-05-01T16:30:00Z");
        assert_eq!(json(super::at_second(-1).unwrap()), "1969-12-31T23:59:59Z");
        assert!(super::at_ms(i64::MAX).is_err());
    }
}
