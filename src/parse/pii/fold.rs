//! The view's text as the phone patterns read it (P5):
//! number words become their digit (`nueve tres cuatro 501 012` reads
//! `9 3 4 501 012`), and a letter O among digits a zero (`6OO 112 248`).
//! Each piece remembers the view's bytes it stands for, so that a number
//! found here removes exactly those bytes of the view, and through the view
//! of the original.
//!
//! Not for addresses (their forms are in the address pattern) nor for the
//! look-alike digits of other scripts (the view folds those for both).

use super::words::NUMBERS;
use std::borrow::Cow;

/// The folded text; `pieces` holds the replaced pieces (a word read as a
/// digit), in order: where each starts here, and the view's range it stands
/// for. Between them the text is the view's, shifted.
pub struct Folded<'a> {
    pub text: Cow<'a, str>,
    pieces: Vec<(usize, usize, usize)>,
}

/// Whether `c` may stand next to a word or a number without joining it.
fn apart(c: Option<char>) -> bool {
    !c.is_some_and(char::is_alphanumeric)
}

impl<'a> Folded<'a> {
    /// The folded `view`; borrowed when nothing in it is folded. Number
    /// words are looked for only beside digits, word after word (`nueve
    /// tres cuatro 501`: `cuatro` beside `501`, `tres` beside `cuatro`),
    /// and Os only beside a digit: a number partly in words keeps some of
    /// its digits, and most of a text is far from any. A number wholly in
    /// words is not read (seeking the words in every text cost the ingest a
    /// third more CPU).
    pub fn of(view: &'a str) -> Folded<'a> {
        let b = view.as_bytes();
        let o = |c: Option<&u8>| matches!(c, Some(b'O' | b'o'));
        let (mut replaced, mut beside_o, mut at) = (Vec::new(), false, 0);
        while let Some(start) = next_digit(b, at) {
            let end = b[start..].iter().position(|c| !c.is_ascii_digit()).map_or(b.len(), |k| start + k);
            beside_o |= o(b.get(end)) || (start > 0 && o(b.get(start - 1)));
            words_beside(view, start, end, &mut replaced);
            at = end;
        }
        replaced.sort_unstable();
        replaced.dedup();
        let zeros = if beside_o { letter_o_zeros(view) } else { Vec::new() };
        if replaced.is_empty() && zeros.is_empty() {
            return Folded { text: Cow::Borrowed(view), pieces: Vec::new() };
        }
        replaced.extend(zeros.into_iter().map(|at| (at, at + 1, b'0')));
        replaced.sort_unstable();
        let mut text = String::with_capacity(view.len());
        let mut pieces = Vec::with_capacity(replaced.len());
        let mut done = 0;
        for (from, to, digit) in replaced {
            text.push_str(&view[done..from]);
            pieces.push((text.len(), from, to));
            text.push(char::from(digit));
            done = to;
        }
        text.push_str(&view[done..]);
        Folded { text: Cow::Owned(text), pieces }
    }

    /// Whether this text's bytes `start..end` hold a number word.
    pub fn has_words(&self, start: usize, end: usize) -> bool {
        let k = self.pieces.partition_point(|p| p.0 < start);
        self.pieces[k..].iter().take_while(|p| p.0 < end).any(|&(_, from, to)| to - from > 1)
    }

    /// The view's byte range behind this text's bytes `start..end`.
    pub fn view_range(&self, start: usize, end: usize) -> (usize, usize) {
        // The last piece at or before `pos` (for an end, before it).
        let map = |pos: usize, is_end: bool| {
            let k = self.pieces.partition_point(|p| if is_end { p.0 < pos } else { p.0 <= pos });
            match k.checked_sub(1).map(|k| self.pieces[k]) {
                None => pos,
                Some((at, from, _)) if pos == at => from,
                Some((at, _, to)) => to + (pos - at - 1),
            }
        };
        (map(start, false), map(end, true))
    }
}

/// The first ASCII digit at or after `from`. Blocks of 32 bytes are tested
/// at once, in a form the compiler vectorises, and only the block holding
/// one is walked: the byte-by-byte walk it replaces read every byte of
/// every text and was the largest single loop of the scrubber (see
/// `word_initial_as` in `parse::pii` for the two together's gain).
fn next_digit(b: &[u8], mut from: usize) -> Option<usize> {
    while let Some(block) = b.get(from..from + 32) {
        // Branch-free on a fixed block, so that the compiler vectorises it.
        let block: &[u8; 32] = block.try_into().expect("32 bytes");
        if block.iter().fold(0u8, |any, c| any | u8::from(c.wrapping_sub(b'0') < 10)) != 0 {
            break;
        }
        from += 32;
    }
    b.get(from..)?.iter().position(u8::is_ascii_digit).map(|k| from + k)
}

/// The number words beside the digits at `start..end` of `view`, and
/// beside those words, on either side, each as `(from, to, digit)`: a word
/// is parted from its neighbour by at most eight characters that are
/// neither letters nor digits.
fn words_beside(view: &str, start: usize, end: usize, out: &mut Vec<(usize, usize, u8)>) {
    let gap = |c: char| !c.is_alphanumeric();
    let digit_of = |w: &str| NUMBERS.iter().find(|(n, _)| n.eq_ignore_ascii_case(w)).map(|(_, d)| *d);
    let mut pos = start;
    loop {
        let before = &view[..pos];
        let gap_len: usize = before.chars().rev().take_while(|&c| gap(c)).take(8).map(char::len_utf8).sum();
        let word_end = pos - gap_len;
        let word_len: usize = view[..word_end].chars().rev().take_while(|c| c.is_alphabetic()).map(char::len_utf8).sum();
        if gap_len == 0 || word_len == 0 || word_len > 8 {
            break;
        }
        let from = word_end - word_len;
        if view[..from].chars().next_back().is_some_and(char::is_alphanumeric) {
            break;
        }
        let Some(d) = digit_of(&view[from..word_end]) else { break };
        out.push((from, word_end, d));
        pos = from;
    }
    let mut pos = end;
    loop {
        let gap_len: usize = view[pos..].chars().take_while(|&c| gap(c)).take(8).map(char::len_utf8).sum();
        let word_start = pos + gap_len;
        let word_len: usize = view[word_start..].chars().take_while(|c| c.is_alphabetic()).map(char::len_utf8).sum();
        if gap_len == 0 || word_len == 0 || word_len > 8 {
            break;
        }
        let to = word_start + word_len;
        if view[to..].chars().next().is_some_and(char::is_alphanumeric) {
            break;
        }
        let Some(d) = digit_of(&view[word_start..to]) else { break };
        out.push((word_start, to, d));
        pos = to;
    }
}

/// The bytes of `view` that hold a letter O read as a zero: an `O` or `o` in
/// a run of digits and Os that holds a digit (`6OO`, `92O7`, `439Oh`), but
/// not the end of a word before the digits (`teléfono934…`). Only numbers
/// are read in this view: `H2O` read as `H20` finds none.
fn letter_o_zeros(view: &str) -> Vec<usize> {
    let b = view.as_bytes();
    let mut out = Vec::new();
    let mut seen = 0;
    for at in memchr::memchr2_iter(b'O', b'o', b) {
        if at < seen {
            continue;
        }
        let run = |c: &u8| c.is_ascii_digit() || matches!(c, b'O' | b'o');
        let start = b[..at].iter().rposition(|c| !run(c)).map_or(0, |k| k + 1);
        let end = b[at..].iter().position(|c| !run(c)).map_or(b.len(), |k| at + k);
        seen = end;
        let Some(first_digit) = b[start..end].iter().position(u8::is_ascii_digit).map(|k| start + k) else { continue };
        // Os before the first digit only when the run stands apart from a
        // word before it: `teléfono934…` keeps its `o`.
        let from = if apart(view[..start].chars().next_back()) { start } else { first_digit };
        out.extend((from..end).filter(|&k| matches!(b[k], b'O' | b'o')));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_letter_os_fold_and_map_back() {
        let view = "Llama al nueve tres 501 o al 6OO 112 248, Oporto 2 y solo3 o teléfono9 o Tlf92O7h";
        let f = Folded::of(view);
        assert_eq!(f.text, "Llama al 9 3 501 o al 600 112 248, Oporto 2 y solo3 o teléfono9 o Tlf9207h");
        let at = f.text.find("9 3 501").unwrap();
        let (from, to) = f.view_range(at, at + "9 3 501".len());
        assert_eq!(&view[from..to], "nueve tres 501");
        let at = f.text.find("600 112").unwrap();
        let (from, to) = f.view_range(at, at + 7);
        assert_eq!(&view[from..to], "6OO 112");
        assert!(matches!(Folded::of("Concierto a las 20:00").text, Cow::Borrowed(_)));
        assert_eq!(Folded::of("nuevebis dos 3").text, "nuevebis 2 3");
        assert!(matches!(Folded::of("nueve tres cuatro cinco").text, Cow::Borrowed(_)), "no digit, no fold");
    }

    #[test]
    fn the_block_test_finds_the_digit_the_plain_walk_finds() {
        let plain = |b: &[u8], from: usize| b.get(from..)?.iter().position(u8::is_ascii_digit).map(|k| from + k);
        for at in 0..80 {
            for tail in ["", "x", "é", "/:"] {
                for digit in ["", "0", "9", "٣"] {
                    let text = format!("{}{digit}{tail}{}", "a".repeat(at), "b".repeat(at % 37));
                    for from in 0..=text.len() + 1 {
                        assert_eq!(next_digit(text.as_bytes(), from), plain(text.as_bytes(), from), "{text:?} from {from}");
                    }
                }
            }
        }
    }
}
