//! What to translate, and the cache: only new or changed texts reach an
//! engine; the publisher's own translations are never machine-translated
//! over; a failing engine leaves texts pending for the next run, never loses
//! an event.
//!
//! Each text is prepared per target (`prepare`: names kept, the term base
//! applied), sent, and put in house style (`finish`). The cache key (`need`)
//! names the prepared text, the engine, a digest of the language data and
//! house-style code (`lang::digest`) and the term entries that matched, so a
//! changed term base re-translates only the texts it touches. A text over the
//! size limit is cut at a sentence end before it is sent. Texts go out batch by
//! batch (`batches`): a text an engine fails on while others pass is sent
//! alone, after the others, with a growing wait, and skipped after
//! [`MAX_FAILURES`], so one text never holds back the rest. What the engine
//! fails on goes to the fallback engine when the operator names one
//! (`fallback`).
//!
//! The step is layered, each file importing only the ones below it: `step`
//! holds one step as a value and drives it; this one plans it; under them,
//! in `send`, `fallback` gives the fallback engine what the configured one
//! failed on, `batches` sends texts to an engine, and `need` (a text an
//! engine must translate, its cache key) and `stats` (what the step did)
//! sit under both. Beside them, `configured` starts the engines the
//! settings ask for.
//!
//! A price no set phrase says in a language (`phrases`) is a third text to
//! translate into it; one a phrase says never reaches an engine.
//!
//! Where a publisher gives its own Spanish beside an original in another
//! language (diba: Catalan and Spanish), each language it does not give is
//! translated from that Spanish, not from the original, and says so in its
//! engine's name (`apertium/3.8 via es`, shown as `text_origin`): Spanish is
//! every engine's best-served language, and the publisher's Spanish is a
//! human's.

pub mod configured;
pub mod step;

use crate::lang::{Lang, SourceLang};
use crate::policy::DEFAULT_MAX_CHARS;
use crate::store::Store;
use crate::store::events::text_hash;
use crate::store::memory::MemoryKey;
use crate::store::translations::{Existing, MachineTranslation, SourceText};
use crate::translate::engines::Translator;
use crate::translate::finish::garble::Repair;
use crate::translate::prepare::analyser::{Analyser, Analysis};
use crate::translate::prepare::terms::TermBase;
use crate::translate::prepare::{Known, prepare};
use crate::translate::send::batches::{Asking, MAX_FAILURES, finish_checked};
use crate::translate::send::need::{Fallen, Need, asked_key, field_key, origin_name, prepared_key};
use crate::translate::send::stats::TranslateStats;
use crate::vocab::Field;
use crate::vocab::TextOrigin;
use anyhow::Result;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// How texts are prepared and guarded.
#[derive(Debug, Clone)]
pub struct Options {
    /// The operator's term files (`es-XX.tsv`), replacing the shipped ones.
    pub terms_dir: Option<PathBuf>,
    /// Longest text (in characters) sent to an engine; a longer one is cut
    /// at the last sentence end before it.
    pub max_chars: usize,
}

impl Options {
    /// The options `[settings]` asks for (one mapping for `run` and `translate`).
    pub fn from_settings(settings: &crate::config::Settings) -> Options {
        Options { terms_dir: settings.terms_dir.clone(), max_chars: settings.translate_max_chars.max(1) }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options { terms_dir: None, max_chars: DEFAULT_MAX_CHARS }
    }
}

/// A text as an engine gets it: scrubbed (P5, belt and braces: only
/// scrubbed text ever reaches an engine) and cut at `max` characters; true
/// when cut.
fn sendable(text: &str, max: usize) -> (String, bool) {
    let scrubbed = crate::parse::pii::scrub(text);
    match shorten(&scrubbed, max) {
        Some(cut) => (cut.to_string(), true),
        None => (scrubbed, false),
    }
}

/// Every text of `sources`' active events an engine may translate: titles,
/// descriptions, and prices where no set phrase says them.
pub(in crate::translate) fn texts_for_engines(store: &Store, sources: &[String]) -> Result<Vec<SourceText>> {
    let mut texts = store.texts_to_translate(sources)?;
    texts.extend(store.prices_to_translate(sources)?);
    Ok(texts)
}

