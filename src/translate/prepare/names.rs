//! The names of a text that no engine may translate: the runs its capitals
//! give away (`capitals`), looked for around the spans already taken, and,
//! with Apertium's analysis, only those the dictionary takes for names: a
//! run holding a proper noun, a word the dictionary does not know, a word
//! in capitals or a brand's spelling, or a person's name ("Grant Phillips",
//! "Eloy de la Iglesia"); a run of dictionary words ("Universo Oscuro") is
//! left to the engine.
//!
//! Not for: the places the event names (`places`), what the dictionary
//! knows (`analyser`), or which words of a kept run stay apart (`namewords`).

use super::Known;
use super::analyser::{Analysis, WordKind};
use super::capitals::sentence_case_names;
use super::words::{
    body_head, connector, function_word, given_name, leading_adjective, not_a_name_start, opens_sentence, town_alone, town_word, words,
};
use crate::lang::Lang;
use crate::lang_data;

/// The names in `text` outside the `taken` spans: the runs its capitals
/// give away and, with Apertium's `analysis`, only those the dictionary
/// takes for names ([`by_dictionary`]; a run right before one of the kept
/// `places` is part of its name whatever its words). Names are looked for
/// around what is taken: a taken span reads as a lower-case word, so "en la
/// biblioteca Gloria Fuertes" with the term taken still gives "Gloria
/// Fuertes" away. `running_text`: a description, where a run in capitals is
/// a heading, not a name by itself. `all_capitals` (an original that writes
/// titles in sentence case, Basque): every capitalised run is a name, a
/// sentence's first word too when a capitalised word follows it ("Amets
/// Arzallus"), whatever the dictionary knows of its words. `headings` (a
/// Catalan original): words in capitals the dictionary knows are a status
/// shouted ("ACTIVITAT CANCEL·LADA", "NO S'HA FET"), cut out of the runs
/// and left to the engine.
pub(super) fn find(text: &str, taken: &[(usize, usize)], places: &[(usize, usize)], known: &Known) -> Vec<(usize, usize)> {
    let (analysis, running_text) = (known.analysis, known.running_text);
    let (all_capitals, headings) = (known.capitals_are_names, known.capitals_are_headings);
    // A town's name the engine the text goes through first reads as an
    // ordinary word (`town-words.txt`: "Granada" into Italian titles).
    let town = |word: &str| known.first_mode.is_some_and(|mode| town_word(word, mode));
    let mut rest = text.as_bytes().to_vec();
    for &(a, b) in taken {
        rest[a..b].fill(b'x');
    }
    let rest = String::from_utf8(rest).unwrap_or_default();
    let ws = words(text);
    // A text's first word the dictionary does not know, or knows as a proper
    // noun, starts a name too ("Kiokio Solo", "Madrid Distrito", "Paz Rojo"),
    // as does a town of `town-words.txt` ("Granada en flamenco").
    let dictionary_name = |a: usize| {
        if all_capitals {
            return true;
        }
        let word = ws.iter().find(|w| w.0 == a).map(|w| text[w.0..w.1].to_lowercase()).unwrap_or_default();
        town(&word)
            || (!not_a_name_start(&word)
                && analysis.is_some_and(|an| {
                    an.given_name_at(a) || an.kind_at(a).is_some_and(|k| matches!(k, WordKind::Proper | WordKind::Unknown))
                }))
    };
    // A run right before a kept place ("Jóvenes de [Madrid]") is part of its name.
    let before_a_name = |b: usize| {
        places.iter().any(|&(s, _)| s >= b && matches!(&text[b..s], " " | " de " | " del " | " de la " | " de los " | " de las " | " y "))
    };
    let mut found: Vec<(usize, usize)> =
        sentence_case_names(&rest, &dictionary_name, headings).into_iter().flat_map(|span| apart_before_a_body(text, span)).collect();
    if let Some(analysis) = analysis.filter(|_| !all_capitals) {
        found = found
            .into_iter()
            .flat_map(|span| if headings { without_headings(text, span, analysis) } else { vec![span] })
            .flat_map(|span| if running_text { vec![span] } else { apart_before_an_author(text, span, analysis) })
            .flat_map(|span| if before_a_name(span.1) { vec![span] } else { by_dictionary(text, span, analysis, !running_text, &town) })
            .collect();
    }
    let mut found: Vec<(usize, usize)> = found
        .into_iter()
        .filter_map(|span| owner_of_a_body(text, span))
        .filter(|span| taken.iter().all(|&(a, b)| span.1 <= a || span.0 >= b))
        .map(|span| headed(text, &ws, span, taken))
        .collect();
    // A town the first mode reads as a word, kept alone where no name holds
    // it (`town-words.txt`, third column: "Sala [Granada]", "Concello de
    // [Granada]", the words around it the engine's).
    if let Some(mode) = known.first_mode {
        let apart = |&(a, b): &(usize, usize)| found.iter().chain(taken).all(|&(s, e)| b <= s || a >= e);
        let alone: Vec<(usize, usize)> = ws
            .iter()
            .filter(|&&(a, b)| text[a..].starts_with(char::is_uppercase) && town_alone(&text[a..b].to_lowercase(), mode))
            .filter(|w| apart(w))
            .copied()
            .collect();
        found.extend(alone);
    }
    found
}

