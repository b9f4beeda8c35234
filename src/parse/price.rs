//! Whether an event is free, read from the price sentence a feed gives
//! ("Gratuito", "Entrada libre hasta completar aforo", "Desde 18 €",
//! "Gratuït", "2 euros"). For feeds that have no free/paid flag of their own.

use crate::parse::text::fold;

/// `Some(true)` when the text says free and names no amount, `Some(false)`
/// when it names an amount (even if part of the audience goes free),
/// `None` when it says neither. The text itself goes to `Event::price` as
/// the feed writes it.
///
/// ```
/// use cityvibe::parse::price::free_from_text;
/// assert_eq!(free_from_text("Gratuito"), Some(true));
/// assert_eq!(free_from_text("Entrada libre hasta completar aforo"), Some(true));
/// assert_eq!(free_from_text("5,50 euros"), Some(false));
/// assert_eq!(free_from_text("Consultar en taquilla"), None);
/// ```
pub fn free_from_text(price: &str) -> Option<bool> {
    let f = fold(price);
    let has = |words: &[&str]| words.iter().any(|w| f.contains(w));
    let amount = f.chars().any(|c| c.is_ascii_digit()) && (f.contains('€') || has(&["euro", "eur "]));
    if amount {
        return Some(false);
    }
    let free =
        has(&["gratu", "gratis", "entrada libre", "entrada lliure", "acceso libre", "acces lliure", "sin coste", "sense cost", "free"]);
    free.then_some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_paid_or_unknown() {
        assert_eq!(free_from_text("Gratuita. Se celebrará en la Plaza Mayor."), Some(true));
        assert_eq!(free_from_text("Gratuït"), Some(true));
        assert_eq!(free_from_text("Free admission"), Some(true));
        assert_eq!(free_from_text("Entrada libre hasta completar aforo"), Some(true));
        assert_eq!(free_from_text("2 euros. Se celebrará en la Plaza de Toros."), Some(false));
        assert_eq!(free_from_text("Desde 18 €; gratuito para menores de 6 años"), Some(false));
        assert_eq!(free_from_text("Consultar en taquilla"), None);
        assert_eq!(free_from_text(""), None);
    }
}
