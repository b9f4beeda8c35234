//! The order house style runs in: one table, [`STAGES`], whose rows each
//! say the languages, engines and fields they serve, and whether they work
//! on the whole text, on each stretch of plain text between kept spans
//! alone, or on the text cut into spans and stretches. `finish_from` runs
//! the rows that apply, top to bottom.
//!
//! Not for: the rules themselves, which live in its siblings, one family
//! to a file (`capitals`, `contract`, `mend`, `places`…), or the cut of a
//! text into kept spans and plain stretches (the parent module).

use super::cut::{Finishing, Segment, Slips};
use super::{articles, blanks, capitals, compounds, contract, dates, garbled, mend, months, moved, places, typography};
use crate::lang::Lang;
use crate::vocab::Field;

/// The target languages a stage serves.
pub(super) enum Langs {
    All,
    Only(&'static [Lang]),
}

/// Where the text is cut into kept spans and the plain stretches between.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Cut {
    /// At the kept names.
    Names,
    /// At the anchors: the names and the terms put in, around which
    /// Apertium moves words.
    Anchors,
}

/// What a stage works on.
pub(super) enum Step {
    /// The whole text; `None` leaves it as it was.
    Text(fn(&str, &Finishing) -> Option<String>),
    /// Each plain stretch alone, given the target language.
    Plain(Cut, fn(&str, Lang) -> String),
    /// The spans and stretches together.
    Segments(Cut, fn(&mut [Segment], &Finishing)),
}

/// One row of the table.
pub(super) struct Stage {
    #[cfg_attr(not(test), expect(dead_code, reason = "names the row for a reader and for the tests"))]
    pub name: &'static str,
    pub langs: Langs,
    /// `None`: any engine's output; `Some(slips)`: only that of an engine
    /// that makes `slips` (`Slips::Apertium`: a repair of Apertium's own).
    pub engines: Option<Slips>,
    /// `None`: titles and descriptions alike.
    pub fields: Option<Field>,
    /// Also runs on a text sent plain, which is otherwise left as Apertium gave it.
    pub sent_plain: bool,
    pub step: Step,
}

impl Stage {
    fn applies(&self, text: &Finishing) -> bool {
        let lang = match self.langs {
            Langs::All => true,
            Langs::Only(langs) => langs.contains(&text.lang),
        };
        lang && self.engines.is_none_or(|s| s == text.slips)
            && self.fields.is_none_or(|f| f == text.field)
            && (self.sent_plain || !text.plain)
    }
}

const APERTIUM: Option<Slips> = Some(Slips::Apertium);

/// A row for any language, engine and field, on prepared texts only.
const fn stage(name: &'static str, step: Step) -> Stage {
    Stage { name, langs: Langs::All, engines: None, fields: None, sent_plain: false, step }
}

