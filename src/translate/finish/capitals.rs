//! Capital letters: those an engine puts where the target language writes
//! none, undone, and English titles in title case. A word after a leading
//! kept span is no sentence start ("Apprenez à Identifier" → "identifier");
//! function words an engine capitalised mid-sentence go back to lower case
//! ("Activités Dans le centre", `data/lang/LANG/function-words.txt`);
//! English titles capitalise each word but the small ones
//! (`data/lang/en/small-words.txt`; British usage). A capital right after
//! a heading shouted in capitals opens the title's own words and stays
//! ("ACTIVITY CANCELLED A Night…").
//!
//! Not for: a kept span's capitals (it comes back byte for byte), or the
//! capital Apertium keeps inside a contraction (`contract`).

use super::cut::Finishing;
use super::cut::Segment;
use crate::lang::Lang;

/// Whether English title case leaves `word` in lower case unless it comes
/// first (`data/lang/en/small-words.txt`).
fn small_word(word: &str) -> bool {
    crate::lang_data::of(crate::lang::Lang::En).small_words.has(word)
}

/// An engine that capitalises every sentence's first word takes the word
/// after a leading kept span for one ("Apprenez à Identifier"): the output
/// with that word's capital undone, when it was not a name.
pub(super) fn lower_after_lead(output: &str, lead: &str, names: &[String]) -> Option<String> {
    // "« Atelier Adultes »": the text's opening quote or mark comes first.
    let opening = |c: char| !c.is_alphanumeric();
    let rest = output.trim_start_matches(opening).strip_prefix(lead.trim_start_matches(opening).trim_end())?;
    let word_start = output.len() - rest.trim_start_matches(crate::translate::prepare::words::after_lead).len();
    if word_start == output.len() - rest.len() {
        return None;
    }
    let after = &output[word_start..];
    if names.iter().any(|n| !n.is_empty() && after.starts_with(n.as_str())) {
        return None;
    }
    let c = after.chars().next()?;
    // "D'humanitaire": an elided word is a word too.
    let word: Vec<char> = after.chars().take_while(|c| c.is_alphabetic() || *c == '\'').collect();
    if !c.is_uppercase() || word.len() < 2 || word[1..].iter().any(|c| c.is_uppercase()) {
        return None;
    }
    Some(format!("{}{}{}", &output[..word_start], c.to_lowercase(), &after[c.len_utf8()..]))
}

/// Function words an engine capitalised put back in lower case in each
/// plain stretch (see `lower_stray_capitals`).
pub(super) fn lower_stray_capitals_in(segs: &mut [Segment], text: &Finishing) {
    let mut after_name = false;
    for i in 0..segs.len() {
        let name_next = matches!(segs.get(i + 1), Some(Segment::Name(_)));
        match &mut segs[i] {
            Segment::Plain(t) => {
                // "Kids Village En Villaverde": a word right after a name
                // is mid-sentence too.
                *t = lower_stray_capitals(t, text.lang, after_name && t.starts_with(' '), name_next && t.ends_with(' '));
                after_name = false;
            }
            Segment::Name(t) => after_name = t.ends_with(char::is_alphanumeric),
        }
    }
}

/// Function words an engine capitalises after a kept span or an unknown
/// word ("Activités Dans le centre"); lower case mid-sentence
/// (`data/lang/LANG/function-words.txt`).
fn function_words(lang: Lang) -> &'static [&'static str] {
    crate::lang_data::of(lang).function_words.lines()
}

