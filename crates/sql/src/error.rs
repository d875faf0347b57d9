//! SQL errors: every one carries the MySQL error code and SQLSTATE a client
//! expects.
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlError {
    pub code: u16,
    pub sqlstate: &'static str,
    pub message: String,
}

pub type Result<T, E = SqlError> = std::result::Result<T, E>;

impl SqlError {
    pub fn new(code: u16, sqlstate: &'static str, message: impl Into<String>) -> SqlError {
        SqlError {
            code,
            sqlstate,
            message: message.into(),
        }
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
