//! ALTER TABLE of table options alone: COMMENT, ENGINE, [DEFAULT]
//! CHARACTER SET and COLLATE, ROW_FORMAT and the other storage options,
//! AUTO_INCREMENT. The rows stay as they are; ENGINE names this engine
//! (MariaDB rebuilds an InnoDB table in place for it, with the same rows).
use super::alter::altered;
use super::ddl::table_options;
use crate::error::{Result, SqlError};
use crate::privileges::bits::ALTER;
use crate::result::Outcome;
use crate::session::Session;
use sqlparser::ast;

impl Session {
    /// `ALTER TABLE table options`, the options in CREATE TABLE's words.
    pub(crate) fn alter_table_options(
        &mut self,
        table: &[String],
        options: &str,
    ) -> Result<Outcome> {
        let near = || SqlError::syntax_near(options);
        let read = crate::parser::dialect::parse_sql(&format!("CREATE TABLE t (c INT) {options}"))
            .map_err(|_| near())?;
        let [ast::Statement::CreateTable(ct)] = read.as_slice() else {
            return Err(near());
        };
        let given = table_options(&ct.table_options, &ct.comment)?;
        let comment_given = ct.comment.is_some()
            || matches!(&ct.table_options, ast::CreateTableOptions::Plain(list)
                if list.iter().any(|o| matches!(o, ast::SqlOption::Comment(_))));
        let t = self.table(table, ALTER)?;
        let mut def = t.def().clone();
        if comment_given {
            def.comment = given.comment;
        }
        for (name, value) in given.storage {
            def.storage_options.retain(|(n, _)| *n != name);
            def.storage_options.push((name, value));
        }
        if let Some(c) = given.collation {
            def.collation = c;
        }
        let t = if def != *t.def() {
            self.engine.alter_definition(&t, def)?
        } else {
            t
        };
        if given.auto_increment > 0 {
            t.reset_next_auto_increment(given.auto_increment)?;
        }
        Ok(altered(0, self.warnings.len()))
    }
}
