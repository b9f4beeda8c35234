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
//! [`prepare`] finds the spans in order, each finder around what those
//! before it took: the places the event names (`places`) and, in a title,
//! the names that carry their article (`capitals`); edition ordinals
//! (`ordinals`) and terms (`terms`), which the target language writes its
//! own way; the names the text's capitals give away (`names`), kept whole
//! or word by word (`namewords`). `render` writes the result.
//!
//! Not for: personal data (scrubbed before, by `parse::pii`), or how a
//! backend carries a kept span (each backend's own framing).

pub mod addresses;
pub mod analyser;
mod capitals;
pub mod gazetteer;
pub mod headings;
mod names;
pub mod namewords;
pub mod ordinals;
pub mod original;
mod places;
mod render;
pub mod terms;
pub mod words;

use crate::lang::Lang;
use crate::translate::engines::stream::{KEEP_END, KEEP_START};
use analyser::{Analysis, WordKind};
use render::Span;
use terms::{Found, TermBase};

/// What the event tells us is a name, and what the dictionary says of its words.
#[derive(Debug, Default, Clone, Copy)]
pub struct Known<'a> {
    pub venue: Option<&'a str>,
    pub locality: Option<&'a str>,
    pub district: Option<&'a str>,
    /// Place and organisation names the operator's gazetteer lists.
    pub gazetteer: Option<&'a gazetteer::Gazetteer>,
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
    /// A text sent plain (`lang::plain`): the engine's own analysis of it
    /// (the analyser of its route's first mode). With it, only the names
    /// that engine would translate as ordinary words are kept
    /// (`namewords::mangled_by_the_engine`).
    pub engine_analysis: Option<&'a Analysis>,
    /// The Apertium mode the text goes through first (`spa-ita`): a town's
    /// name its dictionary reads as an ordinary word is kept from it
    /// (`data/lang/es/town-words.txt`).
    pub first_mode: Option<&'static str>,
    /// The original writes titles in sentence case (Basque): every
    /// capitalised run but a sentence's first word is a name, kept whatever
    /// the dictionary knows of its words ("Amets Arzallus", not "Sueño
    /// Arzallus").
    pub capitals_are_names: bool,
    /// The original writes titles in sentence case and shouts a status in
    /// capitals (Catalan: "ACTIVITAT CANCEL·LADA", "NO S'HA FET"): a word in
    /// capitals the dictionary knows is a heading's, not a name's, and the
    /// engine translates it.
    pub capitals_are_headings: bool,
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
    /// The kept names that are the event's district: a city's district
    /// (Madrid's Salamanca) is no town of that name, and takes no exonym.
    pub local: Vec<String>,
    /// The parts of a title (`headings`: between its colons, stops,
    /// brackets and quotes, by index) that the original shouts in capitals
    /// and that were sent in lower case: their translation goes back into
    /// capitals (`headings::restore`).
    pub shouted: Vec<usize>,
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
                anchors.push(terms::capitalize(target));
            }
        }
        anchors
    }

    /// The kept spans the text sent has a stop, comma, colon or semicolon
    /// right after, each with that mark ("tempo.", "Maris Stella."): where
    /// Apertium moved such a mark before a run of spans, house style puts
    /// it back after the right one (`finish::moved`).
    pub fn marked_spans(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = self.text.as_str();
        while let Some(start) = rest.find(KEEP_START) {
            let Some(len) = rest[start..].find(KEEP_END) else { break };
            let span = &rest[start + KEEP_START.len_utf8()..start + len];
            rest = &rest[start + len + KEEP_END.len_utf8()..];
            if let Some(mark) = rest.chars().next().filter(|c| matches!(c, '.' | ',' | ';' | ':')) {
                out.push(format!("{span}{mark}"));
            }
        }
        out
    }
}

