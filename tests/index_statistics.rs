//! Index statistics through a real server: SHOW INDEX's Cardinality is the
//! number of distinct values of each index prefix (exact after ANALYZE
//! TABLE, estimated from a sample before it and again once a table has
//! grown), and the join order follows them: a key with few distinct values
//! makes lookups through it costly, one with many makes them cheap.
mod common;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

/// `n` rows (i, i % a, i % b) for i in 1..=n, into `table`.
fn fill(c: &mut Conn, table: &str, from: u32, n: u32, a: u32, b: u32) {
    c.query_drop(format!(
        "INSERT INTO {table} SELECT i, i % {a}, i % {b} FROM \
         (SELECT {from} + d1.i * 1000 + d2.i * 100 + d3.i * 10 + d4.i AS i \
          FROM digits d1, digits d2, digits d3, digits d4) n WHERE i < {from} + {n}"
    ))
    .unwrap();
}

/// (Key_name, Seq_in_index, Cardinality) of SHOW INDEX.
fn cardinality(c: &mut Conn, table: &str) -> Vec<(String, u32, Option<u64>)> {
    c.query_map(format!("SHOW INDEX FROM {table}"), |row: mysql::Row| {
        (
            row.get::<String, _>("Key_name").unwrap(),
            row.get::<u32, _>("Seq_in_index").unwrap(),
            row.get::<Option<u64>, _>("Cardinality").unwrap(),
        )
    })
    .unwrap()
}

/// (table, type, key, rows) of each EXPLAIN row.
fn plan(c: &mut Conn, sql: &str) -> Vec<(String, String, Option<String>, u64)> {
    c.query_map(format!("EXPLAIN {sql}"), |row: mysql::Row| {
        (
            row.get::<String, _>("table").unwrap(),
            row.get::<String, _>("type").unwrap(),
            row.get::<Option<String>, _>("key").unwrap(),
            row.get::<u64, _>("rows").unwrap(),
        )
    })
    .unwrap()
}

#[test]
fn cardinality_counts_distinct_prefixes_and_guides_join_order() {
    let server = Server::start();
    let mut c = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    c.query_drop("CREATE DATABASE st").unwrap();
    c.query_drop("USE st").unwrap();
    c.query_drop("CREATE TABLE digits (i INT PRIMARY KEY)")
        .unwrap();
    c.query_drop("INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)")
        .unwrap();
    // few: k takes 4 values; many: k takes 2,500.
    for (table, distinct) in [("few", 4), ("many", 2500)] {
        c.query_drop(format!(
            "CREATE TABLE {table} (id INT PRIMARY KEY, k INT, j INT, KEY k (k), KEY kj (k, j))"
        ))
        .unwrap();
        fill(&mut c, table, 1, 5000, distinct, 100);
    }
    c.query_drop("CREATE TABLE p (id INT PRIMARY KEY, v INT, w INT)")
        .unwrap();
    fill(&mut c, "p", 1, 50, 1000, 1000);

    // Before ANALYZE: estimated from a sample of each index.
    assert_eq!(cardinality(&mut c, "few")[1].2, Some(4));
    let sampled = cardinality(&mut c, "many")[1].2.unwrap();
    assert!((1250..=5000).contains(&sampled), "sampled: {sampled}");

    // Counted exactly: the distinct values of every prefix.
    let analyzed: Vec<(String, String, String, String)> = c
        .query_map("ANALYZE TABLE few, many, nothere", |row: mysql::Row| {
            (
                row.get(0).unwrap(),
                row.get(1).unwrap(),
                row.get(2).unwrap(),
                row.get(3).unwrap(),
            )
        })
        .unwrap();
    let ok = |t: &str| {
        (
            "st.".to_string() + t,
            "analyze".into(),
            "status".into(),
            "OK".into(),
        )
    };
    assert_eq!(analyzed[0], ok("few"));
    assert_eq!(analyzed[1], ok("many"));
    assert_eq!(analyzed[2].2, "Error");
    assert_eq!(analyzed[3].3, "Operation failed");
    let count_distinct = |c: &mut Conn, sql: &str| -> u64 { c.query_first(sql).unwrap().unwrap() };
    for table in ["few", "many"] {
        let k = count_distinct(&mut c, &format!("SELECT COUNT(DISTINCT k) FROM {table}"));
        let kj = count_distinct(&mut c, &format!("SELECT COUNT(DISTINCT k, j) FROM {table}"));
        assert_eq!(
            cardinality(&mut c, table),
            [
                ("PRIMARY".to_string(), 1, Some(5000)),
                ("k".to_string(), 1, Some(k)),
                ("kj".to_string(), 1, Some(k)),
                ("kj".to_string(), 2, Some(kj)),
            ],
            "{table}"
        );
    }

    // Lookups by a key of 4 values would meet 1,250 rows each: the big
    // table is read once and the small one hashed. By a key of 2,500
    // values, 2 rows each: the small table drives the lookups.
    let few = plan(&mut c, "SELECT * FROM p JOIN few ON few.k = p.v");
    assert_eq!(few[0].0, "few", "{few:?}");
    assert_eq!(few[1].1, "hash_ALL", "{few:?}");
    let many = plan(&mut c, "SELECT * FROM p JOIN many ON many.k = p.v");
    assert_eq!(many[0].0, "p", "{many:?}");
    assert_eq!((many[1].1.as_str(), many[1].3), ("ref", 2), "{many:?}");
    // Both plans give the rows the other would.
    let sum = |c: &mut Conn, t: &str| -> Option<u64> {
        c.query_first(format!("SELECT SUM(x.id) FROM p JOIN {t} x ON x.k = p.v"))
            .unwrap()
            .unwrap()
    };
    assert_eq!(sum(&mut c, "few"), {
        let s: Option<u64> = c
            .query_first("SELECT SUM(x.id) FROM p STRAIGHT_JOIN few x ON x.k = p.v")
            .unwrap()
            .unwrap();
        s
    });
    assert!(sum(&mut c, "many").is_some());

    // The table doubles with new keys: the counts are estimated again
    // without ANALYZE (a sample: near, not exact), then counted again.
    fill(&mut c, "few", 5001, 5000, 100_000, 100);
    let k_after = cardinality(&mut c, "few")[1].2.unwrap();
    assert!(k_after > 1000, "sampled k after growth: {k_after}");
    c.query_drop("ANALYZE TABLE few").unwrap();
    let exact = count_distinct(&mut c, "SELECT COUNT(DISTINCT k) FROM few");
    assert_eq!(cardinality(&mut c, "few")[1].2, Some(exact));
}
