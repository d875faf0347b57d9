//! SELECT … INTO OUTFILE and INTO DUMPFILE: a query's rows written to a
//! new file of the server's (FILE privilege; its directory must exist and
//! lie within `secure_file_priv`). OUTFILE writes delimited text as LOAD
//! DATA reads it back: fields quoted and escaped as MariaDB's
//! `select_export` does, NULL as `\N` (`NULL` with no escape character).
//! DUMPFILE writes one row's values as they are, nothing between them. The
//! statement's affected rows are the rows written; a file left half
//! written by an error is removed.
use super::server_files::write_error;
use crate::error::{Result, SqlError};
use crate::expr::Params;
use crate::parser::load_data::FileFormat;
use crate::parser::select_export::SelectExport;
use crate::privileges::bits::FILE;
use crate::result::{Column, ColumnKind, Outcome, RowSink};
use crate::session::Session;
use crate::value_encoding::ValueEncoding;
use lineardb_table::Value;
use sqlparser::ast;
use std::io::Write;

impl Session {
    /// SELECT … INTO OUTFILE or DUMPFILE.
    pub(crate) fn select_export(&mut self, export: &SelectExport) -> Result<Outcome> {
        self.require_global(FILE, "FILE")?;
        if let Some(cs) = &export.character_set {
            if !matches!(
                cs.to_ascii_lowercase().as_str(),
                "utf8mb4" | "utf8" | "utf8mb3" | "binary"
            ) {
                return Err(SqlError::unsupported(format!(
                    "SELECT … INTO OUTFILE … CHARACTER SET {cs}"
                )));
            }
        }
        let format = &export.format;
        if !export.dump && format.fields_terminated.is_empty() && format.enclosed.is_none() {
            return Err(SqlError::unsupported(
                "SELECT … INTO OUTFILE of fixed-width rows (FIELDS TERMINATED BY '')",
            ));
        }
        let mut statements = crate::parser::parse(&export.query)?;
        let stmt = match (statements.pop(), statements.is_empty()) {
            (Some(ast::Statement::Query(q)), true) if !crate::dispatch::selects_into(&q) => {
                ast::Statement::Query(q)
            }
            _ => return Err(SqlError::syntax_near(&export.query)),
        };
        let params = Params::of(&stmt);
        if params.count() > 0 {
            return Err(SqlError::syntax("'?' outside a prepared statement"));
        }
        let (path, file) = self.new_server_file(&export.file)?;
        let mut sink = ExportSink::new(std::io::BufWriter::new(file), format.clone(), export.dump);
        let stop = self.slot.kill_query.clone();
        let r = crate::expr::clock::with_statement_time(self.facts.time_zone, || {
            crate::expr::with_stop(&stop, || self.run(&stmt, &params, &[], &mut sink))
        });
        self.warn_from_execution();
        if !export.dump && sink.layout.ambiguous_term {
            self.warnings.push((
                1475,
                "First character of the FIELDS TERMINATED string is ambiguous; please use \
                 non-optional and non-empty FIELDS ENCLOSED BY"
                    .into(),
            ));
        }
        let written = r.and_then(|_| {
            sink.out.flush().map_err(|e| write_error(&path, &e))?;
            Ok(sink.rows)
        });
        match written {
            Ok(rows) => Ok(Outcome::done(rows)),
            // MariaDB keeps what DUMPFILE wrote before its second row.
            Err(e) if export.dump && e.code == 1172 => {
                let _ = sink.out.flush();
                Err(e)
            }
            Err(e) => {
                drop(sink);
                let _ = std::fs::remove_file(&path);
                Err(e)
            }
        }
    }
}

/// The characters that, escaped, read as something else (`\n`, `\0`, `\N`
/// …): a field separator among them is escaped by itself.
const ESCAPE_CHARS: &[u8] = b"ntrb0ZN";
/// The characters of numbers: with such a separator numbers are escaped
/// too.
const NUMERIC_CHARS: &[u8] = b".0123456789e+-";