/// Whether `t` into `lang` is an engine's work: a price only when no set
/// phrase of `lang` says it (`phrases`); a title or a description always.
pub(in crate::translate) fn needs_engine(t: &SourceText, lang: Lang) -> bool {
    t.field != Field::Price || super::phrases::into(lang).price(&t.text, t.lang.as_str()).is_none()
}

/// The publisher's own current Spanish of texts whose original is in another
/// language, by (event, field): the pivot every language the publisher does not
/// give is translated from.
fn publisher_spanish(store: &Store) -> Result<HashMap<(i64, Field), String>> {
    Ok(store
        .translations_into(Lang::Es)?
        .into_iter()
        .filter(|(_, t)| t.origin == TextOrigin::Publisher && t.current && !t.text.trim().is_empty())
        .map(|(key, t)| (key, t.text))
        .collect())
}

/// Cuts `text` to at most `max` characters at the last sentence end (or,
/// lacking one, the last blank) before the limit.
pub fn shorten(text: &str, max: usize) -> Option<&str> {
    let (limit, _) = text.char_indices().nth(max)?;
    let head = &text[..limit];
    let cut = head
        .char_indices()
        .filter(|&(i, c)| matches!(c, '.' | '!' | '?' | '\n') && head[i + c.len_utf8()..].starts_with(char::is_whitespace))
        .map(|(i, c)| i + c.len_utf8())
        .next_back()
        .or_else(|| head.rfind(char::is_whitespace))
        .unwrap_or(limit);
    Some(&text[..cut])
}

/// What the plan step found: the texts an engine must translate now, those
/// the cache or a human answers, those set aside. Nothing of it is stored yet.
#[derive(Default)]
pub(in crate::translate) struct Plan {
    /// (source lang, target lang) → texts needing an engine.
    pub(in crate::translate) needs: BTreeMap<(SourceLang, Lang), Vec<Need>>,
    pub(in crate::translate) from_cache: Vec<MachineTranslation>,
    /// Human translations of these very texts.
    pub(in crate::translate) human_rows: Vec<HumanRow>,
    /// (source lang, target lang) → texts for the fallback, when there is one.
    pub(in crate::translate) fallen: Fallen,
    /// Target language → texts set aside after [`MAX_FAILURES`] failures.
    pub(in crate::translate) set_aside: BTreeMap<String, u64>,
    pub(in crate::translate) failures: HashMap<String, crate::store::translations::Failure>,
}

/// A human's translation of a text the step meets, stored with the step.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(in crate::translate) struct HumanRow {
    pub(in crate::translate) source_lang: SourceLang,
    pub(in crate::translate) lang: Lang,
    pub(in crate::translate) field: Field,
    pub(in crate::translate) original: String,
    pub(in crate::translate) text: String,
}

/// The term base of each of `langs`; the lines of the operator's files that
/// were skipped go to `stats` (once each).
fn term_bases(options: &Options, langs: &[Lang], stats: &mut TranslateStats) -> Result<HashMap<Lang, TermBase>> {
    let mut terms = HashMap::new();
    for &lang in langs {
        let base = TermBase::load(options.terms_dir.as_deref(), lang.as_str())?;
        for problem in base.problems() {
            if !stats.term_problems.contains(problem) {
                stats.term_problems.push(problem.clone());
            }
        }
        terms.insert(lang, base);
    }
    Ok(terms)
}

/// The plan step: for each text of `sources`' active events and each of
/// `langs`, who answers it (the publisher, a human, the cache, `engines`) and
/// from which text (the original, or the publisher's Spanish); counted in
/// `stats`. Reads only, so `translate status` asks it too.
pub(in crate::translate) fn plan(
    store: &Store,
    engine: &str,
    langs: &[Lang],
    sources: &[String],
    options: &Options,
    has_fallback: bool,
    stats: &mut TranslateStats,
) -> Result<Plan> {
    let mut plan = Plan { failures: store.translation_failures()?, ..Plan::default() };
    let mut planner = Planner::read(store, engine, langs, options, has_fallback, stats)?;
    for t in texts_for_engines(store, sources)? {
        let sent = planner.text_to_send(&t, options.max_chars, langs, stats);
        let known = planner.known(&t, &sent);
        for &lang in langs {
            planner.plan_into(&mut plan, &t, &sent, known, lang, stats)?;
        }
    }
    Ok(plan)
}

