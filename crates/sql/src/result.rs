//! What a statement produces: result-set columns streamed to a [`RowSink`],
//! or a count of affected rows.
use crate::error::Result;
use lineardb_table::{Collation, ColumnDef, DataType, Value};

/// The type a result column is sent as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    Int,
    UInt,
    Decimal {
        scale: u8,
    },
    Double,
    Date,
    DateTime,
    Time,
    /// A string and the collation it compares in.
    Text(Collation),
}

impl ColumnKind {
    /// A string in the connection's collation (literals, functions).
    pub const TEXT: ColumnKind = ColumnKind::Text(Collation::Utf8mb4GeneralCi);

    /// The kind of a stored column (its collation included).
    pub fn of_column(c: &ColumnDef) -> ColumnKind {
        match ColumnKind::of(c.data_type) {
            ColumnKind::Text(_) => ColumnKind::Text(c.collation()),
            k => k,
        }
    }

    /// The collation a string of this kind compares in (None: no string).
    pub fn collation(self) -> Option<Collation> {
        match self {
            ColumnKind::Text(c) => Some(c),
            _ => None,
        }
    }

    pub fn of(t: DataType) -> ColumnKind {
        match t {
            DataType::BigInt { unsigned: true } | DataType::Bit(_) => ColumnKind::UInt,
            DataType::TinyInt { .. }
            | DataType::SmallInt { .. }
            | DataType::MediumInt { .. }
            | DataType::Int { .. }
            | DataType::BigInt { .. } => ColumnKind::Int,
            DataType::Decimal { scale, .. } => ColumnKind::Decimal { scale },
            DataType::Double | DataType::Float => ColumnKind::Double,
            DataType::Year => ColumnKind::Int,
            DataType::Date => ColumnKind::Date,
            DataType::DateTime | DataType::Timestamp => ColumnKind::DateTime,
            DataType::Time => ColumnKind::Time,
            DataType::Enum(_) | DataType::Set(_) | DataType::Uuid => ColumnKind::TEXT,
            DataType::Char(_)
            | DataType::VarChar(_)
            | DataType::Binary(_)
            | DataType::VarBinary(_)
            | DataType::Text(_)
            | DataType::Blob(_) => ColumnKind::Text(t.default_collation()),
        }
    }

    /// The kind of a value whose type is not known statically.
    pub fn of_value(v: &Value) -> ColumnKind {
        match v {
            Value::Int(_) => ColumnKind::Int,
            Value::UInt(_) => ColumnKind::UInt,
            Value::Decimal(d) => ColumnKind::Decimal { scale: d.scale },
            Value::Double(_) => ColumnKind::Double,
            Value::Date(_) => ColumnKind::Date,
            Value::DateTime(_) => ColumnKind::DateTime,
            Value::Time(_) => ColumnKind::Time,
            Value::Null | Value::Bytes(_) => ColumnKind::TEXT,
        }
    }
}

/// A result-set column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Name (or alias) shown to the client.
    pub name: String,
    /// Source column name ("" for expressions).
    pub org_name: String,
    /// Source table as the query names it, its alias if it has one (""
    /// for expressions).
    pub table: String,
    /// Source table's own name ("" for expressions).
    pub org_table: String,
    pub schema: String,
    pub kind: ColumnKind,
    /// Display length in characters.
    pub length: u32,
    pub nullable: bool,
    /// The stored column's type when the column shows one as it is (its
    /// wire type, character set and display follow it: FLOAT, YEAR,
    /// BINARY, BLOB, TEXT…); None for expressions.
    pub data_type: Option<DataType>,
    /// The fractional-second digits a DATETIME/TIMESTAMP column shows
    /// (its `fsp`); 0 for expressions.
    pub fsp: u8,
    /// What a stored column is in its table (keys, defaults): the
    /// column definition's flags. Empty for expressions.
    pub attributes: ColumnAttributes,
    /// A stored column's DEFAULT (None for expressions): CREATE TABLE …
    /// SELECT keeps it.
    pub default: Option<lineardb_table::ColumnDefault>,
    /// The decimals the wire shows where an expression's differ from its
    /// kind's (NOT_FIXED_DEC for most strings, a rounded DOUBLE's digits).
    pub decimals: Option<u8>,
    /// How an expression's column is typed beyond its kind and length.
    pub wire: ExprWire,
    /// JSON text: a column declared JSON or a JSON function's result
    /// (MariaDB's extended metadata names its format `json`).
    pub json: bool,
    /// A signed integer whose length has no room for a sign (a literal
    /// not below zero: `1` is one character): where integers meet in one
    /// column (UNION, IF, COALESCE…) MariaDB 10.11.19 counts its digits
    /// and then one for the sign.
    pub unsigned_length: bool,
}

