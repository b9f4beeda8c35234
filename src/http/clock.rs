//! The time the politeness rules are kept in: the scheduler asks a
//! [`Clock`] what time it is and waits on it, so the rules (delays,
//! backoff, Retry-After, not-before times, caps, the wait ceiling) run the
//! same against the machine's clock ([`SystemClock`], what every command
//! uses) and against a [`SimulatedClock`], whose waits pass at once: the
//! tests prove those rules in milliseconds of simulated time, against the
//! real client, ledger and loopback server.
//!
//! Not for: timeouts on the wire (ureq's own, always real), a run's
//! deadline (`ingest::RunBounds`), or the times the store writes down for
//! people (`store::now_ms`).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A source of the current time that can also be waited on.
pub trait Clock {
    /// Now, in microseconds since the Unix epoch.
    fn now_us(&self) -> i64;

    /// Let `d` pass.
    fn sleep(&self, d: Duration);

    /// Now, in ms since the Unix epoch (rounded down).
    fn now_ms(&self) -> i64 {
        self.now_us().div_euclid(1000)
    }

    /// Now, in ms since the Unix epoch, rounded up: a delay counted from it
    /// never falls short by a fraction of a millisecond (P8).
    fn now_ms_ceil(&self) -> i64 {
        (self.now_us() + 999).div_euclid(1000)
    }

    /// Now, as a [`SystemTime`] (to read an HTTP-date against, P10).
    fn system_time(&self) -> SystemTime {
        match u64::try_from(self.now_us()) {
            Ok(us) => UNIX_EPOCH + Duration::from_micros(us),
            Err(_) => UNIX_EPOCH - Duration::from_micros(self.now_us().unsigned_abs()),
        }
    }
}

/// The machine's clock; waits are real.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_us(&self) -> i64 {
        jiff::Timestamp::now().as_microsecond()
    }

    fn sleep(&self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// A clock that only moves when it is waited on (or moved on): a wait of
/// an hour takes no time. Shared between threads (a test's server reads
/// it to stamp what it receives).
#[derive(Debug)]
pub struct SimulatedClock {
    now_us: AtomicI64,
}

impl SimulatedClock {
    /// A clock starting at the machine's time now, so that the times it
    /// gives read as today's (HTTP-dates, hours windows, the ledger's
    /// check against times no clock could have written).
    pub fn starting_now() -> SimulatedClock {
        SimulatedClock::at_us(SystemClock.now_us())
    }

    /// A clock starting at `us` microseconds since the Unix epoch.
    pub fn at_us(us: i64) -> SimulatedClock {
        SimulatedClock { now_us: AtomicI64::new(us) }
    }

    /// Move the time on by `d` (what a wait does).
    pub fn advance(&self, d: Duration) {
        let us = i64::try_from(d.as_micros()).unwrap_or(i64::MAX);
        self.now_us.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |t| Some(t.saturating_add(us))).ok();
    }
}

impl Clock for SimulatedClock {
    fn now_us(&self) -> i64 {
        self.now_us.load(Ordering::SeqCst)
    }

    fn sleep(&self, d: Duration) {
        self.advance(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A simulated wait moves the time by exactly what was waited, at once.
    #[test]
    fn a_simulated_wait_passes_at_once_and_exactly() {
        let c = SimulatedClock::at_us(1_000_000_500);
        let started = std::time::Instant::now();
        c.sleep(Duration::from_secs(3600));
        // Not the hour a real sleep takes, however loaded the machine.
        assert!(started.elapsed() < Duration::from_secs(1800), "{:?}", started.elapsed());
        assert_eq!(c.now_us(), 1_000_000_500 + 3_600_000_000);
        assert_eq!((c.now_ms(), c.now_ms_ceil()), (4_600_000, 4_600_001));
        assert_eq!(c.system_time(), UNIX_EPOCH + Duration::from_micros(4_600_000_500));
    }

    // The machine's clock and a simulated one started from it read alike.
    #[test]
    fn a_simulated_clock_starts_at_the_machines_time() {
        let sim = SimulatedClock::starting_now();
        assert!((SystemClock.now_ms() - sim.now_ms()).abs() < 60_000);
    }
}
