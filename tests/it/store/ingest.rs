//! P20 at the store: events that vanish from a healthy feed are withdrawn;
//! a feed that comes back empty, much shorter, or mostly unparsable changes
//! nothing of its source.
use cityvibe::model::Event;
use cityvibe::store::Store;
use cityvibe::store::ingest::{Verdict, WithdrawGuard};

const MANIFEST: &cityvibe::adapter::Manifest = &cityvibe::adapters::madrid::MANIFEST;

fn events(ids: std::ops::Range<u32>) -> Vec<Event> {
    ids.map(|i| Event::new(&i.to_string(), &format!("Evento {i}"), "es").unwrap()).collect()
}

/// Ingest `evs` with `errors` bad records; the verdict.
fn ingest(store: &mut Store, evs: &[Event], errors: u64) -> Verdict {
    let mut tx = store.begin_ingest(MANIFEST).unwrap();
    for e in evs {
        tx.upsert(e).unwrap();
    }
    tx.finish(evs.len() as u64, errors).unwrap()
}

fn active(store: &Store) -> Vec<String> {
    let mut st =
        store.connection().prepare("SELECT source_event_id FROM events WHERE status = 'active' ORDER BY 0 + source_event_id").unwrap();
    st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("db.sqlite")).unwrap();
    (dir, store)
}

#[test]
fn vanished_events_are_withdrawn_not_kept() {
    let (_dir, mut store) = store();
    assert!(matches!(ingest(&mut store, &events(0..10), 0), Verdict::Committed(c) if c.added == 10));
    // Two events left the feed: withdrawn, not listed, not deleted.
    match ingest(&mut store, &events(0..8), 0) {
        Verdict::Committed(c) => assert_eq!((c.added, c.unchanged, c.withdrawn), (0, 8, 2)),
        other => panic!("{other:?}"),
    }
    assert_eq!(active(&store).len(), 8);
    let withdrawn: i64 = store.connection().query_row("SELECT count(*) FROM events WHERE status = 'withdrawn'", [], |r| r.get(0)).unwrap();
    assert_eq!(withdrawn, 2);
    // One comes back: active again.
    match ingest(&mut store, &events(0..9), 0) {
        Verdict::Committed(c) => assert_eq!((c.updated, c.withdrawn), (1, 0)),
        other => panic!("{other:?}"),
    }
    assert_eq!(active(&store).len(), 9);
}

#[test]
fn broken_feeds_change_nothing() {
    let (_dir, mut store) = store();
    ingest(&mut store, &events(0..10), 0);
    let before = active(&store);
    for (what, evs, errors) in [
        ("empty feed", events(0..0), 0),
        ("fewer than half the events stored", events(0..4), 0),
        ("over 20 % of records unparsable", events(0..10), 3),
    ] {
        match ingest(&mut store, &evs, errors) {
            Verdict::Anomaly(why) => assert!(why.contains("kept"), "{what}: {why}"),
            other => panic!("{what}: {other:?}"),
        }
        assert_eq!(active(&store), before, "{what} changed the stored events");
    }
    // Exactly half, and 20 % bad, still count as healthy (exactly half
    // withdrawn needs a source allowed the most, 0.5: P20).
    let mut tx = store.begin_ingest(MANIFEST).unwrap();
    tx.set_withdraw_guard(WithdrawGuard { max_share: WithdrawGuard::CEILING });
    for e in &events(0..5) {
        tx.upsert(e).unwrap();
    }
    assert!(matches!(tx.finish(5, 0).unwrap(), Verdict::Committed(c) if c.withdrawn == 5));
    let (_dir2, mut fresh) = self::store();
    assert!(matches!(ingest(&mut fresh, &events(0..8), 2), Verdict::Committed(_)));
}

// P20: the rules count distinct ids, and more than the allowed
// share withdrawn at once is an anomaly.
#[test]
fn repeated_ids_and_large_withdrawals_change_nothing() {
    let (_dir, mut store) = store();
    ingest(&mut store, &events(0..10), 0);
    let before = active(&store);
    let same_id: Vec<Event> = (0..10).map(|_| events(3..4).remove(0)).collect();
    for (what, evs) in [("one id repeated", same_id), ("three of ten gone", events(0..7))] {
        match ingest(&mut store, &evs, 0) {
            Verdict::Anomaly(why) => assert!(why.starts_with("madrid: "), "{what}: {why}"),
            other => panic!("{what}: {other:?}"),
        }
        assert_eq!(active(&store), before, "{what} changed the stored events");
    }
    // One event of a tiny source may always end.
    let (_dir2, mut small) = self::store();
    ingest(&mut small, &events(0..3), 0);
    assert!(matches!(ingest(&mut small, &events(0..2), 0), Verdict::Committed(c) if c.withdrawn == 1));
}

/// One id on several records of a feed is one event, the last
/// record winning; each repeat is counted as merged. A first record that
/// matches the stored event and a later one that does not make an update,
/// not an unchanged event and an update.
#[test]
fn the_last_record_of_an_id_wins_and_repeats_count_as_merged() {
    let (_dir, mut store) = store();
    let titled = |t: &str| Event::new("7", t, "es").unwrap();
    assert!(matches!(ingest(&mut store, &[titled("Primera")], 0), Verdict::Committed(c) if c.added == 1));
    match ingest(&mut store, &[titled("Primera"), titled("Primera"), titled("Editada")], 0) {
        Verdict::Committed(c) => assert_eq!((c.added, c.updated, c.unchanged, c.merged), (0, 1, 0, 2), "{c:?}"),
        other => panic!("{other:?}"),
    }
    let title: String = store.connection().query_row("SELECT title FROM events WHERE source_event_id = '7'", [], |r| r.get(0)).unwrap();
    assert_eq!(title, "Editada");
    // Identical copies of the stored event: unchanged, merged.
    match ingest(&mut store, &[titled("Editada"), titled("Editada")], 0) {
        Verdict::Committed(c) => assert_eq!((c.updated, c.unchanged, c.merged), (0, 1, 1), "{c:?}"),
        other => panic!("{other:?}"),
    }
}
