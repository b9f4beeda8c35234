//! The step that decides what to translate: real Apertium, a real
//! SQLite file, and the run engine storing the project's samples first.
use crate::common::{self, apertium};

use cityvibe::config::Config;
use cityvibe::http::{Client, Limits, Mirror};
use cityvibe::ingest::{RunOptions, run};
use cityvibe::lang::{Lang, SourceLang};
use cityvibe::store::Store;
use cityvibe::translate::engines::Translator;
use cityvibe::translate::engines::apertium::ApertiumTranslator;
use cityvibe::translate::plan::step::Step;
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A real engine whose calls and texts are counted.
struct Counted {
    inner: Box<dyn Translator + Send>,
    calls: Arc<AtomicUsize>,
    texts: Arc<AtomicUsize>,
}

impl Translator for Counted {
    fn engine_id(&self) -> String {
        self.inner.engine_id()
    }
    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> anyhow::Result<Vec<String>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.texts.fetch_add(texts.len(), Ordering::SeqCst);
        self.inner.translate(src, tgt, texts)
    }
    fn supports(&self, src: &SourceLang, tgt: Lang) -> bool {
        self.inner.supports(src, tgt)
    }
}

fn langs() -> Vec<Lang> {
    Lang::ALL.to_vec()
}

/// Store the samples of some sources (offline, through the mirror folder).
fn ingest(store: &mut Store, only: &[&str], mirror: &std::path::Path) {
    let client = Client::new(Some(Mirror::Dir(mirror.to_path_buf())), Limits::default());
    let ledger = common::ledger_beside(store.path());
    let report = run(
        store,
        RunOptions {
            adapters: cityvibe::adapters::ALL,
            config: Config::enable_all(),
            config_path: None,
            only: only.iter().map(|s| s.to_string()).collect(),
            client: &client,
            ledger: &ledger,
            // The samples' real delays (10 s for diba), passed in simulated time.
            clock: &cityvibe::http::SimulatedClock::starting_now(),
            force: true,
        },
    )
    .unwrap();
    for s in &report.sources {
        assert!(matches!(s.status.as_str(), "ok" | "unchanged"), "{s:?}");
    }
}

fn count(store: &Store, sql: &str) -> i64 {
    store.connection().query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Only what changed reaches the engine: a second pass over the same events
/// makes no engine call; a changed description is translated again, alone.
#[test]
fn only_new_or_changed_texts_reach_the_engine() {
    let Some(engine) = apertium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    let src = common::sample("datos.madrid.es");
    let dst = mirror.join("datos.madrid.es/egob/catalogo");
    std::fs::create_dir_all(&dst).unwrap();
    for f in std::fs::read_dir(src.join("egob/catalogo")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dst.join(f.file_name().unwrap())).unwrap();
    }
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    ingest(&mut store, &["madrid"], &mirror);
    let (calls, texts) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut workers =
        vec![Counted { inner: Box::new(engine.with_timeout(Duration::from_secs(60))), calls: calls.clone(), texts: texts.clone() }];
    let first = Step::new(&langs(), &[]).run(&mut store, &mut workers, None, |_| {}).unwrap();
    assert!(first.translated > 0, "{first:?}");
    assert_eq!(first.pending, 0, "{first:?}");
    let texts_first = texts.load(Ordering::SeqCst);
    let stored = count(&store, "SELECT count(*) FROM translations WHERE origin = 'machine'");
    assert_eq!(stored as u64, first.translated);
    // No '*'-marked unknown words, no empty outputs.
    let bad = count(&store, "SELECT count(*) FROM translations WHERE text LIKE '%*%' OR text = ''");
    assert_eq!(bad, 0);

    // Second pass: nothing changed, no engine call.
    calls.store(0, Ordering::SeqCst);
    let second = Step::new(&langs(), &[]).run(&mut store, &mut workers, None, |_| {}).unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 0, "{second:?}");
    assert_eq!((second.translated, second.pending), (0, 0));

    // One description changes at the publisher: that text alone goes again, into the six targets.
    let feed = dst.join("300107-0-agenda-actividades-eventos.json");
    let body = std::fs::read_to_string(&feed).unwrap();
    let ev =
        store.list_events(&Default::default()).unwrap().into_iter().find(|e| e.source == "madrid" && !e.description.is_empty()).unwrap();
    let needle = ev.description.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    assert!(body.contains(&needle), "cannot find {needle:?} in the sample");
    std::fs::write(&feed, body.replacen(&needle, "Nueva función del sábado", 1)).unwrap();
    ingest(&mut store, &["madrid"], &mirror);
    calls.store(0, Ordering::SeqCst);
    texts.store(0, Ordering::SeqCst);
    let third = Step::new(&langs(), &[]).run(&mut store, &mut workers, None, |_| {}).unwrap();
    assert_eq!(third.translated, 6, "{third:?}");
    assert_eq!(texts.load(Ordering::SeqCst), 6, "one text, six targets");
    assert!(texts_first > 6);
}

