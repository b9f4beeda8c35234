//! House style for the garbled forms it knows (the forms themselves:
//! `data/lang/garbled.tsv`, checked in `translate::garble`): a stop an engine
//! moved before a kept span goes back after it; a Catalan word fused before one
//! ("l'i Parque de Aluche  Madrid Riu") goes back after it, the article written
//! out; a French subject pronoun right after a kept name ("Ismael Serrano il
//! commençait") goes.
//!
//! Not for: finding the forms (`translate::garble`), or the French words
//! moved before a span (`moved`).

use super::cut::Segment;
use crate::lang::Lang;

/// A full stop standing alone (or doubled) right before a kept span, as an
/// engine moves the stop of "del CEAC Maris Stella. Edad:" in front of the
/// span ("del . CEAC Maris Stella Edat:"): it goes back after the span when
/// a new sentence (a capital) or the text's end follows, else it goes.
pub(super) fn stop_moved_before_a_span(segs: &mut [Segment]) {
    for i in 0..segs.len().saturating_sub(1) {
        let (Segment::Plain(before), Segment::Name(_)) = (&segs[i], &segs[i + 1]) else { continue };
        let cut = before.trim_end_matches(' ');
        // A doubled stop even fused to the word before ("del.. Centro"), a
        // single one only standing alone ("del . CEAC"; "del." is a word's).
        let Some(rest) = cut.strip_suffix("..").or_else(|| cut.strip_suffix(" .")) else { continue };
        if rest.trim().is_empty() || rest.ends_with('.') {
            continue;
        }
        let rest = format!("{} ", rest.trim_end());
        let new_sentence = match segs.get(i + 2) {
            Some(Segment::Plain(after)) => {
                let t = after.trim_start_matches(' ');
                after.starts_with(' ') && t.starts_with(char::is_uppercase) || t.is_empty()
            }
            Some(Segment::Name(_)) => false,
            None => true,
        };
        segs[i] = Segment::Plain(rest);
        if new_sentence {
            put_after_span(segs, i + 1, ".");
        }
    }
}

/// `mark` put right after the kept span `segs[span]`: at the start of the
/// plain stretch that follows, or at the span's end when none does.
pub(super) fn put_after_span(segs: &mut [Segment], span: usize, mark: &str) {
    match segs.get_mut(span + 1) {
        Some(Segment::Plain(after)) => *after = format!("{mark}{after}"),
        _ => {
            if let Segment::Name(n) = &segs[span] {
                let n = format!("{n}{mark}");
                segs[span] = Segment::Name(n);
            }
        }
    }
}

/// A comma or semicolon between a function word and a kept span, as
/// Apertium moves the mark that followed the span in front of it ("una
/// maqueta del C3A, descontextualizada" → "del , C3A descontextualitzada"):
/// it goes back right after the span. Only after a word that never ends a
/// clause (`data/lang/LANG/function-words.txt`: "del", "i", "amb"), so a
/// publisher's own " , " stays as published. On Apertium's output
/// (`apertium`), a colon it moved so too ("del Proyecto Carabela:
/// Indexación" → "del : Proyecto Carabela Indexació") goes back: it
/// comes back standing alone, a blank before it, where the publisher's
/// own colon before a name comes back fused to its word ("acompañado de:
/// Miguel Ángel" → "acompanyat de: Miguel Ángel"), and stays.
pub(super) fn mark_moved_before_a_span(segs: &mut [Segment], lang: Lang, apertium: bool) {
    let function_words = crate::lang_data::of(lang).function_words.lines();
    for i in 0..segs.len().saturating_sub(1) {
        let (Segment::Plain(before), Segment::Name(_)) = (&segs[i], &segs[i + 1]) else { continue };
        let cut = before.trim_end_matches(' ');
        // " ," as the engine left it, or "," once the blanks are tidied. A
        // colon only as Apertium left it, alone: "acompañado de: Miguel
        // Ángel del Arco" is the publisher's.
        let colon = cut.strip_suffix(" :").filter(|_| apertium).map(|r| (r.trim_end(), ":"));
        let Some((rest, mark)) = colon.or_else(|| [",", ";"].iter().find_map(|m| cut.strip_suffix(m).map(|r| (r.trim_end(), *m)))) else {
            continue;
        };
        let word = rest.rsplit(' ').next().unwrap_or("");
        if !function_words.contains(&word.to_lowercase().as_str()) {
            continue;
        }
        // The mark goes after the span, unless punctuation already stands there.
        let after_has_mark = matches!(segs.get(i + 2), Some(Segment::Plain(a)) if a.starts_with([',', ':', ';', '.']));
        segs[i] = Segment::Plain(format!("{rest} "));
        if !after_has_mark {
            put_after_span(segs, i + 1, mark);
        }
    }
}

/// Catalan: an elided article before a name's own capitalised one, as
/// Apertium writes the Spanish "en el El Cairo" ("en l'El Cairo"): it goes
/// ("en El Cairo"). Also on a text sent plain, which is how Catalan
/// descriptions go (`data/lang/ca/plain.txt`).
pub(super) fn catalan_article_before_a_names_own(t: &str) -> Option<String> {
    static DOUBLE_ARTICLE: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"(^|\s)[Ll]'((?:El|La|Els|Les) )").expect("article regex"));
    DOUBLE_ARTICLE.is_match(t).then(|| DOUBLE_ARTICLE.replace_all(t, "$1$2").into_owned())
}

