//! Garbled translations: the forms a kept span put back, or an engine's own
//! pronoun, leave in a translated text where the original has none (a stop
//! standing alone before a kept name, a Catalan article fused with a pronoun, a
//! French subject pronoun after a name). The forms are data
//! (`data/lang/garbled.tsv`, each with examples the tests run); this file
//! counts them and names the kept spans beside them. Every translated text is
//! checked here before it is stored, whatever the engine or the route
//! (`batches`): one that house style did not mend is translated again with
//! those spans left to the engine.
//!
//! Not for: mending (house style, `finish`) or sending (`batches`).

use crate::lang::Lang;
use regex::Regex;
use std::sync::LazyLock;

/// One form: its name, the languages it is looked for in, what it looks
/// like, and what a match that is the language's own looks like.
struct Form {
    name: &'static str,
    langs: Vec<&'static str>,
    pattern: Regex,
    unless: Option<Regex>,
}

static FORMS: LazyLock<Vec<Form>> = LazyLock::new(|| {
    let file = &crate::lang_data::shared().garbled;
    file.rows()
        .filter(|r| r.len() >= 3)
        .map(|r| Form {
            name: r[0],
            langs: r[1].split(',').map(str::trim).collect(),
            pattern: Regex::new(r[2]).unwrap_or_else(|e| panic!("data/lang/{}: {:?}: {e}", file.path(), r[0])),
            unless: r
                .get(3)
                .filter(|u| !u.is_empty())
                .map(|u| Regex::new(u).unwrap_or_else(|e| panic!("data/lang/{}: {u:?}: {e}", file.path()))),
        })
        .collect()
});

impl Form {
    fn serves(&self, lang: Lang) -> bool {
        self.langs.iter().any(|l| *l == "all" || *l == lang)
    }

    /// Where the form stands in `text`.
    fn matches<'t>(&self, text: &'t str) -> impl Iterator<Item = regex::Match<'t>> {
        self.pattern.find_iter(text).filter(|m| self.unless.as_ref().is_none_or(|u| !u.is_match(m.as_str())))
    }
}

/// The forms that `translation` (into `lang`) holds more of than `original`:
/// none for a sound text.
///
/// ```
/// use cityvibe::lang::Lang;
/// use cityvibe::translate::finish::garble::forms;
/// assert_eq!(forms("Ismael Serrano comenzaba", "Ismael Serrano il commençait", Lang::Fr), ["a subject pronoun the original lacks"]);
/// assert!(forms("Hay un tiempo", "Il y a un temps", Lang::Fr).is_empty());
/// ```
pub fn forms(original: &str, translation: &str, lang: Lang) -> Vec<&'static str> {
    FORMS.iter().filter(|f| f.serves(lang) && f.matches(translation).count() > f.matches(original).count()).map(|f| f.name).collect()
}

/// Where the form named `name` stands in `translation` (into `lang`), the
/// matches the language's own use excuses left out: what a stage of house
/// style that mends that form works on.
pub fn found(translation: &str, lang: Lang, name: &str) -> Vec<std::ops::Range<usize>> {
    FORMS.iter().filter(|f| f.name == name && f.serves(lang)).flat_map(|f| f.matches(translation).map(|m| m.range())).collect()
}

/// The kept spans of `names` that stand beside (or in) a garbled form of
/// `translation`: those to leave to the engine when it is translated again.
/// All of them when no single one stands beside a form.
pub fn spans_at_fault(original: &str, translation: &str, lang: Lang, names: &[String]) -> Vec<String> {
    let mut at_fault: Vec<String> = Vec::new();
    for f in FORMS.iter().filter(|f| f.serves(lang) && f.matches(translation).count() > f.matches(original).count()) {
        for m in f.matches(translation) {
            // A few characters either side: "del . CEAC", "L'ens Mago Héctor".
            let (a, b) = (m.start().saturating_sub(3), (m.end() + 3).min(translation.len()));
            for name in names.iter().filter(|n| !n.is_empty()) {
                let beside = translation.match_indices(name.as_str()).any(|(at, _)| at <= b && at + name.len() >= a);
                if beside && !at_fault.contains(name) {
                    at_fault.push(name.clone());
                }
            }
        }
    }
    if at_fault.is_empty() { names.to_vec() } else { at_fault }
}

/// `prepared` with `spans` no longer kept: the engine translates them with
/// the words around them.
pub(in crate::translate) fn unkept(
    prepared: &crate::translate::prepare::Prepared,
    spans: &[String],
) -> crate::translate::prepare::Prepared {
    use crate::translate::engines::stream::{KEEP_END, KEEP_START};
    let mut p = prepared.clone();
    for span in spans {
        p.text = p.text.replace(&format!("{KEEP_START}{span}{KEEP_END}"), span);
    }
    p.names.retain(|n| !spans.contains(n));
    if p.lead.as_ref().is_some_and(|l| spans.contains(l)) {
        p.lead = None;
    }
    p
}

/// How a garbled text was put right, as `translate status` counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repair {
    /// House style mended the form.
    Mended,
    /// Translated again with the spans beside the form left to the engine.
    Retranslated,
}

impl Repair {
    pub fn as_str(self) -> &'static str {
        match self {
            Repair::Mended => "mended",
            Repair::Retranslated => "retranslated",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_parses_and_serves_a_language() {
        assert_eq!(FORMS.len(), crate::lang_data::shared().garbled.rows().count());
        assert!(FORMS.iter().all(|f| !f.langs.is_empty() && !f.name.is_empty()));
    }

    #[test]
    fn the_spans_beside_a_form_are_at_fault() {
        let names = vec!["CEAC Maris Stella".to_string(), "Parque de Pradolongo".to_string()];
        let es = "Comienza en la recepción del CEAC Maris Stella. Senda en el Parque de Pradolongo.";
        let ca = "Comença en la recepció del . CEAC Maris Stella Senda en el Parque de Pradolongo.";
        assert_eq!(spans_at_fault(es, ca, Lang::Ca, &names), ["CEAC Maris Stella"]);
        assert!(forms(es, "Comença en la recepció del CEAC Maris Stella. Senda en el Parque de Pradolongo.", Lang::Ca).is_empty());
    }
}
