//! Plain text to and from Apertium's stream format, for the null-flush engine.
//!
//! `apertium -f txt` cannot be used in null-flush mode: its deformatter
//! (`apertium-destxt`) swallows the NUL bytes that separate texts. So the
//! engine runs with `-f none` and this module does the deformatting: it
//! escapes the characters the stream format reserves, turns line breaks and
//! runs of blanks into superblanks (`[...]`, passed through untouched), ends
//! each text with the `.[]` sentence end that `apertium-destxt` inserts, and
//! starts it with a numbered superblank so that an output that got out of step
//! with its input is detected rather than stored under the wrong event.
//!
//! Unknown-word marks (`*`, `#`, `@`, `~`) must never reach a reader. The
//! engine runs with `-u`, and on top of that every unescaped mark character in
//! the engine's output is dropped: literal ones in the input travel inside
//! superblanks (with the word they start: `#fiesta`, `@teatro`), so anything
//! bare in the output is a mark.
//!
//! A span between [`KEEP_START`] and [`KEEP_END`] (a venue's or a person's
//! name) travels as a superblank too, so the engine leaves it as it is.
//!
//! Not for: HTML or any other markup; the APy backend has its own framing.

use anyhow::{Result, bail};
use regex::Regex;
use std::sync::LazyLock;

/// Characters the stream format reserves; a backslash makes them literal.
pub(in crate::translate) const ESCAPED: &[char] = &['\\', '[', ']', '^', '$', '/', '<', '>', '{', '}'];
/// Characters the engine uses as marks (unknown word, generation error,
/// post-generation trigger). Literal ones are carried in a superblank.
const MARKS: &[char] = &['*', '#', '@', '~'];

/// Starts a span that no backend translates. Unicode private-use characters,
/// which feed text does not carry; see [`keep_verbatim`].
pub const KEEP_START: char = '\u{E000}';
/// Ends a span started by [`KEEP_START`].
pub const KEEP_END: char = '\u{E001}';

/// Wraps every occurrence of each of `phrases` in `text` (exact, case
/// sensitive, longest phrase first, never overlapping) in [`KEEP_START`] and
/// [`KEEP_END`], so that names such as "Centro Cultural Gloria Fuertes" are
/// not translated into "Cultural Centre Strong Glory". Markers already in
/// `text` are dropped first: call it once, with all the phrases.
pub fn keep_verbatim(text: &str, phrases: &[&str]) -> String {
    let text: String = text.chars().filter(|c| *c != KEEP_START && *c != KEEP_END).collect();
    let mut phrases: Vec<&str> = phrases.iter().map(|p| p.trim()).filter(|p| !p.is_empty()).collect();
    phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for phrase in phrases {
        for (at, _) in text.match_indices(phrase) {
            let end = at + phrase.len();
            if spans.iter().all(|&(a, b)| end <= a || at >= b) {
                spans.push((at, end));
            }
        }
    }
    spans.sort_unstable();
    let mut out = String::with_capacity(text.len() + spans.len() * 6);
    let mut last = 0;
    for (a, b) in spans {
        out.push_str(&text[last..a]);
        out.push(KEEP_START);
        out.push_str(&text[a..b]);
        out.push(KEEP_END);
        last = b;
    }
    out.push_str(&text[last..]);
    out
}

/// The leading and trailing whitespace of a text, which never goes through
/// the engine, and the core between them.
pub(crate) struct Framed<'a> {
    pub lead: &'a str,
    pub core: &'a str,
    pub trail: &'a str,
}

pub(crate) fn frame(text: &str) -> Framed<'_> {
    let core = text.trim();
    let start = text.len() - text.trim_start().len();
    Framed { lead: &text[..start], core, trail: &text[start + core.len()..] }
}

fn marker(id: usize) -> String {
    format!("[cityvibe:{id}]")
}

fn is_ascii_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}

