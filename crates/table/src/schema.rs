//! Table definitions, as stored in the catalog.
use crate::collation::Collation;
use crate::error::{Error, Result};
use crate::types::{DataType, Value};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ColumnDefault {
    /// No DEFAULT clause: omitting the column is an error if it is NOT NULL.
    None,
    Null,
    /// A literal, kept as text and coerced when used.
    Literal(String),
    /// DEFAULT CURRENT_TIMESTAMP (DATETIME and TIMESTAMP): the inserting
    /// statement's time, which the SQL layer supplies.
    CurrentTimestamp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnDef {
    pub name: String,
    pub data_type: DataType,
    pub nullable: bool,
    pub default: ColumnDefault,
    pub auto_increment: bool,
    /// An integer's declared display width (`INT(5)`, BOOLEAN's
    /// `tinyint(1)`); None for the type's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_width: Option<u32>,
    /// ON UPDATE CURRENT_TIMESTAMP: an UPDATE that changes the row and
    /// leaves this column alone sets it to the statement's time.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_update_now: bool,
    /// COMMENT '…' (empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// DATETIME(n) / TIMESTAMP(n): the digits of a second's fraction it
    /// keeps (0–6; further digits are cut, as MariaDB does).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fsp: u8,
    /// A string column's collation when it is not its type's default
    /// ([`DataType::default_collation`]); see [`ColumnDef::collation`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collation: Option<Collation>,
}

impl ColumnDef {
    pub fn new(name: &str, data_type: DataType) -> ColumnDef {
        ColumnDef {
            name: name.to_string(),
            data_type,
            nullable: true,
            default: ColumnDefault::None,
            auto_increment: false,
            display_width: None,
            on_update_now: false,
            comment: String::new(),
            fsp: 0,
            collation: None,
        }
    }

    /// How the column's strings compare, sort and key.
    pub fn collation(&self) -> Collation {
        self.collation
            .unwrap_or_else(|| self.data_type.default_collation())
    }

    pub fn collate(mut self, collation: Collation) -> Self {
        self.collation = (collation != self.data_type.default_collation()).then_some(collation);
        self
    }
    pub fn not_null(mut self) -> Self {
        self.nullable = false;
        self
    }
    pub fn default_value(mut self, literal: &str) -> Self {
        self.default = ColumnDefault::Literal(literal.to_string());
        self
    }
    pub fn auto_increment(mut self) -> Self {
        self.auto_increment = true;
        self.nullable = false;
        self
    }

    /// The column's type as SHOW CREATE TABLE and SHOW COLUMNS spell it:
    /// integers with their display width, as MariaDB shows them.
    pub fn sql_type(&self) -> String {
        let (name, unsigned, signed_width, unsigned_width) = match self.data_type {
            DataType::TinyInt { unsigned } => ("tinyint", unsigned, 4, 3),
            DataType::SmallInt { unsigned } => ("smallint", unsigned, 6, 5),
            DataType::MediumInt { unsigned } => ("mediumint", unsigned, 9, 8),
            DataType::Int { unsigned } => ("int", unsigned, 11, 10),
            DataType::BigInt { unsigned } => ("bigint", unsigned, 20, 20),
            DataType::DateTime | DataType::Timestamp | DataType::Time if self.fsp > 0 => {
                return format!("{}({})", self.data_type.sql(), self.fsp)
            }
            other => return other.sql(),
        };
        let width = self.display_width.unwrap_or(if unsigned {
            unsigned_width
        } else {
            signed_width
        });
        format!("{name}({width}){}", if unsigned { " unsigned" } else { "" })
    }

    /// `v` as this column stores it: of its type ([`DataType::coerce`]),
    /// a time's fraction cut to the column's digits.
    pub fn coerce(&self, v: Value) -> Result<Value> {
        let v = self.data_type.coerce(v, &self.name)?;
        if let (Value::Bytes(b), Some(c)) = (&v, self.collation) {
            if c.is_latin1() {
                self.latin1_only(b)?;
            }
        }
        Ok(match v {
            Value::DateTime(t) if self.fsp < 6 => {
                let unit = 10i64.pow(6 - self.fsp as u32);
                Value::DateTime(t - t.rem_euclid(1_000_000) % unit)
            }
            // A TIME's fraction is cut toward zero.
            Value::Time(t) if self.fsp < 6 => {
                let unit = 10i64.pow(6 - self.fsp as u32);
                Value::Time(t - t % 1_000_000 % unit)
            }
            v => v,
        })
    }

    /// 1366 for a string with a character latin1 lacks (this column's
    /// character set is latin1).
    pub fn latin1_only(&self, s: &[u8]) -> Result<()> {
        match crate::collation::latin1::first_unrepresentable(s) {
            Some(at) => Err(Error::WrongValue {
                kind: "string",
                value: crate::collation::latin1::shown_bytes(s, at),
                column: self.name.clone(),
            }),
            None => Ok(()),
        }
    }

    /// A literal default `s` of this column as a value (not yet coerced):
    /// a BIT's default is kept as a bit literal `b'…'`.
    pub fn literal_value(&self, s: &str) -> Value {
        match self.data_type {
            DataType::Bit(_) => {
                crate::types::parse_bit_literal(s).map_or_else(|| Value::str(s), Value::UInt)
            }
            _ => Value::str(s),
        }
    }

    /// The value used when an insert omits this column.
    pub fn default_for_insert(&self) -> Result<Value> {
        match &self.default {
            ColumnDefault::Literal(s) => self.coerce(self.literal_value(s)),
            ColumnDefault::Null => Ok(Value::Null),
            // Through the embedded API, which has no statement clock: now,
            // in UTC.
            ColumnDefault::CurrentTimestamp => {
                let micros = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs() as i64 * 1_000_000);
                Ok(Value::DateTime(micros))
            }
            ColumnDefault::None if self.nullable || self.auto_increment => Ok(Value::Null),
            ColumnDefault::None => Err(Error::NoDefault(self.name.clone())),
        }
    }
}

