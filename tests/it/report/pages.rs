//! `cityvibe report` writes a static site whose figures are the
//! fetch log's. Three runs against the recording loopback server (a 429
//! with Retry-After, a 304 run, a failed run), then `report`; the host
//! page's counts and shortest gap must equal what the server itself saw
//! (P8, P10, P12, P17), every page must be valid HTML5 with a `lang`, load
//! nothing from elsewhere, and show each chart's figures in its table too.
use crate::common;
use crate::common::ok;

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};
use scraper::{Html, Selector};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const CONFIG: &str = "[settings]\ntranslator = \"none\"\n\n[sources.madrid]\nenabled = true\n";
const JSON_PATH: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";
const CSV_PATH: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.csv";
const XML_PATH: &str = "/datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml";
const ROBOTS_PATH: &str = "/datos.madrid.es/robots.txt";
const HOST: &str = "datos.madrid.es";

/// What the three runs left: the folder, the server's own log and the
/// status of each answer it sent.
struct Site {
    dir: tempfile::TempDir,
    server: Server,
    answered: Arc<Mutex<Vec<u16>>>,
}

/// Run 0: the JSON answers 429 (Retry-After: 1) then 500, the CSV an HTML
/// page, the XML 200 with an ETag; run 1: the XML answers 304; run 2:
/// every feed answers 500 (a failed run).
fn three_runs() -> Site {
    let xml = std::fs::read(sample("datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.xml")).unwrap();
    let phase = Arc::new(AtomicUsize::new(0));
    let answered: Arc<Mutex<Vec<u16>>> = Arc::default();
    let (p, a) = (phase.clone(), answered.clone());
    let json_asks = AtomicUsize::new(0);
    let server = Server::start(move |seen, _| {
        let reply = match (p.load(Ordering::SeqCst), seen.path.as_str()) {
            (_, ROBOTS_PATH) => Reply::ok("User-agent: *\nAllow: /\n"),
            (2, _) => Reply::new(500),
            (0, JSON_PATH) if json_asks.fetch_add(1, Ordering::SeqCst) == 0 => Reply::new(429).header("Retry-After", "1"),
            (_, JSON_PATH) => Reply::new(500),
            (_, CSV_PATH) => Reply::ok("<html><body>Servicio no disponible</body></html>").header("Content-Type", "text/html"),
            (_, XML_PATH) if seen.header("If-None-Match") == Some("\"x1\"") => Reply::new(304).header("ETag", "\"x1\""),
            (_, XML_PATH) => Reply::ok(xml.clone()).header("ETag", "\"x1\""),
            _ => Reply::new(404),
        };
        a.lock().unwrap().push(reply.status);
        reply
    });
    let dir = workdir(CONFIG);
    for run in 0..3 {
        phase.store(run, Ordering::SeqCst);
        // `--force`: runs in a row within the source's period (P7); every delay still holds.
        cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--force", "--source", "madrid", "--json"]);
    }
    Site { dir, server, answered }
}

pub(crate) fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

