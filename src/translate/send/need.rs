//! One text an engine must translate ([`Need`]) and what follows from it:
//! the cache key it is asked and stored under, the row its translation
//! becomes, the engine's answer put in house style. The plan (`plan`)
//! makes them, the batches (`batches`) and the fallback (`fallback`) send
//! them; this file imports none of the three.
//!
//! Not for: deciding what needs translating (`plan`) or sending it (`batches`).

use crate::lang::Lang;
use crate::store::translations::MachineTranslation;
use crate::translate::engines::routes::Route;
use crate::translate::finish::{self, Slips};
use crate::translate::prepare::Prepared;
use crate::translate::send::stats::TranslateStats;
use crate::vocab::Field;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The cache key: a hash of (text, source language, target language, engine and version).
pub fn cache_key(text: &str, src: &str, tgt: &str, engine: &str) -> String {
    let mut h = Sha256::new();
    for part in [text, src, tgt, engine] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    hex::encode(h.finalize())
}

/// The key of what an engine is asked: exactly the prepared text (names
/// kept, term targets put in), the languages, the field with its route
/// (`field_key`) and the engine with its version. Its answer is kept under
/// it (`engine_answers`), before house style.
pub(in crate::translate) fn asked_key(text: &str, field: &str, src: &str, tgt: &str, engine: &str) -> String {
    cache_key(text, src, tgt, &format!("{engine}\0{field}"))
}

/// The key of a finished translation: what the engine was asked
/// ([`asked_key`]), and what is done to its answer: house style's version
/// (`lang::FINISH_VERSION`) and the language data it reads (`lang::digest`),
/// and the term entries that matched.
pub(in crate::translate) fn prepared_key(p: &Prepared, field: &str, src: &str, tgt: &str, engine: &str) -> String {
    let finishing = format!("lang/{}\0{}", crate::translate::lang::digest(tgt), p.terms_used.join("\n"));
    cache_key(&asked_key(&p.text, field, src, tgt, engine), src, tgt, &finishing)
}

#[derive(Clone)]
pub(in crate::translate) struct Need {
    pub(in crate::translate) event_id: i64,
    pub(in crate::translate) source: String,
    pub(in crate::translate) field: Field,
    pub(in crate::translate) prepared: Prepared,
    pub(in crate::translate) key: String,
    /// What the engine is asked ([`asked_key`]): its answer is kept under it.
    pub(in crate::translate) asked: String,
    pub(in crate::translate) hash: String,
    pub(in crate::translate) words: u64,
    /// Cut at the size limit: the translation ends with a mark saying so.
    pub(in crate::translate) shortened: bool,
    /// The publisher's language the text is translated from instead of the
    /// original's (`es`: its own Spanish beside a Catalan original).
    pub(in crate::translate) via: Option<&'static str>,
    /// Sent to Apertium, whose steady slips house style mends.
    pub(in crate::translate) apertium: bool,
    /// Sent with names kept but no term, stored as the engine gives it
    /// (`data/lang/XX/plain.txt`).
    pub(in crate::translate) plain: bool,
    /// The route the table names for this text (`routes`), which Apertium
    /// follows: in its cache key and its origin's name.
    pub(in crate::translate) route: Option<&'static Route>,
}

impl Need {
    /// The field as the cache key names it: a cut text is another text.
    pub(in crate::translate) fn field_key(&self) -> String {
        field_key(self.field, self.shortened, self.route)
    }

    /// The row storing `text` as this text's translation into `tgt` by
    /// `engines` under `key`, counted in `stats`.
    pub(in crate::translate) fn translated(
        &self,
        tgt: Lang,
        text: &str,
        engine: &str,
        key: &str,
        stats: &mut TranslateStats,
    ) -> MachineTranslation {
        stats.translated += 1;
        stats.words += self.words;
        stats.per_source.entry(self.source.clone()).or_default().0 += 1;
        MachineTranslation {
            event_id: self.event_id,
            lang: tgt,
            field: self.field,
            text: text.to_string(),
            engine: origin_name(engine, self.route, self.via),
            source_hash: self.hash.clone(),
            cache_key: key.to_string(),
            repair: None,
        }
    }

