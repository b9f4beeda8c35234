//! `cityvibe adapter check|new`: the developer's tools for writing an adapter.
//! Both work offline: `check` parses a sample file from disk, `new` writes
//! files into the crate.

use crate::adapter::Manifest;
use crate::adapter_tools::check::{CheckReport, check_bytes, feed_for_sample, render_text};
use crate::adapter_tools::scaffold::{NewAdapter, parse_format};
use crate::adapter_tools::todo_fields;
use crate::cli::{AdapterCheckArgs, AdapterNewArgs};
use crate::commands::{exit, print_json};
use anyhow::{Context, Result};

/// `adapter check ID --sample FILE [--json] [--limit N]`: parse the sample
/// with the adapter's feed of the file's format (else its first feed) and
/// report. Exit 1 when the body does not parse or anything e-mail-,
/// phone- or image-shaped survived; 2 for an unknown id or unreadable file.
pub fn check(args: &AdapterCheckArgs) -> Result<super::Exit> {
    let (id, sample, json, limit) = (args.id.as_str(), args.sample.as_path(), args.json, args.limit);
    let Some(adapter) = crate::adapters::by_id(id) else {
        // A scaffold written after this binary was built: say how to get it in.
        eprintln!(
            "cityvibe: no adapter {id:?} in this binary; known: {}. If you just scaffolded it (adapters/{id}.rs), \
             rebuild (`cargo build --release`, or `cargo run -- adapter check {id} --sample FILE`) and check again",
            crate::adapters::ids().join(", ")
        );
        return Ok(exit::USAGE);
    };
    let bytes = read_sample(sample)?;
    let feed = feed_for_sample(adapter, sample);
    let report: CheckReport = check_bytes(adapter, feed, &sample.display().to_string(), &bytes, limit);
    let todo = todo_fields(adapter.manifest());
    // What the conformance suite would refuse in the manifest, said here first
    // (an unknown update frequency among them).
    let problems = crate::adapter_tools::manifest_problems(adapter.manifest());
    print_check(adapter.manifest(), &report, &todo, &problems, json)?;
    Ok(check_exit(id, &report, &problems, json))
}

/// The sample's bytes. A run refuses a body over its cap before parsing it: so
/// does the check, rather than reading any file whole.
fn read_sample(sample: &std::path::Path) -> Result<Vec<u8>> {
    let cap = crate::http::Limits::default().max_body_bytes;
    let size = std::fs::metadata(sample).map(|m| m.len()).unwrap_or(0);
    if size > cap {
        crate::bail_usage!(
            "the sample {} is {size} bytes, over the {} MB a run takes of a feed's body; check a part of it",
            sample.display(),
            cap >> 20
        );
    }
    std::fs::read(sample).with_context(|| format!("reading the sample {}", sample.display())).map_err(crate::output::as_usage)
}

/// The check's report on stdout: JSON, or text with the manifest's TODO
/// fields, its problems and the review still pending.
fn print_check(manifest: &Manifest, report: &CheckReport, todo: &[&'static str], problems: &[String], json: bool) -> Result<()> {
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            ok: bool,
            #[serde(flatten)]
            report: &'a CheckReport,
            manifest_todo: &'a [&'static str],
            manifest_problems: &'a [String],
            /// What a person must still read before a run without `--mirror` fetches it.
            review_pending: Option<String>,
        }
        print_json(&Out {
            ok: !report.failed() && problems.is_empty(),
            report,
            manifest_todo: todo,
            manifest_problems: problems,
            review_pending: manifest.pending_review(),
        })?;
    } else {
        let mut text = render_text(report);
        if !todo.is_empty() {
            text.push_str(&format!(
                "\nmanifest still has TODO in: {} (`source enable` and `run` refuse it until they are filled, P3)\n",
                todo.join(", ")
            ));
        }
        for p in problems {
            text.push_str(&format!("manifest: {p}\n"));
        }
        if let Some(what) = manifest.pending_review() {
            text.push_str(&format!("\nreview pending: {what}\n"));
        }
        use std::io::Write;
        // A closed pipe ends it quietly (`output::finish`); any other failure
        // to write is said.
        write!(std::io::stdout().lock(), "{text}").context("writing to stdout")?;
    }
    Ok(())
}

/// The check's exit status, with its reason on stderr: a manifest problem
/// or a sample that fails (does not parse, or contact or image data
/// survived) is a source problem.
fn check_exit(id: &str, report: &CheckReport, problems: &[String], json: bool) -> super::Exit {
    if !problems.is_empty() {
        eprintln!("cityvibe: {id}: {} manifest problem(s), the conformance suite refuses them (see above)", problems.len());
        if !report.failed() {
            return exit::SOURCE_PROBLEM;
        }
    }
    if report.failed() {
        // The text report on stdout gives the reason already: said once.
        match &report.parse_failure {
            Some(e) if json => eprintln!("cityvibe: {id}: the sample does not parse: {e}"),
            Some(_) => eprintln!("cityvibe: {id}: the sample does not parse (the report above says why)"),
            None => {}
        }
        if !report.findings.is_empty() {
            eprintln!("cityvibe: {id}: {} e-mail/phone- or image-shaped value(s) survived parsing (P4, P5)", report.findings.len());
        }
        return exit::SOURCE_PROBLEM;
    }
    exit::OK
}

/// `adapter new ID --host HOST --format json|xml|csv`: scaffold an adapter
/// in the crate at `root` (the current folder by default).
pub fn new(args: &AdapterNewArgs) -> Result<super::Exit> {
    let (root, id, host, format, json) = (args.root.as_path(), args.id.as_str(), args.host.as_str(), args.format.as_str(), args.json);
    let format = match parse_format(format) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cityvibe: {e}");
            return Ok(exit::USAGE);
        }
    };
    let spec = NewAdapter { id: id.to_string(), host: host.to_string(), format };
    if let Err(e) = spec.validate() {
        eprintln!("cityvibe: {e}");
        return Ok(exit::USAGE);
    }
    let written = spec.write(root)?;
    if json {
        print_json(&written)?;
    } else {
        crate::outln!("wrote {}", written.adapter.display())?;
        crate::outln!("wrote {}", written.sample.display())?;
        crate::outln!("wrote {} (the PII fixture: contact and image fields the parser must leave unread)", written.pii_fixture.display())?;
        crate::outln!("registered `{id}` in {}", written.registry.display())?;
        crate::outln!("added a disabled [sources.{id}] row to {}", written.sources.display())?;
        crate::outln!("next: cargo test --lib {id}; then follow docs/ADAPTERS.md and fill every TODO in the manifest")?;
    }
    Ok(exit::OK)
}
