//! Account statements against MariaDB 10.11 itself: the same script of
//! CREATE / ALTER / DROP / RENAME USER, SET PASSWORD, GRANT and REVOKE runs
//! on lineardb and on a private MariaDB server, and after each statement the
//! outcome (error code), the warnings and SHOW GRANTS of the accounts
//! involved must be the same. Then logins: wrong passwords, host patterns,
//! a locked account, and a grant change seen by an open session.
mod common;

use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts};

const SCRIPT: &[&str] = &[
    "CREATE DATABASE shop",
    "CREATE TABLE shop.t (id INT PRIMARY KEY, a INT, b INT)",
    "CREATE USER 'ann'@'%' IDENTIFIED BY 'pw'",
    "CREATE USER 'ann'@'%'",
    "CREATE USER IF NOT EXISTS 'ann'@'%'",
    "CREATE USER 'bob'@'localhost', 'ann'@'%', 'cat'@'10.0.%'",
    "SHOW GRANTS FOR 'bob'@'localhost'",
    "SHOW GRANTS FOR 'cat'@'10.0.%'",
    "GRANT SELECT, INSERT ON shop.* TO 'ann'@'%'",
    "GRANT UPDATE (a, b), SELECT (id) ON shop.t TO 'ann'@'%'",
    "GRANT DELETE ON shop.t TO 'ann'@'%' WITH GRANT OPTION",
    "GRANT RELOAD, PROCESS ON *.* TO 'ann'@'%'",
    "GRANT ALL ON shop.* TO 'bob'@'localhost'",
    "GRANT ALL PRIVILEGES ON *.* TO 'cat'@'10.0.%' WITH GRANT OPTION",
    "SHOW GRANTS FOR 'bob'@'localhost'",
    "SHOW GRANTS FOR 'cat'@'10.0.%'",
    "GRANT SELECT ON shop.* TO 'nobody'@'%'",
    "GRANT CREATE USER ON shop.* TO 'ann'@'%'",
    "GRANT SUPER ON shop.t TO 'ann'@'%'",
    "GRANT SELECT ON shop.nosuch TO 'ann'@'%'",
    "GRANT SELECT (zz) ON shop.t TO 'ann'@'%'",
    "REVOKE INSERT ON shop.* FROM 'ann'@'%'",
    "REVOKE UPDATE (b) ON shop.t FROM 'ann'@'%'",
    "REVOKE PROCESS ON *.* FROM 'ann'@'%'",
    "SHOW GRANTS FOR 'ann'@'%'",
    "REVOKE SELECT ON nosuch.* FROM 'ann'@'%'",
    "REVOKE SELECT ON shop.t FROM 'bob'@'localhost'",
    "REVOKE ALL PRIVILEGES, GRANT OPTION FROM 'cat'@'10.0.%'",
    "SHOW GRANTS FOR 'cat'@'10.0.%'",
    "SET PASSWORD FOR 'bob'@'localhost' = PASSWORD('b')",
    "SET PASSWORD FOR 'bob'@'localhost' = 'not-a-hash'",
    "SET PASSWORD FOR 'bob'@'localhost' = '*0000000000000000000000000000000000000000'",
    "SET PASSWORD FOR 'nobody'@'%' = PASSWORD('x')",
    "ALTER USER 'bob'@'localhost' IDENTIFIED BY 'b2' ACCOUNT LOCK",
    "SHOW CREATE USER 'bob'@'localhost'",
    "ALTER USER 'nobody'@'%' IDENTIFIED BY 'x'",
    "ALTER USER IF EXISTS 'nobody'@'%' IDENTIFIED BY 'x'",
    "RENAME USER 'cat'@'10.0.%' TO 'dog'@'%'",
    "RENAME USER 'nobody'@'%' TO 'x'@'%'",
    "RENAME USER 'ann'@'%' TO 'dog'@'%'",
    "SHOW GRANTS FOR 'dog'@'%'",
    "DROP USER 'dog'@'%', 'nobody'@'%'",
    "DROP USER 'dog'@'%'",
    "DROP USER IF EXISTS 'dog'@'%'",
    "CREATE USER 'eve'@'%' IDENTIFIED VIA ed25519 USING PASSWORD('x')",
    "CREATE OR REPLACE USER 'ann'@'%' IDENTIFIED BY 'new'",
    "SHOW GRANTS FOR 'ann'@'%'",
    "DROP USER 'ann'@'%', 'bob'@'localhost'",
];

#[test]
fn roles_are_refused_as_not_supported() {
    let server = Server::start();
    let mut root = connect(server.port, "root", "").unwrap();
    for sql in [
        "CREATE ROLE r1",
        "GRANT r1 TO root@localhost",
        "SET ROLE r1",
        "DROP ROLE r1",
    ] {
        match root.query_drop(sql) {
            Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1235, "{sql}: {}", e.message),
            other => panic!("{sql}: {other:?}"),
        }
    }
}

fn connect(port: u16, user: &str, password: &str) -> Result<Conn, mysql::Error> {
    Conn::new(Opts::from_url(&format!("mysql://{user}:{password}@127.0.0.1:{port}/")).unwrap())
}

