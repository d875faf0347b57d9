//! Rows of delimited text as LOAD DATA reads them (MariaDB's READ_INFO):
//! lines ended by LINES TERMINATED BY (after LINES STARTING BY, where
//! given: text before it is passed over, a line without it is no row),
//! fields ended by FIELDS TERMINATED BY, a field begun with ENCLOSED BY's
//! character read to its closing one (doubled inside, a character), the
//! ESCAPED BY character before `0 b n r t Z` (NUL, backspace, newline,
//! return, tab, ^Z), before `N` alone (NULL) and before any other
//! character (that character, a terminator or quote among them); with
//! ENCLOSED BY, an unquoted `NULL` is NULL too.
//!
//! The text is read from the source in growing pieces, so a file of any
//! size passes through a buffer as large as its longest row.
use super::super::parser::load_data::FileFormat;
use std::io::Read;

/// A row's fields: bytes, or None for NULL.
pub(crate) type Fields = Vec<Option<Vec<u8>>>;

/// Bytes asked of the source at a time (doubled while a row is longer).
const PIECE: usize = 64 << 10;

pub(crate) struct DelimitedRows<'a> {
    source: &'a mut dyn Read,
    format: FileFormat,
    buf: Vec<u8>,
    /// Where the next row starts in `buf`.
    at: usize,
    /// The source has no more.
    ended: bool,
    /// Bytes to ask for next: grows while one row does not fit.
    piece: usize,
}

/// What reading a row from the buffer found.
enum Scan {
    Row(Fields, usize),
    /// The row goes on past the buffer.
    More,
    /// No row is left (the buffer ends where the last row did).
    Done,
}

