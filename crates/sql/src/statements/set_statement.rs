//! SET STATEMENT var = value [, …] FOR statement (MariaDB's): the
//! statement runs with the session variables set as given, and each is
//! back to its value before once the statement ends, failed or not.
//! Drivers send it to bound one statement's time (`max_statement_time`).
use crate::catalog::system_variables::{self, Treatment};
use crate::error::Result;
use crate::result::{CollectSink, Outcome, RowSink};
use crate::session::Session;

impl Session {
    pub(crate) fn set_for_statement(
        &mut self,
        assignments: &str,
        statement: &str,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let saved = variable_names(assignments)
            .into_iter()
            .map(|name| {
                let value = self.system_variable(&format!("session.{name}"))?;
                Ok((name.to_ascii_lowercase(), value))
            })
            .collect::<Result<Vec<_>>>()?;
        self.execute(
            &format!("SET SESSION {assignments}"),
            &mut CollectSink::default(),
        )?;
        let outcome = self.execute(statement, sink);
        // Put back directly, not by running SET: the statement's warnings,
        // error and row count stay what SHOW WARNINGS and ROW_COUNT() see.
        self.facts_changed();
        for (name, value) in saved {
            let placed = system_variables::treatment(&name) == Treatment::Followed
                && self.follow(&name, &value, false)?;
            if !placed {
                self.variables.insert(name, value);
            }
        }
        outcome
    }
}

/// The names the assignments set: what stands before each `=` that
/// follows a comma outside quotes and parentheses (or the start).
fn variable_names(assignments: &str) -> Vec<String> {
    let mut names = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None, 0usize);
    let mut expecting_name = true;
    for (i, c) in assignments.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => depth -= 1,
            (None, '=') if depth == 0 && expecting_name => {
                let name = assignments[start..i].trim().trim_start_matches("@@");
                let name = name
                    .strip_prefix("session.")
                    .or_else(|| name.strip_prefix("SESSION."))
                    .unwrap_or(name);
                names.push(name.to_string());
                expecting_name = false;
            }
            (None, ',') if depth == 0 => {
                start = i + 1;
                expecting_name = true;
            }
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_name_their_variables() {
        assert_eq!(
            variable_names("max_statement_time=10, sql_mode = 'a,b', @@session.x = (1, 2)"),
            ["max_statement_time", "sql_mode", "x"]
        );
    }
}
