//! `lineardb serve`: the MySQL wire protocol (handshake, text and binary
//! protocol, prepared statements) in front of SQL sessions. One thread per
//! connection; each connection owns its session, so serving a query
//! writes nothing shared.
mod conn;
mod packet;

use lineardb_table::Engine;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

pub use packet::MAX_PACKET;

/// Accepts connections on `listener` forever, one thread each.
pub fn serve(listener: TcpListener, engine: Arc<Engine>) -> std::io::Result<()> {
    // Connection ids: written once per connection, not per query.
    let next_id = lineardb_sync::SharedWord::new(1);
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                eprintln!("accept: {e}");
                continue;
            }
        };
        let id = next_id.fetch_add(1) as u32;
        let engine = engine.clone();
        std::thread::Builder::new()
            .name(format!("conn-{id}"))
            .spawn(move || handle(stream, engine, id))?;
    }
    Ok(())
}

fn handle(stream: TcpStream, engine: Arc<Engine>, id: u32) {
    let _ = stream.set_nodelay(true);
    let conn = conn::Conn::new(stream, engine, id);
    // A panic in one connection must not take the server down.
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| conn.run()));
    match r {
        Ok(Ok(())) => {}
        Ok(Err(e))
            if e.kind() == std::io::ErrorKind::UnexpectedEof
                || e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Ok(Err(e)) => eprintln!("connection {id}: {e}"),
        Err(_) => eprintln!("connection {id}: internal error, connection closed"),
    }
}

/// Runs `f` (on a thread of its own) when SIGINT or SIGTERM arrives.
pub fn on_shutdown(f: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
    ])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                f();
            }
        })?;
    Ok(())
}
