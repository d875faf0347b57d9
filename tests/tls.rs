//! TLS through real handshakes with the `mariadb`/`mysql` client: the
//! certificate a server makes on first start, one given with --ssl-cert and
//! --ssl-key (verified by the client), REQUIRE SSL accounts and
//! --require-secure-transport.
mod common;

use common::{text, Server};
use std::process::Output;

fn client(server: &Server, args: &[&str], sql: &str) -> Output {
    let mut c = server.mysql_cli();
    c.args(args).args(["-N", "-e", sql]);
    c.output().unwrap()
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn a_made_certificate_serves_tls_and_require_ssl_accounts_need_it() {
    let server = Server::start();
    // The certificate made on first start is kept with the data.
    assert!(server.datadir().join("server-cert.pem").exists());
    let status = ok(&client(
        &server,
        &["--ssl"],
        "SHOW STATUS LIKE 'Ssl_version'",
    ));
    assert!(status.starts_with("Ssl_version\tTLSv1."), "{status}");
    let cipher = ok(&client(
        &server,
        &["--ssl"],
        "SHOW STATUS LIKE 'Ssl_cipher'",
    ));
    assert!(cipher.trim().len() > "Ssl_cipher\t".len(), "{cipher}");
    let plain = ok(&client(
        &server,
        &["--skip-ssl"],
        "SHOW STATUS LIKE 'Ssl_version'",
    ));
    assert_eq!(plain, "Ssl_version\t\n");
    assert_eq!(ok(&client(&server, &[], "SELECT @@have_ssl")), "YES\n");

    server.sql("CREATE USER 'sec'@'%' IDENTIFIED BY 'pw' REQUIRE SSL");
    let as_sec = |tls: &str| {
        let mut c = std::process::Command::new(common::tool("mysql"));
        c.args([
            "-h",
            "127.0.0.1",
            "-P",
            &server.port.to_string(),
            "-u",
            "sec",
            "-ppw",
            tls,
        ])
        .args(["-N", "-e", "SELECT CURRENT_USER()"]);
        c.output().unwrap()
    };
    let refused = as_sec("--skip-ssl");
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("ERROR 1045 (28000)"),
        "{}",
        text(&refused.stderr)
    );
    ok(&as_sec("--ssl"));
}

#[test]
fn a_given_certificate_is_verified_by_the_client_and_plain_logins_can_be_refused() {
    // Make a certificate with one server, then give it to another.
    let first = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = (dir.path().join("c.pem"), dir.path().join("k.pem"));
    std::fs::copy(first.datadir().join("server-cert.pem"), &cert).unwrap();
    std::fs::copy(first.datadir().join("server-key.pem"), &key).unwrap();
    drop(first);
    let server = Server::start_with(&[
        "--ssl-cert",
        cert.to_str().unwrap(),
        "--ssl-key",
        key.to_str().unwrap(),
        "--require-secure-transport",
    ]);
    let verified = client(
        &server,
        &[
            "--ssl-ca",
            cert.to_str().unwrap(),
            "--ssl-verify-server-cert",
        ],
        "SELECT @@require_secure_transport",
    );
    assert_eq!(ok(&verified), "1\n");
    let plain = client(&server, &["--skip-ssl"], "SELECT 1");
    assert!(!plain.status.success());
    assert!(
        text(&plain.stderr).contains("ERROR 3159 (HY000)"),
        "{}",
        text(&plain.stderr)
    );
}

#[test]
fn results_and_statements_larger_than_the_tls_buffers_pass_whole() {
    // rustls buffers 64 KiB of plaintext; a statement and a result set well
    // beyond that must go through whole, in both directions.
    use std::io::Write;
    use std::process::Stdio;
    let server = Server::start();
    let through_stdin = |sql: &str| {
        let mut c = server.mysql_cli();
        c.args(["--ssl", "-N"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(sql.as_bytes())
            .unwrap();
        ok(&child.wait_with_output().unwrap())
    };
    let filler = "x".repeat(200_000);
    let out = through_stdin(&format!("SELECT LENGTH('{filler}'), REPEAT('y', 300000);"));
    let (length, repeated) = out.trim_end().split_once('\t').unwrap();
    assert_eq!(length, "200000");
    assert_eq!(repeated, "y".repeat(300_000));
    let rows: Vec<String> = (0..5000)
        .map(|i| format!("({i}, '{}')", "z".repeat(90)))
        .collect();
    through_stdin(&format!(
        "CREATE DATABASE big; CREATE TABLE big.t (id INT PRIMARY KEY, s VARCHAR(100)); \
         INSERT INTO big.t VALUES {};",
        rows.join(",")
    ));
    let all = ok(&client(&server, &["--ssl"], "SELECT id, s FROM big.t"));
    assert_eq!(all.lines().count(), 5000);
}
