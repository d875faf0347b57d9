//! Nothing is ignored: statement forms and clauses lineardb does not do yet
//! are refused with 1235 (ER_NOT_SUPPORTED_YET) naming them, whether the
//! SQL parser read them (a clause the planner would otherwise pass over) or
//! not (MariaDB syntax the parser lacks, which would otherwise be a
//! misleading syntax error).
use crate::error::{Result, SqlError};
use sqlparser::ast::{self, Visit, Visitor};
use std::ops::ControlFlow;

/// Statements (by their first words) MariaDB has and lineardb does not.
const STATEMENTS: &[(&[&str], &str)] = &[
    (&["XA"], "XA transactions"),
    (&["HANDLER"], "HANDLER"),
    (&["LOAD", "XML"], "LOAD XML"),
    (&["LOAD", "INDEX"], "LOAD INDEX"),
    (&["CACHE", "INDEX"], "CACHE INDEX"),
    (&["CHECKSUM"], "CHECKSUM TABLE"),
    (&["OPTIMIZE"], "OPTIMIZE TABLE"),
    (&["REPAIR"], "REPAIR TABLE"),
    (&["CALL"], "stored procedures"),
    (&["CREATE", "PROCEDURE"], "stored procedures"),
    (&["CREATE", "FUNCTION"], "stored functions"),
    (&["CREATE", "TRIGGER"], "triggers"),
    (&["CREATE", "EVENT"], "events"),
    (&["CREATE", "DEFINER"], "stored programs and views"),
    (&["CREATE", "SERVER"], "CREATE SERVER"),
    (&["CREATE", "PACKAGE"], "packages"),
    (&["ALTER", "EVENT"], "events"),
    (&["ALTER", "PROCEDURE"], "stored procedures"),
    (&["ALTER", "FUNCTION"], "stored functions"),
    (&["ALTER", "DATABASE"], "ALTER DATABASE"),
    (&["ALTER", "SCHEMA"], "ALTER DATABASE"),
    (&["DROP", "PROCEDURE"], "stored procedures"),
    (&["DROP", "FUNCTION"], "stored functions"),
    (&["DROP", "TRIGGER"], "triggers"),
    (&["DROP", "EVENT"], "events"),
    (&["INSTALL"], "plugins"),
    (&["UNINSTALL"], "plugins"),
    (&["BINLOG"], "binary logs"),
    (&["PURGE"], "binary logs"),
    (&["RESET"], "RESET"),
    (&["CHANGE", "MASTER"], "replication"),
    (&["START", "SLAVE"], "replication"),
    (&["STOP", "SLAVE"], "replication"),
    (&["START", "REPLICA"], "replication"),
    (&["STOP", "REPLICA"], "replication"),
    (&["BACKUP"], "BACKUP STAGE"),
    (&["GET", "DIAGNOSTICS"], "GET DIAGNOSTICS"),
    (&["HELP"], "HELP"),
    (&["DO"], "DO"),
    (&["SHUTDOWN"], "SHUTDOWN"),
];

/// Clauses, by their words anywhere in a statement the parser could not
/// read.
const CLAUSES: &[(&[&str], &str)] = &[
    (&["PROCEDURE", "ANALYSE"], "PROCEDURE ANALYSE"),
    (&["ROWS", "EXAMINED"], "LIMIT ROWS EXAMINED"),
    (
        &["LOCK", "IN", "SHARE", "MODE"],
        "SELECT ... LOCK IN SHARE MODE",
    ),
    (&["PARTITION", "BY"], "partitioned tables"),
    (&["PARTITIONS"], "partitioned tables"),
    (&["ZEROFILL"], "ZEROFILL"),
    (&["AND", "CHAIN"], "COMMIT/ROLLBACK AND CHAIN"),
    (&["RELEASE"], "COMMIT/ROLLBACK RELEASE"),
    (&["SYSTEM", "VERSIONING"], "system-versioned tables"),
    (&["FOR", "SYSTEM_TIME"], "system-versioned tables"),
];

