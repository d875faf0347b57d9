//! MariaDB's privileges as bits — the `access` word of `mysql.global_priv`,
//! bit for bit — their names in SHOW GRANTS order, and the privileges each
//! grant level takes.

pub(crate) const SELECT: u64 = 1 << 0;
pub(crate) const INSERT: u64 = 1 << 1;
pub(crate) const UPDATE: u64 = 1 << 2;
pub(crate) const DELETE: u64 = 1 << 3;
pub(crate) const CREATE: u64 = 1 << 4;
pub(crate) const DROP: u64 = 1 << 5;
pub(crate) const RELOAD: u64 = 1 << 6;
pub(crate) const SHUTDOWN: u64 = 1 << 7;
pub(crate) const PROCESS: u64 = 1 << 8;
pub(crate) const FILE: u64 = 1 << 9;
/// WITH GRANT OPTION at the level it is stored with.
pub(crate) const GRANT: u64 = 1 << 10;
pub(crate) const REFERENCES: u64 = 1 << 11;
pub(crate) const INDEX: u64 = 1 << 12;
pub(crate) const ALTER: u64 = 1 << 13;
pub(crate) const SHOW_DATABASES: u64 = 1 << 14;
pub(crate) const SUPER: u64 = 1 << 15;
/// BINLOG MONITOR (REPLICATION CLIENT): SHOW MASTER STATUS, SHOW BINARY LOGS.
pub(crate) const BINLOG_MONITOR: u64 = 1 << 20;
/// SLAVE MONITOR: SHOW SLAVE STATUS.
pub(crate) const SLAVE_MONITOR: u64 = 1 << 38;
pub(crate) const CREATE_TEMPORARY_TABLES: u64 = 1 << 16;
pub(crate) const LOCK_TABLES: u64 = 1 << 17;
pub(crate) const EXECUTE: u64 = 1 << 18;
pub(crate) const CREATE_VIEW: u64 = 1 << 21;
pub(crate) const SHOW_VIEW: u64 = 1 << 22;
pub(crate) const CREATE_ROUTINE: u64 = 1 << 23;
pub(crate) const ALTER_ROUTINE: u64 = 1 << 24;
pub(crate) const CREATE_USER: u64 = 1 << 25;
pub(crate) const EVENT: u64 = 1 << 26;
pub(crate) const TRIGGER: u64 = 1 << 27;
pub(crate) const DELETE_HISTORY: u64 = 1 << 29;
pub(crate) const CONNECTION_ADMIN: u64 = 1 << 32;

/// Every privilege (`ALL PRIVILEGES` on `*.*`), GRANT OPTION aside.
pub(crate) const ALL_GLOBAL: u64 = ((1 << 39) - 1) & !GRANT;

/// What `db.*` takes.
pub(crate) const DB_LEVEL: u64 = SELECT
    | INSERT
    | UPDATE
    | DELETE
    | CREATE
    | DROP
    | GRANT
    | REFERENCES
    | INDEX
    | ALTER
    | CREATE_TEMPORARY_TABLES
    | LOCK_TABLES
    | EXECUTE
    | CREATE_VIEW
    | SHOW_VIEW
    | CREATE_ROUTINE
    | ALTER_ROUTINE
    | EVENT
    | TRIGGER
    | DELETE_HISTORY;

/// What `db.table` takes.
pub(crate) const TABLE_LEVEL: u64 = SELECT
    | INSERT
    | UPDATE
    | DELETE
    | CREATE
    | DROP
    | GRANT
    | REFERENCES
    | INDEX
    | ALTER
    | CREATE_VIEW
    | SHOW_VIEW
    | TRIGGER
    | DELETE_HISTORY;

/// What a column list takes: `SELECT (a, b)`.
pub(crate) const COLUMN_LEVEL: u64 = SELECT | INSERT | UPDATE | REFERENCES;

/// Names as SHOW GRANTS writes them, in its order (GRANT is written as
/// WITH GRANT OPTION).
pub(crate) const NAMES: [(&str, u64); 39] = [
    ("SELECT", SELECT),
    ("INSERT", INSERT),
    ("UPDATE", UPDATE),
    ("DELETE", DELETE),
    ("CREATE", CREATE),
    ("DROP", DROP),
    ("RELOAD", RELOAD),
    ("SHUTDOWN", SHUTDOWN),
    ("PROCESS", PROCESS),
    ("FILE", FILE),
    ("GRANT", GRANT),
    ("REFERENCES", REFERENCES),
    ("INDEX", INDEX),
    ("ALTER", ALTER),
    ("SHOW DATABASES", SHOW_DATABASES),
    ("SUPER", SUPER),
    ("CREATE TEMPORARY TABLES", CREATE_TEMPORARY_TABLES),
    ("LOCK TABLES", LOCK_TABLES),
    ("EXECUTE", EXECUTE),
    ("REPLICATION SLAVE", 1 << 19),
    ("BINLOG MONITOR", BINLOG_MONITOR),
    ("CREATE VIEW", CREATE_VIEW),
    ("SHOW VIEW", SHOW_VIEW),
    ("CREATE ROUTINE", CREATE_ROUTINE),
    ("ALTER ROUTINE", ALTER_ROUTINE),
    ("CREATE USER", CREATE_USER),
    ("EVENT", EVENT),
    ("TRIGGER", TRIGGER),
    ("CREATE TABLESPACE", 1 << 28),
    ("DELETE HISTORY", DELETE_HISTORY),
    ("SET USER", 1 << 30),
    ("FEDERATED ADMIN", 1 << 31),
    ("CONNECTION ADMIN", CONNECTION_ADMIN),
    ("READ_ONLY ADMIN", 1 << 33),
    ("REPLICATION SLAVE ADMIN", 1 << 34),
    ("REPLICATION MASTER ADMIN", 1 << 35),
    ("BINLOG ADMIN", 1 << 36),
    ("BINLOG REPLAY", 1 << 37),
    ("SLAVE MONITOR", SLAVE_MONITOR),
];

