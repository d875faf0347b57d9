//! SIGNAL outside a stored program, as MariaDB runs it: the statement
//! raises the condition it names. A SQLSTATE of class '01' is a warning
//! (the statement succeeds), '02' the "not found" error 1643, any other the
//! error 1644; MESSAGE_TEXT and MYSQL_ERRNO change the text and the code.
use crate::error::{Result, SqlError};
use crate::parser::signal::{Signal, SignalValue};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::Value;

/// The longest MESSAGE_TEXT, in characters (MariaDB's MYSQL_ERRMSG_SIZE).
const MESSAGE_CHARS: usize = 512;

impl Session {
    pub(crate) fn signal(&mut self, signal: &Signal) -> Result<Outcome> {
        let (sqlstate, items) = match signal {
            Signal::Resignal => {
                return Err(SqlError::new(
                    1645,
                    "0K000",
                    "RESIGNAL when handler not active",
                ))
            }
            Signal::Condition(name) => {
                return Err(SqlError::new(
                    1319,
                    "42000",
                    format!("Undefined CONDITION: {name}"),
                ))
            }
            Signal::State { sqlstate, items } => (sqlstate, items),
        };
        let valid = sqlstate.len() == 5
            && sqlstate
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
            && !sqlstate.starts_with("00");
        if !valid {
            return Err(SqlError::new(
                1407,
                "42000",
                format!("Bad SQLSTATE: '{sqlstate}'"),
            ));
        }
        let (mut code, default_message) = match &sqlstate[..2] {
            "01" => (1642, "Unhandled user-defined warning condition"),
            "02" => (1643, "Unhandled user-defined not found condition"),
            _ => (1644, "Unhandled user-defined exception condition"),
        };
        let mut message = default_message.to_string();
        for (item, value) in items {
            let value = match value {
                SignalValue::Text(t) => Value::str(t),
                SignalValue::Number(n) => n.parse().map_or(Value::Null, Value::UInt),
                SignalValue::Null => Value::Null,
                SignalValue::Variable(v) => self.facts.user_variable(v),
            };
            let refused = || {
                let shown = value.to_text().unwrap_or_else(|| "NULL".into());
                SqlError::new(
                    1231,
                    "42000",
                    format!("Variable '{item}' can't be set to the value of '{shown}'"),
                )
            };
            match item.as_str() {
                "MYSQL_ERRNO" => {
                    code = match &value {
                        Value::Int(n) if (1..=65534).contains(n) => *n as u16,
                        Value::UInt(n) if (1..=65534).contains(n) => *n as u16,
                        Value::Bytes(_) => match value.to_text().and_then(|t| t.parse().ok()) {
                            Some(n @ 1..=65534u16) => n,
                            _ => return Err(refused()),
                        },
                        _ => return Err(refused()),
                    };
                }
                "MESSAGE_TEXT" => {
                    let text = value.to_text().ok_or_else(refused)?;
                    if text.chars().count() > MESSAGE_CHARS {
                        return Err(SqlError::new(
                            1648,
                            "HY000",
                            "Data too long for condition item 'MESSAGE_TEXT'",
                        ));
                    }
                    message = text;
                }
                // The other items fill a diagnostics area that only GET
                // DIAGNOSTICS (inside a program) reads.
                _ => {
                    if value.is_null() {
                        return Err(refused());
                    }
                }
            }
        }
        if sqlstate.starts_with("01") {
            self.warnings.push((code, message));
            return Ok(Outcome::done(0));
        }
        Err(SqlError::signalled(code, sqlstate.clone(), message))
    }
}
