//! Character encodings: feeds arrive as UTF-8 (with or without BOM) or, like
//! Madrid's CSV, as Windows-1252. Decoding goes through encoding_rs.

use std::borrow::Cow;

/// Decode a feed body to text. A BOM wins; then a declared label (from the
/// Content-Type charset or an XML declaration); then valid UTF-8; else
/// Windows-1252, the usual encoding of Spanish portals' CSV files.
pub fn decode<'a>(bytes: &'a [u8], declared: Option<&str>) -> Cow<'a, str> {
    if let Some((enc, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        return text;
    }
    if let Some(enc) = declared.and_then(|l| encoding_rs::Encoding::for_label(l.trim().as_bytes()))
        && enc != encoding_rs::UTF_8
    {
        let (text, _) = enc.decode_without_bom_handling(bytes);
        return text;
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes).0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1252_is_detected_when_not_utf8() {
        assert_eq!(decode(b"Espa\xf1a", None), "España");
        assert_eq!(decode("España".as_bytes(), None), "España");
        assert_eq!(decode(b"\xef\xbb\xbfhola", None), "hola");
        assert_eq!(decode(b"Espa\xf1a", Some("iso-8859-1")), "España");
    }
}
