//! What the report's public host
//! pages count and say. One transparency page per machine: a host's page and
//! the operator's daily-cap chart count every request this machine made to
//! the host, from the host ledger shared by every database (P7, P8, P17);
//! a folder mirror's books and names that are no DNS name get no file; a
//! symbolic link in the output folder is never followed; the audit's 404s
//! are no error; the runs timeline shows each day's worst run; and every
//! word of a host page is in the page's language.
use crate::common;
use crate::common::ok;
use crate::report::pages::{read, sel, table_of, text};

use common::server::{Reply, Server};
use common::{cityvibe, sample, workdir};

const JCYL: &str = "datosabiertos.jcyl.es";
const JCYL_ON: &str = "[settings]\ntranslator = \"none\"\n\n[sources.jcyl]\nenabled = true\n";

/// A loopback server answering jcyl's feed with the project's sample.
fn jcyl_server() -> Server {
    let body = std::fs::read(sample("datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json")).unwrap();
    Server::start(
        move |seen, _| {
            if seen.path.starts_with(&format!("/{JCYL}/web/jcyl/risp/")) { Reply::ok(body.clone()) } else { Reply::new(404) }
        },
    )
}

/// P7, P8, P17: two databases of one machine (one host ledger) each run
/// jcyl; the report of either counts both databases' requests, as the
/// server saw them and as the daily cap counted them.
#[test]
fn a_host_page_counts_every_database_of_the_machine_p8_p17() {
    let server = jcyl_server();
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    let run = |db: &str| ok(&cityvibe(d, &["--db", db, "--mirror", &server.url(), "run", "--force", "--source", "jcyl", "--json"]));
    run("a.db");
    run("a.db");
    run("b.db");
    let seen = server.requests().len() as u64;
    assert!(seen >= 3, "the server saw {seen}");
    // What the daily cap counts: the ledger's requests to the host.
    let ledger = rusqlite::Connection::open(common::state_dir(d).join("hosts.db")).unwrap();
    let capped: i64 = ledger.query_row("SELECT count(*) FROM requests WHERE host = ?1", [JCYL], |r| r.get(0)).unwrap();
    assert_eq!(capped as u64, seen, "the cap counts what the server saw");
    for db in ["a.db", "b.db"] {
        let site = format!("site-{db}");
        ok(&cityvibe(d, &["--db", db, "report", "--out", &site, "--days", "2", "--lang", "en"]));
        let page = read(&d.join(&site).join("hosts").join(format!("{JCYL}.en.html")));
        let per_day = table_of(&page, "per-day");
        assert_eq!(per_day.values().sum::<u64>(), seen, "{db}: the page counts every request of the machine: {per_day:?}");
        let codes: u64 = table_of(&page, "codes").values().sum();
        assert_eq!(codes, seen, "{db}: the codes chart counts them all");
        assert!(text(&page).contains("sent from another database on this machine"), "{db}: the page says whose they were");
        // The gaps are this machine's: one fewer than its requests.
        assert_eq!(table_of(&page, "gaps").values().sum::<u64>(), seen - 1, "{db}");
        let index = read(&d.join(&site).join("index.html"));
        let chart = index
            .select(&sel("figure.chart"))
            .find(|f| f.select(&sel("figcaption strong")).next().is_some_and(|s| s.text().collect::<String>().contains(JCYL)))
            .expect("the operator's chart of jcyl's requests");
        let id = chart.value().attr("id").unwrap();
        let cap_chart: u64 = table_of(&index, id).iter().filter(|((_, s), _)| s == "requests").map(|(_, v)| v).sum();
        assert_eq!(cap_chart, seen, "{db}: the daily-cap chart counts every request of the machine");
    }
}

