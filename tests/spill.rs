//! Queries past their memory budget spill to temporary files and give
//! MariaDB's rows: ORDER BY sorts runs to files and merges them, GROUP BY
//! sends the rows of groups it cannot hold to a file sorted by group and
//! merges them with the groups it holds (in MariaDB's group order),
//! DISTINCT sends the rows of keys it cannot hold to a file and, at the
//! end, each key's first row in the order they came, and ORDER BY … LIMIT
//! keeps only the rows it may send, a hash join cuts both its sides into
//! partitions by key and joins one partition at a time; set operations
//! cut the keys they hold and the rows still to decide into partitions by
//! key, and window functions sort their rows on disk and compute one
//! partition at a time. The budget is set per
//! statement by a hint (a comment to MariaDB); `Lineardb_spilled_rows`
//! shows whether rows went to a file.
mod common;
use common::differential::{assert_same, outcomes, same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;

const SETUP: &[&str] = &[
    "CREATE TABLE d (n INT PRIMARY KEY)",
    "INSERT INTO d VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)",
    "CREATE TABLE t (id INT PRIMARY KEY, g INT, k INT, s VARCHAR(20), v DECIMAL(10,2), \
     dt DATE, x DOUBLE)",
    "INSERT INTO t SELECT a.n * 1000 + b.n * 100 + c.n * 10 + e.n, \
     CASE WHEN (a.n + c.n) % 7 = 0 THEN NULL ELSE (a.n * 1000 + b.n * 100 + c.n * 10 + e.n) * 37 % 3001 END, \
     (b.n * 3 + e.n) % 11, \
     CONCAT('s', (a.n * 1000 + b.n * 100 + c.n * 10 + e.n) * 53 % 1999), \
     ((a.n * 1000 + b.n * 100 + c.n * 10 + e.n) * 7 % 1000) / 8, \
     DATE_ADD('2020-01-01', INTERVAL (a.n * 1000 + b.n * 100 + c.n * 10 + e.n) % 900 DAY), \
     (a.n * 1000 + b.n * 100 + c.n * 10 + e.n) % 97 * 0.25 \
     FROM d a, d b, d c, d e",
    "INSERT INTO t SELECT id + 10000, g, k, s, v, dt, x FROM t",
    "CREATE TABLE u (g INT PRIMARY KEY, label VARCHAR(10))",
    "INSERT INTO u SELECT a.n * 100 + b.n * 10 + c.n, CONCAT('L', (a.n * 100 + b.n * 10 + c.n) % 13) \
     FROM d a, d b, d c",
];

/// (query after SELECT, memory budget in KiB, whether it must spill): 64
/// KiB is far less than each query holds.
const QUERIES: &[(&str, usize, bool)] = &[
    // Sorts of every row, ties kept in the order rows came.
    ("id, s, v FROM t ORDER BY s, id", 64, true),
    ("id, g, x FROM t ORDER BY g DESC, v, id", 64, true),
    ("s, dt FROM t WHERE k < 5 ORDER BY dt DESC, s, id", 64, true),
    // ORDER BY … LIMIT keeps only the rows it may send.
    (
        "id, v FROM t ORDER BY v DESC, id LIMIT 10 OFFSET 5",
        64,
        false,
    ),
    ("id FROM t ORDER BY x, id LIMIT 3000", 64, true),
    // DISTINCT past the budget: each row's first appearance, in order.
    ("DISTINCT g, k FROM t", 64, true),
    ("DISTINCT s FROM t WHERE k > 2", 64, true),
    ("DISTINCT dt, k FROM t LIMIT 2000", 64, true),
    // DISTINCT after ORDER BY: the keys past the budget spill too.
    ("DISTINCT s, k FROM t ORDER BY k DESC, s", 64, true),
    ("DISTINCT s, g FROM t ORDER BY g, s LIMIT 5000", 64, true),
    // Groups that do not fit: listed by key without ORDER BY.
    (
        "g, COUNT(*), SUM(v), MIN(s), MAX(dt), AVG(v), COUNT(k), MAX(x) FROM t GROUP BY g",
        64,
        true,
    ),
    ("s, COUNT(DISTINCT k), SUM(id) FROM t GROUP BY s", 64, true),
    (
        "g, k, COUNT(*), MAX(id) FROM t WHERE id % 3 = 0 GROUP BY g, k",
        64,
        true,
    ),
    (
        "g, GROUP_CONCAT(k ORDER BY k SEPARATOR '') FROM t GROUP BY g HAVING COUNT(*) > 6",
        64,
        true,
    ),
    // Then sorted, or cut by LIMIT.
    (
        "g, SUM(v) AS total FROM t GROUP BY g ORDER BY total DESC, g LIMIT 20",
        64,
        true,
    ),
    (
        "dt, COUNT(*) FROM t GROUP BY dt ORDER BY COUNT(*), dt",
        64,
        true,
    ),
    // Over a join (t read first, u looked up by its key: no hash table).
    (
        "STRAIGHT_JOIN u.label, t.g, COUNT(*), SUM(t.v) FROM t JOIN u ON u.g = t.g \
         GROUP BY u.label, t.g",
        64,
        true,
    ), // Hash joins whose tables do not fit: both sides cut into partitions
    // by key, joined a partition at a time (aggregates: the order of the
    // joined rows does not show).
    (
        "COUNT(*), SUM(a.id * 3 + b.id), MAX(b.s) FROM t a JOIN t b \
         ON a.s = b.s AND a.k = b.k WHERE a.id < b.id",
        64,
        true,
    ),
    (
        "COUNT(*), COUNT(u.g), SUM(t.id * (u.g IS NULL)), MIN(u.label) FROM t \
         LEFT JOIN u ON u.label = CONCAT('L', t.g % 20)",
        64,
        true,
    ),
    (
        "COUNT(*), SUM(a.id) FROM t a WHERE NOT EXISTS \
         (SELECT 1 FROM t b WHERE b.x = a.x AND b.k = a.k AND b.id < a.id)",
        64,
        true,
    ),
    (
        "COUNT(*), SUM(a.id) FROM t a WHERE EXISTS \
         (SELECT 1 FROM t b WHERE b.s = a.s AND b.k <> a.k)",
        64,
        true,
    ),
    (
        "a.id, b.id FROM t a JOIN t b ON a.s = b.s WHERE a.k = 1 AND b.k = 2 \
         ORDER BY a.id, b.id",
        64,
        true,
    ),
    // Keys with more rows than the budget holds (t.k has 11 values): a
    // partition is joined part by part, remembering which rows matched.
    (
        "u.label, COUNT(*), SUM(t.v) FROM u JOIN t ON t.k = u.g % 11 GROUP BY u.label",
        64,
        true,
    ),
    (
        "COUNT(*), COUNT(b.id), SUM(a.g), SUM(b.id) FROM u a LEFT JOIN t b ON b.k = a.g % 17",
        64,
        true,
    ),
    (
        "COUNT(*), SUM(g) FROM u WHERE NOT EXISTS \
         (SELECT 1 FROM t WHERE t.k = u.g % 17 AND t.id > u.g * 20)",
        64,
        true,
    ),
    (
        "COUNT(*), SUM(g) FROM u WHERE EXISTS \
         (SELECT 1 FROM t WHERE t.k = u.g % 17 AND t.id > u.g * 20)",
        64,
        true,
    ),
];

/// Rows the session has written to spill files so far.
fn spilled_rows(c: &mut mysql::Conn) -> u64 {
    let row: Option<(String, u64)> = c
        .query_first("SHOW SESSION STATUS LIKE 'Lineardb_spilled_rows'")
        .unwrap();
    row.unwrap().1
}

/// Checks each statement spills (or not) as `spills` says.
fn check_spills<'a>(c: &mut mysql::Conn, statements: impl Iterator<Item = (&'a str, bool)>) {
    for (statement, spills) in statements {
        let before = spilled_rows(c);
        let _: Vec<mysql::Row> = c.query(statement).unwrap();
        let after = spilled_rows(c);
        assert_eq!(
            after > before,
            spills,
            "{statement}: {} rows spilled",
            after - before
        );
    }
}

