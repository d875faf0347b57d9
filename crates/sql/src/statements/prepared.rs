//! SQL prepared statements: PREPARE name FROM 'text' | @variable, EXECUTE
//! name [USING expr, ...], EXECUTE IMMEDIATE expr [USING ...], and
//! DEALLOCATE / DROP PREPARE name. They are the session's, by name (any
//! case), prepared and run as COM_STMT_PREPARE / COM_STMT_EXECUTE statements
//! are; PREPARE replaces a statement of the same name, which is gone even
//! when the new text fails to prepare, as in MariaDB.
use crate::error::{Result, SqlError};
use crate::expr::{Env, Params};
use crate::parser::admin::PreparedText;
use crate::result::{Outcome, RowSink};
use crate::session::Session;
use lineardb_table::Value;
use sqlparser::ast;

/// 1243 for a name no statement was prepared under.
fn unknown_statement(name: &str, command: &str) -> SqlError {
    SqlError::new(
        1243,
        "HY000",
        format!("Unknown prepared statement handler ({name}) given to {command}"),
    )
}

/// MariaDB's answer to a statement that may not be prepared.
pub(crate) fn not_preparable() -> SqlError {
    SqlError::new(
        1295,
        "HY000",
        "This command is not supported in the prepared statement protocol yet",
    )
}

impl Session {
    /// PREPARE name FROM text.
    pub(crate) fn prepare_named(&mut self, name: &str, text: &PreparedText) -> Result<Outcome> {
        let key = name.to_ascii_lowercase();
        self.named_statements.remove(&key);
        let sql = match text {
            PreparedText::Literal(sql) => sql.clone(),
            PreparedText::Variable(v) => statement_text(self.facts.user_variable(v))?,
        };
        let prepared = self.prepare(&sql)?;
        self.named_statements.insert(key, prepared);
        Ok(Outcome::Done {
            affected: 0,
            last_insert_id: 0,
            info: "Statement prepared".into(),
        })
    }

    /// DEALLOCATE PREPARE name, DROP PREPARE name.
    pub(crate) fn deallocate_named(&mut self, name: &str) -> Result<Outcome> {
        match self.named_statements.remove(&name.to_ascii_lowercase()) {
            Some(_) => Ok(Outcome::done(0)),
            None => Err(unknown_statement(name, "DEALLOCATE PREPARE")),
        }
    }

    /// EXECUTE name [USING ...] and EXECUTE IMMEDIATE text [USING ...]
    /// (the parser reads IMMEDIATE as the name and the text as a
    /// parameter).
    pub(crate) fn execute_named(
        &mut self,
        name: Option<&ast::ObjectName>,
        parameters: &[ast::Expr],
        using: &[ast::ExprWithAlias],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let name = name.map(|n| n.to_string()).unwrap_or_default();
        let immediate = name.eq_ignore_ascii_case("IMMEDIATE");
        let text = match (immediate, parameters) {
            (true, [text]) => Some(text),
            (false, []) => None,
            (_, [first, ..]) => return Err(SqlError::syntax_near(first)),
            (true, []) => return Err(SqlError::syntax_near("")),
        };
        if let Some(alias) = using.iter().find_map(|u| u.alias.as_ref()) {
            return Err(SqlError::syntax_near(alias));
        }
        // The values of USING are read before the statement runs.
        let mut args = Vec::with_capacity(using.len());
        for u in using {
            let e = self.compile_constant(&u.expr, &Params::default())?;
            args.push(e.eval(&[][..], Env::new(&[]))?);
        }
        let (mut prepared, key) = match text {
            Some(text) => {
                let e = self.compile_constant(text, &Params::default())?;
                let sql = statement_text(e.eval(&[][..], Env::new(&[]))?)?;
                (self.prepare(&sql)?, None)
            }
            None => {
                let key = name.to_ascii_lowercase();
                match self.named_statements.remove(&key) {
                    Some(p) => (p, Some(key)),
                    None => return Err(unknown_statement(&name, "EXECUTE")),
                }
            }
        };
        let r = if args.len() != prepared.param_count() {
            Err(SqlError::new(
                1210,
                "HY000",
                "Incorrect arguments to EXECUTE",
            ))
        } else {
            self.run_prepared(&mut prepared, &args, sink)
        };
        if let Some(key) = key {
            self.named_statements.insert(key, prepared);
        }
        r
    }
}

/// A prepared statement's text from a value (a user variable's, EXECUTE
/// IMMEDIATE's expression): NULL is MariaDB's syntax error.
fn statement_text(v: Value) -> Result<String> {
    v.to_text().ok_or_else(|| SqlError::syntax_near("NULL"))
}
