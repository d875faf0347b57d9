//! Data definition: CREATE/DROP DATABASE and TABLE, CREATE INDEX, DROP
//! INDEX, TRUNCATE, and the column definitions CREATE and ALTER TABLE
//! share.
use super::check_constraints::CheckSpec;
use super::foreign_key_defs::{spec_def, ForeignKeySpec};
use crate::catalog::statement_progress::ALTERING;
use crate::error::{Result, SqlError};
use crate::expr::object_name;
use crate::privileges::bits::{CREATE, CREATE_TEMPORARY_TABLES, DROP, INDEX, INSERT, SELECT};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::{types, Collation, ColumnDef, DataType, Table, TableSpec, Value};
use sqlparser::ast;
use std::sync::Arc;

fn data_type(t: &ast::DataType, column: &str) -> Result<DataType> {
    use ast::DataType as D;
    let len = |l: &Option<ast::CharacterLength>| match l {
        Some(ast::CharacterLength::IntegerLength { length, .. }) => *length as u32,
        _ => 1,
    };
    Ok(match t {
        // BIT(n > 64) is refused by `column_def`, which names the column.
        D::Bit(n) => DataType::Bit(n.unwrap_or(1).clamp(1, 64) as u8),
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
            let (precision, scale) = crate::decimal_type::decimal_digits(info, column, column)?;
            DataType::Decimal { precision, scale }
        }
        D::Double(ast::ExactNumberInfo::None) | D::DoublePrecision | D::Real | D::Float8 => {
            DataType::Double
        }
        // FLOAT(p): a double past 24 bits of precision.
        D::Float(ast::ExactNumberInfo::None) | D::Float4 => DataType::Float,
        D::Float(ast::ExactNumberInfo::Precision(p)) if *p <= 24 => DataType::Float,
        D::Float(ast::ExactNumberInfo::Precision(p)) if *p <= 53 => DataType::Double,
        D::Custom(name, modifiers)
            if object_name(name).join(".").eq_ignore_ascii_case("YEAR")
                && (modifiers.is_empty() || modifiers == &["4"]) =>
        {
            DataType::Year
        }
        D::Binary(n) => DataType::Binary(n.unwrap_or(1) as u32),
        D::Varbinary(Some(ast::BinaryLength::IntegerLength { length })) => {
            DataType::VarBinary(*length as u32)
        }
        D::Date => DataType::Date,
        D::Datetime(_) => DataType::DateTime,
        D::Time(_, ast::TimezoneInfo::None) => DataType::Time,
        D::Timestamp(_, ast::TimezoneInfo::None) => DataType::Timestamp,
        D::Char(l) | D::Character(l) => DataType::Char(len(l)),
        D::Varchar(l) | D::CharacterVarying(l) => DataType::VarChar(len(l)),
        D::TinyText => DataType::Text(types::TINY_LEN),
        D::Text => DataType::Text(types::TEXT_LEN),
        D::MediumText => DataType::Text(types::MEDIUM_LEN),
        // JSON: LONGTEXT in utf8mb4_bin, checked by `json_valid` (see
        // `column_def`), as MariaDB defines it.
        D::LongText | D::JSON => DataType::Text(types::LONG_LEN),
        D::TinyBlob => DataType::Blob(types::TINY_LEN),
        // BLOB(n): the smallest BLOB type that holds n bytes.
        D::Blob(n) => DataType::Blob(match n {
            Some(n) if *n <= types::TINY_LEN as u64 => types::TINY_LEN,
            Some(n) if *n > types::MEDIUM_LEN as u64 => types::LONG_LEN,
            Some(n) if *n > types::TEXT_LEN as u64 => types::MEDIUM_LEN,
            _ => types::TEXT_LEN,
        }),
        D::MediumBlob => DataType::Blob(types::MEDIUM_LEN),
        D::LongBlob => DataType::Blob(types::LONG_LEN),
        D::Bool | D::Boolean => DataType::TinyInt { unsigned: false },
        D::Uuid => DataType::Uuid,
        D::Enum(members, None) => {
            let names = members
                .iter()
                .map(|m| match m {
                    ast::EnumMember::Name(n) => Ok(member_name(n)),
                    ast::EnumMember::NamedValue(..) => {
                        Err(SqlError::unsupported("ENUM members with values"))
                    }
                })
                .collect::<Result<Vec<_>>>()?;
            DataType::Enum(lineardb_table::Members::intern(&names))
        }
        D::Set(members) => DataType::Set(lineardb_table::Members::intern(
            &members.iter().map(|n| member_name(n)).collect::<Vec<_>>(),
        )),
        other => return Err(SqlError::unsupported(format!("type {other}"))),
    })
}