/// What the plan step reads once for all its texts: how a text is prepared
/// for the engine (the engine's name, the term bases, the gazetteer, the
/// analysers)
/// and what answers texts already (the translations stored, the humans', the
/// publisher's Spanish).
struct Planner<'a> {
    store: &'a Store,
    engine: String,
    /// Whether the engine is Apertium.
    apertium: bool,
    has_fallback: bool,
    terms: HashMap<Lang, TermBase>,
    /// The term bases of Basque and Catalan originals (`data/terms/eu-XX.tsv`,
    /// `data/terms/ca-XX.tsv`), by original language and target.
    original_terms: HashMap<(&'static str, Lang), TermBase>,
    no_terms: TermBase,
    gazetteer: crate::translate::prepare::gazetteer::Gazetteer,
    /// One analyser per original language for the whole step; none
    /// (capital letters decide) when Apertium's is not installed or fails.
    analysers: HashMap<String, Option<Analyser>>,
    /// The analysers of the modes that translate texts sent plain
    /// (`lang::plain`), by mode ("spa-cat"): what the engine itself reads.
    engine_analysers: HashMap<&'static str, Option<Analyser>>,
    existing: HashMap<(i64, String, Field), Existing>,
    humans: HashMap<MemoryKey, String>,
    now: i64,
    spanish: HashMap<(i64, Field), String>,
}

/// One text as the engines get it: the original, scrubbed and cut, and the
/// publisher's Spanish beside it when there is one (each with whether it was
/// cut); the original's hash; the analyser's reading of the text sent (the
/// publisher's Spanish, else the original).
struct ToSend {
    original: String,
    original_cut: bool,
    pivot: Option<(String, bool)>,
    hash: String,
    analysis: Option<Analysis>,
    /// For each language the text goes to plain (`lang::plain`), the
    /// engine's own analysis of the Spanish it is sent.
    engine_analyses: HashMap<Lang, Analysis>,
}

