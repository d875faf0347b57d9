//! Statement scripts run on lineardb and on the MariaDB oracle side by
//! side: each statement's outcome as text (its rows, column types or
//! changes, or its error), compared statement by statement.
use mysql::prelude::*;
use mysql::{Conn, Opts};

/// What an outcome shows besides the rows and the error code.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The rows.
    Rows,
    /// The column types and the rows. Integer widths are not kept yet
    /// (every integer column is a BIGINT on the wire), so INT reads as
    /// BIGINT on both sides.
    TypesAndRows,
    /// Affected rows, the info string, the rows, and the error's message.
    Changes,
    /// The column names and the rows.
    NamesAndRows,
    /// As `Changes`, with the insert id the OK packet carries.
    ChangesAndIds,
    /// Each result column's definition: type, character set, length,
    /// flags and decimals (not the rows).
    Metadata,
}

/// Runs `setup`, then `statements`, in a fresh database `db` of the server
/// at `url`; one outcome per statement.
pub fn outcomes(
    url: &str,
    db: &str,
    setup: &[&str],
    statements: &[&str],
    shown: Shown,
) -> Vec<String> {
    let mut c = Conn::new(Opts::from_url(url).unwrap()).unwrap();
    c.query_drop(format!("DROP DATABASE IF EXISTS {db}"))
        .unwrap();
    c.query_drop(format!("CREATE DATABASE {db}")).unwrap();
    c.query_drop(format!("USE {db}")).unwrap();
    for s in setup {
        c.query_drop(*s).unwrap();
    }
    statements
        .iter()
        .map(|sql| format!("{sql} -> {}", outcome(&mut c, sql, shown)))
        .collect()
}

fn outcome(c: &mut Conn, sql: &str, shown: Shown) -> String {
    let error = |e: mysql::Error| match e {
        mysql::Error::MySqlError(e) if matches!(shown, Shown::Changes | Shown::ChangesAndIds) => {
            format!("error {} {}", e.code, e.message)
        }
        mysql::Error::MySqlError(e) => format!("error {}", e.code),
        e => panic!("{sql}: {e}"),
    };
    let mut result = match c.query_iter(sql) {
        Ok(result) => result,
        Err(e) => return error(e),
    };
    let types: Vec<String> = result
        .columns()
        .as_ref()
        .iter()
        .map(|c| match format!("{:?}", c.column_type()) {
            t if t == "MYSQL_TYPE_LONG" => "MYSQL_TYPE_LONGLONG".to_string(),
            t => t,
        })
        .collect();
    let definitions: Vec<String> = result
        .columns()
        .as_ref()
        .iter()
        .map(|c| {
            format!(
                "{:?} charset {} length {} flags {:?} decimals {}",
                c.column_type(),
                c.character_set(),
                c.column_length(),
                c.flags(),
                c.decimals()
            )
        })
        .collect();
    let names: Vec<String> = result
        .columns()
        .as_ref()
        .iter()
        .map(|c| c.name_str().into_owned())
        .collect();
    let affected = result.affected_rows();
    let insert_id = result.last_insert_id();
    let info = result.info_str().into_owned();
    // An error may come while the rows are made.
    let rows: Result<Vec<String>, mysql::Error> = result
        .by_ref()
        .map(|r| r.map(|row| shown_row(&row.unwrap())))
        .collect();
    match (rows, shown) {
        (Err(e), _) => error(e),
        (Ok(rows), Shown::Rows) => format!("rows {rows:?}"),
        (Ok(_), Shown::Metadata) => format!("columns {definitions:?}"),
        (Ok(rows), Shown::TypesAndRows) => format!("types {types:?} rows {rows:?}"),
        (Ok(rows), Shown::Changes) => format!("affected {affected} info {info:?} rows {rows:?}"),
        (Ok(rows), Shown::NamesAndRows) => format!("names {names:?} rows {rows:?}"),
        (Ok(rows), Shown::ChangesAndIds) => {
            format!("affected {affected} id {insert_id:?} info {info:?} rows {rows:?}")
        }
    }
}

/// A row's values in full (the driver's own Debug cuts long strings).
fn shown_row(values: &[mysql::Value]) -> String {
    let shown: Vec<String> = values
        .iter()
        .map(|v| match v {
            mysql::Value::Bytes(b) => format!("Bytes({:?})", String::from_utf8_lossy(b)),
            other => format!("{other:?}"),
        })
        .collect();
    format!("[{}]", shown.join(", "))
}

/// Fails listing every statement whose outcomes differ.
pub fn assert_same(ours: &[String], theirs: &[String]) {
    assert_eq!(ours.len(), theirs.len());
    let differ: Vec<String> = ours
        .iter()
        .zip(theirs)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("lineardb: {a}\nMariaDB:  {b}"))
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}

/// Runs the script on `server` and on `mariadb` (each in a fresh database
/// `db`), fails listing the statements whose outcomes differ, and returns
/// lineardb's outcomes.
#[allow(dead_code)]
pub fn same_as_mariadb(
    server: &super::Server,
    mariadb: &super::mariadb::MariaDb,
    db: &str,
    setup: &[&str],
    statements: &[&str],
    shown: Shown,
) -> Vec<String> {
    let ours = outcomes(&server.url(""), db, setup, statements, shown);
    let theirs = outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        db,
        setup,
        statements,
        shown,
    );
    assert_same(&ours, &theirs);
    ours
}

/// [`same_as_mariadb`] (by rows) on `statements`, then every statement
/// but SHOW and those `left_out` again in a fresh database, compared by
/// affected rows, info and error messages ([`Shown::Changes`]).
#[allow(dead_code)]
pub fn same_rows_and_messages(
    server: &super::Server,
    mariadb: &super::mariadb::MariaDb,
    db: &str,
    setup: &[&str],
    statements: &[&str],
    left_out: &[&str],
) {
    same_as_mariadb(server, mariadb, db, setup, statements, Shown::Rows);
    let changes: Vec<&str> = statements
        .iter()
        .copied()
        .filter(|s| !s.starts_with("SHOW") && !left_out.contains(s))
        .collect();
    let db = format!("{db}_m");
    same_as_mariadb(server, mariadb, &db, setup, &changes, Shown::Changes);
}