/// Whether the word `a..b` of `text` is in capitals and known to the
/// dictionary as a word of the language: a heading's word ("CANCEL·LADA"),
/// not a name's ("MACBA", which it does not know).
pub(super) fn shouted_word(text: &str, (a, b): (usize, usize), analysis: &Analysis) -> bool {
    let w = &text[a..b];
    w.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && !w.chars().any(char::is_lowercase)
        // Inside one unit of the dictionary ("CANCEL·LADA" is one word, cut at its "·").
        && analysis.units.iter().any(|u| u.0 <= a && a < u.1 && matches!(u.2, WordKind::Common | WordKind::Function))
}

/// The capitalised run `span` cut at its shouted words ([`shouted_word`]):
/// "XXV Trobada Llaudística NO S'HA FET" → "XXV Trobada Llaudística".
fn without_headings(text: &str, span: (usize, usize), analysis: &Analysis) -> Vec<(usize, usize)> {
    let ws: Vec<(usize, usize)> = words(&text[span.0..span.1]).into_iter().map(|(a, b)| (span.0 + a, span.0 + b)).collect();
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    for w in ws {
        if shouted_word(text, w, analysis) {
            out.extend(open.take());
        } else {
            open = Some(open.map_or(w, |(a, _)| (a, w.1)));
        }
    }
    out.extend(open);
    // A run that starts or ends in a function word or a stop no longer does.
    out.into_iter()
        .filter_map(|(a, b)| {
            let ws = words(&text[a..b]);
            let keep: Vec<&(usize, usize)> =
                ws.iter().filter(|&&(s, e)| !(function_word(&text[a + s..a + e].to_lowercase()) && ws.len() > 1)).collect();
            let (first, last) = (keep.first()?, keep.last()?);
            text[a + first.0..].starts_with(char::is_uppercase).then_some((a + first.0, a + last.1))
        })
        .collect()
}

