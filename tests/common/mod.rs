//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod server;

use cityvibe::adapter::{Adapter, EventSink, Feed, FeedError, Manifest};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `../shared/realdata/<rel>`; `None` (with a notice) when absent outside CI.
/// Under `CI=true` a missing folder fails the test, as the data README asks.
pub fn realdata(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realdata").join(rel);
    if p.exists() {
        return Some(p);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("real data missing under CI: {}", p.display());
    }
    eprintln!("notice: skipping, {} not found", p.display());
    None
}

/// The real feeds at `rels` (under `../shared/realdata`) where every one
/// is there and Apertium is installed, as a test over real records
/// translated needs both; `None` otherwise (announced, as [`realdata`] and
/// [`has_apertium`] do).
pub fn realdata_translated<const N: usize>(rels: [&str; N]) -> Option<[PathBuf; N]> {
    let paths: Vec<PathBuf> = rels.iter().map(|r| realdata(r)).collect::<Option<_>>()?;
    has_apertium().then(|| paths.try_into().unwrap())
}

/// The real Madrid feed of October 2025, under `../shared/realdata`.
pub const MADRID_2025_10: &str = "madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json";
/// The real Andalucía feed of January 2026.
pub const ANDALUCIA_2026_01: &str = "andalucia_agenda/agenda-eventos-junta-andalucia_2026-01.json";
/// The real Catalan agenda of November 2022.
pub const GENCAT_2022_11: &str = "gencat_agenda_cultural/rhpv-yr4f_agenda-cultural-catalunya_2022-11.json";

/// The real Apertium engine; `None`, announced on stderr, when it is
/// missing outside CI. Under `CI=true` a missing Apertium fails the test
/// (scripts/deps.sh installs it). The one check every translation test asks.
pub fn apertium() -> Option<cityvibe::translate::engines::apertium::ApertiumTranslator> {
    match cityvibe::translate::engines::apertium::ApertiumTranslator::system() {
        Ok(t) => Some(t),
        Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
            eprintln!("notice: skipping, no Apertium ({e:#}); run scripts/deps.sh");
            None
        }
        Err(e) => panic!("Apertium missing under CI: {e:#}"),
    }
}

/// A shell stage that does what a pair's data loading on a starved CPU
/// looks like from outside: it works for about 4 s before it passes its
/// input on (`exec cat` after it), in 40 short bursts of CPU with pauses
/// between them (about 1 s of CPU in all).
pub const SLOW_LOADER: &str = "i=0\nwhile [ $i -lt 40 ]; do timeout 0.02 sh -c 'while :; do :; done'; sleep 0.08; i=$((i+1)); done";

/// Whether real Apertium is here, announced as [`apertium`] does.
pub fn has_apertium() -> bool {
    apertium().is_some()
}

/// A file of the project's own samples.
pub fn sample(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/samples").join(rel)
}

/// The moment tests read lists of the project's samples at (`events list
/// --at`): every sample event is then on or still to come, so what a list
/// shows, and in which order, stays the same as the calendar moves past the
/// samples' dates (they end between 2026-11-30 and 2027-01).
pub const SAMPLES_AT: &str = "2026-11-30";

/// The `cityvibe` binary the tests run: this build's, or the one the
/// environment variable `CITYVIBE_TEST_BIN` names, so the same suite can be
/// pointed at another build (an older commit's, to see a test fail there).
pub fn bin() -> PathBuf {
    match std::env::var_os("CITYVIBE_TEST_BIN") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_cityvibe")),
    }
}

/// Run the `cityvibe` binary in `dir` with a clean environment and the
/// test's own host ledger (`dir/state`).
pub fn cityvibe(dir: &Path, args: &[&str]) -> Output {
    command(dir).args(args).output().expect("run cityvibe")
}

/// The `cityvibe` binary, ready to run in `dir`: a cleared environment, and
/// the host ledger in `dir/state`, so no test shares the machine's ledger
/// (or another test's) unless it says so with `--state-dir`.
/// The stdout of a command that must have succeeded; where it did not,
/// the test fails saying its exit code, stdout and stderr.
pub fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout {}\nstderr {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

pub fn command(dir: &Path) -> Command {
    let mut c = Command::new(bin());
    c.current_dir(dir).env_clear().env("PATH", std::env::var("PATH").unwrap_or_default()).env("CITYVIBE_STATE_DIR", state_dir(dir));
    c
}

/// The host ledger's folder of a test working in `dir`.
pub fn state_dir(dir: &Path) -> PathBuf {
    dir.join("state")
}

/// The host ledger of a library-level test whose database is `db`: beside it.
pub fn ledger_beside(db: &Path) -> cityvibe::http::Ledger {
    cityvibe::http::Ledger::open(&state_dir(db.parent().expect("a database in a folder"))).expect("open the test's host ledger")
}

/// A fresh folder with a sources.toml enabling the given sources.
pub fn workdir(sources_toml: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sources.toml"), sources_toml).unwrap();
    dir
}

/// An adapter for tests: a real adapter's parser under a test manifest with
/// short delays, so the suite stays quick while the rules stay the same.
pub struct TestAdapter {
    pub manifest: &'static Manifest,
    pub inner: &'static dyn Adapter,
}

impl Adapter for TestAdapter {
    fn manifest(&self) -> &'static Manifest {
        self.manifest
    }
    fn parse(&self, feed: &Feed, body: &mut dyn BufRead, sink: &mut dyn EventSink) -> Result<(), FeedError> {
        // Parse as the real adapter would parse the same format.
        let real = self.inner.manifest().feeds.iter().find(|f| f.format == feed.format).unwrap_or(feed);
        self.inner.parse(real, body, sink)
    }
}

