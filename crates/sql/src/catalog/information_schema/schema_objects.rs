//! The tables about databases and what they hold: SCHEMATA, TABLES,
//! COLUMNS, STATISTICS, VIEWS and the constraints. A database is listed to
//! an account that may see it, a table to one with some privilege on it
//! (SHOW TABLES' rule), as MariaDB lists them.
use super::{InfoContext, InfoTable, SCHEMA};
use crate::catalog::definitions::{current_timestamp, default_literal, index_rows};
use crate::error::Result;
use crate::privileges::bits::{COLUMN_LEVEL, SHOW_DATABASES, TABLE_LEVEL};
use lineardb_table::{ColumnDef, ColumnDefault, DataType, ReferentialAction, Table, Value};
use std::sync::Arc;

fn s(text: &str) -> Value {
    Value::str(text)
}

fn or_null<T>(v: Option<T>, f: impl FnOnce(T) -> Value) -> Value {
    v.map_or(Value::Null, f)
}

/// The databases the account sees, in name order.
fn databases(cx: &InfoContext<'_>) -> Result<Vec<String>> {
    let all = cx.grants.global & SHOW_DATABASES != 0;
    let mut dbs: Vec<String> = cx
        .engine
        .databases()?
        .into_iter()
        .filter(|d| all || cx.grants.sees_database(d))
        .collect();
    dbs.sort_by_key(|d| d.to_ascii_lowercase());
    Ok(dbs)
}

/// The base tables whose keys and constraints the account sees: those it
/// holds a privilege on as a whole (column grants show columns only).
fn keyed_tables(cx: &InfoContext<'_>) -> Result<Vec<Arc<Table>>> {
    Ok(base_tables(cx)?
        .into_iter()
        .filter(|t| cx.grants.on_table(&t.def().database, &t.def().name) & TABLE_LEVEL != 0)
        .collect())
}

/// The base tables the account sees (a privilege on the table or on some
/// of its columns), database by database.
fn base_tables(cx: &InfoContext<'_>) -> Result<Vec<Arc<Table>>> {
    let mut out = Vec::new();
    for db in databases(cx)? {
        for name in cx.engine.tables(&db)? {
            if cx.grants.sees_table(&db, &name) {
                out.push(cx.engine.table(&db, &name)?);
            }
        }
    }
    Ok(out)
}

pub(super) fn schemata(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = vec![vec![
        s("def"),
        s(SCHEMA),
        s("utf8mb4"),
        s("utf8mb4_general_ci"),
        Value::Null,
        s(""),
    ]];
    for db in databases(cx)? {
        let c = cx.engine.database_collation(&db)?;
        rows.push(vec![
            s("def"),
            s(&db),
            s(c.charset()),
            s(c.name()),
            Value::Null,
            s(""),
        ]);
    }
    let perf_schema = crate::catalog::perf_schema::SCHEMA;
    if cx.grants.global & SHOW_DATABASES != 0 || cx.grants.sees_database(perf_schema) {
        rows.push(vec![
            s("def"),
            s(perf_schema),
            s("utf8mb4"),
            s("utf8mb4_general_ci"),
            Value::Null,
            s(""),
        ]);
    }
    Ok(rows)
}

pub(super) fn tables(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows: Vec<Vec<Value>> = InfoTable::all()
        .map(|t| {
            let mut row = vec![Value::Null; 23];
            row[..6].clone_from_slice(&[
                s("def"),
                s(SCHEMA),
                s(t.name),
                s("SYSTEM VIEW"),
                s("MEMORY"),
                Value::UInt(11),
            ]);
            row[6] = s("Fixed");
            row[17] = s("utf8mb4_general_ci");
            row[19] = s("");
            row[20] = s("");
            row[22] = s("Y");
            row
        })
        .collect();
    for t in base_tables(cx)? {
        let d = t.def();
        let auto = d.columns.iter().any(|c| c.auto_increment);
        let options: Vec<String> = d
            .storage_options
            .iter()
            .filter(|(name, _)| !name.eq_ignore_ascii_case("ROW_FORMAT"))
            .map(|(name, value)| format!("{}={value}", name.to_ascii_lowercase()))
            .collect();
        let row_format = d
            .storage_options
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("ROW_FORMAT"))
            .map_or("Dynamic".to_string(), |(_, v)| capitalized(v));
        rows.push(vec![
            s("def"),
            s(&d.database),
            s(&d.name),
            s("BASE TABLE"),
            s(crate::catalog::ENGINE_NAME),
            Value::UInt(10),
            s(&row_format),
            Value::UInt(t.estimate_rows()),
            // Sizes are not measured.
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            if auto {
                Value::UInt(t.next_auto_increment())
            } else {
                Value::Null
            },
            Value::Null,
            Value::Null,
            Value::Null,
            s(d.collation.name()),
            Value::Null,
            s(&options.join(" ")),
            s(&d.comment),
            Value::Null,
            s("N"),
        ]);
    }
    for db in databases(cx)? {
        for v in cx.engine.views(&db)? {
            if !cx.grants.sees_table(&db, &v.name) {
                continue;
            }
            let mut row = vec![Value::Null; 23];
            row[..4].clone_from_slice(&[s("def"), s(&db), s(&v.name), s("VIEW")]);
            row[20] = s("VIEW");
            rows.push(row);
        }
    }
    Ok(rows)
}

