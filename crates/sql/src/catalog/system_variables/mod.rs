//! System variables: what each is (MariaDB's definitions in `mariadb.rs`,
//! lineardb's own here), how lineardb treats a value given to it, and the
//! check SET makes of that value (MariaDB's errors 1231 and 1232 and its
//! truncation warning).
mod mariadb;

use crate::error::{Result, SqlError};
use lineardb_table::Value;

/// Where a variable has a value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Scope {
    /// The server's only (SET GLOBAL).
    Global,
    /// The server's, and each session's (which starts as the server's).
    Both,
    /// Each session's only.
    Session,
}

/// A variable's type, with its range or its members.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// ON or OFF (1 or 0 when read).
    Switch,
    Int(i64, i64),
    UInt(u64, u64),
    Double(f64, f64),
    /// One of the members.
    Enum(&'static [&'static str]),
    /// Any of the members, comma-separated.
    Set(&'static [&'static str]),
    /// `flag=on|off` for each member (optimizer_switch).
    Flags(&'static [&'static str]),
    Text,
}

/// One system variable.
#[derive(Debug)]
pub(crate) struct Definition {
    pub(crate) name: &'static str,
    pub(crate) scope: Scope,
    pub(crate) kind: Kind,
    pub(crate) read_only: bool,
    /// Its value in a server started with the defaults, as text (NULL
    /// where there is none).
    pub(crate) default: Option<&'static str>,
}

/// lineardb's own variables, and those MariaDB answers outside its list.
const LINEARDB: &[Definition] = &[
    Definition {
        name: "error_count",
        scope: Scope::Session,
        kind: Kind::UInt(0, u64::MAX),
        read_only: true,
        default: Some("0"),
    },
    Definition {
        name: "lineardb_instrumentation",
        scope: Scope::Global,
        kind: Kind::Switch,
        read_only: false,
        default: Some("ON"),
    },
    Definition {
        name: "lineardb_parallel_min_rows",
        scope: Scope::Both,
        kind: Kind::UInt(0, u64::MAX),
        read_only: false,
        default: None,
    },
    Definition {
        name: "lineardb_parallel_threads",
        scope: Scope::Both,
        kind: Kind::UInt(1, 256),
        read_only: false,
        default: None,
    },
    Definition {
        name: "lineardb_query_memory",
        scope: Scope::Both,
        kind: Kind::UInt(1024, u64::MAX),
        read_only: false,
        default: None,
    },
    Definition {
        name: "storage_engine",
        scope: Scope::Both,
        kind: Kind::Text,
        read_only: false,
        default: None,
    },
    // MySQL 8's name for tx_isolation (MariaDB 11.1 has it too), which
    // MySQL drivers read.
    Definition {
        name: "transaction_isolation",
        scope: Scope::Both,
        kind: Kind::Enum(&[
            "READ-UNCOMMITTED",
            "READ-COMMITTED",
            "REPEATABLE-READ",
            "SERIALIZABLE",
        ]),
        read_only: false,
        default: Some("REPEATABLE-READ"),
    },
    Definition {
        name: "warning_count",
        scope: Scope::Session,
        kind: Kind::UInt(0, u64::MAX),
        read_only: true,
        default: Some("0"),
    },
];

/// The variable named `name` (lowercase), if there is one.
pub(crate) fn definition(name: &str) -> Option<&'static Definition> {
    match mariadb::DEFINITIONS.binary_search_by(|d| d.name.cmp(name)) {
        Ok(i) => Some(&mariadb::DEFINITIONS[i]),
        Err(_) => LINEARDB.iter().find(|d| d.name == name),
    }
}

/// Every variable, ordered by name (SHOW VARIABLES' order).
pub(crate) fn all() -> Vec<&'static Definition> {
    let mut all: Vec<&Definition> = mariadb::DEFINITIONS.iter().chain(LINEARDB).collect();
    all.sort_by_key(|d| d.name);
    all
}