/// The publisher's own translations (diba's Spanish and English) are used as
/// they are, never machine-translated over.
#[test]
fn publisher_translations_are_kept() {
    let Some(engine) = apertium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    ingest(&mut store, &["diba"], &common::sample(""));
    let before: Vec<(i64, String, String)> = publisher_rows(&store);
    assert!(!before.is_empty());
    let mut workers = vec![engine.with_timeout(Duration::from_secs(60))];
    let stats = Step::new(&langs(), &[]).run(&mut store, &mut workers, None, |_| {}).unwrap();
    assert!(stats.translated > 0);
    assert_eq!(publisher_rows(&store), before);
    let machine_over_publisher = count(
        &store,
        "SELECT count(*) FROM translations t WHERE t.origin = 'machine' AND t.lang IN ('es', 'en')
           AND EXISTS (SELECT 1 FROM translations p WHERE p.event_id = t.event_id AND p.lang = t.lang AND p.field = t.field AND p.origin = 'publisher')",
    );
    assert_eq!(machine_over_publisher, 0);
}

fn publisher_rows(store: &Store) -> Vec<(i64, String, String)> {
    let mut st =
        store.connection().prepare("SELECT event_id, lang, text FROM translations WHERE origin = 'publisher' ORDER BY 1, 2, 3").unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
}

/// An engine that hangs: the events stay stored, untranslated texts are
/// counted as pending, and the next pass with a working engine does them.
#[test]
fn hanging_engine_leaves_events_and_counts_pending() {
    let Some(engine) = apertium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    ingest(&mut store, &["jcyl"], &common::sample(""));
    let events_before = count(&store, "SELECT count(*) FROM events");
    // A modes folder whose es→en pipeline never answers.
    let modes = dir.path().join("modes");
    std::fs::create_dir_all(&modes).unwrap();
    let script = modes.join("hang.sh");
    std::fs::write(&script, "#!/bin/sh\nexec sleep 600\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(modes.join("spa-eng.mode"), format!("'{}'\n", script.display())).unwrap();
    let hung = ApertiumTranslator::new(&modes, "apertium/hung").unwrap().with_timeout(Duration::from_millis(300));
    let mut workers = vec![hung];
    let stats = Step::new(&[Lang::Es, Lang::En], &[]).run(&mut store, &mut workers, None, |_| {}).unwrap();
    assert_eq!(stats.translated, 0);
    assert!(stats.pending > 0, "{stats:?}");
    assert!(stats.error.is_some());
    assert_eq!(count(&store, "SELECT count(*) FROM events"), events_before);
    assert_eq!(count(&store, "SELECT count(*) FROM translations WHERE origin = 'machine'"), 0);
    // Next run, a working engine: the pending texts are done.
    let mut workers = vec![engine.with_timeout(Duration::from_secs(60))];
    let retry = Step::new(&[Lang::Es, Lang::En], &[]).run(&mut store, &mut workers, None, |_| {}).unwrap();
    assert_eq!(retry.translated, stats.pending);
    assert_eq!(retry.pending, 0);
}

/// `run --json` reports translation figures; `events show --lang` names the engine.
#[test]
fn run_reports_translations_and_show_names_the_engine() {
    if apertium().is_none() {
        return;
    }
    let dir = common::workdir(
        "[sources.jcyl]\n[sources.madrid]\nenabled = false\ndisabled_reason = \"test\"\n[sources.esmadrid]\nenabled = false\n[sources.diba]\nenabled = false\n",
    );
    let mirror = common::sample("");
    let out = common::cityvibe(dir.path(), &["--mirror", mirror.to_str().unwrap(), "run", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert!(v["translated"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["translation_pending"], 0);
    let jcyl = v["sources"].as_array().unwrap().iter().find(|s| s["id"] == "jcyl").unwrap();
    assert_eq!(jcyl["translated"], v["translated"]);
    let list = common::cityvibe(dir.path(), &["events", "list", "--json", "--limit", "1", "--at", common::SAMPLES_AT]);
    let events: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let id = format!("jcyl:{}", events[0]["source_event_id"].as_str().unwrap());
    let show = common::cityvibe(dir.path(), &["events", "show", &id, "--lang", "fr", "--json"]);
    let e: serde_json::Value = serde_json::from_slice(&show.stdout).unwrap();
    assert_eq!(e["lang"], "fr");
    assert!(e["text_origin"].as_str().unwrap().starts_with("apertium/"), "{e}");
    assert_ne!(e["title"], events[0]["title"]);
}

/// A venue's own name inside a description is kept as it is in every
/// language ("Centro Cultural Gloria Fuertes", not "Cultural Centre Strong Glory").
#[test]
fn venue_names_survive_translation() {
    let Some(engine) = apertium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    ingest(&mut store, &["madrid", "jcyl"], &common::sample(""));
    let mut workers = vec![engine.with_timeout(Duration::from_secs(60))];
    Step::new(&langs(), &[]).run(&mut store, &mut workers, None, |_| {}).unwrap();
    let mut st = store
        .connection()
        .prepare(
            "SELECT e.venue_name, t.lang, t.text FROM events e JOIN translations t ON t.event_id = e.id
             WHERE t.field = 'description' AND e.venue_name IS NOT NULL AND instr(e.description, e.venue_name) > 0",
        )
        .unwrap();
    let rows: Vec<(String, String, String)> =
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
    assert!(rows.len() >= 6, "the samples need a description naming its venue: {rows:?}");
    for (venue, lang, text) in rows {
        assert!(text.contains(&venue), "{lang}: {venue:?} lost in {text:?}");
    }
}
