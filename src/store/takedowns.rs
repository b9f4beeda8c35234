//! Takedowns (P18): an event named by its original URL or by its id is
//! deleted at once (its row, its translations and their entries in the
//! translation cache), and a
//! tombstone row in `takedowns` keeps it from coming back: the ingest skips
//! every event a tombstone names (see [`super::ingest`]).
//!
//! Not for guessing: an id that names no stored event and does not look like
//! the ids its source uses is not recorded unless the operator confirms it, and
//! an event already taken down is not taken down twice. Not the command's
//! wording: see `commands::takedown`.

use super::Store;
use crate::vocab::EventRef;
use anyhow::Result;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

/// What a takedown names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The original link of the event, as stored.
    Url(String),
    /// `SOURCE:ID`: one source's event id.
    Event { source: String, id: String },
    /// A bare event id, accepted when exactly one stored event has it.
    BareId(String),
}

impl Target {
    /// Read what the operator typed: a URL (`http://`, `https://`), `SOURCE:ID`
    /// when SOURCE is a known source id, else a bare id.
    pub fn parse(s: &str, known_sources: &[&str]) -> Target {
        let s = s.trim();
        let lower = s.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Target::Url(s.to_string());
        }
        // "madrid: 50066046" names the same event as "madrid:50066046".
        if let Ok(EventRef { source, id }) = s.parse::<EventRef>()
            && known_sources.contains(&source.as_str())
        {
            return Target::Event { source, id };
        }
        Target::BareId(s.to_string())
    }
}

/// One tombstone.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Takedown {
    pub id: i64,
    pub source: Option<String>,
    pub source_event_id: Option<String>,
    pub url: Option<String>,
    pub reason: String,
    pub created_at: jiff::Timestamp,
}

/// What `add_takedown` did.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum TakedownOutcome {
    /// A new tombstone, and the events it deleted now.
    Recorded(TakedownResult),
    /// A tombstone already names the event: nothing was recorded.
    AlreadyTakenDown { takedown: Takedown },
    /// `SOURCE:ID` names no stored event, and ID does not look like the ids
    /// that source uses: a tombstone would likely protect nothing, so it is
    /// recorded only with `force`.
    Unconfirmed { source: String, id: String, examples: Vec<String> },
}

/// A new tombstone and what it deleted.
#[derive(Debug, Clone, Serialize)]
pub struct TakedownResult {
    pub takedown: Takedown,
    /// Events deleted now, as `SOURCE:ID`.
    pub deleted: Vec<String>,
    /// Translation rows deleted with them.
    pub translations_deleted: u64,
}

impl Store {
    /// Record a takedown and delete what it names, in one transaction.
    ///
    /// A URL that matches no stored event is still recorded (an event may be
    /// taken down before we ever store it); so is `SOURCE:ID` when ID has the
    /// shape of that source's stored ids, or with `force`. A bare id must name
    /// exactly one stored event. An event a tombstone already names is left
    /// as it is. The tombstone is dated `now_ms` (the caller's clock).
    pub fn add_takedown(&mut self, target: &Target, reason: &str, force: bool, now_ms: i64) -> Result<TakedownOutcome> {
        if reason.trim().is_empty() {
            crate::bail_usage!("say why with --reason \"…\" (it is kept with the takedown)");
        }
        // A reason often names who asked: their address or number is not kept (P5).
        let reason = crate::parse::pii::scrub(reason.trim());
        // A run may hold the write lock for one source's ingest: wait for it
        // rather than fail, so the takedown lands right after that commit.
        self.conn.busy_timeout(std::time::Duration::from_secs(120))?;
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        if let Some(takedown) = existing_tombstone(&tx, target)? {
            return Ok(TakedownOutcome::AlreadyTakenDown { takedown });
        }
        let matches = matching_events(&tx, target)?;
        let (source, source_event_id, url) = match target {
            Target::Url(u) => {
                // One event: keep its id and its URL as stored, so that neither
                // a later change of its URL nor the form typed here brings it back.
                let one = (matches.len() == 1).then(|| &matches[0]);
                (one.map(|m| m.1.clone()), one.map(|m| m.2.clone()), Some(one.and_then(|m| m.3.clone()).unwrap_or_else(|| u.clone())))
            }
            Target::Event { source, id } => {
                if matches.is_empty() && !force {
                    let shapes = IdShapes::of_source(&tx, source)?;
                    if !shapes.fits(id) {
                        return Ok(TakedownOutcome::Unconfirmed { source: source.clone(), id: id.clone(), examples: shapes.examples });
                    }
                }
                (Some(source.clone()), Some(id.clone()), matches.first().and_then(|m| m.3.clone()))
            }
            Target::BareId(id) => match matches.len() {
                0 => crate::bail_usage!("no stored event has the id {id:?}; name it as SOURCE:ID (e.g. madrid:{id}) or by its URL"),
                1 => (Some(matches[0].1.clone()), Some(matches[0].2.clone()), matches[0].3.clone()),
                _ => crate::bail_usage!(
                    "the id {id:?} names {} events; say which: {}",
                    matches.len(),
                    matches.iter().map(|m| format!("{}:{}", m.1, m.2)).collect::<Vec<_>>().join(", ")
                ),
            },
        };
        let now = now_ms;
        tx.execute(
            "INSERT INTO takedowns (source, source_event_id, url, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![source, source_event_id, url, reason, now],
        )?;
        let td_id = tx.last_insert_rowid();
        let (deleted, translations_deleted) = delete_events(&tx, &matches)?;
        tx.commit()?;
        Ok(TakedownOutcome::Recorded(TakedownResult {
            takedown: Takedown { id: td_id, source, source_event_id, url, reason, created_at: crate::times::at_ms(now)? },
            deleted,
            translations_deleted,
        }))
    }