/// How lineardb treats the value a variable is SET to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Treatment {
    /// Statements follow it.
    Followed,
    /// It tunes what no result depends on (a buffer's size, a timeout, a
    /// log, the optimizer's choices, replication): kept and shown.
    Inert,
    /// It would change what statements do, and lineardb does not follow
    /// it: its default is accepted, another value refused (1235) rather
    /// than kept and ignored.
    Unfollowed,
}

/// Variables statements follow (read by the session or the engine).
const FOLLOWED: &[&str] = &[
    "autocommit",
    "character_set_client",
    "character_set_connection",
    "character_set_database",
    "character_set_results",
    "check_constraint_checks",
    "collation_connection",
    "foreign_key_checks",
    "group_concat_max_len",
    "innodb_flush_log_at_trx_commit",
    "innodb_lock_wait_timeout",
    "lineardb_instrumentation",
    "lineardb_parallel_min_rows",
    "lineardb_parallel_threads",
    "lineardb_query_memory",
    "local_infile",
    "lock_wait_timeout",
    "max_allowed_packet",
    "max_connections",
    "max_recursive_iterations",
    "max_statement_time",
    "sql_mode",
    "sql_notes",
    "sql_safe_updates",
    "sql_select_limit",
    "time_zone",
    "transaction_isolation",
    "tx_isolation",
];

/// Name prefixes of variables no result depends on.
const INERT_PREFIXES: &[&str] = &[
    "aria_",
    "binlog_",
    "general_log",
    "gtid_",
    "histogram_",
    "innodb_",
    "join_",
    "key_",
    "log_",
    "myisam_",
    "net_",
    "optimizer_",
    "performance_schema",
    "query_cache",
    "range_",
    "rpl_",
    "session_track_",
    "slave_",
    "slow_",
    "sync_",
    "thread_",
    "wsrep_",
];

/// Variables no result depends on, besides those with the prefixes.
const INERT: &[&str] = &[
    "analyze_sample_percentage",
    "big_tables",
    "bulk_insert_buffer_size",
    "default_storage_engine",
    "default_tmp_storage_engine",
    "enforce_storage_engine",
    "eq_range_index_dive_limit",
    "expensive_subquery_limit",
    "idle_readonly_transaction_timeout",
    "idle_transaction_timeout",
    "idle_write_transaction_timeout",
    "in_predicate_conversion_threshold",
    "interactive_timeout",
    "long_query_time",
    "max_heap_table_size",
    "max_length_for_sort_data",
    "max_seeks_for_key",
    "max_tmp_tables",
    "min_examined_row_limit",
    "mrr_buffer_size",
    "note_verbosity",
    "preload_buffer_size",
    "profiling",
    "profiling_history_size",
    "read_buffer_size",
    "read_rnd_buffer_size",
    "query_alloc_block_size",
    "query_prealloc_size",
    "rowid_merge_buff_size",
    "sort_buffer_size",
    "sql_big_selects",
    "sql_buffer_result",
    "sql_log_bin",
    "sql_log_off",
    "sql_warnings",
    "storage_engine",
    "stored_program_cache",
    "table_definition_cache",
    "table_open_cache",
    "tmp_disk_table_size",
    "tmp_memory_table_size",
    "tmp_table_size",
    "transaction_alloc_block_size",
    "transaction_prealloc_size",
    // A hint InnoDB may take for secondary keys while loading; rows are
    // checked here regardless.
    "unique_checks",
    "use_stat_tables",
    "wait_timeout",
];

/// How lineardb treats variable `name` (lowercase).
pub(crate) fn treatment(name: &str) -> Treatment {
    if FOLLOWED.contains(&name) {
        Treatment::Followed
    } else if INERT.contains(&name) || INERT_PREFIXES.iter().any(|p| name.starts_with(p)) {
        Treatment::Inert
    } else {
        Treatment::Unfollowed
    }
}

impl Definition {
    /// Its default value, typed as `SELECT @@name` gives it.
    pub(crate) fn default_value(&self) -> Value {
        let Some(text) = self.default else {
            return Value::Null;
        };
        match self.kind {
            Kind::Switch => Value::Int(matches!(text, "ON" | "1") as i64),
            Kind::Int(..) => text.parse().map(Value::Int).unwrap_or(Value::Null),
            Kind::UInt(..) => text.parse().map(Value::UInt).unwrap_or(Value::Null),
            Kind::Double(..) => text.parse().map(double_value).unwrap_or(Value::Null),
            _ => Value::str(text),
        }
    }