/// House style, in the order it runs.
pub(super) const STAGES: &[Stage] = &[
    // Apertium moves a word or stop from after a kept span (a name or a
    // term) to before it: blanks are tidied around the anchors first, then
    // the moved words put back.
    Stage { engines: APERTIUM, ..stage("blanks around anchors", Step::Plain(Cut::Anchors, |t, _| blanks::tidy_blanks(t))) },
    Stage {
        langs: Langs::Only(&[Lang::Fr, Lang::Ca, Lang::It, Lang::Pt]),
        engines: APERTIUM,
        ..stage("words moved before a kept span", Step::Segments(Cut::Anchors, moved::mend_around_names))
    },
    Stage {
        langs: Langs::Only(&[Lang::Fr, Lang::It, Lang::En]),
        engines: APERTIUM,
        ..stage(
            "an article read as a pronoun before a span",
            Step::Segments(Cut::Anchors, |s, f| garbled::article_read_as_a_pronoun(s, f.lang, f.names)),
        )
    },
    // Garbled forms house style knows (`data/lang/garbled.tsv`).
    // Apertium's garbles around a kept name: on a text sent plain too (Catalan and
    // Galician descriptions keep their names, and Apertium moves words around them).
    Stage {
        sent_plain: true,
        ..stage("a stop moved before a kept span", Step::Segments(Cut::Names, |s, _| garbled::stop_moved_before_a_span(s)))
    },
    Stage {
        sent_plain: true,
        ..stage(
            "a comma moved before a kept span",
            Step::Segments(Cut::Names, |s, f| garbled::mark_moved_before_a_span(s, f.lang, f.slips == Slips::Apertium)),
        )
    },
    Stage {
        langs: Langs::Only(&[Lang::Ca]),
        sent_plain: true,
        ..stage("a Catalan article before a name's own", Step::Text(|t, _| garbled::catalan_article_before_a_names_own(t)))
    },
    Stage {
        langs: Langs::Only(&[Lang::Ca]),
        sent_plain: true,
        ..stage("a Catalan word moved before a kept span", Step::Segments(Cut::Names, |s, _| garbled::catalan_word_moved_before_a_span(s)))
    },
    Stage {
        langs: Langs::Only(&[Lang::Fr]),
        ..stage(
            "a subject pronoun after a kept name",
            Step::Segments(Cut::Anchors, |s, f| garbled::pronoun_after_a_name(s, f.lang, f.names, f.slips == Slips::Apertium)),
        )
    },
    Stage {
        langs: Langs::Only(&[Lang::En]),
        engines: APERTIUM,
        ..stage(
            "an English subject pronoun after a kept name",
            Step::Segments(Cut::Anchors, |s, f| garbled::pronoun_after_a_name(s, f.lang, f.names, f.slips == Slips::Apertium)),
        )
    },
    Stage {
        langs: Langs::Only(&[Lang::En, Lang::Fr]),
        engines: APERTIUM,
        ..stage("a subject pronoun before a label", Step::Text(|t, f| garbled::pronoun_before_a_label(t, f.lang)))
    },
    Stage {
        langs: Langs::Only(&[Lang::Fr]),
        engines: APERTIUM,
        ..stage("a subject pronoun Apertium put in", Step::Text(|t, _| garbled::pronoun_put_in(t)))
    },
    stage("lower case after a leading span", Step::Text(|t, f| f.lead.and_then(|lead| capitals::lower_after_lead(t, lead, f.names)))),
    // Before "from" opens a range: "Of the 3 to 7 November" is one date's.
    Stage {
        langs: Langs::Only(&[Lang::En, Lang::Fr, Lang::It, Lang::Pt]),
        engines: APERTIUM,
        ..stage("dates as the language writes them", Step::Plain(Cut::Names, dates::dates))
    },
    Stage {
        langs: Langs::Only(&[Lang::En]),
        engines: APERTIUM,
        ..stage("ranges open with from", Step::Text(|t, _| Some(mend::from_to(t))))
    },
    stage("blanks", Step::Plain(Cut::Names, |t, _| blanks::tidy_blanks(t))),
    stage("contractions", Step::Plain(Cut::Names, contract::contract)),
    Stage { engines: APERTIUM, ..stage("words an engine gets wrong", Step::Plain(Cut::Names, mend::mend_words)) },
    Stage { engines: APERTIUM, ..stage("articles agree with a term's gender", Step::Plain(Cut::Names, contract::agree_articles)) },
    Stage {
        engines: APERTIUM,
        sent_plain: true,
        ..stage("an article's capital inside a contraction", Step::Plain(Cut::Names, contract::mend_split_capitals))
    },
    Stage {
        langs: Langs::Only(&[Lang::En, Lang::Fr, Lang::It, Lang::Pt]),
        ..stage("no opening ¿ ¡", Step::Plain(Cut::Names, |t, _| typography::drop_opening_marks(t)))
    },
    stage("function words in lower case", Step::Segments(Cut::Names, capitals::lower_stray_capitals_in)),
    // Any engine's, a text sent plain's too: Apertium's cat-por capitalises
    // every month, and a publisher's capital comes through every pair.
    Stage { sent_plain: true, ..stage("a date's month in lower case", Step::Text(months::lower_months)) },
    stage("a range of days joined as the language writes it", Step::Text(months::day_ranges)),
    // One rule for every engine; on Apertium's output the "en" it moved
    // ("d'en Magie Escena") goes back first.
    // On a text sent plain too (Catalan descriptions keep their names, and
    // the Spanish "en" before one comes back "en Madrid", not "a Madrid").
    Stage {
        langs: Langs::Only(&[Lang::Fr, Lang::En, Lang::Ca]),
        engines: APERTIUM,
        sent_plain: true,
        ..stage(
            "prepositions before a span, a moved \"en\" put back",
            Step::Segments(Cut::Names, |s, f| places::prepositions(s, f.lang, true)),
        )
    },
    Stage {
        langs: Langs::Only(&[Lang::Fr, Lang::En, Lang::Ca]),
        engines: Some(Slips::None),
        ..stage("prepositions before a span", Step::Segments(Cut::Names, |s, f| places::prepositions(s, f.lang, false)))
    },
    stage("an article's form before the word after it", Step::Plain(Cut::Names, contract::article_forms)),
    Stage { sent_plain: true, ..stage("elision", Step::Segments(Cut::Names, |s, f| places::elide(s, f.lang))) },
    Stage {
        langs: Langs::Only(&[Lang::Fr]),
        ..stage("vous after an imperative", Step::Segments(Cut::Names, |s, _| places::vous_after_imperative(s)))
    },
    Stage { langs: Langs::Only(&[Lang::En]), ..stage("general nouns", Step::Segments(Cut::Names, |s, _| articles::general_nouns(s))) },
    Stage {
        langs: Langs::Only(&[Lang::En]),
        fields: Some(Field::Title),
        ..stage("compound nouns", Step::Segments(Cut::Names, |s, _| compounds::compounds(s)))
    },
    Stage {
        langs: Langs::Only(&[Lang::En]),
        fields: Some(Field::Title),
        ..stage("title case", Step::Segments(Cut::Names, |s, _| capitals::title_case(s)))
    },
    stage("blanks at a span's edge", Step::Segments(Cut::Names, |s, _| blanks::blanks_at_edges(s))),
    Stage {
        sent_plain: true,
        ..stage("punctuation as the language sets it", Step::Text(|t, f| Some(typography::punctuate(t, f.names, f.lang))))
    },
    // Last: the stages above find the kept names as they were published.
    Stage {
        sent_plain: true,
        ..stage("places in the reader's language", Step::Segments(Cut::Names, |s, f| places::exonyms(s, f.lang, f.local)))
    },
];