impl<'a> DelimitedRows<'a> {
    pub(crate) fn new(source: &'a mut dyn Read, format: FileFormat) -> DelimitedRows<'a> {
        DelimitedRows {
            source,
            format,
            buf: Vec::new(),
            at: 0,
            ended: false,
            piece: PIECE,
        }
    }

    /// The next row; None at the end of the text.
    pub(crate) fn next_row(&mut self) -> std::io::Result<Option<Fields>> {
        loop {
            match self.scan() {
                Scan::Row(fields, end) => {
                    self.at = end;
                    return Ok(Some(fields));
                }
                Scan::Done => return Ok(None),
                Scan::More => self.fill()?,
            }
        }
    }

    /// Reads more of the source after what is buffered.
    fn fill(&mut self) -> std::io::Result<()> {
        if self.at > 0 {
            self.buf.drain(..self.at);
            self.at = 0;
        }
        let start = self.buf.len();
        self.buf.resize(start + self.piece, 0);
        let mut got = 0;
        while got < self.piece {
            match self.source.read(&mut self.buf[start + got..]) {
                Ok(0) => {
                    self.ended = true;
                    break;
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.buf.truncate(start + got);
        // A row longer than a piece: the next read twice as long.
        if got == self.piece {
            self.piece = (self.piece * 2).min(64 << 20);
        }
        Ok(())
    }

    /// One row from `buf[at..]`, if it is all there.
    fn scan(&self) -> Scan {
        let b = &self.buf[self.at..];
        let f = &self.format;
        let ended = self.ended;
        let mut i = 0;
        if b.is_empty() {
            return if ended { Scan::Done } else { Scan::More };
        }
        // LINES STARTING BY: the row begins after it; a line without it is
        // passed over.
        if !f.lines_starting.is_empty() {
            loop {
                match find(&b[i..], &f.lines_starting) {
                    Some(p) => {
                        // Not past the line's end.
                        match find(&b[i..], &f.lines_terminated) {
                            Some(t) if t < p => i += t + f.lines_terminated.len(),
                            _ => {
                                i += p + f.lines_starting.len();
                                break;
                            }
                        }
                    }
                    None if ended => return Scan::Done,
                    None => return Scan::More,
                }
            }
        }
        let mut fields: Fields = Vec::new();
        loop {
            let (field, next, line_ends) = match self.field(&b[i..]) {
                Some(x) => x,
                None => return Scan::More,
            };
            fields.push(field);
            i += next;
            if line_ends {
                return Scan::Row(fields, self.at + i);
            }
        }
    }

    /// One field at the start of `b`: its value, the bytes it took (with
    /// its terminator), and whether the line ended with it; None if `b`
    /// ends first and the source has more.
    fn field(&self, b: &[u8]) -> Option<(Option<Vec<u8>>, usize, bool)> {
        let f = &self.format;
        let ended = self.ended;
        let field_end = &f.fields_terminated;
        let line_end = &f.lines_terminated;
        // What ends a field at `k`: (bytes it takes, whether a line).
        let ends_at = |k: usize| -> Option<(usize, bool)> {
            if !line_end.is_empty() && b[k..].starts_with(line_end) {
                Some((line_end.len(), true))
            } else if !field_end.is_empty() && b[k..].starts_with(field_end) {
                Some((field_end.len(), false))
            } else {
                None
            }
        };
        // A terminator may start before the buffer's end and go on past it.
        let partial = |k: usize| -> bool {
            let rest = &b[k..];
            (!line_end.is_empty() && line_end.starts_with(rest))
                || (!field_end.is_empty() && field_end.starts_with(rest))
        };
        let mut out = Vec::new();
        let mut k = 0;
        if let Some(q) = f.enclosed.filter(|&q| b.first() == Some(&q)) {
            k = 1;
            loop {
                if k >= b.len() {
                    // An open quote at the end of the text: the rest as it is.
                    return ended.then_some((Some(out), k, true));
                }
                let c = b[k];
                if Some(c) == f.escaped && f.escaped != Some(q) {
                    if k + 1 >= b.len() {
                        if !ended {
                            return None;
                        }
                        out.push(c);
                        k += 1;
                        continue;
                    }
                    out.push(unescaped(b[k + 1]));
                    k += 2;
                } else if c == q {
                    if k + 1 < b.len() && b[k + 1] == q {
                        out.push(q);
                        k += 2;
                        continue;
                    }
                    // The closing quote, if a terminator (or the end)
                    // follows it; else a quote inside the field.
                    let after = k + 1;
                    if after == b.len() {
                        if !ended {
                            return None;
                        }
                        return Some((Some(out), after, true));
                    }
                    if let Some((n, line)) = ends_at(after) {
                        return Some((Some(out), after + n, line));
                    }
                    if !ended && partial(after) {
                        return None;
                    }
                    out.push(c);
                    k += 1;
                } else {
                    out.push(c);
                    k += 1;
                }
            }
        }
        let mut escaped_null = false;
        loop {
            if k >= b.len() {
                if !ended {
                    return None;
                }
                return Some((value(out, escaped_null, f.enclosed.is_some()), k, true));
            }
            if let Some((n, line)) = ends_at(k) {
                return Some((value(out, escaped_null, f.enclosed.is_some()), k + n, line));
            }
            if !ended && partial(k) {
                return None;
            }
            let c = b[k];
            if Some(c) == f.escaped {
                if k + 1 >= b.len() {
                    if !ended {
                        return None;
                    }
                    out.push(c);
                    k += 1;
                    continue;
                }
                let e = b[k + 1];
                if e == b'N' && out.is_empty() {
                    escaped_null = true;
                }
                out.push(unescaped(e));
                k += 2;
            } else {
                out.push(c);
                k += 1;
            }
        }
    }
}

/// An unquoted field's value: `\N` alone is NULL, and `NULL` where fields
/// may be quoted.
fn value(out: Vec<u8>, escaped_null: bool, quoting: bool) -> Option<Vec<u8>> {
    if (escaped_null && out == b"N") || (quoting && out == b"NULL") {
        None
    } else {
        Some(out)
    }
}

/// The character an escape stands for.
fn unescaped(c: u8) -> u8 {
    match c {
        b'0' => 0,
        b'b' => 8,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        b'Z' => 0x1a,
        other => other,
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &[u8], format: FileFormat) -> Vec<Fields> {
        // One byte at a time: every row crosses a buffer's end.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(out.len()).min(1);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut whole = text;
        let mut trickle = Trickle(text);
        let mut all = Vec::new();
        for source in [&mut whole as &mut dyn Read, &mut trickle] {
            let mut r = DelimitedRows::new(source, format.clone());
            let mut got = Vec::new();
            while let Some(row) = r.next_row().unwrap() {
                got.push(row);
            }
            all.push(got);
        }
        assert_eq!(all[0], all[1], "read whole and a byte at a time alike");
        all.pop().unwrap()
    }

    fn f(s: &str) -> Option<Vec<u8>> {
        Some(s.as_bytes().to_vec())
    }

    #[test]
    fn tab_separated_with_escapes() {
        let got = rows(b"1\ta\\tb\t\\N\n2\t\\\\x\\n\t\n\n3", FileFormat::default());
        assert_eq!(
            got,
            vec![
                vec![f("1"), f("a\tb"), None],
                vec![f("2"), f("\\x\n"), f("")],
                vec![f("")],
                vec![f("3")],
            ]
        );
    }

    #[test]
    fn csv_with_quotes() {
        let format = FileFormat {
            fields_terminated: b",".to_vec(),
            enclosed: Some(b'"'),
            optionally: true,
            lines_terminated: b"\r\n".to_vec(),
            ..FileFormat::default()
        };
        let got = rows(
            b"1,\"a,b\",\"say \"\"hi\"\"\",NULL,\\N\r\n2,\"x\"y\",\"\",\"multi\r\nline\"\r\n",
            format,
        );
        assert_eq!(
            got,
            vec![
                vec![f("1"), f("a,b"), f("say \"hi\""), None, None],
                vec![f("2"), f("x\"y"), f(""), f("multi\r\nline")],
            ]
        );
    }

    #[test]
    fn lines_starting_by_passes_over_other_text() {
        let format = FileFormat {
            fields_terminated: b",".to_vec(),
            lines_starting: b"xxx".to_vec(),
            ..FileFormat::default()
        };
        let got = rows(b"xxx1,a\nno row here\nskip xxx2,b\n", format);
        assert_eq!(got, vec![vec![f("1"), f("a")], vec![f("2"), f("b")]]);
    }
}
