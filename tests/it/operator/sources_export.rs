//! P19: `cityvibe sources export` writes the "Fuentes de datos" page with
//! every source's publisher, dataset page, licence and its link, attribution,
//! update schedule and delay, in Markdown, HTML and JSON.
use crate::common;
use crate::common::ok;

use common::{cityvibe, workdir};

const CONFIG: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\nmin_delay_secs = 30\n\n\
                      [sources.diba]\nenabled = false\ndisabled_reason = \"asked by the publisher\"\n";

#[test]
fn fuentes_de_datos_in_three_formats() {
    let dir = workdir(CONFIG);
    let d = dir.path();
    let json: Vec<serde_json::Value> = serde_json::from_str(&ok(&cityvibe(d, &["sources", "export", "--format", "json"]))).unwrap();
    assert_eq!(json.len(), cityvibe::adapters::ALL.len());
    for (j, a) in json.iter().zip(cityvibe::adapters::ALL) {
        let m = a.manifest();
        assert_eq!(j["id"], m.id);
        assert_eq!(j["publisher"], m.publisher);
        assert_eq!(j["dataset_page"], m.dataset_page);
        assert_eq!(j["licence"], m.licence.name);
        assert_eq!(j["licence_url"], m.licence.url);
        assert_eq!(j["attribution"], m.attribution);
        assert_eq!(j["update_schedule"], m.update_schedule);
        if m.id != "madrid" {
            assert_eq!(j["delay_secs"].as_f64().unwrap(), m.min_delay.as_secs_f64());
        }
    }
    let madrid = json.iter().find(|j| j["id"] == "madrid").unwrap();
    assert_eq!(madrid["delay_secs"], 30.0, "the operator's slower delay is the one shown");
    assert_eq!(json.iter().find(|j| j["id"] == "diba").unwrap()["enabled"], false);

    // Markdown: one section per source, licence as a link. `source export` is the same command.
    let md = ok(&cityvibe(d, &["sources", "export", "--format", "md"]));
    assert_eq!(md, ok(&cityvibe(d, &["source", "export"])), "md is the default; `source` and `sources` agree");
    assert!(md.starts_with("# Fuentes de datos\n"));
    for a in cityvibe::adapters::ALL {
        let m = a.manifest();
        assert!(md.contains(&format!("(<{}>)", m.licence.url)), "no licence link for {}", m.id);
        assert!(md.contains(&format!("<{}>", m.dataset_page)), "no dataset page for {}", m.id);
        assert!(md.contains(m.publisher.split(' ').next().unwrap()));
        assert!(md.contains(m.host));
    }
    assert!(md.contains("datos.madrid.es: 30 s"));
    assert!(md.contains("desactivada"));

    // HTML: well-formed (read with quick-xml), every licence and dataset link present.
    let html = ok(&cityvibe(d, &["sources", "export", "--format", "html"]));
    let mut reader = quick_xml::Reader::from_str(&html);
    let mut hrefs = Vec::new();
    let mut depth = 0i32;
    let mut text = String::new();
    loop {
        match reader.read_event().expect("well-formed HTML") {
            quick_xml::events::Event::Start(e) => {
                depth += 1;
                let href = cityvibe::parse::xml::attribute(&e, "href");
                if !href.is_empty() {
                    hrefs.push(href);
                }
            }
            quick_xml::events::Event::End(_) => depth -= 1,
            quick_xml::events::Event::Text(t) => text.push_str(&t),
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0, "unbalanced tags");
    for a in cityvibe::adapters::ALL {
        let m = a.manifest();
        assert!(hrefs.iter().any(|h| h == m.licence.url), "{}: {hrefs:?}", m.id);
        assert!(hrefs.iter().any(|h| h == m.dataset_page), "{}: {hrefs:?}", m.id);
    }
    assert!(html.contains("rel=\"license\""));
    assert!(text.contains("Fuentes de datos"));

    // Without a sources.toml, the adapters' own delays.
    std::fs::remove_file(d.join("sources.toml")).unwrap();
    let json: Vec<serde_json::Value> = serde_json::from_str(&ok(&cityvibe(d, &["sources", "export", "--format", "json"]))).unwrap();
    assert_eq!(json.iter().find(|j| j["id"] == "madrid").unwrap()["delay_secs"], 2.0);
}
