//! Statements outside strict mode (an `sql_mode` with neither
//! STRICT_TRANS_TABLES nor STRICT_ALL_TABLES): a value its column cannot
//! hold is adjusted — clamped into range, cut to length, read as the
//! number it starts with — with MariaDB's warning, instead of failing the
//! statement. What cannot be adjusted (a wrong date) still fails.
use crate::error::{Result, SqlError};
use lineardb_table::{ColumnDef, DataType, Dec, Error, TableDef, Value};

/// Whether `sql_mode` names one of `modes`.
fn has_mode(sql_mode: &str, modes: &[&str]) -> bool {
    sql_mode
        .split(',')
        .any(|m| modes.iter().any(|x| m.trim().eq_ignore_ascii_case(x)))
}

/// MariaDB's sql_mode flags, in the order it lists them.
const SQL_MODES: [&str; 35] = [
    "REAL_AS_FLOAT",
    "PIPES_AS_CONCAT",
    "ANSI_QUOTES",
    "IGNORE_SPACE",
    "IGNORE_BAD_TABLE_OPTIONS",
    "ONLY_FULL_GROUP_BY",
    "NO_UNSIGNED_SUBTRACTION",
    "NO_DIR_IN_CREATE",
    "POSTGRESQL",
    "ORACLE",
    "MSSQL",
    "DB2",
    "MAXDB",
    "NO_KEY_OPTIONS",
    "NO_TABLE_OPTIONS",
    "NO_FIELD_OPTIONS",
    "MYSQL323",
    "MYSQL40",
    "ANSI",
    "NO_AUTO_VALUE_ON_ZERO",
    "NO_BACKSLASH_ESCAPES",
    "STRICT_TRANS_TABLES",
    "STRICT_ALL_TABLES",
    "NO_ZERO_IN_DATE",
    "NO_ZERO_DATE",
    "ALLOW_INVALID_DATES",
    "ERROR_FOR_DIVISION_BY_ZERO",
    "TRADITIONAL",
    "NO_AUTO_CREATE_USER",
    "HIGH_NOT_PRECEDENCE",
    "NO_ENGINE_SUBSTITUTION",
    "PAD_CHAR_TO_FULL_LENGTH",
    "EMPTY_STRING_IS_NULL",
    "SIMULTANEOUS_ASSIGNMENT",
    "TIME_ROUND_FRACTIONAL",
];

/// The flags a combination mode stands for besides its own name.
fn combination(mode: &str) -> Vec<&'static str> {
    const LIKE_ANSI: [&str; 6] = [
        "PIPES_AS_CONCAT",
        "ANSI_QUOTES",
        "IGNORE_SPACE",
        "NO_KEY_OPTIONS",
        "NO_TABLE_OPTIONS",
        "NO_FIELD_OPTIONS",
    ];
    match mode {
        "ANSI" => vec![
            "REAL_AS_FLOAT",
            "PIPES_AS_CONCAT",
            "ANSI_QUOTES",
            "IGNORE_SPACE",
        ],
        "TRADITIONAL" => vec![
            "STRICT_TRANS_TABLES",
            "STRICT_ALL_TABLES",
            "NO_ZERO_IN_DATE",
            "NO_ZERO_DATE",
            "ERROR_FOR_DIVISION_BY_ZERO",
            "NO_AUTO_CREATE_USER",
            "NO_ENGINE_SUBSTITUTION",
        ],
        "POSTGRESQL" | "MSSQL" | "DB2" => LIKE_ANSI.to_vec(),
        "MAXDB" => [&LIKE_ANSI[..], &["NO_AUTO_CREATE_USER"]].concat(),
        "MYSQL323" | "MYSQL40" => vec!["HIGH_NOT_PRECEDENCE"],
        _ => Vec::new(),
    }
}

/// Flags that change how statements are read or what they mean in ways
/// lineardb does not follow: refused (1235) rather than stored and
/// ignored.
const NOT_FOLLOWED: [&str; 6] = [
    "ANSI_QUOTES",
    "NO_BACKSLASH_ESCAPES",
    "PIPES_AS_CONCAT",
    "ORACLE",
    "EMPTY_STRING_IS_NULL",
    "HIGH_NOT_PRECEDENCE",
];

/// `SET sql_mode = text` as MariaDB stores it: names upper-cased,
/// combinations expanded, in MariaDB's order; 1231 for a name it does not
/// know, 1235 for a flag lineardb does not follow.
pub(crate) fn normalize_sql_mode(text: &str) -> Result<String> {
    let mut on = [false; SQL_MODES.len()];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let upper = part.to_ascii_uppercase();
        let Some(at) = SQL_MODES.iter().position(|m| *m == upper) else {
            return Err(SqlError::new(
                1231,
                "42000",
                format!("Variable 'sql_mode' can't be set to the value of '{part}'"),
            ));
        };
        on[at] = true;
        for m in combination(&upper) {
            on[SQL_MODES.iter().position(|x| *x == m).expect("a mode")] = true;
        }
    }
    let modes: Vec<&str> = SQL_MODES
        .iter()
        .zip(on)
        .filter_map(|(m, set)| set.then_some(*m))
        .collect();
    if let Some(m) = modes.iter().find(|m| NOT_FOLLOWED.contains(m)) {
        return Err(SqlError::unsupported(format!("sql_mode {m}")));
    }
    Ok(modes.join(","))
}

