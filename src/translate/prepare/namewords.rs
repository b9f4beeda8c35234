//! A kept run word by word: inside a capitalised run the name finder keeps
//! ("Universidad Autónoma de Madrid", "Fernando Valladares del Museo
//! Nacional"), only the words a name alone has stay apart from the engine, as
//! the analyser says of each: a proper noun or a word the dictionary does not
//! know ("Lavapiés", "Valladares"), a word in capitals or with a brand's
//! spelling, a given name and the surname right after it ("Gloria Fuertes");
//! the dictionary's ordinary words ("Universidad", "Museo", "Públicas") go to
//! the engine, which translates them. Whether a (target language, field) gets
//! it is `data/translate/name-words.tsv`, with the figures that chose it.
//! A text sent plain (Spanish descriptions into Catalan and Galician) keeps
//! fewer still: only the parts its engine's own dictionary would not write
//! as published (`mangled_by_the_engine`).
//!
//! Not for: finding the runs (`capitals`, `names`), or what the dictionary
//! knows (`analyser`).

use crate::lang::Lang;
use crate::lang_data;
use crate::translate::prepare::analyser::{Analysis, WordKind};
use crate::translate::prepare::words::words;
use crate::vocab::Field;

const TABLE: &str = include_str!("../../../data/translate/name-words.tsv");

/// The rows of the table: (target language, field, whether it splits); a
/// row for a Catalan original names its target `ca>LANG`.
fn rows() -> impl Iterator<Item = (String, String, bool)> {
    TABLE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).filter_map(|l| {
        let cols: Vec<&str> = l.split('\t').collect();
        (cols.len() >= 3).then(|| (cols[0].to_string(), cols[1].to_string(), cols[2] == "words"))
    })
}

/// Whether kept runs of `field` texts from Spanish into `lang` are split
/// word by word.
pub fn splits(lang: Lang, field: Field) -> bool {
    rows().any(|(l, f, on)| on && l == lang && f == field.as_str())
}

/// Whether kept runs of `field` texts from the original language coded
/// `src` into `lang` are split word by word: Spanish's rows, or a Catalan
/// original's (`ca>LANG`); none for another language.
pub fn splits_from(src: &str, lang: Lang, field: Field) -> bool {
    match src {
        "es" => splits(lang, field),
        "ca" => rows().any(|(l, f, on)| on && l == format!("ca>{lang}") && f == field.as_str()),
        _ => false,
    }
}