    /// An engine's answer for this text, in house style, marked if cut.
    pub(in crate::translate) fn finish(&self, answer: &str, tgt: Lang) -> String {
        finish_answer(&self.prepared, answer, tgt, self.field, (self.apertium, self.plain, self.shortened))
    }
}

/// An engine's `answer` to `p` in house style, marked if cut: what every
/// stored machine translation is made of (`lang::FINISH_VERSION` names its
/// version). `(apertium, plain, shortened)`: sent to Apertium, whose slips
/// house style mends; stored as the engine gives it (names put back);
/// cut at the size limit.
fn finish_answer(p: &Prepared, answer: &str, tgt: Lang, field: Field, (apertium, plain, shortened): (bool, bool, bool)) -> String {
    let slips = if apertium { Slips::Apertium } else { Slips::None };
    let mut text = if plain {
        finish::finish_plain(answer, &p.names, &p.local, tgt)
    } else {
        finish::finish_from(answer, &p.names, &p.anchors(), &p.local, p.lead.as_deref(), tgt, field, slips)
    };
    if shortened {
        text.push_str(" […]");
    }
    text
}

/// The field as a cache key names it: a cut text is another text, and a
/// text sent along another route another translation.
pub(in crate::translate) fn field_key(field: Field, shortened: bool, route: Option<&Route>) -> String {
    let cut = if shortened { "/cut" } else { "" };
    match route {
        Some(route) => format!("{field}{cut}\0{}", route.key_name()),
        None => format!("{field}{cut}"),
    }
}

/// The engine as a translation names it (`text_origin`): Apertium with the
/// route it followed (`apertium/3.8.3 cat-eng`, `apertium/3.8.3
/// spa-cat+cat-fra via ca`), and `via es` when the text was translated
/// from the publisher's Spanish, not the original (`apertium/3.8.3 spa-eng
/// via es`; both: `via es+ca`). Other engines do not follow the table.
pub(in crate::translate) fn origin_name(engine: &str, route: Option<&Route>, via: Option<&str>) -> String {
    let route = route.filter(|_| engine.starts_with("apertium/"));
    let vias: Vec<&str> = via.into_iter().chain(route.and_then(|r| r.pivot)).collect();
    let mut name = engine.to_string();
    if let Some(route) = route {
        name.push(' ');
        name.push_str(&route.modes_name());
    }
    if !vias.is_empty() {
        name.push_str(" via ");
        name.push_str(&vias.join("+"));
    }
    name
}

/// Texts for the fallback: (source, target) → texts.
pub(in crate::translate) type Fallen = BTreeMap<(String, Lang), Vec<Need>>;

/// The finishing's golden file: engine answers recorded once (Apertium's,
/// to real Madrid texts prepared as a run prepares them) with what
/// finishing made of them and under which `lang::FINISH_VERSION`. The test
/// needs no engine. It fails when finishing now writes another text for a
/// recorded answer while `FINISH_VERSION` is still the recorded one: a
/// change of output must raise the version (so that the next run finishes
/// the stored answers again, asking the engine nothing). Whoever changes
/// finishing's output (`finish`, or the `data/lang` files it reads):
/// raise `FINISH_VERSION` in src/translate/lang.rs by one, then record the
/// file again with
/// `CITYVIBE_RECORD_GOLDEN=1 cargo test --lib finish_golden -- --ignored`
/// (needs Apertium), and commit both.
#[cfg(test)]
mod finish_golden {
    use super::*;
    use crate::translate::lang::FINISH_VERSION;
    use serde_json::{Value, json};

    const GOLDEN: &str = include_str!("../../../tests/golden/finish.jsonl");
    const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/finish.jsonl");

