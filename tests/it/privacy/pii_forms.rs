//! P5, through the binary: contact data in the forms a
//! person reads as such (an area code with a slash, a label glued to the
//! number, the `(a)` and bare `at` forms of an address, unusual separators
//! and groupings, look-alike digits and numbers partly in words) reaches
//! neither the database (nor any file the run leaves), an export, a
//! listing, the run's output, `runs`, nor a request to a translation server
//! (a loopback APy recording what it is sent); `events correct` scrubs it,
//! `translate correct` and `translate import` refuse it: one gate for every
//! input. One test per family of forms, each one that a scrubber of plain digit
//! groups and `@` lets through; then a property test writing every family with random numbers,
//! labels, separators and look-alikes (`PROPTEST_CASES=N` for more cases).
use crate::common;
use crate::translation::quality::{record, write_feed};

use common::cityvibe;
use common::server::{Reply, Server};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;
use std::path::Path;
use unicode_normalization::UnicodeNormalization;

/// The number words of the scrubber's list, to read a text back as digits.
pub(crate) fn number_words() -> Vec<(String, char)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/pii/number-words.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && l.contains('\t'))
        .map(|l| {
            let (w, d) = l.split_once('\t').unwrap();
            (w.to_string(), d.trim().chars().next().unwrap())
        })
        .collect()
}

/// The signs of the scrubber's look-alike list (`❶`), with their digits.
fn look_alike_signs() -> Vec<(char, char)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/pii/look-alikes.tsv")).unwrap_or_default();
    let mut out: Vec<(char, char)> = (0..9).map(|k| (char::from_u32(0x2776 + k).unwrap(), char::from(b'1' + k as u8))).collect();
    out.extend(text.lines().filter(|l| l.starts_with("sign\t")).filter_map(|l| {
        let mut cols = l.split('\t').skip(1);
        Some((cols.next()?.chars().next()?, cols.next()?.trim().chars().next()?))
    }));
    out
}

/// The look-alike letters of the scrubber's list (`S`, `l`, `З`), lower-case.
fn look_alike_letters() -> Vec<(char, char)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/pii/look-alikes.tsv")).unwrap_or_default();
    let mut out: Vec<(char, char)> = vec![('s', '5'), ('l', '1'), ('з', '3')];
    out.extend(text.lines().filter(|l| l.starts_with("letter\t")).filter_map(|l| {
        let mut cols = l.split('\t').skip(1);
        Some((cols.next()?.to_lowercase().chars().next()?, cols.next()?.trim().chars().next()?))
    }));
    out
}

/// The digits of a text as a reader reads them, every other character gone:
/// NFKC, the digits of other scripts, a letter O and number words read as
/// digits, and in a word that holds a digit the look-alike letters. A
/// planted number shows here as its nine digits in a row.
pub(crate) fn digits(text: &str, words: &[(String, char)]) -> String {
    let signs = look_alike_signs();
    let lower: String = text.nfkc().map(|c| signs.iter().find(|(s, _)| *s == c).map_or(c, |(_, d)| *d)).collect::<String>().to_lowercase();
    let look_alikes = look_alike_letters();
    let mut out = String::new();
    for word in lower.split(|c: char| !c.is_alphanumeric()) {
        if let Some((_, d)) = words.iter().find(|(w, _)| w == word) {
            out.push(*d);
            continue;
        }
        let with_digit = word.chars().any(|c| c.is_numeric());
        for c in word.chars() {
            match c {
                _ if with_digit && let Some((_, d)) = look_alikes.iter().find(|(l, _)| *l == c) => out.push(*d),
                '0'..='9' => out.push(c),
                'o' => out.push('0'),
                '\u{660}'..='\u{669}' => out.push(char::from(b'0' + (c as u32 - 0x660) as u8)),
                '\u{6F0}'..='\u{6F9}' => out.push(char::from(b'0' + (c as u32 - 0x6F0) as u8)),
                '\u{966}'..='\u{96F}' => out.push(char::from(b'0' + (c as u32 - 0x966) as u8)),
                _ => {}
            }
        }
    }
    out
}

/// A text's letters and digits, lower-case: a planted address's local part
/// shows here whatever its `@` and `.` were written as.
pub(crate) fn letters(text: &str) -> String {
    text.nfkc().collect::<String>().to_lowercase().chars().filter(|c| c.is_alphanumeric()).collect()
}

