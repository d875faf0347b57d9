//! SQL in the MySQL dialect over the table layer: statements are parsed
//! with `sqlparser`, planned (access path from the WHERE clause and index
//! hints: primary-key range, covering or non-covering secondary range, or
//! a table scan), and executed by streaming rows to a [`RowSink`].
//!
//! ```no_run
//! use lineardb_sql::{CollectSink, Session};
//! use lineardb_table::Engine;
//! use std::sync::Arc;
//! let engine = Arc::new(Engine::open("data.ldb".as_ref(), Default::default()).unwrap());
//! let mut s = Session::new(engine, &lineardb_sql::Registry::new());
//! s.query("CREATE DATABASE shop").unwrap();
//! s.query("USE shop").unwrap();
//! s.query("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20))").unwrap();
//! s.query("INSERT INTO t VALUES (1, 'apple'), (2, 'pear')").unwrap();
//! let (_, rows) = s.query("SELECT name FROM t WHERE id = 2").unwrap();
//! assert_eq!(rows.rows.len(), 1);
//! ```
mod bootstrap;
mod catalog;
mod charset;
mod decimal_type;
mod digest;
mod dispatch;
mod error;
mod execution;
mod explain;
mod expr;
mod function;
mod names;
mod parser;
mod planner;
mod privileges;
mod result;
mod session;
mod statement_cache;
mod statements;
mod value_encoding;
pub mod waits;

/// The longest string an expression may build (max_allowed_packet).
pub const MAX_STRING_BYTES: usize = 64 << 20;

/// The version the server reports (`VERSION()`, the handshake). It names
/// MariaDB, as MariaDB's own builds do (`10.11.19-MariaDB-0+deb12u1`):
/// drivers and ORMs choose MariaDB's SQL by it (RETURNING, DROP
/// CONSTRAINT, the UUID type, MariaDB's metadata) and would otherwise
/// speak MySQL 8's to a server that implements MariaDB's.
pub const SERVER_VERSION: &str = "10.11.0-MariaDB-lineardb-0.1.0";

pub use bootstrap::prepare_system_schema;
pub use catalog::authentication::{authenticate, native_password_response};
pub use catalog::registry::{Process, Registry, SessionSlot};
pub use dispatch::Batch;
pub use error::{Result, SqlError};
pub use parser::dialect::{second_statement_error, statement_texts};
pub use parser::wire_text::text_of_wire;
pub use privileges::grants::Grants;
pub use result::{CollectSink, Column, ColumnAttributes, ColumnKind, ExprWire, Outcome, RowSink};
pub use session::{wait_durable, Prepared, Session, StatementReport};
pub use value_encoding::ValueEncoding;