/// Leak a test manifest derived from the madrid one with another id, host,
/// delay and feeds (tests only).
pub fn madrid_like(id: &'static str, host: &'static str, delay_ms: u64, feeds: &'static [Feed]) -> &'static TestAdapter {
    let base = &cityvibe::adapters::madrid::MANIFEST;
    let manifest: &'static Manifest = Box::leak(Box::new(Manifest {
        id,
        host,
        feeds,
        min_delay: std::time::Duration::from_millis(delay_ms),
        redirects: Box::leak(Box::new([cityvibe::adapter::RedirectRule { host, path_prefix: "/feeds/" }])),
        ..*base
    }));
    Box::leak(Box::new(TestAdapter { manifest, inner: &cityvibe::adapters::madrid::Madrid }))
}

/// A sources.toml with translation off and a row for each of `sources`;
/// `extra` goes into `[settings]`.
pub fn sources_toml(sources: &[&str], extra: &str) -> String {
    let mut t = format!("[settings]\ntranslator = \"none\"\n{extra}");
    for s in sources {
        t.push_str(&format!("[sources.{s}]\n"));
    }
    t
}

/// One forced run of `adapters`, every source enabled, through `client`,
/// kept in the time of `clock`, with a host ledger beside `store`'s file:
/// the library's run as the tests that drive it call it.
pub fn run_forced(
    store: &mut cityvibe::store::Store,
    adapters: &'static [&'static dyn Adapter],
    client: &cityvibe::http::Client,
    clock: &dyn cityvibe::http::Clock,
) -> cityvibe::ingest::RunReport {
    let ledger = ledger_beside(store.path());
    let opts = cityvibe::ingest::RunOptions {
        adapters,
        config: cityvibe::config::Config::enable_all(),
        config_path: None,
        only: vec![],
        client,
        ledger: &ledger,
        clock,
        force: true,
    };
    cityvibe::ingest::run(store, opts).unwrap()
}

/// Put `bytes` in the mirror folder at the feed path `rel`.
pub fn place(mirror: &std::path::Path, rel: &str, bytes: &[u8]) {
    let to = mirror.join(rel);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::write(to, bytes).unwrap();
}

/// A real feed that is one JSON array (Andalucía's, Catalonia's) at `path`
/// cut to its rows whose `key` is one of `ids` (a number or a string; the
/// first row of an id the feed repeats), each passed through `edit`, as
/// bytes a mirror serves. Each id must be there.
pub fn json_rows_cut_to(path: &Path, key: &str, ids: &[&str], edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let mut seen = std::collections::HashSet::new();
    let rows: Vec<serde_json::Value> = serde_json::from_slice::<Vec<serde_json::Value>>(&std::fs::read(path).unwrap())
        .unwrap()
        .into_iter()
        .filter(|r| {
            let id = r[key].to_string().trim_matches('"').to_string();
            ids.contains(&id.as_str()) && seen.insert(id)
        })
        .map(|mut r| {
            edit(&mut r);
            r
        })
        .collect();
    assert_eq!(rows.len(), ids.len(), "every id of {ids:?} in {}", path.display());
    serde_json::to_vec(&rows).unwrap()
}

