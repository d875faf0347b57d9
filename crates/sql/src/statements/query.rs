//! SELECT: planned against the session's tables and variables, run with its
//! snapshot.
use crate::catalog::information_schema::{self, InfoContext, InfoTable};
use crate::error::{Result, SqlError};
use crate::execution::RunContext;
use crate::expr::Params;
use crate::names::{is_information_schema, qualify};
use crate::planner::plan::InformationSource;
use crate::planner::plan::QueryPlan;
use crate::planner::{Planner, Resolved};
use crate::privileges::bits::SELECT;
use crate::privileges::columns::columns_read;
use crate::result::{Outcome, RowSink};
use crate::session::{table_lock_allows, Session};
use crate::statements::view_text::canonical_view_text;
use lineardb_table::Value;
use lineardb_txn::ReadView;
use sqlparser::ast;
use std::borrow::Cow;

impl Session {
    /// Runs a SELECT, sending its rows to `sink`.
    #[inline]
    pub(crate) fn select(
        &mut self,
        q: &ast::Query,
        params: &Params,
        args: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        if let ast::SetExpr::Select(s) = q.body.as_ref() {
            if let Some(into) = &s.into {
                return self.select_into(q, into, params, args);
            }
        }
        if !q.locks.is_empty() {
            return self.locking_select(q, params, args, sink, None);
        }
        self.slot.counters.com_select.add(1);
        let plan = self.plan_select(q, params)?;
        self.note_plan(&plan);
        self.reading(|s| plan.run(args, &s.run_context(s.view()), sink))?;
        Ok(Outcome::Rows)
    }

