//! ALTER TABLE and RENAME TABLE beside a real MariaDB 10.11: renaming a
//! column, its DEFAULT and comment, CHANGE / MODIFY that keep the stored
//! values, renaming tables (several, swapping, across databases), indexes
//! added with the names a statement's renames give, CREATE TABLE … LIKE,
//! table options (AUTO_INCREMENT, COMMENT, storage options); the same rows,
//! errors and SHOW CREATE TABLE (but the engine's name), and the
//! definitions survive a kill -9. Changes that rewrite the rows (columns
//! added, dropped, moved, retyped; primary keys) give MariaDB's rows,
//! errors with row numbers, warnings outside strict mode and definitions;
//! writers running meanwhile lose nothing, and a kill -9 during one leaves
//! the old table or the new one.
mod common;
use common::differential::{same_as_mariadb, Shown};
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
    // Table options alone: the rows stay; ENGINE names this engine.
    "ALTER TABLE l1 COMMENT = 'first'",
    "ALTER TABLE l1 COMMENT 'it''s a \\\\ \\n comment'",
    "ALTER TABLE l1 ENGINE = InnoDB",
    "ALTER TABLE l1 ENGINE = InnoDB, AUTO_INCREMENT = 500",
    "ALTER TABLE l1 DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci",
    "ALTER TABLE l1 ROW_FORMAT = COMPRESSED, STATS_PERSISTENT = 0",
    "ALTER TABLE l1 ENGINE = no_such_engine",
    "ALTER TABLE l1 CHARACTER SET = latin1",
    "SHOW CREATE TABLE l1",
    "ALTER TABLE l1 ADD COLUMN w VARCHAR(5)",
    "SHOW CREATE TABLE l1",
    "SELECT TABLE_COMMENT, AUTO_INCREMENT, TABLE_COLLATION FROM information_schema.TABLES \
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'l1'",
    // AUTO_INCREMENT = n sets the counter down as well as up, never to or
    // below the largest value the rows hold.
    "DELETE FROM l1 WHERE id > 1",
    "ALTER TABLE l1 AUTO_INCREMENT = 1",
    "INSERT INTO l1 (s) VALUES ('c')",
    "DELETE FROM l1",
    "ALTER TABLE l1 AUTO_INCREMENT = 1",
    "INSERT INTO l1 (s) VALUES ('d')",
    "ALTER TABLE l1 AUTO_INCREMENT = 100",
    "INSERT INTO l1 (s) VALUES ('e')",
    "ALTER TABLE l1 AUTO_INCREMENT = 50",
    "INSERT INTO l1 (s) VALUES ('f')",
    "ALTER TABLE l1 RENAME TO l2, AUTO_INCREMENT = 7",
    "INSERT INTO l2 (s) VALUES ('g')",
    "ALTER TABLE l2 RENAME TO l1",
    "SELECT id, s FROM l1 ORDER BY id",
    // Key parts declared DESC are kept and shown, through every DDL.
    "CREATE TABLE d1 (a INT, b INT, c INT, KEY kd (a DESC, b), UNIQUE KEY ud (c DESC))",
    "CREATE INDEX kb ON d1 (b DESC, a)",
    "ALTER TABLE d1 ADD INDEX kc (c, a DESC)",
    "SHOW CREATE TABLE d1",
    "SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, COLLATION FROM information_schema.STATISTICS \
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'd1' ORDER BY INDEX_NAME, SEQ_IN_INDEX",
    "INSERT INTO d1 VALUES (1, 2, 3), (2, 1, 4), (3, 3, 5), (NULL, 4, 6)",
    "SELECT a, b FROM d1 ORDER BY a DESC, b",
    "SELECT b, a FROM d1 WHERE b > 1 ORDER BY b DESC",
    "INSERT INTO d1 VALUES (9, 9, 3)",
    "ALTER TABLE d1 MODIFY c BIGINT",
    "CREATE TABLE d2 LIKE d1",
    "SHOW CREATE TABLE d2",
    "SHOW CREATE TABLE d1",
];

