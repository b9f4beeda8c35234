//! The XML record driver: streams a feed with quick-xml, hands each record
//! element (a child of the root) to the adapter's mapping as a small tree,
//! and pushes the outcome. Memory follows one record, not the feed.
//!
//! It owns what every XML feed has in common: the root checked, elements
//! named in [`Shape::never_read`] (contact data, images) skipped whole with
//! their children the moment their start tag is seen (their text is never
//! decoded, copied or kept), entity references, positions, a record over
//! [`RECORD_CAP`] or nesting deeper than [`MAX_DEPTH`] refused alone (in time
//! and memory linear in the record: its elements share one text), and a
//! body that ends before its root closes refused as cut, even right after a
//! whole record.
//! Not for: what a record means (the adapter's mapping).

use super::sink::{EventSink, FeedError, RecordError};
use crate::model::Event;
use crate::parse::xml::{attribute_value, reference_text};
use quick_xml::events::Event as X;
use std::io::BufRead;
use std::sync::Arc;

/// A record's text (all its elements' together) longer than this is refused.
pub const RECORD_CAP: usize = crate::records::json::RECORD_CAP;

/// A record nesting deeper than this many elements (itself included) is
/// refused as a record error: the JSON driver's bound (see there); the real
/// XML feeds nest at most 5 elements deep.
pub const MAX_DEPTH: usize = crate::records::json::MAX_DEPTH;

/// Where the records of a feed are.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The root element (another root: not this feed).
    pub root: &'static str,
    /// The record element, a child of the root.
    pub record: &'static str,
    /// Elements skipped whole wherever they are: never decoded or kept.
    pub never_read: &'static [&'static str],
}

/// One element of a record.
#[derive(Debug, Default)]
pub struct Node {
    pub name: String,
    attributes: Vec<(String, String)>,
    /// Where its content lies in `record_text`.
    start: usize,
    end: usize,
    /// The whole record's text, shared by all its elements: each element's
    /// content is a span of it, not a copy of its own (a copy per open
    /// element would be quadratic in the nesting).
    record_text: Arc<str>,
    pub children: Vec<Node>,
}

impl Node {
    /// Its content as text: text, CDATA and entity references, with its
    /// children's tags written back without their attributes (HTML written
    /// as markup instead of CDATA stays markup for `html_to_text`).
    pub fn text(&self) -> &str {
        &self.record_text[self.start..self.end]
    }

    /// The value of an attribute, or `""`.
    pub fn attribute(&self, name: &str) -> &str {
        self.attributes.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v)
    }

    /// The first child element so named.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child element so named, in order.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The text of the first child so named, or `""`.
    pub fn text_of(&self, name: &str) -> &str {
        self.child(name).map_or("", |c| c.text())
    }
}

