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
