//! The take-in step of one source: parse the bodies fetched in this run
//! (the publisher's own translations first), store the events in one
//! transaction, and remember the bodies taken in (P12). What it cannot
//! take in it says in a typed [`TakeInError`]; nothing is half stored.
//!
//! Not for deciding what to ask or when (`plan`, `driver`), nor for the
//! SQL (`store::ingest`).

use super::fetched::Fetched;
use super::sinks::{StoreSink, Tally, TranslationSink};
use crate::adapter::{Adapter, Feed, FeedError, FeedRole, Paging};
use crate::http::FetchReporter;
use crate::model::PublisherTranslation;
use crate::store::Store;
use crate::store::ingest::{Verdict, WithdrawGuard};
use std::collections::HashMap;

/// How one source's bodies are taken in.
pub(super) struct TakeIn {
    pub(super) adapter: &'static dyn Adapter,
    /// How much of the stored events one run may withdraw (P20).
    pub(super) withdraw_guard: WithdrawGuard,
}

/// What taking the bodies in came to.
pub(super) struct TakenIn {
    pub(super) verdict: Verdict,
    /// Record errors of the primary and translation feeds together.
    pub(super) record_errors: u64,
    /// What the source's report says of record errors and warnings.
    pub(super) notes: Vec<String>,
}

/// Why a source's bodies were not taken in: nothing of them is stored.
#[derive(Debug)]
pub(super) enum TakeInError {
    /// A feed (`url`) cannot be read.
    Feed { url: String, why: FeedError },
    /// No primary feed was among the bodies: nothing to take in.
    NoPrimary,
    /// The database refused.
    Database(anyhow::Error),
}

impl std::fmt::Display for TakeInError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TakeInError::Feed { url, why } => write!(f, "{url}: {why}"),
            TakeInError::NoPrimary => f.write_str("no primary feed was fetched"),
            TakeInError::Database(e) => write!(f, "database: {e:#}"),
        }
    }
}

impl std::error::Error for TakeInError {}

impl TakeIn {
    /// Parse and store what was fetched, in the manifest's order.
    pub(super) fn take_in(
        &self,
        store: &mut Store,
        mut bodies: Vec<Fetched>,
        reporter: &mut dyn FetchReporter,
    ) -> Result<TakenIn, TakeInError> {
        let m = self.adapter.manifest();
        // The publisher's own translations first, keyed by source event id.
        let mut translations: HashMap<String, Vec<PublisherTranslation>> = HashMap::new();
        let (mut translation_errors, mut translation_notes) = (0, Vec::new());
        for fetched in bodies.iter_mut().filter(|f| m.feeds[f.feed].role == FeedRole::Translation) {
            let feed = &m.feeds[fetched.feed];
            let mut sink = TranslationSink { lang: feed.lang, map: &mut translations, tally: Tally::default() };
            fetched.feed_into(self.adapter, feed, &mut sink).map_err(|why| TakeInError::Feed { url: fetched.url.clone(), why })?;
            // Counted with the source's record errors and said in its report,
            // never dropped.
            translation_errors += sink.tally.error_count;
            translation_notes.extend(sink.tally.notes(&format!("{}: ", feed.url)));
        }
        let primary = bodies.iter().find(|f| m.feeds[f.feed].role == FeedRole::Primary).map(|f| f.feed).ok_or(TakeInError::NoPrimary)?;
        let feed: &Feed = &m.feeds[primary];
        let (parsed, tally, verdict) = {
            let mut ingest = store.begin_ingest(m).map_err(TakeInError::Database)?;
            ingest.set_withdraw_guard(self.withdraw_guard);
            let candidates = self.adapter.original_languages();
            let decider = (!candidates.is_empty()).then(|| crate::translate::prepare::original::Decider::new(candidates, feed.lang));
            let mut sink = StoreSink { ingest, translations: &translations, parsed: 0, tally: Tally::default(), failure: None, decider };
            // A paged feed's pages, in the order they were asked: one feed
            // in one transaction, a later row of an id winning.
            let mut parsed = Ok(());
            for fetched in bodies.iter_mut().filter(|f| f.feed == primary) {
                if let Err(FeedError(why)) = fetched.feed_into(self.adapter, feed, &mut sink) {
                    parsed = Err(FeedError(if feed.paging == Paging::Whole { why } else { format!("{}: {why}", fetched.url) }));
                    break;
                }
            }
            let StoreSink { ingest, parsed: n, tally, failure, translations: _, decider: _ } = sink;
            let verdict = match (failure, &parsed) {
                (Some(e), _) => {
                    let _ = ingest.rollback();
                    return Err(TakeInError::Database(e));
                }
                (None, Err(_)) => {
                    let _ = ingest.rollback();
                    None
                }
                (None, Ok(())) => Some(ingest.finish(n, tally.error_count).map_err(TakeInError::Database)?),
            };
            (parsed, tally, verdict)
        };
        if let Err(why) = parsed {
            return Err(TakeInError::Feed { url: feed.url.to_string(), why });
        }
        let mut notes = tally.notes("");
        notes.extend(translation_notes);
        let verdict = verdict.expect("a parsed feed has a verdict");
        if let Verdict::Committed(_) = verdict {
            // Only a body taken in is remembered, so a failed one is fetched again.
            for f in &bodies {
                f.remember(store, reporter);
            }
        }
        Ok(TakenIn { verdict, record_errors: tally.error_count + translation_errors, notes })
    }
}