/// What was planted: the nine digits of each number, the local part of
/// each address, and pieces of text that must not survive as written
/// (lower-case, NFKC: a number in words, a link's host).
pub(crate) struct Planted {
    pub numbers: Vec<String>,
    pub names: Vec<String>,
    pub pieces: Vec<String>,
}

impl Planted {
    fn assert_absent(&self, what: &str, text: &str, words: &[(String, char)]) {
        let (d, l) = (digits(text, words), letters(text));
        for n in &self.numbers {
            assert!(!d.contains(n.as_str()), "P5: {what} holds the number {n}");
        }
        for n in &self.names {
            assert!(!l.contains(n.as_str()), "P5: {what} holds the address of {n}");
        }
        let lower = text.nfkc().collect::<String>().to_lowercase();
        for p in &self.pieces {
            assert!(!lower.contains(p.as_str()), "P5: {what} holds {p:?}");
        }
    }
}

/// A translation server on the loopback (APy) that records what it is sent
/// and sends it back as its "translation".
pub(crate) fn recording_translator() -> Server {
    Server::start(|seen, _| {
        if seen.path.starts_with("/listPairs") {
            return Reply::ok(r#"{"responseData": [{"sourceLanguage": "spa", "targetLanguage": "eng"}], "responseStatus": 200}"#);
        }
        let q = url::form_urlencoded::parse(&seen.body).find(|(k, _)| k == "q").map(|(_, v)| v.into_owned()).unwrap_or_default();
        Reply::ok(serde_json::json!({"responseData": {"translatedText": q}, "responseStatus": 200}).to_string())
    })
}

fn out_text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Every file under `dir`, byte for byte: the database, its WAL, any log.
fn every_file(dir: &Path) -> String {
    let mut all = String::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "mirror") {
                all.push_str(&every_file(&path));
            }
        } else if path
            .file_name()
            .is_some_and(|n| n != "sources.toml" && !n.to_string_lossy().ends_with(".po") && !n.to_string_lossy().ends_with(".xlf"))
        {
            all.push_str(&String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()));
        }
    }
    all
}