/// A FOREIGN KEY of a table (the child): its columns must match a row of
/// the parent table's columns, which a key of the parent begins with. The
/// engine keeps the definition; the SQL layer enforces it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForeignKeyDef {
    /// The constraint's name.
    pub name: String,
    /// The child's columns (positions in this table).
    pub columns: Vec<usize>,
    pub parent_database: String,
    pub parent_table: String,
    /// The parent's columns, by name (the parent may change).
    pub parent_columns: Vec<String>,
    pub on_delete: ReferentialAction,
    pub on_update: ReferentialAction,
}

/// A CHECK constraint: a condition every row must not make false. The
/// SQL layer keeps its text as MariaDB prints it and evaluates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckDef {
    /// The constraint's name (a column's check: the column's name).
    pub name: String,
    /// The column a column's CHECK belongs to (shown with it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The condition, as MariaDB prints it.
    pub condition: String,
}

/// What a change of a parent row does to the rows that reference it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReferentialAction {
    /// Refuse the change (the default).
    Restrict,
    /// As RESTRICT (InnoDB checks at once), shown as written.
    NoAction,
    /// Delete the child rows, or change them with the parent.
    Cascade,
    /// Set the child's columns to NULL.
    SetNull,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexDef {
    pub name: String,
    /// Column positions in the table.
    pub columns: Vec<usize>,
    pub unique: bool,
    /// Root page of the index's tree.
    pub root: u64,
    /// The key parts declared DESC, by position (none: all ascending).
    /// Shown as declared; the keys themselves are kept ascending, and read
    /// backwards where an order needs it, which gives the same rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub descending: Vec<bool>,
}

