//! Data changes: INSERT, REPLACE, UPDATE, DELETE.
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Env, Params};
use crate::privileges::bits::{DELETE, INSERT, SELECT, UPDATE};
use crate::result::{CollectSink, Outcome};
use crate::session::Session;
use crate::statements::dml_subqueries::{ast_conjuncts, has_subquery, recheck_selection};
use lineardb_sync::thread_slot::IndexOp;
use lineardb_table::{Table, Value};
use lineardb_txn::{ReadView, Txn};
use sqlparser::ast;
use std::sync::Arc;

use super::foreign_keys::Referential;
use super::row_counts::count_rows;
use super::row_writer::{RowWriter, DUPLICATE_ENTRY};

/// `DEFAULT` written as a value: the column's default.
fn is_default(e: &ast::Expr) -> bool {
    matches!(e, ast::Expr::Identifier(i) if i.quote_style.is_none() && i.value.eq_ignore_ascii_case("DEFAULT"))
}

/// Column `c`'s default as the expression an UPDATE's `SET c = DEFAULT`
/// stands for; 1364 for a NOT NULL column without one.
fn default_expression(c: &lineardb_table::ColumnDef) -> Result<ast::Expr> {
    use lineardb_table::ColumnDefault;
    let text = match &c.default {
        // A BIT's default is kept as its literal (`b'101'`).
        ColumnDefault::Literal(s) => match (c.data_type, c.literal_value(s)) {
            (lineardb_table::DataType::Bit(_), Value::UInt(n)) => n.to_string(),
            _ => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "''")),
        },
        ColumnDefault::CurrentTimestamp => format!("CURRENT_TIMESTAMP({})", c.fsp),
        ColumnDefault::Null => "NULL".into(),
        ColumnDefault::None if c.nullable || c.auto_increment => "NULL".into(),
        // Strict or not, as MariaDB's.
        ColumnDefault::None => {
            return Err(SqlError::new(
                1364,
                "HY000",
                format!("Field '{}' doesn't have a default value", c.name),
            ))
        }
    };
    Ok(crate::parser::dialect::parser(&text)?.parse_expr()?)
}

/// `INSERT … SET` as the INSERT of one VALUES row into the columns set.
fn set_as_values(ins: &ast::Insert) -> Result<ast::Insert> {
    let mut columns = Vec::with_capacity(ins.assignments.len());
    let mut row = Vec::with_capacity(ins.assignments.len());
    for a in &ins.assignments {
        let ast::AssignmentTarget::ColumnName(n) = &a.target else {
            return Err(SqlError::unsupported("INSERT … SET of a tuple"));
        };
        columns.push(n.clone());
        row.push(a.value.clone());
    }
    let values = ast::SetExpr::Values(ast::Values {
        explicit_row: false,
        value_keyword: false,
        rows: vec![ast::Parens::with_empty_span(row)],
    });
    let mut out = ins.clone();
    out.columns = columns;
    out.assignments = Vec::new();
    out.source = Some(Box::new(ast::Query {
        with: None,
        body: Box::new(values),
        order_by: None,
        limit_clause: None,
        fetch: None,
        locks: Vec::new(),
        for_clause: None,
        settings: None,
        format_clause: None,
        pipe_operators: Vec::new(),
    }));
    Ok(out)
}