/// Catalan: a short word (`data/lang/ca/moved-words.txt`) that Apertium
/// moved from after a kept span to before it, where it fused with an elided
/// article or "de" ("l'i Parque de Aluche  Madrid Riu"), goes back after
/// the span, and the article or "de" is written out again ("el Parque de
/// Aluche i Madrid Riu").
pub(super) fn catalan_word_moved_before_a_span(segs: &mut [Segment]) {
    for i in 0..segs.len().saturating_sub(1) {
        if moved_after_a_contracted_preposition(segs, i) {
            continue;
        }
        let (Segment::Plain(before), Segment::Name(name)) = (&segs[i], &segs[i + 1]) else { continue };
        // A name that carries its own article takes none more: "en l'El Caire" → "en El Caire".
        let own_article = ["El ", "La ", "Els ", "Les "].iter().any(|a| name.starts_with(a));
        if own_article && (before.ends_with(" l'") || before.ends_with(" L'") || *before == "l'" || *before == "L'") {
            let cut = before[..before.len() - 2].to_string();
            segs[i] = Segment::Plain(cut);
            continue;
        }
        let Some((head, word, after)) = super::cut::word_before_span(segs, i) else { continue };
        if after.is_empty() || !after.starts_with(' ') {
            continue;
        }
        let lower = word.to_lowercase();
        let Some((fused, moved)) = lower.split_at_checked(2) else { continue };
        if !matches!(fused, "l'" | "d'") || !crate::lang_data::of(Lang::Ca).moved_words.has(moved) {
            continue;
        }
        // Catalan elides before a vowel (`data/lang/vowels.txt`) and an h, a kept name's too.
        let vowel = crate::translate::lang::starts_with_vowel(name) || super::places::mute_h(name, crate::lang::Lang::Ca);
        let written = match (fused, vowel) {
            ("d'", true) => "d'",
            ("d'", false) => "de ",
            (_, true) => "l'",
            _ if name.split(' ').next().is_some_and(|f| f.ends_with('a')) => "la ",
            _ => "el ",
        };
        let capital = word.starts_with(char::is_uppercase);
        let written = if capital { crate::translate::prepare::terms::capitalize(written) } else { written.to_string() };
        segs[i] = Segment::Plain(format!("{head}{written}"));
        segs[i + 2] = Segment::Plain(format!(" {moved} {}", after.trim_start_matches(' ')));
    }
}

/// Catalan: a word of `ca/moved-words.txt` standing alone between a
/// contracted preposition (`ca/contracted-prepositions.txt`) and the kept
/// span `segs[i + 1]`, where Apertium moved it from after the span, and the
/// comma that followed the next span into the gap: "del \[Museo Casa de los
/// Tiros\] de \[Granada\], el pianista" came back "del de Museo Casa de los
/// Tiros , Granada el pianista". The word goes back after the span and the
/// comma after the next one. Only between two spans, where the gap shows
/// the move. Whether it mended.
fn moved_after_a_contracted_preposition(segs: &mut [Segment], i: usize) -> bool {
    let data = crate::lang_data::of(Lang::Ca);
    let (Segment::Plain(before), Some(Segment::Name(_))) = (&segs[i], segs.get(i + 1)) else { return false };
    let before = before.clone();
    // "del de X", or "del d'X" elided before the span's vowel.
    let Some(body) = before.strip_suffix(' ').or_else(|| before.strip_suffix('\'').map(|b| &before[..b.len() + 1])) else {
        return false;
    };
    let mut words = body.rsplitn(3, ' ');
    let (Some(moved), Some(prep)) = (words.next(), words.next()) else { return false };
    let word = if moved == "d'" { "de" } else { moved };
    if !data.moved_words.has(&word.to_lowercase()) || !data.contracted_prepositions.has(&prep.to_lowercase()) {
        return false;
    }
    // Only where the gap it left between two spans shows it ("del que
    // [X] va dir" is Catalan): the comma, or two blanks.
    let Some(Segment::Plain(gap)) = segs.get(i + 2) else { return false };
    let comma = gap.trim() == ",";
    if !(comma || gap == "  ") || !matches!(segs.get(i + 3), Some(Segment::Name(_))) {
        return false;
    }
    let cut = before.len() - moved.len() - usize::from(moved != "d'");
    segs[i] = Segment::Plain(before[..cut].to_string());
    segs[i + 2] = Segment::Plain(format!(" {word} "));
    let marked = matches!(segs.get(i + 4), Some(Segment::Plain(a)) if a.starts_with([',', ':', ';', '.']));
    if comma && !marked {
        put_after_span(segs, i + 3, ",");
    }
    true
}