/// The word put after a kept span so that an engine's rules cannot join
/// the words around it (`data/lang/es/joined-across-spans.tsv`): no
/// dictionary of any pair knows it, and [`reformat`] takes it out.
pub(in crate::translate) const JOIN_GUARD: &str = "qzxv";

/// `core` with [`JOIN_GUARD`] after each kept span that a preposition
/// listed in `es/joined-across-spans.tsv` opens and an article listed there
/// follows: "en \[Madrid\] el 18" would reach the rules as "en el 18" and
/// come back Galician "no \[Madrid\] 18", the article gone. And before
/// each kept span that an article listed there (`article` rows) opens: the
/// tagger, which cannot see the span, reads "la \[X\] es" as a pronoun
/// before a verb ("It is \[X\] it", French "celle \[X\]", Portuguese
/// "Está-o"); so does a word listed as `misread` ("Para \[X\]" read as
/// the verb "parar": "It stops \[all ages\]"), and a Catalan elided
/// article fused to it ("L'\[exposició\] vol": "Wants to exhibition offer
/// it"). In place of a Catalan original's personal article opening a
/// sentence before a kept name and its verb (`personal` rows: "En
/// \[Txema\] és" came back "It is Txema the only postman"; with the
/// guard, "Txema is"). Before a kept span after a word listed as
/// `subject` (a relative or a conjunction) and before a lower-case word,
/// on the routes the row names (into English and French, which give a verb
/// a subject pronoun of their own where they see none): "el yacimiento que
/// \[Madrid\] decidió olvidar" came back French "le gisement qui Madrid a
/// décidé il oublier"; with the guard, "que Madrid a décidé oublier". And,
/// on a route through a mode an `apart` row names (`modes`: the route's, `spa-cat+cat-por`),
/// between a kept span and the word listed there right after it, before a
/// capitalised word (a place): through
/// Catalan, "conciertos en España" reaches `cat-por` as "concerts a
/// Espanya", and a span before it hides the noun, so "\[concertos\] a"
/// reads "dar a" ("Deu concertos a Espanha", not "em Espanha"). And after
/// a kept span that a word listed as `joined` opens, before a word or a
/// figure, on the whole routes the row names, where no guard went before
/// it: the rules join the two words either side and move the span after
/// them ("de \[Bach\] y \[Piazzolla\]" came back Catalan "d'i Bach
/// Piazzolla", "del \[Manzanares\] que da" "del que Manzanares dóna").
pub(crate) fn guard_joins<'a>(core: &'a str, modes: &str) -> std::borrow::Cow<'a, str> {
    guarded(core, modes, true)
}

/// `core` as a route through `modes` sends it, where a row of
/// `es/joined-across-spans.tsv` that names the route's modes (other than
/// an `apart` row, whose routes' keys say so: `Route::key_name`) guards it
/// otherwise than the rows every route takes: "En \[X\] anhelamos" goes
/// to `spa-cat+cat-ita` as "En qzxv \[X\] anhelamos". `None` where no
/// such row touches it. A text's cache key holds it
/// (`send::need::asked_key`): the engine is asked another text, so only
/// the texts such a row touches are asked again.
pub(crate) fn routed_guard(core: &str, modes: &str) -> Option<String> {
    let routed = guarded(core, modes, true);
    (routed != guarded(core, modes, false)).then(|| routed.into_owned())
}

