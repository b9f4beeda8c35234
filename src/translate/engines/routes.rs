//! The route table (`data/translate/routes.tsv`): for each (original
//! language, target language, field), the Apertium modes that translate it,
//! a direct pair or a pivot through Catalan or Spanish, each row with the
//! dev-set figures that chose it. The Apertium backend follows the route the
//! table names, and the plan names it in a translation's origin
//! (`apertium/3.8.3 spa-cat+cat-fra via ca`) and its cache key.
//!
//! Not for: running the modes (`apertium`), or deciding what to translate
//! (`plan`). A pair the table does not declare goes as the backend
//! finds it (direct, else through Spanish).

use crate::vocab::Field;
use regex::Regex;
use std::sync::{LazyLock, OnceLock};

const TABLE: &str = include_str!("../../../data/translate/routes.tsv");
const SECOND_OPINIONS: &str = include_str!("../../../data/translate/unknown-words.tsv");

/// One row's route: the modes in order, and the language between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// Apertium mode names, run one after the other ("spa-cat", "cat-fra").
    pub modes: Vec<&'static str>,
    /// The language a pivot goes through (`ca`, `es`); none for a direct pair.
    pub pivot: Option<&'static str>,
    /// The modes a word goes through alone when this route leaves it as
    /// the original wrote it, its last hop marking it unknown
    /// (`data/translate/unknown-words.tsv`): es-pt's "sexualidad" through
    /// spa-cat+cat-por is "sexualidade". None: such a word stays.
    pub second: Option<Vec<&'static str>>,
}

impl Route {
    /// The modes as one name, the engine's key: `spa-cat+cat-fra`.
    pub fn modes_name(&self) -> String {
        self.modes.join("+")
    }

    /// The route as a cache key names it: its modes, and for a pivot the
    /// mending of what its second hop leaves in the pivot's language
    /// ([`marked_words`]), so that a text translated before the mending
    /// existed, or while it swapped every word spelt as a leak (`/mended`,
    /// before [`swap_leaks`]), is translated again.
    /// Every route's name carries `/articles`: since an article before a
    /// kept span goes with a guard word (`stream::guard_joins`), the engine
    /// is asked another text.
    pub fn key_name(&self) -> String {
        let mut name = match self.pivot {
            Some(_) => format!("{}/mended-in-place/articles", self.modes_name()),
            None => format!("{}/articles", self.modes_name()),
        };
        // A guard word its modes take after a span (`stream::guards_apart`):
        // the engine is asked another text.
        if super::stream::guards_apart(&self.modes_name()) {
            name.push_str("/apart");
        }
        match &self.second {
            Some(second) => format!("{name}/unknown:{}", second.join("+")),
            None => name,
        }
    }

    /// The route as a translation's origin names it: `cat-eng`,
    /// `spa-cat+cat-fra via ca`.
    pub fn name(&self) -> String {
        match self.pivot {
            Some(via) => format!("{} via {via}", self.modes_name()),
            None => self.modes_name(),
        }
    }
}

struct Row {
    from: &'static str,
    to: &'static str,
    /// `None`: every field without a row of its own (`*`).
    field: Option<&'static str>,
    route: Route,
}

fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let seconds: Vec<Row> = SECOND_OPINIONS.lines().filter_map(row).collect();
        let mut rows: Vec<Row> = TABLE.lines().filter_map(row).collect();
        for r in &mut rows {
            r.route.second = seconds.iter().find(|s| (s.from, s.to, s.field) == (r.from, r.to, r.field)).map(|s| s.route.modes.clone());
        }
        rows
    })
}

/// A line of the table; comments and blank lines are none. A malformed
/// line is caught by the unit test that reads every line.
fn row(line: &'static str) -> Option<Row> {
    if line.trim().is_empty() || line.starts_with('#') {
        return None;
    }
    let cols: Vec<&'static str> = line.split('\t').collect();
    let [from, to, field, route, ..] = cols[..] else { return None };
    let modes: Vec<&'static str> = route.split('+').map(str::trim).collect();
    if modes.iter().any(|m| m.is_empty()) || modes.len() > 2 {
        return None;
    }
    let pivot = match modes.as_slice() {
        [first, _] => Some(language_of(first.split_once('-')?.1)?),
        _ => None,
    };
    Some(Row { from, to, field: (field != "*").then_some(field), route: Route { modes, pivot, second: None } })
}