    /// `value` as SHOW VARIABLES shows it: switches as ON and OFF.
    pub(crate) fn shown(&self, value: &Value) -> String {
        match (self.kind, value) {
            (Kind::Switch, Value::Int(0)) => "OFF".into(),
            (Kind::Switch, Value::Int(1)) => "ON".into(),
            (_, v) => v.to_text().unwrap_or_default(),
        }
    }

    /// `value` made one this variable holds, as MariaDB's SET checks it:
    /// 1232 for a value of the wrong type, 1231 for one that is not among
    /// those allowed, a number outside the range brought within it with
    /// warning 1292. `current` is the value flags are changed in.
    pub(crate) fn checked(
        &self,
        value: &Value,
        current: &Value,
        warnings: &mut Vec<(u16, String)>,
    ) -> Result<Value> {
        let name = self.name;
        let wrong_type = || wrong_type(name);
        let not_allowed = |shown: &str| not_allowed(name, shown);
        let text = value.to_text();
        let mut truncated = |shown: &str| {
            warnings.push((1292, format!("Truncated incorrect {name} value: '{shown}'")));
        };
        Ok(match self.kind {
            Kind::Switch => match value {
                Value::Int(n @ (0 | 1)) => Value::Int(*n),
                Value::UInt(n @ (0 | 1)) => Value::Int(*n as i64),
                Value::Int(_) | Value::UInt(_) => {
                    return Err(not_allowed(&text.unwrap_or_default()))
                }
                Value::Bytes(b) => match b.to_ascii_uppercase().as_slice() {
                    b"ON" | b"TRUE" => Value::Int(1),
                    b"OFF" | b"FALSE" => Value::Int(0),
                    _ => return Err(not_allowed(&text.unwrap_or_default())),
                },
                Value::Null => return Err(not_allowed("NULL")),
                _ => return Err(wrong_type()),
            },
            Kind::Int(min, max) => {
                let n = within(value, i128::from(min), i128::from(max), &mut truncated)
                    .ok_or_else(wrong_type)?;
                Value::Int(n as i64)
            }
            Kind::UInt(min, max) => {
                let n = within(value, i128::from(min), i128::from(max), &mut truncated)
                    .ok_or_else(wrong_type)?;
                Value::UInt(n as u64)
            }
            Kind::Double(min, max) => {
                let f = match value {
                    Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
                        value.as_f64().ok_or_else(wrong_type)?
                    }
                    _ => return Err(wrong_type()),
                };
                let kept = f.clamp(min, max);
                if kept != f {
                    truncated(&text.unwrap_or_default());
                }
                double_value(kept)
            }
            Kind::Enum(members) => match value {
                Value::Int(_) | Value::UInt(_) => {
                    let i = value.as_f64().unwrap_or(-1.0);
                    match members.get(i as usize).filter(|_| i >= 0.0) {
                        Some(m) => Value::str(m),
                        None => return Err(not_allowed(&text.unwrap_or_default())),
                    }
                }
                Value::Bytes(_) => {
                    let t = text.unwrap_or_default();
                    match members.iter().find(|m| m.eq_ignore_ascii_case(&t)) {
                        Some(m) => Value::str(m),
                        None => return Err(not_allowed(&t)),
                    }
                }
                Value::Null => return Err(not_allowed("NULL")),
                _ => return Err(wrong_type()),
            },
            Kind::Set(members) => match value {
                Value::Int(_) | Value::UInt(_) => {
                    let bits = match value {
                        Value::Int(n) if *n >= 0 => *n as u64,
                        Value::UInt(n) => *n,
                        _ => return Err(not_allowed(&text.unwrap_or_default())),
                    };
                    if members.len() < 64 && bits >> members.len() != 0 {
                        return Err(not_allowed(&text.unwrap_or_default()));
                    }
                    let chosen: Vec<&str> = members
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| bits >> i & 1 == 1)
                        .map(|(_, m)| *m)
                        .collect();
                    Value::str(&chosen.join(","))
                }
                Value::Bytes(_) => {
                    let t = text.unwrap_or_default();
                    let mut chosen = vec![false; members.len()];
                    for item in t.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                        match members.iter().position(|m| m.eq_ignore_ascii_case(item)) {
                            Some(i) => chosen[i] = true,
                            None => return Err(not_allowed(item)),
                        }
                    }
                    let kept: Vec<&str> = members
                        .iter()
                        .zip(&chosen)
                        .filter(|(_, c)| **c)
                        .map(|(m, _)| *m)
                        .collect();
                    Value::str(&kept.join(","))
                }
                Value::Null => return Err(not_allowed("NULL")),
                _ => return Err(wrong_type()),
            },
            Kind::Flags(members) => {
                let Value::Bytes(_) = value else {
                    return Err(wrong_type());
                };
                let t = text.unwrap_or_default();
                let defaults = self.default.unwrap_or_default();
                let flag_of = |list: &str, member: &str| {
                    list.split(',')
                        .find_map(|kv| kv.split_once('=').filter(|(k, _)| *k == member))
                        .map(|(_, v)| v == "on")
                        .unwrap_or(false)
                };
                let now = current.to_text().unwrap_or_else(|| defaults.to_string());
                let mut on: Vec<bool> = members.iter().map(|m| flag_of(&now, m)).collect();
                for item in t.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    if item.eq_ignore_ascii_case("default") {
                        on = members.iter().map(|m| flag_of(defaults, m)).collect();
                        continue;
                    }
                    let (flag, setting) = item.split_once('=').ok_or_else(|| not_allowed(item))?;
                    let i = members
                        .iter()
                        .position(|m| m.eq_ignore_ascii_case(flag.trim()))
                        .ok_or_else(|| not_allowed(item))?;
                    on[i] = match setting.trim().to_ascii_lowercase().as_str() {
                        "on" => true,
                        "off" => false,
                        "default" => flag_of(defaults, members[i]),
                        _ => return Err(not_allowed(item)),
                    };
                }
                // `default` is a word of the syntax, not a flag.
                let shown: Vec<String> = members
                    .iter()
                    .zip(&on)
                    .filter(|(m, _)| **m != "default")
                    .map(|(m, on)| format!("{m}={}", if *on { "on" } else { "off" }))
                    .collect();
                Value::str(&shown.join(","))
            }
            Kind::Text => match value {
                Value::Bytes(_) | Value::Null => value.clone(),
                _ => return Err(wrong_type()),
            },
        })
    }
}

