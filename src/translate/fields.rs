//! The fields around an event's text in the reader's language, for `events
//! list|show --lang`, every export and the sources page: the price and the
//! audience through set phrases (`phrases`), the category labels, the
//! attribution's label ("Fuente: …") and licence names through the message
//! catalogue (`i18n`, `data/i18n/licences.tsv`).
//!
//! The publisher's own wording of each field shown otherwise stays in the
//! stored row beside it (`ShownEvent::original_fields`), for the reader who
//! needs the original (at a box office, in a dispute). A price no phrase says
//! in the reader's language is said by a translation engine where one has
//! translated it (named in `machine_fields`), else shown as published and
//! named in `untranslated_fields`, never half said.
//!
//! Not for: titles and descriptions (`view`, `plan`).

use super::phrases;
use crate::i18n::{FluentValue, catalogue};
use crate::lang::Lang;
use crate::shown::ShownEvent;
use std::sync::OnceLock;

/// Says the fields around `e`'s text in `lang`, from the publisher's as
/// stored (in the event's original language). `machine_price` is an
/// engine's current translation of the price and the engine's name: shown,
/// and said to be an engine's, where no set phrase says the price.
pub fn localize(e: &mut ShownEvent, lang: Lang, machine_price: Option<(&str, &str)>) {
    let phrases = phrases::into(lang);
    let s = &e.stored;
    let from = s.lang.as_str();
    if let Some(price) = s.price.as_deref().filter(|p| !p.trim().is_empty()) {
        match (phrases.price(price, from), machine_price) {
            (Some(ours), _) => e.price = Some(ours),
            (None, _) if from == lang => {}
            (None, Some((text, engine))) => {
                e.price = Some(text.to_string());
                e.machine_fields.insert("price", engine.to_string());
            }
            (None, None) => e.untranslated_fields.push("price"),
        }
    }
    if let Some(audience) = s.audience.as_deref().filter(|a| !a.trim().is_empty()) {
        // In its own language an audience code with no phrase is kept as written.
        match phrases.audience(audience, from, from == lang) {
            Some(ours) => e.audience = Some(ours),
            None if from != lang => e.untranslated_fields.push("audience"),
            None => {}
        }
    }
    e.attribution = attribution_in(&s.attribution, lang);
    if let Some(name) = licence_name(&s.licence_url, lang) {
        e.licence = name;
    }
    e.category_labels = crate::model::Category::labels(&s.categories, lang);
}

/// An attribution in `lang`: a leading label that one of the display
/// languages uses for "source" ("Fuente: Ayuntamiento de Madrid") is said
/// with the reader's word; any other text is the publisher's and kept.
pub fn attribution_in(text: &str, lang: Lang) -> String {
    let Some((label, who)) = text.split_once(':') else { return text.to_string() };
    let known = Lang::ALL.into_iter().any(|l| catalogue(l).text("source-label").eq_ignore_ascii_case(label.trim()));
    if !known || who.trim().is_empty() {
        return text.to_string();
    }
    catalogue(lang).text_with("source-attribution", &[("who", FluentValue::from(who.trim()))])
}

/// The name of the licence at `url` in `lang`, when the catalogue names it.
pub fn licence_name(url: &str, lang: Lang) -> Option<String> {
    licences().iter().find(|(link, _)| link == url.trim()).map(|(_, id)| catalogue(lang).text(id))
}

/// (link, message id) of every licence `data/i18n/licences.tsv` names.
fn licences() -> &'static [(String, String)] {
    static ALL: OnceLock<Vec<(String, String)>> = OnceLock::new();
    ALL.get_or_init(|| {
        include_str!("../../data/i18n/licences.tsv")
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .map(|(link, id)| (link.trim().to_string(), id.trim().to_string()))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_licence_of_the_table_has_its_message() {
        assert!(!licences().is_empty());
        for (link, id) in licences() {
            assert!(catalogue(Lang::Es).has(id), "data/i18n/licences.tsv: {link} names {id}, which reader.ftl lacks");
        }
        for a in crate::adapters::ALL {
            let m = a.manifest();
            assert!(licence_name(m.licence.url, Lang::En).is_some(), "{}: its licence has no name in data/i18n/licences.tsv", m.id);
        }
    }

    #[test]
    fn the_attribution_label_is_the_readers() {
        assert_eq!(
            attribution_in("Fuente: Ayuntamiento de Madrid, datos.madrid.es", Lang::En),
            "Source: Ayuntamiento de Madrid, datos.madrid.es"
        );
        assert_eq!(attribution_in("Fuente: esMADRID.com, Madrid Destino", Lang::Fr), "Source : esMADRID.com, Madrid Destino");
        assert_eq!(attribution_in("Fuente: X", Lang::Es), "Fuente: X");
        // The publisher's own words without a known label stay as they are.
        assert_eq!(attribution_in("Diputació de Barcelona", Lang::En), "Diputació de Barcelona");
        assert_eq!(attribution_in("Datos: Ayuntamiento de Madrid", Lang::En), "Datos: Ayuntamiento de Madrid");
    }
}
