//! MySQL packet framing: 3-byte little-endian length, 1-byte sequence id,
//! payload; payloads of 16 MiB - 1 or more continue in the next packet.
use std::io::{self, Read, Write};

const MAX_CHUNK: usize = 0xff_ffff;
/// Largest request accepted unless told otherwise (max_allowed_packet).
pub const MAX_PACKET: usize = 64 << 20;

/// A request over max_allowed_packet (answered with 1153, then the
/// connection closes).
#[derive(Debug)]
pub struct PacketTooLarge;

impl std::fmt::Display for PacketTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Got a packet bigger than 'max_allowed_packet' bytes")
    }
}

impl std::error::Error for PacketTooLarge {}

fn too_large() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, PacketTooLarge)
}

/// Whether `e` is a request over max_allowed_packet.
pub fn is_too_large(e: &io::Error) -> bool {
    e.get_ref()
        .is_some_and(|inner| inner.is::<PacketTooLarge>())
}

pub struct PacketIo<S> {
    pub stream: S,
    pub seq: u8,
    out: Vec<u8>,
    /// Bytes received and not yet consumed: `input[at..end]` (the vector
    /// is kept at its full size so reads never re-zero it). One `read`
    /// usually brings a whole request (header and payload) at once.
    input: Vec<u8>,
    at: usize,
    end: usize,
    /// Largest request accepted.
    max_packet: usize,
}

/// What [`PacketIo::try_read`] found.
pub enum Ready {
    Packet(Vec<u8>),
    /// Part of a packet or nothing has arrived; more is to come.
    Pending,
    /// The client closed the connection between packets.
    Closed,
}

/// Bytes asked of the socket per read.
const READ_CHUNK: usize = 16 << 10;

impl<S: Read + Write> PacketIo<S> {
    pub fn new(stream: S) -> Self {
        PacketIo {
            stream,
            seq: 0,
            out: Vec::with_capacity(16 << 10),
            input: vec![0; READ_CHUNK],
            at: 0,
            end: 0,
            max_packet: MAX_PACKET,
        }
    }

    /// Takes the bytes read from the stream past the last packet (the
    /// start of a TLS handshake that came with the SSL request).
    pub fn take_unread(&mut self) -> Vec<u8> {
        let unread = self.input[self.at..self.end].to_vec();
        self.at = 0;
        self.end = 0;
        unread
    }

    /// Sets the largest request accepted (max_allowed_packet).
    pub fn set_max_packet(&mut self, bytes: usize) {
        self.max_packet = bytes;
    }

