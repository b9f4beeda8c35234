//! The view's text as the phone patterns read it (P5):
//! number words become their digit (`nueve tres cuatro 501 012` reads
//! `9 3 4 501 012`), seven or more of them in a row a number of their own
//! (`seis cinco cinco catro catro tres tres cero un` reads `655443301`),
//! and a letter that looks like a digit, among digits, that digit
//! (`6OO 112 248`, `6l2 34S 678`, `9З4`: `data/pii/look-alikes.tsv`).
//! Each piece remembers the view's bytes it stands for, so that a number
//! found here removes exactly those bytes of the view, and through the view
//! of the original.
//!
//! Not for addresses (their forms are in the address pattern) nor for the
//! look-alike digits of other scripts (the view folds those for both).

use super::words::{LONGEST_NUMBER, letter_digit, number_word};
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
        let (mut replaced, mut beside_letter, mut at) = (Vec::new(), false, 0);
        while let Some(start) = next_digit(b, at) {
            let end = b[start..].iter().position(|c| !c.is_ascii_digit()).map_or(b.len(), |k| start + k);
            beside_letter |= view[end..].chars().next().is_some_and(|c| letter_digit(c).is_some())
                || view[..start].chars().next_back().is_some_and(|c| letter_digit(c).is_some());
            words_beside(view, start, end, &mut replaced);
            at = end;
        }
        // A number wholly in words: its words and the gaps after them read
        // as its digits in a row. Before the words beside digits, which
        // give way where they overlap.
        let mut pieces = words_in_a_row(view);
        replaced.sort_unstable();
        replaced.dedup();
        if beside_letter {
            replaced.extend(letter_digits(view));
        }
        if replaced.is_empty() && pieces.is_empty() {
            return Folded { text: Cow::Borrowed(view), pieces: Vec::new() };
        }
        pieces.extend(replaced);
        pieces.sort_unstable_by_key(|p| (p.0, usize::MAX - p.1));
        let mut text = String::with_capacity(view.len());
        let mut kept = Vec::with_capacity(pieces.len());
        let mut done = 0;
        for (from, to, digit) in pieces {
            if from < done {
                continue;
            }
            text.push_str(&view[done..from]);
            kept.push((text.len(), from, to));
            text.push(char::from(digit));
            done = to;
        }
        text.push_str(&view[done..]);
        Folded { text: Cow::Owned(text), pieces: kept }
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
    let digit_of = number_word;
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

/// The letters of `view` read as digits, each as `(from, to, digit)`: a
/// look-alike letter (`O`, `l`, `S`, `З`, `data/pii/look-alikes.tsv`) in a
/// run of digits and such letters that holds a digit (`6OO`, `92O7`,
/// `439Oh`, `6l2`), but not the end of a word glued before the digits
/// (`teléfono934…`, `Hotel912…`), and before the first digit only a zero's. Only numbers are read in this view:
/// `H2O` read as `H20` finds none.
fn letter_digits(view: &str) -> Vec<(usize, usize, u8)> {
    let mut out = Vec::new();
    let in_run = |c: char| c.is_ascii_digit() || letter_digit(c).is_some();
    let chars: Vec<(usize, char)> = view.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        if !in_run(chars[k].1) {
            k += 1;
            continue;
        }
        let start = k;
        while k < chars.len() && in_run(chars[k].1) {
            k += 1;
        }
        let Some(first_digit) = (start..k).find(|&j| chars[j].1.is_ascii_digit()) else { continue };
        // Letters before the first digit only when the run stands apart
        // from a word before it.
        // Only a zero's look-alike before the first digit (`OO34 …`): a
        // word glued to a number is a label (`S655443301`, `l912…`).
        let apart_before = apart(start.checked_sub(1).map(|j| chars[j].1));
        let from = if apart_before { start } else { first_digit };
        for (j, &(at, c)) in chars.iter().enumerate().take(k).skip(from) {
            if let Some(d) = letter_digit(c).filter(|&d| j > first_digit || d == b'0') {
                out.push((at, at + c.len_utf8(), d));
            }
        }
    }
    out
}

/// Seven or more number words in a row (parted by at most eight
/// characters that are neither letters nor digits): a number written
/// wholly in words. Each word as `(from, to, digit)`, `to` reaching over
/// the gap after it but the last, so that the folded text reads the
/// digits in a row. One walk over the words of the view, each looked up
/// only when it is no longer than the longest number word.
fn words_in_a_row(view: &str) -> Vec<(usize, usize, u8)> {
    const AT_LEAST: usize = 7;
    let mut out = Vec::new();
    let mut run: Vec<(usize, usize, u8)> = Vec::new();
    let mut last_end = 0;
    let flush = |run: &mut Vec<(usize, usize, u8)>, out: &mut Vec<(usize, usize, u8)>| {
        if run.len() >= AT_LEAST {
            let n = run.len();
            for k in 0..n {
                let to = if k + 1 < n { run[k + 1].0 } else { run[k].1 };
                out.push((run[k].0, to, run[k].2));
            }
        }
        run.clear();
    };
    let mut words = view.char_indices().peekable();
    while let Some((from, c)) = words.next() {
        if !c.is_alphanumeric() {
            continue;
        }
        let mut to = from + c.len_utf8();
        while let Some(&(at, c)) = words.peek() {
            if !c.is_alphanumeric() {
                break;
            }
            to = at + c.len_utf8();
            words.next();
        }
        let gap_ok = run.is_empty() || (from - last_end <= 8 && view[last_end..from].chars().count() <= 8);
        let digit = if to - from <= *LONGEST_NUMBER { number_word(&view[from..to]) } else { None };
        match digit {
            Some(d) if gap_ok => run.push((from, to, d)),
            Some(d) => {
                flush(&mut run, &mut out);
                run.push((from, to, d));
            }
            None => flush(&mut run, &mut out),
        }
        last_end = to;
    }
    flush(&mut run, &mut out);
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
        assert!(matches!(Folded::of("nueve tres cuatro cinco").text, Cow::Borrowed(_)), "four words are text");
        assert_eq!(Folded::of("al seis cinco cinco, catro catro tres, tres cero un hoy").text, "al 655443301 hoy");
        assert_eq!(Folded::of("6l2 34S 9З4 Hotel912 S1").text, "612 345 934 Hotel912 S1");
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