impl Session {
    /// INSERT or REPLACE; with RETURNING, the rows written are left in
    /// `returned`.
    pub(crate) fn insert(
        &mut self,
        txn: &mut Txn,
        ins: &ast::Insert,
        params: &Params,
        args: &[Value],
        returned: &mut Option<CollectSink>,
    ) -> Result<Outcome> {
        let ast::TableObject::TableName(name) = &ins.table else {
            return Err(SqlError::unsupported("INSERT INTO a table function"));
        };
        if ins.source.is_none() && !ins.assignments.is_empty() {
            // `INSERT … SET a = 1, b = 2` is `INSERT … (a, b) VALUES (1, 2)`.
            return self.insert(txn, &set_as_values(ins)?, params, args, returned);
        }
        let t = self.table_columns(&object_name(name), INSERT, |t| {
            if ins.columns.is_empty() {
                t.def().columns.iter().map(|c| c.name.clone()).collect()
            } else {
                ins.columns
                    .iter()
                    .map(|c| object_name(c).join("."))
                    .collect()
            }
        })?;
        let positions: Vec<usize> = if ins.columns.is_empty() {
            (0..t.def().columns.len()).collect()
        } else {
            ins.columns
                .iter()
                .map(|c| {
                    let n = object_name(c).join(".");
                    t.def()
                        .column_index(&n)
                        .map_err(|_| SqlError::unknown_column(&n).in_clause("INSERT INTO"))
                })
                .collect::<Result<_>>()?
        };
        let Some(src) = &ins.source else {
            return Err(SqlError::unsupported("INSERT ... SET"));
        };
        let width = t.def().columns.len();
        let env = Env::new(args);
        // The rows to insert: VALUES evaluated one by one, or a SELECT's
        // rows read in full first (a SELECT from the same table must not
        // see the rows this statement adds).
        let rows: Vec<Vec<Option<Value>>> = match src.body.as_ref() {
            ast::SetExpr::Values(values) => {
                let mut rows = Vec::with_capacity(values.rows.len());
                for (n, row) in values.rows.iter().enumerate() {
                    let exprs = &row.content;
                    // `VALUES ()` without a column list: every column's default.
                    let defaults = exprs.is_empty() && ins.columns.is_empty();
                    if exprs.len() != positions.len() && !defaults {
                        return Err(column_count_mismatch(n as u64 + 1));
                    }
                    let mut given: Vec<Option<Value>> = vec![None; width];
                    for (e, &p) in exprs.iter().zip(&positions) {
                        if matches!(e, ast::Expr::Identifier(i) if i.value.eq_ignore_ascii_case("DEFAULT"))
                        {
                            continue;
                        }
                        let x = self
                            .compile_constant(e, params)?
                            .stored_in(&t.def().columns[p].data_type, self.facts.time_zone);
                        given[p] = Some(x.eval(&[][..], env)?);
                    }
                    rows.push(given);
                }
                rows
            }
            _ => {
                let selected = self.select_for_write(txn, src, params, args)?;
                let mut rows = Vec::with_capacity(selected.len());
                for (n, row) in selected.into_iter().enumerate() {
                    if row.len() != positions.len() {
                        return Err(column_count_mismatch(n as u64 + 1));
                    }
                    let mut given: Vec<Option<Value>> = vec![None; width];
                    for (v, &p) in row.into_iter().zip(&positions) {
                        given[p] = Some(v);
                    }
                    super::auto_timestamp::given_in_zone(t.def(), &mut given, self.facts.time_zone);
                    rows.push(given);
                }
                rows
            }
        };
        let row_count = rows.len();
        let replace = ins.replace_into;
        let on_duplicate = match &ins.on {
            None => None,
            Some(ast::OnInsert::DuplicateKeyUpdate(assignments)) => {
                let from_select = !matches!(src.body.as_ref(), ast::SetExpr::Values(_));
                Some(self.duplicate_key_update(&t, assignments, from_select, params)?)
            }
            Some(_) => return Err(SqlError::unsupported("INSERT ... ON CONFLICT")),
        };
        // IGNORE makes a value the column cannot hold a warning, as outside
        // strict mode.
        let strict = self.strict_mode() && !ins.ignore;
        // As in MariaDB, a NULL for a NOT NULL column fails a single-row
        // INSERT … VALUES outside strict mode (not with IGNORE).
        let single_row = row_count == 1 && matches!(src.body.as_ref(), ast::SetExpr::Values(_));
        let nulls = if single_row && !ins.ignore {
            super::lenient::NullIntoNotNull::Fails
        } else {
            super::lenient::NullIntoNotNull::Defaults
        };
        let returning = match &ins.returning {
            Some(items) => {
                self.table(&object_name(name), SELECT)?;
                Some(self.returning(&t, items, params)?)
            }
            None => None,
        };
        // The rows of a VALUES list are known before the first is written
        // (InnoDB reserves ids for them at once); an INSERT … SELECT's not.
        let known_rows = match src.body.as_ref() {
            ast::SetExpr::Values(_) => row_count as u64,
            _ => 0,
        };
        let mut writer: RowWriter = self.row_writer(&t, known_rows)?;
        writer.replace = replace;
        writer.ignore = ins.ignore;
        writer.strict = strict;
        writer.nulls = nulls;
        writer.on_duplicate = on_duplicate;
        writer.returning = returning;
        for given in rows {
            self.write_row(txn, &t, &mut writer, given, env)?;
        }
        *returned = writer.returning.take().map(|r| r.into_rows());
        let duplicates = writer.replaced + writer.skipped + writer.updated;
        let (affected, last_insert_id) = self.rows_written(&t, &writer);
        Ok(Outcome::Done {
            affected,
            last_insert_id,
            info: if row_count > 1 || !matches!(src.body.as_ref(), ast::SetExpr::Values(_)) {
                format!(
                    "Records: {}  Duplicates: {}  Warnings: {}",
                    row_count,
                    duplicates,
                    self.warnings.len() + self.pending_expression_warnings()
                )
            } else {
                String::new()
            },
        })
    }

