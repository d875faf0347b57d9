//! The redo log under faults and over time: a failed sync, a short write
//! or a full disk fails the commit with a clear error and stops all later
//! changes (the log is poisoned) without losing what committed before;
//! after a reopen the database is consistent. Checkpoints give back the
//! log's space without losing anything.
use lineardb_table::{ColumnDef, DataType, Engine, EngineConfig, TableSpec, Value};
use lineardb_txn::ReadView;
use lineardb_wal::{FaultPlan, FaultyFile};
use std::path::Path;
use std::sync::Arc;

fn small_pool() -> EngineConfig {
    EngineConfig {
        page_size: 4096,
        pool_bytes: 4096 * 256,
        max_pages: 1 << 20,
    }
}

fn open_faulty(path: &Path, plan: &Arc<FaultPlan>) -> Engine {
    let log = FaultyFile::open(&path.with_extension("redo"), plan).unwrap();
    Engine::open_with_log(path, small_pool(), Box::new(log)).unwrap()
}

fn make_table(engine: &Engine) -> Arc<lineardb_table::Table> {
    engine.create_database("db", true).unwrap();
    engine
        .create_table(
            TableSpec::new("db", "t")
                .column(ColumnDef::new("id", DataType::Int { unsigned: false }).not_null())
                .column(ColumnDef::new("v", DataType::VarChar(40)))
                .primary_key(&["id"])
                .index("v", &["v"], false),
        )
        .unwrap()
}

fn row(id: i64) -> Vec<Option<Value>> {
    vec![
        Some(Value::Int(id)),
        Some(Value::str(&format!("value {id}"))),
    ]
}

fn ids(engine: &Engine) -> Vec<i64> {
    let t = engine.table("db", "t").unwrap();
    let mut out = Vec::new();
    t.scan_primary(
        &ReadView::latest(),
        &lineardb_table::KeyRange::all(),
        |_, r| {
            out.push(r.int(0));
            true
        },
    )
    .unwrap();
    assert_eq!(t.check().unwrap(), out.len() as u64, "indexes agree");
    out
}

/// Switches the fault named `fault` of `plan` on or off.
fn set_fault(plan: &FaultPlan, fault: &str, on: bool) {
    match fault {
        "fail_sync" => plan.fail_sync.set(on),
        "short_write" => plan.short_write.set(on),
        "disk_full" => plan.disk_full.set(on),
        other => panic!("no fault {other}"),
    }
}

#[test]
fn log_faults_fail_commits_and_lose_nothing_committed() {
    for fault in ["fail_sync", "short_write", "disk_full"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.ldb");
        let plan = Arc::new(FaultPlan::default());
        {
            let engine = open_faulty(&path, &plan);
            let t = make_table(&engine);
            let mut txn = engine.begin();
            for id in 0..200 {
                t.insert(&mut txn, row(id)).unwrap();
            }
            txn.commit().unwrap();
            set_fault(&plan, fault, true);
            let mut txn = engine.begin();
            t.insert(&mut txn, row(1000)).unwrap();
            let e = lineardb_table::Error::from(txn.commit().unwrap_err());
            // A full disk is MySQL's 1021 (ER_DISK_FULL); other faults of
            // the log are 1030 (an error from the storage engine).
            let (code, says) = match fault {
                "disk_full" => (1021, "disk full"),
                _ => (1030, "redo log"),
            };
            assert_eq!(e.mysql_code(), code, "{fault}: {e}");
            assert!(e.to_string().contains(says), "{fault}: {e}");
            // The fault is gone, but the log stays closed for changes until
            // the database is reopened (a failed fsync may have lost data).
            set_fault(&plan, fault, false);
            let mut txn = engine.begin();
            let later = t
                .insert(&mut txn, row(1001))
                .and_then(|_| Ok(txn.commit()?));
            assert!(
                later.is_err(),
                "{fault}: a change after the fault succeeded"
            );
            // Reads still work.
            assert!(t
                .get(&ReadView::latest(), &[Value::Int(7)])
                .unwrap()
                .is_some());
        }
        let engine = Engine::open(&path, small_pool()).unwrap();
        let got = ids(&engine);
        let committed: Vec<i64> = (0..200).collect();
        assert_eq!(&got[..200], &committed[..], "{fault}: committed rows lost");
        // The failed commit's outcome was unknown to the client: its row
        // may be there (the bytes reached the file) or not; nothing else.
        assert!(got[200..].iter().all(|&i| i == 1000), "{fault}: {got:?}");
        // The reopened database takes changes again.
        let t = engine.table("db", "t").unwrap();
        let mut txn = engine.begin();
        t.insert(&mut txn, row(2000)).unwrap();
        txn.commit().unwrap();
    }
}