/// The XML record driver: map each record element of `shape` to an event
/// with `map` (the element and its 1-based position) and push the outcome;
/// a record error without a name gets the position. Returns the number of
/// records.
pub fn read(
    body: &mut dyn BufRead,
    shape: &Shape,
    sink: &mut dyn EventSink,
    mut map: impl FnMut(&Node, usize) -> Result<Event, RecordError>,
) -> Result<usize, FeedError> {
    // A feed that declares another encoding (`<?xml … encoding="ISO-8859-1"?>`)
    // is decoded to UTF-8 as it streams; quick-xml reads UTF-8 only.
    let (head, encoding) = declaration(body).map_err(|e| FeedError::new(format!("reading the XML body: {e}")))?;
    let mut chained = std::io::Read::chain(std::io::Cursor::new(head), body);
    let mut decoded;
    let body: &mut dyn BufRead = match encoding {
        Some(encoding) => {
            decoded = Utf8Of::new(&mut chained, encoding);
            &mut decoded
        }
        None => &mut chained,
    };
    let mut reader = quick_xml::Reader::from_reader(body);
    let mut buf = Vec::new();
    let mut skip = Vec::new();
    let mut record = Building::default();
    // Elements open outside a record (the root and any wrappers).
    let mut depth = 0usize;
    let mut seen_root = false;
    let mut position = 0usize;
    let unreadable = |reader: &quick_xml::Reader<&mut dyn BufRead>, e: &dyn std::fmt::Display| {
        FeedError::new(format!("XML unreadable at byte {}: {e}", reader.error_position()))
    };
    loop {
        buf.clear();
        let event = reader.read_event_into(&mut buf).map_err(|e| unreadable(&reader, &e))?;
        let (start, empty) = match &event {
            X::Start(e) => (Some(e), false),
            X::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            let name = e.local_name().as_ref().to_string();
            if shape.never_read.contains(&name.as_str()) {
                if !empty {
                    let end = e.to_end().into_owned();
                    reader.read_to_end_into(end.name(), &mut skip).map_err(|e| unreadable(&reader, &e))?;
                    skip.clear();
                }
                continue;
            }
            if !seen_root {
                if name != shape.root {
                    return Err(FeedError::new(format!("XML root is <{name}>, expected <{}>: not this feed", shape.root)));
                }
                seen_root = true;
                depth += usize::from(!empty);
                continue;
            }
            if record.open.is_empty() && !(depth == 1 && name == shape.record) {
                depth += usize::from(!empty);
                continue;
            }
            if record.open.is_empty() {
                position += 1;
            }
            if let Some(node) = record.enter(e, name, empty) {
                sink.push(outcome(&mut record, node, position, &mut map));
            }
            continue;
        }
        match event {
            X::End(_) if record.open.is_empty() => depth = depth.saturating_sub(1),
            X::End(e) => {
                if let Some(node) = record.leave(e.local_name().as_ref()) {
                    sink.push(outcome(&mut record, node, position, &mut map));
                }
            }
            X::Text(t) if !record.open.is_empty() => record.append(&t.xml10_content()),
            X::CData(t) if !record.open.is_empty() => record.append(&t.xml10_content()),
            X::GeneralRef(r) if !record.open.is_empty() => record.append(&reference_text(&r)),
            X::Eof => break,
            _ => {}
        }
    }
    if !seen_root {
        return Err(FeedError::new(format!("no <{}> root element (empty or not XML)", shape.root)));
    }
    if depth > 0 || !record.open.is_empty() {
        return Err(FeedError::new(format!("XML ends before its closing </{}>: the body was cut", shape.root)));
    }
    Ok(position)
}

/// What a record read whole comes to: refused when over [`RECORD_CAP`] or
/// deeper than [`MAX_DEPTH`], else `map`'s event, a record error without a
/// name getting the record's element and position.
fn outcome(
    record: &mut Building,
    node: Node,
    position: usize,
    map: &mut impl FnMut(&Node, usize) -> Result<Event, RecordError>,
) -> Result<Event, RecordError> {
    let (size, too_deep, node) = record.finish(node);
    let name = || format!("<{}> #{position}", node.name);
    if size > RECORD_CAP {
        Err(RecordError::new(name(), format!("record is over the {} MB a record may take; not read", RECORD_CAP >> 20)))
    } else if too_deep {
        Err(RecordError::new(name(), format!("record nests deeper than {MAX_DEPTH} elements; not read")))
    } else {
        map(&node, position).map_err(|e| e.or_name(name))
    }
}

/// The record being read: its open elements (outermost first) and its text,
/// in which each element's content is a span. Memory and time follow the
/// record's size once, whatever its nesting; past [`MAX_DEPTH`] elements
/// are only counted, to find the record's end.
#[derive(Default)]
struct Building {
    open: Vec<Node>,
    text: String,
    /// The record's text so far, counted on past [`RECORD_CAP`] (where
    /// `text` stops growing).
    size: usize,
    /// Elements open beyond [`MAX_DEPTH`], not built.
    beyond: usize,
    too_deep: bool,
}