/// [`guard_joins`]; `routed`: whether rows that name modes, other than
/// `apart` rows, apply where they name the route's.
fn guarded<'a>(core: &'a str, modes: &str, routed: bool) -> std::borrow::Cow<'a, str> {
    // (side, word, modes) rows of the file, read once.
    static LISTED: LazyLock<Vec<(&'static str, &'static str, &'static str)>> = LazyLock::new(|| {
        crate::lang_data::of(crate::lang::Lang::Es)
            .joined_across_spans
            .rows()
            .filter_map(|r| Some((*r.first()?, *r.get(1)?, r.get(2).copied().unwrap_or_default())))
            .collect()
    });
    let listed = |side: &str, word: &str| {
        let word = word.to_lowercase();
        LISTED.iter().any(|&(s, w, on)| s == side && w == word && (on.is_empty() || (routed || s == "apart") && names_a_mode_of(on, modes)))
    };
    // The word right before a span, a blank between; or an elided
    // article fused to it, apostrophe and all (Catalan "L'[exposició]").
    let last_word = |text: &str| {
        // The letters `t` ends with.
        let letters = |t: &str| {
            let start = t.rfind(|c: char| !c.is_alphabetic()).map_or(0, |p| p + t[p..].chars().next().map_or(1, char::len_utf8));
            t[start..].to_string()
        };
        if let Some(head) = text.strip_suffix(['\'', '’']) {
            let word = letters(head);
            return (!word.is_empty()).then(|| format!("{word}'"));
        }
        Some(letters(text.strip_suffix(' ')?))
    };
    let first_word = |text: &str| {
        let text = text.strip_prefix(' ')?;
        let end = text.find(|c: char| !c.is_alphabetic()).unwrap_or(text.len());
        (text[end..].starts_with(' ')).then(|| text[..end].to_string())
    };
    // A span after a word listed as `subject` (a relative, a conjunction)
    // with a lower-case word, its verb, after it: the span is that verb's
    // subject.
    let subject = |before: Option<&str>, after: usize| {
        before.is_some_and(|w| listed("subject", w)) && core[after..].strip_prefix(' ').is_some_and(|r| r.starts_with(char::is_lowercase))
    };
    let mut guarded: Option<String> = None;
    let mut from = 0;
    for (end, _) in core.match_indices(KEEP_END) {
        let Some(start) = core[..end].rfind(KEEP_START) else { continue };
        let after = end + KEEP_END.len_utf8();
        let before = last_word(&core[..start]);
        // Whether the guard went before the span: the rules then read it,
        // not the word before, next to the word after the span.
        let mut guarded_before = true;
        // A Catalan original's personal article opening a sentence before a
        // kept name and its verb ("En [Txema] és"): the guard takes its place, on the
        // whole routes a `personal` row names (a Spanish "En [Madrid]" is
        // the preposition).
        let personal = before.as_deref().and_then(|w| {
            let at = start.checked_sub(w.len() + 1).filter(|&at| at >= from && core[at..start].ends_with(' '))?;
            let head = core[..at].trim_end_matches(' ');
            let opens = head.is_empty() || head.ends_with(['.', '!', '?', '\n']);
            let row =
                LISTED.iter().any(|&(s, pw, on)| s == "personal" && pw == w.to_lowercase() && on.split_whitespace().any(|m| m == modes));
            // The name the subject: a lower-case word (its verb) after it.
            let subject = core[after..].strip_prefix(' ').is_some_and(|r| r.starts_with(char::is_lowercase));
            (routed && opens && subject && row && w.starts_with(char::is_uppercase)).then_some(at)
        });
        if let Some(at) = personal {
            let out = guarded.get_or_insert_with(String::new);
            out.push_str(&core[from..at]);
            out.push_str(JOIN_GUARD);
            out.push(' ');
            from = start;
        } else if before.as_deref().is_some_and(|w| listed("article", w) || listed("misread", w)) || subject(before.as_deref(), after) {
            let out = guarded.get_or_insert_with(String::new);
            out.push_str(&core[from..start]);
            out.push_str(JOIN_GUARD);
            out.push(' ');
            from = start;
        } else {
            guarded_before = false;
        }
        // A word the route's rules join to whatever follows the span (`joined`
        // rows, by whole route): before a word or a figure.
        let joined = routed
            && !guarded_before
            && before.as_deref().is_some_and(|w| joined_on(w, modes))
            && core[after..].strip_prefix(' ').is_some_and(|r| r.starts_with(char::is_alphanumeric));
        let opens = before.is_some_and(|w| listed("before", &w));
        let next = first_word(&core[after..]);
        let follows = next.as_deref().is_some_and(|w| listed("after", w));
        // An `apart` word before a capitalised one, a place ("en España"):
        // before a quote or a lower-case word the guard was measured to cost.
        let apart = next.is_some_and(|w| {
            listed("apart", &w) && core[after + 1 + w.len()..].strip_prefix(' ').is_some_and(|r| r.starts_with(char::is_uppercase))
        });
        if opens && follows || apart || joined {
            let out = guarded.get_or_insert_with(String::new);
            out.push_str(&core[from..after]);
            out.push(' ');
            out.push_str(JOIN_GUARD);
            from = after;
        }
    }
    match guarded {
        None => std::borrow::Cow::Borrowed(core),
        Some(mut out) => {
            out.push_str(&core[from..]);
            std::borrow::Cow::Owned(out)
        }
    }
}

