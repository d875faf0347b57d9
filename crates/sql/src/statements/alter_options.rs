//! ALTER TABLE with table options (COMMENT, ENGINE, [DEFAULT] CHARACTER
//! SET and COLLATE, ROW_FORMAT and the other storage options,
//! AUTO_INCREMENT) or CONVERT TO CHARACTER SET, alone or among column
//! changes. The options are read and checked before anything changes;
//! the column changes and the conversion are one ALTER, the options then
//! set on the table it leaves. ENGINE names this engine (MariaDB rebuilds
//! an InnoDB table in place for it, with the same rows).
use super::alter::{altered, altered_name};
use super::ddl::{default_collation, table_options, TableOptions};
use crate::error::{Result, SqlError};
use crate::parser::alter_items::{ConvertTo, MixedAlter};
use crate::privileges::bits::ALTER;
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::Collation;
use sqlparser::ast;

/// The options an ALTER TABLE gives, as read.
struct GivenOptions {
    options: TableOptions,
    comment_given: bool,
}

impl Session {
    pub(crate) fn alter_table_mixed(&mut self, alter: &MixedAlter) -> Result<Outcome> {
        // DDL commits the open transaction first, as in MySQL.
        self.end_transaction(true)?;
        let given = read_options(&alter.options)?;
        let mut table = alter.table.clone();
        let convert = match &alter.convert {
            Some(c) => Some(self.converted_collation(&table, c)?),
            None => None,
        };
        let mut outcome = None;
        if let Some(sql) = &alter.changes {
            let near = || SqlError::syntax_near(sql);
            let read = crate::parser::dialect::parse_sql(sql).map_err(|_| near())?;
            let [ast::Statement::AlterTable(at)] = read.as_slice() else {
                return Err(near());
            };
            outcome = Some(self.alter_table_converting(at, convert)?);
            table = altered_name(at);
        } else if let Some(to) = convert {
            outcome = Some(self.convert_table(&table, to)?);
        }
        self.set_table_options(&table, given)?;
        Ok(outcome.unwrap_or_else(|| altered(0, self.warnings.len())))
    }

    /// The collation CONVERT TO names: its COLLATE's, else its character
    /// set's default; `DEFAULT` is the table's database's.
    fn converted_collation(&mut self, table: &[String], c: &ConvertTo) -> Result<Collation> {
        if c.charset.eq_ignore_ascii_case("DEFAULT") {
            let t = self.table(table, ALTER)?;
            let database = t.def().database.clone();
            return Ok(self.engine.database_collation(&database)?);
        }
        let collation = default_collation(Some(&c.charset), c.collation.as_deref())?;
        Ok(collation.expect("a character set was named"))
    }

    /// Sets the options given on `table`.
    fn set_table_options(&mut self, table: &[String], given: GivenOptions) -> Result<()> {
        let GivenOptions {
            options,
            comment_given,
        } = given;
        let t = self.table(table, ALTER)?;
        let mut def = t.def().clone();
        if comment_given {
            def.comment = options.comment;
        }
        for (name, value) in options.storage {
            def.storage_options.retain(|(n, _)| *n != name);
            def.storage_options.push((name, value));
        }
        if let Some(c) = options.collation {
            def.collation = c;
        }
        let t = if def != *t.def() {
            self.engine.alter_definition(&t, def)?
        } else {
            t
        };
        if options.auto_increment > 0 {
            t.reset_next_auto_increment(options.auto_increment)?;
        }
        Ok(())
    }
}

/// The options, in CREATE TABLE's words, read and checked (1286 for an
/// unknown engine…).
fn read_options(options: &str) -> Result<GivenOptions> {
    let near = || SqlError::syntax_near(options);
    let read = crate::parser::dialect::parse_sql(&format!("CREATE TABLE t (c INT) {options}"))
        .map_err(|_| near())?;
    let [ast::Statement::CreateTable(ct)] = read.as_slice() else {
        return Err(near());
    };
    let comment_given = ct.comment.is_some()
        || matches!(&ct.table_options, ast::CreateTableOptions::Plain(list)
            if list.iter().any(|o| matches!(o, ast::SqlOption::Comment(_))));
    Ok(GivenOptions {
        options: table_options(&ct.table_options, &ct.comment)?,
        comment_given,
    })
}
