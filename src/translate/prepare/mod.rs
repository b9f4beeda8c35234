//! What an engine must not translate, found before it sees a text: the
//! event's venue and locality, terms of the term base (already in the target
//! language), and the proper nouns that Spanish sentence case gives away
//! ("Eloy de la Iglesia", "Ballet Ara de Madrid" → "Ballet" + "Ara de Madrid").
//!
//! The result is the text with each span wrapped in [`KEEP_START`] …
//! [`KEEP_END`] (a term's span holds the target phrase instead of the
//! Spanish), which every backend carries through untouched, and the list of
//! names, which house style (see `finish`) never restyles.
//!
//! Not for: personal data (scrubbed before, by `parse::pii`), or how a
//! backend carries a kept span (each backend's own framing).

pub mod addresses;
pub mod analyser;
mod capitals;
pub mod gazetteer;
pub mod namewords;
mod names;
pub mod ordinals;
mod places;
pub mod terms;
pub mod words;

use crate::lang::Lang;
use crate::translate::engines::stream::{KEEP_END, KEEP_START};
use crate::translate::prepare::analyser::{Analysis, WordKind};
use crate::translate::prepare::terms::TermBase;
use capitals::article_names;
use places::{given_in_capitals, places_and_addresses};
use crate::translate::prepare::words::{function_word, opens_sentence, words};

/// What the event tells us is a name, and what the dictionary says of its words.
#[derive(Debug, Default, Clone, Copy)]
pub struct Known<'a> {
    pub venue: Option<&'a str>,
    pub locality: Option<&'a str>,
    pub district: Option<&'a str>,
    /// Place and organisation names the operator's gazetteer lists.
    pub gazetteer: &'a [String],
    /// Apertium's analysis of the text: with it, a capitalised run is kept
    /// only when it holds a proper noun, an unknown word, capitals or a
    /// given name; without it, every capitalised run is kept.
    pub analysis: Option<&'a Analysis>,
    /// A description, not a title: running text, where a word in capitals
    /// is a heading ("TEATRO", "CINE"), not a name by itself.
    pub running_text: bool,
    /// The target language puts an adjective before its noun
    /// (`lang::adjective_first`): a one-word term right before an adjective
    /// is left to the engine, which orders the pair.
    pub adjective_first: bool,
    /// A title into a language that writes titles in sentence case
    /// (`lang::sentence_case_titles`): capitals of dictionary words outside
    /// kept spans, but a sentence's first, are undone before the engine.
    pub sentence_case: bool,
    /// Kept runs are split word by word (`namewords`): only the words a
    /// name alone has stay apart from the engine.
    pub name_words: bool,
    /// The target language: its way of writing an edition's ordinal
    /// (`ordinals`, "V Concurso" → English "5th"); none, no ordinal.
    pub lang: Option<Lang>,
}

/// A text made ready for an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// The text with kept spans marked.
    pub text: String,
    /// The kept names, as they must come back.
    pub names: Vec<String>,
    /// The term entries used, as `Spanish\ttarget` lines (for the cache key).
    pub terms_used: Vec<String>,
    /// The kept span the text starts with, when a lower-case word follows
    /// it: engines that capitalise a sentence's first word would capitalise
    /// that word (see `finish`).
    pub lead: Option<String>,
}

impl Prepared {
    /// The spans the engine saw as fixed: the kept names and the targets of
    /// the terms put in (with a capital first letter too, as a term keeps
    /// the capital of the word it replaced).
    pub fn anchors(&self) -> Vec<String> {
        let mut anchors = self.names.clone();
        for line in &self.terms_used {
            if let Some((_, target)) = line.split_once('\t') {
                anchors.push(target.to_string());
                anchors.push(crate::translate::prepare::terms::capitalize(target));
            }
        }
        anchors
    }
}

