//! `lineardb serve`: the MySQL wire protocol (handshake, text and binary
//! protocol, prepared statements) in front of SQL sessions. One thread per
//! connection; each connection owns its session, so serving a query
//! writes nothing shared.
mod conn;
mod packet;

use lineardb_sql::Registry;
use lineardb_table::Engine;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

pub use packet::MAX_PACKET;

/// Accepts connections on `listener` forever, one thread each.
pub fn serve(listener: TcpListener, engine: Arc<Engine>) -> std::io::Result<()> {
    let registry = Registry::new();
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                eprintln!("accept: {e}");
                continue;
            }
        };
        let engine = engine.clone();
        let registry = registry.clone();
        std::thread::Builder::new()
            .name("conn".into())
            .spawn(move || handle(stream, engine, registry))?;
    }
    Ok(())
}

fn handle(stream: TcpStream, engine: Arc<Engine>, registry: Arc<Registry>) {
    let _ = stream.set_nodelay(true);
    let host = match stream.peer_addr() {
        Ok(a) if a.ip().is_loopback() => "localhost".to_string(),
        Ok(a) => a.ip().to_string(),
        Err(_) => return,
    };
    let waker = stream.try_clone();
    // A panic in one connection must not take the server down.
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let io = packet::PacketIo::new(stream);
        let Some(conn) = conn::handshake(io, &engine, &registry, &host)? else {
            return Ok(());
        };
        if let Ok(w) = waker {
            // KILL wakes a connection blocked reading its socket.
            conn.session_slot().on_interrupt(move || {
                let _ = w.shutdown(std::net::Shutdown::Both);
            });
        }
        conn.run()
    }));
    match r {
        Ok(Ok(())) => {}
        Ok(Err(e))
            if e.kind() == std::io::ErrorKind::UnexpectedEof
                || e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Ok(Err(e)) => eprintln!("connection from {host}: {e}"),
        Err(_) => eprintln!("connection from {host}: internal error, connection closed"),
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
