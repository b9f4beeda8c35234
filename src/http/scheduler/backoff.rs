//! The scheduler's answer to a 429 or a 503 (P10, P11): back off
//! exponentially from the host's delay or wait what Retry-After asks, to the
//! letter; remember it in the host ledger for every process and later
//! command; give up after a bounded number of tries, remembering the next
//! step too; hold a host that asks for over a year until the operator
//! releases it. Not for other statuses.

use super::fetch::FetchOutcome;
use super::task::{Scheduler, Step, Task, skipped};
use crate::http::client::Exchange;
use crate::http::headers::{RetryAfter, parse_retry_after};
use crate::http::ledger::HELD;
use crate::times::utc;
use crate::vocab::RequestOutcome;

impl Scheduler<'_> {
    /// A 429 or 503 for the task's current URL: what follows.
    pub(super) fn backoff(&mut self, t: &mut Task, ex: &Exchange, delay_ms: i64) -> (Step, RequestOutcome) {
        let host = self.client.books(t.current.host_str().unwrap_or(""));
        let status = ex.status;
        let url = t.current.clone();
        t.tries += 1;
        let max = self.client.limits.max_tries;
        if t.tries >= max {
            // The backoff episode outlives this command: the next step of
            // the backoff is the host's not-before time for every later
            // command and process (P10).
            let base = delay_ms.max(1000.min(delay_ms.max(1)));
            let now = self.clock.now_ms_ceil();
            let next = now.saturating_add(base.saturating_mul(1i64 << (t.tries - 1).min(20)));
            let said = format!("HTTP {status} {} times in a row, our backoff", t.tries);
            let until = match self.ledger.set_not_before(&host, next, now, &said) {
                Ok(until) => until,
                Err(e) => return (Step::Done(self.close(&host, &e)), RequestOutcome::BackoffLedgerFailed),
            };
            let why = format!(
                "{url}: HTTP {status} {t} times in a row; gave up, no request to this host before {} (P10, P11)",
                utc(until),
                t = t.tries
            );
            // A 429/503 that persists is a "no" (P11): neither this source's
            // next feed nor another source asks that host again in this run.
            self.hosts.entry(host).or_default().gave_up = Some(why.clone());
            return (Step::Done(FetchOutcome::Failed(why)), RequestOutcome::BackoffGaveUp { tries: max });
        }
        let base = delay_ms.max(1000.min(delay_ms.max(1)));
        let backoff = base.saturating_mul(1i64 << (t.tries - 1).min(20));
        let asked = parse_retry_after(ex.retry_after.as_deref(), self.clock.system_time());
        // Measured after the parse and rounded up, so the wait is never
        // shorter than asked, not even by a millisecond (P10).
        let now = self.clock.now_ms_ceil();
        let (wait, said) = match asked {
            RetryAfter::Wait(d) => (
                (d.as_micros().div_ceil(1000).min(i64::MAX as u128) as i64).max(delay_ms),
                format!("Retry-After: {}", ex.retry_after.as_deref().unwrap_or_default()),
            ),
            RetryAfter::Unusable => (backoff, "our backoff".to_string()),
        };
        // Every process on the machine waits it out too: exactly, up to a
        // year; beyond it the host is held until the operator acts.
        let until = match self.ledger.set_not_before(&host, now.saturating_add(wait), now, &format!("HTTP {status}, {said}")) {
            Ok(until) => until,
            Err(e) => return (Step::Done(self.close(&host, &e)), RequestOutcome::BackoffLedgerFailed),
        };
        if until == HELD {
            let why = format!(
                "{url}: HTTP {status} asks us to stay away for more than a year ({said}): {host} is held, no request \
                     until the operator lifts the hold with `cityvibe source release {host}` (P10)"
            );
            self.hosts.entry(host).or_default().blocked = Some(why.clone());
            return (Step::Done(FetchOutcome::Refused(why)), RequestOutcome::BackoffOverCap);
        }
        if wait > self.client.limits.max_wait.as_millis() as i64 {
            let why = format!(
                "{url}: HTTP {status} asks to wait {}s ({said}), over the cap of {}s this run waits; host skipped until {} (P10)",
                wait / 1000,
                self.client.limits.max_wait.as_secs(),
                utc(until)
            );
            self.hosts.entry(host).or_default().skipped = Some((Some(until), why.clone()));
            return (Step::Done(skipped(Some(until), why)), RequestOutcome::BackoffOverCap);
        }
        // The whole host pauses, not only this URL.
        let st = self.hosts.entry(host).or_default();
        st.next_ms = st.next_ms.max(now + wait);
        t.not_before_ms = now + wait;
        (Step::Again, RequestOutcome::Backoff { wait_ms: wait })
    }
}
