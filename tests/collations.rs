//! Collations beside a real MariaDB 10.11: utf8mb4_general_ci (the
//! default: case and accents folded, PAD SPACE), utf8mb4_unicode_ci,
//! utf8mb4_bin, utf8mb4_nopad_bin, latin1_swedish_ci, latin1_general_ci,
//! latin1_bin and binary, in comparisons, LIKE, IN, BETWEEN, CASE,
//! ORDER BY, GROUP BY, DISTINCT, MIN/MAX, COUNT(DISTINCT), UNION, joins,
//! COLLATE, and in index keys: a UNIQUE key refuses 'A' after 'a', and a
//! lookup through an index finds what a scan finds.
mod common;
use common::differential::same_rows_and_messages;
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

const SETUP: &[&str] = &[
    "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), b VARCHAR(20) COLLATE utf8mb4_bin, \
     np VARCHAR(20) COLLATE utf8mb4_nopad_bin, v VARBINARY(20), c CHAR(8), UNIQUE KEY (name), KEY (b), KEY (c))",
    "INSERT INTO t VALUES (1, 'apple', 'Apple', 'a ', 'Apple', 'x'), (2, 'Banana', 'banana', 'a', 'banana', 'X '), \
     (3, 'cherry ', 'cherry', 'b', 'cherry', 'y'), (4, 'Ärger', 'arger', 'B', 'x', 'ÿ'), \
     (5, 'été', 'Été', 'é', 'é', NULL), (6, 'straße', 'strasse', 'ss', 'ß', 's')",
];

