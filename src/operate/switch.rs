//! Switching a source on or off (P16): `source enable|disable` and
//! `audit --disable-blocked`. sources.toml is edited in place, the switch
//! appended to its history (this module is the history's one writer,
//! through `switch_log::record`), and, when asked, the source's stored
//! events are withheld from every list and export or brought back.
//!
//! Not for the edit of sources.toml itself (`config::set_enabled`) nor the
//! history's format (`switch_log`).

use crate::clock::Clock;
use crate::config::Config;
use crate::store::Store;
use crate::switch_log::Action;
use anyhow::Result;
use std::path::Path;

/// What the operator asked.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub id: &'a str,
    /// On (`enable`) or off (`disable`).
    pub on: bool,
    /// Why (required to switch off).
    pub reason: Option<&'a str>,
    /// Off, and the stored events withheld from every list and export.
    pub withdraw: bool,
    /// The switchboard serves mirror runs (`--mirror`): a source whose
    /// review is pending may be switched on for them.
    pub mirror: bool,
}

/// A request [`check`] found fit to make.
#[derive(Debug)]
pub struct Checked<'a> {
    request: Request<'a>,
    /// Switched on for mirror runs only, and why a run without a mirror
    /// refuses it (its review is pending, P3, P14): for the operator to hear.
    pub mirror_only: Option<String>,
}

/// What sources.toml got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The row now says what was asked.
    Switched,
    /// It said so already and nothing changed there (the history still keeps
    /// the words said); when off, since which day and why, as the row has it.
    Already { since: Option<(String, String)> },
}

/// What became of the source's stored events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Events {
    /// So many withheld from every list and export (`--withdraw`).
    Withheld(u64),
    /// So many withheld ones shown again (`enable`).
    Restored(u64),
}

/// A switch made.
#[derive(Debug)]
pub struct SwitchOutcome {
    pub change: Change,
    /// `None` when the events were not touched (no `--withdraw`, or no database to bring any back from).
    pub events: Option<Events>,
    /// What failed after `change` was made (the history, the database):
    /// the command says the change, then this error.
    pub then_failed: Option<anyhow::Error>,
}

