//! Real drivers and tools against lineardb and against MariaDB 10.11 side by
//! side: the programs under `tests/clients/` (Node mysql2, Go
//! go-sql-driver/mysql, MariaDB Connector/J, PHP PDO and mysqli, Django over
//! PyMySQL, the statements GUI tools send) print a transcript, one fact per
//! line; each runs against both servers and the two transcripts are compared
//! line by line.
//!
//! The lines where lineardb still answers otherwise are listed, as the diff
//! prints them (`- ` MariaDB's line, `+ ` lineardb's), in
//! `tests/clients/<client>/differences.txt`. A test fails when a difference
//! appears that is not listed (a regression or a new gap) and when a listed
//! one no longer occurs (the list is to shrink with each fix).
//! `LINEARDB_BLESS=1` writes the lists afresh from a run. `.ci/run` installs
//! the clients; a missing one fails its test with the fix.
mod common;
use common::mariadb::MariaDb;
use common::{repo_path, text, Server};
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn node_mysql2() {
    let modules = repo_path("tests/clients/node/node_modules");
    needs(
        modules.join("mysql2").exists(),
        "mysql2: `npm install --prefix tests/clients/node mysql2@3` (see .ci/run)",
    );
    compare("node", |port, db| {
        let mut c = Command::new("node");
        c.env("NODE_PATH", &modules)
            .arg(repo_path("tests/clients/node/mysql2_test.js"))
            .args(["127.0.0.1", &port.to_string(), db]);
        c
    });
}

#[test]
fn go_sql_driver() {
    let gopath = Path::new("/usr/share/gocode");
    needs(
        gopath.join("src/github.com/go-sql-driver/mysql").exists() && found("go"),
        "go and go-sql-driver/mysql: `apt-get install golang-go \
         golang-github-go-sql-driver-mysql-dev` (see .ci/run)",
    );
    let build = tempfile::tempdir().unwrap();
    let binary = build.path().join("driver_test");
    let out = Command::new("go")
        .env("GO111MODULE", "off")
        .env("GOPATH", gopath)
        .env("GOCACHE", build.path().join("cache"))
        .args(["build", "-o"])
        .arg(&binary)
        .arg(repo_path("tests/clients/go/driver_test_main.go"))
        .output()
        .unwrap();
    assert!(out.status.success(), "go build: {}", text(&out.stderr));
    compare("go", |port, db| {
        let mut c = Command::new(&binary);
        c.args(["127.0.0.1", &port.to_string(), db]);
        c
    });
}

#[test]
fn java_connector_j() {
    let jar = Path::new("/usr/share/java/mariadb-java-client.jar");
    needs(
        jar.exists() && found("javac"),
        "a JDK and MariaDB Connector/J: `apt-get install default-jdk-headless \
         libmariadb-java` (see .ci/run)",
    );
    let classes = tempfile::tempdir().unwrap();
    let out = Command::new("javac")
        .arg("-cp")
        .arg(jar)
        .arg("-d")
        .arg(classes.path())
        .arg(repo_path("tests/clients/java/ConnectorJTest.java"))
        .output()
        .unwrap();
    assert!(out.status.success(), "javac: {}", text(&out.stderr));
    let classpath = format!("{}:{}", classes.path().display(), jar.display());
    compare("java", |port, db| {
        let mut c = Command::new("java");
        c.args(["-cp", &classpath, "ConnectorJTest", "127.0.0.1"])
            .args([&port.to_string(), db]);
        c
    });
}

#[test]
fn php_pdo_and_mysqli() {
    needs(
        succeeds(
            "php",
            &[
                "-r",
                "exit(extension_loaded('pdo_mysql') && extension_loaded('mysqli') \
                 && extension_loaded('mbstring') ? 0 : 1);",
            ],
        ),
        "PHP with PDO, mysqli and mbstring: `apt-get install php-cli php-mysql php-mbstring` \
         (see .ci/run)",
    );
    compare("php", |port, db| {
        let mut c = Command::new("php");
        c.arg(repo_path("tests/clients/php/pdo_mysqli_test.php"))
            .args(["127.0.0.1", &port.to_string(), db]);
        c
    });
}

