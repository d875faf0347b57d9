//! Character sets and collations by the names statements give them.
use crate::error::{Result, SqlError};

/// The collation `name` names: 1273 for a name MariaDB does not know,
/// 1253 for one of another character set (strings here are utf8mb4 or
/// binary), 1235 for a utf8mb4 collation not supported yet.
pub(crate) fn collation_named(name: &str) -> Result<lineardb_table::Collation> {
    if let Some(c) = lineardb_table::Collation::named(name) {
        return Ok(c);
    }
    let lower = name.to_ascii_lowercase();
    let charset = lower.split('_').next().unwrap_or("");
    match charset {
        "utf8mb4" | "utf8mb3" | "utf8" => Err(SqlError::unsupported(format!("COLLATE {name}"))),
        "latin1" | "latin2" | "ascii" | "ucs2" | "utf16" | "utf16le" | "utf32" | "cp1250"
        | "cp1251" | "cp1256" | "cp1257" | "big5" | "gbk" | "gb2312" | "sjis" | "ujis"
        | "euckr" | "koi8r" | "koi8u" | "greek" | "hebrew" | "tis620" | "swe7" | "cp850"
        | "cp852" | "cp866" | "dec8" | "hp8" | "macce" | "macroman" | "keybcs2" | "armscii8"
        | "geostd8" | "cp932" | "eucjpms" => Err(SqlError::new(
            1253,
            "42000",
            format!("COLLATION '{name}' is not valid for CHARACTER SET 'utf8mb4'"),
        )),
        _ => Err(SqlError::new(
            1273,
            "HY000",
            format!("Unknown collation: '{name}'"),
        )),
    }
}
