//! A host held until the operator releases it (P10, P11): the longest
//! wait kept exactly, the mark of a hold, and what every command says of
//! one. Not for how a hold is recorded or lifted (the ledger's
//! `set_not_before` and `release`).

use std::time::Duration;

/// The longest wait a host's word is kept to exactly (P10): a year. A host
/// asking for longer is held until the operator releases it ([`HELD`]).
pub const MAX_NOT_BEFORE: Duration = Duration::from_secs(365 * 24 * 3600);

/// The not-before time of a host held until the operator releases it (a
/// Retry-After beyond [`MAX_NOT_BEFORE`], P10; `cityvibe source release`).
pub const HELD: i64 = i64::MAX;

/// Whether a hold's recorded reason is the host's "no" (401, 403, 451),
/// remembered until the operator releases it (P11),
/// rather than a Retry-After of over a year (P10).
pub fn held_for_a_no(why: &str) -> bool {
    ["HTTP 401 ", "HTTP 403 ", "HTTP 451 "].iter().any(|s| why.starts_with(s))
}

/// What every command says of a host [`HELD`] (the run's refusal, the
/// gate's answer to `run --dry-run`, `source show`, `doctor`): why, and the
/// command that lifts the hold. `source` is the source asking.
pub fn held_message(host: &str, source: &str, why: &str) -> String {
    if held_for_a_no(why) {
        format!(
            "{host} is held: it answered {why}, a no (P11); no request to it, `run --force` included, until the \
             operator lifts the hold with `cityvibe source release {source}`"
        )
    } else {
        format!(
            "{host} is held: it asked us to stay away for more than a year ({why}); no request until the operator \
             lifts the hold with `cityvibe source release {host}` (P10)"
        )
    }
}
