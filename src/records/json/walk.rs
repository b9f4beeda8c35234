//! The JSON driver's walk of a body: finds the array of records, hands each
//! element on (read straight from the body, or walked leniently to its end
//! and repaired when the strict read refused it), refuses one too large or
//! too deep, and says where a body that is no readable document goes wrong.
//! Constant bookkeeping outside the elements, one pass over each.
//! Not for: what an element reads as (`mod.rs`) or how a record's bytes are
//! made strict JSON (`repair.rs`).

use super::element::{Element, Item, MAX_DEPTH, RECORD_CAP, Unreadable};
use super::repair::{Repaired, repair, valid_escape};
use crate::records::sink::RecordError;

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
    let padding = s.padding_open()?;
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
    if let Some(callback) = padding {
        s.padding_close(callback)?;
    }
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

    /// A JSONP body (`jsonCallback([ … ]);`, Kulturklik): the callback's
    /// name (letters, digits, `_`, `$` and `.`, not starting with a digit)
    /// and its `(` are passed, and the name returned; `None` for a plain
    /// JSON document, which starts with `[`, `{` or a scalar.
    fn padding_open(&mut self) -> Result<Option<&'b str>, Unreadable> {
        let start = self.i;
        let is_name = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.');
        if !self.peek().is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'_' | b'$')) {
            return Ok(None);
        }
        while self.peek().is_some_and(is_name) {
            self.i += 1;
        }
        let name = std::str::from_utf8(&self.b[start..self.i]).unwrap_or("");
        if matches!(name, "true" | "false" | "null") {
            self.i = start;
            return Ok(None);
        }
        self.ws();
        if self.peek() != Some(b'(') {
            return Err(self.error(&format!(
                "{name:?} before the document is neither JSON nor a JSONP callback `{name}(…);` (expected `(` after it)"
            )));
        }
        self.i += 1;
        self.ws();
        Ok(Some(name))
    }

    /// The end of a JSONP body: `)`, an optional `;`, nothing else.
    fn padding_close(&mut self, name: &str) -> Result<(), Unreadable> {
        if self.peek() != Some(b')') {
            return Err(self.error(&format!("the JSONP callback `{name}(` is not closed by `)` right after the document")));
        }
        self.i += 1;
        self.ws();
        if self.peek() == Some(b';') {
            self.i += 1;
            self.ws();
        }
        if self.i < self.b.len() {
            return Err(self.error(&format!("data after the JSONP callback `{name}(…);`: only the padding may wrap the document")));
        }
        Ok(())
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
    /// one-byte value, so the walk always moves on, never standing still on
    /// such a record. Brackets deeper than
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

/// Whether `json` (one element, strict JSON) nests objects and arrays
/// deeper than `limit`: one pass, strings skipped with memchr.
fn nests_deeper(json: &[u8], limit: usize) -> bool {
    // Nesting deeper than `limit` takes more than `limit` opening brackets:
    // memchr counts them (about 1 % of an ingest run's `perf` samples, where
    // the walk below on every record is 4 %), and nearly every record has
    // far fewer.
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