impl Building {
    /// A start tag inside the record (or the record's own); the element
    /// when it is the record and empty (`<item/>`): whole already.
    fn enter(&mut self, e: &quick_xml::events::BytesStart<'_>, name: String, empty: bool) -> Option<Node> {
        if self.beyond > 0 || self.open.len() >= MAX_DEPTH {
            self.too_deep = true;
            self.beyond += usize::from(!empty);
            return None;
        }
        if !self.open.is_empty() {
            self.append(&if empty { format!("<{name}/>") } else { format!("<{name}>") });
        }
        let attributes = e.attributes().flatten().map(|a| (a.key.local_name().as_ref().to_string(), attribute_value(&a))).collect();
        let at = self.text.len();
        let node = Node { name, attributes, start: at, end: at, ..Node::default() };
        match (empty, self.open.last_mut()) {
            (false, _) => self.open.push(node),
            (true, Some(parent)) => parent.children.push(node),
            (true, None) => return Some(node),
        }
        None
    }

    /// An end tag inside the record: the record's element when it closes.
    fn leave(&mut self, name: &str) -> Option<Node> {
        if self.beyond > 0 {
            self.beyond -= 1;
            return None;
        }
        let mut node = self.open.pop()?;
        node.end = self.text.len();
        match self.open.last_mut() {
            Some(parent) => {
                parent.children.push(node);
                self.append(&format!("</{name}>"));
                None
            }
            None => Some(node),
        }
    }

    /// Add `text` to the record, unless it is already over its cap or
    /// refused as too deep.
    fn append(&mut self, text: &str) {
        self.size += text.len();
        if self.size <= RECORD_CAP && !self.too_deep {
            self.text.push_str(text);
        }
    }

    /// The record whole: its size, whether it nests too deep, and its
    /// element with every element sharing its text. Ready for the next.
    fn finish(&mut self, mut node: Node) -> (usize, bool, Node) {
        let text: Arc<str> = Arc::from(std::mem::take(&mut self.text));
        let mut stack = vec![&mut node];
        while let Some(n) = stack.pop() {
            n.record_text = Arc::clone(&text);
            stack.extend(n.children.iter_mut());
        }
        let done = (self.size, self.too_deep, node);
        *self = Building::default();
        done
    }
}

/// The bytes of an XML declaration at the start of `body` (taken out of it,
/// to be read again before the rest) and the encoding it names, when that
/// is not UTF-8 (nor UTF-16, which a declaration cannot name in ASCII).
/// Reads at most 256 bytes, whatever the reader's buffer. `None`: UTF-8.
fn declaration(body: &mut dyn BufRead) -> std::io::Result<(Vec<u8>, Option<&'static encoding_rs::Encoding>)> {
    let mut head = Vec::new();
    while head.len() < 256 && !head.ends_with(b"?>") && (head.len() >= 5 || b"<?xml".starts_with(&head)) {
        let Some(&byte) = body.fill_buf()?.first() else { break };
        head.push(byte);
        body.consume(1);
    }
    let Some(decl) = head.strip_prefix(b"<?xml").and_then(|d| d.strip_suffix(b"?>")) else { return Ok((head, None)) };
    let decl = String::from_utf8_lossy(decl).into_owned();
    let Some(at) = decl.find("encoding") else { return Ok((head, None)) };
    let value = decl[at + "encoding".len()..].trim_start().strip_prefix('=').map(str::trim_start).unwrap_or("");
    let Some(quote) = value.chars().next().filter(|q| matches!(q, '"' | '\'')) else { return Ok((head, None)) };
    let label = value[1..].split(quote).next().unwrap_or("");
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes())
        .filter(|e| *e != encoding_rs::UTF_8 && *e != encoding_rs::UTF_16LE && *e != encoding_rs::UTF_16BE);
    Ok((head, encoding))
}

/// A body in another encoding, read as UTF-8: decoded block by block
/// through encoding_rs as the XML reader asks for it (memory stays one
/// block, not the feed). A byte the encoding cannot map reads as U+FFFD.
struct Utf8Of<'b> {
    inner: &'b mut dyn BufRead,
    decoder: encoding_rs::Decoder,
    out: Vec<u8>,
    at: usize,
    done: bool,
}

impl<'b> Utf8Of<'b> {
    fn new(inner: &'b mut dyn BufRead, encoding: &'static encoding_rs::Encoding) -> Utf8Of<'b> {
        Utf8Of { inner, decoder: encoding.new_decoder_without_bom_handling(), out: Vec::new(), at: 0, done: false }
    }
}

