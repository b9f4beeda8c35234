//! The runs of a Spanish text that its capitals give away as names:
//! sentence case capitalises a sentence's first word and names alone
//! ("Ciclo de cine de Eloy de la Iglesia"), so a capitalised word elsewhere
//! starts a name, with the capitalised words and connectors after it; words
//! in capitals ("KIKO VENENO"), a brand's spelling ("Inspira_DOS") and a
//! leading ordinal ("VI Feria") do too; and, in titles, the names that carry
//! their article ("Jardín El Capricho").
//!
//! Not for: which of these runs the dictionary takes for names (`names`),
//! or the word lists it reads (`words`).

use super::words::{connector, function_word, given_name, not_a_name_start, opens_sentence, spanish, words};

/// Proper-noun spans given away by Spanish sentence case: a capitalised word
/// that does not start a sentence, with the capitalised words and connectors
/// (`de`, `del`, `la`, `y`…) that follow it ("Puente de Vallecas"); words in
/// capitals ("KIKO VENENO") too. Nothing in a title-case text, and no
/// capitals in an all-capitals one: they say nothing about names.
/// `dictionary_name` says whether the word at a byte offset is a name by
/// the dictionary, so that it may start a span where a sentence starts too.
/// `sentence_cased` (an original that writes titles in sentence case,
/// Catalan): a capitalised function word inside a sentence, right before a
/// word that is a name by the dictionary, opens that name ("Pau Riba i De
/// Mortimers", "ZA! & La TransMegaCobla") and says nothing of title case.
pub(super) fn sentence_case_names(text: &str, dictionary_name: &dyn Fn(usize) -> bool, sentence_cased: bool) -> Vec<(usize, usize)> {
    let ws = words(text);
    if ws.is_empty() {
        return Vec::new();
    }
    let info = word_info(text, &ws);
    // Title case capitalises function words too ("Concierto De La Banda"):
    // sentence case never does, except in a name's first word.
    // "And" between two words in capitals joins a name ("MARGARITO Y CIA.").
    let in_caps =
        |i: usize| matches!(info[i].lower.as_str(), "y" | "e") && i > 0 && info[i - 1].caps && info.get(i + 1).is_some_and(|n| n.caps);
    // A sentence-cased original's capitalised function word before a
    // dictionary name is that name's first word ("De Mortimers").
    let opens_a_name = |i: usize| {
        let w = &info[i];
        sentence_cased
            && !w.initial
            && w.capital
            && !w.caps
            && function_word(&w.lower)
            && info.get(i + 1).is_some_and(|n| n.capital && !n.caps && text[w.b..n.a] == *" " && dictionary_name(n.a))
    };
    let function_caps = (0..info.len())
        .filter(|&i| {
            let w = &info[i];
            !w.initial && w.capital && !w.caps && function_word(&w.lower) && !in_caps(i) && !opens_a_name(i)
        })
        .count();
    let lower_content = info.iter().filter(|w| !w.capital && w.lower.chars().count() >= 4).count();
    if function_caps >= 2 || (function_caps == 1 && lower_content == 0) {
        return Vec::new();
    }
    let letters: usize = text.chars().filter(|c| c.is_alphabetic()).count();
    let upper: usize = text.chars().filter(|c| c.is_uppercase()).count();
    // A short text in capitals is a name ("KIKO VENENO"); a long one shouts.
    let shouting = letters > 0 && upper * 10 > letters * 8 && info.len() > 4;
    let mut spans = Vec::new();
    let mut i = 0;
    while i < info.len() {
        let w = &info[i];
        let numeral = super::ordinals::roman(&text[w.a..w.b]).is_some();
        // A leading ordinal ("VI Feria", "V Concurso"): engines read it as a
        // word ("I saw"). One letter is an ordinal only before a word the
        // dictionary does not take for a name ("I Love Lucy" is English).
        let ordinal = numeral && !shouting && w.initial && info.get(i + 1).is_some_and(|n| n.capital && (w.caps || !dictionary_name(n.a)));
        let starts = (w.caps && !shouting && !numeral)
            || ordinal
            || w.odd
            || (w.capital && given_name(&w.lower) && info.get(i + 1).is_some_and(|n| n.capital || connector(&n.lower)))
            || (w.capital && !w.initial && !w.caps && !function_word(&w.lower) && !not_a_name_start(&w.lower))
            || (w.capital && w.initial && !w.caps && dictionary_name(w.a) && info.get(i + 1).is_some_and(|n| n.capital))
            || opens_a_name(i);
        if !starts {
            i += 1;
            continue;
        }
        if numeral {
            // An ordinal on its own: what follows is looked at afresh.
            spans.push((w.a, w.b));
            i += 1;
            continue;
        }
        // Words apart by blanks only (never none: words are maximal runs).
        let blank = |j: usize| text[info[j - 1].b..info[j].a].chars().all(|c| c == ' ');
        // "CICLO MARIDAJES SONOROS Poulenc": a heading in capitals ends
        // where a word in sentence case starts.
        let heading_ends = |j: usize| {
            let n = &info[j];
            info[j - 1].caps && n.capital && !n.odd && text[n.a..n.b].chars().any(char::is_lowercase)
        };
        let end = run_end(&info, i, blank, |k| connector(&info[k].lower), heading_ends);
        spans.push((info[i].a, info[end].b));
        i = end + 1;
    }
    spans
}

