//! Table-layer errors. Each carries the MySQL error code and SQLSTATE a
//! client expects, so the server maps them without guessing.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Storage(#[from] lineardb_buffer::Error),
    #[error("Duplicate entry '{entry}' for key '{key}'")]
    DuplicateKey { entry: String, key: String },
    #[error("Column '{0}' cannot be null")]
    NullNotAllowed(String),
    #[error("Out of range value for column '{0}' at row 1")]
    OutOfRange(String),
    #[error("Data too long for column '{0}' at row 1")]
    DataTooLong(String),
    /// A value an ENUM or SET column has no member for.
    #[error("Data truncated for column '{0}' at row 1")]
    Truncated(String),
    #[error("Incorrect {kind} value: '{value}' for column '{column}' at row 1")]
    WrongValue {
        kind: &'static str,
        value: String,
        column: String,
    },
    #[error("Table '{0}' doesn't exist")]
    NoSuchTable(String),
    #[error("Table '{0}' already exists")]
    TableExists(String),
    #[error("Unknown database '{0}'")]
    NoSuchDatabase(String),
    #[error("Can't create database '{0}'; database exists")]
    DatabaseExists(String),
    #[error("Unknown column '{0}'")]
    UnknownColumn(String),
    #[error("Duplicate key name '{0}'")]
    DuplicateIndex(String),
    #[error("Key '{0}' doesn't exist")]
    NoSuchIndex(String),
    #[error("Field '{0}' doesn't have a default value")]
    NoDefault(String),
    #[error("{0}")]
    NotSupported(String),
    /// DDL replaced the table while a statement held its old handle.
    #[error("Table definition has changed, please retry transaction")]
    TableReplaced(String),
    #[error("{0}")]
    Invalid(String),
    /// A row lock wait ended: timeout (1205) or deadlock (1213).
    #[error(transparent)]
    Lock(#[from] lineardb_txn::LockError),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The data file is locked by another process (another server on the
    /// same data directory, or one still shutting down).
    pub fn is_in_use(&self) -> bool {
        matches!(self, Error::Storage(lineardb_buffer::Error::InUse(_)))
    }
}

impl Error {
    /// MySQL error number.
    pub fn mysql_code(&self) -> u16 {
        match self {
            Error::Storage(lineardb_buffer::Error::TooLarge { .. }) => 1118,
            Error::Storage(lineardb_buffer::Error::DiskFull(_)) => 1021,
            Error::Storage(lineardb_buffer::Error::Io(e)) if e.raw_os_error() == Some(28) => 1021,
            Error::Storage(_) => 1030,
            Error::DuplicateKey { .. } => 1062,
            Error::NullNotAllowed(_) => 1048,
            Error::OutOfRange(_) => 1264,
            Error::DataTooLong(_) => 1406,
            Error::Truncated(_) => 1265,
            // ER_TRUNCATED_WRONG_VALUE for dates and times.
            Error::WrongValue {
                kind: "date" | "datetime" | "time" | "uuid",
                ..
            } => 1292,
            Error::WrongValue { .. } => 1366,
            Error::NoSuchTable(_) => 1146,
            Error::TableExists(_) => 1050,
            Error::NoSuchDatabase(_) => 1049,
            Error::DatabaseExists(_) => 1007,
            Error::UnknownColumn(_) => 1054,
            Error::DuplicateIndex(_) => 1061,
            Error::NoSuchIndex(_) => 1176,
            Error::NoDefault(_) => 1364,
            Error::NotSupported(_) => 1235,
            Error::TableReplaced(_) => 1412,
            Error::Invalid(_) => 1105,
            Error::Lock(lineardb_txn::LockError::Timeout) => 1205,
            Error::Lock(lineardb_txn::LockError::Deadlock) => 1213,
        }
    }

    /// SQLSTATE.
    pub fn sqlstate(&self) -> &'static str {
        match self {
            Error::Storage(lineardb_buffer::Error::TooLarge { .. }) => "42000",
            Error::DuplicateKey { .. } | Error::NullNotAllowed(_) => "23000",
            Error::OutOfRange(_) => "22003",
            Error::DataTooLong(_) => "22001",
            Error::Truncated(_) => "01000",
            Error::WrongValue { .. } => "22007",
            Error::NoSuchTable(_) => "42S02",
            Error::TableExists(_) => "42S01",
            Error::NoSuchDatabase(_) | Error::DuplicateIndex(_) | Error::NotSupported(_) => "42000",
            Error::UnknownColumn(_) => "42S22",
            Error::NoSuchIndex(_) => "42000",
            Error::NoDefault(_) | Error::TableReplaced(_) => "HY000",
            Error::DatabaseExists(_) | Error::Storage(_) | Error::Invalid(_) => "HY000",
            Error::Lock(lineardb_txn::LockError::Timeout) => "HY000",
            Error::Lock(lineardb_txn::LockError::Deadlock) => "40001",
        }
    }
}

impl From<lineardb_txn::Error> for Error {
    fn from(e: lineardb_txn::Error) -> Error {
        match e {
            lineardb_txn::Error::Storage(e) => Error::Storage(e),
            lineardb_txn::Error::Lock(e) => Error::Lock(e),
        }
    }
}
