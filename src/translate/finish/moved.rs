//! Words and stops Apertium moves from after a kept span to before it, put
//! back after it: French "Concert d'en X Y" → "Concert de X en Y", Catalan
//! "del. Espronceda Ombres" → "del Espronceda. Ombres", Italian through
//! Catalan "di e danza spagnola flamenco" → "di danza spagnola e flamenco".
//! Apertium's output only.
//!
//! Not for: the garbled forms `data/lang/garbled.tsv` knows (a stop alone
//! before a span, a Catalan word fused before one: `garbled`).

use super::cut::{Finishing, Segment};
use crate::lang::Lang;

/// Apertium moves a short word or stop that followed a kept span to before
/// it: French "Concierto de \[X\] en \[Y\]" comes back "Concert d'en X Y"
/// (the words it moves: `data/lang/fr/moved-words.txt`),
/// Catalan "del \[Espronceda\]. Sombras" comes back "del. Espronceda Ombres"
/// (and "del. Campo del Moro" with no stop at all; the contracted
/// prepositions it does this after: `data/lang/ca/contracted-prepositions.txt`),
/// and, through Catalan, Italian "del . tempo Luis", French "du.
/// documentaire La directrice", Portuguese "do , Prado e" (each
/// language's `contracted-prepositions.txt`: the words the second hop
/// writes for the Catalan "del", "al", "pel").
/// The word or stop goes back after the span. A French "d'" or "l'" that
/// stood before the moved word stays elided before a vowel
/// (`data/lang/vowels.txt`) or a mute h of a word put in.
pub(super) fn mend_around_names(segs: &mut [Segment], f: &Finishing) {
    let lang = f.lang;
    for i in 0..segs.len().saturating_sub(1) {
        let (Segment::Plain(_), Segment::Name(name)) = (&segs[i], &segs[i + 1]) else {
            continue;
        };
        let Some((head, word, after)) = super::cut::word_before_span(segs, i) else { continue };
        if !after.is_empty() && !after.starts_with(' ') {
            continue;
        }
        let lower = word.to_lowercase();
        let moved = |w: &str| w.get(2..).is_some_and(|m| crate::lang_data::of(crate::lang::Lang::Fr).moved_words.has(m));
        // A kept name's h never elides; a word put in (lower case) elides before a mute h.
        let elides = crate::translate::lang::starts_with_vowel(name) || name.starts_with('h') && super::places::mute_h(name, Lang::Fr);
        let contracted_word = |w: &str| crate::lang_data::of(lang).contracted_prepositions.has(w);
        // The mark the engine moved, on the word it follows ("del.", "du,"):
        // "blanks around anchors" glued the ones it wrote apart ("del . X").
        let moved_mark = MARKS.iter().copied().find(|&m| lower.strip_suffix(m).is_some_and(contracted_word));
        if let Some(mark) = moved_mark {
            let word = word[..word.len() - 1].to_string();
            let head = head.to_string();
            put_back(segs, i, format!("{head}{word} "), mark, f.marked);
            continue;
        }
        let mended = match (lang.as_str(), lower.as_str()) {
            ("fr", w) if w.starts_with("d'") && moved(w) && !after.is_empty() => {
                let de = if elides { "d'" } else { "de " };
                let de = if word.starts_with('D') && i == 0 && head.trim().is_empty() {
                    crate::translate::prepare::terms::capitalize(de)
                } else {
                    de.to_string()
                };
                Some((format!("{head}{de}"), format!(" {}{after}", &w[2..])))
            }
            ("fr", w) if w.starts_with("l'") && moved(w) && !after.is_empty() => {
                // The elided article belongs to the kept name: "L'en Dehesa guerre" → "La Dehesa en guerre".
                let art = if elides {
                    "l'"
                } else if name.split(' ').next().is_some_and(|f| f.ends_with('a')) {
                    "la "
                } else {
                    "le "
                };
                let art = if word.starts_with('L') && i == 0 && head.trim().is_empty() {
                    crate::translate::prepare::terms::capitalize(art)
                } else {
                    art.to_string()
                };
                Some((format!("{head}{art}"), format!(" {}{after}", &w[2..])))
            }
            // Through Catalan, Italian and Portuguese get the moved word
            // translated: "di e \[danza spagnola\] flamenco" (an article or a
            // preposition is never followed by "e" or "è").
            ("it" | "pt", w) if !after.is_empty() && moved_after_a_function_word(head, w, lang) => {
                Some((head.to_string(), format!(" {word}{after}")))
            }
            _ => None,
        };
        if let Some((b, a)) = mended {
            segs[i] = Segment::Plain(b);
            if i + 2 < segs.len() {
                segs[i + 2] = Segment::Plain(a);
            }
        }
    }
}

