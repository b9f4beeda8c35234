//! The sources page in seven languages (P19). The systemd service of docs/OPERATING.md treats exit 3 (locked,
//! nothing fetched) as success and is hardened; `systemd-analyze security`
//! rates it 2.0 or better when systemd-analyze is installed. Every `--lang` takes the seven codes and only those, as one type.

/// The `cityvibe.service` unit docs/OPERATING.md installs (`deploy/`).
fn readme_service() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/cityvibe.service")).unwrap()
}

#[test]
fn the_readme_service_accepts_exit_3_and_is_hardened() {
    let unit = readme_service();
    for line in [
        "SuccessExitStatus=3",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "NoNewPrivileges=yes",
        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
        "SystemCallFilter=@system-service",
        "ReadWritePaths=",
    ] {
        assert!(unit.lines().any(|l| l.starts_with(line)), "deploy/cityvibe.service lacks {line}:\n{unit}");
    }
    let Ok(v) = std::process::Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!("notice: no systemd-analyze; the exposure score is not checked");
        return;
    };
    assert!(v.status.success());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cityvibe.service");
    std::fs::write(&path, unit).unwrap();
    let out =
        std::process::Command::new("systemd-analyze").args(["security", "--offline=true", "--threshold=20"]).arg(&path).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "exposure above 2.0: {}", text.lines().last().unwrap_or(""));
}

/// Parse `html` as XML; its root's `lang` and whether a viewport meta and a
/// stylesheet are in it.
fn page_facts(html: &str) -> (String, bool, bool) {
    let mut reader = quick_xml::Reader::from_str(html);
    let (mut lang, mut viewport, mut style, mut depth) = (String::new(), false, false, 0i32);
    loop {
        match reader.read_event().expect("well-formed page") {
            quick_xml::events::Event::Start(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref().as_bytes()).into_owned();
                if name == "html" {
                    lang = cityvibe::parse::xml::attribute(&e, "lang");
                }
                viewport |= name == "meta" && cityvibe::parse::xml::attribute(&e, "name") == "viewport";
                style |= name == "style";
                depth += 1;
            }
            quick_xml::events::Event::Empty(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref().as_bytes()).into_owned();
                viewport |= name == "meta" && cityvibe::parse::xml::attribute(&e, "name") == "viewport";
            }
            quick_xml::events::Event::End(_) => depth -= 1,
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0, "unbalanced tags");
    (lang, viewport, style)
}

// P19: the public sources page in each of CityVibe's seven
// languages, styled for a phone, with no English mixed into the others.
#[test]
fn the_sources_page_speaks_seven_languages() {
    let dir = crate::common::workdir("[settings]\ntranslator = \"none\"\n");
    let d = dir.path();
    let titles = [
        ("es", "Fuentes de datos", "diaria"),
        ("ca", "Fonts de dades", "diària"),
        ("gl", "Fontes de datos", "diaria"),
        ("en", "Data sources", "daily"),
        ("fr", "Sources de données", "quotidienne"),
        ("it", "Fonti dei dati", "quotidiano"),
        ("pt", "Fontes de dados", "diária"),
    ];
    for (lang, title, daily) in titles {
        let out = crate::common::cityvibe(d, &["sources", "export", "--format", "html", "--lang", lang]);
        assert!(out.status.success(), "{lang}: {}", String::from_utf8_lossy(&out.stderr));
        let html = String::from_utf8(out.stdout).unwrap();
        let (root_lang, viewport, style) = page_facts(&html);
        assert_eq!(root_lang, lang);
        assert!(viewport && style, "{lang}: viewport {viewport}, style {style}");
        assert!(html.contains(&format!("<h1>{title}</h1>")), "{lang}: {html}");
        assert!(html.contains(&format!("<dd>{daily}</dd>")), "{lang}: the update frequency in its words");
        // The manifests' English notes stay out of the page.
        for a in cityvibe::adapters::ALL {
            let note = a.manifest().update_schedule;
            if let Some(paren) = note.find('(') {
                assert!(!html.contains(&note[paren..]), "{lang}: {note:?} leaked into the page");
            }
        }
        let md = String::from_utf8(crate::common::cityvibe(d, &["sources", "export", "--lang", lang]).stdout).unwrap();
        assert!(md.starts_with(&format!("# {title}\n")), "{lang}: {md}");
    }
    let es = String::from_utf8(crate::common::cityvibe(d, &["sources", "export", "--format", "html"]).stdout).unwrap();
    for english in ["daily", "regenerated", "the portal", "continuous"] {
        assert!(!es.contains(english), "English in the Spanish page: {english}");
    }
    assert_eq!(crate::common::cityvibe(d, &["sources", "export", "--lang", "de"]).status.code(), Some(2));
}

/// Every command's `--lang` parses to the one language
/// type: the seven codes are offered in its help, anything else is refused
/// by the parser (exit 2, naming the seven) before a file is opened.
#[test]
fn every_lang_option_takes_the_seven_codes_and_nothing_else() {
    let dir = crate::common::workdir("[settings]\ntranslator = \"none\"\n");
    let d = dir.path();
    let seven = "[possible values: es, ca, gl, en, fr, it, pt]";
    // (the command, what else it needs)
    let commands: [(&[&str], &[&str]); 7] = [
        (&["events", "list"], &[]),
        (&["events", "show"], &["madrid:1"]),
        (&["export"], &["--format", "json"]),
        (&["report"], &["--out", "site"]),
        (&["translate", "export"], &["--format", "po"]),
        (&["translate", "correct"], &["madrid:1", "--title", "T"]),
        (&["sources", "export"], &[]),
    ];
    for (command, needs) in commands {
        let help = crate::common::cityvibe(d, &[command, &["-h"]].concat());
        assert!(String::from_utf8_lossy(&help.stdout).contains(seven), "{command:?} -h offers the seven codes");
        for bad in ["de", "ES", "spa", "es-ES", ""] {
            let out = crate::common::cityvibe(d, &[command, needs, &["--lang", bad]].concat());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command:?} --lang {bad:?}: {err}");
            assert!(err.contains(seven) && err.contains("--lang"), "{command:?} --lang {bad:?}: {err}");
        }
    }
    assert!(!d.join("data/cityvibe.db").exists() && !d.join("site").exists(), "a refused --lang opened or wrote a file");
}