/// What MariaDB's type of an expression says beyond its value kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ExprWire {
    /// As its kind and length say: an integer a LONGLONG, a string a
    /// VARCHAR or, past 65,535 bytes, a MEDIUMBLOB or LONGBLOB.
    #[default]
    Kind,
    /// An integer MariaDB types LONG (four bytes in the binary protocol).
    Long,
    /// An integer MariaDB types TINYINT, SMALLINT or MEDIUMINT: a stored
    /// one's type, passed on by IF, CASE, COALESCE, MIN, MAX, UNION.
    Tiny,
    Short,
    Int24,
    /// The NULL literal: MariaDB's NULL type (BINARY(0) in a table).
    Null,
    /// A string typed BLOB whatever its length (GROUP_CONCAT).
    Blob,
    /// A string typed CHAR (UUID()).
    Fixed,
    /// A stored column's type (its `data_type`: FLOAT, YEAR, BIT, CHAR,
    /// BINARY, a TEXT or BLOB, ENUM, SET, UUID) that an expression passes
    /// on (MIN, MAX, IF, COALESCE, a scalar subquery): sent as MariaDB
    /// sends such an item, the type's code with an expression's flags
    /// and decimals (no ZEROFILL, BLOB, ENUM or SET flag; an ENUM or SET
    /// is a VARCHAR; a TEXT's length counted again in bytes).
    StoredType,
    /// A parameter alone (`SELECT ?`): typed at execution by the type its
    /// value is sent with, as MariaDB types it (the binary protocol's
    /// parameter types are the server's to read).
    Param(u16),
}

impl ExprWire {
    /// An integer sent in fewer than four bytes (TINY, SHORT): its
    /// value is read by its UNSIGNED flag.
    pub fn is_narrow(self) -> bool {
        matches!(self, ExprWire::Tiny | ExprWire::Short)
    }
}

/// A stored column's part in its table, as MariaDB flags it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColumnAttributes {
    /// A column of the primary key.
    pub primary_key: bool,
    /// The only column of a unique key.
    pub unique_key: bool,
    /// The first column of another key.
    pub multiple_key: bool,
    /// A column of any key.
    pub part_key: bool,
    pub auto_increment: bool,
    /// NOT NULL without a default (an INSERT must give it).
    pub no_default: bool,
}

impl ColumnAttributes {
    /// Column `c` of table `def`.
    pub fn of(def: &lineardb_table::TableDef, c: usize) -> ColumnAttributes {
        let column = &def.columns[c];
        let mut a = ColumnAttributes {
            primary_key: def.primary_key.contains(&c),
            auto_increment: column.auto_increment,
            no_default: !column.nullable
                && !column.auto_increment
                && column.default == lineardb_table::ColumnDefault::None,
            ..ColumnAttributes::default()
        };
        a.part_key = a.primary_key;
        for index in &def.indexes {
            if index.columns.contains(&c) {
                a.part_key = true;
            }
            if index.columns.first() == Some(&c) {
                if index.unique && index.columns.len() == 1 {
                    a.unique_key = true;
                } else {
                    a.multiple_key = true;
                }
            }
        }
        a
    }
}

/// The display length MariaDB gives a stored column of type `t`
/// (characters; an integer's declared display width if it has one).
pub fn display_length(t: DataType, display_width: Option<u32>, fsp: u8) -> u32 {
    if let (Some(w), true) = (display_width, t.is_integer()) {
        return w;
    }
    match t {
        DataType::TinyInt { unsigned } => 4 - u32::from(unsigned),
        DataType::SmallInt { unsigned } => 6 - u32::from(unsigned),
        DataType::MediumInt { unsigned } => 9 - u32::from(unsigned),
        DataType::Int { unsigned } => 11 - u32::from(unsigned),
        DataType::BigInt { .. } => 20,
        // Digits, the point, the sign.
        DataType::Decimal { precision, scale } => u32::from(precision) + u32::from(scale > 0) + 1,
        DataType::Double => 22,
        DataType::Float => 12,
        DataType::Year => 4,
        DataType::Date => 10,
        DataType::DateTime | DataType::Timestamp => {
            19 + if fsp > 0 { 1 + u32::from(fsp) } else { 0 }
        }
        DataType::Time => 10 + if fsp > 0 { 1 + u32::from(fsp) } else { 0 },
        DataType::Bit(n) => u32::from(n),
        DataType::Uuid => lineardb_table::types::UUID_TEXT_LEN as u32,
        // The longest member; every member and the commas between.
        DataType::Enum(m) => m
            .names()
            .iter()
            .map(|n| n.chars().count() as u32)
            .max()
            .unwrap_or(0),
        DataType::Set(m) => {
            m.names()
                .iter()
                .map(|n| n.chars().count() as u32)
                .sum::<u32>()
                + m.len().saturating_sub(1) as u32
        }
        DataType::Char(n)
        | DataType::VarChar(n)
        | DataType::Binary(n)
        | DataType::VarBinary(n)
        | DataType::Text(n)
        | DataType::Blob(n) => n,
    }
}