pub(crate) fn read(path: &Path) -> Html {
    Html::parse_document(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// A page's text, every node's in document order.
pub(crate) fn text(doc: &Html) -> String {
    doc.root_element().text().collect()
}

/// A table twin as (category, series) → figure; each column's series is
/// named by its heading.
pub(crate) fn table_of(doc: &Html, chart: &str) -> BTreeMap<(String, String), u64> {
    let table = doc.select(&sel(&format!("table[data-chart=\"{chart}\"]"))).next().unwrap_or_else(|| panic!("no table for {chart}"));
    let series: Vec<String> =
        table.select(&sel("thead th[data-series]")).map(|th| th.value().attr("data-series").unwrap().to_string()).collect();
    let mut out = BTreeMap::new();
    for row in table.select(&sel("tbody tr")) {
        let cat: String = row.select(&sel("th")).next().unwrap().text().collect();
        let cells: Vec<u64> = row.select(&sel("td")).map(|td| td.text().collect::<String>().trim().parse().unwrap()).collect();
        assert_eq!(cells.len(), series.len(), "{chart}: a row of {} cells under {} headings", cells.len(), series.len());
        for (s, v) in series.iter().zip(cells) {
            out.insert((cat.clone(), s.clone()), v);
        }
    }
    out
}

#[test]
fn the_host_page_shows_what_the_server_recorded_p8_p10_p12_p17() {
    let site = three_runs();
    let d = site.dir.path();
    let answered = site.answered.lock().unwrap().clone();
    assert!(answered.contains(&429) && answered.contains(&304) && answered.iter().filter(|s| **s == 500).count() >= 3, "{answered:?}");
    // The reviewer's aid asks for robots.txt, tdmrep.json and ai.txt (P14; the last two answer 500 in
    // this phase): the page says when and what came back.
    cityvibe(d, &["--mirror", &site.server.url(), "audit", "--source", "madrid", "--json"]);
    let seen = site.server.requests();
    let answered = site.answered.lock().unwrap().clone();
    assert_eq!(seen.len(), answered.len());
    ok(&cityvibe(d, &["report", "--out", "site", "--days", "3", "--lang", "en"]));
    let doc = read(&d.join("site/hosts").join(format!("{HOST}.en.html")));

    // Requests per day: the server's count.
    let per_day = table_of(&doc, "per-day");
    assert_eq!(per_day.values().sum::<u64>(), seen.len() as u64, "{per_day:?}");
    assert_eq!(per_day.iter().filter(|((_, s), _)| s == "not_modified").map(|(_, v)| v).sum::<u64>(), 1);
    assert_eq!(per_day.iter().filter(|((_, s), _)| s == "wait").map(|(_, v)| v).sum::<u64>(), 1);
    // Status codes: what the server answered, code by code.
    let codes: BTreeMap<String, u64> = table_of(&doc, "codes").into_iter().map(|((c, _), v)| (c, v)).collect();
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    for s in &answered {
        *expected.entry(s.to_string()).or_default() += 1;
    }
    assert_eq!(codes, expected);
    // The shortest gap: the page states the fetch log's own (each request
    // timed before sending), and both it and the server's (on arrival) keep
    // the 2 s delay. (Not compared within a margin: how far the two clocks
    // drift apart depends on the machine's load.)
    let server_min = seen.windows(2).map(|w| w[1].at.duration_since(w[0].at)).min().unwrap();
    let p = doc.select(&sel("p[data-min-gap-ms]")).next().unwrap();
    let ours = Duration::from_millis(p.value().attr("data-min-gap-ms").unwrap().parse().unwrap());
    let logged: Vec<i64> = {
        let db = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
        let mut q = db.prepare("SELECT started_ms FROM fetch_log WHERE host = ?1 ORDER BY started_ms").unwrap();
        q.query_map([HOST], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let logged_min = logged.windows(2).map(|w| w[1] - w[0]).min().unwrap();
    assert_eq!(ours, Duration::from_millis(logged_min as u64), "the page's shortest gap is the fetch log's");
    assert!(ours >= Duration::from_secs(2), "{ours:?}");
    assert!(server_min >= Duration::from_secs(2), "the server saw {server_min:?}");
    let text: String = p.text().collect();
    let stated = format!("The shortest gap was {}.{:03} s; we promise at least 2 s.", ours.as_millis() / 1000, ours.as_millis() % 1000);
    assert!(text.contains(&stated), "{text}");
    // The gap histogram counts every gap once.
    assert_eq!(table_of(&doc, "gaps").values().sum::<u64>(), seen.len() as u64 - 1);
    // The 429 and the wait its Retry-After asked for (P10).
    let body: String = doc.root_element().text().collect();
    assert!(body.contains("HTTP 429; we waited 2.000 s before asking again"), "{body}");
    assert!(body.contains("/robots.txt answered 200") && body.contains("/ai.txt answered 500"), "{body}");
    // In Spanish, with the Spanish decimal sign.
    let es = read(&d.join("site/hosts").join(format!("{HOST}.html")));
    let es_text: String = es.select(&sel("p[data-min-gap-ms]")).next().unwrap().text().collect();
    assert!(es_text.contains("La pausa más corta fue de") && es_text.contains("prometemos al menos 2 s"), "{es_text}");
}

/// Every page: HTML5 without a parse error, a `lang`, under 150 KB, nothing
/// loaded from elsewhere (no script, no `src`, no stylesheet link), links off
/// the site only to sources and licences, links within it resolving; and
/// every chart's figures equal to its table's.
#[test]
fn every_page_is_light_valid_self_contained_and_twinned() {
    let site = three_runs();
    let d = site.dir.path();
    ok(&cityvibe(d, &["report", "--out", "site", "--days", "2"]));
    let out = d.join("site");
    let mut pages = vec![out.join("index.html")];
    for day in std::fs::read_dir(out.join("runs")).unwrap() {
        pages.push(day.unwrap().path());
    }
    for lang in ["es", "ca", "gl", "en", "fr", "it", "pt"] {
        let file = if lang == "es" { format!("{HOST}.html") } else { format!("{HOST}.{lang}.html") };
        pages.push(out.join("hosts").join(file));
    }
    let allowed: HashSet<String> = cityvibe::adapters::ALL
        .iter()
        .flat_map(|a| [a.manifest().dataset_page.to_string(), a.manifest().licence.url.to_string()])
        .collect();
    for page in &pages {
        let size = std::fs::metadata(page).unwrap().len();
        assert!(size < 150 * 1024, "{}: {size} bytes", page.display());
        let doc = read(page);
        assert!(doc.errors.is_empty(), "{}: {:?}", page.display(), doc.errors);
        let lang = doc.root_element().value().attr("lang");
        assert!(lang.is_some_and(|l| !l.is_empty()), "{}", page.display());
        assert_eq!(doc.select(&sel("script, link, img, iframe, object, embed, [src], [style]")).count(), 0, "{}", page.display());
        let css: String = doc.select(&sel("style")).flat_map(|s| s.text()).collect();
        assert!(!css.contains("url(") && !css.contains("@import"), "{}", page.display());
        for a in doc.select(&sel("[href]")) {
            let href = a.value().attr("href").unwrap();
            if href.contains("://") || href.starts_with("//") {
                assert!(allowed.contains(href), "{}: links off the site to {href}", page.display());
            } else {
                assert_resolves(page, href);
            }
        }
        assert_twins(page, &doc);
    }
    // The operator page in the language asked for (Spanish by default), each host page in its own.
    assert_eq!(read(&out.join("index.html")).root_element().value().attr("lang"), Some("es"));
    assert_eq!(read(&out.join("hosts").join(format!("{HOST}.pt.html"))).root_element().value().attr("lang"), Some("pt"));
    // One mark per source and day, its worst run: the three
    // runs of this day are one mark, drawn failed, linking to the day's page,
    // which details all three.
    let index = read(&out.join("index.html"));
    let marks = index.select(&sel("figure#runs svg a use")).count();
    assert_eq!(marks, 1, "one mark for madrid's day of runs");
    let link = index.select(&sel("figure#runs svg a")).next().unwrap().value().attr("href").unwrap().to_string();
    // It leads to the failed run's line of the day's page (an anchor every link checks above).
    let (file, anchor) = link.split_once('#').unwrap();
    let day = read(&out.join(file));
    assert_eq!(day.select(&sel("tr[id^=\"r\"]")).count(), 3, "{link} details the three runs");
    let failed = index.select(&sel("figure#runs svg use.k-failed")).count();
    assert_eq!(failed, 1, "the day with a failed run is drawn as failed");
    let row: String = day.select(&sel(&format!("tr[id=\"{anchor}\"]"))).next().unwrap().text().collect();
    assert!(row.contains("madrid"), "{row}");
    let problems: String = index.select(&sel("ul.problems")).flat_map(|u| u.text()).collect();
    assert!(problems.contains("cityvibe "), "a problem names the command that fixes it: {problems}");
}

/// A link within the site names a file that exists, and an anchor in it.
fn assert_resolves(page: &Path, href: &str) {
    let (file, anchor) = href.split_once('#').unwrap_or((href, ""));
    let target: PathBuf = if file.is_empty() { page.to_path_buf() } else { page.parent().unwrap().join(file) };
    assert!(target.is_file(), "{}: {href} names no file", page.display());
    if !anchor.is_empty() {
        let doc = read(&target);
        assert_eq!(doc.select(&sel(&format!("[id=\"{anchor}\"]"))).count(), 1, "{}: {href} names no anchor", page.display());
    }
}

/// Each chart: the figures its SVG draws (a category's group of marks,
/// each mark its `data-v` or one, summed per series) are the table's
/// non-zero cells, and its limit line the table's limit.
fn assert_twins(page: &Path, doc: &Html) {
    for fig in doc.select(&sel("figure.chart")) {
        let id = fig.value().attr("id").unwrap();
        let mut drawn: BTreeMap<(String, String), u64> = BTreeMap::new();
        for group in fig.select(&sel("svg g[data-cat]")) {
            let cat = group.value().attr("data-cat").unwrap().to_string();
            for mark in group.select(&sel("[data-v], use")) {
                // A bar or a run mark (a `use` of one shape): its series is its class.
                let series = mark.value().attr("data-series").or_else(|| mark.value().attr("class").and_then(|c| c.strip_prefix("k-")));
                let key = (cat.clone(), series.unwrap().to_string());
                *drawn.entry(key).or_default() += mark.value().attr("data-v").map_or(1, |v| v.parse::<u64>().unwrap());
            }
        }
        let table = table_of(doc, id);
        let limit_line: Option<u64> =
            fig.select(&sel("svg line[data-series=\"limit\"]")).next().map(|l| l.value().attr("data-v").unwrap().parse().unwrap());
        let (limits, counts): (BTreeMap<_, _>, BTreeMap<_, _>) = table.into_iter().partition(|((_, s), _)| s == "limit");
        for v in limits.values() {
            assert_eq!(Some(*v), limit_line, "{} {id}: the table's cap is the line's", page.display());
        }
        let nonzero: BTreeMap<_, _> = counts.into_iter().filter(|(_, v)| *v > 0).collect();
        assert_eq!(drawn, nonzero, "{} {id}: the chart and its table differ", page.display());
        assert!(fig.select(&sel("svg title")).next().is_some(), "{} {id}: a chart without a title", page.display());
        assert!(fig.select(&sel("details table")).next().is_some(), "{} {id}: a chart without its table", page.display());
    }
}

/// `[settings] report_dir` (relative to sources.toml): `run` writes the
/// report after each run, in the first display language.
#[test]
fn a_run_writes_the_report_into_report_dir() {
    let dir = workdir("[settings]\ntranslator = \"none\"\nlanguages = [\"en\", \"es\"]\nreport_dir = \"site\"\n\n[sources.madrid]\n");
    let d = dir.path();
    let samples = sample("");
    ok(&cityvibe(d, &["--mirror", samples.to_str().unwrap(), "run", "--source", "madrid", "--json"]));
    let index = read(&d.join("site/index.html"));
    assert_eq!(index.root_element().value().attr("lang"), Some("en"));
    let marks: Vec<_> = index.select(&sel("figure#runs svg g[data-cat=\"madrid\"] use")).collect();
    assert_eq!(marks.len(), 1, "the run just made is on the page");
    assert!(d.join("site/hosts").join(format!("{HOST}.html")).is_file());
    // A folder mirror books its requests as folder:HOST: they never reached the
    // host, and get no page of their own; the real host's page holds the
    // adapter's review and holdings.
    let names: Vec<String> =
        std::fs::read_dir(d.join("site/hosts")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.contains("folder:")), "{names:?}");
    let page = read(&d.join("site/hosts").join(format!("{HOST}.en.html")));
    let text: String = page.root_element().text().collect();
    assert!(text.contains("madrid: a person read robots.txt"), "the adapter's review is on the page: {text}");
    assert!(text.contains("active and 0 withdrawn events"), "its holdings are on the page: {text}");
}

/// A database without a run yet (a new install, before cron's first run)
/// still gets its pages, saying there is nothing yet, instead of a panic.
#[test]
fn a_database_without_runs_gets_its_pages() {
    let dir = workdir(CONFIG);
    let d = dir.path();
    std::fs::create_dir_all(d.join("data")).unwrap();
    std::fs::write(d.join("data/cityvibe.db"), b"").unwrap();
    let out = ok(&cityvibe(d, &["report", "--out", "site", "--lang", "en"]));
    assert!(out.contains("site/index.html"), "{out}");
    let index = read(&d.join("site/index.html"));
    assert!(index.errors.is_empty(), "{:?}", index.errors);
    let text: String = index.root_element().text().collect();
    assert!(text.contains("No problem in the period."), "{text}");
    let host = read(&d.join("site/hosts").join(format!("{HOST}.html")));
    let gap: String = host.select(&sel("p[data-min-gap-ms]")).next().unwrap().text().collect();
    assert!(gap.contains("Menos de dos peticiones"), "{gap}");
}
