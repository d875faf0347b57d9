//! The tree against `BTreeMap`: random inserts, updates, deletes, lookups and
//! range scans, with small pages (many splits and merges) and a pool smaller
//! than the data (eviction and reloads), then a reopen of the file.
use lineardb_btree::{PoolConfig, Store};
use proptest::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
enum Op {
    Put(Vec<u8>, Vec<u8>),
    Remove(Vec<u8>),
    Get(Vec<u8>),
    Scan(Vec<u8>, usize),
    RemoveRange(Vec<u8>, usize),
}

fn key() -> impl Strategy<Value = Vec<u8>> {
    // Few distinct prefixes so keys share heads and collide often.
    (0u8..4, prop::collection::vec(any::<u8>(), 0..12)).prop_map(|(p, mut k)| {
        k.insert(0, p);
        k
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (key(), prop::collection::vec(any::<u8>(), 0..40)).prop_map(|(k, v)| Op::Put(k, v)),
        2 => key().prop_map(Op::Remove),
        2 => key().prop_map(Op::Get),
        1 => (key(), 0usize..300).prop_map(|(k, n)| Op::Scan(k, n)),
        1 => (key(), 0usize..200).prop_map(|(k, n)| Op::RemoveRange(k, n)),
    ]
}

fn small_config() -> PoolConfig {
    PoolConfig {
        page_size: 512,
        pool_bytes: 512 * 24,
        max_pages: 1 << 16,
    }
}

fn check_scan(
    tree: &lineardb_btree::BTree,
    model: &BTreeMap<Vec<u8>, Vec<u8>>,
    from: &[u8],
    n: usize,
) {
    let want: Vec<_> = model
        .range(from.to_vec()..)
        .take(n)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut got = Vec::new();
    let mut c = tree.cursor(from);
    while got.len() < n {
        let b = c.next_batch(7).unwrap();
        if b.is_empty() {
            break;
        }
        for (k, v) in b.iter() {
            if got.len() < n {
                got.push((k.to_vec(), v.to_vec()));
            }
        }
    }
    assert_eq!(got, want, "scan from {from:?} n {n}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn tree_matches_btreemap(ops in prop::collection::vec(op(), 1..1500)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.ldb");
        let mut model = BTreeMap::new();
        {
            let store = Store::create(&path, small_config()).unwrap();
            let tree = store.create_tree("t").unwrap();
            for op in &ops {
                match op {
                    Op::Put(k, v) => {
                        let replaced = tree.put(k, v).unwrap();
                        prop_assert_eq!(replaced, model.insert(k.clone(), v.clone()).is_some());
                    }
                    Op::Remove(k) => {
                        prop_assert_eq!(tree.remove(k).unwrap(), model.remove(k).is_some());
                    }
                    Op::Get(k) => {
                        prop_assert_eq!(tree.get(k).unwrap(), model.get(k).cloned());
                    }
                    Op::Scan(k, n) => check_scan(&tree, &model, k, *n),
                    Op::RemoveRange(k, n) => {
                        let keys: Vec<_> = model.range(k.clone()..).take(*n).map(|(k, _)| k.clone()).collect();
                        for key in keys {
                            prop_assert!(tree.remove(&key).unwrap());
                            model.remove(&key);
                        }
                    }
                }
            }
            prop_assert_eq!(tree.check().unwrap(), model.len() as u64);
            check_scan(&tree, &model, b"", usize::MAX);
            store.close().unwrap();
        }
        let store = Store::open(&path, small_config()).unwrap();
        let tree = store.open_tree("t").unwrap().unwrap();
        prop_assert_eq!(tree.check().unwrap(), model.len() as u64);
        check_scan(&tree, &model, b"", usize::MAX);
        for (k, v) in model.iter().take(50) {
            prop_assert_eq!(tree.get(k).unwrap(), Some(v.clone()));
        }
    }

    #[test]
    fn bulk_load_matches_btreemap(entries in prop::collection::btree_map(key(), prop::collection::vec(any::<u8>(), 0..60), 0..3000), extra in prop::collection::vec(op(), 0..300)) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::create(&dir.path().join("b.ldb"), small_config()).unwrap();
        let tree = store.create_tree("b").unwrap();
        prop_assert_eq!(tree.bulk_load(entries.iter()).unwrap(), entries.len() as u64);
        prop_assert_eq!(tree.check().unwrap(), entries.len() as u64);
        let mut model = entries.clone();
        check_scan(&tree, &model, b"", usize::MAX);
        for op in &extra {
            match op {
                Op::Put(k, v) => { tree.put(k, v).unwrap(); model.insert(k.clone(), v.clone()); }
                Op::Remove(k) | Op::RemoveRange(k, _) => { tree.remove(k).unwrap(); model.remove(k); }
                Op::Get(k) => prop_assert_eq!(tree.get(k).unwrap(), model.get(k).cloned()),
                Op::Scan(k, n) => check_scan(&tree, &model, k, *n),
            }
        }
        prop_assert_eq!(tree.check().unwrap(), model.len() as u64);
        let keys: Vec<&Vec<u8>> = model.keys().step_by(3).collect();
        let mut got = Vec::new();
        tree.get_sorted(&keys, |i, v| got.push((i, v.to_vec()))).unwrap();
        let want: Vec<_> = keys.iter().enumerate().map(|(i, k)| (i, model[*k].clone())).collect();
        prop_assert_eq!(got, want);
    }
}

