//! A client socket in non-blocking mode as the protocol code sees it,
//! plain or TLS: reads say `WouldBlock` when nothing is waiting (the worker
//! then goes on to another connection); writes wait for room, so a result
//! set is always sent whole, unless the client stops reading for
//! [`WRITE_TIMEOUT`].
//!
//! Over TLS a read drains what the socket has into rustls and returns the
//! plaintext; `WouldBlock` only once rustls holds no plaintext either, so a
//! reader that reads until `WouldBlock` (as the packet reader does) leaves
//! nothing buffered behind the poller's back.
use crate::poller::wait_writable;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::time::Duration;

/// How long a client may leave a result unread (MySQL's net_write_timeout).
pub(crate) const WRITE_TIMEOUT: Duration = Duration::from_secs(60);

pub(crate) struct NetStream {
    pub(crate) tcp: TcpStream,
    tls: Option<Box<rustls::ServerConnection>>,
}

impl NetStream {
    pub(crate) fn new(tcp: TcpStream) -> NetStream {
        NetStream { tcp, tls: None }
    }

    /// Runs the TLS handshake (the socket is blocking, as during login),
    /// starting with `early`, TLS bytes already read from the socket; from
    /// then on everything goes through TLS.
    pub(crate) fn start_tls(
        &mut self,
        config: Arc<rustls::ServerConfig>,
        mut early: &[u8],
    ) -> io::Result<()> {
        let bad = |e: rustls::Error| io::Error::new(io::ErrorKind::InvalidData, e);
        let mut tls = rustls::ServerConnection::new(config).map_err(bad)?;
        while !early.is_empty() {
            tls.read_tls(&mut early)?;
            tls.process_new_packets().map_err(bad)?;
        }
        while tls.is_handshaking() {
            tls.complete_io(&mut self.tcp)?;
        }
        self.tls = Some(Box::new(tls));
        Ok(())
    }

    /// The TLS version and cipher suite, once TLS is on.
    pub(crate) fn tls_parameters(&self) -> Option<(String, String)> {
        let tls = self.tls.as_ref()?;
        let version = match tls.protocol_version()? {
            rustls::ProtocolVersion::TLSv1_3 => "TLSv1.3".to_string(),
            rustls::ProtocolVersion::TLSv1_2 => "TLSv1.2".to_string(),
            other => format!("{other:?}"),
        };
        let suite = tls.negotiated_cipher_suite()?.suite();
        let name = suite.as_str().unwrap_or("unknown");
        // OpenSSL's names for the TLS 1.3 suites, as MariaDB shows them.
        let name = match name.strip_prefix("TLS13_") {
            Some(rest) => format!("TLS_{rest}"),
            None => name.to_string(),
        };
        Some((version, name))
    }

    /// Sends what TLS has queued, waiting for room.
    fn send_tls(tcp: &mut TcpStream, tls: &mut rustls::ServerConnection) -> io::Result<()> {
        while tls.wants_write() {
            match tls.write_tls(tcp) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    wait_writable(tcp.as_raw_fd(), WRITE_TIMEOUT)?
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
                Ok(_) => {}
            }
        }
        Ok(())
    }
}

impl Read for NetStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(tls) = self.tls.as_mut() else {
            return self.tcp.read(buf);
        };
        loop {
            match tls.reader().read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                r => return r,
            }
            // No plaintext buffered: bring what the socket has.
            if tls.read_tls(&mut self.tcp)? == 0 {
                return Ok(0);
            }
            tls.process_new_packets()
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            // Answers TLS itself owes (alerts, key updates).
            Self::send_tls(&mut self.tcp, tls)?;
        }
    }
}

impl Write for NetStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(tls) = self.tls.as_mut() {
            // rustls takes plaintext only up to its buffer limit (0 bytes
            // once full): send what it has queued and offer the rest again.
            let mut rest = buf;
            while !rest.is_empty() {
                let taken = tls.writer().write(rest)?;
                rest = &rest[taken..];
                Self::send_tls(&mut self.tcp, tls)?;
            }
            return Ok(buf.len());
        }
        loop {
            match self.tcp.write(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    wait_writable(self.tcp.as_raw_fd(), WRITE_TIMEOUT)?
                }
                r => return r,
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(tls) = self.tls.as_mut() {
            Self::send_tls(&mut self.tcp, tls)?;
        }
        self.tcp.flush()
    }
}
