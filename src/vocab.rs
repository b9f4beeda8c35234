//! Typed vocabularies shared by the run, the store and the commands: a source's
//! status in a run, what came of one request (the fetch log's `outcome`), where
//! a stored event stands ([`EventStatus`]), the translator (and its fallback)
//! the operator chose, which text of an event a translation is of ([`Field`])
//! and who made it ([`TextOrigin`]), whose word a source's delay is
//! ([`DelayRule`]), and how one stored event is named ([`EventRef`],
//! `SOURCE:ID`). Each word has one spelling, kept here: the same text is stored
//! in SQLite, written in JSON and read back from sources.toml. The fixed words
//! are spelled both ways by `strum`'s derives (from the variant name, lower
//! case), serde's by `rename_all`, and a test reads every stored spelling back.
//! Not for audit verdicts (audit/).

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};
use strum::{Display, EnumIter, EnumString, IntoStaticStr};

/// What became of one source in one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, EnumString, IntoStaticStr, Display, EnumIter)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum SourceStatus {
    /// Fetched, parsed and stored.
    Ok,
    /// 304, or the same body as last time: nothing to store.
    Unchanged,
    /// The fetch or the parse failed; stored events kept.
    Failed,
    /// The host said no (401/403/451, a rights reservation), or the adapter is
    /// not reviewed (P3): nothing requested or kept.
    Refused,
    /// The feed looked broken (P20): nothing stored from it.
    Anomaly,
    /// Not attempted this run (outside its hours, daily cap, Retry-After).
    Skipped,
    /// Switched off by the operator.
    Disabled,
}

impl SourceStatus {
    pub const ALL: [SourceStatus; 7] = [
        SourceStatus::Ok,
        SourceStatus::Unchanged,
        SourceStatus::Failed,
        SourceStatus::Refused,
        SourceStatus::Anomaly,
        SourceStatus::Skipped,
        SourceStatus::Disabled,
    ];

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// A problem the operator must see: exit 1 and one stderr line.
    pub fn is_problem(self) -> bool {
        matches!(self, SourceStatus::Failed | SourceStatus::Refused | SourceStatus::Anomaly)
    }

    /// The source's data is current after this run.
    pub fn is_success(self) -> bool {
        matches!(self, SourceStatus::Ok | SourceStatus::Unchanged)
    }

    /// The host was not reached because of us (switched off, outside hours…).
    pub fn is_not_attempted(self) -> bool {
        matches!(self, SourceStatus::Skipped | SourceStatus::Disabled)
    }
}

/// `report.status == "ok"` reads as the stored word does.
impl PartialEq<&str> for SourceStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl ToSql for SourceStatus {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for SourceStatus {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let word = value.as_str()?;
        word.parse().map_err(|_| FromSqlError::Other(format!("unknown source status {word:?}").into()))
    }
}

/// Where a stored event stands: the `events.status` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, EnumString, IntoStaticStr, Display, EnumIter)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum EventStatus {
    /// In its feed: listed, exported and translated.
    Active,
    /// Gone from its feed (P20): kept, shown nowhere.
    Withdrawn,
    /// Kept out of every list by the operator (`source disable --withdraw`,
    /// P16): not `withdrawn`, so `source enable` knows which to bring back.
    Withheld,
}

impl EventStatus {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl ToSql for EventStatus {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for EventStatus {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let word = value.as_str()?;
        word.parse().map_err(|_| FromSqlError::Other(format!("unknown event status {word:?}").into()))
    }
}

/// What came of one request, as its fetch-log row keeps it (P17): the
/// `outcome` column. Stored as text through `Display` and read back by
/// `FromStr`; the spellings are those the fetch log has always held, so
/// rows written before this type read back unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestOutcome {
    /// A new body, handed on to be parsed: `ok`.
    Ok,
    /// 304 (P12): `not_modified`.
    NotModified,
    /// A 2xx whose body is the one stored last time: `unchanged`.
    Unchanged,
    /// A 2xx with no body: `error: no body`.
    NoBody,
    /// A redirect hop checked and taken (P13): `redirect 301`.
    Redirect(u16),
    /// A redirect to a host or path the adapter does not allow (P13): `redirect refused`.
    RedirectRefused,
    /// A redirect that loops, goes past the maximum or cannot be read: `redirect failed`.
    RedirectFailed,
    /// A redirect without `Location`: `error: redirect`.
    RedirectWithoutLocation,
    /// 429/503, the host paused before the next try (P10): `backoff 2000 ms`.
    Backoff { wait_ms: i64 },
    /// 429/503 too many times in a row (P10, P11): `backoff: gave up after 4 tries`.
    BackoffGaveUp { tries: u32 },
    /// 429/503 asking a wait longer than a run waits: `backoff: wait over cap`.
    BackoffOverCap,
    /// The host ledger could not record the wait (fail closed): `backoff: ledger failed`.
    BackoffLedgerFailed,
    /// 401, 403 or 451: the host said no (P11): `refused`.
    Refused,
    /// A rights reservation on the response (P15): `refused: reservation`.
    RefusedReservation,
    /// Any other HTTP status: `http 404`.
    Http(u16),
    /// No HTTP answer (connection, timeout, size cap), with why: `error: …`.
    Error(String),
}

