//! SIGNAL, read by hand (the SQL parser does not know it): `SIGNAL
//! SQLSTATE [VALUE] 'xxxxx' [SET item = value, …]`, or a condition's name
//! (none can be declared outside a stored program).
use crate::error::{Result, SqlError};
use crate::parser::tokens::{Reader, Token};

/// The condition information items SIGNAL may set.
const ITEMS: &[&str] = &[
    "CLASS_ORIGIN",
    "SUBCLASS_ORIGIN",
    "CONSTRAINT_CATALOG",
    "CONSTRAINT_SCHEMA",
    "CONSTRAINT_NAME",
    "CATALOG_NAME",
    "SCHEMA_NAME",
    "TABLE_NAME",
    "COLUMN_NAME",
    "CURSOR_NAME",
    "MESSAGE_TEXT",
    "MYSQL_ERRNO",
];

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Signal {
    /// `SIGNAL SQLSTATE 'xxxxx' [SET …]`: the state as written, each item
    /// (in capitals) with its value.
    State {
        sqlstate: String,
        items: Vec<(String, SignalValue)>,
    },
    /// `SIGNAL name`: a condition, which only a stored program declares.
    Condition(String),
    /// RESIGNAL, which only a handler may run.
    Resignal,
}

/// A value SIGNAL sets: a literal or a user variable.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SignalValue {
    Text(String),
    Number(String),
    Null,
    Variable(String),
}

/// Whether `sql` begins with SIGNAL or RESIGNAL.
pub(crate) fn looks_like_signal(first_word: &str) -> bool {
    first_word.eq_ignore_ascii_case("SIGNAL") || first_word.eq_ignore_ascii_case("RESIGNAL")
}

/// Reads SIGNAL or RESIGNAL; `None` for another statement.
pub(crate) fn parse_signal(sql: &str) -> Option<Result<Signal>> {
    let mut r = Reader::of(sql)?;
    if r.keyword("RESIGNAL") {
        return Some(Ok(Signal::Resignal));
    }
    if !r.keyword("SIGNAL") {
        return None;
    }
    Some(read_signal(&mut r))
}

fn read_signal(r: &mut Reader) -> Result<Signal> {
    let near = |r: &Reader| SqlError::syntax_near(r.rest_text());
    if !r.keyword("SQLSTATE") {
        let name = r.name().ok_or_else(|| near(r))?;
        return Ok(Signal::Condition(name));
    }
    let _ = r.keyword("VALUE");
    let sqlstate = r.string().ok_or_else(|| near(r))?;
    let mut items: Vec<(String, SignalValue)> = Vec::new();
    if r.keyword("SET") {
        loop {
            let item = match r.peek_word() {
                Some(w) if ITEMS.iter().any(|i| i.eq_ignore_ascii_case(w)) => w.to_uppercase(),
                _ => return Err(near(r)),
            };
            r.at += 1;
            if !r.punct('=') {
                return Err(near(r));
            }
            let value = value(r).ok_or_else(|| near(r))?;
            if items.iter().any(|(i, _)| *i == item) {
                return Err(SqlError::new(
                    1641,
                    "42000",
                    format!("Duplicate condition information item '{item}'"),
                ));
            }
            items.push((item, value));
            if !r.punct(',') {
                break;
            }
        }
    }
    if !r.done() {
        return Err(near(r));
    }
    Ok(Signal::State { sqlstate, items })
}

fn value(r: &mut Reader) -> Option<SignalValue> {
    if r.punct('@') {
        return r.name().map(SignalValue::Variable);
    }
    let v = match r.tokens.get(r.at)? {
        Token::Quoted(s) => SignalValue::Text(s.clone()),
        Token::Word(w) if w.eq_ignore_ascii_case("NULL") => SignalValue::Null,
        Token::Word(w) if w.chars().all(|c| c.is_ascii_digit()) => SignalValue::Number(w.clone()),
        _ => return None,
    };
    r.at += 1;
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_is_read_with_its_items() {
        let read = |sql: &str| parse_signal(sql).map(|r| r.map_err(|e| e.code));
        assert_eq!(
            read("SIGNAL SQLSTATE VALUE '45000' SET MESSAGE_TEXT = 'custom', mysql_errno = 1234"),
            Some(Ok(Signal::State {
                sqlstate: "45000".into(),
                items: vec![
                    ("MESSAGE_TEXT".into(), SignalValue::Text("custom".into())),
                    ("MYSQL_ERRNO".into(), SignalValue::Number("1234".into())),
                ],
            }))
        );
        assert_eq!(
            read("signal sqlstate '01000' set message_text = @m"),
            Some(Ok(Signal::State {
                sqlstate: "01000".into(),
                items: vec![("MESSAGE_TEXT".into(), SignalValue::Variable("m".into()))],
            }))
        );
        assert_eq!(
            read("SIGNAL my_condition"),
            Some(Ok(Signal::Condition("my_condition".into())))
        );
        assert_eq!(read("RESIGNAL"), Some(Ok(Signal::Resignal)));
        assert_eq!(
            read("SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'a', MESSAGE_TEXT = 'b'"),
            Some(Err(1641))
        );
        assert_eq!(
            read("SIGNAL SQLSTATE '45000' SET NOPE = 1"),
            Some(Err(1064))
        );
        assert_eq!(read("SELECT 1"), None);
    }
}
