//! Spanish words a reader cannot read, through the binary
//! with real Apertium and a real SQLite file: a word the route of
//! `data/translate/routes.tsv` leaves as the original wrote it goes alone
//! through the second route `data/translate/unknown-words.tsv` names, and is
//! taken where that route knows it; every example of that file holds, and
//! the word is never put where it would break the text.
use crate::common::{has_apertium, workdir};
use crate::translation::quality::{listed, record, run, write_feed};

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\n[sources.madrid]\nenabled = true\n";
const TABLE: &str = include_str!("../../../data/translate/unknown-words.tsv");

/// One example of the table: target language, field, original, the word.
struct Example {
    lang: &'static str,
    field: &'static str,
    text: &'static str,
    word: &'static str,
}

fn examples() -> Vec<Example> {
    TABLE
        .lines()
        .filter_map(|l| l.strip_prefix("# example: es "))
        .map(|l| {
            let (head, word) = l.split_once(" => ").expect("example: es LANG FIELD: TEXT => WORD");
            let (lang_field, text) = head.split_once(": ").expect("example: es LANG FIELD: TEXT => WORD");
            let (lang, field) = lang_field.split_once(' ').expect("example: es LANG FIELD: TEXT => WORD");
            Example { lang, field, text, word }
        })
        .collect()
}

/// Every example of the table: the word the direct pair leaves in Spanish
/// ("sexualidad" in Portuguese) reaches the reader translated.
#[test]
fn every_example_of_the_second_opinions_holds() {
    if !has_apertium() {
        return;
    }
    let examples = examples();
    assert!(examples.len() >= 6, "the table's examples were not read");
    let dir = workdir(CONFIG);
    let records: Vec<_> = examples
        .iter()
        .enumerate()
        .map(|(k, e)| match e.field {
            "title" => record(&format!("{}", k + 1), e.text, "", "Centro Cultural"),
            _ => record(&format!("{}", k + 1), "Taller", e.text, "Centro Cultural"),
        })
        .collect();
    write_feed(dir.path(), &records);
    run(dir.path());
    for (k, e) in examples.iter().enumerate() {
        let events = listed(dir.path(), e.lang);
        let got = events[&format!("{}", k + 1)][e.field].as_str().unwrap_or_default().to_string();
        assert!(got.contains(e.word), "{} {}: {:?} should hold {:?}, got {got:?}", e.lang, e.field, e.text, e.word);
    }
}

/// The word goes in where it fits: not after an elided article it does not
/// open as (Italian "L'evangelio" never becomes "L'vangelo"), never inside
/// the publisher's web address, and never for an English word written into
/// the Spanish.
#[test]
fn a_second_opinion_never_breaks_an_elision_or_an_address() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(
        dir.path(),
        &[
            record("1", "El evangelio según San Mateo", "", "Cine Doré"),
            record(
                "2",
                "Carrusel ambulante",
                "Más en https://www.ejemplo.es/espectaculos/carrusel-ambulante-evangelio/ y en la taquilla.",
                "Teatro",
            ),
            record("3", "Fiesta de disfraces: party time!", "", "Teatro"),
        ],
    );
    run(dir.path());
    // "time" is English in the Spanish title, not the verb "timar".
    for lang in ["fr", "it", "pt"] {
        let title = listed(dir.path(), lang)["3"]["title"].as_str().unwrap_or_default().to_string();
        assert!(title.contains("time"), "{lang}: an English word stays English: {title:?}");
    }
    let it = listed(dir.path(), "it");
    let title = it["1"]["title"].as_str().unwrap();
    assert!(!title.contains("L'v") && !title.contains("l'v"), "an elided article before a consonant: {title:?}");
    for lang in ["en", "fr", "it", "pt"] {
        let events = listed(dir.path(), lang);
        let description = events["2"]["description"].as_str().unwrap_or_default();
        assert!(
            description.contains("https://www.ejemplo.es/espectaculos/carrusel-ambulante-evangelio/"),
            "{lang}: the address must stay the publisher's: {description:?}"
        );
    }
}
