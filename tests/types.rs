//! Column types beside a real MariaDB 10.11: FLOAT (a 4-byte float shown
//! with six significant digits), YEAR (two-digit years, the zero year),
//! BINARY (zero-padded), VARBINARY, TINY/MEDIUM/LONG TEXT and BLOB — their
//! values, wire types, character sets and limits, in SHOW CREATE TABLE and
//! SHOW COLUMNS, through the text and the binary protocol; TIMESTAMP and
//! DATETIME with DEFAULT CURRENT_TIMESTAMP and ON UPDATE CURRENT_TIMESTAMP;
//! DATETIME(n) and TIMESTAMP(n): the fraction cut to n digits and shown
//! with exactly n, compared with strings as datetimes; JSON (checked
//! LONGTEXT) with JSON_VALID, JSON_EXTRACT and JSON_UNQUOTE.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

const SETUP: &[&str] = &[
    "CREATE TABLE ft (id INT PRIMARY KEY, f FLOAT, y YEAR, b BLOB, tx TEXT, vb VARBINARY(10), \
     bn BINARY(3), c CHAR(3), tt TINYTEXT, mt MEDIUMTEXT, lb LONGBLOB, d DOUBLE, \
     f24 FLOAT(24), f53 FLOAT(53))",
    "INSERT INTO ft VALUES (1, 3.14159265, 24, 'ab', 'cd', 'ef', 'g', 'h', 'i', 'j', 'k', 1.1, \
     1.5, 2.5)",
    "INSERT INTO ft (id, f, y) VALUES (2, 1234567.8, '0'), (3, 0.1, 0), (4, 1e20, 1999), \
     (5, 123456789, 2155), (6, -2.5, '70')",
    "CREATE TABLE plain (f FLOAT, y YEAR(4), b BLOB, tx TEXT, vb VARBINARY(10), bn BINARY(3), \
     tt TINYTEXT, mt MEDIUMTEXT, lb LONGBLOB, tb TINYBLOB, mb MEDIUMBLOB, lt LONGTEXT)",
];

const STEPS: &[&str] = &[
    "SELECT * FROM ft ORDER BY id",
    "SELECT f, y FROM ft WHERE y > 2000 ORDER BY f",
    "SELECT id FROM ft WHERE f > 0.09 AND f < 0.11",
    "SELECT id, f FROM ft WHERE f = 0.1",
    "SELECT f + 1, y + 1, f * 2 FROM ft ORDER BY id",
    "SELECT LENGTH(b), HEX(bn), LENGTH(bn), CONCAT(c, '!') FROM ft WHERE id = 1",
    "SELECT id FROM ft WHERE bn = 'g'",
    "SELECT id FROM ft WHERE bn = 'g\\0\\0'",
    "INSERT INTO ft (id, y) VALUES (7, 1900)",
    "INSERT INTO ft (id, y) VALUES (8, 2156)",
    "INSERT INTO ft (id, vb) VALUES (9, 'abcdefghijk')",
    "INSERT INTO ft (id, bn) VALUES (10, 'abcd')",
    "INSERT INTO ft (id, tt) VALUES (11, REPEAT('x', 256))",
    "INSERT INTO ft (id, tt) VALUES (12, REPEAT('x', 255))",
    "SELECT id, LENGTH(tt) FROM ft WHERE id > 6 ORDER BY id",
    "SELECT * FROM plain",
];

/// Compared by their rows only (SHOW's own column types are another
/// matter).
const SHOWN: &[&str] = &["SHOW COLUMNS FROM plain", "SHOW CREATE TABLE plain"];

#[test]
fn types_show_and_store_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "tys", SETUP, STEPS, Shown::TypesAndRows);
    let create = same_as_mariadb_but_engine(&server, &mariadb, SETUP, SHOWN);
    assert!(create.contains("`f` float DEFAULT NULL"), "{create}");
}

const TIMESTAMPS: &[&str] = &[
    "CREATE TABLE d1 (id INT PRIMARY KEY, v INT, \
     ts TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, dt DATETIME DEFAULT NOW(), \
     n TIMESTAMP NULL, m TIMESTAMP NOT NULL DEFAULT '2024-01-01 00:00:00')",
];

