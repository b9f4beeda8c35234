//! Operator corrections ("hay un error en tus eventos tal y como los
//! mostramos"): which fields of a stored event the operator may correct, and
//! what a corrected value must be. A correction shows instead of the feed's
//! value until the feed itself changes that field.
//!
//! Only the rules live here; storing, applying at ingest and lifting are in
//! `store::corrections`. Corrected text passes the same PII scrub as feed
//! text (P5) before it is stored anywhere.

use anyhow::{Result, bail};

/// A correctable field, with the `events` column that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Title,
    Description,
    Venue,
    Address,
    Price,
    Url,
    Start,
    End,
}

impl Field {
    pub const ALL: [Field; 8] =
        [Field::Title, Field::Description, Field::Venue, Field::Address, Field::Price, Field::Url, Field::Start, Field::End];

    pub fn name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Description => "description",
            Field::Venue => "venue",
            Field::Address => "address",
            Field::Price => "price",
            Field::Url => "url",
            Field::Start => "start",
            Field::End => "end",
        }
    }

    /// The `events` column the feed's value and the correction live in.
    pub fn column(self) -> &'static str {
        match self {
            Field::Venue => "venue_name",
            f => f.name(),
        }
    }

    pub fn parse(name: &str) -> Result<Field> {
        match Field::ALL.into_iter().find(|f| f.name() == name) {
            Some(f) => Ok(f),
            None => bail!("{name:?} is not a field that can be corrected; use one of {}", Field::names()),
        }
    }

    pub fn names() -> String {
        Field::ALL.map(Field::name).join(", ")
    }

    /// The value as it will be stored, through the gate of every stored text
    /// (`parse::stored`: markup, control characters and bidi overrides
    /// stripped, contact data scrubbed, P5) and checked; or an error saying
    /// what to write instead. A text over the 64 KB a field may hold is
    /// refused, not cut. A start or end given as a date alone is kept as a
    /// date: the event is all-day.
    pub fn value(self, raw: &str) -> Result<String> {
        let raw = raw.trim();
        if raw.len() > crate::parse::stored::FIELD_CAP {
            bail!("the {} is {} bytes, over the {} KB a field may hold", self.name(), raw.len(), crate::parse::stored::FIELD_CAP >> 10);
        }
        let value = match self {
            Field::Description => crate::parse::stored::block(raw),
            Field::Title | Field::Venue | Field::Address | Field::Price => crate::parse::stored::line(raw),
            Field::Url => {
                let shown = crate::parse::stored::message(raw, &[]);
                // The url crate drops tabs and line breaks where it finds
                // them: a link holding any is refused, not mended.
                let plain = !raw.chars().any(|c| c.is_whitespace() || c.is_control() || crate::parse::controls::is_forbidden(c));
                let ok = plain && url::Url::parse(raw).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some());
                if !ok || crate::parse::pii::contains_pii(raw) {
                    bail!("url {shown:?} is not an http(s) URL of the original event page (one line, no spaces)");
                }
                raw.to_string()
            }
            Field::Start | Field::End => match crate::parse::dates::parse_datetime(raw) {
                Some(dt) if raw.len() == 10 => dt.date().to_string(),
                Some(dt) if raw.len() > 10 => dt.to_string(),
                _ => bail!(
                    "{} {:?} is not a local date and time: write YYYY-MM-DDTHH:MM (Europe/Madrid, or the venue's zone)",
                    self.name(),
                    crate::parse::stored::message(raw, &[])
                ),
            },
        };
        if value.is_empty() && matches!(self, Field::Title | Field::Start) {
            bail!("{} cannot be empty", self.name());
        }
        Ok(value)
    }
}

/// A field is its name where it is written: a listing, a message, JSON.
impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Field {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Field {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Field, D::Error> {
        Field::parse(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Stored as its name (`corrections.field`); a name that is no field reads
/// back as an error naming it.
impl rusqlite::ToSql for Field {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.name().into())
    }
}

impl rusqlite::types::FromSql for Field {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Field> {
        Field::parse(value.as_str()?).map_err(|e| rusqlite::types::FromSqlError::Other(e.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // P5: values are checked and scrubbed before they are stored.
    #[test]
    fn values_are_checked_and_scrubbed() {
        assert_eq!(Field::parse("venue").unwrap().column(), "venue_name");
        assert!(Field::parse("lat").unwrap_err().to_string().contains("title, description"));
        assert_eq!(Field::Start.value("2026-12-24 20:30").unwrap(), "2026-12-24T20:30:00");
        assert!(Field::Start.value("mañana").is_err());
        assert!(Field::End.value("2026-02-31T10:00").is_err());
        assert!(Field::Url.value("javascript:alert(1)").is_err());
        assert!(Field::Url.value("mailto:a@b.es").is_err());
        assert_eq!(Field::Url.value(" https://x.es/e/1 ").unwrap(), "https://x.es/e/1");
        let t = Field::Title.value("Concierto  — reservas en taquilla@teatro.es o 913 184 733").unwrap();
        assert!(!t.contains("taquilla@teatro.es") && !t.contains("913 184 733"), "{t}");
        assert!(Field::Title.value("   ").is_err());
        assert_eq!(Field::Description.value("línea\nsegunda").unwrap(), "línea\nsegunda");
        assert_eq!(Field::Start.value("2026-12-24").unwrap(), "2026-12-24");
    }

    /// A correction's field is written, stored and listed as the name it
    /// was while it was text, and a stored name reads back as its field.
    #[test]
    fn a_field_is_its_name_where_it_is_written() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        for f in Field::ALL {
            assert_eq!((f.to_string(), serde_json::to_string(&f).unwrap()), (f.name().to_string(), format!("{:?}", f.name())));
            assert_eq!(serde_json::from_str::<Field>(&format!("{:?}", f.name())).unwrap(), f);
            let stored: String = conn.query_row("SELECT ?1", [f], |r| r.get(0)).unwrap();
            assert_eq!(stored, f.name());
            assert_eq!(conn.query_row("SELECT ?1", [f.name()], |r| r.get::<_, Field>(0)).unwrap(), f);
        }
        assert!(conn.query_row("SELECT 'lat'", [], |r| r.get::<_, Field>(0)).is_err());
    }

    // Corrections are held to the feed's rules.
    #[test]
    fn corrections_pass_the_gate_of_every_stored_text() {
        assert_eq!(Field::Title.value("Jazz<script>alert(1)</script> \x1B[31mhoy\u{202E}").unwrap(), "Jazz hoy");
        assert!(!Field::Title.value("escribe a pii06 @ example . es").unwrap().contains("example"));
        assert!(Field::Description.value(&"x".repeat(70_000)).is_err());
        for bad in ["https://x.es/a\r\nSet-Cookie: y", "https://x.es/a b", "https://x.es/\ta"] {
            assert!(Field::Url.value(bad).is_err(), "{bad:?}");
        }
    }
}
