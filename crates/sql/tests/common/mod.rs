//! What the SQL-level tests share: an embedded session on a new engine.
use lineardb_sql::{Registry, Session};
use lineardb_table::{Engine, EngineConfig};
use std::sync::Arc;

/// A superuser session on a new engine with a `pool_mib` buffer pool in a
/// temporary directory (kept alive by the returned guard).
pub fn session(pool_mib: usize) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    let engine = Arc::new(
        Engine::open(
            &dir.path().join("t.ldb"),
            EngineConfig {
                pool_bytes: pool_mib << 20,
                ..EngineConfig::default()
            },
        )
        .unwrap(),
    );
    (dir, Session::new(engine, &Registry::new()))
}

/// Rows as integers (NULL as None), for comparing with expected values.
#[allow(dead_code)] // not every test binary uses it
pub fn ints(rows: &lineardb_sql::CollectSink) -> Vec<Vec<Option<i64>>> {
    rows.rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| v.to_text().map(|t| t.parse::<i64>().expect("an integer")))
                .collect()
        })
        .collect()
}