/// What lineardb refuses (MariaDB does them): each must be 1235 and
/// change nothing.
const REFUSED: &[&str] = &[
    "CREATE TABLE r1 (x INT) ENGINE = MEMORY",
    "CREATE TABLE r2 (x INT) DEFAULT CHARSET = latin2",
    "CREATE TABLE r3 (s VARCHAR(5) COLLATE utf8mb4_unicode_520_ci)",
    "CREATE TABLE r4 (a INT, PRIMARY KEY (a DESC))",
    "ALTER TABLE l1 ADD COLUMN e ENUM('a'), CONVERT TO CHARACTER SET latin1",
];

/// CONVERT TO CHARACTER SET, and table options among column changes.
const CONVERSIONS: &[&str] = &[
    "CREATE TABLE cv (id INT PRIMARY KEY, a VARCHAR(10), b TEXT, c CHAR(3) COLLATE utf8mb4_bin, \
     e INT, f VARBINARY(4), g VARCHAR(5) CHARACTER SET latin1, h JSON, t TINYTEXT, \
     KEY ka (a), KEY kc (c))",
    "INSERT INTO cv VALUES (1, 'abc', 'Text', 'xY', 1, 'ab', 'é', '{\"a\":1}', 'tt'), \
     (2, 'ABD', 't2', 'q', 2, NULL, NULL, NULL, NULL), (3, 'Abc', 'x', 'XY', 3, NULL, NULL, NULL, NULL)",
    "ALTER TABLE cv CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
    "SHOW CREATE TABLE cv",
    "SELECT id FROM cv WHERE a = 'abc' ORDER BY id",
    "SELECT id FROM cv WHERE c = 'xy' ORDER BY id",
    "ALTER TABLE cv CONVERT TO CHARACTER SET latin1",
    "SHOW CREATE TABLE cv",
    "SELECT * FROM cv ORDER BY id",
    "SELECT id, c FROM cv ORDER BY c, id",
    "ALTER TABLE cv CONVERT TO CHARSET utf8mb4",
    "SHOW CREATE TABLE cv",
    "ALTER TABLE cv CONVERT TO CHARACTER SET latin1 COLLATE latin1_bin, ADD COLUMN z INT FIRST",
    "SHOW CREATE TABLE cv",
    "SELECT id, a FROM cv ORDER BY a, id",
    "ALTER TABLE cv CONVERT TO CHARACTER SET DEFAULT",
    "SHOW CREATE TABLE cv",
    "ALTER TABLE cv CONVERT TO CHARACTER SET utf8mb4 COLLATE latin1_bin",
    "ALTER TABLE cv CONVERT TO CHARACTER SET nosuch",
    "ALTER TABLE cv CONVERT TO latin1",
    "ALTER TABLE cv ADD COLUMN y INT, COMMENT 'hello'",
    "SHOW CREATE TABLE cv",
    "ALTER TABLE cv COMMENT 'c2', MODIFY e BIGINT, DEFAULT CHARSET latin1, ENGINE=InnoDB, \
     ADD INDEX ke (e)",
    "SHOW CREATE TABLE cv",
    "ALTER TABLE cv RENAME TO cv2, COMMENT 'renamed'",
    "SHOW CREATE TABLE cv2",
    "ALTER TABLE cv2 ENGINE=nosuch, ADD COLUMN w INT",
    "SHOW CREATE TABLE cv2",
    "INSERT INTO cv2 (id, a) VALUES (4, 'Ā')",
    "ALTER TABLE cv2 CONVERT TO CHARACTER SET latin1",
    "SHOW CREATE TABLE cv2",
    "CREATE TABLE cw (id INT PRIMARY KEY, v VARCHAR(20000)) CHARSET latin1",
    "ALTER TABLE cw CONVERT TO CHARACTER SET utf8mb4",
    "CREATE TABLE cx (id INT PRIMARY KEY, v TINYTEXT, w MEDIUMTEXT, x TEXT) CHARSET latin1",
    "ALTER TABLE cx CONVERT TO CHARACTER SET utf8mb4",
    "SHOW CREATE TABLE cx",
];

