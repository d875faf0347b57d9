//! String functions. Positions and lengths count characters; searches and
//! comparisons are in the collation the arguments meet in (a column's over
//! a literal's; utf8mb4_general_ci, ignoring case, by default).
use super::arguments::{bytes_of, float_of, int_of, text_of};
use super::kinds::{binary, int, same_text, text};
use super::Builtin;
use crate::error::{Result, SqlError};
use lineardb_table::{Collation, Dec, Value};
use std::cmp::Ordering;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new(&["CONCAT_WS"], (2, usize::MAX), same_text, concat_ws).sees_nulls(),
    Builtin::new(&["LEFT"], (2, 2), same_text, left).counts_characters(),
    Builtin::new(&["RIGHT"], (2, 2), same_text, right).counts_characters(),
    Builtin::new(&["LPAD"], (3, 3), same_text, lpad).counts_characters(),
    Builtin::new(&["RPAD"], (3, 3), same_text, rpad).counts_characters(),
    Builtin::new(&["REPLACE"], (3, 3), same_text, replace).counts_characters(),
    Builtin::new(&["REVERSE"], (1, 1), same_text, reverse).counts_characters(),
    Builtin::collated(&["INSTR"], (2, 2), int, instr).counts_characters(),
    Builtin::collated(&["LOCATE"], (2, 3), int, locate).counts_characters(),
    Builtin::new(&["HEX"], (1, 1), text, hex),
    Builtin::new(&["UNHEX"], (1, 1), binary, unhex),
    Builtin::new(&["ASCII"], (1, 1), int, ascii),
    Builtin::new(&["ORD"], (1, 1), int, ord),
    Builtin::new(&["CHAR"], (1, usize::MAX), binary, char_of).sees_nulls(),
    Builtin::new(&["SPACE"], (1, 1), text, space),
    Builtin::collated(&["STRCMP"], (2, 2), int, strcmp),
    Builtin::collated(&["FIELD"], (2, usize::MAX), int, field).sees_nulls(),
    Builtin::collated(&["FIND_IN_SET"], (2, 2), int, find_in_set),
    Builtin::new(&["ELT"], (2, usize::MAX), text, elt).sees_nulls(),
    Builtin::new(&["FORMAT"], (2, 3), text, format),
    Builtin::new(&["LTRIM"], (1, 1), same_text, ltrim).counts_characters(),
    Builtin::new(&["RTRIM"], (1, 1), same_text, rtrim).counts_characters(),
    // TRIM([BOTH | LEADING | TRAILING] [remstr] FROM s), as the binder
    // passes it: (s, remstr, side).
    Builtin::new(&["TRIM"], (3, 3), same_text, trim).counts_characters(),
    Builtin::new(&["SUBSTRING_INDEX"], (3, 3), same_text, substring_index).counts_characters(),
    Builtin::new(&["INSERT"], (4, 4), same_text, insert).counts_characters(),
    Builtin::new(&["QUOTE"], (1, 1), text, quote).sees_nulls(),
    Builtin::new(&["BIN"], (1, 1), text, bin),
    Builtin::new(&["OCT"], (1, 1), text, oct),
    Builtin::new(&["BIT_LENGTH"], (1, 1), int, bit_length),
];

/// Text of a non-NULL argument (the strict functions see no NULL).
fn t(v: &Value) -> String {
    text_of(v).unwrap_or_default()
}

fn n(v: &Value) -> i64 {
    int_of(v).unwrap_or(0)
}

fn chars(v: &Value) -> Vec<char> {
    t(v).chars().collect()
}

fn string(c: &[char]) -> Value {
    Value::str(&c.iter().collect::<String>())
}

/// Longest result a string function may build (max_allowed_packet).
fn checked(len: usize, name: &str) -> Result<()> {
    if len > crate::MAX_STRING_BYTES {
        return Err(SqlError::new(
            1301,
            "HY000",
            format!("Result of {name}() was larger than max_allowed_packet"),
        ));
    }
    Ok(())
}

fn concat_ws(a: &[Value]) -> Result<Value> {
    let Some(sep) = bytes_of(&a[0]) else {
        return Ok(Value::Null);
    };
    let mut out = Vec::new();
    for (i, part) in a[1..].iter().filter_map(bytes_of).enumerate() {
        if i > 0 {
            out.extend_from_slice(&sep);
        }
        out.extend_from_slice(&part);
    }
    Ok(Value::Bytes(out))
}