/// Plants `texts` in a feed's titles, descriptions, venues and prices, runs
/// and translates it against a recording APy, then hands each text to
/// `events correct`, `translate correct` and `translate import`; asserts
/// that nothing of `planted` reaches any output, file or request.
pub(crate) fn assert_never_kept(texts: &[String], planted: &Planted) {
    let words = number_words();
    let apy = recording_translator();
    let dir = common::workdir(&format!(
        "[settings]\nlanguages = [\"es\", \"en\"]\ntranslator = \"apy\"\napy_url = \"{}\"\n\n[sources.madrid]\nenabled = true\n",
        apy.url()
    ));
    let d = dir.path();
    let mut records = Vec::new();
    for (k, t) in texts.iter().enumerate() {
        let mut r = record(&format!("{}", k + 1), &format!("Taller {t}"), &format!("Reservas: {t}. Entrada libre."), &format!("Sala {t}"));
        r["price"] = Value::from(format!("5 €, reservas {t}"));
        records.push(r);
    }
    records.push(record("900", "Concierto de jazz", "Un concierto.", "Sala X"));
    write_feed(d, &records);
    let mut seen = String::new();
    let run = cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid", "--json"]);
    assert!(run.status.success(), "{}", out_text(&run));
    seen.push_str(&out_text(&run));
    let translate = cityvibe(d, &["translate"]);
    seen.push_str(&out_text(&translate));
    planted.assert_absent("the run's and translate's output", &seen, &words);

    let requests: Vec<String> = apy
        .requests()
        .iter()
        .filter(|r| r.method == "POST")
        .flat_map(|r| url::form_urlencoded::parse(&r.body).map(|(_, v)| v.into_owned()).collect::<Vec<_>>())
        .collect();
    assert!(requests.iter().any(|q| q.contains("Reservas:")), "the texts were sent for translation: {requests:?}");
    planted.assert_absent("a request to the translation server", &requests.join("\n"), &words);

    for (k, t) in texts.iter().enumerate().take(3) {
        let id = format!("madrid:{}", k + 1);
        let out = cityvibe(d, &["events", "correct", &id, "title", &format!("Concierto, reservas {t}"), "--reason", "aviso"]);
        assert!(out.status.success(), "events correct: {}", out_text(&out));
        let out = cityvibe(d, &["translate", "correct", &id, "--lang", "en", "--title", &format!("Jazz, call {t}")]);
        assert_eq!(out.status.code(), Some(2), "translate correct must refuse {t:?}: {}", out_text(&out));
        let po = format!(
            "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
             msgctxt \"title\"\nmsgid \"Concierto de jazz\"\nmsgstr \"Jazz, call {}\"\n",
            t.replace('"', "\\\"")
        );
        std::fs::write(d.join("en.po"), po).unwrap();
        let out = cityvibe(d, &["translate", "import", "en.po", "--json"]);
        assert_eq!(out.status.code(), Some(2), "translate import must refuse {t:?}: {}", out_text(&out));
        seen.push_str(&out_text(&out));
        let escaped = t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
        let xliff = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n\
             <file original=\"cityvibe\" datatype=\"plaintext\" source-language=\"es\" target-language=\"en\"><body>\n\
             <trans-unit id=\"u0\" resname=\"title\"><source>Concierto de jazz</source>\
             <target state=\"translated\">Jazz, call {escaped}</target></trans-unit>\n</body></file>\n</xliff>\n"
        );
        std::fs::write(d.join("en.xlf"), xliff).unwrap();
        let out = cityvibe(d, &["translate", "import", "en.xlf", "--json"]);
        assert_eq!(out.status.code(), Some(2), "translate import (XLIFF) must refuse {t:?}: {}", out_text(&out));
        seen.push_str(&out_text(&out));
    }

    let mut shown = String::new();
    for format in ["json", "csv", "ics", "jsonld"] {
        let out = cityvibe(d, &["export", "--format", format]);
        assert!(out.status.success(), "export {format}: {}", out_text(&out));
        shown.push_str(&out_text(&out));
    }
    for args in [&["events", "list", "--json", "--limit", "1000", "--at", common::SAMPLES_AT][..], &["runs", "--json"], &["source", "list"]]
    {
        shown.push_str(&out_text(&cityvibe(d, args)));
    }
    assert!(shown.contains("Entrada libre") && shown.contains("[…]"), "the events are exported, scrubbed");
    planted.assert_absent("an export, a listing or `runs`", &shown, &words);
    planted.assert_absent("the imports' output", &seen, &words);
    planted.assert_absent("a file of the work folder (database, WAL, logs)", &every_file(d), &words);
}

fn family(texts: &[&str], numbers: &[&str], names: &[&str]) {
    let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    let planted = Planted {
        numbers: numbers.iter().map(|s| s.to_string()).collect(),
        names: names.iter().map(|s| s.to_string()).collect(),
        pieces: Vec::new(),
    };
    assert_never_kept(&texts, &planted);
}

#[test]
fn an_area_code_with_a_slash_is_never_kept_p5() {
    family(&["Tel. 91/234.56.78", "91/234 56 79"], &["912345678", "912345679"], &[]);
}

#[test]
fn a_label_or_letter_glued_to_a_number_is_never_kept_p5() {
    family(&["tel934501042", "móvil600112245", "Tlf934501028", "934501029h"], &["934501042", "600112245", "934501028", "934501029"], &[]);
}

#[test]
fn the_a_and_bare_at_forms_of_an_address_are_never_kept_p5() {
    family(
        &[
            "reservas(a)teatro-ejemplo.es",
            "maria.lopez at example.es",
            "q409 AT example.es",
            "zqa(@)example.es",
            "zqb[@]example.es",
            "zqc -at- example -dot- es",
            "zqd_at_example_dot_es",
            "zqe«at»example.es",
            "zqf@example(.)es",
            "zqg@example。es",
            "zqh@gmail",
        ],
        &[],
        &["teatroejemplo", "marialopez", "q409", "zqa", "zqb", "zqc", "zqd", "zqe", "zqf", "zqg", "zqh"],
    );
}

#[test]
fn unusual_separators_and_groupings_are_never_kept_p5() {
    family(
        &[
            "934·501·011",
            "934•501•012",
            "934/501/013",
            "934_501_014",
            "934,501,015",
            "934~501~016",
            "934\u{2800}501\u{2800}019",
            "934 5010 17",
            "9345-01018",
            "9 3 4 - 5 0 1 - 0 2 0",
        ],
        &["934501011", "934501012", "934501013", "934501014", "934501015", "934501016", "934501019", "934501017", "934501018", "934501020"],
        &[],
    );
}

