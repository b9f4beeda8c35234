//! The article before a noun and the preposition before it, where an
//! engine wrote them for a word it could not see (a kept span, a term put
//! in): a preposition and an article left apart joined where the language
//! contracts them ("in il \[Centro\]" → "nel", `data/lang/LANG/contractions.tsv`);
//! the article's capital Apertium keeps inside such a contraction put back
//! in lower case ("deLla Gomera" → "della"); an article put in the gender
//! of a term Apertium saw as fixed ("O oficina" → "A oficina",
//! `data/lang/LANG/genders.tsv`); the form an article takes before the
//! word it stands before, which the engine could not see ("Il
//! \[spettacolo\]" → "Lo spettacolo", `data/lang/LANG/article-forms.tsv`).
//!
//! Not for: the preposition or elision right before a kept span
//! (`places`), or English "the" before a noun meant in general (`articles`).

use crate::lang::Lang;

/// Preposition + article pairs an engine leaves apart when the noun after
/// them was kept ("in il \[Centro\]"), as each language writes them
/// (`data/lang/LANG/contractions.tsv`): (preposition, article, joined).
fn contractions(lang: Lang) -> Vec<(&'static str, &'static str, &'static str)> {
    crate::lang_data::of(lang).contractions.rows().filter_map(|r| Some((*r.first()?, *r.get(1)?, *r.get(2)?))).collect()
}

/// Joins preposition and article where `lang` contracts them.
pub(super) fn contract(text: &str, lang: Lang) -> String {
    let table = contractions(lang);
    if table.is_empty() {
        return text.to_string();
    }
    let tokens: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if i + 1 < tokens.len() {
            // An opening bracket or quote before the preposition stays.
            let word = tokens[i].trim_start_matches(|c: char| !c.is_alphanumeric());
            let lead = &tokens[i][..tokens[i].len() - word.len()];
            let (a, b) = (word.to_lowercase(), tokens[i + 1].to_lowercase());
            if let Some((_, _, joined)) = table.iter().find(|(p, q, _)| *p == a && *q == b) {
                let capital = word.chars().next().is_some_and(char::is_uppercase) && lead.is_empty();
                out.push(format!(
                    "{lead}{}",
                    if capital { crate::translate::prepare::terms::capitalize(joined) } else { joined.to_string() }
                ));
                i += 2;
                continue;
            }
        }
        out.push(tokens[i].to_string());
        i += 1;
    }
    out.join(" ")
}

/// Where the word of `token` starts: after its last line break and the
/// opening marks before it ("\n\nIl", "'Il", "(del"). What comes before
/// stays as it is.
pub(super) fn word_start(token: &str) -> usize {
    let line = token.rfind(char::is_whitespace).map_or(0, |p| p + token[p..].chars().next().map_or(1, char::len_utf8));
    line + token[line..].len() - token[line..].trim_start_matches(['(', '[', '«', '"', '“', '‘', '\'', '¿', '¡']).len()
}

/// An article or a joined preposition before a lower-case word that opens
/// as its row of `data/lang/LANG/article-forms.tsv` says, in the form the
/// language writes there ("il spettacolo" → "lo spettacolo", "dei eSports"
/// → "degli eSports"). A capitalised word after it is a kept name, left
/// with the article as it is.
pub(super) fn article_forms(text: &str, lang: Lang) -> String {
    let rows: Vec<Vec<&str>> = crate::lang_data::of(lang).article_forms.rows().collect();
    if rows.is_empty() {
        return text.to_string();
    }
    let kind = |k: &'static str| rows.iter().filter(move |r| r.first() == Some(&k));
    let opens = |w: &str| kind("opening").any(|r| r.get(1).is_some_and(|o| w.starts_with(o)));
    let barred = |w: &str| kind("not-before").any(|r| r.get(1) == Some(&w));
    let mut tokens: Vec<String> = text.split(' ').map(str::to_string).collect();
    for i in 0..tokens.len().saturating_sub(1) {
        let start = word_start(&tokens[i]);
        let word = &tokens[i][start..];
        // A capital I alone may be a Roman numeral ("Fase I").
        if word == "I" {
            continue;
        }
        let Some(row) = kind("form").find(|r| r.get(1).is_some_and(|f| *f == word.to_lowercase())) else { continue };
        let next: String = tokens[i + 1].chars().take_while(|c| c.is_alphabetic()).collect();
        if !next.starts_with(char::is_lowercase) || barred(&next) {
            continue;
        }
        let vowel = row.get(3) == Some(&"vowel") && crate::translate::lang::starts_with_vowel(&next);
        if !(opens(&next) || vowel) {
            continue;
        }
        let Some(form) = row.get(2) else { continue };
        let form = if word.starts_with(char::is_uppercase) { crate::translate::prepare::terms::capitalize(form) } else { form.to_string() };
        tokens[i].replace_range(start.., &form);
    }
    tokens.join(" ")
}