#[test]
fn oversized_entries_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create(
        &dir.path().join("x.ldb"),
        PoolConfig {
            pool_bytes: 1 << 20,
            ..PoolConfig::default()
        },
    )
    .unwrap();
    let tree = store.create_tree("x").unwrap();
    let big = vec![7u8; tree.max_entry_len() + 1];
    let err = tree.put(b"k", &big).unwrap_err();
    assert!(err.to_string().contains("too large"), "{err}");
    tree.put(b"k", &big[..tree.max_entry_len() - 1]).unwrap();
    assert_eq!(
        tree.get(b"k").unwrap().unwrap().len(),
        tree.max_entry_len() - 1
    );
}

#[test]
fn many_trees_in_one_file_survive_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.ldb");
    let cfg = PoolConfig {
        page_size: 4096,
        pool_bytes: 4096 * 16,
        max_pages: 1 << 16,
    };
    {
        let store = Store::create(&path, cfg.clone()).unwrap();
        for t in 0..5u32 {
            let tree = store.create_tree(&format!("tree{t}")).unwrap();
            for i in 0..2000u32 {
                tree.put(&i.to_be_bytes(), format!("{t}-{i}").as_bytes())
                    .unwrap();
            }
        }
        assert!(store.drop_tree("tree3").unwrap());
        store.close().unwrap();
        // The pool (16 frames) is far smaller than the data: pages were evicted and reread.
        use lineardb_sync::thread_slot::{counter_total, Counter};
        assert!(counter_total(Counter::PagesEvicted) > 100);
        assert!(counter_total(Counter::PagesRead) > 100);
    }
    let store = Store::open(&path, cfg).unwrap();
    assert_eq!(
        store.tree_names().unwrap(),
        vec!["tree0", "tree1", "tree2", "tree4"]
    );
    for t in [0u32, 1, 2, 4] {
        let tree = store.open_tree(&format!("tree{t}")).unwrap().unwrap();
        assert_eq!(tree.check().unwrap(), 2000);
        assert_eq!(
            tree.get(&1234u32.to_be_bytes()).unwrap().unwrap(),
            format!("{t}-1234").as_bytes()
        );
    }
    // Pages of the dropped tree are reused, not appended.
    let before = store.pool().stats().page_count;
    let tree = store.create_tree("again").unwrap();
    for i in 0..1000u32 {
        tree.put(&i.to_be_bytes(), b"reused").unwrap();
    }
    assert_eq!(store.pool().stats().page_count, before);
}