/// An integer `value` brought within `min..=max` (`truncated` told of
/// the value when it had to be); `None` if it is no integer.
fn within(value: &Value, min: i128, max: i128, truncated: &mut impl FnMut(&str)) -> Option<i128> {
    let n = match value {
        Value::Int(n) => i128::from(*n),
        Value::UInt(n) => i128::from(*n),
        _ => return None,
    };
    let kept = n.clamp(min, max);
    if kept != n {
        truncated(&n.to_string());
    }
    Some(kept)
}

/// 1231: variable `name` may not take the value shown as `shown`.
pub(crate) fn not_allowed(name: &str, shown: &str) -> SqlError {
    SqlError::new(
        1231,
        "42000",
        format!("Variable '{name}' can't be set to the value of '{shown}'"),
    )
}

/// 1232: a value of the wrong type for variable `name`.
pub(crate) fn wrong_type(name: &str) -> SqlError {
    SqlError::new(
        1232,
        "42000",
        format!("Incorrect argument type to variable '{name}'"),
    )
}

/// A DOUBLE variable's value as MariaDB gives it: six fractional digits.
pub(crate) fn double_value(f: f64) -> Value {
    Value::Decimal(lineardb_table::Dec::new((f * 1e6).round() as i128, 6))
}

/// MySQL's name for an isolation level given in any usual spelling.
pub(crate) fn isolation_name(v: &str) -> Option<&'static str> {
    match v.to_ascii_uppercase().replace([' ', '_'], "-").as_str() {
        "READ-UNCOMMITTED" => Some("READ-UNCOMMITTED"),
        "READ-COMMITTED" => Some("READ-COMMITTED"),
        "REPEATABLE-READ" => Some("REPEATABLE-READ"),
        "SERIALIZABLE" => Some("SERIALIZABLE"),
        _ => None,
    }
}

