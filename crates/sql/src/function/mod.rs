//! The registry of built-in scalar functions that compute their result from
//! their arguments' values: by name, how many arguments each takes, the
//! kind of its result and how it is computed, MariaDB's semantics each.
//! Functions that need more than their arguments' values — the statement's
//! clock, the session, arguments evaluated lazily (IF, COALESCE), user
//! variables — are compiled by the expression binder itself.
pub(crate) mod arguments;
pub(crate) mod bitwise;
pub(crate) mod datetime;
pub(crate) mod file;
mod hash;
pub(crate) mod json;
mod numeric;
pub(crate) mod random;
pub(crate) mod regexp;
mod string;
mod unique_ids;

use crate::error::Result;
use crate::result::ColumnKind;
use lineardb_table::{Collation, Value};

/// Whether `name` (any case) is one of MariaDB's aggregate functions.
pub(crate) fn is_aggregate(name: &str) -> bool {
    const AGGREGATES: [&str; 18] = [
        "COUNT",
        "SUM",
        "AVG",
        "MIN",
        "MAX",
        "GROUP_CONCAT",
        "JSON_ARRAYAGG",
        "JSON_OBJECTAGG",
        "BIT_AND",
        "BIT_OR",
        "BIT_XOR",
        "STD",
        "STDDEV",
        "STDDEV_POP",
        "STDDEV_SAMP",
        "VARIANCE",
        "VAR_POP",
        "VAR_SAMP",
    ];
    AGGREGATES.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// A built-in scalar function.
pub(crate) struct Builtin {
    /// Its names (the first is the one errors show), upper case.
    pub(crate) names: &'static [&'static str],
    /// Fewest and most arguments.
    pub(crate) arity: (usize, usize),
    /// The kind of its result from its arguments' kinds.
    pub(crate) kind: fn(&[ColumnKind]) -> ColumnKind,
    /// Its result from its arguments' values.
    pub(crate) eval: Eval,
    /// Whether a NULL argument makes the result NULL (`eval` then never
    /// sees one).
    pub(crate) strict: bool,
    /// Whether it counts or rearranges characters (then it works on bytes
    /// where its strings meet in binary: `Compiler::call`).
    pub(crate) counts_characters: bool,
    /// Whether it writes its arguments into JSON (JSON_ARRAY,
    /// JSON_OBJECT): the compiler then passes first a string of one letter
    /// per argument, `j` for JSON text (another JSON function's result),
    /// `b` for TRUE or FALSE, `s` for any other value.
    pub(crate) json_arguments: bool,
    /// Whether each call may give another value (see [`Builtin::volatile`]).
    pub(crate) volatile: bool,
    /// Whether it reads every argument as a number (then an ENUM column is
    /// its member's number and `0x41` is 65: `Compiler::call`).
    pub(crate) numeric_arguments: bool,
}

/// How a function computes its result.
#[derive(Clone, Copy)]
pub(crate) enum Eval {
    /// From its arguments' values alone.
    Values(fn(&[Value]) -> Result<Value>),
    /// From its arguments' values and the collation their strings meet
    /// in (a column's over a literal's, as in a comparison): searches and
    /// comparisons of strings (INSTR, STRCMP, FIELD, GREATEST).
    Collated(fn(&[Value], Collation) -> Result<Value>),
}

impl Builtin {
    /// A function whose result is NULL when an argument is.
    pub(crate) const fn new(
        names: &'static [&'static str],
        arity: (usize, usize),
        kind: fn(&[ColumnKind]) -> ColumnKind,
        eval: fn(&[Value]) -> Result<Value>,
    ) -> Builtin {
        Builtin::with_eval(names, arity, kind, Eval::Values(eval))
    }

    /// A function comparing strings in the collation of its arguments
    /// (see [`Eval::Collated`]), NULL when an argument is.
    pub(crate) const fn collated(
        names: &'static [&'static str],
        arity: (usize, usize),
        kind: fn(&[ColumnKind]) -> ColumnKind,
        eval: fn(&[Value], Collation) -> Result<Value>,
    ) -> Builtin {
        Builtin::with_eval(names, arity, kind, Eval::Collated(eval))
    }

    const fn with_eval(
        names: &'static [&'static str],
        arity: (usize, usize),
        kind: fn(&[ColumnKind]) -> ColumnKind,
        eval: Eval,
    ) -> Builtin {
        Builtin {
            names,
            arity,
            kind,
            eval,
            strict: true,
            counts_characters: false,
            json_arguments: false,
            numeric_arguments: false,
            volatile: false,
        }
    }

    /// The same function, giving another value at each call (RAND(),
    /// UUID()): never evaluated ahead as a constant.
    pub(crate) const fn volatile(self) -> Builtin {
        Builtin {
            volatile: true,
            ..self
        }
    }

    /// The same function, told which arguments are JSON (see
    /// [`Builtin::json_arguments`]).
    pub(crate) const fn json_arguments(self) -> Builtin {
        Builtin {
            json_arguments: true,
            ..self
        }
    }

    /// The same function, reading its arguments as numbers.
    pub(crate) const fn numeric_arguments(self) -> Builtin {
        Builtin {
            numeric_arguments: true,
            ..self
        }
    }

    /// The same function, counting or rearranging characters.
    pub(crate) const fn counts_characters(self) -> Builtin {
        Builtin {
            counts_characters: true,
            ..self
        }
    }

    /// The same function seeing NULL arguments itself.
    pub(crate) const fn sees_nulls(self) -> Builtin {
        Builtin {
            strict: false,
            ..self
        }
    }

    /// Its result for `args`, strings compared in `collation` where it
    /// compares them.
    pub(crate) fn call(&self, args: &[Value], collation: Collation) -> Result<Value> {
        if self.strict && args.iter().any(Value::is_null) {
            return Ok(Value::Null);
        }
        match self.eval {
            Eval::Values(eval) => eval(args),
            Eval::Collated(eval) => eval(args, collation),
        }
    }

    /// Whether it compares strings in its arguments' collation.
    pub(crate) fn is_collated(&self) -> bool {
        matches!(self.eval, Eval::Collated(_))
    }

    pub(crate) fn name(&self) -> &'static str {
        self.names[0]
    }
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq for Builtin {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Builtin {}

/// The built-in called `name` (upper case), if there is one.
pub(crate) fn lookup(name: &str) -> Option<&'static Builtin> {
    [
        string::FUNCTIONS,
        numeric::FUNCTIONS,
        datetime::FUNCTIONS,
        hash::FUNCTIONS,
        json::FUNCTIONS,
        bitwise::FUNCTIONS,
        unique_ids::FUNCTIONS,
        regexp::FUNCTIONS,
    ]
    .into_iter()
    .flatten()
    .find(|f| f.names.contains(&name))
}

