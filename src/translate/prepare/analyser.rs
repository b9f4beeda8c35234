//! Apertium's own Spanish (or Catalan, or Basque) morphological analyser, asked which words of a
//! text its dictionary knows: a capitalised run of dictionary words
//! ("Universo Oscuro", "La Tercera Palabra") is translated, a run holding a
//! proper noun ("Grant") or a word the dictionary does not know
//! ("Phillips", "Usera") is a name and kept (see `names`).
//!
//! One `lt-proc -z` process over a pair's `spa-*.automorf.bin` is kept
//! running for a whole translation step, like the engines: each text goes
//! in ended by a NUL and its analysis comes back ended by a NUL. A reader
//! thread makes a hung analyser a timeout; any failure drops the process
//! and the step goes on with the capital-letter heuristics alone.
//!
//! Not for: translating, or deciding what to keep (`prepare` does, with
//! what this module says about each word).

use crate::lang::Lang;
use crate::translate::engines::stream::ESCAPED;
use anyhow::{Context, Result, anyhow, bail};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::LazyLock;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// The Spanish analysers tried, in order, under Apertium's data folder:
/// the English pair's knows the most proper nouns (given names, places).
const SPANISH: &[&str] = &[
    "apertium-eng-spa/spa-eng.automorf.bin",
    "apertium-spa-cat/spa-cat.automorf.bin",
    "apertium-es-gl/es-gl.automorf.bin",
    "apertium-fr-es/es-fr.automorf.bin",
    "apertium-spa-ita/spa-ita.automorf.bin",
    "apertium-es-pt/es-pt.automorf.bin",
];

/// The Catalan analysers tried, in order (names in a Catalan original are
/// decided by the Catalan dictionary): the English pair's first, as for
/// Spanish.
const CATALAN: &[&str] = &[
    "apertium-eng-cat/cat-eng.automorf.bin",
    "apertium-spa-cat/cat-spa.automorf.bin",
    "apertium-fra-cat/cat-fra.automorf.bin",
    "apertium-cat-ita/cat-ita.automorf.bin",
    "apertium-por-cat/cat-por.automorf.bin",
];

/// The Basque analysers tried, in order (apertium-eu-es, apertium-eu-en):
/// Basque is an original language, never a display language, so it has a
/// code (`eu`) and no [`Lang`].
const BASQUE: &[&str] = &["apertium-eu-es/eu-es.automorf.bin", "apertium-eu-en/eu-en.automorf.bin"];

/// The analysers of the original language coded `code`: Spanish, Catalan
/// and Basque; none for another.
fn analysers_of(code: &str) -> &'static [&'static str] {
    match code {
        "es" => SPANISH,
        "ca" => CATALAN,
        "eu" => BASQUE,
        _ => &[],
    }
}

/// How long one text's analysis may take (the first pays for loading).
const TIMEOUT: Duration = Duration::from_secs(20);

/// What the dictionary says a word (or a multiword unit) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordKind {
    /// Only proper-noun readings (`<np>`): "Grant", "Alicia", "Reina Sofía".
    Proper,
    /// Not in the dictionary (`*Phillips`).
    Unknown,
    /// Article, preposition, conjunction or pronoun only.
    Function,
    /// A common word: at least one reading a noun, adjective, verb….
    Common,
    /// Number or punctuation.
    Other,
}

/// The analysis of one text: each unit's byte range in the text and kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Analysis {
    pub units: Vec<(usize, usize, WordKind)>,
    /// Where the words start that the dictionary knows as a given name
    /// too (`<np><ant>` beside a common reading: "Paloma", "Gloria").
    pub given_names: Vec<usize>,
    /// Where the words start that the dictionary knows as an adjective
    /// (`<adj>` among their readings: "botánicas", "extraordinario").
    pub adjectives: Vec<usize>,
    /// Where the words start that the dictionary knows as a coordinating
    /// conjunction (`<cnjcoo>` among their readings: Catalan "I", "and").
    pub conjunctions: Vec<usize>,
    /// Where the words (or multiword units) start that the dictionary
    /// knows as a place's name (`<np><top>` among their readings in
    /// Catalan, `<np><loc>` in Spanish: "Catalunya", "Nova York", "Granada").
    pub places: Vec<usize>,
}

