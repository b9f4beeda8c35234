//! The schema, as a list of migrations applied in order by `user_version`.
//! Never edit a migration that has shipped; add the next one.

pub const MIGRATIONS: &[&str] = &[
    // 1: the foundation.
    r#"
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        source_event_id TEXT NOT NULL,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        url TEXT,
        lang TEXT NOT NULL,
        time_zone TEXT NOT NULL,
        start TEXT,
        end TEXT,
        all_day INTEGER NOT NULL,
        first_start TEXT,
        last_end TEXT,
        occurrences TEXT NOT NULL,
        weekdays TEXT NOT NULL,
        excluded TEXT NOT NULL,
        free INTEGER,
        price TEXT,
        audience TEXT,
        venue_name TEXT,
        address TEXT,
        postal_code TEXT,
        locality TEXT,
        province TEXT,
        district TEXT,
        lat REAL,
        lon REAL,
        categories TEXT NOT NULL,
        source_categories TEXT NOT NULL,
        licence TEXT NOT NULL,
        licence_url TEXT NOT NULL,
        attribution TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active',
        first_seen INTEGER NOT NULL,
        last_changed INTEGER NOT NULL,
        withdrawn_at INTEGER,
        UNIQUE (source, source_event_id)
    );
    CREATE INDEX events_status ON events (status, source);

    CREATE TABLE translations (
        event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        lang TEXT NOT NULL,
        field TEXT NOT NULL,
        text TEXT NOT NULL,
        origin TEXT NOT NULL,
        engine TEXT,
        source_hash TEXT NOT NULL,
        PRIMARY KEY (event_id, lang, field)
    );

    CREATE TABLE translation_cache (
        key TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        engine TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );

    CREATE TABLE source_state (
        source TEXT PRIMARY KEY,
        last_status TEXT,
        last_message TEXT,
        last_run_at INTEGER,
        last_success_at INTEGER
    );

    CREATE TABLE validators (
        url TEXT PRIMARY KEY,
        etag TEXT,
        last_modified TEXT,
        body_sha256 TEXT,
        updated_at INTEGER NOT NULL
    );

    CREATE TABLE hosts (
        host TEXT PRIMARY KEY,
        last_request_ms INTEGER NOT NULL
    );

    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        exit_code INTEGER
    );

    CREATE TABLE run_sources (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        source TEXT NOT NULL,
        status TEXT NOT NULL,
        requests INTEGER NOT NULL,
        not_modified INTEGER NOT NULL,
        added INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        withdrawn INTEGER NOT NULL,
        record_errors INTEGER NOT NULL,
        translated INTEGER NOT NULL DEFAULT 0,
        duration_ms INTEGER NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (run_id, source)
    );

    CREATE TABLE fetch_log (
        id INTEGER PRIMARY KEY,
        run_id INTEGER,
        source TEXT NOT NULL,
        host TEXT NOT NULL,
        url TEXT NOT NULL,
        started_ms INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        status INTEGER,
        bytes INTEGER NOT NULL,
        conditional INTEGER NOT NULL,
        outcome TEXT NOT NULL
    );
    CREATE INDEX fetch_log_host ON fetch_log (host, started_ms);

    CREATE TABLE takedowns (
        id INTEGER PRIMARY KEY,
        source TEXT,
        source_event_id TEXT,
        url TEXT,
        reason TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    "#,
    // 2: licence and attribution by reference (P19): an event keeps its
    // source's id, and readers cite the source as its manifest and sources.toml
    // row say now, not as a copy made at ingest.
    r#"
    ALTER TABLE events DROP COLUMN licence;
    ALTER TABLE events DROP COLUMN licence_url;
    ALTER TABLE events DROP COLUMN attribution;
    "#,
    // 3: translations remember the cache key they were made under (a changed
    // term base or house style re-translates only what it touches); texts an
    // engine failed on wait behind the others.
    r#"
    ALTER TABLE translations ADD COLUMN cache_key TEXT;
    CREATE TABLE translation_failures (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        last_error TEXT NOT NULL,
        next_try_ms INTEGER NOT NULL
    );
    "#,
    // 4: operator corrections: the corrected value is written into the event's
    // row; the feed's value at correction time is kept here, so the correction
    // lapses when the feed changes the field.
    r#"
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        field TEXT NOT NULL,
        value TEXT,
        feed_value TEXT,
        reason TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        ended_at INTEGER,
        ended_why TEXT
    );
    CREATE UNIQUE INDEX corrections_active ON corrections (event_id, field) WHERE ended_at IS NULL;
    "#,
    // 5: each host's politeness state lives in the machine-wide host ledger
    // (http::ledger), shared by every database: the per-database copy goes.
    r#"
    DROP TABLE hosts;
    "#,
    // 6: a run's per-source line holds all of the run's report, so `runs` and
    // `run --json` say the same thing.
    r#"
    ALTER TABLE run_sources ADD COLUMN translation_cache_hits INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE run_sources ADD COLUMN translation_pending INTEGER NOT NULL DEFAULT 0;
    "#,
    // 7: the translation memory: human translations of exact original texts,
    // which win over any engine.
    r#"
    CREATE TABLE translation_memory (
        lang TEXT NOT NULL,
        field TEXT NOT NULL,
        source_hash TEXT NOT NULL,
        original TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (lang, field, source_hash)
    );
    "#,
    // 8: the translation memory is keyed by the original's language too: the
    // same bytes in Catalan and in Spanish are two texts ("Nadal" is Christmas
    // in Catalan, a surname in Spanish), and a correction of one must not reach
    // the other. A row stored before takes the language of the events carrying
    // its original, Spanish first, and Spanish when none does (imports only
    // ever took Spanish originals).
    r#"
    CREATE TABLE translation_memory_8 (
        source_lang TEXT NOT NULL,
        lang TEXT NOT NULL,
        field TEXT NOT NULL,
        source_hash TEXT NOT NULL,
        original TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (source_lang, lang, field, source_hash)
    );
    INSERT INTO translation_memory_8 (source_lang, lang, field, source_hash, original, text, created_at)
        SELECT COALESCE((SELECT e.lang FROM events e
                         WHERE e.lang <> m.lang AND (CASE m.field WHEN 'title' THEN e.title ELSE e.description END) = m.original
                         ORDER BY e.lang = 'es' DESC, e.lang LIMIT 1), 'es'),
               m.lang, m.field, m.source_hash, m.original, m.text, m.created_at
        FROM translation_memory m;
    DROP TABLE translation_memory;
    ALTER TABLE translation_memory_8 RENAME TO translation_memory;
    "#,
    // 9: a body is told from the last one taken in by its XXH3-128, no longer
    // its SHA-256. A SHA-256 stored before matches no new digest: each feed is
    // taken in once more, and changes nothing.
    r#"
    ALTER TABLE validators RENAME COLUMN body_sha256 TO body_digest;
    "#,
    // 10: the indexes `report` draws its aggregates from, so its cost follows
    // the days and hosts it shows, not the events stored: active events per day
    // (first stored, withdrawn), events per source and status, a URL's last
    // full answer, the runs of a period.
    r#"
    CREATE INDEX events_seen ON events (source, first_seen, withdrawn_at);
    CREATE INDEX events_withdrawn ON events (source, withdrawn_at, first_seen) WHERE withdrawn_at IS NOT NULL;
    CREATE INDEX events_source_status ON events (source, status);
    CREATE INDEX fetch_log_url ON fetch_log (url, started_ms);
    CREATE INDEX runs_started ON runs (started_at);
    "#,
    // 11: a machine translation that came back garbled says how it was put
    // right, `mended` (house style) or `retranslated`, for `translate status`;
    // NULL for every other.
    r#"
    ALTER TABLE translation_cache ADD COLUMN repair TEXT;
    "#,
    // 12: a page of a paged feed keeps how many records it held when taken
    // in, so that a 304 on it (P12) still says whether another page follows.
    // NULL for a whole feed, and for a page stored before: asked in full once.
    r#"
    ALTER TABLE validators ADD COLUMN records INTEGER;
    "#,
    // 13: what an engine answered, keyed by exactly what it was asked (the
    // prepared text, the languages, the field's route, the engine and its
    // version): house style is put on it locally, so a release whose
    // finishing changes rewrites texts without asking the engine again.
    // The rows before stay as they were, readable.
    r#"
    CREATE TABLE engine_answers (
        key TEXT PRIMARY KEY,
        answer TEXT NOT NULL,
        engine TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    "#,
];
