//! Bit operations as MariaDB has them: `&`, `|`, `^`, `<<`, `>>`, `~` and
//! BIT_COUNT work on 64-bit unsigned integers (a negative number as its
//! two's complement, a decimal or a double rounded, a string's leading
//! number), and give a BIGINT UNSIGNED.
use super::arguments::{numeric_read_as, NumberReading};
use super::kinds::int;
use super::Builtin;
use crate::error::Result;
use lineardb_table::Value;

pub(super) const FUNCTIONS: &[Builtin] = &[Builtin::new(&["BIT_COUNT"], (1, 1), int, bit_count)];

/// A bit operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BitOp {
    And,
    Or,
    Xor,
    ShiftLeft,
    ShiftRight,
    /// `~x` (one argument).
    Not,
}

/// `op` of `args` (one for `Not`, two otherwise); NULL if one is NULL.
pub(crate) fn apply(op: BitOp, args: &[Value]) -> Value {
    let Some(a) = bits(&args[0]) else {
        return Value::Null;
    };
    if op == BitOp::Not {
        return Value::UInt(!a);
    }
    let Some(b) = bits(&args[1]) else {
        return Value::Null;
    };
    Value::UInt(combine(op, a, b))
}

/// `a op b` of two operators' bits (BIT_AND/OR/XOR fold rows with it).
pub(crate) fn combine(op: BitOp, a: u64, b: u64) -> u64 {
    match op {
        BitOp::And => a & b,
        BitOp::Or => a | b,
        BitOp::Xor => a ^ b,
        // A shift by 64 or more leaves no bit.
        BitOp::ShiftLeft => a
            .checked_shl(u32::try_from(b).unwrap_or(u32::MAX))
            .unwrap_or(0),
        BitOp::ShiftRight => a
            .checked_shr(u32::try_from(b).unwrap_or(u32::MAX))
            .unwrap_or(0),
        BitOp::Not => unreachable!("one argument"),
    }
}

/// A value's 64 bits; None for NULL. Past the range a number stops at its
/// end (as a signed one for a negative number).
pub(crate) fn bits(v: &Value) -> Option<u64> {
    let wide = |n: i128| n.clamp(i64::MIN as i128, u64::MAX as i128) as u64;
    // A string reads as a DECIMAL here, as MariaDB's warning names it.
    Some(match numeric_read_as(v, NumberReading::Decimal) {
        Value::Null => return None,
        Value::Int(i) => i as u64,
        Value::UInt(u) => u,
        Value::Decimal(d) => wide(d.round_to_i128_saturating()),
        // `as` saturates.
        Value::Double(f) => wide(f.round() as i128),
        _ => 0,
    })
}

fn bit_count(a: &[Value]) -> Result<Value> {
    Ok(bits(&a[0]).map_or(Value::Null, |b| Value::Int(b.count_ones() as i64)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_as_mariadb_computes_them() {
        let op = |op, a: Value, b: Value| apply(op, &[a, b]);
        assert_eq!(op(BitOp::And, Value::Int(6), Value::Int(3)), Value::UInt(2));
        assert_eq!(
            op(BitOp::Or, Value::Int(-1), Value::Int(0)),
            Value::UInt(u64::MAX)
        );
        assert_eq!(
            op(BitOp::Xor, Value::str("5x"), Value::Int(1)),
            Value::UInt(4)
        );
        assert_eq!(
            op(BitOp::ShiftLeft, Value::Int(1), Value::Int(64)),
            Value::UInt(0)
        );
        assert_eq!(
            op(BitOp::ShiftLeft, Value::Int(1), Value::Int(63)),
            Value::UInt(1 << 63)
        );
        assert_eq!(
            op(BitOp::ShiftRight, Value::Int(8), Value::Int(-1)),
            Value::UInt(0)
        );
        assert_eq!(op(BitOp::And, Value::Null, Value::Int(1)), Value::Null);
        assert_eq!(apply(BitOp::Not, &[Value::Int(0)]), Value::UInt(u64::MAX));
        assert_eq!(
            op(BitOp::Or, Value::Double(2.5), Value::Int(0)),
            Value::UInt(3)
        );
        assert_eq!(bit_count(&[Value::Int(-1)]).unwrap(), Value::Int(64));
    }
}
