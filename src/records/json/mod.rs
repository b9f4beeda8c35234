//! The JSON record driver: finds the records of a feed's array and hands
//! each one on as strict JSON, however the publisher wrote it, read as the
//! adapter's typed record.
//!
//! Real feeds are not always valid JSON: datos.madrid.es puts raw line breaks
//! inside strings, and its 2018 snapshot carries an invalid escape
//! (`Usera\Pte de Vallecas`). Rather than repairing the whole body before a
//! strict parser sees it (which takes 16 times the body for 100 MB of
//! control bytes), each record is read by the strict parser straight from
//! the body, which finds where it ends:
//! nearly all are read once. Only a record the strict parser cannot read is
//! walked leniently to find its end, repaired on its own into one reused
//! buffer (at most a small multiple of the largest record) and read again;
//! a record over [`RECORD_CAP`] is refused. The rest of the body (the
//! array's brackets, other keys) is walked with constant bookkeeping.
//!
//! A body that ends before its closing brackets is a failed feed: nothing
//! of it may be stored.
//!
//! Here: the typed driver ([`read_records`]) and what an element reads as
//! ([`Element`]); the walk of the body is `walk.rs`, the repair of one
//! record's bytes `repair.rs`. Not for: mapping records to events (adapters
//! do that) or any other JSON in the program.

mod repair;
mod walk;

pub use walk::for_each_element;

use super::sink::{EventSink, FeedError, RecordError};
use crate::model::Event;
use std::cell::Cell;
use std::io::BufRead;

/// A record (one element of the array) longer than this is refused: no real
/// agenda record comes near it (the largest real one is a few KB), its
/// repair may take six times its size (all control bytes), and a text this
/// long is cut to 64 KB anyway. Large enough that a poison description of
/// several MB still arrives, cut, rather than sinking its record.
pub const RECORD_CAP: usize = 32 * 1024 * 1024;

/// A record nesting deeper than this (objects and arrays in one another) is
/// refused: serde_json's own default recursion limit, so the strict read and
/// the lenient walk refuse alike, and far above any real record (the real
/// feeds nest at most 5 levels; see the fuzz tests). The same bound holds in
/// the XML driver.
pub const MAX_DEPTH: usize = 128;

/// One element of the array, read as its typed record ([`Record`]).
pub struct Element<'a> {
    /// 1-based position in the array.
    pub position: usize,
    /// 1-based line of the body where the element starts.
    pub line: usize,
    /// The element as strict JSON; or, for an object read straight from the
    /// body, the body from the element on (a parse stops at the element's end).
    json: &'a [u8],
    /// `json` as text, when the whole body is valid UTF-8 (nearly always):
    /// the strict parse then reads it without checking every string's
    /// UTF-8 again. In `perf` samples of an ingest of the 100,000-event bench
    /// feed, serde_json's check of each string is 3.9 %, the one check of the
    /// whole body 1.7 %.
    text: Option<&'a str>,
    /// Whether `json` runs on past the element.
    open: bool,
    /// How long the element turned out to be, once a parse of an open one
    /// has read it whole.
    len: Cell<Option<usize>>,
}

/// What the reader finds, in feed order.
pub enum Item<R> {
    /// What the element read as.
    Record(R),
    /// An element that cannot be read (too large): a record error.
    Refused(RecordError),
    /// Something read leniently (an invalid escape taken as the characters
    /// it shows): the record is kept, the warning reported.
    Warning(RecordError),
}

/// Why a body is not a readable JSON document (a failed feed).
#[derive(Debug)]
pub struct Unreadable(pub String);

/// The typed record a feed's elements read as, for [`read_records`]: a
/// family of types over the lifetime of the bytes they borrow.
pub trait Record {
    /// The record, borrowing from the element's JSON.
    type Of<'de>: serde::Deserialize<'de>;
    /// The key of the event id, read from an unreadable element's bytes
    /// ([`Element::id_at`]) so that its stored event is kept.
    const ID_KEY: &'static str;
    /// Whether an element that is not an object is refused before it is
    /// parsed ([`Element::record`]) or parsed as it is ([`Element::parse`]).
    const OBJECTS_ONLY: bool = true;

    /// The event id in the value found under [`Record::ID_KEY`]: the value
    /// itself by default; a feed whose id lives inside another field
    /// (Kulturklik's 16-digit number inside `friendlyUrl`) takes it out, so
    /// that an unreadable record still keeps its stored event by its id.
    /// `None`: no id in it.
    fn id_in(value: &str) -> Option<&str> {
        Some(value)
    }
}