/// An ENUM or SET member as the column keeps it: trailing spaces dropped,
/// as MariaDB drops them.
fn member_name(name: &str) -> String {
    name.trim_end_matches(' ').to_string()
}

/// MariaDB's checks of an ENUM's or SET's members: at most 65,535 (an
/// ENUM) or 64 (a SET, whose members hold no comma), none the same as
/// another in the column's collation.
fn check_members(t: DataType, column: &str) -> Result<()> {
    let (m, kind) = match t {
        DataType::Enum(m) => (m, "ENUM"),
        DataType::Set(m) => (m, "SET"),
        _ => return Ok(()),
    };
    if (kind == "ENUM" && m.len() > 65_535) || (kind == "SET" && m.len() > 64) {
        return Err(SqlError::new(
            1097,
            "HY000",
            format!("Too many strings for column {column} and {kind}"),
        ));
    }
    let names = m.names();
    for (i, n) in names.iter().enumerate() {
        if kind == "SET" && n.contains(',') {
            return Err(SqlError::new(
                1367,
                "22007",
                format!("Illegal set '{n}' value found during parsing"),
            ));
        }
        if let Some(first) = names[..i].iter().find(|o| {
            Collation::default()
                .compare(o.as_bytes(), n.as_bytes())
                .is_eq()
        }) {
            return Err(SqlError::new(
                1291,
                "HY000",
                format!("Column '{column}' has duplicated value '{first}' in {kind}"),
            ));
        }
    }
    Ok(())
}

/// An integer type's declared display width (BOOLEAN is `tinyint(1)`).
fn display_width(t: &ast::DataType) -> Option<u32> {
    use ast::DataType as D;
    match t {
        D::Bool | D::Boolean => Some(1),
        D::TinyInt(w)
        | D::TinyIntUnsigned(w)
        | D::SmallInt(w)
        | D::SmallIntUnsigned(w)
        | D::MediumInt(w)
        | D::MediumIntUnsigned(w)
        | D::Int(w)
        | D::Integer(w)
        | D::IntUnsigned(w)
        | D::IntegerUnsigned(w)
        | D::BigInt(w)
        | D::BigIntUnsigned(w) => w.map(|w| w.min(255) as u32),
        _ => None,
    }
}

/// Which key parts are declared DESC (empty: none is).
pub(crate) fn descending_parts(cols: &[ast::IndexColumn]) -> Vec<bool> {
    let parts: Vec<bool> = cols
        .iter()
        .map(|c| matches!(c.column.options.sort, Some(ast::OrderBySort::Desc)))
        .collect();
    if parts.contains(&true) {
        parts
    } else {
        Vec::new()
    }
}

/// A primary key's columns. A DESC part is not kept for a primary key yet
/// (MariaDB keeps it): 1235, not a clause dropped.
pub(crate) fn primary_key_list(cols: &[ast::IndexColumn]) -> Result<Vec<String>> {
    if !descending_parts(cols).is_empty() {
        return Err(SqlError::unsupported("DESC in a PRIMARY KEY"));
    }
    ident_list(cols)
}

pub(crate) fn ident_list(cols: &[ast::IndexColumn]) -> Result<Vec<String>> {
    cols.iter()
        .map(|c| match &c.column.expr {
            ast::Expr::Identifier(i) => Ok(i.value.clone()),
            other => Err(SqlError::unsupported(format!(
                "index on expression {other}"
            ))),
        })
        .collect()
}

/// When `e` is CURRENT_TIMESTAMP or a synonym (NOW(), LOCALTIMESTAMP…):
/// the fractional-second digits it asks for (0 without any).
pub(crate) fn current_timestamp_digits(e: &ast::Expr) -> Option<u8> {
    let (name, digits) = match e {
        ast::Expr::Function(f) => {
            let digits = match &f.args {
                ast::FunctionArguments::None => 0,
                ast::FunctionArguments::List(l) => match l.args.as_slice() {
                    [] => 0,
                    [ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(ast::Expr::Value(v)))] => {
                        match &v.value {
                            ast::Value::Number(n, _) => n.parse().ok().filter(|&d: &u8| d <= 6)?,
                            _ => return None,
                        }
                    }
                    _ => return None,
                },
                ast::FunctionArguments::Subquery(_) => return None,
            };
            (object_name(&f.name).join("."), digits)
        }
        ast::Expr::Identifier(i) => (i.value.clone(), 0),
        _ => return None,
    };
    ["CURRENT_TIMESTAMP", "NOW", "LOCALTIME", "LOCALTIMESTAMP"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
        .then_some(digits)
}

