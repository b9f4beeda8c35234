//! The term base: event vocabulary a professional translator chose once
//! ("Club de lectura" → "Book Club"), applied before any engine so that an
//! engine never turns an exhibition into an "Exposure".
//!
//! One plain file per target language, `es-XX.tsv` (Spanish phrase, target
//! phrase, optional note; `#` starts a comment line). The files shipped in
//! `data/terms/` are built into the binary; an operator's folder
//! (`[settings] terms_dir`) replaces them file by file. Matching is on whole
//! words, case-insensitive, longest phrase first; a capital on the matched
//! text's first letter is kept on the target phrase.
//!
//! Not for: names (see `names`), or how a matched phrase travels through
//! an engine (it becomes a kept span, like a name).

use crate::translate::prepare::words::{opens_sentence, words};
use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::path::Path;

/// The shipped term files, one per target language.
const SHIPPED: &[(&str, &str)] = &[
    ("en", include_str!("../../../data/terms/es-en.tsv")),
    ("fr", include_str!("../../../data/terms/es-fr.tsv")),
    ("it", include_str!("../../../data/terms/es-it.tsv")),
    ("pt", include_str!("../../../data/terms/es-pt.tsv")),
    ("ca", include_str!("../../../data/terms/es-ca.tsv")),
    ("gl", include_str!("../../../data/terms/es-gl.tsv")),
];

/// The shipped term files for Basque originals, one per target language
/// (`eu-XX.tsv`, Spanish included: "Bertso-saioa" → "Sesión de bertsos").
const SHIPPED_BASQUE: &[(&str, &str)] = &[
    ("es", include_str!("../../../data/terms/eu-es.tsv")),
    ("en", include_str!("../../../data/terms/eu-en.tsv")),
    ("fr", include_str!("../../../data/terms/eu-fr.tsv")),
    ("it", include_str!("../../../data/terms/eu-it.tsv")),
    ("pt", include_str!("../../../data/terms/eu-pt.tsv")),
    ("ca", include_str!("../../../data/terms/eu-ca.tsv")),
    ("gl", include_str!("../../../data/terms/eu-gl.tsv")),
];

/// The shipped term files for Catalan originals (the Catalonia agenda),
/// one per target language whose pair needs one (`ca-XX.tsv`): what
/// Apertium's Catalan pairs read wrong or leave as they are ("Exposició" →
/// French "Exposé", a title's "Febrer" left in Catalan), and the generic
/// head of a public body's name ("Departament de Cultura"), which a kept
/// name would otherwise hold whole.
const SHIPPED_CATALAN: &[(&str, &str)] = &[
    ("en", include_str!("../../../data/terms/ca-en.tsv")),
    ("fr", include_str!("../../../data/terms/ca-fr.tsv")),
    ("it", include_str!("../../../data/terms/ca-it.tsv")),
    ("pt", include_str!("../../../data/terms/ca-pt.tsv")),
];

/// One entry: the Spanish phrase as lowercase words, and what it becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub words: Vec<String>,
    pub spanish: String,
    pub target: String,
    /// Note `title-initial`: only at the very start of a text (imperatives).
    pub initial_only: bool,
    /// Note `name-head`: not when a capitalised word follows (a name).
    pub name_head: bool,
    /// Note `before-name`: only when a capitalised word follows ("calle
    /// Julio Merino" names a street; "sale a la calle" is an ordinary word).
    pub before_name: bool,
    /// Note `titles`: only in a title, where the word is read one way
    /// ("como" + a bare noun is "as"), not in running text.
    pub titles_only: bool,
    /// Note `heads-place`: a phrase that heads a place's name in a title
    /// case title ("Itinerario Ornitológico Parque del Oeste"), put in even
    /// where a capitalised word follows it.
    pub heads_place: bool,
    /// Note `after-name`: a phrase that ends a name whose first word the
    /// text writes before it ("Madrid Distrito en corto", the programme's
    /// name written in lower case), put in even right after a capitalised
    /// word.
    pub after_name: bool,
}