/// Names that carry their article (`es/article-names.tsv`): a capitalised
/// article inside a sentence before a capitalised word, with the
/// capitalised words and connectors after it ("Jardín El Capricho", "por La
/// Latina y Lavapiés"); kept whatever the dictionary says of their words.
/// In a text in title case, only an article left apart from the
/// preposition it contracts with ("Rincones de El Retiro"). Titles only.
pub(super) fn article_names(text: &str) -> Vec<(usize, usize)> {
    let ws = words(text);
    let info = word_info(text, &ws);
    let sentence_case = info.iter().any(|w| !w.capital && w.lower.chars().count() >= 4 && !function_word(&w.lower));
    let spaced = |i: usize, j: usize| text[info[i].b..info[j].a] == *" ";
    let mut out = Vec::new();
    for i in 1..info.len().saturating_sub(1) {
        let (w, prev, next) = (&info[i], &info[i - 1], &info[i + 1]);
        let Some(row) = spanish().article_names.rows().find(|r| r[0] == &text[w.a..w.b]) else { continue };
        if w.initial || !next.capital || next.caps || !spaced(i, i + 1) {
            continue;
        }
        let contracts = row.get(1).is_some_and(|ps| ps.split(' ').any(|p| p == prev.lower));
        if !(sentence_case || (contracts && !prev.capital && spaced(i - 1, i))) {
            continue;
        }
        // "de", "del", "la"… join; "y" joins two names, each kept on its own.
        let joins = |k: usize| connector(&info[k].lower) && !matches!(info[k].lower.as_str(), "y" | "e" | "i") && spaced(k - 1, k);
        let end = run_end(&info, i + 1, |j| spaced(j - 1, j), joins, |_| false);
        out.push((w.a, info[end].b));
    }
    out
}

/// The last word of a name run that reaches word `end`: it goes on over
/// each capitalised word that does not start a sentence, and over one or
/// two lower-case connectors that a capitalised word follows. `blank(j)`:
/// the gap before word `j` may stand inside a name; `joins(k)`: word `k`
/// is a connector that may join; `ends(j)`: the run stops before word `j`.
fn run_end(info: &[Word], end: usize, blank: impl Fn(usize) -> bool, joins: impl Fn(usize) -> bool, ends: impl Fn(usize) -> bool) -> usize {
    let (mut end, mut j) = (end, end + 1);
    while j < info.len() && blank(j) && !ends(j) {
        if info[j].capital && !info[j].initial {
            end = j;
            j += 1;
            continue;
        }
        // Connectors join only when a capitalised word follows them.
        match (j..info.len().min(j + 2)).take_while(|&k| joins(k) && !info[k].capital).last() {
            Some(k) if k + 1 < info.len() && info[k + 1].capital && blank(k + 1) => {
                end = k + 1;
                j = k + 2;
            }
            _ => break,
        }
    }
    end
}

