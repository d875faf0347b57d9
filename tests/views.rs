//! Views' DDL against MariaDB 10.11: CREATE [OR REPLACE] and ALTER VIEW
//! with ALGORITHM, DEFINER, SQL SECURITY and WITH CHECK OPTION, the text
//! SHOW CREATE VIEW gives (MariaDB's canonical form of the query: columns
//! qualified, items named, `*` expanded, joins parenthesized), the errors
//! (1146, 1347, 1368) and the note for an unknown definer; the views' rows.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "DROP DATABASE IF EXISTS vw_other",
    "CREATE DATABASE vw_other",
    "CREATE TABLE vw_other.w (k INT, z INT)",
    "INSERT INTO vw_other.w VALUES (1, 10), (3, 30)",
    "CREATE TABLE t (a INT, b VARCHAR(10), c DECIMAL(5,2), d DATE)",
    "INSERT INTO t VALUES (1, 'x', 1.50, '2024-01-02'), (2, 'yz', NULL, '2025-03-04'), \
     (3, NULL, 2.25, NULL)",
    "CREATE TABLE u (a INT, e INT)",
    "INSERT INTO u VALUES (1, 5), (2, NULL), (3, 1)",
];

/// Each view is made, then shown, then read.
const VIEWS: &[&str] = &[
    "CREATE VIEW w1 AS SELECT a, b FROM t WHERE a > 1 AND (b = 'x' OR b LIKE 'y%') \
     ORDER BY a DESC, b LIMIT 2, 3",
    "CREATE VIEW w2 AS SELECT t.a, u.e FROM t JOIN u ON t.a = u.a \
     LEFT JOIN vw_other.w x ON x.k = u.e WHERE u.e IS NOT NULL",
    "CREATE VIEW w3 AS SELECT DISTINCT a*2+1, -a, NOT a, a DIV 2, a % 3, a MOD 3, c / 2, \
     (a+1)*2 FROM t",
    "CREATE VIEW w6 AS SELECT CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' \
     ELSE 'many' END k, CASE a WHEN 1 THEN 2 END, IF(a > 1, 'y', 'n'), IFNULL(b, ''), \
     COALESCE(a, 0), CAST(a AS CHAR), CAST(b AS SIGNED), CAST(c AS DECIMAL(10,2)), \
     CONCAT_WS(',', a, b), UPPER(b), SUBSTRING(b, 1, 2), DATE_FORMAT(d, '%Y') FROM t",
    "CREATE VIEW w7 AS SELECT a, 0 FROM t WHERE a IN (SELECT a FROM u WHERE u.e > t.a) \
     AND EXISTS (SELECT 1 FROM u) UNION ALL SELECT e, 1 FROM u UNION SELECT 5, 2",
    "CREATE VIEW w8 AS SELECT t.*, 'it''s', \"dq\", 1.50, 1e3, NULL, TRUE, X'41', -5, + 3 \
     FROM t, u WHERE t.a = u.a",
    "CREATE VIEW w11 (p, q) AS SELECT a AS aa, b FROM t t2 WHERE t2.a = 1",
    "CREATE VIEW w12 AS SELECT * FROM (SELECT a, b FROM t) dt WHERE dt.a > 0",
    "CREATE VIEW w13 AS SELECT a, b FROM t WHERE NOT (a > 1 AND b = 'x') XOR a = 2",
    "CREATE VIEW w14 AS SELECT a IS TRUE, a IS NOT FALSE, b IS NULL, a BETWEEN 1 AND 2, \
     a NOT BETWEEN 3 AND 4, a IN (1, 2, 3), a NOT IN (4), b NOT LIKE 'x', a <> 1, \
     a != 2, a <=> 3, COUNT(*) FROM t GROUP BY a, b HAVING COUNT(*) > 0",
    "CREATE VIEW w15 AS SELECT a, b FROM t WHERE a = (SELECT MAX(e) FROM u) \
     OR a IN (SELECT e FROM u)",
];