/// Result kinds shared by the families.
pub(crate) mod kinds {
    use crate::result::ColumnKind;
    pub(crate) fn text(_: &[ColumnKind]) -> ColumnKind {
        ColumnKind::TEXT
    }
    /// Text in the collation of the first string argument (a function
    /// that rearranges its argument's characters keeps its collation), or
    /// binary if any string argument is binary (as MariaDB's CONCAT).
    pub(crate) fn same_text(args: &[ColumnKind]) -> ColumnKind {
        let binary = ColumnKind::Text(lineardb_table::Collation::Binary);
        if args.contains(&binary) {
            return binary;
        }
        args.iter()
            .find(|k| matches!(k, ColumnKind::Text(_)))
            .copied()
            .unwrap_or(ColumnKind::TEXT)
    }
    pub(crate) fn int(_: &[ColumnKind]) -> ColumnKind {
        ColumnKind::Int
    }
    /// A binary string (UNHEX, CHAR).
    pub(crate) fn binary(_: &[ColumnKind]) -> ColumnKind {
        ColumnKind::Text(lineardb_table::Collation::Binary)
    }
    pub(crate) fn uint(_: &[ColumnKind]) -> ColumnKind {
        ColumnKind::UInt
    }
    pub(crate) fn double(_: &[ColumnKind]) -> ColumnKind {
        ColumnKind::Double
    }
    pub(crate) fn date(_: &[ColumnKind]) -> ColumnKind {
        ColumnKind::Date
    }
    pub(crate) fn datetime(_: &[ColumnKind]) -> ColumnKind {
        ColumnKind::DateTime
    }
    pub(crate) fn time(_: &[ColumnKind]) -> ColumnKind {
        ColumnKind::Time
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[Value]) -> Option<String> {
        let f = lookup(name).unwrap_or_else(|| panic!("{name} registered"));
        assert!(
            (f.arity.0..=f.arity.1).contains(&args.len()),
            "{name} arity"
        );
        f.call(args, Collation::default()).unwrap().to_text()
    }

    fn s(x: &str) -> Value {
        Value::str(x)
    }