const REWRITE_SETUP: &[&str] = &[
    "CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), KEY ka (a), KEY kab (a, b))",
    "INSERT INTO t VALUES (1, 300, 'x'), (2, NULL, 'yy'), (3, 5, NULL)",
    "CREATE TABLE u (a INT, b INT)",
    "INSERT INTO u VALUES (1, 2), (1, 3), (2, 2)",
];

const REWRITES: &[&str] = &[
    "ALTER TABLE t ADD COLUMN c INT NOT NULL",
    "ALTER TABLE t ADD COLUMN e VARCHAR(5) NOT NULL DEFAULT 'd' AFTER id",
    "ALTER TABLE t ADD COLUMN f DOUBLE FIRST, ADD COLUMN g INT DEFAULT 7",
    // A NOT NULL date without a default: the zero date.
    "ALTER TABLE t ADD COLUMN z DATE NOT NULL, ADD COLUMN zt DATETIME NOT NULL",
    "SELECT * FROM t ORDER BY id",
    "SHOW CREATE TABLE t",
    // Values the new type cannot hold: MariaDB's error and row number.
    "ALTER TABLE t MODIFY a TINYINT",
    "ALTER TABLE t MODIFY a INT NOT NULL",
    "ALTER TABLE t MODIFY b VARCHAR(1)",
    "ALTER TABLE t MODIFY b VARCHAR(20) NOT NULL",
    "SELECT * FROM t ORDER BY id",
    "ALTER TABLE t MODIFY a BIGINT AFTER b",
    "ALTER TABLE t CHANGE b bb VARCHAR(30) FIRST",
    "SELECT * FROM t WHERE a = 5",
    "SELECT bb, id FROM t WHERE bb = 'yy'",
    "SHOW CREATE TABLE t",
    "ALTER TABLE t DROP COLUMN a",
    "SHOW CREATE TABLE t",
    "ALTER TABLE t DROP COLUMN zz",
    "ALTER TABLE t DROP COLUMN IF EXISTS zz, DROP COLUMN f",
    "ALTER TABLE t ADD COLUMN e INT",
    "ALTER TABLE t ADD COLUMN k INT AUTO_INCREMENT",
    "ALTER TABLE t ADD COLUMN k INT AUTO_INCREMENT UNIQUE FIRST",
    "INSERT INTO t (id) VALUES (4)",
    "SELECT * FROM t ORDER BY id",
    "ALTER TABLE t DROP PRIMARY KEY",
    "ALTER TABLE t DROP PRIMARY KEY",
    "ALTER TABLE t ADD PRIMARY KEY (bb)",
    "ALTER TABLE t ADD PRIMARY KEY (k)",
    "SELECT k, id FROM t ORDER BY k",
    "SHOW CREATE TABLE t",
    // New keys over the rows: duplicates refused, nothing changed.
    "ALTER TABLE u ADD PRIMARY KEY (a)",
    "ALTER TABLE u ADD PRIMARY KEY (a, b), ADD UNIQUE KEY (b)",
    "SELECT * FROM u ORDER BY a, b",
    "ALTER TABLE u ADD PRIMARY KEY (a, b), ADD INDEX (b)",
    "SELECT * FROM u",
    "SHOW CREATE TABLE u",
    "ALTER TABLE u DROP COLUMN a, DROP COLUMN b",
    "ALTER TABLE u ADD COLUMN c INT AFTER zz",
    // Outside strict mode values are adjusted, with warnings.
    "SET sql_mode = ''",
    "ALTER TABLE t MODIFY bb CHAR(1) NOT NULL, MODIFY g TINYINT UNSIGNED",
    "SHOW WARNINGS",
    "SELECT * FROM t ORDER BY id",
    "SET sql_mode = DEFAULT",
];