fn capitalized(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let mut chars = lower.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// PRI, UNI or MUL, as MariaDB keys a column: part of the primary key, the
/// only column of a unique key, the first column of another key.
pub(crate) fn column_key(t: &lineardb_table::TableDef, c: usize) -> &'static str {
    if t.primary_key.contains(&c) {
        "PRI"
    } else if t.indexes.iter().any(|ix| ix.unique && ix.columns == [c]) {
        "UNI"
    } else if t.indexes.iter().any(|ix| ix.columns.first() == Some(&c)) {
        "MUL"
    } else {
        ""
    }
}

/// A column's DEFAULT as COLUMN_DEFAULT gives it: an expression's text,
/// `NULL` (the word) for a nullable column without one, SQL NULL for a
/// NOT NULL column without one.
pub(crate) fn column_default(c: &ColumnDef) -> Value {
    match &c.default {
        _ if c.auto_increment => Value::Null,
        ColumnDefault::Literal(v) => s(&default_literal(&c.data_type, v)),
        ColumnDefault::CurrentTimestamp => s(&current_timestamp(c.fsp)),
        _ if c.nullable => s("NULL"),
        _ => Value::Null,
    }
}

/// Bytes a character of the column's character set may take.
fn character_bytes(c: &ColumnDef) -> u64 {
    match c.collation().charset() {
        "utf8mb4" => 4,
        _ => 1,
    }
}

pub(super) fn columns(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    // information_schema's own, which every account reads.
    for t in InfoTable::all() {
        for (i, c) in t.columns.iter().enumerate() {
            let mut def = ColumnDef::new(c.name, c.data_type);
            def.nullable = c.nullable;
            def.display_width = c.width;
            def.fsp = c.fsp;
            def.default = if c.nullable {
                ColumnDefault::None
            } else {
                ColumnDefault::Literal(String::new())
            };
            rows.push(column_row(cx, (SCHEMA, t.name), i, &def, ""));
        }
    }
    for t in base_tables(cx)? {
        let d = t.def();
        for (i, c) in d.columns.iter().enumerate() {
            // Only the columns the account holds some privilege on.
            if cx.grants.on_column(&d.database, &d.name, &c.name) & TABLE_LEVEL != 0 {
                let key = column_key(d, i);
                rows.push(column_row(cx, (&d.database, &d.name), i, c, key));
            }
        }
    }
    for db in databases(cx)? {
        for v in cx.engine.views(&db)? {
            if !cx.grants.sees_table(&db, &v.name) {
                continue;
            }
            for (i, c) in (cx.view_columns)(&v).unwrap_or_default().iter().enumerate() {
                rows.push(column_row(cx, (&db, &v.name), i, c, ""));
            }
        }
    }
    Ok(rows)
}

