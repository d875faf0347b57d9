//! UNION, EXCEPT and INTERSECT, rows compared by their values (NULLs
//! equal), duplicates removed unless ALL.
//!
//! Rows stream: UNION sends both sides through (holding, for DISTINCT,
//! the keys sent); EXCEPT and INTERSECT first count the right side's keys,
//! then send the left side's rows through as those counts decide. Past
//! the memory budget the keys held and the rows still to come are cut
//! into partitions by key (spill files); each partition is then decided
//! alone, cut again while it is still too big.
use super::memory::over_budget;
use super::spill::file::SpillReader;
use super::spill::partition::{Partitions, FANOUT};
use super::RunContext;
use crate::error::Result;
use crate::expr::row_key::{collations_of, row_key, KeyMap, KeySet};
use crate::planner::plan::{SetOpPlan, SetOperator};
use crate::result::{Column, RowSink};
use lineardb_table::{Collation, Value};

/// Times a partition is cut again before the operation gives up.
const MAX_CUTS: u64 = 4;

/// About what a held key costs besides its bytes (hash table slot, vector).
const KEY_OVERHEAD: usize = 48;

/// A spilled key that was already sent (rather than counted on the right).
const SENT: i64 = -1;

impl SetOpPlan {
    pub(crate) fn run(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        sink.columns(&self.columns)?;
        if self.op == SetOperator::Union && self.all {
            // UNION ALL holds nothing.
            let mut through = Through { sink };
            self.left.run(params, cx, &mut through)?;
            return self.right.run(params, cx, &mut through);
        }
        let mut state = Decider::new(self.op, self.all, cx.memory, 0);
        // Rows are equal as their columns' collations say.
        let collations = collations_of(self.columns.iter().map(|c| c.kind));
        if self.op == SetOperator::Union {
            let mut sides = Candidates {
                state: &mut state,
                sink,
                collations: &collations,
            };
            self.left.run(params, cx, &mut sides)?;
            self.right.run(params, cx, &mut sides)?;
        } else {
            self.right.run(
                params,
                cx,
                &mut Counted {
                    state: &mut state,
                    collations: &collations,
                },
            )?;
            self.left.run(
                params,
                cx,
                &mut Candidates {
                    state: &mut state,
                    sink,
                    collations: &collations,
                },
            )?;
        }
        let spilled = state.finish(sink)?;
        if let Some(c) = cx.spilled_rows {
            c.add(spilled);
        }
        Ok(())
    }
}

/// UNION ALL's sink for both sides: rows go on to the union's sink (the
/// sides' own column lists do not).
struct Through<'a> {
    sink: &'a mut dyn RowSink,
}

impl RowSink for Through<'_> {
    fn columns(&mut self, _: &[Column]) -> Result<()> {
        Ok(())
    }

    fn row(&mut self, row: &[Value]) -> Result<()> {
        self.sink.row(row)
    }
}

/// The right side of EXCEPT / INTERSECT: its rows counted by key.
struct Counted<'a> {
    state: &'a mut Decider,
    collations: &'a [Collation],
}

impl RowSink for Counted<'_> {
    fn columns(&mut self, _: &[Column]) -> Result<()> {
        Ok(())
    }

    fn row(&mut self, row: &[Value]) -> Result<()> {
        self.state.count(row_key(row, self.collations), 1)
    }
}

/// Rows that are sent or not as the keys counted and sent decide: both
/// sides of UNION DISTINCT, the left side of EXCEPT / INTERSECT.
struct Candidates<'a> {
    state: &'a mut Decider,
    sink: &'a mut dyn RowSink,
    collations: &'a [Collation],
}

impl RowSink for Candidates<'_> {
    fn columns(&mut self, _: &[Column]) -> Result<()> {
        Ok(())
    }

    fn row(&mut self, row: &[Value]) -> Result<()> {
        self.state
            .candidate(row_key(row, self.collations), row, self.sink)
    }
}

/// What decides a set operation's rows: the right side's counts and the
/// keys sent so far, in memory; or, past the budget, partitions of them
/// and of the rows still to decide.
struct Decider {
    op: SetOperator,
    all: bool,
    memory: usize,
    /// Partitions cut with this salt (a partition cut again takes the next).
    salt: u64,
    held: Held,
}

enum Held {
    Memory {
        /// How many times each key of the right side occurs (what is left
        /// of it for ALL).
        counts: KeyMap<i64>,
        /// Keys sent (DISTINCT).
        sent: KeySet,
        bytes: usize,
    },
    Spilled {
        /// Keys with their count, or `SENT`.
        keys: Partitions,
        /// Rows still to decide.
        rows: Partitions,
    },
}