fn words(sql: &str) -> Vec<String> {
    sql.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '@'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_uppercase())
        .collect()
}

/// `SELECT SQL_CACHE ...` without the hint, which asks only for MariaDB's
/// query cache (off by default, and results never differ); the parser
/// knows SQL_NO_CACHE but not SQL_CACHE.
pub(crate) fn without_sql_cache(sql: &str) -> std::borrow::Cow<'_, str> {
    let upper = sql.to_ascii_uppercase();
    let Some(at) = upper.find("SQL_CACHE") else {
        return sql.into();
    };
    let before = upper[..at].trim_end();
    let after = upper[at + 9..].chars().next();
    if before.ends_with("SELECT") && after.is_some_and(|c| c.is_whitespace()) {
        format!("{}{}", &sql[..at], &sql[at + 9..]).into()
    } else {
        sql.into()
    }
}

/// The error for text the parser refused: 1235 naming a MariaDB statement
/// or clause lineardb lacks, when the text has one; else `parse_error`.
pub(crate) fn refuse_unparsed(sql: &str, parse_error: SqlError) -> SqlError {
    let words = words(sql);
    for (start, name) in STATEMENTS {
        if words.len() >= start.len()
            && words[..start.len()].iter().zip(*start).all(|(a, b)| a == b)
        {
            return SqlError::unsupported(name);
        }
    }
    if words
        .windows(2)
        .any(|w| w[0] == "EXCLUDE" && matches!(w[1].as_str(), "CURRENT" | "GROUP" | "TIES" | "NO"))
    {
        return SqlError::new(4022, "HY000", "Frame exclusion is not supported yet");
    }
    for (phrase, name) in CLAUSES {
        if words
            .windows(phrase.len())
            .any(|w| w.iter().zip(*phrase).all(|(a, b)| a == b))
        {
            return SqlError::unsupported(name);
        }
    }
    if words.first().is_some_and(|w| w == "SELECT")
        && words
            .windows(2)
            .any(|w| w[0] == "INTO" && w[1].starts_with('@'))
    {
        return SqlError::unsupported("SELECT ... INTO @variable");
    }
    if words.len() >= 2 && words[0] == "ALTER" && words[1] == "TABLE" {
        for (word, name) in [
            ("ENGINE", "ALTER TABLE ... ENGINE"),
            ("ORDER", "ALTER TABLE ... ORDER BY"),
            ("ALGORITHM", "ALTER TABLE ... ALGORITHM"),
            ("LOCK", "ALTER TABLE ... LOCK"),
        ] {
            if words.iter().any(|w| w == word) {
                return SqlError::unsupported(name);
            }
        }
    }
    if words.first().is_some_and(|w| w == "ANALYZE") && words.iter().any(|w| w == "PERSISTENT") {
        return SqlError::unsupported("ANALYZE TABLE ... PERSISTENT FOR");
    }
    if words.first().is_some_and(|w| w == "UPDATE")
        && words
            .get(1)
            .is_some_and(|w| w == "LOW_PRIORITY" || w == "IGNORE")
    {
        return SqlError::unsupported(format!("UPDATE {}", words[1]));
    }
    parse_error
}

/// Finds clauses the parser took that lineardb would not honour.
struct Ignored(Option<SqlError>);

impl Ignored {
    fn refuse(&mut self, what: &str) -> ControlFlow<()> {
        self.fail(SqlError::unsupported(what))
    }

    fn fail(&mut self, e: SqlError) -> ControlFlow<()> {
        self.0 = Some(e);
        ControlFlow::Break(())
    }
}

/// Whether ORDER BY keys carry what MariaDB's grammar lacks (NULLS
/// FIRST/LAST, USING, WITH FILL): a syntax error there, never passed over.
fn foreign_order(list: &[ast::OrderByExpr]) -> bool {
    list.iter().any(|o| {
        o.options.nulls_first.is_some()
            || o.with_fill.is_some()
            || matches!(o.options.sort, Some(ast::OrderBySort::Using(_)))
    })
}

