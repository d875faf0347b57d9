//! RAND(seed): MariaDB's repeatable sequence (`my_rnd`), so that a seeded
//! query gives MariaDB's numbers.
//!
//! A seed that does not depend on the row (a literal, a parameter) starts
//! one sequence per call site and statement, advanced at each call; a
//! seed read from the row starts a new sequence at each call and gives its
//! first number. A statement's sequences live on the thread that runs it
//! and are dropped when the next statement starts.
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

const MAX_VALUE: u64 = 0x3FFF_FFFF;

/// The generator's two words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RandSequence {
    seed1: u64,
    seed2: u64,
}

impl RandSequence {
    /// The sequence of seed `seed`, read as MariaDB reads it: the integer
    /// cut to 32 bits, mixed into the two words.
    pub(crate) fn seeded(seed: i64) -> RandSequence {
        let t = seed as u32;
        RandSequence {
            seed1: u64::from(t.wrapping_mul(0x10001).wrapping_add(55_555_555)) % MAX_VALUE,
            seed2: u64::from(t.wrapping_mul(0x1000_0001)) % MAX_VALUE,
        }
    }

    pub(crate) fn next_value(&mut self) -> f64 {
        self.seed1 = (self.seed1 * 3 + self.seed2) % MAX_VALUE;
        self.seed2 = (self.seed1 + self.seed2 + 33) % MAX_VALUE;
        self.seed1 as f64 / MAX_VALUE as f64
    }
}

thread_local! {
    /// The running statement's sequences, by call site.
    static SEQUENCES: RefCell<HashMap<u64, RandSequence>> = RefCell::new(HashMap::new());
    /// The last call site numbered on this thread: a statement is compiled
    /// on one thread, so its sites differ.
    static LAST_SITE: Cell<u64> = const { Cell::new(0) };
}

/// A new call site of RAND with a constant seed.
pub(crate) fn new_site() -> u64 {
    LAST_SITE.with(|s| {
        s.set(s.get() + 1);
        s.get()
    })
}

/// The next number of call site `site`'s sequence, started from `seed()`
/// at its first call in the statement.
pub(crate) fn next_at_site(site: u64, seed: impl FnOnce() -> i64) -> f64 {
    SEQUENCES.with(|s| {
        s.borrow_mut()
            .entry(site)
            .or_insert_with(|| RandSequence::seeded(seed()))
            .next_value()
    })
}

/// Drops the last statement's sequences (a statement starts).
pub(crate) fn start_statement() {
    SEQUENCES.with(|s| {
        let mut s = s.borrow_mut();
        if !s.is_empty() {
            s.clear();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MariaDB 10.11's values.
    #[test]
    fn sequences_are_mariadbs() {
        let mut one = RandSequence::seeded(1);
        assert_eq!(one.next_value(), 0.40540353712197724);
        assert_eq!(one.next_value(), 0.8716141803857071);
        assert_eq!(one.next_value(), 0.1418603212962489);
        assert_eq!(RandSequence::seeded(0).next_value(), 0.15522042769493574);
        assert_eq!(RandSequence::seeded(-1).next_value(), 0.9050373219931845);
    }

    #[test]
    fn a_site_keeps_its_sequence_until_the_statement_ends() {
        start_statement();
        let (a, b) = (new_site(), new_site());
        assert_ne!(a, b);
        assert_eq!(next_at_site(a, || 1), 0.40540353712197724);
        assert_eq!(next_at_site(b, || 1), 0.40540353712197724);
        assert_eq!(next_at_site(a, || 1), 0.8716141803857071);
        start_statement();
        assert_eq!(next_at_site(a, || 1), 0.40540353712197724);
    }
}
