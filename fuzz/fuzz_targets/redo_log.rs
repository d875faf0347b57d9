//! A redo log file of arbitrary bytes (a torn tail, garbage, a foreign
//! file): opening it fails with an error or keeps its valid records;
//! reading them back never panics, and every record returned ends inside
//! the file.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lineardb_wal::{Durability, Log};

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("fuzz.redo");
    std::fs::write(&path, data).expect("write the log file");
    let Ok(log) = Log::open(&path, Durability::Lazy) else {
        return;
    };
    let end = log.end();
    for record in log.records(log.first()) {
        match record {
            Ok(r) => assert!(r.lsn <= end, "a record past the log's end"),
            Err(_) => break,
        }
    }
    // The log takes new records after whatever it kept.
    log.append(1, b"after").expect("append");
});