#[test]
fn django_orm() {
    needs(
        succeeds("python3", &["-c", "import django, pymysql"]),
        "Django and PyMySQL: `pip install 'django>=5.2,<5.3' pymysql` (see .ci/run)",
    );
    compare("django", |port, db| {
        let mut c = Command::new("python3");
        // Sets print in one order in both runs.
        c.env("PYTHONHASHSEED", "0")
            .arg(repo_path("tests/clients/django/run.py"))
            .args(["127.0.0.1", &port.to_string(), db]);
        c
    });
}

/// The statements DBeaver, MySQL Workbench, HeidiSQL and phpMyAdmin send
/// when they connect and browse a table, through the `mysql` client with
/// `--force`: the transcript is the errors, each with the line of its
/// statement (the rows name each server's own engines, character sets and
/// sizes, so they are not compared).
#[test]
fn gui_tools_metadata_queries() {
    compare("gui", |port, _db| {
        let script = format!(
            "mysql -h 127.0.0.1 -P {port} -u root -e \"DROP DATABASE IF EXISTS shop; $SHOP\" \
             && mysql --force -h 127.0.0.1 -P {port} -u root shop < {} > /dev/null",
            repo_path("tests/clients/gui/queries.sql").display()
        );
        let mut c = Command::new("sh");
        c.env("SHOP", SHOP).args(["-c", &script]);
        c
    });
}

/// The schema `tests/clients/gui/queries.sql` browses.
const SHOP: &str = "CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci; \
CREATE TABLE shop.customers (id INT NOT NULL AUTO_INCREMENT, name VARCHAR(100) NOT NULL, \
email VARCHAR(255) NULL, PRIMARY KEY (id)) ENGINE=InnoDB; \
CREATE TABLE shop.orders (id INT NOT NULL AUTO_INCREMENT, customer_id INT NOT NULL, \
created_at DATETIME NOT NULL, total DECIMAL(10,2) NOT NULL DEFAULT 0.00, note TEXT NULL, \
PRIMARY KEY (id), KEY idx_orders_created_at (created_at), KEY fk_orders_customer (customer_id), \
CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES shop.customers (id)) \
ENGINE=InnoDB; \
CREATE VIEW shop.v_customer_orders AS SELECT o.id AS order_id, c.name AS customer, \
o.created_at, o.total FROM shop.orders o JOIN shop.customers c ON c.id = o.customer_id; \
INSERT INTO shop.customers (name, email) VALUES ('Ann', 'ann@example.com'), ('Bob', NULL), \
('Cy', 'cy@example.com'); \
INSERT INTO shop.orders (customer_id, created_at, total) SELECT 1 + seq % 3, \
'2024-01-01' + INTERVAL seq DAY, seq * 1.5 FROM (WITH RECURSIVE s(seq) AS (SELECT 1 UNION ALL \
SELECT seq + 1 FROM s WHERE seq < 30) SELECT seq FROM s) AS n;";

/// Fails the test with how to install a missing client.
fn needs(present: bool, what: &str) {
    assert!(present, "{what} is needed for this test");
}

fn found(program: &str) -> bool {
    succeeds("sh", &["-c", &format!("command -v {program}")])
}

