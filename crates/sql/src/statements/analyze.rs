//! `ANALYZE <statement>`: runs a statement and answers with its EXPLAIN,
//! each table's line with what its reads did — MariaDB's `r_rows` (rows
//! per read) and `r_filtered` (the share that passed the conditions
//! checked there), and with `FORMAT=JSON` the reads, rows and time per
//! table and the statement's time. A query's rows are not sent. A change
//! (UPDATE, DELETE, INSERT … SELECT) is counted by running the query that
//! finds its rows (the plan EXPLAIN shows, on the rows as the change will
//! find them), then the change itself.
use crate::error::Result;
use crate::execution::analyze::AnalyzeStats;
use crate::expr::Params;
use crate::planner::plan::QueryPlan;
use crate::result::{Column, Outcome, RowSink};
use crate::session::Session;
use lineardb_table::Value;
use sqlparser::ast;

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

/// How an ANALYZE answers and what it runs besides its plan.
pub(crate) struct Analyzed<'s> {
    /// FORMAT=JSON.
    pub json: bool,
    /// A one-table UPDATE or DELETE (its point reads shown as ranges).
    pub changes: bool,
    /// The change to run after the plan that finds its rows.
    pub change: Option<&'s ast::Statement>,
}

impl Session {
    /// Runs `plan` on one thread (reads are counted where they happen),
    /// then the change if there is one, then describes the plan with the
    /// counts, as rows or MariaDB's document.
    pub(crate) fn analyze(
        &mut self,
        plan: &QueryPlan,
        how: Analyzed<'_>,
        params: &Params,
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
        self.run_change(how.change, params)?;
        let total = start.elapsed();
        let mut described = crate::explain::describe(plan, &[]);
        if how.changes {
            crate::explain::as_change(&mut described);
        }
        crate::explain::add_reads(&mut described, &stats);
        if how.json {
            let document = crate::explain::json::analyzed_document(&described, total);
            return self.rows(sink, &["ANALYZE"], vec![vec![Value::str(&document)]]);
        }
        let rows = crate::explain::analyzed_rows(&described);
        self.rows(sink, &crate::explain::analyze_columns(), rows)
    }

    /// Runs an analyzed change for real (its result is not sent).
    pub(crate) fn run_change(
        &mut self,
        change: Option<&ast::Statement>,
        params: &Params,
    ) -> Result<()> {
        if let Some(statement) = change {
            self.run_statement(statement, params, &[], &mut Discard)?;
        }
        Ok(())
    }

    /// EXPLAIN (ANALYZE) of INSERT … VALUES: MariaDB's one line naming the
    /// table, or its document.
    pub(crate) fn insert_values_line(
        &mut self,
        table: &str,
        json: bool,
        analyze: bool,
        extended: bool,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        if json {
            let document = serde_json::to_string_pretty(&serde_json::json!({
                "query_block": { "select_id": 1, "table": { "table_name": table } }
            }))
            .unwrap_or_default();
            let name = if analyze { "ANALYZE" } else { "EXPLAIN" };
            return self.rows(sink, &[name], vec![vec![Value::str(&document)]]);
        }
        let mut row = vec![
            Value::Int(1),
            Value::str("INSERT"),
            Value::str(table),
            Value::str("ALL"),
        ];
        row.extend([
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
        ]);
        let percent = || crate::explain::percent(100.0);
        let mut columns: Vec<&str> = crate::explain::COLUMNS.to_vec();
        if analyze {
            columns = crate::explain::analyze_columns();
            row.extend([Value::Null, percent(), percent()]);
        } else if extended {
            columns.insert(9, "filtered");
            row.push(percent());
        }
        row.push(Value::Null);
        self.rows(sink, &columns, vec![row])
    }
}