impl crate::session::Session {
    fn sql_mode_has(&self, modes: &[&str]) -> bool {
        let sql_mode = self.variable("sql_mode").and_then(|v| v.to_text());
        has_mode(&sql_mode.unwrap_or_default(), modes)
    }

    /// Whether a 0 given to an AUTO_INCREMENT column is stored as 0
    /// (NO_AUTO_VALUE_ON_ZERO) rather than generating a value.
    pub(crate) fn zero_is_an_auto_increment_value(&self) -> bool {
        self.sql_mode_has(&["NO_AUTO_VALUE_ON_ZERO"])
    }

    /// Whether the session's `sql_mode` makes bad values errors.
    pub(crate) fn strict_mode(&self) -> bool {
        self.sql_mode_has(&["STRICT_TRANS_TABLES", "STRICT_ALL_TABLES"])
    }

    /// Whether a division by zero is reported (ERROR_FOR_DIVISION_BY_ZERO:
    /// warning 1365, an error where strict mode writes the value); without
    /// it the NULL comes silently, as in MariaDB.
    pub(crate) fn division_by_zero_reported(&self) -> bool {
        self.sql_mode_has(&["ERROR_FOR_DIVISION_BY_ZERO"])
    }

    /// Whether a division by zero fails a statement that writes (strict
    /// mode with ERROR_FOR_DIVISION_BY_ZERO).
    pub(crate) fn division_by_zero_fails(&self) -> bool {
        let sql_mode = self.variable("sql_mode").and_then(|v| v.to_text());
        let sql_mode = sql_mode.unwrap_or_default();
        has_mode(&sql_mode, &["STRICT_TRANS_TABLES", "STRICT_ALL_TABLES"])
            && has_mode(&sql_mode, &["ERROR_FOR_DIVISION_BY_ZERO"])
    }

    /// The warnings the running statement's expressions raised so far
    /// that it will report (for the count in its info).
    pub(crate) fn pending_expression_warnings(&self) -> usize {
        let pending = crate::expr::warnings::pending();
        if pending == 0 || self.division_by_zero_reported() {
            return pending;
        }
        crate::expr::warnings::pending_except(crate::expr::warnings::DIVISION_BY_ZERO)
    }
}

/// What a NULL given to a NOT NULL column becomes outside strict mode.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum NullIntoNotNull {
    /// Error 1048 (a single-row INSERT, as in MariaDB).
    Fails,
    /// The column's implicit default, with warning 1048 (an UPDATE, a
    /// multi-row INSERT or INSERT … SELECT).
    Defaults,
}

/// Adjusts row `row` (1-based) of a statement's values for `def`'s
/// columns, adding a warning per value adjusted.
pub(crate) fn adjust(
    def: &TableDef,
    values: &mut [Option<Value>],
    row: u64,
    nulls: NullIntoNotNull,
    warnings: &mut Vec<(u16, String)>,
) -> Result<()> {
    adjust_in_order(def, values, 0..def.columns.len(), row, nulls, warnings)
}

/// [`adjust`], the columns taken in `order` (an UPDATE's warnings come
/// in the order of its SET list).
pub(crate) fn adjust_in_order(
    def: &TableDef,
    values: &mut [Option<Value>],
    order: impl IntoIterator<Item = usize>,
    row: u64,
    nulls: NullIntoNotNull,
    warnings: &mut Vec<(u16, String)>,
) -> Result<()> {
    for i in order {
        let (slot, c) = (&mut values[i], &def.columns[i]);
        let Some(v) = slot.take() else {
            continue;
        };
        // (An AUTO_INCREMENT column's NULL is the next number.)
        if v.is_null() && !c.nullable && !c.auto_increment && nulls == NullIntoNotNull::Defaults {
            warnings.push((1048, format!("Column '{}' cannot be null", c.name)));
            *slot = Some(implicit_default(c)?);
            continue;
        }
        let original = v.clone();
        let (x, e) = c
            .data_type
            .coerce_lenient(v, &c.name)
            .map_err(|e| row_error(def, e, row))?;
        if let Some(e) = e {
            warnings.push(value_warning(def, &c.name, &original, &e, row));
        }
        *slot = Some(latin1_fit(def, c, x, row, warnings));
    }
    Ok(())
}

/// `v` as latin1 column `c` holds it outside strict mode: each character
/// latin1 lacks becomes '?', with warning 1366 (any other column's value
/// as it is).
pub(crate) fn latin1_fit(
    def: &TableDef,
    c: &ColumnDef,
    v: Value,
    row: u64,
    warnings: &mut Vec<(u16, String)>,
) -> Value {
    match v {
        Value::Bytes(b) if c.collation().is_latin1() => match c.latin1_only(&b) {
            Err(e) => {
                warnings.push((e.mysql_code(), row_error(def, e, row).message));
                Value::Bytes(lineardb_table::collation::latin1::replace_unrepresentable(
                    &b,
                ))
            }
            Ok(()) => Value::Bytes(b),
        },
        v => v,
    }
}

