//! Whether an event is free, read from the price sentence a feed gives
//! ("Gratuito", "Entrada libre hasta completar aforo", "Desde 18 €",
//! "Gratuït", "2 euros", Basque "Doakoa"). For feeds that have no free/paid
//! flag of their own; and a euro sign a publisher lost on the way
//! ([`restore_lost_euro`]).

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
    // "doako", "doan": free in Basque (Kulturklik's "Doakoa").
    let free = has(&[
        "gratu",
        "gratis",
        "entrada libre",
        "entrada lliure",
        "acceso libre",
        "acces lliure",
        "sin coste",
        "sense cost",
        "free",
        "doako",
        "doan",
    ]);
    free.then_some(true)
}

/// A price whose euro sign became `?` upstream (a text stored in Latin-1 and
/// re-encoded: Kulturklik's `"28 ?"`, `"15 / 18 ? (entradas viernes
/// agotadas)"`, `"100?/mes"`): each `?` right after an amount (a digit, one
/// blank between at most) reads `€`, written after one blank as Spanish
/// writes it. A text holding `¿` is a question and stays whole; a `?` after
/// anything but a figure stays.
///
/// ```
/// use cityvibe::parse::price::restore_lost_euro;
/// assert_eq!(restore_lost_euro("28 ?"), "28 €");
/// assert_eq!(restore_lost_euro("15 / 18 ? (entradas viernes agotadas)"), "15 / 18 € (entradas viernes agotadas)");
/// assert_eq!(restore_lost_euro("15/18?"), "15/18 €");
/// assert_eq!(restore_lost_euro("Socios: 80?. No socios: 95?"), "Socios: 80 €. No socios: 95 €");
/// assert_eq!(restore_lost_euro("Gratis"), "Gratis");
/// assert_eq!(restore_lost_euro("¿Precio 5?"), "¿Precio 5?");
/// assert_eq!(restore_lost_euro("Consultar?"), "Consultar?");
/// ```
pub fn restore_lost_euro(price: &str) -> String {
    if price.contains('¿') {
        return price.to_string();
    }
    let mut out = String::with_capacity(price.len() + 4);
    for c in price.chars() {
        if c == '?' {
            let before = out.trim_end_matches(' ');
            if before.ends_with(|d: char| d.is_ascii_digit()) && out.len() - before.len() <= 1 {
                out.truncate(before.len());
                out.push_str(" €");
                continue;
            }
        }
        out.push(c);
    }
    out
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
        assert_eq!(free_from_text("Doakoa"), Some(true));
    }

    #[test]
    fn a_lost_euro_reads_euro_and_nothing_else_changes() {
        assert_eq!(restore_lost_euro("1.050? (hasta el 30 de junio)"), "1.050 € (hasta el 30 de junio)");
        assert_eq!(restore_lost_euro("10? -7? Gazte T .-5?<30años"), "10 € -7 € Gazte T .-5 €<30años");
        assert_eq!(restore_lost_euro("100?/mes"), "100 €/mes");
        assert_eq!(restore_lost_euro("60 créditos: 1.468?"), "60 créditos: 1.468 €");
        assert_eq!(restore_lost_euro("5  ?"), "5  ?");
        assert_eq!(restore_lost_euro("Entradas agotadas"), "Entradas agotadas");
        assert_eq!(free_from_text(&restore_lost_euro("28 ?")), Some(false));
    }
}
