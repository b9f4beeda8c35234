//! P5, through the binary: contact data where a person reads or follows it
//! though the text between tags does not show it plainly: a number inside
//! a link (`wa.me/34…`, `tel:`, a path or a query), an address or number in
//! a tag's attribute or split by a comment, a number glued to any word, the
//! Catalan, Galician and other words and signs for an address's `@` and
//! `.`, Galician and Catalan number words, numbers wholly in words and
//! look-alike digits. None of it reaches the database (nor any file the run
//! leaves: logs, WAL), an export (json, csv, ics, jsonld), a listing, the
//! run's output nor a request to a translation server (a loopback APy
//! recording what it is sent); `events correct` scrubs it, `translate
//! correct` and `translate import` (PO and XLIFF) refuse it. One test per
//! family, each with forms the scrubber let through before; then a
//! property test per family through the binary (a few cases; `make fuzz` or
//! `PROPTEST_CASES=N` for more) and one over the scrubber alone with many
//! more. Last, what is no contact data stays: a handle with a dot, ISBNs.
use crate::common;
use crate::privacy::pii_forms::{Form, Planted, assert_never_kept, digits, letters, number_words, through_the_binary};
use crate::translation::quality::{record, write_feed};

use common::cityvibe;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn planted(numbers: &[&str], names: &[&str], pieces: &[&str]) -> Planted {
    let own = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
    Planted { numbers: own(numbers), names: own(names), pieces: own(pieces) }
}

fn family(texts: &[&str], planted: &Planted) {
    let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    assert_never_kept(&texts, planted);
}

#[test]
fn a_phone_inside_a_link_is_cut_with_the_link_p5() {
    family(
        &[
            "https://wa.me/34655443302",
            "api.whatsapp.com/send?phone=34655443304&text=Hola",
            "tel:+34655443305",
            "sms:655443306",
            "https://example.es/reservas/655443307",
            "www.example.es/c?telefono=0034655443308&x=1",
        ],
        &planted(
            &["655443302", "655443304", "655443305", "655443306", "655443307", "655443308"],
            &[],
            &["wa.me", "api.whatsapp.com", "tel:+", "sms:", "example.es/reservas", "example.es/c?"],
        ),
    );
}

#[test]
fn contact_data_in_an_attribute_or_split_by_a_comment_is_cut_p5() {
    family(
        &[
            "<a href=\"mailto:zqr520@ejemplo.es\">Escríbenos</a>",
            "<a href=\"tel:+34655443310\">Llámanos</a>",
            "<span title=\"zqr521@ejemplo.es\">Info</span>",
            "zqr519<!-- x -->@ejemplo.es",
            "<a href=\"https://wa.me/34655443311\">WhatsApp</a>",
            "<abbr title=\"Tel. 655 44 33 12\">T</abbr>",
        ],
        &planted(&["655443310", "655443311", "655443312"], &["zqr520", "zqr521", "zqr519"], &[]),
    );
}

#[test]
fn nine_digits_glued_to_any_word_are_a_number_p5() {
    family(
        &["Bizum655443301", "Reserves937812328", "WA655443314", "guasap655443313", "Ñandú912345615h"],
        &planted(&["655443301", "937812328", "655443314", "655443313", "912345615"], &[], &[]),
    );
}

#[test]
fn words_and_signs_for_the_at_and_the_dot_make_an_address_p5() {
    family(
        &[
            "zqs501 arrova ejemplo punt cat",
            "zqs502 arroba ejemplo ponto gal",
            "zqs503 en ejemplo punto es",
            "zqs504@ejemplo,es",
            "\"zqs505\"@ejemplo.es",
            "zqs506 @ gmail",
            "zqs507@[192.168.1.20]",
            "zqs508\\u0040ejemplo.es",
            "zqs509%2540ejemplo.es",
            "zqs510&#8203;@ejemplo.es",
            "zqs511&#65312;ejemplo.es",
            "q411\u{2800}@\u{2800}example.es",
            "zqs512 at example . es",
        ],
        &planted(
            &[],
            &[
                "zqs501", "zqs502", "zqs503", "zqs504", "zqs505", "zqs506", "zqs507", "zqs508", "zqs509", "zqs510", "zqs511", "q411",
                "zqs512",
            ],
            &[],
        ),
    );
}