fn left(a: &[Value]) -> Result<Value> {
    let c = chars(&a[0]);
    let k = n(&a[1]).clamp(0, c.len() as i64) as usize;
    Ok(string(&c[..k]))
}

fn right(a: &[Value]) -> Result<Value> {
    let c = chars(&a[0]);
    let k = n(&a[1]).clamp(0, c.len() as i64) as usize;
    Ok(string(&c[c.len() - k..]))
}

/// LPAD/RPAD: `s` cut or padded with `pad` repeated to `len` characters;
/// NULL for a negative length, or padding needed and none given.
fn pad(a: &[Value], on_left: bool) -> Result<Value> {
    let (s, len, padding) = (chars(&a[0]), n(&a[1]), chars(&a[2]));
    if len < 0 {
        return Ok(Value::Null);
    }
    let len = len as usize;
    checked(len, if on_left { "lpad" } else { "rpad" })?;
    if len <= s.len() {
        return Ok(string(&s[..len]));
    }
    if padding.is_empty() {
        return Ok(Value::Null);
    }
    let fill: Vec<char> = padding
        .iter()
        .copied()
        .cycle()
        .take(len - s.len())
        .collect();
    let out: Vec<char> = if on_left {
        fill.into_iter().chain(s).collect()
    } else {
        s.into_iter().chain(fill).collect()
    };
    Ok(string(&out))
}

fn lpad(a: &[Value]) -> Result<Value> {
    pad(a, true)
}

fn rpad(a: &[Value]) -> Result<Value> {
    pad(a, false)
}

fn replace(a: &[Value]) -> Result<Value> {
    let (s, from, to) = (t(&a[0]), t(&a[1]), t(&a[2]));
    if from.is_empty() {
        return Ok(Value::str(&s));
    }
    let out = s.replace(&from, &to);
    checked(out.len(), "replace")?;
    Ok(Value::str(&out))
}

fn reverse(a: &[Value]) -> Result<Value> {
    Ok(Value::str(&t(&a[0]).chars().rev().collect::<String>()))
}

/// The 1-based character position of the first `needle` in `hay` at or
/// after character `from` (0-based); 0 if none. As in MariaDB, each
/// window of the needle's length in bytes is compared in `collation`
/// ('A' is not found in 'Ärger' under utf8mb4_general_ci, where 'Ä' = 'A').
fn position(hay: &str, needle: &str, from: usize, collation: Collation) -> i64 {
    let starts: Vec<usize> = hay.char_indices().map(|(i, _)| i).collect();
    if from > starts.len() {
        return 0;
    }
    if needle.is_empty() {
        return from as i64 + 1;
    }
    starts[from..]
        .iter()
        .position(|&at| {
            hay.get(at..at + needle.len()).is_some_and(|window| {
                collation.compare(window.as_bytes(), needle.as_bytes()) == Ordering::Equal
            })
        })
        .map_or(0, |i| (from + i) as i64 + 1)
}

fn instr(a: &[Value], collation: Collation) -> Result<Value> {
    Ok(Value::Int(position(&t(&a[0]), &t(&a[1]), 0, collation)))
}

fn locate(a: &[Value], collation: Collation) -> Result<Value> {
    let from = match a.get(2) {
        Some(p) => {
            let p = n(p);
            if p < 1 {
                return Ok(Value::Int(0));
            }
            p as usize - 1
        }
        None => 0,
    };
    Ok(Value::Int(position(&t(&a[1]), &t(&a[0]), from, collation)))
}

fn hex(a: &[Value]) -> Result<Value> {
    Ok(Value::str(&match &a[0] {
        Value::Bytes(b) => b.iter().map(|x| format!("{x:02X}")).collect::<String>(),
        Value::Int(i) => format!("{:X}", *i as u64),
        Value::UInt(u) => format!("{u:X}"),
        other => {
            let x = float_of(other).unwrap_or(0.0).round();
            if x < 0.0 {
                format!("{:X}", x as i64 as u64)
            } else {
                format!("{:X}", x as u64)
            }
        }
    }))
}

