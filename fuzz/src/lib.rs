//! What the fuzz targets share: one engine per process, in a temporary
//! directory, holding a small database `f` (a table with a primary key, a
//! secondary index and a string column).
use lineardb_sql::{Registry, Session};
use lineardb_table::{Engine, EngineConfig};
use std::sync::{Arc, OnceLock};

pub struct Fixture {
    pub engine: Arc<Engine>,
    pub registry: Arc<Registry>,
    _dir: tempfile::TempDir,
}

/// The process's engine, made (with database `f`) on first use.
pub fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temporary directory");
        let config = EngineConfig {
            pool_bytes: 32 << 20,
            ..EngineConfig::default()
        };
        let engine =
            Arc::new(Engine::open(&dir.path().join("fuzz.ldb"), config).expect("open engine"));
        // Commits need not wait for the disk here.
        engine.set_flush_log_at_trx_commit(0);
        let registry = Registry::new();
        let fixture = Fixture {
            engine,
            registry,
            _dir: dir,
        };
        reset(&fixture);
        fixture
    })
}

/// Makes database `f` as the targets expect it (again, if an input
/// dropped or changed it).
pub fn reset(fixture: &Fixture) {
    let mut s = Session::new(fixture.engine.clone(), &fixture.registry);
    for sql in [
        "DROP DATABASE IF EXISTS f",
        "CREATE DATABASE f",
        "CREATE TABLE f.t (id INT PRIMARY KEY, a INT, b VARCHAR(20), c DECIMAL(10,2), \
         d DATETIME, KEY ka (a))",
        "INSERT INTO f.t VALUES (1, 10, 'one', 1.50, '2024-01-01 10:00:00'), \
         (2, 20, 'two', NULL, NULL), (3, NULL, 'three', -3.25, '1999-12-31 23:59:59'), \
         (4, 10, '', 0, '2000-02-29 00:00:00')",
    ] {
        s.query(sql).expect(sql);
    }
}