/// A strict statement's error for row `row` (1-based) of its values,
/// worded as MariaDB words it (the row's number, the column's database and
/// table for a wrong value).
pub(crate) fn row_error(def: &TableDef, e: Error, row: u64) -> SqlError {
    let message = match &e {
        Error::OutOfRange(column) => {
            format!("Out of range value for column '{column}' at row {row}")
        }
        Error::DataTooLong(column) => format!("Data too long for column '{column}' at row {row}"),
        Error::Truncated(column) => format!("Data truncated for column '{column}' at row {row}"),
        Error::WrongValue {
            kind,
            value,
            column,
        } => format!(
            "Incorrect {kind} value: '{value}' for column `{}`.`{}`.`{column}` at row {row}",
            def.database, def.name
        ),
        _ => return e.into(),
    };
    SqlError::new(e.mysql_code(), e.sqlstate(), message)
}

/// MariaDB's warning for a value adjusted to fit its column (in strict
/// mode, the statement's error).
pub(crate) fn value_warning(
    def: &TableDef,
    column: &str,
    value: &Value,
    e: &Error,
    row: u64,
) -> (u16, String) {
    let text = value.to_text().unwrap_or_default();
    let starts_with_number = text
        .trim_start()
        .trim_start_matches(['-', '+'])
        .starts_with(|c: char| c.is_ascii_digit() || c == '.');
    match e {
        Error::OutOfRange(_) => (
            1264,
            format!("Out of range value for column '{column}' at row {row}"),
        ),
        // A string's characters its column's character set lacks.
        Error::WrongValue {
            kind: "string",
            value,
            ..
        } => (
            e.mysql_code(),
            format!(
                "Incorrect string value: '{value}' for column `{}`.`{}`.`{column}` at row {row}",
                def.database, def.name
            ),
        ),
        Error::WrongValue { kind, .. } if !starts_with_number => (
            e.mysql_code(),
            format!(
                "Incorrect {kind} value: '{text}' for column `{}`.`{}`.`{column}` at row {row}",
                def.database, def.name
            ),
        ),
        _ => (
            1265,
            format!("Data truncated for column '{column}' at row {row}"),
        ),
    }
}

/// MariaDB's note 1265 for each value of `values` (the columns `order`
/// names) that a DECIMAL column stores rounded: a number or a number's
/// text with non-zero digits past the column's scale. In any mode: the
/// value is kept, rounded.
pub(crate) fn rounding_notes(
    def: &TableDef,
    values: &[Option<Value>],
    order: impl IntoIterator<Item = usize>,
    row: u64,
    warnings: &mut Vec<(u16, String)>,
) {
    for i in order {
        let c = &def.columns[i];
        let DataType::Decimal { precision, scale } = c.data_type else {
            continue;
        };
        let exact = match values.get(i) {
            Some(Some(Value::Decimal(d))) => Some(*d),
            Some(Some(Value::Double(f))) if f.is_finite() => Dec::parse(&f.to_string()),
            Some(Some(Value::Bytes(b))) => std::str::from_utf8(b)
                .ok()
                .and_then(|t| Dec::parse(t.trim())),
            _ => None,
        };
        // (A value out of the column's range gets 1264 alone.)
        let rounded = exact.is_some_and(|d| {
            d.checked_rescale(scale).is_some_and(|r| {
                r.fits_precision(precision) && r.cmp_value(d) != std::cmp::Ordering::Equal
            })
        });
        if rounded {
            warnings.push((
                1265 | crate::expr::warnings::NOTE_LEVEL,
                format!("Data truncated for column '{}' at row {row}", c.name),
            ));
        }
    }
}

/// The value MariaDB gives a NOT NULL column without a default: zero (the
/// zero date for a date), the empty string.
pub(crate) fn implicit_default(column: &ColumnDef) -> Result<Value> {
    if column.data_type.is_string() || matches!(column.data_type, DataType::Set(_)) {
        return Ok(Value::str(""));
    }
    Ok(column.coerce(Value::Int(0))?)
}

#[cfg(test)]
mod tests {
    use super::normalize_sql_mode;

    #[test]
    fn modes_expand_and_sort_as_mariadb() {
        assert_eq!(
            normalize_sql_mode("traditional").unwrap(),
            "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,\
             ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"
        );
        assert_eq!(
            normalize_sql_mode("strict_all_tables, no_auto_value_on_zero").unwrap(),
            "NO_AUTO_VALUE_ON_ZERO,STRICT_ALL_TABLES"
        );
        assert_eq!(normalize_sql_mode("").unwrap(), "");
        assert_eq!(normalize_sql_mode("nonsense").unwrap_err().code, 1231);
        assert_eq!(normalize_sql_mode("ANSI").unwrap_err().code, 1235);
    }
}