#[test]
fn look_alike_digits_and_numbers_in_words_are_never_kept_p5() {
    family(
        &["٩٣٤ ٥٠١ ٠٢١", "۹۳۴ ۵۰۱ ۰۲۳", "९३४ ५०१ ०२२", "6OO 112 248", "nueve tres cuatro 501 012"],
        &["934501021", "934501023", "934501022", "600112248", "934501012"],
        &[],
    );
}

/// What a generated form looks like: its text and what it plants.
#[derive(Debug, Clone)]
pub(crate) struct Form {
    pub(crate) text: String,
    pub(crate) number: Option<String>,
    pub(crate) name: Option<String>,
}

const SEPARATORS: &[&str] = &[" ", ".", "-", "·", "•", "/", "_", ",", "~", "\u{2800}", " - ", "\u{a0}", "  ", "\u{2013}", " . "];
const GROUPINGS: &[&[usize]] =
    &[&[3, 3, 3], &[3, 2, 2, 2], &[2, 3, 2, 2], &[2, 3, 4], &[3, 4, 2], &[4, 5], &[9], &[1; 9], &[2, 7], &[3, 6]];
const LABELS: &[&str] = &["", "Tel. ", "Tlf: ", "Teléfono ", "tel", "móvil", "Tlf", "telf", "Fax ", "whatsapp "];

/// A Spanish number written in one of the families: grouped and parted at
/// random, maybe labelled (glued or not), with a letter after, a country
/// prefix, and its digits maybe in another script, a letter O for each
/// zero, or its first digits in words.
fn phone() -> impl Strategy<Value = Form> {
    (
        (6u8..=9, proptest::collection::vec(0u8..=9, 8)),
        0..GROUPINGS.len(),
        proptest::collection::vec(0..SEPARATORS.len(), 8),
        0..LABELS.len(),
        0..7usize,
        (any::<bool>(), any::<bool>(), 1..5usize),
    )
        .prop_map(|((first, rest), grouping, seps, label, style, (prefix, letter_after, in_words))| {
            let digits: Vec<u8> = std::iter::once(first).chain(rest).collect();
            let number: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            let words = number_words();
            let word_of =
                |d: u8| words.iter().filter(|(_, c)| *c == char::from(b'0' + d)).map(|(w, _)| w.clone()).nth(usize::from(d) % 2).unwrap();
            // Whether the k-th digit's group holds a digit other than zero.
            let sizes = GROUPINGS[grouping];
            let among_digits = |k: usize| {
                let (mut start, mut g) = (0, 0);
                while start + sizes[g] <= k {
                    start += sizes[g];
                    g += 1;
                }
                digits[start..start + sizes[g]].iter().any(|&d| d != 0)
            };
            let glyph = |k: usize, d: u8| -> String {
                match style {
                    1 => char::from_u32(0x660 + u32::from(d)).unwrap().to_string(),
                    2 => char::from_u32(0x6F0 + u32::from(d)).unwrap().to_string(),
                    3 => char::from_u32(0x966 + u32::from(d)).unwrap().to_string(),
                    4 => char::from_u32(0xFF10 + u32::from(d)).unwrap().to_string(),
                    // A letter O for a zero among other digits: `6OO 112 248`.
                    5 if d == 0 && among_digits(k) => if k.is_multiple_of(2) { "O" } else { "o" }.to_string(),
                    _ => char::from(b'0' + d).to_string(),
                }
            };
            let mut text = String::new();
            let (mut k, mut gap) = (0, 0);
            for (g, size) in GROUPINGS[grouping].iter().enumerate() {
                if g > 0 {
                    // A comma and a blank part a list, not a number: no comma
                    // beside a number word, which stands between blanks.
                    let sep = SEPARATORS[seps[gap % seps.len()]];
                    text.push_str(if style == 6 && sep == "," { "." } else { sep });
                    gap += 1;
                }
                for _ in 0..*size {
                    if style == 6 && k < in_words {
                        // Numbers partly in words: each word stands apart.
                        text.push_str(&format!(" {} ", word_of(digits[k])));
                    } else {
                        text.push_str(&glyph(k, digits[k]));
                    }
                    k += 1;
                }
            }
            let text = text.trim().to_string();
            let label = LABELS[label];
            let glued = !label.is_empty() && !label.ends_with(' ') && style != 6;
            let lead = if prefix && style != 6 && !glued { "+34 " } else { "" };
            let label = if glued || label.ends_with(' ') { label } else { "" };
            let after = if letter_after && style != 6 { "h" } else { "" };
            Form { text: format!("{label}{lead}{text}{after}"), number: Some(number), name: None }
        })
}

