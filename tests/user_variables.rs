//! User variables beside a real MariaDB 10.11: `SET @v = expr` and `:=`,
//! every SET value read before any is assigned, SET from a subquery, and
//! `@v := expr` inside SELECT and UPDATE, assigned row by row (the classic
//! row numbering), the variables kept for the statements after; SELECT ...
//! INTO @variables (1172, 1222, warning 1329).
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE u (id INT PRIMARY KEY, v INT, s VARCHAR(10))",
    "INSERT INTO u VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c'), (4, 40, 'd')",
];

const STEPS: &[&str] = &[
    "SET @n := 0",
    "SELECT @n := @n + 1 AS rn, id FROM u ORDER BY id",
    "SELECT @n",
    "SET @a := 5, @b = @a + 1",
    "SELECT @a, @b",
    "SET @s = (SELECT SUM(v) FROM u)",
    "SELECT @s",
    "SET @m = (SELECT MAX(id) FROM u WHERE v > 15)",
    "SELECT @m, @m + 1",
    "SELECT @t := v * 2, @t + 1 FROM u WHERE id = 2",
    "SELECT @t",
    "SET @x = 100",
    "UPDATE u SET v = (@x := @x + 1) WHERE id > 1",
    "SELECT * FROM u ORDER BY id",
    "SELECT @x",
    "SELECT @c := COUNT(*) FROM u",
    "SELECT @c",
    "SET @z = (SELECT id FROM u)",
    "SELECT @z := 5 + 1, @z",
    "SELECT @k := 'str', @k",
    "SET @run = 0",
    "SELECT id, @run := @run + v AS running FROM u ORDER BY id",
    // SELECT ... INTO @variables.
    "SELECT id, v INTO @i, @w FROM u WHERE id = 2",
    "SELECT @i, @w",
    "SELECT id INTO @i FROM u WHERE id = 99",
    "SHOW WARNINGS",
    "SELECT @i",
    "SELECT id INTO @i FROM u",
    "SELECT id, v INTO @i FROM u WHERE id = 2",
    "SELECT id INTO @i, @j FROM u WHERE id = 2",
    "SELECT SUM(v) INTO @total FROM u",
    "SELECT id INTO @i FROM u ORDER BY id DESC LIMIT 1",
    "SELECT @total, @i",
    "SELECT s FROM u WHERE id = 1 INTO @letter",
    "SHOW WARNINGS",
    "SELECT @letter",
];

#[test]
fn user_variables_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(&server, &mariadb, "uv", SETUP, STEPS, Shown::Changes);
    assert!(ours[1].contains(r#"Bytes(\"4\")"#), "{}", ours[1]);
}