/// The part of the run `span` that is a name when the run is a public
/// body's: a run that opens with a generic head (`body_head`: "Departament
/// de Cultura de la Generalitat de Catalunya", "Consejería de Cultura y
/// Patrimonio Histórico de la Junta de Andalucía") is the head and its
/// field, which the engine translates like any words ("Département de
/// Culture"), then "de la" and its owner, the name kept ("Generalitat de
/// Catalunya"); the owner is the last such part, as the field may hold one
/// ("Departamento de Historia del Arte de la Universidad de Sevilla"). A
/// run with no owner after an article stays whole; one whose owner right
/// after it is kept already (the gazetteer's "Junta de Andalucía") is no
/// name at all.
fn owner_of_a_body(text: &str, span: (usize, usize)) -> Option<(usize, usize)> {
    let run = &text[span.0..span.1];
    let first = run.split(|c: char| !c.is_alphanumeric()).next().unwrap_or_default().to_lowercase();
    if !body_head(&first) {
        return Some(span);
    }
    const OWNERS: &[&str] = &[" de la ", " del ", " de l'", " de l’", " de los ", " de las ", " dels ", " de les "];
    let after = &text[span.1..];
    if OWNERS.iter().any(|of| after.strip_prefix(of).is_some_and(|rest| rest.starts_with(char::is_uppercase))) {
        return None;
    }
    let owner = OWNERS
        .iter()
        .flat_map(|of| run.match_indices(of).map(|(at, _)| at + of.len()))
        .filter(|&at| run[at..].starts_with(char::is_uppercase))
        .max();
    Some(owner.map_or(span, |at| (span.0 + at, span.1)))
}

/// The capitalised run `span` cut before each public body that a
/// conjunction (and its article) joins to it: "Universidad de Cádiz y la
/// Consejería de Cultura… de la Junta de Andalucía" is two names, the
/// second a body whose head and field the engine translates
/// ([`owner_of_a_body`]); a run joined by "y" to no body head stays one.
fn apart_before_a_body(text: &str, span: (usize, usize)) -> Vec<(usize, usize)> {
    const JOINS: &[&str] = &[" y ", " y la ", " y el ", " e ", " i ", " i la ", " i el ", " i l'", " i l’"];
    let ws: Vec<(usize, usize)> = words(&text[span.0..span.1]).into_iter().map(|(a, b)| (span.0 + a, span.0 + b)).collect();
    let mut out = Vec::new();
    let mut start = span.0;
    for (k, &(a, b)) in ws.iter().enumerate().skip(1) {
        let head = &text[a..b];
        if !head.starts_with(char::is_uppercase) || !body_head(&head.to_lowercase()) {
            continue;
        }
        // The last word before the join, past its article.
        let Some(&(_, end)) = ws[..k].iter().rev().find(|&&(_, e)| JOINS.contains(&&text[e..a])) else { continue };
        if end > start {
            out.push((start, end));
            start = a;
        }
    }
    out.push((start, span.1));
    out
}

/// The capitalised run `span` cut at a "de" that joins a place to a
/// person, a work's author: "(La rosa púrpura del) Cairo de Woody Allen" is
/// the place and the person, and the engine translates the "de" between
/// ("of Woody Allen"). Only where no word before the "de" is a common noun
/// or a given name (a venue's head, "Teatro de…", or a person's own
/// particle, "Lope de Vega", stay whole) and a given name and a
/// capitalised word follow it. Titles only: in running text Apertium moves
/// a word of the sentence before the second name ("la Big Band d'a Arturo
/// Soria comparu").
fn apart_before_an_author(text: &str, span: (usize, usize), analysis: &Analysis) -> Vec<(usize, usize)> {
    let ws: Vec<(usize, usize)> = words(&text[span.0..span.1]).into_iter().map(|(a, b)| (span.0 + a, span.0 + b)).collect();
    let given = |a: usize| analysis.given_names.contains(&a);
    for k in 1..ws.len().saturating_sub(2) {
        let (left, right) = (&ws[..k], &ws[k + 1..]);
        let joined = &text[ws[k].0..ws[k].1] == "de" && &text[left[k - 1].1..right[0].0] == " de ";
        let a_place = left.iter().all(|&(a, _)| !given(a) && matches!(analysis.kind_at(a), Some(WordKind::Proper | WordKind::Unknown)));
        let a_person = given(right[0].0) && text[right[1].0..].starts_with(char::is_uppercase) && &text[right[0].1..right[1].0] == " ";
        if joined && a_place && a_person {
            return vec![(span.0, left[k - 1].1), (right[0].0, span.1)];
        }
    }
    vec![span]
}

