//! The JSON record driver's reader: finds the records of a feed's array and
//! hands each one on as strict JSON, however the publisher wrote it.
//!
//! Real feeds are not always valid JSON: datos.madrid.es puts raw line breaks
//! inside strings, and its 2018 snapshot carries an invalid escape
//! (`Usera\Pte de Vallecas`, issue 10 item 13). Rather than repairing the
//! whole body before a strict parser sees it (which took 16 times the body
//! for 100 MB of control bytes, issue 10 item 6), each record is read by
//! the strict parser straight from the body, which finds where it ends:
//! nearly all are read once. Only a record the strict parser cannot read is
//! walked leniently to find its end, repaired on its own into one reused
//! buffer (at most a small multiple of the largest record) and read again;
//! a record over [`RECORD_CAP`] is refused. The rest of the body (the
//! array's brackets, other keys) is walked with constant bookkeeping.
//!
//! A body that ends before its closing brackets is a failed feed (issue 10
//! item 2): nothing of it may be stored. Not for: mapping records to events
//! (adapters do that) or any other JSON in the program.

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
    /// UTF-8 again. Issue 22, `perf` samples of an ingest of the 100,000-event
    /// bench feed: serde_json's check of each string was 3.9 %, the one
    /// check of the whole body is 1.7 %.
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
    /// [`Element::id_at`]), so that its stored event is kept (issue 19
    /// item 17).
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

/// Walk the elements of the array named `key` in the top-level object (or of
/// the top-level array when `key` is `None`), in order: each one is `read`
/// (see [`Element`]) and what it read as handed to `each`, with refusals and
/// warnings. Returns how many elements there were.
pub fn for_each_element<R>(
    body: &[u8],
    key: Option<&str>,
    mut read: impl FnMut(&Element<'_>) -> R,
    mut each: impl FnMut(Item<R>),
) -> Result<usize, Unreadable> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let mut s = Scanner {
        b: body,
        text: std::str::from_utf8(body).ok(),
        i: 0,
        line: 1,
        line_at: 0,
        needs_repair: false,
        open: Vec::new(),
        too_deep: false,
    };
    let mut fix = Vec::new();
    let mut count = 0;
    let mut found = false;
    s.ws();
    match (s.peek(), key) {
        (Some(b'['), None) => {
            found = true;
            s.array(&mut fix, &mut count, &mut read, &mut each)?;
        }
        (Some(b'{'), Some(key)) => {
            s.i += 1;
            loop {
                s.ws();
                match s.peek() {
                    Some(b'}') => {
                        s.i += 1;
                        break;
                    }
                    Some(b',') => {
                        s.i += 1;
                        continue;
                    }
                    Some(b'"') => {}
                    _ => return Err(s.error("expected a key or `}`")),
                }
                let (start, end) = s.string()?;
                s.ws();
                if s.peek() != Some(b':') {
                    return Err(s.error("expected `:` after a key"));
                }
                s.i += 1;
                s.ws();
                if &body[start + 1..end - 1] == key.as_bytes() && s.peek() == Some(b'[') {
                    found = true;
                    s.array(&mut fix, &mut count, &mut read, &mut each)?;
                } else {
                    s.value()?;
                }
            }
        }
        (Some(c), _) => {
            let want = if key.is_some() { "an object" } else { "an array" };
            return Err(s.error(&format!("expected {want}, found {:?}", c as char)));
        }
        (None, _) => return Err(Unreadable("empty body: no JSON document".into())),
    }
    s.ws();
    if s.i < body.len() {
        return Err(s.error("data after the end of the document"));
    }
    if !found {
        return Err(Unreadable(format!("no array named {:?} in the document", key.unwrap_or(""))));
    }
    Ok(count)
}

struct Scanner<'b> {
    b: &'b [u8],
    /// `b` as text, when it is valid UTF-8 (see [`Element`]'s `text`).
    text: Option<&'b str>,
    i: usize,
    /// Line of `line_at` (lines counted lazily, once over the body).
    line: usize,
    line_at: usize,
    /// Whether the value being walked holds what [`repair`] fixes: a raw
    /// control character or an invalid escape inside a string (or a stray
    /// quote in a scalar, which would make the two disagree on strings).
    /// The walk that finds an element's end sees every byte of its strings
    /// anyway, so an element walked for another reason (serde refused its
    /// types) is not read once more to find it needs no repair.
    needs_repair: bool,
    /// The closing brackets the value being walked waits for, innermost
    /// last (reused from value to value).
    open: Vec<u8>,
    /// Whether the value being walked nests deeper than [`MAX_DEPTH`].
    too_deep: bool,
}

