//! MySQL packet framing: 3-byte little-endian length, 1-byte sequence id,
//! payload; payloads of 16 MiB - 1 or more continue in the next packet.
use std::io::{self, Read, Write};

const MAX_CHUNK: usize = 0xff_ffff;
/// Largest request accepted (max_allowed_packet).
pub const MAX_PACKET: usize = 64 << 20;

pub struct PacketIo<S> {
    pub stream: S,
    pub seq: u8,
    out: Vec<u8>,
    /// Bytes received and not yet consumed: `input[at..]`. One `read`
    /// usually brings a whole request (header and payload) at once.
    input: Vec<u8>,
    at: usize,
}

/// Bytes asked of the socket per read.
const READ_CHUNK: usize = 16 << 10;

impl<S: Read + Write> PacketIo<S> {
    pub fn new(stream: S) -> Self {
        PacketIo {
            stream,
            seq: 0,
            out: Vec::with_capacity(16 << 10),
            input: Vec::with_capacity(READ_CHUNK),
            at: 0,
        }
    }

    /// Fills `buf` from the input buffer first, then the socket.
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let mut done = 0;
        while done < buf.len() {
            if self.at == self.input.len() {
                let want = buf.len() - done;
                if want >= READ_CHUNK {
                    // Large payload: straight into place.
                    return self.stream.read_exact(&mut buf[done..]);
                }
                self.input.resize(READ_CHUNK, 0);
                let n = loop {
                    match self.stream.read(&mut self.input) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => {
                            self.input.clear();
                            self.at = 0;
                            return Err(e);
                        }
                    }
                };
                self.input.truncate(n);
                self.at = 0;
                if n == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
            }
            let n = (self.input.len() - self.at).min(buf.len() - done);
            buf[done..done + n].copy_from_slice(&self.input[self.at..self.at + n]);
            self.at += n;
            done += n;
        }
        Ok(())
    }

    /// Reads one logical packet; `Ok(None)` on a clean end of stream.
    pub fn read(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut payload = Vec::new();
        loop {
            let mut h = [0u8; 4];
            match self.read_exact(&mut h) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof && payload.is_empty() => {
                    return Ok(None)
                }
                Err(e) => return Err(e),
            }
            let len = u32::from_le_bytes([h[0], h[1], h[2], 0]) as usize;
            self.seq = h[3].wrapping_add(1);
            if payload.len() + len > MAX_PACKET {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "packet larger than max_allowed_packet",
                ));
            }
            let start = payload.len();
            payload.resize(start + len, 0);
            self.read_exact(&mut payload[start..])?;
            if len < MAX_CHUNK {
                return Ok(Some(payload));
            }
        }
    }

    /// Queues one packet (sent by [`flush`](Self::flush)).
    pub fn write(&mut self, payload: &[u8]) -> io::Result<()> {
        let mut rest = payload;
        loop {
            let n = rest.len().min(MAX_CHUNK);
            self.out.extend_from_slice(&(n as u32).to_le_bytes()[..3]);
            self.out.push(self.seq);
            self.seq = self.seq.wrapping_add(1);
            self.out.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
            if n < MAX_CHUNK {
                break;
            }
        }
        if self.out.len() >= 64 << 10 {
            self.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        if !self.out.is_empty() {
            self.stream.write_all(&self.out)?;
            self.out.clear();
        }
        self.stream.flush()
    }
}

/// Appends a length-encoded integer.
pub fn put_lenenc_int(out: &mut Vec<u8>, n: u64) {
    if n < 251 {
        out.push(n as u8);
    } else if n < 1 << 16 {
        out.push(0xfc);
        out.extend_from_slice(&(n as u16).to_le_bytes());
    } else if n < 1 << 24 {
        out.push(0xfd);
        out.extend_from_slice(&(n as u32).to_le_bytes()[..3]);
    } else {
        out.push(0xfe);
        out.extend_from_slice(&n.to_le_bytes());
    }
}

pub fn put_lenenc_str(out: &mut Vec<u8>, s: &[u8]) {
    put_lenenc_int(out, s.len() as u64);
    out.extend_from_slice(s);
}

/// A cursor over a request payload; every read is bounds-checked (a short
/// or malformed packet is an error, never a panic).
pub struct Reader<'a> {
    pub buf: &'a [u8],
    pub pos: usize,
}

fn short() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "malformed packet")
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }
    pub fn take(&mut self, n: usize) -> io::Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(short)?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    pub fn u8(&mut self) -> io::Result<u8> {
        Ok(self.take(1)?[0])
    }
    pub fn u16(&mut self) -> io::Result<u16> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    pub fn u32(&mut self) -> io::Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    pub fn u64(&mut self) -> io::Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    pub fn lenenc_int(&mut self) -> io::Result<u64> {
        Ok(match self.u8()? {
            0xfc => self.u16()? as u64,
            0xfd => {
                let b = self.take(3)?;
                u32::from_le_bytes([b[0], b[1], b[2], 0]) as u64
            }
            0xfe => self.u64()?,
            n => n as u64,
        })
    }
    pub fn lenenc_str(&mut self) -> io::Result<&'a [u8]> {
        let n = self.lenenc_int()?;
        self.take(usize::try_from(n).map_err(|_| short())?)
    }
    pub fn nul_str(&mut self) -> io::Result<&'a [u8]> {
        let rest = &self.buf[self.pos..];
        let n = rest.iter().position(|&b| b == 0).ok_or_else(short)?;
        self.pos += n + 1;
        Ok(&rest[..n])
    }
    pub fn rest(&mut self) -> &'a [u8] {
        let r = &self.buf[self.pos..];
        self.pos = self.buf.len();
        r
    }
    pub fn is_empty(&self) -> bool {
        self.pos >= self.buf.len()
    }
}
