//! Tolerant serde field types for feeds whose value types wander: a number
//! where a string was expected, an object where a string was, `null`. A
//! record with such a field still deserializes; the adapter decides what is
//! missing. This keeps one bad record from sinking a whole feed.

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// The visitor methods of a tolerant type for the kinds of value it reads
/// as absent: each gives the type's `Default` ("nothing here"), and an
/// object or array met there is read to its end and dropped. Named kinds:
/// `str`, `number`, `bool`, `null`, `map`, `seq`.
macro_rules! absent {
    ($($kind:ident),*) => { $( absent!(@ $kind); )* };
    (@ str) => {
        fn visit_borrowed_str<E>(self, _: &'de str) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
    (@ number) => {
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
    (@ bool) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
    (@ null) => {
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
    (@ map) => {
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
            while m.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
    (@ seq) => {
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
            while s.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
}
pub(crate) use absent;

/// Any scalar as text (`"x"`, `1`, `true`); objects, arrays and null as `None`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Loose<'a>(pub Option<Cow<'a, str>>);

impl<'a> Loose<'a> {
    pub fn as_str(&self) -> &str {
        self.0.as_deref().unwrap_or("").trim()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Loose<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Loose<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Loose(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Loose(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Loose(Some(Cow::Owned(v))))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Loose(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Loose(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Loose(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Loose(Some(Cow::Borrowed(if v { "1" } else { "0" }))))
            }
            absent!(null, map, seq);
        }
        d.deserialize_any(V)
    }
}

/// A number, or text holding one (`"40.4"`), as `f64`; anything else `None`.
/// What [`Loose`] would give as text and the adapter parse, read straight
/// from a JSON number instead of through its text (coordinates).
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct LooseNumber(pub Option<f64>);

impl<'de> Deserialize<'de> for LooseNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LooseNumber;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(LooseNumber(v.trim().parse().ok()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
                Ok(LooseNumber(Some(v as f64)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
                Ok(LooseNumber(Some(v as f64)))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
                Ok(LooseNumber(Some(v)))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
                // As `Loose` reads it: "1" or "0".
                Ok(LooseNumber(Some(if v { 1.0 } else { 0.0 })))
            }
            absent!(null, map, seq);
        }
        d.deserialize_any(V)
    }
}

/// A nested object that may be absent or of the wrong type: `None` then.
#[derive(Debug, Clone, PartialEq)]
pub struct Nested<T>(pub Option<T>);

impl<T> Default for Nested<T> {
    fn default() -> Self {
        Nested(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nested<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Nested<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(m)).map(|t| Nested(Some(t)))
            }
            absent!(seq, str, number, bool, null);
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Rec<'a> {
        #[serde(borrow, default)]
        id: Loose<'a>,
        #[serde(default)]
        loc: Nested<Loc>,
    }
    #[derive(serde::Deserialize)]
    struct Loc {
        lat: f64,
    }

    #[test]
    fn wrong_types_do_not_fail_the_record() {
        let json = br#"[{"id": 5, "loc": {"lat": 40.1}}, {"id": {"a": 1}, "loc": "none"}, {"id": "a\"b"}]"#;
        let recs: Vec<Rec> = serde_json::from_slice(json).unwrap();
        let seen: Vec<_> = recs.iter().map(|r| (r.id.as_str().to_string(), r.loc.0.as_ref().map(|l| l.lat))).collect();
        assert_eq!(seen, vec![("5".into(), Some(40.1)), ("".into(), None), ("a\"b".into(), None)]);
    }

    /// A number read as one is the number its text, as `Loose` gives it,
    /// parses to: floats, integers, text, booleans and the rest alike.
    #[test]
    fn a_loose_number_is_what_its_loose_text_parses_to() {
        let values = [
            "40.42466486387238",
            "-3.7000638117797795",
            "-0.0",
            "1e300",
            "5e-324",
            "123456789012345678901",
            "9007199254740993",
            "-9007199254740993",
            "18446744073709551615",
            "0",
            "\" 40.4 \"",
            "\"40,4\"",
            "\"\"",
            "true",
            "false",
            "null",
            "{\"a\": 1}",
            "[1, 2]",
        ];
        for v in values {
            let number: LooseNumber = serde_json::from_str(v).unwrap();
            let text: Loose = serde_json::from_str(v).unwrap();
            assert_eq!(number.0.map(f64::to_bits), text.as_str().trim().parse::<f64>().ok().map(f64::to_bits), "{v}");
        }
    }
}