/// `name_next`: a kept name follows the stretch, one blank between.
fn lower_stray_capitals(text: &str, lang: Lang, after_word: bool, name_next: bool) -> String {
    let words = function_words(lang);
    if words.is_empty() {
        return text.to_string();
    }
    let articles = crate::lang_data::of(lang).name_articles.lines();
    let mut out = String::with_capacity(text.len());
    let mut after_word = after_word;
    // "(La La Land)": a function word right after one that kept its capital
    // belongs to the same name.
    let mut after_kept_capital = false;
    let tokens: Vec<&str> = text.split(' ').collect();
    let mut shouted_before = 0;
    for (i, token) in tokens.iter().copied().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        // "(La": a word after an opening bracket or quote is not after a word.
        let bare = token.trim_start_matches(|c: char| !c.is_alphanumeric());
        // "ACTIVIDAD CANCELADA Una noche": a capital right after a heading
        // shouted in capitals opens the title's own words.
        let heading = after_a_heading(shouted_before, token) && !tokens.get(i + 1).is_some_and(|n| shouted(n));
        shouted_before = shouted_run(shouted_before, token);
        let after = after_word && bare.len() == token.len() && !heading;
        let lower = token.to_lowercase();
        // "Concerto DA Banda Municipal": Apertium writes a contraction of
        // two capitalised words ("De La") in capitals; amid words that are
        // not, it is a capitalised word.
        let amid = shouted(token)
            && !i.checked_sub(1).and_then(|p| tokens.get(p)).is_some_and(|p| shouted(p))
            && !tokens.get(i + 1).is_some_and(|n| shouted(n));
        let capital = amid || bare.chars().next().is_some_and(char::is_uppercase) && bare.chars().skip(1).all(|c| !c.is_uppercase());
        // "Concert D'élèves": an elided function word, lower case like the rest.
        let elided = lang == "fr" && ["d'", "l'", "qu'"].iter().any(|e| lower.starts_with(e) && lower.len() > e.len());
        // "Théâtre La Faràndula", "diceva La Vanguardia": an article before a
        // capitalised word opens that name, its capital the publisher's
        // (`name-articles.txt`).
        // Not before a word in capitals: "NOTA DE La AGENDA" is a heading
        // shouted, the article Apertium's contraction inside it.
        let next_capital = match tokens[i + 1..].iter().find(|t| !t.is_empty()) {
            Some(next) => next.starts_with(char::is_uppercase) && !shouted(next),
            None => name_next,
        };
        let bare_lower = bare.to_lowercase();
        let opens_a_name = next_capital && articles.contains(&bare_lower.as_str());
        let function = capital && words.contains(&bare_lower.as_str()) && !opens_a_name;
        let kept = function && (!after || after_kept_capital);
        after_kept_capital = kept;
        if after && function && !kept {
            out.push_str(&lower);
        } else if after && capital && elided {
            out.push_str(&crate::translate::prepare::terms::capitalize_not(token));
        } else {
            out.push_str(token);
        }
        if !token.is_empty() {
            after_word = token.chars().last().is_some_and(|c| c.is_alphanumeric() || c == '\'' || c == '’');
        }
    }
    out
}

/// Whether a word of at least two letters has no lower-case letter: shouted.
fn shouted(word: &str) -> bool {
    word.chars().filter(|c| c.is_alphabetic()).count() >= 2 && !word.chars().any(char::is_lowercase)
}

/// Whether `word`, capitalised and not shouted, comes right after a
/// heading shouted in capitals: the two words or more right before it
/// (`shouted_before`, counted back to the first that is not) are in capitals. A status a Catalan
/// title shouts goes to the engine ("ACTIVITAT CANCEL·LADA Una Nit…"),
/// and the capital after it opens the title's own words ("ACTIVITY
/// CANCELLED A Night…", Spanish "…CANCELADA Una Noche"): no function word
/// an engine capitalised. One word in capitals is no heading ("Concerto DA
/// Banda", a Roman numeral), and a word between two in capitals is inside
/// the heading ("NOTA DE La AGENDA", Apertium's contraction; see the callers).
fn after_a_heading(shouted_before: usize, word: &str) -> bool {
    let capital = word.chars().next().is_some_and(char::is_uppercase) && !shouted(word);
    capital && shouted_before >= 2
}

/// The run of words in capitals that ends with `word`: one more than
/// `before`, or none.
fn shouted_run(before: usize, word: &str) -> usize {
    if shouted(word) { before + 1 } else { 0 }
}

