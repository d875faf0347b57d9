//! Using the storage engine from Rust: open or create a data file, make a
//! tree, write, read, scan in batches, and close.
//!
//! `cargo run -p lineardb-btree --example embedded`
use lineardb_btree::{PoolConfig, Result, Store};

fn main() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("lineardb-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("data.ldb");
    {
        let store = Store::open_or_create(&path, PoolConfig::default())?;
        let tree = match store.open_tree("users")? {
            Some(t) => t,
            None => store.create_tree("users")?,
        };
        for (i, name) in ["alice", "bob", "carol", "dave"].iter().enumerate() {
            tree.put(name.as_bytes(), &(i as u32).to_be_bytes())?;
        }
        tree.remove(b"bob")?;
        assert_eq!(
            tree.get(b"carol")?.as_deref(),
            Some(&2u32.to_be_bytes()[..])
        );

        // A cursor copies up to `max` entries out of a leaf and validates it
        // once; it resumes from a key, so concurrent writers never block it.
        let mut cursor = tree.cursor(b"b");
        loop {
            let batch = cursor.next_batch(100)?;
            if batch.is_empty() {
                break;
            }
            for (k, v) in batch.iter() {
                println!(
                    "{} -> {}",
                    String::from_utf8_lossy(k),
                    u32::from_be_bytes(v.try_into().unwrap())
                );
            }
        }
        store.close()?;
    }
    // Everything is there after a reopen.
    let store = Store::open(&path, PoolConfig::default())?;
    let tree = store.open_tree("users")?.expect("tree exists");
    assert_eq!(
        tree.get(b"alice")?.as_deref(),
        Some(&0u32.to_be_bytes()[..])
    );
    assert_eq!(tree.get(b"bob")?, None);
    store.close()?;
    std::fs::remove_dir_all(&dir)?;
    println!("ok");
    Ok(())
}
