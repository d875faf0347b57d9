//! ALTER TABLE and RENAME TABLE beside a real MariaDB 10.11: renaming a
//! column, its DEFAULT and comment, CHANGE / MODIFY that keep the stored
//! values, renaming tables (several, swapping, across databases), indexes
//! added with the names a statement's renames give, CREATE TABLE … LIKE,
//! table options (AUTO_INCREMENT, COMMENT, storage options); the same rows,
//! errors and SHOW CREATE TABLE (but the engine's name). Changes that would
//! rewrite rows are refused with 1235, and the definitions survive a
//! kill -9.
mod common;
use common::differential::same_as_mariadb_but_engine;
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

const SETUP: &[&str] = &[
    "CREATE TABLE a1 (id INT PRIMARY KEY, v VARCHAR(10) DEFAULT 'x', n INT, KEY kn (n))",
    "INSERT INTO a1 VALUES (1, 'a', 10), (2, 'b', 20)",
    "CREATE TABLE l1 (id INT AUTO_INCREMENT PRIMARY KEY, s VARCHAR(10) NOT NULL DEFAULT 'd' \
     COMMENT 'c', t DATETIME DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, \
     UNIQUE KEY us (s), KEY kt (t, id))",
    "INSERT INTO l1 (s) VALUES ('a'), ('b')",
    "DROP DATABASE IF EXISTS altb",
    "CREATE DATABASE altb",
];

const STEPS: &[&str] = &[
    "ALTER TABLE a1 RENAME COLUMN v TO w",
    "SELECT * FROM a1 ORDER BY id",
    "SHOW CREATE TABLE a1",
    "ALTER TABLE a1 ALTER COLUMN w SET DEFAULT 'zz'",
    "INSERT INTO a1 (id, n) VALUES (3, 30)",
    "ALTER TABLE a1 ALTER COLUMN w DROP DEFAULT",
    "INSERT INTO a1 (id, n) VALUES (4, 40)",
    "SELECT * FROM a1 ORDER BY id",
    "ALTER TABLE a1 CHANGE w v VARCHAR(10) DEFAULT 'q' COMMENT 'the v'",
    "ALTER TABLE a1 MODIFY n INT COMMENT 'it''s n'",
    "SHOW CREATE TABLE a1",
    "INSERT INTO a1 (id) VALUES (5)",
    "SELECT * FROM a1 ORDER BY id",
    // Errors: unknown and duplicate columns, taken and missing tables.
    "ALTER TABLE a1 RENAME COLUMN nope TO x",
    "ALTER TABLE a1 RENAME COLUMN n TO id",
    "ALTER TABLE a1 ALTER COLUMN nope SET DEFAULT 1",
    "ALTER TABLE a1 ADD INDEX kx (nope)",
    "ALTER TABLE a1 RENAME TO l1",
    "RENAME TABLE nope TO b",
    "RENAME TABLE a1 TO l1",
    "RENAME TABLE a1 TO nodb.a1",
    // Renames: to a new name, a swap through a third, across databases.
    "ALTER TABLE a1 RENAME TO a2",
    "SELECT * FROM a1",
    "SELECT COUNT(*) FROM a2",
    "CREATE TABLE a3 (x INT)",
    "RENAME TABLE a2 TO a4, a3 TO a2, a4 TO a3",
    "SELECT * FROM a3 ORDER BY id",
    "SELECT * FROM a2",
    "RENAME TABLE a3 TO altb.moved",
    "SELECT COUNT(*) FROM altb.moved",
    "ALTER TABLE altb.moved RENAME TO back, ADD INDEX kv (v)",
    "ALTER TABLE back ADD INDEX k2 (id), RENAME COLUMN v TO v3",
    "ALTER TABLE back RENAME COLUMN v3 TO v4, ADD INDEX k4 (v4)",
    "SHOW CREATE TABLE back",
    "SELECT id FROM back WHERE v4 = 'q'",
    // LIKE: columns, keys, defaults, comments; not the rows.
    "CREATE TABLE l2 LIKE l1",
    "SHOW CREATE TABLE l2",
    "SELECT COUNT(*) FROM l2",
    "INSERT INTO l2 (s) VALUES ('q')",
    "SELECT id, s FROM l2",
    "CREATE TABLE l2 LIKE l1",
    "CREATE TABLE IF NOT EXISTS l2 LIKE l1",
    "CREATE TABLE l3 LIKE nope",
    "CREATE TEMPORARY TABLE l4 LIKE l1",
    "SHOW CREATE TABLE l4",
    "ALTER TABLE l1 RENAME COLUMN s TO s2, ADD INDEX ks2 (s2)",
    "SHOW CREATE TABLE l1",
    // Table options.
    "CREATE TABLE n (x INT PRIMARY KEY AUTO_INCREMENT, y INT) AUTO_INCREMENT = 100 \
     COMMENT = 'hello' ENGINE = InnoDB ROW_FORMAT = DYNAMIC DEFAULT CHARSET = utf8mb4",
    "INSERT INTO n (y) VALUES (1)",
    "SHOW CREATE TABLE n",
    "ALTER TABLE n AUTO_INCREMENT = 500",
    "INSERT INTO n (y) VALUES (2)",
    "SELECT * FROM n ORDER BY x",
    "SHOW CREATE TABLE n",
    "CREATE TABLE n4 (x INT PRIMARY KEY AUTO_INCREMENT) COMMENT 'it''s'",
    "INSERT INTO n4 VALUES (NULL), (NULL)",
    "SHOW CREATE TABLE n4",
    "CREATE TABLE n5 LIKE n",
    "SHOW CREATE TABLE n5",
    "CREATE TABLE n6 (x INT) STATS_PERSISTENT = 0 CHECKSUM = 1 ROW_FORMAT = COMPACT PACK_KEYS = 1",
    "SHOW CREATE TABLE n6",
    "CREATE TABLE c1 (s VARCHAR(5) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci)",
    "SHOW CREATE TABLE c1",
];