    /// The assignments of ON DUPLICATE KEY UPDATE, compiled over the
    /// existing row's columns followed by the row the INSERT tried to add,
    /// which `VALUES(col)` reads.
    fn duplicate_key_update(
        &self,
        t: &Arc<Table>,
        assignments: &[ast::Assignment],
        from_select: bool,
        params: &Params,
    ) -> Result<Vec<(usize, crate::expr::Expr)>> {
        // Not a name a query can spell: found only through VALUES().
        const INSERTED: &str = "\u{1}inserted";
        let mut scope = crate::names::scope_of(t, &t.def().name);
        scope.extend(
            crate::names::scope_of(t, INSERTED)
                .into_iter()
                .map(|c| crate::expr::ScopeColumn { hidden: true, ..c }),
        );
        self.with_compiler(&scope, params, |c| {
            let mut sets = Vec::with_capacity(assignments.len());
            for a in assignments {
                let ast::AssignmentTarget::ColumnName(n) = &a.target else {
                    return Err(SqlError::unsupported("tuple assignment"));
                };
                let parts = object_name(n);
                let col = c.column(None, parts.last().map(String::as_str).unwrap_or(""))?;
                let mut value = a.value.clone();
                let _ = ast::visit_expressions_mut(&mut value, |e| {
                    if let Some(column) = values_call(e) {
                        *e = ast::Expr::CompoundIdentifier(vec![ast::Ident::new(INSERTED), column]);
                    }
                    std::ops::ControlFlow::<()>::Continue(())
                });
                let names_a_column = ast::visit_expressions(&value, |e| match e {
                    ast::Expr::Identifier(_) => std::ops::ControlFlow::Break(()),
                    ast::Expr::CompoundIdentifier(parts) if parts[0].value != INSERTED => {
                        std::ops::ControlFlow::Break(())
                    }
                    _ => std::ops::ControlFlow::Continue(()),
                })
                .is_break();
                if from_select && names_a_column {
                    // MariaDB resolves such names among the SELECT's tables
                    // too (or finds them ambiguous).
                    return Err(SqlError::unsupported(
                        "INSERT ... SELECT ... ON DUPLICATE KEY UPDATE reading columns other than through VALUES()",
                    ));
                }
                let x = c
                    .compile(&value)?
                    .stored_in(&t.def().columns[col].data_type, c.facts.time_zone);
                sets.push((col, x));
            }
            Ok(sets)
        })
    }

    /// When the WHERE clause fixes the whole primary key (`id = ?`, ANDed
    /// with anything), locks that key before the rows are searched: a row
    /// another transaction deleted, or is inserting, is then waited for
    /// rather than missed (the part of InnoDB's gap locking that point
    /// changes need: DELETE then INSERT of one id in two transactions).
    /// Returns that key: the only row the statement can change.
    fn lock_point_key(
        &self,
        txn: &mut Txn,
        table: &Arc<Table>,
        selection: Option<&ast::Expr>,
        params: &Params,
        args: &[Value],
    ) -> Result<Option<Vec<u8>>> {
        let Some(sel) = selection else {
            return Ok(None);
        };
        if table.def().primary_key.is_empty() {
            return Ok(None);
        }
        let mut conjuncts = Vec::new();
        ast_conjuncts(sel, &mut conjuncts);
        let env = Env::new(args);
        let mut key: Vec<Option<Value>> = vec![None; table.def().primary_key.len()];
        for c in conjuncts {
            let ast::Expr::BinaryOp {
                left,
                op: ast::BinaryOperator::Eq,
                right,
            } = c
            else {
                continue;
            };
            for (col, val) in [(left, right), (right, left)] {
                let name = match col.as_ref() {
                    ast::Expr::Identifier(i) => &i.value,
                    ast::Expr::CompoundIdentifier(parts) => match parts.last() {
                        Some(i) => &i.value,
                        None => continue,
                    },
                    _ => continue,
                };
                let Some(slot) = table
                    .def()
                    .primary_key
                    .iter()
                    .position(|&p| table.def().columns[p].name.eq_ignore_ascii_case(name))
                else {
                    continue;
                };
                if let Ok(x) = self.compile_constant(val, params) {
                    if let Ok(v) = x.eval(&[][..], env) {
                        key[slot] = Some(v);
                    }
                }
            }
        }
        let Some(values) = key.into_iter().collect::<Option<Vec<Value>>>() else {
            return Ok(None);
        };
        let Ok(pk) = table.encode_primary_key(&values) else {
            return Ok(None);
        };
        table.lock_key(txn, &pk)?;
        Ok(Some(pk))
    }

    /// The WHERE clause compiled over the table's rows (to check a row
    /// again once it is locked: another transaction may have changed it
    /// between the search and the lock).
    pub(super) fn row_filter(
        &self,
        table: &Arc<Table>,
        alias: Option<&str>,
        selection: Option<&ast::Expr>,
        params: &Params,
    ) -> Result<Option<crate::expr::Expr>> {
        let scope = crate::names::scope_of(table, alias.unwrap_or(&table.def().name));
        let recheck = match selection {
            Some(e) if has_subquery(e) => recheck_selection(e),
            other => other.cloned(),
        };
        recheck
            .map(|e| self.with_compiler(&scope, params, |c| c.compile(&e)))
            .transpose()
    }