/// Apertium joins a preposition to a capitalised article and keeps the
/// article's capital inside the word ("de La Gomera" → Italian "deLla
/// Gomera", Portuguese "dA Gomera"): such a word, when it is a joined form
/// of the language's contractions (`LANG/contractions.tsv`), in lower case.
pub(super) fn mend_split_capitals(text: &str, lang: Lang) -> String {
    let split = |word: &str| word.starts_with(char::is_lowercase) && word.chars().skip(1).any(char::is_uppercase);
    if !text.split(' ').any(|t| split(t.trim_matches(|c: char| !c.is_alphanumeric()))) {
        return text.to_string();
    }
    let table = contractions(lang);
    let tokens: Vec<String> = text
        .split(' ')
        .map(|token| {
            let word = token.trim_matches(|c: char| !c.is_alphanumeric());
            let lower = word.to_lowercase();
            if split(word) && table.iter().any(|&(_, _, joined)| joined == lower) {
                token.replacen(word, &lower, 1)
            } else {
                token.to_string()
            }
        })
        .collect();
    tokens.join(" ")
}

/// The article right before a noun of `data/lang/LANG/genders.tsv` put in
/// that noun's gender: a term Apertium saw as fixed got the Spanish word's
/// ("O oficina" for "El taller" → "A oficina").
pub(super) fn agree_articles(text: &str, lang: Lang) -> String {
    let rows: Vec<Vec<&str>> = crate::lang_data::of(lang).genders.rows().collect();
    if rows.is_empty() {
        return text.to_string();
    }
    let gender = |w: &str| rows.iter().find(|r| r.len() == 3 && r[0] == "noun" && r[1] == w).map(|r| r[2]);
    let forms = |w: &str, g: &str| {
        let article = rows.iter().filter(|r| r.len() == 3 && r[0] == "article");
        let mut rows = article.filter(|r| r[1] == w || r[2] == w);
        rows.next().map(|r| if g == "m" { r[1] } else { r[2] })
    };
    let mut tokens: Vec<String> = text.split(' ').map(str::to_string).collect();
    for i in 1..tokens.len() {
        let noun = tokens[i].trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
        let Some(g) = gender(&noun) else { continue };
        let before = &tokens[i - 1];
        if before.is_empty() || !before.chars().all(char::is_alphabetic) {
            continue;
        }
        let lower = before.to_lowercase();
        if let Some(form) = forms(&lower, g).filter(|f| *f != lower) {
            let capital = before.starts_with(char::is_uppercase);
            tokens[i - 1] = if capital { crate::translate::prepare::terms::capitalize(form) } else { form.to_string() };
        }
    }
    tokens.join(" ")
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
    fn articles_contract() {
        let kept = names(&["Centro Cultural"]);
        assert_eq!(finish("Impara chotis in il Centro Cultural", &kept, None, Lang::It, Field::Title), "Impara chotis nel Centro Cultural");
        assert_eq!(finish("Visite de le Centro Cultural", &kept, None, Lang::Fr, Field::Title), "Visite du Centro Cultural");
        assert_eq!(finish("In il parco", &[], None, Lang::It, Field::Title), "Nel parco");
        assert_eq!(finish("Atelier (En la rue Mayor)", &[], None, Lang::Fr, Field::Title), "Atelier (dans la rue Mayor)");
    }
}