/// The language an Apertium code names (`cat` → `ca`, `es` → `es`, and the
/// original-only `eu`); a variant (`por_BR`) is no route's pivot.
fn language_of(code: &str) -> Option<&'static str> {
    crate::lang::Lang::ALL
        .iter()
        .find(|l| l.apertium_codes().contains(&code))
        .map(|l| l.as_str())
        .or_else(|| crate::lang::ORIGINAL_ONLY.iter().find(|o| o.1.contains(&code)).map(|o| o.0))
}

/// The route the table names for `field` (`None`: any field) of a text in
/// `from` into `to`; `None` when the table declares no such pair.
pub fn route(from: &str, to: &str, field: Option<Field>) -> Option<&'static Route> {
    let pair = || rows().iter().filter(|r| r.from == from && r.to == to);
    let exact = field.and_then(|f| pair().find(|r| r.field == Some(f.as_str())));
    exact.or_else(|| pair().find(|r| r.field.is_none())).map(|r| &r.route)
}

/// The mode a text of `field` in `from` goes through first into `to`
/// (`spa-ita`; `spa-cat` for `spa-cat+cat-ita`); `None` without a route.
pub fn first_mode(from: &str, to: &str, field: Field) -> Option<&'static str> {
    route(from, to, Some(field)).and_then(|r| r.modes.first().copied())
}

/// Every mode some route of the table runs (its second opinion's too),
/// once each, in table order:
/// what `make deps` installs and `doctor` proves.
pub fn modes() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in rows() {
        for m in r.route.modes.iter().chain(r.route.second.iter().flatten()) {
            if !out.contains(m) {
                out.push(m);
            }
        }
    }
    out
}

/// Every mode the routes into one of `langs` run, once each, in table
/// order (`doctor` proves them).
pub fn modes_into(langs: &[String]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in rows().iter().filter(|r| langs.iter().any(|l| l == r.to)) {
        for m in r.route.modes.iter().chain(r.route.second.iter().flatten()) {
            if !out.contains(m) {
                out.push(m);
            }
        }
    }
    out
}

/// A pivot's first leg writes clock times as its language does (spa-cat:
/// "19:30" → "19.30"), and the second leg reads them so ("19.30 heures",
/// "alle 19.30"): the output with each time the original wrote with a colon
/// written with it again, as the direct pairs keep it ("Séance à 19:30").
/// A dotted figure the original wrote itself ("12.30 €") is left alone.
pub(in crate::translate) fn keep_clock_times(original: &str, output: &str) -> String {
    static COLON: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(\d{1,2}):(\d{2})\b").expect("time regex"));
    static DOT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(\d{1,2})\.(\d{2})\b").expect("dotted time regex"));
    let times: Vec<(&str, &str)> =
        COLON.captures_iter(original).map(|c| (c.get(1).map_or("", |m| m.as_str()), c.get(2).map_or("", |m| m.as_str()))).collect();
    if times.is_empty() {
        return output.to_string();
    }
    let dotted_in_original: Vec<(&str, &str)> =
        DOT.captures_iter(original).map(|c| (c.get(1).map_or("", |m| m.as_str()), c.get(2).map_or("", |m| m.as_str()))).collect();
    DOT.replace_all(output, |c: &regex::Captures| {
        let time = (&c[1], &c[2]);
        if times.contains(&time) && !dotted_in_original.contains(&time) { format!("{}:{}", time.0, time.1) } else { c[0].to_string() }
    })
    .into_owned()
}

