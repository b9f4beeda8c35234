//! The ingest benchmark (issue 2; `cargo bench --bench ingest`, part of
//! `make bench`): throughput, CPU time and peak memory of the real ingest
//! pipeline, beside two references. It prints figures: it is not a pass/fail
//! test, not a check of what is stored (the tests are), and not shipped
//! (under `cargo test` it only says how to run it).
//!
//! For the real Madrid JSON (read in place from `../shared/realdata`) and for
//! a generated feed in the same JSON-LD schema (100 000 events, about 180 MB,
//! written at bench time into a temporary folder), it runs, each as a child
//! process whose peak RSS comes from `wait4`:
//!
//! * **cityvibe**: the release binary, `run --source madrid --mirror DIR` on a
//!   fresh database: spool, parse, normalize, scrub, store, as cron runs it;
//! * **floor**: this benchmark's executable again (`--floor FEED DB`): a bare typed serde parse
//!   with borrowed strings and one prepared insert per event into a single
//!   table, in one transaction;
//! * **python**: `benches/python_floor.py`, the same minimal job in plain
//!   Python (json.loads(strict=False) + sqlite3 executemany).
//!
//! Targets on the generated feed: cityvibe at least half the floor's events/s
//! and at least 1.5× Python's, with a peak RSS under 2× the feed plus 50 MB.
//! Each job runs `--repeat` rounds (default 3), interleaved, and keeps its
//! fastest: on a shared machine, load elsewhere only ever slows a run down.
//!
//! `cargo bench --bench ingest -- [--events N] [--repeat R] [--no-python] [--keep] [--tmp DIR]`
//! `cargo bench --bench ingest -- --generate FILE [--events N]` writes a feed and stops.

use anyhow::{Context, Result, bail};
use std::borrow::Cow;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
mod support;
use support::{Measure, count_rows, fresh_dir, load_average, run_measured};

const REAL_FEED: &str = "../shared/realdata/madrid_300107/300107-0-agenda-actividades-eventos_2025-10.json";
const MIRROR_PATH: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const MB: f64 = 1024.0 * 1024.0;

fn main() {
    if let Err(e) = real_main() {
        eprintln!("cityvibe-bench: {e:#}");
        std::process::exit(1);
    }
}

struct Options {
    events: usize,
    repeat: usize,
    python: bool,
    keep: bool,
    tmp: Option<PathBuf>,
}

fn real_main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Hidden: the floor, run as a child so its RSS is its own.
    if args.first().map(String::as_str) == Some("--floor") {
        let [_, feed, db] = args.as_slice() else { bail!("usage: --floor FEED DB (the ingest benchmark runs itself so)") };
        let n = floor(Path::new(feed), Path::new(db))?;
        println!("{n}");
        return Ok(());
    }
    let mut o = Options { events: 100_000, repeat: 3, python: true, keep: false, tmp: None };
    let Some(args) = support::bench_args("ingest", args) else { return Ok(()) };
    let mut generate_only: Option<PathBuf> = None;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--events" => o.events = value("--events")?.parse().context("--events N")?,
            "--repeat" => o.repeat = value("--repeat")?.parse::<usize>().context("--repeat R")?.max(1),
            "--no-python" => o.python = false,
            "--keep" => o.keep = true,
            "--tmp" => o.tmp = Some(PathBuf::from(value("--tmp")?)),
            "--generate" => generate_only = Some(PathBuf::from(value("--generate")?)),
            "-h" | "--help" => {
                println!(
                    "cargo bench --bench ingest -- [--events N] [--repeat R] [--no-python] [--keep] [--tmp DIR]\ncargo bench --bench ingest -- --generate FILE [--events N]"
                );
                return Ok(());
            }
            other => bail!("unknown argument {other:?} (try --help)"),
        }
    }
    if let Some(path) = generate_only {
        let bytes = generate(&path, o.events)?;
        println!("{}: {} events, {:.1} MB", path.display(), o.events, bytes as f64 / MB);
        return Ok(());
    }
    bench(o)
}

// --- the bench -------------------------------------------------------------

/// A row of the table.
struct Row {
    feed: String,
    job: &'static str,
    feed_bytes: u64,
    events: u64,
    m: Measure,
}

impl Row {
    fn rate(&self) -> f64 {
        self.events as f64 / self.m.wall.as_secs_f64()
    }
    fn rss_ratio(&self) -> f64 {
        self.m.max_rss_bytes as f64 / self.feed_bytes as f64
    }
}

struct Tools {
    cityvibe: PathBuf,
    me: PathBuf,
    python: Option<PathBuf>,
    script: PathBuf,
}

