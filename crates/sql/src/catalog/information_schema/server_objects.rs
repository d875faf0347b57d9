//! The tables about the server itself: character sets, collations,
//! engines, threads.
use super::InfoContext;
use crate::privileges::bits::PROCESS;
use lineardb_table::{Collation, Dec, Value};

/// The collations lineardb has, by character set.
const COLLATIONS: [&str; 8] = [
    "latin1_swedish_ci",
    "latin1_bin",
    "latin1_general_ci",
    "utf8mb4_general_ci",
    "utf8mb4_bin",
    "utf8mb4_unicode_ci",
    "utf8mb4_nopad_bin",
    "binary",
];

/// (character set, its default collation, description, bytes a character).
const CHARACTER_SETS: [(&str, &str, &str, u64); 3] = [
    ("latin1", "latin1_swedish_ci", "cp1252 West European", 1),
    ("utf8mb4", "utf8mb4_general_ci", "UTF-8 Unicode", 4),
    ("binary", "binary", "Binary pseudo charset", 1),
];

fn collations_known() -> impl Iterator<Item = Collation> {
    COLLATIONS.iter().filter_map(|n| Collation::named(n))
}

fn is_default(c: Collation) -> bool {
    CHARACTER_SETS.iter().any(|(_, d, _, _)| *d == c.name())
}

pub(super) fn character_sets() -> Vec<Vec<Value>> {
    CHARACTER_SETS
        .iter()
        .map(|&(name, default, description, bytes)| {
            vec![
                Value::str(name),
                Value::str(default),
                Value::str(description),
                Value::UInt(bytes),
            ]
        })
        .collect()
}

pub(super) fn collations() -> Vec<Vec<Value>> {
    collations_known()
        .map(|c| {
            vec![
                Value::str(c.name()),
                Value::str(c.charset()),
                Value::UInt(c.id().into()),
                Value::str(if is_default(c) { "Yes" } else { "" }),
                Value::str("Yes"),
                // Weights a character may take (UCA's expand).
                Value::UInt(if c == Collation::Utf8mb4UnicodeCi {
                    8
                } else {
                    1
                }),
            ]
        })
        .collect()
}

pub(super) fn collation_applicability() -> Vec<Vec<Value>> {
    collations_known()
        .map(|c| {
            vec![
                Value::str(c.name()),
                Value::str(c.charset()),
                Value::str(c.name()),
                Value::UInt(c.id().into()),
                Value::str(if is_default(c) { "Yes" } else { "" }),
            ]
        })
        .collect()
}

pub(super) fn engines() -> Vec<Vec<Value>> {
    vec![vec![
        Value::str(crate::catalog::ENGINE_NAME),
        Value::str("DEFAULT"),
        Value::str("Transactional B-tree tables whose reads write no shared memory"),
        Value::str("YES"),
        Value::str("NO"),
        Value::str("YES"),
    ]]
}

/// The plugins lineardb has, as MariaDB lists its own: the storage engine
/// and the authentication method the server speaks.
pub(super) fn plugins() -> Vec<Vec<Value>> {
    let row = |name: &str, kind: &str, type_version: &str, description: &str, load: &str| {
        vec![
            Value::str(name),
            Value::str("0.1"),
            Value::str("ACTIVE"),
            Value::str(kind),
            Value::str(type_version),
            Value::Null,
            Value::Null,
            Value::str("lineardb"),
            Value::str(description),
            Value::str("Apache-2.0"),
            Value::str(load),
            Value::str("Beta"),
            Value::str("0.1"),
        ]
    };
    vec![
        row(
            "mysql_native_password",
            "AUTHENTICATION",
            "2.2",
            "Native MySQL authentication",
            "FORCE",
        ),
        row(
            crate::catalog::ENGINE_NAME,
            "STORAGE ENGINE",
            "101100.0",
            "Transactional B-tree tables whose reads write no shared memory",
            "FORCE",
        ),
    ]
}

/// The server's threads; without PROCESS, the account's user's own.
pub(super) fn processlist(cx: &InfoContext<'_>) -> Vec<Vec<Value>> {
    let all = cx.grants.global & PROCESS != 0;
    cx.registry
        .processes()
        .into_iter()
        .filter(|p| all || p.user == cx.user)
        .map(|p| {
            let info = p.info.as_deref().map_or(Value::Null, Value::str);
            let millis = p.elapsed.as_micros() as i128;
            vec![
                Value::UInt(p.id),
                Value::str(&p.user),
                Value::str(&p.host),
                p.database.as_deref().map_or(Value::Null, Value::str),
                Value::str(p.command),
                Value::UInt(p.elapsed.as_secs()),
                Value::str(p.state),
                info.clone(),
                Value::Decimal(Dec::new(millis, 3)),
                Value::UInt(p.stage.stage.into()),
                Value::UInt(p.stage.max_stage.into()),
                Value::Decimal(Dec::new((p.stage.percent * 1000.0).round() as i128, 3)),
                Value::UInt(0),
                Value::UInt(0),
                Value::UInt(0),
                // QUERY_ID and the OS thread's TID are not kept.
                Value::UInt(0),
                info,
                Value::UInt(0),
            ]
        })
        .collect()
}
