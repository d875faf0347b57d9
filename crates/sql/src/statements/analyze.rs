//! `ANALYZE <statement>`: runs a query (its rows are not sent) and answers
//! with its EXPLAIN, each table's line with what its reads did — MariaDB's
//! `r_rows` (rows per read) and `r_filtered` (the share that passed the
//! conditions checked there), and with `FORMAT=JSON` the reads, rows and
//! time per table and the query's time.
use crate::error::Result;
use crate::execution::analyze::AnalyzeStats;
use crate::planner::plan::QueryPlan;
use crate::result::{Column, Outcome, RowSink};
use crate::session::Session;
use lineardb_table::Value;

/// Takes a result's rows and sends none.
struct Discard;

impl RowSink for Discard {
    fn columns(&mut self, _: &[Column]) -> Result<()> {
        Ok(())
    }
    fn row(&mut self, _: &[Value]) -> Result<()> {
        Ok(())
    }
}

impl Session {
    /// Runs `plan` on one thread (reads are counted where they happen),
    /// then describes it with the counts, as rows or (`json`) MariaDB's
    /// document.
    pub(crate) fn analyze(
        &mut self,
        plan: &QueryPlan,
        json: bool,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let stats = AnalyzeStats::default();
        let start = std::time::Instant::now();
        self.reading(|s| {
            let cx = crate::execution::RunContext {
                threads: 1,
                analyze: Some(&stats),
                ..s.run_context(s.view())
            };
            plan.run(&[], &cx, &mut Discard)
        })?;
        let total = start.elapsed();
        let mut described = crate::explain::describe(plan, &[]);
        crate::explain::add_reads(&mut described, &stats);
        if json {
            let document = crate::explain::json::analyzed_document(&described, total);
            return self.rows(sink, &["ANALYZE"], vec![vec![Value::str(&document)]]);
        }
        let rows = crate::explain::analyzed_rows(&described);
        self.rows(sink, &crate::explain::ANALYZE_COLUMNS, rows)
    }
}