impl RequestOutcome {
    /// The words with no value in them.
    const FIXED: [RequestOutcome; 11] = [
        RequestOutcome::Ok,
        RequestOutcome::NotModified,
        RequestOutcome::Unchanged,
        RequestOutcome::NoBody,
        RequestOutcome::RedirectRefused,
        RequestOutcome::RedirectFailed,
        RequestOutcome::RedirectWithoutLocation,
        RequestOutcome::BackoffOverCap,
        RequestOutcome::BackoffLedgerFailed,
        RequestOutcome::Refused,
        RequestOutcome::RefusedReservation,
    ];

    /// The one spelling of a word with no value in it.
    fn fixed(&self) -> Option<&'static str> {
        Some(match self {
            RequestOutcome::Ok => "ok",
            RequestOutcome::NotModified => "not_modified",
            RequestOutcome::Unchanged => "unchanged",
            RequestOutcome::NoBody => "error: no body",
            RequestOutcome::RedirectRefused => "redirect refused",
            RequestOutcome::RedirectFailed => "redirect failed",
            RequestOutcome::RedirectWithoutLocation => "error: redirect",
            RequestOutcome::BackoffOverCap => "backoff: wait over cap",
            RequestOutcome::BackoffLedgerFailed => "backoff: ledger failed",
            RequestOutcome::Refused => "refused",
            RequestOutcome::RefusedReservation => "refused: reservation",
            RequestOutcome::Redirect(_)
            | RequestOutcome::Backoff { .. }
            | RequestOutcome::BackoffGaveUp { .. }
            | RequestOutcome::Http(_)
            | RequestOutcome::Error(_) => return None,
        })
    }
}

impl std::fmt::Display for RequestOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(word) = self.fixed() {
            return f.write_str(word);
        }
        match self {
            RequestOutcome::Redirect(status) => write!(f, "redirect {status}"),
            RequestOutcome::Backoff { wait_ms } => write!(f, "backoff {wait_ms} ms"),
            RequestOutcome::BackoffGaveUp { tries } => write!(f, "backoff: gave up after {tries} tries"),
            RequestOutcome::Http(status) => write!(f, "http {status}"),
            RequestOutcome::Error(why) => write!(f, "error: {why}"),
            _ => Ok(()),
        }
    }
}

impl std::str::FromStr for RequestOutcome {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // Fixed words first: "error: no body" is not an `Error` with that text.
        if let Some(word) = RequestOutcome::FIXED.into_iter().find(|o| o.fixed() == Some(s)) {
            return Ok(word);
        }
        let status = s.strip_prefix("redirect ").or_else(|| s.strip_prefix("http ")).and_then(|n| n.parse::<u16>().ok());
        let parsed = if let Some(status) = status {
            Some(if s.starts_with("redirect ") { RequestOutcome::Redirect(status) } else { RequestOutcome::Http(status) })
        } else if let Some(wait_ms) = s.strip_prefix("backoff ").and_then(|r| r.strip_suffix(" ms")).and_then(|n| n.parse().ok()) {
            Some(RequestOutcome::Backoff { wait_ms })
        } else if let Some(tries) =
            s.strip_prefix("backoff: gave up after ").and_then(|r| r.strip_suffix(" tries")).and_then(|n| n.parse().ok())
        {
            Some(RequestOutcome::BackoffGaveUp { tries })
        } else {
            s.strip_prefix("error: ").map(|why| RequestOutcome::Error(why.to_string()))
        };
        parsed.ok_or_else(|| format!("unknown fetch-log outcome {s:?}"))
    }
}