/// `span` with the word before it, when that word heads the name: the
/// text's first word ("Aula Deportiva Municipal de Escalada", whose first
/// word no term translates, instead of coming back half translated, "Salle
/// de cours Deportiva"), or a sentence's first word that the dictionary
/// is an adjective the language puts before its noun
/// (`data/lang/{es,ca}/leading-adjectives.txt`): sentence case gives no
/// name away there, and such an adjective sent alone before the kept rest
/// loses its form ("\nGran Teatre del Liceu" came back "Grande Teatre del
/// Liceu"). `ws`: the words of `text`.
fn headed(text: &str, ws: &[(usize, usize)], mut span: (usize, usize), taken: &[(usize, usize)]) -> (usize, usize) {
    let Some(k) = ws.iter().position(|w| w.0 == span.0).filter(|&k| k > 0) else {
        return span;
    };
    let first = ws[k - 1];
    let texts_first = k == 1 && !text[..first.0].chars().any(char::is_alphanumeric);
    let gap = &text[if k >= 2 { ws[k - 2].1 } else { 0 }..first.0];
    // A line break right after an article or a preposition ("el\nGran
    // Teatre del Liceu": the Catalonia agenda wraps its lines) ends no
    // sentence.
    let wrapped = k >= 2 && gap.trim().is_empty() && {
        let before = text[ws[k - 2].0..ws[k - 2].1].to_lowercase();
        function_word(&before) || lang_data::of(Lang::Ca).function_words.has(&before)
    };
    let sentences_adjective = (k == 1 || opens_sentence(gap)) && !wrapped && leading_adjective(&text[first.0..first.1].to_lowercase());
    if (texts_first || sentences_adjective)
        && &text[first.1..span.0] == " "
        && heads_a_name(&text[first.0..first.1])
        && taken.iter().all(|&(a, b)| first.1 <= a || first.0 >= b)
    {
        span.0 = first.0;
    }
    span
}

/// The parts of the capitalised run `span` that the dictionary says are
/// names: none for a run of dictionary words, and "Lucía Montes y Mado
/// Dallery" (Catalan "Lleida i Tarragona") split at its "y" when a name follows it (the engine then
/// translates the "y"; each side is looked at afresh). (Leaving out the
/// common words that open a run, "Concurso de Vinos \[Artesanales\]", cost
/// more names than it mended: "Puente de \[Vallecas\]", "Ara de \[Madrid\]".)
fn by_dictionary(text: &str, span: (usize, usize), analysis: &Analysis, caps: bool, town: &dyn Fn(&str) -> bool) -> Vec<(usize, usize)> {
    if !holds_a_name(text, span, analysis, caps, town) {
        return Vec::new();
    }
    let ws: Vec<(usize, usize)> = words(&text[span.0..span.1]).into_iter().map(|(a, b)| (span.0 + a, span.0 + b)).collect();
    for (k, w) in ws.iter().enumerate().skip(1) {
        // "y", "e", Catalan "i": a lower-case word the dictionary reads as a conjunction.
        let word = &text[w.0..w.1];
        let conjunction = matches!(word, "y" | "e") || (analysis.conjunction_at(w.0) && word.chars().all(char::is_lowercase));
        let joins = conjunction && text[ws[k - 1].1..w.0] == *" ";
        // The second name starts at its first capital, past an article ("y la Fundación…").
        let second = ws.iter().skip(k + 1).find(|&&(a, _)| text[a..].starts_with(char::is_uppercase));
        if let Some(&(second, _)) = second.filter(|_| joins) {
            let (left, right) = ((span.0, ws[k - 1].1), (second, span.1));
            if holds_a_name(text, right, analysis, caps, town) {
                let mut parts = by_dictionary(text, left, analysis, caps, town);
                parts.extend(by_dictionary(text, right, analysis, caps, town));
                return parts;
            }
        }
    }
    vec![span]
}

