//! `lineardb serve`: the MySQL wire protocol (handshake, text and binary
//! protocol, prepared statements) in front of SQL sessions. A connection's
//! handshake runs on a short-lived thread of its own; then a small pool of
//! workers (one per core by default) serves every connection's requests as
//! they arrive. Each connection owns its session, so serving a query writes
//! nothing shared.
mod conn;
mod cursor;
mod packet;
mod poller;
mod result_columns;
mod stream;
mod tls;
mod workers;

use lineardb_sql::Registry;
use lineardb_table::Engine;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;
use stream::NetStream;
use workers::{Client, Workers};

pub use packet::MAX_PACKET;
pub use tls::Tls;

/// How long a new client may take to log in (MySQL's connect_timeout).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Accepts connections on `listener` forever; `workers` threads serve them
/// (0: one per core). With `tls`, clients may (or, if it says so, must)
/// switch to TLS.
pub fn serve(
    listener: TcpListener,
    engine: Arc<Engine>,
    workers: usize,
    tls: Option<Tls>,
) -> std::io::Result<()> {
    let registry = Registry::new();
    registry.set_tls(tls.is_some(), tls.as_ref().is_some_and(|t| t.required));
    lineardb_sql::prepare_system_schema(&engine)
        .map_err(|e| std::io::Error::other(format!("making the mysql schema: {e}")))?;
    let workers = match workers {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let pool = Workers::start(workers, engine.clone())?;
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
        let tls = tls.clone();
        std::thread::Builder::new()
            .name("login".into())
            .spawn(move || login(stream, engine, registry, &pool, tls))?;
    }
    Ok(())
}

/// Serves one client over `stream` on the calling thread until it leaves
/// (or its bytes end): the handshake, then every request, as `serve` does
/// for a socket. The fuzz targets drive the protocol through it.
pub fn serve_stream<S: std::io::Read + std::io::Write>(
    stream: S,
    engine: &Arc<Engine>,
    registry: &Arc<Registry>,
    client_host: &str,
) -> std::io::Result<()> {
    let io = packet::PacketIo::new(stream);
    let Some(mut conn) = conn::handshake(io, engine, registry, client_host, None, false)? else {
        return Ok(());
    };
    while conn.serve_ready_waiting()? {}
    Ok(())
}

/// Handshake (blocking, with a timeout), then the connection goes to the
/// worker pool.
fn login(
    stream: TcpStream,
    engine: Arc<Engine>,
    registry: Arc<Registry>,
    pool: &Workers,
    tls: Option<Tls>,
) {
    let _ = stream.set_nodelay(true);
    let host = match stream.peer_addr() {
        Ok(a) if a.ip().is_loopback() => "localhost".to_string(),
        Ok(a) => a.ip().to_string(),
        Err(_) => return,
    };
    if registry.connections() as u64 >= registry.max_connections() {
        let mut io = packet::PacketIo::new(NetStream::new(stream));
        let e = lineardb_sql::SqlError::new(1040, "08004", "Too many connections");
        let _ = conn::refuse(&mut io, &e);
        return;
    }
    let waker = stream.try_clone();
    // A login that times out (read timeout: WouldBlock or TimedOut) ends quietly.
    let quiet = [std::io::ErrorKind::WouldBlock, std::io::ErrorKind::TimedOut];
    let conn = guarded(&host, &quiet, || {
        stream.set_read_timeout(Some(CONNECT_TIMEOUT))?;
        let io = packet::PacketIo::new(NetStream::new(stream));
        let required = tls.as_ref().is_some_and(|t| t.required);
        let mut start_tls = tls
            .map(|t| move |s: &mut NetStream, early: &[u8]| s.start_tls(t.config.clone(), early));
        let upgrade = start_tls
            .as_mut()
            .map(|f| f as &mut dyn FnMut(&mut NetStream, &[u8]) -> std::io::Result<()>);
        let Some(mut conn) = conn::handshake(io, &engine, &registry, &host, upgrade, required)?
        else {
            return Ok(None);
        };
        conn.note_tls();
        if let Ok(w) = waker {
            // KILL wakes the connection through its socket: the poller
            // sees the shutdown, the worker ends the connection.
            conn.session_slot().on_interrupt(move || {
                let _ = w.shutdown(std::net::Shutdown::Both);
            });
        }
        conn.set_nonblocking()?;
        conn.defer_durability();
        // Anything sent right after the login is served here.
        Ok(conn.serve_ready_waiting()?.then_some(conn))
    });
    if let Some(Some(conn)) = conn {
        if let Err(e) = pool.register(Client::new(conn, host.clone())) {
            eprintln!("connection from {host}: {e}");
        }
    }
}

/// Runs `f` for the connection from `host`: a panic becomes an error (one
/// connection must not take the server down), and errors are logged unless
/// they only say the client went away (or are of a `quiet` kind).
/// `None` after any error.
pub(crate) fn guarded<T>(
    host: &str,
    quiet: &[std::io::ErrorKind],
    f: impl FnOnce() -> std::io::Result<T>,
) -> Option<T> {
    use std::io::ErrorKind as K;
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Some(v),
        Ok(Err(e)) => {
            let gone = matches!(
                e.kind(),
                K::UnexpectedEof | K::ConnectionReset | K::BrokenPipe
            );
            if !gone && !quiet.contains(&e.kind()) {
                eprintln!("connection from {host}: {e}");
            }
            None
        }
        Err(_) => {
            eprintln!("connection from {host}: internal error, connection closed");
            None
        }
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
