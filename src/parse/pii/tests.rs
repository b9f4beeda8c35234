//! The scrubber's forms (P5), and what it must leave alone.

use super::email::{EMAIL, LABEL_CHAR, LOCAL_CHAR, may_hold_email, spelt_at};
use super::*;

/// Every contact form the scrubber removes, those seen in real feeds among them.
pub const FORMS: &[&str] = &[
    "nombre.apellido@example.es",
    "+34 912 345 601",
    "0034912345678",
    "0034 934 567 890",
    "(+34) 983 41 23 45",
    "91 2345678",
    "(91) 234 56 78",
    "(912) 345 619",
    "912\u{2013}345\u{2013}678",
    "91\u{2014}234\u{2014}56\u{2014}78",
    "912.345.678",
    "912-34-56-78",
    "600112233",
    "700 11 22 33",
    "900 123 456",
    "0033 1 23 45 46 14",
    "+33 1 23 45 67 89",
    "+44 20 7946 0958",
    "913184733 /734",
    "91 588 06 65 / 91 480 24 52",
    "917 109 260 / 917 100 558",
    "nombre at example dot es",
    "nombre arroba example punto es",
    "nombre arroba example.es",
    "nombre (at) example.es",
    "nombre [at] example [dot] es",
    "nombre{at}example.es",
    "nombre\u{FF20}example.es",
    "nombre\u{200B}@example.es",
    "jos\u{E9}.mu\u{F1}oz@example.es",
    "usuario@correo.espa\u{F1}a.es",
    "usuario@xn--espaa-rta.es",
    "mailto%3Anombre%40example.es",
    "nombre&#64;example.es",
    "nombre&commat;example.es",
    "nombre&amp;#64;example.es",
    "nombre<span>@</span>example.es",
    "nombre<span>&#64;</span>example<b>.</b>es",
    "\u{FF19}\u{FF11}\u{FF12} 345 678",
    "mailto:nombre@example.es",
    // Spaced out to slip past a reader.
    "pii06 @ example . es",
    "9 1 2 3 4 5 6 0 9",
    "6.0.0.1.1.2.2.3.3",
    // The forms a person reads as contact data.
    "Tel. 91/234.56.78",
    "tel934501042",
    "912345678h",
    "912·345·678",
    "912\u{2800}345\u{2800}678",
    "9123-45678",
    "9 1 2 - 3 4 5 - 6 7 8",
    "\u{669}\u{661}\u{662} \u{663}\u{664}\u{665} \u{666}\u{667}\u{668}",
    "\u{96F}\u{967}\u{968} \u{969}\u{96A}\u{96B} \u{96C}\u{96D}\u{96E}",
    "6OO 112 248",
    "nueve uno dos 345 678",
    "nombre(a)example.es",
    "nombre(@)example.es",
    "nombre -at- example -dot- es",
    "nombre_at_example_dot_es",
    "nombre\u{AB}at\u{BB}example.es",
    "nombre at example.es",
    "nombre@example(.)es",
    "nombre@example\u{3002}es",
    "nombre@gmail",
    // A phone inside a link: the link goes whole.
    "https://wa.me/34655443302",
    "api.whatsapp.com/send?phone=34655443302&text=Hola",
    "tel:+34655443302",
    "sms:655443302",
    "https://example.es/reservas/655443302",
    "https://example.es/c?tel=655%20443%20302",
    // Inside a tag's attributes, and split by a comment.
    "<a href=\"mailto:nombre@example.es\">Escríbenos</a>",
    "<a href=\"tel:+34655443302\">Llámanos</a>",
    "<a href=\"https://api.whatsapp.com/send?phone=34655443302&amp;text=\">WhatsApp</a>",
    "(+34) 91 548 95 12/3",
    "<span title=\"nombre@example.es\">Info</span>",
    "nombre<!-- x -->@example.es",
    // A label the list lacks, glued.
    "Bizum655443301",
    "Reserves937812328",
    "guasap655443303",
    "34655443302",
    "Bizum34655443301",
    "send?phone=34656000504&text=Hola",
    // Words and signs for `@` and `.`.
    "nombre arrova example punt cat",
    "nombre arroba example ponto gal",
    "nombre en example punto es",
    "nombre@example,es",
    "\"nombre\"@example.es",
    "nombre @ gmail",
    "nombre@[192.168.1.20]",
    "nombre\\u0040example.es",
    "nombre%2540example.es",
    "nombre&#8203;@example.es",
    "nombre&#65312;example.es",
    "nombre\u{2800}@\u{2800}example.es",
    "nombre at example . es",
    // Number words of Galician and Catalan, wholly in words, look-alikes.
    "nove catro dous 345 678",
    "sis u u 443 302",
    "seis cinco cinco catro catro tres tres cero un",
    "6l2 34S 678",
    "9\u{417}4 501 022",
    "9\u{301}12 345 678",
    "9\u{FE0F}\u{20E3}1\u{FE0F}\u{20E3}2 345 678",
    "\u{277E}\u{2776}\u{2777} 345 678",
];