/// How a row's fields are quoted and escaped, worked out once from the
/// format and the columns as MariaDB's `select_export::prepare` does.
#[derive(Default)]
struct Layout {
    /// Whether each column is a string (dates included), as MariaDB's
    /// STRING_RESULT: only those are escaped (but see `numbers_escaped`)
    /// and OPTIONALLY enclosed.
    strings: Vec<bool>,
    /// ENCLOSED BY around strings only (without ENCLOSED BY MariaDB counts
    /// it as OPTIONALLY; without a field separator, as not).
    optionally: bool,
    /// The first byte of the field separator and of the line terminator.
    field_term: Option<u8>,
    line_term: Option<u8>,
    /// The separator between quoted fields: the quote, else the field
    /// separator.
    separator: Option<u8>,
    /// The separator is a letter an escape gives meaning to (`n`, `0`…):
    /// it is escaped by itself.
    ambiguous_separator: bool,
    /// The separator may stand in a number: numbers are escaped too.
    numbers_escaped: bool,
    /// MariaDB's `is_ambiguous_field_term` (warning 1475): the field
    /// separator is then not escaped in fields without quotes.
    ambiguous_term: bool,
}

impl Layout {
    fn of(format: &FileFormat, columns: &[Column]) -> Layout {
        let strings: Vec<bool> = columns
            .iter()
            .map(|c| {
                matches!(
                    c.kind,
                    ColumnKind::Text(_)
                        | ColumnKind::Date
                        | ColumnKind::DateTime
                        | ColumnKind::Time
                )
            })
            .collect();
        let terminated = !format.fields_terminated.is_empty();
        let optionally = format.enclosed.is_none() || (format.optionally && terminated);
        let field_term = format.fields_terminated.first().copied();
        let line_term = lines_terminated(format).first().copied();
        let separator = format.enclosed.or(field_term);
        let ambiguous_separator = separator.is_some_and(|c| ESCAPE_CHARS.contains(&c));
        let numbers_escaped = separator.is_some_and(|c| NUMERIC_CHARS.contains(&c));
        let non_strings = strings.iter().any(|s| !s);
        let ambiguous_term =
            (ambiguous_separator && format.enclosed.is_none() && (optionally || !terminated))
                || (optionally
                    && non_strings
                    && field_term.is_some_and(|c| NUMERIC_CHARS.contains(&c)));
        Layout {
            strings,
            optionally,
            field_term,
            line_term,
            separator,
            ambiguous_separator,
            numbers_escaped,
            ambiguous_term,
        }
    }
}

/// The line terminator: LINES TERMINATED BY '' ends lines with the field
/// separator, as MariaDB does.
fn lines_terminated(format: &FileFormat) -> &[u8] {
    if format.lines_terminated.is_empty() {
        &format.fields_terminated
    } else {
        &format.lines_terminated
    }
}

/// The rows of a query, written to the file as they come.
struct ExportSink<W: Write> {
    out: W,
    format: FileFormat,
    dump: bool,
    encodings: Vec<ValueEncoding>,
    layout: Layout,
    rows: u64,
    line: Vec<u8>,
}

impl<W: Write> ExportSink<W> {
    fn new(out: W, format: FileFormat, dump: bool) -> ExportSink<W> {
        ExportSink {
            out,
            format,
            dump,
            encodings: Vec::new(),
            layout: Layout::default(),
            rows: 0,
            line: Vec::new(),
        }
    }

    /// Row `row` as a line of delimited text, into `self.line`.
    fn delimited_line(&mut self, row: &[Value]) {
        let (f, l) = (&self.format, &self.layout);
        self.line.clear();
        self.line.extend_from_slice(&f.lines_starting);
        for (i, v) in row.iter().enumerate() {
            if i > 0 {
                self.line.extend_from_slice(&f.fields_terminated);
            }
            if v.is_null() {
                match f.escaped {
                    Some(e) => self.line.extend_from_slice(&[e, b'N']),
                    None => self.line.extend_from_slice(b"NULL"),
                }
                continue;
            }
            let string = l.strings.get(i).copied().unwrap_or(true);
            let enclosure = f.enclosed.filter(|_| !l.optionally || string);
            let encoding = self
                .encodings
                .get(i)
                .copied()
                .unwrap_or(ValueEncoding::Kind(ColumnKind::TEXT));
            let text = encoding.text(v);
            self.line.extend(enclosure);
            match f.escaped {
                Some(escape) if string || l.numbers_escaped => {
                    let special = if enclosure.is_some() {
                        f.enclosed
                    } else {
                        l.field_term
                    };
                    for &c in text.iter() {
                        let needs =
                            c == escape || Some(c) == special || Some(c) == l.line_term || c == 0;
                        // A field separator MariaDB finds ambiguous is left
                        // as it is outside quotes.
                        let left =
                            enclosure.is_none() && l.ambiguous_term && Some(c) == l.field_term;
                        if needs && !left {
                            let mark = if Some(c) == l.separator && l.ambiguous_separator {
                                c
                            } else {
                                escape
                            };
                            self.line
                                .extend_from_slice(&[mark, if c == 0 { b'0' } else { c }]);
                        } else {
                            self.line.push(c);
                        }
                    }
                }
                _ => self.line.extend_from_slice(&text),
            }
            self.line.extend(enclosure);
        }
        self.line.extend_from_slice(lines_terminated(f));
    }
}