/// Capitalises each word of the plain segments but the small ones; the
/// first word, any after a colon, full stop, dash or opening bracket, and
/// a capitalised one right after a heading in capitals
/// ([`after_a_heading`]), always.
pub(super) fn title_case(segs: &mut [Segment]) {
    let mut first = true;
    // Whether the last segment was a kept name: a stretch right after it
    // with no blank between continues the name's word ("Halvorson" and
    // "'s Code Girl"), and that piece stays as written (not "Halvorson'S").
    let mut after_name = false;
    for s in segs.iter_mut() {
        let glued = std::mem::replace(&mut after_name, matches!(s, Segment::Name(_)));
        match s {
            Segment::Name(t) => {
                if t.chars().any(char::is_alphanumeric) {
                    first = false;
                }
                if t.trim_end().ends_with([':', '.', '—', '–', '(', '«', '"']) {
                    first = true;
                }
            }
            Segment::Plain(t) => {
                let mut out = String::with_capacity(t.len());
                let mut word = String::new();
                let mut shouted_before = 0;
                // The name's word goes on past an apostrophe or a Catalan
                // middle dot ("Halvorson's", "Nel·lo").
                let mut glued = glued && t.starts_with(['\'', '’', '·']);
                for (at, c) in t.char_indices() {
                    if c.is_whitespace() {
                        let next = t[at..].split_whitespace().next().unwrap_or_default();
                        first |= after_a_heading(shouted_before, &word) && !shouted(next);
                        shouted_before = shouted_run(shouted_before, &word);
                        title_case_word(&mut word, &mut out, &mut first, std::mem::take(&mut glued));
                        out.push(c);
                    } else {
                        word.push(c);
                    }
                }
                first |= after_a_heading(shouted_before, &word);
                title_case_word(&mut word, &mut out, &mut first, glued);
                *t = out;
            }
        }
    }
}

/// One word of a plain stretch in title case, written to `out` and
/// `word` emptied; `first` says whether it opens the title or a part of it,
/// and is set for the word after. `glued`: the end of a kept name's word,
/// written as it is.
fn title_case_word(word: &mut String, out: &mut String, first: &mut bool, glued: bool) {
    if word.is_empty() {
        return;
    }
    let letters: String = word.chars().skip_while(|c| !c.is_alphanumeric()).collect();
    let lead = &word[..word.len() - letters.len()];
    let bare = letters.trim_end_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    // A quoted or bracketed title starts afresh: "'The Coop'".
    let opens = lead.contains(['\'', '"', '«', '(', '`', '‘', '“', '¿', '¡', '[']);
    let small = small_word(&bare) && !*first && !opens;
    if glued {
        out.push_str(word);
    } else if !small && !letters.is_empty() {
        out.push_str(lead);
        out.push_str(&crate::translate::prepare::terms::capitalize(&letters));
    } else if small && letters.chars().skip(1).all(|c| !c.is_uppercase()) {
        // An engine capitalises the first word it translated after a kept span ("Of").
        out.push_str(&word.to_lowercase());
    } else {
        out.push_str(word);
    }
    if !letters.is_empty() {
        *first = false;
    }
    if word.ends_with([':', '.', '—', '–', '(', '?', '!']) || letters.is_empty() && word.contains(['—', '–', '-', '(', '«', '"']) {
        *first = true;
    }
    word.clear();
}

#[cfg(test)]
mod tests {
    use crate::lang::Lang;
    use crate::translate::finish::finish;
    use crate::vocab::Field;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn english_titles_get_title_case_but_names_stay_as_they_are() {
        let out = "storytelling in the library of Eloy de la Iglesia: a tale of the sea";
        let kept = names(&["Eloy de la Iglesia"]);
        assert_eq!(
            finish(out, &kept, None, Lang::En, Field::Title),
            "Storytelling in the Library of Eloy de la Iglesia: A Tale of the Sea"
        );
        assert_eq!(finish(out, &kept, None, Lang::En, Field::Description), out);
        // French sets a no-break space before its colon (`fr/punctuation.tsv`).
        assert_eq!(finish(out, &kept, None, Lang::Fr, Field::Title), out.replace(": ", "\u{a0}: "));
    }

    /// A name's possessive, written right after it, is the name's word:
    /// "Mary Halvorson's Code Girl" (Catalonia 20211006020) came back
    /// "Mary Halvorson'S Code Girl"; a mark right after a name opens what
    /// follows as before.
    #[test]
    fn a_name_s_possessive_stays_in_lower_case_in_an_english_title() {
        let kept = names(&["Mary Halvorson", "DJ"]);
        assert_eq!(finish("Mary Halvorson's code girl", &kept, None, Lang::En, Field::Title), "Mary Halvorson's Code Girl");
        assert_eq!(finish("Show of young DJ's", &kept, None, Lang::En, Field::Title), "Show of Young DJ's");
        assert_eq!(finish("Mary Halvorson 'the code'", &kept, None, Lang::En, Field::Title), "Mary Halvorson 'The Code'");
        assert_eq!(finish("Mary Halvorson: the code", &kept, None, Lang::En, Field::Title), "Mary Halvorson: The Code");
    }

