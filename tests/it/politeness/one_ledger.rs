//! One pacing per machine (P8): requests to real hosts are
//! booked in the system ledger, which no HOME, XDG_STATE_HOME or
//! `--state-dir` moves; a private ledger serves `--mirror` runs only, and
//! `doctor` says which one a run would use. No test here sends a request
//! off the machine: a real-host run is given an hours window that is
//! closed, so even a run that went ahead would send nothing.
use crate::common;
use crate::politeness::promises::window_outside_now;

use common::workdir;
use std::path::Path;

const SYSTEM: &str = "/var/lib/cityvibe";

fn text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The "host ledger" line of `doctor`, run with only these variables set.
fn doctor_ledger_line(dir: &Path, env: &[(&str, &Path)], args: &[&str]) -> String {
    let mut c = std::process::Command::new(common::bin());
    c.current_dir(dir).env_clear().env("PATH", std::env::var("PATH").unwrap_or_default());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.args(args).arg("doctor").output().unwrap();
    text(&out).lines().find(|l| l.contains("host ledger")).unwrap_or_else(|| panic!("no ledger line: {}", text(&out))).to_string()
}

/// P8: a run to real hosts does not keep a schedule of its
/// own in the folder `--state-dir` or CITYVIBE_STATE_DIR names: it is
/// refused before anything (exit 2), naming the system ledger, and no
/// private ledger is made.
#[test]
fn a_real_host_run_never_keeps_a_private_schedule_p8() {
    let dir = workdir(&format!("[sources.madrid]\nhours = \"{}\"\n", window_outside_now()));
    let private = dir.path().join("elsewhere");
    let by_flag = common::cityvibe(dir.path(), &["--state-dir", private.to_str().unwrap(), "run", "--source", "madrid", "--json"]);
    // common::command sets CITYVIBE_STATE_DIR to the test's own folder.
    let by_env = common::cityvibe(dir.path(), &["run", "--source", "madrid", "--json"]);
    for (how, out, folder) in [("--state-dir", by_flag, private.clone()), ("CITYVIBE_STATE_DIR", by_env, common::state_dir(dir.path()))] {
        assert_eq!(out.status.code(), Some(2), "{how}: {}", text(&out));
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(SYSTEM) && said.contains("--mirror") && said.contains("private"), "{how}: {said}");
        assert!(!folder.join("hosts.db").exists(), "{how}: a private ledger was made for real hosts");
    }
}

/// `doctor` names the ledger a run would use. Without
/// `--mirror` it is the system ledger whatever HOME and XDG_STATE_HOME say
/// (two users, or cron and a shell, see the same one); with `--mirror` and
/// `--state-dir` it is private, and `doctor` warns so.
#[test]
fn doctor_names_one_system_ledger_whatever_home_says_p8() {
    let dir = workdir("[sources.madrid]\n");
    let (a, b) = (dir.path().join("home-a"), dir.path().join("home-b"));
    let one = doctor_ledger_line(dir.path(), &[("HOME", &a), ("XDG_STATE_HOME", &a.join("state"))], &[]);
    let two = doctor_ledger_line(dir.path(), &[("HOME", &b)], &[]);
    for line in [&one, &two] {
        assert!(line.contains(SYSTEM) && line.contains("system ledger"), "{line}");
        assert!(!line.contains("home-"), "{line}");
    }
    let private = doctor_ledger_line(
        dir.path(),
        &[("HOME", &a)],
        &["--mirror", "http://127.0.0.1:9", "--state-dir", dir.path().join("state").to_str().unwrap()],
    );
    assert!(private.contains("private ledger") && private.contains("WARN"), "{private}");
}
