//! Translations out to translators' tools and back in: GNU gettext PO (through
//! `polib`; Weblate, Pontoon and Poedit read it) and XLIFF 1.2 (through
//! `quick-xml`). One entry per distinct original text: the original is the
//! source string, the field its context, the events carrying it a comment; a
//! machine translation goes out marked fuzzy (`needs-review-translation` in
//! XLIFF) for a human to review.
//!
//! Not for: deciding what an import may change (`commands::translate`
//! checks every entry against the current originals).

use crate::lang::Lang;
use crate::store::memory::ExchangeText;
use crate::vocab::TextOrigin;
use anyhow::{Context, Result, bail};
use polib::catalog::Catalog;
use polib::message::{Message, MessageFlags};
use polib::metadata::CatalogMetadata;
use quick_xml::events::Event as XmlEvent;

/// An exchange file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Po,
    Xliff,
}

/// One entry read back from a file: field, original, translation.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub field: String,
    pub original: String,
    pub text: String,
}

/// A file read back: its language and its translated, reviewed entries.
#[derive(Debug, Clone)]
pub struct Imported {
    pub lang: String,
    pub entries: Vec<Entry>,
    /// Entries left untranslated or still fuzzy: not for import.
    pub unreviewed: usize,
    /// (field, original) written more than once in the file, and how often:
    /// the PO reader keeps only the last, so they are counted before it.
    pub repeated: std::collections::HashMap<(String, String), usize>,
}

impl Imported {
    /// How many times the file gives a translation of `field` `original`.
    pub fn times(&self, field: &str, original: &str) -> usize {
        let listed = self.entries.iter().filter(|e| e.field == field && e.original == original).count();
        listed.max(self.repeated.get(&(field.to_string(), original.to_string())).copied().unwrap_or(0))
    }
}

/// A text's current translation and who made it; an empty text and no one when there is none.
fn current(t: &ExchangeText) -> (String, Option<&TextOrigin>) {
    match &t.current {
        Some((text, origin)) => (text.clone(), Some(origin)),
        None => (String::new(), None),
    }
}

/// Writes `texts` (translations into `lang`) as `format`.
pub fn write(format: Format, lang: Lang, texts: &[ExchangeText]) -> Result<String> {
    match format {
        Format::Po => {
            let mut meta = CatalogMetadata::new();
            meta.project_id_version = "cityvibe".into();
            meta.language = lang.to_string();
            meta.mime_version = "1.0".into();
            meta.content_type = "text/plain; charset=UTF-8".into();
            meta.content_transfer_encoding = "8bit".into();
            let mut catalog = Catalog::new(meta);
            for t in texts {
                let (text, origin) = current(t);
                let mut flags = MessageFlags::new();
                if !text.is_empty() && origin.is_some_and(TextOrigin::is_machine) {
                    flags.add_flag("fuzzy");
                }
                let mut b = Message::build_singular();
                b.with_msgctxt(t.field.to_string())
                    .with_msgid(t.original.clone())
                    .with_msgstr(text)
                    .with_flags(flags)
                    .with_extracted_comments(format!("{}{}", t.events.join(" "), origin.map(|o| format!(" ({o})")).unwrap_or_default()));
                catalog.append_or_update(b.done());
            }
            let mut out = std::io::BufWriter::new(Vec::new());
            polib::po_file::write(&catalog, &mut out)?;
            Ok(String::from_utf8(out.into_inner()?)?)
        }
        Format::Xliff => {
            use quick_xml::escape::escape;
            let mut out = String::from(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n",
            );
            out.push_str(&format!(
                "<file original=\"cityvibe\" datatype=\"plaintext\" source-language=\"{}\" target-language=\"{}\"><body>\n",
                crate::store::memory::EXCHANGE_SOURCE_LANG,
                escape(lang.as_str())
            ));
            for t in texts {
                let (text, origin) = current(t);
                // The id names the field and the original, not a position: a
                // translation tool keys units by id, so the same text keeps
                // its id from one export to the next whatever else changed.
                let id = format!("{}-{}", t.field, crate::store::events::text_hash(&t.original));
                out.push_str(&format!("<trans-unit id=\"{id}\" resname=\"{}\">\n", t.field));
                out.push_str(&format!("<note>{}</note>\n", escape(t.events.join(" "))));
                out.push_str(&format!("<source>{}</source>\n", escape(&t.original)));
                if !text.is_empty() {
                    let state = if origin.is_some_and(TextOrigin::is_machine) { "needs-review-translation" } else { "translated" };
                    out.push_str(&format!("<target state=\"{state}\">{}</target>\n", escape(&text)));
                }
                out.push_str("</trans-unit>\n");
            }
            out.push_str("</body></file>\n</xliff>\n");
            Ok(out)
        }
    }
}

