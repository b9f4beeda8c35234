//! The JSON record driver: finds the records of a feed's array and hands
//! each one on as strict JSON, however the publisher wrote it, read as the
//! adapter's typed record.
//!
//! Real feeds are not always valid JSON: datos.madrid.es puts raw line breaks
//! inside strings, and its 2018 snapshot carries an invalid escape
//! (`Usera\Pte de Vallecas`). Rather than repairing the whole body before a
//! strict parser sees it (which takes 16 times the body for 100 MB of
//! control bytes), each record is read by the strict parser straight from
//! the body, which finds where it ends:
//! nearly all are read once. Only a record the strict parser cannot read is
//! walked leniently to find its end, repaired on its own into one reused
//! buffer (at most a small multiple of the largest record) and read again;
//! a record over [`RECORD_CAP`] is refused. The rest of the body (the
//! array's brackets, other keys) is walked with constant bookkeeping.
//!
//! A body that ends before its closing brackets is a failed feed: nothing
//! of it may be stored.
//!
//! Here: the typed driver ([`read_records`]); what an element reads as
//! ([`Element`], [`Record`]) is `element.rs`, the walk of the body is `walk.rs`, the repair of one
//! record's bytes `repair.rs`. Not for: mapping records to events (adapters
//! do that) or any other JSON in the program.

mod element;
mod repair;
mod walk;

pub use element::{Element, Item, MAX_DEPTH, RECORD_CAP, Record, Unreadable};
pub use walk::for_each_element;

use super::sink::{EventSink, FeedError, RecordError};
use crate::model::Event;
use std::io::BufRead;

/// The JSON record driver, typed: each element of the array named `key` is
/// parsed strictly as `R`, repaired only when the strict parse refused it,
/// and `map` is called once on the typed record and the element's
/// position; its outcome is pushed, a record error without a name getting
/// the element's position. Oversized elements and lenient readings are
/// reported here, and a body that is not a readable document is a
/// [`FeedError`] naming what is wrong and where.
pub fn read_records<R: Record>(
    body: &mut dyn BufRead,
    key: Option<&str>,
    sink: &mut dyn EventSink,
    mut map: impl for<'de> FnMut(R::Of<'de>, usize) -> Result<Event, RecordError>,
) -> Result<usize, FeedError> {
    let mut json = Vec::new();
    body.read_to_end(&mut json).map_err(|e| FeedError::new(format!("reading the JSON body: {e}")))?;
    for_each_element(
        &json,
        key,
        |element| {
            let record =
                if R::OBJECTS_ONLY { element.record_keyed::<R::Of<'_>>(R::ID_KEY) } else { element.parse_keyed::<R::Of<'_>>(R::ID_KEY) };
            let record = record.map_err(|mut e| {
                e.id = e.id.as_deref().and_then(R::id_in).map(str::to_string);
                e
            });
            record.and_then(|record| map(record, element.position)).map_err(|e| e.or_name(|| element.name()))
        },
        |item| match item {
            Item::Record(record) => sink.push(record),
            Item::Refused(e) => sink.push(Err(e)),
            Item::Warning(w) => sink.warning(w),
        },
    )
    .map_err(|Unreadable(why)| FeedError::new(why))
}

#[cfg(test)]
mod tests;