fn bench(o: Options) -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let me = std::env::current_exe().context("locating this benchmark's executable")?;
    let cityvibe = support::cityvibe_binary()?;
    let python = if o.python { find_python() } else { None };
    if o.python && python.is_none() {
        eprintln!("cityvibe-bench: python3 not found; the Python row is skipped");
    }
    let tools = Tools { cityvibe, me, python, script: root.join("benches/python_floor.py") };
    let real = std::env::var_os("CITYVIBE_REALDATA").map(PathBuf::from).unwrap_or_else(|| root.join(REAL_FEED));

    let mut b = tempfile::Builder::new();
    b.prefix("cityvibe-bench-");
    let tmp = match &o.tmp {
        Some(d) => b.tempdir_in(d),
        None => b.tempdir(),
    }
    .context("creating a temporary folder")?;
    println!("cityvibe-bench: work folder {}{}", tmp.path().display(), if o.keep { " (kept)" } else { "" });
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!(
        "cityvibe-bench: {cores} cores, load average {}; each figure is a child process (wall time, CPU time, peak RSS from wait4), fastest of {} rounds",
        load_average(),
        o.repeat
    );

    let mut rows: Vec<Row> = Vec::new();

    // The real Madrid JSON: read in place through a symlinked mirror, never copied.
    if real.is_file() {
        let real = real.canonicalize()?;
        let mirror = tmp.path().join("real-mirror");
        let target = mirror.join(MIRROR_PATH);
        std::fs::create_dir_all(target.parent().unwrap())?;
        std::os::unix::fs::symlink(&real, &target)?;
        rows.extend(measure_feed(&tools, tmp.path(), "real Madrid", &mirror, &real, 1001, o.repeat)?);
    } else {
        eprintln!("cityvibe-bench: {} not found; the real-data rows are skipped", real.display());
    }

    // The generated feed.
    let mirror = tmp.path().join("gen-mirror");
    let feed = mirror.join(MIRROR_PATH);
    std::fs::create_dir_all(feed.parent().unwrap())?;
    let t = Instant::now();
    let bytes = generate(&feed, o.events)?;
    println!("cityvibe-bench: generated {} events, {:.1} MB in {:.1} s", o.events, bytes as f64 / MB, t.elapsed().as_secs_f64());
    let label = format!("generated {}k", o.events / 1000);
    rows.extend(measure_feed(&tools, tmp.path(), &label, &mirror, &feed, o.events as u64, o.repeat)?);

    print_table(&rows);
    print_targets(&rows, &label);
    let load: f64 = load_average().split_whitespace().next().and_then(|l| l.parse().ok()).unwrap_or(0.0);
    println!("\nload average now {}", load_average());
    if load > cores as f64 / 2.0 {
        println!("note: other work is running on this machine; wall-clock figures are pessimistic (CPU seconds are steadier)");
    }
    if o.keep {
        let kept = tmp.keep();
        println!("\nkept {}", kept.display());
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq)]
enum Job {
    Cityvibe,
    Floor,
    Python,
}

impl Job {
    fn label(self) -> &'static str {
        match self {
            Job::Cityvibe => "cityvibe run",
            Job::Floor => "floor (serde+rusqlite)",
            Job::Python => "python3 (json+sqlite3)",
        }
    }
}

/// The three jobs on one feed, `repeat` rounds of each, interleaved so that
/// a burst of load elsewhere on the machine hits them alike; each job keeps
/// its fastest round (and the highest peak RSS of its rounds).
fn measure_feed(t: &Tools, tmp: &Path, label: &str, mirror: &Path, feed: &Path, events: u64, repeat: usize) -> Result<Vec<Row>> {
    let feed_bytes = std::fs::metadata(feed)?.len();
    let mut jobs = vec![Job::Cityvibe, Job::Floor];
    if t.python.is_some() {
        jobs.push(Job::Python);
    }
    let mut runs: Vec<Vec<Measure>> = vec![Vec::new(); jobs.len()];
    for _ in 0..repeat {
        for (i, job) in jobs.iter().enumerate() {
            runs[i].push(measure_job(t, tmp, label, mirror, feed, events, *job)?);
        }
    }
    Ok(jobs
        .iter()
        .zip(runs)
        .map(|(job, runs)| {
            let mut m = *runs.iter().min_by_key(|m| m.wall).expect("one run");
            m.max_rss_bytes = runs.iter().map(|m| m.max_rss_bytes).max().unwrap_or(0);
            Row { feed: label.into(), job: job.label(), feed_bytes, events, m }
        })
        .collect())
}