const STEPS: &[&str] = &[
    "SHOW CREATE TABLE t",
    "SELECT 'a' = 'A', 'a' = 'a ', 'a' < 'a\t', 'ß' = 's', 'é' = 'E', 'a' LIKE 'A', 'a ' LIKE 'a'",
    "SELECT 'a' COLLATE utf8mb4_bin = 'A', 'a' COLLATE utf8mb4_bin = 'a ', \
     'a' COLLATE utf8mb4_nopad_bin = 'a ', 'A' COLLATE utf8mb4_bin < 'a'",
    "SELECT CAST('a' AS BINARY) = 'A', CAST('A' AS BINARY) = 'A'",
    "SELECT 'x' COLLATE latin1_swedish_ci",
    "SELECT 'x' COLLATE no_such_collation",
    "INSERT INTO t (id, name) VALUES (7, 'APPLE')",
    "INSERT INTO t (id, name) VALUES (7, 'Cherry')",
    "INSERT INTO t (id, name) VALUES (7, 'ETE')",
    "INSERT INTO t (id, name) VALUES (7, 'arger')",
    "INSERT INTO t (id, name) VALUES (7, 'date')",
    "SELECT id FROM t WHERE name = 'BANANA'",
    "SELECT name, b, c FROM t FORCE INDEX (name) WHERE name >= 'a' ORDER BY id",
    "SELECT b, id FROM t FORCE INDEX (b) WHERE b > 'a' ORDER BY id",
    "SELECT id FROM t WHERE name = 'cherry'",
    "SELECT id FROM t WHERE name = 'ETE'",
    "SELECT id FROM t WHERE name = 'STRASSE'",
    "SELECT id FROM t WHERE b = 'apple'",
    "SELECT id FROM t WHERE b = 'Apple  '",
    "SELECT id FROM t WHERE np = 'a' ORDER BY id",
    "SELECT id FROM t WHERE v = 'apple'",
    "SELECT id FROM t WHERE v = 'Apple'",
    "SELECT id FROM t WHERE c = 'x' ORDER BY id",
    "SELECT id FROM t WHERE name LIKE 'a%' ORDER BY id",
    "SELECT id FROM t WHERE name LIKE '_t_' ORDER BY id",
    "SELECT id FROM t WHERE b LIKE 'a%' ORDER BY id",
    "SELECT id FROM t WHERE v LIKE '_' ORDER BY id",
    "SELECT id FROM t WHERE name IN ('APPLE', 'banana', 'ETE') ORDER BY id",
    "SELECT id FROM t WHERE b IN ('APPLE', 'banana') ORDER BY id",
    "SELECT id FROM t WHERE name BETWEEN 'b' AND 'C' ORDER BY id",
    "SELECT id FROM t WHERE name > 'C' ORDER BY id",
    "SELECT id FROM t WHERE b > 'Z' ORDER BY id",
    "SELECT name FROM t ORDER BY name",
    "SELECT name FROM t ORDER BY name DESC",
    "SELECT b FROM t ORDER BY b",
    "SELECT np FROM t ORDER BY np, id",
    "SELECT HEX(v) FROM t ORDER BY v",
    "SELECT c FROM t ORDER BY c, id",
    "SELECT UPPER(c), COUNT(*) FROM t GROUP BY c ORDER BY 1",
    "SELECT COUNT(*) FROM t GROUP BY np ORDER BY 1",
    "SELECT COUNT(DISTINCT c), COUNT(DISTINCT np), COUNT(DISTINCT b), COUNT(DISTINCT LOWER(b)) FROM t",
    "SELECT DISTINCT LOWER(c) FROM t ORDER BY 1",
    "SELECT DISTINCT UPPER(np) FROM t ORDER BY 1",
    "SELECT MIN(name), MAX(name), MIN(b), MAX(b), MIN(np), MAX(np) FROM t",
    "SELECT CASE 'A' WHEN 'a' THEN 1 ELSE 0 END, CASE b WHEN 'apple' THEN 1 ELSE 0 END FROM t WHERE id = 1",
    "SELECT t1.id, t2.id FROM t t1 JOIN t t2 ON t1.name = t2.b ORDER BY 1, 2",
    "SELECT t1.id, t2.id FROM t t1 JOIN t t2 ON t1.c = t2.c ORDER BY 1, 2",
    "SELECT t1.id, t2.id FROM t t1 JOIN t t2 ON t1.name = t2.b COLLATE utf8mb4_general_ci ORDER BY 1, 2",
    "SELECT id FROM t WHERE name = 'apple' COLLATE utf8mb4_bin",
    "SELECT id FROM t WHERE b = 'APPLE' COLLATE utf8mb4_general_ci",
    "SELECT c FROM t UNION SELECT UPPER(c) FROM t ORDER BY 1",
    "SELECT COUNT(*) FROM t t1 WHERE t1.name IN (SELECT UPPER(name) FROM t)",
    "SELECT id FROM t WHERE name > ALL (SELECT name FROM t WHERE id < 3) ORDER BY id",
    "SELECT GROUP_CONCAT(DISTINCT c ORDER BY c) FROM t",
    "SELECT id, ROW_NUMBER() OVER (PARTITION BY c ORDER BY id) FROM t ORDER BY id",
    "CREATE TABLE k (s CHAR(5) PRIMARY KEY, n INT)",
    "INSERT INTO k VALUES ('a', 1), ('B', 2)",
    "INSERT INTO k VALUES ('A', 3)",
    "INSERT INTO k VALUES ('b ', 3)",
    "INSERT INTO k VALUES ('á', 3)",
    "SELECT * FROM k ORDER BY s",
    "SELECT * FROM k WHERE s = 'A '",
    "SELECT s, n FROM k WHERE s >= 'a' AND s < 'c' ORDER BY s",
    "UPDATE k SET n = 9 WHERE s = 'b'",
    "DELETE FROM k WHERE s = 'A'",
    "SELECT * FROM k ORDER BY s",
    "CREATE TABLE kb (s VARCHAR(5) COLLATE utf8mb4_bin PRIMARY KEY)",
    "INSERT INTO kb VALUES ('a'), ('A'), ('á')",
    "INSERT INTO kb VALUES ('a ')",
    "SELECT * FROM kb ORDER BY s",
    "CREATE TABLE kv (s VARBINARY(5) PRIMARY KEY)",
    "INSERT INTO kv VALUES ('a'), ('A'), ('a ')",
    "SELECT HEX(s) FROM kv ORDER BY s",
    "CREATE TABLE ky (s INT COLLATE utf8mb4_bin, d DATE COLLATE utf8mb4_general_ci)",
    "SHOW CREATE TABLE ky",
    "SELECT UPPER('straße'), LOWER('İx'), UPPER('ﬁ'), LOWER('ÀÉ')",
    // Functions that search or compare strings do so in the collation
    // their arguments meet in: a column's over a literal's.
    "SELECT id, INSTR(name, 'A'), INSTR(b, 'A'), INSTR(v, 'A'), LOCATE('E', name), LOCATE('E', b), \
     LOCATE('a', np, 2), POSITION('SS' IN name) FROM t ORDER BY id",
    "SELECT id, FIELD('APPLE', name, b), FIELD(name, 'APPLE', 'banana'), FIELD(b, 'APPLE', 'banana'), \
     FIELD(v, 'APPLE', 'banana'), FIND_IN_SET(name, 'x,APPLE,banana'), FIND_IN_SET(b, 'x,APPLE,banana') \
     FROM t ORDER BY id",
    "SELECT id, STRCMP(name, 'APPLE'), STRCMP(b, 'APPLE'), STRCMP(v, 'APPLE'), STRCMP(np, 'a'), \
     STRCMP('a', 'A'), STRCMP('a' COLLATE utf8mb4_bin, 'A') FROM t ORDER BY id",
    "SELECT id, GREATEST(name, 'BANANA'), LEAST(name, 'BANANA'), GREATEST(b, 'Banana'), LEAST(b, 'Banana'), \
     GREATEST(v, 'Banana') FROM t ORDER BY id",
    "SELECT id, NULLIF(name, 'APPLE'), NULLIF(b, 'APPLE'), NULLIF(v, 'APPLE'), NULLIF('a', 'A'), \
     NULLIF('a' COLLATE utf8mb4_bin, 'A') FROM t ORDER BY id",
    "SELECT id FROM t WHERE INSTR(b, 'an') > 0 OR FIELD(name, 'CHERRY') > 0 ORDER BY id",
    // Hexadecimal and _binary literals are binary strings that yield to a
    // column's collation.
    "SELECT name = x'4150504c45', name = 0x4150504c45, b = x'4150504c45', 'abc' = x'414243', \
     x'414243' = 'abc', UPPER(0x61), LOWER(x'41'), x'' = '', 0x41 IN ('A'), CAST(0x41 AS CHAR), \
     0x41 LIKE 'a', name = _binary 'APPLE', name = CAST('APPLE' AS BINARY), CHARSET(0x41), \
     COLLATION(_binary 'x'), CHARSET(CONCAT('a', 0x41)), HEX(x'41'), LENGTH(0x4142) FROM t WHERE id = 1",
    // Collations that do not meet: 1267 (columns of one character set,
    // neither alone binary-sorting; two COLLATE clauses); those that do.
    "CREATE TABLE mix (g VARCHAR(5) COLLATE utf8mb4_general_ci, u VARCHAR(5) COLLATE utf8mb4_unicode_ci, \
     b VARCHAR(5) COLLATE utf8mb4_bin, n VARCHAR(5) COLLATE utf8mb4_nopad_bin, \
     l VARCHAR(5) CHARACTER SET latin1, vb VARBINARY(5))",
    "INSERT INTO mix VALUES ('a', 'A', 'a', 'a', 'a', 'a')",
    "SELECT g = u FROM mix",
    "SELECT g < u FROM mix",
    "SELECT g LIKE u FROM mix",
    "SELECT g <=> u FROM mix",
    "SELECT g != u FROM mix",
    "SELECT * FROM mix WHERE g = u",
    "SELECT b = n FROM mix",
    "SELECT g COLLATE utf8mb4_bin = u COLLATE utf8mb4_unicode_ci FROM mix",
    "SELECT g = b, b = g, g = l, l = u, g = vb, g COLLATE utf8mb4_bin = u, g = 'a', \
     u = _utf8mb4'a' COLLATE utf8mb4_bin FROM mix",
];