/// The marks Apertium moves from right after a kept span to right before
/// it, after a word of `contracted-prepositions.txt`.
const MARKS: [char; 4] = ['.', ',', ';', ':'];

/// `mark`, moved by the engine from after a kept span to the word before
/// `segs[i + 1]`, put back: `segs[i]` becomes `before` (the word without
/// it), and the mark goes after the span the text sent had it after
/// (`marked`, `Prepared::marked_spans`), in the run of spans a blank
/// apart that starts at `segs[i + 1]` ("del . CEAC Maris Stella Edad" →
/// "del CEAC Maris Stella. Edad", "del . tempo Luis Martín," → "del
/// tempo. Luis Martín,"). A stop the text sent had after none of them was
/// the one the stream ends a text with, and goes. Where the text sent is
/// not known, the mark goes after the first span, a stop only where the
/// text goes on with anything but a lower-case word (a capital, a figure,
/// another kept name).
fn put_back(segs: &mut [Segment], i: usize, before: String, mark: char, marked: Option<&[String]>) {
    let at = match marked {
        Some(marked) => match marked_span_in_run(segs, i, mark, marked) {
            Some(k) => Some(k),
            None if mark == '.' => None,
            None => return,
        },
        None => {
            let after = match segs.get(i + 2) {
                Some(Segment::Plain(a)) => a.as_str(),
                _ => "",
            };
            let goes_on = match after.trim_start().chars().next() {
                Some(c) => !c.is_lowercase() && !MARKS.contains(&c),
                None => !after.is_empty() && matches!(segs.get(i + 3), Some(Segment::Name(_))),
            };
            (mark != '.' || goes_on).then_some(i + 1)
        }
    };
    segs[i] = Segment::Plain(before);
    if let Some(at) = at {
        super::garbled::put_after_span(segs, at, &mark.to_string());
    }
}

/// The kept span, in the run of spans a blank apart that starts at
/// `segs[i + 1]`, that the text sent had `mark` right after (`marked`).
fn marked_span_in_run(segs: &[Segment], i: usize, mark: char, marked: &[String]) -> Option<usize> {
    let mut k = i + 1;
    loop {
        if matches!(&segs[k], Segment::Name(n) if marked.iter().any(|m| m.strip_suffix(mark) == Some(n.as_str()))) {
            return Some(k);
        }
        match (segs.get(k + 1), segs.get(k + 2)) {
            (Some(Segment::Plain(gap)), Some(Segment::Name(_))) if gap == " " => k += 2,
            _ => return None,
        }
    }
}

/// Whether `word`, right before a kept span after `head`, is one Apertium
/// moved there through Catalan (`data/lang/LANG/moved-words.txt`: Italian
/// "e", "è"), standing where no such word can: after an article or a
/// preposition of the language's function words (not after another
/// conjunction: "e in \[Madrid\]" is Italian).
fn moved_after_a_function_word(head: &str, word: &str, lang: Lang) -> bool {
    let data = crate::lang_data::of(lang);
    let Some(before) = head.strip_suffix(' ').and_then(|h| h.rsplit(' ').next()) else { return false };
    let before = before.to_lowercase();
    data.moved_words.has(word)
        && data.function_words.has(&before)
        && !data.moved_words.has(&before)
        && !matches!(before.as_str(), "e" | "ed")
}