/// One run of one job on a fresh database, checked to have stored every event.
fn measure_job(t: &Tools, tmp: &Path, label: &str, mirror: &Path, feed: &Path, events: u64, job: Job) -> Result<Measure> {
    let work = fresh_dir(tmp, "work")?;
    let db = work.join("bench.db");
    let (cmd, what, count_sql) = match job {
        // cityvibe as cron runs it: config, fresh database, the mirror, and
        // a host ledger of its own, so that neither the machine's ledger nor
        // the previous round's request adds a polite delay to the timing.
        Job::Cityvibe => {
            std::fs::write(work.join("sources.toml"), "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n")?;
            let mut cmd = Command::new(&t.cityvibe);
            cmd.arg("--db").arg(&db).arg("--config").arg(work.join("sources.toml")).arg("--mirror").arg(mirror);
            cmd.arg("--state-dir").arg(work.join("state"));
            cmd.args(["run", "--source", "madrid", "--json", "--no-translate"]).current_dir(&work);
            (cmd, "cityvibe", "SELECT count(*) FROM events WHERE source = 'madrid' AND status = 'active'")
        }
        // The floor: this binary again, typed serde + one prepared insert per event.
        Job::Floor => {
            let mut cmd = Command::new(&t.me);
            cmd.arg("--floor").arg(feed).arg(&db);
            (cmd, "floor", "SELECT count(*) FROM events")
        }
        Job::Python => {
            let mut cmd = Command::new(t.python.as_ref().expect("python found"));
            cmd.arg(&t.script).arg(feed).arg(&db);
            (cmd, "python", "SELECT count(*) FROM events")
        }
    };
    let (m, stdout) = run_measured(cmd, &work, what)?;
    check_count(what, label, count_rows(&db, count_sql)?, events, &stdout)?;
    std::fs::remove_dir_all(&work)?;
    Ok(m)
}

fn check_count(job: &str, feed: &str, stored: u64, expected: u64, stdout: &str) -> Result<()> {
    if stored != expected {
        bail!("{job} on {feed}: stored {stored} events, expected {expected}; its output:\n{stdout}");
    }
    Ok(())
}

/// The real interpreter behind `python3` (not a pyenv shim, whose start-up would be timed).
fn find_python() -> Option<PathBuf> {
    let out = Command::new("python3").args(["-c", "import sys; print(sys.executable)"]).stderr(Stdio::null()).output().ok()?;
    let p = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && p.is_file()).then_some(p)
}

fn print_table(rows: &[Row]) {
    println!();
    println!(
        "{:<14} {:<24} {:>8} {:>8} {:>8} {:>8} {:>10} {:>9} {:>8}",
        "feed", "job", "size MB", "events", "seconds", "cpu s", "events/s", "peak MB", "RSS/feed"
    );
    let mut last = "";
    for r in rows {
        if !last.is_empty() && last != r.feed {
            println!();
        }
        last = &r.feed;
        println!(
            "{:<14} {:<24} {:>8.1} {:>8} {:>8.3} {:>8.3} {:>10.0} {:>9.1} {:>7.2}×",
            r.feed,
            r.job,
            r.feed_bytes as f64 / MB,
            r.events,
            r.m.wall.as_secs_f64(),
            r.m.cpu.as_secs_f64(),
            r.rate(),
            r.m.max_rss_bytes as f64 / MB,
            r.rss_ratio()
        );
    }
}

fn print_targets(rows: &[Row], label: &str) {
    let find = |job: &str| rows.iter().find(|r| r.feed == label && r.job.starts_with(job));
    let Some(ours) = find("cityvibe") else { return };
    println!("\ntargets on the {label} feed:");
    let verdict = |ok: bool| if ok { "PASS" } else { "MISS" };
    if let Some(f) = find("floor") {
        let want = f.rate() / 2.0;
        println!(
            "  {}  events/s ≥ half the floor's:   {:>8.0} vs ≥ {:>8.0}  ({:.2}× the floor)",
            verdict(ours.rate() >= want),
            ours.rate(),
            want,
            ours.rate() / f.rate()
        );
    }
    if let Some(p) = find("python3") {
        let want = p.rate() * 1.5;
        println!(
            "  {}  events/s ≥ 1.5× Python's:      {:>8.0} vs ≥ {:>8.0}  ({:.2}× Python)",
            verdict(ours.rate() >= want),
            ours.rate(),
            want,
            ours.rate() / p.rate()
        );
    } else {
        println!("  ----  events/s ≥ 1.5× Python's: no Python row");
    }
    let cap = 2.0 * ours.feed_bytes as f64 + 50.0 * MB;
    println!(
        "  {}  peak RSS < 2× feed + 50 MB:    {:>6.1} MB vs < {:>6.1} MB  ({:.2}× the feed)",
        verdict((ours.m.max_rss_bytes as f64) < cap),
        ours.m.max_rss_bytes as f64 / MB,
        cap / MB,
        ours.rss_ratio()
    );
}

// --- the floor ---------------------------------------------------------------

#[derive(serde::Deserialize)]
struct FloorDoc<'a> {
    #[serde(borrow, rename = "@graph")]
    graph: Vec<FloorEvent<'a>>,
}

#[derive(serde::Deserialize)]
struct FloorEvent<'a> {
    #[serde(borrow, default)]
    id: Cow<'a, str>,
    #[serde(borrow, default)]
    title: Cow<'a, str>,
    #[serde(borrow, default)]
    description: Cow<'a, str>,
    #[serde(default)]
    free: Option<i64>,
    #[serde(borrow, default)]
    price: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    dtstart: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    dtend: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    time: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "excluded-days")]
    excluded: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    recurrence: Option<FloorRecurrence<'a>>,
    #[serde(borrow, default)]
    link: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "event-location")]
    venue: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    address: Option<FloorAddress<'a>>,
    #[serde(default)]
    location: Option<FloorGeo>,
    #[serde(borrow, default, rename = "@type")]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    audience: Option<Cow<'a, str>>,
}

