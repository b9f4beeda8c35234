//! Helpers for the library's own unit tests.

/// A xorshift64 stream from `seed`: the same pseudo-random numbers on every
/// run, for tests that compare two ways of doing one thing on many made-up
/// inputs.
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// CPU time this thread has used so far: what a test that bounds the work of a
/// call on this thread measures, so that its verdict does not depend on how
/// loaded the machine is, as wall time does.
pub(crate) fn thread_cpu() -> std::time::Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and a timespec to write into.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime: {}", std::io::Error::last_os_error());
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// A fresh database at `path` holding `madrid` events with these ids and
/// titles (in Spanish), as a run would have stored them.
pub(crate) fn store_with_madrid(path: &std::path::Path, events: &[(&str, &str)]) -> crate::store::Store {
    let mut store = crate::store::Store::open(path).unwrap();
    let mut ingest = store.begin_ingest(&crate::adapters::madrid::MANIFEST).unwrap();
    for (id, title) in events {
        ingest.upsert(&crate::model::Event::new(id, title, "es").unwrap()).unwrap();
    }
    ingest.finish(events.len() as u64, 0).unwrap();
    store
}

/// A simulated clock at `rfc3339` (a time no test runs at, so that a
/// stamp from the machine's clock cannot pass for it).
pub(crate) fn clock_at(rfc3339: &str) -> crate::clock::SimulatedClock {
    crate::clock::SimulatedClock::at_us(rfc3339.parse::<jiff::Timestamp>().unwrap().as_microsecond())
}
