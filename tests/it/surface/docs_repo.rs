//! The documents in the repository stay true to the code:
//! the command reference in docs/OPERATING.md is what the clap definitions
//! generate and what `--help` prints; every promise id the code cites is
//! defined in docs/POLICY.md; each `**Invariant:**` of docs/ARCHITECTURE.md
//! names a test or lint that exists; the README is a short door whose
//! dependency list names every crate; no document points outside the
//! repository. Not for what the commands do (the `operator_*`, `polite_*`
//! and `surface_*` tests).

use regex::Regex;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Where the generated reference sits in docs/OPERATING.md.
const BEGIN: &str = "<!-- BEGIN generated command reference: `make docs` writes it from src/cli.rs; do not edit by hand -->";
const END: &str = "<!-- END generated command reference -->";

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every file under `rel` (recursively) whose name ends with `ext`.
fn files(rel: &str, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![Path::new(ROOT).join(rel)];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.to_string_lossy().ends_with(ext) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The command reference as the clap definitions generate it (clap-markdown),
/// its headings one level down so that it sits under OPERATING.md's title.
fn generated_reference() -> String {
    use clap::CommandFactory;
    let mut built = cityvibe::cli::Cli::command();
    built.build();
    let mut usages = std::collections::HashMap::new();
    collect_usages(&built, &mut usages);
    let command = with_usages(cityvibe::cli::Cli::command(), "cityvibe", &usages);
    let options = clap_markdown::MarkdownOptions::new().title("Command reference (generated)".into()).show_footer(false);
    let md = clap_markdown::help_markdown_command_custom(&command, &options);
    let demoted: Vec<String> =
        md.lines().map(|l| if l.starts_with("# ") || l.starts_with("## ") { format!("#{l}") } else { l.trim_end().to_string() }).collect();
    format!("{}\n", demoted.join("\n").trim_end())
}

/// Each command's usage line as `--help` prints it: on the built command,
/// where the global options have reached every subcommand (`[OPTIONS]`).
fn collect_usages(command: &clap::Command, out: &mut std::collections::HashMap<String, String>) {
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let usage = sub.clone().render_usage().to_string();
        let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).to_string();
        out.insert(sub.get_bin_name().expect("built").to_string(), usage);
        collect_usages(sub, out);
    }
}

/// `command` with each subcommand's usage overridden by the one `--help`
/// prints (clap-markdown renders a subcommand's usage on its own, without
/// the global options it inherits), less the parent path it prefixes.
fn with_usages(command: clap::Command, path: &str, usages: &std::collections::HashMap<String, String>) -> clap::Command {
    let names: Vec<String> = command.get_subcommands().map(|s| s.get_name().to_string()).collect();
    names.into_iter().fold(command, |command, name| {
        let full = format!("{path} {name}");
        command.mut_subcommand(&name, |sub| {
            let sub = with_usages(sub, &full, usages);
            let usage = &usages[&full];
            sub.override_usage(usage.strip_prefix(&format!("{path} ")).unwrap_or(usage).to_string())
        })
    })
}

/// The reference docs/OPERATING.md holds between its markers, and the text
/// before and after it.
fn documented_reference(doc: &str) -> (&str, &str, &str) {
    let start = doc.find(BEGIN).unwrap_or_else(|| panic!("docs/OPERATING.md lacks the line {BEGIN}"));
    let body = start + BEGIN.len() + 1;
    let end = doc[body..].find(END).map(|i| body + i).unwrap_or_else(|| panic!("docs/OPERATING.md lacks the line {END}"));
    (&doc[..body], &doc[body..end], &doc[end..])
}

// The command reference is generated, not hand-written. With
// CITYVIBE_UPDATE_DOCS=1 (what `make docs` sets) the test writes it instead.
#[test]
fn the_command_reference_in_operating_md_is_what_clap_generates() {
    let doc = read("docs/OPERATING.md");
    let (before, documented, after) = documented_reference(&doc);
    let generated = generated_reference();
    if std::env::var_os("CITYVIBE_UPDATE_DOCS").is_some() {
        std::fs::write(Path::new(ROOT).join("docs/OPERATING.md"), format!("{before}{generated}{after}")).unwrap();
        eprintln!("notice: docs/OPERATING.md's command reference rewritten from src/cli.rs");
        return;
    }
    if documented != generated {
        let line = documented.lines().zip(generated.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "docs/OPERATING.md's command reference differs from what src/cli.rs generates, first at its line {}:\n  documented: {:?}\n  generated:  {:?}\nRegenerate it with `make docs` (CITYVIBE_UPDATE_DOCS=1 cargo test --test it surface::docs_repo::the_command_reference) and commit docs/OPERATING.md.",
            line + 1,
            documented.lines().nth(line).unwrap_or("(end)"),
            generated.lines().nth(line).unwrap_or("(end)"),
        );
    }
}