/// Whether the switch may be made at all: a known source, a reason to
/// switch it off, and, to switch it on, a reviewed manifest (P3).
pub fn check(request: Request<'_>) -> Result<Checked<'_>> {
    let Request { id, on, reason, .. } = request;
    let manifest = crate::adapters::require(id)?.manifest();
    if !on && reason.is_none_or(|r| r.trim().is_empty()) {
        crate::bail_usage!("say why with --reason \"…\" (it is written into sources.toml)");
    }
    let todo = crate::adapter_tools::todo_fields(manifest);
    if on && !todo.is_empty() {
        // P3: an unreviewed adapter is never switched on, so its TODO URLs are never requested.
        crate::bail_usage!(
            "{id} cannot be switched on: its manifest still says TODO in {} (adapters/{id}.rs); \
             fill them in as docs/ADAPTERS.md says and check with `cityvibe adapter check {id} --sample FILE`",
            todo.join(", ")
        );
    }
    let mut mirror_only = None;
    if on && let Some(what) = manifest.pending_review() {
        // P3, P14: switched on, cron would be refused this source every run; an
        // operator expects `enable` to mean "fetched from the next run on", so it
        // refuses, unless the switchboard serves mirror runs only (staging, tests).
        if !request.mirror {
            crate::bail_usage!(
                "{id} cannot be switched on: {what}. (A switchboard that serves only mirror runs may switch it on \
                 with `cityvibe --mirror DIR source enable {id}`.)"
            );
        }
        mirror_only = Some(what);
    }
    Ok(Checked { request, mirror_only })
}

/// Make a checked switch in sources.toml at `config_path` (as loaded in
/// `config`), then withhold or bring back the source's events in the
/// database at `db` (brought back only when it exists), dated by `clock`.
pub fn apply(checked: &Checked<'_>, config_path: &Path, config: &Config, db: &Path, clock: &dyn Clock) -> Result<SwitchOutcome> {
    let Request { id, on, reason, withdraw, .. } = checked.request;
    let now = clock.now_ms();
    let row = config.sources.get(id);
    let mut outcome = SwitchOutcome { change: Change::Switched, events: None, then_failed: None };
    if row.is_some() && config.enabled(id) == on {
        // A second disable (or enable) changes nothing in sources.toml: the
        // first reason and date stay there.
        let since = row.and_then(|r| r.disabled_on.clone()).zip(row.and_then(|r| r.disabled_reason.clone())).filter(|_| !on);
        outcome.change = Change::Already { since };
        // The history keeps every word said, the second reason too.
        if let Err(e) = crate::switch_log::record(config_path, id, action(on), reason, now) {
            outcome.then_failed = Some(e);
            return Ok(outcome);
        }
    } else {
        write(config_path, id, on, reason, now)?;
        Config::load(config_path, crate::adapters::ALL)?;
    }
    // Without a database there is nothing to withhold or bring back.
    if withdraw || (on && db.exists()) {
        match events(&checked.request, config_path, db, now) {
            Ok(e) => outcome.events = Some(e),
            Err(e) => outcome.then_failed = Some(e),
        }
    }
    Ok(outcome)
}

/// Withhold the source's events (and say so in the history), or bring
/// back those withheld.
fn events(request: &Request<'_>, config_path: &Path, db: &Path, now_ms: i64) -> Result<Events> {
    let store = Store::open(db)?;
    if request.withdraw {
        let n = store.withhold_source(request.id, now_ms)?;
        crate::switch_log::record(config_path, request.id, Action::Withdraw, request.reason, now_ms)?;
        Ok(Events::Withheld(n))
    } else {
        Ok(Events::Restored(store.restore_withheld(request.id)?))
    }
}

/// Switch a source off for `reason` without the checks an operator's
/// `disable` gets (`audit --disable-blocked`: the host said no), dated by `clock`.
pub fn switch_off(config_path: &Path, id: &str, reason: &str, clock: &dyn Clock) -> Result<()> {
    write(config_path, id, false, Some(reason), clock.now_ms())
}

/// The file holds the switch as it is now; the history keeps every one, with
/// its reason.
fn write(config_path: &Path, id: &str, on: bool, reason: Option<&str>, now_ms: i64) -> Result<()> {
    crate::config::set_enabled(config_path, id, on, reason, now_ms)?;
    crate::switch_log::record(config_path, id, action(on), reason, now_ms)
}

fn action(on: bool) -> Action {
    if on { Action::Enable } else { Action::Disable }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{clock_at, store_with_madrid};

    fn request(on: bool, reason: Option<&str>, withdraw: bool) -> Request<'_> {
        Request { id: "madrid", on, reason, withdraw, mirror: false }
    }

    /// Switch `madrid` as asked, against the file as it is now.
    fn switch(dir: &Path, req: Request<'_>, clock: &dyn Clock) -> SwitchOutcome {
        let path = dir.join("sources.toml");
        let config = Config::load(&path, crate::adapters::ALL).unwrap();
        apply(&check(req).unwrap(), &path, &config, &dir.join("cityvibe.db"), clock).unwrap()
    }

    // P16: off with its events withheld, off again, on again; every switch is
    // in the history, dated by the clock handed in (the day in sources.toml is
    // Madrid's: 1 March there, 29 February in UTC).
    #[test]
    fn a_switch_is_dated_by_the_clock_handed_in_and_kept_in_the_history() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("sources.toml"), "# the switchboard\n[sources.madrid]\nenabled = true\n").unwrap();
        drop(store_with_madrid(&dir.path().join("cityvibe.db"), &[("1", "Concierto")]));
        let clock = clock_at("2020-02-29T23:30:00Z");

        let off = switch(dir.path(), request(false, Some("opt-out received"), true), &clock);
        assert_eq!(off.change, Change::Switched);
        assert_eq!(off.events, Some(Events::Withheld(1)));
        assert!(off.then_failed.is_none());
        let toml = std::fs::read_to_string(dir.path().join("sources.toml")).unwrap();
        assert!(toml.starts_with("# the switchboard\n"), "{toml}");
        assert!(toml.contains("disabled_reason = \"opt-out received\"") && toml.contains("disabled_on = \"2020-03-01\""), "{toml}");

        let again = switch(dir.path(), request(false, Some("asked twice"), false), &clock);
        assert_eq!(again.change, Change::Already { since: Some(("2020-03-01".into(), "opt-out received".into())) });
        assert_eq!(again.events, None);

        let on = switch(dir.path(), request(true, None, false), &clock);
        assert_eq!((on.change, on.events), (Change::Switched, Some(Events::Restored(1))));

        let (history, skipped) = crate::switch_log::of(&dir.path().join("sources.toml"), "madrid").unwrap();
        assert!(skipped.is_empty());
        let said: Vec<(&str, Action, Option<&str>)> = history.iter().map(|s| (s.at.as_str(), s.action, s.reason.as_deref())).collect();
        let at = "2020-02-29T23:30:00Z";
        assert_eq!(
            said,
            [
                (at, Action::Disable, Some("opt-out received")),
                (at, Action::Withdraw, Some("opt-out received")),
                (at, Action::Disable, Some("asked twice")),
                (at, Action::Enable, None),
            ]
        );
    }

    // What cannot be switched is refused before anything is written.
    #[test]
    fn a_switch_without_a_reason_or_of_no_source_is_refused() {
        let off = check(request(false, Some("  "), false)).unwrap_err();
        assert_eq!(crate::error::exit_for(&off), crate::error::Exit::Usage, "{off:#}");
        assert!(check(Request { id: "nowhere", ..request(true, None, false) }).is_err());
        assert!(check(request(true, None, false)).unwrap().mirror_only.is_none());
    }

    // A failure after the change is made comes back beside it, so the
    // operator hears both, in that order; one before it is the error itself.
    #[test]
    fn a_history_that_cannot_be_written_comes_back_beside_the_change() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("sources.toml"), "[sources.madrid]\nenabled = false\ndisabled_reason = \"x\"\n").unwrap();
        std::fs::create_dir(dir.path().join("sources.history.jsonl")).unwrap();
        let clock = clock_at("2021-06-01T10:00:00Z");
        let again = switch(dir.path(), request(false, Some("again"), false), &clock);
        assert_eq!(again.change, Change::Already { since: None });
        let failed = again.then_failed.expect("the history could not be written");
        assert!(format!("{failed:#}").contains("switch history"), "{failed:#}");
        let path = dir.path().join("sources.toml");
        let config = Config::load(&path, crate::adapters::ALL).unwrap();
        let on = check(request(true, None, false)).unwrap();
        assert!(apply(&on, &path, &config, &dir.path().join("cityvibe.db"), &clock).is_err());
    }

    // `audit --disable-blocked` writes the same two things as `disable`.
    #[test]
    fn switch_off_writes_the_file_and_the_history() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sources.toml");
        std::fs::write(&path, "[sources.madrid]\nenabled = true\n").unwrap();
        switch_off(&path, "madrid", "audit: robots.txt says no", &clock_at("2021-06-01T10:00:00Z")).unwrap();
        let config = Config::load(&path, crate::adapters::ALL).unwrap();
        assert!(!config.enabled("madrid"));
        let (history, _) = crate::switch_log::of(&path, "madrid").unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!((history[0].at.as_str(), history[0].action), ("2021-06-01T10:00:00Z", Action::Disable));
    }
}
