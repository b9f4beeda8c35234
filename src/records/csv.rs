//! The CSV record driver's reader: decodes a feed (byte-order mark, UTF-8 or
//! Windows-1252), reads its header, and hands each row on with its columns
//! by name and its line; refuses a body that was cut.
//!
//! When is a CSV cut? A file cut exactly at a line end looks complete, and
//! cannot be told from one; that case is left to the withdrawal guard. A cut
//! anywhere else leaves a sign a complete file cannot have, and such a body
//! is a failed feed (nothing stored, nothing withdrawn):
//! - the final row leaves a quoted field open (an odd number of quotes in
//!   it: a complete row's quotes pair up, `""` included);
//! - the final row has fewer fields than the header;
//! - the final row has no line end. A cut inside the last field, even a
//!   quoted one (`"sala ""B"""` cut after `"sala "`), or right after a
//!   separator, leaves a row that looks whole but for that; so a body
//!   without its last line end is not trusted. An exporter that omits the
//!   last newline fails loudly, with this reason, rather than have a cut
//!   feed withdraw events (P20).
//!
//! The final row is held back until the end, so a cut row is never handed on.
//! Not for: mapping rows to events (adapters do that).

use super::sink::{EventSink, FeedError, RecordError};
use crate::model::Event;
use csv::StringRecord;
use std::io::BufRead;

/// The CSV record driver: read the body, map each row to an event with
/// `map`, and push the outcome; a record error without a name gets the row's
/// line. `required` columns must be in the header.
pub fn read(
    body: &mut dyn BufRead,
    delimiter: u8,
    required: &[&str],
    sink: &mut dyn EventSink,
    mut map: impl FnMut(&Row<'_>) -> Result<Event, RecordError>,
) -> Result<usize, FeedError> {
    let mut bytes = Vec::new();
    body.read_to_end(&mut bytes).map_err(|e| FeedError::new(format!("reading the CSV body: {e}")))?;
    for_each_row(&bytes, delimiter, required, |row| {
        sink.push(row.and_then(|row| map(&row).map_err(|e| e.or_name(|| format!("line {}", row.line)))))
    })
    .map_err(|Unreadable(why)| FeedError::new(why))
}

/// One data row, its fields by header name.
pub struct Row<'r> {
    /// 1-based line of the body where the row starts.
    pub line: u64,
    record: &'r StringRecord,
    header: &'r StringRecord,
}

impl Row<'_> {
    /// The row as the typed record `T`, fields matched by (trimmed) header
    /// name: only the columns `T` names are read (give each
    /// `#[serde(default)]`: a short row leaves the rest empty).
    pub fn record<T: serde::de::DeserializeOwned>(&self) -> Result<T, RecordError> {
        self.record.deserialize(Some(self.header)).map_err(|e| {
            RecordError::new(
                format!("line {}", self.line),
                format!("unreadable CSV row: {}", crate::parse::stored::withhold_values(&e.to_string())),
            )
        })
    }

    /// The field under the column `name` (matched trimmed, ignoring ASCII
    /// case), or `""` when there is no such column or the row is short.
    pub fn get(&self, name: &str) -> &str {
        self.header.iter().position(|h| h.eq_ignore_ascii_case(name)).and_then(|c| self.record.get(c)).unwrap_or("")
    }
}

/// Why a body is not a readable CSV table (a failed feed).
#[derive(Debug)]
pub struct Unreadable(pub String);