#[test]
fn every_form_is_removed_p5() {
    for form in FORMS {
        for text in [form.to_string(), format!("Información y reservas: {form}, de 10:00 a 14:00.")] {
            let out = scrub(&text);
            assert!(out.contains(REDACTED), "{text:?} came out as {out:?}");
            assert!(!contains_pii(&out), "{text:?} left contact data: {out:?}");
            for piece in
                ["nombre", "345", "234 56", "2345678", "example", "@", "\u{FF20}", "&#64;", "%40", "45 46 14", "7946", "655", "443"]
            {
                if form.contains(piece) {
                    assert!(!out.contains(piece), "{text:?}: {piece:?} survives in {out:?}");
                }
            }
            assert!(contains_pii(&text), "{text:?}");
        }
    }
}

/// Forms that running the patterns in windows around `@` and digits lets
/// through: a number split over lines, and an address whose local part is
/// longer than the 96 bytes a window reaches back (its head stays).
#[test]
fn a_number_over_lines_and_a_long_local_part_are_removed_whole_p5() {
    let long = format!("{}@example.es", "nombre.apellido".repeat(8));
    for (text, piece) in [("Reservas: 912\n345\n678.", "345"), ("Reservas: 91 234\r\n56 78.", "234"), (long.as_str(), "nombre")] {
        let out = scrub(text);
        assert!(!out.contains(piece), "{text:?} came out as {out:?}");
        assert!(contains_pii(text), "{text:?}");
    }
}

#[test]
fn scrubbing_is_idempotent_and_keeps_the_rest() {
    let text = "Concierto «Jazz» el 12/12/2025 a las 19:30. Tel. (91) 234 56 78 o nombre at example dot es. Entrada: 12,50 €.";
    let once = scrub(text);
    assert_eq!(once, "Concierto «Jazz» el 12/12/2025 a las 19:30. Tel. […] o […]. Entrada: 12,50 €.");
    assert_eq!(scrub(&once), once);
}

/// What must survive: dates, prices, times, ISBNs, postal codes, year
/// ranges, event ids, handles, URLs of the feeds.
pub const KEEP: &[&str] = &[
    "Niñ@s de 6 a 12 años, 2025-10-25 a las 19:00, 80 min.",
    // JSON-LD unfolded onto one line: a closing quote, blanks and an opening
    // quote before `@type` are no quoted local part.
    r#""eventSchedule": [       {         "@type": "Schedule", "startDate": "2023-01-17""#,
    "Entrada: 12,50 €. Aforo: 120 personas. CP 28025.",
    "Precio: 1.250,00 € (IVA incl.); abono 3x2",
    "ISBN 978-84-376-0494-7",
    "ISBN 9788437604947",
    "ISBN: 84-376-0494-7",
    "Sigue a @alomabye en redes",
    "Del 1936-1939 al 2024-2025",
    "Horario: 10:00 - 14:00 y 17:00 - 20:00; sábados 10:00-14:00",
    "del 06/12/2025 al 08/01/2026, 19.30 h",
    "Sesiones: 6, 7, 8 y 9 de diciembre",
    "Calle de Alcalá, 42, 28014 Madrid",
    "50066046",
    "Evento 50042045 (ref. 2025/123456)",
    "https://www.madrid.es/sites/v/index.jsp?vgnextchannel=ca9671ee4a9eb410VgnVCM100000171f5a0aRCRD&vgnextoid=dce145cbf9a79910VgnVCM100000891ecb1aRCRD",
    "Coordenadas 40.4168, -3.7038",
    "Concert at the Palau, 8 p.m.",
    "Tickets at www.example.com",
    "R&D; AT&T; 50 % de descuento; a < b > c",
    "20:00 34 plazas",
    "Premio dotado con 6.000 euros y 3.000 euros",
    "Ciclo 2025-2026, 12-14 de diciembre de 2025",
    "Sesiones 6 7 8 9 y 10 de diciembre",
    "7 8 9 10 11 12 13 14 15",
    "Síguenos en Instagram @teatro.real y @museo_prado",
    "ISBN 84-376-0494-7, ISBN-10: 0-306-40615-2, ISBN 8437604947, ISBN 84 376 0494 X",
    "Lo importante en este punto es que vengas",
    "https://www.madrid.es/evento/50066046",
    "https://datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json",
    "<a href=\"https://www.teatro.es/obra?id=123\" title=\"La obra\">Obra</a><!-- fin -->",
    "Sala S1, planta 2, Hotel 3; H2O; 3l de agua",
    "Uno, dos, tres, cuatro y cinco actos",
];

