//! LOAD DATA [LOCAL] INFILE: the rows of a delimited text file
//! ([`delimited_text`](super::delimited_text)) written into a table as an
//! INSERT writes its rows ([`row_writer`](super::row_writer)), in one
//! transaction. The file is the server's (FILE privilege, within
//! `secure_file_priv`) or, with LOCAL, the client's, which the connection
//! asks the client for ([`RowSink::local_file`]). Each field goes to its
//! column or into a user variable for SET's expressions; as in MariaDB,
//! a row with fewer fields than targets is given its columns' defaults
//! (1261), one with more is cut (1262), and from a client's file errors
//! of values and duplicates are warnings (LOCAL works as IGNORE).
use super::delimited_text::DelimitedRows;
use super::server_files::read_error;
use crate::error::{Result, SqlError};
use crate::expr::{Env, Expr, Params};
use crate::parser::load_data::{Duplicates, LoadData, Target};
use crate::privileges::bits::{DELETE, FILE, INSERT};
use crate::result::{Outcome, RowSink};
use crate::session::Session;
use lineardb_table::{Table, Value};
use lineardb_txn::Txn;
use std::io::Read;
use std::sync::Arc;

/// Where each field of a row goes.
enum Slot {
    Column(usize),
    Variable(String),
}

impl Session {
    /// LOAD DATA.
    pub(crate) fn load_data(&mut self, ld: &LoadData, sink: &mut dyn RowSink) -> Result<Outcome> {
        if !matches!(
            ld.character_set
                .as_deref()
                .map(str::to_ascii_lowercase)
                .as_deref(),
            None | Some("utf8mb4" | "utf8" | "utf8mb3" | "binary")
        ) {
            return Err(SqlError::unsupported(format!(
                "LOAD DATA … CHARACTER SET {}",
                ld.character_set.as_deref().unwrap_or_default()
            )));
        }
        if ld.format.fields_terminated.is_empty() && ld.format.enclosed.is_none() {
            return Err(SqlError::unsupported(
                "LOAD DATA of fixed-width rows (FIELDS TERMINATED BY '')",
            ));
        }
        let privileges = match ld.duplicates {
            Duplicates::Replace => INSERT | DELETE,
            _ => INSERT,
        };
        let t = self.table(&ld.table, privileges)?;
        let slots = slots(&t, ld)?;
        let mut source: Box<dyn Read + '_> = if ld.local {
            if !self.local_infile_allowed() {
                return Err(SqlError::new(
                    4166,
                    "HY000",
                    "The used command is not allowed because the MariaDB server or client has \
                     disabled the local infile capability",
                ));
            }
            sink.local_file(&ld.file)?
        } else {
            if !self.has_global(FILE) {
                return Err(self.access_denied());
            }
            Box::new(self.server_file(&ld.file)?)
        };
        let result = self.changing_rows(|s, txn| s.load_rows(txn, &t, ld, &slots, &mut *source));
        // The client's file is read to its end whatever became of the rows.
        let _ = std::io::copy(&mut source, &mut std::io::sink());
        result
    }

    fn load_rows(
        &mut self,
        txn: &mut Txn,
        t: &Arc<Table>,
        ld: &LoadData,
        slots: &[Slot],
        source: &mut dyn Read,
    ) -> Result<Outcome> {
        let width = t.def().columns.len();
        // SET's expressions over the row's columns, with the variables the
        // fields set read as they are at each row.
        let mut variables = std::mem::take(&mut self.facts.user_variables);
        let r = crate::expr::user_variables::run_assigning(&mut variables, || {
            let sets = self.load_assignments(t, ld)?;
            let mut writer = self.row_writer(t, 0)?;
            // A client's file cannot be stopped midway: its errors are
            // warnings, as IGNORE makes them, unless REPLACE is asked for
            // (MariaDB's).
            writer.replace = ld.duplicates == Duplicates::Replace;
            writer.ignore = ld.duplicates == Duplicates::Ignore || (ld.local && !writer.replace);
            writer.strict = self.strict_mode() && !writer.ignore;
            let mut rows = DelimitedRows::new(source, ld.format.clone());
            let mut skipped_lines = ld.ignore_lines;
            let mut records = 0u64;
            let env = Env::new(&[]);
            while let Some(fields) = rows.next_row().map_err(|e| read_error(&ld.file, &e))? {
                if skipped_lines > 0 {
                    skipped_lines -= 1;
                    continue;
                }
                records += 1;
                for _ in fields.len()..slots.len() {
                    let message = format!("Row {records} doesn't contain data for all columns");
                    writer.after_values.push((1261, message));
                }
                let extra = fields.len() > slots.len();
                let mut given: Vec<Option<Value>> = vec![None; width];
                for (slot, field) in slots.iter().zip(fields) {
                    let value = field.map_or(Value::Null, Value::Bytes);
                    match slot {
                        Slot::Column(c) => given[*c] = Some(value),
                        Slot::Variable(name) => crate::expr::user_variables::set(name, value),
                    }
                }
                if !sets.is_empty() {
                    let row: Vec<Value> = given
                        .iter()
                        .map(|v| v.clone().unwrap_or(Value::Null))
                        .collect();
                    for (c, e) in &sets {
                        given[*c] = Some(e.eval(&row[..], env)?);
                    }
                }
                self.write_row(txn, t, &mut writer, given, env)?;
                // (After the row's own warnings, as MariaDB's.)
                if extra {
                    let message = format!(
                        "Row {records} was truncated; it contained more data than there were \
                         input columns"
                    );
                    self.load_warning(&writer, 1262, message)?;
                }
            }
            self.fail_on_truncation(writer.strict)?;
            let deleted = writer.replaced;
            let skipped = writer.skipped;
            let (affected, last_insert_id) = self.rows_written(t, &writer);
            Ok(Outcome::Done {
                affected,
                last_insert_id,
                info: format!(
                    "Records: {records}  Deleted: {deleted}  Skipped: {skipped}  Warnings: {}",
                    self.warnings.len() + self.pending_expression_warnings()
                ),
            })
        });
        self.facts.user_variables = variables;
        self.slot.show_user_variables(&self.facts.user_variables);
        self.facts_changed();
        r
    }

    /// A row's warning (1261, 1262): the statement's error in strict mode.
    fn load_warning(
        &mut self,
        writer: &super::row_writer::RowWriter,
        code: u16,
        message: String,
    ) -> Result<()> {
        if writer.strict {
            return Err(SqlError::new(code, "01000", message));
        }
        self.warnings.push((code, message));
        Ok(())
    }

    /// SET's assignments, compiled over the table's columns.
    fn load_assignments(&mut self, t: &Arc<Table>, ld: &LoadData) -> Result<Vec<(usize, Expr)>> {
        if ld.set.is_empty() {
            return Ok(Vec::new());
        }
        let scope = crate::names::scope_of(t, &t.def().name);
        let params = Params::default();
        let zone = self.facts.time_zone;
        self.with_compiler(&scope, &params, |c| {
            let mut sets = Vec::with_capacity(ld.set.len());
            for a in &ld.set {
                let sqlparser::ast::AssignmentTarget::ColumnName(n) = &a.target else {
                    return Err(SqlError::unsupported("tuple assignment"));
                };
                let parts = crate::expr::object_name(n);
                let col = c.column(None, parts.last().map(String::as_str).unwrap_or(""))?;
                let x = c.compile(&a.value)?;
                sets.push((col, x.stored_in(&t.def().columns[col].data_type, zone)));
            }
            Ok(sets)
        })
        .map_err(|e| e.in_clause("field list"))
    }

    /// Whether `local_infile` lets clients send their files.
    fn local_infile_allowed(&self) -> bool {
        !matches!(
            self.variable("local_infile"),
            Some(Value::Int(0) | Value::UInt(0))
        )
    }
}

/// Where each field of a row goes: the targets named, else every column.
fn slots(t: &Table, ld: &LoadData) -> Result<Vec<Slot>> {
    let def = t.def();
    match &ld.targets {
        None => Ok((0..def.columns.len()).map(Slot::Column).collect()),
        Some(targets) => targets
            .iter()
            .map(|target| match target {
                Target::Column(name) => def
                    .column_index(name)
                    .map(Slot::Column)
                    .map_err(|_| SqlError::unknown_column(name).in_clause("SELECT")),
                Target::Variable(name) => Ok(Slot::Variable(name.clone())),
            })
            .collect(),
    }
}
