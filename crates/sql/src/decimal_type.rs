//! DECIMAL(M,D)'s digits as a column definition or a CAST gives them.
use crate::error::{Result, SqlError};
use lineardb_table::types::{MAX_DECIMAL_PRECISION, MAX_DECIMAL_SCALE};
use sqlparser::ast;

/// (precision, scale) of `DECIMAL`, `DECIMAL(M)` or `DECIMAL(M,D)`, with
/// MariaDB's errors: 1425 past 38 digits after the point, 1426 past 65 in
/// all (both naming `name`), 1427 for fewer digits than after the point
/// (naming `column`). M = 0 is the default 10, as in MariaDB.
pub(crate) fn decimal_digits(
    info: &ast::ExactNumberInfo,
    name: &str,
    column: &str,
) -> Result<(u8, u8)> {
    let (precision, scale) = match info {
        ast::ExactNumberInfo::None => (10, 0),
        ast::ExactNumberInfo::Precision(p) => (*p, 0),
        ast::ExactNumberInfo::PrecisionAndScale(p, s) => (*p, *s as u64),
    };
    if scale > MAX_DECIMAL_SCALE as u64 {
        return Err(SqlError::new(
            1425,
            "42000",
            format!("Too big scale specified for '{name}'. Maximum is {MAX_DECIMAL_SCALE}"),
        ));
    }
    if precision > MAX_DECIMAL_PRECISION as u64 {
        return Err(SqlError::new(
            1426,
            "42000",
            format!("Too big precision specified for '{name}'. Maximum is {MAX_DECIMAL_PRECISION}"),
        ));
    }
    let precision = if precision == 0 { 10 } else { precision };
    if precision < scale {
        return Err(SqlError::new(
            1427,
            "42000",
            format!(
                "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '{column}')"
            ),
        ));
    }
    Ok((precision as u8, scale as u8))
}