#[test]
fn view_definitions_read_and_shown_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let mut script: Vec<String> = Vec::new();
    for v in VIEWS {
        let name = v.split_whitespace().nth(2).unwrap();
        script.push(v.to_string());
        script.push(format!("SHOW CREATE VIEW {name}"));
        // w14's first columns tie: its rows are ordered by all of them.
        script.push(if name == "w14" {
            "SELECT * FROM w14 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12".to_string()
        } else {
            format!("SELECT * FROM {name} ORDER BY 1, 2")
        });
    }
    script.extend(
        [
            // ALTER keeps the clauses it does not give; CHECK OPTION is
            // given each time.
            "CREATE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW v AS SELECT a FROM t",
            "ALTER VIEW v AS SELECT b FROM t",
            "SHOW CREATE VIEW v",
            "ALTER DEFINER=CURRENT_USER() VIEW v AS SELECT b FROM t WITH LOCAL CHECK OPTION",
            "SHOW CREATE VIEW v",
            "CREATE OR REPLACE VIEW v AS SELECT a FROM t WITH CASCADED CHECK OPTION",
            "SHOW CREATE VIEW v",
            "CREATE OR REPLACE VIEW v AS SELECT a FROM t WITH CHECK OPTION",
            "SHOW CREATE VIEW v",
            "ALTER ALGORITHM=TEMPTABLE VIEW v AS SELECT a, b FROM t",
            "SHOW CREATE VIEW v",
            "SELECT * FROM v ORDER BY a",
            // Errors.
            "ALTER VIEW nosuch AS SELECT 1",
            "ALTER VIEW t AS SELECT 1",
            "CREATE VIEW t AS SELECT 1",
            "CREATE VIEW v5 AS SELECT 1 WITH CHECK OPTION",
            "CREATE ALGORITHM=TEMPTABLE VIEW v5 AS SELECT a FROM t WITH CHECK OPTION",
            "CREATE VIEW v5 AS SELECT a FROM t UNION SELECT e FROM u WITH CHECK OPTION",
            "CREATE VIEW v5 AS SELECT a FROM t LIMIT 1 WITH CHECK OPTION",
            "CREATE VIEW v5 AS SELECT DISTINCT a FROM t WITH CHECK OPTION",
            "CREATE VIEW v5 AS SELECT COUNT(*) FROM t WITH LOCAL CHECK OPTION",
            "CREATE VIEW v5 AS SELECT a FROM t WITH CHECK",
            "CREATE ALGORITHM=FAST VIEW v5 AS SELECT 1",
            "ALTER VIEW IF NOT EXISTS v AS SELECT 1",
            // A definer that does not exist: a note.
            "CREATE DEFINER=`nobody`@`localhost` VIEW v4 AS SELECT 1",
            "SHOW WARNINGS",
            "SHOW CREATE VIEW v4",
            "CREATE VIEW IF NOT EXISTS v4 AS SELECT 2",
            "SHOW WARNINGS",
            "SELECT * FROM v4",
            "DROP VIEW v4, v",
            "SHOW CREATE VIEW v",
        ]
        .map(String::from),
    );
    let script: Vec<&str> = script.iter().map(String::as_str).collect();
    let ours = same_as_mariadb(&server, &mariadb, "vw", SETUP, &script, Shown::Rows);
    // The canonical text, not the query as written.
    assert!(
        ours[1].contains(
            "select `t`.`a` AS `a`,`t`.`b` AS `b` from `t` where `t`.`a` > 1 and \
             (`t`.`b` = 'x' or `t`.`b` like 'y%') order by `t`.`a` desc,`t`.`b` limit 2,3"
        ),
        "{}",
        ours[1]
    );
}