/// Other names a GRANT may use for the same privileges.
const SYNONYMS: [(&str, u64); 3] = [
    ("REPLICATION CLIENT", BINLOG_MONITOR),
    ("SLAVE MONITOR", SLAVE_MONITOR),
    ("READ ONLY ADMIN", 1 << 33),
];

/// The bit of a privilege name (words joined by one space, any case).
pub(crate) fn bit_of(name: &str) -> Option<u64> {
    let upper = name.to_ascii_uppercase();
    NAMES
        .iter()
        .chain(SYNONYMS.iter())
        .find(|(n, _)| *n == upper && *n != "GRANT")
        .map(|(_, b)| *b)
}

/// The name of one privilege bit.
pub(crate) fn name_of(bit: u64) -> &'static str {
    NAMES
        .iter()
        .find(|(_, b)| *b == bit)
        .map_or("USAGE", |(n, _)| n)
}

/// SHOW GRANTS' list of `bits` (GRANT OPTION aside) at a level whose whole
/// set is `level`: `ALL PRIVILEGES` when every one is there, `USAGE` when
/// none is.
pub(crate) fn list(bits: u64, level: u64) -> String {
    let bits = bits & !GRANT;
    let all = level & !GRANT;
    if bits & all == all {
        return "ALL PRIVILEGES".into();
    }
    if bits == 0 {
        return "USAGE".into();
    }
    NAMES
        .iter()
        .filter(|(_, b)| bits & b != 0)
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `Table_priv`/`Column_priv` SET text of `mysql.tables_priv`:
/// `Select,Insert,...` in the SET's order.
pub(crate) fn set_text(bits: u64) -> String {
    const ORDER: [(&str, u64); 14] = [
        ("Select", SELECT),
        ("Insert", INSERT),
        ("Update", UPDATE),
        ("Delete", DELETE),
        ("Create", CREATE),
        ("Drop", DROP),
        ("Grant", GRANT),
        ("References", REFERENCES),
        ("Index", INDEX),
        ("Alter", ALTER),
        ("Create View", CREATE_VIEW),
        ("Show view", SHOW_VIEW),
        ("Trigger", TRIGGER),
        ("Delete versioning rows", DELETE_HISTORY),
    ];
    ORDER
        .iter()
        .filter(|(_, b)| bits & b != 0)
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(",")
}

/// The bits of a `set_text` value.
pub(crate) fn parse_set_text(text: &str) -> u64 {
    text.split(',')
        .filter(|w| !w.is_empty())
        .map(|w| match w {
            "Show view" => SHOW_VIEW,
            "Create View" => CREATE_VIEW,
            "Delete versioning rows" => DELETE_HISTORY,
            "Grant" => GRANT,
            w => bit_of(w).unwrap_or(0),
        })
        .fold(0, |a, b| a | b)
}

/// `mysql.db`'s privilege columns, in its order.
pub(crate) const DB_COLUMNS: [(&str, u64); 20] = [
    ("Select_priv", SELECT),
    ("Insert_priv", INSERT),
    ("Update_priv", UPDATE),
    ("Delete_priv", DELETE),
    ("Create_priv", CREATE),
    ("Drop_priv", DROP),
    ("Grant_priv", GRANT),
    ("References_priv", REFERENCES),
    ("Index_priv", INDEX),
    ("Alter_priv", ALTER),
    ("Create_tmp_table_priv", CREATE_TEMPORARY_TABLES),
    ("Lock_tables_priv", LOCK_TABLES),
    ("Create_view_priv", CREATE_VIEW),
    ("Show_view_priv", SHOW_VIEW),
    ("Create_routine_priv", CREATE_ROUTINE),
    ("Alter_routine_priv", ALTER_ROUTINE),
    ("Execute_priv", EXECUTE),
    ("Event_priv", EVENT),
    ("Trigger_priv", TRIGGER),
    ("Delete_history_priv", DELETE_HISTORY),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_mariadbs_access_word() {
        // mysql.global_priv's "access" after GRANT ALL ON *.* in MariaDB 10.11.
        assert_eq!(ALL_GLOBAL, 549_755_812_863);
        assert_eq!(list(ALL_GLOBAL, ALL_GLOBAL), "ALL PRIVILEGES");
        assert_eq!(list(DB_LEVEL, DB_LEVEL), "ALL PRIVILEGES");
        assert_eq!(
            list(SELECT | SUPER | (1 << 20), ALL_GLOBAL),
            "SELECT, SUPER, BINLOG MONITOR"
        );
        assert_eq!(bit_of("replication client"), Some(1 << 20));
        assert_eq!(bit_of("GRANT"), None);
        assert_eq!(parse_set_text(&set_text(TABLE_LEVEL)), TABLE_LEVEL);
    }
}
