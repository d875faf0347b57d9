//! A page whose bytes were changed on disk is reported as an error naming
//! the page, never a panic or wrong data.
use lineardb_btree::{Error, PoolConfig, Store};
use std::io::{Read, Seek, SeekFrom, Write};

#[test]
fn flipped_bytes_are_reported_with_the_page_id() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.ldb");
    let cfg = PoolConfig {
        page_size: 4096,
        pool_bytes: 4096 * 64,
        max_pages: 1 << 16,
    };
    {
        let store = Store::create(&path, cfg.clone()).unwrap();
        let tree = store.create_tree("t").unwrap();
        tree.bulk_load((0..20_000u32).map(|i| (i.to_be_bytes(), [7u8; 40])))
            .unwrap();
        store.close().unwrap();
    }
    // Flip bytes in the middle of a leaf page near the end of the file.
    let len = std::fs::metadata(&path).unwrap().len();
    let victim = len / 4096 - 2;
    {
        let mut f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let off = victim * 4096 + 2000;
        let mut b = [0u8; 4];
        f.seek(SeekFrom::Start(off)).unwrap();
        f.read_exact(&mut b).unwrap();
        for x in b.iter_mut() {
            *x ^= 0x5a;
        }
        f.seek(SeekFrom::Start(off)).unwrap();
        f.write_all(&b).unwrap();
    }
    let store = Store::open(&path, cfg).unwrap();
    let tree = store.open_tree("t").unwrap().unwrap();
    let mut seen = 0u32;
    let err = tree
        .scan(b"", |_, _| {
            seen += 1;
            true
        })
        .unwrap_err();
    match err {
        Error::Corrupt { page, .. } => assert_eq!(page, victim),
        other => panic!("expected a corrupt-page error, got {other}"),
    }
    assert!(seen > 0 && seen < 20_000);
    // Keys on other pages still read; the corrupt one keeps failing cleanly.
    assert!(tree.get(&5u32.to_be_bytes()).unwrap().is_some());
    assert!(tree.check().is_err());
}