/// The fractional-second digits a DATETIME(n) / TIMESTAMP(n) / TIME(n) keeps
/// (MariaDB's 1426 past 6).
fn fraction_digits(t: &ast::DataType, column: &str) -> Result<u8> {
    let given = match t {
        ast::DataType::Datetime(p) | ast::DataType::Timestamp(p, _) | ast::DataType::Time(p, _) => {
            p.unwrap_or(0)
        }
        _ => 0,
    };
    if given > 6 {
        return Err(SqlError::new(
            1426,
            "42000",
            format!("Too big precision {given} specified for '{column}'. Maximum is 6."),
        ));
    }
    Ok(given as u8)
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

/// A BIT column's DEFAULT, kept as a bit literal `b'…'` (a number is the
/// number, a string its bytes, as for a stored value); 1067 when it does
/// not fit.
fn bit_default(e: &ast::Expr, t: DataType, column: &str) -> Result<lineardb_table::ColumnDefault> {
    let value = match e {
        ast::Expr::Value(v) if matches!(v.value, ast::Value::Null) => {
            return Ok(lineardb_table::ColumnDefault::Null)
        }
        ast::Expr::Value(v) => crate::expr::literal(&v.value)?,
        other => return Err(SqlError::unsupported(format!("DEFAULT {other}"))),
    };
    match t.coerce(value, column) {
        Ok(Value::UInt(n)) => Ok(lineardb_table::ColumnDefault::Literal(format!("b'{n:b}'"))),
        _ => Err(SqlError::new(
            1067,
            "42000",
            format!("Invalid default value for '{column}'"),
        )),
    }
}

/// A column as CREATE TABLE, ALTER TABLE … CHANGE or MODIFY define it.
pub(crate) struct ColumnSpec {
    pub def: ColumnDef,
    /// `PRIMARY KEY` among its options.
    pub primary: bool,
    /// `UNIQUE` among its options.
    pub unique: bool,
    /// `REFERENCES …` among its options: a FOREIGN KEY of this column.
    pub references: Vec<ast::ForeignKeyConstraint>,
    /// `CHECK (…)` among its options.
    pub checks: Vec<ast::Expr>,
}

/// The column `c` defines in a table of collation `table_collation`. A
/// string's character set may be utf8mb4 or latin1; its collation is one
/// of [`Collation::named`]'s: its COLLATE's (1253 when not of its
/// CHARACTER SET), else its CHARACTER SET's default, else the table's.
pub(crate) fn column_def(c: &ast::ColumnDef, table_collation: Collation) -> Result<ColumnSpec> {
    if let ast::DataType::Bit(Some(65..)) = c.data_type {
        return Err(SqlError::new(
            1439,
            "42000",
            format!(
                "Display width out of range for '{}' (max = 64)",
                c.name.value
            ),
        ));
    }
    let mut def = ColumnDef::new(&c.name.value, data_type(&c.data_type, &c.name.value)?);
    check_members(def.data_type, &c.name.value)?;
    def.display_width = display_width(&c.data_type);
    def.fsp = fraction_digits(&c.data_type, &c.name.value)?;
    let (mut primary, mut unique) = (false, false);
    let mut references = Vec::new();
    let mut checks = Vec::new();
    let mut own_collation = false;
    // The CHARACTER SET and COLLATE clauses, as named.
    let (mut charset, mut collate): (Option<String>, Option<String>) = (None, None);
    if matches!(c.data_type, ast::DataType::JSON) {
        own_collation = true;
        def = def.collate(Collation::Utf8mb4Bin);
        checks.push(json_valid_check(&c.name));
    }
    // DEFAULT / ON UPDATE CURRENT_TIMESTAMP are for these types, with the
    // column's own digits (or none).
    let takes_now = matches!(def.data_type, DataType::DateTime | DataType::Timestamp);
    let invalid_default = || {
        SqlError::new(
            1067,
            "42000",
            format!("Invalid default value for '{}'", c.name.value),
        )
    };
    for o in &c.options {
        match &o.option {
            ast::ColumnOption::NotNull => def.nullable = false,
            ast::ColumnOption::Null => def.nullable = true,
            ast::ColumnOption::Default(e) if current_timestamp_digits(e).is_some() => {
                if !takes_now {
                    return Err(invalid_default());
                }
                def.default = lineardb_table::ColumnDefault::CurrentTimestamp
            }
            ast::ColumnOption::OnUpdate(e) if current_timestamp_digits(e).is_some() => {
                if !takes_now {
                    return Err(SqlError::new(
                        1294,
                        "HY000",
                        format!("Invalid ON UPDATE clause for '{}' column", c.name.value),
                    ));
                }
                def.on_update_now = true
            }
            ast::ColumnOption::Default(e) if matches!(def.data_type, DataType::Bit(_)) => {
                def.default = bit_default(e, def.data_type, &c.name.value)?
            }
            ast::ColumnOption::Default(e) => def.default = column_default(e)?,
            ast::ColumnOption::PrimaryKey(_) => {
                primary = true;
                def.nullable = false;
            }
            ast::ColumnOption::Unique(_) => unique = true,
            ast::ColumnOption::DialectSpecific(tokens)
                if tokens
                    .iter()
                    .any(|t| t.to_string().eq_ignore_ascii_case("AUTO_INCREMENT")) =>
            {
                def.auto_increment = true;
                def.nullable = false;
            }
            ast::ColumnOption::CharacterSet(name) => charset = Some(object_name(name).join(".")),
            ast::ColumnOption::Collation(name) => collate = Some(object_name(name).join(".")),
            ast::ColumnOption::Comment(text) => def.comment = text.clone(),
            // A column's REFERENCES makes a foreign key (MariaDB 10.5+).
            ast::ColumnOption::Check(c) => {
                super::check_constraints::enforced(c)?;
                checks.push(c.expr.as_ref().clone())
            }
            ast::ColumnOption::ForeignKey(fk) => {
                let mut fk = fk.clone();
                fk.columns = vec![c.name.clone()];
                references.push(fk);
            }
            other => return Err(SqlError::unsupported(format!("column option {other}"))),
        }
    }
    let takes_collation = def.data_type.has_character_set();
    if !own_collation && charset.is_none() && collate.is_none() && takes_collation {
        def = def.collate(table_collation);
    }
    if let Some(collation) = clauses_collation(def.data_type, charset, collate)? {
        def = def.collate(collation);
    }
    // A time's literal default is kept as the column stores it.
    if let lineardb_table::ColumnDefault::Literal(text) = &def.default {
        match def.coerce(Value::str(text)) {
            Ok(Value::DateTime(t)) if takes_now => {
                def.default = lineardb_table::ColumnDefault::Literal(types::format_datetime_digits(
                    t, def.fsp,
                ))
            }
            Ok(Value::Time(t)) => {
                def.default =
                    lineardb_table::ColumnDefault::Literal(types::format_time_digits(t, def.fsp))
            }
            _ => {}
        }
    }
    Ok(ColumnSpec {
        def,
        primary,
        unique,
        references,
        checks,
    })
}

/// `json_valid(`column`)`: the CHECK a JSON column carries.
fn json_valid_check(column: &ast::Ident) -> ast::Expr {
    let quoted = ast::Ident::with_quote('`', column.value.clone());
    ast::Expr::Function(ast::Function {
        name: ast::ObjectName::from(vec![ast::Ident::new("json_valid")]),
        uses_odbc_syntax: false,
        parameters: ast::FunctionArguments::None,
        args: ast::FunctionArguments::List(ast::FunctionArgumentList {
            duplicate_treatment: None,
            args: vec![ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(
                ast::Expr::Identifier(quoted),
            ))],
            clauses: Vec::new(),
        }),
        filter: None,
        null_treatment: None,
        over: None,
        within_group: Vec::new(),
    })
}