/// The terms of `terms` found in `text` outside `taken`, but a one-word
/// term before an adjective in a language that puts the adjective first:
/// "Leyendas botánicas" would come back "Legends Botanists", since the
/// engine cannot move a term; where the dictionary knows the noun, the
/// engine translates the pair ("Botanic Legends").
fn terms_to_put_in(text: &str, taken: &[(usize, usize)], known: Known, terms: &TermBase) -> Vec<crate::translate::prepare::terms::Found> {
    let mut found = terms.find(text, taken);
    found.retain(|f| !(known.running_text && terms.term(f.term).titles_only));
    if let Some(analysis) = known.analysis.filter(|_| known.adjective_first) {
        found.retain(|f| {
            let term = terms.term(f.term);
            let compound = text[..f.start].ends_with('-');
            term.words.len() > 1
                || term.initial_only
                || compound
                || analysis.kind_at(f.start) != Some(WordKind::Common)
                || !before_an_adjective(text, f.end, analysis)
        });
    }
    found
}

/// A text's first word, when no kept span holds it, it is capitalised only
/// as a first word is and not a function word, and a lower-case word
/// follows it ("Pachanga fútbol", "Arteterapia: crear para sanar"): an
/// engine that copies the word takes the next one for the sentence's first
/// ("Pachanga Foot"); the lead lets house style undo that capital.
fn first_word_lead(text: &str, spans: &[(usize, usize, Option<String>)]) -> Option<String> {
    let &(a, b) = words(text).first()?;
    let word = &text[a..b];
    let free = spans.iter().all(|s| s.1 <= a || s.0 >= b);
    let capitalised = word.starts_with(char::is_uppercase) && !word.chars().skip(1).any(char::is_uppercase);
    if text[..a].chars().any(char::is_alphanumeric) || !free || !capitalised || function_word(&word.to_lowercase()) {
        return None;
    }
    text[b..].trim_start_matches(crate::translate::prepare::words::after_lead).starts_with(char::is_lowercase).then(|| word.to_string())
}

/// The kept spans the text starts with, one after another ("XXI" "Premio
/// Internacional"), when a lower-case word follows the last of them.
fn lead_of(text: &str, spans: &[(usize, usize, Option<String>)]) -> Option<String> {
    let mut lead = None;
    if let Some(&(first, _, _)) = spans.first()
        && !text[..first].chars().any(char::is_alphanumeric)
    {
        let mut run = String::new();
        let mut end = first;
        for (a, b, target) in spans {
            let gap = &text[end..*a];
            if !gap.chars().all(char::is_whitespace) {
                break;
            }
            run.push_str(gap);
            run.push_str(target.as_deref().unwrap_or(&text[*a..*b]));
            end = *b;
            if text[end..].trim_start_matches(crate::translate::prepare::words::after_lead).starts_with(char::is_lowercase) {
                lead = Some(run);
                break;
            }
        }
    }
    lead
}

/// The text with each span between [`KEEP_START`] and [`KEEP_END`]: a
/// term's rendering, or the words kept as they are (returned, sorted, once each).
fn render(text: &str, spans: Vec<(usize, usize, Option<String>)>) -> (String, Vec<String>) {
    let mut kept = Vec::new();
    let mut out = String::with_capacity(text.len() + spans.len() * 8);
    let mut last = 0;
    for (a, b, target) in spans {
        out.push_str(&text[last..a]);
        out.push(KEEP_START);
        match target {
            Some(t) => out.push_str(&t),
            None => {
                out.push_str(&text[a..b]);
                kept.push(text[a..b].to_string());
            }
        }
        out.push(KEEP_END);
        last = b;
    }
    out.push_str(&text[last..]);
    kept.sort();
    kept.dedup();
    (out, kept)
}

