//! A JSON record's bytes made strict JSON: raw control characters inside
//! strings escaped, invalid escapes taken as the characters they show (each
//! reported). Only for one element the walk has found whole (`walk.rs`);
//! not for a whole body.

/// `span` as strict JSON: borrowed when it already is; else written into
/// `fix` (cleared first) with raw control characters inside strings escaped
/// (`\n`, `\r`, `\t`, `\u00XX`) and invalid escapes (`\P`, `\u` without four
/// hex digits) taken as the characters they show (`\\P`), each reported.
pub(super) fn repair<'s>(span: &'s [u8], fix: &mut Vec<u8>, mut invalid: impl FnMut(String)) -> Repaired<'s> {
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
pub(super) enum Repaired<'s> {
    /// The element was strict JSON already.
    AsWas(&'s [u8]),
    /// Written into the fix buffer.
    InFix,
}

/// Whether `s` (starting with a backslash) begins with an escape JSON allows.
pub(super) fn valid_escape(s: &[u8]) -> bool {
    match s.get(1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => true,
        Some(b'u') => s.get(2..6).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)),
        _ => false,
    }
}
