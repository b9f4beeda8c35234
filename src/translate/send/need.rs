//! One text an engine must translate ([`Need`]) and what follows from it:
//! the cache key it is asked and stored under, the row its translation
//! becomes, the engine's answer put in house style. The plan (`plan`)
//! makes them, the batches (`batches`) and the fallback (`fallback`) send
//! them; this file imports none of the three.
//!
//! Not for: deciding what needs translating (`plan`) or sending it (`batches`).

use crate::lang::Lang;
use crate::store::translations::MachineTranslation;
use crate::translate::engines::routes::Route;
use crate::translate::finish::{self, Slips};
use crate::translate::prepare::Prepared;
use crate::translate::send::stats::TranslateStats;
use crate::vocab::Field;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The cache key: a hash of (text, source language, target language, engine and version).
pub fn cache_key(text: &str, src: &str, tgt: &str, engine: &str) -> String {
    let mut h = Sha256::new();
    for part in [text, src, tgt, engine] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    hex::encode(h.finalize())
}

/// The cache key of a prepared text: its marked text (names, term targets),
/// engine, house style and the term entries that matched it.
pub(in crate::translate) fn prepared_key(p: &Prepared, field: &str, src: &str, tgt: &str, engine: &str) -> String {
    let engine = format!("{engine}\0lang/{}\0{field}\0{}", crate::translate::lang::digest(tgt), p.terms_used.join("\n"));
    cache_key(&p.text, src, tgt, &engine)
}

#[derive(Clone)]
pub(in crate::translate) struct Need {
    pub(in crate::translate) event_id: i64,
    pub(in crate::translate) source: String,
    pub(in crate::translate) field: Field,
    pub(in crate::translate) prepared: Prepared,
    pub(in crate::translate) key: String,
    pub(in crate::translate) hash: String,
    pub(in crate::translate) words: u64,
    /// Cut at the size limit: the translation ends with a mark saying so.
    pub(in crate::translate) shortened: bool,
    /// The publisher's language the text is translated from instead of the
    /// original's (`es`: its own Spanish beside a Catalan original).
    pub(in crate::translate) via: Option<&'static str>,
    /// Sent to Apertium, whose steady slips house style mends.
    pub(in crate::translate) apertium: bool,
    /// Sent with names kept but no term, stored as the engine gives it
    /// (`data/lang/XX/plain.txt`).
    pub(in crate::translate) plain: bool,
    /// The route the table names for this text (`routes`), which Apertium
    /// follows: in its cache key and its origin's name.
    pub(in crate::translate) route: Option<&'static Route>,
}

impl Need {
    /// The field as the cache key names it: a cut text is another text.
    pub(in crate::translate) fn field_key(&self) -> String {
        field_key(self.field, self.shortened, self.route)
    }

    /// The row storing `text` as this text's translation into `tgt` by
    /// `engines` under `key`, counted in `stats`.
    pub(in crate::translate) fn translated(
        &self,
        tgt: Lang,
        text: &str,
        engine: &str,
        key: &str,
        stats: &mut TranslateStats,
    ) -> MachineTranslation {
        stats.translated += 1;
        stats.words += self.words;
        stats.per_source.entry(self.source.clone()).or_default().0 += 1;
        MachineTranslation {
            event_id: self.event_id,
            lang: tgt,
            field: self.field,
            text: text.to_string(),
            engine: origin_name(engine, self.route, self.via),
            source_hash: self.hash.clone(),
            cache_key: key.to_string(),
            repair: None,
        }
    }

    /// An engine's answer for this text, in house style, marked if cut.
    pub(in crate::translate) fn finish(&self, answer: &str, tgt: Lang) -> String {
        let p = &self.prepared;
        let slips = if self.apertium { Slips::Apertium } else { Slips::None };
        let mut text = if self.plain {
            finish::finish_plain(answer, &p.names, tgt)
        } else {
            finish::finish_from(answer, &p.names, &p.anchors(), p.lead.as_deref(), tgt, self.field, slips)
        };
        if self.shortened {
            text.push_str(" […]");
        }
        text
    }
}

/// The field as a cache key names it: a cut text is another text, and a
/// text sent along another route another translation.
pub(in crate::translate) fn field_key(field: Field, shortened: bool, route: Option<&Route>) -> String {
    let cut = if shortened { "/cut" } else { "" };
    match route {
        Some(route) => format!("{field}{cut}\0{}", route.key_name()),
        None => format!("{field}{cut}"),
    }
}

/// The engine as a translation names it (`text_origin`): Apertium with the
/// route it followed (`apertium/3.8.3 cat-eng`, `apertium/3.8.3
/// spa-cat+cat-fra via ca`), and `via es` when the text was translated
/// from the publisher's Spanish, not the original (`apertium/3.8.3 spa-eng
/// via es`; both: `via es+ca`). Other engines do not follow the table.
pub(in crate::translate) fn origin_name(engine: &str, route: Option<&Route>, via: Option<&str>) -> String {
    let route = route.filter(|_| engine.starts_with("apertium/"));
    let vias: Vec<&str> = via.into_iter().chain(route.and_then(|r| r.pivot)).collect();
    let mut name = engine.to_string();
    if let Some(route) = route {
        name.push(' ');
        name.push_str(&route.modes_name());
    }
    if !vias.is_empty() {
        name.push_str(" via ");
        name.push_str(&vias.join("+"));
    }
    name
}

/// Texts for the fallback: (source, target) → texts.
pub(in crate::translate) type Fallen = BTreeMap<(String, Lang), Vec<Need>>;
