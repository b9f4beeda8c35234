//! A heading a Spanish title shouts in capitals beside words in sentence
//! case ("MUESTRA DE CINE EUROPEO: Banda sonora…", "Conferencia: CICLO DE
//! PINTURA VENECIANA."): its words are common words, not a name, and go to
//! the engine whole, in lower case (a word in capitals alone would be kept
//! as a name: "Exposition DE CINE EUROPEO"); the translation of that part
//! is put back in capitals after ("FESTIVAL DE CINÉMA EUROPÉEN : …").
//!
//! A part of the title is what stands between two of its [`MARKS`] (a
//! colon, a stop, a bracket, a quote). It is a heading when every letter of
//! it is a capital, the dictionary knows each of its words as a common or
//! function word (no proper noun, no unknown word: "CIRCO PRICE" is a
//! name), two of them at least are common words of three letters or more
//! ("CREA" alone is a name), nothing kept is in it and it is not in
//! brackets ("'Colores' (HABICHUELA CUENTACUENTOS)": a company). A title all
//! in capitals has no heading ("LA HABITACIÓN ROJA" is a band). The
//! capitals come back where the translation has the same marks in the
//! same order as the text sent; otherwise the part stays in the case the
//! engine gave it, its first word capitalised.
//!
//! Not for: descriptions, where a heading in capitals is no name already
//! (`Known::running_text`), Catalan titles (`Known::capitals_are_headings`),
//! or which runs are names (`names`).

use super::analyser::{Analysis, WordKind};
use super::words::words;

/// What bounds a part of a title: a heading is all the words between two.
/// An apostrophe between two letters ("d'État") is no mark, nor one after
/// a letter where no quote is open ("Women Writers' Day"), nor a stop
/// between two digits ("2.5").
const MARKS: &[char] = &[':', ';', '.', '(', ')', '[', ']', '\'', '"', '«', '»', '“', '”', '‘', '’', '`', '´', '¡', '!', '¿', '?', '|'];

/// The byte offsets of the marks of `text`, with the mark.
fn marks(text: &str) -> Vec<(usize, char)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut open = false;
    for (k, &(i, c)) in chars.iter().enumerate() {
        if !MARKS.contains(&c) {
            continue;
        }
        let before = k.checked_sub(1).map(|j| chars[j].1);
        let after = chars.get(k + 1).map(|x| x.1);
        let letter_before = before.is_some_and(char::is_alphanumeric);
        if matches!(c, '\'' | '’' | '‘') {
            if letter_before && after.is_some_and(char::is_alphanumeric) {
                continue;
            }
            if letter_before && !open {
                continue;
            }
            open = !letter_before;
        }
        if c == '.' && before.is_some_and(|c| c.is_ascii_digit()) && after.is_some_and(|c| c.is_ascii_digit()) {
            continue;
        }
        out.push((i, c));
    }
    out
}

/// The marks of `text` in order, quotes of every kind as one (French
/// typography writes « » for '…'): what a translation must keep for its
/// parts to be found again.
fn signature(text: &str) -> String {
    marks(text).into_iter().map(|(_, c)| if matches!(c, '«' | '»' | '“' | '”' | '‘' | '’' | '`' | '´' | '"') { '\'' } else { c }).collect()
}

/// The parts of `text` between its marks, as byte ranges.
fn parts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in marks(text) {
        out.push((start, i));
        start = i + c.len_utf8();
    }
    out.push((start, text.len()));
    out
}

/// The parts of a title (by index, as [`parts`] counts them) that are
/// headings in capitals, with their byte ranges; `kept` are the spans
/// already kept.
pub(super) fn find(text: &str, kept: &[(usize, usize)], analysis: &Analysis) -> Vec<(usize, (usize, usize))> {
    // A title all in capitals: its capitals say nothing.
    if !words(text).iter().any(|&(a, b)| text[a..b].chars().filter(|c| c.is_lowercase()).count() >= 2) {
        return Vec::new();
    }
    let mut depth = 0i32;
    let mut out = Vec::new();
    let all = parts(text);
    for (k, &(a, b)) in all.iter().enumerate() {
        if k > 0 {
            match text[..a].chars().next_back() {
                Some('(' | '[') => depth += 1,
                Some(')' | ']') => depth -= 1,
                _ => {}
            }
        }
        let part = &text[a..b];
        let ws: Vec<(usize, usize)> = words(part).into_iter().map(|(s, e)| (a + s, a + e)).collect();
        let capitals = part.chars().any(char::is_alphabetic) && !part.chars().any(char::is_lowercase);
        if depth > 0 || !capitals || ws.is_empty() || analysis.names_within(a, b) || kept.iter().any(|&(s, e)| s < b && e > a) {
            continue;
        }
        let kinds: Vec<Option<WordKind>> = ws.iter().map(|&(s, _)| kind_over(analysis, s)).collect();
        let known = kinds.iter().zip(&ws).all(|(k, &(s, e))| {
            matches!(k, Some(WordKind::Common | WordKind::Function | WordKind::Other)) || inside_a_unit(analysis, s, e)
        });
        let common = kinds.iter().zip(&ws).filter(|(k, (s, e))| **k == Some(WordKind::Common) && text[*s..*e].chars().count() >= 3).count();
        if known && common >= 2 {
            out.push((k, (a, b)));
        }
    }
    out
}

/// The kind of the unit starting at byte `a`.
fn kind_over(analysis: &Analysis, a: usize) -> Option<WordKind> {
    analysis.kind_at(a)
}

