//! Writers split and merge pages while readers look up and scan; every read
//! is checked against what the model allows:
//! - "stable" keys (k % 4 == 0) are loaded first and never change: every
//!   lookup must find them with their value, and no scan may skip one;
//! - other keys are inserted and removed by the writer that owns them: a read
//!   may or may not see them, but a value seen must belong to its key;
//! - scans return strictly increasing keys.
//!
//! At the end the tree equals the stable keys plus each writer's own model.
use lineardb_btree::{BTree, PoolConfig, Store};
use lineardb_sync::SharedFlag;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::sync::Arc;

const KEYS: u32 = 40_000;
const WRITERS: u32 = 3;
const READERS: u32 = 3;

fn value_for(k: u32, len: usize) -> Vec<u8> {
    let mut v = k.to_be_bytes().to_vec();
    v.resize(len.max(4), (k % 251) as u8);
    v
}

fn value_matches(k: u32, v: &[u8]) -> bool {
    v.len() >= 4 && v[..4] == k.to_be_bytes() && v[4..].iter().all(|&b| b == (k % 251) as u8)
}

fn stable_len(k: u32) -> usize {
    8 + (k as usize % 24)
}

fn writer(tree: &BTree, w: u32, ops: u32) -> BTreeMap<u32, Vec<u8>> {
    let mut rng = SmallRng::seed_from_u64(w as u64 + 100);
    let mut model = BTreeMap::new();
    let mine = |rng: &mut SmallRng| loop {
        let k = rng.gen_range(0..KEYS);
        if k % 4 != 0 && (k / 4) % WRITERS == w {
            return k;
        }
    };
    for i in 0..ops {
        // Phases of growth and of mass deletion make splits and merges.
        let deleting = (i / 3000) % 2 == 1;
        let k = mine(&mut rng);
        if deleting {
            for j in 0..16 {
                let kk = k + j;
                if kk < KEYS && kk % 4 != 0 && (kk / 4) % WRITERS == w {
                    let existed = tree.remove(&kk.to_be_bytes()).unwrap();
                    assert_eq!(
                        existed,
                        model.remove(&kk).is_some(),
                        "writer {w} remove {kk}"
                    );
                }
            }
        } else {
            let v = value_for(k, rng.gen_range(4..120));
            let replaced = tree.put(&k.to_be_bytes(), &v).unwrap();
            assert_eq!(replaced, model.insert(k, v).is_some(), "writer {w} put {k}");
        }
    }
    model
}

fn reader(tree: &BTree, r: u32, stop: &SharedFlag) -> u64 {
    let mut rng = SmallRng::seed_from_u64(r as u64 + 7);
    let mut checks = 0u64;
    let mut buf = Vec::new();
    while !stop.get() {
        let k = rng.gen_range(0..KEYS);
        if rng.gen_bool(0.2) {
            // Sorted batch lookups (leaf hints, prefetching): stable keys must
            // all be found with their values, others only with their own.
            let mut keys: Vec<u32> = (0..32).map(|_| rng.gen_range(0..KEYS)).collect();
            keys.sort_unstable();
            keys.dedup();
            let enc: Vec<[u8; 4]> = keys.iter().map(|k| k.to_be_bytes()).collect();
            let mut seen = vec![false; keys.len()];
            tree.get_sorted(&enc, |i, v| {
                assert!(!seen[i], "key {} reported twice", keys[i]);
                seen[i] = true;
                assert!(
                    value_matches(keys[i], v),
                    "batch: key {} has a foreign value",
                    keys[i]
                );
            })
            .unwrap();
            for (i, k) in keys.iter().enumerate() {
                assert!(k % 4 != 0 || seen[i], "batch: stable key {k} missing");
            }
        } else if rng.gen_bool(0.7) {
            let found = tree.get_into(&k.to_be_bytes(), &mut buf).unwrap();
            if k % 4 == 0 {
                assert!(found, "stable key {k} missing");
                assert_eq!(buf, value_for(k, stable_len(k)));
            } else if found {
                assert!(value_matches(k, &buf), "key {k} has a foreign value");
            }
        } else {
            let mut c = tree.cursor(&k.to_be_bytes());
            let mut prev: Option<u32> = None;
            let mut seen = 0;
            'scan: while seen < 400 {
                let b = c.next_batch(64).unwrap();
                if b.is_empty() {
                    break;
                }
                for (key, v) in b.iter() {
                    let key = u32::from_be_bytes(key.try_into().unwrap());
                    assert!(key >= k);
                    assert!(value_matches(key, v), "scan: key {key} has a foreign value");
                    let from = match prev {
                        Some(p) => {
                            assert!(key > p, "scan order {p} then {key}");
                            p + 1
                        }
                        None => k,
                    };
                    let first_stable = from.div_ceil(4) * 4;
                    assert!(
                        first_stable >= key || first_stable >= KEYS,
                        "scan skipped stable key {first_stable} (from {from} to {key})"
                    );
                    prev = Some(key);
                    seen += 1;
                    if seen >= 400 {
                        break 'scan;
                    }
                }
            }
        }
        checks += 1;
    }
    checks
}

#[test]
fn concurrent_writers_and_readers_agree_with_the_model() {
    let dir = tempfile::tempdir().unwrap();
    // Small pages for many splits; a pool smaller than the data for eviction.
    let cfg = PoolConfig {
        page_size: 1024,
        pool_bytes: 1024 * 600,
        max_pages: 1 << 20,
    };
    let store = Store::create(&dir.path().join("s.ldb"), cfg).unwrap();
    let tree = Arc::new(store.create_tree("s").unwrap());
    for k in (0..KEYS).step_by(4) {
        tree.put(&k.to_be_bytes(), &value_for(k, stable_len(k)))
            .unwrap();
    }
    let stop = Arc::new(SharedFlag::new(false));
    let readers: Vec<_> = (0..READERS)
        .map(|r| {
            let (tree, stop) = (tree.clone(), stop.clone());
            std::thread::spawn(move || reader(&tree, r, &stop))
        })
        .collect();
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let tree = tree.clone();
            std::thread::spawn(move || writer(&tree, w, 120_000))
        })
        .collect();
    let models: Vec<_> = writers.into_iter().map(|h| h.join().unwrap()).collect();
    stop.set(true);
    let checks: u64 = readers.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(checks > 100, "readers made only {checks} checks");

    let mut expect: BTreeMap<u32, Vec<u8>> = (0..KEYS)
        .step_by(4)
        .map(|k| (k, value_for(k, stable_len(k))))
        .collect();
    for m in models {
        expect.extend(m);
    }
    assert_eq!(tree.check().unwrap(), expect.len() as u64);
    let mut got = BTreeMap::new();
    tree.scan(b"", |k, v| {
        got.insert(u32::from_be_bytes(k.try_into().unwrap()), v.to_vec());
        true
    })
    .unwrap();
    assert!(got == expect, "final contents differ from the model");
    let restarts: u64 = lineardb_sync::wait::summary()
        .iter()
        .map(|(_, s)| s.restarts)
        .sum();
    eprintln!("reader checks {checks}, optimistic restarts {restarts}");
}