/// The entries for one pair (Spanish into one target language).
#[derive(Debug, Clone, Default)]
pub struct TermBase {
    terms: Vec<Term>,
    /// First word → entries starting with it, longest first.
    by_first: HashMap<String, Vec<usize>>,
    /// Lines skipped, each as `file line N: why`.
    problems: Vec<String>,
}

/// A term found in a text: byte range, and the entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub term: usize,
}

impl TermBase {
    /// Parses a term file; `name` is for error messages. Strict: the
    /// shipped files must have no line to skip.
    pub fn parse(content: &str, name: &str) -> Result<TermBase> {
        let base = TermBase::read(content, name);
        if let Some(first) = base.problems.first() {
            bail!("{first}");
        }
        Ok(base)
    }

    /// Reads a term file one line at a time: a malformed line is skipped and
    /// said in [`TermBase::problems`], so that one typo in an operator's file
    /// does not stop all translation. A target phrase goes into translations,
    /// so it passes the gate of every stored text (`parse::stored`): one
    /// holding contact data is skipped, markup and control characters are
    /// stripped.
    pub fn read(content: &str, name: &str) -> TermBase {
        let mut base = TermBase::default();
        for (n, line) in content.lines().enumerate() {
            if let Err(why) = base.read_line(line) {
                base.problems.push(format!("{name} line {}: {why}; line skipped", n + 1));
            }
        }
        base.index();
        base
    }