#[test]
fn ordinary_numbers_and_text_survive_p5() {
    for keep in KEEP {
        assert_eq!(scrub(keep), *keep);
        assert!(!contains_pii(keep), "{keep:?}");
    }
}

#[test]
fn every_stored_field_is_scrubbed_and_postal_codes_are_five_digits() {
    let mut ev = Event::new("50066046", "Taller (info: nombre at example dot es)", "es").unwrap();
    ev.description = "Llama al (91) 234 56 78".into();
    ev.price = Some("5 €, reservas 600 11 22 33".into());
    ev.audience = Some("Familias: nombre&#64;example.es".into());
    let v = &mut ev.venue;
    v.name = Some("Sala 0034 934 567 890".into());
    v.address = Some("Calle Mayor 1 (nombre\u{FF20}example.es)".into());
    v.locality = Some("Madrid 912\u{2013}345\u{2013}678".into());
    v.province = Some("+34 912 345 601".into());
    v.district = Some("Centro nombre@example.es".into());
    v.postal_code = Some("nombre.apellido@example.es".into());
    ev.source_categories = vec!["Música (912) 345 619".into()];
    ev.url = Some("mailto%3Anombre%40example.es".into());
    ev.translations = vec![crate::model::PublisherTranslation {
        lang: "en".into(),
        title: "Workshop 0033 1 23 45 46 14".into(),
        description: "nombre arroba example punto es".into(),
    }];
    scrub_event(&mut ev).unwrap();
    let json = serde_json::to_string(&ev).unwrap();
    assert!(!contains_pii(&json), "{json}");
    for piece in ["nombre", "345", "example", "23 45 46"] {
        assert!(!json.contains(piece), "{piece:?} in {json}");
    }
    assert_eq!(ev.venue.postal_code, None);
    assert_eq!(ev.url, None);
    assert_eq!(ev.venue.province.as_deref(), Some("[…]"));

    let mut ok = Event::new("1", "t", "es").unwrap();
    ok.venue.postal_code = Some(" 28013 ".into());
    ok.url = Some("https://www.madrid.es/evento/50066046".into());
    scrub_event(&mut ok).unwrap();
    assert_eq!(ok.venue.postal_code.as_deref(), Some("28013"));
    assert!(ok.url.is_some());
}

#[test]
fn an_id_that_is_contact_data_is_refused_without_quoting_it() {
    for id in ["nombre@example.es", "912345678", "+34 600 11 22 33", "nombre at example dot es"] {
        let mut ev = Event::new(id, "Título", "es").unwrap();
        let why = scrub_event(&mut ev).unwrap_err();
        assert!(!why.contains(id) && why.contains("P5"), "{why}");
    }
    for id in ["50066046", "acte-12345", "2025/123"] {
        scrub_event(&mut Event::new(id, "Título", "es").unwrap()).unwrap();
    }
}

/// Matching the address classes without `(?i)` finds exactly what matching
/// with it finds: every case variant of a member is a
/// member. (`\p{L}` alone is not so: U+0345, a mark, folds to a letter, so
/// the top-level domain stays case-insensitive.)
#[test]
fn the_address_classes_hold_their_case_variants() {
    let every_char: String = (0..=char::MAX as u32).filter_map(char::from_u32).collect();
    for class in [LOCAL_CHAR, LABEL_CHAR] {
        let count = |pattern: &str| Regex::new(pattern).unwrap().find_iter(&every_char).count();
        let (as_written, folded) = (count(class), count(&format!("(?i){class}").replace("(?-i:", "(?:")));
        assert!(as_written > 100_000, "{class}: {as_written}");
        assert_eq!(as_written, folded, "{class}");
    }
}