/// What lineardb refuses (MariaDB does them): each must be 1235 and
/// change nothing.
const REFUSED: &[&str] = &[
    "ALTER TABLE l1 CHANGE s2 s2 INT",
    "ALTER TABLE l1 MODIFY s2 VARCHAR(10) NOT NULL DEFAULT 'd' FIRST",
    "ALTER TABLE l1 ADD COLUMN z INT",
    "ALTER TABLE l1 DROP COLUMN t",
    "CREATE TABLE r1 (x INT) ENGINE = MEMORY",
    "CREATE TABLE r2 (x INT) DEFAULT CHARSET = latin1",
    "CREATE TABLE r3 (s VARCHAR(5) COLLATE utf8mb4_bin)",
    "CREATE TABLE r4 AS SELECT * FROM l1",
];

#[test]
fn alter_and_rename_as_mariadb_does_and_survive_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_at(dir.path(), &[]);
    let mariadb = MariaDb::start();
    same_as_mariadb_but_engine(&server, &mariadb, "alt", SETUP, STEPS);

    let mut c = Conn::new(Opts::from_url(&server.url("alt")).unwrap()).unwrap();
    let before: String = c
        .query_first::<(String, String), _>("SHOW CREATE TABLE l1")
        .unwrap()
        .unwrap()
        .1;
    for sql in REFUSED {
        match c.query_drop(sql) {
            Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1235, "{sql}: {}", e.message),
            other => panic!("{sql}: {other:?}"),
        }
    }
    let after: String = c
        .query_first::<(String, String), _>("SHOW CREATE TABLE l1")
        .unwrap()
        .unwrap()
        .1;
    assert_eq!(before, after, "a refused ALTER changed nothing");
    // Renames and definitions are committed: a kill -9 keeps them.
    let shown = |c: &mut Conn| -> Vec<String> {
        ["back", "l1", "n", "altb.moved"]
            .iter()
            .map(
                |t| match c.query_first::<(String, String), _>(format!("SHOW CREATE TABLE {t}")) {
                    Ok(r) => r.unwrap().1,
                    Err(e) => e.to_string(),
                },
            )
            .collect()
    };
    let defs = shown(&mut c);
    let rows: Vec<(i64, Option<String>, Option<i64>)> =
        c.query("SELECT id, v4, n FROM back ORDER BY id").unwrap();
    drop(c);
    server.kill9();
    let server = Server::start_at(dir.path(), &[]);
    let mut c = Conn::new(Opts::from_url(&server.url("alt")).unwrap()).unwrap();
    assert_eq!(shown(&mut c), defs);
    let again: Vec<(i64, Option<String>, Option<i64>)> =
        c.query("SELECT id, v4, n FROM back ORDER BY id").unwrap();
    assert_eq!(again, rows);
    // AUTO_INCREMENT = 500 outlives the restart.
    c.query_drop("INSERT INTO n (y) VALUES (3)").unwrap();
    let max: Option<i64> = c.query_first("SELECT MAX(x) FROM n").unwrap();
    assert_eq!(max, Some(501));
}