    fn read_line(&mut self, line: &str) -> Result<(), String> {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            return Ok(());
        }
        let mut cols = line.split('\t');
        let (Some(es), Some(target), note) = (cols.next(), cols.next(), cols.next().unwrap_or("")) else {
            return Err("expected `Spanish<TAB>target[<TAB>note]`".into());
        };
        if let Some(why) = crate::parse::stored::refusal(target) {
            return Err(format!("the target phrase {why}"));
        }
        let (es, target) = (crate::parse::stored::line(es), crate::parse::stored::line(target));
        if es.is_empty() || target.is_empty() {
            return Err("an empty phrase".into());
        }
        let lower = es.to_lowercase();
        let words: Vec<String> = words(&lower).iter().map(|&(a, b)| lower[a..b].to_string()).collect();
        if words.is_empty() {
            return Err(format!("{es:?} has no word"));
        }
        self.terms.push(Term {
            words,
            spanish: es,
            target,
            initial_only: note.contains("title-initial"),
            name_head: note.contains("name-head"),
            before_name: note.contains("before-name"),
            titles_only: note.split([' ', ',']).any(|n| n == "titles"),
            heads_place: note.contains("heads-place"),
            after_name: note.contains("after-name"),
        });
        Ok(())
    }

    /// The lines skipped when the file was read.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    fn index(&mut self) {
        let base = self;
        // A later line for the same phrase wins: the operator's own additions
        // go at the end of the file.
        // The same words joined otherwise ("bertso saioa", "bertso-saioa")
        // are two entries.
        let key = |t: &Term| t.spanish.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ");
        let mut seen = HashMap::new();
        for (i, t) in base.terms.iter().enumerate() {
            seen.insert(key(t), i);
        }
        for (i, t) in base.terms.iter().enumerate() {
            if seen[&key(t)] == i {
                base.by_first.entry(t.words[0].clone()).or_default().push(i);
            }
        }
        for list in base.by_first.values_mut() {
            let terms = &base.terms;
            list.sort_by_key(|&i| std::cmp::Reverse(terms[i].words.len()));
        }
    }

    /// The term base for Spanish into `tgt`: the operator's `dir/es-TGT.tsv`
    /// when there is one, else the shipped file; empty for other languages.
    /// An operator's file is read line by line (see [`TermBase::read`]);
    /// a `dir` that is not there is said in [`TermBase::problems`], and the
    /// shipped file is used.
    pub fn load(dir: Option<&Path>, tgt: &str) -> Result<TermBase> {
        let mut missing = None;
        if let Some(dir) = dir {
            let path = dir.join(format!("es-{tgt}.tsv"));
            if path.exists() {
                let content = std::fs::read_to_string(&path).with_context(|| format!("reading the term base {}", path.display()))?;
                return Ok(TermBase::read(&content, &path.display().to_string()));
            }
            if !dir.is_dir() {
                missing =
                    Some(format!("terms_dir {} is not a folder: the shipped term base is used (fix [settings] terms_dir)", dir.display()));
            }
        }
        let mut base = match SHIPPED.iter().find(|(l, _)| *l == tgt) {
            Some((_, content)) => TermBase::parse(content, &format!("data/terms/es-{tgt}.tsv"))?,
            None => TermBase::default(),
        };
        base.problems.extend(missing);
        Ok(base)
    }

    /// The shipped term base for originals in the language coded `src`
    /// other than Spanish into `tgt` (`data/terms/eu-TGT.tsv` for Basque,
    /// `data/terms/ca-TGT.tsv` for Catalan); empty for a pair without one.
    pub fn of_original(src: &str, tgt: &str) -> Result<TermBase> {
        let shipped = match src {
            "eu" => SHIPPED_BASQUE,
            "ca" => SHIPPED_CATALAN,
            _ => &[],
        };
        match shipped.iter().find(|(l, _)| *l == tgt) {
            Some((_, content)) => TermBase::parse(content, &format!("data/terms/{src}-{tgt}.tsv")),
            None => Ok(TermBase::default()),
        }
    }

    /// What is wrong with an operator's term folder, for `doctor`: the
    /// folder missing, or the lines its files would have skipped.
    pub fn check_dir(dir: &Path, langs: &[String]) -> Vec<String> {
        let mut problems = Vec::new();
        for lang in langs.iter().filter(|l| SHIPPED.iter().any(|(s, _)| s == l)) {
            match TermBase::load(Some(dir), lang) {
                Ok(base) => problems.extend(base.problems),
                Err(e) => problems.push(format!("{e:#}")),
            }
        }
        problems.dedup();
        problems
    }

    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn term(&self, i: usize) -> &Term {
        &self.terms[i]
    }

    /// Terms in `text` outside the `taken` byte ranges, longest match first
    /// at each word, whole words only; words of a phrase may be separated by
    /// blanks only, never by punctuation. A capitalised match inside a run of
    /// capitalised words ("Teatro Circo Price", "Sala Exposición") is part
    /// of a name and left alone.
    pub fn find(&self, text: &str, taken: &[(usize, usize)]) -> Vec<Found> {
        if self.terms.is_empty() {
            return Vec::new();
        }
        let ws = words(text);
        let lower: Vec<String> = ws.iter().map(|&(a, b)| text[a..b].to_lowercase()).collect();
        let free = |a: usize, b: usize| taken.iter().all(|&(s, e)| b <= s || a >= e);
        let mut out = Vec::new();
        let mut i = 0;
        while i < ws.len() {
            let mut hit = None;
            if let Some(candidates) = self.by_first.get(&lower[i]) {
                for &t in candidates {
                    let n = self.terms[t].words.len();
                    if i + n > ws.len() {
                        continue;
                    }
                    let same = (0..n).all(|k| lower[i + k] == self.terms[t].words[k]);
                    // Blanks between the words, or the very joiner the entry
                    // writes ("bertso-saioa": a hyphen matches a hyphen only).
                    let phrase = self.terms[t].spanish.to_lowercase();
                    let pw = words(&phrase);
                    let blanks_between = (1..n).all(|k| {
                        let gap = &text[ws[i + k - 1].1..ws[i + k].0];
                        let want = pw.get(k).map_or(" ", |w| &phrase[pw[k - 1].1..w.0]);
                        if want.chars().all(char::is_whitespace) {
                            gap.chars().all(char::is_whitespace) && !gap.is_empty()
                        } else {
                            gap == want
                        }
                    });
                    if same && blanks_between && free(ws[i].0, ws[i + n - 1].1) && self.fits(t, text, &ws, i, n) {
                        hit = Some((t, n));
                        break;
                    }
                }
            }
            match hit {
                Some((t, n)) => {
                    out.push(Found { start: ws[i].0, end: ws[i + n - 1].1, term: t });
                    i += n;
                }
                None => i += 1,
            }
        }
        out
    }

    /// Whether term `t`, matched at words `i..i + n`, stands where it may.
    fn fits(&self, t: usize, text: &str, ws: &[(usize, usize)], i: usize, n: usize) -> bool {
        let term = &self.terms[t];
        // A title's start, or a sentence's within it ("Taller: descubre la
        // ciencia"): there a verb like Descubre is an imperative. An
        // apostrophe joining two words is an elision, no opening quote: the
        // month of "16 d'octubre" is inside its sentence (put in, French
        // wrote "16 d'octobre").
        let gap = if i == 0 { "" } else { &text[ws[i - 1].1..ws[i].0] };
        let elision = matches!(gap, "'" | "’");
        let at_start = !text[..ws[i].0].chars().any(char::is_alphanumeric)
            || (!elision && opens_sentence(gap))
            || crate::translate::prepare::ordinals::leads(&text[..ws[i].0]);
        if term.initial_only && !at_start {
            return false;
        }
        // A text all in capitals ("FERIA DE EMPLEO Y EMPRENDIMIENTO"): its
        // capitals say nothing of names.
        let capital = |k: usize| !shouted(text) && text[ws[k].0..].chars().next().is_some_and(char::is_uppercase);
        let adjacent = |a: usize, b: usize| text[ws[a].1..ws[b].0] == *" ";
        let next_capital = i + n < ws.len() && adjacent(i + n - 1, i + n) && capital(i + n);
        if term.name_head && next_capital {
            return false;
        }
        if term.before_name && !next_capital {
            return false;
        }
        // "en la Biblioteca Gloria Fuertes": the phrase runs into a name.
        if n > 1 && next_capital && capital(i + n - 1) && !term.heads_place {
            return false;
        }
        // "(TÍTERES TRAGALUZ)": a bracket in capitals names a company.
        let open = text[..ws[i].0].rfind('(').filter(|&o| !text[o..ws[i].0].contains(')'));
        if let Some(o) = open {
            let inside = &text[o + 1..text[o..].find(')').map_or(text.len(), |c| o + c)];
            if inside.chars().filter(|c| c.is_alphabetic()).count() >= 4 && !inside.chars().any(char::is_lowercase) {
                return false;
            }
        }
        let initial = at_start;
        // "Centro Municipal de Mayores": a capital after a name's connector.
        let lower = |k: usize| text[ws[k].0..ws[k].1].to_lowercase();
        if capital(i) && !initial && i >= 2 && adjacent(i - 2, i - 1) && adjacent(i - 1, i) {
            let joined = matches!(lower(i - 1).as_str(), "de" | "del" | "y");
            let named = capital(i - 2) && !(i == 2 || opens_sentence(&text[ws[i - 3].1..ws[i - 2].0]));
            if joined && named {
                return false;
            }
        }
        if capital(i) && !initial {
            // "El Autocuidado": a capitalised article opening a title names nothing.
            let article = crate::lang_data::of(crate::lang::Lang::Es).function_words.has(&lower(i - 1));
            let prev_capital = adjacent(i - 1, i) && capital(i - 1) && !article && !term.after_name;
            if next_capital || prev_capital {
                return false;
            }
        }
        true
    }

    /// The target phrase for a found term, with the matched text's capital
    /// first letter kept; in capitals in a text all in capitals.
    pub fn rendering(&self, text: &str, found: &Found) -> String {
        let target = &self.terms[found.term].target;
        let capital = text[found.start..].chars().next().is_some_and(char::is_uppercase);
        if shouted(text) {
            target.to_uppercase()
        } else if capital {
            capitalize(target)
        } else {
            target.clone()
        }
    }
}