fn unhex(a: &[Value]) -> Result<Value> {
    let s = t(&a[0]);
    let digits: Vec<u8> = s.bytes().collect();
    let padded: Vec<u8> = if digits.len() % 2 == 1 {
        std::iter::once(b'0').chain(digits).collect()
    } else {
        digits
    };
    let mut out = Vec::with_capacity(padded.len() / 2);
    for pair in padded.chunks(2) {
        let hi = (pair[0] as char).to_digit(16);
        let lo = (pair[1] as char).to_digit(16);
        match (hi, lo) {
            (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
            _ => return Ok(Value::Null),
        }
    }
    Ok(Value::Bytes(out))
}

fn ascii(a: &[Value]) -> Result<Value> {
    Ok(Value::Int(
        bytes_of(&a[0])
            .and_then(|b| b.first().copied())
            .unwrap_or(0) as i64,
    ))
}

/// ORD: a multi-byte first character as its bytes read big-endian.
fn ord(a: &[Value]) -> Result<Value> {
    let s = t(&a[0]);
    let Some(c) = s.chars().next() else {
        return Ok(Value::Int(0));
    };
    let mut buf = [0u8; 4];
    let bytes = c.encode_utf8(&mut buf).as_bytes();
    Ok(Value::Int(
        bytes.iter().fold(0i64, |acc, &b| acc * 256 + b as i64),
    ))
}

/// CHAR(n, …): each integer as its bytes, most significant first (NULLs
/// skipped).
fn char_of(a: &[Value]) -> Result<Value> {
    let mut out = Vec::new();
    for v in a.iter().filter(|v| !v.is_null()) {
        let x = n(v) as u32;
        let bytes = x.to_be_bytes();
        let first = bytes.iter().position(|&b| b != 0).unwrap_or(3);
        out.extend_from_slice(&bytes[first..]);
    }
    Ok(Value::Bytes(out))
}

fn space(a: &[Value]) -> Result<Value> {
    let k = n(&a[0]).max(0) as usize;
    checked(k, "space")?;
    Ok(Value::str(&" ".repeat(k)))
}

/// A value's string bytes as they are (a binary string need not be
/// UTF-8), a number's text.
fn raw(v: &Value) -> std::borrow::Cow<'_, [u8]> {
    match v {
        Value::Bytes(b) => std::borrow::Cow::Borrowed(b),
        other => std::borrow::Cow::Owned(other.to_text().unwrap_or_default().into_bytes()),
    }
}

/// Whether two values are equal strings in `collation`.
fn equal_texts(a: &Value, b: &Value, collation: Collation) -> bool {
    collation.compare(&raw(a), &raw(b)) == Ordering::Equal
}

fn strcmp(a: &[Value], collation: Collation) -> Result<Value> {
    Ok(Value::Int(
        match collation.compare(&raw(&a[0]), &raw(&a[1])) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        },
    ))
}

/// FIELD(x, a, b, …): the 1-based place of the first equal to x; 0 if
/// none or x is NULL. Numbers compare as numbers when every argument is one.
fn field(a: &[Value], collation: Collation) -> Result<Value> {
    if a[0].is_null() {
        return Ok(Value::Int(0));
    }
    let numeric = a.iter().all(|v| !matches!(v, Value::Bytes(_)));
    let place = a[1..].iter().position(|v| {
        if v.is_null() {
            false
        } else if numeric {
            float_of(v) == float_of(&a[0])
        } else {
            equal_texts(v, &a[0], collation)
        }
    });
    Ok(Value::Int(place.map_or(0, |p| p as i64 + 1)))
}

fn find_in_set(a: &[Value], collation: Collation) -> Result<Value> {
    let (x, list) = (raw(&a[0]), raw(&a[1]));
    if list.is_empty() || x.contains(&b',') {
        return Ok(Value::Int(0));
    }
    let place = list
        .split(|&b| b == b',')
        .position(|item| collation.compare(item, &x) == Ordering::Equal);
    Ok(Value::Int(place.map_or(0, |p| p as i64 + 1)))
}

fn elt(a: &[Value]) -> Result<Value> {
    let Some(i) = int_of(&a[0]) else {
        return Ok(Value::Null);
    };
    if i < 1 || i as usize >= a.len() {
        return Ok(Value::Null);
    }
    Ok(match &a[i as usize] {
        Value::Null => Value::Null,
        v => Value::Bytes(bytes_of(v).unwrap_or_default()),
    })
}

