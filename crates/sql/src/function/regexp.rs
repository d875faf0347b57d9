//! Regular expressions: `x REGEXP p` (RLIKE), REGEXP_REPLACE, REGEXP_SUBSTR
//! and REGEXP_INSTR. A match ignores case where the collation the
//! arguments meet in does (utf8mb4_general_ci by default), as MariaDB's;
//! a binary or _bin one is exact. Patterns are the `regex` crate's syntax,
//! which PCRE's common forms share (classes, anchors, groups, repetition,
//! alternation); PCRE's backreferences and lookaround are refused with
//! MariaDB's error 1139, as a bad pattern is.
use super::arguments::text_of;
use super::kinds::{int, same_text};
use super::Builtin;
use crate::error::{Result, SqlError};
use lineardb_table::{Collation, Value};
use regex::{Regex, RegexBuilder};
use std::cell::RefCell;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::collated(&["REGEXP_REPLACE"], (3, 3), same_text, replace),
    Builtin::collated(&["REGEXP_SUBSTR"], (2, 2), same_text, substr),
    Builtin::collated(&["REGEXP_INSTR"], (2, 2), int, instr),
];

/// `subject REGEXP pattern` (the operator; no function of that name).
pub(crate) static MATCHES: Builtin = Builtin::collated(&["REGEXP"], (2, 2), int, matches);

thread_local! {
    /// The last pattern compiled on this thread: a statement's pattern is
    /// most often one constant, compiled once.
    static LAST: RefCell<Option<(String, bool, Regex)>> = const { RefCell::new(None) };
}

/// `pattern` compiled, ignoring case where `collation` does.
fn compiled(pattern: &str, collation: Collation) -> Result<Regex> {
    let fold = !collation.is_bin() && collation != Collation::Binary;
    LAST.with(|last| {
        if let Some((p, f, r)) = &*last.borrow() {
            if p == pattern && *f == fold {
                return Ok(r.clone());
            }
        }
        let r = RegexBuilder::new(pattern)
            .case_insensitive(fold)
            .build()
            .map_err(|e| {
                let detail = match e {
                    regex::Error::Syntax(s) => s.lines().last().unwrap_or_default().to_string(),
                    other => other.to_string(),
                };
                SqlError::new(1139, "42000", format!("Regex error '{}'", detail.trim()))
            })?;
        *last.borrow_mut() = Some((pattern.to_string(), fold, r.clone()));
        Ok(r)
    })
}

fn text(v: &Value) -> String {
    text_of(v).unwrap_or_default()
}

fn matches(a: &[Value], collation: Collation) -> Result<Value> {
    let r = compiled(&text(&a[1]), collation)?;
    Ok(Value::Int(i64::from(r.is_match(&text(&a[0])))))
}

fn substr(a: &[Value], collation: Collation) -> Result<Value> {
    let r = compiled(&text(&a[1]), collation)?;
    let subject = text(&a[0]);
    Ok(Value::str(r.find(&subject).map_or("", |m| m.as_str())))
}

/// The first match's position in characters from 1; 0 if none.
fn instr(a: &[Value], collation: Collation) -> Result<Value> {
    let r = compiled(&text(&a[1]), collation)?;
    let subject = text(&a[0]);
    Ok(Value::Int(r.find(&subject).map_or(0, |m| {
        subject[..m.start()].chars().count() as i64 + 1
    })))
}

/// Every match replaced; `\N` in the replacement is group N (PCRE's).
fn replace(a: &[Value], collation: Collation) -> Result<Value> {
    let r = compiled(&text(&a[1]), collation)?;
    let subject = text(&a[0]);
    let replacement = replacement_template(&text(&a[2]));
    Ok(Value::str(&r.replace_all(&subject, replacement.as_str())))
}

/// A PCRE replacement (`\1` for a group, `\\` for a backslash) in the
/// `regex` crate's template syntax (`${1}`, `$$` for a dollar).
fn replacement_template(pcre: &str) -> String {
    let mut out = String::with_capacity(pcre.len());
    let mut chars = pcre.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' => out.push_str("$$"),
            '\\' => match chars.peek() {
                Some(d) if d.is_ascii_digit() => {
                    let d = *d;
                    chars.next();
                    out.push_str(&format!("${{{d}}}"));
                }
                Some(_) => out.push(chars.next().expect("peeked")),
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(f: fn(&[Value], Collation) -> Result<Value>, args: &[&str], c: Collation) -> Value {
        let args: Vec<Value> = args.iter().map(|s| Value::str(s)).collect();
        f(&args, c).unwrap()
    }

    #[test]
    fn case_follows_the_collation() {
        let ci = Collation::Utf8mb4GeneralCi;
        assert_eq!(call(matches, &["ABC", "b"], ci), Value::Int(1));
        assert_eq!(
            call(matches, &["ABC", "b"], Collation::Binary),
            Value::Int(0)
        );
        assert_eq!(
            call(matches, &["ABC", "b"], Collation::Utf8mb4Bin),
            Value::Int(0)
        );
    }

    #[test]
    fn replace_substr_instr_as_mariadb() {
        let ci = Collation::Utf8mb4GeneralCi;
        assert_eq!(
            call(replace, &["abcb", "(b)", "<\\1>"], ci),
            Value::str("a<b>c<b>")
        );
        assert_eq!(call(replace, &["a.b", "\\.", "$"], ci), Value::str("a$b"));
        assert_eq!(call(substr, &["abcb", "b+"], ci), Value::str("b"));
        assert_eq!(call(substr, &["abc", "x"], ci), Value::str(""));
        assert_eq!(call(instr, &["aébc", "b"], ci), Value::Int(3));
    }

    #[test]
    fn a_bad_pattern_is_1139() {
        let e = matches(&[Value::str("a"), Value::str("[")], Collation::Binary).unwrap_err();
        assert_eq!(e.code, 1139);
    }
}