/// Whether `text` is written all in capitals: letters, and none lower case
/// (a few words in capitals inside a text are names: "Teatro con EDULOGIC").
pub fn shouted(text: &str) -> bool {
    text.chars().filter(|c| c.is_alphabetic()).count() >= 8 && !text.chars().any(char::is_lowercase)
}

/// `text` with its first letter upper case.
pub fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

/// `text` with its first letter lower case.
pub fn capitalize_not(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c.is_uppercase() => c.to_lowercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> TermBase {
        TermBase::parse("# comment\nclub de lectura\tbook club\nclub\tclub\nexposición\texhibition\tnote\ncuentos\tstorytelling\n", "t")
            .unwrap()
    }

    #[test]
    fn longest_whole_word_match_wins_and_keeps_a_capital() {
        let b = base();
        let text = "Club de lectura y exposiciones, Exposición";
        let found = b.find(text, &[]);
        assert_eq!(found.len(), 2);
        assert_eq!(&text[found[0].start..found[0].end], "Club de lectura");
        assert_eq!(b.rendering(text, &found[0]), "Book club");
        assert_eq!(&text[found[1].start..found[1].end], "Exposición");
        assert_eq!(b.rendering(text, &found[1]), "Exhibition");
    }

    #[test]
    fn punctuation_breaks_a_phrase_and_taken_spans_are_skipped() {
        let b = base();
        assert_eq!(b.find("Club: de lectura", &[]).len(), 1);
        let text = "Cuentos en el Club";
        assert!(b.find(text, &[(0, 7)]).iter().all(|f| f.start >= 7));
    }

    #[test]
    fn a_malformed_line_is_skipped_and_named() {
        let b = TermBase::read("sala\troom\nno tab here\n\tempty\ntaller\tcall 912 345 678\nteatro\t<b>theatre</b>\n", "es-en.tsv");
        assert_eq!(b.len(), 2);
        assert_eq!(b.term(1).target, "theatre");
        let p = b.problems();
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p[0].starts_with("es-en.tsv line 2:") && p[0].ends_with("line skipped"), "{p:?}");
        assert!(p[2].contains("line 4") && p[2].contains("phone"), "{p:?}");
        assert!(TermBase::parse("no tab here\n", "t").is_err());
        let missing = TermBase::load(Some(Path::new("no-such-terms-dir")), "en").unwrap();
        assert!(missing.len() > 100 && missing.problems()[0].contains("no-such-terms-dir"), "{:?}", missing.problems());
    }

    #[test]
    fn shipped_term_bases_parse_and_hold_at_least_150_entries() {
        for (lang, _) in SHIPPED {
            let b = TermBase::load(None, lang).unwrap();
            assert!(b.len() >= 150, "es-{lang}: {} entries", b.len());
        }
    }

    /// An apostrophe joining two words is an elision, not an opening quote:
    /// a `title-initial` month after "d'" is inside its sentence (issue 42:
    /// Catalan "16 d'octubre" came back French "16 d'octobre", where plain
    /// Apertium has "16 octobre"); after an opening quote it still starts one.
    #[test]
    fn a_term_after_an_elision_is_not_at_a_sentence_start() {
        let b = TermBase::parse("octubre\toctobre\ttitle-initial\n", "t").unwrap();
        assert!(b.find("Miguel Campello 16 d'octubre Presentació del disc", &[]).is_empty());
        assert!(b.find("Del 3 d’octubre al 7 de novembre", &[]).is_empty());
        assert_eq!(b.find("Octubre al Teatre Fortuny", &[]).len(), 1);
        assert_eq!(b.find("El cicle 'Octubre al Teatre'", &[]).len(), 1);
    }

    #[test]
    fn notes_and_names_limit_where_a_term_applies() {
        let b = TermBase::parse("descubre\tdiscover\ttitle-initial\nteatro\ttheatre\tname-head\nsala\troom\n", "t").unwrap();
        // A street's name keeps its street word; the word alone is translated.
        let streets = TermBase::parse("calle\tCalle\tbefore-name\n", "t").unwrap();
        assert_eq!(streets.find("en la calle Julio Merino", &[]).len(), 1);
        assert!(streets.find("sale a la calle en busca de aire", &[]).is_empty());
        assert_eq!(b.find("Descubre las aves", &[]).len(), 1);
        assert!(b.find("El niño descubre", &[]).is_empty());
        // An imperative after a colon starts a sentence too.
        assert_eq!(b.find("Taller de biotecnología: descubre la ciencia", &[]).len(), 1);
        assert!(b.find("Teatro Circo Price", &[]).is_empty());
        assert_eq!(b.find("Teatro de calle", &[]).len(), 1);
        assert!(b.find("en la Gran Sala Roja", &[]).is_empty());
        assert_eq!(b.find("en la sala Roja: Sala", &[]).len(), 2);
        // A name's tail after the word that opens the name.
        let tail = TermBase::parse("distrito en corto\tDistrito en Corto\tafter-name\nsala roja\tred room\n", "t").unwrap();
        assert_eq!(tail.find("Cine: Madrid Distrito en corto", &[]).len(), 1);
        assert!(tail.find("en la Gran Sala Roja", &[]).is_empty());
        let b = TermBase::parse("en la biblioteca\tat the library\n", "t").unwrap();
        assert!(b.find("Cine en la Biblioteca Gloria Fuertes", &[]).is_empty());
        assert_eq!(b.find("Cine en la biblioteca Gloria Fuertes", &[]).len(), 1);
    }

    /// "Centro Municipal de Mayores" is a name, not seniors; a text's first
    /// word does not make a name of what follows.
    #[test]
    fn no_term_after_a_names_connector() {
        let b = TermBase::parse("mayores\tseniors\n", "t").unwrap();
        assert!(b.find("Teatro del Centro Municipal de Mayores", &[]).is_empty());
        assert_eq!(b.find("Grupo de Mayores", &[]).len(), 1);
        assert_eq!(b.find("Actividades de mayores", &[]).len(), 1);
    }

    /// "(TÍTERES TRAGALUZ)" is a company's name, not puppets.
    #[test]
    fn no_term_inside_a_bracket_in_capitals() {
        let b = TermBase::parse("títeres\tpuppets\ncirco\tcircus\n", "t").unwrap();
        assert!(b.find("'Historia de Janco' (TÍTERES TRAGALUZ)", &[]).is_empty());
        assert!(b.find("(ALAS CIRCO TEATRO)", &[]).is_empty());
        assert_eq!(b.find("Títeres (para todos)", &[]).len(), 1);
        assert_eq!(b.find("TÍTERES: (Y MÁS)", &[]).len(), 1);
    }

    #[test]
    fn a_later_line_for_the_same_phrase_wins() {
        let b = TermBase::parse("taller\tworkshop\ntaller\tlab\n", "t").unwrap();
        let f = b.find("un taller", &[]);
        assert_eq!(b.rendering("un taller", &f[0]), "lab");
    }

    /// Every example of the shipped files holds (the text with each term found
    /// in braces, as put in), and every entry of the multi-word senses has one.
    #[test]
    fn every_multi_word_sense_has_an_example_that_holds() {
        for (lang, content) in SHIPPED.iter().chain(SHIPPED_CATALAN) {
            let b = TermBase::parse(content, lang).unwrap();
            let mut used = std::collections::HashSet::new();
            for line in content.lines() {
                let Some((input, expected)) = line.strip_prefix("# example: ").and_then(|e| e.split_once(" => ")) else { continue };
                let mut out = input.to_string();
                for f in b.find(input, &[]).iter().rev() {
                    used.insert(b.term(f.term).spanish.to_lowercase());
                    out.replace_range(f.start..f.end, &format!("{{{}}}", b.rendering(input, f)));
                }
                assert_eq!(out, expected, "es-{lang}.tsv: {input:?}");
            }
            let senses = content.split_once("# multi-word senses").map(|(_, rest)| rest).unwrap_or_default();
            for entry in senses.lines().filter(|l| l.contains('\t') && !l.starts_with('#')) {
                let phrase = entry.split('\t').next().unwrap_or_default().to_lowercase();
                assert!(used.contains(&phrase), "es-{lang}.tsv: {phrase:?} has no example");
            }
        }
    }

    /// The shipped files say each phrase once: a repeat there is an edit
    /// that lost track of an earlier line, and only the later one works.
    #[test]
    fn the_shipped_files_say_each_phrase_once() {
        for (lang, content) in SHIPPED.iter().chain(SHIPPED_CATALAN) {
            let mut seen = std::collections::HashSet::new();
            for line in content.lines().filter(|l| l.contains('\t') && !l.starts_with('#')) {
                let phrase = line.split('\t').next().unwrap_or_default().to_lowercase();
                assert!(seen.insert(phrase.clone()), "es-{lang}.tsv says {phrase:?} twice");
            }
        }
    }
}
