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

/// Stream the elements of the top-level array named `key` of a JSON object
/// (or of a top-level array) to `each`, one at a time, without building the
/// whole document. Elements are deserialized as `T`: make `T` tolerant
/// (`Loose` fields, or wrap it in `Nested`) so that one odd element cannot
/// fail the whole array.
pub fn for_each_in_array<'de, T, F>(json: &'de [u8], key: Option<&str>, mut each: F) -> Result<usize, serde_json::Error>
where
    T: Deserialize<'de>,
    F: FnMut(T),
{
    struct Elements<'f, T, F>(&'f mut F, std::marker::PhantomData<T>, usize);
    impl<'de, T: Deserialize<'de>, F: FnMut(T)> Visitor<'de> for &mut Elements<'_, T, F> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an array of records")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
            while let Some(t) = s.next_element::<T>()? {
                self.2 += 1;
                (self.0)(t);
            }
            Ok(())
        }
    }
    struct Doc<'k, 'f, T, F>(Option<&'k str>, Elements<'f, T, F>, bool);
    impl<'de, T: Deserialize<'de>, F: FnMut(T)> Visitor<'de> for &mut Doc<'_, '_, T, F> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object or array")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
            while let Some(k) = m.next_key::<Cow<'de, str>>()? {
                if Some(k.as_ref()) == self.0 {
                    struct Seed<'x, 'f, T, F>(&'x mut Elements<'f, T, F>);
                    impl<'de, T: Deserialize<'de>, F: FnMut(T)> de::DeserializeSeed<'de> for Seed<'_, '_, T, F> {
                        type Value = ();
                        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                            d.deserialize_seq(self.0)
                        }
                    }
                    m.next_value_seed(Seed(&mut self.1))?;
                    self.2 = true;
                } else {
                    m.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<(), A::Error> {
            self.2 = true;
            (&mut self.1).visit_seq(s)
        }
    }
    let mut doc = Doc(key, Elements(&mut each, std::marker::PhantomData, 0), false);
    let mut de = serde_json::Deserializer::from_slice(json);
    de.deserialize_any(&mut doc)?;
    de.end()?;
    if !doc.2 {
        return Err(de::Error::custom(format!("no array named {:?} in the document", key.unwrap_or(""))));
    }
    Ok(doc.1.2)
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
        let json = br#"{"x": 1, "@graph": [{"id": 5, "loc": {"lat": 40.1}}, {"id": {"a": 1}, "loc": "none"}, {"id": "a\"b"}]}"#;
        let mut seen = Vec::new();
        let n = for_each_in_array(json, Some("@graph"), |r: Rec| seen.push((r.id.as_str().to_string(), r.loc.0.map(|l| l.lat)))).unwrap();
        assert_eq!(n, 3);
        assert_eq!(seen, vec![("5".into(), Some(40.1)), ("".into(), None), ("a\"b".into(), None)]);
    }

    #[test]
    fn truncated_document_is_an_error() {
        let json = br#"{"@graph": [{"id": 5}, {"id": "#;
        assert!(for_each_in_array(json, Some("@graph"), |_: Rec| {}).is_err());
        assert!(for_each_in_array(br#"{"other": []}"#, Some("@graph"), |_: Rec| {}).is_err());
    }
}
