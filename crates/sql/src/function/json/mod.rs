//! JSON functions over JSON text (a JSON column is LONGTEXT in utf8mb4_bin
//! with a `json_valid` CHECK, as MariaDB defines it).
pub(crate) mod aggregate;
mod arguments;
mod build;
mod edit;
mod format;
mod merge;
mod path;
mod read;
mod text;
mod tree;

use super::kinds::{int, text};
use super::Builtin;
use build::*;
use edit::*;
use format::*;
use merge::*;
use read::*;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new(&["JSON_VALID"], (1, 1), int, json_valid),
    Builtin::new(&["JSON_EXTRACT"], (2, usize::MAX), text, json_extract),
    Builtin::new(&["JSON_UNQUOTE"], (1, 1), text, json_unquote),
    Builtin::new(&["JSON_ARRAY"], (0, usize::MAX), text, json_array)
        .sees_nulls()
        .json_arguments(),
    Builtin::new(&["JSON_OBJECT"], (0, usize::MAX), text, json_object)
        .sees_nulls()
        .json_arguments(),
    Builtin::new(&["JSON_QUOTE"], (1, 1), text, json_quote),
    Builtin::new(&["JSON_LENGTH"], (1, 2), int, json_length),
    Builtin::new(&["JSON_DEPTH"], (1, 1), int, json_depth),
    Builtin::new(&["JSON_TYPE"], (1, 1), text, json_type),
    Builtin::new(&["JSON_KEYS"], (1, 2), text, json_keys),
    Builtin::new(&["JSON_VALUE"], (2, 2), text, json_value),
    Builtin::new(&["JSON_QUERY"], (2, 2), text, json_query),
    Builtin::new(&["JSON_EXISTS"], (2, 2), int, json_exists),
    Builtin::new(
        &["JSON_CONTAINS_PATH"],
        (3, usize::MAX),
        int,
        json_contains_path,
    ),
    Builtin::new(&["JSON_CONTAINS"], (2, 3), int, json_contains),
    Builtin::new(&["JSON_SET"], (3, usize::MAX), text, json_set)
        .sees_nulls()
        .json_arguments(),
    Builtin::new(&["JSON_INSERT"], (3, usize::MAX), text, json_insert)
        .sees_nulls()
        .json_arguments(),
    Builtin::new(&["JSON_REPLACE"], (3, usize::MAX), text, json_replace)
        .sees_nulls()
        .json_arguments(),
    Builtin::new(&["JSON_REMOVE"], (2, usize::MAX), text, json_remove),
    Builtin::new(
        &["JSON_ARRAY_APPEND"],
        (3, usize::MAX),
        text,
        json_array_append,
    )
    .sees_nulls()
    .json_arguments(),
    Builtin::new(
        &["JSON_ARRAY_INSERT"],
        (3, usize::MAX),
        text,
        json_array_insert,
    )
    .sees_nulls()
    .json_arguments(),
    Builtin::new(
        &["JSON_MERGE_PRESERVE", "JSON_MERGE"],
        (2, usize::MAX),
        text,
        json_merge_preserve,
    ),
    Builtin::new(
        &["JSON_MERGE_PATCH"],
        (2, usize::MAX),
        text,
        json_merge_patch,
    ),
    Builtin::new(&["JSON_COMPACT"], (1, 1), text, json_compact),
    Builtin::new(&["JSON_LOOSE"], (1, 1), text, json_loose),
    Builtin::new(
        &["JSON_DETAILED", "JSON_PRETTY"],
        (1, 2),
        text,
        json_detailed,
    ),
];

/// Whether `n` arguments are a wrong count for the JSON function `name`
/// beyond its fewest and most (1582): JSON_OBJECT takes keys and values in
/// pairs, the functions that change a document a document and then paths
/// and values in pairs.
pub(crate) fn wrong_count(name: &str, n: usize) -> bool {
    match name {
        "JSON_OBJECT" => n % 2 == 1,
        "JSON_SET" | "JSON_INSERT" | "JSON_REPLACE" | "JSON_ARRAY_APPEND" | "JSON_ARRAY_INSERT" => {
            n.is_multiple_of(2)
        }
        _ => false,
    }
}

/// Functions whose result is JSON text: as an argument of JSON_ARRAY or
/// JSON_OBJECT it is written as JSON, not as a string.
const JSON_VALUED: &[&str] = &[
    "JSON_ARRAY",
    "JSON_OBJECT",
    "JSON_EXTRACT",
    "JSON_QUERY",
    "JSON_KEYS",
    "JSON_COMPACT",
    "JSON_LOOSE",
    "JSON_DETAILED",
    "JSON_PRETTY",
    "JSON_MERGE",
    "JSON_MERGE_PATCH",
    "JSON_MERGE_PRESERVE",
    "JSON_SET",
    "JSON_INSERT",
    "JSON_REPLACE",
    "JSON_REMOVE",
    "JSON_ARRAY_APPEND",
    "JSON_ARRAY_INSERT",
    "JSON_ARRAYAGG",
    "JSON_OBJECTAGG",
];

/// Whether function `name` (upper case) gives JSON text: its result
/// column's format is `json` in MariaDB's extended metadata.
pub(crate) fn is_json_valued(name: &str) -> bool {
    JSON_VALUED.contains(&name)
}

/// The letter the compiler passes for an argument of a function that
/// writes values into JSON (see [`Builtin::json_arguments`]).
pub(crate) fn argument_letter(e: &sqlparser::ast::Expr) -> char {
    use sqlparser::ast;
    match e {
        ast::Expr::Function(f)
            if JSON_VALUED
                .iter()
                .any(|n| f.name.to_string().eq_ignore_ascii_case(n)) =>
        {
            'j'
        }
        ast::Expr::Value(v) if matches!(v.value, ast::Value::Boolean(_)) => 'b',
        ast::Expr::Nested(inner) => argument_letter(inner),
        _ => 's',
    }
}