    /// The most rows an UPDATE or DELETE may change: its LIMIT (a
    /// non-negative integer, or a parameter holding one), else no bound.
    fn row_limit(&self, limit: Option<&ast::Expr>, params: &Params, args: &[Value]) -> Result<u64> {
        let Some(e) = limit else {
            return Ok(u64::MAX);
        };
        let env = Env::new(args);
        let empty: &[Value] = &[];
        match self.compile_constant(e, params)?.eval(empty, env)? {
            Value::Int(i) if i >= 0 => Ok(i as u64),
            Value::UInt(u) => Ok(u),
            _ => Err(SqlError::syntax("LIMIT takes a non-negative integer")),
        }
    }

    /// sql_safe_updates, as MariaDB has it: error 1175 for a DELETE without
    /// a WHERE clause, and for an UPDATE or DELETE without LIMIT whose
    /// WHERE clause finds its rows by no key (a table read whole).
    fn check_safe_update(
        &mut self,
        (table, alias): (&Arc<Table>, Option<&str>),
        selection: Option<&ast::Expr>,
        limited: bool,
        delete: bool,
        params: &Params,
    ) -> Result<()> {
        if !self.safe_updates() {
            return Ok(());
        }
        let keyed = match selection {
            None => !delete && limited,
            Some(_) if limited => true,
            Some(_) if table.def().primary_key.is_empty() => false,
            Some(_) => {
                let q = key_query(table, alias, selection, &[])?;
                self.plan_select(&q, params)?.reads_by_key()
            }
        };
        if keyed {
            Ok(())
        } else {
            Err(unsafe_update())
        }
    }

    /// Whether sql_safe_updates is on.
    pub(super) fn safe_updates(&self) -> bool {
        self.variable("sql_safe_updates") == Some(Value::Int(1))
    }

    /// The rows an UPDATE or DELETE changes: their primary keys (found
    /// first, then changed, so a change never meets its own rows again)
    /// and the WHERE clause to check each against once it is locked
    /// ([`lock_matching`]).
    pub(super) fn targets(
        &mut self,
        txn: &mut Txn,
        (table, alias): (&Arc<Table>, Option<&str>),
        selection: Option<&ast::Expr>,
        order_by: &[ast::OrderByExpr],
        params: &Params,
        args: &[Value],
    ) -> Result<Targets> {
        // A WHERE clause fixing the primary key can match that row alone,
        // which `lock_matching` reads and checks: no search to plan.
        let found = (|| {
            let (keys, searched) = match self.lock_point_key(txn, table, selection, params, args)? {
                Some(pk) => (vec![pk], false),
                None => (
                    self.matching_keys(table, alias, selection, order_by, params, args)?,
                    true,
                ),
            };
            Ok(Targets {
                keys,
                filter: self.row_filter(table, alias, selection, params)?,
                searched,
            })
        })();
        found.map_err(|e: SqlError| e.in_clause("WHERE"))
    }

    /// Primary keys of the rows a WHERE clause selects, in the order of
    /// `order_by` (none: the order the search finds them in).
    pub(super) fn matching_keys(
        &mut self,
        table: &Arc<Table>,
        alias: Option<&str>,
        selection: Option<&ast::Expr>,
        order_by: &[ast::OrderByExpr],
        params: &Params,
        args: &[Value],
    ) -> Result<Vec<Vec<u8>>> {
        let keyed = !table.def().primary_key.is_empty();
        if !order_by.is_empty() && !keyed {
            return Err(SqlError::unsupported(
                "ORDER BY in UPDATE or DELETE of a table without a primary key",
            ));
        }
        if keyed && (selection.is_some() || !order_by.is_empty()) {
            // Let the planner find the rows (a key range, an index), as
            // for `SELECT <primary key> FROM t WHERE ...`.
            let q = key_query(table, alias, selection, order_by)?;
            let plan = self.plan_select(&q, params)?;
            self.note_plan(&plan);
            let mut sink = crate::result::CollectSink::default();
            // A current read: the latest rows, which the caller then locks.
            plan.run(args, &self.run_context(&ReadView::latest()), &mut sink)?;
            return sink
                .rows
                .iter()
                .map(|r| Ok(table.encode_primary_key(r)?))
                .collect();
        }
        if selection.is_some_and(has_subquery) {
            return Err(SqlError::unsupported(
                "a subquery in UPDATE or DELETE of a table without a primary key",
            ));
        }
        // Bound as a search's filter is: constants compared with columns
        // are converted (and warn) once.
        let filter = self
            .row_filter(table, alias, selection, params)?
            .map(|f| crate::execution::access::bind_to_table(&f, args, table));
        let env = Env::new(args);
        let mut keys = Vec::new();
        let mut err = None;
        self.report.no_index_used = true;
        table.scan_primary(
            &ReadView::latest(),
            &lineardb_table::KeyRange::all(),
            |pk, row| {
                match matches(filter.as_ref(), &row, env) {
                    Ok(true) => keys.push(pk.to_vec()),
                    Ok(false) => {}
                    Err(e) => {
                        err = Some(e);
                        return false;
                    }
                }
                true
            },
        )?;
        match err {
            Some(e) => Err(e),
            None => Ok(keys),
        }
    }

