//! Character sets and collations by the names statements give them.
use crate::error::{Result, SqlError};
use lineardb_table::Collation;

/// The collation `name` names: 1273 for a name MariaDB does not know,
/// 1253 for one of another character set (strings here are utf8mb4,
/// latin1 or binary), 1235 for a utf8mb4 or latin1 collation not supported
/// yet.
pub(crate) fn collation_named(name: &str) -> Result<Collation> {
    if let Some(c) = Collation::named(name) {
        return Ok(c);
    }
    let lower = name.to_ascii_lowercase();
    let charset = lower.split('_').next().unwrap_or("");
    match charset {
        "utf8mb4" | "utf8mb3" | "utf8" | "latin1" => {
            Err(SqlError::unsupported(format!("COLLATE {name}")))
        }
        "latin2" | "ascii" | "ucs2" | "utf16" | "utf16le" | "utf32" | "cp1250" | "cp1251"
        | "cp1256" | "cp1257" | "big5" | "gbk" | "gb2312" | "sjis" | "ujis" | "euckr" | "koi8r"
        | "koi8u" | "greek" | "hebrew" | "tis620" | "swe7" | "cp850" | "cp852" | "cp866"
        | "dec8" | "hp8" | "macce" | "macroman" | "keybcs2" | "armscii8" | "geostd8" | "cp932"
        | "eucjpms" => Err(SqlError::new(
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

/// The default collation of the character set `name`: utf8mb4's (also
/// called utf8mb3 and utf8: strings are kept in utf8mb4) or latin1's; 1235
/// for another character set MariaDB has, 1115 for a name it does not know.
pub(crate) fn charset_default(name: &str) -> Result<Collation> {
    match name.to_ascii_lowercase().as_str() {
        "utf8mb4" | "utf8mb3" | "utf8" => Ok(Collation::Utf8mb4GeneralCi),
        "latin1" => Ok(Collation::Latin1SwedishCi),
        "binary" | "latin2" | "ascii" | "ucs2" | "utf16" | "utf16le" | "utf32" | "cp1250"
        | "cp1251" | "cp1256" | "cp1257" | "big5" | "gbk" | "gb2312" | "sjis" | "ujis"
        | "euckr" | "koi8r" | "koi8u" | "greek" | "hebrew" | "tis620" | "swe7" | "cp850"
        | "cp852" | "cp866" | "dec8" | "hp8" | "macce" | "macroman" | "keybcs2" | "armscii8"
        | "geostd8" | "cp932" | "eucjpms" => {
            Err(SqlError::unsupported(format!("CHARACTER SET {name}")))
        }
        _ => Err(SqlError::new(
            1115,
            "42000",
            format!("Unknown character set: '{name}'"),
        )),
    }
}

/// 1253 unless `collation` belongs to the character set `charset`.
pub(crate) fn check_collation_of(collation: Collation, charset: &str) -> Result<()> {
    if collation.charset() == charset {
        return Ok(());
    }
    Err(SqlError::new(
        1253,
        "42000",
        format!(
            "COLLATION '{}' is not valid for CHARACTER SET '{charset}'",
            collation.name()
        ),
    ))
}
