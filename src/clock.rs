//! The one clock: every time cityvibe keeps or shows (the politeness
//! rules, the stamps the store writes, "now" for a listing or an export)
//! comes from a [`Clock`] handed in, never from the machine's clock read
//! on the spot. The scheduler asks it what time it is and waits on it, so
//! the rules (delays, backoff, Retry-After, not-before times, caps, the
//! wait ceiling) run the same against the machine's clock ([`SystemClock`],
//! what every command hands in) and against a [`SimulatedClock`], whose
//! waits pass at once: the tests prove those rules in milliseconds of
//! simulated time, against the real client, ledger and loopback server.
//! A leaf: it imports nothing of cityvibe.
//!
//! Beside the wall clock, a clock may tell the machine's boot clock
//! ([`Uptime`]: time since boot, which no setting of the wall clock moves,
//! the same for every process): the host ledger paces by both, so that a
//! wall clock set forward (by NTP or a person) never shortens a wait (P8).
//!
//! Not for: timeouts on the wire (ureq's own, always real), a run's
//! deadline (`ingest::RunBounds`, counted in this clock's time), or how
//! long something took (a monotonic `Instant`, which says no date).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A moment by the machine's boot clock: the time since it booted, which
/// no step of the wall clock moves, and which boot (a time of another boot
/// says nothing of now).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uptime {
    /// The boot's id (Linux's `/proc/sys/kernel/random/boot_id`).
    pub boot: String,
    /// Microseconds since that boot (`CLOCK_BOOTTIME`: suspended time included).
    pub us: i64,
}

/// A source of the current time that can also be waited on.
pub trait Clock {
    /// Now, in microseconds since the Unix epoch.
    fn now_us(&self) -> i64;

    /// Let `d` pass.
    fn sleep(&self, d: Duration);

    /// Now by the machine's boot clock, where there is one (Linux).
    fn uptime(&self) -> Option<Uptime> {
        None
    }

    /// Now, as a moment (the machine's clock keeps its nanoseconds).
    fn now(&self) -> jiff::Timestamp {
        jiff::Timestamp::from_microsecond(self.now_us()).unwrap_or(jiff::Timestamp::UNIX_EPOCH)
    }

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
        self.now().as_microsecond()
    }

    // The one place the machine's wall clock is read.
    fn now(&self) -> jiff::Timestamp {
        jiff::Timestamp::now()
    }

    fn sleep(&self, d: Duration) {
        std::thread::sleep(d);
    }

    #[cfg(target_os = "linux")]
    fn uptime(&self) -> Option<Uptime> {
        static BOOT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        let boot = BOOT
            .get_or_init(|| {
                std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok().map(|id| id.trim().to_string()).filter(|id| !id.is_empty())
            })
            .clone()?;
        let t = rustix::time::clock_gettime(rustix::time::ClockId::Boottime);
        Some(Uptime { boot, us: t.tv_sec.saturating_mul(1_000_000).saturating_add(t.tv_nsec as i64 / 1000) })
    }
}

/// A clock that only moves when it is waited on (or moved on): a wait of
/// an hour takes no time. Shared between threads (a test's server reads
/// it to stamp what it receives).
#[derive(Debug)]
pub struct SimulatedClock {
    now_us: AtomicI64,
    /// Its boot clock: moved by waits, not by [`SimulatedClock::set_wall`].
    uptime_us: AtomicI64,
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
        SimulatedClock { now_us: AtomicI64::new(us), uptime_us: AtomicI64::new(3_600_000_000) }
    }

    /// Move the time on by `d` (what a wait does): the wall clock and the
    /// boot clock alike.
    pub fn advance(&self, d: Duration) {
        let us = i64::try_from(d.as_micros()).unwrap_or(i64::MAX);
        self.now_us.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |t| Some(t.saturating_add(us))).ok();
        self.uptime_us.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |t| Some(t.saturating_add(us))).ok();
    }

    /// Step the wall clock by `ms` (forward, or back when negative), as NTP
    /// or a person setting the time does: no time passes, so the boot
    /// clock does not move.
    pub fn set_wall(&self, ms: i64) {
        self.now_us.fetch_add(ms.saturating_mul(1000), std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clock for SimulatedClock {
    fn now_us(&self) -> i64 {
        self.now_us.load(Ordering::SeqCst)
    }

    fn sleep(&self, d: Duration) {
        self.advance(d);
    }

    fn uptime(&self) -> Option<Uptime> {
        Some(Uptime { boot: "simulated".into(), us: self.uptime_us.load(Ordering::SeqCst) })
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