    pub(crate) fn update(
        &mut self,
        txn: &mut Txn,
        u: &ast::Update,
        params: &Params,
        args: &[Value],
    ) -> Result<Outcome> {
        if u.table.joins.is_empty() && u.from.is_some() {
            return Err(SqlError::internal(
                "a multi-table UPDATE taken as one table's",
            ));
        }
        if u.returning.is_some() || u.output.is_some() {
            return Err(SqlError::unsupported("UPDATE ... RETURNING"));
        }
        // UPDATE IGNORE: a row the statement cannot write is skipped with
        // a warning, values are adjusted as outside strict mode.
        let ignore = match u.or {
            None => false,
            Some(ast::SqliteOnConflict::Ignore) => true,
            Some(_) => return Err(SqlError::unsupported("UPDATE OR …")),
        };
        let ast::TableFactor::Table { name, alias, .. } = &u.table.relation else {
            return Err(SqlError::unsupported("UPDATE of a derived table"));
        };
        if u.assignments.iter().any(|a| is_default(&a.value)) {
            // Privileges are checked as the statement with the defaults
            // written out runs.
            let target = self.qualified(&object_name(name))?;
            let t = self.tables.get(&self.engine, target)?;
            let mut with_defaults = u.clone();
            for a in &mut with_defaults.assignments {
                if let (true, ast::AssignmentTarget::ColumnName(n)) =
                    (is_default(&a.value), &a.target)
                {
                    let column = object_name(n).last().cloned().unwrap_or_default();
                    let c = t
                        .def()
                        .column_index(&column)
                        .map_err(|_| SqlError::unknown_column(&column).in_clause("SET"))?;
                    a.value = default_expression(&t.def().columns[c])?;
                }
            }
            return self.update(txn, &with_defaults, params, args);
        }
        let t = self.table_columns(&object_name(name), UPDATE, |_| {
            u.assignments
                .iter()
                .filter_map(|a| match &a.target {
                    ast::AssignmentTarget::ColumnName(n) => object_name(n).last().cloned(),
                    _ => None,
                })
                .collect()
        })?;
        let scope = crate::names::scope_of(
            &t,
            alias
                .as_ref()
                .map_or(t.def().name.as_str(), |a| a.name.value.as_str()),
        );
        let (columns, values) = self
            .with_compiler(&scope, params, |c| {
                let mut columns = Vec::new();
                let mut values = Vec::new();
                for a in &u.assignments {
                    let ast::AssignmentTarget::ColumnName(n) = &a.target else {
                        return Err(SqlError::unsupported("tuple assignment"));
                    };
                    let parts = object_name(n);
                    columns.push(c.column(None, parts.last().map(String::as_str).unwrap_or(""))?);
                    values.push(&a.value);
                }
                Ok((columns, values))
            })
            .map_err(|e| e.in_clause("SET"))?;
        // New values that read subqueries are all computed before the
        // first row is written.
        let computed_first = values.iter().any(|e| has_subquery(e));
        let exprs = if computed_first {
            let alias = alias.as_ref().map(|a| a.name.value.clone());
            self.compile_with_planner(&t, alias.as_deref(), &values, u.selection.as_ref(), params)?
        } else {
            self.with_compiler(&scope, params, |c| {
                values
                    .iter()
                    .map(|e| c.compile(e))
                    .collect::<Result<Vec<_>>>()
            })
            .map_err(|e| e.in_clause("SET"))?
        };
        let sets: Vec<(usize, crate::expr::Expr)> = columns
            .into_iter()
            .zip(exprs)
            .map(|(col, x)| {
                let t = &t.def().columns[col].data_type;
                (col, x.stored_in(t, self.facts.time_zone))
            })
            .collect();
        let limit = self.row_limit(u.limit.as_ref(), params, args)?;
        let alias = alias.as_ref().map(|a| a.name.value.as_str());
        self.check_safe_update(
            (&t, alias),
            u.selection.as_ref(),
            u.limit.is_some(),
            false,
            params,
        )?;
        // A division by zero in the WHERE clause warns (MariaDB fails on
        // one of a column's value, warns on a constant one).
        let where_warns = crate::expr::warnings::division_by_zero_fails(false);
        let targets = self.targets(
            txn,
            (&t, alias),
            u.selection.as_ref(),
            &u.order_by,
            params,
            args,
        )?;
        drop(where_warns);
        let fk = self.referential(&[&t])?;
        let strict = self.strict_mode() && !ignore;
        // Warnings of the values adjusted outside strict mode.
        let mut warnings = Vec::new();
        let view = ReadView::latest();
        let cache = crate::execution::subqueries::SubqueryCache::default();
        let cx = crate::execution::RunContext {
            subqueries: Some(&cache),
            ..self.run_context(&view)
        };
        let env = cx.env(args);
        let mut changed = 0;
        let mut matched = 0;
        let mut unmatched = 0;
        let mut pending = Vec::new();
        for pk in &targets.keys {
            if matched >= limit {
                break;
            }
            // The new values are computed from the row as it is once no
            // other transaction can change it: no lost update.
            let rechecked = {
                let _where_warns = crate::expr::warnings::division_by_zero_fails(false);
                targets.lock_matching(txn, &t, pk, env)?
            };
            let Some(old) = rechecked else {
                continue;
            };
            matched += 1;
            let mut new: Vec<Option<Value>> = vec![None; old.len()];
            for (col, e) in &sets {
                new[*col] = Some(e.eval(&old[..], env)?);
            }
            if computed_first {
                pending.push((pk, old, new, matched));
            } else {
                match write_update_or_skip(
                    (&fk, &t, txn, &sets),
                    pk,
                    &old,
                    new,
                    matched,
                    (&mut warnings, !strict),
                    ignore,
                )? {
                    Written::Changed => changed += 1,
                    Written::Same => {}
                    // Nor counted for the LIMIT, as in MariaDB.
                    Written::Unmatched => matched -= 1,
                }
            }
        }
        for (pk, old, new, row) in pending {
            match write_update_or_skip(
                (&fk, &t, txn, &sets),
                pk,
                &old,
                new,
                row,
                (&mut warnings, !strict),
                ignore,
            )? {
                Written::Changed => changed += 1,
                Written::Same => {}
                Written::Unmatched => unmatched += 1,
            }
        }
        // Rows passed over for a CHECK are not counted matched.
        let matched = matched - unmatched;
        count_rows(&t, IndexOp::Update, changed);
        self.warnings.extend(warnings);
        let warned = self.warnings.len() + self.pending_expression_warnings();
        Ok(updated(matched, changed, warned, self.found_rows))
    }