// The reference is what the binary's `--help` says: for every
// command it lists, `cityvibe COMMAND --help` prints the same about line and the
// same usage.
#[test]
fn the_command_reference_is_what_help_prints() {
    let doc = read("docs/OPERATING.md");
    let (_, documented, _) = documented_reference(&doc);
    let dir = tempfile::tempdir().unwrap();
    let heading = Regex::new(r"^### `cityvibe(?: (.+))?`$").unwrap();
    let lines: Vec<&str> = documented.lines().collect();
    let mut seen = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(m) = heading.captures(line) else { continue };
        let path: Vec<&str> = m.get(1).map(|p| p.as_str().split(' ').collect()).unwrap_or_default();
        let about = lines[i + 2];
        let usage = lines[i + 4..].iter().find_map(|l| l.strip_prefix("**Usage:** `")).expect("a usage line").trim_end_matches('`');
        let mut args = path.clone();
        args.push("--help");
        let out = crate::common::cityvibe(dir.path(), &args);
        assert!(out.status.success(), "cityvibe {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
        let help = String::from_utf8(out.stdout).unwrap();
        let help_words = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.lines().any(|l| l == format!("Usage: {usage}")), "cityvibe {}: usage {usage:?} not in\n{help}", args.join(" "));
        // clap-markdown drops the about's final stop, as the short help does.
        let about_words = about.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help_words.contains(about_words.trim_end_matches('.')), "cityvibe {}: about {about:?} not in\n{help}", args.join(" "));
        seen += 1;
    }
    let commands = documented.lines().filter(|l| heading.is_match(l)).count();
    assert!(seen >= 30 && seen == commands, "{seen} of {commands} commands checked");
}

// Every promise id cited in src/, adapters/ or tests/ is
// defined in docs/POLICY.md, under a heading of its own.
#[test]
fn every_promise_the_code_cites_is_defined_in_docs_policy() {
    let cite = Regex::new(r"\bP[0-9]{1,2}\b").unwrap();
    let mut cited = BTreeSet::new();
    for dir in ["src", "adapters", "tests"] {
        for file in files(dir, ".rs") {
            let text = std::fs::read_to_string(&file).unwrap();
            cited.extend(cite.find_iter(&text).map(|m| m.as_str()[1..].parse::<u32>().unwrap()));
        }
    }
    let policy = read("docs/POLICY.md");
    let heading = Regex::new(r"(?m)^### P([0-9]{1,2})\. \S").unwrap();
    let defined: Vec<u32> = heading.captures_iter(&policy).map(|c| c[1].parse().unwrap()).collect();
    assert_eq!(defined, (1..=20).collect::<Vec<_>>(), "docs/POLICY.md defines P1 to P20, once each, in order");
    let undefined: Vec<_> = cited.iter().filter(|id| !defined.contains(id)).map(|id| format!("P{id}")).collect();
    assert!(undefined.is_empty(), "cited in the code but not defined in docs/POLICY.md: {undefined:?}");
    assert!(cited.len() >= 19, "the grep found only {cited:?}");
}

/// A Markdown file's relative links (`](path#anchor)`), as (path, anchor);
/// the path is empty for a link within the file.
fn relative_links(text: &str) -> Vec<(String, Option<String>)> {
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    link.captures_iter(text)
        .map(|c| c[1].to_string())
        .filter(|l| !l.starts_with("http://") && !l.starts_with("https://") && !l.starts_with("mailto:"))
        .map(|l| match l.split_once('#') {
            Some((path, anchor)) => (path.to_string(), Some(anchor.to_string())),
            None => (l, None),
        })
        .collect()
}