// A spaced-out dot is part of an address, a sentence's full stop after one
// is not.
#[test]
fn a_full_stop_after_an_address_ends_it() {
    assert_eq!(scrub("Escribe a info@teatro.es. Entradas a la venta"), format!("Escribe a {REDACTED}. Entradas a la venta"));
    assert_eq!(scrub("o a pii06 @ example . es hoy"), format!("o a {REDACTED} hoy"));
    assert_eq!(scrub("O A PII06 @ EXAMPLE . ES HOY"), format!("O A {REDACTED} HOY"));
    // The Madrid portal's spaces around a full stop (2025-10 feed, event
    // 12561116): the next sentence is not the address's domain.
    assert_eq!(
        scrub("la entrega a:  inforetiro@madrid.es .    Animamos a todos"),
        format!("la entrega a:  {REDACTED} .    Animamos a todos")
    );
}

/// The pre-checks skip a pattern only where it finds nothing kept: on
/// every form of the scrubber's list, and on made-up texts of the
/// characters the two patterns turn on.
#[test]
fn the_pre_checks_never_skip_a_finding() {
    let pieces = [
        "@",
        "a",
        "A",
        "t",
        "T",
        "at",
        "AT",
        "arroba",
        "ARROBA",
        "rroba",
        " ",
        "\u{3000}",
        "\n",
        "(",
        ")",
        "[",
        "]",
        "<",
        ">",
        "{",
        "}",
        ".",
        "-",
        "+",
        "/",
        "00",
        "34",
        "9",
        "1",
        "6",
        "12",
        "x",
        "é",
        "dot",
        "punto",
        "es",
        "mailto:",
        "nombre",
        "example",
        " at ",
        "(at)",
        " arroba ",
        "[arroba]",
        " dot ",
        " punto ",
        "912",
        " 345 ",
        "678",
        "+34 ",
        "91 ",
        "23 45",
        "600112233",
        "(a)",
        "-at-",
        "_at_",
        "\u{AB}at\u{BB}",
        "(@)",
        "(.)",
        "gmail",
    ];
    let mut next = crate::testing::xorshift(0x5851_f42d_4c95_7f2d);
    let made_up = (0..40_000).map(|_| {
        let len = 1 + next() as usize % 24;
        (0..len).map(|_| pieces[next() as usize % pieces.len()]).collect::<String>()
    });
    let mut found = 0;
    for text in FORMS.iter().map(|f| f.to_string()).chain(made_up) {
        let view = View::of(&text);
        let v: &str = &view.text;
        if EMAIL.is_match(v) {
            found += 1;
            assert!(may_hold_email(v), "{v:?} holds an address the pre-check skips");
        }
        let kept = |m: regex::Match| enough_digits(m.as_str()) && stands_alone(v, m.start(), m.end());
        if PHONE.find_iter(v).any(kept) {
            found += 1;
            assert!(may_hold_phone(v), "{v:?} holds a number the pre-check skips");
        }
    }
    assert!(found > 1_000, "the made-up texts hold too few findings to test the pre-checks: {found}");
    assert!(!may_hold_email("Teatro gratuito para todas las edades") && !may_hold_phone("Del 3 al 25 de octubre"));
}

/// The block test of `word_initial_as` only narrows which `a`s are tried:
/// on made-up texts of the characters the spelt-out forms turn on, the
/// pre-check answers as trying every `a` does.
#[test]
fn the_address_pre_check_answers_as_trying_every_a_did() {
    let every_a = |view: &str| view.contains('@') || view.match_indices(['a', 'A']).any(|(i, _)| spelt_at(view, i));
    let pieces = [
        "a", "A", "t", "T", "at", "rroba", " ", "\u{3000}", "\u{AB}", "\u{BB}", "(", ")", "[", "]", "-", "_", "x", "é", "9", ".", "@", "ñ",
        "la casa ", "<", ">", "{", "}",
    ];
    let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..60_000 {
        let len = 1 + next() as usize % 90;
        let text: String = (0..len).map(|_| pieces[next() as usize % pieces.len()]).collect();
        let want = every_a(&text);
        assert_eq!(may_hold_email(&text), want, "{text:?}");
        if want { yes += 1 } else { no += 1 }
    }
    for text in FORMS.iter().chain(KEEP) {
        let view = View::of(text);
        assert_eq!(may_hold_email(&view.text), every_a(&view.text), "{text:?}");
    }
    assert!(yes > 1_000 && no > 1_000, "{yes} texts with a form, {no} without");
}
