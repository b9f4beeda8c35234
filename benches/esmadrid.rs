//! The esmadrid benchmark (`cargo bench --bench esmadrid`, part of
//! `make bench`): throughput and peak RSS of the esmadrid adapter on
//! generated feeds of 5, 50 and 200 MB in the real feed's shape. It prints
//! figures: it is not a pass/fail test, not a check of what is parsed (the
//! tests are), and not shipped (under `cargo test` it only says how to run
//! it). Target: peak RSS flat, under 64 MB whatever the feed size (the body
//! is spooled to a temporary file while hashed, then stream-parsed).
//!
//! Each feed is written into a temporary mirror
//! (`DIR/www.esmadrid.com/opendata/agenda_v1_es.xml`) and taken in by the
//! release binary as cron runs it, as a child process whose wall time, CPU
//! time and peak RSS (`wait4`'s `ru_maxrss`) are its own:
//!
//! `cityvibe --db TMP/db --config TMP/sources.toml --mirror DIR run --source esmadrid --no-translate --json`
//!
//! Beside it, to tell the parser's memory from the store's, this benchmark's
//! executable again as a child (`--parse-only FEED`): the same spool
//! (`Body::spool`, hashing into an anonymous temporary file), the same
//! adapter and the same PII scrub, with a sink that only counts (no
//! database).
//!
//! Finding (2026-11-30): the adapter alone stays flat (about 7 MB at any
//! size); the first run of a large feed does not, because
//! `store::ingest::begin_ingest` raises SQLite's page cache to
//! `INGEST_CACHE_KIB` (64 MiB) for the ingest's transaction, and a feed of
//! more than about 50 MB fills it. The re-run on the same database grows
//! with the number of events instead (`SourceIngest::existing` and `seen`,
//! about 0.3 KB per event), well under the cap.
//!
//! `cargo bench --bench esmadrid -- [--sizes 5,50,200] [--no-parse-only] [--keep] [--tmp DIR]`
//! `cargo bench --bench esmadrid -- --generate FILE --mb N` writes a feed and stops.

use anyhow::{Context, Result, bail};
use cityvibe::adapter::{Adapter, EventSink, RecordError};
use cityvibe::model::Event;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
mod support;
use support::{Measure, Rng, count_rows, fresh_dir, run_measured};

const MIRROR_PATH: &str = "www.esmadrid.com/opendata/agenda_v1_es.xml";
const SAMPLE: &str = "data/samples/www.esmadrid.com/opendata/agenda_v1_es.xml";
const MB: f64 = 1024.0 * 1024.0;
/// The target: peak RSS under this, whatever the feed size.
const RSS_CAP_MB: f64 = 64.0;

fn main() {
    if let Err(e) = real_main() {
        eprintln!("cityvibe-bench-esmadrid: {e:#}");
        std::process::exit(1);
    }
}

struct Options {
    sizes_mb: Vec<u64>,
    parse_only: bool,
    keep: bool,
    tmp: Option<PathBuf>,
}

fn real_main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Hidden: the adapter alone, run as a child so that its RSS is its own.
    if args.first().map(String::as_str) == Some("--parse-only") {
        let [_, feed] = args.as_slice() else { bail!("usage: --parse-only FEED (the esmadrid benchmark runs itself so)") };
        let (events, errors) = parse_only(Path::new(feed))?;
        println!("{events} {errors}");
        return Ok(());
    }
    let Some(args) = support::bench_args("esmadrid", args) else { return Ok(()) };
    let mut o = Options { sizes_mb: vec![5, 50, 200], parse_only: true, keep: false, tmp: None };
    let mut generate_only: Option<PathBuf> = None;
    let mut mb = 5u64;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--sizes" => {
                o.sizes_mb =
                    value("--sizes")?.split(',').map(|s| s.trim().parse::<u64>()).collect::<Result<_, _>>().context("--sizes 5,50,200")?
            }
            "--no-parse-only" => o.parse_only = false,
            "--keep" => o.keep = true,
            "--tmp" => o.tmp = Some(PathBuf::from(value("--tmp")?)),
            "--generate" => generate_only = Some(PathBuf::from(value("--generate")?)),
            "--mb" => mb = value("--mb")?.parse().context("--mb N")?,
            "-h" | "--help" => {
                println!(
                    "cargo bench --bench esmadrid -- [--sizes 5,50,200] [--no-parse-only] [--keep] [--tmp DIR]\ncargo bench --bench esmadrid -- --generate FILE --mb N"
                );
                return Ok(());
            }
            other => bail!("unknown argument {other:?} (try --help)"),
        }
    }
    if let Some(path) = generate_only {
        let (bytes, n) = generate(&path, mb * 1024 * 1024)?;
        println!("{}: {n} services, {:.1} MB", path.display(), bytes as f64 / MB);
        return Ok(());
    }
    bench(o)
}