/// The words a route's last hop marked in its raw stream output `raw` as
/// unknown to it (`*menjadores`) or without a translation (`@lemma`),
/// parted in two. First those the original text does not hold: words a
/// pivot's first hop made, which would reach the reader in the pivot's
/// language ("menjadores", "acarnissar-los" in Portuguese). Then the
/// original's own lower-case words of four letters or more, as the
/// original wrote them, that the route left untranslated ("sexualidad" in
/// es-pt's "Encontros de saúde e *sexualidad"): a word a second route
/// may know. A capitalised word is a name's, and stays; a shorter one is
/// as often a foreign word as a Spanish one ("We can Dance it!").
pub(in crate::translate) fn marked_words(original: &str, raw: &str) -> (Vec<String>, Vec<String>) {
    let (leaked, unknown, _) = scan_marks(original, raw);
    (leaked, unknown)
}

/// `raw` with [`LEAK`] written before each word [`marked_words`] counts as
/// leaked, there only: after `stream::reformat` the text shows where each
/// leak stands, so that mending swaps that word and not the same letters
/// elsewhere (a leaked Catalan "des" is not the French article "des").
pub(in crate::translate) fn mark_leaks(original: &str, raw: &str) -> String {
    let (_, _, at) = scan_marks(original, raw);
    let mut out = String::with_capacity(raw.len() + at.len() * 3);
    let mut from = 0;
    for i in at {
        out.push_str(&raw[from..i]);
        out.push(LEAK);
        from = i;
    }
    out.push_str(&raw[from..]);
    out
}

/// Written before a leaked word by [`mark_leaks`] (a private-use
/// character, as the kept spans' marks): never reaches a reader.
pub(in crate::translate) const LEAK: char = '\u{E002}';

/// [`marked_words`]'s two lists, and the byte offset in `raw` of each leaked word.
fn scan_marks(original: &str, raw: &str) -> (Vec<String>, Vec<String>, Vec<usize>) {
    let words =
        |t: &str| -> Vec<String> { t.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect() };
    let own = words(original);
    let written: Vec<&str> = original.split(|c: char| !c.is_alphanumeric()).collect();
    let mut out = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    let mut at = Vec::new();
    let mut chars = raw.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' => {
                while let Some((_, n)) = chars.next() {
                    match n {
                        '\\' => {
                            chars.next();
                        }
                        ']' => break,
                        _ => {}
                    }
                }
            }
            '*' | '@' => {
                let start = chars.peek().map_or(raw.len(), |&(i, _)| i);
                let mut word = String::new();
                while let Some(&(_, n)) = chars.peek() {
                    if !(n.is_alphanumeric() || n == '·') {
                        break;
                    }
                    word.push(n);
                    chars.next();
                }
                let pieces = words(&word);
                // The stream's own guard word is no leak: `reformat` takes it out.
                if !pieces.is_empty() && pieces.iter().any(|p| !own.contains(p) && p != crate::translate::engines::stream::JOIN_GUARD) {
                    at.push(start);
                    out.push(word);
                } else if c == '*'
                    && word.chars().count() >= 4
                    && word.chars().all(char::is_alphabetic)
                    && word.starts_with(char::is_lowercase)
                    && written.contains(&word.as_str())
                    && !unknown.contains(&word)
                {
                    unknown.push(word);
                }
            }
            _ => {}
        }
    }
    (out, unknown, at)
}

/// Whether `text` is one word (letters, digits, `·`, an inner hyphen or
/// apostrophe): what a word alone may be mended into.
pub(in crate::translate) fn is_one_word(text: &str) -> bool {
    !text.is_empty()
        && text.chars().all(|c| c.is_alphanumeric() || matches!(c, '·' | '-' | '\'' | '’'))
        && text.starts_with(char::is_alphanumeric)
        && text.ends_with(char::is_alphanumeric)
}

/// `text` ([`mark_leaks`]'s, reformatted) with each word [`LEAK`] stands
/// before written as its `(word, by)` pair's `by`, where it stands whole (a
/// word is bounded by what is neither a letter, a digit nor `·`):
/// "*acarnissar*-los" → "cevar-los". The same letters elsewhere stay, and
/// the marks go.
pub(in crate::translate) fn swap_leaks(text: &str, swaps: &[(&str, &str)]) -> String {
    swap_words_where(text, swaps, |before, _, _, _| before.ends_with(LEAK)).replace(LEAK, "")
}

