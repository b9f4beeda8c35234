//! Through the binary, with real Apertium and a real SQLite file, on real
//! Madrid titles (2025-10, `../shared/realdata/`): a word alone between
//! two kept names stays between them. Each kept name reaches the engine as
//! a span its rules read as a blank, so in "De Casa de Campo a Madrid Río
//! I" the "a" stood beside "De": Galician and Portuguese wrote "Da Casa de
//! Campo Madrid Río I" and Catalan "D'I. Casa de Campo Madrid Río", where
//! plain Apertium keeps the "a". Into the languages that write the word as
//! Spanish does (`data/lang/es/name-joins.tsv`), the two names and the
//! word are kept as one.
//!
//! Through Catalan, Italian and Portuguese descriptions get the words
//! Apertium moved from after a kept name to before it back after it
//! ("Exposición de Pirograbados en madera" came back "Mostra di in
//! Pirograbados legno", `data/lang/{it,pt}/moved-words.txt`), and
//! "Para todos los públicos" is no Italian "Per per tutti"
//! (`data/terms/es-it.tsv`).
//!
//! A preposition and an article the engine left apart before a kept name
//! join as Portuguese and Galician write them ("Tributo aos Grandes de la
//! Copla").
//!
//! Not for: the rules' own examples (the data files' `# example` lines,
//! run by `every_example_in_the_language_data_holds`).
use crate::common::{
    MADRID_2025_10, field_from, listed_all, madrid_feed_cut_to, place, realdata_translated, run_each_from, titles_all, workdir,
};
use serde_json::Value;
use std::collections::HashMap;

const MADRID: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
/// "De Casa de Campo a Madrid Río I", "Del Cerro del Tío Pío a Ruta
/// Escultórica de Palomeras: del Mirador del Cerro a Entrevías".
const IDS: &[&str] = &["12399262", "12278881"];

/// The titles of the real Madrid records `ids` (descriptions left out) in
/// Galician, Portuguese and Catalan, by language and id; `None` without
/// the real feed.
fn titles_in_gl_pt_ca(ids: &[&str]) -> Option<HashMap<&'static str, HashMap<String, String>>> {
    let [madrid] = realdata_translated([MADRID_2025_10])?;
    let config =
        "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"pt\", \"ca\", \"gl\"]\n\n[sources.madrid]\nenabled = true\n";
    let dir = workdir(config);
    let (d, mirror) = (dir.path(), dir.path().join("mirror"));
    place(&mirror, MADRID, &madrid_feed_cut_to(&madrid, ids, |r| r["description"] = Value::String(String::new())));
    run_each_from(d, &mirror, &["madrid"]);
    Some(["gl", "pt", "ca"].into_iter().map(|lang| (lang, titles_all(d, lang))).collect())
}

#[test]
fn a_word_between_two_kept_names_stays_between_them_in_real_titles() {
    let Some(titles) = titles_in_gl_pt_ca(IDS) else {
        return;
    };
    for (lang, title) in titles {
        let route = &title["12399262"];
        assert!(route.contains("Casa de Campo a Madrid Río"), "{lang}: {route}");
        assert!(!route.starts_with("Da ") && !route.starts_with("D'I"), "{lang}: {route}");
        let hill = &title["12278881"];
        assert!(hill.contains("Cerro del Tío Pío a Ruta Escultórica de Palomeras"), "{lang}: {hill}");
        assert!(!hill.contains("l'a "), "{lang}: {hill}");
    }
}

