//! Where a source's requests may go (P2, P3, P13, P16): a source's
//! allow-list, checked before the first request, and each redirect's
//! target checked before any request is sent to it (credentials, https
//! kept, the allow-list, loops, the hop limit). Not for what a redirect's
//! answer means for the fetch (`on_response` in `scheduler.rs`).

use super::task::{Scheduler, Task};
use url::Url;

/// Why a redirect is not followed.
pub(super) enum Hop {
    Refused(String),
    Failed(String),
}

impl Scheduler<'_> {
    /// Check a redirect's target before any request is sent to it (P13).
    pub(super) fn next_hop(&self, t: &mut Task, location: &str) -> Result<Url, Hop> {
        let from = &t.current;
        let next = from.join(location).map_err(|e| Hop::Failed(format!("{from}: unreadable Location {location:?}: {e}")))?;
        if !next.username().is_empty() || next.password().is_some() {
            return Err(Hop::Refused(format!("{from}: redirect to a URL carrying credentials refused; no request sent (P2)")));
        }
        if from.scheme() == "https" && next.scheme() != "https" {
            return Err(Hop::Refused(format!("{from}: redirect to {next} would leave https; refused (P13)")));
        }
        if let Err(why) = t.req.allowed.check(&next) {
            return Err(Hop::Refused(format!("{from}: redirect refused: {why}")));
        }
        t.visited.push(from.to_string());
        if t.visited.iter().any(|v| v == next.as_str()) {
            return Err(Hop::Failed(format!("{from}: redirect loop back to {next}")));
        }
        t.hops += 1;
        if t.hops > self.client.limits.max_redirects {
            return Err(Hop::Failed(format!("{}: more than {} redirects", t.req.url, self.client.limits.max_redirects)));
        }
        Ok(next)
    }
}