/// `text` with each `(word, by)` pair's word, where it stands whole, written
/// as `by`, for a word a second route translated alone: the
/// word goes in lower-case as the original wrote it ("polichinelas" →
/// "polichinelles", not the dictionary's "Polichinelles"), and not after
/// an elided article when one of the two words opens with a vowel and the
/// other does not ("L'evangelio" stays rather than read "L'vangelo"), nor
/// inside a web address ("…/carrusel-ambulante/" is the publisher's).
pub(in crate::translate) fn swap_unknown_words(text: &str, swaps: &[(&str, &str)]) -> String {
    // The vowels elision reads (`data/lang/vowels.txt`), and h, which
    // elides in French, Italian and Catalan alike.
    let opens_vowel = |w: &str| crate::translate::lang::starts_with_vowel(w) || w.starts_with(['h', 'H']);
    let lowered: Vec<(&str, String)> = swaps
        .iter()
        .map(|(w, by)| {
            let mut chars = by.chars();
            let first = chars.next().map(|c| c.to_lowercase().collect::<String>()).unwrap_or_default();
            (*w, if w.starts_with(char::is_lowercase) { first + chars.as_str() } else { by.to_string() })
        })
        .collect();
    let swaps: Vec<(&str, &str)> = lowered.iter().map(|(w, by)| (*w, by.as_str())).collect();
    swap_words_where(text, &swaps, |before, word, by, after| {
        let token = format!(
            "{}{word}{}",
            before.rsplit(char::is_whitespace).next().unwrap_or(""),
            after.split(char::is_whitespace).next().unwrap_or("")
        );
        let address = token.contains("://") || token.contains("www.") || token.contains('@') || token.contains('/');
        let elided = before.ends_with(['\'', '’']) && opens_vowel(word) != opens_vowel(by);
        !address && !elided
    })
}

/// `text` with every whole-word occurrence of each `(word, by)` pair's word
/// (bounded by what is neither a letter, a digit nor `·`) written as `by`,
/// only where `keep(before, word, by, after)` says so, `before` and `after`
/// being the text around it.
fn swap_words_where(text: &str, swaps: &[(&str, &str)], keep: impl Fn(&str, &str, &str, &str) -> bool) -> String {
    let inside = |c: char| c.is_alphanumeric() || c == '·';
    let mut out = text.to_string();
    for (word, by) in swaps {
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(word) {
            let (before, after) = (&rest[..at], &rest[at + word.len()..]);
            let bounded = !before.ends_with(inside) && !after.starts_with(inside);
            result.push_str(before);
            let take = bounded && keep(&result, word, by, after);
            result.push_str(if take { by } else { word });
            rest = after;
        }
        result.push_str(rest);
        out = result;
    }
    out
}

#[cfg(test)]
mod tests {
    /// A word alone is mended where it stands whole and marked, never
    /// inside another, nor where the same letters are the target's own
    /// word (French "des pierres" beside a leaked Catalan "des").
    #[test]
    fn a_leaked_word_is_swapped_where_it_stands_whole() {
        let swaps = [("acarnissar", "cevar"), ("Sinopsi", "Sinopse"), ("des", "depuis")];
        let raw = "[cityvibe:1]*Sinopsi: *acarnissar-*los; Sinopsis, aquarel·les acarnissares, *des 1990, des pierres.[]";
        let original = "Sinopsis: cebarlos; Sinopsis, acuarelas, desde 1990, piedras.";
        let text = crate::translate::engines::stream::reformat(&super::mark_leaks(original, raw), 1).unwrap();
        assert_eq!(super::swap_leaks(&text, &swaps), "Sinopse: cevar-los; Sinopsis, aquarel·les acarnissares, depuis 1990, des pierres");
        assert_eq!(super::swap_leaks(&text, &[]), "Sinopsi: acarnissar-los; Sinopsis, aquarel·les acarnissares, des 1990, des pierres");
        assert!(super::is_one_word("cevar") && super::is_one_word("guarda-chuva") && super::is_one_word("aquarel·les"));
        assert!(!super::is_one_word("de cevar") && !super::is_one_word("cevar.") && !super::is_one_word(""));
    }