/// COLUMNS' row of column `c`, the `i`th of `db`.`table`, keyed `key`.
fn column_row(
    cx: &InfoContext<'_>,
    (db, table): (&str, &str),
    i: usize,
    c: &ColumnDef,
    key: &str,
) -> Vec<Value> {
    let sql_type = c.sql_type();
    let data_type = sql_type
        .split(['(', ' '])
        .next()
        .unwrap_or_default()
        .to_string();
    let (chars, octets) = match c.data_type {
        DataType::Char(n) | DataType::VarChar(n) => {
            (Some(n as u64), Some(n as u64 * character_bytes(c)))
        }
        DataType::Binary(n) | DataType::VarBinary(n) => (Some(n as u64), Some(n as u64)),
        DataType::Text(n) | DataType::Blob(n) => (Some(n as u64), Some(n as u64)),
        DataType::Enum(m) | DataType::Set(m) => {
            let names = m.names();
            let n = match c.data_type {
                DataType::Enum(_) => names.iter().map(|n| n.chars().count()).max(),
                _ => Some(
                    names.iter().map(|n| n.chars().count()).sum::<usize>()
                        + names.len().saturating_sub(1),
                ),
            }
            .unwrap_or(0) as u64;
            (Some(n), Some(n * character_bytes(c)))
        }
        _ => (None, None),
    };
    let (precision, scale) = match c.data_type {
        DataType::TinyInt { .. } => (Some(3), Some(0)),
        DataType::SmallInt { .. } => (Some(5), Some(0)),
        DataType::MediumInt { .. } => (Some(7), Some(0)),
        DataType::Int { .. } => (Some(10), Some(0)),
        DataType::BigInt { unsigned } => (Some(if unsigned { 20 } else { 19 }), Some(0)),
        DataType::Decimal { precision, scale } => {
            (Some(u64::from(precision)), Some(u64::from(scale)))
        }
        DataType::Float => (Some(12), None),
        // A computed DOUBLE's digits are its expression's length.
        DataType::Double => (Some(c.display_width.map_or(22, u64::from)), None),
        DataType::Bit(n) => (Some(u64::from(n)), None),
        _ => (None, None),
    };
    let datetime_precision = match c.data_type {
        DataType::DateTime | DataType::Timestamp | DataType::Time => Some(u64::from(c.fsp)),
        _ => None,
    };
    let text = c.data_type.has_character_set();
    let extra = if c.auto_increment {
        "auto_increment".to_string()
    } else if c.on_update_now {
        format!("on update {}", current_timestamp(c.fsp))
    } else {
        String::new()
    };
    let privileges = if db == SCHEMA {
        crate::privileges::bits::SELECT
    } else {
        cx.grants.on_column(db, table, &c.name) & COLUMN_LEVEL
    };
    vec![
        s("def"),
        s(db),
        s(table),
        s(&c.name),
        Value::UInt(i as u64 + 1),
        column_default(c),
        s(if c.nullable { "YES" } else { "NO" }),
        s(&data_type),
        or_null(chars, Value::UInt),
        or_null(octets, Value::UInt),
        or_null(precision, Value::UInt),
        or_null(scale, Value::UInt),
        or_null(datetime_precision, Value::UInt),
        or_null(text.then(|| c.collation().charset()), s),
        or_null(text.then(|| c.collation().name()), s),
        s(&sql_type),
        s(key),
        s(&extra),
        s(&super::column_privilege_names(privileges)),
        s(&c.comment),
        s("NEVER"),
        Value::Null,
    ]
}

pub(super) fn statistics(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for t in keyed_tables(cx)? {
        let db = s(&t.def().database);
        // SHOW INDEX's row: Table, Non_unique, Key_name, Seq_in_index,
        // Column_name, Collation, Cardinality, Sub_part, Packed, Null,
        // Index_type, Comment, Index_comment, Ignored.
        for r in index_rows(&t) {
            let mut row = vec![s("def"), db.clone(), r[0].clone(), r[1].clone(), db.clone()];
            row.extend(r[2..].iter().cloned());
            rows.push(row);
        }
    }
    Ok(rows)
}

pub(super) fn views(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for db in databases(cx)? {
        for v in cx.engine.views(&db)? {
            if !cx.grants.sees_table(&db, &v.name) {
                continue;
            }
            let (definition, updatable) = (cx.view_definition)(&v);
            rows.push(vec![
                s("def"),
                s(&db),
                s(&v.name),
                s(&definition),
                s(&v.check_option),
                s(if updatable { "YES" } else { "NO" }),
                s(&v.definer.replace('`', "")),
                s(if v.invoker { "INVOKER" } else { "DEFINER" }),
                s("utf8mb4"),
                s("utf8mb4_general_ci"),
                s(&v.algorithm),
            ]);
        }
    }
    Ok(rows)
}