/// Marks the spans of `text` that no engine may translate; `terms` is the
/// term base for the target language (empty when the source is not Spanish).
pub fn prepare(text: &str, known: Known, terms: &TermBase) -> Prepared {
    let text = elided_line_breaks(&unmark(text));
    let given: Vec<&str> = [known.venue, known.locality].into_iter().flatten().map(str::trim).filter(|p| p.chars().count() > 2).collect();
    let mut kept = kept_first(&text, &given, known);
    // A heading in capitals of common words goes to the engine in lower case.
    let headings = match known.analysis {
        Some(analysis) if !known.running_text && !known.capitals_are_headings && !known.capitals_are_names => {
            headings::find(&text, &kept, analysis)
        }
        _ => Vec::new(),
    };
    let text = headings::lowered(&text, &headings);
    // What the target language writes its own way: ordinals, then terms.
    let ordinals = edition_ordinals(&text, known, &kept);
    let mut taken: Vec<(usize, usize)> = kept.clone();
    taken.extend(ordinals.iter().map(|o| (o.0, o.1)));
    let found = terms_to_put_in(&text, &taken, known, terms);
    taken.extend(found.iter().map(|f| (f.start, f.end)));
    // The names around all that, whole or word by word.
    for span in names::find(&text, &taken, &kept, &known) {
        match (known.analysis, known.engine_analysis) {
            (Some(analysis), Some(engine)) => kept.extend(namewords::mangled_by_the_engine(&text, span, analysis, engine)),
            (Some(analysis), None) if known.name_words => {
                kept.extend(namewords::name_words(&text, span, analysis, known.capitals_are_headings))
            }
            _ => kept.push(span),
        }
    }
    places::given_in_capitals(&text, &given, &mut kept, &taken);
    let mut spans: Vec<Span> = kept.into_iter().map(|(a, b)| (a, b, None)).collect();
    spans.extend(ordinals.into_iter().map(|(a, b, written)| (a, b, Some(written))));
    spans.extend(render::term_spans(&text, &found, terms, known.sentence_case));
    spans.sort_by_key(|s| s.0);
    numbered_names(&text, &mut spans);
    if let Some(lang) = known.lang {
        // A Catalan original's locative "a" first: it goes as a span of its
        // own, and no longer joins the names either side of it ("Fira de
        // Santa Llúcia a Sant Feliu de Pallerols": "em Sant Feliu").
        if known.capitals_are_headings {
            locatives(&text, &given, &mut spans, lang, known.analysis);
        } else {
            spanish_locatives(&text, known.locality, &mut spans, lang, known.analysis);
        }
        join_names(&text, &mut spans, lang);
    }
    let text = match known.analysis {
        Some(analysis) if known.sentence_case => render::sentence_cased(&text, &spans, analysis),
        _ => text,
    };
    // After sentence casing: "Danza Barroca" leads with "Danza" once it reads "Danza barroca".
    let lead = render::lead(&text, &spans);
    let before_render = text.clone();
    let (text, names) = render::marked(&text, spans);
    let district = known.district.map(str::trim).unwrap_or_default();
    let local = names.iter().filter(|n| !district.is_empty() && n.trim().eq_ignore_ascii_case(district)).cloned().collect();
    // A term put in with a mark of its own would shift the parts: none come back in capitals.
    let shouted = if headings::same_marks(&unmark(&text), &before_render) { headings.iter().map(|h| h.0).collect() } else { Vec::new() };
    Prepared { text, names, terms_used: terms_used(&found, terms), lead, local, shouted }
}

/// A Roman numeral right after a kept name, ending the text or its clause,
/// is the name's ("Madrid Río I", "Felipe II."): the span takes it in. Left apart, it is a word after the
/// span, which Catalan moves before it ("De \[Madrid Río\] I." → "D'I.
/// Madrid Río").
fn numbered_names(text: &str, spans: &mut [Span]) {
    for i in 0..spans.len() {
        let (a, b, None) = spans[i] else { continue };
        let Some(rest) = text[b..].strip_prefix(' ') else { continue };
        let word = rest.split(|c: char| !c.is_alphanumeric()).next().unwrap_or_default();
        let end = b + 1 + word.len();
        let free = spans.get(i + 1).is_none_or(|next| next.0 >= end);
        // Ending the text or its clause: "PAU RIBA I DE MORTIMERS" is Catalan's "i".
        let closes = text[end..].chars().next().is_none_or(|c| matches!(c, '.' | ',' | ':' | ';' | ')' | '\n'));
        if free && closes && ordinals::roman(word).is_some() {
            spans[i] = (a, end, None);
        }
    }
}