fn hint(kib: usize) -> String {
    format!("/*+ SET_VAR(lineardb_query_memory = {}) */", kib << 10)
}

#[test]
fn sorts_and_groups_past_the_budget_spill_and_give_mariadbs_rows() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let statements: Vec<String> = QUERIES
        .iter()
        .map(|(q, kib, _)| format!("SELECT {} {q}", hint(*kib)))
        .collect();
    let refs: Vec<&str> = statements.iter().map(String::as_str).collect();
    same_as_mariadb(&server, &mariadb, "sp", SETUP, &refs, Shown::Rows);

    let mut c = mysql::Conn::new(mysql::Opts::from_url(&server.url("sp")).unwrap()).unwrap();
    for (statement, (_, kib, spills)) in statements.iter().zip(QUERIES) {
        check_spills(&mut c, std::iter::once((statement.as_str(), *spills)));
        let after = spilled_rows(&mut c);
        // Within the default budget nothing spills.
        let plain = statement.replace(&hint(*kib), "");
        let _: Vec<mysql::Row> = c.query(&plain).unwrap();
        assert_eq!(spilled_rows(&mut c), after, "{plain}");
    }
}

#[test]
fn an_aggregate_on_threads_over_the_budget_runs_on_one_thread_and_spills() {
    let server = Server::start();
    let mut c = mysql::Conn::new(mysql::Opts::from_url(&server.url("")).unwrap()).unwrap();
    c.query_drop("CREATE DATABASE th").unwrap();
    c.query_drop("USE th").unwrap();
    for s in SETUP {
        c.query_drop(s).unwrap();
    }
    let query = "SELECT g, COUNT(*), SUM(v) FROM t GROUP BY g";
    let expected: Vec<(Option<i64>, i64, String)> = c.query(query).unwrap();
    let hinted = "SELECT /*+ SET_VAR(lineardb_query_memory = 65536) \
                  SET_VAR(lineardb_parallel_min_rows = 1000) */ g, COUNT(*), SUM(v) FROM t GROUP BY g";
    let got: Vec<(Option<i64>, i64, String)> = c.query(hinted).unwrap();
    assert_eq!(got, expected);
    let row: Option<(String, u64)> = c
        .query_first("SHOW SESSION STATUS LIKE 'Lineardb_spilled_rows'")
        .unwrap();
    assert!(row.unwrap().1 > 0);
}

