//! The limits behind the promises that the operator may tune in
//! sources.toml, with their defaults and ceilings: how much one feed may
//! withdraw at once (P20), how long a text an engine is sent and how much
//! memory translation's engines may hold together. A leaf,
//! so that the config can validate a row against them and the store and
//! the translation pipeline can apply them, without either reaching into
//! the other.
//!
//! Not for applying them (`store::ingest`, `translate::plan`) nor for
//! reading them from the file (`config`).

/// How much of a source one healthy-looking feed may take away at once (P20):
/// more than `max_share` of its active events withdrawn in one ingest is an
/// anomaly, since a feed cut short or whose ids all collapsed into one looks
/// exactly like that.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WithdrawGuard {
    /// A share of the active events, above 0 and at most [`WithdrawGuard::CEILING`].
    pub max_share: f64,
}

impl WithdrawGuard {
    /// The share allowed when the source's row in sources.toml says nothing.
    pub const DEFAULT_SHARE: f64 = 0.25;
    /// No row may allow more: beyond half, the guard would not tell a feed
    /// cut in two from a real one.
    pub const CEILING: f64 = 0.5;
    /// So many events may always go, whatever the share: one event of a
    /// source of three ending is no sign of a broken feed.
    pub const ALWAYS_ALLOWED: u64 = 1;

    /// Whether withdrawing `n` of `active` events at once looks like a broken feed.
    pub fn refuses(&self, n: u64, active: u64) -> bool {
        n > Self::ALWAYS_ALLOWED && n as f64 > self.max_share * active as f64
    }
}

impl Default for WithdrawGuard {
    fn default() -> Self {
        WithdrawGuard { max_share: Self::DEFAULT_SHARE }
    }
}

/// The longest text, in characters, sent to a translation engine when
/// `[settings] translate_max_chars` says nothing: descriptions in the real
/// feeds stay under 10,000 characters.
pub const DEFAULT_MAX_CHARS: usize = 20_000;

/// What translation's engines may hold together by default, in MB of
/// summed PSS as `data/translate/footprint.tsv` weighs them: the heaviest
/// target (Spanish descriptions into French, through Catalan, with its
/// mending and second opinion: 1,280 MB) runs alone, and the run as a whole
/// (the `cityvibe` process's 70–100 MB beside) stays under 1.5 GB: a
/// server of 2 GB has room for it.
pub const DEFAULT_MAX_MEMORY_MB: u64 = 1300;

/// The processes translation's engines may hold together by default: the
/// heaviest target (Spanish descriptions into French, through Catalan,
/// with its mending and second opinions: 65 processes with Apertium's 2025
/// pairs) fits twice, so a wave's share never closes an engine its target
/// still needs.
pub const DEFAULT_MAX_PROCESSES: usize = 140;