/// Whether `program` runs with `args` and exits with success.
fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs the client against MariaDB and against lineardb (each on a
/// database of its own) and checks the differences between the two
/// transcripts against `tests/clients/<client>/differences.txt`.
fn compare(client: &str, command: impl Fn(u16, &str) -> Command) {
    let mariadb = MariaDb::start();
    let server = Server::start();
    let db = format!("{client}_check");
    let theirs = transcript(command(mariadb.port, &db), mariadb.port);
    // Against MariaDB the program itself must run through: a step failing
    // there is the program's or its setup's fault, and would hide
    // lineardb's answers behind the same failure on both sides.
    let broken: Vec<&String> = theirs.iter().filter(|l| l.contains("UNEXPECTED")).collect();
    assert!(
        broken.is_empty(),
        "{client}: steps failing against MariaDB:\n{}",
        join(&broken)
    );
    let ours = transcript(command(server.port, &db), server.port);
    let found = differences(&theirs, &ours);
    let listed_at = repo_path(&format!("tests/clients/{client}/differences.txt"));
    if std::env::var_os("LINEARDB_BLESS").is_some() {
        write_list(&listed_at, &found);
        return;
    }
    let listed = read_list(&listed_at);
    let new: Vec<&String> = found.iter().filter(|d| !listed.contains(d)).collect();
    let gone: Vec<&String> = listed.iter().filter(|d| !found.contains(d)).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "{client}: {} of {} lines differ from MariaDB's transcript.\n\
         Differences not listed in {} (a regression or a new gap):\n{}\n\
         Listed differences that no longer occur (remove them from the list):\n{}",
        found.len(),
        theirs.len().max(ours.len()),
        listed_at.display(),
        join(&new),
        join(&gone),
    );
    eprintln!(
        "{client}: {} of {} lines differ from MariaDB's, all listed",
        found.iter().filter(|d| d.starts_with("- ")).count(),
        theirs.len()
    );
}

/// The program's output, standard error after standard output, with the
/// server's port written as PORT so that the two runs compare.
fn transcript(mut command: Command, port: u16) -> Vec<String> {
    let out = command.output().unwrap();
    let port = port.to_string();
    let mut in_traceback = false;
    text(&out.stdout)
        .lines()
        .chain(text(&out.stderr).lines())
        // A Python traceback's frames name files where each machine keeps
        // them: its last line, the exception, is kept.
        .filter(|l| {
            if *l == "Traceback (most recent call last):" {
                in_traceback = true;
            } else if in_traceback && !l.starts_with(' ') {
                in_traceback = false;
                return true;
            }
            !in_traceback
        })
        .map(|l| whole_number_replaced(l, &port, "PORT"))
        .chain(std::iter::once(format!(
            "exit status {:?}",
            out.status.code()
        )))
        .collect()
}

/// `line` with each occurrence of the number `n` that stands alone (no
/// digit either side) written as `by`: a port, not digits inside a value.
fn whole_number_replaced(line: &str, n: &str, by: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(n) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + n.len()..].chars().next();
        let alone = !before.is_some_and(|c| c.is_ascii_digit())
            && !after.is_some_and(|c| c.is_ascii_digit());
        out.push_str(&rest[..at]);
        out.push_str(if alone { by } else { n });
        rest = &rest[at + n.len()..];
    }
    out.push_str(rest);
    out
}

/// The lines of a shortest edit from `theirs` to `ours`, as a diff prints
/// them: `- ` for a line only MariaDB printed, `+ ` for one only lineardb
/// printed, in transcript order (the longest common subsequence).
fn differences(theirs: &[String], ours: &[String]) -> Vec<String> {
    let (n, m) = (theirs.len(), ours.len());
    // common[i][j]: the longest common subsequence of theirs[i..] and ours[j..].
    let mut common = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            common[i][j] = if theirs[i] == ours[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut lines = Vec::new();
    while i < n || j < m {
        if i < n && j < m && theirs[i] == ours[j] {
            i += 1;
            j += 1;
        } else if j == m || (i < n && common[i + 1][j] >= common[i][j + 1]) {
            lines.push(format!("- {}", theirs[i]));
            i += 1;
        } else {
            lines.push(format!("+ {}", ours[j]));
            j += 1;
        }
    }
    lines
}

/// The listed differences: the file's lines that start with `- ` or `+ `
/// (other lines are comments).
fn read_list(path: &PathBuf) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("- ") || l.starts_with("+ "))
        .map(str::to_string)
        .collect()
}

fn write_list(path: &PathBuf, found: &[String]) {
    let mut body = String::from(
        "# Lines where lineardb's transcript still differs from MariaDB's\n\
         # (`- ` MariaDB's line, `+ ` lineardb's), checked by tests/client_programs.rs.\n",
    );
    for line in found {
        body.push_str(line);
        body.push('\n');
    }
    std::fs::write(path, body).unwrap();
}

fn join(lines: &[&String]) -> String {
    if lines.is_empty() {
        return "  (none)".into();
    }
    lines
        .iter()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
