//! P3 and P14: a manifest whose robots.txt review is
//! pending (`RobotsReview::Pending`, no copy of the host's robots.txt could
//! be had) is never requested from its real host. A run refuses it before
//! any request is sent, saying what a person must read and where to write
//! it down; a `--mirror` run reads it (tests, staging). Through the binary:
//! `run --dry-run` on every built-in adapter whose review is pending, and
//! `source enable` (`sources::andalucia`).
use crate::common;

use cityvibe::adapter::{Adapter, Feed, Format, Manifest, RobotsReview};
use cityvibe::http::{Client, Limits, Mirror};
use cityvibe::ingest::RunReport;
use cityvibe::store::Store;
use common::server::{Reply, Server};
use common::{TestAdapter, madrid_like};

const MADRID_JSON: &str = "datos.madrid.es/egob/catalogo/300107-0-agenda-actividades-eventos.json";

/// A madrid-like adapter on `host`, its one feed `url`, its review as given.
fn probe(host: &'static str, url: String, robots: RobotsReview) -> &'static [&'static dyn Adapter] {
    let feeds: &'static [Feed] = Box::leak(Box::new([Feed {
        url: Box::leak(url.into_boxed_str()),
        format: Format::Json,
        ..cityvibe::adapters::madrid::MANIFEST.feeds[0]
    }]));
    let base = madrid_like("probe", host, 10, feeds);
    let mut manifest: Manifest = *base.manifest;
    manifest.review.robots = robots;
    let adapter: &'static TestAdapter = Box::leak(Box::new(TestAdapter { manifest: Box::leak(Box::new(manifest)), inner: base.inner }));
    Box::leak(Box::new([adapter as &dyn Adapter]))
}

fn run_with(adapters: &'static [&'static dyn Adapter], client: &Client) -> (RunReport, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    (common::run_forced(&mut store, adapters, client, &cityvibe::http::SystemClock), dir)
}

// P3, P14: without a mirror the feed URL is the real host's, here a loopback
// server: a pending review sends it nothing; the same adapter once reviewed
// is requested (so the zero is the review's doing, not another refusal).
#[test]
fn a_pending_review_is_refused_before_any_request_p3_p14() {
    let body = std::fs::read(common::sample(MADRID_JSON)).unwrap();
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let url = format!("{}/feeds/agenda.json", server.url());
    let direct = Client::new(None, Limits::default());

    let (report, _dir) = run_with(probe("127.0.0.1", url.clone(), RobotsReview::Pending), &direct);
    server.settle();
    assert!(server.requests().is_empty(), "a source whose robots.txt review is pending was requested: {:?}", server.requests());
    let r = &report.sources[0];
    assert_eq!(r.status.to_string(), "refused", "{r:?}");
    for told in ["robots.txt review is pending", "https://127.0.0.1/robots.txt", "adapters/probe.rs", "review.robots_txt", "--mirror"] {
        assert!(r.message.contains(told), "the refusal does not say {told:?}: {}", r.message);
    }
    // The licence and dataset page a person must read too.
    let m = &cityvibe::adapters::madrid::MANIFEST;
    assert!(r.message.contains(m.dataset_page) && r.message.contains(m.licence.url), "{}", r.message);
    assert!(report.any_problem(), "a refused source is a problem for cron");

    let (report, _dir) = run_with(probe("127.0.0.1", url, RobotsReview::Read), &direct);
    server.settle();
    assert_eq!(server.requests().len(), 1, "the reviewed control was not requested: {:?}", report.sources);
}

// Tests and staging use the adapter before the review: a run
// through a mirror reads and stores it.
#[test]
fn a_pending_review_is_read_through_a_mirror_p14() {
    let body = std::fs::read(common::sample(MADRID_JSON)).unwrap();
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let mirror = Client::new(Some(Mirror::Http(url::Url::parse(&server.url()).unwrap())), Limits::default());
    let adapters = probe("agenda.example.es", "https://agenda.example.es/feeds/agenda.json".into(), RobotsReview::Pending);
    let (report, _dir) = run_with(adapters, &mirror);
    assert_eq!(server.requests().len(), 1, "{:?}", report.sources);
    assert_eq!(server.requests()[0].path, "/agenda.example.es/feeds/agenda.json");
    let r = &report.sources[0];
    assert_eq!(r.status.to_string(), "ok", "{r:?}");
    assert!(r.added > 0, "{r:?}");
}

// P3, P14: every built-in adapter whose robots.txt review is pending is
// refused by a run without --mirror, which says what to read (the host's
// robots.txt, the dataset page) and where to write it down (the adapter's
// file, `review.robots_txt`); through a mirror the same gate lets it
// through. Through the binary, the run's own gate answers in `run
// --dry-run` (a real run without --mirror books in the machine's system
// ledger, which a test must not touch); the loopback test above proves that
// the run itself sends nothing.
#[test]
fn every_adapter_pending_review_is_refused_without_a_mirror_and_read_through_one_p3_p14() {
    let pending: Vec<&Manifest> = cityvibe::adapters::ALL.iter().map(|a| a.manifest()).filter(|m| m.pending_review().is_some()).collect();
    assert!(!pending.is_empty(), "no built-in adapter's review is pending: this test pins nothing any more");
    for m in pending {
        let dir = common::workdir(&common::sources_toml(&[m.id], ""));
        let d = dir.path();
        let out = common::cityvibe(d, &["run", "--dry-run", "--source", m.id, "--json"]);
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{}: {said}", m.id);
        let dry: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}: {said}", m.id));
        let line = &dry["sources"][0];
        assert_eq!(line["would"], "refuse", "{}: {line}", m.id);
        let why = line["why"].as_str().unwrap_or("");
        let (robots, file) = (format!("https://{}/robots.txt", m.host), format!("adapters/{}.rs", m.id));
        for told in [m.id, "robots.txt review is pending", &robots, m.dataset_page, &file, "review.robots_txt"] {
            assert!(why.contains(told), "{}: the refusal does not say {told:?}: {why}", m.id);
        }
        let mirror = d.join("mirror");
        std::fs::create_dir_all(&mirror).unwrap();
        let out = common::cityvibe(d, &["--mirror", mirror.to_str().unwrap(), "run", "--dry-run", "--source", m.id, "--json"]);
        let dry: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}: {}", m.id, String::from_utf8_lossy(&out.stderr)));
        assert_eq!(dry["sources"][0]["would"], "fetch", "{}: {dry}", m.id);
    }
}