// --- the bench -------------------------------------------------------------

struct Row {
    feed: String,
    job: &'static str,
    feed_bytes: u64,
    events: u64,
    m: Measure,
}

impl Row {
    fn events_per_s(&self) -> f64 {
        self.events as f64 / self.m.wall.as_secs_f64()
    }
    fn mb_per_s(&self) -> f64 {
        self.feed_bytes as f64 / MB / self.m.wall.as_secs_f64()
    }
    fn peak_mb(&self) -> f64 {
        self.max_rss_bytes_f() / MB
    }
    fn max_rss_bytes_f(&self) -> f64 {
        self.m.max_rss_bytes as f64
    }
}

fn bench(o: Options) -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let me = std::env::current_exe().context("locating this benchmark's executable")?;
    let cityvibe = support::cityvibe_binary()?;
    let mut b = tempfile::Builder::new();
    b.prefix("cityvibe-bench-esmadrid-");
    let tmp = match &o.tmp {
        Some(d) => b.tempdir_in(d),
        None => b.tempdir(),
    }
    .context("creating a temporary folder")?;
    println!("cityvibe-bench-esmadrid: work folder {}{}", tmp.path().display(), if o.keep { " (kept)" } else { "" });
    println!(
        "cityvibe-bench-esmadrid: {} cores; every figure is one child process (wall time, CPU time, peak RSS from wait4)",
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
    );

    let mut rows: Vec<Row> = Vec::new();
    // The project's own sample (16 services): the binary's baseline RSS.
    let sample = root.join(SAMPLE);
    if sample.is_file() {
        let mirror = tmp.path().join("sample-mirror");
        let target = mirror.join(MIRROR_PATH);
        std::fs::create_dir_all(target.parent().unwrap())?;
        std::fs::copy(&sample, &target)?;
        rows.extend(measure_feed(&cityvibe, &me, tmp.path(), "sample", &mirror, &target, None, o.parse_only)?);
        std::fs::remove_dir_all(&mirror)?;
    }
    for &size in &o.sizes_mb {
        let mirror = tmp.path().join(format!("gen-{size}-mirror"));
        let feed = mirror.join(MIRROR_PATH);
        std::fs::create_dir_all(feed.parent().unwrap())?;
        let t = Instant::now();
        let (bytes, n) = generate(&feed, size * 1024 * 1024)?;
        println!("cityvibe-bench-esmadrid: generated {n} services, {:.1} MB in {:.1} s", bytes as f64 / MB, t.elapsed().as_secs_f64());
        rows.extend(measure_feed(&cityvibe, &me, tmp.path(), &format!("{size} MB"), &mirror, &feed, Some(n), o.parse_only)?);
        if !o.keep {
            std::fs::remove_dir_all(&mirror)?;
        }
    }
    print_table(&rows);
    print_targets(&rows);
    if o.keep {
        let kept = tmp.keep();
        println!("\nkept {}", kept.display());
    }
    Ok(())
}