    /// A single-table DELETE; with RETURNING, the rows removed are left in
    /// `returned`.
    pub(crate) fn delete(
        &mut self,
        txn: &mut Txn,
        d: &ast::Delete,
        params: &Params,
        args: &[Value],
        returned: &mut Option<CollectSink>,
    ) -> Result<Outcome> {
        let from = match &d.from {
            ast::FromTable::WithFromKeyword(t) | ast::FromTable::WithoutKeyword(t) => t,
        };
        let [twj] = from.as_slice() else {
            return Err(SqlError::internal(
                "a single-table DELETE without its table",
            ));
        };
        if d.output.is_some() {
            return Err(SqlError::unsupported("DELETE ... OUTPUT"));
        }
        let ast::TableFactor::Table { name, .. } = &twj.relation else {
            return Err(SqlError::unsupported("DELETE from a derived table"));
        };
        let t = self.table(&object_name(name), DELETE)?;
        let limit = self.row_limit(d.limit.as_ref(), params, args)?;
        self.check_safe_update(
            (&t, None),
            d.selection.as_ref(),
            d.limit.is_some(),
            true,
            params,
        )?;
        let targets = self.targets(
            txn,
            (&t, None),
            d.selection.as_ref(),
            &d.order_by,
            params,
            args,
        )?;
        let mut returning = match &d.returning {
            Some(items) => {
                self.table(&object_name(name), SELECT)?;
                Some(self.returning(&t, items, params)?)
            }
            None => None,
        };
        let fk = self.referential(&[])?;
        let env = Env::new(args);
        let mut n = 0;
        for pk in &targets.keys {
            if n >= limit {
                break;
            }
            if let Some(old) = targets.lock_matching(txn, &t, pk, env)? {
                if let Some(r) = &mut returning {
                    r.add(&old, env)?;
                }
                fk.delete_row(txn, &t, pk, &old)?;
                n += 1;
            }
        }
        *returned = returning.map(|r| r.into_rows());
        count_rows(&t, IndexOp::Delete, n);
        Ok(Outcome::done(n))
    }
}

/// The rows an UPDATE, DELETE or locking read found, and its WHERE clause.
pub(super) struct Targets {
    pub(super) keys: Vec<Vec<u8>>,
    pub(super) filter: Option<crate::expr::Expr>,
    /// Whether a search evaluated `filter` to find `keys` (a primary key
    /// the WHERE clause fixes is found without it).
    pub(super) searched: bool,
}