impl ToSql for RequestOutcome {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.to_string()))
    }
}

impl FromSql for RequestOutcome {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        value.as_str()?.parse().map_err(|e: String| FromSqlError::Other(e.into()))
    }
}

/// The translation engine `[settings] translator` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, IntoStaticStr, Display, EnumIter)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Translator {
    /// The local `apertium` command (the default).
    #[default]
    Apertium,
    /// An Apertium APy server at `apy_url`.
    Apy,
    /// A LibreTranslate server at `libretranslate_url`.
    Libretranslate,
    /// An OpenAI-compatible chat-completions server at `openai_url`.
    Openai,
    /// No machine translation: originals and publishers' own translations only.
    None,
}

impl Translator {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The kind of engine an engine id names, read by the word it starts
    /// with (`apertium/3.8.3`, `apertium/3.8 via es`, `apy@…`,
    /// `libretranslate@…`, `openai:…@…`); `None` for an engine of no kind
    /// the settings name (`unavailable`, a test's own).
    pub fn of_engine(engine_id: &str) -> Option<Translator> {
        use strum::IntoEnumIterator;
        Translator::iter().find(|t| engine_id.starts_with(t.as_str()))
    }
}

/// The engine `[settings] fallback` names: it translates what the
/// configured server failed on. Only the local Apertium: a fallback that is
/// itself a server could fail the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Fallback {
    Apertium,
}

/// Which text of an event a translation is of: the `field` column of
/// `translations` and of the translation memory, an exchange file's context,
/// and (through `translate::finish`) what house style a text gets: titles are
/// title-cased in English. Titles and descriptions are what a human translates
/// ([`Field::TEXTS`]); a price is an engine's only where no set phrase says it.
/// Its name is the `events` column it translates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, EnumString, IntoStaticStr, Display, EnumIter)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Field {
    Title,
    Description,
    Price,
}

impl Field {
    /// The texts a human translates, in the order they are said.
    pub const TEXTS: [Field; 2] = [Field::Title, Field::Description];

    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl ToSql for Field {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for Field {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let word = value.as_str()?;
        word.parse().map_err(|_| FromSqlError::Other(format!("unknown translation field {word:?}").into()))
    }
}

/// Who made a stored translation. The `translations.origin` column holds
/// one word, `publisher`, `human` or `machine` (read and written by
/// `FromSql`/`ToSql`); an engine's name is kept in the `engine` column
/// beside it ([`TextOrigin::made_by`]). As a text says it (`text_origin`,
/// an exchange file's comment) a machine translation is its engine's name
/// (`apertium/3.8 via es`), and `machine` only where the row names none:
/// `Display` and `FromStr` spell those, and read every one back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TextOrigin {
    /// The publisher's own translation, from its feed.
    Publisher,
    /// A human's, from the translation memory (`translate correct|import`).
    Human,
    /// An engine's, by its name when the row keeps one.
    Machine(Option<String>),
}

impl TextOrigin {
    /// The word the `origin` column stores.
    pub fn column_word(&self) -> &'static str {
        match self {
            TextOrigin::Publisher => "publisher",
            TextOrigin::Human => "human",
            TextOrigin::Machine(_) => "machine",
        }
    }

    /// This origin with the `engine` column of its row: a machine
    /// translation is named by its engine; the others name none.
    pub fn made_by(self, engine: Option<String>) -> TextOrigin {
        match self {
            TextOrigin::Machine(None) => TextOrigin::Machine(engine),
            other => other,
        }
    }

    /// An engine's translation: for a human to review (exchange files).
    pub fn is_machine(&self) -> bool {
        matches!(self, TextOrigin::Machine(_))
    }

    /// One of the column's words, and nothing else.
    fn from_column(word: &str) -> Option<TextOrigin> {
        [TextOrigin::Publisher, TextOrigin::Human, TextOrigin::Machine(None)].into_iter().find(|o| o.column_word() == word)
    }
}

impl std::fmt::Display for TextOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextOrigin::Machine(Some(engine)) => f.write_str(engine),
            other => f.write_str(other.column_word()),
        }
    }
}

impl std::str::FromStr for TextOrigin {
    type Err = String;
    /// A column word, or else an engine's name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match TextOrigin::from_column(s) {
            Some(origin) => Ok(origin),
            None if s.trim().is_empty() => Err(format!("{s:?} names no translation origin")),
            None => Ok(TextOrigin::Machine(Some(s.to_string()))),
        }
    }
}