#[test]
fn number_words_and_look_alike_digits_make_a_number_p5() {
    family(
        &[
            "nove catro dous 345 678",
            "sis u u 443 302",
            "seis cinco cinco catro catro tres tres cero sete",
            "6l2 34S 678",
            "9\u{417}4 501 022",
            "9\u{301}12 345 689",
            "9\u{FE0F}\u{20E3}1\u{FE0F}\u{20E3}2 345 690",
            "\u{277E}\u{2776}\u{2777} 345 691",
        ],
        &planted(
            &["942345678", "611443302", "612345678", "934501022", "912345689", "912345690", "912345691"],
            &[],
            &["cinco catro catro tres"],
        ),
    );
}

/// What is no contact data stays, through the same run: an Instagram
/// handle with a dot, ISBNs, a sentence with `en … punto es`, a link
/// without a number, a list of sessions.
#[test]
fn a_handle_with_a_dot_and_an_isbn_are_kept_p5() {
    let dir = common::workdir("[settings]\ntranslator = \"none\"\n\n[sources.madrid]\n");
    let d = dir.path();
    let keep = [
        "Síguenos en Instagram @teatro.real y @museo.del.prado",
        "ISBN 84-376-0494-X, ISBN 8437604947, ISBN-10: 0-306-40615-2",
        "Lo importante en este punto es que vengas",
        "Más en https://www.madrid.es/evento/50066046 y www.teatro.es/obra?id=1234",
        "Sesiones 6 7 8 9 y 10 de diciembre; Sala S1",
    ];
    let records: Vec<_> = keep.iter().enumerate().map(|(k, t)| record(&format!("{}", k + 1), "Taller", t, "Sala X")).collect();
    write_feed(d, &records);
    let out = cityvibe(d, &["--mirror", "mirror", "run", "--source", "madrid", "--no-translate"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let exported = String::from_utf8_lossy(&cityvibe(d, &["export", "--format", "json"]).stdout).into_owned();
    let db = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let mut st = db.prepare("SELECT description FROM events ORDER BY CAST(source_event_id AS INTEGER)").unwrap();
    let stored: Vec<String> = st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert_eq!(stored, keep, "P5 cut what is no contact data");
    for k in keep {
        let json = serde_json::to_string(k).unwrap();
        assert!(exported.contains(json.trim_matches('"')), "the export lost {k:?}");
    }
}

// The generators: each form with what it plants.

/// Nine digits of a Spanish number, the first from 6 to 9.
fn nine() -> impl Strategy<Value = String> {
    (6u8..=9, proptest::collection::vec(0u8..=9, 8))
        .prop_map(|(first, rest)| std::iter::once(first).chain(rest).map(|d| char::from(b'0' + d)).collect())
}

/// The number written in groups parted by one separator: `655 44 33 02`.
fn grouped(n: &str, sizes: &[usize], sep: &str) -> String {
    let mut out = String::new();
    let mut at = 0;
    for (k, size) in sizes.iter().enumerate() {
        if k > 0 {
            out.push_str(sep);
        }
        out.push_str(&n[at..at + size]);
        at += size;
    }
    out
}

const LINKS: &[&str] = &[
    "https://wa.me/34{n}",
    "https://api.whatsapp.com/send?phone=34{n}&text=Hola",
    "api.whatsapp.com/send?phone=%2B34{n}",
    "tel:+34{n}",
    "tel:{n}",
    "sms:{n}",
    "whatsapp://send?phone=34{n}",
    "https://example.es/reservas/{n}",
    "https://example.es/c?telefono=0034{n}&x=1",
    "www.example.es/{n}/info",
    "<a href=\"tel:+34{n}\">Llámanos</a>",
    "<a href=\"https://wa.me/34{n}\">WhatsApp</a>",
    "<a title=\"Tel. {g}\" href=\"/info\">Info</a>",
    "<span data-tel=\"{g}\">Reservas</span>",
    "<a href='sms:{n}'>SMS</a>",
];

/// A number placed in a link or a tag's attribute.
fn in_a_link() -> impl Strategy<Value = Form> {
    (nine(), 0..LINKS.len(), prop::sample::select(vec![" ", ".", "-", ""])).prop_map(|(n, k, sep)| Form {
        text: LINKS[k].replace("{n}", &n).replace("{g}", &grouped(&n, &[3, 2, 2, 2], sep)),
        number: Some(n),
        name: None,
    })
}

const HIDING: &[&str] = &[
    "<a href=\"mailto:{name}@{dom}.es\">Escríbenos</a>",
    "<a href=\"mailto:{name}%40{dom}.es\">Escríbenos</a>",
    "<span title=\"{name}@{dom}.es\">Info</span>",
    "<img alt=\"{name} arroba {dom} punto es\">",
    "{name}<!-- {dom} -->@{dom}.es",
    "{name}@<!-- x -->{dom}.es",
    "<a href=\"https://{dom}.es/?email={name}%40{dom}.es\">Reservas</a>",
];

/// An address placed in a tag's attribute or split by a comment.
fn in_an_attribute() -> impl Strategy<Value = Form> {
    ("[a-z]{3,6}", "[a-z]{3,8}", 0..HIDING.len()).prop_map(|(local, dom, k)| {
        let name = format!("zq{local}");
        Form { text: HIDING[k].replace("{name}", &name).replace("{dom}", &format!("dm{dom}")), number: None, name: Some(name) }
    })
}

/// Nine digits in a row glued to a word of random letters (some not
/// ASCII), maybe with a letter after. The word does not start with a
/// look-alike letter (`S655…` alone reads as ten digits).
fn glued() -> impl Strategy<Value = Form> {
    ("[A-HJ-NP-RT-Za-km-np-zñÑáéíóúàèç][A-Za-zñÑáéíóúàèç]{0,9}", nine(), prop::sample::select(vec!["", "h", " ", ".", ","]))
        .prop_map(|(word, n, after)| Form { text: format!("{word}{n}{after}"), number: Some(n), name: None })
}

const AT_WORDS: &[&str] = &[
    " arrova ",
    " arroba ",
    " ARROBA ",
    "@",
    " @ ",
    "\\u0040",
    "\\u{40}",
    "%2540",
    "&#8203;@",
    "&#64;",
    "&#65312;",
    "\u{2800}@\u{2800}",
    " at ",
];
const DOT_WORDS: &[&str] = &[" punt ", " ponto ", " punto ", " dot ", ".", ",", " . "];

/// An address with its `@` and `.` written in words or signs of every
/// language and encoding the scrubber reads, or quoted, or without a
/// top-level domain after a provider, or with an IP literal.
fn address_in_words() -> impl Strategy<Value = Form> {
    ("[a-z]{3,6}", "[a-z]{3,8}", 0..AT_WORDS.len() + 4, 0..DOT_WORDS.len(), prop::sample::select(vec!["es", "cat", "gal", "com"])).prop_map(
        |(local, dom, at, dot, tld)| {
            let name = format!("zq{local}");
            let dom = format!("dm{dom}");
            let text = match at.checked_sub(AT_WORDS.len()) {
                Some(0) => format!("{name} en {dom}{}{tld}", [" punt ", " ponto ", " punto "][dot % 3]),
                Some(1) => format!("\"{name}\"@{dom}.{tld}"),
                Some(2) => format!("{name} @ {}", ["gmail", "hotmail", "yahoo"][dot % 3]),
                Some(_) => format!("{name}@[10.{}.{}.7]", dot, dom.len()),
                None => {
                    let at = AT_WORDS[at];
                    // A bare ` at ` takes a domain in one case and no comma.
                    let dot = if at == " at " && DOT_WORDS[dot] == "," { "." } else { DOT_WORDS[dot] };
                    format!("{name}{at}{dom}{dot}{tld}")
                }
            };
            Form { text, number: None, name: Some(name) }
        },
    )
}

/// A number in Galician or Catalan words, partly or wholly, or with
/// look-alike digits: letters (`l`, `S`, `З`, `O`) among digits, keycaps,
/// dingbats, combining marks.
fn number_in_words_or_look_alikes() -> impl Strategy<Value = Form> {
    let words: Vec<(&str, u8)> = vec![
        ("cero", 0),
        ("un", 1),
        ("u", 1),
        ("unha", 1),
        ("dous", 2),
        ("dues", 2),
        ("tres", 3),
        ("catro", 4),
        ("quatre", 4),
        ("cinco", 5),
        ("cinc", 5),
        ("seis", 6),
        ("sis", 6),
        ("sete", 7),
        ("set", 7),
        ("oito", 8),
        ("vuit", 8),
        ("nove", 9),
        ("nou", 9),
    ];
    (nine(), 0..6usize, 1..=9usize, any::<u64>()).prop_map(move |(n, style, in_words, seed)| {
        let d: Vec<u8> = n.bytes().map(|b| b - b'0').collect();
        let word = |k: usize| {
            let all: Vec<&str> = words.iter().filter(|(_, v)| *v == d[k]).map(|(w, _)| *w).collect();
            all[(seed as usize >> k) % all.len()].to_string()
        };
        let text = match style {
            // Words for the first digits (all nine: a number wholly in words).
            0 => (0..9).map(|k| if k < in_words { word(k) } else { char::from(b'0' + d[k]).to_string() }).collect::<Vec<_>>().join(" "),
            // Look-alike letters, each group keeping one real digit.
            1 => {
                let mut out = String::new();
                for (g, group) in [0..3, 3..6, 6..9].into_iter().enumerate() {
                    if g > 0 {
                        out.push(' ');
                    }
                    for k in group.clone() {
                        let first_of_group = k == group.start;
                        let alike = match d[k] {
                            1 => "l",
                            5 => "S",
                            3 => "\u{417}",
                            0 => "O",
                            _ => "",
                        };
                        if !first_of_group && !alike.is_empty() && (seed >> k) & 1 == 1 {
                            out.push_str(alike);
                        } else {
                            out.push(char::from(b'0' + d[k]));
                        }
                    }
                }
                out
            }
            // Keycaps.
            2 => d.iter().map(|x| format!("{x}\u{FE0F}\u{20E3}")).collect(),
            // Dingbats (a zero as a plain digit).
            3 => {
                let sign = |x: u8| if x == 0 { '0' } else { char::from_u32(0x2776 + u32::from(x) - 1).unwrap() };
                d.chunks(3).map(|g| g.iter().map(|&x| sign(x)).collect::<String>()).collect::<Vec<_>>().join(" ")
            }
            // A combining mark on each digit.
            4 => d.iter().map(|x| format!("{x}\u{336}")).collect(),
            // Words parted by commas and dots: `seis, cinco. cinco`.
            _ => (0..9).map(word).collect::<Vec<_>>().join(if seed % 2 == 0 { ", " } else { ". " }),
        };
        Form { text, number: Some(n), name: None }
    })
}

#[test]
fn random_numbers_in_links_and_attributes_are_never_kept_p5() {
    through_the_binary(in_a_link(), 10, 1);
}

#[test]
fn random_addresses_in_attributes_and_comments_are_never_kept_p5() {
    through_the_binary(in_an_attribute(), 10, 1);
}

#[test]
fn random_numbers_glued_to_random_words_are_never_kept_p5() {
    through_the_binary(glued(), 10, 1);
}

#[test]
fn random_addresses_in_words_and_signs_are_never_kept_p5() {
    through_the_binary(address_in_words(), 10, 1);
}

#[test]
fn random_numbers_in_words_and_look_alikes_are_never_kept_p5() {
    through_the_binary(number_in_words_or_look_alikes(), 10, 1);
}

/// The scrubber alone over many more forms of every family than the
/// binary tests run (a few hundred each, in about a second).
#[test]
fn random_disguised_forms_of_every_family_are_scrubbed_p5() {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse::<u32>().ok()).map_or(400, |n| n * 100);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let words = number_words();
    let every = prop_oneof![in_a_link(), in_an_attribute(), glued(), address_in_words(), number_in_words_or_look_alikes()];
    runner
        .run(&every, |f| {
            let out = cityvibe::parse::pii::scrub(&format!("Reservas: {} hoy", f.text));
            let kept = f.number.as_ref().is_some_and(|n| digits(&out, &words).contains(n.as_str()))
                || f.name.as_ref().is_some_and(|n| letters(&out).contains(n.as_str()));
            prop_assert!(!kept, "P5: {:?} is kept as {out:?}", f.text);
            prop_assert!(!cityvibe::parse::pii::contains_pii(&out), "P5: {:?} leaves contact data in {out:?}", f.text);
            Ok(())
        })
        .unwrap();
}
