//! A WHERE clause prepared for one execution over one table's stored rows.
//! The conjuncts of the form `column <op> constant` (and `column BETWEEN
//! constant AND constant`) on integer, decimal, DATE and DATETIME columns
//! become integer range checks on the row's stored bytes: no `Value` is
//! built and no expression tree walked for a row they reject. A table scan
//! with a selective WHERE clause (TPC-H Q6 keeps about 1% of the rows)
//! spends most of its time rejecting rows, so this is its inner loop.
//!
//! Invariant: for a stored row, [`RowFilter::passes`] is true exactly when
//! the full filter evaluates to TRUE. Each range check is one conjunct of
//! the filter, checked with the comparison's own semantics (NULL fails,
//! numbers compared exactly at a common scale); the conjuncts not turned
//! into checks stay in `rest`, evaluated only for rows the checks pass.
use crate::error::Result;
use crate::expr::{truth_of, CmpOp, Env, Expr, Row};
use lineardb_table::types::DataType;
use lineardb_table::{RowRef, Value};

/// Largest common scale a check uses: values times 10^18 stay far inside
/// an i128 for every stored integer and decimal.
const MAX_SCALE: u8 = 18;

/// `lo <= stored * mul <= hi` on one column (NULL fails).
#[derive(Debug, Clone)]
struct RangeCheck {
    col: usize,
    read: Read,
    mul: i128,
    lo: i128,
    hi: i128,
}

/// How a checked column's stored value is read.
#[derive(Debug, Clone, Copy)]
enum Read {
    /// Integers, DATE (days), DATETIME (microseconds).
    Int,
    /// The unscaled decimal.
    Decimal,
}

#[derive(Debug, Clone)]
pub(crate) struct RowFilter {
    checks: Vec<RangeCheck>,
    /// The conjuncts not turned into checks (None: nothing left).
    rest: Option<Expr>,
    /// The whole filter, for rows that are not stored rows (derived
    /// tables, values).
    full: Expr,
}

impl RowFilter {
    /// Prepares `filter` (parameters already bound) over rows whose
    /// columns have `types`.
    pub fn new(filter: Expr, types: &[DataType]) -> RowFilter {
        let mut conjuncts = Vec::new();
        crate::expr::conjuncts(&filter, &mut conjuncts);
        let mut checks = Vec::new();
        let mut rest: Option<Expr> = None;
        for c in conjuncts {
            match range_check(c, types) {
                Some(check) => checks.push(check),
                None => {
                    rest = Some(match rest {
                        None => c.clone(),
                        Some(r) => Expr::And(Box::new(r), Box::new(c.clone())),
                    })
                }
            }
        }
        RowFilter {
            checks,
            rest,
            full: filter,
        }
    }

    /// Whether a stored row passes the range checks (the whole filter if
    /// [`rest`](Self::passes_rest) has nothing left).
    #[inline(always)]
    pub fn passes_checks(&self, row: &RowRef<'_>) -> bool {
        self.checks.iter().all(|c| {
            !row.is_null(c.col) && {
                let v = match c.read {
                    Read::Int => row.int(c.col) as i128,
                    // (Planned only for DECIMAL(≤ 38) columns.)
                    Read::Decimal => row.decimal(c.col).unwrap_or_default(),
                } * c.mul;
                c.lo <= v && v <= c.hi
            }
        })
    }

    /// Whether a stored row that passed the checks passes the rest.
    pub fn passes_rest(&self, row: &RowRef<'_>, env: Env<'_>) -> Result<bool> {
        match &self.rest {
            None => Ok(true),
            Some(e) => Ok(truth_of(&e.eval(row, env)?) == Some(true)),
        }
    }

    /// Whether a stored row passes the filter.
    #[cfg(test)]
    fn passes_stored(&self, row: &RowRef<'_>, env: Env<'_>) -> Result<bool> {
        if !self.passes_checks(row) {
            return Ok(false);
        }
        self.passes_rest(row, env)
    }

    /// Whether any row passes the filter (through the whole expression).
    pub fn passes<R: Row + ?Sized>(&self, row: &R, env: Env<'_>) -> Result<bool> {
        Ok(truth_of(&self.full.eval(row, env)?) == Some(true))
    }

    #[cfg(test)]
    fn checks(&self) -> usize {
        self.checks.len()
    }
}