/// FORMAT(x, d): rounded to d decimals (at most 38), thousands grouped
/// with commas (the en_US locale).
fn format(a: &[Value]) -> Result<Value> {
    let places = n(&a[1]).clamp(0, 38) as usize;
    // Exact numbers rounded exactly; the rest through the double.
    let exact = match &a[0] {
        Value::Decimal(d) => Some(*d),
        Value::Int(i) => Some(Dec::new(*i as i128, 0)),
        Value::UInt(u) => Some(Dec::new(*u as i128, 0)),
        _ => None,
    };
    let fixed = match exact {
        Some(d) => d.round_digits(places as i32, false).to_string(),
        None => format!("{:.*}", places, float_of(&a[0]).unwrap_or(0.0)),
    };
    let (sign, digits) = match fixed.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", fixed.as_str()),
    };
    let (whole, frac) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let mut out = format!("{sign}{grouped}");
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    Ok(Value::str(&out))
}

fn ltrim(a: &[Value]) -> Result<Value> {
    Ok(Value::str(t(&a[0]).trim_start_matches(' ')))
}

fn rtrim(a: &[Value]) -> Result<Value> {
    Ok(Value::str(t(&a[0]).trim_end_matches(' ')))
}

fn trim(a: &[Value]) -> Result<Value> {
    let (s, what, side) = (t(&a[0]), t(&a[1]), t(&a[2]));
    if what.is_empty() {
        return Ok(Value::str(&s));
    }
    let mut rest = s.as_str();
    if side != "TRAILING" {
        while let Some(r) = rest.strip_prefix(what.as_str()) {
            rest = r;
        }
    }
    if side != "LEADING" {
        while let Some(r) = rest.strip_suffix(what.as_str()) {
            rest = r;
        }
    }
    Ok(Value::str(rest))
}

/// SUBSTRING_INDEX(s, delim, count): before the count-th delimiter (from
/// the right when count is negative).
fn substring_index(a: &[Value]) -> Result<Value> {
    let (s, delim, count) = (t(&a[0]), t(&a[1]), n(&a[2]));
    if delim.is_empty() || count == 0 {
        return Ok(Value::str(""));
    }
    let parts: Vec<&str> = s.split(delim.as_str()).collect();
    let k = count.unsigned_abs() as usize;
    if k >= parts.len() {
        return Ok(Value::str(&s));
    }
    Ok(Value::str(&if count > 0 {
        parts[..k].join(&delim)
    } else {
        parts[parts.len() - k..].join(&delim)
    }))
}

/// INSERT(s, pos, len, new): `len` characters at `pos` replaced by `new`
/// (s itself when pos is outside it).
fn insert(a: &[Value]) -> Result<Value> {
    let (s, pos, len, new) = (chars(&a[0]), n(&a[1]), n(&a[2]), chars(&a[3]));
    if pos < 1 || pos as usize > s.len() {
        return Ok(string(&s));
    }
    let start = pos as usize - 1;
    let end = if len < 0 {
        s.len()
    } else {
        (start + len as usize).min(s.len())
    };
    let out: Vec<char> = s[..start]
        .iter()
        .chain(&new)
        .chain(&s[end..])
        .copied()
        .collect();
    Ok(string(&out))
}

/// QUOTE(s): a string literal that reads back as s; NULL as the word.
fn quote(a: &[Value]) -> Result<Value> {
    let Some(b) = bytes_of(&a[0]) else {
        return Ok(Value::str("NULL"));
    };
    let mut out = vec![b'\''];
    for c in b {
        match c {
            b'\'' | b'\\' => out.extend_from_slice(&[b'\\', c]),
            0 => out.extend_from_slice(b"\\0"),
            26 => out.extend_from_slice(b"\\Z"),
            _ => out.push(c),
        }
    }
    out.push(b'\'');
    Ok(Value::Bytes(out))
}

fn bin(a: &[Value]) -> Result<Value> {
    Ok(Value::str(&format!("{:b}", n(&a[0]) as u64)))
}

fn oct(a: &[Value]) -> Result<Value> {
    Ok(Value::str(&format!("{:o}", n(&a[0]) as u64)))
}

fn bit_length(a: &[Value]) -> Result<Value> {
    Ok(Value::Int(
        bytes_of(&a[0]).map_or(0, |b| b.len() as i64 * 8),
    ))
}
