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

/// I/O buffer of a spill file's writer or reader.
const BUFFER: usize = 256 << 10;

/// Rows being written.
pub(crate) struct SpillWriter {
    out: BufWriter<File>,
    record: Vec<u8>,
    rows: u64,
}

impl SpillWriter {
    /// A new, empty file in the temporary directory (`TMPDIR`, else /tmp).
    pub(crate) fn create() -> Result<SpillWriter> {
        let dir = std::env::temp_dir();
        let made = MADE.with(|m| {
            m.set(m.get() + 1);
            m.get()
        });
        let thread = format!("{:?}", std::thread::current().id());
        let path = dir.join(format!(
            "lineardb-spill-{}-{}-{made}",
            std::process::id(),
            thread.trim_start_matches("ThreadId(").trim_end_matches(')'),
        ));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| write_error(&path.display().to_string(), &e))?;
        // Open files stay readable after their name is gone.
        std::fs::remove_file(&path).map_err(|e| write_error(&path.display().to_string(), &e))?;
        Ok(SpillWriter {
            out: BufWriter::with_capacity(BUFFER, file),
            record: Vec::new(),
            rows: 0,
        })
    }

    /// Appends one row.
    pub(crate) fn write(&mut self, values: &[Value]) -> Result<()> {
        self.record.clear();
        encode_row(values, &mut self.record);
        self.out
            .write_all(&(self.record.len() as u32).to_le_bytes())
            .and_then(|()| self.out.write_all(&self.record))
            .map_err(|e| write_error("a spill file", &e))?;
        self.rows += 1;
        Ok(())
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
            input: BufReader::with_capacity(BUFFER, file),
            record: Vec::new(),
            left: rows,
        })
    }
}

/// Rows being read back.
pub(crate) struct SpillReader {
    input: BufReader<File>,
    record: Vec<u8>,
    left: u64,
}

impl SpillReader {
    /// The next row, None after the last.
    pub(crate) fn next_row(&mut self) -> Result<Option<Vec<Value>>> {
        if self.left == 0 {
            return Ok(None);
        }
        let mut len = [0u8; 4];
        self.input
            .read_exact(&mut len)
            .map_err(|e| read_error(&e))?;
        self.record.resize(u32::from_le_bytes(len) as usize, 0);
        self.input
            .read_exact(&mut self.record)
            .map_err(|e| read_error(&e))?;
        let row = decode_row(&mut &self.record[..]).ok_or_else(|| {
            SqlError::new(1030, "HY000", "Got error: a spill file holds a damaged row")
        })?;
        self.left -= 1;
        Ok(Some(row))
    }
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
                    .filter(|e| {
                        e.file_name()
                            .to_string_lossy()
                            .starts_with(&format!("lineardb-spill-{}-", std::process::id()))
                    })
                    .count()
            })
            .unwrap_or(0)
    }
}
