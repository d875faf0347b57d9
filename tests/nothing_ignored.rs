//! No clause is ignored: each statement form below runs on lineardb and on
//! a private MariaDB 10.11 from the same fixture. lineardb must either
//! refuse it with 1235 (ER_NOT_SUPPORTED_YET) or do what MariaDB does: the
//! same error, or the same rows and affected-row count, and afterwards the
//! same tables holding the same rows. A clause taken but not honoured (a
//! LIMIT that deletes every row) shows up as a different table afterwards.
//! A form both servers refuse (MariaDB's syntax errors among them) passes:
//! nothing was done.
mod common;

use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts};

const FIXTURE: &[&str] = &[
    "DROP DATABASE IF EXISTS au",
    "CREATE DATABASE au",
    "CREATE TABLE au.t (id INT PRIMARY KEY, a INT, b VARCHAR(20), KEY ka (a))",
    "INSERT INTO au.t VALUES (1, 10, 'x'), (2, 20, 'y'), (3, 10, 'z'), (4, 40, 'x'), (5, NULL, 'w')",
    "CREATE TABLE au.u (id INT PRIMARY KEY, t_id INT)",
    "INSERT INTO au.u VALUES (1, 1), (2, 3), (3, 9)",
];

/// Statement forms and clauses, each run in database `au`.
const CONSTRUCTS: &[&str] = &[
    // DELETE
    "DELETE FROM t",
    "DELETE FROM t WHERE a = 10",
    "DELETE FROM t ORDER BY id LIMIT 1",
    "DELETE FROM t ORDER BY id DESC LIMIT 2",
    "DELETE FROM t WHERE a = 10 LIMIT 1",
    "DELETE FROM t LIMIT 0",
    "DELETE LOW_PRIORITY FROM t WHERE id = 1",
    "DELETE QUICK FROM t WHERE id = 1",
    "DELETE IGNORE FROM t WHERE id = 1",
    "DELETE FROM t PARTITION (p0) WHERE id = 1",
    "DELETE t FROM t JOIN u ON t.id = u.t_id",
    "DELETE t, u FROM t JOIN u ON t.id = u.t_id",
    "DELETE FROM t USING t JOIN u ON t.id = u.t_id",
    "DELETE FROM t WHERE id IN (SELECT t_id FROM u)",
    "DELETE FROM t WHERE a IN (SELECT a FROM t WHERE id > 2) ORDER BY id LIMIT 1",
    "DELETE FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) AND a > 5",
    "DELETE FROM t WHERE id = 1 RETURNING id",
    "DELETE FROM t AS x WHERE x.id = 2",
    // UPDATE
    "UPDATE t SET a = 0",
    "UPDATE t SET a = 0 WHERE b = 'x'",
    "UPDATE t SET a = a + 1 ORDER BY id LIMIT 2",
    "UPDATE t SET a = 7 ORDER BY id DESC LIMIT 1",
    "UPDATE t SET a = 7 WHERE a = 10 LIMIT 1",
    "UPDATE t SET a = 7 LIMIT 0",
    "UPDATE LOW_PRIORITY t SET a = 1 WHERE id = 1",
    "UPDATE IGNORE t SET id = 2 WHERE id = 1",
    "UPDATE IGNORE t SET id = id + 1",
    "UPDATE IGNORE t SET id = id + 1 ORDER BY id DESC LIMIT 2",
    "UPDATE LOW_PRIORITY IGNORE t SET id = 3 WHERE id = 1",
    "UPDATE IGNORE LOW_PRIORITY t SET a = 1",
    "UPDATE IGNORE t JOIN u ON t.id = u.t_id SET t.id = u.id",
    "INSERT INTO t SET id = 9, a = 1",
    "INSERT INTO t SET id = 1, a = 1 ON DUPLICATE KEY UPDATE a = 2",
    "UPDATE t SET id = 2 WHERE id = 1",
    "UPDATE t, u SET t.a = 0 WHERE t.id = u.t_id",
    "UPDATE t JOIN u ON t.id = u.t_id SET t.a = u.id",
    "UPDATE t, u SET t.a = u.id, u.t_id = t.a WHERE t.id = u.t_id",
    "UPDATE t JOIN u ON t.id = u.t_id SET t.a = 0 ORDER BY t.id DESC LIMIT 1",
    "UPDATE t LEFT JOIN u ON t.id = u.t_id SET t.a = 7, u.t_id = 8",
    "UPDATE t SET a = (SELECT MAX(t_id) FROM u) WHERE id = 1",
    "UPDATE t SET a = (SELECT COUNT(*) FROM t AS x WHERE x.b = t.b) WHERE id NOT IN (SELECT t_id FROM u)",
    "UPDATE t SET a = a + (SELECT SUM(a) FROM t AS x)",
    "UPDATE t SET a = (SELECT t_id FROM u)",
    "UPDATE t SET a = 1, a = 2 WHERE id = 1",
    "UPDATE t SET b = DEFAULT WHERE id = 1",
    "UPDATE t AS x SET x.a = 5 WHERE x.id = 3",
    "UPDATE t PARTITION (p0) SET a = 1",
    // INSERT and REPLACE
    "INSERT INTO t VALUES (6, 60, 'v')",
    "INSERT INTO t (id, b) VALUES (6, 'v'), (7, 'u')",
    "INSERT INTO t VALUES (1, 0, 'dup')",
    "INSERT IGNORE INTO t VALUES (1, 0, 'dup'), (8, 80, 'n')",
    "INSERT INTO t VALUES (1, 0, 'dup') ON DUPLICATE KEY UPDATE a = 99",
    "INSERT INTO t VALUES (1, 0, 'dup') ON DUPLICATE KEY UPDATE a = VALUES(a)",
    "INSERT INTO t VALUES (1, 5, 'd'), (6, 6, 'n'), (6, 7, 'm') ON DUPLICATE KEY UPDATE a = a + VALUES(a), b = CONCAT(b, VALUES(b))",
    "INSERT INTO t VALUES (2, 20, 'y') ON DUPLICATE KEY UPDATE b = b",
    "INSERT INTO t (id, a) SELECT t_id, id FROM u ON DUPLICATE KEY UPDATE a = VALUES(a) * 100",
    "INSERT INTO t (id, a) SELECT t_id, id FROM u ON DUPLICATE KEY UPDATE a = u.id",
    "INSERT INTO t VALUES (9, 1, 'q') AS new ON DUPLICATE KEY UPDATE a = new.a",
    "INSERT INTO t SET id = 9, a = 90, b = 's'",
    "INSERT INTO t SELECT id + 10, a, b FROM t",
    "INSERT INTO t (id) SELECT t_id + 100 FROM u",
    "INSERT LOW_PRIORITY INTO t VALUES (6, 60, 'v')",
    "INSERT DELAYED INTO t VALUES (6, 60, 'v')",
    "INSERT HIGH_PRIORITY INTO t VALUES (6, 60, 'v')",
    "INSERT INTO t PARTITION (p0) VALUES (6, 60, 'v')",
    "INSERT INTO t VALUES (6, 60, 'v') RETURNING id",
    "INSERT INTO t VALUE (6, 60, 'v')",
    "INSERT INTO t () VALUES ()",
    "REPLACE INTO t VALUES (1, 0, 'r')",
    "REPLACE INTO t VALUES (6, 0, 'r')",
    "REPLACE INTO t SET id = 2, a = 1",
    "REPLACE INTO t SELECT t_id, 0, 'q' FROM u",
    // SELECT clauses
    "SELECT * FROM t ORDER BY id LIMIT 2",
    "SELECT * FROM t ORDER BY id LIMIT 1, 2",
    "SELECT * FROM t ORDER BY id LIMIT 2 OFFSET 1",
    "SELECT * FROM t WHERE id = 1 FOR UPDATE",
    "SELECT * FROM t WHERE id = 1 LOCK IN SHARE MODE",
    "SELECT * FROM t WHERE id = 1 FOR UPDATE NOWAIT",
    "SELECT * FROM t WHERE id = 1 FOR UPDATE SKIP LOCKED",
    "SELECT * FROM t WHERE id = 1 FOR SHARE",
    "SELECT a FROM t WHERE a >= 10 ORDER BY a DESC, id LIMIT 2 FOR UPDATE",
    "SELECT COUNT(*) FROM t WHERE a = 10 LOCK IN SHARE MODE",
    "SELECT * FROM t JOIN u ON t.id = u.t_id FOR UPDATE",
    "SELECT * FROM t WHERE id IN (SELECT t_id FROM u) FOR UPDATE",
    "SELECT * FROM (SELECT * FROM t) d FOR UPDATE",
    "SELECT * FROM t FOR UPDATE OF t",
    "SELECT SQL_CALC_FOUND_ROWS * FROM t ORDER BY id LIMIT 1",
    "SELECT SQL_NO_CACHE * FROM t WHERE id = 2",
    "SELECT SQL_CACHE * FROM t WHERE id = 2",
    "SELECT HIGH_PRIORITY * FROM t WHERE id = 2",
    "SELECT STRAIGHT_JOIN * FROM t WHERE id = 2",
    "SELECT SQL_SMALL_RESULT a FROM t GROUP BY a ORDER BY a",
    "SELECT SQL_BIG_RESULT a FROM t GROUP BY a ORDER BY a",
    "SELECT SQL_BUFFER_RESULT * FROM t WHERE id = 2",
    "SELECT DISTINCT a FROM t ORDER BY a",
    "SELECT a, GROUP_CONCAT(b ORDER BY id DESC SEPARATOR '|') FROM t GROUP BY a ORDER BY a",
    "SELECT GROUP_CONCAT(DISTINCT b ORDER BY b), GROUP_CONCAT(a, b) FROM t",
    "SELECT GROUP_CONCAT(b LIMIT 2) FROM t",
    "SELECT COUNT(DISTINCT a, b), COUNT(DISTINCT b) FROM t",
    "SELECT COUNT(a, b) FROM t",
    "SELECT DISTINCTROW a FROM t ORDER BY a",
    "SELECT ALL a FROM t ORDER BY id",
    "SELECT a, COUNT(*) FROM t GROUP BY a ORDER BY a",
    "SELECT a, COUNT(*) FROM t GROUP BY a WITH ROLLUP",
    "SELECT a, b, COUNT(*), SUM(id) FROM t GROUP BY a, b WITH ROLLUP",
    "SELECT a, COUNT(*) FROM t GROUP BY a WITH ROLLUP ORDER BY a",
    "SELECT a, COUNT(*) FROM t GROUP BY a WITH CUBE",
    "SELECT id, a AS b FROM t HAVING b > 10",
    "SELECT id FROM t WHERE id > 1 HAVING id < 4",
    "SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1",
    "SELECT a, COUNT(*) AS n FROM t GROUP BY a HAVING n > 1",
    "SELECT * FROM t USE INDEX (ka) WHERE a = 10 ORDER BY id",
    "SELECT * FROM t FORCE INDEX (ka) WHERE a = 10 ORDER BY id",
    "SELECT * FROM t IGNORE INDEX (ka) WHERE a = 10 ORDER BY id",
    "SELECT * FROM t USE INDEX FOR ORDER BY (ka) ORDER BY a, id",
    "SELECT * FROM t FORCE INDEX FOR JOIN (ka) WHERE a = 10 ORDER BY id",
    "SELECT * FROM t PARTITION (p0)",
    "SELECT * FROM t WHERE id = 1 INTO @x",
    "SELECT id FROM t ORDER BY id LIMIT 1 INTO @x",
    "SELECT * FROM t, u WHERE t.id = u.t_id ORDER BY t.id",
    "SELECT * FROM t JOIN u ON t.id = u.t_id ORDER BY t.id",
    "SELECT * FROM t LEFT JOIN u ON t.id = u.t_id ORDER BY t.id",
    "SELECT * FROM t WHERE id IN (SELECT t_id FROM u) ORDER BY id",
    "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) ORDER BY id",
    "SELECT (SELECT COUNT(*) FROM u) AS n",
    "SELECT * FROM (SELECT id FROM t WHERE a = 10) AS d ORDER BY id",
    "SELECT id FROM t UNION SELECT t_id FROM u ORDER BY 1",
    "SELECT id FROM t UNION ALL SELECT t_id FROM u ORDER BY 1",
    "(SELECT id FROM t ORDER BY id DESC LIMIT 2) UNION ALL (SELECT t_id FROM u ORDER BY t_id LIMIT 1)",
    "SELECT id FROM t EXCEPT SELECT t_id FROM u ORDER BY id",
    "SELECT id FROM t INTERSECT SELECT t_id FROM u ORDER BY id",
    "SELECT t.id, (SELECT MAX(u.id) FROM u WHERE u.t_id = t.id) FROM t ORDER BY t.id",
    "SELECT * FROM t RIGHT JOIN u ON t.id = u.t_id ORDER BY u.id",
    "SELECT * FROM t NATURAL JOIN u ORDER BY id",
    "SELECT * FROM t JOIN u USING (id) ORDER BY id",
    "INSERT INTO u SELECT id + 10, a FROM t WHERE a IS NOT NULL",
    "SELECT CAST('abcdef' AS CHAR(3))",
    "SELECT CAST(1.123456789 AS FLOAT)",
    "SELECT CAST('2020-01-01 10:00:00.5' AS DATETIME(1))",
    "SELECT CAST('2020-01-01 10:00:00.5' AS DATETIME), CAST(b AS CHAR) FROM t ORDER BY id",
    "WITH c AS (SELECT id FROM t) SELECT * FROM c ORDER BY id",
    "WITH c (x, y) AS (SELECT id, a FROM t) SELECT y, x FROM c ORDER BY x",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5 ORDER BY n LIMIT 2) SELECT * FROM r",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION SELECT n FROM r) SELECT * FROM r",
    "WITH c AS (SELECT * FROM c) SELECT * FROM c",
    "INSERT INTO t (id, a) WITH RECURSIVE r (n) AS (SELECT 10 UNION ALL SELECT n + 1 FROM r WHERE n < 12) SELECT n, n FROM r",
    "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM t",
    "SELECT id, SUM(a) OVER (PARTITION BY b ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t ORDER BY id",
    "SELECT id, RANK() OVER w, LAG(a, 2) OVER w FROM t WINDOW w AS (ORDER BY a, id) ORDER BY id",
    "SELECT id, COUNT(*) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM t",
    "SELECT id, LEAD(a, 1, 0) OVER (ORDER BY id) FROM t",
    "UPDATE t SET a = ROW_NUMBER() OVER ()",
    "SELECT STD(a) OVER () FROM t",
    "SELECT id FROM t ORDER BY a DESC, id",
    "SELECT id FROM t ORDER BY a NULLS LAST, id",
    "SELECT id, ROW_NUMBER() OVER (ORDER BY a NULLS FIRST) FROM t",
    "SELECT GROUP_CONCAT(b ORDER BY a NULLS FIRST) FROM t",
    "DELETE FROM t ORDER BY a NULLS FIRST LIMIT 1",
    "SELECT id FROM t ORDER BY 1 DESC",
    "SELECT a AS k FROM t ORDER BY k, id",
    "SELECT * FROM t WHERE id = 1 PROCEDURE ANALYSE()",
    "SELECT * FROM t LIMIT ROWS EXAMINED 2",
    "SELECT * FROM t ORDER BY id FETCH FIRST 2 ROWS ONLY",
    "SELECT * FROM t ORDER BY id OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY",
    // DDL
    "CREATE TABLE n (x INT PRIMARY KEY) ENGINE = InnoDB",
    "CREATE TABLE n (x INT PRIMARY KEY) ENGINE = MyISAM",
    "CREATE TABLE n (x INT PRIMARY KEY) AUTO_INCREMENT = 100",
    "CREATE TABLE n (x INT PRIMARY KEY) DEFAULT CHARSET = utf8mb4",
    "CREATE TABLE n (x INT PRIMARY KEY) COMMENT = 'c'",
    "CREATE TABLE n (x INT PRIMARY KEY) ROW_FORMAT = DYNAMIC",
    "CREATE TABLE n (x INT PRIMARY KEY) PARTITION BY HASH (x) PARTITIONS 2",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT, CHECK (y > 0))",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT REFERENCES t (id))",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT, FOREIGN KEY (y) REFERENCES t (id))",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT, CHECK (y > 0) NOT ENFORCED)",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT, FOREIGN KEY (y) REFERENCES t (id) MATCH FULL)",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT, FOREIGN KEY (y) REFERENCES t (id) ON DELETE SET DEFAULT)",
    "CREATE TABLE n AS SELECT id, a FROM t WHERE id > 1",
    "ALTER TABLE t ADD COLUMN z INT DEFAULT 3 AFTER id",
    "ALTER TABLE t DROP COLUMN b",
    "ALTER TABLE t MODIFY a BIGINT NOT NULL DEFAULT 0",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT UNIQUE)",
    "CREATE TABLE n (x INT PRIMARY KEY, y TEXT, FULLTEXT KEY (y))",
    "CREATE TABLE n (x INT PRIMARY KEY AUTO_INCREMENT, y INT DEFAULT 5)",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT INVISIBLE)",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT AS (x + 1))",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT COMMENT 'c')",
    "CREATE TABLE n (x INT PRIMARY KEY, y INT ZEROFILL)",
    "CREATE TABLE n (x INT PRIMARY KEY, y DATETIME ON UPDATE CURRENT_TIMESTAMP)",
    "CREATE TABLE n LIKE t",
    "CREATE TABLE n AS SELECT * FROM t",
    "CREATE TABLE IF NOT EXISTS t (x INT PRIMARY KEY)",
    "CREATE OR REPLACE TABLE t (x INT PRIMARY KEY)",
    "CREATE TEMPORARY TABLE n (x INT PRIMARY KEY)",
    "CREATE INDEX kb ON t (b)",
    "CREATE UNIQUE INDEX kb ON t (b)",
    "CREATE INDEX kb USING HASH ON t (b)",
    "CREATE INDEX kb ON t (b) ALGORITHM = INPLACE",
    "CREATE INDEX kb ON t (b(2))",
    "CREATE INDEX kb ON t (b DESC)",
    "DROP INDEX ka ON t",
    "ALTER TABLE t ADD INDEX kb (b)",
    "ALTER TABLE t DROP INDEX ka",
    "ALTER TABLE t ADD COLUMN c INT",
    "ALTER TABLE t DROP COLUMN b",
    "ALTER TABLE t MODIFY a BIGINT",
    "ALTER TABLE t RENAME TO t2",
    "ALTER TABLE t ENGINE = InnoDB",
    "ALTER TABLE t ORDER BY a",
    "ALTER TABLE t ADD INDEX kb (b), ALGORITHM = INPLACE, LOCK = NONE",
    "RENAME TABLE t TO t2",
    "TRUNCATE TABLE t",
    "TRUNCATE t",
    "DROP TABLE t, u",
    "DROP TABLE t CASCADE",
    "DROP TABLE IF EXISTS nosuch, u",
    "DROP TEMPORARY TABLE t",
    // Transactions and sessions
    "START TRANSACTION READ ONLY",
    "START TRANSACTION WITH CONSISTENT SNAPSHOT",
    "BEGIN WORK",
    "COMMIT AND CHAIN",
    "COMMIT RELEASE",
    "ROLLBACK AND NO CHAIN",
    "SAVEPOINT s",
    "ROLLBACK TO SAVEPOINT s",
    "SET TRANSACTION READ ONLY",
    "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
    "LOCK TABLES t READ",
    "LOCK TABLES t WRITE",
    "UNLOCK TABLES",
    "XA START 'x'",
    "HANDLER t OPEN",
    "LOAD DATA INFILE '/nonexistent' INTO TABLE t",
    // (A directory neither server has: the files written are compared in
    // tests/load_data.rs.)
    "SELECT * FROM t INTO OUTFILE '/nonexistent/lineardb-outfile'",
    "SELECT * FROM t INTO DUMPFILE '/nonexistent/lineardb-dumpfile'",
    "DO 1",
    "CHECKSUM TABLE t",
    "OPTIMIZE TABLE t",
    "REPAIR TABLE t",
    "ANALYZE TABLE t PERSISTENT FOR ALL",
    "ANALYZE SELECT * FROM t",
    "ANALYZE UPDATE t SET a = 1 WHERE id = 2",
    "CREATE VIEW v AS SELECT id FROM t",
    "CREATE PROCEDURE p() SELECT 1",
    "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1",
    "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO DELETE FROM t",
    "CREATE SEQUENCE s",
    "PREPARE st FROM 'DELETE FROM t WHERE id = 1'",
];