/// Two kept names with one word of `es/name-joins.tsv` between them become
/// one kept span, into the languages that write the word as Spanish does:
/// the engine reads each span as a blank, so the word would stand beside
/// the word before the first name, where Galician and Portuguese read
/// "De \[X\] a \[Y\]" as "Da X  Y" and Catalan moves it ("De l'a X  Y").
/// A kept name with such a word after it and then a capitalised word the
/// engine translates ("De \[Concha Espina\] a Plaza de Castilla") takes
/// the word in, for the same reason: Galician wrote "Da Concha Espina Praza
/// de Castela", Catalan dropped the "a".
fn join_names(text: &str, spans: &mut Vec<Span>, lang: Lang) {
    let mut i = 0;
    while i + 1 < spans.len() {
        let (a, b, ref first) = spans[i];
        let (c, d, ref second) = spans[i + 1];
        if first.is_none() && second.is_none() && b <= c && words::joins_names(&text[b..c], lang) {
            spans[i] = (a, d, None);
            spans.remove(i + 1);
        } else {
            i += 1;
        }
    }
    for i in 0..spans.len() {
        let (a, b, None) = spans[i] else { continue };
        let Some(rest) = text[b..].strip_prefix(' ') else { continue };
        let Some((word, after)) = rest.split_once(' ') else { continue };
        let end = b + 1 + word.len();
        let free = spans.get(i + 1).is_none_or(|next| next.0 > end + 1);
        if free && after.starts_with(char::is_uppercase) && words::joins_names(&format!(" {word} "), lang) {
            spans[i] = (a, end, None);
        }
    }
}