impl Decider {
    fn new(op: SetOperator, all: bool, memory: usize, salt: u64) -> Decider {
        Decider {
            op,
            all,
            memory,
            salt,
            held: Held::Memory {
                counts: KeyMap::default(),
                sent: KeySet::default(),
                bytes: 0,
            },
        }
    }

    /// `n` more rows of the right side with `key` (or `SENT`: the key was
    /// sent before the rows were cut into partitions).
    fn count(&mut self, key: Vec<u8>, n: i64) -> Result<()> {
        match &mut self.held {
            Held::Memory {
                counts,
                sent,
                bytes,
            } => {
                if n == SENT {
                    if sent.insert(key.clone()) {
                        *bytes += key.len() + KEY_OVERHEAD;
                    }
                } else if let Some(c) = counts.get_mut(&key) {
                    *c += n;
                } else {
                    *bytes += key.len() + KEY_OVERHEAD;
                    counts.insert(key, n);
                }
                if *bytes > self.memory {
                    self.spill()?;
                }
                Ok(())
            }
            Held::Spilled { keys, .. } => keys.write(&key, &[Value::Int(n)]),
        }
    }

    /// A row to send or not.
    fn candidate(&mut self, key: Vec<u8>, row: &[Value], sink: &mut dyn RowSink) -> Result<()> {
        let (op, all) = (self.op, self.all);
        match &mut self.held {
            Held::Memory {
                counts,
                sent,
                bytes,
            } => {
                // For ALL a match uses up one of the right side's rows.
                let passes = match (op, counts.get_mut(&key)) {
                    (SetOperator::Union, _) | (SetOperator::Except, None) => true,
                    (SetOperator::Except, Some(n)) => {
                        let spare = all && *n <= 0;
                        if all && *n > 0 {
                            *n -= 1;
                        }
                        spare
                    }
                    (SetOperator::Intersect, Some(n)) if *n > 0 => {
                        if all {
                            *n -= 1;
                        }
                        true
                    }
                    (SetOperator::Intersect, _) => false,
                };
                if !passes {
                    return Ok(());
                }
                if all {
                    return sink.row(row);
                }
                if sent.contains(&key) {
                    return Ok(());
                }
                *bytes += key.len() + KEY_OVERHEAD;
                if *bytes > self.memory {
                    // Decided later, with the keys sent so far.
                    self.spill()?;
                    return self.candidate(key, row, sink);
                }
                sent.insert(key);
                sink.row(row)
            }
            Held::Spilled { rows, .. } => rows.write(&key, row),
        }
    }

    /// Moves what is held in memory to partitions.
    fn spill(&mut self) -> Result<()> {
        let Held::Memory { counts, sent, .. } = &mut self.held else {
            return Ok(());
        };
        let mut keys = Partitions::new(self.salt);
        for (key, n) in counts.drain() {
            keys.write(&key, &[Value::Int(n)])?;
        }
        for key in sent.drain() {
            keys.write(&key, &[Value::Int(SENT)])?;
        }
        self.held = Held::Spilled {
            keys,
            rows: Partitions::new(self.salt),
        };
        Ok(())
    }

    /// Decides the rows still held in partitions, one partition at a time;
    /// the rows written to spill files.
    fn finish(self, sink: &mut dyn RowSink) -> Result<u64> {
        let Held::Spilled { keys, rows } = self.held else {
            return Ok(0);
        };
        if self.salt >= MAX_CUTS {
            return Err(over_budget(
                match self.op {
                    SetOperator::Union => "UNION",
                    SetOperator::Except => "EXCEPT",
                    SetOperator::Intersect => "INTERSECT",
                },
                self.memory,
            ));
        }
        let mut spilled = keys.rows() + rows.rows();
        let (keys, rows) = (keys.finish()?, rows.finish()?);
        debug_assert_eq!(keys.len(), FANOUT);
        for (keys, rows) in keys.into_iter().zip(rows) {
            let mut part = Decider::new(self.op, self.all, self.memory, self.salt + 1);
            if let Some(mut keys) = keys {
                while let Some((key, n)) = keys.next_keyed()? {
                    let n = match n.first() {
                        Some(Value::Int(n)) => *n,
                        _ => 0,
                    };
                    part.count(key, n)?;
                }
            }
            if let Some(rows) = rows {
                decide_rows(&mut part, rows, sink)?;
            }
            spilled += part.finish(sink)?;
        }
        Ok(spilled)
    }
}

/// Sends the rows of a partition through `part`.
fn decide_rows(part: &mut Decider, mut rows: SpillReader, sink: &mut dyn RowSink) -> Result<()> {
    while let Some((key, row)) = rows.next_keyed()? {
        part.candidate(key, &row, sink)?;
    }
    Ok(())
}