    /// A client's query as it runs: one without a LIMIT of its own takes
    /// `sql_select_limit`'s (as MariaDB's; subqueries and the SELECT of an
    /// INSERT or CREATE TABLE are not clients' queries).
    pub(crate) fn with_select_limit<'q>(&self, q: &'q ast::Query) -> Cow<'q, ast::Query> {
        match self.select_limit {
            Some(n) if q.limit_clause.is_none() => {
                let mut limited = q.clone();
                limited.limit_clause = Some(ast::LimitClause::LimitOffset {
                    limit: Some(ast::Expr::value(ast::Value::Number(n.to_string(), false))),
                    offset: None,
                    limit_by: Vec::new(),
                });
                Cow::Owned(limited)
            }
            _ => Cow::Borrowed(q),
        }
    }

    /// SELECT ... INTO @a, @b: the one row's values into the variables
    /// (none: warning 1329 and the variables kept; several: 1172).
    fn select_into(
        &mut self,
        q: &ast::Query,
        into: &ast::SelectInto,
        params: &Params,
        args: &[Value],
    ) -> Result<Outcome> {
        let Some(variables) = crate::parser::select_into::variables(into) else {
            return Err(SqlError::unsupported("SELECT ... INTO"));
        };
        let mut bare = q.clone();
        if let ast::SetExpr::Select(s) = bare.body.as_mut() {
            s.into = None;
        }
        let mut sink = crate::result::CollectSink::default();
        self.select(&bare, params, args, &mut sink)?;
        if sink.columns.len() != variables.len() {
            return Err(SqlError::new(
                1222,
                "21000",
                "The used SELECT statements have a different number of columns",
            ));
        }
        if self
            .statement_text
            .as_deref()
            .is_some_and(crate::parser::select_into::is_trailing)
        {
            self.warnings.push((
                1287,
                "'<select expression> INTO <destination>;' is deprecated and will be \
                 removed in a future release. Please use 'SELECT <select list> INTO \
                 <destination> FROM...' instead"
                    .into(),
            ));
        }
        match sink.rows.len() {
            0 => {
                self.warnings.push((
                    1329,
                    "No data - zero rows fetched, selected, or processed".into(),
                ));
                Ok(Outcome::done(0))
            }
            1 => {
                let row = sink.rows.pop().expect("one row");
                self.facts
                    .user_variables
                    .extend(variables.into_iter().zip(row));
                // Plans kept by prepared statements read variables as
                // constants.
                self.facts_changed();
                Ok(Outcome::done(1))
            }
            _ => Err(SqlError::new(
                1172,
                "42000",
                "Result consisted of more than one row",
            )),
        }
    }

    pub(crate) fn plan_select(&mut self, q: &ast::Query, params: &Params) -> Result<QueryPlan> {
        self.with_planner(q, params, |p| p.plan_query(q))
    }

    /// Runs `f` with a planner over this session's tables and variables;
    /// `q` is the query whose columns column grants are checked against.
    pub(crate) fn with_planner<T>(
        &mut self,
        q: &ast::Query,
        params: &Params,
        f: impl FnOnce(&mut Planner<'_>) -> Result<T>,
    ) -> Result<T> {
        // Table resolution fills the session's cache while the planner
        // reads variables: the cache is moved out for the duration.
        let mut cache = std::mem::take(&mut self.tables);
        let engine = self.engine.clone();
        let db = self.facts.database.clone();
        let access = self.access();
        // A DEFINER view's definer is looked up unless it is the session's
        // own account.
        let (user, host) = (self.slot.user.as_str(), self.account_host());
        let (locked, table_locks, session) = (
            self.locked_tables.as_ref(),
            &self.registry.table_locks,
            self.slot.id,
        );
        let lock_wait = self.table_lock_wait();
        let mut resolve = |parts: &[String], checked: bool| {
            let (db, name) = qualify(db.as_deref(), parts)?;
            if is_information_schema(&db) {
                let table =
                    InfoTable::find(&name).ok_or_else(|| unknown_information_table(&name))?;
                let rows = self.information_rows(table)?;
                return Ok(Resolved::Information(InformationSource { table, rows }));
            }
            if cache.is_temporary(&db, &name) {
                // The session's own: no further checks, as in MariaDB.
                return cache.get(&engine, (db, name)).map(Resolved::Table);
            }
            table_lock_allows(locked, table_locks, session, (&db, &name), false, lock_wait)?;
            if let Some(view) = engine.view(&db, &name)? {
                if checked {
                    access.require_table(&db, &name, SELECT)?;
                }
                if !view.invoker
                    && view.definer != crate::statements::views::definer_text(user, host)
                {
                    crate::statements::views::require_definer(&engine, &view)?;
                }
                return Ok(Resolved::View(view));
            }
            if !checked {
                return cache.get(&engine, (db, name)).map(Resolved::Table);
            }
            if access.grants.on_table(&db, &name) & SELECT == 0
                && access.grants.has_column_grants(&db, &name, SELECT)
            {
                // Column grants: every column the query reads must be one.
                let table = cache.get(&engine, (db.clone(), name.clone()))?;
                let read = columns_read(q, &table);
                access.require_columns(&db, &name, SELECT, read.iter().map(String::as_str))?;
                return Ok(Resolved::Table(table));
            }
            access.require_table(&db, &name, SELECT)?;
            cache.get(&engine, (db, name)).map(Resolved::Table)
        };
        let may_read_system = |db: &str, name: &str| access.require_table(db, name, SELECT);
        let vars = |n: &str| self.system_variable(n);
        let mut planner = Planner::new(
            params,
            &self.facts,
            &vars,
            &mut resolve,
            &may_read_system,
            &engine,
            &self.registry,
        );
        planner.text = self.statement_text.clone();
        let out = f(&mut planner);
        let read_information_schema = planner.read_information_schema;
        drop(planner);
        self.tables = cache;
        self.planned_information_schema = read_information_schema;
        out
    }

    /// The rows of `information_schema` table `table` this session sees
    /// (queries and the SHOW statements made from them).
    pub(crate) fn information_rows(
        &self,
        table: InfoTable,
    ) -> Result<Vec<Vec<lineardb_table::Value>>> {
        let engine = self.engine.clone();
        table.rows(&InfoContext {
            engine: &engine,
            registry: &self.registry,
            grants: &self.grants,
            user: &self.slot.user,
            session: self.slot.id,
            view_definition: &|v: &lineardb_table::ViewDef| view_definition(&engine, v),
            view_columns: &|v: &lineardb_table::ViewDef| self.view_column_defs(v),
            variables: &|global| self.variable_rows(global),
            status: &|global| self.status_rows(global),
        })
    }

    /// The columns of view `v` as the table it reads as would have them
    /// (information_schema.COLUMNS' rows of a view); `None` when it cannot
    /// be planned now (a table it reads was dropped), as MariaDB then
    /// lists no columns for it. Planned with the definer's reach: tables
    /// are resolved without the session's privilege checks, since only the
    /// view's own columns, which the account sees, come out.
    fn view_column_defs(
        &self,
        v: &lineardb_table::ViewDef,
    ) -> Option<Vec<lineardb_table::ColumnDef>> {
        let sql = format!(
            "SELECT * FROM `{}`.`{}`",
            v.database.replace('`', "``"),
            v.name.replace('`', "``")
        );
        let Some(ast::Statement::Query(q)) = crate::parser::dialect::parse_sql(&sql).ok()?.pop()
        else {
            return None;
        };
        let engine = self.engine.clone();
        let mut cache = crate::session::TableCache::default();
        let db = self.facts.database.clone();
        let mut resolve = |parts: &[String], _checked: bool| {
            let (db, name) = qualify(db.as_deref(), parts)?;
            if is_information_schema(&db) {
                // information_schema's rows are not made again inside
                // themselves.
                return Err(SqlError::unsupported(
                    "a view of information_schema in COLUMNS",
                ));
            }
            if let Some(view) = engine.view(&db, &name)? {
                return Ok(Resolved::View(view));
            }
            cache.get(&engine, (db, name)).map(Resolved::Table)
        };
        let may_read_system = |_: &str, _: &str| Ok(());
        let vars = |n: &str| self.system_variable(n);
        let params = Params::default();
        let mut planner = Planner::new(
            &params,
            &self.facts,
            &vars,
            &mut resolve,
            &may_read_system,
            &engine,
            &self.registry,
        );
        let plan = planner.plan_query(&q).ok()?;
        Some(plan.columns().iter().map(view_column).collect())
    }

    /// How plans run in this session, reading through `view`.
    pub(crate) fn run_context<'a>(&'a self, view: &'a ReadView) -> RunContext<'a> {
        RunContext {
            stop: &self.slot.kill_query,
            view,
            threads: self.parallel_threads,
            min_rows: self.parallel_min_rows,
            parallel_scans: Some(&self.slot.counters.parallel_scans),
            spilled_rows: Some(&self.slot.counters.spilled_rows),
            memory: self.query_memory,
            subqueries: None,
            rows_kept: false,
            analyze: None,
        }
    }
}