/// One forced run of each of `sources` from the mirror folder `mirror`,
/// each of which must succeed.
pub fn run_each_from(dir: &Path, mirror: &Path, sources: &[&str]) {
    for source in sources {
        let out = cityvibe(dir, &["--mirror", mirror.to_str().unwrap(), "run", "--force", "--source", source]);
        assert!(out.status.success(), "{source}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// Every stored event in `lang` (withdrawn and past ones too), by source
/// event id, as `events list --json` gives it.
pub fn listed_all(dir: &Path, lang: &str) -> std::collections::HashMap<String, serde_json::Value> {
    let out = cityvibe(dir, &["events", "list", "--all", "--json", "--limit", "1000", "--lang", lang]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let all: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    all.into_iter().map(|e| (e["source_event_id"].as_str().unwrap().to_string(), e)).collect()
}

/// The titles of [`listed_all`].
pub fn titles_all(dir: &Path, lang: &str) -> std::collections::HashMap<String, String> {
    listed_all(dir, lang).into_iter().map(|(id, e)| (id, e["title"].as_str().unwrap_or_default().to_string())).collect()
}

/// Every target's titles of a run in `dir` (`titles_all` of each of the
/// six), read by event id: what the tests of real titles assert on, with
/// the title in each failure's message.
pub struct TitlesByLang(std::collections::HashMap<&'static str, std::collections::HashMap<String, String>>);

impl TitlesByLang {
    pub fn of(dir: &Path) -> TitlesByLang {
        TitlesByLang(["en", "fr", "it", "pt", "ca", "gl"].into_iter().map(|l| (l, titles_all(dir, l))).collect())
    }

    #[track_caller]
    pub fn title(&self, lang: &str, id: &str) -> String {
        self.0.get(lang).and_then(|t| t.get(id)).cloned().unwrap_or_else(|| panic!("{lang} {id}: no title"))
    }

    /// Asserts that event `id`'s title in `lang` holds `want`.
    #[track_caller]
    pub fn has(&self, lang: &str, id: &str, want: &str) {
        let t = self.title(lang, id);
        assert!(t.contains(want), "{lang} {id}: {t:?} lacks {want:?}");
    }

    /// Asserts that event `id`'s title in `lang` does not hold `wrong`.
    #[track_caller]
    pub fn lacks(&self, lang: &str, id: &str, wrong: &str) {
        let t = self.title(lang, id);
        assert!(!t.contains(wrong), "{lang} {id}: {t:?} holds {wrong:?}");
    }
}

/// A record's `field` cut to `chars` characters from the first place it
/// says `opening` (from its start when it never does): the sentence a
/// test of real records reads, with the record otherwise as published.
pub fn field_from(record: &mut serde_json::Value, field: &str, opening: &str, chars: usize) {
    let text = record[field].as_str().unwrap_or_default();
    let from = text.find(opening).unwrap_or(0);
    let sentence: String = text[from..].chars().take(chars).collect();
    record[field] = serde_json::Value::String(sentence);
}

/// The real Madrid feed at `path` cut to the records of `ids` (each must be
/// there), each passed through `edit`, as bytes a mirror serves. The feed
/// has raw line breaks inside strings: they are read as blanks.
pub fn madrid_feed_cut_to(path: &Path, ids: &[&str], edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let raw = std::fs::read_to_string(path).unwrap();
    let mut feed: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&raw.replace('\n', " ")).unwrap();
    let graph: Vec<serde_json::Value> = feed["@graph"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| ids.contains(&r["id"].as_str().unwrap_or_default()))
        .map(|r| {
            let mut r = r.clone();
            edit(&mut r);
            r
        })
        .collect();
    assert_eq!(graph.len(), ids.len(), "every id is in the feed");
    feed.insert("@graph".into(), serde_json::Value::Array(graph));
    serde_json::to_vec(&feed).unwrap()
}

/// `cityvibe --mirror <mirror> run [--source …]` in `dir` as the binary runs
/// it (the folder's sources.toml, its `data/cityvibe.db`, its host ledger
/// in `dir/state`, fetching, storing and translating), but through the
/// library on simulated time: the samples' crawl delays (10 s between
/// diba's three feeds) pass without being waited. For set-ups of tests
/// whose subject is not politeness; the delays themselves are proven on
/// the binary in `polite_*`.
pub fn run_on_simulated_time(dir: &Path, mirror: &Path, only: &[&str]) -> cityvibe::run::RunOutcome {
    use cityvibe::http::{Client, Limits, Mirror, SimulatedClock};
    let config = cityvibe::config::Config::load(&dir.join("sources.toml"), cityvibe::adapters::ALL).expect("the test's sources.toml");
    let db = dir.join("data/cityvibe.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let mut store = cityvibe::store::Store::open(&db).expect("open the test's database");
    let client = Client::new(Some(Mirror::Dir(mirror.to_path_buf())), Limits::default());
    let ledger = cityvibe::http::Ledger::open(&state_dir(dir)).expect("open the test's host ledger");
    let opts = cityvibe::ingest::RunOptions {
        adapters: cityvibe::adapters::ALL,
        config,
        config_path: Some(dir.join("sources.toml")),
        only: only.iter().map(|s| s.to_string()).collect(),
        client: &client,
        ledger: &ledger,
        clock: &SimulatedClock::starting_now(),
        force: false,
    };
    let outcome = cityvibe::run::run(&mut store, opts, true, &mut cityvibe::run::Quiet).expect("the run");
    for s in &outcome.report.sources {
        assert!(!s.status.is_problem(), "{}: {} {}", s.id, s.status, s.message);
    }
    outcome
}

/// CPU time this thread has used so far: what a test bounding the work of
/// a call on its own thread measures, so that its verdict does not depend
/// on how loaded the machine is, as a wall-time verdict does.
pub fn thread_cpu() -> std::time::Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and a timespec to write into.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime: {}", std::io::Error::last_os_error());
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