/// Marks the spans of `text` that no engine may translate; `terms` is the
/// term base for the target language (empty when the source is not Spanish).
pub fn prepare(text: &str, known: Known, terms: &TermBase) -> Prepared {
    let text: String = text.chars().filter(|c| !matches!(*c, KEEP_START | KEEP_END)).collect();
    let given: Vec<&str> = [known.venue, known.locality].into_iter().flatten().map(str::trim).filter(|p| p.chars().count() > 2).collect();
    let mut names = places_and_addresses(&text, &given, known.district, known.gazetteer);
    let article_names = if known.running_text { Vec::new() } else { article_names(&text) };
    for span in article_names {
        if names.iter().all(|&(a, b)| span.1 <= a || span.0 >= b) {
            names.push(span);
        }
    }
    let common = |a: usize| known.analysis.map_or(text[a..].starts_with(char::is_uppercase), |an| an.kind_at(a) == Some(WordKind::Common));
    let mut ordinals = known.lang.map_or_else(Vec::new, |lang| crate::translate::prepare::ordinals::find(&text, lang, &common));
    ordinals.retain(|&(a, b, _)| names.iter().all(|&(s, e)| b <= s || a >= e));
    let mut taken: Vec<(usize, usize)> = names.clone();
    taken.extend(ordinals.iter().map(|o| (o.0, o.1)));
    let found = terms_to_put_in(&text, &taken, known, terms);
    taken.extend(found.iter().map(|f| (f.start, f.end)));
    for span in names::find(&text, &taken, &names, known.analysis, known.running_text) {
        match known.analysis.filter(|_| known.name_words) {
            Some(analysis) => names.extend(crate::translate::prepare::namewords::name_words(&text, span, analysis)),
            None => names.push(span),
        }
    }
    given_in_capitals(&text, &given, &mut names, &taken);
    let mut spans: Vec<(usize, usize, Option<String>)> = names.into_iter().map(|(a, b)| (a, b, None)).collect();
    spans.extend(ordinals.into_iter().map(|(a, b, written)| (a, b, Some(written))));
    let mut terms_used = Vec::new();
    for f in &found {
        let t = terms.term(f.term);
        terms_used.push(format!("{}\t{}", t.spanish, t.target));
        let mut rendering = terms.rendering(&text, f);
        // "Lámparas de Calabaza" into a sentence-case title: the term's
        // capital came from Spanish title case ("Lumières de citrouille").
        if known.sentence_case && !starts_sentence(&text, f.start) && t.target.starts_with(char::is_lowercase) {
            rendering = crate::translate::prepare::terms::capitalize_not(&rendering);
        }
        spans.push((f.start, f.end, Some(rendering)));
    }
    terms_used.sort();
    terms_used.dedup();
    spans.sort_by_key(|s| s.0);
    let text = match known.analysis {
        Some(analysis) if known.sentence_case => sentence_cased(&text, &spans, analysis),
        _ => text,
    };
    // After sentence casing: "Danza Barroca" leads with "Danza" once it reads "Danza barroca".
    let lead = lead_of(&text, &spans).or_else(|| first_word_lead(&text, &spans));
    let (out, kept) = render(&text, spans);
    Prepared { text: out, names: kept, terms_used, lead }
}

/// `text` with the capital of each word outside `spans` undone where
/// Spanish title case put it ("La Magia Existe" → "La magia existe"): a
/// capitalised word, not in capitals, not opening a sentence, that the
/// dictionary knows as a common or function word.
fn sentence_cased(text: &str, spans: &[(usize, usize, Option<String>)], analysis: &Analysis) -> String {
    let mut out = text.to_string();
    let ws = words(text);
    let capital = |k: usize| text[ws[k].0..].starts_with(char::is_uppercase);
    // "(La La Land)": a run of capitalised words holding one the dictionary
    // does not know, or knows as a proper noun, is a name: all keep capitals.
    let mut in_name = vec![false; ws.len()];
    let mut k = 0;
    while k < ws.len() {
        let mut end = k;
        while end + 1 < ws.len() && capital(end) && capital(end + 1) && &text[ws[end].1..ws[end + 1].0] == " " {
            end += 1;
        }
        let named = (k..=end).any(|j| matches!(analysis.kind_at(ws[j].0), Some(WordKind::Proper | WordKind::Unknown)));
        if end > k && named {
            in_name[k..=end].fill(true);
        }
        k = end + 1;
    }
    for (j, &(a, b)) in ws.iter().enumerate() {
        if in_name[j] {
            continue;
        }
        let word = &text[a..b];
        let lower = word.to_lowercase();
        let capital = word.starts_with(char::is_uppercase) && word.chars().skip(1).any(char::is_lowercase);
        let free = spans.iter().all(|s| b <= s.0 || a >= s.1);
        let common = matches!(analysis.kind_at(a), Some(WordKind::Common | WordKind::Function));
        if capital && free && common && lower.len() == word.len() && !starts_sentence(text, a) {
            out.replace_range(a..b, &lower);
        }
    }
    out
}

