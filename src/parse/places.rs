//! Places as they write themselves: the official names of Catalonia's
//! municipalities (`data/places/catalonia-municipalities.tsv`, Idescat's
//! register), for feeds that give a town only as a URL slug with its
//! accents and apostrophes lost (`l-espluga-de-francoli`, `palamos`).
//! And an address field that holds the venue, the street, the postal code
//! and sometimes the hours, taken apart ([`split_address`]; the street
//! words are data, `data/places/es-street-words.txt`).
//! Not for: other regions' gazetteers, or geocoding.

use crate::parse::text::fold;
use std::collections::HashMap;
use std::sync::LazyLock;

static CATALONIA: &str = include_str!("../../data/places/catalonia-municipalities.tsv");

/// Each municipality's slug and its name as a town heading a field.
static BY_SLUG: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    CATALONIA
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split('\t').nth(1))
        .map(|sorted| {
            let name = heading(sorted.trim());
            (slug(&name), name)
        })
        .collect()
});

/// A name of the register's sorted form with its article in front, the
/// first letter capitalised: "Espluga de Francolí, l'" is "L'Espluga de
/// Francolí", "Vendrell, el" is "El Vendrell", "Bòrdes, Es" is "Es Bòrdes".
///
/// ```
/// use cityvibe::parse::places::heading;
/// assert_eq!(heading("Espluga de Francolí, l'"), "L'Espluga de Francolí");
/// assert_eq!(heading("Vendrell, el"), "El Vendrell");
/// assert_eq!(heading("Saus, Camallera i Llampaies"), "Saus, Camallera i Llampaies");
/// ```
pub fn heading(sorted: &str) -> String {
    const ARTICLES: [&str; 7] = ["l'", "el", "la", "els", "les", "es", "s'"];
    let name = match sorted.rsplit_once(", ") {
        Some((rest, article)) if ARTICLES.contains(&article.to_lowercase().as_str()) => {
            if article.ends_with('\'') {
                format!("{article}{rest}")
            } else {
                format!("{article} {rest}")
            }
        }
        _ => sorted.to_string(),
    };
    let mut c = name.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// A name as a URL slug: lower case, no accents, words and apostrophes as
/// hyphens (`Vandellòs i l'Hospitalet de l'Infant` is
/// `vandellos-i-l-hospitalet-de-l-infant`).
pub fn slug(name: &str) -> String {
    let folded = fold(&name.replace('·', ""));
    folded.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect::<Vec<_>>().join("-")
}

/// The official name of the Catalan municipality whose slug this is, as a
/// town heading a field; `None` for a slug that is no municipality.
///
/// ```
/// use cityvibe::parse::places::catalan_town;
/// assert_eq!(catalan_town("l-espluga-de-francoli").as_deref(), Some("L'Espluga de Francolí"));
/// assert_eq!(catalan_town("palamos").as_deref(), Some("Palamós"));
/// assert_eq!(catalan_town("torroella-de-montgri").as_deref(), Some("Torroella de Montgrí"));
/// assert_eq!(catalan_town("sant-cugat-del-valles").as_deref(), Some("Sant Cugat del Vallès"));
/// assert_eq!(catalan_town("la-seu-d-urgell").as_deref(), Some("La Seu d'Urgell"));
/// assert_eq!(catalan_town("atenes"), None);
/// ```
pub fn catalan_town(slug: &str) -> Option<String> {
    BY_SLUG.get(slug.trim()).cloned()
}

/// Each municipality's name as a town heading a field.
static NAMES: LazyLock<std::collections::HashSet<String>> = LazyLock::new(|| BY_SLUG.values().cloned().collect());

/// Whether `name` is the official name of a Catalan municipality, as a town
/// heading a field writes it ("Sitges", "Sant Miquel de Campmajor", "L'Escala").
///
/// ```
/// use cityvibe::parse::places::is_catalan_town;
/// assert!(is_catalan_town("Sant Miquel de Campmajor"));
/// assert!(is_catalan_town("Sitges"));
/// assert!(!is_catalan_town("Jakarta"));
/// ```
pub fn is_catalan_town(name: &str) -> bool {
    NAMES.contains(name.trim())
}

static STREET_WORDS: &str = include_str!("../../data/places/es-street-words.txt");

/// An address field taken apart: each part `None` when the text has none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressParts {
    /// What comes before the street: "Patio de San Miguel. Museo de Jaén".
    pub venue: Option<String>,
    /// The street, and what else the field says that is no venue, postal
    /// code or hours.
    pub address: Option<String>,
    pub postal_code: Option<String>,
    /// The town written after the postal code ("11005 Cádiz").
    pub town: Option<String>,
    /// A part that gives opening days ("domingos y festivos durante todo el
    /// año"): for the schedule, in `lang`'s words (`week_hours`).
    pub hours: Option<String>,
}

// A Spanish postal code: five figures standing alone.
static POSTAL_CODE: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?:^|[\s,.(])((?:0[1-9]|[1-4]\d|5[0-2])\d{3})\b").expect("postal code regex"));

/// Where the first street word opens a street in `text`: at the start, or
/// after a blank or a stop (a capitalised word), anywhere after a blank ("c/").
fn street_at(text: &str) -> Option<usize> {
    let words: Vec<&str> = crate::lang_data::entries(STREET_WORDS).collect();
    let mut best: Option<usize> = None;
    for w in words {
        for (at, _) in text.match_indices(w) {
            let before = text[..at].trim_end_matches(' ');
            let opens = before.is_empty()
                || before.ends_with(['.', ',', ':', ';', '\n'])
                || (w.ends_with('/') || w.ends_with('.')) && text[..at].ends_with(' ');
            let after = text[at + w.len()..].chars().next();
            let whole = w.ends_with(['/', '.']) || after.is_none_or(|c| !c.is_alphanumeric());
            if opens && whole {
                best = Some(best.map_or(at, |b| b.min(at)));
                break;
            }
        }
    }
    best
}