    /// Every tombstone, oldest first.
    pub fn list_takedowns(&self) -> Result<Vec<Takedown>> {
        let mut st = self.conn.prepare("SELECT id, source, source_event_id, url, reason, created_at FROM takedowns ORDER BY id")?;
        let rows = st.query_map([], takedown_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Lift a takedown: the event may come back on the next run that changes
    /// its feed. Returns the removed tombstone, or `None` if there was none.
    pub fn remove_takedown(&self, id: i64) -> Result<Option<Takedown>> {
        let row = self
            .conn
            .query_row("SELECT id, source, source_event_id, url, reason, created_at FROM takedowns WHERE id = ?1", [id], takedown_row)
            .optional()?;
        if row.is_some() {
            self.conn.execute("DELETE FROM takedowns WHERE id = ?1", [id])?;
        }
        Ok(row)
    }
}

fn takedown_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Takedown> {
    Ok(Takedown {
        id: r.get(0)?,
        source: r.get(1)?,
        source_event_id: r.get(2)?,
        url: r.get(3)?,
        reason: r.get(4)?,
        created_at: crate::times::column(r, 5)?,
    })
}

/// A stored event a takedown names: its row, source, event id and URL.
type Match = (i64, String, String, Option<String>);

/// The stored events `target` names. A URL given with another scheme,
/// without `www.` or with a trailing slash still names the event, when it
/// names exactly one.
fn matching_events(tx: &rusqlite::Transaction<'_>, target: &Target) -> Result<Vec<Match>> {
    let matches: Vec<Match> = {
        let (sql, args): (&str, Vec<&str>) = match target {
            Target::Url(u) => ("SELECT id, source, source_event_id, url FROM events WHERE url = ?1", vec![u.as_str()]),
            Target::Event { source, id } => (
                "SELECT id, source, source_event_id, url FROM events WHERE source = ?1 AND source_event_id = ?2",
                vec![source.as_str(), id.as_str()],
            ),
            Target::BareId(id) => ("SELECT id, source, source_event_id, url FROM events WHERE source_event_id = ?1", vec![id.as_str()]),
        };
        let mut st = tx.prepare(sql)?;
        st.query_map(rusqlite::params_from_iter(args), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    Ok(match target {
        Target::Url(u) if matches.is_empty() => {
            let want = loose_url(u);
            let mut st = tx.prepare("SELECT id, source, source_event_id, url FROM events WHERE url IS NOT NULL")?;
            let all: Vec<Match> =
                st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?.collect::<rusqlite::Result<_>>()?;
            let loose: Vec<_> = all.into_iter().filter(|m| m.3.as_deref().map(loose_url).as_deref() == Some(want.as_str())).collect();
            if loose.len() == 1 { loose } else { matches }
        }
        _ => matches,
    })
}

/// Delete the events matched, their translations and their entries in the
/// translation cache: the events as `SOURCE:ID`, and how many translation
/// rows went with them.
fn delete_events(tx: &rusqlite::Transaction<'_>, matches: &[Match]) -> Result<(Vec<String>, u64)> {
    let mut translations_deleted = 0u64;
    let mut deleted = Vec::new();
    for (row, src, id, _) in matches {
        // The machine translations of its texts leave the cache too (an
        // identical text of another event only costs a new translation).
        tx.execute(
            "DELETE FROM translation_cache WHERE EXISTS (SELECT 1 FROM translations t
                     WHERE t.event_id = ?1 AND t.origin <> 'publisher' AND t.text = translation_cache.text
                       AND t.engine IS translation_cache.engine)",
            [row],
        )?;
        // Explicit, though the foreign key cascades too.
        translations_deleted += tx.execute("DELETE FROM translations WHERE event_id = ?1", [row])? as u64;
        tx.execute("DELETE FROM events WHERE id = ?1", [row])?;
        deleted.push(format!("{src}:{id}"));
    }
    Ok((deleted, translations_deleted))
}

/// The tombstone that already names what `target` names, if any: the same
/// source and id, the same URL (also loosely compared), or for a bare id the
/// one tombstone with that id.
fn existing_tombstone(tx: &rusqlite::Transaction<'_>, target: &Target) -> Result<Option<Takedown>> {
    const COLS: &str = "SELECT id, source, source_event_id, url, reason, created_at FROM takedowns";
    let found = match target {
        Target::Event { source, id } => tx
            .query_row(&format!("{COLS} WHERE source = ?1 AND source_event_id = ?2 ORDER BY id LIMIT 1"), [source, id], takedown_row)
            .optional()?,
        Target::BareId(id) => {
            let mut st = tx.prepare(&format!("{COLS} WHERE source_event_id = ?1 ORDER BY id"))?;
            let rows: Vec<Takedown> = st.query_map([id], takedown_row)?.collect::<rusqlite::Result<_>>()?;
            if rows.len() == 1 { rows.into_iter().next() } else { None }
        }
        Target::Url(u) => {
            let mut st = tx.prepare(&format!("{COLS} WHERE url IS NOT NULL ORDER BY id"))?;
            let rows: Vec<Takedown> = st.query_map([], takedown_row)?.collect::<rusqlite::Result<_>>()?;
            let want = loose_url(u);
            rows.into_iter().find(|t| t.url.as_deref().is_some_and(|have| have == u || loose_url(have) == want))
        }
    };
    Ok(found)
}

/// What the ids of one source look like, learnt from its stored events
/// (active or withdrawn) and tombstones: each id's run-length pattern of
/// character kinds (`50066046` → `9`, `ev-12` → `a-9`) and the lengths seen.
struct IdShapes {
    patterns: std::collections::HashMap<String, (usize, usize)>,
    /// A few stored ids, to show the operator.
    examples: Vec<String>,
}

impl IdShapes {
    fn of_source(tx: &rusqlite::Transaction<'_>, source: &str) -> Result<IdShapes> {
        let mut st = tx.prepare(
            "SELECT source_event_id FROM events WHERE source = ?1
             UNION SELECT source_event_id FROM takedowns WHERE source = ?1 AND source_event_id IS NOT NULL",
        )?;
        let ids: Vec<String> = st.query_map([source], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        let mut patterns: std::collections::HashMap<String, (usize, usize)> = std::collections::HashMap::new();
        for id in &ids {
            let n = id.chars().count();
            let e = patterns.entry(id_pattern(id)).or_insert((n, n));
            e.0 = e.0.min(n);
            e.1 = e.1.max(n);
        }
        Ok(IdShapes { patterns, examples: ids.into_iter().take(3).collect() })
    }

    /// Whether `id` has the kinds of characters, in the order, of some
    /// stored id, and a length within two of those.
    fn fits(&self, id: &str) -> bool {
        let n = id.chars().count();
        self.patterns.get(&id_pattern(id)).is_some_and(|&(min, max)| n + 2 >= min && n <= max + 2)
    }
}

/// An id's character kinds, runs collapsed: digits `9`, letters `a`, any
/// other character itself.
fn id_pattern(id: &str) -> String {
    let mut out = String::new();
    for c in id.chars() {
        let kind = if c.is_numeric() {
            '9'
        } else if c.is_alphabetic() {
            'a'
        } else {
            c
        };
        if !out.ends_with(kind) || !matches!(kind, '9' | 'a') {
            out.push(kind);
        }
    }
    out
}

/// A URL compared loosely: no scheme, no `www.`, no trailing slash, host in lower case.
fn loose_url(u: &str) -> String {
    let u = u.trim();
    let rest = u.split_once("://").map_or(u, |(_, r)| r);
    let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    format!("{host}/{}", path.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::{Target, id_pattern, loose_url};

    #[test]
    fn id_patterns_collapse_runs_of_one_kind() {
        assert_eq!(id_pattern("50066046"), "9");
        assert_eq!(id_pattern("ev-12ab"), "a-9a");
        assert_eq!(id_pattern("a b"), "a a");
    }

    #[test]
    fn urls_compare_loosely() {
        assert_eq!(loose_url("http://www.Madrid.es/a/b/"), loose_url("https://madrid.es/a/b"));
        assert_ne!(loose_url("https://madrid.es/a?x=1"), loose_url("https://madrid.es/a?x=2"));
    }

    #[test]
    fn targets_are_read_as_url_source_id_or_bare_id() {
        let known = ["madrid", "diba"];
        assert_eq!(Target::parse("https://x.es/a?b=1", &known), Target::Url("https://x.es/a?b=1".into()));
        assert_eq!(Target::parse("madrid:123", &known), Target::Event { source: "madrid".into(), id: "123".into() });
        // Spaces around the colon and the id are not part of it.
        assert_eq!(Target::parse(" madrid : 123 ", &known), Target::Event { source: "madrid".into(), id: "123".into() });
        assert_eq!(Target::parse("other:123", &known), Target::BareId("other:123".into()));
        assert_eq!(Target::parse("123", &known), Target::BareId("123".into()));
    }
}
