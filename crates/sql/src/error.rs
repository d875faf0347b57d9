//! SQL errors: every one carries the MySQL error code and SQLSTATE a client
//! expects.
use std::borrow::Cow;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlError {
    pub code: u16,
    /// MariaDB's for the code, or the one SIGNAL named.
    pub sqlstate: Cow<'static, str>,
    pub message: String,
}

pub type Result<T, E = SqlError> = std::result::Result<T, E>;

impl SqlError {
    pub fn new(code: u16, sqlstate: &'static str, message: impl Into<String>) -> SqlError {
        SqlError {
            code,
            sqlstate: Cow::Borrowed(sqlstate),
            message: message.into(),
        }
    }
    /// An error in a SQLSTATE of the statement's own (SIGNAL's).
    pub fn signalled(code: u16, sqlstate: String, message: impl Into<String>) -> SqlError {
        SqlError {
            code,
            sqlstate: Cow::Owned(sqlstate),
            message: message.into(),
        }
    }
    /// 1288 (1471 for INSERT): `name`, a view or a derived table, cannot
    /// take the rows `statement` (UPDATE, DELETE, INSERT) would change.
    pub(crate) fn not_updatable(name: &str, statement: &str) -> SqlError {
        if statement == "INSERT" {
            return SqlError::new(
                1471,
                "HY000",
                format!("The target table {name} of the INSERT is not insertable-into"),
            );
        }
        SqlError::new(
            1288,
            "HY000",
            format!("The target table {name} of the {statement} is not updatable"),
        )
    }
    /// 1064: the statement does not parse.
    pub fn syntax(message: impl Into<String>) -> SqlError {
        SqlError::new(1064, "42000", message)
    }
    /// 1064 in MariaDB's words, `near` the text where reading stopped.
    pub fn syntax_near(near: impl fmt::Display) -> SqlError {
        SqlError::syntax(format!(
            "You have an error in your SQL syntax; check the manual that corresponds to your \
             MariaDB server version for the right syntax to use near '{near}' at line 1"
        ))
    }
    /// The parser's error on `sql` in MariaDB's words: the text from where
    /// reading stopped (at most 80 characters) and its line.
    pub(crate) fn syntax_in(sql: &str, e: sqlparser::parser::ParserError) -> SqlError {
        let message = match &e {
            sqlparser::parser::ParserError::ParserError(m)
            | sqlparser::parser::ParserError::TokenizerError(m) => m,
            sqlparser::parser::ParserError::RecursionLimitExceeded => return e.into(),
        };
        let Some((line, column)) = error_location(message) else {
            return e.into();
        };
        // Line 0: the end of the text.
        let (line, near) = if line == 0 {
            (sql.lines().count().max(1), String::new())
        } else {
            let start: usize = sql.split_inclusive('\n').take(line - 1).map(str::len).sum();
            let rest = sql.get(start..).unwrap_or_default();
            let at = rest
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(rest.len(), |(i, _)| i);
            (line, rest[at..].chars().take(80).collect())
        };
        SqlError::syntax(format!(
            "You have an error in your SQL syntax; check the manual that corresponds to your \
             MariaDB server version for the right syntax to use near '{near}' at line {line}"
        ))
    }
    /// 1235: valid SQL that lineardb does not do (yet).
    pub fn unsupported(what: impl fmt::Display) -> SqlError {
        SqlError::new(
            1235,
            "42000",
            format!("This version of lineardb doesn't yet support '{what}'"),
        )
    }
    pub fn no_database() -> SqlError {
        SqlError::new(1046, "3D000", "No database selected")
    }
    /// An unknown or ambiguous column's error naming the clause it was
    /// found in, as MariaDB's does (`in 'WHERE'`, `in WHERE is
    /// ambiguous`); `field list` stands until the innermost clause claims
    /// it. Other errors pass unchanged.
    pub(crate) fn in_clause(self, clause: &str) -> SqlError {
        let message = match self.code {
            1054 => self
                .message
                .strip_suffix(" in 'field list'")
                .map(|head| format!("{head} in '{clause}'")),
            1052 => self
                .message
                .strip_suffix(" in field list is ambiguous")
                .map(|head| format!("{head} in {clause} is ambiguous")),
            _ => None,
        };
        match message {
            Some(message) => SqlError { message, ..self },
            None => self,
        }
    }

    pub fn unknown_column(name: &str) -> SqlError {
        SqlError::new(
            1054,
            "42S22",
            format!("Unknown column '{name}' in 'field list'"),
        )
    }
    pub fn unknown_table(db: &str, name: &str) -> SqlError {
        SqlError::new(1146, "42S02", format!("Table '{db}.{name}' doesn't exist"))
    }
    pub fn wrong_arguments(func: &str) -> SqlError {
        SqlError::new(
            1582,
            "42000",
            format!("Incorrect parameter count in the call to native function '{func}'"),
        )
    }
    pub fn out_of_range(what: &str) -> SqlError {
        SqlError::new(1690, "22003", format!("{what} value is out of range"))
    }
    /// 1317: KILL QUERY stopped the statement.
    pub fn interrupted() -> SqlError {
        SqlError::new(1317, "70100", "Query execution was interrupted")
    }
    pub fn internal(message: impl Into<String>) -> SqlError {
        SqlError::new(1105, "HY000", message)
    }
}

impl fmt::Display for SqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ERROR {} ({}): {}",
            self.code, self.sqlstate, self.message
        )
    }
}

impl std::error::Error for SqlError {}

impl From<lineardb_table::Error> for SqlError {
    fn from(e: lineardb_table::Error) -> SqlError {
        SqlError::new(e.mysql_code(), e.sqlstate(), e.to_string())
    }
}

/// The line and column a parser's message ends with (`… at Line: 1,
/// Column: 7`); line 0 where reading met the end of the text.
fn error_location(message: &str) -> Option<(usize, usize)> {
    // The end of the text: line 0.
    if message.ends_with("found: EOF") {
        return Some((0, 0));
    }
    let (_, at) = message.rsplit_once(" at Line: ")?;
    let (line, column) = at.split_once(", Column: ")?;
    Some((line.trim().parse().ok()?, column.trim().parse().ok()?))
}

impl From<sqlparser::parser::ParserError> for SqlError {
    fn from(e: sqlparser::parser::ParserError) -> SqlError {
        let msg = match e {
            sqlparser::parser::ParserError::ParserError(m)
            | sqlparser::parser::ParserError::TokenizerError(m) => m,
            sqlparser::parser::ParserError::RecursionLimitExceeded => {
                "statement nested too deeply".to_string()
            }
        };
        SqlError::syntax(format!(
            "You have an error in your SQL syntax; check the manual that corresponds to your lineardb version: {msg}"
        ))
    }
}

impl From<lineardb_txn::Error> for SqlError {
    fn from(e: lineardb_txn::Error) -> SqlError {
        lineardb_table::Error::from(e).into()
    }
}
