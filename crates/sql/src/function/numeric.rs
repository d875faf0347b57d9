//! Numeric functions. Results outside a function's domain (a root or log
//! of a negative number) are NULL, as MariaDB gives them.
use super::arguments::{float_of, int_of, numeric};
use super::kinds::{double, int, text, uint};
use super::Builtin;
use crate::error::Result;
use crate::result::ColumnKind;
use lineardb_table::{Collation, Dec, Value};
use std::cmp::Ordering;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new(&["TRUNCATE"], (2, 2), first_kind, truncate).numeric_arguments(),
    Builtin::new(&["POW", "POWER"], (2, 2), double, pow).numeric_arguments(),
    Builtin::new(&["SQRT"], (1, 1), double, sqrt).numeric_arguments(),
    Builtin::new(&["EXP"], (1, 1), double, exp).numeric_arguments(),
    Builtin::new(&["LN"], (1, 1), double, ln).numeric_arguments(),
    Builtin::new(&["LOG"], (1, 2), double, log).numeric_arguments(),
    Builtin::new(&["LOG2"], (1, 1), double, log2).numeric_arguments(),
    Builtin::new(&["LOG10"], (1, 1), double, log10).numeric_arguments(),
    Builtin::new(&["SIGN"], (1, 1), int, sign).numeric_arguments(),
    Builtin::new(&["PI"], (0, 0), double, pi),
    Builtin::new(&["RAND"], (0, 1), double, rand)
        .volatile()
        .sees_nulls(),
    Builtin::new(&["CONV"], (3, 3), text, conv),
    Builtin::collated(&["GREATEST"], (2, usize::MAX), common_kind, greatest),
    Builtin::collated(&["LEAST"], (2, usize::MAX), common_kind, least),
    Builtin::new(&["SIN"], (1, 1), double, sin).numeric_arguments(),
    Builtin::new(&["COS"], (1, 1), double, cos).numeric_arguments(),
    Builtin::new(&["TAN"], (1, 1), double, tan).numeric_arguments(),
    Builtin::new(&["COT"], (1, 1), double, cot).numeric_arguments(),
    Builtin::new(&["ASIN"], (1, 1), double, asin).numeric_arguments(),
    Builtin::new(&["ACOS"], (1, 1), double, acos).numeric_arguments(),
    Builtin::new(&["ATAN"], (1, 2), double, atan).numeric_arguments(),
    Builtin::new(&["ATAN2"], (2, 2), double, atan2).numeric_arguments(),
    Builtin::new(&["DEGREES"], (1, 1), double, degrees).numeric_arguments(),
    Builtin::new(&["RADIANS"], (1, 1), double, radians).numeric_arguments(),
    Builtin::new(&["CRC32"], (1, 1), uint, crc32),
];

fn first_kind(k: &[ColumnKind]) -> ColumnKind {
    match k[0] {
        ColumnKind::Text(_) => ColumnKind::Double,
        other => other,
    }
}

/// GREATEST/LEAST: integers stay integers, decimals decimals, any string
/// makes text, else double.
fn common_kind(k: &[ColumnKind]) -> ColumnKind {
    if k.iter()
        .all(|k| matches!(k, ColumnKind::Int | ColumnKind::UInt))
    {
        if k.iter().all(|k| *k == ColumnKind::UInt) {
            ColumnKind::UInt
        } else {
            ColumnKind::Int
        }
    } else if k.iter().all(|k| matches!(k, ColumnKind::Text(_))) {
        ColumnKind::TEXT
    } else if k.iter().all(|k| *k == ColumnKind::Date) {
        ColumnKind::Date
    } else if k
        .iter()
        .all(|k| matches!(k, ColumnKind::Date | ColumnKind::DateTime))
    {
        ColumnKind::DateTime
    } else if k.iter().all(|k| {
        matches!(
            k,
            ColumnKind::Int | ColumnKind::UInt | ColumnKind::Decimal { .. }
        )
    }) {
        let scale = k
            .iter()
            .map(|k| match k {
                ColumnKind::Decimal { scale } => *scale,
                _ => 0,
            })
            .max()
            .unwrap_or(0);
        ColumnKind::Decimal { scale }
    } else {
        ColumnKind::Double
    }
}

