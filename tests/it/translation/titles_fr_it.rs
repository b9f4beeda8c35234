//! Titles in French and Italian, through the binary with real Apertium and a
//! real SQLite file: French and Italian titles as the real feeds showed them
//! wrong. The capital Apertium's French gives the word after a first word
//! it copies ("Pachanga Foot", "« Atelier Adultes »") is undone; words the
//! engines left in Spanish or misread come from the term base ("Une guarida
//! avec lumière", "Vicini un'altra volta"); a term's article takes the
//! term's gender in French too ("La roman graphique").
//!
//! Not for: the term base's matching rules (unit tests in `terms`) or the
//! lead's finding (unit tests in `prepare`).
use crate::translation::quality::titles_in;

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\n[sources.madrid]\nenabled = true\n";

/// A French title is written in sentence case; Apertium takes the
/// word after a first word it copies, or after a quoted leading term, for
/// a sentence's first and capitalises it where the Spanish has none.
#[test]
fn french_titles_keep_no_capital_after_a_copied_first_word() {
    let Some([fr_titles]) = titles_in(
        CONFIG,
        ["fr"],
        &["Pachanga fútbol", "'Taller adultos'", "Danza Barroca", "Chiribitas, la mujer chirriquitica", "La flauta mágica"],
    ) else {
        return;
    };
    let fr = |id: &str| fr_titles[id].clone();
    assert_eq!(fr("1"), "Pachanga foot");
    assert_eq!(fr("2"), "«\u{a0}Atelier adultes\u{a0}»");
    assert_eq!(fr("3"), "Danse baroque");
    assert!(fr("4").starts_with("Chiribitas, la femme"), "{}", fr("4"));
    // An article opening the title leads nothing: the engine's own title stays.
    assert_eq!(fr("5"), "La Flûte enchantée");
}

/// Senses the real feeds' titles repeat and the engines left in
/// Spanish or misread, in French and Italian; the article before a French
/// term agrees with it (`data/lang/fr/genders.tsv`).
#[test]
fn french_and_italian_title_words_from_the_term_base() {
    let Some([fr, it]) = titles_in(
        CONFIG,
        ["fr", "it"],
        &["Una guarida con luz", "Juntos otra vez", "La novela gráfica del mes", "Música de la Edad Media", "Club de lectura"],
    ) else {
        return;
    };
    let by_lang = [("fr", fr), ("it", it)];
    let title = |lang: &str, id: &str| by_lang.iter().find(|(l, _)| *l == lang).unwrap().1[id].clone();
    assert!(title("fr", "1").starts_with("Un repaire"), "{}", title("fr", "1"));
    assert!(title("it", "1").starts_with("Una tana"), "{}", title("it", "1"));
    assert_eq!(title("fr", "2"), "Ensemble de nouveau");
    assert_eq!(title("it", "2"), "Insieme di nuovo");
    assert!(title("fr", "3").starts_with("Le roman graphique"), "{}", title("fr", "3"));
    assert!(title("fr", "4").ends_with("du Moyen Âge"), "{}", title("fr", "4"));
    assert!(title("it", "4").ends_with("del Medioevo"), "{}", title("it", "4"));
    assert_eq!(title("it", "5"), "Club di lettura");
}
