//! Correlated `[NOT] EXISTS` in WHERE runs as a semi (anti) join: the
//! rows must be MariaDB's whatever way the join finds matches — an index
//! or primary-key lookup per row, a hash table of the inner table, a
//! nested loop when no equality connects them — with NULLs in the
//! correlated columns, outer rows that match several times, several
//! EXISTS in one WHERE, under a LEFT JOIN, over a derived table, with
//! grouping above, and beside conditions that stay in WHERE.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE o (id INT PRIMARY KEY, cust INT, status CHAR(1), total INT)",
    "INSERT INTO o VALUES (1, 10, 'F', 100), (2, 10, 'O', 200), (3, 20, 'F', 300), \
     (4, NULL, 'F', 400), (5, 30, 'O', 500), (6, 40, NULL, 600), (7, 20, 'O', 700)",
    "CREATE TABLE l (oid INT, ln INT, supp INT, shipped INT, due INT, PRIMARY KEY (oid, ln), \
     INDEX (supp))",
    "INSERT INTO l VALUES (1, 1, 5, 3, 4), (1, 2, 6, 5, 4), (1, 3, 5, 1, 1), (2, 1, 7, 2, 2), \
     (3, 1, 5, 9, 4), (3, 2, 5, 9, 9), (5, 1, NULL, 1, 2), (7, 1, 8, 4, 4), (7, 2, 9, 6, 5), \
     (9, 1, 5, 1, 1)",
    "CREATE TABLE c (cid INT, name VARCHAR(10), nation INT)",
    "INSERT INTO c VALUES (10, 'ann', 1), (20, 'bob', 2), (30, 'cy', 1), (50, 'dee', 3), \
     (NULL, 'eve', 2), (10, 'ann2', 2)",
    "CREATE TABLE n (nid INT PRIMARY KEY, nname VARCHAR(10))",
    "INSERT INTO n VALUES (1, 'one'), (2, 'two'), (3, 'three')",
];

const QUERIES: &[&str] = &[
    // One table outside; the inner one by its primary key's prefix.
    "SELECT id FROM o WHERE EXISTS (SELECT * FROM l WHERE l.oid = o.id) ORDER BY id",
    "SELECT id FROM o WHERE NOT EXISTS (SELECT * FROM l WHERE l.oid = o.id) ORDER BY id",
    // Inner conditions of its own and against the outer row.
    "SELECT id, total FROM o WHERE status = 'F' AND EXISTS \
     (SELECT 1 FROM l WHERE oid = id AND shipped > due) ORDER BY id",
    "SELECT id FROM o WHERE NOT EXISTS (SELECT 1 FROM l WHERE oid = id AND shipped > due) \
     ORDER BY id",
    // A secondary index, and NULL on either side of the equality.
    "SELECT cid, name FROM c WHERE EXISTS (SELECT * FROM o WHERE o.cust = c.cid) ORDER BY name",
    "SELECT cid, name FROM c WHERE NOT EXISTS (SELECT * FROM o WHERE o.cust = c.cid) \
     ORDER BY name",
    "SELECT id FROM o WHERE EXISTS (SELECT * FROM l WHERE l.supp = o.cust - 5) ORDER BY id",
    // No index on the inner side (a hash table), no equality (a loop).
    "SELECT id FROM o WHERE EXISTS (SELECT * FROM c WHERE c.cid = o.cust) ORDER BY id",
    "SELECT id FROM o WHERE NOT EXISTS (SELECT * FROM c WHERE c.cid = o.cust AND nation = 2) \
     ORDER BY id",
    "SELECT id FROM o WHERE EXISTS (SELECT * FROM c WHERE c.cid > o.cust + 25) ORDER BY id",
    "SELECT id FROM o WHERE NOT EXISTS (SELECT * FROM c WHERE c.cid < o.cust) ORDER BY id",
    // Q21's shape: the same table again, inequality beside the equality.
    "SELECT l1.oid, l1.ln FROM l l1 WHERE EXISTS (SELECT * FROM l l2 WHERE l2.oid = l1.oid \
     AND l2.supp <> l1.supp) AND NOT EXISTS (SELECT * FROM l l3 WHERE l3.oid = l1.oid \
     AND l3.supp <> l1.supp AND l3.shipped > l3.due) ORDER BY 1, 2",
    // In a join, with grouping and ordering above.
    "SELECT nname, COUNT(*) FROM c, n WHERE c.nation = n.nid AND EXISTS \
     (SELECT * FROM o WHERE o.cust = c.cid AND o.status = 'F') GROUP BY nname ORDER BY nname",
    "SELECT o.id, c.name FROM o JOIN c ON c.cid = o.cust WHERE NOT EXISTS \
     (SELECT * FROM l WHERE l.oid = o.id AND l.supp = 5) ORDER BY 1, 2",
    // Correlated with two outer tables at once.
    "SELECT o.id, c.name FROM o, c WHERE o.cust = c.cid AND EXISTS \
     (SELECT * FROM n WHERE n.nid = c.nation AND n.nid * 100 < o.total) ORDER BY 1, 2",
    // The outer side of a LEFT JOIN, NULL-extended rows included.
    "SELECT c.name, o.id FROM c LEFT JOIN o ON o.cust = c.cid WHERE NOT EXISTS \
     (SELECT * FROM l WHERE l.oid = o.id) ORDER BY 1, 2",
    "SELECT c.name, o.id FROM c LEFT JOIN o ON o.cust = c.cid WHERE EXISTS \
     (SELECT * FROM l WHERE l.oid = o.id OR o.id IS NULL) ORDER BY 1, 2",
    // A derived table outside; aggregates over the semi-joined rows.
    "SELECT d.id FROM (SELECT id, cust FROM o WHERE total > 150) d WHERE EXISTS \
     (SELECT * FROM c WHERE c.cid = d.cust) ORDER BY d.id",
    "SELECT status, COUNT(*), SUM(total) FROM o WHERE EXISTS \
     (SELECT * FROM l WHERE l.oid = o.id) GROUP BY status",
    "SELECT COUNT(*) FROM o WHERE NOT EXISTS (SELECT * FROM l WHERE l.oid = o.id)",
    // Not a plain conjunct: stays a subquery, same rows.
    "SELECT id FROM o WHERE total > 550 OR EXISTS (SELECT * FROM l WHERE l.oid = o.id AND \
     l.supp = 5) ORDER BY id",
    "SELECT id, EXISTS (SELECT * FROM l WHERE l.oid = o.id) AS e FROM o ORDER BY id",
    // The inner WHERE reads the outer row only.
    "SELECT id FROM o WHERE EXISTS (SELECT * FROM n WHERE o.status = 'O') ORDER BY id",
    "SELECT id FROM o WHERE NOT EXISTS (SELECT * FROM n WHERE o.total > 300) ORDER BY id",
    // Nested: the inner block's own EXISTS.
    "SELECT cid, name FROM c WHERE EXISTS (SELECT * FROM o WHERE o.cust = c.cid AND EXISTS \
     (SELECT * FROM l WHERE l.oid = o.id AND l.shipped > l.due)) ORDER BY name",
    // With LIMIT and DISTINCT above.
    "SELECT DISTINCT status FROM o WHERE EXISTS (SELECT * FROM l WHERE l.oid = o.id) \
     ORDER BY status",
    "SELECT id FROM o WHERE NOT EXISTS (SELECT * FROM l WHERE l.oid = o.id) ORDER BY id \
     LIMIT 2",
];

