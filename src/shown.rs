//! What a reader is shown of a stored event: its title and description in a
//! language and who made them, the fields around them (price, audience,
//! attribution, licence, category labels) as said to that reader, beside the
//! stored row itself, unchanged. `events list|show` and every export read it;
//! it serializes as `events list --json` and the JSON export have always
//! printed an event.
//!
//! Not for: which translation is shown (`translate::view`), how the fields
//! are said in a language (`translate::fields`), nor the stored columns
//! (`store::events`).

use crate::lang::{Lang, SourceLang};
use crate::model::{Category, LinkKind, Occurrence};
use crate::store::events::StoredEvent;
use crate::vocab::{EventStatus, TextOrigin};
use jiff::civil::{Date, DateTime, Weekday};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// An event as a reader is shown it.
#[derive(Debug, Clone)]
pub struct ShownEvent {
    /// The row as stored, cited as its source is cited now (P19); showing
    /// the event never changes it.
    pub stored: StoredEvent,
    /// The reader's language: that of the labels and of the fields around
    /// the texts (`--lang`, else the original's, Spanish for an original in
    /// no display language). The texts are in it only when translated
    /// ([`ShownEvent::text_lang`]).
    pub lang: Lang,
    /// Who made the title and description shown.
    pub origin: ShownOrigin,
    pub title: String,
    pub description: String,
    pub price: Option<String>,
    pub audience: Option<String>,
    pub attribution: String,
    pub licence: String,
    /// The categories' labels in `lang`.
    pub category_labels: Vec<String>,
    /// Fields shown as published, in the original's language, because no
    /// set phrase says them in the reader's (`data/lang/LANG/phrases.tsv`).
    pub untranslated_fields: Vec<&'static str>,
    /// Fields a translation engine said in the reader's language, no set
    /// phrase covering them: field → engine.
    pub machine_fields: BTreeMap<&'static str, String>,
}

/// Who made the title and description an event is shown with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShownOrigin {
    /// The publisher's original, in `lang` (its code as stored). When the
    /// reader asked for another language that no current translation says
    /// it in, `untranslated_into` names that language.
    Original { lang: SourceLang, untranslated_into: Option<Lang> },
    /// Translations of the current original: each maker once, title's first.
    Translated(Vec<TextOrigin>),
}

/// As `text_origin` says it: `original`, `original (es; no current en
/// translation)`, or the makers joined by `+` (`publisher+apertium/3.8 via es`).
impl fmt::Display for ShownOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShownOrigin::Original { untranslated_into: None, .. } => f.write_str("original"),
            ShownOrigin::Original { lang, untranslated_into: Some(into) } => write!(f, "original ({lang}; no current {into} translation)"),
            ShownOrigin::Translated(makers) => {
                for (i, maker) in makers.iter().enumerate() {
                    if i > 0 {
                        f.write_str("+")?;
                    }
                    write!(f, "{maker}")?;
                }
                Ok(())
            }
        }
    }
}

impl ShownEvent {
    /// `stored` shown to a reader of `lang` as published: its own texts,
    /// its fields as cited, its category labels in `lang`.
    pub fn as_published(stored: StoredEvent, lang: Lang) -> ShownEvent {
        ShownEvent {
            lang,
            origin: ShownOrigin::Original { lang: stored.lang.clone(), untranslated_into: None },
            title: stored.title.clone(),
            description: stored.description.clone(),
            price: stored.price.clone(),
            audience: stored.audience.clone(),
            attribution: stored.attribution.clone(),
            licence: stored.licence.clone(),
            category_labels: Category::labels(&stored.categories, lang),
            untranslated_fields: Vec::new(),
            machine_fields: BTreeMap::new(),
            stored,
        }
    }

    /// `stored` as published, to a reader of its own language (Spanish
    /// for an original in no display language): no `--lang`.
    pub fn in_its_language(stored: StoredEvent) -> ShownEvent {
        let lang = crate::i18n::catalogue_of(stored.lang.as_str()).lang();
        ShownEvent::as_published(stored, lang)
    }

    /// The code of the language the title and description are shown in.
    pub fn text_lang(&self) -> &str {
        match &self.origin {
            ShownOrigin::Original { lang, .. } => lang.as_str(),
            ShownOrigin::Translated(_) => self.lang.as_str(),
        }
    }

    /// The publisher's own wording of each field shown otherwise (price,
    /// audience, attribution, licence), for the reader who needs the
    /// original (at a box office, in a dispute).
    pub fn original_fields(&self) -> BTreeMap<&'static str, &str> {
        let s = &self.stored;
        [
            ("attribution", stored_if_not(Some(&self.attribution), Some(&s.attribution))),
            ("audience", stored_if_not(self.audience.as_deref(), s.audience.as_deref())),
            ("licence", stored_if_not(Some(&self.licence), Some(&s.licence))),
            ("price", stored_if_not(self.price.as_deref(), s.price.as_deref())),
        ]
        .into_iter()
        .filter_map(|(field, original)| Some((field, original?)))
        .collect()
    }
}

/// The stored wording of a field when it is not the one shown.
fn stored_if_not<'a>(shown: Option<&str>, stored: Option<&'a str>) -> Option<&'a str> {
    stored.filter(|stored| shown.is_some_and(|shown| shown != *stored))
}