/// `cityvibe run` on one feed, then (optionally) the adapter alone.
#[allow(clippy::too_many_arguments)]
fn measure_feed(
    cityvibe: &Path,
    me: &Path,
    tmp: &Path,
    label: &str,
    mirror: &Path,
    feed: &Path,
    expected: Option<u64>,
    parse_only: bool,
) -> Result<Vec<Row>> {
    let feed_bytes = std::fs::metadata(feed)?.len();
    let mut out = Vec::new();

    let work = fresh_dir(tmp, "run")?;
    std::fs::write(work.join("sources.toml"), "[settings]\ntranslator = \"none\"\n\n[sources.esmadrid]\n")?;
    let db = work.join("cityvibe.db");
    // A host ledger of its own: the machine's is never touched.
    let mut cmd = Command::new(cityvibe);
    cmd.arg("--db").arg(&db).arg("--config").arg(work.join("sources.toml")).arg("--mirror").arg(mirror);
    cmd.arg("--state-dir").arg(work.join("state"));
    cmd.args(["run", "--source", "esmadrid", "--no-translate", "--json"]).current_dir(&work);
    let (m, stdout) = run_measured(cmd, &work, "cityvibe")?;
    let stored = count_rows(&db, "SELECT count(*) FROM events WHERE source = 'esmadrid' AND status = 'active'")?;
    if let Some(want) = expected
        && stored != want
    {
        bail!("cityvibe on {label}: stored {stored} events, expected {want}; its output:\n{stdout}");
    }
    out.push(Row { feed: label.into(), job: "cityvibe run", feed_bytes, events: stored, m });

    // Cron's steady state: the next run on the same database, the body
    // changed by one trailing byte (so it is parsed again), every event
    // already stored and unchanged.
    // The next cron run comes hours later: a fresh host ledger, so that the
    // polite 10 s delay after the first run's request is not timed, and
    // --force, as the source's period (P7) has not passed seconds later.
    std::fs::OpenOptions::new().append(true).open(feed)?.write_all(b"\n")?;
    let mut cmd = Command::new(cityvibe);
    cmd.arg("--db").arg(&db).arg("--config").arg(work.join("sources.toml")).arg("--mirror").arg(mirror);
    cmd.arg("--state-dir").arg(work.join("state-again"));
    cmd.args(["run", "--source", "esmadrid", "--no-translate", "--json", "--force"]).current_dir(&work);
    let (m, stdout) = run_measured(cmd, &work, "cityvibe-again")?;
    if !stdout.contains("\"status\": \"ok\"") && !stdout.contains("\"status\":\"ok\"") {
        bail!("cityvibe re-run on {label} did not take the feed in; its output:\n{stdout}");
    }
    let again = count_rows(&db, "SELECT count(*) FROM events WHERE source = 'esmadrid' AND status = 'active'")?;
    if again != stored {
        bail!("cityvibe re-run on {label}: {again} active events, {stored} before; its output:\n{stdout}");
    }
    out.push(Row { feed: label.into(), job: "cityvibe re-run, same db", feed_bytes: feed_bytes + 1, events: again, m });
    std::fs::remove_dir_all(&work)?;

    if parse_only {
        let work = fresh_dir(tmp, "parse-only")?;
        let mut cmd = Command::new(me);
        cmd.arg("--parse-only").arg(feed).current_dir(&work);
        let (m, stdout) = run_measured(cmd, &work, "parse-only")?;
        let events: u64 = stdout.split_whitespace().next().and_then(|s| s.parse().ok()).context("parse-only printed no count")?;
        if events != stored {
            bail!("parse-only on {label}: {events} events, but cityvibe stored {stored}");
        }
        out.push(Row { feed: label.into(), job: "spool+parse+scrub only", feed_bytes, events, m });
        std::fs::remove_dir_all(&work)?;
    }
    Ok(out)
}