/// The anchors a Markdown file's headings get, as GitHub makes them:
/// lower case, punctuation dropped, blanks as `-`.
fn anchors(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix('#').map(|h| h.trim_start_matches('#')))
        .filter(|h| h.starts_with(' '))
        .map(|h| {
            h.trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

// The repository stands alone. Its documents link only to
// files in it, and no document or doc comment names ../shared or the design
// notes outside it (tests and the Makefile still read data from ../shared).
#[test]
fn no_document_points_outside_the_repository() {
    let mut docs = vec![Path::new(ROOT).join("README.md")];
    docs.extend(files("docs", ".md"));
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        let base = doc.parent().unwrap();
        for (link, anchor) in relative_links(&text) {
            let target = if link.is_empty() { doc.clone() } else { base.join(&link) };
            assert!(target.exists(), "{}: the link {link} names no file", doc.display());
            let real = target.canonicalize().unwrap();
            assert!(real.starts_with(Path::new(ROOT).canonicalize().unwrap()), "{}: {link} is outside the repository", doc.display());
            if let Some(anchor) = anchor {
                let heads = anchors(&std::fs::read_to_string(&target).unwrap());
                assert!(heads.contains(&anchor), "{}: the link {link}#{anchor} names no heading of {}", doc.display(), target.display());
            }
        }
        assert!(!text.contains("../shared"), "{} points at ../shared", doc.display());
    }
    let mut sources = files("src", ".rs");
    sources.extend(files("adapters", ".rs"));
    for file in sources {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let comment = line.trim_start().starts_with("//");
            assert!(!(comment && line.contains("../shared")), "{}:{}: a comment points at ../shared", file.display(), n + 1);
            assert!(
                !line.contains("DESIGN.md"),
                "{}:{}: DESIGN.md is not in the repository (docs/ARCHITECTURE.md is)",
                file.display(),
                n + 1
            );
        }
    }
}

// The README is a door: at most 150 lines, the two commands,
// the two pictures, a link to every document in docs/, and the one-line reason
// of every crate Cargo.toml names (the charter's dependency list).
#[test]
fn the_readme_is_a_short_door_naming_every_crate() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 150, "README.md has {lines} lines; at most 150, the rest belongs in docs/");
    for must in ["make demo", "make test", "](docs/report-status.png)", "](docs/report-host.png)"] {
        assert!(readme.contains(must), "README.md lacks {must}");
    }
    for doc in files("docs", ".md") {
        let name = doc.file_name().unwrap().to_string_lossy().into_owned();
        assert!(readme.contains(&format!("](docs/{name})")), "README.md does not link docs/{name}");
    }
    let manifest: toml::Table = read("Cargo.toml").parse().unwrap();
    let listed = readme.split("## Dependencies").nth(1).expect("a Dependencies section");
    for table in ["dependencies", "dev-dependencies"] {
        for krate in manifest[table].as_table().unwrap().keys() {
            let row = Regex::new(&format!(r"(?m)^\| [^|]*\b{}\b[^|]*\| \S", regex::escape(krate))).unwrap();
            assert!(row.is_match(listed), "README.md's dependency list gives no reason for the crate {krate}");
        }
    }
}

