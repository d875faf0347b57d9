//! EXPLAIN describes every SELECT as MariaDB does: its ten columns (and
//! `filtered` under EXTENDED), a row per table in the order the join reads
//! them, query blocks numbered and typed (SIMPLE, PRIMARY, SUBQUERY,
//! DEPENDENT SUBQUERY, DERIVED, UNION, UNION RESULT), and FORMAT=JSON's
//! document. Where both servers choose the same plan the rows are
//! compared with MariaDB's whole (a one-table UPDATE or DELETE shows the
//! scan that finds its rows); for joins, the rows show the plan lineardb
//! runs (lookups by key, hash joins, semi and anti joins). `ANALYZE
//! <statement>` adds what each table's reads did.
mod common;
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

const SETUP: &[&str] = &[
    "CREATE TABLE eo (id INT PRIMARY KEY, cust INT, status CHAR(1), total INT, KEY (cust))",
    "CREATE TABLE el (oid INT, ln INT, supp INT, shipped INT, PRIMARY KEY (oid, ln), \
     INDEX (supp))",
    "CREATE TABLE ec (cid INT, name VARCHAR(10), nation INT)",
    "INSERT INTO eo VALUES (1, 10, 'F', 100), (2, 10, 'O', 200), (3, 20, 'F', 300)",
    "INSERT INTO el VALUES (1, 1, 5, 3), (1, 2, 6, 5), (2, 1, 7, 2)",
    "INSERT INTO ec VALUES (10, 'a', 1), (20, 'b', 2)",
];

fn connect(url: &str) -> Conn {
    let mut c = Conn::new(Opts::from_url(url).unwrap()).unwrap();
    c.query_drop("DROP DATABASE IF EXISTS ex").unwrap();
    c.query_drop("CREATE DATABASE ex").unwrap();
    c.query_drop("USE ex").unwrap();
    for s in SETUP {
        c.query_drop(*s).unwrap();
    }
    c
}

/// Column names and rows (NULL as "NULL"), or the error code.
fn outcome(c: &mut Conn, sql: &str) -> Result<(Vec<String>, Vec<Vec<String>>), u16> {
    let mut result = match c.query_iter(sql) {
        Ok(r) => r,
        Err(mysql::Error::MySqlError(e)) => return Err(e.code),
        Err(e) => panic!("{sql}: {e}"),
    };
    let names = result
        .columns()
        .as_ref()
        .iter()
        .map(|c| c.name_str().into_owned())
        .collect();
    let rows = result
        .by_ref()
        .map(|r| {
            r.unwrap()
                .unwrap()
                .into_iter()
                .map(|v| match v {
                    mysql::Value::NULL => "NULL".to_string(),
                    mysql::Value::Bytes(b) => String::from_utf8_lossy(&b).into_owned(),
                    other => format!("{other:?}"),
                })
                .collect()
        })
        .collect();
    Ok((names, rows))
}

