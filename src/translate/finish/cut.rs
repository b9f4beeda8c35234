//! What every stage of the finishing works on: the engine's output cut at
//! its kept spans into plain stretches house style may change and kept spans
//! it never touches (`Segment`), joined again after; and what a stage knows
//! of the text it finishes (`Finishing`).
//!
//! Not for: the rules themselves (the stage files) or their order (`stages`).

use crate::lang::Lang;
use crate::vocab::Field;

/// What a stage knows of the text it finishes.
pub(super) struct Finishing<'a> {
    /// The kept names, which come back byte for byte.
    pub(super) names: &'a [String],
    /// The spans the engine saw as fixed: the names and the terms put in.
    pub(super) anchors: &'a [String],
    /// The names that are the event's district: no exonym.
    pub(super) local: &'a [String],
    /// The kept span the text starts with when a lower-case word follows it.
    pub(super) lead: Option<&'a str>,
    pub(super) lang: Lang,
    pub(super) field: Field,
    pub(super) slips: Slips,
    /// Sent plain (`lang::plain`): only the stages marked `sent_plain` run.
    pub(super) plain: bool,
    /// The spans the text sent has a mark right after, with it ("tempo."):
    /// `Prepared::marked_spans`; `None` where the text sent is not known.
    pub(super) marked: Option<&'a [String]>,
}

/// A piece of the text cut at its kept spans, what the stages work on: a
/// plain stretch house style may change, or a kept span it never touches.
#[derive(Debug, PartialEq)]
pub(super) enum Segment {
    Plain(String),
    Name(String),
}

/// The output cut into the kept names (found again by their exact text,
/// longest first, never inside a word: the kept initial "F" of "M. F.
/// Quicho" is not the F of "Futures") and the words around them.
pub(super) fn segments(output: &str, names: &[String]) -> Vec<Segment> {
    let mut names: Vec<&str> = names.iter().map(String::as_str).filter(|n| !n.is_empty()).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let glued = |a: Option<char>, b: Option<char>| a.zip(b).is_some_and(|(a, b)| a.is_alphanumeric() && b.is_alphanumeric());
    for name in names {
        for (at, _) in output.match_indices(name) {
            let end = at + name.len();
            let inside = glued(output[..at].chars().next_back(), name.chars().next())
                || glued(name.chars().next_back(), output[end..].chars().next());
            if !inside && spans.iter().all(|&(a, b)| end <= a || at >= b) {
                spans.push((at, end));
            }
        }
    }
    spans.sort_unstable();
    let mut out = Vec::new();
    let mut last = 0;
    for (a, b) in spans {
        if a > last {
            out.push(Segment::Plain(output[last..a].to_string()));
        }
        out.push(Segment::Name(output[a..b].to_string()));
        last = b;
    }
    if last < output.len() {
        out.push(Segment::Plain(output[last..].to_string()));
    }
    out
}

/// What stands around the kept span at `segs[i + 1]` when `segs[i]` is
/// plain: the plain text before it cut at its last word (`head`, `word`, the
/// blanks between the word and the span left out) and the plain text after
/// the span (empty at the end). `None` when no blank parts that word from the
/// span, or when another kept span follows straight: the rules that put a
/// word an engine moved before a span back after it work on these.
pub(super) fn word_before_span(segs: &[Segment], i: usize) -> Option<(&str, &str, String)> {
    let Segment::Plain(before) = segs.get(i)? else { return None };
    let after = match segs.get(i + 2) {
        Some(Segment::Plain(a)) => a.clone(),
        Some(Segment::Name(_)) => return None,
        None => String::new(),
    };
    let cut = before.trim_end_matches(' ');
    if cut.len() == before.len() {
        return None;
    }
    let head = &cut[..cut.rfind(' ').map_or(0, |p| p + 1)];
    Some((head, &cut[head.len()..], after))
}

/// The segments' texts one after another.
pub(super) fn concat(segs: Vec<Segment>) -> String {
    segs.into_iter()
        .map(|s| match s {
            Segment::Plain(t) | Segment::Name(t) => t,
        })
        .collect()
}

/// Whose output a text is: Apertium's steady slips ("partorisca", "d'en",
/// "del.") are mended on its output only, never on a neural engine's, which
/// does not make them and may mean what they look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slips {
    Apertium,
    None,
}
