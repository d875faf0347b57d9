//! Read-only cursors of prepared statements (COM_STMT_EXECUTE with
//! CURSOR_TYPE_READ_ONLY, then COM_STMT_FETCH). The result's rows are made
//! when the statement runs, as MariaDB materializes a cursor's result, and
//! kept as binary-protocol row packets — in memory up to a bound, past it
//! in a temporary file that is unlinked when made — until the client
//! fetches them. Nothing of the statement (no snapshot, no lock) outlives
//! its execution.
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

/// The bytes of row packets a cursor keeps in memory; the rest go to its
/// file.
const IN_MEMORY: usize = 8 << 20;

/// The rows a cursor has left to send.
#[derive(Default)]
pub(crate) struct CursorRows {
    /// Packets, each after its length (four bytes, little-endian).
    memory: Vec<u8>,
    /// Where the next packet in memory starts.
    at: usize,
    spilled: Option<Spill>,
    left: u64,
}

/// The rows past the memory bound.
enum Spill {
    Writing(BufWriter<File>),
    Reading(BufReader<File>),
}

impl CursorRows {
    /// Keeps one row packet (rows come before any is fetched).
    pub(crate) fn push(&mut self, packet: &[u8]) -> io::Result<()> {
        let len = u32::try_from(packet.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "row too long"))?
            .to_le_bytes();
        if self.spilled.is_none() && self.memory.len() + 4 + packet.len() > IN_MEMORY {
            self.spilled = Some(Spill::Writing(BufWriter::new(unlinked_file()?)));
        }
        match &mut self.spilled {
            None => {
                self.memory.extend_from_slice(&len);
                self.memory.extend_from_slice(packet);
            }
            Some(Spill::Writing(w)) => {
                w.write_all(&len)?;
                w.write_all(packet)?;
            }
            Some(Spill::Reading(_)) => {
                return Err(io::Error::other("a row kept after fetching began"));
            }
        }
        self.left += 1;
        Ok(())
    }

    /// The next row packet into `out`; false when none is left.
    pub(crate) fn next_into(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        if self.left == 0 {
            return Ok(false);
        }
        self.left -= 1;
        out.clear();
        if self.at < self.memory.len() {
            let len = u32::from_le_bytes(
                self.memory[self.at..self.at + 4]
                    .try_into()
                    .expect("four bytes"),
            ) as usize;
            let start = self.at + 4;
            out.extend_from_slice(&self.memory[start..start + len]);
            self.at = start + len;
            return Ok(true);
        }
        if matches!(self.spilled, Some(Spill::Writing(_))) {
            let Some(Spill::Writing(w)) = self.spilled.take() else {
                unreachable!("matched above");
            };
            let mut file = w.into_inner().map_err(|e| e.into_error())?;
            file.seek(SeekFrom::Start(0))?;
            self.spilled = Some(Spill::Reading(BufReader::new(file)));
        }
        let Some(Spill::Reading(r)) = &mut self.spilled else {
            return Err(io::Error::other("a cursor's rows are missing"));
        };
        let mut len = [0u8; 4];
        r.read_exact(&mut len)?;
        out.resize(u32::from_le_bytes(len) as usize, 0);
        r.read_exact(out)?;
        Ok(true)
    }

    /// Whether every row was sent.
    pub(crate) fn is_done(&self) -> bool {
        self.left == 0
    }
}

/// A new file in the temporary directory, its name removed at once (it
/// lives as long as it is open).
fn unlinked_file() -> io::Result<File> {
    thread_local! {
        /// Files this thread made: with the process and thread, names them
        /// apart without a counter threads share.
        static MADE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }
    let n = MADE.with(|m| {
        m.set(m.get() + 1);
        m.get()
    });
    let thread = format!("{:?}", std::thread::current().id());
    let thread = thread.trim_start_matches("ThreadId(").trim_end_matches(')');
    let path = std::env::temp_dir().join(format!(
        "lineardb-cursor-{}-{thread}-{n}",
        std::process::id()
    ));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_in_order_from_memory_and_file() {
        let mut rows = CursorRows::default();
        let packet = |i: usize| vec![(i % 251) as u8; 1000 + i % 7];
        let n = IN_MEMORY / 1000 + 500;
        for i in 0..n {
            rows.push(&packet(i)).unwrap();
        }
        assert!(rows.spilled.is_some());
        let mut out = Vec::new();
        for i in 0..n {
            assert!(rows.next_into(&mut out).unwrap());
            assert_eq!(out, packet(i), "row {i}");
        }
        assert!(rows.is_done());
        assert!(!rows.next_into(&mut out).unwrap());
    }
}