impl<'b> Scanner<'b> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn line_of(&mut self, at: usize) -> usize {
        self.line += memchr::memchr_iter(b'\n', &self.b[self.line_at..at]).count();
        self.line_at = at;
        self.line
    }

    fn error(&mut self, what: &str) -> Unreadable {
        if self.i >= self.b.len() {
            return Unreadable(format!("the JSON ends before its closing brackets (truncated body?): {what}"));
        }
        let line = self.line_of(self.i);
        Unreadable(format!("not readable JSON at line {line}: {what}"))
    }

    /// A string starting at `i`: its span, quotes included. Raw control
    /// characters and any escape are accepted here (and noted in
    /// `needs_repair`); `repair` fixes them.
    fn string(&mut self) -> Result<(usize, usize), Unreadable> {
        let start = self.i;
        self.i += 1;
        loop {
            let rest = self.b.get(self.i..).unwrap_or_default();
            match rest.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20) {
                None => {
                    self.i = self.b.len();
                    return Err(self.error("a string is left open"));
                }
                Some(k) => {
                    self.i += k + 1;
                    match rest[k] {
                        b'"' => return Ok((start, self.i)),
                        b'\\' => {
                            self.needs_repair |= !valid_escape(&rest[k..]);
                            self.i += 1;
                        }
                        _ => self.needs_repair = true,
                    }
                }
            }
        }
    }

    /// Skip one value of any kind, leniently: a closing bracket that closes
    /// nothing open in the value (`{"a": ]"x"}`) is passed over as garbage,
    /// and a stray delimiter where a value should start (`:`) is taken as a
    /// one-byte value, so the walk always moves on (issue 19 item 1: it
    /// stood still on such a record, for ever). Brackets deeper than
    /// [`MAX_DEPTH`] set `too_deep`; the walk still finds the value's end, in
    /// one pass with a stack of one byte per open bracket.
    fn value(&mut self) -> Result<(), Unreadable> {
        self.open.clear();
        loop {
            self.ws();
            match self.peek() {
                None => return Err(self.error("a value is left open")),
                Some(b'"') => {
                    self.string()?;
                }
                Some(c @ (b'{' | b'[')) => {
                    self.open.push(if c == b'{' { b'}' } else { b']' });
                    self.too_deep |= self.open.len() > MAX_DEPTH;
                    self.i += 1;
                }
                Some(c @ (b'}' | b']')) => {
                    if self.open.is_empty() {
                        return Err(self.error("a closing bracket where a value was expected"));
                    }
                    // Closes the innermost bracket of its kind; one that
                    // closes nothing open is garbage inside the value.
                    if let Some(at) = self.open.iter().rposition(|&close| close == c) {
                        self.open.truncate(at);
                    } else {
                        self.needs_repair = true;
                    }
                    self.i += 1;
                }
                Some(b',' | b':') if !self.open.is_empty() => self.i += 1,
                Some(_) => {
                    // A scalar: up to the next delimiter, at least one byte.
                    let rest = &self.b[self.i..];
                    let n = rest.iter().position(|c| matches!(c, b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\n' | b'\r'));
                    let n = n.map(|n| n.max(1));
                    self.needs_repair |= rest[..n.unwrap_or(rest.len())].contains(&b'"');
                    self.i += n.unwrap_or(rest.len());
                    if n.is_none() && self.open.is_empty() {
                        // A document that is one bare scalar, or one cut mid-number.
                        return Err(self.error("a value is left open"));
                    }
                }
            }
            if self.open.is_empty() {
                return Ok(());
            }
        }
    }

    /// The array starting at `i`: each element read and handed on.
    fn array<R>(
        &mut self,
        fix: &mut Vec<u8>,
        count: &mut usize,
        read: &mut impl FnMut(&Element<'_>) -> R,
        each: &mut impl FnMut(Item<R>),
    ) -> Result<(), Unreadable> {
        self.i += 1;
        loop {
            self.ws();
            match self.peek() {
                Some(b']') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b',') => {
                    self.i += 1;
                    continue;
                }
                None => return Err(self.error("the array is left open")),
                Some(_) => {}
            }
            let start = self.i;
            *count += 1;
            let position = *count;
            let line = self.line_of(start);
            let name = || format!("#{position} (line {line})");
            let too_large = |len: usize| {
                RecordError::new(name(), format!("record is {len} bytes, over the {} MB a record may take; not read", RECORD_CAP >> 20))
            };
            let too_deep = || RecordError::new(name(), format!("record nests deeper than {MAX_DEPTH} levels; not read"));
            // An object (a record) is read straight from the body, and the
            // parse finds where it ends. Only when it cannot read the record
            // whole is the record walked leniently below and read again.
            if self.peek() == Some(b'{') {
                let element = Element::open(position, line, &self.b[start..], self.text.map(|t| &t[start..]));
                let record = read(&element);
                if let Some(len) = element.len.get() {
                    self.i = start + len;
                    // Read already, but refused as when the walk finds it too
                    // long or too deep (serde_json skips an unknown field of
                    // any depth, so its own limit does not see it).
                    each(if len > RECORD_CAP {
                        Item::Refused(too_large(len))
                    } else if nests_deeper(&self.b[start..self.i], MAX_DEPTH) {
                        Item::Refused(too_deep())
                    } else {
                        Item::Record(record)
                    });
                    continue;
                }
            }
            self.needs_repair = false;
            self.too_deep = false;
            self.value()?;
            let span = &self.b[start..self.i];
            if span.len() > RECORD_CAP {
                each(Item::Refused(too_large(span.len())));
                continue;
            }
            if self.too_deep {
                each(Item::Refused(too_deep()));
                continue;
            }
            let json = if !self.needs_repair {
                span
            } else {
                match repair(span, fix, |escape| {
                    each(Item::Warning(RecordError::new(name(), format!("invalid escape `{escape}` read as the characters it shows"))))
                }) {
                    Repaired::AsWas(j) => j,
                    Repaired::InFix => &fix[..],
                }
            };
            each(Item::Record(read(&Element::whole(position, line, json))));
        }
    }
}

/// `span` as strict JSON: borrowed when it already is; else written into
/// `fix` (cleared first) with raw control characters inside strings escaped
/// (`\n`, `\r`, `\t`, `\u00XX`) and invalid escapes (`\P`, `\u` without four
/// hex digits) taken as the characters they show (`\\P`), each reported.
fn repair<'s>(span: &'s [u8], fix: &mut Vec<u8>, mut invalid: impl FnMut(String)) -> Repaired<'s> {
    let needs = |i: usize, in_string: bool| in_string && (span[i] < 0x20 || (span[i] == b'\\' && !valid_escape(&span[i..])));
    // First a check alone: most records need nothing.
    let mut in_string = false;
    let mut i = 0;
    let mut clean = true;
    while i < span.len() {
        if needs(i, in_string) {
            clean = false;
            break;
        }
        match span[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => i += 1,
            _ => {}
        }
        i += 1;
    }
    if clean {
        return Repaired::AsWas(span);
    }
    fix.clear();
    fix.reserve(span.len() + span.len() / 8);
    let mut in_string = false;
    let mut i = 0;
    while i < span.len() {
        let c = span[i];
        if in_string && c < 0x20 {
            match c {
                b'\n' => fix.extend_from_slice(b"\\n"),
                b'\r' => fix.extend_from_slice(b"\\r"),
                b'\t' => fix.extend_from_slice(b"\\t"),
                other => fix.extend_from_slice(format!("\\u{other:04x}").as_bytes()),
            }
        } else if in_string && c == b'\\' {
            if valid_escape(&span[i..]) {
                fix.extend_from_slice(&span[i..i + 2]);
                i += 1;
            } else {
                let shown: String = String::from_utf8_lossy(&span[i..(i + 2).min(span.len())]).into();
                invalid(shown);
                fix.extend_from_slice(b"\\\\");
            }
        } else {
            if c == b'"' {
                in_string = !in_string;
            }
            fix.push(c);
        }
        i += 1;
    }
    Repaired::InFix
}