/// The outcome of a statement: its rows (SHOW) or its error code.
fn run(c: &mut Conn, sql: &str) -> String {
    let result = match c.query::<mysql::Row, _>(sql) {
        Ok(rows) => rows
            .iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| match r.as_ref(i) {
                        Some(mysql::Value::Bytes(b)) => String::from_utf8_lossy(b).into_owned(),
                        other => format!("{other:?}"),
                    })
                    .collect::<Vec<_>>()
                    .join("\t")
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(mysql::Error::MySqlError(e)) => format!("ERROR {}", e.code),
        Err(e) => panic!("{sql}: {e}"),
    };
    result
}

#[test]
fn account_statements_match_mariadb() {
    let mariadb = MariaDb::start();
    let lineardb = Server::start();
    let mut m = connect(mariadb.port, "root", "").unwrap();
    let mut l = connect(lineardb.port, "root", "").unwrap();
    let mut differences = Vec::new();
    for sql in SCRIPT {
        let expected = run(&mut m, sql);
        let got = run(&mut l, sql);
        if expected != got {
            differences.push(format!(
                "{sql}\n  MariaDB:  {expected:?}\n  lineardb: {got:?}"
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} statements differ from MariaDB:\n{}",
        differences.len(),
        SCRIPT.len(),
        differences.join("\n")
    );
}

fn login_error(port: u16, user: &str, password: &str) -> Option<(u16, String)> {
    match connect(port, user, password) {
        Ok(_) => None,
        Err(mysql::Error::MySqlError(e)) => Some((e.code, e.message)),
        Err(e) => panic!("{user}: {e}"),
    }
}

#[test]
fn logins_match_mariadb() {
    let mariadb = MariaDb::start();
    let lineardb = Server::start();
    for port in [mariadb.port, lineardb.port] {
        let mut root = connect(port, "root", "").unwrap();
        for sql in [
            "CREATE USER 'pat'@'%' IDENTIFIED BY 'any'",
            "CREATE USER 'pat'@'localhost' IDENTIFIED BY 'local'",
            "CREATE USER 'lok'@'%' IDENTIFIED BY 'pw' ACCOUNT LOCK",
            "CREATE USER 'ssl'@'%' IDENTIFIED BY 'pw' REQUIRE SSL",
        ] {
            root.query_drop(sql).unwrap();
        }
    }
    for (user, password) in [
        // The most specific host wins: from loopback, pat@localhost.
        ("pat", "local"),
        ("pat", "any"),
        ("pat", ""),
        ("nobody", "x"),
        ("lok", "pw"),
        ("lok", "wrong"),
        ("ssl", "pw"),
    ] {
        assert_eq!(
            login_error(lineardb.port, user, password),
            login_error(mariadb.port, user, password),
            "login as {user} with '{password}'"
        );
    }
    // CURRENT_USER() is the account the login matched, USER() the client.
    let who = |port: u16, password: &str| -> (String, String) {
        connect(port, "pat", password)
            .unwrap()
            .query_first("SELECT CURRENT_USER(), USER()")
            .unwrap()
            .unwrap()
    };
    assert_eq!(who(lineardb.port, "local"), who(mariadb.port, "local"));
}

#[test]
fn a_revoke_reaches_open_sessions_at_their_next_statement() {
    let server = Server::start();
    let mut root = connect(server.port, "root", "").unwrap();
    for sql in [
        "CREATE DATABASE shop",
        "CREATE TABLE shop.t (id INT PRIMARY KEY)",
        "INSERT INTO shop.t VALUES (1)",
        "CREATE USER 'ann'@'%' IDENTIFIED BY 'pw'",
        "GRANT SELECT ON shop.* TO 'ann'@'%'",
    ] {
        root.query_drop(sql).unwrap();
    }
    let mut ann = connect(server.port, "ann", "pw").unwrap();
    let count = "SELECT COUNT(*) FROM shop.t";
    assert_eq!(ann.query_first::<u64, _>(count).unwrap(), Some(1));
    let prepared = ann.prep(count).unwrap();
    assert_eq!(ann.exec_first::<u64, _, _>(&prepared, ()).unwrap(), Some(1));
    root.query_drop("REVOKE SELECT ON shop.* FROM 'ann'@'%'")
        .unwrap();
    for r in [
        ann.query_first::<u64, _>(count).map(|_| ()),
        ann.exec_first::<u64, _, _>(&prepared, ()).map(|_| ()),
    ] {
        match r {
            Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1142, "{}", e.message),
            other => panic!("a revoked SELECT ran: {other:?}"),
        }
    }
    // SHOW PROCESSLIST without PROCESS: only ann's own threads.
    let users: Vec<String> = ann
        .query_map("SHOW PROCESSLIST", |row: mysql::Row| {
            row.get::<String, _>(1).unwrap()
        })
        .unwrap();
    assert!(
        !users.is_empty() && users.iter().all(|u| u == "ann"),
        "{users:?}"
    );
    let root_id: u64 = root.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    match ann.query_drop(format!("KILL {root_id}")) {
        Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1095),
        other => panic!("ann killed root's connection: {other:?}"),
    }
}
