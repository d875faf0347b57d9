//! A client session: current database, variables, warnings, prepared
//! statements and a cache of table handles. Nothing here is shared with
//! other sessions; the engine's catalog version is read (never written)
//! to know when cached handles are stale.
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Compiler, Env, Params, ScopeColumn, SessionFacts};
use crate::result::{CollectSink, Column, ColumnKind, Outcome, RowSink};
use crate::select::{Planner, SelectPlan};
use lineardb_table::{ColumnDef, DataType, Engine, Table, TableSpec, Value};
use sqlparser::ast;
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;
use std::collections::HashMap;
use std::sync::Arc;

/// A prepared statement.
pub struct Prepared {
    statement: ast::Statement,
    params: Params,
    /// Compiled SELECT, if it is one (re-planned when the catalog changes).
    plan: Option<(SelectPlan, u64)>,
    pub columns: Vec<Column>,
}

impl Prepared {
    pub fn param_count(&self) -> usize {
        self.params.count()
    }
}

pub struct Session {
    engine: Arc<Engine>,
    facts: SessionFacts,
    variables: HashMap<String, Value>,
    warnings: Vec<(u16, String)>,
    tables: TableCache,
    autocommit: bool,
}

/// MySQL's conditional comments `/*! ... */` hold SQL MySQL runs: keep
/// their text, drop the markers (and a version number after `/*!`).
fn strip_conditional_comments(sql: &str) -> std::borrow::Cow<'_, str> {
    if !sql.contains("/*!") {
        return sql.into();
    }
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(i) = rest.find("/*!") {
        out.push_str(&rest[..i]);
        let body = &rest[i + 3..];
        let body = body.trim_start_matches(|c: char| c.is_ascii_digit());
        match body.find("*/") {
            Some(j) => {
                out.push(' ');
                out.push_str(&body[..j]);
                out.push(' ');
                rest = &body[j + 2..];
            }
            None => {
                out.push_str(body);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.into()
}

fn parse(sql: &str) -> Result<Vec<ast::Statement>> {
    let sql = strip_conditional_comments(sql);
    Ok(Parser::parse_sql(&MySqlDialect {}, &sql)?)
}

fn text_col(name: &str) -> Column {
    Column::expr(name, ColumnKind::Text)
}

fn data_type(t: &ast::DataType) -> Result<DataType> {
    use ast::DataType as D;
    let len = |l: &Option<ast::CharacterLength>| match l {
        Some(ast::CharacterLength::IntegerLength { length, .. }) => *length as u32,
        _ => 1,
    };
    Ok(match t {
        D::TinyInt(_) => DataType::TinyInt { unsigned: false },
        D::TinyIntUnsigned(_) => DataType::TinyInt { unsigned: true },
        D::SmallInt(_) => DataType::SmallInt { unsigned: false },
        D::SmallIntUnsigned(_) => DataType::SmallInt { unsigned: true },
        D::MediumInt(_) => DataType::MediumInt { unsigned: false },
        D::MediumIntUnsigned(_) => DataType::MediumInt { unsigned: true },
        D::Int(_) | D::Integer(_) => DataType::Int { unsigned: false },
        D::IntUnsigned(_) | D::IntegerUnsigned(_) => DataType::Int { unsigned: true },
        D::BigInt(_) => DataType::BigInt { unsigned: false },
        D::BigIntUnsigned(_) => DataType::BigInt { unsigned: true },
        D::Decimal(info) | D::Numeric(info) | D::Dec(info) => {
            let (precision, scale) = match info {
                ast::ExactNumberInfo::None => (10, 0),
                ast::ExactNumberInfo::Precision(p) => (*p as u8, 0),
                ast::ExactNumberInfo::PrecisionAndScale(p, s) => (*p as u8, *s as u8),
            };
            DataType::Decimal { precision, scale }
        }
        D::Double(_) | D::DoublePrecision | D::Float(_) | D::Real => DataType::Double,
        D::Date => DataType::Date,
        D::Datetime(_) | D::Timestamp(..) => DataType::DateTime,
        D::Char(l) | D::Character(l) => DataType::Char(len(l)),
        D::Varchar(l) | D::CharacterVarying(l) => DataType::VarChar(len(l)),
        D::Text => DataType::VarChar(65535),
        other => return Err(SqlError::unsupported(format!("type {other}"))),
    })
}

fn ident_list(cols: &[ast::IndexColumn]) -> Result<Vec<String>> {
    cols.iter()
        .map(|c| match &c.column.expr {
            ast::Expr::Identifier(i) => Ok(i.value.clone()),
            other => Err(SqlError::unsupported(format!(
                "index on expression {other}"
            ))),
        })
        .collect()
}

/// A literal DEFAULT as text (what the catalog keeps).
fn default_text(e: &ast::Expr) -> Result<Option<String>> {
    match e {
        ast::Expr::Value(v) => match &v.value {
            ast::Value::Null => Ok(None),
            ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
                Ok(Some(s.clone()))
            }
            ast::Value::Number(n, _) => Ok(Some(n.clone())),
            other => Err(SqlError::unsupported(format!("DEFAULT {other}"))),
        },
        ast::Expr::UnaryOp {
            op: ast::UnaryOperator::Minus,
            expr,
        } => Ok(default_text(expr)?.map(|s| format!("-{s}"))),
        other => Err(SqlError::unsupported(format!("DEFAULT {other}"))),
    }
}

/// `[db, name]` or `[name]` (in `current`) as (db, name).
fn qualify(current: Option<&str>, parts: &[String]) -> Result<(String, String)> {
    match parts {
        [name] => Ok((
            current.ok_or_else(SqlError::no_database)?.to_string(),
            name.clone(),
        )),
        [db, name] => Ok((db.clone(), name.clone())),
        _ => Err(SqlError::syntax(format!(
            "bad table name {}",
            parts.join(".")
        ))),
    }
}

/// A session's table handles, dropped whenever the catalog version moved.
#[derive(Default)]
struct TableCache {
    version: Option<u64>,
    tables: HashMap<(String, String), Arc<Table>>,
}

impl TableCache {
    fn get(&mut self, engine: &Engine, (db, name): (String, String)) -> Result<Arc<Table>> {
        let version = engine.catalog_version();
        if self.version != Some(version) {
            self.tables.clear();
            self.version = Some(version);
        }
        let key = (db.to_ascii_lowercase(), name.to_ascii_lowercase());
        if let Some(t) = self.tables.get(&key) {
            return Ok(t.clone());
        }
        let t = engine.table(&db, &name).map_err(|e| match e {
            lineardb_table::Error::NoSuchTable(_) => SqlError::unknown_table(&db, &name),
            e => e.into(),
        })?;
        self.tables.insert(key, t.clone());
        Ok(t)
    }
}

pub const SERVER_VERSION: &str = "10.11.0-lineardb-0.1.0";

impl Session {
    pub fn new(engine: Arc<Engine>, user: &str, connection_id: u64) -> Session {
        Session {
            engine,
            facts: SessionFacts {
                database: None,
                user: user.to_string(),
                connection_id,
            },
            variables: HashMap::new(),
            warnings: Vec::new(),
            tables: TableCache::default(),
            autocommit: true,
        }
    }

    pub fn database(&self) -> Option<&str> {
        self.facts.database.as_deref()
    }

    pub fn warning_count(&self) -> u16 {
        self.warnings.len().min(u16::MAX as usize) as u16
    }

    pub fn autocommit(&self) -> bool {
        self.autocommit
    }

    /// USE / COM_INIT_DB.
    pub fn use_database(&mut self, db: &str) -> Result<()> {
        if !self.engine.database_exists(db)? {
            return Err(lineardb_table::Error::NoSuchDatabase(db.to_string()).into());
        }
        self.facts.database = Some(db.to_string());
        Ok(())
    }

    /// A system or session variable's value.
    pub fn variable(&self, name: &str) -> Option<Value> {
        let lower = name.to_ascii_lowercase();
        if let Some(v) = self.variables.get(&lower) {
            return Some(v.clone());
        }
        Some(match lower.as_str() {
            "version" => Value::str(SERVER_VERSION),
            "version_comment" => Value::str("lineardb"),
            "max_allowed_packet" => Value::Int(64 << 20),
            "autocommit" => Value::Int(self.autocommit as i64),
            "sql_mode" => {
                Value::str("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION")
            }
            "character_set_client"
            | "character_set_connection"
            | "character_set_results"
            | "character_set_server" => Value::str("utf8mb4"),
            "collation_connection" | "collation_server" => Value::str("utf8mb4_general_ci"),
            "transaction_isolation" | "tx_isolation" => Value::str("REPEATABLE-READ"),
            "lower_case_table_names" => Value::Int(1),
            "time_zone" | "system_time_zone" => Value::str("SYSTEM"),
            "wait_timeout" | "interactive_timeout" => Value::Int(28800),
            "net_write_timeout" => Value::Int(60),
            "license" => Value::str("Apache-2.0"),
            "have_ssl" => Value::str("DISABLED"),
            "port" => Value::Int(3306),
            "parallel_threads" | "lineardb_parallel_threads" => Value::Int(1),
            _ => return None,
        })
    }

    /// `[db, name]` or `[name]` (in the current database) as (db, name).
    fn qualified(&self, parts: &[String]) -> Result<(String, String)> {
        qualify(self.facts.database.as_deref(), parts)
    }

    fn table(&mut self, parts: &[String]) -> Result<Arc<Table>> {
        let name = self.qualified(parts)?;
        self.tables.get(&self.engine, name)
    }

    fn plan_select(&mut self, q: &ast::Query, params: &Params) -> Result<SelectPlan> {
        // Table resolution fills the session's cache while the planner
        // reads variables: the cache is moved out for the duration.
        let mut cache = std::mem::take(&mut self.tables);
        let engine = self.engine.clone();
        let db = self.facts.database.clone();
        let mut resolve = |parts: &[String]| cache.get(&engine, qualify(db.as_deref(), parts)?);
        let vars = |n: &str| self.variable(n);
        let plan = Planner {
            params,
            facts: &self.facts,
            variable: &vars,
            resolve: &mut resolve,
        }
        .plan_query(q);
        self.tables = cache;
        plan
    }

    /// Runs the statement of a COM_QUERY (one per query for now), sending
    /// any result set to `sink`.
    pub fn execute(&mut self, sql: &str, sink: &mut dyn RowSink) -> Result<Outcome> {
        let statements = parse(sql)?;
        let Some(stmt) = statements.first() else {
            return Err(SqlError::new(1065, "42000", "Query was empty"));
        };
        if statements.len() > 1 {
            return Err(SqlError::unsupported("several statements in one query"));
        }
        let params = Params::of(stmt);
        if params.count() > 0 {
            return Err(SqlError::syntax("'?' outside a prepared statement"));
        }
        self.warnings.clear();
        self.run(stmt, &params, &[], sink)
    }

    /// COM_STMT_PREPARE.
    pub fn prepare(&mut self, sql: &str) -> Result<Prepared> {
        let mut statements = parse(sql)?;
        if statements.len() != 1 {
            return Err(SqlError::syntax("a prepared statement is one statement"));
        }
        let statement = statements.pop().expect("one");
        let params = Params::of(&statement);
        let mut p = Prepared {
            statement,
            params,
            plan: None,
            columns: Vec::new(),
        };
        if let ast::Statement::Query(q) = &p.statement {
            let plan = self.plan_select(q, &p.params)?;
            p.columns = plan.columns.clone();
            p.plan = Some((plan, self.engine.catalog_version()));
        }
        Ok(p)
    }

    /// COM_STMT_EXECUTE.
    pub fn execute_prepared(
        &mut self,
        p: &mut Prepared,
        params: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        if params.len() != p.params.count() {
            return Err(SqlError::new(
                1210,
                "HY000",
                "Incorrect arguments to mysqld_stmt_execute",
            ));
        }
        self.warnings.clear();
        if let ast::Statement::Query(q) = &p.statement {
            let version = self.engine.catalog_version();
            let stale = p.plan.as_ref().is_none_or(|(_, v)| *v != version);
            if stale {
                let plan = self.plan_select(q, &p.params)?;
                p.plan = Some((plan, version));
            }
            let (plan, _) = p.plan.as_ref().expect("planned");
            plan.run(params, sink)?;
            return Ok(Outcome::Rows);
        }
        let stmt = p.statement.clone();
        self.run(&stmt, &p.params.clone(), params, sink)
    }

    fn rows(
        &self,
        sink: &mut dyn RowSink,
        columns: &[&str],
        rows: Vec<Vec<Value>>,
    ) -> Result<Outcome> {
        let cols: Vec<Column> = columns.iter().map(|c| text_col(c)).collect();
        sink.columns(&cols)?;
        for r in rows {
            sink.row(&r)?;
        }
        Ok(Outcome::Rows)
    }

    fn compile_constant(&self, e: &ast::Expr, params: &Params) -> Result<crate::expr::Expr> {
        let vars = |n: &str| self.variable(n);
        let scope: [ScopeColumn; 0] = [];
        Compiler {
            scope: &scope,
            params,
            facts: &self.facts,
            aggs: None,
            variable: &vars,
        }
        .compile(e)
    }

    fn run(
        &mut self,
        stmt: &ast::Statement,
        params: &Params,
        args: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        use ast::Statement as S;
        match stmt {
            S::Query(q) => {
                let plan = self.plan_select(q, params)?;
                plan.run(args, sink)?;
                Ok(Outcome::Rows)
            }
            S::Insert(ins) => self.insert(ins, params, args),
            S::Update(u) => self.update(u, params, args),
            S::Delete(d) => self.delete(d, params, args),
            S::CreateDatabase {
                db_name,
                if_not_exists,
                ..
            } => {
                let name = object_name(db_name).join(".");
                self.engine.create_database(&name, *if_not_exists)?;
                Ok(Outcome::done(1))
            }
            S::CreateTable(ct) => self.create_table(ct),
            S::CreateIndex(ci) => {
                let parts = object_name(&ci.table_name);
                let t = self.table(&parts)?;
                let name = ci
                    .name
                    .as_ref()
                    .map(|n| object_name(n).join("."))
                    .ok_or_else(|| SqlError::syntax("CREATE INDEX needs a name"))?;
                let cols = ident_list(&ci.columns)?;
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                self.engine.create_indexes(
                    &t.def.database,
                    &t.def.name,
                    &[(name, cols, ci.unique)],
                    threads,
                    &|_| {},
                )?;
                Ok(Outcome::done(0))
            }
            S::AlterTable(at) => {
                let parts = object_name(&at.name);
                let t = self.table(&parts)?;
                let mut specs: Vec<(String, Vec<String>, bool)> = Vec::new();
                for op in &at.operations {
                    match op {
                        ast::AlterTableOperation::AddConstraint { constraint, .. } => {
                            match constraint {
                                ast::TableConstraint::Index(ix) => specs.push((
                                    ix.name
                                        .as_ref()
                                        .map(|n| n.value.clone())
                                        .unwrap_or_else(|| format!("idx_{}", specs.len() + 1)),
                                    ident_list(&ix.columns)?,
                                    false,
                                )),
                                ast::TableConstraint::Unique(u) => specs.push((
                                    u.name
                                        .as_ref()
                                        .or(u.index_name.as_ref())
                                        .map(|n| n.value.clone())
                                        .unwrap_or_else(|| format!("uniq_{}", specs.len() + 1)),
                                    ident_list(&u.columns)?,
                                    true,
                                )),
                                other => {
                                    return Err(SqlError::unsupported(format!(
                                        "ALTER TABLE ADD {other}"
                                    )))
                                }
                            }
                        }
                        other => return Err(SqlError::unsupported(format!("ALTER TABLE {other}"))),
                    }
                }
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                self.engine.create_indexes(
                    &t.def.database,
                    &t.def.name,
                    &specs,
                    threads,
                    &|_| {},
                )?;
                Ok(Outcome::done(0))
            }
            S::Drop {
                object_type,
                if_exists,
                names,
                ..
            } => {
                for n in names {
                    let parts = object_name(n);
                    match object_type {
                        ast::ObjectType::Table => {
                            let (db, name) = self.qualified(&parts)?;
                            self.engine.drop_table(&db, &name, *if_exists).map_err(
                                |e| match e {
                                    lineardb_table::Error::NoSuchTable(_) => SqlError::new(
                                        1051,
                                        "42S02",
                                        format!("Unknown table '{db}.{name}'"),
                                    ),
                                    e => e.into(),
                                },
                            )?;
                        }
                        ast::ObjectType::Database | ast::ObjectType::Schema => {
                            let name = parts.join(".");
                            self.engine
                                .drop_database(&name, *if_exists)
                                .map_err(|e| match e {
                                    lineardb_table::Error::NoSuchDatabase(_) => SqlError::new(
                                        1008,
                                        "HY000",
                                        format!(
                                            "Can't drop database '{name}'; database doesn't exist"
                                        ),
                                    ),
                                    e => e.into(),
                                })?;
                            if self
                                .facts
                                .database
                                .as_deref()
                                .is_some_and(|d| d.eq_ignore_ascii_case(&name))
                            {
                                self.facts.database = None;
                            }
                        }
                        other => return Err(SqlError::unsupported(format!("DROP {other}"))),
                    }
                }
                Ok(Outcome::done(0))
            }
            S::Truncate(tr) => {
                for t in &tr.table_names {
                    let parts = object_name(&t.name);
                    let table = self.table(&parts)?;
                    self.engine
                        .truncate_table(&table.def.database, &table.def.name)?;
                }
                Ok(Outcome::done(0))
            }
            S::Use(u) => {
                let name = match u {
                    ast::Use::Object(n) | ast::Use::Database(n) | ast::Use::Schema(n) => {
                        object_name(n).join(".")
                    }
                    other => return Err(SqlError::unsupported(other.to_string())),
                };
                self.use_database(&name)?;
                Ok(Outcome::done(0))
            }
            S::StartTransaction { .. } | S::Commit { .. } | S::Rollback { .. } => {
                Ok(Outcome::done(0))
            }
            S::Set(set) => self.set(set, params, args),
            S::ShowDatabases { .. } => {
                let rows = self
                    .engine
                    .databases()?
                    .into_iter()
                    .map(|d| vec![Value::str(&d)])
                    .collect();
                self.rows(sink, &["Database"], rows)
            }
            S::ShowTables { show_options, .. } => {
                let db = match &show_options.show_in {
                    Some(si) => si.parent_name.as_ref().map(|n| object_name(n).join(".")),
                    None => None,
                }
                .or_else(|| self.facts.database.clone())
                .ok_or_else(SqlError::no_database)?;
                let rows = self
                    .engine
                    .tables(&db)?
                    .into_iter()
                    .map(|t| vec![Value::str(&t)])
                    .collect();
                let header = format!("Tables_in_{db}");
                self.rows(sink, &[header.as_str()], rows)
            }
            S::ShowVariables { filter, .. } | S::ShowStatus { filter, .. } => {
                let pattern = match filter {
                    Some(ast::ShowStatementFilter::Like(p)) => Some(p.clone()),
                    _ => None,
                };
                let names = [
                    "autocommit",
                    "character_set_client",
                    "character_set_connection",
                    "character_set_results",
                    "character_set_server",
                    "collation_connection",
                    "collation_server",
                    "lower_case_table_names",
                    "max_allowed_packet",
                    "sql_mode",
                    "time_zone",
                    "transaction_isolation",
                    "version",
                    "version_comment",
                    "wait_timeout",
                ];
                let is_status = matches!(stmt, S::ShowStatus { .. });
                let rows = if is_status {
                    vec![vec![Value::str("Threads_connected"), Value::str("1")]]
                } else {
                    names
                        .iter()
                        .filter(|n| {
                            pattern
                                .as_ref()
                                .is_none_or(|p| crate::expr::like(n.as_bytes(), p.as_bytes()))
                        })
                        .map(|n| {
                            vec![
                                Value::str(n),
                                Value::str(
                                    &self
                                        .variable(n)
                                        .and_then(|v| v.to_text())
                                        .unwrap_or_default(),
                                ),
                            ]
                        })
                        .collect()
                };
                self.rows(sink, &["Variable_name", "Value"], rows)
            }
            S::ShowCreate {
                obj_type: ast::ShowCreateObject::Table,
                obj_name,
            } => {
                let t = self.table(&object_name(obj_name))?;
                let text = show_create_table(&t);
                self.rows(
                    sink,
                    &["Table", "Create Table"],
                    vec![vec![Value::str(&t.def.name), Value::str(&text)]],
                )
            }
            S::ShowColumns { show_options, .. } => {
                let name = show_options
                    .show_in
                    .as_ref()
                    .and_then(|s| s.parent_name.as_ref())
                    .ok_or_else(|| SqlError::syntax("SHOW COLUMNS FROM <table>"))?;
                let t = self.table(&object_name(name))?;
                let rows = t
                    .def
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        vec![
                            Value::str(&c.name),
                            Value::str(&c.data_type.sql()),
                            Value::str(if c.nullable { "YES" } else { "NO" }),
                            Value::str(if t.def.primary_key.contains(&i) {
                                "PRI"
                            } else if t.def.indexes.iter().any(|x| x.columns.first() == Some(&i)) {
                                "MUL"
                            } else {
                                ""
                            }),
                            match &c.default {
                                lineardb_table::ColumnDefault::Literal(s) => Value::str(s),
                                _ => Value::Null,
                            },
                            Value::str(if c.auto_increment {
                                "auto_increment"
                            } else {
                                ""
                            }),
                        ]
                    })
                    .collect();
                self.rows(
                    sink,
                    &["Field", "Type", "Null", "Key", "Default", "Extra"],
                    rows,
                )
            }
            S::Explain { statement, .. } => {
                let ast::Statement::Query(q) = statement.as_ref() else {
                    return Err(SqlError::unsupported("EXPLAIN of a non-SELECT"));
                };
                let plan = self.plan_select(q, params)?;
                let (kind, key, covering) = crate::select::explain(&plan);
                let table = match &plan.source {
                    crate::select::Source::Table(ts) => ts.table.def.name.clone(),
                    _ => String::new(),
                };
                let extra = if covering {
                    "Using index"
                } else if key.is_empty() {
                    "Using where"
                } else {
                    "Using where; batched primary-key lookups"
                };
                self.rows(
                    sink,
                    &["id", "select_type", "table", "type", "key", "Extra"],
                    vec![vec![
                        Value::Int(1),
                        Value::str("SIMPLE"),
                        Value::str(&table),
                        Value::str(&kind),
                        Value::str(&key),
                        Value::str(extra),
                    ]],
                )
            }
            S::Analyze(_) => Ok(Outcome::done(0)),
            other => Err(SqlError::unsupported(
                other
                    .to_string()
                    .split_whitespace()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" "),
            )),
        }
    }

    fn set(&mut self, set: &ast::Set, params: &Params, args: &[Value]) -> Result<Outcome> {
        let assignments: Vec<(String, &ast::Expr)> = match set {
            ast::Set::SingleAssignment {
                variable, values, ..
            } => {
                let name = object_name(variable).join(".");
                values.first().map(|v| vec![(name, v)]).unwrap_or_default()
            }
            ast::Set::MultipleAssignments { assignments } => assignments
                .iter()
                .map(|a| (object_name(&a.name).join("."), &a.value))
                .collect(),
            ast::Set::SetNames { .. } | ast::Set::SetNamesDefault {} => {
                return Ok(Outcome::done(0))
            }
            ast::Set::SetTransaction { .. } => return Ok(Outcome::done(0)),
            other => return Err(SqlError::unsupported(other.to_string())),
        };
        for (name, value) in assignments {
            let name = name
                .trim_start_matches("@@")
                .trim_start_matches("session.")
                .trim_start_matches("SESSION.")
                .trim_start_matches("global.")
                .trim_start_matches("GLOBAL.")
                .to_ascii_lowercase();
            // A bare identifier is a keyword value (SET sql_mode = ANSI, SET autocommit = ON).
            let v = match value {
                ast::Expr::Identifier(i) => Value::str(&i.value),
                e => {
                    let x = self.compile_constant(e, params)?;
                    x.eval(
                        &[][..],
                        Env {
                            params: args,
                            aggs: &[],
                        },
                    )?
                }
            };
            if name == "autocommit" {
                let on = match &v {
                    Value::Bytes(b) => b.eq_ignore_ascii_case(b"on") || b == b"1",
                    other => crate::expr::truth_of(other) == Some(true),
                };
                self.autocommit = on;
                continue;
            }
            if self.variable(&name).is_none() {
                self.warnings.push((
                    1193,
                    format!("Unknown system variable '{name}' (stored, no effect)"),
                ));
            }
            self.variables.insert(name, v);
        }
        Ok(Outcome::done(0))
    }

    fn create_table(&mut self, ct: &ast::CreateTable) -> Result<Outcome> {
        let parts = object_name(&ct.name);
        let (db, name) = self.qualified(&parts)?;
        if ct.query.is_some() || ct.like.is_some() {
            return Err(SqlError::unsupported("CREATE TABLE ... AS / LIKE"));
        }
        if ct.if_not_exists && self.engine.table(&db, &name).is_ok() {
            self.warnings
                .push((1050, format!("Table '{name}' already exists")));
            return Ok(Outcome::done(0));
        }
        let mut spec = TableSpec::new(&db, &name);
        let mut pk: Vec<String> = Vec::new();
        for c in &ct.columns {
            let mut def = ColumnDef::new(&c.name.value, data_type(&c.data_type)?);
            for o in &c.options {
                match &o.option {
                    ast::ColumnOption::NotNull => def.nullable = false,
                    ast::ColumnOption::Null => def.nullable = true,
                    ast::ColumnOption::Default(e) => {
                        def.default = match default_text(e)? {
                            Some(s) => lineardb_table::ColumnDefault::Literal(s),
                            None => lineardb_table::ColumnDefault::Null,
                        }
                    }
                    ast::ColumnOption::PrimaryKey(_) => {
                        pk = vec![c.name.value.clone()];
                        def.nullable = false;
                    }
                    ast::ColumnOption::Unique(_) => {
                        spec.indexes
                            .push((c.name.value.clone(), vec![c.name.value.clone()], true))
                    }
                    ast::ColumnOption::DialectSpecific(tokens)
                        if tokens
                            .iter()
                            .any(|t| t.to_string().eq_ignore_ascii_case("AUTO_INCREMENT")) =>
                    {
                        def.auto_increment = true;
                        def.nullable = false;
                    }
                    ast::ColumnOption::CharacterSet(_)
                    | ast::ColumnOption::Collation(_)
                    | ast::ColumnOption::Comment(_) => {}
                    other => return Err(SqlError::unsupported(format!("column option {other}"))),
                }
            }
            spec.columns.push(def);
        }
        for con in &ct.constraints {
            match con {
                ast::TableConstraint::PrimaryKey(p) => pk = ident_list(&p.columns)?,
                ast::TableConstraint::Index(ix) => spec.indexes.push((
                    ix.name
                        .as_ref()
                        .map(|n| n.value.clone())
                        .unwrap_or_else(|| {
                            ident_list(&ix.columns)
                                .map(|c| c[0].clone())
                                .unwrap_or_default()
                        }),
                    ident_list(&ix.columns)?,
                    false,
                )),
                ast::TableConstraint::Unique(u) => spec.indexes.push((
                    u.name
                        .as_ref()
                        .or(u.index_name.as_ref())
                        .map(|n| n.value.clone())
                        .unwrap_or_else(|| {
                            ident_list(&u.columns)
                                .map(|c| c[0].clone())
                                .unwrap_or_default()
                        }),
                    ident_list(&u.columns)?,
                    true,
                )),
                other => return Err(SqlError::unsupported(format!("constraint {other}"))),
            }
        }
        for c in &pk {
            if let Some(d) = spec
                .columns
                .iter_mut()
                .find(|d| d.name.eq_ignore_ascii_case(c))
            {
                d.nullable = false;
            }
        }
        spec.primary_key = pk;
        self.engine.create_table(spec)?;
        Ok(Outcome::done(0))
    }

    fn insert(&mut self, ins: &ast::Insert, params: &Params, args: &[Value]) -> Result<Outcome> {
        let ast::TableObject::TableName(name) = &ins.table else {
            return Err(SqlError::unsupported("INSERT INTO a table function"));
        };
        let t = self.table(&object_name(name))?;
        let positions: Vec<usize> = if ins.columns.is_empty() {
            (0..t.def.columns.len()).collect()
        } else {
            ins.columns
                .iter()
                .map(|c| {
                    let n = object_name(c).join(".");
                    t.def
                        .column_index(&n)
                        .map_err(|_| SqlError::unknown_column(&n))
                })
                .collect::<Result<_>>()?
        };
        let Some(src) = &ins.source else {
            return Err(SqlError::unsupported("INSERT ... SET"));
        };
        let ast::SetExpr::Values(values) = src.body.as_ref() else {
            return Err(SqlError::unsupported("INSERT ... SELECT"));
        };
        let replace = ins.replace_into;
        let mut affected = 0u64;
        let mut first_id = 0u64;
        let env = Env {
            params: args,
            aggs: &[],
        };
        for row in &values.rows {
            let exprs = &row.content;
            if exprs.len() != positions.len() {
                return Err(SqlError::new(
                    1136,
                    "21S01",
                    format!(
                        "Column count doesn't match value count at row {}",
                        affected + 1
                    ),
                ));
            }
            let mut given: Vec<Option<Value>> = vec![None; t.def.columns.len()];
            for (e, &p) in exprs.iter().zip(&positions) {
                if matches!(e, ast::Expr::Identifier(i) if i.value.eq_ignore_ascii_case("DEFAULT"))
                {
                    continue;
                }
                let x = self.compile_constant(e, params)?;
                given[p] = Some(x.eval(&[][..], env)?);
            }
            let (full, generated) = t.prepare_row(given)?;
            match t.insert_prepared(&full) {
                Ok(()) => affected += 1,
                Err(lineardb_table::Error::DuplicateKey { .. })
                    if replace && !t.def.primary_key.is_empty() =>
                {
                    let key: Vec<Value> =
                        t.def.primary_key.iter().map(|&c| full[c].clone()).collect();
                    let pk = t.encode_primary_key(&key)?;
                    t.delete_by_key(&pk)?;
                    t.insert_prepared(&full)?;
                    affected += 2;
                }
                Err(e) if ins.ignore => {
                    self.warnings.push((e.mysql_code(), e.to_string()));
                }
                Err(e) => return Err(e.into()),
            }
            if let (Some(g), 0) = (generated, first_id) {
                first_id = g;
            }
        }
        Ok(Outcome::Done {
            affected,
            last_insert_id: first_id,
            info: if values.rows.len() > 1 {
                format!(
                    "Records: {}  Duplicates: 0  Warnings: {}",
                    values.rows.len(),
                    self.warnings.len()
                )
            } else {
                String::new()
            },
        })
    }

    /// Primary keys of the rows a WHERE clause selects (collected first,
    /// then changed, so a change never meets its own rows again).
    fn matching_keys(
        &mut self,
        table: &Arc<Table>,
        selection: Option<&ast::Expr>,
        params: &Params,
        args: &[Value],
    ) -> Result<Vec<Vec<u8>>> {
        let scope = crate::select::scope_of(table, &table.def.name);
        let vars = |n: &str| self.variable(n);
        let filter = selection
            .map(|e| {
                Compiler {
                    scope: &scope,
                    params,
                    facts: &self.facts,
                    aggs: None,
                    variable: &vars,
                }
                .compile(e)
            })
            .transpose()?;
        let env = Env {
            params: args,
            aggs: &[],
        };
        let mut keys = Vec::new();
        let mut err = None;
        table.scan_primary(&lineardb_table::KeyRange::all(), |pk, row| {
            if let Some(f) = &filter {
                match f.eval(&row, env) {
                    Ok(v) if crate::expr::truth_of(&v) == Some(true) => {}
                    Ok(_) => return true,
                    Err(e) => {
                        err = Some(e);
                        return false;
                    }
                }
            }
            keys.push(pk.to_vec());
            true
        })?;
        match err {
            Some(e) => Err(e),
            None => Ok(keys),
        }
    }

    fn update(&mut self, u: &ast::Update, params: &Params, args: &[Value]) -> Result<Outcome> {
        let ast::TableFactor::Table { name, .. } = &u.table.relation else {
            return Err(SqlError::unsupported("UPDATE of a derived table"));
        };
        let t = self.table(&object_name(name))?;
        let scope = crate::select::scope_of(&t, &t.def.name);
        let mut sets = Vec::new();
        {
            let vars = |n: &str| self.variable(n);
            let mut c = Compiler {
                scope: &scope,
                params,
                facts: &self.facts,
                aggs: None,
                variable: &vars,
            };
            for a in &u.assignments {
                let ast::AssignmentTarget::ColumnName(n) = &a.target else {
                    return Err(SqlError::unsupported("tuple assignment"));
                };
                let parts = object_name(n);
                let col = c.column(None, parts.last().map(String::as_str).unwrap_or(""))?;
                sets.push((col, c.compile(&a.value)?));
            }
        }
        let keys = self.matching_keys(&t, u.selection.as_ref(), params, args)?;
        let env = Env {
            params: args,
            aggs: &[],
        };
        let mut changed = 0;
        for pk in &keys {
            let Some(old) = t.get_by_key(pk)? else {
                continue;
            };
            let mut new: Vec<Option<Value>> = vec![None; old.len()];
            for (col, e) in &sets {
                new[*col] = Some(e.eval(&old[..], env)?);
            }
            let differs = sets.iter().any(|(c, _)| new[*c].as_ref() != Some(&old[*c]));
            t.update_by_key(pk, new)?;
            if differs {
                changed += 1;
            }
        }
        Ok(Outcome::Done {
            affected: changed,
            last_insert_id: 0,
            info: format!(
                "Rows matched: {}  Changed: {changed}  Warnings: 0",
                keys.len()
            ),
        })
    }

    fn delete(&mut self, d: &ast::Delete, params: &Params, args: &[Value]) -> Result<Outcome> {
        let from = match &d.from {
            ast::FromTable::WithFromKeyword(t) | ast::FromTable::WithoutKeyword(t) => t,
        };
        let [twj] = from.as_slice() else {
            return Err(SqlError::unsupported("multi-table DELETE"));
        };
        let ast::TableFactor::Table { name, .. } = &twj.relation else {
            return Err(SqlError::unsupported("DELETE from a derived table"));
        };
        let t = self.table(&object_name(name))?;
        let keys = self.matching_keys(&t, d.selection.as_ref(), params, args)?;
        let mut n = 0;
        for pk in &keys {
            if t.delete_by_key(pk)? {
                n += 1;
            }
        }
        Ok(Outcome::done(n))
    }

    /// SHOW WARNINGS rows for the last statement.
    pub fn warnings(&self) -> &[(u16, String)] {
        &self.warnings
    }

    /// Runs a statement and collects its result (tests, embedded use).
    pub fn query(&mut self, sql: &str) -> Result<(Outcome, CollectSink)> {
        let mut sink = CollectSink::default();
        let o = self.execute(sql, &mut sink)?;
        Ok((o, sink))
    }
}

