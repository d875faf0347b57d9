//! The log against real files: records survive reopening, a damaged tail
//! is cut at the last whole record, commits share syncs, and injected
//! faults (failed sync, short write, full disk) fail the commit without
//! losing what was already durable.
use lineardb_wal::{Durability, Error, FaultPlan, FaultyFile, Log, Record};
use std::path::Path;
use std::sync::Arc;

fn faulty(path: &Path, plan: &Arc<FaultPlan>, d: Durability) -> Log {
    Log::open_file(Box::new(FaultyFile::open(path, plan).unwrap()), d).unwrap()
}

fn all(log: &Log) -> Vec<Record> {
    log.records(0).map(|r| r.unwrap()).collect()
}

fn payload(i: u32) -> Vec<u8> {
    format!("record {i} {}", "x".repeat((i % 50) as usize)).into_bytes()
}

#[test]
fn records_survive_reopen_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("redo.log");
    let mut ends = Vec::new();
    {
        let log = Log::open(&path, Durability::Sync).unwrap();
        for i in 0..1000u32 {
            ends.push(log.append((i % 7) as u8, &payload(i)).unwrap());
            if i % 100 == 99 {
                log.flush(*ends.last().unwrap()).unwrap();
            }
        }
        log.sync_all().unwrap();
        let s = log.stats();
        assert_eq!(
            (s.appended, s.written, s.synced),
            (ends[999], ends[999], ends[999])
        );
    }
    let log = Log::open(&path, Durability::Sync).unwrap();
    let got = all(&log);
    assert_eq!(got.len(), 1000);
    for (i, r) in got.iter().enumerate() {
        assert_eq!((r.lsn, r.kind), (ends[i], (i % 7) as u8));
        assert_eq!(r.payload, payload(i as u32));
    }
    // Reading from the middle starts at a record boundary.
    let tail: Vec<Record> = log.records(ends[499]).map(|r| r.unwrap()).collect();
    assert_eq!(tail.len(), 500);
    assert_eq!(tail[0].payload, payload(500));
}

#[test]
fn a_damaged_tail_is_cut_at_the_last_whole_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("redo.log");
    let mut ends = Vec::new();
    {
        let log = Log::open(&path, Durability::Sync).unwrap();
        for i in 0..20u32 {
            ends.push(log.append(1, &payload(i)).unwrap());
        }
        log.sync_all().unwrap();
    }
    // The records (the file goes on with preallocated zeros).
    let full = std::fs::read(&path).unwrap()[..ends[19] as usize].to_vec();
    let last_start = ends[18] as usize;
    // Every cut inside the last record, and garbage after it.
    let mut damaged: Vec<(Vec<u8>, usize)> = (last_start..full.len())
        .map(|cut| (full[..cut].to_vec(), 19))
        .collect();
    let mut flipped = full.clone();
    flipped[last_start + 12] ^= 0x40;
    damaged.push((flipped, 19));
    let mut garbage = full.clone();
    garbage.extend_from_slice(&[0xAB; 100]);
    damaged.push((garbage, 20));
    let mut zeros = full.clone();
    zeros.extend_from_slice(&[0; 4096]);
    damaged.push((zeros, 20));
    for (bytes, whole) in damaged {
        std::fs::write(&path, &bytes).unwrap();
        let log = Log::open(&path, Durability::Sync).unwrap();
        let got = all(&log);
        assert_eq!(got.len(), whole, "file of {} bytes", bytes.len());
        assert_eq!(log.stats().appended, ends[whole - 1]);
        // The log goes on after the cut.
        let end = log.append(9, b"after").unwrap();
        log.flush(end).unwrap();
        drop(log);
        let log = Log::open(&path, Durability::Sync).unwrap();
        let got = all(&log);
        assert_eq!(got.len(), whole + 1);
        assert_eq!(got.last().unwrap().payload, b"after");
    }
}