    fn prepared(v: &Value) -> Prepared {
        let strings =
            |k: &str| v[k].as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect()).unwrap_or_default();
        Prepared {
            text: v["text"].as_str().unwrap_or_default().to_string(),
            names: strings("names"),
            terms_used: strings("terms_used"),
            lead: v["lead"].as_str().map(String::from),
            local: strings("local"),
        }
    }

    fn finished(row: &Value) -> String {
        let tgt = Lang::from_code(row["tgt"].as_str().unwrap()).unwrap();
        let field = if row["field"] == "title" { Field::Title } else { Field::Description };
        let plain = row["plain"].as_bool().unwrap();
        finish_answer(&prepared(&row["prepared"]), row["answer"].as_str().unwrap(), tgt, field, (true, plain, false))
    }

    #[test]
    fn finish_golden_a_changed_output_raises_the_finishing_version() {
        let rows: Vec<Value> = GOLDEN.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
        assert!(rows.len() >= 100, "{} recorded answers", rows.len());
        let recorded = rows[0]["version"].as_u64().unwrap();
        let changed: Vec<String> = rows
            .iter()
            .filter(|r| finished(r) != r["finished"].as_str().unwrap())
            .map(|r| format!("{} {}: {:?} -> {:?}", r["tgt"], r["field"], r["finished"].as_str().unwrap(), finished(r)))
            .collect();
        if recorded == u64::from(FINISH_VERSION) {
            assert!(
                changed.is_empty(),
                "finishing now writes another text for {} recorded answers, and FINISH_VERSION is still {FINISH_VERSION}: raise it in src/translate/lang.rs, then record tests/golden/finish.jsonl again (see this test's head). First: {}",
                changed.len(),
                changed[0]
            );
        } else {
            panic!(
                "FINISH_VERSION is {FINISH_VERSION}, tests/golden/finish.jsonl was recorded under {recorded}: record it again (see this test's head)"
            );
        }
    }

    /// Records the golden file (see the module's head): Apertium's answers
    /// to the titles and description openings of the first events of the
    /// real 2025-10 Madrid feed, prepared for each target as a run prepares
    /// them without the analyser.
    #[test]
    #[ignore = "records tests/golden/finish.jsonl with Apertium when CITYVIBE_RECORD_GOLDEN=1"]
    fn finish_golden_record() {
        use crate::translate::engines::Translator;
        if std::env::var("CITYVIBE_RECORD_GOLDEN").as_deref() != Ok("1") {
            return;
        }
        let feed =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/realdata/madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json");
        // The feed holds raw control characters inside its strings.
        let raw: String =
            String::from_utf8_lossy(&std::fs::read(feed).unwrap()).chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let graph: Value = serde_json::from_str(&raw).unwrap();
        let mut texts: Vec<(Field, String)> = Vec::new();
        for r in graph["@graph"].as_array().unwrap().iter().take(15) {
            let squeeze = |k: &str| r[k].as_str().unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ");
            texts.push((Field::Title, squeeze("title")));
            let description: String = squeeze("description").chars().take(300).collect();
            if !description.is_empty() {
                texts.push((Field::Description, description));
            }
        }
        let mut engine = crate::translate::engines::apertium::ApertiumTranslator::system().unwrap();
        let mut out = String::new();
        for tgt in [Lang::Ca, Lang::En, Lang::Fr, Lang::Gl, Lang::It, Lang::Pt] {
            let terms = crate::translate::prepare::terms::TermBase::load(None, tgt.as_str()).unwrap();
            for (field, text) in &texts {
                let plain = crate::translate::lang::plain(tgt, *field);
                let known =
                    crate::translate::prepare::Known { running_text: *field == Field::Description, lang: Some(tgt), ..Default::default() };
                let none = crate::translate::prepare::terms::TermBase::default();
                let p = crate::translate::prepare::prepare(text, known, if plain { &none } else { &terms });
                let answer = engine.translate_field("es", tgt.as_str(), *field, std::slice::from_ref(&p.text)).unwrap().remove(0);
                let mut row = json!({
                    "version": FINISH_VERSION, "tgt": tgt.as_str(), "field": field.as_str(), "plain": plain,
                    "prepared": {"text": p.text, "names": p.names, "terms_used": p.terms_used, "lead": p.lead},
                    "answer": answer,
                });
                row["finished"] = json!(finished(&row));
                out.push_str(&serde_json::to_string(&row).unwrap());
                out.push('\n');
            }
        }
        std::fs::write(PATH, out).unwrap();
    }
}
