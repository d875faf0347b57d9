//! A client socket in non-blocking mode as the protocol code sees it:
//! reads say `WouldBlock` when nothing is waiting (the worker then goes on
//! to another connection); writes wait for room, so a result set is always
//! sent whole, unless the client stops reading for [`WRITE_TIMEOUT`].
use crate::poller::wait_writable;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::fd::AsRawFd;
use std::time::Duration;

/// How long a client may leave a result unread (MySQL's net_write_timeout).
pub(crate) const WRITE_TIMEOUT: Duration = Duration::from_secs(60);

pub(crate) struct NetStream(pub TcpStream);

impl Read for NetStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl Write for NetStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        loop {
            match self.0.write(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    wait_writable(self.0.as_raw_fd(), WRITE_TIMEOUT)?
                }
                r => return r,
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
