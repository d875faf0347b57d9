//! Statements outside strict mode (an `sql_mode` with neither
//! STRICT_TRANS_TABLES nor STRICT_ALL_TABLES): a value its column cannot
//! hold is adjusted — clamped into range, cut to length, read as the
//! number it starts with — with MariaDB's warning, instead of failing the
//! statement. What cannot be adjusted (a wrong date) still fails.
use crate::error::{Result, SqlError};
use lineardb_table::{ColumnDef, Error, TableDef, Value};

/// Whether `sql_mode` makes bad values errors.
fn is_strict(sql_mode: &str) -> bool {
    sql_mode.split(',').any(|m| {
        m.trim().eq_ignore_ascii_case("STRICT_TRANS_TABLES")
            || m.trim().eq_ignore_ascii_case("STRICT_ALL_TABLES")
    })
}

impl crate::session::Session {
    /// Whether the session's `sql_mode` makes bad values errors.
    pub(crate) fn strict_mode(&self) -> bool {
        is_strict(
            &self
                .variable("sql_mode")
                .and_then(|v| v.to_text())
                .unwrap_or_default(),
        )
    }
}

/// Adjusts row `row` (1-based) of a statement's values for `def`'s
/// columns, adding a warning per value adjusted.
pub(crate) fn adjust(
    def: &TableDef,
    values: &mut [Option<Value>],
    row: u64,
    warnings: &mut Vec<(u16, String)>,
) -> Result<()> {
    adjust_in_order(def, values, 0..def.columns.len(), row, warnings)
}

/// [`adjust`], the columns taken in `order` (an UPDATE's warnings come
/// in the order of its SET list).
pub(crate) fn adjust_in_order(
    def: &TableDef,
    values: &mut [Option<Value>],
    order: impl IntoIterator<Item = usize>,
    row: u64,
    warnings: &mut Vec<(u16, String)>,
) -> Result<()> {
    for i in order {
        let (slot, c) = (&mut values[i], &def.columns[i]);
        let Some(v) = slot.take() else {
            continue;
        };
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