/// The JSON record driver, typed: each element of the array named `key` is
/// parsed strictly as `R`, repaired only when the strict parse refused it,
/// and `map` is called once on the typed record and the element's
/// position; its outcome is pushed, a record error without a name getting
/// the element's position. Oversized elements and lenient readings are
/// reported here, and a body that is not a readable document is a
/// [`FeedError`] naming what is wrong and where.
pub fn read_records<R: Record>(
    body: &mut dyn BufRead,
    key: Option<&str>,
    sink: &mut dyn EventSink,
    mut map: impl for<'de> FnMut(R::Of<'de>, usize) -> Result<Event, RecordError>,
) -> Result<usize, FeedError> {
    let mut json = Vec::new();
    body.read_to_end(&mut json).map_err(|e| FeedError::new(format!("reading the JSON body: {e}")))?;
    for_each_element(
        &json,
        key,
        |element| {
            let record =
                if R::OBJECTS_ONLY { element.record_keyed::<R::Of<'_>>(R::ID_KEY) } else { element.parse_keyed::<R::Of<'_>>(R::ID_KEY) };
            let record = record.map_err(|mut e| {
                e.id = e.id.as_deref().and_then(R::id_in).map(str::to_string);
                e
            });
            record.and_then(|record| map(record, element.position)).map_err(|e| e.or_name(|| element.name()))
        },
        |item| match item {
            Item::Record(record) => sink.push(record),
            Item::Refused(e) => sink.push(Err(e)),
            Item::Warning(w) => sink.warning(w),
        },
    )
    .map_err(|Unreadable(why)| FeedError::new(why))
}

impl<'a> Element<'a> {
    /// An element known whole: `json` is strict JSON, the element alone.
    fn whole(position: usize, line: usize, json: &'a [u8]) -> Element<'a> {
        Element { position, line, json, text: None, open: false, len: Cell::new(None) }
    }

    /// An element read straight from the body (`rest` starts with it;
    /// `text` is the same bytes when the body is valid UTF-8).
    fn open(position: usize, line: usize, rest: &'a [u8], text: Option<&'a str>) -> Element<'a> {
        Element { position, line, json: rest, text, open: true, len: Cell::new(None) }
    }

    /// The element as `T` (make `T` tolerant: `Loose` fields, `Nested`);
    /// a record error naming the element when even that fails.
    pub fn parse<T: serde::Deserialize<'a>>(&self) -> Result<T, RecordError> {
        let parsed = if self.open {
            match self.text {
                Some(text) => first_value(serde_json::Deserializer::from_str(text).into_iter(), &self.len),
                None => first_value(serde_json::Deserializer::from_slice(self.json).into_iter(), &self.len),
            }
        } else {
            serde_json::from_slice(self.json)
        };
        parsed.map_err(|e| {
            RecordError::new(self.name(), format!("unreadable record: {}", crate::parse::stored::withhold_values(&e.to_string())))
        })
    }

    /// The element as the typed record `T`: a record error when it is not
    /// a JSON object (a `null` or a string among the records) or unreadable.
    pub fn record<T: serde::Deserialize<'a>>(&self) -> Result<T, RecordError> {
        if self.json.first() != Some(&b'{') {
            return Err(RecordError::new(self.name(), "record is not an object"));
        }
        self.parse()
    }

    /// [`Element::parse`]; when the element cannot be read, the error
    /// carries the event id still found under `id_key` (see
    /// [`Element::id_at`]), so that its stored event is kept.
    pub fn parse_keyed<T: serde::Deserialize<'a>>(&self, id_key: &str) -> Result<T, RecordError> {
        self.parse().map_err(|e| e.with_id(self.id_at(id_key)))
    }

    /// [`Element::record`], with the id as [`Element::parse_keyed`] finds it.
    pub fn record_keyed<T: serde::Deserialize<'a>>(&self, id_key: &str) -> Result<T, RecordError> {
        self.record().map_err(|e| e.with_id(self.id_at(id_key)))
    }

    /// The value of the first `"key": value` in the element, read leniently
    /// from its bytes (a string without escapes, or a bare number or word),
    /// when the element as a whole is unreadable. `None` when the value
    /// after the key is anything else: an id is never guessed. Only for an
    /// element known whole (one walked to its end), never one still open on
    /// the rest of the body.
    pub fn id_at(&self, key: &str) -> Option<&'a str> {
        if self.open && self.len.get().is_none() {
            return None;
        }
        let json = &self.json[..self.len.get().unwrap_or(self.json.len())];
        let quoted = format!("\"{key}\"");
        let after = memchr::memmem::find(json, quoted.as_bytes())? + quoted.len();
        let rest = json[after..].trim_ascii_start().strip_prefix(b":")?.trim_ascii_start();
        let value = match rest.strip_prefix(b"\"") {
            Some(inner) => &inner[..memchr::memchr2(b'"', b'\\', inner).filter(|&k| inner[k] == b'"')?],
            None => &rest[..rest.iter().position(|c| !c.is_ascii_alphanumeric() && !b"-_.".contains(c)).unwrap_or(rest.len())],
        };
        std::str::from_utf8(value).ok().filter(|v| !v.trim().is_empty() && !v.contains(|c: char| c.is_control()))
    }

    /// `#position (line N)`, for errors about an element without an id.
    pub fn name(&self) -> String {
        format!("#{} (line {})", self.position, self.line)
    }
}

/// The first value of a stream, and (in `len`) where it ended.
fn first_value<'de, R: serde_json::de::Read<'de>, T: serde::Deserialize<'de>>(
    mut values: serde_json::StreamDeserializer<'de, R, T>,
    len: &Cell<Option<usize>>,
) -> serde_json::Result<T> {
    let first = values.next().unwrap_or_else(|| Err(serde::de::Error::custom("no JSON value")));
    first.inspect(|_| len.set(Some(values.byte_offset())))
}

#[cfg(test)]
mod tests;