/// Whether the word at `s..e` is inside a unit of several words that starts before it ("DE LA").
fn inside_a_unit(analysis: &Analysis, s: usize, e: usize) -> bool {
    analysis.units.iter().any(|&(us, ue, k)| us < s && ue >= e && matches!(k, WordKind::Common | WordKind::Function))
}

/// `text` with the `headings` in lower case but the text's first letter
/// (the bytes stay where they were: a letter whose lower case is longer
/// stays as it is).
pub(super) fn lowered(text: &str, headings: &[(usize, (usize, usize))]) -> String {
    let first = text.char_indices().find(|(_, c)| c.is_alphabetic()).map(|(i, _)| i);
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let inside = headings.iter().any(|&(_, (a, b))| i >= a && i < b) && Some(i) != first;
        let mut lower = c.to_lowercase();
        match (inside, lower.next(), lower.next()) {
            (true, Some(l), None) if l.len_utf8() == c.len_utf8() => out.push(l),
            _ => out.push(c),
        }
    }
    out
}

/// Whether two texts have the same marks in the same order.
pub(super) fn same_marks(a: &str, b: &str) -> bool {
    signature(a) == signature(b)
}

/// A translation of a text whose parts `shouted` (by index) were sent in
/// lower case, with those parts in capitals again; `sent` is the text as
/// sent. Nothing changes where the translation has other marks than the
/// text sent: its parts are not known.
pub fn restore(sent: &str, translation: &str, shouted: &[usize]) -> String {
    if shouted.is_empty() || signature(sent) != signature(translation) {
        return translation.to_string();
    }
    let mut out = translation.to_string();
    for (k, (a, b)) in parts(translation).into_iter().enumerate().rev() {
        if shouted.contains(&k) {
            out.replace_range(a..b, &translation[a..b].to_uppercase());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An analysis of `text` where the listed words have the listed kinds.
    fn analysed(text: &str, kinds: &[(&str, WordKind)]) -> Analysis {
        let units = words(text)
            .into_iter()
            .map(|(a, b)| {
                let w = &text[a..b];
                let kind = kinds.iter().find(|(k, _)| *k == w).map_or(WordKind::Common, |k| k.1);
                (a, b, kind)
            })
            .collect();
        Analysis { units, ..Analysis::default() }
    }

    fn headings(text: &str, kinds: &[(&str, WordKind)]) -> Vec<&'static str> {
        let analysis = analysed(text, kinds);
        find(text, &[], &analysis).into_iter().map(|(_, (a, b))| &*text[a..b].trim().to_string().leak()).collect()
    }

    const FUNCTION: &[(&str, WordKind)] = &[
        ("DE", WordKind::Function),
        ("LA", WordKind::Function),
        ("LAS", WordKind::Function),
        ("EN", WordKind::Function),
        ("2026", WordKind::Other),
    ];

    #[test]
    fn a_part_in_capitals_of_common_words_is_a_heading() {
        assert_eq!(headings("MUESTRA DE CINE EUROPEO: Banda sonora de un golpe", FUNCTION), ["MUESTRA DE CINE EUROPEO"]);
        assert_eq!(
            headings("Conferencia: CICLO DE PINTURA VENECIANA. 'OBRAS MAESTRAS'", FUNCTION),
            ["CICLO DE PINTURA VENECIANA", "OBRAS MAESTRAS"]
        );
        assert_eq!(headings("Museo (Sabero). EXPOSICIONES TEMPORALES, MARZO 2026", FUNCTION), ["EXPOSICIONES TEMPORALES, MARZO 2026"]);
    }

    #[test]
    fn a_name_in_capitals_is_no_heading() {
        // A proper noun or a word the dictionary does not know.
        assert!(headings("CIRCO PRICE: en Navidad", &[("PRICE", WordKind::Unknown)]).is_empty());
        // A company in brackets, one word, a title all in capitals.
        assert!(headings("'Payaso, pero no tonto' (PAYASO LOCO)", FUNCTION).is_empty());
        assert!(headings("CREA – Muestra final", FUNCTION).is_empty());
        assert!(headings("LA HABITACIÓN ROJA", FUNCTION).is_empty());
        // Words in capitals inside a part in sentence case.
        assert!(headings("Curso de cómic AVANZADO para niños", FUNCTION).is_empty());
    }

    #[test]
    fn a_heading_goes_in_lower_case_and_comes_back_in_capitals() {
        let text = "Conferencia: CICLO DE PINTURA VENECIANA. 'OBRAS MAESTRAS'";
        let found = find(text, &[], &analysed(text, FUNCTION));
        let sent = lowered(text, &found);
        assert_eq!(sent, "Conferencia: ciclo de pintura veneciana. 'obras maestras'");
        let shouted: Vec<usize> = found.iter().map(|h| h.0).collect();
        assert_eq!(
            restore(&sent, "Conférence : cycle de peinture vénitienne. « chefs-d'œuvre »", &shouted),
            "Conférence : CYCLE DE PEINTURE VÉNITIENNE. « CHEFS-D'ŒUVRE »"
        );
        // Other marks: the parts are not known, nothing changes.
        assert_eq!(restore(&sent, "Conférence cycle de peinture. « chefs »", &shouted), "Conférence cycle de peinture. « chefs »");
        // A heading that opens the text keeps its first capital when sent.
        let text = "MUESTRA DE CINE: Hojas caídas";
        assert_eq!(lowered(text, &find(text, &[], &analysed(text, FUNCTION))), "Muestra de cine: Hojas caídas");
    }
}
