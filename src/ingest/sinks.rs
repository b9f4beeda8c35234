//! Where one feed's records go during a run: `StoreSink` adds the
//! publisher's own translations to each event and upserts it in the
//! source's transaction, counting record errors and warnings;
//! `TranslationSink` gathers a translation feed's texts by event id, and
//! counts its record errors and warnings the same way ([`Tally`]). Not for
//! fetching or deciding what a run keeps (`ingest`), nor for the SQL
//! (`store::ingest`), nor for the PII scrub (`records::parse_feed` did it).

use crate::adapter::{EventSink, RecordError};
use crate::model::{Event, PublisherTranslation};
use crate::store::ingest::SourceIngest;
use std::collections::HashMap;

/// Attaches the publisher's translations to each event (both already
/// scrubbed by the record framework, P5) and stores it.
pub(super) struct StoreSink<'s, 't> {
    pub(super) ingest: SourceIngest<'s>,
    pub(super) translations: &'t HashMap<String, Vec<PublisherTranslation>>,
    pub(super) parsed: u64,
    pub(super) tally: Tally,
    pub(super) failure: Option<anyhow::Error>,
}

/// A feed's record errors and warnings: how many, and the first few.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) errors: Vec<RecordError>,
    pub(super) error_count: u64,
    /// Records kept but read leniently or cut.
    pub(super) warnings: Vec<RecordError>,
    pub(super) warning_count: u64,
}

impl Tally {
    fn error(&mut self, error: RecordError) {
        self.error_count += 1;
        if self.errors.len() < 5 {
            self.errors.push(error);
        }
    }

    fn warning(&mut self, warning: RecordError) {
        self.warning_count += 1;
        if self.warnings.len() < 5 {
            self.warnings.push(warning);
        }
    }

    /// What the source's report says of them, each line led by `lead`.
    pub(super) fn notes(&self, lead: &str) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(first) = self.errors.first() {
            notes.push(format!("{lead}{} bad records (first: {}: {})", self.error_count, first.record, first.reason));
        }
        if let Some(first) = self.warnings.first() {
            notes.push(format!("{lead}{} record warnings (first: {}: {})", self.warning_count, first.record, first.reason));
        }
        notes
    }
}

impl EventSink for StoreSink<'_, '_> {
    fn push(&mut self, record: Result<Event, RecordError>) {
        match record {
            Ok(event) => self.store(event),
            Err(error) => self.record_error(error),
        }
    }
    fn warning(&mut self, warning: RecordError) {
        self.tally.warning(warning);
    }
    fn merged_repeat(&mut self) {
        self.ingest.count_merged_repeat();
    }
}

impl StoreSink<'_, '_> {
    fn store(&mut self, mut event: Event) {
        if self.failure.is_some() {
            return;
        }
        // Event and translations alike come out of `records::parse_feed`,
        // which scrubbed them (P5): scrubbing them here again would change
        // nothing and cost a third of the ingest's CPU time.
        if let Some(ts) = self.translations.get(&event.source_event_id) {
            event.translations.extend(ts.iter().cloned());
        }
        self.parsed += 1;
        if let Err(e) = self.ingest.upsert(&event) {
            self.failure = Some(e);
        }
    }
    fn record_error(&mut self, error: RecordError) {
        if let Some(id) = &error.id {
            // Still in the feed, only unreadable: not withdrawn.
            self.ingest.keep(id);
        }
        self.tally.error(error);
    }
}

/// Collects a translation feed's texts by source event id.
pub(super) struct TranslationSink<'m> {
    pub(super) lang: &'static str,
    pub(super) map: &'m mut HashMap<String, Vec<PublisherTranslation>>,
    /// Counted and reported with the source: none dropped quietly.
    pub(super) tally: Tally,
}

impl EventSink for TranslationSink<'_> {
    fn push(&mut self, record: Result<Event, RecordError>) {
        match record {
            Ok(event) => self.map.entry(event.source_event_id).or_default().push(PublisherTranslation {
                lang: self.lang.to_string(),
                title: event.title,
                description: event.description,
            }),
            Err(error) => self.tally.error(error),
        }
    }
    fn warning(&mut self, warning: RecordError) {
        self.tally.warning(warning);
    }
}
