//! The MySQL wire protocol from the first byte a client sends: the
//! handshake answer, then commands (COM_QUERY, COM_STMT_PREPARE/EXECUTE
//! with their parameter decoding, COM_FIELD_LIST, ...). Whatever arrives,
//! the server answers or closes the connection; it never panics.
//!
//! The input's first byte chooses the framing: odd, the harness logs in as
//! root and frames the rest as packets (each a u16 length, then that many
//! bytes), so most inputs reach the commands; even, the rest is the raw
//! byte stream, handshake included.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::io::{self, Cursor, Read, Write};

struct Client {
    input: Cursor<Vec<u8>>,
}

impl Read for Client {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.input.read(buf)
    }
}

impl Write for Client {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn packet(out: &mut Vec<u8>, seq: u8, payload: &[u8]) {
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes()[..3]);
    out.push(seq);
    out.extend_from_slice(payload);
}

/// A HandshakeResponse41 for root without a password, database `f`,
/// multi-statements and the binary protocol's capabilities.
fn login() -> Vec<u8> {
    let caps: u32 = 0x0000_0200 // PROTOCOL_41
        | 0x0000_8000 // SECURE_CONNECTION
        | 0x0000_0008 // CONNECT_WITH_DB
        | 0x0001_0000 // MULTI_STATEMENTS
        | 0x0002_0000 // MULTI_RESULTS
        | 0x0008_0000; // PLUGIN_AUTH
    let mut p = Vec::new();
    p.extend_from_slice(&caps.to_le_bytes());
    p.extend_from_slice(&(16u32 << 20).to_le_bytes());
    p.push(45);
    p.extend_from_slice(&[0; 23]);
    p.extend_from_slice(b"root\0");
    p.push(0);
    p.extend_from_slice(b"f\0");
    p.extend_from_slice(b"mysql_native_password\0");
    p
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let fixture = lineardb_fuzz::fixture();
    let mut stream = Vec::new();
    if mode & 1 == 1 {
        packet(&mut stream, 1, &login());
        let mut rest = rest;
        while rest.len() >= 2 {
            let n = (u16::from_le_bytes([rest[0], rest[1]]) as usize).min(rest.len() - 2);
            packet(&mut stream, 0, &rest[2..2 + n]);
            rest = &rest[2 + n..];
        }
    } else {
        stream.extend_from_slice(rest);
    }
    let client = Client {
        input: Cursor::new(stream),
    };
    // Errors are the connection ending (the bytes ran out mid-packet, a
    // refused login): expected. A panic is the failure.
    let _ = lineardb_server::serve_stream(client, &fixture.engine, &fixture.registry, "localhost");
    if fixture.engine.table("f", "t").is_err() {
        lineardb_fuzz::reset(fixture);
    }
});