#[test]
fn concurrent_commits_share_syncs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("redo.log");
    let plan = Arc::new(FaultPlan::default());
    let log = faulty(&path, &plan, Durability::Sync);
    // A slow disk (2 ms a sync): commits arriving during one sync share
    // the next.
    plan.sync_delay_us.store(2000);
    let syncs_before = plan.syncs.get();
    let (threads, each) = (8u32, 50u32);
    std::thread::scope(|s| {
        for t in 0..threads {
            let log = &log;
            s.spawn(move || {
                for i in 0..each {
                    let lsn = log.append(t as u8, &payload(t * each + i)).unwrap();
                    log.flush(lsn).unwrap();
                    assert!(log.stats().synced >= lsn, "returned before durable");
                }
            });
        }
    });
    let commits = (threads * each) as u64;
    let syncs = plan.syncs.get() - syncs_before;
    assert!(syncs * 3 <= commits, "{syncs} syncs for {commits} commits");
    println!("{commits} commits, {syncs} syncs");
    drop(log);
    let log = Log::open(&path, Durability::Sync).unwrap();
    let mut got: Vec<Vec<u8>> = all(&log).into_iter().map(|r| r.payload).collect();
    got.sort();
    let mut want: Vec<Vec<u8>> = (0..threads * each).map(payload).collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn durability_modes_write_and_sync_when_they_say() {
    let dir = tempfile::tempdir().unwrap();
    for (d, writes_at_commit, syncs_at_commit) in [
        (Durability::Sync, true, true),
        (Durability::WriteOnly, true, false),
        (Durability::Lazy, false, false),
    ] {
        let path = dir.path().join(format!("{d:?}.log"));
        let plan = Arc::new(FaultPlan::default());
        let log = faulty(&path, &plan, d);
        let start = log.stats();
        let syncs_before = plan.syncs.get();
        let lsn = log.append(1, b"commit").unwrap();
        log.flush(lsn).unwrap();
        let s = log.stats();
        assert_eq!(s.written >= lsn, writes_at_commit, "{d:?}");
        assert_eq!(s.synced >= lsn, syncs_at_commit, "{d:?}");
        assert_eq!(plan.syncs.get() > syncs_before, syncs_at_commit, "{d:?}");
        assert_eq!(s.synced > start.synced, syncs_at_commit, "{d:?}");
        log.sync_all().unwrap();
        let s = log.stats();
        assert_eq!((s.written, s.synced), (lsn, lsn), "{d:?}");
    }
}

/// Appends and commits `n` records; returns the last LSN.
fn commit_some(log: &Log, n: u32, from: u32) -> u64 {
    let mut lsn = 0;
    for i in from..from + n {
        lsn = log.append(2, &payload(i)).unwrap();
        log.flush(lsn).unwrap();
    }
    lsn
}

#[test]
fn faults_fail_the_commit_and_keep_what_was_durable() {
    let dir = tempfile::tempdir().unwrap();
    type Fault = (&'static str, fn(&FaultPlan));
    let faults: [Fault; 3] = [
        ("failed sync", |p| p.fail_sync.set(true)),
        ("short write", |p| p.short_write.set(true)),
        ("disk full", |p| p.disk_full.set(true)),
    ];
    for (name, inject) in faults {
        let path = dir.path().join(format!("{}.log", name.replace(' ', "_")));
        let plan = Arc::new(FaultPlan::default());
        let log = faulty(&path, &plan, Durability::Sync);
        let durable = commit_some(&log, 50, 0);
        inject(&plan);
        let lsn = log.append(2, &payload(50)).unwrap();
        let err = log.flush(lsn).unwrap_err();
        assert!(matches!(err, Error::Poisoned(_)), "{name}: {err}");
        // Nothing more is accepted, even with the fault gone.
        plan.fail_sync.set(false);
        plan.short_write.set(false);
        plan.disk_full.set(false);
        assert!(
            matches!(log.append(2, b"late"), Err(Error::Poisoned(_))),
            "{name}"
        );
        assert!(log.flush(lsn).is_err(), "{name}");
        drop(log);
        // Reopened: every record that was durable is there, the log is
        // consistent (a half-written record is cut) and takes new ones.
        let log = Log::open(&path, Durability::Sync).unwrap();
        let got = all(&log);
        assert!(got.len() >= 50, "{name}: {} records", got.len());
        assert!(got[49].lsn == durable, "{name}");
        for (i, r) in got.iter().enumerate() {
            assert_eq!(r.payload, payload(i as u32), "{name}");
        }
        let end = commit_some(&log, 1, 1000);
        assert_eq!(log.stats().synced, end);
    }
}

/// Committers waiting for a flush are woken whoever held the flush lock:
/// a log-space discard (a checkpoint's) holding it must wake them too (a
/// commit once slept forever behind one).
#[test]
fn commits_go_on_while_space_is_discarded() {
    let dir = tempfile::tempdir().unwrap();
    let log = Log::open(&dir.path().join("redo.log"), Durability::Sync).unwrap();
    let done = lineardb_sync::SharedFlag::new(false);
    std::thread::scope(|s| {
        let (log, done) = (&log, &done);
        s.spawn(move || {
            while !done.get() {
                log.discard_before(log.stats().written).unwrap();
            }
        });
        let committers: Vec<_> = (0..4u32)
            .map(|t| {
                s.spawn(move || {
                    for i in 0..300 {
                        let lsn = log.append(1, &payload(t * 1000 + i)).unwrap();
                        log.flush(lsn).unwrap();
                    }
                })
            })
            .collect();
        for c in committers {
            c.join().unwrap();
        }
        done.set(true);
    });
    assert!(log.first() > 4096, "space was given back");
}