/// Set operations and window functions past the budget (set for the
/// session: a hint covers one query block): what spills, and MariaDB's
/// rows.
const SESSION_QUERIES: &[(&str, bool)] = &[
    (
        "SELECT s, k FROM t WHERE id < 15000 EXCEPT SELECT s, k FROM t WHERE k > 5 \
         ORDER BY s, k",
        true,
    ),
    (
        "SELECT g, k FROM t EXCEPT ALL SELECT g, k FROM t WHERE id % 3 = 0 ORDER BY g, k",
        true,
    ),
    (
        "SELECT g, dt FROM t INTERSECT SELECT g, dt FROM t WHERE k < 4 ORDER BY g, dt",
        true,
    ),
    (
        "SELECT k, s FROM t INTERSECT ALL SELECT k, s FROM t WHERE id >= 10000 ORDER BY k, s",
        true,
    ),
    (
        "SELECT s, dt FROM t UNION SELECT label, NULL FROM u ORDER BY s, dt",
        true,
    ),
    (
        "SELECT COUNT(*), SUM(k), MIN(s), MAX(s) FROM \
         (SELECT s, k FROM t UNION SELECT s, k + 1 FROM t) x",
        true,
    ),
    ("SELECT k FROM t UNION SELECT k FROM t ORDER BY k", false),
    (
        "SELECT id, ROW_NUMBER() OVER (PARTITION BY s ORDER BY id), \
         SUM(v) OVER (PARTITION BY s ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) \
         FROM t ORDER BY id",
        true,
    ),
    (
        "SELECT id, RANK() OVER (PARTITION BY s ORDER BY k), \
         LAG(id) OVER (PARTITION BY dt ORDER BY id), COUNT(*) OVER (PARTITION BY id % 500), \
         FIRST_VALUE(s) OVER (PARTITION BY dt ORDER BY id DESC) FROM t ORDER BY id",
        true,
    ),
    (
        "SELECT s, k, id, DENSE_RANK() OVER (PARTITION BY s ORDER BY k DESC) FROM t \
         WHERE id < 5000 ORDER BY s, k, id",
        true,
    ),
];

#[test]
fn set_operations_and_windows_past_the_budget_spill_and_give_mariadbs_rows() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let statements: Vec<&str> = SESSION_QUERIES.iter().map(|(q, _)| *q).collect();
    let theirs = outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        "so",
        SETUP,
        &statements,
        Shown::Rows,
    );
    let budget = "SET SESSION lineardb_query_memory = 262144";
    let mut small_setup = SETUP.to_vec();
    small_setup.push(budget);
    for setup in [SETUP.to_vec(), small_setup] {
        let ours = outcomes(&server.url(""), "so", &setup, &statements, Shown::Rows);
        assert_same(&ours, &theirs);
    }
    let mut c = mysql::Conn::new(mysql::Opts::from_url(&server.url("so")).unwrap()).unwrap();
    c.query_drop(budget).unwrap();
    check_spills(&mut c, SESSION_QUERIES.iter().map(|(q, s)| (*q, *s)));
    // One window partition bigger than the budget: a clear error, and the
    // connection goes on.
    let e = c
        .query::<mysql::Row, _>("SELECT id, SUM(id) OVER (ORDER BY id) FROM t")
        .unwrap_err();
    assert!(
        matches!(&e, mysql::Error::MySqlError(m) if m.code == 1038),
        "{e}"
    );
    let n: Option<i64> = c.query_first("SELECT COUNT(*) FROM t").unwrap();
    assert_eq!(n, Some(20000));
}
