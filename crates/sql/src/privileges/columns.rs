//! The columns of a table a query reads, for column grants: every name in
//! the query that is one of the table's columns, or all of them when the
//! query selects `*`. A name that is also an alias counts as read (the
//! check errs on the side of refusing).
use lineardb_table::Table;
use sqlparser::ast::{self, Visit, Visitor};
use std::ops::ControlFlow;

struct Names {
    names: Vec<String>,
    wildcard: bool,
}

impl Visitor for Names {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &ast::Expr) -> ControlFlow<()> {
        match e {
            ast::Expr::Identifier(i) => self.names.push(i.value.clone()),
            ast::Expr::CompoundIdentifier(parts) => {
                if let Some(last) = parts.last() {
                    self.names.push(last.value.clone());
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_query(&mut self, q: &ast::Query) -> ControlFlow<()> {
        if let ast::SetExpr::Select(s) = q.body.as_ref() {
            self.wildcard |= s.projection.iter().any(|p| {
                matches!(
                    p,
                    ast::SelectItem::Wildcard(_) | ast::SelectItem::QualifiedWildcard(..)
                )
            });
        }
        ControlFlow::Continue(())
    }
}

/// The columns of `table` that `q` reads.
pub(crate) fn columns_read(q: &ast::Query, table: &Table) -> Vec<String> {
    let mut v = Names {
        names: Vec::new(),
        wildcard: false,
    };
    let _ = q.visit(&mut v);
    table
        .def()
        .columns
        .iter()
        .filter(|c| v.wildcard || v.names.iter().any(|n| n.eq_ignore_ascii_case(&c.name)))
        .map(|c| c.name.clone())
        .collect()
}