fn show_create_table(t: &Table) -> String {
    let d = &t.def;
    let mut s = format!("CREATE TABLE `{}` (\n", d.name);
    let mut lines: Vec<String> = d
        .columns
        .iter()
        .map(|c| {
            let mut l = format!("  `{}` {}", c.name, c.data_type.sql());
            if !c.nullable {
                l.push_str(" NOT NULL");
            }
            match &c.default {
                lineardb_table::ColumnDefault::Literal(v) => l.push_str(&format!(" DEFAULT '{v}'")),
                lineardb_table::ColumnDefault::Null if c.nullable => l.push_str(" DEFAULT NULL"),
                _ => {}
            }
            if c.auto_increment {
                l.push_str(" AUTO_INCREMENT");
            }
            l
        })
        .collect();
    if !d.primary_key.is_empty() {
        let cols: Vec<String> = d
            .primary_key
            .iter()
            .map(|&c| format!("`{}`", d.columns[c].name))
            .collect();
        lines.push(format!("  PRIMARY KEY ({})", cols.join(",")));
    }
    for ix in &d.indexes {
        let cols: Vec<String> = ix
            .columns
            .iter()
            .map(|&c| format!("`{}`", d.columns[c].name))
            .collect();
        lines.push(format!(
            "  {}KEY `{}` ({})",
            if ix.unique { "UNIQUE " } else { "" },
            ix.name,
            cols.join(",")
        ));
    }
    s.push_str(&lines.join(",\n"));
    s.push_str("\n) ENGINE=lineardb");
    s
}

#[cfg(test)]
mod tests {
    use super::strip_conditional_comments;

    #[test]
    fn conditional_comments_keep_their_sql() {
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            norm(&strip_conditional_comments(
                "CREATE TABLE t (a INT) /*! ENGINE = innodb */"
            )),
            "CREATE TABLE t (a INT) ENGINE = innodb"
        );
        assert_eq!(
            norm(&strip_conditional_comments(
                "SELECT /*!40001 SQL_NO_CACHE */ 1"
            )),
            "SELECT SQL_NO_CACHE 1"
        );
    }
}
