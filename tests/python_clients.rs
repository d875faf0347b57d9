//! Python applications' libraries against a real `lineardb serve`:
//! SQLAlchemy 2 (Core, ORM with relationships and joins, reflection
//! through `inspect`) over PyMySQL, and pandas `to_sql`/`read_sql` of
//! 100,000 rows (`tests/python/sqlalchemy_pandas.py`; `.ci/run` installs
//! the packages). A missing package fails the test with the fix.
mod common;
use common::mariadb::MariaDb;
use common::{text, Server};
use std::process::Command;

#[test]
fn sqlalchemy_and_pandas_work_unchanged() {
    let found = Command::new("python3")
        .args(["-c", "import sqlalchemy, pymysql, pandas"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "python3 with sqlalchemy, pymysql and pandas is needed: \
         `pip install sqlalchemy pymysql pandas` (see .ci/run)"
    );
    let server = Server::start();
    run_script("sqlalchemy_pandas.py", &[server.port]);
}

/// Runs `tests/python/<script>` with the ports as arguments; fails with
/// its output unless it succeeds.
fn run_script(script: &str, ports: &[u16]) {
    let path = format!("{}/tests/python/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(path)
        .args(ports.iter().map(u16::to_string))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// The OK packets' status flags (IN_TRANS, IN_TRANS_READONLY), affected
/// rows with CLIENT_FOUND_ROWS and insert ids, as PyMySQL reads them from
/// lineardb and from MariaDB (`tests/python/wire_status.py`).
#[test]
fn ok_packets_read_as_mariadbs() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    run_script("wire_status.py", &[server.port, mariadb.port]);
}

/// The bytes of OK packets after the status for a client that tracks
/// session state (the tracked variables a SET changed, the database USE
/// chose), and the status flags of results (a table read whole, a
/// database dropped), beside MariaDB's (`tests/python/session_state.py`).
#[test]
fn session_state_is_reported_as_mariadbs() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    run_script("session_state.py", &[server.port, mariadb.port]);
}

/// Batches of several statements (CLIENT_MULTI_STATEMENTS), one with a
/// statement that does not parse and one with a statement that fails, as
/// PyMySQL reads them from lineardb and from MariaDB
/// (`tests/python/multi_statements.py`).
#[test]
fn statement_batches_run_as_mariadbs() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    run_script("multi_statements.py", &[server.port, mariadb.port]);
}