/// A Catalan original's "a" right before the event's kept town or venue
/// (`given`), or before a kept name the dictionary knows as a place
/// ("Nascut a Granada", "succeeixen a Catalunya"), says where the event
/// or the thing is; the engine, which reads the kept place as a blank, would
/// write it as motion (Portuguese "a Pals", where plain Apertium has "em
/// Pals"). Into a language `ca/locatives.tsv` names, it goes as that
/// language writes it, a span of its own beside the place; after a noun of
/// going listed there (`motion`: "Excursió a Pals") it stays the engine's,
/// but not after such a word capitalised at the end of a name, after a
/// `connector` ("Mare de Déu del Camí a Cambrils"), and so does the "a" of
/// a range from one kept place to another ("De Sants a Gràcia"), which
/// `join_names` keeps whole, and the "a" after a kept name that a noun of
/// going owns ("el viatge de l'OBC a Madrid", `article` and `connector`
/// rows between), or that a `conjunction` joins to such a one ("i de
/// l'ONE a Barcelona").
fn locatives(text: &str, given: &[&str], spans: &mut Vec<Span>, lang: Lang, analysis: Option<&Analysis>) {
    let rows = &crate::lang_data::of(Lang::Ca).locatives;
    let Some(word) = rows.rows().find(|r| r.first() == Some(&lang.as_str())).and_then(|r| r.get(1).copied()) else { return };
    let of_kind = |kind: &str, w: &str| rows.rows().any(|r| r.first() == Some(&kind) && r.get(1) == Some(&w));
    // The event's place, one the dictionary knows as a place, a Catalan
    // town it does not know ("Nascut a Sant Miquel de Campmajor"), or a
    // `place` row, a name "a" is "on" before ("a YouTube").
    let place = |a: usize, b: usize| {
        let name = text[a..b].trim();
        given.iter().any(|g| name.eq_ignore_ascii_case(g))
            || analysis.is_some_and(|an| an.place_at(a))
            || crate::parse::places::is_catalan_town(name)
            || of_kind("place", name)
    };
    // The word a kept name right before "a" belongs to: "el viatge de
    // l'OBC a Madrid" → "viatge", past an `article` and a `connector` (an
    // elided one glued to the name: "l'", "d'").
    let owner = |before: &str| -> String {
        let mut rest = before.to_lowercase();
        for kind in ["article", "connector"] {
            let trimmed = rest.trim_end();
            let elision = |c: char| c == '\'' || c == '’';
            // The last word, or an elided one glued to the name ("l'").
            let last = if trimmed.len() == rest.len() && trimmed.ends_with(elision) {
                trimmed.rsplit(|c: char| !c.is_alphabetic() && !elision(c)).next().unwrap_or_default()
            } else {
                trimmed.rsplit(char::is_whitespace).next().unwrap_or_default()
            };
            if of_kind(kind, last) {
                rest = trimmed[..trimmed.len() - last.len()].to_string();
            }
        }
        rest.trim_end().rsplit(char::is_whitespace).next().unwrap_or_default().to_string()
    };
    // Whether the last "a" was motion: one after a name joined by a
    // `conjunction` goes as it went ("i de l'ONE a Barcelona").
    let mut went = false;
    let mut put = Vec::new();
    for &(a, b, ref written) in spans.iter() {
        let Some(before) = text[..a].strip_suffix("a ") else { continue };
        let alone = before.is_empty() || before.ends_with(' ');
        // The word before it, on its line ("la cançó\nCap a Bremen"); a
        // capitalised one after a `connector` ends a name ("del Camí").
        let head = before.trim_end();
        let written_word = head.rsplit(char::is_whitespace).next().unwrap_or_default();
        let rest = head[..head.len() - written_word.len()].trim_end();
        let connector = rest.rsplit(char::is_whitespace).next().unwrap_or_default();
        let in_a_name = written_word.starts_with(char::is_uppercase) && of_kind("connector", connector);
        let noun = written_word.to_lowercase();
        let free = spans.iter().all(|s| s.1 <= a - 2 || s.0 >= a);
        // "De Sants a Gràcia": from a kept place to another.
        let range = spans.iter().any(|s| {
            let from = text[..s.0].trim_end().rsplit(char::is_whitespace).next().unwrap_or_default().to_lowercase();
            s.1 + 1 == a - 2 && place(s.0, s.1) && of_kind("connector", &from)
        });
        let after_name = spans.iter().find(|s| s.2.is_none() && s.1 + 1 == a - 2).map(|s| owner(&text[..s.0]));
        let going = match after_name {
            Some(w) if of_kind("conjunction", &w) => went,
            Some(w) => of_kind("motion", &w),
            None => false,
        } || (!in_a_name && of_kind("motion", &noun));
        went = going;
        if written.is_none() && place(a, b) && alone && free && !going && !range {
            put.push((a - 2, a - 1, Some(word.to_string())));
        }
    }
    spans.extend(put);
    spans.sort_by_key(|s| s.0);
}

/// A Spanish "en" right before a kept town says where: the engine, which
/// reads the kept place as a blank, writes it as the "en" of any other
/// noun, and through Catalan into Italian that is "in" ("stabilita in
/// Madrid", where plain Apertium, which sees the place, has "a Madrid").
/// Into a language `es/locatives.tsv` names, it goes as that language
/// writes it before a town, a span of its own beside the place. The place
/// is the event's locality, or a kept span the dictionary reads as one
/// place's name (`<np><loc>`: "Granada", "Torrejón de Ardoz"); a region,
/// a country or a large island (`region` rows: "en Andalucía", Italian "in
/// Andalusia") keeps the engine's word.
fn spanish_locatives(text: &str, locality: Option<&str>, spans: &mut Vec<Span>, lang: Lang, analysis: Option<&Analysis>) {
    let rows = &crate::lang_data::of(Lang::Es).locatives;
    let Some(word) = rows.rows().find(|r| r.first() == Some(&lang.as_str())).and_then(|r| r.get(1).copied()) else { return };
    let region = |place: &str| rows.rows().any(|r| r.first() == Some(&"region") && r.get(1) == Some(&place));
    let place = |a: usize, b: usize| {
        let name = text[a..b].trim();
        let town = locality.is_some_and(|l| name.eq_ignore_ascii_case(l.trim()))
            || analysis.is_some_and(|an| an.place_at(a) && an.units.iter().any(|u| u.0 == a && u.1 == a + name.len()));
        town && !region(name)
    };
    let mut put = Vec::new();
    for &(a, b, ref written) in spans.iter() {
        let Some((before, en)) = ["en ", "En "].iter().find_map(|en| text[..a].strip_suffix(en).map(|r| (r, *en))) else { continue };
        let at = before.len();
        // A word of its own: at the start, or after a blank or a mark.
        let alone = before.chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let free = spans.iter().all(|s| s.1 <= at || s.0 >= a);
        if written.is_none() && alone && free && place(a, b) {
            let written = if en.starts_with('E') { terms::capitalize(word) } else { word.to_string() };
            put.push((at, at + 2, Some(written)));
        }
    }
    spans.extend(put);
    spans.sort_by_key(|s| s.0);
}