const TIMESTAMP_STEPS: &[&str] = &[
    "INSERT INTO d1 (id, v) VALUES (1, 10), (2, 20)",
    "SELECT id, v, ts IS NOT NULL, dt IS NOT NULL, ts = dt, n, m FROM d1 ORDER BY id",
    "SELECT COUNT(*) FROM d1 WHERE ts >= NOW() - INTERVAL 1 MINUTE",
    "UPDATE d1 SET ts = '2000-01-01 00:00:00', dt = '2000-01-01 00:00:00' WHERE id = 1",
    "SELECT id, ts = dt FROM d1 ORDER BY id",
    // Nothing changes: ON UPDATE leaves the time.
    "UPDATE d1 SET v = v WHERE id = 1",
    "SELECT id, ts FROM d1 WHERE id = 1",
    "UPDATE d1 SET v = 11 WHERE id = 1",
    "SELECT id, ts > '2001-01-01', dt FROM d1 WHERE id = 1",
    "INSERT INTO d1 (id, v) VALUES (1, 0) ON DUPLICATE KEY UPDATE v = 12, dt = ts",
    "SELECT id, ts = dt FROM d1 WHERE id = 1",
    "REPLACE INTO d1 (id, v, ts) VALUES (2, 21, '2010-10-10 10:10:10')",
    "SELECT id, v, ts, dt IS NOT NULL FROM d1 WHERE id = 2",
    "SHOW COLUMNS FROM d1",
];

#[test]
fn current_timestamp_defaults_and_updates_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(
        &server,
        &mariadb,
        "tyt",
        TIMESTAMPS,
        TIMESTAMP_STEPS,
        Shown::Rows,
    );
    let create =
        same_as_mariadb_but_engine(&server, &mariadb, TIMESTAMPS, &["SHOW CREATE TABLE d1"]);
    assert!(create.contains("ON UPDATE current_timestamp()"), "{create}");
}

/// `shown` as MariaDB answers it, but for the engine's name; returns
/// lineardb's last outcome.
fn same_as_mariadb_but_engine(
    server: &Server,
    mariadb: &MariaDb,
    setup: &[&str],
    shown: &[&str],
) -> String {
    common::differential::same_as_mariadb_but_engine(server, mariadb, "tyc", setup, shown)
        .last()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn binary_protocol_sends_float_year_and_blob_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let rows = |url: &str| -> Vec<mysql::Row> {
        let mut c = Conn::new(Opts::from_url(url).unwrap()).unwrap();
        c.query_drop("DROP DATABASE IF EXISTS tyb").unwrap();
        c.query_drop("CREATE DATABASE tyb").unwrap();
        c.query_drop("USE tyb").unwrap();
        for s in &SETUP[..3] {
            c.query_drop(*s).unwrap();
        }
        c.exec(
            "SELECT f, y, b, bn, tx, d FROM ft WHERE id <= ? ORDER BY id",
            (6,),
        )
        .unwrap()
    };
    let ours = rows(&server.url(""));
    let theirs = rows(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    assert_eq!(ours.len(), 6);
    for (a, b) in ours.iter().zip(&theirs) {
        let (a, b) = (a.clone().unwrap(), b.clone().unwrap());
        assert_eq!(a, b);
    }
}

const FRACTIONS: &[&str] = &[
    "CREATE TABLE fs (id INT PRIMARY KEY, a DATETIME, b DATETIME(3), c DATETIME(6), \
     d TIMESTAMP(2) NULL)",
    "INSERT INTO fs VALUES (1, '2024-01-02 03:04:05.987654', '2024-01-02 03:04:05.987654', \
     '2024-01-02 03:04:05.987654', '2024-01-02 03:04:05.987654'), (2, '2024-01-02 03:04:05', \
     '2024-01-02 03:04:05', '2024-01-02 03:04:05', '2024-01-02 03:04:05')",
    "CREATE TABLE dd (d DATE)",
    "INSERT INTO dd VALUES ('2024-01-02')",
];

const FRACTION_STEPS: &[&str] = &[
    "SELECT * FROM fs ORDER BY id",
    "SELECT id FROM fs WHERE a = '2024-01-02 03:04:05'",
    "SELECT id FROM fs WHERE c = '2024-01-02 03:04:05.987654'",
    "SELECT id FROM fs WHERE a > '2024-01-02'",
    "SELECT id FROM fs WHERE a = '2024-01-02'",
    "UPDATE fs SET b = '1999-12-31 23:59:59.9999' WHERE id = 2",
    "SELECT id, b FROM fs WHERE b > '1999-12-31 23:59:59.999' ORDER BY id",
    "SELECT id FROM fs WHERE b < '1999-12-31 23:59:59.9995'",
    "SELECT MAX(c) FROM fs",
    "SELECT d = '2024-01-02 00:00:00', d < '2024-01-02 00:00:01', d = '2024-01-02', \
     d > '2024-01-01 23:59:59.5' FROM dd",
    "SELECT d FROM dd WHERE d < '2024-01-02 00:00:01'",
    "CREATE TABLE f2 (x DATETIME(7))",
    "CREATE TABLE f3 (x DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), \
     y TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))",
    "SHOW CREATE TABLE f3",
    "CREATE TABLE f6 (x DATETIME(2) DEFAULT '2020-01-01 00:00:00.129')",
    "SHOW CREATE TABLE f6",
    "INSERT INTO f6 VALUES ()",
    "INSERT INTO f6 () VALUES ()",
    "SELECT * FROM f6",
    "CREATE TABLE f7 (x DATETIME DEFAULT '2020-01-01')",
    "SHOW CREATE TABLE f7",
    "SHOW COLUMNS FROM fs",
];

#[test]
fn fractional_seconds_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb_but_engine(&server, &mariadb, FRACTIONS, FRACTION_STEPS);
    // The wire: DATETIME(n) says n decimals.
    let mut c = Conn::new(Opts::from_url(&server.url("tyc")).unwrap()).unwrap();
    let result = c.query_iter("SELECT a, b, c, d FROM fs").unwrap();
    let decimals: Vec<u8> = result
        .columns()
        .as_ref()
        .iter()
        .map(|c| c.decimals())
        .collect();
    assert_eq!(decimals, [0, 3, 6, 2]);
}