/// A table's constraints as MariaDB lists them: the primary key, the
/// unique keys, the CHECKs, the foreign keys — (name, type, columns).
fn constraints(d: &lineardb_table::TableDef) -> Vec<(String, &'static str, Vec<usize>)> {
    let mut out = Vec::new();
    if !d.primary_key.is_empty() {
        out.push(("PRIMARY".to_string(), "PRIMARY KEY", d.primary_key.clone()));
    }
    for (_, ix) in crate::catalog::definitions::keys_in_order(d) {
        if ix.unique {
            out.push((ix.name.clone(), "UNIQUE", ix.columns.clone()));
        }
    }
    for c in &d.checks {
        out.push((c.name.clone(), "CHECK", Vec::new()));
    }
    for fk in &d.foreign_keys {
        out.push((fk.name.clone(), "FOREIGN KEY", fk.columns.clone()));
    }
    out
}

pub(super) fn table_constraints(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for t in keyed_tables(cx)? {
        let d = t.def();
        for (name, kind, _) in constraints(d) {
            rows.push(vec![
                s("def"),
                s(&d.database),
                s(&name),
                s(&d.database),
                s(&d.name),
                s(kind),
            ]);
        }
    }
    Ok(rows)
}

pub(super) fn key_column_usage(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for t in keyed_tables(cx)? {
        let d = t.def();
        for (name, kind, columns) in constraints(d) {
            let fk = d.foreign_keys.iter().find(|f| f.name == name);
            for (n, &c) in columns.iter().enumerate() {
                let referenced = fk.filter(|_| kind == "FOREIGN KEY");
                rows.push(vec![
                    s("def"),
                    s(&d.database),
                    s(&name),
                    s("def"),
                    s(&d.database),
                    s(&d.name),
                    s(&d.columns[c].name),
                    Value::UInt(n as u64 + 1),
                    or_null(referenced, |_| Value::UInt(n as u64 + 1)),
                    or_null(referenced, |f| s(&f.parent_database)),
                    or_null(referenced, |f| s(&f.parent_table)),
                    or_null(referenced, |f| s(&f.parent_columns[n])),
                ]);
            }
        }
    }
    Ok(rows)
}

fn rule(a: ReferentialAction) -> &'static str {
    match a {
        ReferentialAction::Restrict => "RESTRICT",
        ReferentialAction::NoAction => "NO ACTION",
        ReferentialAction::Cascade => "CASCADE",
        ReferentialAction::SetNull => "SET NULL",
    }
}

pub(super) fn referential_constraints(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for t in keyed_tables(cx)? {
        let d = t.def();
        for fk in &d.foreign_keys {
            // The parent's key the foreign key's columns begin.
            let unique = cx
                .engine
                .table(&fk.parent_database, &fk.parent_table)
                .ok()
                .and_then(|p| {
                    let p = p.def();
                    let names = |cols: &[usize]| -> Vec<String> {
                        cols.iter()
                            .map(|&c| p.columns[c].name.to_ascii_lowercase())
                            .collect()
                    };
                    let wanted: Vec<String> = fk
                        .parent_columns
                        .iter()
                        .map(|c| c.to_ascii_lowercase())
                        .collect();
                    if names(&p.primary_key) == wanted {
                        Some("PRIMARY".to_string())
                    } else {
                        p.indexes
                            .iter()
                            .find(|ix| ix.unique && names(&ix.columns) == wanted)
                            .map(|ix| ix.name.clone())
                    }
                });
            rows.push(vec![
                s("def"),
                s(&d.database),
                s(&fk.name),
                s("def"),
                s(&fk.parent_database),
                or_null(unique, |u| s(&u)),
                s("NONE"),
                s(rule(fk.on_update)),
                s(rule(fk.on_delete)),
                s(&d.name),
                s(&fk.parent_table),
            ]);
        }
    }
    Ok(rows)
}

pub(super) fn check_constraints(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for t in keyed_tables(cx)? {
        let d = t.def();
        for c in &d.checks {
            rows.push(vec![
                s("def"),
                s(&d.database),
                s(&d.name),
                s(&c.name),
                s(if c.column.is_some() {
                    "Column"
                } else {
                    "Table"
                }),
                s(&c.condition),
            ]);
        }
    }
    Ok(rows)
}

/// One row per table, as MariaDB gives a table without partitions.
pub(super) fn partitions(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for t in keyed_tables(cx)? {
        let d = t.def();
        let mut row = vec![Value::Null; 25];
        row[..3].clone_from_slice(&[s("def"), s(&d.database), s(&d.name)]);
        row[12] = Value::UInt(t.estimate_rows());
        row[22] = s("");
        row[23] = s("");
        rows.push(row);
    }
    Ok(rows)
}