/// A subject pronoun (`data/lang/LANG/subject-pronouns.txt`) right after a
/// kept name and before a lower-case word: the name is the subject, and the
/// pronoun goes ("Ismael Serrano il commençait" → "Ismael Serrano
/// commençait", English "Claudia Pia It left" → "Claudia Pia left"); "il y
/// a" stays (`own` rows of the list). Between the name and the pronoun may
/// stand the name's dates or place in brackets ("Enric Ansesa (Girona,
/// 1945) it is"), a number that ends the name ("Art Llobet 2020 It HAS not
/// MADE"), a relative pronoun of `relatives.txt` ("Madrid that it still
/// conserves", "Stories That they speak") and one
/// adverb or adverb phrase of `adverbs.txt` ("Pepa Plana always it has
/// claimed", "Almudena no longer it is"); in English, a comma after a name
/// that opens its sentence, which goes with the pronoun ("Enrique Delgado,
/// it presents" → "Enrique Delgado presents"). A French
/// relative fused with the pronoun (`elided-relatives.tsv`: "hypnose
/// qu'il combine") is written as that file says ("qui combine"), where the
/// garbled form's check counts the pronoun (`garble::found`: "qu'il faut"
/// stays). After a term put in (an anchor that is no kept name of
/// `names`), only a pronoun after a relative goes: "a \[show\] that it
/// will make you laugh", where the engine read "que" as a conjunction; and,
/// on Apertium's output, a pronoun that is a subject only (`after-term`
/// rows: French "\[L'illustratrice\] il dialoguera").
pub(super) fn pronoun_after_a_name(segs: &mut [Segment], lang: Lang, names: &[String], apertium: bool) {
    let data = crate::lang_data::of(lang);
    if apertium {
        super::subjects::pronoun_after_an_apposition(segs, lang, names);
    }
    for i in 1..segs.len() {
        let (Segment::Name(name), Segment::Plain(after)) = (&segs[i - 1], &segs[i]) else { continue };
        let term = !names.contains(name);
        if !name.ends_with(char::is_alphanumeric) {
            continue;
        }
        // English: "[Name], it presents", the name opening its sentence
        // ("In [Madrid], it is possible" keeps its pronoun).
        let comma = lang == Lang::En && !term && after.starts_with(", ") && opens_a_sentence(segs, i - 1);
        // A line break between the name and its verb, as the publisher
        // broke a line around a name in bold ("de la pintora\nMercè
        // Busquets\nreprodueix"): the text sent to Apertium ends a sentence
        // there (`stream::deformat`), and it gave the verb a subject, in
        // lower case where the publisher's verb is ("Mercè Busquets\nit
        // reproduces", French "il reproduit"; plain Apertium, one line,
        // has none). One lower-case pronoun after a single break goes; a
        // capitalised one opens the publisher's own sentence.
        let line = apertium && !term && after.strip_prefix('\n').is_some_and(|r| r.starts_with(char::is_lowercase));
        if !after.starts_with(' ') && !comma && !line {
            continue;
        }
        // Where the words after the name (and its brackets) start: the
        // stretch `j`, from byte `from`.
        let (mut j, mut from) = (i, if comma { 2 } else { 1 });
        if after.starts_with(" (") {
            let closing = (i..segs.len()).find_map(|k| match &segs[k] {
                Segment::Plain(t) => {
                    let start = if k == i { 2 } else { 0 };
                    let close = t[start..].find(')').map(|c| start + c)?;
                    (!t[start..close].contains('(') && t[close + 1..].starts_with(' ')).then_some((k, close + 2))
                }
                Segment::Name(_) => None,
            });
            let Some(found) = closing else { continue };
            (j, from) = found;
        }
        let Segment::Plain(stretch) = &segs[j] else { continue };
        let (kept, mut rest) = stretch.split_at(from);
        // The comma between the subject and its verb goes with the pronoun.
        let mut head = if comma { " ".to_string() } else { kept.to_string() };
        // A number that ends the name as the publisher wrote it, outside
        // the kept span ("[Art Llobet] 2020 NO S'HA FET" came back "Art
        // Llobet 2020 It HAS not MADE", "[Les Festes Decennals] 2021+ 1 se
        // celebraran" "2021 + 1 they will celebrate"; plain Apertium, which
        // sees the name, has none).
        let number = super::subjects::number_after_a_name(rest);
        if number > 0 {
            head.push_str(&rest[..number]);
            rest = &rest[number..];
        }
        // A relative pronoun whose antecedent is the name ("Madrid that it
        // still conserves": Spanish "que aún conserva"), in any case (after
        // a span that opens the text Apertium gives it a sentence's capital,
        // "Stories That they speak us", which a later stage lowers).
        let relative = rest.split_once(' ').filter(|(w, _)| data.relatives.has(&w.to_lowercase()));
        if let Some((relative, after)) = relative {
            head.push_str(relative);
            head.push(' ');
            rest = after;
        } else if let Some(out) = elided_relative(rest, lang) {
            segs[j] = Segment::Plain(format!("{head}{out}"));
            continue;
        } else if term && !(apertium && super::subjects::subject_only(name, rest, lang)) {
            continue;
        }
        // One adverb, or one adverb phrase ("no longer"), before the pronoun:
        // the longest listed one the words open with, in any case (a name
        // opening the text gets the next word a capital: "Almudena No
        // longer it is").
        let adverb = data
            .adverbs
            .lines()
            .iter()
            .filter(|a| rest.get(..a.len()).is_some_and(|w| w.eq_ignore_ascii_case(a)) && rest[a.len()..].starts_with(' '))
            .max_by_key(|a| a.len());
        if let Some(adverb) = adverb {
            head.push_str(&rest[..adverb.len() + 1]);
            rest = &rest[adverb.len() + 1..];
        }
        let Some((pronoun, tail)) = rest.split_once(' ') else { continue };
        // The word after the pronoun, which a line break may end ("BIG
        // BAND it PRESENTS\nDay 2").
        let next = tail.split(|c: char| c.is_whitespace() || matches!(c, ',' | '.')).next().unwrap_or_default();
        // A lower-case word, or one in capitals in a text that shouts
        // ("Art Llobet 2020 It HAS Not MADE", plain Apertium "HAS not MADE").
        let shouted = next.chars().count() > 1 && next.chars().all(char::is_uppercase) && !pronoun.chars().all(char::is_uppercase);
        let verb_like = (next.starts_with(char::is_lowercase) || shouted) && !super::subjects::own_pronoun(tail, lang);
        if verb_like && data.subject_pronouns.has(&pronoun.to_lowercase()) {
            let tail = super::subjects::next_verb_of_the_series(tail, pronoun, lang);
            segs[j] = Segment::Plain(format!("{head}{tail}"));
        }
    }
}

