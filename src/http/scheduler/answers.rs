//! The scheduler's reading of an answer (P11, P12, P13, P15): a 304
//! refreshes the stored validators, a 2xx body is handed on unless it is
//! the one stored last time or carries a rights reservation, a redirect
//! goes to its checked next hop, a "no" holds the host in the ledger.
//! Not for 429 and 503 (`backoff.rs`) or for sending (`scheduler.rs`).

use super::fetch::FetchOutcome;
use super::redirects::Hop;
use super::task::{Scheduler, Step, Task};
use crate::http::client::Exchange;
use crate::http::fetchlog::{FetchLog, Validators};
use crate::http::headers::reservation;
use crate::http::ledger::{HELD, held_message};
use crate::http::validators::keep_validators;
use crate::times::utc;
use crate::vocab::RequestOutcome;

impl Scheduler<'_> {
    /// What follows the answer `ex` to the task's current request.
    pub(super) fn on_response(
        &mut self,
        log: &dyn FetchLog,
        t: &mut Task,
        ex: Exchange,
        delay_ms: i64,
        old: &Validators,
    ) -> (Step, RequestOutcome) {
        let status = ex.status;
        let url = t.current.clone();
        match status {
            304 => {
                t.not_modified += 1;
                // A 304 refreshes the stored validators (P12).
                let v = Validators {
                    etag: ex.etag.or_else(|| old.etag.clone()),
                    last_modified: ex.last_modified.or_else(|| old.last_modified.clone()),
                    body_digest: None,
                    records: None,
                };
                // A 304 run writes nothing else: validators only when they changed.
                if (&v.etag, &v.last_modified) != (&old.etag, &old.last_modified) {
                    keep_validators(log, t.req.url.as_str(), &v, &mut *self.reporter);
                }
                (Step::Done(FetchOutcome::NotModified), RequestOutcome::NotModified)
            }
            200..=299 => self.on_body(log, t, ex, old),
            301 | 302 | 303 | 307 | 308 => {
                let Some(loc) = ex.location else {
                    return (
                        Step::Done(FetchOutcome::Failed(format!("{url}: redirect {status} without Location"))),
                        RequestOutcome::RedirectWithoutLocation,
                    );
                };
                match self.next_hop(t, &loc) {
                    Ok(next) => {
                        t.current = next;
                        (Step::Again, RequestOutcome::Redirect(status))
                    }
                    Err(Hop::Refused(why)) => (Step::Done(FetchOutcome::Refused(why)), RequestOutcome::RedirectRefused),
                    Err(Hop::Failed(why)) => (Step::Done(FetchOutcome::Failed(why)), RequestOutcome::RedirectFailed),
                }
            }
            429 | 503 => self.backoff(t, &ex, delay_ms),
            401 | 403 | 451 => self.said_no(t, status),
            _ => (Step::Done(FetchOutcome::Failed(format!("{url}: HTTP {status}"))), RequestOutcome::Http(status)),
        }
    }

    /// A 2xx answer: refused when it carries a rights reservation (P15),
    /// nothing to parse when its body is the one stored last time, else
    /// the body handed on.
    fn on_body(&mut self, log: &dyn FetchLog, t: &mut Task, ex: Exchange, old: &Validators) -> (Step, RequestOutcome) {
        let host = self.client.books(t.current.host_str().unwrap_or(""));
        let url = t.current.clone();
        if let Some(why) = reservation(&ex.tdm_reservation, &ex.x_robots_tag) {
            self.hosts.entry(host).or_default().blocked = Some(why.clone());
            return (
                Step::Done(FetchOutcome::Refused(format!("{url}: {why} (P15); nothing of it was kept"))),
                RequestOutcome::RefusedReservation,
            );
        }
        let Some(body) = ex.body else {
            return (Step::Done(FetchOutcome::Failed(format!("{url}: empty response"))), RequestOutcome::NoBody);
        };
        let v = Validators {
            etag: ex.etag.clone(),
            last_modified: ex.last_modified.clone(),
            body_digest: Some(body.digest.clone()),
            records: old.records,
        };
        if old.body_digest.as_deref() == Some(body.digest.as_str()) {
            if v != *old {
                keep_validators(log, t.req.url.as_str(), &v, &mut *self.reporter);
            }
            return (Step::Done(FetchOutcome::Unchanged), RequestOutcome::Unchanged);
        }
        // Validators are stored by the driver once the body was taken in,
        // so a body that fails to parse is fetched again next run.
        let outcome =
            FetchOutcome::Body { body: Box::new(body), final_url: url, content_type: ex.content_type.clone(), validators: Box::new(v) };
        (Step::Done(outcome), RequestOutcome::Ok)
    }

    /// A 401, 403 or 451: the host said no (P11).
    fn said_no(&mut self, t: &Task, status: u16) -> (Step, RequestOutcome) {
        let host = self.client.books(t.current.host_str().unwrap_or(""));
        let url = t.current.clone();
        // A no is remembered in the host ledger, for every later run
        // and process, `run --force` included, until the operator
        // lifts it (P11): else cron would ask again every 3 h.
        let now = self.clock.now_ms();
        let said = format!("HTTP {status} to {url} at {}", utc(now));
        let held = match self.ledger.set_not_before(&host, HELD, now, &said) {
            Ok(_) => held_message(&host, &t.req.source, &said),
            Err(e) => format!("{host} could not be held in the host ledger ({e:#}): the next run may ask again"),
        };
        let why = format!("{url}: HTTP {status}: the host said no (P11); {held}");
        self.hosts.entry(host).or_default().blocked = Some(format!("HTTP {status}"));
        (Step::Done(FetchOutcome::Refused(why)), RequestOutcome::Refused)
    }
}
