//! What a running statement is doing and how far it has come, for SHOW
//! PROCESSLIST's State and Progress and information_schema.PROCESSLIST's
//! STATE, STAGE, MAX_STAGE and PROGRESS, as MariaDB reports them.
//!
//! A statement's state is set when it begins; only a long DDL moves
//! through stages (an ALTER TABLE that rewrites the rows: "copy to tmp
//! table", then "Enabling keys"). The row counts live in the session's own
//! slot and are written only by the statement that owns them (an ALTER's
//! index-building threads included), never on a read path.
use lineardb_sync::SharedWord;
use sqlparser::ast;

/// MariaDB's names for an ALTER TABLE's stages: rows copied into the new
/// table, then its keys built; or an index added in place.
pub(crate) const COPYING: &str = "copy to tmp table";
pub(crate) const ENABLING_KEYS: &str = "Enabling keys";
pub(crate) const ALTERING: &str = "altering table";

/// The state a statement shows while it runs, as MariaDB names it.
pub(crate) fn state_of(stmt: &ast::Statement) -> &'static str {
    use ast::Statement as S;
    match stmt {
        S::Query(_) => "Sending data",
        S::Insert(i) if i.source.as_ref().is_some_and(|q| !is_values(q)) => "Sending data",
        S::Insert(_) => "Update",
        S::Update(_) | S::Delete(_) => "Updating",
        S::AlterTable(_) | S::CreateIndex(_) => ALTERING,
        _ => "starting",
    }
}

fn is_values(q: &ast::Query) -> bool {
    matches!(q.body.as_ref(), ast::SetExpr::Values(_))
}

/// Rows done and rows to do in the current stage.
#[derive(Default)]
pub(crate) struct StageCounts {
    done: SharedWord,
    total: SharedWord,
}

impl StageCounts {
    pub(crate) fn start(&self, total: u64) {
        self.done.store(0);
        self.total.store(total);
    }

    /// Rows done so far; reports from several threads may arrive out of
    /// order, so the count only grows.
    pub(crate) fn advance(&self, done: u64) {
        if done > self.done.load() {
            self.done.fetch_max(done);
        }
    }

    pub(crate) fn done(&self) -> u64 {
        self.done.load()
    }

    /// Percent of the stage done, to three decimals; an estimate of the
    /// rows to do may fall short, so it stops at 100.
    pub(crate) fn percent(&self) -> f64 {
        let total = self.total.load();
        if total == 0 {
            return 0.0;
        }
        let p = (self.done.load() as f64 * 100.0 / total as f64).min(100.0);
        (p * 1000.0).round() / 1000.0
    }
}

/// The stage a statement is in: `stage` of `max_stage` (0 of 0 for a
/// statement without stages).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stage {
    pub stage: u8,
    pub max_stage: u8,
    /// Percent of this stage done.
    pub percent: f64,
}

impl Stage {
    /// Percent of the whole statement done (SHOW PROCESSLIST's Progress):
    /// the stages before this one count whole.
    pub fn overall_percent(&self) -> f64 {
        if self.max_stage == 0 || self.stage == 0 {
            return 0.0;
        }
        let p = ((f64::from(self.stage) - 1.0) * 100.0 + self.percent) / f64::from(self.max_stage);
        (p * 1000.0).round() / 1000.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_before_this_one_count_whole() {
        let halfway_copied = Stage {
            stage: 1,
            max_stage: 2,
            percent: 96.462,
        };
        assert_eq!(halfway_copied.overall_percent(), 48.231);
        let indexing = Stage {
            stage: 2,
            max_stage: 2,
            percent: 0.0,
        };
        assert_eq!(indexing.overall_percent(), 50.0);
        assert_eq!(Stage::default().overall_percent(), 0.0);
    }

    #[test]
    fn counts_only_grow_and_stop_at_the_whole() {
        let c = StageCounts::default();
        c.start(1000);
        c.advance(300);
        c.advance(200);
        assert_eq!(c.done(), 300);
        assert_eq!(c.percent(), 30.0);
        c.advance(1500);
        assert_eq!(c.percent(), 100.0);
        c.start(0);
        assert_eq!(c.percent(), 0.0);
    }
}