// docs/ARCHITECTURE.md gives every folder of src/ and adapters/
// an `**Invariant:**` line, docs/POLITENESS.md pins every promise, and each
// test or lint such a line names exists.
#[test]
fn every_invariant_in_architecture_md_names_a_real_test() {
    let doc = read("docs/ARCHITECTURE.md");
    let mut code = String::new();
    for dir in ["src", "adapters", "tests", "benches"] {
        for file in files(dir, ".rs") {
            code.push_str(&std::fs::read_to_string(file).unwrap());
        }
    }
    let makefile = read("Makefile");
    let ticked = Regex::new(r"`([^`]+)`").unwrap();
    let path = Regex::new(r"^[a-z_0-9]+(::[a-z_0-9]+)*$").unwrap();
    // docs/POLITENESS.md's "**Pinned by:**" lines name tests the same way.
    let politeness = read("docs/POLITENESS.md");
    let pinned = politeness.lines().filter(|l| l.starts_with("**Pinned by:**"));
    assert_eq!(pinned.clone().count(), 20, "docs/POLITENESS.md pins each of P1 to P20");
    let invariants: Vec<&str> = doc.lines().filter(|l| l.starts_with("**Invariant:**")).chain(pinned).collect();
    for line in &invariants {
        let mut named = 0;
        for m in ticked.captures_iter(line) {
            let name = &m[1];
            if let Some(target) = name.strip_prefix("make ") {
                assert!(makefile.lines().any(|l| l.starts_with(&format!("{target}:"))), "{line}\n  no Makefile target {target}");
                named += 1;
            } else if path.is_match(name) {
                let func = name.rsplit("::").next().unwrap();
                assert!(code.contains(&format!("fn {func}(")), "{line}\n  no test or function named {func}");
                named += 1;
            }
        }
        assert!(named > 0, "this invariant names no test or lint:\n{line}");
    }
    // Each folder's section (its `### src/DIR/` heading up to the next) holds one.
    let mut folders: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("src"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| format!("src/{}/", e.file_name().to_string_lossy()))
        .collect();
    folders.push("adapters/".into());
    for folder in folders {
        let head = format!("### `{folder}`");
        let start = doc.find(&head).unwrap_or_else(|| panic!("docs/ARCHITECTURE.md has no section {head}"));
        let rest = &doc[start + head.len()..];
        let section = &rest[..rest.find("\n#").unwrap_or(rest.len())];
        assert!(section.lines().any(|l| l.starts_with("**Invariant:**")), "{folder}: no **Invariant:** line in its section");
    }
}

/// Each library file's text before its unit tests (`#[cfg(test)]`), with
/// its path relative to the crate root.
fn library_code() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["src", "adapters"] {
        for file in files(dir, ".rs") {
            let text = std::fs::read_to_string(&file).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap().to_string();
            let rel = file.strip_prefix(ROOT).unwrap().to_string_lossy().into_owned();
            out.push((rel, code));
        }
    }
    out
}

// docs/ARCHITECTURE.md, `src/http/`: the polite client is the only code that
// talks to publishers; the translation engines' own client (src/translate/)
// talks only to the operator's translation server.
#[test]
fn only_http_and_the_translation_servers_hold_an_http_client() {
    for (rel, code) in library_code() {
        let allowed = rel.starts_with("src/http/") || rel.starts_with("src/translate/");
        let uses = code.lines().any(|l| !l.trim_start().starts_with("//") && l.contains("ureq::"));
        assert!(allowed || !uses, "{rel} uses ureq: only src/http/ (and the translation servers) may send a request");
    }
}

// docs/ARCHITECTURE.md, `src/store/`: the store is the only code that opens
// the events database, the host ledger the only other SQLite file.
#[test]
fn only_the_store_and_the_ledger_open_sqlite() {
    for (rel, code) in library_code() {
        let allowed = rel.starts_with("src/store/") || rel == "src/http/ledger.rs";
        let opens = code.lines().any(|l| !l.trim_start().starts_with("//") && l.contains("Connection::open"));
        assert!(allowed || !opens, "{rel} opens an SQLite connection: only src/store/ and src/http/ledger.rs may");
    }
}

/// The stages of a translation step, from the top down (docs/ARCHITECTURE.md,
/// `src/translate/`): each folder's code names only the stages below it.
const TRANSLATE_STAGES: [&str; 5] = ["plan", "send", "finish", "prepare", "engines"];

#[test]
fn each_stage_of_translate_imports_only_the_stages_below_it() {
    let named = Regex::new(r"crate::translate::([a-z_]+)").unwrap();
    let mut seen = 0;
    for (rel, code) in library_code() {
        let Some(stage) = TRANSLATE_STAGES.iter().position(|s| rel.starts_with(&format!("src/translate/{s}/"))) else { continue };
        seen += 1;
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for m in named.captures_iter(line) {
                if let Some(other) = TRANSLATE_STAGES.iter().position(|s| *s == &m[1]) {
                    assert!(
                        other >= stage,
                        "{rel} names `translate::{}`, a stage above `{}`: the stages run {TRANSLATE_STAGES:?}, each importing only those after it\n  {line}",
                        &m[1],
                        TRANSLATE_STAGES[stage]
                    );
                }
            }
            assert!(!line.contains("super::super"), "{rel} reaches two folders up; name the stage by its path\n  {line}");
        }
    }
    assert!(seen >= 25, "only {seen} files of the translate stages read: have the folders moved?");
}