#[test]
fn alter_and_rename_as_mariadb_does_and_survive_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_at(dir.path(), &[]);
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "alt", SETUP, STEPS, Shown::Rows);
    same_as_mariadb(&server, &mariadb, "acv", &[], CONVERSIONS, Shown::Rows);
    same_as_mariadb(
        &server,
        &mariadb,
        "alr",
        REWRITE_SETUP,
        REWRITES,
        Shown::Rows,
    );
    // The ALTERs' own outcomes, messages and row numbers included.
    let alters: Vec<&str> = REWRITES
        .iter()
        .copied()
        .filter(|s| s.starts_with("ALTER") || s.starts_with("SET"))
        .collect();
    same_as_mariadb(
        &server,
        &mariadb,
        "alr",
        REWRITE_SETUP,
        &alters,
        Shown::Changes,
    );

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

/// Writers keep inserting while ALTERs rebuild the table: every insert
/// that succeeded is in the new table, in every index.
#[test]
fn a_rebuild_loses_no_concurrent_write() {
    use lineardb_sync::SharedFlag;
    use std::sync::Arc;
    let server = Server::start();
    let mut c = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    c.query_drop("CREATE DATABASE rw").unwrap();
    c.query_drop("USE rw").unwrap();
    c.query_drop("CREATE TABLE w (id INT AUTO_INCREMENT PRIMARY KEY, v INT, KEY kv (v))")
        .unwrap();
    let values: Vec<String> = (0..20_000).map(|i| format!("({i})")).collect();
    c.query_drop(format!("INSERT INTO w (v) VALUES {}", values.join(",")))
        .unwrap();
    let stop = Arc::new(SharedFlag::new(false));
    let writers: Vec<_> = (1..=2)
        .map(|w| {
            let (stop, url) = (stop.clone(), server.url("rw"));
            // Each writer's count of inserts that succeeded.
            std::thread::spawn(move || {
                let mut c = Conn::new(Opts::from_url(&url).unwrap()).unwrap();
                let mut i = 0u64;
                while !stop.get() {
                    let v = w * 1_000_000 + i + 1;
                    c.query_drop(format!("INSERT INTO w (v) VALUES ({v})"))
                        .unwrap();
                    i += 1;
                }
                i
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(100));
    for alter in [
        "ALTER TABLE w ADD COLUMN c INT DEFAULT 5",
        "ALTER TABLE w MODIFY v BIGINT",
        "ALTER TABLE w ADD INDEX kc (c, v)",
        "ALTER TABLE w DROP COLUMN c",
    ] {
        c.query_drop(alter).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    stop.set(true);
    let written: u64 = writers.into_iter().map(|w| w.join().unwrap()).sum();
    assert!(written > 0);
    let count = |c: &mut Conn, sql: &str| -> u64 { c.query_first(sql).unwrap().unwrap() };
    assert_eq!(count(&mut c, "SELECT COUNT(*) FROM w"), 20_000 + written);
    assert_eq!(
        count(&mut c, "SELECT COUNT(*) FROM w WHERE v >= 1000000"),
        written
    );
    assert_eq!(
        count(
            &mut c,
            "SELECT COUNT(*) FROM w FORCE INDEX (kv) WHERE v >= 0"
        ),
        20_000 + written
    );
    let shown: (String, String) = c.query_first("SHOW CREATE TABLE w").unwrap().unwrap();
    assert!(shown.1.contains("`v` bigint(20)"), "{}", shown.1);
}

/// A kill -9 while ALTER rebuilds a table leaves the old table or the new
/// one, with every row.
#[test]
fn a_kill_during_a_rebuild_leaves_the_old_or_the_new_table() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_at(dir.path(), &[]);
    let mut c = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    c.query_drop("CREATE DATABASE rk").unwrap();
    c.query_drop("USE rk").unwrap();
    c.query_drop("CREATE TABLE k (id INT AUTO_INCREMENT PRIMARY KEY, v INT, KEY kv (v))")
        .unwrap();
    let values: Vec<String> = (0..50_000).map(|i| format!("({i})")).collect();
    c.query_drop(format!("INSERT INTO k (v) VALUES {}", values.join(",")))
        .unwrap();
    for _ in 0..2 {
        c.query_drop("INSERT INTO k (v) SELECT v FROM k").unwrap();
    }
    drop(c);
    let mut server = server;
    let mut states = Vec::new();
    for (round, delay_ms) in [5u64, 60, 250].into_iter().enumerate() {
        let url = server.url("rk");
        let column = format!("z{round}");
        let alter = std::thread::spawn(move || {
            let mut c = Conn::new(Opts::from_url(&url).unwrap()).unwrap();
            let _ = c.query_drop(format!("ALTER TABLE k ADD COLUMN {column} INT DEFAULT 7"));
        });
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        server.kill9();
        let _ = alter.join();
        server = Server::start_at(dir.path(), &[]);
        let mut c = Conn::new(Opts::from_url(&server.url("rk")).unwrap()).unwrap();
        let count: u64 = c.query_first("SELECT COUNT(*) FROM k").unwrap().unwrap();
        assert_eq!(count, 200_000);
        let shown: (String, String) = c.query_first("SHOW CREATE TABLE k").unwrap().unwrap();
        let added = shown.1.contains(&format!("`z{round}`"));
        if added {
            let sevens: u64 = c
                .query_first(format!("SELECT COUNT(*) FROM k WHERE z{round} = 7"))
                .unwrap()
                .unwrap();
            assert_eq!(sevens, 200_000);
        }
        let by_index: u64 = c
            .query_first("SELECT COUNT(*) FROM k FORCE INDEX (kv) WHERE v >= 0")
            .unwrap()
            .unwrap();
        assert_eq!(by_index, 200_000);
        states.push(added);
    }
    eprintln!("rebuilt before the kill, per round: {states:?}");
}

/// A long ALTER TABLE reports its stage and progress in SHOW PROCESSLIST
/// and information_schema.PROCESSLIST as MariaDB's copying ALTER does:
/// "copy to tmp table" (stage 1 of 2), then "Enabling keys" (2 of 2), its
/// progress only growing; CREATE INDEX is "altering table", one stage.
/// SHOW PROCESSLIST's columns are typed as MariaDB's.
#[test]
fn a_long_alter_reports_its_progress() {
    use mysql::Row;
    let server = Server::start();
    let mariadb = MariaDb::start();
    let shape = |url: &str| -> Vec<String> {
        let mut c = Conn::new(Opts::from_url(url).unwrap()).unwrap();
        let rows: Vec<Row> = c.query("SHOW PROCESSLIST").unwrap();
        let columns = rows[0].columns_ref();
        columns
            .iter()
            .map(|col| {
                format!(
                    "{} {:?} {} {} not-null={}",
                    col.name_str(),
                    col.column_type(),
                    col.column_length(),
                    col.decimals(),
                    col.flags()
                        .contains(mysql::consts::ColumnFlags::NOT_NULL_FLAG)
                )
            })
            .collect()
    };
    assert_eq!(
        shape(&server.url("")),
        shape(&format!("mysql://root@127.0.0.1:{}/", mariadb.port))
    );

    let mut c = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    c.query_drop("CREATE DATABASE pg").unwrap();
    c.query_drop("USE pg").unwrap();
    c.query_drop(
        "CREATE TABLE p (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(100), n INT, KEY kn (n))",
    )
    .unwrap();
    let values: Vec<String> = (0..1000)
        .map(|i| format!("(REPEAT('x', 80), {i})"))
        .collect();
    c.query_drop(format!("INSERT INTO p (v, n) VALUES {}", values.join(",")))
        .unwrap();
    for _ in 0..8 {
        c.query_drop("INSERT INTO p (v, n) SELECT v, n + 1 FROM p")
            .unwrap();
    }
    // (state, stage, max_stage, percent of the stage) of
    // information_schema, then (Progress, State) of SHOW PROCESSLIST read
    // just after, seen while `ddl` ran, polled as fast as the server
    // answers.
    type Sample = (String, u64, u64, f64, f64, String);
    let watch = |c: &mut Conn, ddl: &'static str| -> Vec<Sample> {
        let url = server.url("pg");
        let (tx, rx) = std::sync::mpsc::channel();
        let running = std::thread::spawn(move || {
            let mut a = Conn::new(Opts::from_url(&url).unwrap()).unwrap();
            tx.send(a.connection_id()).unwrap();
            a.query_drop(ddl).unwrap();
            a
        });
        let id = rx.recv().unwrap();
        let mut seen = Vec::new();
        while !running.is_finished() {
            let stage: Option<(String, u64, u64, f64)> = c
                .query_first(format!(
                    "SELECT STATE, STAGE, MAX_STAGE, PROGRESS FROM information_schema.PROCESSLIST \
                     WHERE ID = {id} AND COMMAND = 'Query'"
                ))
                .unwrap();
            let shown: Vec<Row> = c.query("SHOW PROCESSLIST").unwrap();
            let overall = shown
                .iter()
                .find(|r| {
                    r.get::<u32, _>(0) == Some(id) && r.get::<String, _>(4).unwrap() == "Query"
                })
                .map(|r| (r.get::<f64, _>(8).unwrap(), r.get::<String, _>(6).unwrap()));
            if let (Some((state, stage, max, percent)), Some((overall, shown))) = (stage, overall) {
                seen.push((state, stage, max, percent, overall, shown));
            }
        }
        let mut a = running.join().unwrap();
        // Done, the session sleeps with no stage.
        let after: (String, String, u64, u64, f64) = c
            .query_first(format!(
                "SELECT COMMAND, STATE, STAGE, MAX_STAGE, PROGRESS FROM information_schema.PROCESSLIST WHERE ID = {id}"
            ))
            .unwrap()
            .unwrap();
        assert_eq!(after, ("Sleep".into(), "".into(), 0, 0, 0.0));
        a.query_drop("DO 1").unwrap();
        seen
    };
    let seen = watch(&mut c, "ALTER TABLE p MODIFY v VARCHAR(120) NOT NULL");
    eprintln!("ALTER: {} samples, last {:?}", seen.len(), seen.last());
    for (state, stage, max, percent, overall, shown) in &seen {
        match (state.as_str(), stage, max) {
            ("altering table", 0, 0) => assert_eq!(*percent, 0.0),
            ("copy to tmp table", 1, 2) | ("Enabling keys", 2, 2) => {}
            _ => panic!("unexpected stage {state} {stage}/{max}: {seen:?}"),
        }
        // The two reads are apart: SHOW PROCESSLIST's own State says
        // where its Progress stands.
        match shown.as_str() {
            "altering table" => assert_eq!(*overall, 0.0, "{seen:?}"),
            "copy to tmp table" => assert!(*overall <= 50.0, "{seen:?}"),
            "Enabling keys" => assert!(*overall >= 50.0, "{seen:?}"),
            _ => panic!("unexpected state {shown}: {seen:?}"),
        }
        assert!((0.0..=100.0).contains(percent), "{seen:?}");
    }
    // Progress only grows.
    let progress: Vec<f64> = seen.iter().map(|s| s.4).collect();
    assert!(progress.windows(2).all(|w| w[0] <= w[1]), "{progress:?}");
    assert!(
        seen.iter()
            .any(|s| s.0 == "copy to tmp table" && s.3 > 0.0 && s.3 < 100.0),
        "no sample amid the copy: {seen:?}"
    );
    let seen = watch(&mut c, "CREATE INDEX kv ON p (v)");
    eprintln!(
        "CREATE INDEX: {} samples, last {:?}",
        seen.len(),
        seen.last()
    );
    for (state, stage, max, percent, overall, shown) in &seen {
        assert_eq!(state, "altering table");
        assert_eq!(shown, "altering table");
        assert!(matches!((stage, max), (0, 0) | (1, 1)), "{seen:?}");
        assert!((0.0..=100.0).contains(percent), "{seen:?}");
        assert!((0.0..=100.0).contains(overall), "{seen:?}");
    }
    assert!(
        seen.iter().any(|s| s.1 == 1 && s.3 > 0.0),
        "no sample amid the build: {seen:?}"
    );
}
