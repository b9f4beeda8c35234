//! Small helpers over quick-xml's events, shared by the XML adapters.

use quick_xml::events::BytesRef;

/// The text an entity reference stands for: XML's five, character
/// references, and anything else (HTML's `&aacute;`) kept as `&name;` so that
/// `text::decode_entities` resolves it later.
pub fn reference_text(r: &BytesRef<'_>) -> String {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        return c.to_string();
    }
    match &**r {
        "amp" => "&".into(),
        "lt" => "<".into(),
        "gt" => ">".into(),
        "quot" => "\"".into(),
        "apos" => "'".into(),
        other => format!("&{other};"),
    }
}

/// The value of one attribute, unescaped, or empty.
pub fn attribute_value(a: &quick_xml::events::attributes::Attribute<'_>) -> String {
    a.normalized_value(quick_xml::XmlVersion::Implicit1_0).map(|v| v.into_owned()).unwrap_or_default()
}

/// The value of an attribute, unescaped, or empty.
pub fn attribute(e: &quick_xml::events::BytesStart<'_>, name: &str) -> String {
    e.try_get_attribute(name)
        .ok()
        .flatten()
        .and_then(|a| a.normalized_value(quick_xml::XmlVersion::Implicit1_0).ok().map(|v| v.into_owned()))
        .unwrap_or_default()
}