impl ToSql for TextOrigin {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.column_word()))
    }
}

impl FromSql for TextOrigin {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let word = value.as_str()?;
        TextOrigin::from_column(word).ok_or_else(|| FromSqlError::Other(format!("unknown translation origin {word:?}").into()))
    }
}

/// Whose word a source's delay is (`source list`, `source show`): the
/// slowest of the three rules (rule 2: the slowest word wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, IntoStaticStr, Display, EnumIter)]
pub enum DelayRule {
    /// The adapter's own minimum.
    #[serde(rename = "adapter")]
    #[strum(serialize = "adapter")]
    Adapter,
    /// The operator's row, slower than the adapter's minimum.
    #[serde(rename = "sources.toml")]
    #[strum(serialize = "sources.toml")]
    SourcesToml,
    /// robots.txt's Crawl-delay as `audit` last read it, slower than both.
    #[serde(rename = "robots.txt Crawl-delay")]
    #[strum(serialize = "robots.txt Crawl-delay")]
    CrawlDelay,
    /// A mirror on another host read for several sources: paced at the
    /// slowest of their delays (`source show --mirror URL`), slower than the
    /// source's own.
    #[serde(rename = "mirror (slowest source)")]
    #[strum(serialize = "mirror (slowest source)")]
    Mirror,
}

/// One stored event as the operator names it: `SOURCE:ID` (`madrid:50066046`),
/// read in one place for `events show`, `events correct`, `translate
/// correct` and `takedown add`. Spaces around either part are dropped
/// (`madrid: 50066046`); neither part may be empty. Whether SOURCE is a
/// known source is the caller's question (some take a bare id instead).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRef {
    pub source: String,
    pub id: String,
}

impl std::str::FromStr for EventRef {
    type Err = String;
    fn from_str(s: &str) -> Result<EventRef, String> {
        match s.split_once(':').map(|(source, id)| (source.trim(), id.trim())) {
            Some((source, id)) if !source.is_empty() && !id.is_empty() => Ok(EventRef { source: source.into(), id: id.into() }),
            _ => Err(format!("{s:?} names no event as SOURCE:ID")),
        }
    }
}

