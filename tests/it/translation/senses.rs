//! Senses, through the binary with real Apertium and a real SQLite
//! file: senses the real feeds repeat and the engines misread come from the
//! term base ("Apúntate" is no "Aim you", an archive's "documento
//! destacado" no "Document Stood Out", a concert hall's "temporada de
//! abono" no "Credit Season"), and a street's name keeps its street word
//! while the word alone is translated ("calle Julio Merino" / "sale a la
//! calle").
//!
//! Not for: the term base's own matching rules (unit tests in `terms`).
use crate::common::{has_apertium, workdir};
use crate::translation::quality::{listed, record, run, write_feed};

const CONFIG: &str = "[settings]\ntranslator = \"apertium\"\n[sources.madrid]\nenabled = true\n";

/// Each recurring sense reads right in every language the
/// engines misread it in.
#[test]
fn senses_the_real_feeds_repeat_read_right() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    write_feed(
        dir.path(),
        &[
            record("1", "Documento destacado: el fuero de Madrid", "Apúntate en el mostrador de la biblioteca.", "Sala X"),
            record("2", "Concierto de la temporada de abono", "Si tienes 20 años, apúntate aquí.", "Sala X"),
            record("3", "Sesión informativa online", "", "Sala X"),
        ],
    );
    run(dir.path());
    let field = |lang: &str, id: &str, f: &str| listed(dir.path(), lang)[id][f].as_str().unwrap().to_string();
    let en = |id: &str, f: &str| field("en", id, f);
    assert!(en("1", "title").starts_with("Featured Document"), "{}", en("1", "title"));
    assert!(en("1", "description").starts_with("Sign up"), "{}", en("1", "description"));
    assert!(en("2", "title").contains("Subscription Season"), "{}", en("2", "title"));
    assert!(
        en("3", "title").starts_with("Online Information Session") || en("3", "title").starts_with("Information Session"),
        "{}",
        en("3", "title")
    );
    assert!(field("fr", "1", "title").starts_with("Document remarquable"), "{}", field("fr", "1", "title"));
    assert!(field("fr", "1", "description").starts_with("Inscrivez-vous"), "{}", field("fr", "1", "description"));
    assert!(field("fr", "2", "title").contains("saison d'abonnement"), "{}", field("fr", "2", "title"));
    assert!(field("it", "1", "title").starts_with("Documento in evidenza"), "{}", field("it", "1", "title"));
    assert!(field("it", "1", "description").starts_with("Iscriviti"), "{}", field("it", "1", "description"));
    assert!(field("pt", "1", "description").starts_with("Inscreve-te"), "{}", field("pt", "1", "description"));
    assert!(field("pt", "2", "title").contains("assinaturas"), "{}", field("pt", "2", "title"));
    // An imperative wherever it stands: the real feed's "Si tienes entre 16
    // y 26 años, apúntate AQUÍ" stayed Spanish in Italian.
    for lang in ["en", "fr", "it", "pt"] {
        let text = field(lang, "2", "description");
        assert!(!text.to_lowercase().contains("apúntate") && !text.contains("Aim you"), "{lang}: {text}");
    }
    assert!(field("it", "2", "description").contains("iscriviti"), "{}", field("it", "2", "description"));
}

/// In English, a street's name keeps its Spanish street
/// word, capitalised as a name ("on Calle Julio Merino", not "in the calle
/// Julio Merino"); the word alone is a street.
#[test]
fn a_street_keeps_its_name_and_the_word_alone_is_translated() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(CONFIG);
    let description = "Salida en la calle Julio Merino, 2. El niño sale a la calle en busca de aire.";
    write_feed(dir.path(), &[record("1", "Paseo por el barrio", description, "Sala X")]);
    run(dir.path());
    let text = listed(dir.path(), "en")["1"]["description"].as_str().unwrap().to_string();
    assert!(text.contains("on Calle Julio Merino, 2"), "{text}");
    assert!(text.contains("street") && !text.contains(" calle "), "{text}");
}