impl std::io::Read for Utf8Of<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Utf8Of<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.at >= self.out.len() && !self.done {
            let input = self.inner.fill_buf()?;
            let last = input.is_empty();
            self.out.clear();
            self.at = 0;
            self.out.resize(self.decoder.max_utf8_buffer_length(input.len()).unwrap_or(input.len() * 3 + 16).max(16), 0);
            let (_, read, written, _) = self.decoder.decode_to_utf8(input, &mut self.out, last);
            self.out.truncate(written);
            self.inner.consume(read);
            self.done = last;
        }
        Ok(&self.out[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::Collect;

    const SHAPE: Shape = Shape { root: "list", record: "item", never_read: &["email"] };

    fn read_all(xml: &str) -> Result<Vec<String>, FeedError> {
        let mut sink = Collect::default();
        let mut body = xml.as_bytes();
        read(&mut body, &SHAPE, &mut sink, |node, position| {
            let title = format!("{position}|{}|{}|{}", node.attribute("id"), node.text_of("t"), node.text().trim());
            let mut ev = Event::new(node.attribute("id"), &title, "es").map_err(|e| RecordError::new("", e))?;
            ev.description = node.children.iter().map(|c| c.name.clone()).collect::<Vec<_>>().join(",");
            Ok(ev)
        })?;
        let mut out: Vec<String> = sink.events.iter().map(|e| format!("{} [{}]", e.title, e.description)).collect();
        out.extend(sink.errors.iter().map(|e| format!("{}: {}", e.record, e.reason)));
        Ok(out)
    }

    #[test]
    fn records_as_trees_with_markup_kept_and_contact_data_unread() {
        let xml = r#"<?xml version="1.0"?><list><item id="1"><t>a &amp; <b>b</b> &aacute;</t><email>x@example.es</email><d><![CDATA[<p>c</p>]]></d></item><item/></list>"#;
        let got = read_all(xml).unwrap();
        assert_eq!(got[0], "1|1|a & <b>b</b> &aacute;|<t>a & <b>b</b> &aacute;</t><d><p>c</p></d> [t,d]");
        assert_eq!(got[1], "<item> #2: record has no id");
        assert!(!got.concat().contains("example.es"));
    }

    #[test]
    fn a_body_cut_anywhere_fails_even_between_records() {
        let xml = r#"<list><item id="1"><t>a</t></item><item id="2"><t>b</t></item></list>"#;
        assert_eq!(read_all(xml).unwrap().len(), 2);
        for cut in 1..xml.len() - 1 {
            assert!(read_all(&xml[..cut]).is_err(), "cut at {cut}: {}", &xml[..cut]);
        }
        assert!(read_all("<other/>").is_err());
        assert!(read_all("").is_err());
    }

    /// An ISO-8859-1 feed that declares its encoding reads as the text it
    /// holds (it was refused: "invalid utf-8 sequence of 1 bytes from index 26"),
    /// streamed through a small buffer; a UTF-8 feed reads as before.
    #[test]
    fn a_feed_in_the_encoding_it_declares_is_read() {
        let (text, _, _) = encoding_rs::WINDOWS_1252.encode(
            r#"<?xml version="1.0" encoding="ISO-8859-1"?><list><item id="1"><t>Exposición «Año»</t></item><item id="2"><t>Música en Iruña</t></item></list>"#,
        );
        let latin1: Vec<u8> = text.into_owned();
        assert!(std::str::from_utf8(&latin1).is_err());
        let mut sink = Collect::default();
        let mut body = std::io::BufReader::with_capacity(7, &latin1[..]);
        read(&mut body, &SHAPE, &mut sink, |node, _| {
            Event::new(node.attribute("id"), node.text_of("t"), "es").map_err(|e| RecordError::new("", e))
        })
        .unwrap();
        let titles: Vec<&str> = sink.events.iter().map(|e| e.title.as_str()).collect();
        assert_eq!(titles, ["Exposición «Año»", "Música en Iruña"]);
        let utf8 = r#"<?xml version="1.0" encoding="UTF-8"?><list><item id="1"><t>Año</t></item></list>"#;
        assert_eq!(read_all(utf8).unwrap(), ["1|1|Año|<t>Año</t> [t]"]);
    }
}