/// The check a conjunct is, if it compares a column of a checkable type
/// with constants.
fn range_check(e: &Expr, types: &[DataType]) -> Option<RangeCheck> {
    // (column, [(op, constant)]): each pair one end of the range.
    let (col, ends) = match e {
        Expr::Cmp(op, a, b, _) => match (a.as_ref(), b.as_ref()) {
            (Expr::Col(c), Expr::Lit(k)) => (*c, vec![(*op, k)]),
            (Expr::Lit(k), Expr::Col(c)) => (*c, vec![(flip(*op)?, k)]),
            _ => return None,
        },
        Expr::Between(x, lo, hi, false, _) => match (x.as_ref(), lo.as_ref(), hi.as_ref()) {
            (Expr::Col(c), Expr::Lit(l), Expr::Lit(h)) => {
                (*c, vec![(CmpOp::Ge, l), (CmpOp::Le, h)])
            }
            _ => return None,
        },
        _ => return None,
    };
    // The column's digits: its value times 10^(scale − its scale) must be
    // an i128 (38 digits).
    let (read, col_scale, kind, digits) = match *types.get(col)? {
        DataType::BigInt { unsigned: true } => return None,
        t if t.is_integer() => (Read::Int, 0, Kind::Number, 19),
        DataType::Decimal { precision, scale } => (Read::Decimal, scale, Kind::Number, precision),
        DataType::Date => (Read::Int, 0, Kind::Date, 19),
        DataType::DateTime | DataType::Timestamp => (Read::Int, 0, Kind::DateTime, 19),
        _ => return None,
    };
    let (mut lo, mut hi) = (None, None);
    for (op, k) in ends {
        let b = match k {
            // A number compared with a double is compared as a double.
            Value::Double(d) if kind == Kind::Number => double_bounds(op, *d, col_scale)?,
            _ => bounds(op, k)?,
        };
        if let Some(l) = b.0 {
            lo = Some(l);
        }
        if let Some(h) = b.1 {
            hi = Some(h);
        }
    }
    // Both bounds at one scale, the column's value brought to it.
    let scale = [Some(col_scale), lo.map(|b| b.scale), hi.map(|b| b.scale)]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(0);
    if scale > MAX_SCALE || digits + (scale - col_scale) > 38 {
        return None;
    }
    let at_scale = |b: Option<Bound>, open_end: i128| -> Option<i128> {
        let Some(b) = b else {
            return Some(open_end);
        };
        if b.kind != kind {
            return None;
        }
        let v = b.value.checked_mul(10i128.pow((scale - b.scale) as u32))?;
        // A strict bound excludes its value: integers, so one step in.
        Some(match b.strict {
            false => v,
            true if open_end == i128::MIN => v.checked_add(1)?,
            true => v.checked_sub(1)?,
        })
    };
    Some(RangeCheck {
        col,
        read,
        mul: 10i128.pow((scale - col_scale) as u32),
        lo: at_scale(lo, i128::MIN)?,
        hi: at_scale(hi, i128::MAX)?,
    })
}

/// The (lower, upper) ends `column <op> k` puts on the column, `None` at
/// an open end; `None` when the comparison is not a range on a number or
/// date (`<>`, `<=>`, NULL, text...).
fn bounds(op: CmpOp, k: &Value) -> Option<(Option<Bound>, Option<Bound>)> {
    let (value, scale, kind) = match k {
        Value::Int(i) => (*i as i128, 0, Kind::Number),
        Value::Decimal(d) => (d.unscaled_i128()?, d.scale, Kind::Number),
        Value::Date(d) => (*d as i128, 0, Kind::Date),
        Value::DateTime(t) => (*t as i128, 0, Kind::DateTime),
        _ => return None,
    };
    let at = |strict| {
        Some(Bound {
            value,
            scale,
            strict,
            kind,
        })
    };
    Some(match op {
        CmpOp::Eq => (at(false), at(false)),
        CmpOp::Ge => (at(false), None),
        CmpOp::Gt => (at(true), None),
        CmpOp::Le => (None, at(false)),
        CmpOp::Lt => (None, at(true)),
        CmpOp::Ne | CmpOp::NullSafeEq => return None,
    })
}