/// Whether a route through `modes` takes a guard an `apart` row of
/// `es/joined-across-spans.tsv` names for it (its cache key says so).
pub(crate) fn guards_apart(modes: &str) -> bool {
    crate::lang_data::of(crate::lang::Lang::Es)
        .joined_across_spans
        .rows()
        .any(|r| r.first() == Some(&"apart") && r.get(2).is_some_and(|on| names_a_mode_of(on, modes)))
}

/// Whether `word` (before a kept span) is listed as `joined` in
/// `es/joined-across-spans.tsv` for the whole route `modes`
/// (`spa-cat+cat-fra`): its rules join it to the word after the span, which
/// they see as the next ("de \[Bach\] y" came back Catalan "d'i Bach
/// Piazzolla").
fn joined_on(word: &str, modes: &str) -> bool {
    static JOINED: LazyLock<Vec<(&'static str, &'static str)>> = LazyLock::new(|| {
        crate::lang_data::of(crate::lang::Lang::Es)
            .joined_across_spans
            .rows()
            .filter(|r| r.first() == Some(&"joined"))
            .filter_map(|r| Some((*r.get(1)?, *r.get(2)?)))
            .collect()
    });
    let word = word.to_lowercase();
    JOINED.iter().any(|&(w, on)| w == word && on.split_whitespace().any(|m| m == modes))
}

/// Whether a row's modes column `on` (`cat-por cat-ita`) names one of the
/// modes of the route `modes` (`spa-cat+cat-por`), or the route itself
/// (`spa-cat+cat-ita`: not `cat-ita` alone, which Catalan originals take).
fn names_a_mode_of(on: &str, modes: &str) -> bool {
    on.split_whitespace().any(|m| m == modes || modes.split('+').any(|x| x == m))
}