#[test]
fn strings_compare_sort_group_and_key_in_their_collation_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_rows_and_messages(&server, &mariadb, "colls", SETUP, STEPS, &[]);
}

const UNICODE_SETUP: &[&str] = &[
    "CREATE TABLE u (id INT PRIMARY KEY, a VARCHAR(20), g VARCHAR(20) COLLATE utf8mb4_general_ci, \
     c VARCHAR(20) CHARACTER SET utf8mb4, e ENUM('x', 'y'), j JSON, bn VARBINARY(10), UNIQUE KEY (a), KEY (g)) \
     ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci",
    "INSERT INTO u (id, a, g, c) VALUES (1, 'Straße', 'Straße', 'Straße'), (2, 'strasse 2', 'strasse', 'strasse'), \
     (3, 'Ärger', 'ärger', 'ärger'), (4, 'æ', 'ae', 'ae'), (5, 'ae', 'æ', 'x'), (6, 'b\u{1}', 'b', 'b '), \
     (7, '⺀', '丶', '丶'), (8, 'Zebra', 'zebra', 'z')",
];

const UNICODE_STEPS: &[&str] = &[
    "SHOW CREATE TABLE u",
    "SELECT 'ß' = 'ss' COLLATE utf8mb4_unicode_ci, 'ß' LIKE 'ss' COLLATE utf8mb4_unicode_ci, \
     'ß' LIKE 's_' COLLATE utf8mb4_unicode_ci, 'Ä' LIKE 'a' COLLATE utf8mb4_unicode_ci, \
     'æ' = 'ae' COLLATE utf8mb4_unicode_ci, '⺀' = '丶' COLLATE utf8mb4_unicode_ci, \
     'a' = 'a ' COLLATE utf8mb4_unicode_ci, 'a\t' < 'a' COLLATE utf8mb4_unicode_ci, \
     'a ' LIKE 'a' COLLATE utf8mb4_unicode_ci",
    "INSERT INTO u (id, a) VALUES (9, 'STRASSE')",
    "INSERT INTO u (id, a) VALUES (9, 'ärger')",
    "INSERT INTO u (id, a) VALUES (9, '丶')",
    "INSERT INTO u (id, a) VALUES (9, 'b')",
    "INSERT INTO u (id, a) VALUES (9, 'AE ')",
    "INSERT INTO u (id, a) VALUES (9, 'Æ')",
    "SELECT id, a = 'strasse', g = 'strasse', c = 'strasse', a LIKE 'stra%' FROM u ORDER BY id",
    "SELECT id FROM u WHERE a = 'STRASSE'",
    "SELECT id FROM u FORCE INDEX (a) WHERE a = 'arger'",
    "SELECT id FROM u IGNORE INDEX (a) WHERE a >= 'b' ORDER BY id",
    "SELECT id FROM u FORCE INDEX (a) WHERE a >= 'b' ORDER BY id",
    "SELECT id FROM u WHERE a IN ('AE', 'zebra', 'straße') ORDER BY id",
    "SELECT id FROM u WHERE a BETWEEN 'a' AND 'c' ORDER BY id",
    "SELECT a FROM u ORDER BY a, id",
    "SELECT a FROM u ORDER BY a DESC, id",
    "SELECT c, COUNT(*) FROM u GROUP BY c ORDER BY c",
    "SELECT g, COUNT(*) FROM u GROUP BY g ORDER BY g",
    "SELECT DISTINCT UPPER(c) FROM u ORDER BY 1",
    "SELECT COUNT(DISTINCT a), COUNT(DISTINCT g), COUNT(DISTINCT c) FROM u",
    "SELECT MIN(a), MAX(a), MIN(g), MAX(g) FROM u",
    "SELECT u1.id, u2.id FROM u u1 JOIN u u2 ON u1.a = u2.c COLLATE utf8mb4_unicode_ci ORDER BY 1, 2",
    "SELECT GROUP_CONCAT(a ORDER BY a SEPARATOR '|') FROM u",
    "SELECT id, a FROM u WHERE a = 'STRASSE' COLLATE utf8mb4_general_ci",
    "SELECT COLLATION(a), COLLATION(g), COLLATION(c), COLLATION(CONCAT(a, 'x')) FROM u WHERE id = 1",
    "CREATE TABLE u2 LIKE u",
    "SHOW CREATE TABLE u2",
    "ALTER TABLE u2 ADD COLUMN n VARCHAR(5), MODIFY g VARCHAR(20)",
    "SHOW CREATE TABLE u2",
    "CREATE TABLE u3 (a VARCHAR(5)) CHARSET utf8mb4",
    "SHOW CREATE TABLE u3",
    "CREATE TABLE u4 (a TEXT) COLLATE utf8mb4_bin",
    "SHOW CREATE TABLE u4",
    "CREATE TABLE u5 (a VARCHAR(5)) COLLATE utf8mb4_unicode_ci CHARSET utf8mb4",
    "SHOW CREATE TABLE u5",
    "CREATE TABLE u6 (a INT) CHARSET utf8mb4 COLLATE latin1_swedish_ci",
    "CREATE TABLE u6 (a INT) COLLATE no_such_collation",
    "DROP DATABASE IF EXISTS cu_db",
    "CREATE DATABASE cu_db COLLATE utf8mb4_unicode_ci",
    "CREATE TABLE cu_db.t (a VARCHAR(10), b VARCHAR(10) CHARACTER SET utf8mb4, c TEXT COLLATE utf8mb4_bin)",
    "SHOW CREATE TABLE cu_db.t",
    "CREATE TABLE cu_db.t2 (a VARCHAR(10)) CHARSET utf8mb4",
    "SHOW CREATE TABLE cu_db.t2",
    "CREATE TABLE cu_db.t3 (a VARCHAR(10)) COLLATE utf8mb4_bin",
    "SHOW CREATE TABLE cu_db.t3",
    "INSERT INTO cu_db.t VALUES ('Straße', 'Straße', 'Straße')",
    "SELECT a = 'STRASSE', b = 'STRASSE', c = 'Straße' FROM cu_db.t",
    "DROP DATABASE cu_db",
    "CREATE DATABASE cu_db CHARACTER SET utf8mb4 COLLATE latin1_swedish_ci",
    "CREATE DATABASE cu_db CHARACTER SET utf8mb4 COLLATE utf8mb4_bin",
    "CREATE TABLE cu_db.t (a VARCHAR(10))",
    "SHOW CREATE TABLE cu_db.t",
    "DROP DATABASE cu_db",
];