/// A column's DEFAULT: a literal (NULL: none but NULL).
pub(crate) fn column_default(e: &ast::Expr) -> Result<lineardb_table::ColumnDefault> {
    Ok(match default_text(e)? {
        Some(s) => lineardb_table::ColumnDefault::Literal(s),
        None => lineardb_table::ColumnDefault::Null,
    })
}

/// What CREATE TABLE's table options say. The engine (any MariaDB's own name: lineardb
/// stands in, as MariaDB substitutes engines), the default character set
/// (utf8mb4) and collation (see [`default_collation`]) are checked;
/// options about the physical storage of an InnoDB or Aria table
/// (ROW_FORMAT, STATS_*, …) have no counterpart here and no effect on
/// results (they are kept, to be shown); anything else is refused.
pub(crate) fn table_options(
    options: &ast::CreateTableOptions,
    comment: &Option<ast::CommentDef>,
) -> Result<TableOptions> {
    const ENGINES: &[&str] = &["lineardb", "InnoDB", "MyISAM", "Aria"];
    const OTHER_ENGINES: &[&str] = &[
        "MEMORY",
        "HEAP",
        "CSV",
        "ARCHIVE",
        "BLACKHOLE",
        "MRG_MyISAM",
        "MERGE",
        "SEQUENCE",
        "PERFORMANCE_SCHEMA",
        "FEDERATED",
        "CONNECT",
        "ROCKSDB",
        "SPIDER",
        "S3",
        "COLUMNSTORE",
        "Mroonga",
        "OQGRAPH",
        "SPHINX",
    ];
    let text = |c: &ast::CommentDef| match c {
        ast::CommentDef::WithEq(s) | ast::CommentDef::WithoutEq(s) => s.clone(),
    };
    let mut out = TableOptions {
        auto_increment: 0,
        comment: comment.as_ref().map(text).unwrap_or_default(),
        storage: Vec::new(),
        collation: None,
    };
    let (mut charset, mut collation) = (None, None);
    let list = match options {
        ast::CreateTableOptions::None => &[][..],
        ast::CreateTableOptions::Plain(l) => l,
        other => return Err(SqlError::unsupported(format!("table options {other}"))),
    };
    for option in list {
        match option {
            ast::SqlOption::Comment(c) => out.comment = text(c),
            ast::SqlOption::NamedParenthesizedList(l)
                if l.key.value.eq_ignore_ascii_case("ENGINE") && l.values.is_empty() =>
            {
                let name = l.name.as_ref().map(|n| n.value.as_str()).unwrap_or("");
                if !ENGINES.iter().any(|e| e.eq_ignore_ascii_case(name)) {
                    // MariaDB's other engines are not here yet; a name it
                    // does not know is its 1286.
                    return Err(
                        if OTHER_ENGINES.iter().any(|e| e.eq_ignore_ascii_case(name)) {
                            SqlError::unsupported(format!("ENGINE={name}"))
                        } else {
                            SqlError::new(1286, "42000", format!("Unknown storage engine '{name}'"))
                        },
                    );
                }
            }
            ast::SqlOption::KeyValue { key, value } => {
                let key = key.value.to_ascii_uppercase();
                let word = match value {
                    ast::Expr::Identifier(i) => i.value.clone(),
                    ast::Expr::Value(v) => match &v.value {
                        ast::Value::SingleQuotedString(s) | ast::Value::Number(s, _) => s.clone(),
                        other => other.to_string(),
                    },
                    other => other.to_string(),
                };
                match key.as_str() {
                    "AUTO_INCREMENT" => {
                        out.auto_increment = word
                            .parse()
                            .map_err(|_| SqlError::syntax(format!("AUTO_INCREMENT = {word}")))?
                    }
                    "DEFAULT CHARSET" | "CHARSET" | "DEFAULT CHARACTER SET" | "CHARACTER SET" => {
                        charset = Some(word)
                    }
                    "DEFAULT COLLATE" | "COLLATE" => collation = Some(word),
                    k if crate::parser::alter_items::STORAGE_OPTIONS.contains(&k) => {
                        out.storage.retain(|(name, _)| name != k);
                        out.storage.push((k.to_string(), word.to_ascii_uppercase()));
                    }
                    _ => return Err(SqlError::unsupported(format!("table option {option}"))),
                }
            }
            other => return Err(SqlError::unsupported(format!("table option {other}"))),
        }
    }
    out.collation = default_collation(charset.as_deref(), collation.as_deref())?;
    Ok(out)
}