/// Whether the kept span `segs[k]` opens its sentence: the text's first,
/// or after a full stop, a question or exclamation mark or a line break.
fn opens_a_sentence(segs: &[Segment], k: usize) -> bool {
    let Some(before) = k.checked_sub(1).map(|b| &segs[b]) else { return true };
    let Segment::Plain(before) = before else { return false };
    let t = before.trim_end_matches(' ');
    t.is_empty() || t.ends_with(['.', '!', '?', '\n'])
}

/// French: `rest` (the words right after a kept span) with a relative
/// Apertium fused with a subject pronoun it put in (`elided-relatives.tsv`,
/// "qu'ils dansent") written as the file says ("qui dansent"); `None` when
/// it opens with none, the pronoun is French's own ("qu'il faut"), or a
/// participle that agrees after an auxiliary the file's `object` row names
/// shows the relative is the verb's object ("les jeux qu'ils ont
/// préparés", as plain Apertium has it).
fn elided_relative(rest: &str, lang: Lang) -> Option<String> {
    let data = crate::lang_data::of(lang);
    let (word, tail) = rest.split_once(' ')?;
    let lower = word.to_lowercase();
    let row = data.elided_relatives.rows().filter(|r| r.len() == 2).find(|r| lower.starts_with(r[0]))?;
    let pronoun = &lower[row[0].len()..];
    if !data.subject_pronouns.has(pronoun) || !tail.starts_with(char::is_lowercase) {
        return None;
    }
    // The check's own pattern, which knows French's impersonal "il".
    if !crate::translate::finish::garble::found(&format!("il {tail}"), lang, PRONOUN).iter().any(|m| m.start == 0) {
        return None;
    }
    let mut words = tail.split([' ', ',', '.']);
    let (verb, next) = (words.next().unwrap_or_default(), words.next().unwrap_or_default());
    let object = data.elided_relatives.rows().filter(|r| r.len() == 3 && r[0] == "object").any(|r| {
        r[1].split(' ').any(|aux| aux == verb) && r[2].split(' ').any(|ending| next.len() > ending.len() && next.ends_with(ending))
    });
    if object {
        return None;
    }
    // Right after a kept span, the relative opens no sentence: no capital.
    Some(format!("{} {tail}", row[1]))
}

/// English: a lower-case subject pronoun (`data/lang/en/subject-pronouns.txt`)
/// after a punctuation mark or opening a line, before a capitalised word a
/// colon ends: a label, which has no subject. The Catalan "Pasolini, 1967
/// / Col·labora: Teatre Nacional" came back "1967 / it Collaborates:
/// National Theater", where plain Apertium has "/ Collaborates:". So too
/// a capitalised one opening a line, before a lower-case word a colon
/// ends: "Organitza: Museu Frederic Marès" came back "It organises: Museu
/// Frederic Marès", "Viola: Carlos Delgado" "It rapes: Carlos Delgado",
/// where plain Apertium has "Organises:"; the word takes the capital.
/// So too French, its colon after a blank ("Organitza: Museu Frederic
/// Marès" came back "Il organise : Museu Frederic Marès", plain Apertium
/// "Organise :"), but for an impersonal verb the check knows as French's
/// own (`garble::found`: "Il faut :" stays).
pub(super) fn pronoun_before_a_label(t: &str, lang: Lang) -> Option<String> {
    static LABEL: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"(?m)(^|[^\w\s] )(\p{Ll}+) (\p{Lu}[\p{L}'·-]*:)").expect("label regex"));
    static OPENING: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"(?m)^(\p{Lu}\p{Ll}*) (\p{Ll}+ ?:)(\s|$)").expect("opening label regex"));
    let pronouns = &crate::lang_data::of(lang).subject_pronouns;
    let out =
        LABEL.replace_all(t, |c: &regex::Captures| if pronouns.has(&c[2]) { format!("{}{}", &c[1], &c[3]) } else { c[0].to_string() });
    let out = OPENING.replace_all(&out, |c: &regex::Captures| {
        let own = lang == Lang::Fr && crate::translate::finish::garble::found(&c[0], lang, PRONOUN).is_empty();
        if pronouns.has(&c[1].to_lowercase()) && !own {
            format!("{}{}", crate::translate::prepare::terms::capitalize(&c[2]), &c[3])
        } else {
            c[0].to_string()
        }
    });
    (out != t).then(|| out.into_owned())
}

