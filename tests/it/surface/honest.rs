//! An unreviewed manifest is never
//! fetched (P3); unknown ids and empty asks are told as such; read commands
//! never create a database; the failure hint is a command that works;
//! holdings answers for the hosts our stored events link to (P17).
use crate::common;
use crate::surface::output::{MADRID_ONLY, stocked};

use cityvibe::adapter::{Feed, Format};
use cityvibe::http::{Client, Limits, Mirror};
use cityvibe::store::Store;
use common::server::{Reply, Server};
use common::{cityvibe, madrid_like, workdir};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

// P3: a manifest that still says TODO is refused by `run` even
// when switched on, and its URL is never requested. (The binary holds no
// TODO adapter; `make scaffold-check` checks `source enable` and `run` on a
// freshly scaffolded one through the binary.)
#[test]
fn a_todo_manifest_is_never_requested_p3() {
    let server = Server::start(|_, _| Reply::ok(b"[]".to_vec()));
    let feeds: &'static [Feed] = Box::leak(Box::new([Feed {
        url: "https://agenda.example.es/TODO/probe.json",
        format: Format::Json,
        ..cityvibe::adapters::madrid::MANIFEST.feeds[0]
    }]));
    let probe = madrid_like("probe", "agenda.example.es", 10, feeds);
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    let client = Client::new(Some(Mirror::Http(url::Url::parse(&server.url()).unwrap())), Limits::default());
    let adapters: &'static [&'static dyn cityvibe::adapter::Adapter] = Box::leak(Box::new([probe as &dyn cityvibe::adapter::Adapter]));
    let report = common::run_forced(&mut store, adapters, &client, &cityvibe::http::SystemClock);
    assert!(server.requests().is_empty(), "an unreviewed URL was requested: {:?}", server.requests().len());
    let r = &report.sources[0];
    assert_eq!(r.status.to_string(), "refused", "{r:?}");
    assert!(r.message.contains("TODO") && r.message.contains("feeds"), "{}", r.message);
    assert!(report.any_problem());
}

