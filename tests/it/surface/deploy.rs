//! The production set-up of docs/OPERATING.md works when followed word for word
//! on a fresh Debian. The units and the crontab it installs ship in `deploy/`;
//! these tests pin that docs/OPERATING.md installs those files, that their
//! paths are the ones its steps lay out (`/srv/cityvibe`, its `data/`, the
//! ledger `/var/lib/cityvibe`, the release binary), and that systemd parses
//! them when `systemd-analyze` is installed. Not for the unit's hardening
//! (`surface::docs`) nor for what a run does (the `politeness::` and `operator::`
//! tests).

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// docs/OPERATING.md's "In production" section, up to the next heading.
fn production() -> String {
    let readme = read("docs/OPERATING.md");
    let start = readme.find("## In production\n").expect("the production section");
    let end = start + 3 + readme[start + 3..].find("\n## ").expect("a heading after it");
    readme[start..end].to_string()
}

/// The value of every `KEY=` line of a unit.
fn values<'a>(unit: &'a str, key: &str) -> Vec<&'a str> {
    unit.lines().filter_map(|l| l.strip_prefix(key)?.strip_prefix('=')).collect()
}

#[test]
fn the_readme_installs_the_shipped_units_and_crontab() {
    let text = production();
    // Steps a fresh Debian needs: the build's tools, and `make deps` as root
    // (scripts/deps.sh stops with exit 1 for any other user).
    for step in [
        "sudo apt-get update && sudo apt-get install --yes git build-essential",
        "sudo useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin cityvibe",
        "git clone REPO /srv/cityvibe && cd /srv/cityvibe",
        "sudo make deps && cargo build --release",
        "sudo chgrp cityvibe data && sudo chmod 2775 data",
        "sudo install -d -o cityvibe -g cityvibe -m 0750 /var/lib/cityvibe",
        "sudo crontab -u cityvibe deploy/cityvibe.crontab",
        "sudo install -m 0644 deploy/cityvibe.service deploy/cityvibe.timer /etc/systemd/system/",
        "sudo systemctl enable --now cityvibe.timer",
    ] {
        assert!(text.lines().any(|l| l.trim() == step), "docs/OPERATING.md's set-up lacks the line {step:?}");
    }
    assert!(!text.contains("crontab -u cityvibe -e"), "an editor session cannot be followed word for word");
    for file in ["deploy/cityvibe.service", "deploy/cityvibe.timer", "deploy/cityvibe.crontab"] {
        assert!(Path::new(ROOT).join(file).is_file(), "{file} is installed by docs/OPERATING.md but not shipped");
    }

    // The paths of the units and the crontab are the ones the steps made.
    let (checkout, binary, ledger) = ("/srv/cityvibe", "./target/release/cityvibe", "/var/lib/cityvibe");
    let service = read("deploy/cityvibe.service");
    assert_eq!(values(&service, "User"), ["cityvibe"]);
    assert_eq!(values(&service, "Group"), ["cityvibe"]);
    assert_eq!(values(&service, "WorkingDirectory"), [checkout]);
    assert_eq!(values(&service, "ExecStart"), [format!("{checkout}/{} run --quiet", &binary[2..]).as_str()]);
    assert_eq!(values(&service, "ReadWritePaths"), [format!("{checkout}/data").as_str()]);
    assert_eq!(values(&service, "Environment"), [format!("CITYVIBE_STATE_DIR={ledger}").as_str()]);
    assert_eq!(values(&service, "StateDirectory"), ["cityvibe"], "systemd's StateDirectory=cityvibe is {ledger}");
    assert_eq!(values(&service, "StateDirectoryMode"), ["0750"], "step 4 makes the ledger 0750");
    let timer = read("deploy/cityvibe.timer");
    assert_eq!(values(&timer, "OnCalendar"), ["0/3:00"], "every three hours (P7)");
    let crontab = read("deploy/cityvibe.crontab");
    let jobs: Vec<&str> = crontab.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
    let [job] = jobs.as_slice() else { panic!("one job in the crontab: {jobs:?}") };
    let fields: Vec<&str> = job.split_whitespace().collect();
    assert_eq!(fields[..5], ["0", "*/3", "*", "*", "*"], "every three hours (P7)");
    assert_eq!(fields[5..].join(" "), format!("cd {checkout} && {binary} run --quiet"));
}

#[test]
fn systemd_parses_the_shipped_units() {
    let Ok(v) = std::process::Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!("notice: no systemd-analyze; the units' syntax is not checked");
        return;
    };
    assert!(v.status.success());
    // `verify` checks that ExecStart= names an executable: the installed
    // path is this test's binary.
    let dir = tempfile::tempdir().unwrap();
    let service = read("deploy/cityvibe.service").replace("/srv/cityvibe/target/release/cityvibe", env!("CARGO_BIN_EXE_cityvibe"));
    std::fs::write(dir.path().join("cityvibe.service"), service).unwrap();
    std::fs::write(dir.path().join("cityvibe.timer"), read("deploy/cityvibe.timer")).unwrap();
    let out = std::process::Command::new("systemd-analyze")
        .args(["verify", "--man=no"])
        .arg(dir.path().join("cityvibe.service"))
        .arg(dir.path().join("cityvibe.timer"))
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "systemd-analyze verify: {said}");
    let ours: Vec<&str> = said.lines().filter(|l| l.contains("cityvibe")).collect();
    assert!(ours.is_empty(), "systemd-analyze verify warns about the units: {ours:?}");
}