/// An address field as one line of text taken apart: the venue before the
/// first street word, the street up to the postal code, the town after it,
/// and any sentence or clause that names opening days in `lang`'s words
/// (read by `week_hours`) as hours. A venue part longer than a name (a
/// whole programme) is left in the address, never cut into a venue.
///
/// ```
/// use cityvibe::parse::places::split_address;
/// let p = split_address("Archivo Histórico Provincial de Cádiz. C/ Cristobal Colón, 12. 11005 Cádiz", "es");
/// assert_eq!(p.venue.as_deref(), Some("Archivo Histórico Provincial de Cádiz"));
/// assert_eq!(p.address.as_deref(), Some("C/ Cristobal Colón, 12"));
/// assert_eq!((p.postal_code.as_deref(), p.town.as_deref()), (Some("11005"), Some("Cádiz")));
/// let p = split_address("Parque del Alamillo, Isla de la Cartuja, domingos y festivos durante todo el año. Más información en el Cortijo del Alamillo.", "es");
/// assert_eq!(p.venue.as_deref(), Some("Parque del Alamillo, Isla de la Cartuja"));
/// assert_eq!(p.hours.as_deref(), Some("domingos y festivos durante todo el año"));
/// assert_eq!(p.address.as_deref(), Some("Más información en el Cortijo del Alamillo."));
/// let p = split_address("Conjunto Monumental Alcazaba de Almería, C/ Almanzor s/n, 04002", "es");
/// assert_eq!((p.venue.as_deref(), p.address.as_deref()), (Some("Conjunto Monumental Alcazaba de Almería"), Some("C/ Almanzor s/n")));
/// assert_eq!(split_address("IBIS, Instituto de Biomedicina", "es").venue.as_deref(), Some("IBIS, Instituto de Biomedicina"));
/// ```
pub fn split_address(text: &str, lang: &str) -> AddressParts {
    let mut parts = AddressParts::default();
    let trim = |s: &str| s.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '·')).to_string();
    let mut rest = text.trim().to_string();
    // Hours: each clause (between stops and commas) that names opening days.
    let mut hours = Vec::new();
    let mut kept = String::new();
    for sentence in rest.split_inclusive(". ") {
        let mut clauses = Vec::new();
        for clause in sentence.split(", ") {
            // "C/ Santo Domingo, 12" names a street, not Sundays.
            let read = crate::parse::week_hours::week_hours(clause, lang);
            if (!read.weekly.is_empty() || !read.closed.is_empty()) && street_at(clause.trim()).is_none() && !POSTAL_CODE.is_match(clause) {
                hours.push(trim(clause.trim_end_matches(['.', ' '])));
            } else {
                clauses.push(clause);
            }
        }
        let joined = clauses.join(", ");
        if !joined.trim().is_empty() {
            kept.push_str(&joined);
            if sentence.ends_with(". ") && !joined.ends_with(". ") {
                kept.push_str(". ");
            }
        } else if !kept.is_empty() && !kept.ends_with(". ") {
            kept.push_str(". ");
        }
    }
    if !hours.is_empty() {
        parts.hours = Some(hours.join(". "));
        rest = kept;
    }
    // The postal code, and the town written after it on the same stretch.
    let mut after_code = String::new();
    if let Some(m) = POSTAL_CODE.captures(&rest).and_then(|c| c.get(1)) {
        parts.postal_code = Some(m.as_str().to_string());
        let tail = rest[m.end()..].to_string();
        let (town, more) = tail.split_once(". ").map_or((tail.as_str(), ""), |(t, m)| (t, m));
        let town = trim(town.trim_end_matches('.'));
        parts.town = (!town.is_empty() && town.len() <= 40 && !town.chars().any(|c| c.is_ascii_digit())).then_some(town.clone());
        after_code = trim(if parts.town.is_some() { more } else { &tail }.trim_start_matches(['.', ' ']));
        rest.truncate(m.start());
    }
    let (venue, street) = match street_at(&rest) {
        Some(at) => (trim(rest[..at].trim_end_matches([' ', '.'])), trim(rest[at..].trim_end_matches([' ', '.']))),
        None if parts.postal_code.is_some() => (trim(rest.trim_end_matches([' ', '.'])), String::new()),
        None => {
            // No street and no postal code: a name, unless it reads as more.
            let (first, more) = rest.split_once(". ").map_or((rest.as_str(), ""), |(a, b)| (a, b));
            (trim(first.trim_end_matches('.')), trim(more))
        }
    };
    let mut address: Vec<String> = Vec::new();
    if venue.chars().count() > 100 {
        // A whole programme, not a name: the text stays as written.
        address.push(trim(rest.trim_end_matches([' ', '.'])));
    } else {
        parts.venue = Some(venue).filter(|v| !v.is_empty());
        address.push(street);
    }
    address.push(after_code);
    address.retain(|s| !s.is_empty());
    parts.address = (!address.is_empty()).then(|| address.join(". "));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_municipality_has_a_slug_of_its_own() {
        let lines = CATALONIA.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).count();
        assert_eq!(lines, 947);
        assert_eq!(BY_SLUG.len(), lines, "two municipalities share a slug");
        assert_eq!(catalan_town("vandellos-i-l-hospitalet-de-l-infant").as_deref(), Some("Vandellòs i l'Hospitalet de l'Infant"));
        assert_eq!(catalan_town("es-bordes").as_deref(), Some("Es Bòrdes"));
    }
}