impl Analysis {
    /// Whether the bytes `a..b` of the text hold a proper noun or an unknown word.
    pub fn names_within(&self, a: usize, b: usize) -> bool {
        self.units.iter().any(|&(s, e, k)| s < b && e > a && matches!(k, WordKind::Proper | WordKind::Unknown))
    }

    /// Whether the word at byte `a` may be an adjective.
    pub fn adjective_at(&self, a: usize) -> bool {
        self.adjectives.contains(&a)
    }

    /// Whether the word at byte `a` may be a coordinating conjunction.
    pub fn conjunction_at(&self, a: usize) -> bool {
        self.conjunctions.contains(&a)
    }

    /// Whether the word at byte `a` may be a place's name.
    pub fn place_at(&self, a: usize) -> bool {
        self.places.contains(&a)
    }

    /// Whether the word at byte `a` may be a given name.
    pub fn given_name_at(&self, a: usize) -> bool {
        self.given_names.contains(&a) || self.kind_at(a) == Some(WordKind::Proper)
    }

    /// The kind of the unit starting at byte `a`, if one does.
    pub fn kind_at(&self, a: usize) -> Option<WordKind> {
        self.units.iter().find(|u| u.0 == a).map(|u| u.2)
    }
}

/// A running analyser.
pub struct Analyser {
    child: Child,
    input: Option<ChildStdin>,
    output: Receiver<std::io::Result<Vec<u8>>>,
}

impl Analyser {
    /// The system's Spanish analyser: the first of [`SPANISH`] installed under
    /// `$APERTIUM_DATADIR` (by default `/usr/share/apertium`).
    pub fn system() -> Result<Analyser> {
        Analyser::system_for(Lang::Es)
    }

    /// The system's analyser of `lang` (`es` or `ca`), found as [`Analyser::system`] finds Spanish's.
    pub fn system_for(lang: Lang) -> Result<Analyser> {
        Analyser::system_for_code(lang.as_str())
    }

    /// The system's analyser of the original language coded `code` (`es`,
    /// `ca` or `eu`), found as [`Analyser::system`] finds Spanish's.
    pub fn system_for_code(code: &str) -> Result<Analyser> {
        let datadir = std::env::var_os("APERTIUM_DATADIR").unwrap_or_else(|| "/usr/share/apertium".into());
        let found: Option<PathBuf> = analysers_of(code).iter().map(|f| Path::new(&datadir).join(f)).find(|p| p.exists());
        let Some(path) = found else {
            bail!("no {code} analyser of Apertium under {} (install it with `make deps`)", Path::new(&datadir).display());
        };
        Analyser::start(&path)
    }

    /// The analyser an installed Apertium mode (`spa-cat`, `es-gl`) runs
    /// first, found in its mode file under `$APERTIUM_DATADIR/modes`: what
    /// the engine itself reads in a text, where [`Analyser::system_for_code`]
    /// is the dictionary that knows the most names.
    pub fn of_mode(mode: &str) -> Result<Analyser> {
        let datadir = std::env::var_os("APERTIUM_DATADIR").unwrap_or_else(|| "/usr/share/apertium".into());
        let file = Path::new(&datadir).join("modes").join(format!("{mode}.mode"));
        let pipeline = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
        let path = automorf_of(&pipeline).ok_or_else(|| anyhow!("{} runs no analyser", file.display()))?;
        Analyser::start(Path::new(&path))
    }

