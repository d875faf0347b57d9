//! A common table expression where FROM names it: planned as a derived
//! table, a recursive CTE (planner::recursive), or, inside its own
//! recursive part, its work table.
use super::from::Item;
use super::recursive::{column_count_mismatch, restrictions_violated};
use super::{CteBody, Planner};
use crate::error::{Result, SqlError};
use crate::expr::ScopeColumn;
use crate::planner::plan::Source;

impl Planner<'_> {
    /// The CTE at `at` in scope, named `alias` here. Its query sees the
    /// CTEs before it, not itself (unless recursive: then as its work
    /// table) nor those after it.
    pub(super) fn cte_item(&mut self, at: usize, alias: String) -> Result<Item> {
        if matches!(self.ctes[at].body, CteBody::Working { .. }) {
            return self.work_table_item(at, alias);
        }
        let later = self.ctes.split_off(at + 1);
        let this = self.ctes.pop().expect("the CTE at `at`");
        let item = match &this.body {
            CteBody::Query {
                query,
                recursive: false,
            } => self.derived(query, alias, &this.columns).map_err(|e| {
                if e.code == 1353 {
                    column_count_mismatch()
                } else {
                    e
                }
            }),
            CteBody::Query {
                query,
                recursive: true,
            } => self.recursive_cte(&this.name, &this.columns, query, alias),
            CteBody::Working { .. } => unreachable!("handled above"),
        };
        self.ctes.push(this);
        self.ctes.extend(later);
        item
    }

    /// A recursive CTE named in its recursive part: its work table.
    fn work_table_item(&mut self, at: usize, alias: String) -> Result<Item> {
        if !self.outer.is_empty() {
            // In a subquery of the recursive part.
            return Err(restrictions_violated(&self.ctes[at].name));
        }
        match &mut self.ctes[at].body {
            CteBody::Working {
                rows,
                scope,
                references,
            } => {
                *references += 1;
                let rows = rows.clone();
                let scope = scope
                    .iter()
                    .map(|(name, kind)| ScopeColumn {
                        stored_timestamp: false,
                        name: name.clone(),
                        table: alias.clone(),
                        kind: *kind,
                        hidden: false,
                        numbered: None,
                        json: false,
                        origin: None,
                    })
                    .collect();
                Ok(Item {
                    source: Source::WorkTable(rows),
                    scope,
                    hints: Vec::new(),
                })
            }
            CteBody::Query { .. } => Err(SqlError::internal("not a work table")),
        }
    }
}