/// "Entreparques. De Concha Espina a Plaza de Castilla" (Madrid 12278896),
/// where only the first place is kept and the engine translates the
/// second: the "a" after the kept name stays (it came back Galician "Da
/// Concha Espina Praza de Castela", Catalan "De Concha Espina Plaza de
/// Castella"). And the colon after two joined names stays after them:
/// "Del Cerro del Tío Pío a Ruta Escultórica de Palomeras: del Mirador…"
/// (12278881, 12278885) came back Catalan "Del : Cerro del Tío Pío…".
#[test]
fn a_word_after_a_kept_name_and_a_colon_after_joined_names_stay_in_real_titles() {
    let Some(titles) = titles_in_gl_pt_ca(&["12278896", "12278881", "12278885"]) else {
        return;
    };
    for (lang, title) in titles {
        let parks = &title["12278896"];
        assert!(parks.contains("De Concha Espina a "), "{lang}: {parks}");
        assert!(!parks.contains("Da Concha"), "{lang}: {parks}");
        let (hill, aluche) = (&title["12278881"], &title["12278885"]);
        assert!(hill.contains("Palomeras: ") && !hill.contains(" : "), "{lang}: {hill}");
        assert!(aluche.contains("Madrid Río: ") && !aluche.contains(" : "), "{lang}: {aluche}");
    }
}

/// "Actuación Musical: 'Tributo a los Grandes de la Copla'" (Madrid
/// 50060688): with the work's title kept, the engine leaves the
/// preposition and the plural article apart, Portuguese and Galician
/// "Tributo a os Grandes de la Copla"; each language joins them as it
/// writes them ("aos", `data/lang/{pt,gl}/contractions.tsv`).
#[test]
fn a_preposition_and_a_plural_article_before_a_kept_title_join_in_real_titles() {
    let Some(titles) = titles_in_gl_pt_ca(&["50060688"]) else {
        return;
    };
    for lang in ["pt", "gl"] {
        let tribute = &titles[lang]["50060688"];
        assert!(tribute.contains("Tributo aos Grandes") && !tribute.contains(" a os "), "{lang}: {tribute}");
    }
}

/// Descriptions, each cut to the sentence that names the kept name:
/// "Exposición de Pirograbados en madera…", "…la primera arma de Toledo
/// con fama mundial…", "Compañía Rafe de Usera con el cuarteto Versátil.
/// Para todos los públicos."
const MOVED: &[(&str, &str)] = &[("50061769", "Exposición de"), ("50079740", "Alta tecnología"), ("50064749", "Compañía Rafe")];

#[test]
fn a_word_moved_before_a_kept_name_through_catalan_goes_back_after_it_in_real_descriptions() {
    let Some([madrid]) = realdata_translated([MADRID_2025_10]) else {
        return;
    };
    let config = "[settings]\ntranslator = \"apertium\"\nlanguages = [\"es\", \"it\", \"pt\"]\n\n[sources.madrid]\nenabled = true\n";
    let dir = workdir(config);
    let (d, mirror) = (dir.path(), dir.path().join("mirror"));
    let ids: Vec<&str> = MOVED.iter().map(|(id, _)| *id).collect();
    let cut = |r: &mut Value| {
        let id = r["id"].as_str().unwrap_or_default().to_string();
        let Some((_, opening)) = MOVED.iter().find(|(i, _)| id == *i) else { return };
        field_from(r, "description", opening, 160);
    };
    place(&mirror, MADRID, &madrid_feed_cut_to(&madrid, &ids, cut));
    run_each_from(d, &mirror, &["madrid"]);
    let (it, pt) = (listed_all(d, "it"), listed_all(d, "pt"));
    let text =
        |events: &std::collections::HashMap<String, Value>, id: &str| events[id]["description"].as_str().unwrap_or_default().to_string();
    let (it1, pt1) = (text(&it, "50061769"), text(&pt, "50061769"));
    assert!(it1.contains("Pirograbados in ") && !it1.contains("di in Pirograbados"), "{it1}");
    assert!(pt1.contains("Pirograbados em ") && !pt1.contains("de em Pirograbados"), "{pt1}");
    let (it2, pt2) = (text(&it, "50079740"), text(&pt, "50079740"));
    assert!(it2.contains("Toledo con ") && !it2.contains("di con Toledo"), "{it2}");
    assert!(pt2.contains("Toledo com ") && !pt2.contains("de com Toledo"), "{pt2}");
    let it3 = text(&it, "50064749");
    assert!(!it3.contains("di con Usera") && !it3.to_lowercase().contains("per per "), "{it3}");
    assert!(it3.contains("Per tutti"), "{it3}");
}