/// Reads a PO or XLIFF file (told apart by its content).
pub fn read(content: &str, name: &str) -> Result<Imported> {
    if content.trim_start().starts_with('<') { read_xliff(content, name) } else { read_po(content, name) }
}

fn read_po(content: &str, name: &str) -> Result<Imported> {
    check_po_strings(content, name)?;
    // polib panics on some malformed files: a panic is caught and said as what
    // it is, a file it cannot read, not a crash.
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let parsed = std::panic::catch_unwind(|| polib::po_file::parse_from_reader(content.as_bytes()));
    std::panic::set_hook(quiet);
    let parsed = parsed
        .map_err(|_| anyhow::anyhow!("{name}: not a PO file that can be read (a malformed line); check it with `msgfmt -c {name}`"))?;
    let catalog = parsed.map_err(|e| anyhow::anyhow!("{name}: not a PO file: {e}"))?;
    let lang = catalog.metadata.language.trim().to_string();
    let mut entries = Vec::new();
    let mut unreviewed = 0;
    for m in catalog.messages() {
        let text = m.msgstr().unwrap_or_default();
        if !m.is_translated() || m.is_fuzzy() || text.trim().is_empty() {
            unreviewed += 1;
            continue;
        }
        entries.push(Entry { field: m.msgctxt().unwrap_or("").to_string(), original: m.msgid().to_string(), text: text.to_string() });
    }
    Ok(Imported { lang, entries, unreviewed, repeated: po_repeats(content) })
}

/// Every string line of a PO file (one starting with `"`, or a keyword and then
/// one) is a whole quoted string: a line holding a lone `"` panics inside
/// polib. The error names file and line.
fn check_po_strings(content: &str, name: &str) -> Result<()> {
    for (n, line) in content.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        // Closed: a last `"` after the first, not escaped by an odd run of `\`.
        let closes = |q: &str| {
            q.len() >= 2 && q.ends_with('"') && q.as_bytes()[1..q.len() - 1].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 0
        };
        if !line.find('"').is_none_or(|at| closes(&line[at..])) {
            bail!("{name}:{}: a string that does not close with `\"`: {:?}", n + 1, crate::parse::stored::message(line, &[]));
        }
    }
    Ok(())
}

/// The (msgctxt, msgid) pairs a PO file writes more than once, with their
/// counts: a light scan of the keywords and their continuation lines,
/// after [`check_po_strings`] found every string closed.
fn po_repeats(content: &str) -> std::collections::HashMap<(String, String), usize> {
    let mut counts: std::collections::HashMap<(String, String), usize> = Default::default();
    let (mut ctxt, mut id, mut into): (String, Option<String>, Option<&str>) = (String::new(), None, None);
    let string = |line: &str| line.find('"').map(|at| unescape_po(&line[at + 1..line.len() - 1])).unwrap_or_default();
    for line in content.lines().map(str::trim) {
        if line.starts_with("msgctxt") {
            if let Some(done) = id.take() {
                *counts.entry((std::mem::take(&mut ctxt), done)).or_default() += 1;
            }
            (ctxt, into) = (string(line), Some("ctxt"));
        } else if line.starts_with("msgid ") {
            if let Some(done) = id.take() {
                *counts.entry((std::mem::take(&mut ctxt), done)).or_default() += 1;
            }
            (id, into) = (Some(string(line)), Some("id"));
        } else if line.starts_with('"') {
            match into {
                Some("ctxt") => ctxt.push_str(&string(line)),
                Some("id") => id.get_or_insert_with(String::new).push_str(&string(line)),
                _ => {}
            }
        } else if !line.is_empty() && !line.starts_with('#') {
            into = None;
        }
    }
    if let Some(done) = id {
        *counts.entry((ctxt, done)).or_default() += 1;
    }
    counts.retain(|(_, id), n| *n > 1 && !id.is_empty());
    counts
}