    /// Starts `lt-proc -z -w` over the transducer at `path`.
    pub fn start(path: &Path) -> Result<Analyser> {
        let mut child = crate::spawn::process(
            Command::new("lt-proc").arg("-z").arg("-w").arg(path).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()),
            &format!("lt-proc over {}", path.display()),
        )?;
        let input = child.stdin.take();
        let stdout = child.stdout.take().context("lt-proc has no stdout")?;
        let (send, output) = mpsc::channel();
        let started = crate::spawn::thread("lt-proc-out", move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                let read = reader.read_until(0, &mut buf);
                let done = matches!(read, Ok(0) | Err(_));
                if send.send(read.map(|_| buf)).is_err() || done {
                    break;
                }
            }
        });
        if let Err(e) = started {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        Ok(Analyser { child, input, output })
    }

    /// The analysis of `text`.
    pub fn analyse(&mut self, text: &str) -> Result<Analysis> {
        let mut escaped = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            // NUL would end the text early; other controls are blanks.
            let c = if c.is_control() && c != '\n' { ' ' } else { c };
            if ESCAPED.contains(&c) || c == '@' {
                escaped.push('\\');
            }
            escaped.push(c);
        }
        escaped.push('\0');
        let input = self.input.as_mut().ok_or_else(|| anyhow!("the analyser's input is closed"))?;
        input.write_all(escaped.as_bytes()).and_then(|()| input.flush()).context("writing to lt-proc")?;
        let answer = match self.output.recv_timeout(TIMEOUT) {
            Ok(Ok(buf)) if buf.ends_with(&[0]) => buf,
            Ok(Ok(_)) => bail!("lt-proc ended"),
            Ok(Err(e)) => return Err(e).context("reading from lt-proc"),
            Err(_) => bail!("lt-proc gave no answer in {} s", TIMEOUT.as_secs()),
        };
        Ok(parse(text, &String::from_utf8_lossy(&answer[..answer.len() - 1])))
    }
}

impl Drop for Analyser {
    fn drop(&mut self) {
        self.input.take();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The analyser (`*.automorf.bin`) a mode's pipeline starts with.
fn automorf_of(pipeline: &str) -> Option<String> {
    pipeline.split_whitespace().map(|w| w.trim_matches(|c| c == '\'' || c == '"')).find(|w| w.ends_with(".automorf.bin")).map(String::from)
}

/// The units of `stream` (`^surface/reading/…$`), placed in `text` in order.
pub(super) fn parse(text: &str, stream: &str) -> Analysis {
    let mut units = Vec::new();
    let mut given_names = Vec::new();
    let mut adjectives = Vec::new();
    let mut conjunctions = Vec::new();
    let mut places = Vec::new();
    let mut cursor = 0;
    let mut chars = stream.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '^' => {
                let mut unit = String::new();
                while let Some(k) = chars.next() {
                    match k {
                        '\\' => {
                            unit.push('\\');
                            if let Some(e) = chars.next() {
                                unit.push(e);
                            }
                        }
                        '$' => break,
                        k => unit.push(k),
                    }
                }
                let fields = split_unescaped(&unit, '/');
                let surface = unescape(fields.first().map(String::as_str).unwrap_or(""));
                if surface.is_empty() {
                    continue;
                }
                if let Some(at) = text[cursor..].find(&surface) {
                    let a = cursor + at;
                    let b = a + surface.len();
                    let kind = if acronym_read_as_a_numeral(&surface, &fields[1..]) { WordKind::Unknown } else { kind(&fields[1..]) };
                    units.push((a, b, kind));
                    if fields[1..].iter().any(|r| r.contains("<np><ant>")) {
                        given_names.push(a);
                    }
                    if fields[1..].iter().any(|r| r.contains("<adj>")) {
                        adjectives.push(a);
                    }
                    if fields[1..].iter().any(|r| r.contains("<cnjcoo>")) {
                        conjunctions.push(a);
                    }
                    if fields[1..].iter().any(|r| r.contains("<np><top>") || r.contains("<np><loc>")) {
                        places.push(a);
                    }
                    cursor = b;
                }
            }
            _ => {}
        }
    }
    Analysis { units, given_names, adjectives, conjunctions, places }
}

fn split_unescaped(unit: &str, sep: char) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = unit.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.last_mut().expect("one part").push(c);
            if let Some(e) = chars.next() {
                out.last_mut().expect("one part").push(e);
            }
        } else if c == sep {
            out.push(String::new());
        } else {
            out.last_mut().expect("one part").push(c);
        }
    }
    out
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(e) = chars.next() {
                out.push(e);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `surface`, whose `readings` are all the numeral the analyser
/// reads any run of the letters I V X L C D M as, is no Roman numeral in
/// its usual spelling: an acronym the dictionary does not know ("CMM",
/// Centro Municipal de Mayores; "CDM"), a name as much as "*Usera" is.
/// "XIX" and "MMXXV" stay numerals.
fn acronym_read_as_a_numeral(surface: &str, readings: &[String]) -> bool {
    static ROMAN: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new("^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$").expect("roman regex"));
    surface.len() >= 2
        && surface.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C' | 'D' | 'M'))
        && !readings.is_empty()
        && readings.iter().all(|r| r.strip_prefix(surface).is_some_and(|tags| tags.starts_with("<num>")))
        && !ROMAN.is_match(surface)
}