/// The spans kept before anything else: the places the event names
/// (`given`: its venue and locality), then, in a title, the names that
/// carry their article where no place holds them.
fn kept_first(text: &str, given: &[&str], known: Known) -> Vec<(usize, usize)> {
    let mut kept = places::places_and_addresses(text, given, known.district, known.gazetteer);
    let article_names = if known.running_text { Vec::new() } else { capitals::article_names(text) };
    for span in article_names {
        if kept.iter().all(|&(a, b)| span.1 <= a || span.0 >= b) {
            kept.push(span);
        }
    }
    kept
}

/// The edition ordinals of `text` outside the `kept` spans, as the target
/// language writes them; none without a target language.
fn edition_ordinals(text: &str, known: Known, kept: &[(usize, usize)]) -> Vec<(usize, usize, String)> {
    let common = |a: usize| known.analysis.map_or(text[a..].starts_with(char::is_uppercase), |an| an.kind_at(a) == Some(WordKind::Common));
    let mut ordinals = known.lang.map_or_else(Vec::new, |lang| ordinals::find(text, lang, &common));
    ordinals.retain(|&(a, b, _)| kept.iter().all(|&(s, e)| b <= s || a >= e));
    // "I ara què?": a numeral the dictionary reads as a conjunction too is
    // Catalan's "and" opening a sentence, no first edition.
    ordinals.retain(|&(a, _, _)| !known.analysis.is_some_and(|an| an.conjunction_at(a)));
    ordinals
}