#[test]
fn deleting_everything_merges_the_tree_back_to_one_leaf() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = PoolConfig {
        page_size: 1024,
        pool_bytes: 1024 * 64,
        max_pages: 1 << 16,
    };
    let store = Store::create(&dir.path().join("d.ldb"), cfg).unwrap();
    let tree = store.create_tree("d").unwrap();
    for i in 0..20_000u32 {
        tree.put(&i.wrapping_mul(2_654_435_761).to_be_bytes(), &[1u8; 20])
            .unwrap();
    }
    assert!(tree.height().unwrap() >= 3);
    let pages_full = store.pool().stats().page_count;
    for i in 0..20_000u32 {
        assert!(tree
            .remove(&i.wrapping_mul(2_654_435_761).to_be_bytes())
            .unwrap());
    }
    assert_eq!(tree.check().unwrap(), 0);
    assert_eq!(tree.height().unwrap(), 1);
    // Almost every page went back to the free list.
    assert!(store.pool().stats().free_pages as u64 > pages_full * 9 / 10);
}

#[test]
fn insert_new_last_key_split_points_and_count_range() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = PoolConfig {
        page_size: 1024,
        pool_bytes: 1024 * 256,
        max_pages: 1 << 16,
    };
    let store = Store::create(&dir.path().join("r.ldb"), cfg).unwrap();
    let tree = store.create_tree("r").unwrap();
    assert_eq!(tree.last_key().unwrap(), None);
    for i in (0..30_000u32).step_by(3) {
        assert!(tree.insert_new(&i.to_be_bytes(), b"v").unwrap());
    }
    assert!(!tree.insert_new(&3u32.to_be_bytes(), b"other").unwrap());
    assert_eq!(tree.get(&3u32.to_be_bytes()).unwrap().unwrap(), b"v");
    assert_eq!(tree.last_key().unwrap().unwrap(), 29_997u32.to_be_bytes());
    // Emptying the top of the key space (possibly leaving empty leaves on
    // the right) moves the last key down.
    let mut removed = Vec::new();
    for i in (20_001..30_000u32).filter(|i| i % 3 == 0) {
        assert!(tree.remove(&i.to_be_bytes()).unwrap());
        removed.push(i);
    }
    assert_eq!(tree.last_key().unwrap().unwrap(), 19_998u32.to_be_bytes());
    for i in removed {
        assert!(tree.insert_new(&i.to_be_bytes(), b"v").unwrap());
    }
    assert_eq!(tree.last_key().unwrap().unwrap(), 29_997u32.to_be_bytes());
    let total = tree.count_range(b"", None).unwrap();
    assert_eq!(total, 10_000);
    assert_eq!(
        tree.count_range(&300u32.to_be_bytes(), Some(&600u32.to_be_bytes()))
            .unwrap(),
        100
    );
    assert_eq!(
        tree.count_range(&301u32.to_be_bytes(), Some(&302u32.to_be_bytes()))
            .unwrap(),
        0
    );
    for parts in [2usize, 8, 64] {
        let points = tree.split_points(parts).unwrap();
        assert!(
            !points.is_empty() && points.len() < parts,
            "{parts}: {}",
            points.len()
        );
        assert!(points.windows(2).all(|w| w[0] < w[1]));
        // The ranges between split points partition the keys.
        let mut bounds: Vec<Option<&[u8]>> = vec![None];
        bounds.extend(points.iter().map(|p| Some(p.as_slice())));
        let mut sum = 0;
        for (i, lo) in bounds.iter().enumerate() {
            let hi = bounds.get(i + 1).copied().flatten();
            sum += tree.count_range(lo.unwrap_or(b""), hi).unwrap();
        }
        assert_eq!(sum, total);
    }
}