/// Read the table in `bytes` (fields separated by `delimiter`); `required`
/// columns must be in the header. Each row goes to `each`; a row the reader
/// cannot read goes there as a record error. Returns the number of rows.
pub fn for_each_row(
    bytes: &[u8],
    delimiter: u8,
    required: &[&str],
    mut each: impl FnMut(Result<Row<'_>, RecordError>),
) -> Result<usize, Unreadable> {
    let text = crate::parse::encoding::decode(bytes, None);
    let mut rdr = csv::ReaderBuilder::new().delimiter(delimiter).flexible(true).has_headers(false).from_reader(text.as_bytes());
    let mut first = StringRecord::new();
    match rdr.read_record(&mut first) {
        Ok(true) => {}
        Ok(false) => return Err(Unreadable("empty body: no CSV header".into())),
        Err(e) => return Err(Unreadable(format!("CSV header unreadable: {e}"))),
    }
    let header: StringRecord = first.iter().map(str::trim).collect();
    if let Some(missing) = required.iter().find(|r| !header.iter().any(|h| h.eq_ignore_ascii_case(r))) {
        let names: Vec<&str> = header.iter().collect();
        let sep = delimiter as char;
        // A header that reads as one column was most likely split on the
        // wrong separator: say which one the file seems to use.
        let other = [',', ';', '\t', '|'].into_iter().find(|c| *c != sep && names.len() == 1 && names[0].contains(*c));
        let hint = other.map(|c| format!("; it reads as one column: the file looks separated by {c:?}, the adapter splits on {sep:?}"));
        return Err(Unreadable(format!(
            "CSV header (split on {sep:?}) has no {missing} column (header: {}){}",
            names.join(&sep.to_string()),
            hint.unwrap_or_default()
        )));
    }
    // Two buffers: the row read and the one before it, held back.
    let (mut held, mut next) = (StringRecord::new(), StringRecord::new());
    let mut have_held = false;
    let mut lines = Lines { text: text.as_bytes(), at: 0, line: 1 };
    let mut rows = 0;
    loop {
        match rdr.read_record(&mut next) {
            Ok(true) => {
                if have_held {
                    each(Ok(row(&held, &header, &mut lines)));
                }
                std::mem::swap(&mut held, &mut next);
                have_held = true;
                rows += 1;
            }
            Ok(false) => break,
            Err(e) => {
                if have_held {
                    each(Ok(row(&held, &header, &mut lines)));
                    have_held = false;
                }
                rows += 1;
                let line = e.position().map_or(0, |p| lines.at_byte(p.byte() as usize));
                each(Err(RecordError::new(
                    format!("line {line}"),
                    format!("unreadable CSV row: {}", crate::parse::stored::withhold_values(&e.to_string())),
                )));
            }
        }
    }
    if have_held {
        let line = lines.at(&held);
        let start = held.position().map_or(0, |p| p.byte() as usize);
        let last = &text.as_bytes()[start.min(text.len())..];
        if last.iter().filter(|&&c| c == b'"').count() % 2 == 1 {
            return Err(Unreadable(format!("the CSV ends inside a quoted field of its last row (line {line}): the body was cut")));
        }
        if !last.ends_with(b"\n") && !last.ends_with(b"\r") {
            return Err(Unreadable(format!("the CSV's last row (line {line}) has no line end: the body was cut")));
        }
        if held.len() < header.len() {
            return Err(Unreadable(format!(
                "the CSV's last row (line {line}) has {} of the header's {} fields: the body was cut",
                held.len(),
                header.len()
            )));
        }
        each(Ok(row(&held, &header, &mut lines)));
    }
    Ok(rows)
}

fn row<'r>(record: &'r StringRecord, header: &'r StringRecord, lines: &mut Lines) -> Row<'r> {
    Row { line: lines.at(record), record, header }
}

/// Line numbers from byte offsets, counted once over the text as rows
/// advance (the csv crate's own count treats `\r\n` unevenly).
struct Lines<'t> {
    text: &'t [u8],
    at: usize,
    line: u64,
}

impl Lines<'_> {
    fn at_byte(&mut self, byte: usize) -> u64 {
        let byte = byte.min(self.text.len());
        if byte < self.at {
            (self.at, self.line) = (0, 1);
        }
        self.line += self.text[self.at..byte].iter().filter(|&&c| c == b'\n').count() as u64;
        self.at = byte;
        // A row's recorded start may be the line end before it.
        self.line + u64::from(self.text.get(byte) == Some(&b'\n'))
    }
    fn at(&mut self, record: &StringRecord) -> u64 {
        record.position().map_or(0, |p| self.at_byte(p.byte() as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &[u8]) -> Result<Vec<String>, Unreadable> {
        let mut out = Vec::new();
        for_each_row(body, b';', &["ID"], |r| match r {
            Ok(r) => out.push(format!("{}:{}:{}", r.line, r.get("id"), r.get("TITULO"))),
            Err(e) => out.push(e.reason),
        })?;
        Ok(out)
    }

    #[test]
    fn rows_by_header_name_in_any_encoding() {
        let body = b"\xEF\xBB\xBF ID;\"TITULO\"\n1;\"a \"\"b\"\"\nc\"\n2;Espa\xc3\xb1a\n";
        assert_eq!(read(body).unwrap(), ["2:1:a \"b\"\nc", "4:2:España"]);
        assert_eq!(read(b" ID;TITULO\r\n1;Espa\xf1a\r\n").unwrap(), ["2:1:España"], "Windows-1252");
        assert!(read(b"X;TITULO\n1;a\n").is_err(), "no ID column");
    }

    /// A header split on the wrong separator says so: the header "ID,TITULO"
    /// plainly has an ID, the message has to say why it is not found.
    #[test]
    fn a_header_on_another_separator_is_named() {
        let e = format!("{:?}", read(b"ID,TITULO\n1,a\n").unwrap_err());
        assert!(e.contains("split on ';'") && e.contains("separated by ','"), "{e}");
    }

    #[test]
    fn a_body_cut_mid_row_is_unreadable() {
        let whole = b"ID;TITULO;LUGAR\n1;\"uno\";\"sala\"\n2;\"dos\";\"sala \"\"B\"\"\"\n";
        assert_eq!(read(whole).unwrap().len(), 2);
        // Every cut that does not fall right after a line end is refused.
        for cut in 16..whole.len() {
            if whole[cut - 1] == b'\n' {
                continue;
            }
            assert!(read(&whole[..cut]).is_err(), "cut at {cut}: {:?}", String::from_utf8_lossy(&whole[..cut]));
        }
    }
}