// An unknown source id is an error naming the known ones (exit 2),
// `--limit 0` is refused, and an empty answer says why.
#[test]
fn unknown_sources_and_empty_asks_are_told() {
    let dir = stocked();
    let d = dir.path();
    let out = cityvibe(d, &["events", "list", "--source", "madird"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("madird") && stderr(&out).contains("madrid"), "{}", stderr(&out));
    let out = cityvibe(d, &["events", "list", "--limit", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!stderr(&out).contains("no events stored yet"), "{}", stderr(&out));
    let out = cityvibe(d, &["translate", "--source", "madird"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("madird"), "{}", stderr(&out));
    // A known source with nothing stored is not "no events stored yet".
    let out = cityvibe(d, &["events", "list", "--source", "diba"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!stderr(&out).contains("no events stored yet") && stderr(&out).contains("diba"), "{}", stderr(&out));
}

// Read commands from the wrong folder or with a mistyped --db
// create nothing and say where they looked (exit 2): `source list` gives no
// zeros, `translate export` no empty PO file.
#[test]
fn read_commands_never_create_a_database() {
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    for args in [
        &["events", "list"][..],
        &["events", "show", "madrid:1"],
        &["runs"],
        &["export", "--format", "csv"],
        &["holdings", "madrid"],
        &["takedown", "list"],
        &["source", "show", "madrid"],
        &["--db", "typo.db", "runs"],
        &["--db", "typo.db", "source", "list"],
        &["--db", "typo.db", "translate", "export", "--lang", "en", "--format", "po"],
    ] {
        let out = cityvibe(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("no database at") && stderr(&out).contains("--db"), "{args:?}: {}", stderr(&out));
    }
    assert!(!d.join("data").exists(), "a read command created data/");
    assert!(!d.join("typo.db").exists(), "a read command created typo.db");
    // `source list` too, like every read command: no zeros for a database that is not there.
    let out = cityvibe(d, &["source", "list"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no database at"), "{}", stderr(&out));
    assert!(!d.join("data").exists());
    // A file that is no database is named.
    // Said once, with what to check (a database failure: exit 4, as
    // `surface::output::a_database_failure_exits_4_naming_the_file`
    // holds for a damaged file).
    let out = cityvibe(d, &["--db", "sources.toml", "events", "list"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("sources.toml is not a database"), "{}", stderr(&out));
    assert_eq!(stderr(&out).matches("not a database").count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("--db"), "{}", stderr(&out));
}

// Commands that change what is stored about events (a correction, a
// translation, an import) need the events: with a mistyped --db they
// create nothing and say where they looked (exit 2), like the read commands.
#[test]
fn commands_on_stored_events_never_create_a_database() {
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    std::fs::write(
        d.join("en.po"),
        "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\nmsgctxt \"title\"\nmsgid \"Hola\"\nmsgstr \"Hello\"\n",
    )
    .unwrap();
    for args in [
        &["--db", "typo.db", "events", "correct", "madrid:1", "title", "Otro título", "--reason", "typo in the feed"][..],
        &["--db", "typo.db", "translate"],
        &["--db", "typo.db", "translate", "correct", "madrid:1", "--lang", "en", "--title", "Hello"],
        &["--db", "typo.db", "translate", "import", "en.po"],
    ] {
        let out = cityvibe(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("no database at") && stderr(&out).contains("typo.db"), "{args:?}: {}", stderr(&out));
        assert!(!d.join("typo.db").exists(), "{args:?} created typo.db");
    }
}

// P18: a takedown may come before the first run, so `takedown add` makes
// the database it is given; when it had to, it says where the takedown
// went, since one recorded in a mistyped --db protects nothing.
#[test]
fn a_takedown_into_a_new_database_says_where_it_went_p18() {
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let url = "https://www.madrid.es/sites/v/index.jsp?vgnextoid=abc";
    let out = cityvibe(d, &["--db", "new.db", "takedown", "add", url, "--reason", "asked by the venue"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("no database at new.db") && stderr(&out).contains("--db"), "{}", stderr(&out));
    // The second takedown into the same database says nothing of the kind.
    let out = cityvibe(d, &["--db", "new.db", "takedown", "add", &format!("{url}2"), "--reason", "asked by the venue"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("no database at"), "{}", stderr(&out));
    let out = cityvibe(d, &["--db", "new.db", "takedown", "list"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains(url), "{}", String::from_utf8_lossy(&out.stdout));
}

// The hint on a failure is a command that works as written.
#[test]
fn the_failure_hint_is_a_working_command() {
    let server = Server::start(|_, _| Reply::new(500));
    let dir = workdir(MADRID_ONLY);
    let d = dir.path();
    let out = cityvibe(d, &["--mirror", &server.url(), "run", "--source", "madrid", "--quiet"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let start = err.find("`cityvibe ").expect("a command in the hint") + 1;
    let cmd = &err[start..start + err[start..].find('`').unwrap()];
    let args = shell_words(cmd);
    assert_eq!(&args[..3], ["cityvibe", "source", "disable"], "{cmd}");
    let args: Vec<&str> = args[1..].iter().map(String::as_str).collect();
    let out = cityvibe(d, &args);
    assert_eq!(out.status.code(), Some(0), "`{cmd}` failed as written: {}", stderr(&out));
    assert!(std::fs::read_to_string(d.join("sources.toml")).unwrap().contains("enabled = false"));
}

/// Split a command line on spaces, keeping double-quoted words whole.
fn shell_words(cmd: &str) -> Vec<String> {
    let mut out = vec![];
    let mut word = String::new();
    let mut quoted = false;
    for c in cmd.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

// P17: the webmaster of the host our events link to (or of one
// event's page) gets an answer, not "names no source".
#[test]
fn holdings_answers_for_hosts_our_events_link_to_p17() {
    let dir = stocked();
    let d = dir.path();
    let events: serde_json::Value =
        serde_json::from_str(&String::from_utf8_lossy(&cityvibe(d, &["events", "list", "--json", "--at", common::SAMPLES_AT]).stdout))
            .unwrap();
    let link = events[0]["url"].as_str().unwrap().to_string();
    let host = url::Url::parse(&link).unwrap().host_str().unwrap().to_string();
    assert_ne!(host, "datos.madrid.es", "the sample's events link off the feed's host");
    for q in [host.as_str(), link.as_str()] {
        let out = cityvibe(d, &["holdings", q, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{q}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["sources"][0]["id"], "madrid", "{v}");
        assert_eq!(v["linked_from_events"][0]["source"], "madrid", "{v}");
        assert!(v["linked_from_events"][0]["events"].as_u64().unwrap() >= 1);
    }
    let text = String::from_utf8_lossy(&cityvibe(d, &["holdings", &host]).stdout).into_owned();
    assert!(text.contains("not fetched by CityVibe") && text.contains("link to it"), "{text}");
    // A host nothing links to stays a usage error.
    assert_eq!(cityvibe(d, &["holdings", "example.org"]).status.code(), Some(2));
}

// P17: a webmaster who asks about one page (a URL with a path) is told which
// stored events have it as their original, whatever the scheme they paste,
// and how to take one down (P18); a page none links to is said to be so.
#[test]
fn holdings_for_a_page_names_the_events_it_is_the_original_of_p17() {
    let dir = stocked();
    let d = dir.path();
    let events: serde_json::Value =
        serde_json::from_str(&String::from_utf8_lossy(&cityvibe(d, &["events", "list", "--json", "--at", common::SAMPLES_AT]).stdout))
            .unwrap();
    let (link, id) = (events[0]["url"].as_str().unwrap().to_string(), events[0]["source_event_id"].as_str().unwrap().to_string());
    let same_page = |url: &str| events.as_array().unwrap().iter().filter(|e| e["url"] == url).count();
    let pasted = link.replacen("http://", "https://", 1);
    for q in [link.as_str(), pasted.as_str()] {
        let out = cityvibe(d, &["holdings", q, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{q}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let page = v["page_events"].as_array().unwrap();
        assert_eq!(page.len(), same_page(&link), "{q}: {v}");
        assert!(page.iter().any(|e| e["source"] == "madrid" && e["id"] == id.as_str() && e["status"] == "active"), "{q}: {v}");
    }
    let text = String::from_utf8_lossy(&cityvibe(d, &["holdings", &pasted]).stdout).into_owned();
    assert!(text.contains(&format!("madrid:{id}")) && text.contains("takedown add madrid:"), "{text}");
    // Another page of the same host: none, said so; a bare host is no page.
    let host = url::Url::parse(&link).unwrap().host_str().unwrap().to_string();
    let text = String::from_utf8_lossy(&cityvibe(d, &["holdings", &format!("https://{host}/no-such-page")]).stdout).into_owned();
    assert!(text.contains("no stored event has this page as its original"), "{text}");
    let v: serde_json::Value = serde_json::from_slice(&cityvibe(d, &["holdings", &host, "--json"]).stdout).unwrap();
    assert!(v["page_events"].is_null(), "{v}");
}