fn foreign_order_error() -> SqlError {
    SqlError::syntax(
        "You have an error in your SQL syntax; check the manual that corresponds to your \
         MariaDB server version for the right syntax to use near 'NULLS'",
    )
}

/// MariaDB's answer to PARTITION (...) on a table without partitions, which
/// every lineardb table is.
fn not_partitioned() -> SqlError {
    SqlError::new(
        1747,
        "HY000",
        "PARTITION () clause on non partitioned table",
    )
}

impl Visitor for Ignored {
    type Break = ();

    fn pre_visit_query(&mut self, q: &ast::Query) -> ControlFlow<()> {
        if q.fetch.is_some() {
            return self.refuse("FETCH FIRST / NEXT");
        }
        if !q.locks.is_empty() {
            return self.refuse("SELECT ... FOR UPDATE / FOR SHARE (locking reads)");
        }
        if q.for_clause.is_some() || q.settings.is_some() || q.format_clause.is_some() {
            return self.refuse("this query clause");
        }
        match q.order_by.as_ref().map(|o| (&o.kind, &o.interpolate)) {
            Some((ast::OrderByKind::All(_), _)) => return self.refuse("ORDER BY ALL"),
            Some((_, Some(_))) => return self.refuse("INTERPOLATE"),
            Some((ast::OrderByKind::Expressions(list), None)) if foreign_order(list) => {
                return self.fail(foreign_order_error())
            }
            _ => {}
        }
        if let ast::SetExpr::Select(s) = q.body.as_ref() {
            if s.into.is_some() {
                return self.refuse("SELECT ... INTO");
            }
            let named_order = s.named_window.iter().any(|w| {
                matches!(&w.1, ast::NamedWindowExpr::WindowSpec(spec) if foreign_order(&spec.order_by))
            });
            if named_order {
                return self.fail(foreign_order_error());
            }
            if let ast::GroupByExpr::Expressions(_, modifiers) = &s.group_by {
                if !matches!(modifiers[..], [] | [ast::GroupByWithModifier::Rollup]) {
                    return self.refuse("GROUP BY ... WITH ROLLUP");
                }
            }
            if s.top.is_some() || s.qualify.is_some() || !s.sort_by.is_empty() {
                return self.refuse("this SELECT clause");
            }
            if s.select_modifiers
                .as_ref()
                .is_some_and(|m| m.sql_calc_found_rows)
            {
                return self.refuse("SQL_CALC_FOUND_ROWS");
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, t: &ast::TableFactor) -> ControlFlow<()> {
        if let ast::TableFactor::Table {
            partitions,
            version,
            sample,
            args,
            ..
        } = t
        {
            if !partitions.is_empty() {
                return self.fail(not_partitioned());
            }
            if version.is_some() || sample.is_some() || args.is_some() {
                return self.refuse("this table clause");
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, e: &ast::Expr) -> ControlFlow<()> {
        if let ast::Expr::Function(f) = e {
            let in_window = matches!(&f.over, Some(ast::WindowType::WindowSpec(w)) if foreign_order(&w.order_by));
            let in_arguments = matches!(&f.args, ast::FunctionArguments::List(l)
                if l.clauses.iter().any(|c| matches!(c, ast::FunctionArgumentClause::OrderBy(o) if foreign_order(o))));
            if in_window || in_arguments {
                return self.fail(foreign_order_error());
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_statement(&mut self, s: &ast::Statement) -> ControlFlow<()> {
        match s {
            ast::Statement::Delete(d) if foreign_order(&d.order_by) => {
                return self.fail(foreign_order_error())
            }
            ast::Statement::Update(u) if foreign_order(&u.order_by) => {
                return self.fail(foreign_order_error())
            }
            ast::Statement::Insert(i) => {
                if i.on.is_some() && i.replace_into {
                    return self.refuse("REPLACE ... ON DUPLICATE KEY UPDATE");
                }
                if i.partitioned.is_some() {
                    return self.fail(not_partitioned());
                }
                if matches!(i.priority, Some(ast::MysqlInsertPriority::Delayed)) {
                    // As MariaDB answers for InnoDB tables.
                    return self.fail(SqlError::new(
                        1616,
                        "HY000",
                        format!("DELAYED option not supported for table '{}'", i.table),
                    ));
                }
                if i.insert_alias.is_some() {
                    // MySQL 8's row alias: not MariaDB 10.11's syntax.
                    return self.fail(SqlError::syntax(
                        "You have an error in your SQL syntax; check the manual that \
                         corresponds to your MariaDB server version for the right syntax \
                         to use near 'AS'",
                    ));
                }
            }
            ast::Statement::CreateTable(ct) => {
                if ct.or_replace {
                    return self.refuse("CREATE OR REPLACE TABLE");
                }
                if ct.partition_by.is_some() {
                    return self.refuse("partitioned tables");
                }
            }
            ast::Statement::Update(u) => {
                if let ast::TableFactor::Table { name, .. } = &u.table.relation {
                    // The parser takes these modifiers for the table's name.
                    let first = name.to_string().to_ascii_uppercase();
                    if first == "LOW_PRIORITY" || first == "IGNORE" {
                        return self.refuse(&format!("UPDATE {first}"));
                    }
                }
            }
            ast::Statement::Delete(d) => {
                if let [name] = d.tables.as_slice() {
                    if crate::statements::multi_table::is_delete_modifier(name)
                        && name.to_string().eq_ignore_ascii_case("IGNORE")
                    {
                        return self.refuse("DELETE IGNORE");
                    }
                }
                let listed = match &d.from {
                    ast::FromTable::WithFromKeyword(t) | ast::FromTable::WithoutKeyword(t) => t,
                };
                // MariaDB 10.11's single-table DELETE takes no alias.
                if let [only] = listed.as_slice() {
                    if (d.tables.is_empty()
                        || d.tables
                            .iter()
                            .all(crate::statements::multi_table::is_delete_modifier))
                        && d.using.is_none()
                        && only.joins.is_empty()
                        && matches!(
                            &only.relation,
                            ast::TableFactor::Table { alias: Some(_), .. }
                        )
                    {
                        return self.fail(SqlError::syntax(
                            "You have an error in your SQL syntax; check the manual that \
                             corresponds to your MariaDB server version for the right syntax \
                             to use near the table's alias",
                        ));
                    }
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

/// 1235 (or MariaDB's own error) for a clause of `stmt` lineardb would not
/// honour.
pub(crate) fn refuse_ignored(stmt: &ast::Statement) -> Result<()> {
    if let ast::Statement::Query(q) = stmt {
        if let ast::SetExpr::Select(s) = q.body.as_ref() {
            // A top-level INTO @variables is run (statements::query).
            if s.into
                .as_ref()
                .is_some_and(|i| crate::parser::select_into::variables(i).is_some())
            {
                let mut bare = (**q).clone();
                if let ast::SetExpr::Select(s) = bare.body.as_mut() {
                    s.into = None;
                }
                return refuse_ignored(&ast::Statement::Query(Box::new(bare)));
            }
        }
        if !q.locks.is_empty() {
            // A top-level SELECT's locking clause is run (statements::
            // locking_read); anywhere else it is refused below.
            crate::statements::locking_read::check_lock_clause(&q.locks)?;
            let bare = crate::statements::locking_read::without_locks(q);
            return refuse_ignored(&ast::Statement::Query(Box::new(bare)));
        }
    }
    let mut v = Ignored(None);
    let _ = stmt.visit(&mut v);
    match v.0 {
        None => Ok(()),
        Some(e) => Err(e),
    }
}
