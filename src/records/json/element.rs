//! What one element of a feed's JSON array is and reads as: [`Element`]
//! (its bytes, position and line, parsed strictly as the adapter's typed
//! [`Record`]), what the walk finds ([`Item`]), why a body is unreadable,
//! and the bounds a record must keep ([`RECORD_CAP`], [`MAX_DEPTH`]).
//!
//! Not for: finding the elements in the body (`walk.rs`) or repairing one
//! (`repair.rs`).

use crate::records::sink::RecordError;
use std::cell::Cell;

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
    pub(super) json: &'a [u8],
    /// `json` as text, when the whole body is valid UTF-8 (nearly always):
    /// the strict parse then reads it without checking every string's
    /// UTF-8 again. In `perf` samples of an ingest of the 100,000-event bench
    /// feed, serde_json's check of each string is 3.9 %, the one check of the
    /// whole body 1.7 %.
    text: Option<&'a str>,
    /// Whether `json` runs on past the element.
    pub(super) open: bool,
    /// How long the element turned out to be, once a parse of an open one
    /// has read it whole.
    pub(super) len: Cell<Option<usize>>,
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

/// The typed record a feed's elements read as, for [`read_records`](super::read_records): a
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

impl<'a> Element<'a> {
    /// An element known whole: `json` is strict JSON, the element alone.
    pub(super) fn whole(position: usize, line: usize, json: &'a [u8]) -> Element<'a> {
        Element { position, line, json, text: None, open: false, len: Cell::new(None) }
    }

    /// An element read straight from the body (`rest` starts with it;
    /// `text` is the same bytes when the body is valid UTF-8).
    pub(super) fn open(position: usize, line: usize, rest: &'a [u8], text: Option<&'a str>) -> Element<'a> {
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