    /// A word the second hop marks and the original lacks is Catalan left
    /// in the reader's text; the original's own words, superblanks and
    /// escaped marks are not.
    #[test]
    fn the_second_hops_marks_name_the_pivots_words() {
        let original = "Instalación de comederos y cebarlos para los pájaros. Kalle *Nº5* @teatro";
        let raw = "[cityvibe:3]Instalação de *menjadores e *acarnissar-*los com *comederos. *Kalle [*Nº5]\\* [@teatro] @eclèctic #fazido aquarel·les.[]";
        let leaked = |raw: &str| super::marked_words(original, raw).0;
        assert_eq!(leaked(raw), ["menjadores", "acarnissar", "eclèctic"]);
        assert!(leaked("[cityvibe:3]Instalação.[]").is_empty());
        assert!(leaked("[cityvibe:3]em [Madrid] *qzxv o 18.[]").is_empty());
    }

    /// The original's own lower-case words a route left marked are the
    /// second route's to try; a name's, a short one's, a guard's are not.
    #[test]
    fn the_originals_own_unknown_words_are_set_apart() {
        let original = "Hablemos de sexualidad con Kalle: We can dance, Lavapiés";
        let raw = "[cityvibe:1]Falemos de *sexualidad com *Kalle: *We *can *dance, *Lavapiés *qzxv.[]";
        let (leaked, unknown) = super::marked_words(original, raw);
        assert_eq!(unknown, ["sexualidad", "dance"]);
        assert!(leaked.is_empty(), "the stream's guard word is no leak: {leaked:?}");
        // "Serbia" written with a capital is a name even where the engine lowered it.
        assert!(super::marked_words("Rumanía, Serbia", "[cityvibe:1]Rumanía, *serbia.[]").1.is_empty());
    }

    /// A word from the second route goes in lower-case, never after an
    /// elided article it does not open as, never inside an address.
    #[test]
    fn a_second_opinion_fits_where_it_goes() {
        let swap = |text: &str, w: &str, by: &str| super::swap_unknown_words(text, &[(w, by)]);
        assert_eq!(swap("Farse de polichinelas", "polichinelas", "Polichinelles"), "Farse de polichinelles");
        assert_eq!(swap("L'evangelio secondo San Mateo", "evangelio", "vangelo"), "L'evangelio secondo San Mateo");
        assert_eq!(swap("L'invencible estate", "invencible", "invincibile"), "L'invincibile estate");
        assert_eq!(
            swap("Carrusel: https://tiritirantes.com/carrusel-ambulante/ o carrusel.", "carrusel", "carosello"),
            "Carrusel: https://tiritirantes.com/carrusel-ambulante/ o carosello."
        );
    }

    #[test]
    fn a_pivot_keeps_the_originals_clock_times() {
        let original = "Sesión a las 19:30. Entrada 12.30 euros, de 10:00 a 14:00.";
        let output = "Séance à 19.30 heures. Entrée 12.30 euros, de 10.00 à 14.00.";
        assert_eq!(keep_clock_times(original, output), "Séance à 19:30 heures. Entrée 12.30 euros, de 10:00 à 14:00.");
        // An aforo of 1.500 and a price of 12,50 are not times.
        assert_eq!(
            keep_clock_times("A las 20:00. Aforo 1.500, 12,50 €", "Alle 20.00. Capienza 1.500, 12,50 €"),
            "Alle 20:00. Capienza 1.500, 12,50 €"
        );
    }

    use super::*;