/// An isolation level (`tx_isolation`'s spelling) as INNODB_TRX spells
/// it: `READ COMMITTED`.
pub(crate) fn shown_isolation(v: &str) -> &'static str {
    match v {
        "READ-COMMITTED" => "READ COMMITTED",
        "READ-UNCOMMITTED" => "READ UNCOMMITTED",
        "SERIALIZABLE" => "SERIALIZABLE",
        _ => "REPEATABLE READ",
    }
}

/// 1193 for a variable lineardb does not know.
pub(crate) fn unknown(name: &str) -> SqlError {
    SqlError::new(1193, "HY000", format!("Unknown system variable '{name}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_are_found_by_name() {
        assert!(mariadb::DEFINITIONS
            .windows(2)
            .all(|w| w[0].name < w[1].name));
        assert_eq!(definition("sql_mode").unwrap().scope, Scope::Both);
        assert_eq!(definition("max_connections").unwrap().scope, Scope::Global);
        assert!(definition("version").unwrap().read_only);
        assert!(definition("warning_count").is_some());
        assert!(definition("no_such_variable").is_none());
        for d in all() {
            assert!(
                d.default.is_none()
                    || d.default_value() != Value::Null
                    || matches!(d.kind, Kind::Text),
                "{} reads as NULL",
                d.name
            );
        }
    }

    #[test]
    fn set_values_are_checked_as_mariadb_checks_them() {
        let mut w = Vec::new();
        let sort = definition("sort_buffer_size").unwrap();
        assert_eq!(
            sort.checked(&Value::Int(-5), &Value::Null, &mut w).unwrap(),
            Value::UInt(1024)
        );
        assert_eq!(w.len(), 1);
        assert_eq!(
            sort.checked(&Value::str("abc"), &Value::Null, &mut w)
                .unwrap_err()
                .code,
            1232
        );
        let ac = definition("autocommit").unwrap();
        assert_eq!(
            ac.checked(&Value::str("on"), &Value::Null, &mut w).unwrap(),
            Value::Int(1)
        );
        assert_eq!(
            ac.checked(&Value::Int(2), &Value::Null, &mut w)
                .unwrap_err()
                .code,
            1231
        );
        let iso = definition("tx_isolation").unwrap();
        assert_eq!(
            iso.checked(&Value::Int(1), &Value::Null, &mut w).unwrap(),
            Value::str("READ-COMMITTED")
        );
        let mode = definition("sql_mode").unwrap();
        assert_eq!(
            mode.checked(
                &Value::str("no_zero_date,ansi_quotes"),
                &Value::Null,
                &mut w
            )
            .unwrap(),
            Value::str("ANSI_QUOTES,NO_ZERO_DATE")
        );
        let opt = definition("optimizer_switch").unwrap();
        let v = opt
            .checked(&Value::str("index_merge=off"), &Value::Null, &mut w)
            .unwrap();
        assert!(v
            .to_text()
            .unwrap()
            .starts_with("index_merge=off,index_merge_union=on"));
    }

    #[test]
    fn variables_drivers_set_are_followed_or_inert() {
        for name in [
            "autocommit",
            "sql_mode",
            "time_zone",
            "net_write_timeout",
            "wait_timeout",
            "session_track_schema",
            "sql_log_bin",
            "foreign_key_checks",
            "unique_checks",
        ] {
            assert_ne!(treatment(name), Treatment::Unfollowed, "{name}");
            assert!(definition(name).is_some(), "{name}");
        }
        assert_eq!(treatment("div_precision_increment"), Treatment::Unfollowed);
        assert_eq!(treatment("read_only"), Treatment::Unfollowed);
    }
}
