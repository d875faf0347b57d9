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
        script.push(format!("SELECT * FROM {name} ORDER BY 1, 2"));
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