    /// Every line that is not a comment is a row, and every field named is one.
    #[test]
    fn every_line_is_a_row() {
        for line in TABLE.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let r = row(line).unwrap_or_else(|| panic!("routes.tsv: not a row: {line:?}"));
            assert!(r.field.is_none_or(|f| f.parse::<Field>().is_ok()), "{line:?}");
            assert!(crate::lang::apertium_codes_of(r.from).is_some() && crate::lang::Lang::from_code(r.to).is_some(), "{line:?}");
            // A pivot's two modes meet in its language, and the route
            // starts in `from` and ends in `to`.
            let first = r.route.modes[0].split_once('-').unwrap();
            let last = r.route.modes.last().unwrap().split_once('-').unwrap();
            assert_eq!(language_of(first.0), Some(r.from), "{line:?}");
            assert_eq!(language_of(last.1), Some(r.to), "{line:?}");
            if let [a, b] = r.route.modes[..] {
                assert_eq!(language_of(a.split_once('-').unwrap().1), language_of(b.split_once('-').unwrap().0), "{line:?}");
            }
        }
    }

    /// The examples in the table's head hold.
    #[test]
    fn the_examples_hold() {
        let mut n = 0;
        for line in TABLE.lines().filter_map(|l| l.strip_prefix("# example: ")) {
            let (input, expected) = line.split_once(" => ").unwrap();
            let [from, to, field] = input.split(' ').collect::<Vec<_>>()[..] else { panic!("{line}") };
            let field = (field != "*").then(|| field.parse::<Field>().unwrap());
            assert_eq!(route(from, to, field).map(Route::name).as_deref(), Some(expected), "{line}");
            n += 1;
        }
        assert!(n >= 3);
    }

    /// Every second opinion names a row of the route table and a route
    /// from that row's language into its target; a translation's cache key
    /// names it, so that adding one translates again what it routes.
    #[test]
    fn every_second_opinion_names_a_route() {
        let mut n = 0;
        for line in SECOND_OPINIONS.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let s = row(line).unwrap_or_else(|| panic!("unknown-words.tsv: not a row: {line:?}"));
            assert!(rows().iter().any(|r| (r.from, r.to, r.field) == (s.from, s.to, s.field)), "no such route: {line:?}");
            let first = s.route.modes[0].split_once('-').unwrap();
            let last = s.route.modes.last().unwrap().split_once('-').unwrap();
            assert_eq!((language_of(first.0), language_of(last.1)), (Some(s.from), Some(s.to)), "{line:?}");
            n += 1;
        }
        assert!(n > 0);
        let pt = route("es", "pt", Some(Field::Title)).unwrap();
        assert_eq!(pt.key_name(), "es-pt/articles/unknown:spa-cat+cat-por");
        assert_eq!(route("es", "ca", None).unwrap().key_name(), "spa-cat/articles");
        let pt = route("es", "pt", Some(Field::Description)).unwrap();
        assert_eq!(pt.key_name(), "spa-cat+cat-por/mended-in-place/articles/apart/unknown:es-pt");
    }

    /// Catalan originals go straight from Catalan, and Galician through
    /// Spanish.
    #[test]
    fn catalan_originals_have_their_own_routes() {
        for (to, name) in [("es", "cat-spa"), ("en", "cat-eng"), ("fr", "cat-fra"), ("it", "cat-ita"), ("pt", "cat-por")] {
            for field in [Some(Field::Title), Some(Field::Description), None] {
                assert_eq!(route("ca", to, field).unwrap().name(), name);
            }
        }
        assert_eq!(route("ca", "gl", None).unwrap().name(), "cat-spa+es-gl via es");
        assert!(route("xx", "en", None).is_none());
    }

    /// Basque originals (an original language, no display language) go
    /// into Spanish with eu-es and from there on, into all seven.
    #[test]
    fn basque_originals_reach_every_display_language() {
        for to in crate::lang::Lang::CODES {
            let r = route("eu", to, Some(Field::Title)).unwrap_or_else(|| panic!("no eu->{to} route"));
            assert!(r.modes[0].starts_with("eu-"), "{to}: {}", r.name());
        }
        assert_eq!(route("eu", "es", None).unwrap().name(), "eu-es");
        assert_eq!(route("eu", "fr", None).unwrap().name(), "eu-es+es-fr via es");
    }
}