/// A folder mirror's books (`folder:HOST`) are no page of
/// their own, and no file name is made of a name that is no DNS name.
#[test]
fn a_folder_mirror_and_a_name_that_is_no_dns_name_get_no_file() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n\n[sources.madrid]\n");
    let d = dir.path();
    let samples = sample("");
    ok(&cityvibe(d, &["--mirror", samples.to_str().unwrap(), "run", "--source", "madrid", "--json"]));
    // A request booked under a name no DNS allows (a fetch log written by
    // another build, or altered): it is no file name.
    let store = rusqlite::Connection::open(d.join("data/cityvibe.db")).unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    for host in ["../../escape", "a/b", "x:1"] {
        store
            .execute(
                "INSERT INTO fetch_log (run_id, source, host, url, started_ms, duration_ms, status, bytes, conditional, outcome)
                 VALUES (NULL, 'madrid', ?1, 'https://x/', ?2, 1, 200, 1, 0, 'ok')",
                rusqlite::params![host, now - 1000],
            )
            .unwrap();
    }
    ok(&cityvibe(d, &["report", "--out", "site", "--lang", "en"]));
    let names: Vec<String> =
        std::fs::read_dir(d.join("site/hosts")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.contains(':') && !n.contains("escape")), "{names:?}");
    assert!(!d.join("escape.html").exists() && !d.join("escape.en.html").exists());
    assert!(names.contains(&"datos.madrid.es.en.html".to_string()), "the real host keeps its page: {names:?}");
    let index = read(&d.join("site/index.html"));
    for a in index.select(&sel("a[href^=\"hosts/\"]")) {
        assert!(!a.value().attr("href").unwrap().contains(':'), "a link to a mirror's page");
    }
}

