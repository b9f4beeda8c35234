//! Every field a reader sees speaks the reader's
//! language (price, audience, category labels, the attribution's label,
//! licence names, the iCalendar and JSON-LD lines that carry them), with
//! the publisher's own wording kept beside it; and diba's languages it does
//! not publish are translated from its own Spanish, not its Catalan.
//!
//! Not for: the texts' translation quality (`translation::quality`).
use crate::common;
use crate::common::has_apertium;
use crate::common::ok;
use crate::translation::quality::{listed, record, write_feed};

use common::{cityvibe, sample, workdir};
use serde_json::Value;
use std::path::Path;

const MADRID_FEED: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";

fn config(translator: &str, sources: &[&str]) -> String {
    let mut c = format!("[settings]\ntranslator = \"{translator}\"\nlanguages = [\"es\", \"en\", \"fr\", \"it\"]\n");
    for s in sources {
        c.push_str(&format!("[sources.{s}]\nenabled = true\n"));
    }
    c
}

/// The Spanish a reader of another language must not meet: the samples'
/// price texts, audiences, the attribution's label and licence names.
const SPANISH: &[&str] = &[
    "Entrada libre hasta completar aforo",
    "Actividad gratuita",
    "Venta anticipada",
    "materiales incluidos",
    "Se celebrará",
    "Gratuït",
    "Niños",
    "Jovenes",
    "Mayores",
    "Público familiar",
    "Todos los públicos",
    "Adultos",
    "Fuente:",
    "Aviso legal",
    "Condiciones de uso",
    "Licencia",
];

/// What a reader of `lang` sees of each field, per madrid's free sample event.
fn until_full(lang: &str) -> &'static str {
    match lang {
        "en" => "Free admission until full",
        "fr" => "Entrée libre dans la limite des places disponibles",
        "it" => "Ingresso libero fino a esaurimento posti",
        _ => unreachable!(),
    }
}