/// Deformats one text (no leading or trailing whitespace) for the engine,
/// without the NUL that ends it.
/// `modes`: the route's (`spa-cat+cat-por`), which decide some guards.
pub(crate) fn deformat(core: &str, id: usize, modes: &str) -> String {
    let core = &*guard_joins(core, modes);
    let mut out = String::with_capacity(core.len() + core.len() / 8 + 24);
    out.push_str(&marker(id));
    let mut chars = core.chars().peekable();
    // Whether the last thing written is a kept span.
    let mut after_span = false;
    while let Some(c) = chars.next() {
        // NUL would end the text early; other controls have no business here.
        let c = if c.is_control() && !is_ascii_blank(c) { ' ' } else { c };
        let span_before = std::mem::take(&mut after_span);
        if c == KEEP_START {
            after_span = true;
            out.push('[');
            for k in chars.by_ref() {
                match k {
                    KEEP_END => break,
                    k if k.is_control() && !is_ascii_blank(k) => out.push(' '),
                    k => {
                        if ESCAPED.contains(&k) {
                            out.push('\\');
                        }
                        out.push(k);
                    }
                }
            }
            out.push(']');
        } else if c == KEEP_END {
            // A stray end marker: nothing to close.
        } else if is_ascii_blank(c) {
            let mut run = String::from(c);
            while let Some(&n) = chars.peek() {
                if !(is_ascii_blank(n) || (n.is_control())) {
                    break;
                }
                run.push(if is_ascii_blank(n) { n } else { ' ' });
                chars.next();
            }
            if run == " " {
                out.push(' ');
            } else {
                // A blank line ends a sentence, as apertium-destxt assumes;
                // so does a line break beside a kept span, which the rules
                // read as a blank: the words either side of both would be
                // one phrase to them ("A cargo de [Marcopan Producciones]
                // / Imparte:" came back Catalan "A càrrec d'Imparte:
                // Marcopan Producciones", the next line's verb moved).
                let line = run.contains('\n');
                let beside_a_span = line && (span_before || chars.peek() == Some(&KEEP_START));
                if run.replace('\r', "").contains("\n\n") || beside_a_span {
                    out.push_str(".[]");
                }
                out.push('[');
                out.push_str(&run);
                out.push(']');
            }
        } else if MARKS.contains(&c) {
            // A literal mark, with the word it starts: a #hashtag or an
            // @handle is a name, not something to translate.
            out.push('[');
            out.push(c);
            while let Some(&n) = chars.peek() {
                if !(n.is_alphanumeric() || n == '_') {
                    break;
                }
                out.push(n);
                chars.next();
            }
            out.push(']');
        } else if ESCAPED.contains(&c) {
            out.push('\\');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out.push_str(".[]");
    out
}

/// Turns the engine's output for text `id` back into plain text.
///
/// Errs when the output does not start with text `id`'s marker: the engine is
/// out of step and nothing it says can be trusted any more.
pub(crate) fn reformat(output: &str, id: usize) -> Result<String> {
    let expected = marker(id);
    let Some(rest) = output.strip_prefix(&expected) else {
        let head: String = output.chars().take(40).collect();
        bail!("engine output out of step: expected text {id}, got {head:?}");
    };
    // "Finirai \<pr\> essere": a tag the generator could not inflect,
    // written escaped (Apertium's Italian leaks `<pr>`): the tag and the
    // blank before it go.
    static LEAKED_TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r" ?(?:\\<[a-z0-9_]+\\>)+").expect("tag regex"));
    let rest = LEAKED_TAG.replace_all(rest, "");
    let mut out = String::with_capacity(rest.len());
    let mut chars = rest.chars().peekable();
    // Whether the last char pushed was an unescaped '.', which is the one
    // deformat inserted when an empty superblank follows it.
    let mut last_bare_dot = false;
    // Whether the last char pushed was a blank of the engine's own (not a
    // superblank's): a second one right after it stands where the engine
    // moved a word from, past a kept span ("del qzxv \[CAAC\]  i la
    // manera": deformat sends no two blanks but as a superblank).
    let mut last_blank = false;
    while let Some(c) = chars.next() {
        if c == ' ' && std::mem::replace(&mut last_blank, true) {
            continue;
        }
        last_blank = c == ' ';
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
                last_bare_dot = false;
            }
            '[' => {
                let mut content = String::new();
                while let Some(n) = chars.next() {
                    match n {
                        '\\' => {
                            if let Some(e) = chars.next() {
                                content.push(e);
                            }
                        }
                        ']' => break,
                        _ => content.push(n),
                    }
                }
                if content.is_empty() {
                    if last_bare_dot {
                        out.pop();
                    }
                } else if !content.starts_with('[') {
                    // `[[...]]` would be a word-bound blank; we never send one.
                    out.push_str(&content);
                } else if chars.peek() == Some(&']') {
                    chars.next();
                }
                last_bare_dot = false;
            }
            // A stray tag (`<n>`) would mean a stage leaked analysis: drop it.
            '<' => {
                for n in chars.by_ref() {
                    if n == '>' {
                        break;
                    }
                }
                last_bare_dot = false;
            }
            '^' | '$' | '{' | '}' | ']' => {}
            c if MARKS.contains(&c) => {}
            _ => {
                out.push(c);
                last_bare_dot = c == '.';
            }
        }
    }
    // Also where an engine gave the guard a sentence's capital ("Qzxv").
    if out.to_lowercase().contains(JOIN_GUARD) {
        // With the blank before it; opening the text or a line (where it
        // took a personal article's place), with the blank after it.
        static GUARD: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(&format!(r"(?im)^{JOIN_GUARD} | ?\b{JOIN_GUARD}\b")).expect("guard regex"));
        out = GUARD.replace_all(&out, "").into_owned();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On the whole routes a `joined` row names, a span that "de" or "del"
    /// opens takes the guard after it, before a word or a figure: not
    /// before a mark, not on other routes (into English, from Catalan
    /// into Spanish or through it). The text's key says so
    /// (`routed_guard`): only such texts are asked again.
    #[test]
    fn a_span_a_joining_preposition_opens_is_guarded_after_on_the_routes_named() {
        let k = |s: &str| s.replace('{', &KEEP_START.to_string()).replace('}', &KEEP_END.to_string());
        let text = k("Concierto de {Bach} y {Piazzolla}, de {Ana}. Corea del {Sur} 2024");
        let guarded = k("Concierto de {Bach} qzxv y {Piazzolla}, de {Ana}. Corea del {Sur} qzxv 2024");
        for modes in ["spa-cat", "spa-cat+cat-fra", "es-gl", "cat-ita"] {
            assert_eq!(routed_guard(&text, modes).as_deref(), Some(guarded.as_str()), "{modes}");
        }
        for modes in ["spa-eng", "cat-eng", "cat-spa", "cat-spa+es-gl", ""] {
            assert_eq!(routed_guard(&text, modes), None, "{modes}");
        }
        assert_eq!(reformat("[cityvibe:0]Concert de [Bach] qzxv i [Piazzolla].[]", 0).unwrap(), "Concert de Bach i Piazzolla");
        // The guard the rules took for the noun after "del", moved before
        // the span with it: one blank stays where it stood; the
        // publisher's own blanks (a superblank) stay as they were.
        assert_eq!(reformat("[cityvibe:0]l'actualitat del qzxv [CAAC]  i la manera.[]", 0).unwrap(), "l'actualitat del CAAC i la manera");
        assert_eq!(reformat("[cityvibe:0]Preu:[  ]10 €.[]", 0).unwrap(), "Preu:  10 €");
    }

    /// On the routes a `subject` row names, a span after a relative or a
    /// conjunction and before a lower-case word takes the guard before it;
    /// not before a capital or a mark, nor on other routes.
    #[test]
    fn a_span_after_a_relative_or_a_conjunction_before_its_verb_is_guarded_into_english_and_french() {
        let k = |s: &str| s.replace('{', &KEEP_START.to_string()).replace('}', &KEEP_END.to_string());
        let text = k("el yacimiento que {Madrid} decidió olvidar; {Tomás} y {Norita} acabarán, y {Ana}. Que {Luis} Gómez");
        let guarded = k("el yacimiento que qzxv {Madrid} decidió olvidar; {Tomás} y qzxv {Norita} acabarán, y {Ana}. Que {Luis} Gómez");
        for modes in ["es-fr", "spa-eng", "cat-eng", "spa-cat+cat-fra"] {
            assert_eq!(routed_guard(&text, modes).as_deref(), Some(guarded.as_str()), "{modes}");
        }
        for modes in ["spa-ita", "es-gl", ""] {
            assert_eq!(routed_guard(&text, modes), None, "{modes}");
        }
        assert_eq!(
            reformat("[cityvibe:0]the site that qzxv [Madrid] decided to forget.[]", 0).unwrap(),
            "the site that Madrid decided to forget"
        );
    }

    #[test]
    fn escapes_reserved_and_carries_marks_in_superblanks() {
        assert_eq!(deformat("a/b [c] 5 * x #y_1, @z", 3, ""), r"[cityvibe:3]a\/b \[c\] 5 [*] x [#y_1], [@z].[]");
    }

    #[test]
    fn line_breaks_become_superblanks_and_blank_lines_end_sentences() {
        assert_eq!(deformat("Uno\ndos\n\ntres", 0, ""), "[cityvibe:0]Uno[\n]dos.[][\n\n]tres.[]");
    }

    /// A line break right after or before a kept span ends the sentence:
    /// the rules read the span as a blank and would join the words either
    /// side of it and of the break ("A cargo de \[X\] / Imparte:" came
    /// back Catalan "A càrrec d'Imparte: X").
    #[test]
    fn a_line_break_beside_a_kept_span_ends_the_sentence() {
        let core =
            format!("A cargo de {KEEP_START}Marcopan{KEEP_END}\nImparte: {KEEP_START}Mario{KEEP_END}\n{KEEP_START}Ana{KEEP_END} y\nluego");
        assert_eq!(deformat(&core, 0, ""), "[cityvibe:0]A cargo de [Marcopan].[][\n]Imparte: [Mario].[][\n][Ana] y[\n]luego.[]");
        assert_eq!(
            reformat("[cityvibe:0]A càrrec de [Marcopan].[][\n]Imparteix: [Mario].[]", 0).unwrap(),
            "A càrrec de Marcopan\nImparteix: Mario"
        );
    }

    /// "nació en [Madrid] el 18" came back Galician "naceu no Madrid 18": a
    /// word no dictionary knows keeps the rules from joining "en" and "el"
    /// across the span, and goes again.
    #[test]
    fn a_guard_keeps_words_around_a_span_apart_and_goes_again() {
        let core = format!("nació en {KEEP_START}Madrid{KEEP_END} el 18, con {KEEP_START}Luis{KEEP_END} y él");
        let sent = deformat(&core, 3, "");
        assert!(sent.contains("[Madrid] qzxv el 18") && sent.contains("[Luis] y"), "{sent}");
        assert_eq!(reformat("[cityvibe:3]naceu en [Madrid] *qzxv o 18.[]", 3).unwrap(), "naceu en Madrid o 18");
    }

    #[test]
    fn kept_spans_travel_as_superblanks() {
        let text = keep_verbatim("En el Centro Cultural Gloria Fuertes [sala 2]", &["Centro Cultural Gloria Fuertes", "Gloria"]);
        assert_eq!(text, "En el \u{E000}Centro Cultural Gloria Fuertes\u{E001} [sala 2]");
        // The article before the span goes with the guard word, which the answer loses.
        assert_eq!(deformat(&text, 0, ""), r"[cityvibe:0]En el qzxv [Centro Cultural Gloria Fuertes] \[sala 2\].[]");
        assert_eq!(
            reformat(r"[cityvibe:0]In the qzxv [Centro Cultural Gloria Fuertes].[]", 0).unwrap(),
            "In the Centro Cultural Gloria Fuertes"
        );
        let back = reformat(r"[cityvibe:0]In the [Centro Cultural Gloria Fuertes] \[room 2\].[]", 0).unwrap();
        assert_eq!(back, "In the Centro Cultural Gloria Fuertes [room 2]");
    }

    #[test]
    fn keep_verbatim_never_nests() {
        let once = keep_verbatim("Teatro Español y Español", &["Teatro Español", "Español"]);
        assert_eq!(once, "\u{E000}Teatro Español\u{E001} y \u{E000}Español\u{E001}");
        assert_eq!(keep_verbatim(&once, &[]), "Teatro Español y Español");
    }

    #[test]
    fn nul_in_input_cannot_split_a_text() {
        assert!(!deformat("a\0b", 0, "").contains('\0'));
    }

    /// A guard only some routes take keys the texts it touches, on those
    /// routes: "En \[X\]" through Catalan into Italian and Portuguese; a
    /// Catalan original's "En \[Txema\] és" (its personal article) on the
    /// routes from Catalan, where the guard takes the article's place; not a
    /// text every route guards alike.
    #[test]
    fn a_guard_only_some_routes_take_is_told_apart_by_text() {
        let en = format!("Energía. En {KEEP_START}IM/PASIBLES{KEEP_END} anhelamos");
        assert_eq!(routed_guard(&en, "spa-cat+cat-ita").as_deref(), Some(&*en.replace("En ", "En qzxv ")));
        assert!(routed_guard(&en, "spa-cat+cat-por").is_some());
        for modes in ["spa-cat+cat-fra", "spa-eng", ""] {
            assert_eq!(routed_guard(&en, modes), None, "{modes}");
        }
        for modes in ["cat-ita", "cat-por", "cat-eng", "cat-fra", "cat-spa"] {
            assert_eq!(routed_guard(&en, modes).as_deref(), Some(&*en.replace("En ", "qzxv ")), "{modes}");
        }
        // Opening the text or a line, too; mid-sentence, or before a comma, the word is the engine's.
        let txema = format!("En {KEEP_START}Txema{KEEP_END} és el carter");
        assert_eq!(deformat(&txema, 0, "cat-eng"), "[cityvibe:0]qzxv [Txema] és el carter.[]");
        assert_eq!(reformat("[cityvibe:0]qzxv [Txema] is the postman.[]", 0).unwrap(), "Txema is the postman");
        assert_eq!(reformat("[cityvibe:0]Boys[\n]qzxv [Tomàs] is a widower.[]", 0).unwrap(), "Boys\nTomàs is a widower");
        let line = format!("Nens.\nEn {KEEP_START}Tomàs{KEEP_END} és vidu");
        assert!(deformat(&line, 0, "cat-fra").contains("qzxv [Tomàs]"), "{}", deformat(&line, 0, "cat-fra"));
        for kept in
            [format!("Parlem amb en {KEEP_START}Txema{KEEP_END} demà"), format!("La festa. En {KEEP_START}Madrid{KEEP_END}, el 1936")]
        {
            assert_eq!(routed_guard(&kept, "cat-eng"), None, "{kept}");
        }
        // Every route guards an article before a span: no text of its own.
        let la = format!("La {KEEP_START}lectura{KEEP_END} es");
        assert_eq!(routed_guard(&la, "spa-cat+cat-ita"), None);
        // An `apart` guard is told by its route's key, not by text.
        let apart = format!("Ha dado {KEEP_START}conciertos{KEEP_END} en España");
        assert!(deformat(&apart, 0, "spa-cat+cat-por").contains("qzxv en"));
        assert_eq!(routed_guard(&apart, "spa-cat+cat-por"), None);
    }

    #[test]
    fn reformat_drops_inserted_dot_marks_and_unescapes() {
        let out = "[cityvibe:7]Hola \\@teatro *Xyzzy [#]tag fare# di.[][\n\n]5 [*] estrellas.[]";
        assert_eq!(reformat(out, 7).unwrap(), "Hola @teatro Xyzzy #tag fare di\n\n5 * estrellas");
    }

    #[test]
    fn reformat_drops_an_escaped_tag_the_generator_leaked() {
        assert_eq!(reformat("[cityvibe:2]Finirai \\<pr\\> essere un attore", 2).unwrap(), "Finirai essere un attore");
        assert_eq!(reformat("[cityvibe:2]a \\<vblex\\>\\<inf\\> b \\<b\\>", 2).unwrap(), "a b");
        assert_eq!(reformat("[cityvibe:2]1 \\< 2 \\<B\\>", 2).unwrap(), "1 < 2 <B>");
    }

    #[test]
    fn reformat_keeps_real_sentence_end() {
        assert_eq!(reformat("[cityvibe:1]Hello World..[]", 1).unwrap(), "Hello World.");
    }

    #[test]
    fn reformat_rejects_output_out_of_step() {
        assert!(reformat("[cityvibe:2]Hello.[]", 1).is_err());
        assert!(reformat("Hello.[]", 1).is_err());
    }

    #[test]
    fn frame_keeps_outer_whitespace_aside() {
        let f = frame("  Hola\n");
        assert_eq!((f.lead, f.core, f.trail), ("  ", "Hola", "\n"));
        let f = frame("   ");
        assert_eq!((f.lead, f.core, f.trail), ("   ", "", ""));
    }
}
