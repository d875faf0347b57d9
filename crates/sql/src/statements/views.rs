//! CREATE [OR REPLACE] VIEW and DROP VIEW. A view is stored as the text of
//! its query with every table qualified by database (so that it reads the
//! same tables from any current database); it is planned as a derived
//! table wherever it is named, with its definer's rights on the tables it
//! reads.
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Params};
use crate::privileges::bits::{CREATE_VIEW, DROP};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::ViewDef;
use sqlparser::ast;
use std::ops::ControlFlow;

impl Session {
    pub(crate) fn create_view(&mut self, cv: &ast::CreateView) -> Result<Outcome> {
        if cv.materialized
            || cv.or_alter
            || cv.secure
            || cv.temporary
            || cv.to.is_some()
            || cv.comment.is_some()
            || !cv.cluster_by.is_empty()
            || !matches!(cv.options, ast::CreateTableOptions::None)
            || cv
                .columns
                .iter()
                .any(|c| c.data_type.is_some() || c.options.is_some())
        {
            return Err(SqlError::unsupported("this CREATE VIEW clause"));
        }
        if let Some(p) = &cv.params {
            if p.definer.is_some() || matches!(p.security, Some(ast::CreateViewSecurity::Invoker)) {
                return Err(SqlError::unsupported(
                    "CREATE VIEW with DEFINER or SQL SECURITY INVOKER",
                ));
            }
        }
        let (db, name) = self.qualified(&object_name(&cv.name))?;
        self.require_table(&db, &name, CREATE_VIEW)?;
        let mut query = (*cv.query).clone();
        qualify_tables(&mut query, &db);
        // Other sessions could not read a temporary table (MariaDB: 1352).
        let mut temporary = None;
        let _ = ast::visit_relations(&query, |n| {
            if let [ast::ObjectNamePart::Identifier(d), ast::ObjectNamePart::Identifier(t)] =
                n.0.as_slice()
            {
                if self.tables.is_temporary(&d.value, &t.value) {
                    temporary = Some(t.value.clone());
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        if let Some(t) = temporary {
            return Err(SqlError::new(
                1352,
                "HY000",
                format!("View's SELECT refers to a temporary table '{t}'"),
            ));
        }
        // Planned now: unknown tables and columns fail here, and the
        // creator must be able to read what the view reads.
        let plan = self.plan_select(&query, &Params::default())?;
        let mut names: Vec<String> = plan.columns().iter().map(|c| c.name.clone()).collect();
        if !cv.columns.is_empty() {
            if cv.columns.len() != names.len() {
                return Err(SqlError::new(
                    1353,
                    "HY000",
                    "View's SELECT and view's field list have different column counts",
                ));
            }
            names = cv.columns.iter().map(|c| c.name.value.clone()).collect();
        }
        for (i, n) in names.iter().enumerate() {
            if names[..i].iter().any(|m| m.eq_ignore_ascii_case(n)) {
                return Err(SqlError::new(
                    1060,
                    "42S21",
                    format!("Duplicate column name '{n}'"),
                ));
            }
        }
        let definer = format!("`{}`@`{}`", self.slot.user, self.slot.host);
        let def = ViewDef {
            database: db,
            name,
            query: query.to_string(),
            columns: cv.columns.iter().map(|c| c.name.value.clone()).collect(),
            definer,
        };
        if cv.if_not_exists && self.engine.view(&def.database, &def.name)?.is_some() {
            let note = SqlError::new(
                1050,
                "42S01",
                format!("Table '{}' already exists", def.name),
            );
            self.warnings.push((note.code, note.message));
            return Ok(Outcome::done(0));
        }
        self.engine.create_view(def, cv.or_replace)?;
        Ok(Outcome::done(0))
    }

    /// DROP VIEW [IF EXISTS] names: each one there is dropped; a missing
    /// one is error 4092 once the others are dropped (a note with IF
    /// EXISTS).
    pub(crate) fn drop_views(
        &mut self,
        if_exists: bool,
        names: &[ast::ObjectName],
    ) -> Result<Outcome> {
        let mut missing = Vec::new();
        for n in names {
            let (db, name) = self.qualified(&object_name(n))?;
            self.require_table(&db, &name, DROP)?;
            if !self.engine.drop_view(&db, &name)? {
                missing.push(format!("{db}.{name}"));
            }
        }
        if missing.is_empty() {
            return Ok(Outcome::done(0));
        }
        let e = SqlError::new(
            4092,
            "42S02",
            format!("Unknown VIEW: '{}'", missing.join(",")),
        );
        if if_exists {
            self.warnings.push((e.code, e.message));
            return Ok(Outcome::done(0));
        }
        Err(e)
    }
}

/// Qualifies the query's unqualified table names with `db` (names of its
/// common table expressions excepted).
fn qualify_tables(q: &mut ast::Query, db: &str) {
    let mut ctes: Vec<String> = Vec::new();
    collect_ctes(q, &mut ctes);
    let _ = ast::visit_relations_mut(q, |name| {
        if let [ast::ObjectNamePart::Identifier(id)] = name.0.as_slice() {
            if !ctes.iter().any(|c| c.eq_ignore_ascii_case(&id.value)) {
                name.0.insert(
                    0,
                    ast::ObjectNamePart::Identifier(ast::Ident::with_quote('`', db)),
                );
            }
        }
        ControlFlow::<()>::Continue(())
    });
}

fn collect_ctes(q: &ast::Query, out: &mut Vec<String>) {
    if let Some(w) = &q.with {
        for c in &w.cte_tables {
            out.push(c.alias.name.value.clone());
            collect_ctes(&c.query, out);
        }
    }
}