/// utf8mb4_unicode_ci (UCA 4.0.0: 'ß' = 'ss', ignorable control
/// characters) as a table's, a database's and a column's collation:
/// comparisons, LIKE, keys, ORDER BY, GROUP BY, what columns inherit, and
/// SHOW CREATE TABLE.
#[test]
fn unicode_ci_and_default_collations_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_rows_and_messages(
        &server,
        &mariadb,
        "ucoll",
        UNICODE_SETUP,
        UNICODE_STEPS,
        &[],
    );
}

const LATIN1_SETUP: &[&str] = &[
    "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10), b CHAR(3) CHARACTER SET utf8mb4, \
     c TEXT COLLATE latin1_bin) DEFAULT CHARSET=latin1",
    "INSERT INTO t VALUES (1, 'Åsa', 'x', 'é€'), (2, 'asa', 'y', 'A'), (3, 'ÄSA ', 'z', 'a'), \
     (4, 'yes', 'w', 'b'), (6, 'üp', 'v', 'Z')",
    "CREATE TABLE u (id INT, a VARCHAR(10) CHARACTER SET latin1, b VARCHAR(5) COLLATE latin1_general_ci, \
     c VARCHAR(5) CHARACTER SET latin1 COLLATE latin1_bin)",
    "CREATE TABLE k (a VARCHAR(10) PRIMARY KEY) CHARSET latin1",
];