    #[test]
    fn a_word_after_a_leading_kept_span_is_not_a_sentence_start() {
        let out = "Apprenez à Identifier les papillons de Madrid";
        let kept = names(&["Madrid"]);
        assert_eq!(finish(out, &kept, Some("Apprenez à"), Lang::Fr, Field::Title), "Apprenez à identifier les papillons de Madrid");
        assert_eq!(finish("Exposition Picasso", &names(&["Picasso"]), Some("Exposition"), Lang::Fr, Field::Title), "Exposition Picasso");
        // French sets a no-break space before its colon (`fr/punctuation.tsv`).
        assert_eq!(finish(out, &kept, None, Lang::Fr, Field::Title), out.replace(": ", "\u{a0}: "));
    }

    /// A small word the engine capitalised after a kept span goes back to lower
    /// case in English title case; a quoted title starts afresh; a French
    /// elided word is lower case mid-sentence.
    #[test]
    fn capitals_an_engine_put_after_a_kept_span() {
        let kept = names(&["XXI", "Premio Internacional"]);
        assert_eq!(
            finish("XXI Premio Internacional Of Photography", &kept, None, Lang::En, Field::Title),
            "XXI Premio Internacional of Photography"
        );
        assert_eq!(
            finish("Battle of rap 'the coop of Vallekas'", &[], None, Lang::En, Field::Title),
            "Battle of Rap 'The Coop of Vallekas'"
        );
        assert_eq!(finish("Concert D'élèves de piano", &[], None, Lang::Fr, Field::Title), "Concert d'élèves de piano");
        let kept = names(&["XXI Premio"]);
        assert_eq!(finish("XXI Premio D'humanitaire", &kept, Some("XXI Premio"), Lang::Fr, Field::Title), "XXI Premio d'humanitaire");
        let kept = names(&["Piano+IA", "Philippe"]);
        assert_eq!(finish("Piano+IA, Avec Philippe", &kept, Some("Piano+IA"), Lang::Fr, Field::Title), "Piano+IA, avec Philippe");
    }

    /// A capital right after a heading shouted in capitals (a Catalan
    /// title's status, translated) opens the title's own words: it stays,
    /// in title case and among function words alike; after one word in
    /// capitals it is a stray one, as before.
    #[test]
    fn a_capital_after_a_shouted_heading_stays() {
        let kept = names(&["Lari"]);
        assert_eq!(
            finish("ACTIVITY CANCELLED A Night with the Magician Lari", &kept, None, Lang::En, Field::Title),
            "ACTIVITY CANCELLED A Night with the Magician Lari"
        );
        assert_eq!(
            finish("ACTIVIDAD CANCELADA Una Noche con el Mago Lari", &kept, None, Lang::Es, Field::Title),
            "ACTIVIDAD CANCELADA Una Noche con el Mago Lari"
        );
        assert_eq!(finish("ACTIVITÉ ANNULÉE Une Nuit", &[], None, Lang::Fr, Field::Title), "ACTIVITÉ ANNULÉE Une Nuit");
        assert_eq!(finish("Concert BIG Of the band", &[], None, Lang::En, Field::Title), "Concert BIG of the Band");
        assert_eq!(finish("Concierto BIG Con la banda", &[], None, Lang::Es, Field::Title), "Concierto BIG con la banda");
        assert_eq!(finish("NOTA DE La AGENDA CULTURAL", &[], None, Lang::Es, Field::Description), "NOTA DE la AGENDA CULTURAL");
    }

    #[test]
    fn stray_capitals_go() {
        assert_eq!(finish("Activités Dans le centre. Le soir", &[], None, Lang::Fr, Field::Title), "Activités dans le centre. Le soir");
        let kept = names(&["Kids Village", "Villaverde"]);
        assert_eq!(finish("Kids Village En Villaverde", &kept, None, Lang::Fr, Field::Title), "Kids Village à Villaverde");
    }
}