/// The default collation that `[DEFAULT] CHARACTER SET` and `[DEFAULT]
/// COLLATE` name for a database or table (None: neither given). The
/// character set is utf8mb4 (utf8mb3 and utf8 are read as utf8mb4, as for
/// columns), its collation utf8mb4's default unless COLLATE names another
/// of its collations; 1253 for a collation of another character set.
pub(crate) fn default_collation(
    charset: Option<&str>,
    collation: Option<&str>,
) -> Result<Option<Collation>> {
    let charset_default = match charset {
        Some(name) => Some(crate::charset::charset_default(name)?),
        None => None,
    };
    match collation {
        None => Ok(charset_default),
        Some(name) => {
            let c = match crate::charset::collation_named(name) {
                Ok(c) => c,
                // Without a CHARACTER SET, another character set's
                // collation names that character set: not supported yet.
                Err(e) if e.code == 1253 && charset.is_none() => {
                    return Err(SqlError::unsupported(format!("COLLATE {name}")))
                }
                Err(e) => return Err(e),
            };
            if c == Collation::Binary {
                return Err(SqlError::unsupported(format!("COLLATE {name}")));
            }
            if let Some(d) = charset_default {
                crate::charset::check_collation_of(c, d.charset())?;
            }
            Ok(Some(c))
        }
    }
}

/// The collation a column's CHARACTER SET and COLLATE clauses give it,
/// resolved as a table's are (None: the column keeps the collation it
/// has). A number or a date takes COLLATE and drops it, as MariaDB does;
/// the rest not supported yet is 1235.
fn clauses_collation(
    data_type: DataType,
    charset: Option<String>,
    collate: Option<String>,
) -> Result<Option<Collation>> {
    let Some(collation) = default_collation(charset.as_deref(), collate.as_deref())? else {
        return Ok(None);
    };
    let clause = || match &collate {
        Some(name) => format!("COLLATE {name}"),
        None => format!("CHARACTER SET {}", charset.as_deref().unwrap_or_default()),
    };
    if charset.is_none() && !data_type.is_string() && !data_type.has_members() {
        return Ok(None);
    }
    // An ENUM's or SET's members match in the default collation only, for
    // now; a binary string has none.
    if !data_type.has_character_set()
        || (data_type.has_members() && collation != Collation::default())
    {
        return Err(SqlError::unsupported(clause()));
    }
    Ok(Some(collation))
}