#[derive(serde::Deserialize)]
struct FloorRecurrence<'a> {
    #[serde(borrow, default)]
    days: Option<Cow<'a, str>>,
}

#[derive(serde::Deserialize)]
struct FloorAddress<'a> {
    #[serde(borrow, default)]
    district: Option<FloorId<'a>>,
    #[serde(borrow, default)]
    area: Option<FloorArea<'a>>,
}

#[derive(serde::Deserialize)]
struct FloorId<'a> {
    #[serde(borrow, default, rename = "@id")]
    id: Option<Cow<'a, str>>,
}

#[derive(serde::Deserialize)]
struct FloorArea<'a> {
    #[serde(borrow, default)]
    locality: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "postal-code")]
    postal_code: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "street-address")]
    street: Option<Cow<'a, str>>,
}

#[derive(serde::Deserialize)]
struct FloorGeo {
    #[serde(default)]
    latitude: Option<f64>,
    #[serde(default)]
    longitude: Option<f64>,
}

/// Same table as benches/python_floor.py.
const FLOOR_TABLE: &str = "CREATE TABLE events (
    id TEXT, title TEXT, description TEXT, free INTEGER, price TEXT,
    dtstart TEXT, dtend TEXT, time TEXT, excluded TEXT, days TEXT,
    link TEXT, venue TEXT, street TEXT, locality TEXT, postal_code TEXT,
    district TEXT, lat REAL, lon REAL, type TEXT, audience TEXT)";

/// The floor: read the file, make it strict JSON, parse it typed and borrowed,
/// insert one row per event with one prepared statement in one transaction.
fn floor(feed: &Path, db: &Path) -> Result<usize> {
    let mut json = std::fs::read(feed).with_context(|| format!("reading {}", feed.display()))?;
    // The feed's raw line breaks inside strings: every control byte becomes a
    // space (outside strings they are whitespace anyway). One flat pass.
    for b in json.iter_mut() {
        if *b < 0x20 {
            *b = b' ';
        }
    }
    let doc: FloorDoc = serde_json::from_slice(&json).context("parsing the feed")?;
    let mut conn = rusqlite::Connection::open(db)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch(FLOOR_TABLE)?;
    let tx = conn.transaction()?;
    {
        let mut st = tx.prepare(
            "INSERT INTO events VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
        )?;
        for e in &doc.graph {
            let area = e.address.as_ref().and_then(|a| a.area.as_ref());
            let district = e.address.as_ref().and_then(|a| a.district.as_ref()).and_then(|d| d.id.as_deref());
            st.execute(rusqlite::params![
                e.id,
                e.title,
                e.description,
                e.free,
                e.price,
                e.dtstart,
                e.dtend,
                e.time,
                e.excluded,
                e.recurrence.as_ref().and_then(|r| r.days.as_deref()),
                e.link,
                e.venue,
                area.and_then(|a| a.street.as_deref()),
                area.and_then(|a| a.locality.as_deref()),
                area.and_then(|a| a.postal_code.as_deref()),
                district,
                e.location.as_ref().and_then(|l| l.latitude),
                e.location.as_ref().and_then(|l| l.longitude),
                e.kind,
                e.audience,
            ])?;
        }
    }
    tx.commit()?;
    Ok(doc.graph.len())
}

// --- the generated feed ------------------------------------------------------