/// The adapter alone, as the core runs it: spool and hash, then parse the
/// spooled file; each event scrubbed and counted, never kept.
fn parse_only(feed: &Path) -> Result<(u64, u64)> {
    struct Count(u64, u64);
    impl EventSink for Count {
        fn push(&mut self, record: Result<Event, RecordError>) {
            let Ok(mut event) = record else {
                self.1 += 1;
                return;
            };
            // An id that is contact data is a record error, as in the core.
            let _refused = std::hint::black_box(cityvibe::parse::pii::scrub_event(&mut event).is_err());
            std::hint::black_box(&event);
            self.0 += 1;
        }
        fn warning(&mut self, _warning: RecordError) {}
    }
    let file = std::fs::File::open(feed).with_context(|| format!("opening {}", feed.display()))?;
    let mut body = cityvibe::http::Body::spool(file, u64::MAX)?;
    let adapter = &cityvibe::adapters::esmadrid::Esmadrid;
    let mut reader = body.reader()?;
    let mut sink = Count(0, 0);
    adapter.parse(&adapter.manifest().feeds[0], &mut reader, &mut sink).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((sink.0, sink.1))
}

fn print_table(rows: &[Row]) {
    println!();
    println!(
        "{:<8} {:<24} {:>8} {:>8} {:>8} {:>8} {:>10} {:>8} {:>8}",
        "feed", "job", "size MB", "events", "seconds", "cpu s", "events/s", "MB/s", "peak MB"
    );
    for r in rows {
        println!(
            "{:<8} {:<24} {:>8.1} {:>8} {:>8.3} {:>8.3} {:>10.0} {:>8.1} {:>8.1}",
            r.feed,
            r.job,
            r.feed_bytes as f64 / MB,
            r.events,
            r.m.wall.as_secs_f64(),
            r.m.cpu.as_secs_f64(),
            r.events_per_s(),
            r.mb_per_s(),
            r.peak_mb()
        );
    }
}

fn print_targets(rows: &[Row]) {
    let runs: Vec<&Row> = rows.iter().filter(|r| r.job.starts_with("cityvibe") && r.feed != "sample").collect();
    if runs.is_empty() {
        return;
    }
    let verdict = |ok: bool| if ok { "PASS" } else { "MISS" };
    let worst = runs.iter().map(|r| r.peak_mb()).fold(0.0, f64::max);
    let first = runs.iter().filter(|r| r.job == "cityvibe run");
    let (Some(smallest), Some(largest)) = (first.clone().min_by_key(|r| r.feed_bytes), first.max_by_key(|r| r.feed_bytes)) else { return };
    println!("\ntarget (issue 4): peak RSS flat, under {RSS_CAP_MB:.0} MB whatever the feed size");
    for r in &runs {
        println!(
            "  {}  {:<7} {:<25} peak RSS {:>6.1} MB  (< {RSS_CAP_MB:.0} MB)",
            verdict(r.peak_mb() < RSS_CAP_MB),
            r.feed,
            r.job,
            r.peak_mb()
        );
    }
    println!(
        "  {}  all sizes: worst {:.1} MB; {} → {}: {:+.1} MB for {:.0}× the feed",
        verdict(worst < RSS_CAP_MB),
        worst,
        smallest.feed,
        largest.feed,
        largest.peak_mb() - smallest.peak_mb(),
        largest.feed_bytes as f64 / smallest.feed_bytes as f64
    );
    // Where the memory is: the adapter alone against the whole run.
    let alone = |feed: &str| rows.iter().find(|r| r.feed == feed && r.job.starts_with("spool"));
    if let (Some(a), Some(b)) = (alone(&smallest.feed), alone(&largest.feed)) {
        println!(
            "  adapter alone (spool, parse, scrub; no database): {:.1} MB at {} → {:.1} MB at {}; so {:.1} MB of the largest run's peak is the rest of the run (store, SQLite page cache, the ingest's id sets)",
            a.peak_mb(),
            a.feed,
            b.peak_mb(),
            b.feed,
            largest.peak_mb() - b.peak_mb()
        );
    }
}

// --- the generated feed --------------------------------------------------------

