//! Tolerant serde field types for feeds whose value types wander: a number
//! where a string was expected, an object where a string was, `null`. A
//! record with such a field still deserializes; the adapter decides what is
//! missing. This keeps one bad record from sinking a whole feed.

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

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
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Loose(None))
            }
            fn visit_none<E>(self) -> Result<Self::Value, E> {
                Ok(Loose(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Loose(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Loose(None))
            }
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
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Nested(None))
            }
            fn visit_borrowed_str<E>(self, _: &'de str) -> Result<Self::Value, E> {
                Ok(Nested(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Nested(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Nested(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Nested(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Nested(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Nested(None))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Nested(None))
            }
            fn visit_none<E>(self) -> Result<Self::Value, E> {
                Ok(Nested(None))
            }
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
}