impl<W: Write> RowSink for ExportSink<W> {
    fn columns(&mut self, columns: &[Column]) -> Result<()> {
        self.encodings = columns.iter().map(ValueEncoding::of).collect();
        self.layout = Layout::of(&self.format, columns);
        Ok(())
    }

    fn row(&mut self, row: &[Value]) -> Result<()> {
        if self.dump {
            // MariaDB's count lets a second row through; a third fails.
            if self.rows >= 2 {
                return Err(SqlError::new(
                    1172,
                    "42000",
                    "Result consisted of more than one row",
                ));
            }
            self.line.clear();
            for (v, encoding) in row.iter().zip(&self.encodings) {
                match v {
                    Value::Null => self.line.push(0),
                    v => self.line.extend_from_slice(&encoding.text(v)),
                }
            }
        } else {
            self.delimited_line(row);
        }
        self.out
            .write_all(&self.line)
            .map_err(|e| SqlError::new(1, "HY000", format!("Can't write to the file: {e}")))?;
        self.rows += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lineardb_table::Collation;

    fn lines(format: FileFormat, kinds: &[ColumnKind], rows: &[Vec<Value>]) -> String {
        let mut sink = ExportSink::new(Vec::new(), format, false);
        let columns: Vec<Column> = kinds.iter().map(|&k| Column::expr("c", k)).collect();
        sink.columns(&columns).unwrap();
        for r in rows {
            sink.row(r).unwrap();
        }
        String::from_utf8(sink.out).unwrap()
    }

    fn text(s: &str) -> Value {
        Value::Bytes(s.as_bytes().to_vec())
    }

    #[test]
    fn escapes_as_mariadb_does() {
        let kinds = [
            ColumnKind::Int,
            ColumnKind::Text(Collation::Utf8mb4GeneralCi),
            ColumnKind::Int,
        ];
        let rows = [vec![Value::Int(1), text("a,b\"c\\d\te\nf\0"), Value::Null]];
        assert_eq!(
            lines(FileFormat::default(), &kinds, &rows),
            "1\ta,b\"c\\\\d\\\te\\\nf\\0\t\\N\n"
        );
        let csv = FileFormat {
            fields_terminated: b",".to_vec(),
            enclosed: Some(b'"'),
            optionally: true,
            lines_terminated: b"\r\n".to_vec(),
            ..FileFormat::default()
        };
        assert_eq!(
            lines(csv.clone(), &kinds, &rows),
            "1,\"a,b\\\"c\\\\d\te\nf\\0\",\\N\r\n"
        );
        let quoted_all = FileFormat {
            optionally: false,
            escaped: None,
            lines_starting: b"X:".to_vec(),
            lines_terminated: b"\n".to_vec(),
            ..csv
        };
        assert_eq!(
            lines(quoted_all, &kinds, &rows),
            "X:\"1\",\"a,b\"c\\d\te\nf\0\",NULL\n"
        );
    }

    #[test]
    fn a_numeric_separator_escapes_numbers_within_quotes() {
        let kinds = [
            ColumnKind::Decimal { scale: 1 },
            ColumnKind::Text(Collation::Utf8mb4GeneralCi),
        ];
        let rows = [vec![Value::Double(1.5), text("a.b-c")]];
        let dots = FileFormat {
            fields_terminated: b",".to_vec(),
            enclosed: Some(b'.'),
            ..FileFormat::default()
        };
        assert_eq!(lines(dots, &kinds, &rows), ".1\\.5.,.a\\.b-c.\n");
        // A separator that may stand in a number, with numbers among the
        // columns: ambiguous, left as it is (MariaDB's warning 1475).
        let dashes = FileFormat {
            fields_terminated: b"-".to_vec(),
            ..FileFormat::default()
        };
        assert_eq!(lines(dashes.clone(), &kinds, &rows), "1.5-a.b-c\n");
        let strings = [ColumnKind::Text(Collation::Utf8mb4GeneralCi)];
        assert_eq!(lines(dashes, &strings, &[vec![text("a-b")]]), "a\\-b\n");
    }
}