/// A view's column as information_schema.COLUMNS shows it: a table's
/// column with that column's default; a NOT NULL number computed, or an
/// AUTO_INCREMENT column, with the type's zero, as MariaDB gives them.
fn view_column(c: &crate::result::Column) -> lineardb_table::ColumnDef {
    use lineardb_table::{ColumnDefault, DataType};
    let mut def = crate::statements::create_as_select::derived_column(c);
    def.default = match (&c.data_type, &c.default) {
        // An AUTO_INCREMENT column's default is its type's zero there.
        (Some(_), _) if c.attributes.auto_increment => ColumnDefault::Literal("0".into()),
        (Some(_), d) => d.clone().unwrap_or(ColumnDefault::None),
        (None, _)
            if !def.nullable
                && (def.data_type.is_integer()
                    || matches!(def.data_type, DataType::Decimal { .. } | DataType::Double)) =>
        {
            ColumnDefault::Literal("0".into())
        }
        (None, _) => ColumnDefault::None,
    };
    if c.data_type.is_none() && def.data_type == DataType::Double {
        def.display_width = Some(c.length);
    }
    def
}

/// 1109: `name` is no table of information_schema.
fn unknown_information_table(name: &str) -> SqlError {
    SqlError::new(
        1109,
        "42S02",
        format!("Unknown table '{name}' in {}", information_schema::SCHEMA),
    )
}

/// A view's VIEW_DEFINITION (its canonical text, every table with its
/// database; the stored text where that cannot be written) and whether
/// rows could be changed through it.
fn view_definition(engine: &lineardb_table::Engine, v: &lineardb_table::ViewDef) -> (String, bool) {
    let query = crate::parser::view_query(v).ok();
    let text = query
        .as_ref()
        .and_then(|q| canonical_view_text(engine, &v.database, q, &v.names, true));
    let updatable = query.is_some_and(|q| crate::statements::views::updatable(&q, &v.algorithm));
    (text.unwrap_or_else(|| v.query.clone()), updatable)
}