/// [`bounds`] for a number column of `scale` compared with the double
/// `k` (as the evaluator compares them: the stored value converted to a
/// double, `unscaled as f64 / 10^scale`). That conversion never decreases
/// as the stored value grows, so the stored values it puts on one side of
/// `k` form a range; its ends are found exactly by trying the conversion
/// around `k * 10^scale`.
fn double_bounds(op: CmpOp, k: f64, scale: u8) -> Option<(Option<Bound>, Option<Bound>)> {
    let div = 10i128.pow(scale as u32) as f64;
    let f = |x: i128| x as f64 / div;
    let guess = k * div;
    if !guess.is_finite() || guess.abs() > 1e15 {
        return None;
    }
    // The least stored value whose double is >= k (or > k if `strict`).
    let least = |strict: bool| {
        let above = |x: i128| if strict { f(x) > k } else { f(x) >= k };
        let mut x = guess.floor() as i128 - 2;
        while above(x) {
            x -= 1;
        }
        while !above(x) {
            x += 1;
        }
        x
    };
    let at = |value| {
        Some(Bound {
            value,
            scale,
            strict: false,
            kind: Kind::Number,
        })
    };
    Some(match op {
        CmpOp::Eq => (at(least(false)), at(least(true) - 1)),
        CmpOp::Ge => (at(least(false)), None),
        CmpOp::Gt => (at(least(true)), None),
        CmpOp::Le => (None, at(least(true) - 1)),
        CmpOp::Lt => (None, at(least(false) - 1)),
        CmpOp::Ne | CmpOp::NullSafeEq => return None,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Date,
    DateTime,
}

/// One end of a range: `value / 10^scale`, excluded if `strict`.
#[derive(Debug, Clone, Copy)]
struct Bound {
    value: i128,
    scale: u8,
    strict: bool,
    kind: Kind,
}

/// `k <op> column` as `column <op'> k`.
fn flip(op: CmpOp) -> Option<CmpOp> {
    Some(match op {
        CmpOp::Eq => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        CmpOp::Ne | CmpOp::NullSafeEq => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::ArithOp;
    use lineardb_table::{Collation, Dec, RowLayout};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn types() -> Vec<DataType> {
        vec![
            DataType::Int { unsigned: false },
            DataType::Decimal {
                precision: 15,
                scale: 2,
            },
            DataType::Date,
            DataType::TinyInt { unsigned: true },
            DataType::VarChar(8),
            DataType::DateTime,
        ]
    }

    fn random_value(rng: &mut SmallRng, col: usize) -> Value {
        if rng.gen_ratio(1, 10) {
            return Value::Null;
        }
        match col {
            0 => Value::Int(rng.gen_range(-20..20)),
            1 => Value::Decimal(Dec::new(
                rng.gen_range(-300..300) / [1, 10, 100][rng.gen_range(0..3)],
                2,
            )),
            2 => Value::Date(rng.gen_range(9_000..9_030)),
            3 => Value::Int(rng.gen_range(0..=255)),
            4 => Value::str(["a", "b", "c"][rng.gen_range(0..3)]),
            _ => Value::DateTime(rng.gen_range(-5..5) * 1_000_000),
        }
    }

    /// A constant comparable with column `col`, sometimes of a scale or
    /// kind the checks must treat exactly (or leave to the expression).
    fn random_constant(rng: &mut SmallRng, col: usize) -> Value {
        match (col, rng.gen_range(0..7)) {
            (_, 0) => Value::Null,
            // Doubles: numbers are then compared as doubles, at values on
            // and between the stored steps (0.05, 0.051, -2.999...).
            (0 | 1 | 3, 6) => {
                let steps = [1.0, 10.0, 100.0, 1000.0][rng.gen_range(0..4)];
                Value::Double(rng.gen_range(-30i32..30) as f64 / steps)
            }
            (0 | 3, 1) | (1, 1) => Value::Decimal(Dec::new(rng.gen_range(-3000..3000), 3)),
            (0 | 3, _) => Value::Int(rng.gen_range(-25..260)),
            (1, 2) => Value::Int(rng.gen_range(-4..4)),
            (1, _) => Value::Decimal(Dec::new(rng.gen_range(-300..300), 2)),
            (2, 2) => Value::Int(rng.gen_range(9_000..9_030)),
            (2, _) => Value::Date(rng.gen_range(8_995..9_035)),
            (4, _) => Value::str("b"),
            (_, 2) => Value::Date(0),
            _ => Value::DateTime(rng.gen_range(-6..6) * 1_000_000),
        }
    }

    fn random_conjunct(rng: &mut SmallRng) -> Expr {
        let col = rng.gen_range(0..6);
        let c = Box::new(Expr::Col(col));
        let k = |rng: &mut SmallRng| Box::new(Expr::Lit(random_constant(rng, col)));
        let ops = [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
            CmpOp::NullSafeEq,
        ];
        let op = ops[rng.gen_range(0..ops.len())];
        match rng.gen_range(0..5) {
            0 => Expr::Between(c, k(rng), k(rng), false, Collation::default()),
            1 => Expr::Cmp(op, k(rng), c, Collation::default()),
            2 => Expr::Cmp(
                CmpOp::Gt,
                Box::new(Expr::Arith(ArithOp::Add, c, k(rng))),
                Box::new(Expr::Lit(Value::Int(0))),
                Collation::default(),
            ),
            _ => Expr::Cmp(op, c, k(rng), Collation::default()),
        }
    }

    /// The checks accept exactly the rows the whole expression accepts.
    #[test]
    fn checks_agree_with_the_expression() {
        let mut rng = SmallRng::seed_from_u64(7);
        let layout = RowLayout::new(types());
        let env = Env::new(&[]);
        let (mut checked, mut passed) = (0, 0);
        for _ in 0..10_000 {
            let mut filter = random_conjunct(&mut rng);
            for _ in 0..rng.gen_range(0..3) {
                filter = Expr::And(Box::new(filter), Box::new(random_conjunct(&mut rng)));
            }
            let f = RowFilter::new(filter.clone(), &types());
            checked += f.checks();
            for _ in 0..20 {
                let values: Vec<Value> = (0..6).map(|c| random_value(&mut rng, c)).collect();
                let mut buf = Vec::new();
                layout.encode(&values, &mut buf);
                let row = layout.row(&buf);
                let want = truth_of(&filter.eval(&values[..], env).unwrap()) == Some(true);
                assert_eq!(
                    f.passes_stored(&row, env).unwrap(),
                    want,
                    "{filter:?} on {values:?}"
                );
                assert_eq!(f.passes(&values[..], env).unwrap(), want);
                passed += want as usize;
            }
        }
        // The cases exercised both paths.
        assert!(checked > 6_000, "{checked} checks");
        assert!(passed > 10_000, "{passed} rows passed");
    }
}