const LATIN1_STEPS: &[&str] = &[
    "SHOW CREATE TABLE t",
    "SHOW CREATE TABLE u",
    "CREATE TABLE bad1 (a VARCHAR(5) CHARACTER SET latin1 COLLATE utf8mb4_bin)",
    "CREATE TABLE bad2 (a VARCHAR(5)) CHARSET=utf8mb4 COLLATE=latin1_bin",
    "CREATE TABLE bad3 (a VARCHAR(5) CHARACTER SET klingon)",
    "CREATE TABLE bad4 (a VARCHAR(5)) CHARSET=latin1 COLLATE=utf8mb4_bin",
    "INSERT INTO t VALUES (5, 'abĀcd😀xyz', 'x', 'y')",
    "INSERT INTO t VALUES (5, '😀', 'x', 'y')",
    "INSERT INTO t VALUES (5, 'ok', '😀', '😀')",
    "UPDATE t SET a = 'Ā' WHERE id = 1",
    "SELECT id, a, CHAR_LENGTH(a), CHARSET(a), COLLATION(a), COLLATION(c), CHARSET(b) FROM t ORDER BY id",
    "SELECT id FROM t WHERE a = 'ÅSA'",
    "SELECT id FROM t WHERE a = 'asa'",
    "SELECT id FROM t WHERE a LIKE 'Ä%'",
    "SELECT id FROM t WHERE a = 'äsa'",
    "SELECT id, a FROM t ORDER BY a, id",
    "SELECT id, c FROM t ORDER BY c, id",
    "SELECT a, COUNT(*) FROM t GROUP BY a ORDER BY a",
    "SELECT DISTINCT a FROM t ORDER BY 1",
    "SELECT MIN(a), MAX(a), MIN(c), MAX(c) FROM t",
    "SELECT a = b, a < b, CONCAT(a, b) FROM t ORDER BY id",
    "SELECT 'ü' = 'y' COLLATE latin1_swedish_ci",
    "SELECT a COLLATE latin1_bin = 'asa', a COLLATE latin1_general_ci = 'ASA' FROM t ORDER BY id",
    "SELECT a COLLATE utf8mb4_bin FROM t",
    "SELECT t.id, u.id FROM t JOIN u ON t.a = u.a ORDER BY 1, 2",
    "INSERT INTO u VALUES (1, 'ASA', 'Ü', 'x'), (2, 'yes', 'u', 'X')",
    "SELECT t.id, u.id FROM t JOIN u ON t.a = u.a ORDER BY 1, 2",
    "SELECT id FROM u WHERE b = 'ü'",
    "SELECT id FROM u WHERE b = 'y'",
    "SELECT id FROM u WHERE c = 'x'",
    "INSERT INTO k VALUES ('a'), ('ü')",
    "INSERT INTO k VALUES ('A')",
    "INSERT INTO k VALUES ('y')",
    "INSERT INTO k VALUES ('b ')",
    "INSERT INTO k VALUES ('B')",
    "SELECT a FROM k WHERE a = 'Ü'",
    "SELECT a FROM k WHERE a >= 'B' ORDER BY a",
    "SET sql_mode = ''",
    "INSERT INTO t VALUES (7, 'abĀcd😀xyz', 'x', 'y')",
    "SELECT a FROM t WHERE id = 7",
    "SET sql_mode = DEFAULT",
    "CREATE DATABASE l1_db CHARACTER SET latin1",
    "CREATE TABLE l1_db.x (a VARCHAR(3))",
    "SHOW CREATE TABLE l1_db.x",
    "DROP DATABASE l1_db",
    "CREATE DATABASE l1_db COLLATE latin1_general_ci",
    "CREATE TABLE l1_db.x (a VARCHAR(3))",
    "SHOW CREATE TABLE l1_db.x",
    "DROP DATABASE l1_db",
    "ALTER TABLE u MODIFY a VARCHAR(10) CHARACTER SET utf8mb4",
    "INSERT INTO u VALUES (3, '😀', 'b', 'c')",
    "ALTER TABLE u MODIFY a VARCHAR(10) CHARACTER SET latin1",
    "DELETE FROM u WHERE id = 3",
    "ALTER TABLE u MODIFY a VARCHAR(10) CHARACTER SET latin1",
    "SELECT id, a, COLLATION(a) FROM u ORDER BY id",
    "ALTER TABLE u ADD d VARCHAR(4) CHARACTER SET latin1",
    "SHOW CREATE TABLE u",
    "CREATE TABLE v LIKE t",
    "SHOW CREATE TABLE v",
    // A new collation makes new index keys.
    "CREATE TABLE m (id INT PRIMARY KEY, b VARCHAR(10), c VARCHAR(10) CHARACTER SET latin1, KEY (b), KEY (c))",
    "INSERT INTO m VALUES (1, 'Q', 'Ü'), (2, 'q', 'ü'), (3, 'x', 'y')",
    "ALTER TABLE m MODIFY b VARCHAR(10) COLLATE utf8mb4_bin, MODIFY c VARCHAR(10) CHARACTER SET latin1 COLLATE latin1_bin",
    "SELECT id FROM m FORCE INDEX (b) WHERE b = 'q'",
    "SELECT id FROM m FORCE INDEX (b) WHERE b >= 'a' ORDER BY id",
    "SELECT id FROM m FORCE INDEX (c) WHERE c = 'ü'",
    "SELECT id FROM m FORCE INDEX (c) WHERE c > 'Z' ORDER BY id",
];