/// (venue, address, zip code, lat, lon): venue names with HTML entities, as published.
const VENUES: &[(&str, &str, &str, f64, f64)] = &[
    ("Teatro Espa&ntilde;ol", "del Pr&iacute;ncipe, 25", "28012", 40.414641, -3.700161),
    ("Auditorio Nacional de M&uacute;sica", "del Pr&iacute;ncipe de Vergara, 146", "28002", 40.445390, -3.677040),
    ("Matadero Madrid", "de la Chopera, 14", "28045", 40.391926, -3.697498),
    ("Museo Nacional del Prado", "Ruiz de Alarc&oacute;n, 23", "28014", 40.413780, -3.692127),
    ("Teatro Real", "Plaza de Isabel II, s/n", "28013", 40.418370, -3.710540),
    ("Centro Cultural Conde Duque", "del Conde Duque, 9-11", "28015", 40.427399, -3.710589),
    ("WiZink Center", "Av. Felipe II, s/n", "28009", 40.423900, -3.671500),
    ("C&iacute;rculo de Bellas Artes", "de Alcal&aacute;, 42", "28014", 40.418420, -3.696550),
    ("Sala Mirador del Pr&amp;iacute;ncipe", "del Pr&iacute;ncipe, 12", "28012", 40.414920, -3.699553),
    ("Fundaci&oacute;n Juan March", "de Castell&oacute;, 77", "28006", 40.431240, -3.680030),
    ("Teatros del Canal", "de Cea Berm&uacute;dez, 1", "28003", 40.438330, -3.704170),
    ("Real Jard&iacute;n Bot&aacute;nico", "Plaza de Murillo, 2", "28014", 40.411210, -3.691090),
];