fn x(v: &Value) -> f64 {
    float_of(v).unwrap_or(0.0)
}

/// A double result; NULL when it is not a number (MariaDB has no NaN).
fn real(v: f64) -> Value {
    if v.is_finite() {
        Value::Double(v)
    } else {
        Value::Null
    }
}

/// RAND(): uniform in [0, 1). RAND(seed): MariaDB's sequence of the seed
/// (NULL reads as 0), its first number for a seed read from the row; a
/// constant seed comes with its call site (see `Compiler::call`) and
/// gives the site's next number.
fn rand(a: &[Value]) -> Result<Value> {
    let seed = |v: &Value| int_of(v).unwrap_or(0);
    Ok(Value::Double(match a {
        [] => rand::random::<f64>(),
        [s, Value::UInt(site)] => super::random::next_at_site(*site, || seed(s)),
        [s, ..] => super::random::RandSequence::seeded(seed(s)).next_value(),
    }))
}

/// TRUNCATE(x, d): x cut (toward zero) to d decimals; d may be negative.
fn truncate(a: &[Value]) -> Result<Value> {
    let d = int_of(&a[1]).unwrap_or(0).clamp(-77, 38);
    Ok(match numeric(&a[0]) {
        Value::Int(i) if d >= 0 => Value::Int(i),
        Value::UInt(u) if d >= 0 => Value::UInt(u),
        Value::Int(i) => Value::Int(match 10i128.checked_pow((-d) as u32) {
            Some(p) => ((i as i128 / p) * p) as i64,
            None => 0,
        }),
        Value::UInt(u) => Value::UInt(match 10u128.checked_pow((-d) as u32) {
            Some(p) => ((u as u128 / p) * p) as u64,
            None => 0,
        }),
        Value::Decimal(dec) => Value::Decimal(dec.round_digits(d as i32, true)),
        other => {
            let v = x(&other);
            let p = 10f64.powi(d as i32);
            real((v * p).trunc() / p)
        }
    })
}

fn pow(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).powf(x(&a[1]))))
}

fn sqrt(a: &[Value]) -> Result<Value> {
    let v = x(&a[0]);
    Ok(if v < 0.0 { Value::Null } else { real(v.sqrt()) })
}

fn exp(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).exp()))
}

fn positive(v: f64, f: impl Fn(f64) -> f64) -> Value {
    if v <= 0.0 {
        Value::Null
    } else {
        real(f(v))
    }
}

fn ln(a: &[Value]) -> Result<Value> {
    Ok(positive(x(&a[0]), f64::ln))
}

/// LOG(x) is LN(x); LOG(b, x) the log of x to base b.
fn log(a: &[Value]) -> Result<Value> {
    if a.len() == 1 {
        return ln(a);
    }
    let (base, v) = (x(&a[0]), x(&a[1]));
    if base <= 0.0 || base == 1.0 {
        return Ok(Value::Null);
    }
    Ok(positive(v, |v| v.ln() / base.ln()))
}

fn log2(a: &[Value]) -> Result<Value> {
    Ok(positive(x(&a[0]), f64::log2))
}

fn log10(a: &[Value]) -> Result<Value> {
    Ok(positive(x(&a[0]), f64::log10))
}

fn sign(a: &[Value]) -> Result<Value> {
    let v = x(&a[0]);
    Ok(Value::Int(if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }))
}

fn pi(_: &[Value]) -> Result<Value> {
    Ok(Value::Double(std::f64::consts::PI))
}