/// CREATE TABLE's table options that the table keeps.
pub(crate) struct TableOptions {
    /// `AUTO_INCREMENT = n` (0: not given).
    pub auto_increment: u64,
    pub comment: String,
    /// Physical storage options, kept to be shown: (name, value).
    pub storage: Vec<(String, String)>,
    /// `DEFAULT CHARSET=… COLLATE=…` (None: not given).
    pub collation: Option<Collation>,
}

impl Session {
    /// Builds `specs` on `t` in place (ADD INDEX, CREATE INDEX), with the
    /// session's parallel threads (default: the cores), its progress shown
    /// as one stage.
    pub(super) fn add_indexes_in_place(
        &self,
        t: &Arc<Table>,
        specs: &[lineardb_table::IndexSpec],
    ) -> Result<Arc<Table>> {
        let slot = self.slot.clone();
        slot.enter_stage(ALTERING, 1, 1, t.estimate_rows());
        let advance = |rows| slot.stage_counts().advance(rows);
        Ok(self
            .engine
            .add_indexes(t, specs, self.parallel_threads, &advance)?
            .0)
    }

    pub(crate) fn create_table(&mut self, ct: &ast::CreateTable) -> Result<Outcome> {
        let parts = object_name(&ct.name);
        let (db, name) = self.qualified(&parts)?;
        if ct.temporary {
            self.require_database(&db, CREATE_TEMPORARY_TABLES)?;
        } else {
            self.require_table(&db, &name, CREATE)?;
        }
        let like = match &ct.like {
            Some(
                ast::CreateTableLikeKind::Plain(l) | ast::CreateTableLikeKind::Parenthesized(l),
            ) => {
                if l.defaults.is_some() || !ct.columns.is_empty() || !ct.constraints.is_empty() {
                    return Err(SqlError::unsupported("CREATE TABLE ... LIKE with more"));
                }
                Some(self.table(&object_name(&l.name), SELECT)?)
            }
            None => None,
        };
        let exists = if ct.temporary {
            self.tables.is_temporary(&db, &name)
        } else {
            self.engine.table(&db, &name).is_ok()
        };
        if exists {
            let message = format!("Table '{name}' already exists");
            if ct.if_not_exists {
                self.warnings.push((1050, message));
                return Ok(Outcome::done(0));
            }
            return Err(SqlError::new(1050, "42S01", message));
        }
        let mut spec = TableSpec::new(&db, &name);
        let options = table_options(&ct.table_options, &ct.comment)?;
        spec.auto_increment_start = options.auto_increment;
        spec.comment = options.comment;
        spec.storage_options = options.storage;
        spec.collation = match options.collation {
            Some(c) => c,
            None => self.engine.database_collation(&db)?,
        };
        if ct.temporary {
            // Private to this session; its catalog entry only lets a start
            // after a crash free its pages.
            spec = spec.temporary(self.tables.owner(&self.engine));
        }
        if let Some(source) = like {
            // The source's columns, keys and indexes (not its rows).
            let d = source.def();
            let named = |cols: &[usize]| -> Vec<String> {
                cols.iter().map(|&c| d.columns[c].name.clone()).collect()
            };
            spec.columns = d.columns.clone();
            spec.comment = d.comment.clone();
            spec.storage_options = d.storage_options.clone();
            spec.collation = d.collation;
            // CHECK constraints come along (foreign keys do not, as in MariaDB).
            spec.checks = d.checks.clone();
            spec.primary_key = named(&d.primary_key);
            spec.indexes = d
                .indexes
                .iter()
                .map(|ix| lineardb_table::IndexSpec {
                    name: ix.name.clone(),
                    columns: named(&ix.columns),
                    unique: ix.unique,
                    descending: ix.descending.clone(),
                })
                .collect();
            self.engine.create_table(spec)?;
            if ct.temporary {
                self.tables.add_temporary(&db, &name);
            }
            return Ok(Outcome::done(0));
        }
        let mut pk: Vec<String> = Vec::new();
        let mut foreign_keys = Vec::new();
        let mut check_specs = Vec::new();
        for c in &ct.columns {
            let column = column_def(c, spec.collation)?;
            if column.primary {
                pk = vec![c.name.value.clone()];
            }
            if column.unique {
                spec.indexes
                    .push((c.name.value.clone(), vec![c.name.value.clone()], true).into())
            }
            check_specs.extend(CheckSpec::of_column(&c.name.value, &column.checks));
            for fk in &column.references {
                if ct.temporary {
                    return Err(SqlError::unsupported("FOREIGN KEY on a temporary table"));
                }
                foreign_keys.push(ForeignKeySpec::parse(fk, &db)?);
            }
            spec.columns.push(column.def);
        }
        for con in &ct.constraints {
            match con {
                ast::TableConstraint::PrimaryKey(p) => pk = primary_key_list(&p.columns)?,
                ast::TableConstraint::Index(ix) => spec.indexes.push(lineardb_table::IndexSpec {
                    name: ix
                        .name
                        .as_ref()
                        .map(|n| n.value.clone())
                        .unwrap_or_else(|| {
                            ident_list(&ix.columns)
                                .map(|c| c[0].clone())
                                .unwrap_or_default()
                        }),
                    columns: ident_list(&ix.columns)?,
                    unique: false,
                    descending: descending_parts(&ix.columns),
                }),
                ast::TableConstraint::Unique(u) => spec.indexes.push(lineardb_table::IndexSpec {
                    name: u
                        .name
                        .as_ref()
                        .or(u.index_name.as_ref())
                        .map(|n| n.value.clone())
                        .unwrap_or_else(|| {
                            ident_list(&u.columns)
                                .map(|c| c[0].clone())
                                .unwrap_or_default()
                        }),
                    columns: ident_list(&u.columns)?,
                    unique: true,
                    descending: descending_parts(&u.columns),
                }),
                ast::TableConstraint::Check(c) => check_specs.push(CheckSpec::of_table(c)?),
                ast::TableConstraint::ForeignKey(fk) => {
                    if ct.temporary {
                        return Err(SqlError::unsupported("FOREIGN KEY on a temporary table"));
                    }
                    foreign_keys.push(ForeignKeySpec::parse(fk, &db)?);
                }
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
        if let Some(query) = &ct.query {
            if !check_specs.is_empty() {
                return Err(SqlError::unsupported("CHECK in CREATE TABLE … SELECT"));
            }
            if !foreign_keys.is_empty() {
                return Err(SqlError::unsupported(
                    "FOREIGN KEY in CREATE TABLE … SELECT",
                ));
            }
            if !ct.temporary {
                self.require_table(&db, &name, INSERT)?;
            }
            let rows = self.create_as_select(spec, query)?;
            if ct.temporary {
                self.tables.add_temporary(&db, &name);
            }
            return Ok(Outcome::Done {
                affected: rows,
                last_insert_id: 0,
                info: format!("Records: {rows}  Duplicates: 0  Warnings: 0"),
            });
        }
        if !foreign_keys.is_empty() {
            self.add_foreign_keys(&mut spec, foreign_keys)?;
        }
        if !check_specs.is_empty() {
            spec.checks = self.check_defs(&spec_def(&spec), check_specs)?;
        }
        self.engine.create_table(spec)?;
        if ct.temporary {
            self.tables.add_temporary(&db, &name);
        }
        Ok(Outcome::done(0))
    }

    pub(crate) fn create_index(&mut self, ci: &ast::CreateIndex) -> Result<Outcome> {
        let parts = object_name(&ci.table_name);
        let t = self.table(&parts, INDEX)?;
        let name = ci
            .name
            .as_ref()
            .map(|n| object_name(n).join("."))
            .ok_or_else(|| SqlError::syntax("CREATE INDEX needs a name"))?;
        let spec = lineardb_table::IndexSpec {
            name,
            columns: ident_list(&ci.columns)?,
            unique: ci.unique,
            descending: descending_parts(&ci.columns),
        };
        self.add_indexes_in_place(&t, &[spec])?;
        // An index built in place copies no rows (MariaDB's info says so).
        Ok(Outcome::Done {
            affected: 0,
            last_insert_id: 0,
            info: "Records: 0  Duplicates: 0  Warnings: 0".into(),
        })
    }

    /// DROP [TEMPORARY] TABLE / DATABASE. A table name means the session's
    /// temporary table of that name if it has one; with `temporary`, only
    /// that.
    pub(crate) fn drop_objects(
        &mut self,
        object_type: &ast::ObjectType,
        if_exists: bool,
        temporary: bool,
        names: &[ast::ObjectName],
    ) -> Result<Outcome> {
        // MariaDB drops every table it can, then reports the ones it could
        // not: those missing in one 1051, else the first refused.
        let mut missing: Vec<String> = Vec::new();
        let mut dropped_tables = 0u64;
        let mut refused: Option<SqlError> = None;
        for n in names {
            let parts = object_name(n);
            match object_type {
                ast::ObjectType::Table => {
                    let (db, name) = self.qualified(&parts)?;
                    if self.tables.is_temporary(&db, &name) {
                        let in_transaction = self.txn.is_some();
                        self.tables
                            .drop_temporary(&self.engine, &db, &name, in_transaction)?;
                        continue;
                    }
                    // A table another references (one named earlier in
                    // the statement is gone already, as in MariaDB).
                    if self.foreign_key_checks()
                        && !temporary
                        && self.referenced_by(&db, &name)?.is_some()
                    {
                        refused.get_or_insert_with(|| {
                            SqlError::new(
                                1451,
                                "23000",
                                "Cannot delete or update a parent row: a foreign key constraint fails",
                            )
                        });
                        continue;
                    }
                    if !temporary {
                        self.require_table(&db, &name, DROP)?;
                        if self.engine.view(&db, &name)?.is_some() {
                            return Err(SqlError::new(
                                1965,
                                "42S02",
                                format!("'{db}.{name}' is a view"),
                            ));
                        }
                    }
                    let exists = !temporary
                        && match self.engine.drop_table(&db, &name, false) {
                            Ok(()) => true,
                            Err(
                                lineardb_table::Error::NoSuchTable(_)
                                | lineardb_table::Error::NoSuchDatabase(_),
                            ) => false,
                            Err(e) => return Err(e.into()),
                        };
                    if !exists {
                        missing.push(format!("{db}.{name}"));
                    }
                }
                ast::ObjectType::Database | ast::ObjectType::Schema => {
                    let name = parts.join(".");
                    if crate::names::is_system_schema(&name) {
                        // The server's own schemas (the account store among
                        // them) are not the user's to drop.
                        return Err(self.database_denied(&name));
                    }
                    self.require_database(&name, DROP)?;
                    // MariaDB's reply says SERVER_STATUS_DB_DROPPED, also
                    // where IF EXISTS found none.
                    self.report.database_dropped = true;
                    // MariaDB counts the tables it drops; IF EXISTS of a
                    // database that does not exist leaves a note.
                    if self.engine.database_exists(&name)? {
                        dropped_tables += self.engine.tables(&name)?.len() as u64;
                    } else if if_exists {
                        self.warnings.push((
                            1008,
                            format!("Can't drop database '{name}'; database doesn't exist"),
                        ));
                        continue;
                    }
                    self.engine
                        .drop_database(&name, if_exists)
                        .map_err(|e| match e {
                            lineardb_table::Error::NoSuchDatabase(_) => SqlError::new(
                                1008,
                                "HY000",
                                format!("Can't drop database '{name}'; database doesn't exist"),
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
                        self.facts_changed();
                    }
                }
                other => return Err(SqlError::unsupported(format!("DROP {other}"))),
            }
        }
        if let Some(e) = refused {
            return Err(e);
        }
        if !missing.is_empty() {
            let unknown = SqlError::new(
                1051,
                "42S02",
                format!("Unknown table '{}'", missing.join(",")),
            );
            if !if_exists {
                return Err(unknown);
            }
            self.warnings.push((unknown.code, unknown.message));
        }
        Ok(Outcome::done(dropped_tables))
    }

    pub(crate) fn truncate(&mut self, tr: &ast::Truncate) -> Result<Outcome> {
        for t in &tr.table_names {
            let parts = object_name(&t.name);
            let table = self.table(&parts, DROP)?;
            if self.foreign_key_checks() {
                let d = table.def();
                if let Some((child, fk)) = self.referenced_by(&d.database, &d.name)? {
                    return Err(SqlError::new(
                        1701,
                        "42000",
                        format!(
                            "Cannot truncate a table referenced in a foreign key constraint ({})",
                            super::foreign_key_defs::quoted(&child, &fk, true)
                        ),
                    ));
                }
            }
            self.engine.truncate(&table)?;
        }
        Ok(Outcome::done(0))
    }

    /// CREATE DATABASE [CHARACTER SET …] [COLLATE …].
    pub(crate) fn create_database(
        &mut self,
        db_name: &ast::ObjectName,
        if_not_exists: bool,
        charset: Option<&str>,
        collation: Option<&str>,
    ) -> Result<Outcome> {
        let name = object_name(db_name).join(".");
        self.require_database(&name, CREATE)?;
        let collation = default_collation(charset, collation)?.unwrap_or_default();
        // IF NOT EXISTS of a database that exists: nothing made, a note.
        if if_not_exists && self.engine.database_exists(&name)? {
            self.warnings.push((
                1007,
                format!("Can't create database '{name}'; database exists"),
            ));
            return Ok(Outcome::done(0));
        }
        self.engine
            .create_database_collated(&name, if_not_exists, collation)?;
        Ok(Outcome::done(1))
    }

    /// DROP INDEX ... ON table.
    pub(crate) fn drop_index(
        &mut self,
        table: &ast::ObjectName,
        names: &[ast::ObjectName],
    ) -> Result<Outcome> {
        let mut t = self.table(&object_name(table), INDEX)?;
        for n in names {
            let index = object_name(n).join(".");
            t = self.engine.remove_index(&t, &index)?;
        }
        Ok(Outcome::done(0))
    }
}