impl std::fmt::Display for EventRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.source, self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_for_sql_json_and_text() {
        for s in SourceStatus::ALL {
            assert_eq!(s.as_str().parse::<SourceStatus>(), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(serde_json::to_value(Translator::Apy).unwrap(), "apy");
        for o in [
            RequestOutcome::Redirect(301),
            RequestOutcome::Backoff { wait_ms: 2000 },
            RequestOutcome::BackoffGaveUp { tries: 4 },
            RequestOutcome::Refused,
            RequestOutcome::Http(404),
            RequestOutcome::Error("io: Connection refused".into()),
        ]
        .into_iter()
        .chain(RequestOutcome::FIXED)
        {
            assert_eq!(o.to_string().parse::<RequestOutcome>(), Ok(o.clone()), "{o:?}");
        }
    }

    /// Every spelling stored before strum spelled them (runs, run_sources,
    /// sources' state, sources.toml) reads back as its word, and is written as
    /// it was: the derive changed no stored byte.
    #[test]
    fn stored_spellings_written_before_the_derive_read_back() {
        use strum::IntoEnumIterator;
        let statuses = [
            ("ok", SourceStatus::Ok),
            ("unchanged", SourceStatus::Unchanged),
            ("failed", SourceStatus::Failed),
            ("refused", SourceStatus::Refused),
            ("anomaly", SourceStatus::Anomaly),
            ("skipped", SourceStatus::Skipped),
            ("disabled", SourceStatus::Disabled),
        ];
        for (text, word) in statuses {
            assert_eq!(text.parse::<SourceStatus>(), Ok(word), "{text}");
            assert_eq!((word.as_str(), word.to_string()), (text, text.to_string()));
            assert_eq!(serde_json::to_value(word).unwrap(), text);
            assert_eq!(serde_json::from_value::<SourceStatus>(text.into()).unwrap(), word);
            let conn = rusqlite::Connection::open_in_memory().unwrap();
            let back: SourceStatus = conn.query_row("SELECT ?1", [text], |r| r.get(0)).unwrap();
            assert_eq!(back, word);
            let stored: String = conn.query_row("SELECT ?1", [word], |r| r.get(0)).unwrap();
            assert_eq!(stored, text);
        }
        assert_eq!(SourceStatus::iter().count(), statuses.len());
        assert_eq!(SourceStatus::iter().collect::<Vec<_>>(), SourceStatus::ALL);
        for bad in ["", "OK", "Ok", "interrupted?", "withdrawn"] {
            assert!(bad.parse::<SourceStatus>().is_err(), "{bad:?}");
        }
        let translators = [
            ("apertium", Translator::Apertium),
            ("apy", Translator::Apy),
            ("libretranslate", Translator::Libretranslate),
            ("openai", Translator::Openai),
            ("none", Translator::None),
        ];
        for (text, word) in translators {
            assert_eq!((word.as_str(), word.to_string()), (text, text.to_string()));
            let row: std::collections::HashMap<String, Translator> = toml::from_str(&format!("t = {text:?}")).unwrap();
            assert_eq!(row["t"], word);
        }
        assert_eq!(Translator::iter().count(), translators.len());
        assert_eq!(Fallback::Apertium.to_string(), "apertium");
        let engines = [
            ("apertium/3.8.3", Some(Translator::Apertium)),
            ("apertium/3.8 via es", Some(Translator::Apertium)),
            ("apy@http://127.0.0.1:2737", Some(Translator::Apy)),
            ("libretranslate@http://127.0.0.1:5000", Some(Translator::Libretranslate)),
            ("openai:m@http://x", Some(Translator::Openai)),
            ("unavailable", None),
            ("fake/1", None),
        ];
        for (id, kind) in engines {
            assert_eq!(Translator::of_engine(id), kind, "{id}");
        }
    }

    /// Every event status the `events` table has held reads back as its word
    /// and is written as it was, now that rows are typed.
    #[test]
    fn event_statuses_stored_before_the_type_read_back() {
        use strum::IntoEnumIterator;
        let words = [("active", EventStatus::Active), ("withdrawn", EventStatus::Withdrawn), ("withheld", EventStatus::Withheld)];
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        for (text, word) in words {
            let back: EventStatus = conn.query_row("SELECT ?1", [text], |r| r.get(0)).unwrap();
            assert_eq!(back, word);
            let stored: String = conn.query_row("SELECT ?1", [word], |r| r.get(0)).unwrap();
            assert_eq!(stored, text);
            assert_eq!(serde_json::to_value(word).unwrap(), text);
        }
        assert_eq!(EventStatus::iter().count(), words.len());
        let unknown = conn.query_row("SELECT 'gone'", [], |r| r.get::<_, EventStatus>(0)).unwrap_err();
        assert!(unknown.to_string().contains("unknown event status \"gone\""), "{unknown}");
    }

    /// Every field the `translations` table and the translation memory have
    /// held reads back as its word and is written as it was.
    #[test]
    fn translation_fields_stored_before_the_type_read_back() {
        use strum::IntoEnumIterator;
        let words = [("title", Field::Title), ("description", Field::Description), ("price", Field::Price)];
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        for (text, word) in words {
            let back: Field = conn.query_row("SELECT ?1", [text], |r| r.get(0)).unwrap();
            assert_eq!(back, word);
            let stored: String = conn.query_row("SELECT ?1", [word], |r| r.get(0)).unwrap();
            assert_eq!((stored.as_str(), word.to_string().as_str(), text.parse::<Field>()), (text, text, Ok(word)));
        }
        assert_eq!(Field::iter().count(), words.len());
        let unknown = conn.query_row("SELECT 'venue'", [], |r| r.get::<_, Field>(0)).unwrap_err();
        assert!(unknown.to_string().contains("unknown translation field \"venue\""), "{unknown}");
        assert!("Title".parse::<Field>().is_err());
    }

    /// Every origin the `translations` table has held (the column's three
    /// words, an engine in the column beside) reads back as its word, is
    /// written as it was, and is said as `text_origin` has said it.
    #[test]
    fn text_origins_stored_before_the_type_read_back() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let read = |origin: &str, engine: Option<&str>| -> TextOrigin {
            let o: TextOrigin = conn.query_row("SELECT ?1", [origin], |r| r.get(0)).unwrap();
            o.made_by(engine.map(str::to_string))
        };
        let engine = |e: &str| TextOrigin::Machine(Some(e.to_string()));
        for (origin, engine_column, word, said) in [
            ("publisher", None, TextOrigin::Publisher, "publisher"),
            ("human", None, TextOrigin::Human, "human"),
            ("machine", None, TextOrigin::Machine(None), "machine"),
            ("machine", Some("apertium/3.8 via es"), engine("apertium/3.8 via es"), "apertium/3.8 via es"),
            ("machine", Some("apertium/test"), engine("apertium/test"), "apertium/test"),
            ("machine", Some("libretranslate"), engine("libretranslate"), "libretranslate"),
        ] {
            assert_eq!(read(origin, engine_column), word, "{origin} {engine_column:?}");
            assert_eq!(word.to_string(), said);
            assert_eq!(said.parse::<TextOrigin>(), Ok(word.clone()));
            let stored: String = conn.query_row("SELECT ?1", [&word], |r| r.get(0)).unwrap();
            assert_eq!(stored, origin);
        }
        // The column never held an engine's name: one there is an error, not a guess.
        let unknown = conn.query_row("SELECT 'apertium'", [], |r| r.get::<_, TextOrigin>(0)).unwrap_err();
        assert!(unknown.to_string().contains("unknown translation origin \"apertium\""), "{unknown}");
        assert!("".parse::<TextOrigin>().is_err());
    }