/// The column definitions of stored columns — wire type, length, flags
/// (NOT NULL, keys, AUTO_INCREMENT, no default, UNSIGNED), decimals and
/// character set — as MariaDB sends them, and integer values in the
/// binary protocol in their type's width.
#[test]
fn stored_columns_are_defined_on_the_wire_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let definitions = |url: &str| -> (Vec<String>, Vec<mysql::Row>) {
        let mut c = Conn::new(Opts::from_url(url).unwrap()).unwrap();
        c.query_drop("DROP DATABASE IF EXISTS tyw").unwrap();
        c.query_drop("CREATE DATABASE tyw").unwrap();
        c.query_drop("USE tyw").unwrap();
        c.query_drop(
            "CREATE TABLE w (id INT PRIMARY KEY AUTO_INCREMENT, a TINYINT, b TINYINT UNSIGNED, \
             c SMALLINT, d MEDIUMINT UNSIGNED, e INT(5), f BIGINT, g BIGINT UNSIGNED, \
             h TINYINT(1), i DECIMAL(10,2), j DECIMAL(8,0), k DOUBLE, l FLOAT, m DATE, \
             n DATETIME, o YEAR, p INT NOT NULL, q INT UNIQUE, s VARCHAR(10), \
             u CHAR(3) NOT NULL DEFAULT '', v INT, x INT, KEY (a), KEY (v, x))",
        )
        .unwrap();
        c.query_drop(
            "INSERT INTO w (a, b, c, d, e, f, g, h, i, j, p, q) VALUES \
             (-5, 250, -300, 16000000, 7, -9000000000, 18000000000000000000, 1, 12.5, 7, 1, 2)",
        )
        .unwrap();
        let result = c.query_iter("SELECT * FROM w").unwrap();
        let shown = result
            .columns()
            .as_ref()
            .iter()
            .map(|col| {
                format!(
                    "{} {:?} len {} flags {:?} decimals {} charset {}",
                    col.name_str(),
                    col.column_type(),
                    col.column_length(),
                    col.flags(),
                    col.decimals(),
                    col.character_set()
                )
            })
            .collect();
        drop(result);
        let rows = c
            .exec("SELECT a, b, c, d, e, f, g, h, p FROM w WHERE id = ?", (1,))
            .unwrap();
        (shown, rows)
    };
    let (ours, our_rows) = definitions(&server.url(""));
    let (theirs, their_rows) = definitions(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    assert_eq!(ours, theirs);
    assert_eq!(our_rows.len(), 1);
    assert_eq!(our_rows[0].clone().unwrap(), their_rows[0].clone().unwrap());
}