/// A symbolic link in the output folder is never followed:
/// a page written where a link stands replaces the link, and a linked
/// `hosts/` folder is refused, saying why; the link's target is untouched.
#[test]
fn a_symlink_in_the_output_folder_is_never_followed() {
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    let outside = d.join("outside.txt");
    std::fs::write(&outside, "keep me").unwrap();
    std::fs::create_dir_all(d.join("site/hosts")).unwrap();
    std::fs::create_dir_all(d.join("data")).unwrap();
    std::fs::write(d.join("data/cityvibe.db"), b"").unwrap();
    std::os::unix::fs::symlink(&outside, d.join("site/index.html")).unwrap();
    std::os::unix::fs::symlink(&outside, d.join("site/hosts").join(format!("{JCYL}.html"))).unwrap();
    std::os::unix::fs::symlink(&outside, d.join("site/hosts").join(format!("{JCYL}.html.part"))).unwrap();
    ok(&cityvibe(d, &["report", "--out", "site"]));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
    for page in [d.join("site/index.html"), d.join("site/hosts").join(format!("{JCYL}.html"))] {
        assert!(!std::fs::symlink_metadata(&page).unwrap().file_type().is_symlink(), "{} is still a link", page.display());
        assert!(std::fs::read_to_string(&page).unwrap().starts_with("<!DOCTYPE html>"));
    }
    // A linked folder: refused, nothing written through it.
    let elsewhere = d.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(d.join("site2")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, d.join("site2/hosts")).unwrap();
    let out = cityvibe(d, &["report", "--out", "site2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("symbolic link"), "{err}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "nothing written through the link");
}

/// `audit`'s 404s for robots.txt, tdmrep.json and ai.txt
/// (normal per RFC 9309) are not drawn as errors, nor said as failures.
#[test]
fn the_audits_404s_are_no_error_p14() {
    let server = Server::start(|_, _| Reply::new(404));
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    ok(&cityvibe(d, &["--mirror", &server.url(), "audit", "--source", "jcyl", "--json"]));
    assert_eq!(server.requests().len(), 3);
    ok(&cityvibe(d, &["report", "--out", "site", "--lang", "en"]));
    let page = read(&d.join("site/hosts").join(format!("{JCYL}.en.html")));
    let per_day = table_of(&page, "per-day");
    assert_eq!(per_day.iter().filter(|((_, s), _)| s == "absent").map(|(_, v)| v).sum::<u64>(), 3, "{per_day:?}");
    assert_eq!(per_day.iter().filter(|((_, s), _)| s == "other").map(|(_, v)| v).sum::<u64>(), 0, "{per_day:?}");
    assert_eq!(page.select(&sel("figure#per-day svg .k-other")).count(), 0, "a 404 drawn in the error colour");
    let body = text(&page);
    assert!(body.contains("there is no /robots.txt (404), which means no rule for us"), "{body}");
    assert!(!body.contains("/robots.txt answered 404"), "{body}");
}

/// The runs timeline shows each day's worst status per
/// source: a failed run is never hidden under a later mark.
#[test]
fn the_runs_timeline_shows_each_days_worst_run() {
    let failing = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let f = failing.clone();
    let body = std::fs::read(sample("datosabiertos.jcyl.es/web/jcyl/risp/es/cultura-ocio/agenda_cultural/1284806871500.json")).unwrap();
    let server =
        Server::start(move |_, _| if f.load(std::sync::atomic::Ordering::SeqCst) { Reply::new(500) } else { Reply::ok(body.clone()) });
    let dir = workdir(JCYL_ON);
    let d = dir.path();
    let run = || cityvibe(d, &["--mirror", &server.url(), "run", "--force", "--source", "jcyl", "--json"]);
    run();
    failing.store(false, std::sync::atomic::Ordering::SeqCst);
    ok(&run());
    ok(&run());
    ok(&cityvibe(d, &["report", "--out", "site", "--days", "1", "--lang", "en"]));
    let index = read(&d.join("site/index.html"));
    let marks: Vec<String> =
        index.select(&sel("figure#runs svg g[data-cat=\"jcyl\"] use")).map(|u| u.value().attr("class").unwrap().to_string()).collect();
    assert_eq!(marks, ["k-failed"], "one mark for the day, its worst run");
    // `skipped` and `disabled` are told apart by colour.
    let css: String = index.select(&sel("style")).flat_map(|s| s.text()).collect();
    let rule = |k: &str| {
        css.lines().find(|l| l.contains(&format!(".k-{k}"))).unwrap_or_default().split('{').nth(1).unwrap_or_default().to_string()
    };
    assert_ne!(rule("skipped"), rule("disabled"), "{css}");
}

/// The English, French and Italian host pages name each
/// licence in their own language and hold no English review note (the
/// English page may quote the reviewer's English words).
#[test]
fn host_pages_name_licences_and_reviews_in_their_language() {
    let dir = workdir("[settings]\ntranslator = \"none\"\n");
    let d = dir.path();
    std::fs::create_dir_all(d.join("data")).unwrap();
    std::fs::write(d.join("data/cityvibe.db"), b"").unwrap();
    ok(&cityvibe(d, &["report", "--out", "site"]));
    for a in cityvibe::adapters::ALL {
        let m = a.manifest();
        for lang in ["en", "fr", "it"] {
            let page = read(&d.join("site/hosts").join(format!("{}.{lang}.html", m.host)));
            let body = text(&page);
            let spanish = cityvibe::translate::fields::licence_name(m.licence.url, cityvibe::lang::Lang::Es).unwrap();
            let ours = cityvibe::translate::fields::licence_name(m.licence.url, lang.parse().unwrap()).unwrap();
            assert!(body.contains(&ours), "{} {lang}: the licence's name in {lang}: {body}", m.host);
            if spanish != ours {
                assert!(!body.contains(&spanish), "{} {lang}: the Spanish licence name: {body}", m.host);
            }
            if lang != "en" {
                assert!(!body.contains(m.review.robots_txt), "{} {lang}: the English review note", m.host);
            }
        }
    }
    let fr = text(&read(&d.join("site/hosts/datos.madrid.es.fr.html")));
    assert!(fr.contains("Mentions légales de datos.madrid.es"), "{fr}");
    assert!(fr.contains("il n’en interdit aucune à CityVibeBot, et nous attendons au moins 2 s"), "{fr}");
}
