//! Rebuilds the crate when a file of `data/lang/` is added, removed or
//! edited: `lang_data` embeds that folder whole (`include_dir!`), and a
//! file no Rust line names is otherwise unseen until the next rebuild.
//!
//! Not for: generating code; the build needs nothing else.

fn main() {
    println!("cargo::rerun-if-changed=data/lang");
}