    /// Fills `buf` from the input buffer first, then the socket (blocking).
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let mut done = 0;
        while done < buf.len() {
            if self.at == self.end {
                let want = buf.len() - done;
                if want >= READ_CHUNK {
                    // Large payload: straight into place.
                    return self.stream.read_exact(&mut buf[done..]);
                }
                self.at = 0;
                self.end = 0;
                if self.fill()? == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
            }
            let n = (self.end - self.at).min(buf.len() - done);
            buf[done..done + n].copy_from_slice(&self.input[self.at..self.at + n]);
            self.at += n;
            done += n;
        }
        Ok(())
    }

    /// Reads once from the stream into the room after `end`, first making
    /// room (moving unread bytes to the front, growing for a big packet).
    fn fill(&mut self) -> io::Result<usize> {
        if self.at > 0 {
            self.input.copy_within(self.at..self.end, 0);
            self.end -= self.at;
            self.at = 0;
        }
        if self.input.len() - self.end < READ_CHUNK / 2 {
            self.input.resize(self.input.len() * 2, 0);
        }
        loop {
            match self.stream.read(&mut self.input[self.end..]) {
                Ok(n) => {
                    self.end += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Takes one logical packet if all of it has arrived, reading what the
    /// (non-blocking) stream has without waiting for more.
    pub fn try_read(&mut self) -> io::Result<Ready> {
        loop {
            if let Some(p) = self.take_buffered()? {
                return Ok(Ready::Packet(p));
            }
            let had = self.end - self.at;
            match self.fill() {
                Ok(0) if had == 0 => return Ok(Ready::Closed),
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(Ready::Pending),
                Err(e) => return Err(e),
            }
        }
    }

    /// The next logical packet if the input buffer holds all of it.
    fn take_buffered(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut pos = self.at;
        let mut total = 0;
        // First pass: is every chunk of the packet here?
        loop {
            let Some(h) = self.input[..self.end].get(pos..pos + 4) else {
                return Ok(None);
            };
            let len = u32::from_le_bytes([h[0], h[1], h[2], 0]) as usize;
            total += len;
            if total > self.max_packet {
                // The error answers this packet.
                self.seq = h[3].wrapping_add(1);
                return Err(too_large());
            }
            if self.end < pos + 4 + len {
                return Ok(None);
            }
            pos += 4 + len;
            if len < MAX_CHUNK {
                break;
            }
        }
        let mut payload = Vec::with_capacity(total);
        while self.at < pos {
            let h = &self.input[self.at..self.at + 4];
            let len = u32::from_le_bytes([h[0], h[1], h[2], 0]) as usize;
            self.seq = h[3].wrapping_add(1);
            payload.extend_from_slice(&self.input[self.at + 4..self.at + 4 + len]);
            self.at += 4 + len;
        }
        if self.at == self.end {
            self.at = 0;
            self.end = 0;
            if self.input.len() > 4 * READ_CHUNK {
                // Give back what one big packet needed.
                self.input = vec![0; READ_CHUNK];
            }
        }
        Ok(Some(payload))
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
            if payload.len() + len > self.max_packet {
                return Err(too_large());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A non-blocking stream that delivers `chunks` one read at a time,
    /// saying `WouldBlock` between them, then end of stream.
    struct Trickle {
        chunks: Vec<Vec<u8>>,
        next: usize,
        gap: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.gap {
                self.gap = false;
                return Err(io::ErrorKind::WouldBlock.into());
            }
            self.gap = true;
            let Some(c) = self.chunks.get_mut(self.next) else {
                return Ok(0);
            };
            let n = c.len().min(buf.len());
            buf[..n].copy_from_slice(&c[..n]);
            c.drain(..n);
            if c.is_empty() {
                self.next += 1;
            }
            Ok(n)
        }
    }

    impl Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn packet(seq: u8, payload: &[u8]) -> Vec<u8> {
        let mut p = (payload.len() as u32).to_le_bytes()[..3].to_vec();
        p.push(seq);
        p.extend_from_slice(payload);
        p
    }

    #[test]
    fn packets_split_or_joined_across_reads_come_out_whole() {
        let a = packet(0, b"\x03SELECT 1");
        let b = packet(0, b"\x0e");
        let mut joined = a.clone();
        joined.extend_from_slice(&b);
        // Header split, payload split, two packets in one read.
        let chunks = vec![
            joined[..2].to_vec(),
            joined[2..7].to_vec(),
            joined[7..].to_vec(),
        ];
        let mut io = PacketIo::new(Trickle {
            chunks,
            next: 0,
            gap: false,
        });
        let mut got = Vec::new();
        loop {
            match io.try_read().unwrap() {
                Ready::Packet(p) => got.push(p),
                Ready::Pending => continue,
                Ready::Closed => break,
            }
        }
        assert_eq!(got, vec![b"\x03SELECT 1".to_vec(), b"\x0e".to_vec()]);
    }

    #[test]
    fn a_stream_cut_inside_a_packet_is_an_error_and_oversized_is_refused() {
        let a = packet(0, b"\x03SELECT 1");
        let mut io = PacketIo::new(Trickle {
            chunks: vec![a[..6].to_vec()],
            next: 0,
            gap: false,
        });
        assert!(matches!(io.try_read().unwrap(), Ready::Pending));
        assert_eq!(
            io.try_read().err().map(|e| e.kind()),
            Some(io::ErrorKind::UnexpectedEof)
        );
        // A 16 MiB - 1 chunk chain announcing more than MAX_PACKET.
        let mut huge = vec![0xff, 0xff, 0xff, 0];
        huge.resize(4 + MAX_CHUNK, 0);
        let chunks: Vec<Vec<u8>> = (0..(MAX_PACKET / MAX_CHUNK + 1))
            .map(|i| {
                let mut h = huge.clone();
                h[3] = i as u8;
                h
            })
            .collect();
        let mut io = PacketIo::new(Trickle {
            chunks,
            next: 0,
            gap: false,
        });
        let err = loop {
            match io.try_read() {
                Ok(Ready::Pending) => continue,
                Ok(other) => panic!("accepted: {}", matches!(other, Ready::Closed)),
                Err(e) => break e,
            }
        };
        assert!(is_too_large(&err));
        // A lower limit applies to the whole packet.
        let mut big = vec![0u8; 4];
        big[..3].copy_from_slice(&2000u32.to_le_bytes()[..3]);
        big.resize(2004, b'x');
        let mut io = PacketIo::new(Trickle {
            chunks: vec![big],
            next: 0,
            gap: false,
        });
        io.set_max_packet(1024);
        let err = loop {
            match io.try_read() {
                Ok(Ready::Pending) => continue,
                Ok(_) => panic!("accepted a packet over the limit"),
                Err(e) => break e,
            }
        };
        assert!(is_too_large(&err));
    }
}
