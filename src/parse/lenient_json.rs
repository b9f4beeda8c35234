//! Real feeds are not always valid JSON: datos.madrid.es puts raw line breaks
//! inside string values, which a strict parser rejects. [`LenientJson`] wraps a
//! reader and escapes raw control characters found inside strings, streaming,
//! in constant memory, so serde_json can parse the result.

use std::io::{self, BufRead, Read};

/// A reader that turns raw control characters inside JSON strings into
/// escapes (`\n`, `\r`, `\t`, `\u00XX`). Everything else passes unchanged.
pub struct LenientJson<R> {
    inner: R,
    in_string: bool,
    escaped: bool,
    pending: Vec<u8>,
}

impl<R: BufRead> LenientJson<R> {
    pub fn new(inner: R) -> Self {
        LenientJson { inner, in_string: false, escaped: false, pending: Vec::new() }
    }
}

impl<R: BufRead> Read for LenientJson<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if !self.pending.is_empty() {
            let n = self.pending.len().min(out.len());
            out[..n].copy_from_slice(&self.pending[..n]);
            self.pending.drain(..n);
            return Ok(n);
        }
        let buf = self.inner.fill_buf()?;
        if buf.is_empty() {
            return Ok(0);
        }
        let mut written = 0;
        let mut consumed = 0;
        for &b in buf {
            if written == out.len() {
                break;
            }
            consumed += 1;
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                } else if b < 0x20 {
                    let esc: Vec<u8> = match b {
                        b'\n' => b"\\n".to_vec(),
                        b'\r' => b"\\r".to_vec(),
                        b'\t' => b"\\t".to_vec(),
                        other => format!("\\u{other:04x}").into_bytes(),
                    };
                    out[written] = esc[0];
                    written += 1;
                    self.pending.extend_from_slice(&esc[1..]);
                    break;
                }
            } else if b == b'"' {
                self.in_string = true;
            }
            out[written] = b;
            written += 1;
        }
        self.inner.consume(consumed);
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_line_breaks_in_strings_are_escaped() {
        let raw = b"{\"a\": \"line one\nline two\", \"b\":\n 1, \"c\": \"tab\there \\\" q\"}";
        assert!(serde_json::from_slice::<serde_json::Value>(raw).is_err());
        let v: serde_json::Value = serde_json::from_reader(LenientJson::new(&raw[..])).unwrap();
        assert_eq!(v["a"], "line one\nline two");
        assert_eq!(v["b"], 1);
        assert_eq!(v["c"], "tab\there \" q");
    }

    #[test]
    fn tiny_reads_still_work() {
        let raw = b"[\"x\ny\"]";
        let mut r = LenientJson::new(io::BufReader::with_capacity(1, &raw[..]));
        let mut out = Vec::new();
        let mut one = [0u8; 1];
        while r.read(&mut one).unwrap() == 1 {
            out.push(one[0]);
        }
        assert_eq!(out, b"[\"x\\ny\"]");
    }
}
