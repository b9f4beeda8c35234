//! Numbers as Spanish portals write them: a decimal comma or a decimal
//! point (`40,4167`, `-3.7038`), for coordinates and amounts. One home for
//! the rule, for adapters; not for prices as sentences
//! (`parse::price`).

/// A decimal number written with a comma or a point, spaces around it
/// ignored; `None` for anything else, a number with thousands separators
/// included (`1.234,5` is ambiguous in a feed, and no coordinate has one).
///
/// ```
/// use cityvibe::parse::number::decimal;
/// assert_eq!(decimal("40,4167"), Some(40.4167));
/// assert_eq!(decimal(" -3.7038 "), Some(-3.7038));
/// assert_eq!(decimal("7"), Some(7.0));
/// assert_eq!(decimal("1.234,5"), None);
/// assert_eq!(decimal(""), None);
/// assert_eq!(decimal("n/d"), None);
/// ```
pub fn decimal(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.matches([',', '.']).count() > 1 {
        return None;
    }
    s.replace(',', ".").parse::<f64>().ok().filter(|n| n.is_finite())
}
