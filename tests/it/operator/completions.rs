//! `cityvibe completions bash|zsh|fish`: the scripts name every command, and
//! the bash one really completes in bash.
use crate::common;

use common::{cityvibe, workdir};
use std::process::Command;

fn script(shell: &str) -> String {
    let dir = workdir("");
    let out = cityvibe(dir.path(), &["completions", shell]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Run the bash completion function on a command line; the candidates.
fn bash_complete(script: &str, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let prog = format!(
        "{script}\nCOMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE=\"${{COMP_WORDS[*]}}\"; COMP_POINT=${{#COMP_LINE}}\n\
         _cityvibe cityvibe '{cur}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words = quoted.join(" "),
        cword = words.len() - 1,
        cur = words[words.len() - 1],
        prev = words[words.len() - 2],
    );
    let out = Command::new("bash").arg("-c").arg(prog).output().expect("bash");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).filter(|l| !l.is_empty()).collect()
}

#[test]
fn bash_completes_commands_and_values() {
    let s = script("bash");
    let syntax = Command::new("bash").arg("-n").arg("-c").arg(&s).output().unwrap();
    assert!(syntax.status.success(), "{}", String::from_utf8_lossy(&syntax.stderr));
    let top = bash_complete(&s, &["cityvibe", ""]);
    for c in ["run", "events", "source", "runs", "holdings", "export", "takedown", "completions"] {
        assert!(top.iter().any(|t| t == c), "{c} not offered: {top:?}");
    }
    assert_eq!(bash_complete(&s, &["cityvibe", "tak"]), vec!["takedown"]);
    let formats = bash_complete(&s, &["cityvibe", "export", "--format", ""]);
    for f in ["json", "csv", "ics", "jsonld"] {
        assert!(formats.iter().any(|t| t == f), "{f} not offered: {formats:?}");
    }
    let sub = bash_complete(&s, &["cityvibe", "takedown", ""]);
    for c in ["add", "list", "remove"] {
        assert!(sub.iter().any(|t| t == c), "{c} not offered: {sub:?}");
    }
}

#[test]
fn zsh_and_fish_scripts_name_every_command() {
    let zsh = script("zsh");
    assert!(zsh.starts_with("#compdef cityvibe"));
    let fish = script("fish");
    assert!(fish.contains("complete -c cityvibe"));
    for c in ["holdings", "export", "takedown", "runs", "completions"] {
        assert!(zsh.contains(c) && fish.contains(c), "{c}");
    }
    for (shell, flag, text) in [("zsh", "-n", &zsh), ("fish", "--no-execute", &fish)] {
        // Syntax-check where the shell is installed.
        if let Ok(out) = Command::new(shell).arg(flag).arg("-c").arg(text.as_str()).output() {
            assert!(out.status.success(), "{shell}: {}", String::from_utf8_lossy(&out.stderr));
        } else {
            eprintln!("notice: {shell} not installed; its script was checked by content only");
        }
    }
    // An unknown shell is a usage error.
    let dir = workdir("");
    assert_eq!(cityvibe(dir.path(), &["completions", "tcsh"]).status.code(), Some(2));
}