    #[test]
    fn every_name_is_registered_once() {
        let mut names: Vec<&str> = [
            string::FUNCTIONS,
            numeric::FUNCTIONS,
            datetime::FUNCTIONS,
            hash::FUNCTIONS,
            bitwise::FUNCTIONS,
            unique_ids::FUNCTIONS,
        ]
        .into_iter()
        .flatten()
        .flat_map(|f| f.names.iter().copied())
        .collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn results_as_mariadb_gives_them() {
        // Each expected value is what MariaDB 10.11 returns.
        let cases: &[(&str, Vec<Value>, Option<&str>)] = &[
            (
                "CONCAT_WS",
                vec![s("-"), s("a"), Value::Null, s("b")],
                Some("a-b"),
            ),
            ("CONCAT_WS", vec![Value::Null, s("a")], None),
            ("LEFT", vec![s("hello"), Value::Int(2)], Some("he")),
            ("RIGHT", vec![s("hello"), Value::Int(2)], Some("lo")),
            ("LPAD", vec![s("a"), Value::Int(5), s("*")], Some("****a")),
            ("RPAD", vec![s("a"), Value::Int(3), s("xy")], Some("axy")),
            ("LPAD", vec![s("hello"), Value::Int(2), s("x")], Some("he")),
            ("REPLACE", vec![s("aXbX"), s("X"), s("y")], Some("ayby")),
            ("REVERSE", vec![s("abc")], Some("cba")),
            ("INSTR", vec![s("abc"), s("c")], Some("3")),
            ("LOCATE", vec![s("b"), s("abcb"), Value::Int(3)], Some("4")),
            ("HEX", vec![s("abc")], Some("616263")),
            ("HEX", vec![Value::Int(255)], Some("FF")),
            ("UNHEX", vec![s("4142")], Some("AB")),
            ("ASCII", vec![s("A")], Some("65")),
            ("SPACE", vec![Value::Int(3)], Some("   ")),
            ("STRCMP", vec![s("a"), s("b")], Some("-1")),
            ("FIELD", vec![s("b"), s("a"), s("b")], Some("2")),
            ("FIND_IN_SET", vec![s("b"), s("a,b")], Some("2")),
            ("ELT", vec![Value::Int(2), s("a"), s("b")], Some("b")),
            (
                "FORMAT",
                vec![Value::Double(1234567.891), Value::Int(2)],
                Some("1,234,567.89"),
            ),
            (
                "SUBSTRING_INDEX",
                vec![s("a.b.c"), s("."), Value::Int(-2)],
                Some("b.c"),
            ),
            (
                "TRUNCATE",
                vec![Value::Double(2.567), Value::Int(1)],
                Some("2.5"),
            ),
            ("POW", vec![Value::Int(2), Value::Int(10)], Some("1024")),
            ("SQRT", vec![Value::Int(-1)], None),
            ("LOG", vec![Value::Int(10), Value::Int(100)], Some("2")),
            ("CRC32", vec![s("a")], Some("3904355907")),
            (
                "CONV",
                vec![s("ff"), Value::Int(16), Value::Int(10)],
                Some("255"),
            ),
            (
                "GREATEST",
                vec![Value::Int(1), Value::Int(5), Value::Int(3)],
                Some("5"),
            ),
            ("LEAST", vec![s("b"), s("a")], Some("a")),
            (
                "MD5",
                vec![s("a")],
                Some("0cc175b9c0f1b6a831c399e269772661"),
            ),
            (
                "SHA1",
                vec![s("a")],
                Some("86f7e437faa5a7fce15d1ddcb9eaeaea377667b8"),
            ),
            (
                "SHA2",
                vec![s("a"), Value::Int(256)],
                Some("ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"),
            ),
            ("DAYNAME", vec![s("2024-01-02")], Some("Tuesday")),
            ("MONTHNAME", vec![s("2024-01-02")], Some("January")),
            ("DAYOFWEEK", vec![s("2024-01-02")], Some("3")),
            ("DAYOFYEAR", vec![s("2024-02-02")], Some("33")),
            ("WEEKDAY", vec![s("2024-01-02")], Some("1")),
            ("QUARTER", vec![s("2024-05-01")], Some("2")),
            ("WEEK", vec![s("2024-01-02")], Some("0")),
            (
                "DATEDIFF",
                vec![s("2024-03-01"), s("2024-02-01")],
                Some("29"),
            ),
            ("LAST_DAY", vec![s("2024-02-10")], Some("2024-02-29")),
            (
                "MAKEDATE",
                vec![Value::Int(2024), Value::Int(60)],
                Some("2024-02-29"),
            ),
            ("TO_DAYS", vec![s("2024-01-01")], Some("739251")),
            ("FROM_DAYS", vec![Value::Int(739251)], Some("2024-01-01")),
            (
                "DATE_FORMAT",
                vec![
                    s("2024-01-02 03:04:05"),
                    s("%Y/%m/%d %H:%i:%s %W %M %j %a %b %e %c %y"),
                ],
                Some("2024/01/02 03:04:05 Tuesday January 002 Tue Jan 2 1 24"),
            ),
            (
                "STR_TO_DATE",
                vec![s("01/02/2024"), s("%m/%d/%Y")],
                Some("2024-01-02"),
            ),
            ("HOUR", vec![s("2024-01-02 03:04:05")], Some("3")),
            ("MINUTE", vec![s("03:04:05")], Some("4")),
            ("SECOND", vec![s("03:04:05")], Some("5")),
            ("MICROSECOND", vec![s("03:04:05.123")], Some("123000")),
            ("DATE", vec![s("2024-01-02 03:04:05")], Some("2024-01-02")),
            ("TIME", vec![s("2024-01-02 03:04:05")], Some("03:04:05")),
            (
                "TIMEDIFF",
                vec![s("12:00:00"), s("10:30:00")],
                Some("01:30:00"),
            ),
            (
                "ADDTIME",
                vec![s("01:00:00"), s("00:30:00")],
                Some("01:30:00"),
            ),
            ("SEC_TO_TIME", vec![Value::Int(3661)], Some("01:01:01")),
            ("TIME_TO_SEC", vec![s("01:01:01")], Some("3661")),
        ];
        let mut wrong = Vec::new();
        for (name, args, want) in cases {
            let got = call(name, args);
            if got.as_deref() != *want {
                wrong.push(format!("{name}{args:?}: got {got:?}, want {want:?}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