impl Targets {
    /// Locks row `pk` and reads it; `None` if it is gone or no longer
    /// matches the WHERE clause (the search may have seen another
    /// transaction's change that was then rolled back).
    pub(super) fn lock_matching(
        &self,
        txn: &mut Txn,
        table: &Table,
        pk: &[u8],
        env: Env<'_>,
    ) -> Result<Option<Vec<Value>>> {
        let Some(row) = table.lock_row(txn, pk)? else {
            return Ok(None);
        };
        self.still_matching(row, env)
    }

    /// `row` (just locked and read) if it still matches the WHERE clause.
    pub(super) fn still_matching(
        &self,
        row: Vec<Value>,
        env: Env<'_>,
    ) -> Result<Option<Vec<Value>>> {
        // Where the search ran the filter for this row already, its
        // warnings (divisions by zero) are reported once.
        let matched = if self.searched {
            crate::expr::warnings::unraised(|| matches(self.filter.as_ref(), &row[..], env))?
        } else {
            matches(self.filter.as_ref(), &row[..], env)?
        };
        Ok(matched.then_some(row))
    }
}

/// [`write_update`]; with `ignore` (UPDATE IGNORE) a row refused for a
/// duplicate key, a CHECK, a view's CHECK OPTION or a foreign key is left
/// as it was (the CHECKs' errors warnings), as MariaDB's.
fn write_update_or_skip(
    (fk, t, txn, sets): (
        &Referential,
        &Table,
        &mut Txn,
        &[(usize, crate::expr::Expr)],
    ),
    pk: &[u8],
    old: &[Value],
    new: Vec<Option<Value>>,
    row: u64,
    warnings: (&mut Vec<(u16, String)>, bool),
    ignore: bool,
) -> Result<Written> {
    if !ignore {
        let changed = write_update(fk, t, txn, sets, pk, old, new, row, warnings)?;
        return Ok(if changed {
            Written::Changed
        } else {
            Written::Same
        });
    }
    let (warnings, lenient) = warnings;
    let savepoint = txn.savepoint();
    match write_update(
        fk,
        t,
        txn,
        sets,
        pk,
        old,
        new,
        row,
        (&mut *warnings, lenient),
    ) {
        Err(e) => {
            let check = skipped_row(e, warnings)?;
            txn.rollback_to(savepoint)?;
            Ok(if check {
                Written::Unmatched
            } else {
                Written::Same
            })
        }
        Ok(true) => Ok(Written::Changed),
        Ok(false) => Ok(Written::Same),
    }
}

/// What became of a row an UPDATE matched.
#[derive(PartialEq)]
enum Written {
    Changed,
    /// Unchanged: its values were the same, or a key refused them.
    Same,
    /// Passed over for a CHECK: MariaDB then does not count it matched.
    Unmatched,
}

/// Whether UPDATE IGNORE passes over a row its error `e` refused: a
/// duplicate key, a CHECK, a view's CHECK OPTION or a foreign key (the
/// CHECKs' errors become warnings, as MariaDB's; `Ok(true)` for them);
/// `Err(e)` for others.
pub(super) fn skipped_row(e: SqlError, warnings: &mut Vec<(u16, String)>) -> Result<bool> {
    match e.code {
        4025 | 1369 => {
            warnings.push((e.code, e.message));
            Ok(true)
        }
        DUPLICATE_ENTRY | 1451 | 1452 => Ok(false),
        _ => Err(e),
    }
}

/// Writes the new values of the statement's `row`th row (1-based); whether
/// any differs from the old.
#[allow(clippy::too_many_arguments)]
fn write_update(
    fk: &Referential,
    t: &Table,
    txn: &mut Txn,
    sets: &[(usize, crate::expr::Expr)],
    pk: &[u8],
    old: &[Value],
    mut new: Vec<Option<Value>>,
    row: u64,
    warnings: (&mut Vec<(u16, String)>, bool),
) -> Result<bool> {
    fit_update(
        t.def(),
        sets.iter().map(|(c, _)| *c),
        &mut new,
        row,
        warnings,
    )?;
    let differs = sets.iter().any(|(c, _)| new[*c].as_ref() != Some(&old[*c]));
    super::auto_timestamp::touch(t.def(), old, &mut new);
    fk.update_row(txn, t, pk, old, new)?;
    Ok(differs)
}

/// An UPDATE's new values (`new`, set in the order `sets`) as row `row`'s
/// columns hold them: outside strict mode (`lenient`) adjusted with
/// MariaDB's warnings, in strict mode failing, named as MariaDB names it;
/// in either, decimals rounded with note 1265.
pub(super) fn fit_update(
    def: &lineardb_table::TableDef,
    sets: impl IntoIterator<Item = usize> + Clone,
    new: &mut [Option<Value>],
    row: u64,
    (warnings, lenient): (&mut Vec<(u16, String)>, bool),
) -> Result<()> {
    super::lenient::rounding_notes(def, new, sets.clone(), row, warnings);
    if lenient {
        let nulls = super::lenient::NullIntoNotNull::Defaults;
        return super::lenient::adjust_in_order(def, new, sets, row, nulls, warnings);
    }
    for (c, slot) in new.iter_mut().enumerate() {
        if let Some(v) = slot.take() {
            let coerced = def.columns[c].coerce(v);
            *slot = Some(coerced.map_err(|e| super::lenient::row_error(def, e, row))?);
        }
    }
    Ok(())
}

