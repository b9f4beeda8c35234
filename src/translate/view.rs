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
use crate::shown::{ShownEvent, ShownOrigin};
use crate::store::Store;
use crate::store::events::StoredEvent;
use crate::store::reports::ShownText;
use crate::vocab::{Field, TextOrigin};
use anyhow::Result;
use std::collections::HashMap;

/// Each of `events` shown in `lang` where it can be, by the rule above,
/// with the fields around its texts in `lang`.
pub fn show_in(store: &Store, events: Vec<StoredEvent>, lang: Lang) -> Result<Vec<ShownEvent>> {
    let stored = if events.iter().all(|e| e.lang == lang) { Default::default() } else { store.translations_into(lang)? };
    Ok(events
        .into_iter()
        .map(|e| {
            // An engine's price, where no set phrase says it.
            let price = current(&stored, e.row_id, Field::Price);
            let engine = price.map(|t| t.origin.to_string());
            let mut shown = texts_in(&stored, e, lang);
            super::fields::localize(&mut shown, lang, price.map(|t| t.text.as_str()).zip(engine.as_deref()));
            shown
        })
        .collect())
}

/// The stored translation of `field` of row `row`, if it is of the current original and says something.
fn current(stored: &HashMap<(i64, Field), ShownText>, row: i64, field: Field) -> Option<&ShownText> {
    stored.get(&(row, field)).filter(|t| t.current && !t.text.trim().is_empty())
}

/// `e` with its title and description in `lang`, by the rule above.
fn texts_in(stored: &HashMap<(i64, Field), ShownText>, e: StoredEvent, lang: Lang) -> ShownEvent {
    let mut shown = ShownEvent::as_published(e, lang);
    if shown.stored.lang == lang {
        return shown;
    }
    match translations(stored, &shown.stored) {
        Some(([title, description], makers)) => {
            (shown.title, shown.description) = (title, description);
            shown.origin = ShownOrigin::Translated(makers);
        }
        None => shown.origin = ShownOrigin::Original { lang: shown.stored.lang.clone(), untranslated_into: Some(lang) },
    }
    shown
}

/// `e`'s title and description as the current translations of `stored`
/// say them (a text without words is kept), with their makers, each once;
/// none when a text with words has no current translation.
fn translations(stored: &HashMap<(i64, Field), ShownText>, e: &StoredEvent) -> Option<([String; 2], Vec<TextOrigin>)> {
    let mut texts = Vec::new();
    let mut makers: Vec<TextOrigin> = Vec::new();
    for (field, original) in Field::TEXTS.into_iter().zip([&e.title, &e.description]) {
        if original.trim().is_empty() {
            texts.push(original.clone());
            continue;
        }
        let t = current(stored, e.row_id, field)?;
        texts.push(t.text.clone());
        if !makers.contains(&t.origin) {
            makers.push(t.origin.clone());
        }
    }
    Some((texts.try_into().ok()?, makers))
}