/// Every field but the texts (which an engine translates, or not).
fn fields_of(e: &Value) -> String {
    ["price", "audience", "attribution", "licence"]
        .iter()
        .filter_map(|f| e[*f].as_str())
        .chain(e["category_labels"].as_array().into_iter().flatten().filter_map(Value::as_str))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// `events show --lang en|fr|it` on every sample event
/// shows no field in Spanish (not `price: Entrada libre hasta completar
/// aforo`, `Fuente: …` nor the licence's Spanish name); each keeps the
/// publisher's words beside it, and the Spanish view shows them as published.
/// Every event's fields are read from one `events list --json` per language
/// (the same fields `events show --json` prints); the text of `events show`
/// for each source's first event in every language. The samples are stored
/// on simulated time (diba's 10 s delays are not the subject here).
#[test]
fn events_show_speaks_the_readers_language_in_every_field() {
    let translator = if has_apertium() { "apertium" } else { "none" };
    let dir = workdir(&config(translator, &["madrid", "esmadrid", "diba", "jcyl"]));
    let d = dir.path();
    common::run_on_simulated_time(d, &sample(""), &[]);
    let list = |lang: &[&str]| -> Vec<Value> {
        let args = [&["events", "list", "--json", "--limit", "100", "--at", common::SAMPLES_AT], lang].concat();
        serde_json::from_str(&ok(&cityvibe(d, &args))).unwrap()
    };
    // As published (no --lang).
    let published = list(&[]);
    assert!(published.len() >= 20, "{}", published.len());
    let id_of = |e: &Value| format!("{}:{}", e["source"].as_str().unwrap(), e["source_event_id"].as_str().unwrap());
    let mut prices = 0;
    for lang in ["en", "fr", "it"] {
        let shown_all: std::collections::BTreeMap<String, Value> = list(&["--lang", lang]).into_iter().map(|e| (id_of(&e), e)).collect();
        assert_eq!(shown_all.len(), published.len(), "--lang {lang}: the same events");
        let mut sources_shown = std::collections::BTreeSet::new();
        for e in &published {
            let id = id_of(e);
            let shown = &shown_all[&id];
            let fields = fields_of(shown);
            for spanish in SPANISH {
                assert!(!fields.contains(spanish), "{id} --lang {lang} shows {spanish:?}: {fields}");
            }
            assert_eq!(shown["untranslated_fields"], Value::Null, "{id} --lang {lang}: {shown}");
            if let Some(price) = e["price"].as_str() {
                prices += 1;
                // The publisher's words beside ours, unless they are the same ("10 €" in French).
                if shown["price"] != price {
                    assert_eq!(shown["original_fields"]["price"], price, "{id} --lang {lang}: the publisher's words beside ours");
                }
            }
            if sources_shown.insert(e["source"].as_str().unwrap().to_string()) {
                assert_show_text_speaks(d, &id, lang);
            }
        }
        assert_eq!(sources_shown.len(), 4, "--lang {lang}: every source's text shown");
    }
    assert!(prices >= 3 * 10, "{prices} prices checked");
    let free = published.iter().find(|e| e["price"] == "Entrada libre hasta completar aforo").expect("the madrid sample's free event");
    let id = format!("madrid:{}", free["source_event_id"].as_str().unwrap());
    for lang in ["en", "fr", "it"] {
        let text = ok(&cityvibe(d, &["events", "show", &id, "--lang", lang]));
        assert!(text.contains(&format!("price: {} (as published: Entrada libre hasta completar aforo)", until_full(lang))), "{text}");
    }
    // The Spanish view shows the publisher's own words.
    let text = ok(&cityvibe(d, &["events", "show", &id, "--lang", "es"]));
    assert!(text.contains("price: Entrada libre hasta completar aforo\n"), "{text}");
    assert!(text.contains("Fuente: Ayuntamiento de Madrid, datos.madrid.es — licence: Aviso legal de datos.madrid.es"), "{text}");
}

/// `events show <id> --lang <lang>` in text: no price, audience or licence
/// line speaks Spanish (the publisher's words may follow, as published).
fn assert_show_text_speaks(d: &Path, id: &str, lang: &str) {
    let text = ok(&cityvibe(d, &["events", "show", id, "--lang", lang]));
    let labels = text.lines().filter(|l| l.starts_with("price:") || l.starts_with("audience:") || l.contains("— licence:"));
    for line in labels {
        let ours = line.split(" (as published:").next().unwrap();
        for spanish in SPANISH {
            assert!(!ours.contains(spanish), "{id} --lang {lang}: {line}");
        }
    }
}

/// No export in English, French or Italian carries the
/// Spanish price (JSON-LD's `Offer.description` under `inLanguage: en`),
/// `Fuente: …`, the Spanish licence or the ICS line `Licencia / licence:`.
#[test]
fn every_export_carries_the_translated_price_and_labels() {
    let dir = workdir(&config("none", &["madrid"]));
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", sample("").to_str().unwrap(), "run", "--source", "madrid"]));
    for lang in ["en", "fr", "it"] {
        let export = |format: &str| ok(&cityvibe(d, &["export", "--format", format, "--lang", lang]));
        let json: Vec<Value> = serde_json::from_str(&export("json")).unwrap();
        let free = json.iter().find(|e| e["original_fields"]["price"] == "Entrada libre hasta completar aforo").expect("the free event");
        assert_eq!(free["price"], until_full(lang));
        let id = free["source_event_id"].as_str().unwrap().to_string();
        for e in &json {
            let fields = fields_of(e);
            for spanish in SPANISH {
                assert!(!fields.contains(spanish), "export json --lang {lang}: {fields}");
            }
        }

        let csv_text = export("csv");
        let mut csv = csv::Reader::from_reader(csv_text.as_bytes());
        let header = csv.headers().unwrap().clone();
        let col = |name: &str| header.iter().position(|h| h == name).unwrap();
        let row = csv.records().map(Result::unwrap).find(|r| r[col("source_event_id")] == id).unwrap();
        assert_eq!(&row[col("price")], until_full(lang));
        assert!(!row[col("attribution")].contains("Fuente"), "{:?}", &row[col("attribution")]);
        assert!(!row[col("licence")].contains("Aviso legal"), "{:?}", &row[col("licence")]);
        assert!(!row[col("category_labels")].is_empty());

        let ics = export("ics").replace("\r\n ", "").replace("\\n", "\n").replace("\\,", ",").replace("\\;", ";");
        assert!(!ics.contains("Licencia / licence"), "{ics}");
        assert!(!ics.contains("Fuente:"), "{ics}");
        let price_label = match lang {
            "en" => "Price: ",
            "fr" => "Prix : ",
            _ => "Prezzo: ",
        };
        assert!(ics.contains(&format!("{price_label}{}", until_full(lang))), "{ics}");

        let jsonld: Value = serde_json::from_str(&export("jsonld")).unwrap();
        let graph = jsonld["@graph"].as_array().unwrap();
        let event = graph.iter().find(|e| e["identifier"] == format!("madrid:{id}")).unwrap();
        assert_eq!(event["offers"]["description"], until_full(lang), "{event}");
        for e in graph {
            let cited = format!("{} {} {}", e["subjectOf"]["creditText"], e["subjectOf"]["copyrightNotice"], e["keywords"]);
            for spanish in SPANISH {
                assert!(!cited.contains(spanish), "jsonld --lang {lang}: {cited}");
            }
        }
    }
}

/// The sources page in English names the licences in
/// English, without `Fuente:`; its JSON keeps the sources' own words.
#[test]
fn the_sources_page_names_licences_in_its_language() {
    let dir = workdir(&config("none", &["madrid"]));
    let page = ok(&cityvibe(dir.path(), &["sources", "export", "--format", "md", "--lang", "en"]));
    assert!(page.contains("datos.madrid.es legal notice"), "{page}");
    assert!(page.contains("Source: Ayuntamiento de Madrid"), "{page}");
    assert!(!page.contains("Aviso legal") && !page.contains("Fuente:"), "{page}");
    let page = ok(&cityvibe(dir.path(), &["sources", "export", "--format", "md", "--lang", "it"]));
    assert!(page.contains("Creative Commons Attribuzione 4.0"), "{page}");
    let json = ok(&cityvibe(dir.path(), &["sources", "export", "--format", "json", "--lang", "en"]));
    assert!(json.contains("Aviso legal de datos.madrid.es"), "{json}");
}

/// On the real Madrid feed (October 2025): its price
/// "Entrada libre hasta completar aforo" and its audiences read in
/// English, French and Italian. The fields need no engine: set phrases.
#[test]
fn the_real_madrid_feed_prices_read_in_english_french_italian() {
    let Some(real) = common::realdata("madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json") else { return };
    let dir = workdir(&config("none", &["madrid"]));
    let d = dir.path();
    let feed = d.join("mirror").join(MADRID_FEED);
    std::fs::create_dir_all(feed.parent().unwrap()).unwrap();
    std::fs::copy(real, &feed).unwrap();
    ok(&cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid"]));
    for lang in ["en", "fr", "it"] {
        // October 2025's events have ended: --from brings them into the export.
        let json: Vec<Value> =
            serde_json::from_str(&ok(&cityvibe(d, &["export", "--format", "json", "--lang", lang, "--from", "2025-10-01"]))).unwrap();
        let free: Vec<&Value> = json.iter().filter(|e| e["original_fields"]["price"] == "Entrada libre hasta completar aforo").collect();
        assert!(free.len() >= 10, "--lang {lang}: {} events", free.len());
        assert!(free.iter().all(|e| e["price"] == until_full(lang)));
        assert!(json.iter().all(|e| e["price"] != "Entrada libre hasta completar aforo"), "--lang {lang}");
        let children = json.iter().filter(|e| e["original_fields"]["audience"] == "Niños").count();
        assert!(children >= 10, "--lang {lang}: {children}");
        assert!(json.iter().all(|e| e["audience"].as_str().is_none_or(|a| !a.contains("Niños"))), "--lang {lang}");
        let translated = json.iter().filter(|e| e["price"].is_string() && e["untranslated_fields"].is_null()).count();
        let priced = json.iter().filter(|e| e["price"].is_string()).count();
        eprintln!("--lang {lang}: {translated} of {priced} prices said by set phrases");
    }
}

/// A price no set phrase says is translated by an engine
/// (real Apertium), not left Spanish; `machine_fields` says so and the
/// publisher's words stay beside it; a price a phrase says
/// never reaches the engine; with no engine it is shown as published and
/// `untranslated_fields` names it.
#[test]
fn a_price_no_phrase_says_is_an_engines_else_shown_as_published() {
    const LIST: &str = "Matrícula: 55 euros al mes. Sólo se devolverá el importe si la organización cancela la actividad.";
    let feed = |d: &Path| {
        let mut listed_price = record("1", "Concierto de jazz", "", "Sala X");
        listed_price["price"] = LIST.into();
        let mut phrase = record("2", "Taller de radio", "", "Sala Y");
        phrase["price"] = "Entrada libre hasta completar aforo".into();
        write_feed(d, &[listed_price, phrase]);
        ok(&cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid"]));
    };
    let dir = workdir(&config("none", &["madrid"]));
    feed(dir.path());
    let en = listed(dir.path(), "en");
    assert_eq!((en["1"]["price"].as_str(), &en["1"]["untranslated_fields"]), (Some(LIST), &serde_json::json!(["price"])), "{}", en["1"]);

    if !has_apertium() {
        return;
    }
    let dir = workdir(&config("apertium", &["madrid"]));
    let d = dir.path();
    feed(d);
    for lang in ["en", "fr", "it"] {
        let shown = listed(d, lang);
        let e = &shown["1"];
        let price = e["price"].as_str().unwrap();
        assert!(price.contains("55") && !price.contains("Sólo se devolverá"), "--lang {lang}: {e}");
        assert!(e["machine_fields"]["price"].as_str().unwrap().starts_with("apertium"), "--lang {lang}: {e}");
        assert_eq!((&e["original_fields"]["price"], &e["untranslated_fields"]), (&LIST.into(), &Value::Null), "--lang {lang}: {e}");
        assert_eq!((&shown["2"]["price"], &shown["2"]["machine_fields"]), (&until_full(lang).into(), &Value::Null), "--lang {lang}");
    }
    let text = ok(&cityvibe(d, &["events", "show", "madrid:1", "--lang", "en"]));
    assert!(text.contains("(machine translation, apertium"), "{text}");
    // Two titles and the one price no phrase says: all the engine's.
    let status: Value = serde_json::from_str(&ok(&cityvibe(d, &["translate", "status", "--json"]))).unwrap();
    let en = status["languages"].as_array().unwrap().iter().find(|l| l["lang"] == "en").unwrap();
    assert_eq!((&en["texts"], &en["machine"]), (&3.into(), &3.into()), "{en}");
}

fn write_diba(dir: &Path) {
    for lang in ["ca", "es", "en"] {
        let rel = format!("do.diba.cat/api/dataset/actesturisme_{lang}/format/json/pag-ini/1/pag-fi/1000");
        let path = dir.join("mirror").join(&rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(sample(&rel), path).unwrap();
    }
}

/// diba publishes Catalan and Spanish; every language it
/// does not publish is translated from its Spanish ("Feria de Navidad y del
/// Belén de Vic"), not its Catalan (which gives French "Foire de Nadal i du
/// Pessebre de Vich"), and `text_origin` says so.
#[test]
fn diba_french_is_translated_from_the_publishers_spanish() {
    if !has_apertium() {
        return;
    }
    let dir = workdir(&config("apertium", &["diba"]));
    let d = dir.path();
    write_diba(d);
    ok(&cityvibe(d, &["--mirror", "mirror", "run", "--source", "diba"]));
    let fr = crate::translation::quality::listed(d, "fr");
    let fair = &fr["agendaturisme41201"];
    let title = fair["title"].as_str().unwrap();
    assert!(title.contains("Noël"), "{fair}");
    assert!(!title.contains("Nadal"), "{fair}");
    // Each text's origin names its route and that it went via the publisher's
    // Spanish first ("apertium/3.8.3 es-fr via es", a description through
    // Catalan "… spa-cat+cat-fra via es+ca").
    let origins: Vec<&str> = fair["text_origin"].as_str().unwrap().split("apertium/").skip(1).collect();
    assert!(!origins.is_empty() && origins.iter().all(|o| o.contains(" via es")), "{fair}");
    // The publisher's own English stays the publisher's.
    let en = crate::translation::quality::listed(d, "en");
    assert_eq!(en["agendaturisme41201"]["text_origin"], "publisher");
}