/// Does `row` satisfy the WHERE clause (none: every row does)?
fn matches<R: crate::expr::Row + ?Sized>(
    filter: Option<&crate::expr::Expr>,
    row: &R,
    env: Env<'_>,
) -> Result<bool> {
    Ok(match filter {
        Some(f) => crate::expr::truth_of(&f.eval(row, env)?) == Some(true),
        None => true,
    })
}

/// An UPDATE's outcome: rows changed (rows matched for a client that
/// asked for found rows), and MariaDB's info text.
pub(super) fn updated(matched: u64, changed: u64, warnings: usize, found_rows: bool) -> Outcome {
    Outcome::Done {
        affected: if found_rows { matched } else { changed },
        last_insert_id: 0,
        info: format!("Rows matched: {matched}  Changed: {changed}  Warnings: {warnings}"),
    }
}

/// Error 1136 for row `n` (from 1) of an INSERT.
fn column_count_mismatch(n: u64) -> SqlError {
    SqlError::new(
        1136,
        "21S01",
        format!("Column count doesn't match value count at row {n}"),
    )
}

impl Session {
    /// The rows of the SELECT of an INSERT ... SELECT, read in full through
    /// a snapshot that sees the transaction's own changes.
    fn select_for_write(
        &mut self,
        txn: &Txn,
        q: &ast::Query,
        params: &Params,
        args: &[Value],
    ) -> Result<Vec<Vec<Value>>> {
        let plan = self.plan_select(q, params)?;
        self.note_plan(&plan);
        let mut sink = crate::result::CollectSink::default();
        let own = txn.id_if_started();
        if self.view.is_some() && self.view_spans_transaction() {
            if let Some(v) = self.view.as_mut() {
                v.set_own(own);
            }
            plan.run(args, &self.run_context(self.view()), &mut sink)?;
        } else {
            let reader = self.engine.reader()?;
            let view = reader.view(own);
            plan.run(args, &self.run_context(&view), &mut sink)?;
        }
        Ok(sink.rows)
    }
}

/// The column of a `VALUES(col)` call.
fn values_call(e: &ast::Expr) -> Option<ast::Ident> {
    let ast::Expr::Function(f) = e else {
        return None;
    };
    // VALUE(col) is MariaDB's other spelling.
    let name = f.name.to_string();
    if !name.eq_ignore_ascii_case("VALUES") && !name.eq_ignore_ascii_case("VALUE") {
        return None;
    }
    let ast::FunctionArguments::List(list) = &f.args else {
        return None;
    };
    match list.args.as_slice() {
        [ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(ast::Expr::Identifier(i)))] => {
            Some(i.clone())
        }
        [ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(ast::Expr::CompoundIdentifier(
            parts,
        )))] => parts.last().cloned(),
        _ => None,
    }
}

/// 1175: an UPDATE or DELETE in safe update mode that could change every
/// row.
pub(super) fn unsafe_update() -> SqlError {
    SqlError::new(
        1175,
        "HY000",
        "You are using safe update mode and you tried to update a table without a WHERE \
         that uses a KEY column",
    )
}

/// `SELECT <primary key> FROM t WHERE <selection> ORDER BY <order_by>`:
/// the query that finds the rows an UPDATE or DELETE of `table` changes.
fn key_query(
    table: &Table,
    alias: Option<&str>,
    selection: Option<&ast::Expr>,
    order_by: &[ast::OrderByExpr],
) -> Result<ast::Query> {
    let quote = |s: &str| format!("`{}`", s.replace('`', "``"));
    let cols: Vec<String> = table
        .def()
        .primary_key
        .iter()
        .map(|&c| quote(&table.def().columns[c].name))
        .collect();
    let sql = format!(
        "SELECT {} FROM {}.{}{}",
        cols.join(", "),
        quote(&table.def().database),
        quote(&table.def().name),
        alias.map_or(String::new(), |a| format!(" AS {}", quote(a)))
    );
    let mut stmts = crate::parser::dialect::parse_sql(&sql)?;
    let Some(ast::Statement::Query(mut q)) = stmts.pop() else {
        return Err(SqlError::internal("key query did not parse"));
    };
    if let ast::SetExpr::Select(s) = q.body.as_mut() {
        s.selection = selection.cloned();
    }
    if !order_by.is_empty() {
        q.order_by = Some(ast::OrderBy {
            kind: ast::OrderByKind::Expressions(order_by.to_vec()),
            interpolate: None,
        });
    }
    Ok(*q)
}
