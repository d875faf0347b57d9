//! SQL text through a session: parse, plan and execute against database
//! `f`. Any text gets a result or an error, never a panic; a failed
//! statement leaves the session usable.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lineardb_sql::{CollectSink, Session};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let fixture = lineardb_fuzz::fixture();
    let mut session = Session::new(fixture.engine.clone(), &fixture.registry);
    session.query("USE f").expect("USE f");
    if let Ok(batch) = session.parse_batch(text) {
        for i in 0..batch.len() {
            let mut sink = CollectSink::default();
            if session.execute_in(&batch, i, &mut sink).is_err() {
                break;
            }
        }
    }
    // The session still answers.
    session.query("SELECT 1").expect("the session survives any statement");
    drop(session);
    if fixture.engine.table("f", "t").is_err() {
        lineardb_fuzz::reset(fixture);
    }
});
