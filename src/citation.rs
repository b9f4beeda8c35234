//! How a source is cited (P19): its licence, the licence's link and the
//! attribution text, resolved at read time: the adapter's manifest overlaid
//! by the operator's row in sources.toml (`licence`, `licence_url`,
//! `attribution`). Stored events keep only their source's id, so a changed
//! row shows at once on every stored event, in every list and export.
//!
//! Not for the rest of a manifest (publisher, dataset page): those come from
//! the adapter alone. Above the store: `Store::list_events` returns events
//! uncited, and [`Citations::list`] cites each as its source is cited now.

use crate::adapter::Manifest;
use crate::config::Config;
use crate::store::Store;
use crate::store::events::{EventFilter, StoredEvent};
use anyhow::Result;
use std::collections::HashMap;
use std::path::Path;

/// What is shown with every event of a source (P19).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Citation {
    pub licence: String,
    pub licence_url: String,
    pub attribution: String,
    /// What the source's event links lead to, and its dataset's page.
    #[serde(skip)]
    pub links: Option<(crate::adapter::EventLinks, &'static str)>,
}

impl Citation {
    /// What `url`, an event's link, leads to: the dataset page when it is the
    /// source's, else what the manifest says its links are.
    pub fn link_kind(&self, url: Option<&str>) -> crate::model::LinkKind {
        use crate::model::LinkKind;
        match (self.links, url) {
            (Some((_, page)), Some(u)) if u == page => LinkKind::DatasetPage,
            (Some((crate::adapter::EventLinks::MoreInformation, _)), _) => LinkKind::MoreInformation,
            _ => LinkKind::EventPage,
        }
    }
}

/// The citation of one source: its manifest, overlaid by its row.
pub fn of(config: Option<&Config>, m: &Manifest) -> Citation {
    let row = config.and_then(|c| c.sources.get(m.id));
    // The operator's texts are shown on every event: they pass the gate of
    // every stored text, contact data included (P5).
    let pick = |over: Option<&Option<String>>, own: &str| over.and_then(|o| o.clone()).unwrap_or_else(|| own.to_string());
    Citation {
        licence: crate::parse::stored::line(&pick(row.map(|r| &r.licence), m.licence.name)),
        licence_url: pick(row.map(|r| &r.licence_url), m.licence.url),
        attribution: crate::parse::stored::line(&pick(row.map(|r| &r.attribution), m.attribution)),
        links: Some((m.links, m.dataset_page)),
    }
}

/// Every known source's citation, for the readers of stored events.
#[derive(Debug, Clone, Default)]
pub struct Citations(HashMap<&'static str, Citation>);

impl Citations {
    /// From the known adapters and a config (none: the manifests alone).
    pub fn new(config: Option<&Config>) -> Citations {
        Citations(crate::adapters::ALL.iter().map(|a| (a.manifest().id, of(config, a.manifest()))).collect())
    }

    /// From the config file at `path`, or the manifests alone when there is
    /// none. A file that does not validate is an error: showing the
    /// manifest's text instead of the operator's would cite wrongly.
    pub fn load(path: &Path) -> Result<Citations> {
        if !path.exists() {
            return Ok(Citations::new(None));
        }
        Ok(Citations::new(Some(&Config::load(path, crate::adapters::ALL)?)))
    }

    /// The citation of `source`. A source whose adapter is gone is cited by
    /// its id alone, so that nothing is shown without a name.
    pub fn get(&self, source: &str) -> Citation {
        self.0.get(source).cloned().unwrap_or_else(|| Citation {
            licence: String::new(),
            licence_url: String::new(),
            attribution: source.to_string(),
            links: None,
        })
    }
}

impl Citations {
    /// Fill each event's licence, its link and attribution as its source is cited now.
    pub fn cite(&self, events: &mut [StoredEvent]) {
        for e in events {
            let c = self.get(&e.source);
            e.link = c.link_kind(e.url.as_deref());
            (e.licence, e.licence_url, e.attribution) = (c.licence, c.licence_url, c.attribution);
        }
    }

    /// The stored events matching `f` (`Store::list_events`), each cited as
    /// its source is cited now (P19: the row keeps only the source's id).
    pub fn list(&self, store: &Store, f: &EventFilter) -> Result<Vec<StoredEvent>> {
        let mut events = store.list_events(f)?;
        self.cite(&mut events);
        Ok(events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // P19: the row overrides field by field; the rest is the manifest's.
    #[test]
    fn the_row_overlays_the_manifest() {
        let m = &crate::adapters::jcyl::MANIFEST;
        let config: Config = toml::from_str("[sources.jcyl]\nattribution = \"Fuente: JCyL\"\n").unwrap();
        let c = of(Some(&config), m);
        assert_eq!(c.attribution, "Fuente: JCyL");
        assert_eq!(c.licence, m.licence.name);
        assert_eq!(c.licence_url, m.licence.url);
        assert_eq!(of(None, m).attribution, m.attribution);
        assert_eq!(Citations::new(Some(&config)).get("jcyl"), c);
        assert_eq!(Citations::new(None).get("gone").attribution, "gone");
    }
}