#[cfg(test)]
mod tests {
    use crate::lang::Lang;
    use crate::translate::finish::finish;
    use crate::vocab::Field;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Where the text sent is known, a stop moved before a run of kept
    /// spans goes after the one the text had it after, and a stop it had
    /// after none of them (the stream's own) goes.
    #[test]
    fn a_moved_stop_goes_after_the_span_the_text_sent_had_it_after() {
        use crate::translate::finish::{Slips, finish_from};
        let kept = names(&["CEAC", "Maris Stella", "tempo", "Luis Martín", "Prado"]);
        let fin = |out: &str, marked: &[&str]| {
            finish_from(out, &kept, &kept, &[], None, Lang::It, Field::Description, Slips::Apertium, Some(&names(marked)))
        };
        assert_eq!(
            fin("Comincia nella ricezione del. CEAC Maris Stella Età 10", &["Maris Stella."]),
            "Comincia nella ricezione del CEAC Maris Stella. Età 10"
        );
        assert_eq!(
            fin("Del passo del. tempo Luis Martín, direttore", &["tempo.", "Luis Martín,"]),
            "Del passo del tempo. Luis Martín, direttore"
        );
        assert_eq!(fin("Andiamo al. Prado", &[]), "Andiamo al Prado");
    }

    #[test]
    fn a_word_moved_before_a_kept_span_goes_back_after_it() {
        let kept = names(&["Marta Mansilla", "Arganzuela"]);
        assert_eq!(
            finish("Concert D'en Marta Mansilla Arganzuela", &kept, None, Lang::Fr, Field::Title),
            "Concert de Marta Mansilla à Arganzuela"
        );
        let kept = names(&["Pirograbados", "ASPIRAL"]);
        assert_eq!(
            finish("Exposition d'en Pirograbados bois par ASPIRAL", &kept, None, Lang::Fr, Field::Title),
            "Exposition de Pirograbados en bois par ASPIRAL"
        );
        assert_eq!(
            finish("Festival D'en Arte Villaverde", &names(&["Arte", "Villaverde"]), None, Lang::Fr, Field::Title),
            "Festival d'Arte à Villaverde"
        );
        assert_eq!(finish("L'en Dehesa guerre", &names(&["Dehesa"]), None, Lang::Fr, Field::Title), "La Dehesa en guerre");
        assert_eq!(finish("Visite de l'et Prado Retiro", &names(&["Prado"]), None, Lang::Fr, Field::Title), "Visite du Prado et Retiro");
        assert_eq!(finish("L'en Alcázar Segovia", &names(&["Alcázar"]), None, Lang::Fr, Field::Title), "L'Alcázar en Segovia");
        assert_eq!(finish("Le goût d'en haut", &[], None, Lang::Fr, Field::Title), "Le goût d'en haut");
        let kept = names(&["Espronceda"]);
        assert_eq!(
            finish("Clàssics del. Espronceda Ombres acusadores", &kept, None, Lang::Ca, Field::Title),
            // Catalan elides before the vowel the engine could not see.
            "Clàssics de l'Espronceda. Ombres acusadores"
        );
        let kept = names(&["Campo del Moro"]);
        assert_eq!(finish("Jardins del. Campo del Moro", &kept, None, Lang::Ca, Field::Title), "Jardins del Campo del Moro");
        assert_eq!(
            finish("Visita pel. Campo del Moro amb guia", &kept, None, Lang::Ca, Field::Title),
            "Visita pel Campo del Moro amb guia"
        );
        // Through Catalan, the moved word comes back translated.
        let kept = names(&["USCSS Nostromo"]);
        assert_eq!(
            finish("ricerca i resti del e USCSS Nostromo raccoglie un oggetto", &kept, None, Lang::It, Field::Description),
            "ricerca i resti dell'USCSS Nostromo e raccoglie un oggetto"
        );
        assert_eq!(
            finish("investiga os restos do e USCSS Nostromo recolhe um objeto", &kept, None, Lang::Pt, Field::Description),
            "investiga os restos do USCSS Nostromo e recolhe um objeto"
        );
        // After a conjunction the word is the engine's own.
        assert_eq!(finish("a Roma e in USCSS Nostromo", &kept, None, Lang::It, Field::Description), "a Roma e in USCSS Nostromo");
    }
}