/// Each word of `text` (at `ws`) with what the name finder asks of it.
fn word_info(text: &str, ws: &[(usize, usize)]) -> Vec<Word> {
    ws.iter()
        .enumerate()
        .map(|(i, &(a, b))| {
            let w = &text[a..b];
            let first = w.chars().next().unwrap_or(' ');
            let letters = w.chars().filter(|c| c.is_alphabetic()).count();
            Word {
                a,
                b,
                capital: first.is_uppercase(),
                caps: letters >= 2 && w.chars().all(|c| !c.is_lowercase()),
                // "Inspira_DOS", "CaixaForum", "Face2Face": a brand, wherever it stands.
                odd: w.contains('_')
                    || (w.chars().skip(1).any(char::is_uppercase) && w.chars().any(char::is_lowercase))
                    || (w.chars().any(char::is_alphabetic) && w.chars().any(|c| c.is_ascii_digit()) && letters >= 2),
                initial: i == 0 || opens_sentence(&text[ws[i - 1].1..a]) || super::ordinals::leads(&text[..a]),
                lower: w.to_lowercase(),
            }
        })
        .collect()
}

struct Word {
    a: usize,
    b: usize,
    capital: bool,
    caps: bool,
    odd: bool,
    initial: bool,
    lower: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&str> {
        sentence_case_names(text, &|_| false, false).into_iter().map(|(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn sentence_case_gives_names_away() {
        assert_eq!(names("Ciclo de cine de Eloy de la Iglesia"), ["Eloy de la Iglesia"]);
        assert_eq!(names("Eloy de la Iglesia, cineasta"), ["Eloy de la Iglesia"]);
        assert_eq!(names("Ballet Ara de Madrid"), ["Ara de Madrid"]);
        assert_eq!(names("Paseo por Puente de Vallecas y Usera"), ["Puente de Vallecas y Usera"]);
        assert_eq!(names("Concierto de Joel Blanco. La música del Río"), ["Joel Blanco", "Río"]);
        assert_eq!(names("'Zumbados' (TEATRO ATÓPICO)"), ["TEATRO ATÓPICO"]);
        assert_eq!(names("Inspira_DOS: cuentos con Face2Face"), ["Inspira_DOS", "Face2Face"]);
        assert!(names("Acto por la llegada del pueblo gitano a España en Navidad").is_empty());
    }

    #[test]
    fn initial_and_function_words_are_not_names() {
        assert!(names("Exposición de pintura").is_empty());
        assert!(names("Taller: La vida es bella").is_empty());
        assert!(names("El patio de recreo. Descubre las aves").is_empty());
        assert!(names("Concierto De La Banda Municipal De Música").is_empty());
        assert_eq!(names("Carlos III y Urraca I"), ["Carlos III y Urraca I"]);
        assert_eq!(names("Visita a Carlos III"), ["Carlos III"]);
    }

    /// A company in capitals keeps its "Y"; a leading ordinal is kept on its
    /// own ("VI Feria" was English "I saw Feria").
    #[test]
    fn a_company_in_capitals_keeps_its_y_and_a_leading_ordinal_stands_alone() {
        assert_eq!(names("'Clowntalent' (MARGARITO Y CIA.)"), ["MARGARITO Y CIA"]);
        // The word after a leading ordinal opens the title: its capital says nothing.
        assert_eq!(names("VI Feria de Enoturismo"), ["VI", "Enoturismo"]);
        assert_eq!(names("XXV Semana de la Ciencia"), ["XXV", "Ciencia"]);
        assert!(names("`VIAJE A LO INHUMANO´").is_empty());
        assert!(names("Siglo XIX").is_empty());
    }

    /// In a Catalan title (sentence case), a capitalised function word
    /// before a word the dictionary takes for a name opens that name; before
    /// a dictionary word it is still title case, and nothing is a name.
    #[test]
    fn a_capitalised_article_before_a_name_opens_it_in_a_sentence_cased_title() {
        let unknown = |text: &'static str, words: &'static [&'static str]| move |a: usize| words.iter().any(|w| text.find(w) == Some(a));
        let text = "Pau Riba i De Mortimers";
        let found: Vec<&str> =
            sentence_case_names(text, &unknown(text, &["Pau", "Mortimers"]), true).into_iter().map(|(a, b)| &text[a..b]).collect();
        assert_eq!(found, ["Pau Riba i De Mortimers"]);
        assert!(sentence_case_names(text, &unknown(text, &["Pau", "Mortimers"]), false).is_empty());
        let text = "Concert De Nadal";
        assert!(sentence_case_names(text, &unknown(text, &[]), true).is_empty());
    }
}