/// A category: (id, label, [(id, sub label)]).
type Categoria = (u32, &'static str, &'static [(u32, &'static str)]);

const CATEGORIES: &[Categoria] = &[
    (6500, "M&uacute;sica", &[(6503, "Cl&amp;aacute;sica"), (6504, "Pop-rock"), (6505, "Jazz"), (6506, "Flamenco")]),
    (
        6520,
        "Exposiciones",
        &[(6524, "Arquitectura"), (6526, "Dibujo e ilustraci&oacute;n"), (6527, "Fotograf&iacute;a"), (6528, "Pintura")],
    ),
    (6486, "Teatro y danza", &[(6488, "Drama"), (6489, "Comedia"), (6490, "Musicales"), (6491, "Danza contempor&aacute;nea")]),
    (6540, "Ni&ntilde;os", &[(6541, "Teatro infantil"), (6542, "Talleres")]),
    (6560, "Ferias y fiestas", &[(6561, "Mercadillos"), (6562, "Fiestas populares")]),
    (6580, "Cine", &[(6581, "Ciclos"), (6582, "Estrenos")]),
];

const TITLE_A: &[&str] = &[
    "Concierto",
    "Exposici&oacute;n",
    "Festival",
    "Ciclo",
    "Visita guiada",
    "Espect&aacute;culo",
    "Muestra",
    "Recital",
    "Mercado",
    "Noche",
    "Gran gala",
    "Temporada",
    "Encuentro",
    "Jornadas",
    "Programa",
];
const TITLE_B: &[&str] = &[
    "de A&ntilde;o Nuevo",
    "&laquo;Ciudad de papel&raquo;",
    "de jazz en el parque",
    "La casa de Bernarda Alba",
    "de flamenco",
    "de Navidad",
    "de m&uacute;sica antigua",
    "de cine de verano",
    "&laquo;Madrid en verso&raquo;",
    "de danza contempor&aacute;nea",
    "de primavera",
    "de la Orquesta Filarm&oacute;nica",
    "de artes esc&eacute;nicas",
    "del Retiro",
    "de fotograf&iacute;a urbana",
];

const PARAGRAPHS: &[&str] = &[
    "La orquesta recibe el a&ntilde;o con valses, polcas y la tradicional <em>Marcha Radetzky</em>.",
    "Maquetas, planos y cuadernos de viaje que imaginan un Madrid que nunca lleg&oacute; a construirse.",
    "Nueva lectura del cl&aacute;sico de Lorca con un reparto exclusivamente femenino.",
    "<strong>Recomendada a partir de 14 a&ntilde;os.</strong>",
    "Puestos de figuras de bel&eacute;n, adornos y art&iacute;culos de broma, como cada a&ntilde;o desde el siglo XIX.",
    "Duraci&oacute;n aproximada: 100 minutos con pausa.",
    "El festival re&uacute;ne a m&aacute;s de cuarenta artistas nacionales e internacionales en seis escenarios repartidos por la ciudad, con conciertos gratuitos al aire libre y sesiones nocturnas en salas.",
    "La muestra recorre cinco d&eacute;cadas de creaci&oacute;n a trav&eacute;s de pinturas, esculturas, dibujos y documentos in&eacute;ditos procedentes de colecciones p&uacute;blicas y privadas.",
    "Las entradas pueden adquirirse en la taquilla del teatro de martes a domingo, de 11:30 a 14:00 y de 17:00 a 20:00 h, y en la web oficial.",
    "Accesible para personas con movilidad reducida; bucle magn&eacute;tico en la sala y audiodescripci&oacute;n en funciones se&ntilde;aladas.",
    "<a href=\"https://www.esmadrid.com/agenda\">M&aacute;s informaci&oacute;n</a> sobre horarios y precios en la p&aacute;gina del organizador.",
    "Un recorrido por la historia del barrio, sus calles, sus oficios y sus fiestas populares, con parada en los rincones menos conocidos del Madrid de los Austrias.",
    "<ul><li>Visitas en espa&ntilde;ol e ingl&eacute;s</li><li>Grupos de hasta 25 personas</li><li>Punto de encuentro: puerta principal</li></ul>",
    "Proyecci&oacute;n en versi&oacute;n original subtitulada al castellano, seguida de un coloquio con el director y parte del equipo art&iacute;stico.",
    "Reservas en el tel&eacute;fono 910 000 123 o en el correo reservas@example.es.",
];

const PRICES: &[&str] = &[
    "<p>Gratuito</p>",
    "<p>General: 35 &euro;. Reducida: 25 &euro;</p>",
    "<p>Desde 18 &euro; hasta 32 &euro;</p>",
    "<p>Entrada libre hasta completar aforo</p>",
    "<p>12 &euro;</p>",
];
const HOURS: &[&str] = &[
    "<p>19:30 h</p>",
    "<p>Martes a s&aacute;bado: 10:00 a 20:00 h. Domingos y festivos: 10:00 a 14:30 h.</p>",
    "<p>Mi&eacute;rcoles a s&aacute;bado: 20:00 h. Domingos: 18:00 h</p>",
    "<p>De 11:00 a 21:00 h</p>",
    "<p>Consultar programaci&oacute;n</p>",
];
const DAYS: &[&str] = &["1,2,3,4,5,6,7", "2,3,4,5,6,7", "3,4,5,6,7", "5", "6,7", "1", "2,3,4,5,6", "4"];

/// Write services in esmadrid's shape until the file reaches `target` bytes;
/// (bytes, services).
fn generate(path: &Path, target: u64) -> Result<(u64, u64)> {
    let file = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut r = Rng(0x00E5_4AD1_D000_0004);
    let mut rec = String::with_capacity(16 * 1024);
    let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<serviceList>";
    w.write_all(head.as_bytes())?;
    let tail = "</serviceList>\n";
    let mut written = head.len() as u64;
    let mut n = 0u64;
    while written + (tail.len() as u64) < target {
        rec.clear();
        service(&mut r, 200_000 + n, &mut rec);
        w.write_all(rec.as_bytes())?;
        written += rec.len() as u64;
        n += 1;
    }
    w.write_all(tail.as_bytes())?;
    w.flush()?;
    Ok((std::fs::metadata(path)?.len(), n))
}

fn service(r: &mut Rng, id: u64, s: &mut String) {
    use std::fmt::Write as _;
    let title = format!("{} {}", r.pick(TITLE_A), r.pick(TITLE_B));
    let (venue, address, zip, lat, lon) = *r.pick(VENUES);
    let _ = write!(s, "<service id=\"{id}\" fechaActualizacion=\"2026-11-{:02}\"><basicData><language>es</language>", 1 + r.below(28));
    let _ = write!(s, "<name><![CDATA[{title}]]></name>");
    // Contact data: present, never read.
    let _ = write!(s, "<email>taquilla{}@example.es</email><phone>+34 910 {:03} {:03}</phone>", id % 97, r.below(1000), r.below(1000));
    if r.pct(50) {
        let _ = write!(s, "<fax>+34 910 {:03} {:03}</fax>", r.below(1000), r.below(1000));
    } else {
        s.push_str("<fax/>");
    }
    let _ = write!(s, "<title><![CDATA[{title}]]></title><body><![CDATA[");
    // About 4 KB a service on average, like the real feed (4.5 MB, 1 100 services).
    let paragraphs = if r.pct(15) { 15 + r.below(25) } else { 5 + r.below(12) };
    for _ in 0..paragraphs {
        let p = *r.pick(PARAGRAPHS);
        if p.starts_with("<ul>") {
            s.push_str(p);
        } else {
            let _ = write!(s, "<p>{p}</p>");
        }
    }
    let slug = id.to_string();
    let _ = write!(
        s,
        "]]></body><web>https://www.esmadrid.com/agenda/evento-{slug}</web><idrt>{}</idrt><nombrert>{venue}</nombrert></basicData>",
        70_000 + r.below(500)
    );
    let jitter = |r: &mut Rng| (r.below(2000) as f64 - 1000.0) / 1_000_000.0;
    let _ = write!(
        s,
        "<geoData><address>{address}</address><zipcode>{zip}</zipcode>{}<country>Spain</country><latitude>{:.12}</latitude><longitude>{:.12}</longitude><subAdministrativeArea>Madrid</subAdministrativeArea></geoData>",
        if r.pct(90) { "<locality>Madrid</locality>" } else { "<locality/>" },
        lat + jitter(r),
        lon + jitter(r)
    );
    // Photos: present, never read.
    s.push_str("<multimedia>");
    for k in 0..1 + r.below(3) {
        let _ = write!(
            s,
            "<media type=\"image\"><url>https://www.esmadrid.com/sites/default/files/styles/content_type_full/public/agenda/evento-{slug}-{k}.jpg</url></media>"
        );
    }
    s.push_str("</multimedia><extradata><item name=\"idTipo\">6</item><item name=\"Tipo\">Eventos</item><categorias>");
    for _ in 0..1 + usize::from(r.pct(15)) {
        let (cid, label, subs) = *r.pick(CATEGORIES);
        let _ = write!(s, "<categoria><item name=\"idCategoria\">{cid}</item><item name=\"Categoria\">{label}</item><subcategorias>");
        for _ in 0..1 + r.below(2) {
            let (sid, sub) = *r.pick(subs);
            let _ = write!(
                s,
                "<subcategoria><item name=\"idSubCategoria\">{sid}</item><item name=\"SubCategoria\">{sub}</item></subcategoria>"
            );
        }
        s.push_str("</subcategorias></categoria>");
    }
    let _ = write!(
        s,
        "</categorias><item name=\"Servicios de pago\"><![CDATA[{}]]></item><item name=\"Horario\"><![CDATA[{}]]></item><fechas>",
        r.pick(PRICES),
        r.pick(HOURS)
    );
    // Dates in 2027, one to three ranges.
    let mut day = r.below(300) as u32;
    for _ in 0..1 + usize::from(r.pct(20)) + usize::from(r.pct(5)) {
        let span = if r.pct(40) { 0 } else { 1 + r.below(40) as u32 };
        let (d1, m1) = day_month(day);
        let (d2, m2) = day_month((day + span).min(364));
        let _ =
            write!(s, "<rango><inicio>{d1:02}/{m1:02}/2027</inicio><dias>{}</dias><fin>{d2:02}/{m2:02}/2027</fin></rango>", r.pick(DAYS));
        day = (day + span + 2).min(362);
    }
    s.push_str("</fechas></extradata></service>");
}

/// Day of 2027 (0-based) → (day, month).
fn day_month(mut day: u32) -> (u32, u32) {
    const MONTHS: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut m = 0;
    while m < 11 && day >= MONTHS[m] {
        day -= MONTHS[m];
        m += 1;
    }
    (day + 1, m as u32 + 1)
}
