//! Statement families, each run by `impl Session` methods over the
//! session's state, and the helpers they share.
mod accounts;
mod admin;
mod alter;
mod alter_columns;
mod alter_options;
mod analyze;
mod auto_timestamp;
mod check_constraints;
mod create_as_select;
mod ddl;
mod delimited_text;
mod dml;
mod dml_subqueries;
mod foreign_key_defs;
mod foreign_keys;
mod lenient;
mod load_data;
pub(crate) mod locking_read;
pub(crate) mod multi_table;
pub(crate) mod prepared;
mod query;
mod returning;
mod row_counts;
mod row_writer;
mod select_export;
mod server_files;
mod set_statement;
mod show;
mod show_filter;
mod signal;
mod table_locks;
mod transaction;
mod variables;
pub(crate) mod view_dml;
mod view_text;
pub(crate) mod views;

use crate::error::Result;
use crate::expr::{Compiler, Params, ScopeColumn};
use crate::result::{Column, ColumnKind, Outcome, RowSink};
use crate::session::Session;
use lineardb_table::Value;
use sqlparser::ast;

pub(crate) fn text_col(name: &str) -> Column {
    Column::expr(name, ColumnKind::TEXT)
}

impl Session {
    pub(crate) fn rows(
        &self,
        sink: &mut dyn RowSink,
        columns: &[&str],
        rows: Vec<Vec<Value>>,
    ) -> Result<Outcome> {
        // A column of integers is sent as one (SHOW WARNINGS' Code, SHOW
        // INDEX's Seq_in_index…), as MariaDB sends it; others as text.
        let cols: Vec<Column> = columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut values = rows
                    .iter()
                    .filter_map(|r| r.get(i))
                    .filter(|v| !v.is_null());
                let first = values.next();
                match first {
                    Some(Value::Int(_)) if values.all(|v| matches!(v, Value::Int(_))) => {
                        Column::expr(c, crate::result::ColumnKind::Int)
                    }
                    Some(Value::UInt(_)) if values.all(|v| matches!(v, Value::UInt(_))) => {
                        Column::expr(c, crate::result::ColumnKind::UInt)
                    }
                    _ => text_col(c),
                }
            })
            .collect();
        sink.columns(&cols)?;
        for r in rows {
            sink.row(&r)?;
        }
        Ok(Outcome::Rows)
    }

    /// Runs `f` with an expression compiler over `scope` that sees this
    /// session's facts and variables (no aggregates).
    pub(crate) fn with_compiler<T>(
        &self,
        scope: &[ScopeColumn],
        params: &Params,
        f: impl FnOnce(&mut Compiler<'_>) -> Result<T>,
    ) -> Result<T> {
        let vars = |n: &str| self.system_variable(n);
        f(&mut Compiler {
            scope,
            params,
            facts: &self.facts,
            aggs: None,
            windows: None,
            variable: &vars,
            planner: None,
            base: params.count(),
        })
    }

    pub(crate) fn compile_constant(
        &self,
        e: &ast::Expr,
        params: &Params,
    ) -> Result<crate::expr::Expr> {
        self.with_compiler(&[], params, |c| c.compile(e))
    }
}
