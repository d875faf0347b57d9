//! `lineardb serve`: the MySQL wire protocol (handshake, text and binary
//! protocol, prepared statements) in front of SQL sessions. A connection's
//! handshake runs on a short-lived thread of its own; then a small pool of
//! workers (one per core by default) serves every connection's requests as
//! they arrive. Each connection owns its session, so serving a query writes
//! nothing shared.
mod conn;
mod packet;
mod poller;
mod stream;
mod workers;

use lineardb_sql::Registry;
use lineardb_table::Engine;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;
use stream::NetStream;
use workers::{Client, Workers};

pub use packet::MAX_PACKET;

/// How long a new client may take to log in (MySQL's connect_timeout).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Accepts connections on `listener` forever; `workers` threads serve them
/// (0: one per core).
pub fn serve(listener: TcpListener, engine: Arc<Engine>, workers: usize) -> std::io::Result<()> {
    let registry = Registry::new();
    let workers = match workers {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let pool = Workers::start(workers)?;
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
        let pool = pool.clone();
        std::thread::Builder::new()
            .name("login".into())
            .spawn(move || login(stream, engine, registry, &pool))?;
    }
    Ok(())
}

/// Handshake (blocking, with a timeout), then the connection goes to the
/// worker pool.
fn login(stream: TcpStream, engine: Arc<Engine>, registry: Arc<Registry>, pool: &Workers) {
    let _ = stream.set_nodelay(true);
    let host = match stream.peer_addr() {
        Ok(a) if a.ip().is_loopback() => "localhost".to_string(),
        Ok(a) => a.ip().to_string(),
        Err(_) => return,
    };
    let waker = stream.try_clone();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> std::io::Result<_> {
        stream.set_read_timeout(Some(CONNECT_TIMEOUT))?;
        let io = packet::PacketIo::new(NetStream(stream));
        let Some(mut conn) = conn::handshake(io, &engine, &registry, &host)? else {
            return Ok(None);
        };
        if let Ok(w) = waker {
            // KILL wakes the connection through its socket: the poller
            // sees the shutdown, the worker ends the connection.
            conn.session_slot().on_interrupt(move || {
                let _ = w.shutdown(std::net::Shutdown::Both);
            });
        }
        conn.set_nonblocking()?;
        // Anything sent right after the login is served here.
        Ok(conn.serve_ready()?.then_some(conn))
    }));
    let failed = |e: &dyn std::fmt::Display| eprintln!("connection from {host}: {e}");
    match r {
        Ok(Ok(Some(conn))) => {
            if let Err(e) = pool.register(Client::new(conn, host.clone())) {
                failed(&e);
            }
        }
        Ok(Ok(None)) => {}
        Ok(Err(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::UnexpectedEof
                    | std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::WouldBlock
                    | std::io::ErrorKind::TimedOut
            ) => {}
        Ok(Err(e)) => failed(&e),
        Err(_) => failed(&"internal error, connection closed"),
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