/// The parts of the kept run `span` of `text` that stay apart from the
/// engine; the words between them go to it. `headings` (a Catalan
/// original): a word in capitals the dictionary knows is no name's
/// ("ACTIVITAT CANCEL·LADA").
pub fn name_words(text: &str, span: (usize, usize), analysis: &Analysis, headings: bool) -> Vec<(usize, usize)> {
    let ws: Vec<(usize, usize)> = words(&text[span.0..span.1]).into_iter().map(|(a, b)| (span.0 + a, span.0 + b)).collect();
    let lower = |k: usize| text[ws[k].0..ws[k].1].to_lowercase();
    let connector = |k: usize| lang_data::of(Lang::Es).connectors.has(&lower(k));
    let kind = |k: usize| analysis.units.iter().find(|u| u.0 <= ws[k].0 && ws[k].0 < u.1).map(|u| u.2);
    let keep = name_flags(text, &ws, analysis, headings);
    // The run in parts apart by lower-case connectors ("Bibliotecas
    // Públicas | del | Ayuntamiento | de | Madrid"): a part holding a name
    // word is kept ("Fernando Valladares"), with the connectors between two
    // kept parts; a part of dictionary words only goes to the engine. The
    // run stays whole when a word of it is in capitals (a company, a
    // heading: "MARGARITO Y CIA"), when every part or none holds a name
    // word, and when a part of dictionary words comes before a named part
    // that is more than one proper noun: an institution named after
    // someone or somewhere ("Gran Escuela de Magia Ana Tamariz", "Palacio
    // de Maudes"), which readers meet as the publisher writes it.
    let lowercase_connector = |k: usize| connector(k) && !text[ws[k].0..].starts_with(char::is_uppercase);
    let mut parts: Vec<(usize, usize)> = Vec::new(); // word ranges k..l
    let mut k = 0;
    while k < ws.len() {
        if lowercase_connector(k) {
            k += 1;
            continue;
        }
        let mut l = k + 1;
        while l < ws.len() && !lowercase_connector(l) {
            l += 1;
        }
        parts.push((k, l));
        k = l;
    }
    let named = |p: &(usize, usize)| (p.0..p.1).any(|k| keep[k]);
    let shouted = ws.iter().any(|&(a, b)| {
        let w = &text[a..b];
        w.chars().any(char::is_alphabetic) && !w.chars().any(char::is_lowercase)
    });
    let place = |p: &(usize, usize)| p.1 == p.0 + 1 && kind(p.0) == Some(WordKind::Proper);
    let heads_a_name = parts.iter().enumerate().any(|(i, p)| i > 0 && named(p) && !place(p) && !named(&parts[i - 1]));
    if shouted || parts.iter().all(named) || !parts.iter().any(named) || heads_a_name {
        return vec![span];
    }
    // Kept: each named part, with the connectors between two named parts.
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if !named(p) {
            continue;
        }
        match out.last_mut() {
            Some(last) if i > 0 && named(&parts[i - 1]) => last.1 = ws[p.1 - 1].1,
            _ => out.push((ws[p.0].0, ws[p.1 - 1].1)),
        }
    }
    out
}

/// The parts of the kept run `span` of `text` that stay apart from an
/// engine that is given a text plain (`lang::plain`: Spanish descriptions
/// into Catalan and Galician), whose dictionary (`engine`, its own analysis
/// of the text) knows the names the two languages share and the names the
/// target has for them: of the parts [`name_words`] keeps, one made only of
/// words that dictionary knows as proper nouns alone and that are no
/// given name goes to the engine, which writes it as it is or with the
/// target's name ("Caperucita" → "Caputxeta", "Halloween") and sees the
/// sentence whole. Every other part stays apart: a person's name (the
/// engine writes "Alfonso" "Alfons", Galician "Luis" "Luís"), a word it
/// would translate as an ordinary word ("Lavapiés", not "Llavapeus";
/// "Cano", not "Canut"), a word it does not know (kept, the place it
/// names is put right after: "en Chamberí" → "a Chamberí"), a name right
/// after an article ("el Cairo", which spa-cat writes "l'el Caire").
pub fn mangled_by_the_engine(text: &str, span: (usize, usize), analysis: &Analysis, engine: &Analysis) -> Vec<(usize, usize)> {
    let mut parts = name_words(text, span, analysis, false);
    let connectors = &lang_data::of(Lang::Es).connectors;
    let given_names = &lang_data::of(Lang::Es).given_names;
    parts.retain(|&(a, b)| {
        let ws: Vec<(usize, usize)> = words(&text[a..b]).into_iter().map(|(s, e)| (a + s, a + e)).collect();
        let named_by_the_engine = |&(s, e): &(usize, usize)| {
            let w = &text[s..e];
            connectors.has(&w.to_lowercase())
                || (!analysis.given_names.contains(&s)
                    && !given_names.has(&w.to_lowercase())
                    && engine.units.iter().any(|u| u.0 <= s && e <= u.1 && u.2 == WordKind::Proper))
        };
        after_an_article(text, a) || !ws.iter().all(named_by_the_engine)
    });
    parts
}

/// Whether the word before byte `a` of `text` (a name's start) is an
/// article of `es/articles-before-names.txt`: right after one the engine
/// garbles a place it knows ("en el Cairo" → "a l'el Caire"), so the name
/// stays kept and the finishing mends the article.
pub fn after_an_article(text: &str, a: usize) -> bool {
    let before = text[..a].rsplit(' ').nth(1).unwrap_or_default().to_lowercase();
    lang_data::of(Lang::Es).articles_before_names.has(&before)
}

