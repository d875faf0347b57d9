//! The AUTO_INCREMENT values one statement hands out.
//!
//! As InnoDB's "consecutive" mode (`innodb_autoinc_lock_mode=1`, MariaDB
//! 10.11's default) hands them out, so that the ids rows get, and the
//! counter a statement leaves, are MariaDB's: a row that needs a value
//! where none is left reserves one for it and for each row after it that
//! the statement is known to have (a multi-row VALUES); where that is not
//! known (INSERT … SELECT) one, then twice as many as the time before.
//! A row that took a value and was not written (a duplicate key that ON
//! DUPLICATE KEY UPDATE or IGNORE turned away) gives it back to the next
//! row; what is reserved and not used stays used.
use lineardb_sync::SharedWord;

/// The most one reservation takes (MariaDB's `AUTO_INC_DEFAULT_NB_MAX`).
const MOST_RESERVED: u64 = 65_535;

/// One statement's reserved interval of AUTO_INCREMENT values.
#[derive(Debug, Clone, Default)]
pub struct AutoIncrementIds {
    /// The next value to hand out, and the end of the reserved interval.
    next: u64,
    end: u64,
    /// Intervals reserved so far.
    intervals: u32,
    /// The rows the statement has still to write, where known (0: not
    /// known, or none).
    rows_left: u64,
}

impl AutoIncrementIds {
    /// For a statement inserting `rows` rows (0 when that is not known in
    /// advance, as for INSERT … SELECT).
    pub fn for_rows(rows: u64) -> AutoIncrementIds {
        AutoIncrementIds {
            rows_left: rows,
            ..AutoIncrementIds::default()
        }
    }

    /// The next value, reserving an interval of `counter` (the table's
    /// next value) where none is left.
    pub(crate) fn take(&mut self, counter: &SharedWord) -> u64 {
        if self.next >= self.end {
            let wanted = match self.rows_left {
                0 => 1u64.checked_shl(self.intervals).unwrap_or(u64::MAX),
                left => left,
            }
            .min(MOST_RESERVED);
            self.next = counter.fetch_add(wanted);
            self.end = self.next.saturating_add(wanted);
            self.intervals += 1;
        }
        self.rows_left = self.rows_left.saturating_sub(1);
        let id = self.next;
        self.next += 1;
        id
    }

    /// A row was given `value` explicitly: the next row goes on after it
    /// when it lies inside this statement's interval or beyond.
    pub(crate) fn given(&mut self, value: u64) {
        self.rows_left = self.rows_left.saturating_sub(1);
        if self.intervals > 0 && value >= self.next {
            self.next = value.saturating_add(1);
        }
    }

    /// The row that took `id` was not written: the next row takes `id`.
    pub fn give_back(&mut self, id: u64) {
        if id.checked_add(1) == Some(self.next) {
            self.next = id;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_row_count_is_reserved_at_once_and_given_back_ids_reused() {
        let counter = SharedWord::new(8);
        let mut ids = AutoIncrementIds::for_rows(3);
        let a = ids.take(&counter);
        assert_eq!((a, counter.load()), (8, 11));
        ids.give_back(a);
        let b = ids.take(&counter);
        ids.give_back(b);
        assert_eq!(ids.take(&counter), 8);
        // The statement ends: 9 and 10 stay used.
        assert_eq!(AutoIncrementIds::for_rows(1).take(&counter), 11);
    }

    #[test]
    fn an_unknown_row_count_reserves_one_then_doubles() {
        let counter = SharedWord::new(16);
        let mut ids = AutoIncrementIds::for_rows(0);
        let taken: Vec<u64> = (0..4).map(|_| ids.take(&counter)).collect();
        assert_eq!(taken, [16, 17, 18, 19]);
        // Intervals of 1, 2 and 4: up to 23.
        assert_eq!(counter.load(), 23);
    }

    #[test]
    fn an_explicit_value_moves_the_next_one_past_it() {
        let counter = SharedWord::new(5);
        let mut ids = AutoIncrementIds::for_rows(5);
        assert_eq!(ids.take(&counter), 5);
        ids.given(6);
        assert_eq!(ids.take(&counter), 7);
        // Past the interval: the one row left reserves one value.
        ids.given(200);
        counter.fetch_max(201);
        assert_eq!(ids.take(&counter), 201);
        assert_eq!(counter.load(), 202);
    }
}
