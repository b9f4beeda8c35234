//! The operator's correction of one field of a stored event (`events correct`):
//! shown until the feed itself changes that field; or its lifting, after which
//! the feed's value shows again. Dated by the caller's clock.
//!
//! Not for what a field may hold (`correction`) nor for how a correction
//! is kept and ended (`store::corrections`).

use crate::clock::Clock;
use crate::correction::Field;
use crate::store::Store;
use crate::store::corrections::{Correction, Refused};
use anyhow::Result;

/// What became of the field.
#[derive(Debug)]
pub enum Corrected {
    /// Corrected: the correction as stored (with the feed's value beside it).
    Corrected(Box<Correction>),
    /// The correction in force was lifted.
    Lifted,
}

/// Correct `field` of event `source`:`id` to `value`, saying why; with no
/// value, lift the correction in force. What the operator gave wrong (no
/// reason, a value the field cannot hold, no such event, no correction to
/// lift) is a usage error (exit 2).
pub fn correct(
    store: &mut Store,
    (source, id): (&str, &str),
    field: Field,
    value: Option<&str>,
    reason: Option<&str>,
    clock: &dyn Clock,
) -> Result<Corrected> {
    let Some(raw) = value else {
        if !store.lift_correction(source, id, field, clock.now_ms())? {
            let name = field.name();
            crate::bail_usage!("{source}:{id} has no correction of {name} in force; see `cityvibe events show {source}:{id}`");
        }
        return Ok(Corrected::Lifted);
    };
    // The reason is stored and shown too: no contact data in it either (P5).
    let reason = crate::parse::pii::scrub(reason.unwrap_or("").trim());
    if reason.is_empty() {
        crate::bail_usage!("say why with --reason \"…\" (it is kept with the correction)");
    }
    let value = field.value(raw).map_err(crate::error::as_usage)?;
    // What the event's data refuses is the operator's to fix (exit 2).
    let refused = |e: anyhow::Error| if e.is::<Refused>() { crate::error::as_usage(e) } else { e };
    let correction = store.correct(source, id, field, &value, &reason, clock.now_ms()).map_err(refused)?;
    Ok(Corrected::Corrected(Box::new(correction)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Exit, exit_for};
    use crate::testing::{clock_at, store_with_madrid};

    // A correction and its lifting are dated by the clock handed in; a second
    // lifting, or a correction without a reason, is the operator's mistake.
    #[test]
    fn a_correction_and_its_lifting_are_dated_by_the_clock_handed_in() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = store_with_madrid(&dir.path().join("cityvibe.db"), &[("1", "Concirto")]);
        let clock = clock_at("2020-02-29T23:30:00Z");
        let event = ("madrid", "1");
        let no_reason = correct(&mut store, event, Field::Title, Some("Concierto"), Some(" "), &clock).unwrap_err();
        assert_eq!(exit_for(&no_reason), Exit::Usage);
        let Corrected::Corrected(c) = correct(&mut store, event, Field::Title, Some("Concierto"), Some("typo"), &clock).unwrap() else {
            panic!("not corrected")
        };
        assert_eq!((c.value.as_deref(), c.feed_value.as_deref()), (Some("Concierto"), Some("Concirto")));
        assert_eq!(c.created_at.to_string(), "2020-02-29T23:30:00Z");
        clock.advance(std::time::Duration::from_secs(3600));
        assert!(matches!(correct(&mut store, event, Field::Title, None, None, &clock).unwrap(), Corrected::Lifted));
        let ended = store.corrections("madrid", Some("1")).unwrap();
        assert_eq!(ended[0].ended_at.map(|t| t.to_string()).as_deref(), Some("2020-03-01T00:30:00Z"));
        let again = correct(&mut store, event, Field::Title, None, None, &clock).unwrap_err();
        assert_eq!(exit_for(&again), Exit::Usage);
    }
}