/// Which of the words `ws` of `text` a name alone has ([`name_words`]): a
/// proper noun or a word the dictionary does not know, a word in capitals
/// or with a brand's spelling, a given name and the surname right after it.
fn name_flags(text: &str, ws: &[(usize, usize)], analysis: &Analysis, headings: bool) -> Vec<bool> {
    let lower = |k: usize| text[ws[k].0..ws[k].1].to_lowercase();
    let connector = |k: usize| lang_data::of(Lang::Es).connectors.has(&lower(k));
    let kind = |k: usize| analysis.units.iter().find(|u| u.0 <= ws[k].0 && ws[k].0 < u.1).map(|u| u.2);
    // A given name by the dictionary (`<np><ant>`) or by `es/given-names.txt`.
    let given = |k: usize| analysis.given_names.contains(&ws[k].0) || lang_data::of(Lang::Es).given_names.has(&lower(k));
    let name_word = |k: usize| {
        let w = &text[ws[k].0..ws[k].1];
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        let caps = letters >= 2 && !w.chars().any(char::is_lowercase) && !(headings && super::names::shouted_word(text, ws[k], analysis));
        let odd = w.contains('_') || w.chars().skip(1).any(char::is_uppercase) || w.chars().any(|c| c.is_ascii_digit());
        let known_elsewhere = lang_data::of(Lang::Es).not_name_starts.has(&lower(k));
        caps || odd
            || (!connector(k) && given(k))
            || (!known_elsewhere && matches!(kind(k), Some(WordKind::Proper | WordKind::Unknown) | None))
    };
    let mut keep: Vec<bool> = (0..ws.len()).map(name_word).collect();
    // A given name's surname: the capitalised word right after it, past
    // its particles ("Gloria Fuertes", "Lope de Vega").
    for k in 0..ws.len() {
        if keep[k] && given(k) && !connector(k) {
            let mut j = k + 1;
            while j < ws.len() && connector(j) && j - k <= 2 {
                j += 1;
            }
            if j < ws.len() && text[ws[j].0..].starts_with(char::is_uppercase) {
                keep[j] = true;
            }
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An analysis of `text` giving each listed word its kind.
    fn analysis(text: &str, kinds: &[(&str, WordKind)]) -> Analysis {
        let units = kinds
            .iter()
            .map(|(w, k)| {
                let a = text.find(w).unwrap();
                (a, a + w.len(), *k)
            })
            .collect();
        Analysis { units, ..Analysis::default() }
    }

    fn kept(text: &str, kinds: &[(&str, WordKind)]) -> Vec<String> {
        let an = analysis(text, kinds);
        name_words(text, (0, text.len()), &an, false).into_iter().map(|(a, b)| text[a..b].to_string()).collect()
    }

    use WordKind::{Common, Function, Proper, Unknown};

    #[test]
    fn dictionary_words_before_a_place_go_to_the_engine() {
        let kinds = [("Universidad", Common), ("Autónoma", Common), ("de", Function), ("Madrid", Proper)];
        assert_eq!(kept("Universidad Autónoma de Madrid", &kinds), ["Madrid"]);
        let text = "Bibliotecas Públicas del Ayuntamiento de Madrid";
        let kinds = [("Bibliotecas", Common), ("Públicas", Common), ("del", Function), ("Ayuntamiento", Common), ("Madrid", Proper)];
        assert_eq!(kept(text, &kinds), ["Madrid"]);
    }

    #[test]
    fn a_person_before_an_institution_is_kept_alone() {
        let text = "Fernando Valladares del Museo Nacional de Ciencias Naturales";
        let kinds = [
            ("Fernando", Proper),
            ("Valladares", Unknown),
            ("del", Function),
            ("Museo", Common),
            ("Nacional", Common),
            ("Ciencias", Common),
            ("Naturales", Common),
        ];
        assert_eq!(kept(text, &kinds), ["Fernando Valladares"]);
    }

    #[test]
    fn names_of_their_own_stay_whole() {
        let kinds = [("Eloy", Proper), ("de", Function), ("la", Function), ("Iglesia", Common)];
        assert_eq!(kept("Eloy de la Iglesia", &kinds), ["Eloy de la Iglesia"]);
        let text = "Gran Escuela de Magia Ana Tamariz";
        let kinds = [("Gran", Common), ("Escuela", Common), ("Magia", Common), ("Ana", Proper), ("Tamariz", Unknown)];
        assert_eq!(kept(text, &kinds), [text]);
        let kinds = [("Asociación", Common), ("Sahaja", Unknown), ("Yoga", Common)];
        assert_eq!(kept("Asociación Sahaja Yoga", &kinds), ["Asociación Sahaja Yoga"]);
        let kinds = [("MARGARITO", Unknown), ("Y", Function), ("CIA", Unknown)];
        assert_eq!(kept("MARGARITO Y CIA", &kinds), ["MARGARITO Y CIA"]);
        let kinds = [("Lavapiés", Unknown)];
        assert_eq!(kept("Lavapiés", &kinds), ["Lavapiés"]);
    }

    /// Sent plain, a name of proper nouns the engine's own dictionary
    /// knows as such goes to it; a given name, a word it would translate
    /// and a word it does not know stay apart.
    #[test]
    fn a_text_sent_plain_keeps_only_the_names_the_engine_would_mangle() {
        let text = "Paseo por Lavapiés con Caperucita, Gloria Fuertes, Nueva York y Chamberí";
        let kinds = [
            ("Paseo", Common),
            ("Lavapiés", Unknown),
            ("Caperucita", Unknown),
            ("Gloria", Proper),
            ("Fuertes", Common),
            ("Nueva York", Proper),
            ("Chamberí", Unknown),
        ];
        let mut an = analysis(text, &kinds);
        an.given_names = vec![text.find("Gloria").unwrap()];
        // spa-cat: "lavapiés" a common noun, "Caperucita" and "Nueva York"
        // names (Caputxeta, Nova York), "Gloria" a name and a noun,
        // "Chamberí" unknown.
        let engine_kinds = [
            ("Lavapiés", Common),
            ("Caperucita", Proper),
            ("Gloria", Common),
            ("Fuertes", Common),
            ("Nueva York", Proper),
            ("Chamberí", Unknown),
        ];
        let engine = analysis(text, &engine_kinds);
        let kept = |span: &str| -> Vec<String> {
            let a = text.find(span).unwrap();
            mangled_by_the_engine(text, (a, a + span.len()), &an, &engine).into_iter().map(|(a, b)| text[a..b].to_string()).collect()
        };
        assert_eq!(kept("Lavapiés"), ["Lavapiés"]);
        assert!(kept("Caperucita").is_empty());
        assert!(kept("Nueva York").is_empty());
        assert_eq!(kept("Gloria Fuertes"), ["Gloria Fuertes"]);
        assert_eq!(kept("Chamberí"), ["Chamberí"]);
    }

    /// Every example of data/translate/name-words.tsv holds.
    #[test]
    fn the_examples_of_the_table_hold() {
        let mut checked = 0;
        for line in TABLE.lines().filter_map(|l| l.strip_prefix("# example: ")) {
            let (input, expected) = line.split_once(" => ").expect("INPUT => EXPECTED");
            let (lang, field) = input.split_once(' ').expect("LANG FIELD");
            let field = Field::TEXTS.into_iter().find(|f| f.as_str() == field).expect("title or description");
            let (src, lang) = lang.split_once('>').unwrap_or(("es", lang));
            assert_eq!(splits_from(src, lang.parse().unwrap(), field), expected == "words", "{line}");
            checked += 1;
        }
        assert!(checked >= 2);
    }
}
