//! A spill file: rows written once, then read back once in the order they
//! were written. The file is unlinked as soon as it is made, so nothing of
//! it outlives the query, nor a crash of the server.
use super::codec::{decode_row, encode_row};
use crate::error::{Result, SqlError};
use lineardb_table::Value;
use std::cell::Cell;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};

thread_local! {
    /// Files this thread has made (with the process and thread, names
    /// them apart without a counter threads share).
    static MADE: Cell<u64> = const { Cell::new(0) };
}

/// The start of the names of this thread's spill files (process, thread).
fn name_prefix() -> String {
    let thread = format!("{:?}", std::thread::current().id());
    format!(
        "lineardb-spill-{}-{}-",
        std::process::id(),
        thread.trim_start_matches("ThreadId(").trim_end_matches(')'),
    )
}

/// I/O buffer of a spill file's writer or reader.
const BUFFER: usize = 256 << 10;

/// Rows being written.
pub(crate) struct SpillWriter {
    out: BufWriter<File>,
    record: Vec<u8>,
    rows: u64,
    /// Bytes of I/O buffer the writer and its reader take.
    buffer: usize,
}

impl SpillWriter {
    /// A new, empty file in the temporary directory (`TMPDIR`, else /tmp).
    pub(crate) fn create() -> Result<SpillWriter> {
        SpillWriter::with_buffer(BUFFER)
    }

    /// [`create`](Self::create) with an I/O buffer of `buffer` bytes (for
    /// many files open at once).
    pub(crate) fn with_buffer(buffer: usize) -> Result<SpillWriter> {
        let dir = std::env::temp_dir();
        let made = MADE.with(|m| {
            m.set(m.get() + 1);
            m.get()
        });
        let path = dir.join(format!("{}{made}", name_prefix()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| write_error(&path.display().to_string(), &e))?;
        // Open files stay readable after their name is gone.
        std::fs::remove_file(&path).map_err(|e| write_error(&path.display().to_string(), &e))?;
        Ok(SpillWriter {
            out: BufWriter::with_capacity(buffer, file),
            record: Vec::new(),
            rows: 0,
            buffer,
        })
    }

    /// Appends one row.
    pub(crate) fn write(&mut self, values: &[Value]) -> Result<()> {
        self.record.clear();
        encode_row(values, &mut self.record);
        self.put_record()
    }

    /// Appends one row with a key of bytes beside it (read back by
    /// [`SpillReader::next_keyed`]).
    pub(crate) fn write_keyed(&mut self, key: &[u8], values: &[Value]) -> Result<()> {
        self.record.clear();
        self.record
            .extend_from_slice(&(key.len() as u32).to_le_bytes());
        self.record.extend_from_slice(key);
        encode_row(values, &mut self.record);
        self.put_record()
    }

    /// Writes `self.record` after its length.
    fn put_record(&mut self) -> Result<()> {
        self.out
            .write_all(&(self.record.len() as u32).to_le_bytes())
            .and_then(|()| self.out.write_all(&self.record))
            .map_err(|e| write_error("a spill file", &e))?;
        self.rows += 1;
        Ok(())
    }

    /// Rows written so far.
    pub(crate) fn rows(&self) -> u64 {
        self.rows
    }

    /// The rows written, to be read back from the first.
    pub(crate) fn finish(self) -> Result<SpillReader> {
        let rows = self.rows;
        let mut file = self
            .out
            .into_inner()
            .map_err(|e| write_error("a spill file", e.error()))?;
        file.seek(SeekFrom::Start(0)).map_err(|e| read_error(&e))?;
        Ok(SpillReader {
            input: BufReader::with_capacity(self.buffer, file),
            record: Vec::new(),
            left: rows,
            rows,
        })
    }
}

/// Rows being read back.
pub(crate) struct SpillReader {
    input: BufReader<File>,
    record: Vec<u8>,
    left: u64,
    /// Rows in the file.
    rows: u64,
}

impl SpillReader {
    /// Reads again from the first row.
    pub(crate) fn rewind(&mut self) -> Result<()> {
        self.input
            .seek(SeekFrom::Start(0))
            .map_err(|e| read_error(&e))?;
        self.left = self.rows;
        Ok(())
    }

    /// The next row, None after the last.
    pub(crate) fn next_row(&mut self) -> Result<Option<Vec<Value>>> {
        if !self.next_record()? {
            return Ok(None);
        }
        decode_row(&mut &self.record[..])
            .map(Some)
            .ok_or_else(damaged)
    }

    /// The next row written by [`SpillWriter::write_keyed`] and its key,
    /// None after the last.
    pub(crate) fn next_keyed(&mut self) -> Result<Option<(Vec<u8>, Vec<Value>)>> {
        if !self.next_record()? {
            return Ok(None);
        }
        let mut input = &self.record[..];
        let len = input
            .get(..4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or_else(damaged)?;
        input = &input[4..];
        let key = input.get(..len).ok_or_else(damaged)?.to_vec();
        input = &input[len..];
        let row = decode_row(&mut input).ok_or_else(damaged)?;
        Ok(Some((key, row)))
    }

    /// Reads the next record into `self.record`; false after the last.
    fn next_record(&mut self) -> Result<bool> {
        if self.left == 0 {
            return Ok(false);
        }
        let mut len = [0u8; 4];
        self.input
            .read_exact(&mut len)
            .map_err(|e| read_error(&e))?;
        self.record.resize(u32::from_le_bytes(len) as usize, 0);
        self.input
            .read_exact(&mut self.record)
            .map_err(|e| read_error(&e))?;
        self.left -= 1;
        Ok(true)
    }
}

/// The error of a record this module did not write.
fn damaged() -> SqlError {
    SqlError::new(1030, "HY000", "Got error: a spill file holds a damaged row")
}

/// MariaDB's ER_ERROR_ON_WRITE (a full disk among its causes).
fn write_error(what: &str, e: &std::io::Error) -> SqlError {
    SqlError::new(
        3,
        "HY000",
        format!("Error writing file '{what}' (Errcode: {e})"),
    )
}

/// MariaDB's ER_ERROR_ON_READ.
fn read_error(e: &std::io::Error) -> SqlError {
    SqlError::new(
        2,
        "HY000",
        format!("Error reading file 'a spill file' (Errcode: {e})"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_in_order_and_no_file_is_left() {
        let before = spill_files();
        let mut w = SpillWriter::create().unwrap();
        for i in 0..10_000 {
            w.write(&[Value::Int(i), Value::Bytes(vec![b'x'; (i % 50) as usize])])
                .unwrap();
        }
        assert_eq!(spill_files(), before, "the file has no name");
        let mut r = w.finish().unwrap();
        for i in 0..10_000 {
            let row = r.next_row().unwrap().unwrap();
            assert_eq!(row[0], Value::Int(i));
            assert_eq!(row[1], Value::Bytes(vec![b'x'; (i % 50) as usize]));
        }
        assert_eq!(r.next_row().unwrap(), None);
    }

    fn spill_files() -> usize {
        std::fs::read_dir(std::env::temp_dir())
            .map(|d| {
                d.filter_map(|e| e.ok())
                    // (This thread's: tests beside it spill too.)
                    .filter(|e| e.file_name().to_string_lossy().starts_with(&name_prefix()))
                    .count()
            })
            .unwrap_or(0)
    }
}