/// The terms of `terms` found in `text` outside `taken`, but a one-word
/// term before an adjective in a language that puts the adjective first:
/// "Leyendas botánicas" would come back "Legends Botanists", since the
/// engine cannot move a term; where the dictionary knows the noun, the
/// engine translates the pair ("Botanic Legends").
fn terms_to_put_in(text: &str, taken: &[(usize, usize)], known: Known, terms: &TermBase) -> Vec<Found> {
    let mut found = terms.find(text, taken);
    found.retain(|f| !(known.running_text && terms.term(f.term).titles_only));
    // After a demonstrative or a possessive the target's engine breaks
    // (`es/determiners.tsv`) the engine translates the pair: alone, the
    // word would read as a pronoun ("celle-ci").
    found.retain(|f| !words::determiner_before(text, f.start, known.lang));
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

/// Whether a lower-case word the dictionary knows as an adjective follows
/// byte `end` of `text` after one space.
fn before_an_adjective(text: &str, end: usize, analysis: &Analysis) -> bool {
    text[end..].strip_prefix(' ').is_some_and(|rest| rest.starts_with(char::is_lowercase)) && analysis.adjective_at(end + 1)
}

/// The term entries put in, as `Spanish\ttarget` lines, sorted, once each.
fn terms_used(found: &[Found], terms: &TermBase) -> Vec<String> {
    let mut used: Vec<String> = found
        .iter()
        .map(|f| {
            let t = terms.term(f.term);
            format!("{}\t{}", t.spanish, t.target)
        })
        .collect();
    used.sort();
    used.dedup();
    used
}

/// `text` with a line break right after an elided word ("…el nou concert
/// familiar d’⏎Ambauka", as a publisher broke the line) turned into a
/// blank, so the text keeps its length and the analysis its offsets: the
/// engine elides within a line only, and "de⏎Ambauka" came back where
/// plain Apertium, reading one line, has "d'Ambauka". An elided word is one
/// to three letters and an apostrophe ("d’", "l'", "qu'"), with a letter on
/// the next line; a number's minutes ("20'") or a closing quote
/// ("silencio'") end no elided word.
fn elided_line_breaks(text: &str) -> String {
    let mut out = text.to_string();
    for (i, _) in text.match_indices('\n') {
        let before = &text[..i];
        let Some(word) = before.strip_suffix(['\'', '’']) else { continue };
        let head = word.trim_end_matches(char::is_alphabetic);
        let elided = (1..=3).contains(&word[head.len()..].chars().count()) && !head.ends_with(char::is_alphanumeric);
        let next = text[i + 1..].trim_start_matches([' ', '\t']);
        if elided && next.starts_with(char::is_alphabetic) {
            out.replace_range(i..i + 1, " ");
        }
    }
    out
}

/// Drops every kept-span mark, leaving the text.
pub fn unmark(text: &str) -> String {
    text.chars().filter(|c| !matches!(*c, KEEP_START | KEEP_END)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A publisher's line break after an elided word goes as a blank; a
    /// number's minutes, a closing quote and a line's own end stay.
    #[test]
    fn a_line_break_after_an_elided_word_goes_as_a_blank() {
        assert_eq!(elided_line_breaks("concert familiar d’\nAmbauka. Des"), "concert familiar d’ Ambauka. Des");
        assert_eq!(elided_line_breaks("algunes escenes d'\nEnric IV"), "algunes escenes d' Enric IV");
        assert_eq!(elided_line_breaks("op. 54 (1891) 20'\n\nEdvard"), "op. 54 (1891) 20'\n\nEdvard");
        assert_eq!(elided_line_breaks("retrato del silencio'\n\nAproximación"), "retrato del silencio'\n\nAproximación");
        assert_eq!(elided_line_breaks("la d'\n\n"), "la d'\n\n");
    }

    /// A Roman numeral that ends a kept name's clause is the name's ("Madrid
    /// Río I"); a capital "I" between two words is no numeral (Catalan's
    /// "i" in a title in capitals).
    #[test]
    fn a_roman_numeral_closing_a_name_is_kept_with_it() {
        let spans_of = |text: &str, name: &str| {
            let a = text.find(name).unwrap();
            let mut spans: Vec<Span> = vec![(a, a + name.len(), None)];
            numbered_names(text, &mut spans);
            spans.iter().map(|s| text[s.0..s.1].to_string()).collect::<Vec<_>>()
        };
        assert_eq!(spans_of("Ruta por Madrid Río I", "Madrid Río"), ["Madrid Río I"]);
        assert_eq!(spans_of("Ruta por Madrid Río II: el parque", "Madrid Río"), ["Madrid Río II"]);
        assert_eq!(spans_of("PAU RIBA I DE MORTIMERS", "PAU RIBA"), ["PAU RIBA"]);
        assert_eq!(spans_of("Ruta por Madrid Río Ideal", "Madrid Río"), ["Madrid Río"]);
    }

    /// A term put in right after a leading kept span goes on the lead, so
    /// that finishing leaves its target's own capital alone ("Madrid
    /// Distrito en Corto", not "Madrid distrito en Corto").
    #[test]
    fn a_term_right_after_a_leading_span_goes_on_the_lead() {
        let known = Known { locality: Some("Madrid"), ..Known::default() };
        let terms = TermBase::parse("distrito en corto\tDistrito en Corto\tafter-name\n", "t").unwrap();
        let p = prepare("Madrid distrito en corto en Salamanca", known, &terms);
        assert_eq!(p.lead.as_deref(), Some("Madrid Distrito en Corto"));
        let p = prepare("Madrid en otoño", known, &terms);
        assert_eq!(p.lead.as_deref(), Some("Madrid"));
    }

    /// A locality the feed writes in capitals ("MADRID") is kept where a title
    /// writes it "Madrid", also first ("Madrid" → Portuguese "Madri"), but
    /// never cuts a longer name.
    #[test]
    fn a_locality_in_capitals_is_kept_as_a_title_writes_it() {
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
    fn a_first_word_heads_the_name_after_it() {
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
    fn the_lead_runs_over_leading_spans() {
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
    fn a_free_first_word_leads_a_lower_case_word() {
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
    fn the_dictionary_decides_which_capitalised_runs_are_names() {
        use crate::translate::prepare::analyser::{Analysis, WordKind};
        let text = "Visita a Letras Liberadas con Grant Phillips";
        let unit = |w: &str, k| {
            let a = text.find(w).unwrap();
            (a, a + w.len(), k)
        };
        let analysis = Analysis {
            units: vec![
                unit("Letras", WordKind::Common),
                unit("Liberadas", WordKind::Common),
                unit("Grant", WordKind::Proper),
                unit("Phillips", WordKind::Unknown),
            ],
            ..Analysis::default()
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

    /// A Catalan original shouts a status in capitals: words the dictionary
    /// knows (one unit across its "·") go to the engine; a word it does not
    /// know stays a name beside them.
    #[test]
    fn a_status_in_capitals_is_no_name_in_a_catalan_title() {
        use crate::translate::prepare::analyser::{Analysis, WordKind};
        let text = "XXV Trobada Llaudística NO S'HA FET a CANCEL·LADA";
        let unit = |w: &str, k| {
            let a = text.find(w).unwrap();
            (a, a + w.len(), k)
        };
        let analysis = Analysis {
            units: vec![
                unit("XXV", WordKind::Unknown),
                unit("Trobada", WordKind::Common),
                unit("Llaudística", WordKind::Unknown),
                unit("NO", WordKind::Function),
                unit("S'HA", WordKind::Common),
                unit("FET", WordKind::Common),
                unit("CANCEL·LADA", WordKind::Common),
            ],
            ..Analysis::default()
        };
        let catalan = Known { analysis: Some(&analysis), capitals_are_headings: true, ..Known::default() };
        let names = prepare(text, catalan, &TermBase::default()).names;
        assert!(!names.iter().any(|n| n.contains("FET") || n.contains("LADA")), "{names:?}");
        assert!(names.iter().any(|n| n.contains("Llaudística")), "{names:?}");
        // A Spanish original's word in capitals is a company's, as before.
        let spanish = Known { analysis: Some(&analysis), ..Known::default() };
        assert!(prepare(text, spanish, &TermBase::default()).names.iter().any(|n| n.contains("FET")));
    }

    /// A Catalan "a" before a place the dictionary knows goes as the target
    /// writes where, but not after a word with which it makes another
    /// preposition, on a new line too ("la cançó\nCap a Bremen": towards).
    #[test]
    fn a_catalan_locative_a_before_a_known_place() {
        let text = "la cançó\nCap a Bremen. Un concert a Bremen";
        let places: Vec<usize> = text.match_indices("Bremen").map(|(a, _)| a).collect();
        let mut units: Vec<(usize, usize, WordKind)> = places.iter().map(|&a| (a, a + 6, WordKind::Proper)).collect();
        units.push((text.find("Cap").unwrap(), text.find("Cap").unwrap() + 3, WordKind::Common));
        units.push((text.find("Un").unwrap(), text.find("Un").unwrap() + 2, WordKind::Function));
        units.sort_unstable_by_key(|u| u.0);
        let analysis = Analysis { units, places, ..Analysis::default() };
        let known = Known { analysis: Some(&analysis), capitals_are_headings: true, lang: Some(Lang::Pt), ..Known::default() };
        let p = prepare(text, known, &TermBase::default());
        assert_eq!(p.text.replace(KEEP_START, "{").replace(KEEP_END, "}"), "la cançó\nCap a {Bremen}. Un concert {em} {Bremen}");
    }

    /// The event's district is kept where it stands alone, not where it heads a
    /// longer name.
    #[test]
    fn the_district_is_kept_where_it_stands_alone() {
        let known = Known { district: Some("Retiro"), ..Known::default() };
        assert_eq!(prepare("Paseo por el Retiro", known, &TermBase::default()).names, ["Retiro"]);
        let known = Known { district: Some("Centro"), ..Known::default() };
        assert_eq!(prepare("Taller en el Centro Cultural", known, &TermBase::default()).names, ["Centro Cultural"]);
    }
}
