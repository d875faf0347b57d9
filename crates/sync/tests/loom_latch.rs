//! Model checks of the hybrid latch protocol under every interleaving loom
//! explores. Run with `RUSTFLAGS="--cfg loom" cargo test -p lineardb-sync --test loom_latch --release`.
#![cfg(loom)]

use lineardb_sync::{wait_class, HybridLatch, WaitSite};
use loom::sync::atomic::{AtomicU64, Ordering};
use loom::sync::Arc;
use loom::thread;

const SITE: WaitSite = WaitSite::class(wait_class!("wait/test/loom_latch"));

/// Two words written under the exclusive latch; a reader that validates must
/// have seen both old or both new.
#[test]
fn optimistic_reader_never_validates_a_torn_read() {
    loom::model(|| {
        let latch = Arc::new(HybridLatch::new_unlocked());
        let data = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
        let writer = {
            let (latch, data) = (latch.clone(), data.clone());
            thread::spawn(move || {
                latch.lock_exclusive(SITE).unwrap();
                data[0].store(1, Ordering::Relaxed);
                data[1].store(1, Ordering::Relaxed);
                latch.unlock_exclusive();
            })
        };
        if let Ok(v) = latch.optimistic_or_wait(SITE) {
            let a = data[0].load(Ordering::Relaxed);
            let b = data[1].load(Ordering::Relaxed);
            if latch.validate(v) {
                assert_eq!(a, b, "validated a torn read");
            }
        }
        writer.join().unwrap();
        let v = latch.try_optimistic().unwrap();
        assert_eq!(data[0].load(Ordering::Relaxed), 1);
        assert!(latch.validate(v));
    });
}

/// A shared holder sees no writer; the writer waits for it.
#[test]
fn shared_excludes_exclusive() {
    loom::model(|| {
        let latch = Arc::new(HybridLatch::new_unlocked());
        let data = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
        let writer = {
            let (latch, data) = (latch.clone(), data.clone());
            thread::spawn(move || {
                latch.lock_exclusive(SITE).unwrap();
                data[0].store(1, Ordering::Relaxed);
                data[1].store(1, Ordering::Relaxed);
                latch.unlock_exclusive();
            })
        };
        latch.lock_shared(SITE).unwrap();
        let a = data[0].load(Ordering::Relaxed);
        let b = data[1].load(Ordering::Relaxed);
        latch.unlock_shared();
        assert_eq!(a, b);
        writer.join().unwrap();
    });
}

/// Two threads race to upgrade optimistic reads into exclusive holds and
/// increment a counter: no increment is lost.
#[test]
fn upgrades_are_exclusive() {
    loom::model(|| {
        let latch = Arc::new(HybridLatch::new_unlocked());
        let counter = Arc::new(AtomicU64::new(0));
        let wins = Arc::new(AtomicU64::new(0));
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let (latch, counter, wins) = (latch.clone(), counter.clone(), wins.clone());
                thread::spawn(move || {
                    let v = latch.optimistic_or_wait(SITE).unwrap();
                    let seen = counter.load(Ordering::Relaxed);
                    if latch.try_upgrade(v) {
                        counter.store(seen + 1, Ordering::Relaxed);
                        wins.fetch_add(1, Ordering::Relaxed);
                        latch.unlock_exclusive();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(
            counter.load(Ordering::Relaxed),
            wins.load(Ordering::Relaxed)
        );
        assert!(wins.load(Ordering::Relaxed) >= 1);
    });
}

/// A loader claims an absent latch; a reader either waits for it or sees the
/// loaded value, never a half-loaded one.
#[test]
fn absent_to_loaded_is_seen_whole() {
    loom::model(|| {
        let latch = Arc::new(HybridLatch::new_absent());
        let data = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
        let loader = {
            let (latch, data) = (latch.clone(), data.clone());
            thread::spawn(move || {
                if latch.try_lock_absent().is_some() {
                    data[0].store(7, Ordering::Relaxed);
                    data[1].store(7, Ordering::Relaxed);
                    latch.unlock_exclusive();
                }
            })
        };
        if let Ok(v) = latch.optimistic_or_wait(SITE) {
            let a = data[0].load(Ordering::Relaxed);
            let b = data[1].load(Ordering::Relaxed);
            if latch.validate(v) {
                assert_eq!((a, b), (7, 7));
            }
        }
        loader.join().unwrap();
    });
}