/// Whether the capitalised run `span` of `text` is a name by the
/// dictionary: it holds a proper noun or a word the dictionary does not
/// know, a word in capitals (a company), a brand's odd spelling, or starts
/// with a given name; a run of dictionary words ("Universo Oscuro") is not.
fn holds_a_name(text: &str, (a, b): (usize, usize), analysis: &Analysis, caps: bool, town: &dyn Fn(&str) -> bool) -> bool {
    let run = &text[a..b];
    let odd = |w: &str| {
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        w.contains('_')
            || (w.chars().skip(1).any(char::is_uppercase) && w.chars().any(char::is_lowercase))
            || (letters >= 2 && w.chars().any(|c| c.is_ascii_digit()))
            || (caps && letters >= 2 && !w.chars().any(char::is_lowercase))
    };
    // Running text: a run in capitals is a heading ("CICLO MARIDAJES
    // SONOROS"), a name only when the dictionary knows none of its words ("BARBIERI").
    let shouted = run.chars().any(char::is_alphabetic) && !run.chars().any(char::is_lowercase);
    if !caps && shouted {
        return words(run).iter().all(|&(s, _)| {
            matches!(analysis.kind_at(a + s), Some(WordKind::Proper | WordKind::Unknown) | None)
                || connector(&run[s..].split(' ').next().unwrap_or("").to_lowercase())
        });
    }
    // "Castilla", "Navidad": proper nouns every language has its own word for.
    // A town whose name is also an ordinary word ("Sala Granada", where the
    // dictionary reads a pomegranate too).
    let own_word = |s: usize, e: usize| {
        let word = run[s..e].to_lowercase();
        town(&word) || (!not_a_name_start(&word) && analysis.names_within(a + s, a + e))
    };
    names_a_person(text, (a, b), analysis) || words(run).iter().any(|&(s, e)| odd(&run[s..e]) || own_word(s, e))
}

/// Whether the capitalised run `a..b` of `text` is a person's name: it
/// starts with a given name of `data/lang/es/given-names.txt`, or holds a
/// word the dictionary knows as a given name too followed by another
/// capitalised word ("Paloma Pedrero", "Gloria Fuertes").
fn names_a_person(text: &str, (a, b): (usize, usize), analysis: &Analysis) -> bool {
    let run = &text[a..b];
    let ws = words(run);
    let first = ws.first().map(|&(s, e)| run[s..e].to_lowercase()).unwrap_or_default();
    // A given name, then (past the particles of a name: "Lope de Rueda",
    // "Gerardo de Vega") a capitalised word: the whole run is the person's.
    let particles_then_capital = |i: usize| {
        let mut j = i + 1;
        while ws.get(j).is_some_and(|&(s, e)| connector(&run[s..e])) {
            j += 1;
        }
        ws.get(j).is_some_and(|&(s, _)| run[s..].starts_with(char::is_uppercase))
            && run[ws[i].1..ws[j].0].split(' ').all(|w| w.is_empty() || connector(w))
    };
    given_name(&first) || (0..ws.len()).any(|i| analysis.given_name_at(a + ws[i].0) && particles_then_capital(i))
}

/// Whether a text's first word may head the name that follows it: a
/// capitalised word, not in capitals, not a function word.
fn heads_a_name(word: &str) -> bool {
    let lower = word.to_lowercase();
    word.starts_with(char::is_uppercase) && word.chars().any(char::is_lowercase) && !function_word(&lower) && !not_a_name_start(&lower)
}

#[cfg(test)]
mod tests {
    use super::super::analyser::Analyser;
    use super::Known;

    /// The names `find` keeps in a title, with Apertium's Spanish analysis.
    fn kept(analyser: &mut Analyser, text: &str) -> Vec<String> {
        let analysis = analyser.analyse(text).unwrap();
        super::find(text, &[], &[], &Known { analysis: Some(&analysis), ..Known::default() })
            .into_iter()
            .map(|(a, b)| text[a..b].to_string())
            .collect()
    }