/// INSERT, REPLACE, UPDATE and DELETE through views of one table (views
/// over views, renamed columns, expressions), WITH CHECK OPTION (CASCADED,
/// LOCAL, none), and the errors for views rows cannot be changed through:
/// rows, affected counts, info and messages as MariaDB's.
#[test]
fn rows_changed_through_views_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let setup: &[&str] = &[
        "CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, a INT, \
         b VARCHAR(10) NOT NULL DEFAULT 'x', c INT)",
        "INSERT INTO t VALUES (1, 1, 'p', 10), (2, 5, 'q', 20), (3, 10, 'r', 30)",
        "CREATE VIEW v AS SELECT id, a, b, a + 1 AS a1 FROM t WHERE a < 8",
        "CREATE VIEW vc AS SELECT id, a, b FROM t WHERE a < 8 WITH CHECK OPTION",
        "CREATE VIEW vl AS SELECT id, a FROM vc WHERE a > 0 WITH LOCAL CHECK OPTION",
        "CREATE VIEW vcc AS SELECT id, a FROM v WHERE a > 0 WITH CASCADED CHECK OPTION",
        "CREATE VIEW vn AS SELECT id, a FROM vc WHERE a > -10",
        "CREATE VIEW vj AS SELECT t.id, t2.a FROM t JOIN t t2 ON t.id = t2.id",
        "CREATE VIEW vg AS SELECT a, COUNT(*) n FROM t GROUP BY a",
        "CREATE VIEW vx AS SELECT x.id AS k, x.a FROM t AS x",
        "CREATE VIEW vr (ident, val, label) AS SELECT id, a * 1, b FROM t WHERE a <= 7",
        "CREATE VIEW vw AS SELECT ident AS i, label AS l FROM vr WHERE ident > 1 \
         WITH CHECK OPTION",
        "CREATE VIEW vp AS SELECT * FROM t WHERE id > 0 WITH CHECK OPTION",
    ];
    let statements: &[&str] = &[
        "UPDATE v SET a = 2 WHERE id = 1",
        "UPDATE v SET a1 = 2 WHERE id = 1",
        "UPDATE v SET a = a + 100 WHERE id = 2",
        "UPDATE v SET a = 3",
        "SELECT * FROM t ORDER BY id",
        "DELETE FROM v WHERE id = 99",
        "INSERT INTO v VALUES (4, 1, 'z', 2)",
        "INSERT INTO v (id, a) VALUES (4, 1)",
        "INSERT INTO v (id, a1) VALUES (5, 1)",
        "INSERT INTO v (zz) VALUES (1)",
        "INSERT INTO v SET id = 11, a = 2",
        "REPLACE INTO v (id, a, b) VALUES (11, 3, 'rr')",
        "INSERT INTO v (id, a) SELECT id + 20, a FROM t WHERE id < 3",
        "SELECT * FROM t ORDER BY id",
        // CHECK OPTION: CASCADED checks the views below too, LOCAL its own
        // WHERE, none nothing.
        "INSERT INTO vc VALUES (6, 9, 'w')",
        "INSERT INTO vc VALUES (6, 7, 'w')",
        "UPDATE vc SET a = 50 WHERE id = 6",
        "INSERT INTO vc VALUES (3, 5, 'dup') ON DUPLICATE KEY UPDATE a = 60",
        "INSERT INTO vc VALUES (3, 5, 'dup') ON DUPLICATE KEY UPDATE a = vc.a + 1",
        "INSERT IGNORE INTO vc VALUES (10, 99, 'i')",
        "UPDATE IGNORE vc SET a = a + 3",
        "SHOW WARNINGS",
        "INSERT INTO vl VALUES (7, 50)",
        "INSERT INTO vl VALUES (8, -1)",
        "INSERT INTO vcc VALUES (8, 50)",
        "INSERT INTO vcc VALUES (8, -1)",
        "INSERT INTO vcc VALUES (8, 3)",
        "INSERT INTO vn VALUES (9, 60)",
        "INSERT INTO vp (a) VALUES (5)",
        "INSERT INTO vw (i, l) VALUES (30, 'ten')",
        "INSERT INTO vw (l) VALUES ('auto')",
        "INSERT INTO t (a) VALUES (1)",
        "SELECT * FROM t ORDER BY id",
        // Views rows cannot be changed through.
        "DELETE FROM vj",
        "INSERT INTO vj VALUES (9, 9)",
        "UPDATE vg SET a = 1",
        "DELETE FROM vg",
        "INSERT INTO vg VALUES (1, 1)",
        // Names: renamed columns, the view's alias, unknown names.
        "UPDATE vx SET k = 100 WHERE k = 1",
        "UPDATE vx SET x.a = 1 WHERE k = 100",
        "UPDATE vx SET a = 7 WHERE x.a = 3",
        "UPDATE vx SET a = 7 WHERE vx.zz = 3",
        "UPDATE vx SET a = 7 WHERE zz = 3",
        "UPDATE v SET a = 7 WHERE zz = 3",
        "UPDATE v SET zz = 1",
        "UPDATE v SET a = zz",
        "UPDATE v SET a = 1 ORDER BY zz",
        "DELETE FROM v WHERE zz = 3",
        "UPDATE vx AS q SET q.a = 8 WHERE q.k = 100",
        "UPDATE vx SET a = a + 1 WHERE k IN (SELECT id FROM t WHERE id < 3)",
        "UPDATE vx SET a = a + 1 WHERE EXISTS (SELECT 1 FROM vr WHERE vr.ident = vx.k)",
        "SELECT * FROM t ORDER BY id",
        "UPDATE vw SET l = CONCAT(l, '!') WHERE i = 2",
        "UPDATE vw SET l = 'y' ORDER BY i DESC LIMIT 1",
        "UPDATE vw SET i = 1 WHERE i = 2",
        "SELECT * FROM t ORDER BY id",
        "DELETE FROM vx ORDER BY k DESC LIMIT 1",
        "DELETE FROM vw WHERE l LIKE 'y%'",
        "DELETE FROM vr",
        "SELECT * FROM t ORDER BY id",
    ];
    same_as_mariadb(&server, &mariadb, "vdml", setup, statements, Shown::Changes);
}