/// JSON columns as MariaDB defines them: LONGTEXT in utf8mb4_bin with a
/// `json_valid` CHECK (4025 for text that is not JSON), shown so in SHOW
/// CREATE TABLE; JSON_VALID on values of every kind.
#[test]
fn json_columns_are_checked_longtext() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    common::differential::same_rows_and_messages(
        &server,
        &mariadb,
        "tyj",
        &["CREATE TABLE j (id INT PRIMARY KEY, doc JSON, d2 JSON NOT NULL DEFAULT '{}')"],
        &[
            "SHOW CREATE TABLE j",
            "INSERT INTO j (id, doc) VALUES (1, '{\"a\": [1, 2.5, \"x\"]}'), (2, 'null'), (3, '12')",
            "INSERT INTO j (id, doc) VALUES (4, '{bad')",
            "INSERT INTO j (id, doc, d2) VALUES (5, '[]', '')",
            "INSERT INTO j (id, doc) VALUES (6, CONCAT('[\"', REPEAT('z', 10000), '\"]'))",
            "UPDATE j SET doc = '{\"b\":' WHERE id = 1",
            "UPDATE j SET doc = '{\"b\": true}' WHERE id = 1",
            "SELECT id, doc, d2, LENGTH(doc), JSON_VALID(doc) FROM j ORDER BY id",
            "SELECT id FROM j WHERE doc = '{\"B\": true}'",
            "SELECT JSON_VALID('{a:1}'), JSON_VALID('[1,'), JSON_VALID(''), JSON_VALID(NULL), \
             JSON_VALID('1e400'), JSON_VALID(' {\"a\":1} '), JSON_VALID('\"é\"'), JSON_VALID(1)",
            "SELECT id, JSON_EXTRACT(doc, '$'), JSON_EXTRACT(doc, '$.a'), JSON_EXTRACT(doc, '$.a[1]'), \
             JSON_EXTRACT(doc, '$[0]'), JSON_UNQUOTE(JSON_EXTRACT(doc, '$.a[2]')) FROM j WHERE id < 6 ORDER BY id",
            "SELECT JSON_EXTRACT('{\"a\" :  {\"x\" : 2.50, \"y\":[ ]} , \"b\":\"q\\\\\"r\"}', '$'), \
             JSON_EXTRACT('{\"a\":{}}', '$.a'), JSON_EXTRACT('[1,2]', '$[5]'), JSON_EXTRACT('[1,2]', '$[1]', '$[9]'), \
             JSON_EXTRACT('{\"a\":1}', '$.a', '$.a'), JSON_EXTRACT('\"s\"', '$'), JSON_EXTRACT('[1,[2,3]]', '$[*][*]')",
            "SELECT JSON_EXTRACT('{\"a\":[{\"b\":1},{\"b\":2}]}', '$.a[*].b'), JSON_EXTRACT(NULL, '$'), \
             JSON_EXTRACT('[1]', NULL), JSON_EXTRACT('{\"a\":1,\"a\":2}', '$.a'), \
             JSON_EXTRACT('{\"a\":{\"b\":1},\"c\":{\"b\":2}}', '$.*.b'), JSON_EXTRACT('[[1,2],[3]]', '$[0][1]'), \
             JSON_EXTRACT('{\"a b\":5}', '$.\"a b\"'), JSON_EXTRACT('[1,2,3]', '$[last]'), JSON_EXTRACT('7', '$[0]')",
            "SELECT JSON_UNQUOTE('abc'), JSON_UNQUOTE('\"a'), JSON_UNQUOTE('\"\\\\u00e9x\"'), \
             JSON_UNQUOTE('\"a\\\\nb\"'), JSON_UNQUOTE(NULL), JSON_UNQUOTE('[1, 2]')",
        ],
        &[],
    );
}