/// Whether the word at byte `a` opens `text` or a sentence in it.
fn starts_sentence(text: &str, a: usize) -> bool {
    let before = &text[..a];
    match before.rfind(|c: char| c.is_alphanumeric()) {
        None => true,
        Some(p) => {
            let end = p + before[p..].chars().next().map_or(1, char::len_utf8);
            opens_sentence(&before[end..]) || crate::translate::prepare::ordinals::leads(before)
        }
    }
}

/// Whether a lower-case word the dictionary knows as an adjective follows
/// byte `end` of `text` after one space.
fn before_an_adjective(text: &str, end: usize, analysis: &Analysis) -> bool {
    text[end..].strip_prefix(' ').is_some_and(|rest| rest.starts_with(char::is_lowercase)) && analysis.adjective_at(end + 1)
}

/// Drops every kept-span mark, leaving the text.
pub fn unmark(text: &str) -> String {
    text.chars().filter(|c| !matches!(*c, KEEP_START | KEEP_END)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A locality the feed writes in capitals ("MADRID") is kept where a title
    /// writes it "Madrid", also first ("Madrid" → Portuguese "Madri"), but
    /// never cuts a longer name.
    #[test]
    fn issue11_a_locality_in_capitals_is_kept_as_a_title_writes_it() {
        let known = Known { locality: Some("MADRID"), ..Known::default() };
        let p = prepare("Madrid, villa y corte", known, &TermBase::default());
        assert_eq!(p.names, ["Madrid"]);
        let p = prepare("Ballet Ara de Madrid", known, &TermBase::parse("ballet\tballet\n", "t").unwrap());
        assert_eq!(p.names, ["Ara de Madrid"]);
    }

    /// A text's first word that no term translates heads the name after it
    /// ("Aula Deportiva Municipal" came back "Salle de cours Deportiva
    /// Municipal"); a term's word does not.
    #[test]
    fn issue11_a_first_word_heads_the_name_after_it() {
        let terms = TermBase::parse("danza\tdance\n", "t").unwrap();
        let p = prepare("Aula Deportiva Municipal de Escalada", Known::default(), &terms);
        assert_eq!(p.names, ["Aula Deportiva Municipal de Escalada"]);
        let p = prepare("Danza Barroca", Known::default(), &terms);
        assert_eq!(p.names, ["Barroca"]);
        let p = prepare("El Retiro", Known::default(), &terms);
        assert_eq!(p.names, ["Retiro"]);
        let p = prepare("Visita a Carlos III", Known::default(), &terms);
        assert_eq!(p.names, ["Carlos III"]);
    }

    /// The lead is every kept span the text starts with, so that the word an
    /// engine capitalises after them is put back in lower case.
    #[test]
    fn issue11_the_lead_runs_over_leading_spans() {
        let p = prepare("XXI KIKO VENENO de gira", Known::default(), &TermBase::default());
        assert_eq!(p.lead.as_deref(), Some("XXI KIKO VENENO"));
        let p = prepare("XXI Premio Internacional. Fotografía", Known::default(), &TermBase::default());
        assert_eq!(p.lead, None);
        let p = prepare("Joel Blanco, con Philippe", Known::default(), &TermBase::default());
        assert_eq!(p.lead.as_deref(), Some("Joel Blanco"));
    }

    /// A first word no span holds leads too when a lower-case word follows it
    /// (Apertium's French capitalised that word after a word it copies:
    /// "Pachanga Foot"); an article opening the title leads nothing ("La Flûte
    /// enchantée" is the engine's own).
    #[test]
    fn issue33_a_free_first_word_leads_a_lower_case_word() {
        let lead = |t: &str| prepare(t, Known::default(), &TermBase::default()).lead;
        assert_eq!(lead("Pachanga fútbol").as_deref(), Some("Pachanga"));
        assert_eq!(lead("'Arteterapia: crear para sanar'").as_deref(), Some("Arteterapia"));
        assert_eq!(lead("La flauta mágica"), None);
    }

    #[test]
    fn prepare_marks_venue_terms_and_names() {
        let terms = TermBase::parse("exposición\texhibition\nclub de lectura\tbook club\n", "t").unwrap();
        let known = Known { venue: Some("Centro Cultural Clara del Rey"), locality: Some("Madrid"), ..Known::default() };
        let p = prepare("Exposición de Joel Blanco en Centro Cultural Clara del Rey, Madrid", known, &terms);
        assert_eq!(
            p.text,
            "\u{E000}Exhibition\u{E001} de \u{E000}Joel Blanco\u{E001} en \u{E000}Centro Cultural Clara del Rey\u{E001}, \u{E000}Madrid\u{E001}"
        );
        assert_eq!(p.terms_used, ["exposición\texhibition"]);
        assert_eq!(p.names, ["Centro Cultural Clara del Rey", "Joel Blanco", "Madrid"]);
        assert_eq!(unmark(&p.text), "Exhibition de Joel Blanco en Centro Cultural Clara del Rey, Madrid");
        let terms = TermBase::parse("en la biblioteca\tat the library\n", "t").unwrap();
        let p = prepare("Cine en la biblioteca Gloria Fuertes", Known::default(), &terms);
        assert_eq!(p.text, "Cine \u{E000}at the library\u{E001} \u{E000}Gloria Fuertes\u{E001}");
    }

    /// With Apertium's analysis, a capitalised run of dictionary words is
    /// translated; one with a proper noun or an unknown word is kept. Without
    /// it, capitals decide as before.
    #[test]
    fn issue20_the_dictionary_decides_which_capitalised_runs_are_names() {
        use crate::translate::prepare::analyser::{Analysis, WordKind};
        let text = "Visita a Letras Liberadas con Grant Phillips";
        let unit = |w: &str, k| {
            let a = text.find(w).unwrap();
            (a, a + w.len(), k)
        };
        let analysis = Analysis {
            given_names: vec![],
            adjectives: vec![],
            units: vec![
                unit("Letras", WordKind::Common),
                unit("Liberadas", WordKind::Common),
                unit("Grant", WordKind::Proper),
                unit("Phillips", WordKind::Unknown),
            ],
        };
        let p = prepare(text, Known { analysis: Some(&analysis), ..Known::default() }, &TermBase::default());
        assert_eq!(p.names, ["Grant Phillips"]);
        let p = prepare(text, Known::default(), &TermBase::default());
        assert_eq!(p.names, ["Grant Phillips", "Letras Liberadas"]);
        // Capitals and given names need no dictionary.
        let analysis = Analysis::default();
        let known = Known { analysis: Some(&analysis), ..Known::default() };
        assert_eq!(prepare("Teatro con EDULOGIC PRODUCCIONES", known, &TermBase::default()).names, ["EDULOGIC PRODUCCIONES"]);
        assert_eq!(prepare("Eloy de la Iglesia, cineasta", known, &TermBase::default()).names, ["Eloy de la Iglesia"]);
    }

    /// The event's district is kept where it stands alone, not where it heads a
    /// longer name.
    #[test]
    fn issue20_the_district_is_kept_where_it_stands_alone() {
        let known = Known { district: Some("Retiro"), ..Known::default() };
        assert_eq!(prepare("Paseo por el Retiro", known, &TermBase::default()).names, ["Retiro"]);
        let known = Known { district: Some("Centro"), ..Known::default() };
        assert_eq!(prepare("Taller en el Centro Cultural", known, &TermBase::default()).names, ["Centro Cultural"]);
    }
}
