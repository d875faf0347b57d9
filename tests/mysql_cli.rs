//! The `mysql` command-line client against a real `lineardb serve`: a
//! script of DDL, DML, queries and statements that must fail, with its
//! output and its errors compared with the reviewed expected text; and
//! logins with passwords (mysql_native_password) and database grants.
mod common;
use common::{repo_path, text, Server};
use std::io::Write;
use std::process::Stdio;

fn run_script(server: &Server, script: &str) -> (String, String) {
    let mut child = server
        .mysql_cli()
        .arg("--force")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (text(&out.stdout), text(&out.stderr))
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(repo_path(&format!("tests/sql/{name}"))).unwrap()
}

#[test]
fn script_output_matches_expected_text() {
    let server = Server::start();
    let script = expected("cli_script.sql");
    let (out, err) = run_script(&server, &script);
    assert_eq!(out, expected("cli_script.out"), "stdout differs");
    assert_eq!(err, expected("cli_script.err"), "stderr differs");
}

#[test]
fn passwords_and_database_grants() {
    let server = Server::start();
    server.sql(
        "CREATE USER joe IDENTIFIED BY 'pw1'; CREATE DATABASE d2; CREATE DATABASE d3; \
         GRANT SELECT, INSERT ON d2.* TO joe; CREATE TABLE d2.t (a INT PRIMARY KEY); \
         CREATE TABLE d3.t (a INT PRIMARY KEY)",
    );
    let as_joe = |password: &str, sql: &str| {
        server
            .mysql_cli()
            .args(["-u", "joe", &format!("-p{password}"), "-e", sql])
            .output()
            .unwrap()
    };
    let ok = as_joe(
        "pw1",
        "INSERT INTO d2.t VALUES (1), (2); SELECT SUM(a) FROM d2.t",
    );
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(text(&ok.stdout), "SUM(a)\n3\n");
    let bad = as_joe("pw2", "SELECT 1");
    assert!(text(&bad.stderr).contains("ERROR 1045 (28000): Access denied for user 'joe'"));
    let none = as_joe("", "SELECT 1");
    assert!(text(&none.stderr).contains("ERROR 1045"));
    let denied = as_joe("pw1", "DELETE FROM d2.t");
    assert!(
        text(&denied.stderr).contains("ERROR 1142 (42000)"),
        "{}",
        text(&denied.stderr)
    );
    let other_db = as_joe("pw1", "SELECT * FROM d3.t");
    assert!(text(&other_db.stderr).contains("ERROR 1142 (42000)"));
    let use_other = as_joe("pw1", "USE d3");
    assert!(text(&use_other.stderr).contains("ERROR 1044 (42000)"));
    // Nothing joe was refused changed anything.
    assert_eq!(server.sql("SELECT COUNT(*) FROM d2.t"), "COUNT(*)\n2\n");
    // A new password takes effect at the next login.
    server.sql("ALTER USER joe IDENTIFIED BY 'pw3'");
    assert!(text(&as_joe("pw1", "SELECT 1").stderr).contains("ERROR 1045"));
    assert!(as_joe("pw3", "SELECT 1").status.success());
    server.sql("DROP USER joe");
    assert!(text(&as_joe("pw3", "SELECT 1").stderr).contains("ERROR 1045"));
}