#[test]
fn explain_matches_mariadb_where_the_plans_agree() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let mut ours = connect(&server.url(""));
    let mut theirs = connect(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    // The same rows, every column.
    for sql in [
        "EXPLAIN SELECT * FROM eo WHERE id = 1",
        "EXPLAIN SELECT * FROM eo WHERE id > 1",
        "EXPLAIN SELECT 1",
        "EXPLAIN FORMAT=TRADITIONAL SELECT 1",
        "EXPLAIN EXTENDED SELECT * FROM eo WHERE id > 1",
        "EXPLAIN FORMAT=JSON SELECT 1",
        "EXPLAIN SELECT * FROM eo WHERE id = 1 UNION SELECT * FROM eo WHERE id = 2",
        "EXPLAIN FORMAT=tree SELECT 1",
        "EXPLAIN FORMAT=text SELECT 1",
        "EXPLAIN ANALYZE SELECT 1",
        "EXPLAIN UPDATE eo SET total = 1 WHERE id = 2",
        "EXPLAIN DELETE FROM eo WHERE id > 2",
        "EXPLAIN INSERT INTO eo VALUES (9, 1, 'F', 1)",
        "EXPLAIN EXTENDED INSERT INTO eo VALUES (9, 1, 'F', 1)",
        "EXPLAIN FORMAT=JSON INSERT INTO eo VALUES (9, 1, 'F', 1)",
        "EXPLAIN INSERT INTO ec SELECT id, 'x', cust FROM eo WHERE id > 1",
        "EXPLAIN REPLACE INTO ec SELECT id, 'x', cust FROM eo WHERE id > 1",
    ] {
        assert_eq!(outcome(&mut ours, sql), outcome(&mut theirs, sql), "{sql}");
    }
    // The same columns, whatever the plan.
    for sql in [
        "EXPLAIN SELECT * FROM eo, el WHERE el.oid = eo.id",
        "EXPLAIN SELECT * FROM eo WHERE EXISTS (SELECT * FROM el WHERE el.oid = eo.id)",
        "EXPLAIN SELECT id, (SELECT MAX(ln) FROM el) FROM eo",
        "EXPLAIN SELECT * FROM (SELECT cust, COUNT(*) c FROM eo GROUP BY cust) d",
        "EXPLAIN EXTENDED SELECT * FROM eo JOIN ec ON ec.cid = eo.cust",
        "EXPLAIN FORMAT=JSON SELECT * FROM eo, el WHERE el.oid = eo.id",
        "EXPLAIN UPDATE eo JOIN el ON el.oid = eo.id SET eo.total = 1 WHERE el.supp = 5",
        "EXPLAIN DELETE eo FROM eo JOIN el ON el.oid = eo.id WHERE el.supp = 5",
        "EXPLAIN DELETE FROM eo USING eo JOIN el ON el.oid = eo.id WHERE el.supp = 5",
    ] {
        let (a, b) = (outcome(&mut ours, sql), outcome(&mut theirs, sql));
        assert_eq!(a.as_ref().map(|r| &r.0), b.as_ref().map(|r| &r.0), "{sql}");
    }
}

/// lineardb's rows for `sql`: (id, select_type, table, type, key, ref,
/// Extra) each.
fn plan(c: &mut Conn, sql: &str) -> Vec<String> {
    let (names, rows) = outcome(c, sql).unwrap_or_else(|e| panic!("{sql}: error {e}"));
    assert_eq!(names[..4], ["id", "select_type", "table", "type"]);
    rows.iter()
        .map(|r| [0, 1, 2, 3, 5, 7, 9].map(|i| r[i].as_str()).join(" | "))
        .collect()
}