impl IndexDef {
    /// Whether key part `part` was declared DESC.
    pub fn is_descending(&self, part: usize) -> bool {
        self.descending.get(part).copied().unwrap_or(false)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableDef {
    pub database: String,
    pub name: String,
    pub columns: Vec<ColumnDef>,
    /// Primary key column positions; empty for a hidden row id.
    pub primary_key: Vec<usize>,
    /// Root page of the clustered index.
    pub primary_root: u64,
    /// Root page of the tree of off-page values (0: none; see
    /// [`TableDef::may_outline`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub blob_root: u64,
    pub indexes: Vec<IndexDef>,
    /// Set for a temporary table, private to its owner, dropped when the
    /// owner ends and discarded when the engine opens; `None` for a
    /// permanent table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temporary: Option<Temporary>,
    /// `AUTO_INCREMENT = n`: the least value the auto-increment column
    /// takes next (0: none given).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub auto_increment_start: u64,
    /// `COMMENT = '…'` (empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// Options about an InnoDB or Aria table's physical storage
    /// (`ROW_FORMAT`, `STATS_PERSISTENT`, …), kept as given (name, value)
    /// to be shown again; they change nothing here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub storage_options: Vec<(String, String)>,
    /// The table's default collation (`DEFAULT CHARSET=… COLLATE=…`): what
    /// a string column added without a COLLATE of its own takes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub collation: Collation,
    /// FOREIGN KEY constraints of this table (as the child).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub foreign_keys: Vec<ForeignKeyDef>,
    /// CHECK constraints: the columns' in column order, then the table's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckDef>,
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// What makes a table temporary: the owner (a session) it is private to
/// and an id of its own, which keys its catalog entry (so the entry, and
/// the table's trees, may outlive its name: see
/// [`Engine::detach_temporary`](crate::Engine::detach_temporary)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Temporary {
    pub owner: u64,
    pub id: u64,
}

impl TableDef {
    /// Whether a covering read of secondary index `ix` gives column `c`:
    /// the index or the primary key holds it, in a key that keeps the value
    /// (not a string keyed by a case-folding or padding collation).
    pub fn index_gives(&self, ix: usize, c: usize) -> bool {
        let held = self.indexes[ix].columns.contains(&c) || self.primary_key.contains(&c);
        let column = &self.columns[c];
        held && (!column.data_type.is_string() || column.collation().key_gives_text())
    }

    pub fn column_index(&self, name: &str) -> Result<usize> {
        self.columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| Error::UnknownColumn(name.to_string()))
    }

    pub fn index_position(&self, name: &str) -> Option<usize> {
        self.indexes
            .iter()
            .position(|i| i.name.eq_ignore_ascii_case(name))
    }

    pub fn auto_increment_column(&self) -> Option<usize> {
        self.columns.iter().position(|c| c.auto_increment)
    }

    /// Whether a row of this table may be too large for a record of at most
    /// `max_record` bytes, so that it needs a blob tree for off-page values.
    pub fn may_outline(&self, max_record: usize) -> bool {
        let most: u64 = self
            .columns
            .iter()
            .map(|c| match c.data_type.max_bytes() {
                Some(n) => 2 + n,
                None => c.data_type.fixed_width().unwrap_or(0) as u64,
            })
            .sum();
        most + self.columns.len().div_ceil(8) as u64 > max_record as u64
    }

    /// Checks column types, names and key columns.
    pub fn validate(&self) -> Result<()> {
        if self.columns.is_empty() {
            return Err(Error::Invalid("A table must have at least 1 column".into()));
        }
        for (i, c) in self.columns.iter().enumerate() {
            c.data_type.validate()?;
            if self.columns[..i]
                .iter()
                .any(|d| d.name.eq_ignore_ascii_case(&c.name))
            {
                return Err(Error::Invalid(format!(
                    "Duplicate column name '{}'",
                    c.name
                )));
            }
            if let DataType::Char(n)
            | DataType::VarChar(n)
            | DataType::Binary(n)
            | DataType::VarBinary(n) = c.data_type
            {
                if n > 65_535 {
                    return Err(Error::Invalid(format!(
                        "Column length too big for column '{}' (max = 65535); use BLOB or TEXT instead",
                        c.name
                    )));
                }
            }
        }
        if self.columns.iter().filter(|c| c.auto_increment).count() > 1 {
            return Err(Error::Invalid(
                "Incorrect table definition; there can be only one auto column and it must be defined as a key".into(),
            ));
        }
        for &k in self
            .primary_key
            .iter()
            .chain(self.indexes.iter().flat_map(|i| i.columns.iter()))
        {
            if k >= self.columns.len() {
                return Err(Error::Invalid("key column out of range".into()));
            }
            // MariaDB keys a TEXT or BLOB column by a prefix (or a hash
            // when unique); keys take no prefixes yet.
            if matches!(
                self.columns[k].data_type,
                DataType::Text(_) | DataType::Blob(_)
            ) {
                return Err(blob_key(&self.columns[k].name));
            }
        }
        Ok(())
    }
}

/// The error for a key on a TEXT or BLOB column.
pub(crate) fn blob_key(column: &str) -> Error {
    Error::NotSupported(format!("keys on BLOB/TEXT column '{column}'"))
}