#[cfg(test)]
thread_local! {
    /// A stage left out on this thread (`finish::without_stage`).
    pub(super) static SKIP: std::cell::Cell<Option<&'static str>> = const { std::cell::Cell::new(None) };
}

/// The text as the last stage left it: whole, or cut.
enum Form {
    Text(String),
    Cut(Cut, Vec<Segment>),
}

impl Form {
    fn into_text(self) -> String {
        match self {
            Form::Text(t) => t,
            Form::Cut(_, segs) => super::cut::concat(segs),
        }
    }

    /// The text cut at `cut`, cut afresh if it was whole or cut elsewhere.
    fn into_cut(self, cut: Cut, text: &Finishing) -> Vec<Segment> {
        match self {
            Form::Cut(c, segs) if c == cut => segs,
            whole => super::cut::segments(&whole.into_text(), if cut == Cut::Anchors { text.anchors } else { text.names }),
        }
    }
}

/// `output` through every stage of [`STAGES`] that applies to `text`, in order.
pub(super) fn run(output: &str, text: &Finishing) -> String {
    let mut form = Form::Text(output.to_string());
    for stage in STAGES.iter().filter(|s| s.applies(text)) {
        #[cfg(test)]
        if SKIP.with(|k| k.get()) == Some(stage.name) {
            continue;
        }
        form = match stage.step {
            Step::Text(f) => {
                let whole = form.into_text();
                Form::Text(f(&whole, text).unwrap_or(whole))
            }
            Step::Plain(cut, f) => {
                let mut segs = form.into_cut(cut, text);
                for s in &mut segs {
                    if let Segment::Plain(t) = s {
                        *t = f(t, text.lang);
                    }
                }
                Form::Cut(cut, segs)
            }
            Step::Segments(cut, f) => {
                let mut segs = form.into_cut(cut, text);
                f(&mut segs, text);
                Form::Cut(cut, segs)
            }
        };
    }
    form.into_text()
}

#[cfg(test)]
mod tests {
    use super::super::{finish_from, finish_plain};
    use super::*;