/// latin1 (latin1_swedish_ci, latin1_general_ci, latin1_bin) for tables,
/// columns and databases: comparisons, LIKE, ORDER/GROUP BY, DISTINCT,
/// MIN/MAX, joins with utf8mb4 columns, COLLATE, UNIQUE keys; 1366 for a
/// character latin1 lacks ('?' with a warning outside strict mode), 1253
/// for a collation of another character set, 1115 for an unknown one.
#[test]
fn latin1_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_rows_and_messages(&server, &mariadb, "lcoll", LATIN1_SETUP, LATIN1_STEPS, &[]);
}

/// Pieces of the random strings: case, accents, spaces and tabs,
/// expansions, ignorables, a character beyond the BMP, radicals.
const UTF8MB4_PARTS: &[&str] = &[
    "a", "A", "á", "Á", "b", " ", "\t", "ß", "s", "ss", "é", "😀", "z", "\u{1}", "\u{a0}", "æ",
    "ae", "⺀", "丶",
];

/// Pieces of random latin1 strings: the characters latin1_swedish_ci
/// orders its own way (å, ä, ö after z; ü as y), Windows-1252's.
const LATIN1_PARTS: &[&str] = &[
    "a", "A", "å", "Å", "ä", "ö", "ü", "y", "Y", "z", " ", "\t", "é", "e", "€", "ß", "s", "æ",
    "\u{a0}", "ÿ",
];

