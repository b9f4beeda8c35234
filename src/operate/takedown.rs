//! Taking an event down and lifting a takedown (P18): `takedown add|remove`.
//! A takedown deletes what it names and keeps a tombstone, dated by the
//! caller's clock, that stops the event from coming back; a takedown that
//! was not recorded leaves no database behind.
//!
//! Not for matching a takedown to stored events (`store::takedowns`).

use crate::clock::Clock;
use crate::store::Store;
use crate::store::takedowns::{Takedown, TakedownOutcome, Target};
use anyhow::Result;
use std::path::Path;

/// A takedown asked for.
#[derive(Debug)]
pub struct Added {
    pub outcome: TakedownOutcome,
    /// There was no database at the path: one was created to hold this
    /// takedown (a takedown may come before the first run, but one written
    /// to a mistyped `--db` protects nothing, so the operator hears it).
    pub created_db: bool,
}

/// Take down `what` (`SOURCE:ID`, a bare id or a URL) for `reason` in the
/// database at `db`. A `SOURCE:ID` that names no stored event and does not
/// look like an id of its source is not recorded without `force`
/// ([`TakedownOutcome::Unconfirmed`]); a database made for it goes again.
pub fn add(db: &Path, what: &str, reason: &str, force: bool, clock: &dyn Clock) -> Result<Added> {
    let target = Target::parse(what, &crate::adapters::ids());
    if let Target::Event { source, .. } = &target {
        crate::adapters::require(source)?;
    }
    if let Target::BareId(id) = &target {
        mistyped_source(id)?;
    }
    let new_db = !db.is_file();
    let new_folder = db.parent().filter(|p| !p.as_os_str().is_empty() && !p.exists()).map(|p| p.to_path_buf());
    let mut store = Store::open(db)?;
    let outcome = store.add_takedown(&target, reason, force, clock.now_ms())?;
    let unconfirmed = matches!(outcome, TakedownOutcome::Unconfirmed { .. });
    if new_db && unconfirmed {
        // A refused command creates nothing: the database made for a takedown
        // that was not recorded goes again, or a later read command would take
        // the mistyped path for a real one.
        drop(store);
        unmake_database(db, new_folder.as_deref());
    }
    Ok(Added { outcome, created_db: new_db && !unconfirmed })
}

/// `madird:123` is no bare id but a source id mistyped: refuse it naming
/// the closest source id (`madrid:123`), never `madrid:madird:123`. A part
/// before `:` far from every source id is left to be a bare id with a colon.
fn mistyped_source(id: &str) -> Result<()> {
    let Some((head, rest)) = id.split_once(':') else { return Ok(()) };
    let (head, rest) = (head.trim(), rest.trim());
    if head.is_empty() || rest.is_empty() || !head.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        return Ok(());
    }
    let lower = head.to_ascii_lowercase();
    let closest = crate::adapters::ids().into_iter().map(|known| (strsim::damerau_levenshtein(&lower, known), known)).min();
    match closest {
        // Within two edits (a swap counts as one) of a source id: a typo.
        Some((distance, known)) if distance <= 2 => {
            crate::bail_usage!("{head:?} is no source id; did you mean {known}:{rest}? (sources: {})", crate::adapters::ids().join(", "))
        }
        _ => Ok(()),
    }
}

/// Lift takedown `id`: the event may come back when its feed next changes.
/// No such takedown is the operator's mistake (exit 2).
pub fn remove(store: &Store, id: i64) -> Result<Takedown> {
    match store.remove_takedown(id)? {
        Some(t) => Ok(t),
        None => crate::bail_usage!("no takedown with id {id}; see `cityvibe takedown list`"),
    }
}

/// Remove a database this use case made and did not use, with its SQLite
/// side files (and its folder, when it made that too).
fn unmake_database(db: &Path, folder: Option<&Path>) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = db.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(std::path::PathBuf::from(p));
    }
    if let Some(f) = folder {
        let _ = std::fs::remove_dir(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Exit, exit_for};
    use crate::testing::{clock_at, store_with_madrid};

    // P18: the takedown deletes the event and its tombstone is dated by the
    // clock handed in; lifted, it is gone; lifted twice is the operator's
    // mistake.
    #[test]
    fn a_takedown_is_dated_by_the_clock_handed_in_and_lifted_once() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("cityvibe.db");
        drop(store_with_madrid(&db, &[("1", "Concierto"), ("2", "Teatro")]));
        let added = add(&db, "madrid:1", "the organiser asked", false, &clock_at("2020-02-29T23:30:00Z")).unwrap();
        assert!(!added.created_db);
        let TakedownOutcome::Recorded(r) = added.outcome else { panic!("{:?}", added.outcome) };
        assert_eq!(r.deleted, ["madrid:1"]);
        assert_eq!(r.takedown.created_at.to_string(), "2020-02-29T23:30:00Z");
        let store = Store::open(&db).unwrap();
        assert_eq!(store.count_events("madrid").unwrap().0, 1);
        assert_eq!(remove(&store, r.takedown.id).unwrap().reason, "the organiser asked");
        assert_eq!(exit_for(&remove(&store, r.takedown.id).unwrap_err()), Exit::Usage);
    }

    // A takedown not recorded leaves no database (nor the folder made for it)
    // behind; one recorded says it made the database.
    #[test]
    fn a_takedown_not_recorded_leaves_no_database_behind() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("new").join("cityvibe.db");
        let clock = clock_at("2021-06-01T10:00:00Z");
        let added = add(&db, "madrid:1", "asked", false, &clock).unwrap();
        assert!(matches!(added.outcome, TakedownOutcome::Unconfirmed { .. }), "{:?}", added.outcome);
        assert!(!added.created_db);
        assert!(!dir.path().join("new").exists());
        let forced = add(&db, "madrid:1", "asked", true, &clock).unwrap();
        assert!(forced.created_db && matches!(forced.outcome, TakedownOutcome::Recorded(_)));
        assert!(db.is_file());
    }
}