    /// For each stage of Apertium's alone, a text of Apertium's it changes
    /// and nothing else does: (stage, language, field, kept names, output).
    const SLIPS: &[(&str, Lang, Field, &[&str], &str)] = &[
        (
            "words moved before a kept span",
            Lang::Fr,
            Field::Title,
            &["Marta Mansilla", "Arganzuela"],
            "Concert d'en Marta Mansilla Arganzuela",
        ),
        ("dates as the language writes them", Lang::En, Field::Description, &[], "Of the 3 at the 7 of November"),
        ("ranges open with from", Lang::En, Field::Description, &[], "of 12 to 13 hours"),
        ("words an engine gets wrong", Lang::It, Field::Description, &[], "Ali partorisca volare"),
        ("articles agree with a term's gender", Lang::Pt, Field::Description, &[], "O oficina de cerâmica"),
        ("an article's capital inside a contraction", Lang::It, Field::Description, &[], "Viaggio alLa Gomera"),
        ("prepositions before a span, a moved \"en\" put back", Lang::Fr, Field::Title, &["Escena"], "Concert d'en Magie Escena"),
        ("a subject pronoun Apertium put in", Lang::Fr, Field::Description, &[], "Il naît d'une illusion"),
        ("an article read as a pronoun before a span", Lang::Fr, Field::Description, &["Fira"], "Voir celle Fira demain"),
        ("an English subject pronoun after a kept name", Lang::En, Field::Description, &["Claudia Pia"], "Claudia Pia it left a legacy"),
        ("a subject pronoun before a label", Lang::En, Field::Description, &[], "Day 9: Edipo Re, 1967 / it Collaborates: Liceu"),
    ];
    /// Stages of Apertium's alone that mend nothing by themselves: they
    /// ready the text for the repairs after them.
    const READIES: &[&str] = &["blanks around anchors"];

    /// Repairs of Apertium's own slips run on its output only: a neural
    /// engine's text that such a repair would change comes back as it was.
    #[test]
    fn apertium_repairs_never_touch_a_neural_engines_output() {
        for stage in STAGES.iter().filter(|s| s.engines == Some(Slips::Apertium)) {
            assert!(READIES.contains(&stage.name) || SLIPS.iter().any(|e| e.0 == stage.name), "no example for {:?}", stage.name);
        }
        for &(stage, lang, field, names, output) in SLIPS {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            let by = |slips| finish_from(output, &names, &names, &[], None, lang, field, slips, None);
            assert_ne!(by(Slips::Apertium), output, "{stage:?} mends its example");
            assert_eq!(by(Slips::None), output, "{stage:?} leaves a neural engine's output alone");
        }
    }

    /// A text sent plain gets Apertium's garbles around a kept name mended (a
    /// stop, a comma, or a Catalan word moved before it, a Catalan article doubled
    /// before a name's own), its article capital inside a contraction mended,
    /// a date's month in lower case, the Catalan "a" before a kept place,
    /// the elision before a kept name,
    /// its punctuation set as the language sets it and a place alone in the
    /// reader's name for it, nothing else.
    #[test]
    fn a_text_sent_plain_gets_only_ten_stages() {
        let plain: Vec<&str> = STAGES.iter().filter(|s| s.sent_plain).map(|s| s.name).collect();
        assert_eq!(
            plain,
            [
                "a stop moved before a kept span",
                "a comma moved before a kept span",
                "a Catalan article before a name's own",
                "a Catalan word moved before a kept span",
                "an article's capital inside a contraction",
                "a date's month in lower case",
                "prepositions before a span, a moved \"en\" put back",
                "elision",
                "punctuation as the language sets it",
                "places in the reader's language"
            ]
        );
        let kept = vec!["C3A".to_string()];
        assert_eq!(
            finish_plain("Una maqueta del , C3A descontextualitzada", &kept, &[], Lang::Ca),
            "Una maqueta del C3A, descontextualitzada"
        );
        assert_eq!(
            finish_plain("explora el clasismo en l'El Cairo contemporani", &[], &[], Lang::Ca),
            "explora el clasismo en El Cairo contemporani"
        );
        let kept = vec!["Alasdair Roberts".to_string()];
        assert_eq!(finish_plain("concert de Alasdair Roberts", &kept, &[], Lang::Fr), "concert d'Alasdair Roberts");
        // A Spanish description into Catalan keeps its names and nothing else:
        // "la mentoría de Alejandro Torres y el Niño" came back "d'i Alejandro Torres el Nen".
        let kept = vec!["Alejandro Torres".to_string()];
        assert_eq!(
            finish_plain("la mentoria d'i Alejandro Torres el Nen", &kept, &[], Lang::Ca),
            "la mentoria d'Alejandro Torres i el Nen"
        );
        assert_eq!(finish_plain("in il  parco partorisca tutti", &[], &[], Lang::It), "in il  parco partorisca tutti");
    }

    /// Every row has a name of its own, and a stage for some languages
    /// names at least one.
    #[test]
    fn the_rows_are_named_and_scoped() {
        for (i, stage) in STAGES.iter().enumerate() {
            assert!(!stage.name.is_empty());
            assert!(STAGES[..i].iter().all(|s| s.name != stage.name), "{:?} twice", stage.name);
            if let Langs::Only(langs) = stage.langs {
                assert!(!langs.is_empty(), "{:?} serves no language", stage.name);
            }
        }
    }
}
