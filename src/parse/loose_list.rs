//! Tolerant lists for feeds whose list fields wander. [`LooseList`]: a list
//! of scalars (an array of strings, a single string in its place, `null`,
//! numbers mixed in, or an object). [`NestedList`]: a list of objects (an
//! array of them, one object alone, `null`, absent, or a scalar instead).
//! Like `loose::Loose`, neither ever fails the record it sits in.

use crate::parse::loose::{Loose, Nested, absent};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// The scalar items of a list (or the one scalar given instead); objects,
/// nested arrays and nulls among them are dropped.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LooseList<'a>(pub Vec<Cow<'a, str>>);

impl LooseList<'_> {
    /// The items, trimmed, without empty ones.
    pub fn items(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|s| s.trim()).filter(|s| !s.is_empty())
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for LooseList<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LooseList<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(item) = s.next_element::<Loose<'de>>()? {
                    out.extend(item.0);
                }
                Ok(LooseList(out))
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(LooseList(vec![Cow::Borrowed(v)]))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(LooseList(vec![Cow::Owned(v.to_string())]))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(LooseList(vec![Cow::Owned(v)]))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
                Ok(LooseList(vec![Cow::Owned(v.to_string())]))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
                Ok(LooseList(vec![Cow::Owned(v.to_string())]))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
                Ok(LooseList(vec![Cow::Owned(v.to_string())]))
            }
            absent!(bool, null, map);
        }
        d.deserialize_any(V)
    }
}

/// A list of objects that may be absent, `null`, one object alone, or
/// something else in its place (a string, a number: empty then); an item
/// of the wrong type is skipped. Andalucía's `coordinates`,
/// `date_registration` and `more_info` are such lists, and absent from many
/// records rather than null.
///
/// ```
/// use cityvibe::parse::loose_list::NestedList;
/// #[derive(serde::Deserialize)]
/// struct Point { latitude: f64 }
/// #[derive(serde::Deserialize)]
/// struct Record { #[serde(default)] coordinates: NestedList<Point> }
/// let read = |json: &str| serde_json::from_str::<Record>(json).unwrap().coordinates.0.len();
/// assert_eq!(read(r#"{"coordinates": [{"latitude": 1.0}, "x", {"latitude": 2.0}]}"#), 2);
/// assert_eq!(read(r#"{"coordinates": {"latitude": 1.0}}"#), 1);
/// assert_eq!(read(r#"{"coordinates": null}"#), 0);
/// assert_eq!(read(r#"{"coordinates": "4142626.04"}"#), 0);
/// assert_eq!(read(r#"{}"#), 0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct NestedList<T>(pub Vec<T>);

impl<T> Default for NestedList<T> {
    fn default() -> Self {
        NestedList(Vec::new())
    }
}

impl<T> NestedList<T> {
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NestedList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = NestedList<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of objects")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(item) = s.next_element::<Nested<T>>()? {
                    out.extend(item.0);
                }
                Ok(NestedList(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
                let one = Nested::<T>::deserialize(serde::de::value::MapAccessDeserializer::new(m))?;
                Ok(NestedList(one.0.into_iter().collect()))
            }
            absent!(str, number, bool, null);
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
        tags: LooseList<'a>,
    }

    #[test]
    fn lists_in_every_shape() {
        let parse = |json: &str| -> Vec<String> {
            let r: Rec = serde_json::from_str(json).unwrap();
            r.tags.items().map(str::to_string).collect()
        };
        assert_eq!(parse(r#"{"tags": ["a", " b ", "", 3, null, {"x": 1}, ["y"]]}"#), ["a", "b", "3"]);
        assert_eq!(parse(r#"{"tags": "solo"}"#), ["solo"]);
        assert!(parse(r#"{"tags": null}"#).is_empty());
        assert!(parse(r#"{"tags": {"a": "b"}}"#).is_empty());
        assert!(parse(r#"{}"#).is_empty());
    }
}