#[test]
fn checkpoints_give_back_log_space_and_keep_everything() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.ldb");
    {
        let engine = Engine::open(&path, small_pool()).unwrap();
        let t = make_table(&engine);
        for round in 0..5 {
            let mut txn = engine.begin();
            for id in round * 2000..(round + 1) * 2000 {
                t.insert(&mut txn, row(id)).unwrap();
            }
            txn.commit().unwrap();
            engine.checkpoint().unwrap();
        }
        let log = engine.log_stats();
        assert!(
            log.first > log.appended / 2,
            "the log still starts at {} of {}",
            log.first,
            log.appended
        );
        // The discarded bytes are a hole: the file holds fewer blocks than
        // its length (where the file system punches holes).
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path.with_extension("redo")).unwrap();
        eprintln!(
            "log: {} bytes long, {} bytes on disk, first record at {}",
            meta.len(),
            meta.blocks() * 512,
            log.first
        );
        // Deleting after the last checkpoint is recovered from the log.
        let mut txn = engine.begin();
        for id in 0..100 {
            t.delete_by_key(&mut txn, &t.encode_primary_key(&[Value::Int(id)]).unwrap())
                .unwrap();
        }
        txn.commit().unwrap();
    }
    let engine = Engine::open(&path, small_pool()).unwrap();
    let got = ids(&engine);
    assert_eq!(got, (100..10_000).collect::<Vec<i64>>());
}

/// The rows of `db.t` committed so far are exactly `want`, and the indexes
/// agree with the table.
fn assert_rows(engine: &Engine, want: &[i64], when: &str) {
    let got = ids(engine);
    assert_eq!(got.len(), want.len(), "{when}: row count");
    assert!(got == want, "{when}: rows differ");
}

fn index_names(engine: &Engine) -> Vec<String> {
    let t = engine.table("db", "t").unwrap();
    t.def().indexes.iter().map(|i| i.name.clone()).collect()
}

fn commit_rows(engine: &Engine, ids: std::ops::Range<i64>) -> lineardb_table::Result<()> {
    let t = engine.table("db", "t").unwrap();
    let mut txn = engine.begin();
    for id in ids {
        if let Err(e) = t.insert(&mut txn, row(id)) {
            txn.rollback()?;
            return Err(e);
        }
    }
    Ok(txn.commit()?)
}

/// The data file under faults: a checkpoint or an index build that cannot
/// write (EIO), sync (EIO) or find space (ENOSPC) fails with an error and
/// changes nothing; commits go on through the log; once the fault is gone
/// a checkpoint and the index build succeed — except after a failed sync,
/// when no checkpoint may complete until a reopen recovers from the log.
/// After the reopen every committed row is there.
#[test]
fn data_file_faults_fail_checkpoints_and_index_builds_and_lose_nothing() {
    for fault in ["short_write", "fail_sync", "disk_full"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.ldb");
        let log_plan = Arc::new(FaultPlan::default());
        let data_plan = Arc::new(FaultPlan::default());
        let mut committed: Vec<i64> = Vec::new();
        let index = || vec![("by_v2".to_string(), vec!["v".to_string()], false)];
        {
            let engine = open_faulty(&path, &log_plan);
            engine.inject_data_file_faults(data_plan.clone());
            make_table(&engine);
            commit_rows(&engine, 0..500).unwrap();
            committed.extend(0..500);
            engine.checkpoint().unwrap();
            commit_rows(&engine, 500..1000).unwrap();
            committed.extend(500..1000);
            set_fault(&data_plan, fault, true);
            let code = if fault == "disk_full" { 1021 } else { 1030 };
            let e = engine.checkpoint().unwrap_err();
            assert_eq!(e.mysql_code(), code, "{fault}: checkpoint: {e}");
            // Commits go on: the log has them. On a full disk a commit
            // that needs a new page fails first, changing nothing.
            match commit_rows(&engine, 1000..1100) {
                Ok(()) => committed.extend(1000..1100),
                Err(e) => assert_eq!((fault, e.mysql_code()), ("disk_full", 1021), "{e}"),
            }
            let Err(e) = engine.create_indexes("db", "t", &index(), 2, &|_| {}) else {
                panic!("{fault}: the index build succeeded");
            };
            assert_eq!(e.mysql_code(), code, "{fault}: index build: {e}");
            assert_eq!(index_names(&engine), ["v"], "{fault}");
            assert_rows(&engine, &committed, fault);
            set_fault(&data_plan, fault, false);
            if fault == "fail_sync" {
                assert!(
                    engine.checkpoint().is_err(),
                    "a checkpoint after a failed sync"
                );
                commit_rows(&engine, 2000..2010).unwrap();
                committed.extend(2000..2010);
            } else {
                engine.checkpoint().unwrap();
                engine
                    .create_indexes("db", "t", &index(), 2, &|_| {})
                    .unwrap();
                commit_rows(&engine, 2000..2010).unwrap();
                committed.extend(2000..2010);
                assert_rows(&engine, &committed, fault);
            }
        }
        let engine = Engine::open(&path, small_pool()).unwrap();
        assert_rows(&engine, &committed, &format!("{fault}, reopened"));
        let want: &[&str] = if fault == "fail_sync" {
            &["v"]
        } else {
            &["v", "by_v2"]
        };
        assert_eq!(index_names(&engine), want, "{fault}, reopened");
        commit_rows(&engine, 3000..3010).unwrap();
    }
}