#[test]
fn explain_shows_the_plan_that_runs() {
    let server = Server::start();
    let mut c = connect(&server.url(""));
    let cases: &[(&str, &[&str])] = &[
        // SELECT STRAIGHT_JOIN: the written order, whatever the sizes.
        (
            "EXPLAIN SELECT STRAIGHT_JOIN * FROM el, eo WHERE el.oid = eo.id AND eo.id < 3",
            &[
                "1 | SIMPLE | el | ALL | NULL | NULL | ",
                "1 | SIMPLE | eo | eq_ref | PRIMARY | ex.el.oid | Using where",
            ],
        ),
        (
            "EXPLAIN SELECT * FROM eo, el WHERE el.oid = eo.id AND eo.id < 3",
            &[
                "1 | SIMPLE | eo | range | PRIMARY | NULL | Using where",
                "1 | SIMPLE | el | ref | PRIMARY | ex.eo.id | ",
            ],
        ),
        (
            "EXPLAIN SELECT * FROM el, eo WHERE el.oid = eo.id AND el.supp = 7",
            &[
                "1 | SIMPLE | el | ref | supp | const | ",
                "1 | SIMPLE | eo | eq_ref | PRIMARY | ex.el.oid | ",
            ],
        ),
        (
            "EXPLAIN SELECT * FROM eo, ec WHERE ec.nation = eo.total",
            &[
                "1 | SIMPLE | eo | ALL | NULL | NULL | ",
                "1 | SIMPLE | ec | hash_ALL | #hash#$hj | ex.eo.total | \
                 Using join buffer (flat, BNLH join)",
            ],
        ),
        (
            "EXPLAIN SELECT * FROM eo WHERE EXISTS (SELECT * FROM el WHERE el.oid = eo.id)",
            &[
                "1 | SIMPLE | eo | ALL | NULL | NULL | ",
                "1 | SIMPLE | el | ref | PRIMARY | ex.eo.id | FirstMatch(eo)",
            ],
        ),
        (
            "EXPLAIN SELECT * FROM eo WHERE NOT EXISTS (SELECT * FROM el WHERE el.oid = eo.id)",
            &[
                "1 | SIMPLE | eo | ALL | NULL | NULL | ",
                "1 | SIMPLE | el | ref | PRIMARY | ex.eo.id | Not exists",
            ],
        ),
        (
            "EXPLAIN SELECT id, (SELECT MAX(ln) FROM el WHERE el.oid = eo.id) FROM eo \
             WHERE total > (SELECT AVG(total) FROM eo)",
            &[
                "1 | PRIMARY | eo | ALL | NULL | NULL | Using where",
                "2 | DEPENDENT SUBQUERY | el | ref | PRIMARY | ex.eo.id | ",
                "3 | SUBQUERY | eo | ALL | NULL | NULL | ",
            ],
        ),
        (
            "EXPLAIN SELECT * FROM (SELECT cust, COUNT(*) c FROM eo GROUP BY cust) d \
             WHERE c > 0",
            &[
                "1 | PRIMARY | <derived2> | ALL | NULL | NULL | Using where",
                "2 | DERIVED | eo | ALL | NULL | NULL | Using temporary; Using filesort",
            ],
        ),
        (
            "EXPLAIN SELECT id FROM eo UNION SELECT oid FROM el",
            &[
                "1 | PRIMARY | eo | ALL | NULL | NULL | ",
                "2 | UNION | el | ALL | NULL | NULL | ",
                "NULL | UNION RESULT | <union1,2> | ALL | NULL | NULL | ",
            ],
        ),
    ];
    let mut wrong = Vec::new();
    for (sql, expected) in cases {
        let got = plan(&mut c, sql);
        if got != *expected {
            wrong.push(format!(
                "{sql}\n  got      {got:?}\n  expected {expected:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The document: blocks and tables in MariaDB's keys and order.
    let (_, rows) = outcome(
        &mut c,
        "EXPLAIN FORMAT=JSON SELECT * FROM eo, el WHERE el.oid = eo.id AND eo.id < 3",
    )
    .unwrap();
    let doc: serde_json::Value = serde_json::from_str(&rows[0][0]).unwrap();
    let tables = doc["query_block"]["nested_loop"].as_array().unwrap();
    assert_eq!(doc["query_block"]["select_id"], 1);
    assert_eq!(tables[0]["table"]["table_name"], "eo");
    assert_eq!(tables[0]["table"]["access_type"], "range");
    assert_eq!(tables[1]["table"]["ref"][0], "ex.eo.id");
    assert_eq!(tables[1]["table"]["used_key_parts"][0], "oid");
}

/// ANALYZE's rows as compared: id, select_type, table, type, r_rows,
/// filtered, r_filtered.
fn measured(rows: &[Vec<String>]) -> Vec<String> {
    rows.iter()
        .map(|r| [0, 1, 2, 3, 9, 10, 11].map(|i| r[i].as_str()).join(" | "))
        .collect()
}

/// `ANALYZE <statement>` runs the query and shows, per table, the rows
/// each read gave (`r_rows`) and the share that passed the conditions
/// checked there (`r_filtered`): MariaDB's figures where both servers
/// read the same way. The estimate (`rows`) and notes may differ.
#[test]
fn analyze_counts_what_each_table_read_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let mut ours = connect(&server.url(""));
    let mut theirs = connect(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    for c in [&mut ours, &mut theirs] {
        c.query_drop("CREATE TABLE dg (n INT PRIMARY KEY)").unwrap();
        c.query_drop("INSERT INTO dg VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)")
            .unwrap();
        c.query_drop("CREATE TABLE an (id INT PRIMARY KEY, k INT, s VARCHAR(10))")
            .unwrap();
        c.query_drop(
            "INSERT INTO an SELECT a.n * 100 + b.n * 10 + d.n, (a.n * 7 + d.n) % 10, \
             CONCAT('x', b.n, d.n) FROM dg a, dg b, dg d",
        )
        .unwrap();
    }
    for sql in [
        "ANALYZE SELECT * FROM an WHERE k < 5 AND id < 300",
        "ANALYZE SELECT COUNT(*) FROM an WHERE s LIKE 'x1%'",
        "ANALYZE FORMAT=TRADITIONAL SELECT k, COUNT(*) FROM an GROUP BY k",
        "ANALYZE SELECT id, (SELECT COUNT(*) FROM an b WHERE b.k = a.k) FROM an a WHERE a.id < 4",
        "ANALYZE SELECT * FROM an WHERE id = 5",
        "ANALYZE SELECT 1",
        "ANALYZE SELECT id FROM an WHERE id < 3 UNION ALL SELECT id FROM an WHERE id > 997",
    ] {
        let (a, b) = (outcome(&mut ours, sql), outcome(&mut theirs, sql));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.0, b.0, "{sql}: columns");
        assert_eq!(measured(&a.1), measured(&b.1), "{sql}");
    }
    // FORMAT=JSON: reads, rows per read, time, share passed per table.
    let json: String = ours
        .query_first("ANALYZE FORMAT=JSON SELECT COUNT(*) FROM an WHERE k = 3")
        .unwrap()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let block = &doc["query_block"];
    assert_eq!(block["r_loops"], 1);
    assert!(block["r_total_time_ms"].as_f64().unwrap() > 0.0);
    let table = &block["nested_loop"][0]["table"];
    assert_eq!(table["r_loops"], 1, "{json}");
    assert_eq!(table["r_rows"], 1000, "{json}");
    assert_eq!(table["r_filtered"], 10, "{json}");
    assert!(table["r_table_time_ms"].as_f64().is_some(), "{json}");
    // A lookup per row of the table before it: its reads are counted.
    let (_, rows) = outcome(
        &mut ours,
        "ANALYZE SELECT a.id FROM an a JOIN an b ON b.id = a.k * 100 WHERE a.id < 20",
    )
    .unwrap();
    assert_eq!(rows[0][9], "20.00", "{rows:?}");
    assert_eq!(rows[1][2], "b", "{rows:?}");
    assert_eq!(
        (rows[1][9].as_str(), rows[1][11].as_str()),
        ("1.00", "100.00")
    );
    // Changes run, their reads counted as MariaDB counts them.
    for sql in [
        "ANALYZE DELETE FROM an WHERE id > 997",
        "ANALYZE UPDATE an SET s = 'y' WHERE k = 3 AND id < 100",
        "ANALYZE INSERT INTO an VALUES (5000, 1, 'z')",
    ] {
        let (a, b) = (outcome(&mut ours, sql), outcome(&mut theirs, sql));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.0, b.0, "{sql}: columns");
        assert_eq!(measured(&a.1), measured(&b.1), "{sql}");
    }
    let state = "SELECT COUNT(*), SUM(s = 'y'), SUM(s = 'z') FROM an";
    let ours_state: (u64, u64, u64) = ours.query_first(state).unwrap().unwrap();
    let theirs_state: (u64, u64, u64) = theirs.query_first(state).unwrap().unwrap();
    assert_eq!(ours_state, theirs_state);
    assert_eq!(ours_state, (999, 10, 1));
    // EXPLAIN ANALYZE is not MariaDB's.
    assert_eq!(
        outcome(&mut ours, "EXPLAIN ANALYZE SELECT 1").map(|_| ()),
        Err(1064)
    );
}