impl<'a> Planner<'a> {
    /// Reads what the step needs for `langs` with the engine named `engine`;
    /// the lines of the operator's term files that were skipped go to `stats`.
    fn read(
        store: &'a Store,
        engine: &str,
        langs: &[Lang],
        options: &Options,
        has_fallback: bool,
        stats: &mut TranslateStats,
    ) -> Result<Planner<'a>> {
        let terms = term_bases(options, langs, stats)?;
        let gazetteer = crate::translate::prepare::gazetteer::load(options.terms_dir.as_deref())?;
        Ok(Planner {
            store,
            engine: engine.to_string(),
            apertium: crate::vocab::Translator::of_engine(engine) == Some(crate::vocab::Translator::Apertium),
            has_fallback,
            terms,
            original_terms: ["eu", "ca"]
                .into_iter()
                .flat_map(|src| langs.iter().map(move |&l| (src, l)))
                .map(|(src, l)| Ok(((src, l), TermBase::of_original(src, l.as_str())?)))
                .collect::<Result<_>>()?,
            no_terms: TermBase::default(),
            gazetteer,
            analysers: HashMap::new(),
            engine_analysers: HashMap::new(),
            existing: store.existing_translations()?,
            humans: store.human_translations()?,
            now: store.now_ms(),
            spanish: publisher_spanish(store)?,
        })
    }

    /// Text `t` as the engines get it, cut at `max_chars` (counted in
    /// `stats`), with what the analysers read in it for `langs`.
    fn text_to_send(&mut self, t: &SourceText, max_chars: usize, langs: &[Lang], stats: &mut TranslateStats) -> ToSend {
        let (original, original_cut) = sendable(&t.text, max_chars);
        stats.shortened += u64::from(original_cut);
        // Where the publisher gives Spanish beside its original, the languages
        // it does not give are translated from that Spanish: a human's text,
        // and Apertium's best pairs.
        let pivot = (t.lang != "es").then(|| self.spanish.get(&(t.event_id, t.field))).flatten().map(|text| sendable(text, max_chars));
        let hash = text_hash(&t.text);
        // Names are decided by Apertium's analyser on the Spanish sent (original or pivot).
        let analysis = match &pivot {
            Some((text, _)) => analysis_of(&mut self.analysers, "es", text, stats),
            None => analysis_of(&mut self.analysers, t.lang.as_str(), &original, stats),
        };
        // A text sent plain: what its engine's own dictionary reads in the Spanish.
        let spanish = match &pivot {
            Some((text, _)) => Some(text),
            None => (t.lang == "es").then_some(&original),
        };
        let mut engine_analyses = HashMap::new();
        for &lang in langs.iter().filter(|&&l| self.apertium && super::lang::plain(l, t.field)) {
            let (Some(text), Some(route)) = (spanish, crate::translate::engines::routes::route("es", lang.as_str(), Some(t.field))) else {
                continue;
            };
            if let Some(analysis) = engine_analysis(&mut self.engine_analysers, route.modes[0], text, stats) {
                engine_analyses.insert(lang, analysis);
            }
        }
        ToSend { original, original_cut, pivot, hash, analysis, engine_analyses }
    }

    /// What event `t` tells about names, with the analysis of its text.
    fn known<'k>(&'k self, t: &'k SourceText, sent: &'k ToSend) -> Known<'k> {
        Known {
            venue: t.venue.as_deref(),
            locality: t.locality.as_deref(),
            district: t.district.as_deref(),
            gazetteer: Some(&self.gazetteer),
            analysis: sent.analysis.as_ref(),
            running_text: t.field == Field::Description,
            // Basque writes titles in sentence case: a capitalised run is a
            // name ("Amets Arzallus", "Gora Herria"), whatever eu-es makes of it.
            capitals_are_names: t.lang == "eu",
            ..Known::default()
        }
    }

    /// Files text `t` into `lang` in `plan`: nothing when no engine is asked
    /// for it, when the publisher gives it or when it is translated from this
    /// very text, prepared the same way; else a human's translation of it,
    /// the cache's, or the text for an engine ([`Plan::file`]).
    fn plan_into(
        &self,
        plan: &mut Plan,
        t: &SourceText,
        sent: &ToSend,
        known: Known,
        lang: Lang,
        stats: &mut TranslateStats,
    ) -> Result<()> {
        if lang == t.lang || !needs_engine(t, lang) {
            return Ok(());
        }
        let here = self.existing.get(&(t.event_id, lang.to_string(), t.field));
        if here.is_some_and(|e| e.origin == TextOrigin::Publisher) {
            return Ok(());
        }
        // A human translation of this very text wins over any engine.
        if let Some(text) = self.humans.get(&(t.lang.clone(), lang.to_string(), t.field, sent.hash.clone())) {
            if !here.is_some_and(|e| e.origin == TextOrigin::Human && e.source_hash == sent.hash) {
                plan.human_rows.push(HumanRow {
                    source_lang: t.lang.clone(),
                    lang,
                    field: t.field,
                    original: t.text.clone(),
                    text: text.clone(),
                });
            }
            return Ok(());
        }
        let (src, need) = self.need(t, sent, known, lang);
        // Translated from this very text, prepared the same way: nothing to do.
        if here.is_some_and(|e| e.source_hash == need.hash && e.cache_key.as_deref() == Some(need.key.as_str())) {
            return Ok(());
        }
        if let Some(cached) = self.store.cached_translation(&need.key)? {
            stats.cache_hits += 1;
            stats.per_source.entry(t.source.clone()).or_default().cache_hits += 1;
            let engine = origin_name(&self.engine, need.route, need.via);
            plan.from_cache.push(MachineTranslation::of(t, lang, cached, engine, &need.hash, need.key));
            return Ok(());
        }
        // What the engine said to this very question, kept: house style is
        // put on it here, and the engine is asked nothing.
        if let Some(answer) = self.store.engine_answer(&need.asked)? {
            let mut recorded = Recorded { store: self.store, engine: &self.engine, field: need.field_key(), route: need.route };
            let mut asked = Vec::new();
            // A second answer replayed is one kept: the referee accepted it then.
            let asking = Asking { engine: &self.engine, asked: &mut asked, referee: None };
            let (text, repair) = finish_checked(&mut recorded, asking, &src, lang, &need, &answer, stats);
            stats.cache_hits += 1;
            stats.per_source.entry(t.source.clone()).or_default().cache_hits += 1;
            let engine = origin_name(&self.engine, need.route, need.via);
            let mut row = MachineTranslation::of(t, lang, text, engine, &need.hash, need.key);
            row.repair = repair.map(Repair::as_str);
            plan.from_cache.push(row);
            return Ok(());
        }
        plan.file(need, (src, lang), self.now, self.has_fallback, stats);
        Ok(())
    }

    /// Text `t` into `lang` as an engine must translate it, and the
    /// language it goes from: the publisher's Spanish when there is one,
    /// else the original; prepared (names kept, the term base applied unless
    /// the pair is plain), with its route and cache key.
    fn need(&self, t: &SourceText, sent: &ToSend, known: Known, lang: Lang) -> (SourceLang, Need) {
        let (src, text, shortened, via) = match &sent.pivot {
            Some((text, cut)) => (SourceLang::from(Lang::Es), text, *cut, Some("es")),
            None => (t.lang.clone(), &sent.original, sent.original_cut, None),
        };
        let base = match src.as_str() {
            "es" => self.terms.get(&lang).unwrap_or(&self.no_terms),
            "eu" => self.original_terms.get(&("eu", lang)).unwrap_or(&self.no_terms),
            "ca" => self.original_terms.get(&("ca", lang)).unwrap_or(&self.no_terms),
            _ => &self.no_terms,
        };
        let plain = self.apertium && src == "es" && super::lang::plain(lang, t.field);
        let known =
            Known { engine_analysis: sent.engine_analyses.get(&lang).filter(|_| plain), ..known_into(known, src.as_str(), lang, t.field) };
        let prepared = prepare(text, known, if plain { &self.no_terms } else { base });
        let route = crate::translate::engines::routes::route(src.as_str(), lang.as_str(), Some(t.field));
        let field = field_key(t.field, shortened, route);
        let asked = asked_key(&prepared.text, route, &field, src.as_str(), lang.as_str(), &self.engine);
        let key = prepared_key(&prepared, &asked, src.as_str(), lang.as_str());
        let need = Need {
            event_id: t.event_id,
            source: t.source.clone(),
            field: t.field,
            words: text.split_whitespace().count() as u64,
            shortened,
            via,
            apertium: self.apertium,
            plain,
            route,
            prepared,
            key,
            asked,
            hash: sent.hash.clone(),
        };
        (src, need)
    }
}