/// CONV(n, from, to): n read in base `from` (its longest valid prefix),
/// written in base |to| (negative: n signed); bases 2 to 36.
fn conv(a: &[Value]) -> Result<Value> {
    let (from, to) = (int_of(&a[1]).unwrap_or(0), int_of(&a[2]).unwrap_or(0));
    let (from_abs, to_abs) = (from.unsigned_abs(), to.unsigned_abs());
    if !(2..=36).contains(&from_abs) || !(2..=36).contains(&to_abs) {
        return Ok(Value::Null);
    }
    let digits = match &a[0] {
        Value::Bytes(b) => String::from_utf8_lossy(b).trim().to_string(),
        v => v.to_text().unwrap_or_default(),
    };
    let (negative, body) = match digits.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, digits.as_str()),
    };
    let mut n: u64 = 0;
    for c in body.chars() {
        let Some(d) = c.to_digit(from_abs as u32) else {
            break;
        };
        n = n.saturating_mul(from_abs).saturating_add(d as u64);
    }
    let (negative_out, mut n) = if negative {
        if to < 0 {
            (true, n)
        } else {
            (false, (n as i64).wrapping_neg() as u64)
        }
    } else {
        (false, n)
    };
    let mut out = Vec::new();
    loop {
        let d = (n % to_abs) as u32;
        out.push(
            std::char::from_digit(d, 36)
                .unwrap_or('0')
                .to_ascii_uppercase(),
        );
        n /= to_abs;
        if n == 0 {
            break;
        }
    }
    if negative_out {
        out.push('-');
    }
    Ok(Value::str(&out.iter().rev().collect::<String>()))
}

/// GREATEST/LEAST: compared as numbers unless every argument is a string
/// (then in the collation they meet in).
fn extreme(a: &[Value], want: Ordering, collation: Collation) -> Result<Value> {
    let texts = a.iter().all(|v| matches!(v, Value::Bytes(_)));
    let dates = a
        .iter()
        .all(|v| matches!(v, Value::Date(_) | Value::DateTime(_)));
    let mut best = &a[0];
    for v in &a[1..] {
        let order = if let (true, Value::Bytes(p), Value::Bytes(q)) = (texts, v, best) {
            collation.compare(p, q)
        } else if dates {
            v.sql_cmp(best).unwrap_or(Ordering::Equal)
        } else {
            numeric(v)
                .sql_cmp(&numeric(best))
                .unwrap_or(Ordering::Equal)
        };
        if order == want {
            best = v;
        }
    }
    let scale = a
        .iter()
        .map(|v| match v {
            Value::Decimal(d) => Some(d.scale),
            Value::Int(_) | Value::UInt(_) => Some(0),
            _ => None,
        })
        .try_fold(0, |s, v| v.map(|v| s.max(v)));
    Ok(if texts || dates {
        best.clone()
    } else if a
        .iter()
        .any(|v| matches!(v, Value::Double(_) | Value::Bytes(_)))
    {
        real(x(best))
    } else {
        match (scale, numeric(best)) {
            // Integers and decimals: a decimal of the largest scale.
            (Some(s), Value::Int(i)) if s > 0 => {
                let d = Dec::new(i as i128, 0);
                Value::Decimal(d.checked_rescale(s).unwrap_or(d))
            }
            // A value too long for the scale keeps its own.
            (Some(s), Value::Decimal(d)) => Value::Decimal(d.checked_rescale(s).unwrap_or(d)),
            (_, v) => v,
        }
    })
}

fn greatest(a: &[Value], collation: Collation) -> Result<Value> {
    extreme(a, Ordering::Greater, collation)
}

fn least(a: &[Value], collation: Collation) -> Result<Value> {
    extreme(a, Ordering::Less, collation)
}

fn sin(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).sin()))
}

fn cos(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).cos()))
}

fn tan(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).tan()))
}

fn cot(a: &[Value]) -> Result<Value> {
    let t = x(&a[0]).tan();
    Ok(if t == 0.0 { Value::Null } else { real(1.0 / t) })
}

fn asin(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).asin()))
}

fn acos(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).acos()))
}

fn atan(a: &[Value]) -> Result<Value> {
    if a.len() == 2 {
        return atan2(a);
    }
    Ok(real(x(&a[0]).atan()))
}

fn atan2(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).atan2(x(&a[1]))))
}

fn degrees(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).to_degrees()))
}

fn radians(a: &[Value]) -> Result<Value> {
    Ok(real(x(&a[0]).to_radians()))
}

fn crc32(a: &[Value]) -> Result<Value> {
    let bytes = match &a[0] {
        Value::Bytes(b) => b.clone(),
        v => v.to_text().unwrap_or_default().into_bytes(),
    };
    Ok(Value::UInt(crc32fast::hash(&bytes) as u64))
}