    /// The delay rule is written as `source list` and `source show --json` have
    /// always written it.
    #[test]
    fn delay_rules_keep_their_spelling() {
        use strum::IntoEnumIterator;
        let words = [
            ("adapter", DelayRule::Adapter),
            ("sources.toml", DelayRule::SourcesToml),
            ("robots.txt Crawl-delay", DelayRule::CrawlDelay),
            ("mirror (slowest source)", DelayRule::Mirror),
        ];
        for (text, word) in words {
            assert_eq!((word.to_string(), <&str>::from(word)), (text.to_string(), text));
            assert_eq!(serde_json::to_value(word).unwrap(), text);
        }
        assert_eq!(DelayRule::iter().count(), words.len());
    }

    /// `SOURCE:ID` as every command has read it, in one parser.
    #[test]
    fn an_event_is_named_source_colon_id() {
        let r = |source: &str, id: &str| Ok(EventRef { source: source.into(), id: id.into() });
        assert_eq!("madrid:50066046".parse(), r("madrid", "50066046"));
        assert_eq!("madrid: 50066046 ".parse(), r("madrid", "50066046"));
        // The id is everything after the first colon.
        assert_eq!("diba:a:b".parse(), r("diba", "a:b"));
        assert_eq!("madrid:50066046".parse::<EventRef>().unwrap().to_string(), "madrid:50066046");
        for bad in ["", "50066046", ":1", "madrid:", " : ", "https//x"] {
            assert!(bad.parse::<EventRef>().is_err(), "{bad:?}");
        }
    }

    /// Every spelling the fetch log has ever held reads back as its word, and
    /// text that is none of them is refused.
    #[test]
    fn fetch_log_outcomes_written_before_the_type_read_back() {
        use RequestOutcome as O;
        for (text, word) in [
            ("ok", O::Ok),
            ("not_modified", O::NotModified),
            ("unchanged", O::Unchanged),
            ("error: no body", O::NoBody),
            ("redirect 302", O::Redirect(302)),
            ("redirect refused", O::RedirectRefused),
            ("redirect failed", O::RedirectFailed),
            ("error: redirect", O::RedirectWithoutLocation),
            ("backoff 10000 ms", O::Backoff { wait_ms: 10000 }),
            ("backoff: gave up after 4 tries", O::BackoffGaveUp { tries: 4 }),
            ("backoff: wait over cap", O::BackoffOverCap),
            ("backoff: ledger failed", O::BackoffLedgerFailed),
            ("refused", O::Refused),
            ("refused: reservation", O::RefusedReservation),
            ("http 500", O::Http(500)),
            ("error: timeout: global", O::Error("timeout: global".into())),
        ] {
            assert_eq!(text.parse::<O>(), Ok(word.clone()), "{text}");
            assert_eq!(word.to_string(), text);
        }
        for bad in ["", "skipped", "redirect", "http", "backoff soon", "OK"] {
            assert!(bad.parse::<O>().is_err(), "{bad:?}");
        }
        assert!(toml::from_str::<std::collections::HashMap<String, Translator>>("t = \"deepl\"").is_err());
    }
}