/// The keys `events list --json` and the JSON export have always printed,
/// in their order: the stored columns, with the texts and fields as shown.
#[derive(Serialize)]
struct Printed<'a> {
    source: &'a str,
    source_event_id: &'a str,
    title: &'a str,
    description: &'a str,
    url: &'a Option<String>,
    link: LinkKind,
    licence: &'a str,
    licence_url: &'a str,
    attribution: &'a str,
    start: Option<DateTime>,
    end: Option<DateTime>,
    all_day: bool,
    time_zone: &'a str,
    occurrences: &'a [Occurrence],
    #[serde(serialize_with = "crate::model::ser_weekdays")]
    weekdays: &'a [Weekday],
    excluded: &'a [Date],
    free: Option<bool>,
    price: &'a Option<String>,
    audience: &'a Option<String>,
    venue: &'a Option<String>,
    address: &'a Option<String>,
    postal_code: &'a Option<String>,
    locality: &'a Option<String>,
    province: &'a Option<String>,
    district: &'a Option<String>,
    lat: Option<f64>,
    lon: Option<f64>,
    categories: &'a [Category],
    source_categories: &'a [String],
    lang: &'a str,
    text_origin: String,
    status: EventStatus,
    category_labels: &'a [String],
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    original_fields: BTreeMap<&'static str, &'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    untranslated_fields: &'a [&'static str],
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    machine_fields: &'a BTreeMap<&'static str, String>,
}

impl Serialize for ShownEvent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let s = &self.stored;
        Printed {
            source: &s.source,
            source_event_id: &s.source_event_id,
            title: &self.title,
            description: &self.description,
            url: &s.url,
            link: s.link,
            licence: &self.licence,
            licence_url: &s.licence_url,
            attribution: &self.attribution,
            start: s.start,
            end: s.end,
            all_day: s.all_day,
            time_zone: &s.time_zone,
            occurrences: &s.occurrences,
            weekdays: &s.weekdays,
            excluded: &s.excluded,
            free: s.free,
            price: &self.price,
            audience: &self.audience,
            venue: &s.venue,
            address: &s.address,
            postal_code: &s.postal_code,
            locality: &s.locality,
            province: &s.province,
            district: &s.district,
            lat: s.lat,
            lon: s.lon,
            categories: &s.categories,
            source_categories: &s.source_categories,
            lang: self.text_lang(),
            text_origin: self.origin.to_string(),
            status: s.status,
            category_labels: &self.category_labels,
            original_fields: self.original_fields(),
            untranslated_fields: &self.untranslated_fields,
            machine_fields: &self.machine_fields,
        }
        .serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way `text_origin` has said who made a shown text, said the same.
    #[test]
    fn the_origin_is_said_as_text_origin_said_it() {
        let engine = |name: &str| TextOrigin::Machine(Some(name.to_string()));
        for (origin, said) in [
            (ShownOrigin::Original { lang: "es".into(), untranslated_into: None }, "original"),
            (ShownOrigin::Original { lang: "es".into(), untranslated_into: Some(Lang::En) }, "original (es; no current en translation)"),
            // An original in no display language keeps its stored code.
            (ShownOrigin::Original { lang: "eu".into(), untranslated_into: Some(Lang::Es) }, "original (eu; no current es translation)"),
            (ShownOrigin::Translated(vec![TextOrigin::Publisher]), "publisher"),
            (ShownOrigin::Translated(vec![TextOrigin::Human]), "human"),
            (ShownOrigin::Translated(vec![TextOrigin::Machine(None)]), "machine"),
            (ShownOrigin::Translated(vec![engine("apertium/3.8 via es")]), "apertium/3.8 via es"),
            (ShownOrigin::Translated(vec![TextOrigin::Publisher, engine("apertium/3.8 via es")]), "publisher+apertium/3.8 via es"),
            (
                ShownOrigin::Translated(vec![engine("apertium/3.8.3 es-fr"), engine("apertium/3.8.3 spa-cat+cat-fra via ca")]),
                "apertium/3.8.3 es-fr+apertium/3.8.3 spa-cat+cat-fra via ca",
            ),
            (ShownOrigin::Translated(vec![engine("apertium/3.8.3 es-fr"), TextOrigin::Human]), "apertium/3.8.3 es-fr+human"),
        ] {
            assert_eq!(origin.to_string(), said, "{origin:?}");
        }
    }

    fn stored() -> StoredEvent {
        StoredEvent::sample()
    }

    /// Showing an event in another language changes what is shown, never
    /// the stored row beside it; the publisher's words of a field shown
    /// otherwise are the stored ones, and the texts' language is the
    /// original's until they are translated.
    #[test]
    fn what_is_shown_leaves_the_stored_row_as_it_was() {
        let mut shown = ShownEvent::as_published(stored(), Lang::En);
        assert_eq!((shown.text_lang(), shown.origin.to_string().as_str()), ("es", "original"));
        assert_eq!(shown.category_labels, [Category::Music.label(Lang::En)]);
        assert!(shown.original_fields().is_empty(), "as published, nothing is said otherwise");
        shown.title = "Concert".into();
        shown.price = Some("€8".into());
        shown.attribution = "Source: Ayuntamiento de Madrid".into();
        shown.origin = ShownOrigin::Translated(vec![TextOrigin::Human]);
        assert_eq!((shown.stored.title.as_str(), shown.stored.price.as_deref()), ("Concierto", Some("8 euros")));
        assert_eq!(shown.text_lang(), "en");
        assert_eq!(
            shown.original_fields().into_iter().collect::<Vec<_>>(),
            [("attribution", "Fuente: Ayuntamiento de Madrid"), ("price", "8 euros")]
        );
        let json = serde_json::to_value(&shown).unwrap();
        assert_eq!((&json["title"], &json["lang"], &json["text_origin"]), (&"Concert".into(), &"en".into(), &"human".into()));
        assert_eq!(json["original_fields"]["price"], "8 euros");
        // An original in no display language is shown to a Spanish reader, its code kept.
        let basque = ShownEvent::in_its_language(StoredEvent { lang: "eu".into(), ..stored() });
        assert_eq!((basque.lang, basque.text_lang()), (Lang::Es, "eu"));
    }
}