/// splitmix64: deterministic, so every bench run sees the same feed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// 0..n
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `p` percent.
    fn pct(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

const CONTEXT: &str = r#"{
	"@context": {
		"c": "http://www.w3.org/2002/12/cal#",
		"dcterms": "http://purl.org/dc/terms/",
		"geo": "http://www.w3.org/2003/01/geo/wgs84_pos#",
		"loc": "http://purl.org/ctic/infraestructuras/localizacion#",
		"org": "http://purl.org/ctic/infraestructuras/organizacion#",
		"vcard": "http://www.w3.org/2006/vcard/ns#",
		"schema": "https://schema.org/",
		"title": "vcard:fn",
		"id": "dcterms:identifier",
		"relation": "dcterms:relation",
		"references": "dcterms:references",
		"address": "vcard:adr",
		"area": "loc:barrio",
		"district": "loc:distrito",
		"locality": "vcard:locality",
		"postal-code": "vcard:postal-code",
		"street-address": "vcard:street-address",
		"location": "vcard:geo",
		"latitude": "geo:lat",
		"longitude": "geo:long",
		"organization": "vcard:org",
		"organization-desc": "dcterms:description",
		"accesibility": "org:accesibilidad",
		"services": "org:servicios",
		"schedule": "org:horario",
		"organization-name": "vcard:organization-name",
		"description": "c:summary",
		"link": "c:url",
		"uid": "c:uid",
		"dtstart": "c:dtstart",
		"dtend": "c:dtend",
		"time": "c:time",
		"excluded-days": "c:exdate",
		"event-location": "c:location",
		"free": "schema:free",
		"price": "c:resource",
		"recurrence": "c:rrule",
		"days": "c:byday",
		"frequency": "c:freq",
		"interval": "c:interval",
		"audience": "dc:audience"
	},
	"@graph": [
"#;

/// (venue, street, postal code, district, barrio, lat, lon, entity id)
type Venue = (&'static str, &'static str, &'static str, &'static str, &'static str, f64, f64, u32);
const VENUES: &[Venue] = &[
    (
        "Centro Cultural San Francisco La Prensa (Carabanchel)",
        "CALLE ALISEDA 4",
        "28025",
        "Carabanchel",
        "PuertaBonita",
        40.376914,
        -3.741625,
        4703422,
    ),
    ("Fernán Gómez Centro Cultural de la Villa", "PLAZA COLON 4", "28001", "Salamanca", "Recoletos", 40.424972, -3.689948, 1915),
    ("Centro de Cultura Contemporánea Conde Duque", "CALLE CONDE DUQUE 9", "28015", "Centro", "Universidad", 40.427399, -3.710589, 1916),
    (
        "Auditorio y sala de exposiciones Paco de Lucía (Latina)",
        "AVENIDA AGUILAS 2",
        "28044",
        "Latina",
        "Aguilas",
        40.384514,
        -3.772531,
        139451,
    ),
    (
        "Biblioteca Pública Municipal Eugenio Trías. Casa de Fieras de El Retiro",
        "PASEO FISAC 2",
        "28009",
        "Retiro",
        "Jeronimos",
        40.417731,
        -3.680164,
        9370141,
    ),
    ("Centro Cultural Moncloa", "PLAZA MONCLOA 1", "28008", "Moncloa-Aravaca", "Arguelles", 40.434870, -3.718910, 7120),
    ("Centro Intergeneracional Ouka Leele", "CALLE ALCALA 211", "28028", "SalamancaSur", "Guindalera", 40.430052, -3.665103, 12546),
    ("Teatro Español", "CALLE PRINCIPE 25", "28012", "Centro", "Cortes", 40.414641, -3.700161, 2120),
    ("Matadero Madrid", "PASEO CHOPERA 14", "28045", "Arganzuela", "Legazpi", 40.391926, -3.697498, 1923),
    ("Centro Cultural Buenavista (Salamanca)", "AVENIDA TOREROS 5", "28028", "Salamanca", "Guindalera", 40.430830, -3.667420, 4702),
    ("Biblioteca Pública Municipal Iván de Vargas (Centro)", "CALLE SAN JUSTO 5", "28005", "Centro", "Palacio", 40.412800, -3.709120, 9234),
    (
        "Centro Sociocultural Clara del Rey (Chamartín)",
        "CALLE PADRE CLARET 11",
        "28002",
        "Chamartin",
        "Prosperidad",
        40.443570,
        -3.671250,
        3311,
    ),
    ("Espacio Abierto Quinta de los Molinos", "CALLE ALCALA 527", "28027", "SanBlas-Canillejas", "Simancas", 40.447420, -3.616400, 10555),
    (
        "Centro Cultural El Pozo del Tío Raimundo (Puente de Vallecas)",
        "AVENIDA GLORIETAS 19",
        "28053",
        "PuentedeVallecas",
        "Entrevias",
        40.377050,
        -3.652690,
        8810,
    ),
    ("Imprenta Municipal - Artes del Libro", "CALLE CONCEPCION JERONIMA 15", "28012", "Centro", "Embajadores", 40.413250, -3.706530, 1899),
    ("Museo de Historia de Madrid", "CALLE FUENCARRAL 78", "28004", "Centro", "Universidad", 40.425600, -3.700050, 1990),
];

const KINDS: &[&str] = &[
    "ProgramacionDestacadaAgendaCultura",
    "CursosTalleres",
    "TeatroPerformance",
    "CineActividadesAudiovisuales",
    "Exposiciones",
    "ConferenciasColoquios",
    "Musica",
    "ExcursionesItinerariosVisitas",
    "DanzaBaile",
    "CuentacuentosTiteresMarionetas",
    "RecitalesPresentacionesActosLiterarios",
    "ClubesLectura",
    "1ciudad21distritos",
    "ActividadesCalleArteUrbano",
    "ConcursosCertamenes",
    "CircoMagia",
    "Musica/JazzSoulFunkySwingReagge",
    "ActividadesDeportivas",
    "DanzaBaile/Flamenco",
    "Fiestas",
];

const AUDIENCES: &[&str] =
    &["Niños", "Mujeres", "Niños,Familias", "Familias", "Mayores", "Jovenes", "Jovenes,Familias,Mayores", "PropietariosdeAnimales"];

const DAY_SETS: &[&str] = &[
    "MO,TU,WE,TH,FR,SA,SU",
    "MO,TU,WE,TH,FR,SA,SU",
    "MO,TU,WE,TH,FR,SA,SU",
    "TU,WE,TH,FR,SA,SU",
    "TH",
    "TU",
    "MO",
    "MO,TU,WE,TH,FR,SA",
    "FR",
    "WE",
    "MO,TU,WE,TH,FR",
    "SA",
    "SA,SU",
    "MO,WE",
    "TU,TH",
];

const TIMES: &[&str] = &[
    "19:00", "19:00", "19:00", "18:00", "11:00", "12:00", "20:00", "10:00", "18:30", "17:00", "09:00", "17:30", "10:30", "19:30", "16:30",
    "13:00",
];

const TITLE_A: &[&str] = &[
    "Concierto",
    "Taller",
    "Club de lectura",
    "Ciclo de cine",
    "Exposición",
    "Visita guiada",
    "Cuentacuentos",
    "Recital",
    "Conferencia",
    "Espectáculo",
    "Encuentro",
    "Jornada",
    "Certamen",
    "Muestra",
    "Itinerario",
    "Teatro",
    "Danza",
    "Presentación del libro",
    "Coloquio",
    "Curso",
];
const TITLE_B: &[&str] = &[
    "de otoño",
    "en familia",
    "para mayores",
    "«La memoria del agua»",
    "de jazz",
    "de flamenco",
    "infantil",
    "'Madrid en verso'",
    "de mariposas urbanas",
    "por el Retiro",
    "sobre Galdós",
    "de títeres",
    "de chotis",
    "de fotografía",
    "intergeneracional",
    "de poesía",
    "de Navidad",
    "de música antigua",
    "«100 Libros juntas»",
    "de cerámica",
    "con Marga Melià",
    "del barrio",
    "de primavera",
    "de cine mudo",
];

const SENTENCES: &[&str] = &[
    "Tras compartir la lectura de casi cien libros a lo largo de una década, cinco mujeres jubiladas deciden celebrar el décimo aniversario de su club de lectura.",
    "Durante esta escapada, reflexionan sobre el impacto que estos encuentros han tenido en sus vidas y debaten sobre temas cotidianos y trascendentales.",
    "Duración: 80 min.",
    "Edad recomendada: a partir de 7 años.",
    "Entrada libre hasta completar aforo.",
    "Imprescindible inscripción previa.",
    "La asignación de plazas de la lista de espera se hará por riguroso orden de inscripción.",
    "Dada la gran demanda de inscripciones, se ruega confirmar la participación una semana antes o su anulación en caso necesario.",
    "¿Conoces la gran cantidad de especies de mariposas que hay en la ciudad? ¿Sabes qué mariposa merodea por tu jardín?",
    "Taller teórico-práctico en colaboración con el Observatorio de Mariposas Urbanas.",
    "La exposición reúne una selección de obras pictóricas, escultóricas y de collage de once artistas contemporáneos.",
    "El plazo de inscripción empieza un mes antes de la fecha de realización a las 10:00, salvo los lunes, que el centro cierra.",
    "Las inscripciones enviadas fuera del horario del centro no se tendrán en cuenta.",
    "Aforo máximo: 25 personas.",
    "Actividad gratuita; no se admiten núcleos familiares de más de 4 miembros.",
    "Con presentación a cargo de la autora y coloquio posterior con el público.",
    "Dirigida por Marga Melià; distintivo «Especialmente recomendada para el fomento de la igualdad de género».",
    "Un recorrido por la historia del barrio, sus calles, sus oficios y sus fiestas populares.",
    "Música en directo a cargo de la Banda Sinfónica Municipal de Madrid.",
    "Apertura de puertas media hora antes del inicio. Se ruega puntualidad.",
    "Las entradas pueden adquirirse en la taquilla del teatro de martes a domingo, de 11:30 a 14:00 y de 17:00 a 20:00 h.",
    "Accesible para personas con movilidad reducida; bucle magnético en la sala.",
    "Proyección en versión original subtitulada al castellano.",
    "Actividad incluida en el programa «1 ciudad, 21 distritos» del Ayuntamiento de Madrid.",
];

/// Typography of the real feed (per 1 000 events there: ~330 no-break
/// spaces, ~45 curly quotes, ~30 ellipses, ~25 narrow no-break spaces, ~25
/// dashes, ~15 bullets; byte-order marks and decomposed accents, rarer, are
/// added on their own in `description`).
const TYPOGRAPHY: &[&str] = &[
    "Duración:\u{a0}90\u{a0}min.",
    "Reservas:\u{a0}en taquilla\u{a0} /\u{a0} en la web.",
    "Organiza: Asociación Cultural l’Escena – entrada libre hasta completar aforo…",
    "Horario:\u{202f}de martes a domingo, de 10:00 a 14:00.",
    "• Sábado: visita guiada. • Domingo: taller infantil.",
    "Ciclo «Madrid en verso» — ‘Poesía en la plaza’.",
    "● Plazas limitadas.",
];

const EMAILS: &[&str] = &[
    "inforetiro@madrid.es",
    "taquilla.fernangomez@teatrofernangomez.es",
    "cclavapies@madrid.es",
    "reservas@mataderomadrid.org",
    "bibliotecas (arroba) madrid.es",
];
const PHONES: &[&str] =
    &["91 376 91 97", "917109263", "917 109 260 / 917 100 558", "+34 600 11 22 33", "91 318 47 33 /734", "(+34) 913 184 700"];

fn json_escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
}

/// A description of varied length: real-looking sentences, some contact data
/// (to be scrubbed), a few entities and tags, and now and then a raw line
/// break (the feed's quirk: not valid JSON, not escaped).
fn description(r: &mut Rng, out: &mut String) {
    if r.pct(22) {
        return;
    }
    // Mostly short, a long tail up to ~4 000 characters (like the real feed).
    let sentences = if r.pct(12) { 8 + r.below(25) } else { 1 + r.below(5) };
    for i in 0..sentences {
        if i > 0 {
            out.push_str(if r.pct(8) { "  " } else { " " });
        }
        let s = if r.pct(12) { *r.pick(TYPOGRAPHY) } else { *r.pick(SENTENCES) };
        if r.pct(3) {
            out.push_str("&lt;p&gt;");
            json_escape(out, s);
            out.push_str("&lt;/p&gt;");
        } else if r.pct(2) {
            out.push_str("<p>");
            json_escape(out, &s.replace("á", "&aacute;").replace("ó", "&oacute;"));
            out.push_str("</p>");
        } else {
            json_escape(out, s);
        }
    }
    if r.below(1000) < 3 {
        out.push_str(" Caf\u{e9} y tertulia (cafe\u{301} literario, con acento descompuesto).");
    }
    if r.below(1000) < 5 {
        out.push_str(" \u{feff}Programa sujeto a cambios.");
    }
    if r.below(1000) < 3 {
        // The feed's quirk: a raw line break inside the string, sometimes Windows-style.
        out.push_str(if r.pct(50) { "\n" } else { "\r\n" });
        out.push_str("Consulte la programación completa.");
    }
    if r.pct(7) {
        out.push_str(" Reservas en el correo ");
        out.push_str(r.pick::<&str>(EMAILS));
        out.push('.');
    }
    if r.pct(9) {
        out.push_str(" Información: teléfono ");
        out.push_str(r.pick::<&str>(PHONES));
        out.push('.');
    }
    if r.pct(2) {
        out.push_str(" Más información en https://www.madrid.es/cultura/agenda/imagen-cartel.jpg y en la web del centro.");
    }
}

fn date_str(d: (i32, u32, u32)) -> String {
    format!("{:04}-{:02}-{:02}", d.0, d.1, d.2)
}

/// Days since 2025-01-01 → (y, m, d), for 2025–2027.
fn civil(mut day: u32) -> (i32, u32, u32) {
    let mut y = 2025;
    loop {
        let len = if y % 4 == 0 { 366 } else { 365 };
        if day < len {
            break;
        }
        day -= len;
        y += 1;
    }
    let feb = if y % 4 == 0 { 29 } else { 28 };
    let months = [31, feb, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut m = 0;
    while day >= months[m] {
        day -= months[m];
        m += 1;
    }
    (y, m as u32 + 1, day + 1)
}

/// Write a feed of `n` events in the real feed's JSON-LD shape; its size in bytes.
fn generate(path: &Path, n: usize) -> Result<u64> {
    let file = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut r = Rng(0x00C1_7E5B_E4C4_0002);
    let mut rec = String::with_capacity(16 * 1024);
    w.write_all(CONTEXT.as_bytes())?;
    for i in 0..n {
        rec.clear();
        let id = 50_000_000 + i as u64 * 7;
        let title =
            format!("{} {}{}", r.pick(TITLE_A), r.pick(TITLE_B), if r.pct(30) { format!(" ({})", 1 + r.below(30)) } else { String::new() });
        let slug: String = title.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        let kind = *r.pick(KINDS);
        let (venue, street, cp, district, barrio, lat, lon, ent) = *r.pick(VENUES);
        // Start days weighted to the autumn, as in the October 2025 file.
        let start_day = if r.pct(80) { 273 + r.below(70) } else { 240 + r.below(300) } as u32;
        let recurring = r.pct(36);
        let (time, span) = if recurring {
            let span = match r.below(100) {
                0..25 => 1 + r.below(7),
                25..70 => 8 + r.below(24),
                70..87 => 32 + r.below(89),
                _ => 121 + r.below(180),
            };
            (if r.pct(40) { *r.pick(TIMES) } else { "" }, span as u32)
        } else {
            (if r.pct(85) { *r.pick(TIMES) } else { "" }, 0)
        };
        let start = civil(start_day);
        let end = civil(start_day + span);
        let start_time = if time.is_empty() { "00:00" } else { time };
        let end_time = if r.pct(1) { "22:59" } else { "23:59" };

        rec.push_str("\t{\n");
        rec.push_str(&format!("\t\t\"@id\": \"https://datos.madrid.es/egob/catalogo/tipo/evento/{id}-{slug}.json\",\n"));
        if r.pct(90) {
            rec.push_str(&format!("\t\t\"@type\": \"https://datos.madrid.es/egob/kos/actividades/{kind}\",\n"));
        }
        rec.push_str(&format!("\t\t\"id\": \"{id}\",\n\t\t\"title\": \""));
        json_escape(&mut rec, &title);
        rec.push_str("\",\n\t\t\"description\": \"");
        description(&mut r, &mut rec);
        let free = r.pct(74);
        rec.push_str(&format!("\",\n\t\t\"free\": {},\t\t\n\t\t\"price\": \"", free as u8));
        if !free && r.pct(40) {
            rec.push_str(&format!("{} euros", 2 + r.below(30)));
            if r.pct(2) {
                rec.push_str("\n(anticipada)");
            }
        }
        rec.push_str(&format!(
            "\",\n\t\t\"dtstart\": \"{} {start_time}:00.0\",\n\t\t\"dtend\": \"{} {end_time}:00.0\",\n\t\t\"time\": \"{time}\",\n\t\t\"excluded-days\": \"",
            date_str(start),
            date_str(end)
        ));
        if recurring && span > 7 && r.pct(15) {
            for k in 0..1 + r.below(4) {
                let d = civil(start_day + 1 + ((k as u32 * 7 + r.below(5) as u32) % span));
                rec.push_str(&format!("{}/{}/{};", d.2, d.1, d.0));
            }
        }
        rec.push_str("\",\n");
        if recurring {
            rec.push_str(&format!(
                "\t\t\"recurrence\": {{\n\t\t\t\"days\": \"{}\",\n\t\t\t\"frequency\": \"WEEKLY\",\n\t\t\t\"interval\": 1\n\t\t}},\n",
                r.pick(DAY_SETS)
            ));
        }
        if r.pct(31) {
            rec.push_str(&format!("\t\t\"audience\": \"{}\",\n", r.pick(AUDIENCES)));
        }
        let oid = r.next();
        rec.push_str(&format!(
            "\t\t\"uid\": \"{id}\",\n\t\t\"link\": \"http://www.madrid.es/sites/v/index.jsp?vgnextchannel=ca9671ee4a9eb410VgnVCM100000171f5a0aRCRD&vgnextoid={oid:016x}9910VgnVCM100000891ecb1aRCRD\",\n\t\t\"event-location\": \""
        ));
        json_escape(&mut rec, venue);
        if r.below(1000) < 3 {
            rec.push_str(".\nSala 2");
        }
        rec.push_str(&format!(
            "\",\n\t\t\"references\": {{\n\t\t\t\"@id\": \"http://www.madrid.es/sites/v/index.jsp?vgnextchannel=ca9671ee4a9eb410VgnVCM100000171f5a0aRCRD&vgnextoid={:016x}edd371910VgnVCM2000001f4a900aRCRD\"\n\t\t}}",
            r.next()
        ));
        if r.pct(90) {
            let jitter = |r: &mut Rng| (r.unit() - 0.5) * 0.002;
            let (la, lo) = (lat + jitter(&mut r), lon + jitter(&mut r));
            rec.push_str(&format!(
                ",\n\t\t\t\"relation\": {{\n\t\t\t\t\"@id\": \"https://datos.madrid.es/egob/catalogo/tipo/entidadesyorganismos/{ent}-centro.json\"\n\t\t\t}},\n\
                 \t\t\t\t\"address\": {{\n\t\t\t\t\t\"district\": {{\n\t\t\t\t\t\t\"@id\": \"https://datos.madrid.es/egob/kos/Provincia/Madrid/Municipio/Madrid/Distrito/{district}\"\n\t\t\t\t\t}},\n\
                 \t\t\t\t\t\t\"area\": {{\n\t\t\t\t\t\t\t\"@id\": \"https://datos.madrid.es/egob/kos/Provincia/Madrid/Municipio/Madrid/Distrito/{district}/Barrio/{barrio}\",\n\
                 \t\t\t\t\t\t\t\"locality\": \"MADRID\",\t\t\n\t\t\t\t\t\t\t\"postal-code\": \"{cp}\",\n\t\t\t\t\t\t\t\"street-address\": \"{street}\"\n\t\t\t\t\t}}\n\t\t\t\t}},\n\
                 \t\t\t\"location\": {{\n\t\t\t\t\"latitude\": {la},\n\t\t\t\t\"longitude\": {lo}\n\t\t\t}},\t\t \n\
                 \t\t\t\"organization\": {{\n\t\t\t\"organization-name\": \"{venue}\",\n\t\t\t\"accesibility\": \"1\"\n\t\t}}"
            ));
        }
        rec.push_str(if i + 1 < n { "\n\t},\n" } else { "\n\t}\n" });
        w.write_all(rec.as_bytes())?;
    }
    w.write_all(b"\t]\n}\n")?;
    w.flush()?;
    Ok(std::fs::metadata(path)?.len())
}