/// The form of `data/lang/garbled.tsv` that [`pronoun_put_in`] mends.
const PRONOUN: &str = "a subject pronoun the original lacks";

/// French: a subject pronoun (`data/lang/fr/subject-pronouns.txt`) Apertium
/// put before a Spanish verb whose subject it did not see, where the check
/// counts one (`garble::found`; impersonal "il faut", "il y a" and a
/// pronoun after "Et", "Quand" are French's own). Opening the text, it goes
/// and the verb takes the capital ("Il naît d'une illusion" → "Naît d'une
/// illusion"), or the opening is written as `fr/pronoun-openings.tsv` says
/// ("Il est un concert" → "C'est un concert"); right after a capitalised
/// word, the subject Apertium passed on unknown, it goes ("Alpha il est une
/// fille" → "Alpha est une fille").
pub(super) fn pronoun_put_in(t: &str) -> Option<String> {
    let spots = crate::translate::finish::garble::found(t, crate::lang::Lang::Fr, PRONOUN);
    let mut out = t.to_string();
    for spot in spots.into_iter().rev() {
        let m = &t[spot.clone()];
        // The pronoun opens the match at the text's opening, else follows the word before it.
        let at = spot.start
            + if spot.start == 0 && !m.starts_with(|c: char| c.is_lowercase()) && is_pronoun(m) {
                0
            } else {
                m.find(' ').map_or(0, |i| i + 1)
            };
        let rest = &t[at..];
        let Some((pronoun, tail)) = rest.split_once(' ') else { continue };
        if !crate::lang_data::of(Lang::Fr).subject_pronouns.has(&pronoun.to_lowercase()) {
            continue;
        }
        if at == 0 {
            let opening = crate::lang_data::of(Lang::Fr).pronoun_openings.rows().filter(|r| r.len() == 2).find(|r| {
                rest.strip_prefix(r[0]).is_some_and(|after| r[0].ends_with('\'') || after.is_empty() || after.starts_with([' ', ',', '.']))
            });
            if let Some(row) = opening {
                out.replace_range(..row[0].len(), row[1]);
                continue;
            }
        }
        let capital = pronoun.starts_with(char::is_uppercase);
        let next = tail.chars().next().map_or(0, char::len_utf8);
        let written = if capital { crate::translate::prepare::terms::capitalize(&tail[..next]) } else { tail[..next].to_string() };
        out.replace_range(at..at + pronoun.len() + 1 + next, &written);
    }
    (out != t).then_some(out)
}

/// Whether `m` opens with a subject pronoun of the list.
fn is_pronoun(m: &str) -> bool {
    m.split(' ').next().is_some_and(|w| crate::lang_data::of(Lang::Fr).subject_pronouns.has(&w.to_lowercase()))
}

