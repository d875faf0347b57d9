//! Locking reads (SELECT ... FOR UPDATE, LOCK IN SHARE MODE, NOWAIT, SKIP
//! LOCKED) through a real `lineardb serve`, step by step beside a real
//! MariaDB 10.11 with two connections each: the same rows and the same
//! errors. Then TPC-C's new-order pattern (read a district's next order id
//! FOR UPDATE, write it back plus one) from several threads at once: every
//! id handed out exactly once, none lost.
mod common;
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

fn connect(url: &str) -> Conn {
    Conn::new(Opts::from_url(url).unwrap()).unwrap()
}

/// A statement's result as text: its rows, or its error code.
fn outcome(c: &mut Conn, sql: &str) -> String {
    match c.query::<mysql::Row, _>(sql) {
        Ok(rows) => rows
            .into_iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| match r.as_ref(i) {
                        Some(mysql::Value::NULL) | None => "NULL".to_string(),
                        Some(mysql::Value::Bytes(b)) => String::from_utf8_lossy(b).into_owned(),
                        Some(v) => v.as_sql(true),
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect::<Vec<_>>()
            .join(" "),
        Err(mysql::Error::MySqlError(e)) => format!("error {}", e.code),
        Err(e) => panic!("{sql}: {e}"),
    }
}

/// (connection, statement) steps, run in order on two connections.
const STEPS: &[(usize, &str)] = &[
    (
        0,
        "CREATE TABLE t (id INT PRIMARY KEY, k INT, v VARCHAR(10), KEY (k))",
    ),
    (
        0,
        "INSERT INTO t VALUES (1,10,'a'),(2,20,'b'),(3,20,'c'),(4,30,'d')",
    ),
    (0, "SELECT * FROM t WHERE id = 2 FOR UPDATE"),
    (
        0,
        "SELECT v FROM t WHERE k = 20 ORDER BY id DESC LIMIT 1 FOR UPDATE",
    ),
    (
        0,
        "SELECT x.v FROM t AS x WHERE x.k >= 20 ORDER BY x.v LIMIT 1, 2 LOCK IN SHARE MODE",
    ),
    (
        0,
        "SELECT COUNT(*), SUM(k) FROM t WHERE k > 10 LOCK IN SHARE MODE",
    ),
    (0, "SELECT * FROM t WHERE id = 99 FOR UPDATE"),
    (0, "SELECT DISTINCT k FROM t ORDER BY k FOR UPDATE"),
    // MariaDB 10.11 knows only the LOCK IN SHARE MODE spelling.
    (0, "SELECT * FROM t FOR SHARE"),
    // Connection 1 reads a snapshot, then connection 0 changes a row:
    // 1's plain read keeps the snapshot, its locking read sees the change.
    (1, "SET SESSION innodb_lock_wait_timeout = 1"),
    (1, "START TRANSACTION"),
    (1, "SELECT v FROM t WHERE id = 1"),
    (0, "UPDATE t SET v = 'z' WHERE id = 1"),
    (1, "SELECT v FROM t WHERE id = 1"),
    (1, "SELECT v FROM t WHERE id = 1 FOR UPDATE"),
    // 1 holds row 1: 0 is refused, skips it, or waits out the timeout.
    (0, "SET SESSION innodb_lock_wait_timeout = 1"),
    (0, "SELECT v FROM t WHERE id = 1 FOR UPDATE NOWAIT"),
    (0, "SELECT id FROM t ORDER BY id FOR UPDATE SKIP LOCKED"),
    // The row a WHERE clause fixes by its key, held: skipped, not waited for.
    (0, "SELECT v FROM t WHERE id = 1 FOR UPDATE SKIP LOCKED"),
    (0, "SELECT id FROM t WHERE id = 1 FOR UPDATE"),
    (0, "SELECT id FROM t WHERE id = 2 FOR UPDATE NOWAIT"),
    (1, "COMMIT"),
    (0, "SELECT v FROM t WHERE id = 1 FOR UPDATE NOWAIT"),
];

fn run_steps(url: &str) -> Vec<String> {
    let mut setup = connect(url);
    setup.query_drop("DROP DATABASE IF EXISTS lk").unwrap();
    setup.query_drop("CREATE DATABASE lk").unwrap();
    let db_url = format!("{url}lk");
    let mut conns = [connect(&db_url), connect(&db_url)];
    STEPS
        .iter()
        .map(|(c, sql)| format!("[{c}] {sql} -> {}", outcome(&mut conns[*c], sql)))
        .collect()
}

#[test]
fn locking_reads_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = run_steps(&server.url(""));
    let theirs = run_steps(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a, b, "lineardb (left) and MariaDB (right) differ");
    }
    // The steps do test something: a refusal, a skip and a timeout.
    let all = ours.join("\n");
    assert!(all.contains("FOR UPDATE NOWAIT -> error 1205"), "{all}");
    assert!(all.contains("SKIP LOCKED -> 2 3 4"), "{all}");
    assert!(all.contains("id = 1 FOR UPDATE -> error 1205"), "{all}");
}

#[test]
fn for_update_hands_out_each_order_id_once() {
    let server = Server::start();
    let mut c = connect(&server.url(""));
    c.query_drop("CREATE DATABASE tpcc").unwrap();
    c.query_drop("CREATE TABLE tpcc.district (d_id INT PRIMARY KEY, d_next_o_id INT)")
        .unwrap();
    c.query_drop("CREATE TABLE tpcc.orders (o_id INT PRIMARY KEY, d_id INT)")
        .unwrap();
    c.query_drop("INSERT INTO tpcc.district VALUES (1, 1)")
        .unwrap();
    const THREADS: usize = 4;
    const ORDERS: usize = 50;
    let url = server.url("tpcc");
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || {
                let mut c = connect(&url);
                for _ in 0..ORDERS {
                    let mut tx = c.start_transaction(Default::default()).unwrap();
                    let next: i64 = tx
                        .exec_first(
                            "SELECT d_next_o_id FROM district WHERE d_id = ? FOR UPDATE",
                            (1,),
                        )
                        .unwrap()
                        .unwrap();
                    tx.exec_drop(
                        "UPDATE district SET d_next_o_id = ? WHERE d_id = 1",
                        (next + 1,),
                    )
                    .unwrap();
                    // A duplicate id would fail here (1062).
                    tx.exec_drop("INSERT INTO orders VALUES (?, 1)", (next,))
                        .unwrap();
                    tx.commit().unwrap();
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let (count, max, next): (i64, i64, i64) = c
        .query_first(
            "SELECT (SELECT COUNT(*) FROM tpcc.orders), (SELECT MAX(o_id) FROM tpcc.orders), \
             (SELECT d_next_o_id FROM tpcc.district)",
        )
        .unwrap()
        .unwrap();
    let n = (THREADS * ORDERS) as i64;
    assert_eq!((count, max, next), (n, n, n + 1));
}