    /// A place and the author of a work that follows it are two names, the
    /// "de" between them the engine's ("La rosa púrpura del Cairo de Woody
    /// Allen" came back "…of the Cairo de Woody Allen"); a person's own
    /// particle, a venue named after someone and such a run in running text
    /// stay whole.
    #[test]
    fn a_work_s_author_after_a_place_is_a_name_of_its_own() {
        let Ok(mut analyser) = Analyser::system_for_code("es") else {
            assert!(std::env::var_os("CI").is_none(), "CI must have apertium-eng-spa (make deps)");
            eprintln!("skipped: no Spanish analyser (make deps)");
            return;
        };
        assert_eq!(kept(&mut analyser, "La rosa púrpura del Cairo de Woody Allen"), ["Cairo", "Woody Allen"]);
        assert_eq!(kept(&mut analyser, "Homenaje a Lope de Vega"), ["Lope de Vega"]);
        assert_eq!(kept(&mut analyser, "Visita al Teatro de Federico García Lorca"), ["Teatro de Federico García Lorca"]);
        // Running text: Apertium would move a word before the second name.
        let text = "Luego la Big Band de Arturo Soria ha actuado";
        let analysis = analyser.analyse(text).unwrap();
        let found: Vec<&str> = super::find(text, &[], &[], &Known { analysis: Some(&analysis), running_text: true, ..Known::default() })
            .into_iter()
            .map(|(a, b)| &text[a..b])
            .collect();
        assert_eq!(found, ["Big Band de Arturo Soria"]);
    }

    /// Two names joined by "y la" are two names, the article the engine's
    /// with the "y" ("Centro Superior y la Fundación Katarina Gurska" was
    /// kept from "la" on); an acronym the dictionary reads as a numeral
    /// is a name ("CMM Antonio Mingote y CMM Santa Engracia").
    #[test]
    fn the_second_of_two_joined_names_starts_at_its_capital() {
        let Ok(mut analyser) = Analyser::system_for_code("es") else {
            assert!(std::env::var_os("CI").is_none(), "CI must have apertium-eng-spa (make deps)");
            eprintln!("skipped: no Spanish analyser (make deps)");
            return;
        };
        let mut found = |text: &str| -> Vec<String> {
            let analysis = analyser.analyse(text).unwrap();
            super::find(text, &[], &[], &Known { analysis: Some(&analysis), running_text: true, ..Known::default() })
                .into_iter()
                .map(|(a, b)| text[a..b].to_string())
                .collect()
        };
        assert_eq!(found("organizado por el Centro Superior y la Fundación Katarina Gurska, es ya"), ["Fundación Katarina Gurska"]);
        assert_eq!(
            found("Excursión única para CMM Antonio Mingote y CMM Santa Engracia"),
            ["CMM", "Antonio Mingote", "CMM", "Santa Engracia"]
        );
    }

    /// A run that joins a body to another name by "y la" is two names, the
    /// body's head and field left to the engine ("Universidad de Cádiz y la
    /// Consejería de Cultura…" was kept whole, "Consejería" and all).
    #[test]
    fn a_body_joined_to_another_name_is_apart() {
        let text = "Organizada por la Universidad de Cádiz y la Consejería de Cultura y Patrimonio Histórico de la Junta de Andalucía";
        let kept: Vec<&str> =
            super::find(text, &[], &[], &Known { running_text: true, ..Known::default() }).into_iter().map(|(a, b)| &text[a..b]).collect();
        assert_eq!(kept, ["Universidad de Cádiz", "Junta de Andalucía"]);
        let text = "Con la Consejería de Cultura y Deporte";
        let kept: Vec<&str> =
            super::find(text, &[], &[], &Known { running_text: true, ..Known::default() }).into_iter().map(|(a, b)| &text[a..b]).collect();
        assert_eq!(kept, ["Consejería de Cultura y Deporte"]);
    }
}