/// The engine's answers kept in the store, standing in for the engine when
/// a stored answer is finished again: a text asked before answers as the
/// engine did; any other fails, as an engine that cannot answer does.
struct Recorded<'a> {
    store: &'a Store,
    engine: &'a str,
    /// The field as the asked key names it (`Need::field_key`).
    field: String,
    /// The text's route, whose own guards the asked key names.
    route: Option<&'static crate::translate::engines::routes::Route>,
}

impl Translator for Recorded<'_> {
    fn engine_id(&self) -> String {
        self.engine.to_string()
    }
    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>> {
        let (src, tgt) = (src.as_str(), tgt.as_str());
        texts
            .iter()
            .map(|text| {
                let key = asked_key(text, self.route, &self.field, src, tgt, self.engine);
                self.store.engine_answer(&key)?.ok_or_else(|| anyhow::anyhow!("no kept answer for this text"))
            })
            .collect()
    }
    fn supports(&self, _src: &SourceLang, _tgt: Lang) -> bool {
        true
    }
}

impl Plan {
    /// Files a text an engine must translate from and into `pair`: for the
    /// engine now, or, after failures, waiting or set aside (for the
    /// fallback when there is one).
    fn file(&mut self, need: Need, pair: (SourceLang, Lang), now: i64, has_fallback: bool, stats: &mut TranslateStats) {
        match self.failures.get(&need.key) {
            Some(f) if f.failures >= MAX_FAILURES => {
                stats.skipped += 1;
                *self.set_aside.entry(pair.1.to_string()).or_default() += 1;
                if has_fallback {
                    self.fallen.entry(pair).or_default().push(need);
                }
            }
            Some(f) if f.next_try_ms > now => {
                if has_fallback {
                    self.fallen.entry(pair).or_default().push(need);
                } else {
                    stats.pending += 1;
                    stats.per_source.entry(need.source.clone()).or_default().pending += 1;
                }
            }
            _ => self.needs.entry(pair).or_default().push(need),
        }
    }
}

