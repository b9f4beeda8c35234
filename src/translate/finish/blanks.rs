//! Blanks: runs of spaces an engine left, or a dropped word left before a
//! comma or stop, tidied in the plain text ("club of  the month ," → "club
//! of the month,"), and two blanks meeting at a kept span's edge made one.
//!
//! Not for: a kept span's own blanks (it comes back byte for byte), or the
//! no-break spaces a language sets beside its marks (`typography`).

use super::cut::Segment;

/// Runs of spaces become one; a space left before `,` `.` or `)` by a
/// dropped word goes (French spaces before `:;!?` are typography, kept).
pub(super) fn tidy_blanks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ' ' && out.ends_with(' ') {
            continue;
        }
        if matches!(c, ',' | '.' | ')') && out.ends_with(' ') && out.len() > 1 {
            let trimmed = out.trim_end_matches(' ');
            if !trimmed.is_empty() && !trimmed.ends_with(['\n', '.', ',']) {
                out.truncate(trimmed.len());
            }
        }
        out.push(c);
    }
    out
}

/// Two blanks meeting at a span's edge become one: the second goes.
pub(super) fn blanks_at_edges(segs: &mut [Segment]) {
    let mut blank = false;
    for s in segs {
        let (Segment::Plain(t) | Segment::Name(t)) = s;
        if blank && t.starts_with(' ') {
            *t = t.trim_start_matches(' ').to_string();
        }
        if !t.is_empty() {
            blank = t.ends_with(' ');
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::Lang;
    use crate::translate::finish::finish;
    use crate::vocab::Field;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn blanks_are_tidied() {
        assert_eq!(
            finish("book club of  the month ,  celebrate  soon", &[], None, Lang::En, Field::Title),
            "Book Club of the Month, Celebrate Soon"
        );
        assert_eq!(finish("a  b", &[], None, Lang::Fr, Field::Description), "a b");
        assert_eq!(finish("Quoi ? Rien !", &[], None, Lang::Fr, Field::Description), "Quoi\u{a0}? Rien\u{a0}!");
        assert_eq!(finish("at  Teatro  X", &names(&["Teatro  X"]), None, Lang::En, Field::Description), "at Teatro  X");
    }
}