#[test]
fn exists_and_not_exists_as_joins_give_mariadbs_rows() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(&server, &mariadb, "semi", SETUP, QUERIES, Shown::Rows);
    // Not vacuous: the first query finds the orders with lines.
    assert!(
        ours[0].ends_with(r#"["[Bytes(\"1\")]", "[Bytes(\"2\")]", "[Bytes(\"3\")]", "[Bytes(\"5\")]", "[Bytes(\"7\")]"]"#),
        "{}",
        ours[0]
    );
}

/// A correlated subquery's results are kept per distinct values of the
/// outer columns it reads (not of the whole outer row): rows that share
/// those values and differ elsewhere, references two blocks out, and
/// TPC-H Q17's shape must give MariaDB's answers.
const KEPT_PER_VALUES: &[&str] = &[
    "SELECT o.id, (SELECT COUNT(*) FROM l WHERE l.oid = o.id) FROM o ORDER BY id",
    "SELECT o.id, o.cust, (SELECT MAX(total) FROM o o2 WHERE o2.cust = o.cust) FROM o \
     ORDER BY id",
    "SELECT c.name, (SELECT COUNT(*) FROM o WHERE o.cust = c.cid AND EXISTS (SELECT * FROM l \
     WHERE l.oid = o.id AND l.supp = c.nation + 4)) FROM c ORDER BY name",
    "SELECT c.name, c.nation, (SELECT COUNT(*) FROM n WHERE n.nid = c.nation) FROM c \
     ORDER BY name",
    "SELECT SUM(l.shipped) FROM l, o WHERE o.id = l.oid AND l.shipped < \
     (SELECT AVG(l2.shipped) FROM l l2 WHERE l2.oid = o.id)",
    "SELECT l.oid, l.ln FROM l WHERE l.due > (SELECT MIN(l2.due) FROM l l2 WHERE \
     l2.oid = l.oid AND l2.ln <> l.ln) ORDER BY 1, 2",
];

#[test]
fn correlated_subqueries_kept_per_the_values_they_read() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(
        &server,
        &mariadb,
        "kept",
        SETUP,
        KEPT_PER_VALUES,
        Shown::Rows,
    );
    assert!(
        ours[1].contains(r#"Bytes(\"10\"), Bytes(\"200\")"#),
        "{}",
        ours[1]
    );
}