fn unescape_po(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn read_xliff(content: &str, name: &str) -> Result<Imported> {
    let mut reader = quick_xml::Reader::from_str(content);
    let mut lang = String::new();
    let mut entries = Vec::new();
    let mut unreviewed = 0;
    let (mut field, mut source, mut target, mut state) = (String::new(), None::<String>, None::<String>, String::new());
    let mut inside: Option<&'static str> = None;
    let mut buf = String::new();
    loop {
        let event = reader.read_event().with_context(|| format!("{name}: not an XLIFF file"))?;
        match event {
            XmlEvent::Start(e) | XmlEvent::Empty(e) => {
                let attr = |key: &str| crate::parse::xml::attribute(&e, key);
                match e.local_name().as_ref() {
                    "file" => lang = attr("target-language"),
                    "trans-unit" => {
                        field = attr("resname");
                        (source, target, state) = (None, None, String::new());
                    }
                    "source" => (inside, buf) = (Some("source"), String::new()),
                    "target" => {
                        state = attr("state");
                        (inside, buf) = (Some("target"), String::new());
                    }
                    _ => {}
                }
            }
            XmlEvent::Text(t) if inside.is_some() => buf.push_str(&t.xml10_content()),
            XmlEvent::GeneralRef(r) if inside.is_some() => {
                buf.push_str(&crate::parse::xml::reference_text(&r));
            }
            XmlEvent::CData(t) if inside.is_some() => buf.push_str(&t.xml10_content()),
            XmlEvent::End(e) => match e.local_name().as_ref() {
                "source" => (source, inside) = (Some(std::mem::take(&mut buf)), None),
                "target" => (target, inside) = (Some(std::mem::take(&mut buf)), None),
                "trans-unit" => match (source.take(), target.take()) {
                    (Some(original), Some(text)) if !text.trim().is_empty() && !state.starts_with("needs-") && state != "new" => {
                        entries.push(Entry { field: field.clone(), original, text })
                    }
                    _ => unreviewed += 1,
                },
                _ => {}
            },
            XmlEvent::Eof => break,
            _ => {}
        }
    }
    if lang.is_empty() {
        bail!("{name}: the XLIFF <file> names no target-language");
    }
    Ok(Imported { lang, entries, unreviewed, repeated: Default::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts() -> Vec<ExchangeText> {
        vec![
            ExchangeText {
                field: crate::vocab::Field::Title,
                original: "Club de lectura \"Tres\" & más".into(),
                events: vec!["madrid:1".into()],
                current: Some(("Book club \"Three\" & more".into(), TextOrigin::Machine(Some("apertium/3.8.3".into())))),
            },
            ExchangeText {
                field: crate::vocab::Field::Description,
                original: "Línea uno\nlínea dos".into(),
                events: vec!["madrid:2".into()],
                current: None,
            },
        ]
    }

    /// The PO file with its title entry written twice.
    fn reviewed_po_twice(written: &str) -> String {
        let at = written.find("msgctxt \"title\"").unwrap();
        let entry = &written[at..written[at..].find("\n\n").map_or(written.len(), |e| at + e + 2)];
        format!("{written}\n{entry}")
    }

    #[test]
    fn both_formats_round_trip_and_machine_text_needs_review() {
        for format in [Format::Po, Format::Xliff] {
            let written = write(format, Lang::En, &texts()).unwrap();
            let back = read(&written, "t").unwrap();
            assert_eq!(back.lang, "en", "{format:?}");
            if format == Format::Po {
                // A lone `"` is named by line, not a panic.
                let broken = written.replacen("msgstr \"Book", "\"\nmsgstr \"Book", 1);
                let e = read(&broken, "en.po").unwrap_err().to_string();
                assert!(e.starts_with("en.po:") && e.contains("does not close"), "{e}");
                let twice = reviewed_po_twice(&written);
                let back = read(&twice, "en.po").unwrap();
                assert_eq!(back.times("title", "Club de lectura \"Tres\" & más"), 2, "{twice}");
            }
            // The machine translation goes out for review, not as reviewed.
            assert!(back.entries.is_empty(), "{format:?}: {written}");
            assert_eq!(back.unreviewed, 2, "{format:?}");
            let reviewed = written.replace("#, fuzzy\n", "").replace("needs-review-translation", "translated");
            let back = read(&reviewed, "t").unwrap();
            assert_eq!(
                back.entries,
                [Entry {
                    field: "title".into(),
                    original: "Club de lectura \"Tres\" & más".into(),
                    text: "Book club \"Three\" & more".into()
                }],
                "{format:?}: {reviewed}"
            );
        }
    }
}