fn connect(port: u16) -> Conn {
    Conn::new(Opts::from_url(&format!("mysql://root@127.0.0.1:{port}/")).unwrap()).unwrap()
}

fn text(v: &mysql::Value) -> String {
    match v {
        mysql::Value::NULL => "NULL".into(),
        mysql::Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        other => other.as_sql(true),
    }
}

/// Rows of a query as text, with the column names first.
fn rows(c: &mut Conn, sql: &str) -> Result<(Vec<String>, u64), mysql::Error> {
    let mut result = c.query_iter(sql)?;
    let mut out = Vec::new();
    let mut affected = 0;
    while let Some(set) = result.iter() {
        let names: Vec<String> = set
            .columns()
            .as_ref()
            .iter()
            .map(|c| c.name_str().into_owned())
            .collect();
        if !names.is_empty() {
            out.push(names.join("|"));
        }
        affected += set.affected_rows();
        for row in set {
            let row = row?;
            out.push(row.unwrap().iter().map(text).collect::<Vec<_>>().join("|"));
        }
    }
    Ok((out, affected))
}

/// What a construct did: its result, then every table of `au` and its rows.
fn observe(port: u16, sql: &str) -> (Option<u16>, String) {
    let mut c = connect(port);
    for f in FIXTURE {
        c.query_drop(f).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    c.query_drop("USE au").unwrap();
    let (code, result) = match rows(&mut c, sql) {
        Ok((r, affected)) => (None, format!("rows {r:?} affected {affected}")),
        Err(mysql::Error::MySqlError(e)) => (Some(e.code), format!("error {}", e.code)),
        Err(e) => (None, format!("client error {e}")),
    };
    // The state, read on a new connection (the one above may hold locks or
    // an open transaction, which ends with it).
    drop(c);
    let mut c = connect(port);
    let mut state = vec![result];
    let (tables, _) = rows(&mut c, "SHOW TABLES FROM au").unwrap();
    for t in tables.iter().skip(1) {
        let (r, _) = rows(&mut c, &format!("SELECT * FROM au.`{t}` ORDER BY 1")).unwrap();
        state.push(format!("{t}: {r:?}"));
    }
    (code, state.join("\n"))
}

#[test]
fn every_construct_is_done_as_mariadb_does_or_refused_with_1235() {
    assert!(CONSTRUCTS.len() >= 100);
    let mariadb = MariaDb::start();
    let lineardb = Server::start();
    let mut refused = 0;
    let mut same = 0;
    let mut wrong = Vec::new();
    for sql in CONSTRUCTS {
        let (code, got) = observe(lineardb.port, sql);
        if code == Some(1235) {
            refused += 1;
            continue;
        }
        let (expected_code, expected) = observe(mariadb.port, sql);
        let state = |s: &str| s.split_once('\n').map(|(_, rest)| rest.to_string());
        if got == expected
            || (code.is_some() && expected_code.is_some() && state(&got) == state(&expected))
        {
            same += 1;
        } else {
            wrong.push(format!(
                "{sql}\n  MariaDB:\n    {}\n  lineardb:\n    {}",
                expected.replace('\n', "\n    "),
                got.replace('\n', "\n    ")
            ));
        }
    }
    eprintln!(
        "{} constructs: {same} as MariaDB, {refused} refused with 1235, {} wrong",
        CONSTRUCTS.len(),
        wrong.len()
    );
    if let Ok(path) = std::env::var("NOTHING_IGNORED_REPORT") {
        std::fs::write(path, wrong.join("\n")).unwrap();
    }
    assert!(
        wrong.is_empty(),
        "{} constructs neither refused with 1235 nor done as MariaDB does:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// SIGNAL outside a stored program (it was 1235): the error, warning or
/// refusal MariaDB gives, its code and message as MESSAGE_TEXT and
/// MYSQL_ERRNO set them, and its SQLSTATE the one named.
#[test]
fn signal_raises_what_mariadb_raises() {
    use common::differential::{same_as_mariadb, Shown};
    let server = Server::start();
    let mariadb = MariaDb::start();
    let statements = [
        "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'custom'",
        "SIGNAL SQLSTATE VALUE '45000'",
        "SIGNAL SQLSTATE '02000'",
        "SIGNAL SQLSTATE '01000'",
        "SHOW WARNINGS",
        "SIGNAL SQLSTATE '01234' SET MESSAGE_TEXT = 'careful', MYSQL_ERRNO = 1000",
        "SHOW WARNINGS",
        "SIGNAL SQLSTATE '45000' SET MYSQL_ERRNO = 1062, MESSAGE_TEXT = 'dup'",
        "SIGNAL SQLSTATE '45000' SET MYSQL_ERRNO = '77'",
        "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 5",
        "SIGNAL SQLSTATE '45000' SET SCHEMA_NAME = 'x', TABLE_NAME = 't'",
        "SET @m = 'from a variable'",
        "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = @m",
        "SET @m = REPEAT('é', 512)",
        "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = @m",
        "SET @m = REPEAT('x', 513)",
        "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = @m",
        // Refused: a bad SQLSTATE or value, an item twice, a condition or
        // handler that only a stored program has.
        "SIGNAL SQLSTATE '00000'",
        "SIGNAL SQLSTATE 'abcde'",
        "SIGNAL SQLSTATE '4500'",
        "SIGNAL SQLSTATE '45000' SET MYSQL_ERRNO = 0",
        "SIGNAL SQLSTATE '45000' SET MYSQL_ERRNO = 65535",
        "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = NULL",
        "SIGNAL SQLSTATE '45000' SET CLASS_ORIGIN = NULL",
        "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'a', MESSAGE_TEXT = 'b'",
        "SIGNAL SQLSTATE '45000' SET NO_SUCH_ITEM = 1",
        "SIGNAL no_such_condition",
        "RESIGNAL",
        "SELECT 1",
    ];
    same_as_mariadb(&server, &mariadb, "sig", &[], &statements, Shown::Changes);
    // The SQLSTATE is the one SIGNAL named.
    for port in [server.port, mariadb.port] {
        let mut c = connect(port);
        match c.query_drop("SIGNAL SQLSTATE 'HY123' SET MESSAGE_TEXT = 'mine'") {
            Err(mysql::Error::MySqlError(e)) => {
                assert_eq!(
                    (e.code, e.state.as_str(), e.message.as_str()),
                    (1644, "HY123", "mine")
                )
            }
            other => panic!("SIGNAL: {other:?}"),
        }
    }
}
