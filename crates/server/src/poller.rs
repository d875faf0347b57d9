//! Readiness of many sockets for few threads: a thin, safe face on Linux
//! `epoll` in one-shot mode, and a wait for one socket to take more bytes.
//!
//! One-shot is the invariant the worker pool rests on: once an event for a
//! socket is delivered, no other event for it is delivered until it is
//! re-armed, so exactly one worker at a time owns a connection.
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

pub(crate) struct Poller {
    epoll: OwnedFd,
}

fn check(r: libc::c_int) -> io::Result<libc::c_int> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

impl Poller {
    pub fn new() -> io::Result<Poller> {
        // SAFETY: epoll_create1 takes no pointers; a non-negative result is
        // a new descriptor that nothing else owns.
        let fd = check(unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) })?;
        // SAFETY: `fd` was just created and is owned by nobody else.
        let epoll = unsafe { OwnedFd::from_raw_fd(fd) };
        Ok(Poller { epoll })
    }

    fn ctl(&self, op: libc::c_int, fd: RawFd, token: u64) -> io::Result<()> {
        self.ctl_events(op, fd, token, libc::EPOLLIN | libc::EPOLLRDHUP)
    }

    fn ctl_events(
        &self,
        op: libc::c_int,
        fd: RawFd,
        token: u64,
        events: libc::c_int,
    ) -> io::Result<()> {
        let mut ev = libc::epoll_event {
            events: (events | libc::EPOLLONESHOT) as u32,
            u64: token,
        };
        // SAFETY: `ev` is a valid epoll_event for the duration of the call
        // (the kernel copies it); both descriptors are open.
        check(unsafe { libc::epoll_ctl(self.epoll.as_raw_fd(), op, fd, &mut ev) })?;
        Ok(())
    }

    /// Watches `fd` for input; one event, then it must be re-armed.
    pub fn add(&self, fd: RawFd, token: u64) -> io::Result<()> {
        self.ctl(libc::EPOLL_CTL_ADD, fd, token)
    }

    /// Re-arms `fd` after its event was handled. Input already waiting
    /// produces an event at once.
    pub fn rearm(&self, fd: RawFd, token: u64) -> io::Result<()> {
        self.ctl(libc::EPOLL_CTL_MOD, fd, token)
    }

    /// Re-arms `fd` for output: a socket with room to send (the usual case)
    /// produces an event at once, delivering `token` to a worker.
    pub fn rearm_for_output(&self, fd: RawFd, token: u64) -> io::Result<()> {
        self.ctl_events(libc::EPOLL_CTL_MOD, fd, token, libc::EPOLLOUT)
    }

    /// Stops watching `fd`.
    pub fn remove(&self, fd: RawFd) -> io::Result<()> {
        self.ctl(libc::EPOLL_CTL_DEL, fd, 0)
    }

    /// Waits for one ready socket and returns its token; `None` on timeout
    /// (or a signal). `None` timeout waits forever.
    pub fn wait(&self, timeout: Option<Duration>) -> io::Result<Option<u64>> {
        let mut ev = libc::epoll_event { events: 0, u64: 0 };
        let ms = timeout.map_or(-1, |t| t.as_millis().min(i32::MAX as u128) as libc::c_int);
        // SAFETY: `ev` is writable room for exactly the one event asked for.
        let n = unsafe { libc::epoll_wait(self.epoll.as_raw_fd(), &mut ev, 1, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            return match e.kind() {
                io::ErrorKind::Interrupted => Ok(None),
                _ => Err(e),
            };
        }
        Ok((n == 1).then_some(ev.u64))
    }
}

/// Waits until `fd` can take more bytes; an error after `timeout`.
pub(crate) fn wait_writable(fd: RawFd, timeout: Duration) -> io::Result<()> {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    };
    let ms = timeout.as_millis().min(i32::MAX as u128) as libc::c_int;
    loop {
        // SAFETY: `p` is one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut p, 1, ms) };
        match n {
            1 => return Ok(()),
            0 => {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "client stopped reading results",
                ))
            }
            _ => {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::{TcpListener, TcpStream};

    #[test]
    fn one_shot_delivers_once_until_rearmed() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        let p = Poller::new().unwrap();
        let short = Some(Duration::from_millis(20));
        p.add(server.as_raw_fd(), 7).unwrap();
        assert_eq!(p.wait(short).unwrap(), None, "nothing to read yet");
        client.write_all(b"x").unwrap();
        assert_eq!(p.wait(short).unwrap(), Some(7));
        assert_eq!(p.wait(short).unwrap(), None, "disarmed after delivery");
        p.rearm(server.as_raw_fd(), 8).unwrap();
        assert_eq!(p.wait(short).unwrap(), Some(8), "unread input fires again");
        p.remove(server.as_raw_fd()).unwrap();
        assert_eq!(p.wait(short).unwrap(), None);
        wait_writable(server.as_raw_fd(), Duration::from_secs(1)).unwrap();
    }
}