/// What the event tells about names, with what the target language asks of
/// a text: an adjective before its noun, titles in sentence case, its ordinals.
fn known_into<'a>(known: Known<'a>, src: &str, lang: Lang, field: Field) -> Known<'a> {
    let adjective_first = super::lang::adjective_first(lang);
    // Sentence case undoes Spanish title case; a Catalan original writes its
    // titles in sentence case already, and a capital there is a name's
    // ("Concert de Nadal", "Ara Poesia").
    let sentence_case = field == Field::Title && super::lang::sentence_case_titles(lang) && src != "ca";
    // Kept runs word by word, where `data/translate/name-words.tsv` says so.
    let name_words = crate::translate::prepare::namewords::splits_from(src, lang, field);
    // Catalan shouts a status in capitals ("ACTIVITAT CANCEL·LADA", "NO S'HA
    // FET"): words the dictionary knows, which the engine translates.
    let capitals_are_headings = src == "ca";
    // The mode the text goes through first, whose dictionary decides which town's name it mistakes for a word.
    let first_mode = crate::translate::engines::routes::first_mode(src, lang.as_str(), field);
    Known { adjective_first, sentence_case, name_words, capitals_are_headings, lang: Some(lang), first_mode, ..known }
}

/// The analysis of `text` by the analyser Apertium's `mode` runs first,
/// starting it on first use; `None` when it is missing or failed on this
/// text (a fresh one is started for the next; counted in `stats`).
fn engine_analysis(
    analysers: &mut HashMap<&'static str, Option<Analyser>>,
    mode: &'static str,
    text: &str,
    stats: &mut TranslateStats,
) -> Option<Analysis> {
    let running = analysers.entry(mode).or_insert_with(|| Analyser::of_mode(mode).ok());
    match running.as_mut()?.analyse(text) {
        Ok(a) => Some(a),
        Err(e) => {
            stats.analyser_failures += 1;
            stats.analyser_error.get_or_insert_with(|| format!("{e:#}"));
            analysers.insert(mode, Analyser::of_mode(mode).ok());
            None
        }
    }
}

/// Apertium's analysis of a `text` in the language coded `code` (Spanish, Catalan or Basque),
/// starting that language's analyser on first use; `None` for other languages, or when the
/// analyser is missing or failed on this text (a fresh one is started for the next; the
/// failure is counted in `stats` and said after the step).
fn analysis_of(analysers: &mut HashMap<String, Option<Analyser>>, code: &str, text: &str, stats: &mut TranslateStats) -> Option<Analysis> {
    if !matches!(code, "es" | "ca" | "eu") {
        return None;
    }
    let lang = code.to_string();
    let running = analysers.entry(lang.clone()).or_insert_with(|| Analyser::system_for_code(code).ok());
    let answer = running.as_mut()?.analyse(text);
    match answer {
        Ok(a) => Some(a),
        Err(e) => {
            stats.analyser_failures += 1;
            stats.analyser_error.get_or_insert_with(|| format!("{e:#}"));
            // A fresh process for the next text; this one goes by capitals.
            analysers.insert(lang, Analyser::system_for_code(code).ok());
            None
        }
    }
}
