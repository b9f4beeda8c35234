//! The one rule for showing an event in a language, used by `events list`,
//! `events show` and every export: a text is shown as language XX only when it
//! is a translation (the publisher's, a human's or an engine's) of the event's
//! current original. An event whose title or description has no such
//! translation is shown as its original, labelled with its true language, never
//! half translated under the wrong label.
//!
//! The fields around the text (price, audience, categories, attribution,
//! licence) are said in the reader's language in any case (`fields`): they
//! are the reader's, whatever language the text could be shown in.
//!
//! Not for: making translations (`plan`) or choosing which to store.

use crate::lang::Lang;
use crate::store::Store;
use crate::store::events::StoredEvent;
use crate::store::reports::ShownText;
use crate::vocab::Field;
use anyhow::Result;
use std::collections::HashMap;

/// Shows each of `events` in `lang` where it can be, by the rule above,
/// and the fields around their texts in `lang`.
pub fn show_in(store: &Store, events: &mut [StoredEvent], lang: Lang) -> Result<()> {
    let originals: Vec<String> = events.iter().map(|e| e.lang.clone()).collect();
    let stored = if events.iter().all(|e| e.lang == lang) { Default::default() } else { store.translations_into(lang)? };
    show_texts_in(&stored, events, lang);
    for (e, from) in events.iter_mut().zip(&originals) {
        // An engine's price, where no set phrase says it.
        let price = stored.get(&(e.row_id, Field::Price)).filter(|t| t.current && !t.text.trim().is_empty());
        let engine = price.map(|t| t.origin.to_string());
        super::fields::localize(e, from, lang, price.map(|t| t.text.as_str()).zip(engine.as_deref()));
    }
    Ok(())
}

/// Titles and descriptions in `lang`, by the rule above.
fn show_texts_in(stored: &HashMap<(i64, Field), ShownText>, events: &mut [StoredEvent], lang: Lang) {
    for e in events.iter_mut() {
        if e.lang == lang {
            continue;
        }
        let mut texts = Vec::new();
        let mut origins: Vec<String> = Vec::new();
        for (field, original) in Field::TEXTS.into_iter().zip([&e.title, &e.description]) {
            if original.trim().is_empty() {
                texts.push(original.clone());
                continue;
            }
            match stored.get(&(e.row_id, field)).filter(|t| t.current && !t.text.trim().is_empty()) {
                Some(t) => {
                    texts.push(t.text.clone());
                    let origin = t.origin.to_string();
                    if !origins.contains(&origin) {
                        origins.push(origin);
                    }
                }
                None => {
                    e.text_origin = format!("original ({}; no current {lang} translation)", e.lang);
                    texts.clear();
                    break;
                }
            }
        }
        if let [title, description] = texts.as_slice() {
            e.title = title.clone();
            e.description = description.clone();
            e.lang = lang.to_string();
            e.text_origin = origins.join("+");
        }
    }
}