/// Where the strict JSON of an element is.
enum Repaired<'s> {
    /// The element was strict JSON already.
    AsWas(&'s [u8]),
    /// Written into the fix buffer.
    InFix,
}

/// Whether `json` (one element, strict JSON) nests objects and arrays
/// deeper than `limit`: one pass, strings skipped with memchr.
fn nests_deeper(json: &[u8], limit: usize) -> bool {
    // Nesting deeper than `limit` takes more than `limit` opening brackets:
    // memchr counts them (about 1 % of an ingest run's `perf` samples where
    // the walk below on every record was 4 %, issue 22), and nearly every
    // record has far fewer.
    if memchr::memchr2_iter(b'{', b'[', json).nth(limit).is_none() {
        return false;
    }
    let mut depth = 0usize;
    let mut i = 0;
    while i < json.len() {
        match json[i] {
            b'"' => {
                // To the closing quote, past escapes.
                i += 1;
                loop {
                    match memchr::memchr2(b'"', b'\\', &json[i..]) {
                        None => return false,
                        Some(k) if json[i + k] == b'"' => {
                            i += k + 1;
                            break;
                        }
                        Some(k) => i += k + 2,
                    }
                    if i >= json.len() {
                        return false;
                    }
                }
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether `s` (starting with a backslash) begins with an escape JSON allows.
fn valid_escape(s: &[u8]) -> bool {
    match s.get(1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => true,
        Some(b'u') => s.get(2..6).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)),
        _ => false,
    }
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
