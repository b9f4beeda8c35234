//! The XML record driver: streams a feed with quick-xml, hands each record
//! element (a child of the root) to the adapter's mapping as a small tree,
//! and pushes the outcome. Memory follows one record, not the feed.
//!
//! It owns what every XML feed has in common: the root checked, elements
//! named in [`Shape::never_read`] (contact data, images) skipped whole with
//! their children the moment their start tag is seen (their text is never
//! decoded, copied or kept), entity references, positions, a record over
//! [`RECORD_CAP`] refused alone, and a body that ends before its root closes
//! refused as cut, even right after a whole record (issue 10 item 2).
//! Not for: what a record means (the adapter's mapping).

use super::sink::{EventSink, FeedError, RecordError};
use crate::model::Event;
use crate::parse::xml::{attribute_value, reference_text};
use quick_xml::events::Event as X;
use std::io::BufRead;

/// A record's text (all its elements' together) longer than this is refused.
pub const RECORD_CAP: usize = crate::records::json::RECORD_CAP;

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
    /// Its content as text: text, CDATA and entity references, with its
    /// children's tags written back without their attributes (HTML written
    /// as markup instead of CDATA stays markup for `html_to_text`).
    pub text: String,
    pub children: Vec<Node>,
}

impl Node {
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
        self.child(name).map_or("", |c| c.text.as_str())
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
    let mut reader = quick_xml::Reader::from_reader(body);
    let mut buf = Vec::new();
    let mut skip = Vec::new();
    // The record being read, outermost first; its size so far.
    let mut open: Vec<Node> = Vec::new();
    let mut size = 0usize;
    // Elements open outside a record (the root and any wrappers).
    let mut depth = 0usize;
    let mut seen_root = false;
    let mut position = 0usize;
    let unreadable = |reader: &quick_xml::Reader<&mut dyn BufRead>, e: &dyn std::fmt::Display| {
        FeedError::new(format!("XML unreadable at byte {}: {e}", reader.error_position()))
    };
    let mut finish = |node: Node, size: usize, position: usize, sink: &mut dyn EventSink| {
        let name = || format!("<{}> #{position}", node.name);
        let outcome = if size > RECORD_CAP {
            Err(RecordError::new(name(), format!("record is over the {} MB a record may take; not read", RECORD_CAP >> 20)))
        } else {
            map(&node, position).map_err(|e| e.or_name(name))
        };
        sink.push(outcome);
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
            if open.is_empty() && !(depth == 1 && name == shape.record) {
                depth += usize::from(!empty);
                continue;
            }
            let attributes = e.attributes().flatten().map(|a| (a.key.local_name().as_ref().to_string(), attribute_value(&a))).collect();
            let tag = if empty { format!("<{name}/>") } else { format!("<{name}>") };
            append(&mut open, &mut size, &tag);
            if open.is_empty() {
                position += 1;
                size = 0;
            }
            let node = Node { name, attributes, ..Node::default() };
            match (empty, open.last_mut()) {
                (false, _) => open.push(node),
                (true, Some(parent)) => parent.children.push(node),
                (true, None) => finish(node, 0, position, sink),
            }
            continue;
        }
        match event {
            X::End(e) => {
                let Some(node) = open.pop() else {
                    depth = depth.saturating_sub(1);
                    continue;
                };
                match open.last_mut() {
                    Some(parent) => {
                        parent.children.push(node);
                        let tag = format!("</{}>", e.local_name().as_ref());
                        append(&mut open, &mut size, &tag);
                    }
                    None => finish(node, size, position, sink),
                }
            }
            X::Text(t) if !open.is_empty() => append(&mut open, &mut size, &t.xml10_content()),
            X::CData(t) if !open.is_empty() => append(&mut open, &mut size, &t.xml10_content()),
            X::GeneralRef(r) if !open.is_empty() => append(&mut open, &mut size, &reference_text(&r)),
            X::Eof => break,
            _ => {}
        }
    }
    if !seen_root {
        return Err(FeedError::new(format!("no <{}> root element (empty or not XML)", shape.root)));
    }
    if depth > 0 || !open.is_empty() {
        return Err(FeedError::new(format!("XML ends before its closing </{}>: the body was cut", shape.root)));
    }
    Ok(position)
}

/// Add `text` to every open element of the record (each holds its whole
/// content as text), unless the record is already over its cap.
fn append(open: &mut [Node], size: &mut usize, text: &str) {
    *size += text.len();
    if *size > RECORD_CAP {
        return;
    }
    for node in open {
        node.text.push_str(text);
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
            let title = format!("{position}|{}|{}|{}", node.attribute("id"), node.text_of("t"), node.text.trim());
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
}