/// Tags of a reading that make a word a function word.
const FUNCTION_TAGS: &[&str] = &["det", "pr", "cnjcoo", "cnjsub", "cnjadv", "prn", "rel", "preadv"];

/// The kind a unit's readings give it.
fn kind(readings: &[String]) -> WordKind {
    if readings.first().is_some_and(|r| r.starts_with('*')) || readings.is_empty() {
        return WordKind::Unknown;
    }
    let first_tags: Vec<&str> = readings
        .iter()
        .map(|r| r.split('+').next().unwrap_or(r))
        .map(|r| r.split_once('<').map_or("", |(_, t)| t.split('>').next().unwrap_or("")))
        .collect();
    if first_tags.iter().all(|t| *t == "np") {
        WordKind::Proper
    } else if first_tags.iter().all(|t| FUNCTION_TAGS.contains(t)) {
        WordKind::Function
    } else if first_tags.iter().all(|t| matches!(*t, "num" | "sent" | "cm" | "lpar" | "rpar" | "lquest" | "guio" | "apos" | "")) {
        WordKind::Other
    } else {
        WordKind::Common
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_placed_in_the_text() {
        let text = "Grant Phillips y la Reina Sofía, Universo Oscuro";
        let stream = "^Grant/Grant<np><ant><m><sg>$ ^Phillips/*Phillips$ ^y/y<cnjcoo>$ ^la/el<det><def><f><sg>/prpers<prn><pro><p3><f><sg>$ \
                      ^Reina Sofía/Reina Sofía<np><ant><f><sg>$^,/,<cm>$ ^Universo/universo<n><m><sg>$ ^Oscuro/oscuro<adj><m><sg>$";
        let a = parse(text, stream);
        let kinds: Vec<(&str, WordKind)> = a.units.iter().map(|&(s, e, k)| (&text[s..e], k)).collect();
        assert_eq!(
            kinds,
            [
                ("Grant", WordKind::Proper),
                ("Phillips", WordKind::Unknown),
                ("y", WordKind::Function),
                ("la", WordKind::Function),
                ("Reina Sofía", WordKind::Proper),
                (",", WordKind::Other),
                ("Universo", WordKind::Common),
                ("Oscuro", WordKind::Common),
            ]
        );
        assert!(a.names_within(0, 5));
        assert!(!a.names_within(33, text.len()));
    }

    /// The analyser reads any run of the letters of Roman numerals as a
    /// numeral: one that is no numeral's usual spelling is an acronym it
    /// does not know ("CMM"); "XIX" and "MMXXV" stay numerals, "MIL" the
    /// word it also is.
    #[test]
    fn an_acronym_read_as_a_numeral_is_unknown() {
        let text = "CMM XIX MMXXV MIL";
        let stream = "^CMM/CMM<num><mf><sg>$ ^XIX/XIX<num><mf><sg>$ ^MMXXV/MMXXV<num><mf><sg>$ ^MIL/mil<num><mf><sp>/MIL<num><mf><sg>$";
        let kinds: Vec<WordKind> = parse(text, stream).units.iter().map(|u| u.2).collect();
        assert_eq!(kinds, [WordKind::Unknown, WordKind::Other, WordKind::Other, WordKind::Other]);
    }

    #[test]
    fn a_mode_starts_with_its_analyser() {
        let pipeline = "lt-proc -w '/usr/share/apertium/apertium-spa-cat/spa-cat.automorf.bin' | cg-proc -w 'x.rlx.bin'";
        assert_eq!(automorf_of(pipeline).as_deref(), Some("/usr/share/apertium/apertium-spa-cat/spa-cat.automorf.bin"));
        assert_eq!(automorf_of("cat | tr a b"), None);
    }

    #[test]
    fn escaped_characters_are_found_again() {
        let text = "a/b [c]";
        let a = parse(text, "^a/a<pr>$\\/^b/*b$ ^\\[/\\[<lpar>$^c/*c$^\\]/\\]<rpar>$");
        assert_eq!(a.units.iter().map(|u| (u.0, u.1)).collect::<Vec<_>>(), [(0, 1), (2, 3), (4, 5), (5, 6), (6, 7)]);
    }
}