const AT_FORMS: &[&str] =
    &["@", "(a)", "(@)", "[@]", " at ", " AT ", " arroba ", "(at)", "[arroba]", " -at- ", "_at_", "«at»", " @ ", "{at}"];
const DOT_FORMS: &[&str] = &[".", "(.)", " dot ", " -dot- ", "_dot_", "。", "[dot]", " punto ", "[.]"];

/// An address with its `@` and `.` written in one of their forms, with a
/// top-level domain or without one (only after a glued `@` or a bracketed form).
fn address() -> impl Strategy<Value = Form> {
    (
        "[a-z]{3,6}",
        "[a-z]{3,8}",
        0..AT_FORMS.len(),
        0..DOT_FORMS.len(),
        prop::sample::select(vec!["es", "com", "cat", "org"]),
        any::<bool>(),
    )
        .prop_map(|(local, domain, at, dot, tld, with_tld)| {
            let name = format!("zq{local}");
            let at = AT_FORMS[at];
            // Without a top-level domain only a glued or bracketed `@` makes
            // an address: `Sigue a @alomabye` is a handle, `at home` English.
            let bare = at.starts_with(' ');
            let text =
                if with_tld || bare { format!("{name}{at}dm{domain}{}{tld}", DOT_FORMS[dot]) } else { format!("{name}{at}gm{domain}") };
            Form { text, number: None, name: Some(name) }
        })
}

/// P5: every family written with random numbers, labels,
/// separators and look-alikes, a dozen forms to a run, reaches no output,
/// file or translation request (a few cases in `make test`; `PROPTEST_CASES`
/// runs more).
#[test]
fn random_forms_of_every_family_are_never_kept_p5() {
    through_the_binary(prop_oneof![phone(), address()], 12, 3);
}

/// `per_run` forms of `strategy` a case, `default_cases` cases unless
/// `PROPTEST_CASES` says more: the scrubber alone first, text by text (a
/// failing form shrinks fast and is named), then the binary over all of
/// them: database, files, exports, listings, output, translation requests.
pub(crate) fn through_the_binary(strategy: impl Strategy<Value = Form>, per_run: usize, default_cases: u32) {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(default_cases);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    runner
        .run(&proptest::collection::vec(strategy, per_run), |forms| {
            let words = number_words();
            for f in &forms {
                let out = cityvibe::parse::pii::scrub(&format!("Reservas: {} hoy", f.text));
                let kept = f.number.as_ref().is_some_and(|n| digits(&out, &words).contains(n.as_str()))
                    || f.name.as_ref().is_some_and(|n| letters(&out).contains(n.as_str()));
                prop_assert!(!kept, "P5: {:?} is kept as {out:?}", f.text);
            }
            let planted = Planted {
                numbers: forms.iter().filter_map(|f| f.number.clone()).collect(),
                names: forms.iter().filter_map(|f| f.name.clone()).collect(),
                pieces: Vec::new(),
            };
            let texts: Vec<String> = forms.iter().map(|f| f.text.clone()).collect();
            assert_never_kept(&texts, &planted);
            Ok(())
        })
        .unwrap();
}

/// The scrubber alone over many more forms of every family than the
/// binary test runs (a few hundred in `make test`, in about a second).
#[test]
fn random_forms_of_every_family_are_scrubbed_p5() {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse::<u32>().ok()).map_or(300, |n| n * 100);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let words = number_words();
    runner
        .run(&prop_oneof![phone(), address()], |f| {
            let out = cityvibe::parse::pii::scrub(&format!("Reservas: {} hoy", f.text));
            let kept = f.number.as_ref().is_some_and(|n| digits(&out, &words).contains(n.as_str()))
                || f.name.as_ref().is_some_and(|n| letters(&out).contains(n.as_str()));
            prop_assert!(!kept, "P5: {:?} is kept as {out:?}", f.text);
            Ok(())
        })
        .unwrap();
}