/// A pronoun Apertium wrote for an article it read as one right before a
/// kept span (through Catalan, "en la \[programme\]" → French "dans celle
/// \[programme\]", Italian "in quella \[programma\]", English "of It
/// \[Bisbal\]"), or a relative it read as a conjunction before a kept
/// name, a pronoun put in (French "un défi qu'il \[Manuel López\]
/// affronte"): written as the word `LANG/span-pronouns.tsv` gives it, with
/// the pronoun's capital where it opens a sentence. A row's third column
/// narrows it: `name`, before a kept name only (of `names`, not a term put
/// in); `term`, before a term, and before a kept name only where no verb
/// can stand before the pronoun (the text's or a line's opening, after a
/// mark other than a stop, or after a word of `small-words.txt`): "El
/// taller lo imparte Marta Gómez" came back "imparts it Marta Gómez", and
/// "¿Logrará Tomás…?" "It Tomás will attain", the pronoun the object's or
/// the verb's; `any` (or none), before either. A fourth column lists the
/// words after which the pronoun stays: English object pronouns, after
/// which it is one of a pair; Italian "lo" before "ne" (`di lo ne
/// \[Museo\]`, a slip of its own). An article of `-` is none: the word goes
/// (Italian "Ne \[Txema\] è", a Catalan personal article read as the clitic).
pub(super) fn article_read_as_a_pronoun(segs: &mut [Segment], lang: Lang, names: &[String]) {
    let data = crate::lang_data::of(lang);
    let table = &data.span_pronouns;
    if table.is_empty() {
        return;
    }
    for i in 0..segs.len().saturating_sub(1) {
        let (Segment::Plain(before), Segment::Name(span)) = (&segs[i], &segs[i + 1]) else { continue };
        let term = !names.contains(span);
        let Some(head) = before.strip_suffix(' ') else { continue };
        // The word alone, between blanks or after a line break ("arrels.\nNe
        // [Patufet]"): "celle-ci", "d'une" or "«celle" are no bare pronoun;
        // "qu'il" is a row of its own.
        let start = head.rfind([' ', '\n']).map_or(0, |p| p + 1);
        let word = &head[start..];
        let Some(row) = table.rows().filter(|r| r.len() >= 2).find(|r| r[0] == word.to_lowercase()) else { continue };
        let before_word = head[..start].trim_end_matches(' ');
        let no_verb_before = before_word.is_empty()
            || before_word.ends_with(|c: char| !c.is_alphanumeric() && !matches!(c, '.' | '!' | '?'))
            || data.small_words.has(&before_word.rsplit(' ').next().unwrap_or_default().to_lowercase());
        match row.get(2).copied() {
            Some("name") if term => continue,
            Some("term") if !term && !no_verb_before => continue,
            _ => {}
        }
        // After an object pronoun of the row's fourth column the pronoun is
        // one of a pair of them ("que os lo cuento" → "that you it story").
        let last = before_word.rsplit(' ').next().unwrap_or_default().to_lowercase();
        if row.get(3).is_some_and(|objects| objects.split(' ').any(|o| o == last)) {
            continue;
        }
        // An article the language does not write ("-"): the word goes.
        if row[1] == "-" {
            segs[i] = Segment::Plain(head[..start].to_string());
            continue;
        }
        // The pronoun's capital where it opens a sentence; elsewhere it is
        // the engine's ("The Principal of It \[Bisbal\]").
        let opening = before_word.is_empty() || before_word.ends_with(['.', '!', '?', ':', '\n', '«', '"', '“', '(']);
        let capital = word.starts_with(char::is_uppercase) && opening;
        let article = if capital { crate::translate::prepare::terms::capitalize(row[1]) } else { row[1].to_string() };
        segs[i] = Segment::Plain(format!("{}{article} ", &head[..start]));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Field, Slips, finish, finish_from};
    use crate::lang::Lang;

    fn kept(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    /// The stop an engine moved before a kept span goes back after it (a new
    /// sentence follows) or goes (the sentence goes on).
    #[test]
    fn a_stop_moved_before_a_span_goes_back() {
        let names = kept(&["CEAC Maris Stella"]);
        let ca = "Lloc: Comença en la recepció del . CEAC Maris Stella Edat: per a majors";
        assert_eq!(
            finish(ca, &names, None, Lang::Ca, Field::Description),
            "Lloc: Comença en la recepció del CEAC Maris Stella. Edat: per a majors"
        );
        let names = kept(&["Centro Sociocultural Montecarmelo"]);
        let end = "Horari d'obertura del .. Centro Sociocultural Montecarmelo";
        assert_eq!(finish(end, &names, None, Lang::Ca, Field::Description), "Horari d'obertura del Centro Sociocultural Montecarmelo.");
        let names = kept(&["El Cairo"]);
        assert_eq!(
            finish("el clasismo en l'El Cairo contemporani", &names, None, Lang::Ca, Field::Description),
            "el clasismo en El Cairo contemporani"
        );
        let names = kept(&["Cairo"]);
        assert_eq!(
            finish("el clasismo en l'El Cairo contemporani", &names, None, Lang::Ca, Field::Description),
            "el clasismo en el Cairo contemporani"
        );
        // A stop after the span's sentence goes on is no sentence's end: it goes.
        let names = kept(&["CEAC Maris Stella"]);
        assert_eq!(
            finish("recepció del . CEAC Maris Stella amb amics", &names, None, Lang::Ca, Field::Description),
            "recepció del CEAC Maris Stella amb amics"
        );
    }

    /// After a term put in (an anchor that is no kept name), the pronoun
    /// Apertium gave the verb of a relative it read as a conjunction goes
    /// ("un \[spectacle\] que te hará reír" → "a show that it will make
    /// you"); right after the term, with no relative between, nothing goes.
    #[test]
    fn a_pronoun_after_a_relative_after_a_term_goes() {
        let by =
            |t: &str, terms: &[&str], lang| finish_from(t, &[], &kept(terms), &[], None, lang, Field::Description, Slips::Apertium, None);
        assert_eq!(by("A show that it will make you laugh", &["show"], Lang::En), "A show that will make you laugh");
        assert_eq!(
            by("Nous découvrirons des rimes qu'ils accompagnent des jeux", &["rimes"], Lang::Fr),
            "Nous découvrirons des rimes qui accompagnent des jeux"
        );
        assert_eq!(by("The workshop it imparts Ana", &["workshop"], Lang::En), "The workshop it imparts Ana");
        assert_eq!(by("le matériel qu'il faut apporter", &["matériel"], Lang::Fr), "le matériel qu'il faut apporter");
        // Before a term "it" is always the article; before a kept name only where no verb stands before it.
        assert_eq!(
            by("CIRAE will share it activity “Open Reading”", &["activity"], Lang::En),
            "CIRAE will share the activity “Open Reading”"
        );
        let name = |t: &str, n: &[&str]| finish_from(t, &kept(n), &kept(n), &[], None, Lang::En, Field::Description, Slips::Apertium, None);
        assert_eq!(name("CIRAE will share it Marta Gómez", &["Marta Gómez"]), "CIRAE will share it Marta Gómez");
        assert_eq!(name("A night with it Mag Lari", &["Mag Lari"]), "A night with the Mag Lari");
        // After an object pronoun, "it" is one of a pair: "que os lo cuento".
        assert_eq!(by("Come, come that you it story already!", &["story"], Lang::En), "Come, come that you it story already!");
        // "qu'il" before a term put in stays: the relative may be the subject.
        assert_eq!(by("un procès qu'il non seulement ajoute", &["non seulement"], Lang::Fr), "un procès qu'il non seulement ajoute");
        // After a term the comma leaves the pronoun alone: the term is no subject there.
        assert_eq!(by("Exhibition, it is open", &["Exhibition"], Lang::En), "Exhibition, it is open");
    }

    /// A line break between a kept name and its verb ends the sentence
    /// Apertium is sent: the lower-case pronoun it gave the verb goes, in
    /// English and French; a capitalised one (the publisher's sentence
    /// opening) stays, and so does any after a term, or a neural engine's.
    #[test]
    fn a_pronoun_after_a_line_break_after_a_name_goes() {
        let with = |t: &str, n: &[&str], lang, slips| finish_from(t, &kept(n), &kept(n), &[], None, lang, Field::Description, slips, None);
        let busquets = ["Mercè Busquets"];
        assert_eq!(
            with("Of the painter\nMercè Busquets\nit reproduces one of the views", &busquets, Lang::En, Slips::Apertium),
            "Of the painter\nMercè Busquets\nreproduces one of the views"
        );
        assert_eq!(
            with("De la peintre\nMercè Busquets\nil reproduit une des vues", &busquets, Lang::Fr, Slips::Apertium),
            "De la peintre\nMercè Busquets\nreproduit une des vues"
        );
        assert_eq!(
            with("Mercè Busquets\nIt reproduces a view", &busquets, Lang::En, Slips::Apertium),
            "Mercè Busquets\nIt reproduces a view"
        );
        assert_eq!(
            with("Mercè Busquets\n\nil reproduit une vue", &busquets, Lang::Fr, Slips::Apertium),
            "Mercè Busquets\n\nil reproduit une vue"
        );
        assert_eq!(with("Mercè Busquets\nil reproduit une vue", &busquets, Lang::Fr, Slips::None), "Mercè Busquets\nil reproduit une vue");
        let term = |t: &str| finish_from(t, &[], &kept(&["exhibition"]), &[], None, Lang::En, Field::Description, Slips::Apertium, None);
        assert_eq!(term("The exhibition\nit opens today"), "The exhibition\nit opens today");
    }

    /// Through Catalan, a term put in as the subject hides its noun from
    /// `cat-fra`, which gives the verb "il" or "ils": it goes, French's own
    /// "il y a" stays, and so does English "it" after a term, an object too.
    #[test]
    fn a_french_subject_pronoun_after_a_term_goes() {
        let by = |t: &str, terms: &[&str], lang, slips| finish_from(t, &[], &kept(terms), &[], None, lang, Field::Description, slips, None);
        assert_eq!(
            by("L'album illustré. L'illustratrice il dialoguera sur sa trajectoire", &["L'illustratrice"], Lang::Fr, Slips::Apertium),
            "L'album illustré. L'illustratrice dialoguera sur sa trajectoire"
        );
        assert_eq!(
            by("Incantations, feu et magie ils s'entremêlent", &["magie"], Lang::Fr, Slips::Apertium),
            "Incantations, feu et magie s'entremêlent"
        );
        assert_eq!(by("Dans la salle il y a un piano", &["salle"], Lang::Fr, Slips::Apertium), "Dans la salle il y a un piano");
        assert_eq!(
            by("À toutes les séances il faudra assister", &["séances"], Lang::Fr, Slips::Apertium),
            "À toutes les séances il faudra assister"
        );
        assert_eq!(by("L'illustratrice il dialoguera", &["L'illustratrice"], Lang::Fr, Slips::None), "L'illustratrice il dialoguera");
        assert_eq!(by("The workshop it imparts Ana", &["workshop"], Lang::En, Slips::Apertium), "The workshop it imparts Ana");
        // A term and the pronoun a contraction writes otherwise: "entre eux".
        assert_eq!(
            by("la terre. Entre ils se trouvaient des images", &["entre", "Entre"], Lang::Fr, Slips::Apertium),
            "la terre. Entre eux se trouvaient des images"
        );
    }

    /// A number after a kept name, a relative in a sentence's capital and
    /// a verb that ends a line leave the pronoun Apertium put in as plain
    /// to see as right after the name.
    #[test]
    fn a_pronoun_after_a_name_s_number_or_a_capital_relative_goes() {
        let with =
            |t: &str, n: &[&str], lang| finish_from(t, &kept(n), &kept(n), &[], None, lang, Field::Description, Slips::Apertium, None);
        assert_eq!(with("Art Llobet 2020 It HAS not MADE", &["Art Llobet"], Lang::En), "Art Llobet 2020 HAS not MADE");
        assert_eq!(
            with("Les Festes Decennals 2021 + 1 they will celebrate", &["Les Festes Decennals"], Lang::En),
            "Les Festes Decennals 2021 + 1 will celebrate"
        );
        assert_eq!(
            with("Koko-Jean & The Tonics\nils y présentent", &["Koko-Jean & The Tonics"], Lang::Fr),
            "Koko-Jean & The Tonics\ny présentent"
        );
        assert_eq!(with("À Lavapiés il y en a", &["Lavapiés"], Lang::Fr), "À Lavapiés il y en a");
        assert_eq!(
            with("JOAN CHAMORRO BIG BAND it PRESENTS\nDay 2", &["JOAN CHAMORRO BIG BAND"], Lang::En),
            "JOAN CHAMORRO BIG BAND PRESENTS\nDay 2"
        );
        let term = |t: &str| finish_from(t, &[], &kept(&["Stories"]), &[], None, Lang::En, Field::Description, Slips::Apertium, None);
        assert_eq!(term("Stories That they speak us of the sea"), "Stories That speak us of the sea");
        assert_eq!(super::super::subjects::number_after_a_name("2019-2020 it is"), 10);
        assert_eq!(super::super::subjects::number_after_a_name("- it is"), 0);
    }

    /// After a name opening its sentence, its apposition or the names
    /// listed with it between commas, the pronoun Apertium gave the verb
    /// goes; after a name a preposition opens, it stays.
    #[test]
    fn a_pronoun_after_a_name_s_apposition_goes() {
        let with =
            |t: &str, n: &[&str], lang| finish_from(t, &kept(n), &kept(n), &[], None, lang, Field::Description, Slips::Apertium, None);
        assert_eq!(
            with(
                "Early Music. Georg Friedrich Händel, together with Haydn, it is the grandmaster",
                &["Georg Friedrich Händel", "Haydn"],
                Lang::En
            ),
            "Early Music. Georg Friedrich Händel, together with Haydn, is the grandmaster"
        );
        let listed = ["Miguel Cidoncha", "Laura Coronel", "Nuria Martín"];
        assert_eq!(
            with("Miguel Cidoncha, Laura Coronel and Nuria Martín, they drive us through", &listed, Lang::En),
            "Miguel Cidoncha, Laura Coronel and Nuria Martín, drive us through"
        );
        let tena = ["Manuel Tena", "Sempere", "Profesor de la Universidad de Córdoba"];
        assert_eq!(
            with("Finally, Manuel Tena-Sempere, Profesor de la Universidad de Córdoba, it will present his project", &tena, Lang::En),
            "Finally, Manuel Tena-Sempere, Profesor de la Universidad de Córdoba, will present his project"
        );
        assert_eq!(with("Birloque, un clown, ils sont deux", &["Birloque"], Lang::Fr), "Birloque, un clown, sont deux");
        for unchanged in
            ["In Madrid, it is possible to see", "BESIDE Laura Serrano, they will comment", "Madrid, the city, and more, it is"]
        {
            assert_eq!(with(unchanged, &["Madrid", "Laura Serrano"], Lang::En), unchanged);
        }
        assert_eq!(
            with("Kat Lumen sings and it touches his own songs", &["Kat Lumen"], Lang::En),
            "Kat Lumen sings and touches his own songs"
        );
        assert_eq!(
            with("the carillonista M. Dolors Coll, and it substituted", &["M", "Dolors Coll"], Lang::En),
            "the carillonista M. Dolors Coll, and substituted"
        );
        assert_eq!(with("They come of Benalúa and it is led", &["Benalúa"], Lang::En), "They come of Benalúa and it is led");
        assert_eq!(with("Ana sings, dances and it is fun", &["Ana"], Lang::En), "Ana sings, dances and it is fun");
        let slips = finish_from(
            "Haydn, a master, it is",
            &kept(&["Haydn"]),
            &kept(&["Haydn"]),
            &[],
            None,
            Lang::Fr,
            Field::Description,
            Slips::None,
            None,
        );
        assert_eq!(slips, "Haydn, a master, it is");
    }

    /// French labels take no subject either ("Il organise : Museu Frederic
    /// Marès" → "Organise : …"), but an impersonal verb keeps its own.
    #[test]
    fn a_french_label_takes_no_subject_pronoun() {
        assert_eq!(
            super::pronoun_before_a_label("Prix : gratuit\nIl organise : Mairie de Barcelone", Lang::Fr).as_deref(),
            Some("Prix : gratuit\nOrganise : Mairie de Barcelone")
        );
        assert_eq!(super::pronoun_before_a_label("Il faut : une lampe", Lang::Fr), None);
        assert_eq!(super::pronoun_before_a_label("Il organise la fête : venez", Lang::Fr), None);
    }
}