/// A small xorshift generator: the strings differ run to run only by seed.
fn strings(parts: &[&str], seed: u64, n: usize) -> Vec<String> {
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let len = (next() % 4) as usize;
            (0..len)
                .map(|_| parts[(next() % parts.len() as u64) as usize])
                .collect()
        })
        .collect()
}

/// Index keys are the collation's sort keys: for random strings made of
/// `parts`, what a lookup and a range through the index of each column
/// (`name definition` each) finds is what a full scan finds, and what
/// MariaDB finds; ORDER BY each column orders as MariaDB's; a UNIQUE key
/// of each collation in `unique` refuses exactly the strings MariaDB's
/// refuses.
fn keys_as_mariadb(db: &str, parts: &[&str], columns: &[(&str, &str)], unique: &[&str]) {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let mut ours = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    let mut theirs =
        Conn::new(Opts::from_url(&format!("mysql://root@127.0.0.1:{}/", mariadb.port)).unwrap())
            .unwrap();
    let values = strings(parts, 0x5eed_c011, 120);
    let definitions: Vec<String> = columns
        .iter()
        .map(|(name, definition)| format!("{name} {definition}, KEY ({name})"))
        .collect();
    for c in [&mut ours, &mut theirs] {
        c.query_drop(format!("DROP DATABASE IF EXISTS {db}"))
            .unwrap();
        c.query_drop(format!("CREATE DATABASE {db}")).unwrap();
        c.query_drop(format!("USE {db}")).unwrap();
        c.query_drop(format!(
            "CREATE TABLE t (id INT PRIMARY KEY, {})",
            definitions.join(", ")
        ))
        .unwrap();
        for (i, collation) in unique.iter().enumerate() {
            c.query_drop(format!(
                "CREATE TABLE u{i} (s VARCHAR(20) COLLATE {collation} PRIMARY KEY)"
            ))
            .unwrap();
        }
    }
    let insert = format!("INSERT INTO t VALUES (?{})", ", ?".repeat(columns.len()));
    let mut refused = (Vec::new(), Vec::new());
    for (i, v) in values.iter().enumerate() {
        for (c, refused) in [(&mut ours, &mut refused.0), (&mut theirs, &mut refused.1)] {
            let mut row = vec![mysql::Value::from(i)];
            row.extend(columns.iter().map(|_| mysql::Value::from(v)));
            c.exec_drop(&insert, row).unwrap();
            for table in 0..unique.len() {
                if c.exec_drop(format!("INSERT INTO u{table} VALUES (?)"), (v,))
                    .is_err()
                {
                    refused.push((table, i));
                }
            }
        }
    }
    assert_eq!(refused.0, refused.1, "UNIQUE refusals differ");
    for (table, collation) in unique.iter().enumerate() {
        assert!(
            refused.0.iter().any(|r| r.0 == table),
            "no two strings collided in {collation}"
        );
    }
    let probes = strings(parts, 0xfeed_beef, 60);
    for p in &probes {
        for (col, _) in columns {
            let queries = [
                format!("SELECT id FROM t FORCE INDEX ({col}) WHERE {col} = ? ORDER BY id"),
                format!("SELECT id FROM t IGNORE INDEX ({col}) WHERE {col} = ? ORDER BY id"),
                format!("SELECT id FROM t FORCE INDEX ({col}) WHERE {col} >= ? ORDER BY id"),
                format!("SELECT id FROM t IGNORE INDEX ({col}) WHERE {col} >= ? ORDER BY id"),
            ];
            let answers: Vec<Vec<u32>> = queries
                .iter()
                .map(|q| ours.exec(q, (p,)).unwrap())
                .collect();
            let oracle: Vec<u32> = theirs.exec(&queries[1], (p,)).unwrap();
            assert_eq!(
                answers[0], answers[1],
                "{col} = {p:?}: index and scan differ"
            );
            assert_eq!(
                answers[2], answers[3],
                "{col} >= {p:?}: index and scan differ"
            );
            assert_eq!(answers[1], oracle, "{col} = {p:?}: MariaDB differs");
        }
    }
    for (col, _) in columns {
        let query = format!("SELECT id FROM t ORDER BY {col}, id");
        let order: Vec<u32> = ours.query(&query).unwrap();
        let oracle: Vec<u32> = theirs.query(&query).unwrap();
        assert_eq!(order, oracle, "ORDER BY {col} differs");
    }
}

#[test]
fn index_keys_find_what_the_collation_compares_equal() {
    keys_as_mariadb(
        "ckeys",
        UTF8MB4_PARTS,
        &[
            ("s", "VARCHAR(20)"),
            ("sb", "VARCHAR(20) COLLATE utf8mb4_bin"),
            ("su", "VARCHAR(20) COLLATE utf8mb4_unicode_ci"),
        ],
        &["utf8mb4_general_ci", "utf8mb4_unicode_ci"],
    );
}

#[test]
fn latin1_keys_find_what_the_collation_compares_equal() {
    keys_as_mariadb(
        "lkeys",
        LATIN1_PARTS,
        &[
            ("s", "VARCHAR(20) CHARACTER SET latin1"),
            ("sg", "VARCHAR(20) COLLATE latin1_general_ci"),
            ("sb", "VARCHAR(20) COLLATE latin1_bin"),
        ],
        &["latin1_swedish_ci", "latin1_general_ci"],
    );
}
