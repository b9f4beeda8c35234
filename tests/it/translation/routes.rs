//! The route table through the binary:
//! each stored translation names the route the table declares for its
//! original language, target and field (`text_origin`), and a Catalan
//! original with no Spanish beside it is translated straight from Catalan.
//! Real Apertium; the expected routes are read from the table, never from
//! which pairs the machine has.

use crate::common::{cityvibe, has_apertium, sample, workdir};
use crate::translation::quality::{listed, record, run, write_feed};
use cityvibe::translate::engines::routes;
use cityvibe::vocab::Field;
use std::path::Path;

const ALL_LANGS: &str = "languages = [\"es\", \"ca\", \"gl\", \"en\", \"fr\", \"it\", \"pt\"]\n";

/// Whether every mode the table declares is installed: a machine without
/// the Catalan pairs cannot show the routes (`make deps` installs them).
fn routes_installed() -> bool {
    let modes = Path::new("/usr/share/apertium/modes");
    let datadir = std::env::var_os("APERTIUM_DATADIR").map(|d| Path::new(&d).join("modes"));
    let dir = datadir.as_deref().unwrap_or(modes);
    has_apertium() && routes::modes().iter().all(|m| dir.join(format!("{m}.mode")).exists())
}

/// A Spanish original's title and description into each
/// language name the routes the table declares for them, a pivot with the
/// language it goes through ("spa-cat+cat-fra via ca").
#[test]
fn text_origin_names_the_route_of_each_field() {
    if !routes_installed() {
        return;
    }
    let dir = workdir(&format!("[settings]\ntranslator = \"apertium\"\n{ALL_LANGS}[sources.madrid]\nenabled = true\n"));
    let d = dir.path();
    let text = "Una tarde de música y baile para toda la familia en el jardín.";
    write_feed(d, &[record("9001", "Concierto de primavera", text, "Centro Cultural Galileo")]);
    run(d);
    for lang in ["ca", "gl", "en", "fr", "it", "pt"] {
        let e = &listed(d, lang)["9001"];
        let origin = e["text_origin"].as_str().unwrap();
        for field in [Field::Title, Field::Description] {
            let route = routes::route("es", lang, Some(field)).unwrap();
            assert!(origin.contains(&format!(" {}", route.name())), "{lang} {field}: {origin}");
        }
        assert!(origin.starts_with("apertium/"), "{origin}");
    }
    // The table sends Spanish descriptions into French through Catalan.
    let fr = &listed(d, "fr")["9001"];
    let via = routes::route("es", "fr", Some(Field::Description)).unwrap();
    if via.pivot == Some("ca") {
        assert!(fr["text_origin"].as_str().unwrap().contains("spa-cat+cat-fra via ca"), "{fr}");
        assert!(fr["description"].as_str().unwrap().to_lowercase().contains("musique"), "{fr}");
    }
}

/// Writes diba's three feeds into the mirror, with `only_ca` removed from
/// the publisher's Spanish and English: a Catalan original alone.
fn write_diba(dir: &Path, only_ca: &str, title: &str) {
    for lang in ["ca", "es", "en"] {
        let rel = format!("do.diba.cat/api/dataset/actesturisme_{lang}/format/json/pag-ini/1/pag-fi/1000");
        let mut feed: serde_json::Value = serde_json::from_slice(&std::fs::read(sample(&rel)).unwrap()).unwrap();
        let elements = feed["elements"].as_array_mut().unwrap();
        if lang == "ca" {
            let e = elements.iter_mut().find(|e| e["acte_id"] == only_ca).unwrap();
            e["titol"] = title.into();
        } else {
            elements.retain(|e| e["acte_id"] != only_ca);
        }
        let path = dir.join("mirror").join(&rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, serde_json::to_vec(&feed).unwrap()).unwrap();
    }
}

/// A Catalan original the publisher gives no Spanish for
/// is translated straight from Catalan (`cat-spa`, `cat-eng`, `cat-fra`,
/// `cat-ita`, `cat-por`) and into Galician through Spanish, each naming
/// its route as the table declares it; English house style runs on it
/// ("Exposició" comes back "Exhibition", not cat-eng's "Exposure").
#[test]
fn a_catalan_original_takes_the_catalan_routes() {
    if !routes_installed() {
        return;
    }
    let dir = workdir(&format!("[settings]\ntranslator = \"apertium\"\n{ALL_LANGS}[sources.diba]\nenabled = true\n"));
    let d = dir.path();
    write_diba(d, "agendaturisme41201", "Exposició de fotografia antiga a la biblioteca");
    let out = cityvibe(d, &["--mirror", "mirror", "run", "--source", "diba"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for lang in ["es", "gl", "en", "fr", "it", "pt"] {
        let e = &listed(d, lang)["agendaturisme41201"];
        let origin = e["text_origin"].as_str().unwrap();
        let route = routes::route("ca", lang, Some(Field::Title)).unwrap();
        assert!(origin.contains(&format!(" {}", route.name())), "{lang}: {e}");
        assert!(!origin.contains("via es+") && route.modes[0].starts_with("cat"), "{lang}: {origin}");
    }
    let gl = listed(d, "gl");
    assert!(gl["agendaturisme41201"]["text_origin"].as_str().unwrap().ends_with("cat-spa+es-gl via es"), "{}", gl["agendaturisme41201"]);
    let en = listed(d, "en");
    let title = en["agendaturisme41201"]["title"].as_str().unwrap();
    assert!(title.starts_with("Exhibition") && !title.contains("Exposure"), "{title}");
}

/// `doctor` proves every mode the route table runs into
/// the configured languages with a real word, the Catalan pairs included.
#[test]
fn doctor_proves_every_mode_of_the_route_table() {
    if !routes_installed() {
        return;
    }
    let dir = workdir(&format!("[settings]\ntranslator = \"apertium\"\n{ALL_LANGS}[sources.madrid]\nenabled = true\n"));
    let out = cityvibe(dir.path(), &["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("routes")).unwrap_or_else(|| panic!("no routes line: {text}"));
    assert!(line.contains("ok"), "{line}");
    for mode in routes::modes() {
        assert!(line.contains(&format!("{mode} \"")), "{mode} not proved: {line}");
    }
}

/// Words the pivot's first hop makes that its second does
/// not know reach no Portuguese reader in Catalan. Through Catalan,
/// Apertium leaves "tràmit" (trámite) and "assignació" (asignación) in the
/// Portuguese; each such word is put back as its own translation
/// ("trâmite", "atribuição"), and the text still goes through Catalan.
#[test]
fn a_pivot_leaves_no_catalan_word_in_portuguese() {
    if !routes_installed() || routes::route("es", "pt", Some(Field::Description)).and_then(|r| r.pivot) != Some("ca") {
        return;
    }
    let dir = workdir(&format!("[settings]\ntranslator = \"apertium\"\n{ALL_LANGS}[sources.madrid]\nenabled = true\n"));
    let d = dir.path();
    let text = "El trámite de asignación de plazas se hará por sorteo entre los pájaros del invierno.";
    write_feed(d, &[record("9002", "Taller de aves", text, "Centro Cultural Galileo")]);
    run(d);
    let pt = &listed(d, "pt")["9002"];
    let description = pt["description"].as_str().unwrap();
    assert!(pt["text_origin"].as_str().unwrap().contains("spa-cat+cat-por via ca"), "{pt}");
    let words: Vec<String> = description.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect();
    for catalan in ["tràmit", "assignació"] {
        assert!(!words.iter().any(|w| w == catalan), "{catalan} in {description:?}");
    }
    assert!(description.contains("trâmite") && description.contains("atribuição"), "{description:?}");
}
