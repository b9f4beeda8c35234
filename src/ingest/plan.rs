//! One source's feed plan in a run, as pure state: which feed to ask next,
//! which the operator switched off (never asked, P16), which answered as
//! last time, and, for feeds fetched together (`FetchPlan::All`), whether
//! a second pass asks those again in full because another one changed
//! (no body is kept between runs: a raw feed may hold contact data, P5).
//!
//! Not for sending requests or reading the store (`driver`), paging
//! inside one feed (`pages`), or taking bodies in (`take_in`).

/// Where one source's feeds stand in a run.
pub(super) struct FeedPlan {
    /// Per feed of the manifest, whether the operator left it on (P16).
    feeds_on: Vec<bool>,
    /// The next feed of the first pass.
    next_feed: usize,
    /// Feeds fetched together that answered 304 or the same body (P12).
    unchanged: Vec<usize>,
    /// The second pass: the feeds still to ask again in full, to merge.
    again: Vec<usize>,
    /// Whether the second pass has begun.
    asking_again: bool,
    /// The feed of the fetch in flight.
    current: usize,
}

/// How a pass over feeds fetched together ended.
#[derive(Debug, PartialEq)]
pub(super) enum PassEnd {
    /// Every feed answered 304 or the same body: nothing to take in (P12).
    Unchanged,
    /// Some feeds changed, these others did not: ask them again in full.
    AskAgain,
    /// A feed asked again in full answered as unchanged (its index): the
    /// bodies cannot be merged.
    UnchangedAgain(usize),
    /// Every body is at hand: take them in.
    TakeIn,
}

impl FeedPlan {
    /// The plan of a source whose feeds are on or off as `feeds_on` says.
    pub(super) fn new(feeds_on: Vec<bool>) -> FeedPlan {
        let mut plan = FeedPlan { feeds_on, next_feed: 0, unchanged: Vec::new(), again: Vec::new(), asking_again: false, current: 0 };
        plan.skip_feeds_off();
        plan
    }

    /// Move `next_feed` past the feeds switched off, so they are never requested.
    fn skip_feeds_off(&mut self) {
        while self.feeds_on.get(self.next_feed) == Some(&false) {
            self.next_feed += 1;
        }
    }

    /// The feed to ask next, now the current one, and whether it may be
    /// asked with its validators (the second pass asks in full); `None`
    /// when every feed was asked.
    pub(super) fn next(&mut self) -> Option<(usize, bool)> {
        let (index, conditional) = if self.asking_again {
            (*self.again.first()?, false)
        } else if self.next_feed < self.feeds_on.len() {
            (self.next_feed, true)
        } else {
            return None;
        };
        self.current = index;
        Some((index, conditional))
    }

    /// The feed of the fetch in flight.
    pub(super) fn current(&self) -> usize {
        self.current
    }

    /// The current feed came back: move on; whether it was the last of its pass.
    pub(super) fn advance(&mut self) -> bool {
        if self.asking_again {
            let current = self.current;
            self.again.retain(|i| *i != current);
            self.again.is_empty()
        } else {
            self.next_feed += 1;
            self.skip_feeds_off();
            self.next_feed >= self.feeds_on.len()
        }
    }

    /// The current feed answered as last time.
    pub(super) fn unchanged(&mut self) {
        self.unchanged.push(self.current);
    }

    /// A pass over the feeds fetched together has ended: what comes of it.
    pub(super) fn pass_ended(&mut self) -> PassEnd {
        if self.unchanged.len() == self.feeds_on.iter().filter(|on| **on).count() {
            return PassEnd::Unchanged;
        }
        if self.unchanged.is_empty() {
            return PassEnd::TakeIn;
        }
        if self.asking_again {
            return PassEnd::UnchangedAgain(self.unchanged[0]);
        }
        self.asking_again = true;
        self.again = std::mem::take(&mut self.unchanged);
        PassEnd::AskAgain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ask every feed of the plan's pass, each answering as `changed` says.
    fn pass(plan: &mut FeedPlan, changed: impl Fn(usize) -> bool) -> Vec<(usize, bool)> {
        let mut asked = Vec::new();
        while let Some(next) = plan.next() {
            asked.push(next);
            if !changed(next.0) {
                plan.unchanged();
            }
            if plan.advance() {
                break;
            }
        }
        asked
    }

    #[test]
    fn a_feed_switched_off_is_never_asked_p16() {
        let mut plan = FeedPlan::new(vec![false, true, false, true]);
        assert_eq!(pass(&mut plan, |_| true), vec![(1, true), (3, true)]);
        assert_eq!(plan.next(), None);
        assert_eq!(plan.pass_ended(), PassEnd::TakeIn);
    }

    #[test]
    fn every_feed_as_last_time_leaves_the_source_unchanged_p12() {
        let mut plan = FeedPlan::new(vec![true, false, true]);
        pass(&mut plan, |_| false);
        assert_eq!(plan.pass_ended(), PassEnd::Unchanged);
    }

    #[test]
    fn feeds_unchanged_beside_a_changed_one_are_asked_again_in_full_p12() {
        let mut plan = FeedPlan::new(vec![true, true, true]);
        pass(&mut plan, |i| i == 1);
        assert_eq!(plan.pass_ended(), PassEnd::AskAgain);
        assert_eq!(pass(&mut plan, |_| true), vec![(0, false), (2, false)]);
        assert_eq!(plan.pass_ended(), PassEnd::TakeIn);
    }

    #[test]
    fn a_feed_asked_again_that_answers_unchanged_cannot_be_merged() {
        let mut plan = FeedPlan::new(vec![true, true, true]);
        pass(&mut plan, |i| i == 0);
        assert_eq!(plan.pass_ended(), PassEnd::AskAgain);
        pass(&mut plan, |i| i != 2);
        assert_eq!(plan.pass_ended(), PassEnd::UnchangedAgain(2));
    }
}