#[test]
fn range_estimates_track_exact_counts() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = PoolConfig {
        page_size: 1024,
        pool_bytes: 1024 * 512,
        max_pages: 1 << 16,
    };
    let store = Store::create(&dir.path().join("e.ldb"), cfg).unwrap();
    let tree = store.create_tree("e").unwrap();
    let k = |i: u32| i.to_be_bytes();
    assert_eq!(tree.estimate_range(b"", None).unwrap(), 0);
    for i in 0..10u32 {
        tree.put(&k(i), b"v").unwrap();
    }
    // One leaf: exact.
    assert_eq!(tree.estimate_range(&k(2), Some(&k(7))).unwrap(), 5);
    // Random order: nodes unevenly filled, three levels.
    let mut x = 12345u64;
    for _ in 0..60_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        tree.put(&k((x % 200_000) as u32), &[0u8; 12]).unwrap();
    }
    let total = tree.count_range(b"", None).unwrap();
    let whole = tree.estimate_range(b"", None).unwrap();
    assert!(
        whole > total / 2 && whole < total * 2,
        "{whole} for {total}"
    );
    for (lo, hi) in [(0u32, 100_000u32), (50_000, 60_000), (1_000, 180_000)] {
        let exact = tree.count_range(&k(lo), Some(&k(hi))).unwrap();
        let est = tree.estimate_range(&k(lo), Some(&k(hi))).unwrap();
        assert!(
            est > exact / 2 && est < exact * 2,
            "[{lo}, {hi}): estimate {est}, exact {exact}"
        );
    }
    assert!(tree.estimate_range(&k(5), Some(&k(6))).unwrap() < 50);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// A bulk load cut into parts at arbitrary splitters (empty parts
    /// included) builds the same tree contents as one serial load.
    #[test]
    fn partitioned_bulk_load_matches_btreemap(
        entries in prop::collection::btree_map(key(), prop::collection::vec(any::<u8>(), 0..40), 0..2000),
        splitters in prop::collection::btree_set(key(), 0..6),
        threads in 1usize..4,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::create(&dir.path().join("p.ldb"), small_config()).unwrap();
        let tree = store.create_tree("p").unwrap();
        let splitters: Vec<Vec<u8>> = splitters.into_iter().filter(|s| !s.is_empty()).collect();
        let mut parts: Vec<Vec<(Vec<u8>, Vec<u8>)>> = vec![Vec::new(); splitters.len() + 1];
        for (k, v) in &entries {
            let part = splitters.partition_point(|s| s <= k);
            parts[part].push((k.clone(), v.clone()));
        }
        prop_assert_eq!(tree.bulk_load_parts(parts, &splitters, threads).unwrap(), entries.len() as u64);
        prop_assert_eq!(tree.check().unwrap(), entries.len() as u64);
        check_scan(&tree, &entries, b"", usize::MAX);
        // The tree takes writes afterwards like any other (a key `key()`
        // never generates: its first byte is below 4).
        tree.put(b"\x05zz", b"x").unwrap();
        tree.remove(b"\x05zz").unwrap();
        prop_assert_eq!(tree.check().unwrap(), entries.len() as u64);
    }
}

#[test]
fn last_key_skips_empty_leaves_on_the_right() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create(&dir.path().join("e.ldb"), small_config()).unwrap();
    let tree = store.create_tree("e").unwrap();
    // Bulk-built leaves are 92% full: an emptied last leaf cannot merge into
    // its left neighbour and stays, empty, at the right edge.
    tree.bulk_load((0..5000u32).map(|i| (i.to_be_bytes(), [1u8; 8])))
        .unwrap();
    let mut i = 4999u32;
    let mut last_seen = tree.last_key().unwrap();
    while i > 4000 {
        tree.remove(&i.to_be_bytes()).unwrap();
        i -= 1;
        let now = tree.last_key().unwrap().unwrap();
        assert_eq!(now, i.to_be_bytes(), "after removing {}", i + 1);
        last_seen = Some(now);
    }
    assert!(last_seen.is_some());
    assert_eq!(tree.check().unwrap(), 4001);
}