/// Whether column `i` of `def` was declared JSON: it has the CHECK
/// `json_valid` such a column is given.
pub(crate) fn declared_json(def: &lineardb_table::TableDef, i: usize) -> bool {
    let name = &def.columns[i].name;
    def.checks
        .iter()
        .any(|check| check.column == Some(i) && check.condition == format!("json_valid(`{name}`)"))
}

impl Column {
    /// Stored column `i` of the table `def` defines, seen as a column of
    /// `table` (its name or alias in the query).
    pub(crate) fn stored(def: &lineardb_table::TableDef, i: usize, table: &str) -> Column {
        let c = &def.columns[i];
        let mut col = Column::expr(&c.name, ColumnKind::of_column(c));
        col.org_name = c.name.clone();
        col.table = table.to_string();
        col.org_table = def.name.clone();
        col.schema = def.database.clone();
        col.nullable = c.nullable;
        col.data_type = Some(c.data_type);
        col.fsp = c.fsp;
        col.length = display_length(c.data_type, c.display_width, c.fsp);
        col.attributes = ColumnAttributes::of(def, i);
        col.default = Some(c.default.clone());
        col.json = declared_json(def, i);
        col
    }

    /// The integer type an integer expression's column shows, by its
    /// [`ExprWire`]: TINYINT … INT, else BIGINT.
    pub fn integer_type(&self) -> DataType {
        let unsigned = self.kind == ColumnKind::UInt;
        match self.wire {
            ExprWire::Tiny => DataType::TinyInt { unsigned },
            ExprWire::Short => DataType::SmallInt { unsigned },
            ExprWire::Int24 => DataType::MediumInt { unsigned },
            ExprWire::Long => DataType::Int { unsigned },
            _ => DataType::BigInt { unsigned },
        }
    }

    pub fn expr(name: &str, kind: ColumnKind) -> Column {
        Column {
            name: name.to_string(),
            org_name: String::new(),
            table: String::new(),
            org_table: String::new(),
            schema: String::new(),
            kind,
            length: match kind {
                ColumnKind::Int | ColumnKind::UInt => 21,
                ColumnKind::Decimal { .. } => 65,
                ColumnKind::Double => 22,
                ColumnKind::Date => 10,
                ColumnKind::DateTime => 19,
                ColumnKind::Time => 10,
                ColumnKind::Text(_) => 255,
            },
            nullable: true,
            data_type: None,
            fsp: 0,
            attributes: ColumnAttributes::default(),
            default: None,
            decimals: None,
            wire: ExprWire::Kind,
            json: false,
            unsigned_length: false,
        }
    }
}

/// Receives a result set: the columns once, then each row. The server
/// writes them to the client as they come (rows are not collected).
pub trait RowSink {
    fn columns(&mut self, columns: &[Column]) -> Result<()>;
    fn row(&mut self, row: &[Value]) -> Result<()>;

    /// The client's file `name` for LOAD DATA LOCAL, as the client sends
    /// it; read to its end before the statement's reply. A sink with no
    /// client refuses it (MariaDB's 4166).
    fn local_file(&mut self, name: &str) -> Result<Box<dyn std::io::Read + '_>> {
        let _ = name;
        Err(crate::error::SqlError::new(
            4166,
            "HY000",
            "The used command is not allowed because the MariaDB server or client has \
             disabled the local infile capability",
        ))
    }
}

/// How a statement ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A result set was sent to the sink.
    Rows,
    /// No result set: rows changed, generated id, extra text.
    Done {
        affected: u64,
        last_insert_id: u64,
        info: String,
    },
}

impl Outcome {
    pub fn done(affected: u64) -> Outcome {
        Outcome::Done {
            affected,
            last_insert_id: 0,
            info: String::new(),
        }
    }
}

/// A sink that keeps everything (tests, embedded use, derived tables).
#[derive(Default, Debug)]
pub struct CollectSink {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Value>>,
}

impl RowSink for CollectSink {
    fn columns(&mut self, columns: &[Column]) -> Result<()> {
        self.columns = columns.to_vec();
        Ok(())
    }
    fn row(&mut self, row: &[Value]) -> Result<()> {
        self.rows.push(row.to_vec());
        Ok(())
    }
}
