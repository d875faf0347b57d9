//! The column an expression makes in a result, as MariaDB types the item
//! for it: its kind, its length (characters; a number's digits with sign
//! and point), its decimals, whether it can be NULL, and whether an
//! integer is a LONG or a LONGLONG. Drivers read these (a LONG is an
//! `Integer` to Connector/J, a binary string a `Buffer` to mysql2) and
//! CREATE TABLE … SELECT and views make their columns from them.
//!
//! The rules follow MariaDB 10.11's `fix_length_and_dec` of each item;
//! `tests/result_metadata.rs` compares them with a MariaDB server.
use super::{AggFunc, AggSpec, ArithOp, CastType, Expr, Func, ScopeColumn, SubqueryTest};
use crate::function::Builtin;
use crate::result::{Column, ColumnKind, ExprWire};
use lineardb_table::{Collation, DataType, Value};

/// NOT_FIXED_DEC: the decimals MariaDB gives strings and inexact numbers.
const NOT_FIXED_DEC: u8 = 39;
/// A DOUBLE's decimals when not fixed.
const DOUBLE_DEC: u8 = 31;
/// The length of a DOUBLE expression (DBL_DIG + 8).
const DOUBLE_LENGTH: u32 = 23;
/// The characters a string of unknown length may have: max_allowed_packet.
const UNBOUNDED_CHARS: u32 = 16 * 1024 * 1024;
/// The digits SUM adds to its argument's (DECIMAL_LONGLONG_DIGITS).
const SUM_DIGITS: u32 = 22;
/// The digits a division or AVG adds (div_precision_increment).
const DIV_DIGITS: u32 = 4;
const MAX_PRECISION: u32 = 65;
const MAX_SCALE: u8 = 38;

impl Expr {
    /// The result column this expression makes (no names). Where its rules
    /// do not know a form, its kind may differ from the plan's: the
    /// planner then keeps its kind's defaults (`planner/select.rs`).
    pub(crate) fn describe(&self, scope: &[ScopeColumn], aggs: &[AggSpec]) -> Column {
        Describer { scope, aggs }.describe(self)
    }
}

struct Describer<'a> {
    scope: &'a [ScopeColumn],
    aggs: &'a [AggSpec],
}

fn shape(kind: ColumnKind, length: u32, nullable: bool) -> Column {
    let mut c = Column::expr("", kind);
    c.length = length;
    c.nullable = nullable;
    c
}

/// An integer, a LONG when its length is at most nine, ten if unsigned
/// (as MariaDB's `type_handler_long_or_longlong`).
fn int(length: u32, unsigned: bool, nullable: bool) -> Column {
    let mut c = longlong(length, unsigned, nullable);
    if length <= 9 || unsigned && length <= 10 {
        c.wire = ExprWire::Long;
    }
    c
}

fn long(length: u32, unsigned: bool, nullable: bool) -> Column {
    Column {
        wire: ExprWire::Long,
        ..longlong(length, unsigned, nullable)
    }
}

fn longlong(length: u32, unsigned: bool, nullable: bool) -> Column {
    let kind = if unsigned {
        ColumnKind::UInt
    } else {
        ColumnKind::Int
    };
    shape(kind, length, nullable)
}

/// A DECIMAL of `precision` digits, `scale` after the point.
fn decimal(precision: u32, scale: u8, nullable: bool) -> Column {
    let scale = scale.min(MAX_SCALE);
    let precision = precision.clamp(u32::from(scale).max(1), MAX_PRECISION);
    shape(
        ColumnKind::Decimal { scale },
        precision + u32::from(scale > 0) + 1,
        nullable,
    )
}

fn double(length: u32, decimals: u8, nullable: bool) -> Column {
    let mut c = shape(ColumnKind::Double, length, nullable);
    c.decimals = Some(decimals);
    c
}

/// A string of `chars` characters in `collation` (bytes if binary).
fn text(chars: u32, collation: Collation, nullable: bool) -> Column {
    let mut c = shape(ColumnKind::Text(collation), chars, nullable);
    c.decimals = Some(NOT_FIXED_DEC);
    c
}

/// A string computed by a function: in the connection's collation, not
/// fixed decimals.
fn func_text(chars: u32, nullable: bool) -> Column {
    text(chars, Collation::Utf8mb4GeneralCi, nullable)
}

fn temporal(kind: ColumnKind, fsp: u8, nullable: bool) -> Column {
    let base = match kind {
        ColumnKind::Date => 10,
        ColumnKind::DateTime => 19,
        _ => 10,
    };
    let mut c = shape(
        kind,
        base + if fsp > 0 { 1 + u32::from(fsp) } else { 0 },
        nullable,
    );
    c.fsp = fsp;
    c
}

/// Whether a number column is signed.
fn signed(c: &Column) -> bool {
    !matches!(c.kind, ColumnKind::UInt)
        && !matches!(
            c.data_type,
            Some(
                DataType::TinyInt { unsigned: true }
                    | DataType::SmallInt { unsigned: true }
                    | DataType::MediumInt { unsigned: true }
                    | DataType::Int { unsigned: true }
                    | DataType::Year
                    | DataType::Bit(_)
            )
        )
}

/// A number column's scale (0 for integers).
fn scale(c: &Column) -> u8 {
    match c.kind {
        ColumnKind::Decimal { scale } => scale,
        _ => 0,
    }
}

/// A number column's precision: its digits, without sign and point.
fn precision(c: &Column) -> u32 {
    match c.kind {
        ColumnKind::Decimal { scale } => c.length.saturating_sub(1 + u32::from(scale > 0)),
        ColumnKind::Int | ColumnKind::UInt => c.length.saturating_sub(u32::from(signed(c))),
        ColumnKind::Double => 17,
        _ => c.length,
    }
}

/// Digits before the point.
fn int_digits(c: &Column) -> u32 {
    precision(c).saturating_sub(u32::from(scale(c)))
}

/// The characters a value of this column takes as a string (a binary
/// string's bytes, a number's or a date's display length).
fn chars(c: &Column) -> u32 {
    if c.wire == ExprWire::Null {
        0
    } else {
        c.length
    }
}

/// The bytes a string of this column takes (four per character of a
/// utf8mb4 string).
fn bytes(c: &Column) -> u32 {
    match c.kind {
        ColumnKind::Text(Collation::Binary) => c.length,
        ColumnKind::Text(_) => c.length.saturating_mul(4),
        _ => c.length,
    }
}

/// Whether the column is an integer MariaDB types LONG (a smaller stored
/// integer, or an expression so typed).
fn is_long(c: &Column) -> bool {
    match c.data_type {
        Some(
            DataType::TinyInt { .. }
            | DataType::SmallInt { .. }
            | DataType::MediumInt { .. }
            | DataType::Int { .. },
        ) => true,
        Some(_) => false,
        None => matches!(
            c.wire,
            ExprWire::Long | ExprWire::Tiny | ExprWire::Short | ExprWire::Int24
        ),
    }
}

/// An integer literal's digits (with its sign).
fn literal_length(v: &Value) -> u32 {
    match v {
        Value::Int(i) => i.to_string().len() as u32,
        Value::UInt(u) => u.to_string().len() as u32,
        _ => 0,
    }
}

/// A constant integer argument.
fn constant(e: &Expr) -> Option<i64> {
    match e {
        Expr::Lit(Value::Int(i)) => Some(*i),
        Expr::Lit(Value::UInt(u)) => i64::try_from(*u).ok(),
        _ => None,
    }
}

/// A constant string argument's characters.
fn constant_text(e: &Expr) -> Option<&[u8]> {
    match e {
        Expr::Lit(Value::Bytes(b)) => Some(b),
        _ => None,
    }
}

/// A column read by an expression (`origin` as its table or derived table
/// has it, `kind` as the expression reads it): a stored number, date or
/// short string is what its kind and length say (MariaDB flags it so);
/// the types an expression cannot be (FLOAT, BLOB, CHAR, ENUM…) stay.
fn within_expression(origin: &Column, kind: ColumnKind) -> Column {
    let mut c = Column {
        name: String::new(),
        org_name: String::new(),
        table: String::new(),
        org_table: String::new(),
        schema: String::new(),
        attributes: Default::default(),
        default: None,
        kind,
        ..origin.clone()
    };
    let Some(t) = c.data_type else { return c };
    let plain = t.is_integer()
        || matches!(
            t,
            DataType::Decimal { .. }
                | DataType::Double
                | DataType::Date
                | DataType::DateTime
                | DataType::Time
                | DataType::VarChar(_)
                | DataType::VarBinary(_)
        );
    if plain {
        if is_long(&c) {
            c.wire = ExprWire::Long;
        }
        if !signed(&c) {
            c.kind = ColumnKind::UInt;
        }
        if c.kind.collation().is_some() {
            c.decimals = Some(NOT_FIXED_DEC);
        }
        c.data_type = None;
    } else {
        c.wire = ExprWire::StoredType;
    }
    c
}

/// A scalar subquery's value, typed as its first column (`first`, which is
/// NULL where the subquery may find no row), as MariaDB's single-row
/// subquery item takes its select item's type: a stored TINYINT, SMALLINT
/// or MEDIUMINT keeps its width.
fn scalar_subquery(first: &Column, kind: ColumnKind) -> Column {
    let narrow = match first.data_type {
        Some(DataType::TinyInt { .. }) => Some(ExprWire::Tiny),
        Some(DataType::SmallInt { .. }) => Some(ExprWire::Short),
        Some(DataType::MediumInt { .. }) => Some(ExprWire::Int24),
        _ => None,
    };
    let mut c = within_expression(first, kind);
    if let Some(wire) = narrow {
        c.wire = wire;
    }
    c
}

impl Describer<'_> {
    fn describe(&self, e: &Expr) -> Column {
        match e {
            Expr::Col(i) => self.column(*i),
            Expr::Lit(v) => literal(v),
            Expr::Param(i) => Column {
                wire: ExprWire::Param(*i as u16),
                ..shape(ColumnKind::TEXT, 255, true)
            },
            Expr::Cmp(_, a, b, _) | Expr::And(a, b) | Expr::Or(a, b) | Expr::Like(a, b, ..) => {
                long(1, false, self.any_nullable([&**a, &**b]))
            }
            Expr::Not(a) => long(1, false, self.describe(a).nullable),
            Expr::IsNull(..) => long(1, false, false),
            Expr::Between(a, b, c, ..) => long(1, false, self.any_nullable([&**a, &**b, &**c])),
            Expr::InList(a, list, ..) => long(
                1,
                false,
                self.describe(a).nullable || list.iter().any(|x| self.describe(x).nullable),
            ),
            Expr::Neg(a) => {
                let a = self.describe(a);
                match a.kind {
                    ColumnKind::Int | ColumnKind::UInt => int(a.length + 1, false, a.nullable),
                    ColumnKind::Decimal { scale } => decimal(precision(&a) + 1, scale, a.nullable),
                    // A DOUBLE one longer than its operand (for the sign).
                    ColumnKind::Double => double(a.length + 1, DOUBLE_DEC, a.nullable),
                    _ => double(DOUBLE_LENGTH, DOUBLE_DEC, a.nullable),
                }
            }
            Expr::Arith(op, a, b) => self.arith(*op, a, b),
            Expr::Interval(..) => longlong(21, false, true),
            Expr::Func(f, args) => self.func(f, args),
            Expr::Case(operand, whens, otherwise, _) => {
                let results: Vec<&Expr> = whens
                    .iter()
                    .map(|(_, t)| t)
                    .chain(otherwise.as_deref())
                    .collect();
                let mut c = self.common(&results, NullsJoin::AsSignedInteger);
                // NULL too where a searched CASE's condition may be
                // (MariaDB's; a simple CASE's operand does not count).
                let conditions = whens.iter().map(|(w, _)| w);
                if otherwise.is_none() || (operand.is_none() && self.any_nullable(conditions)) {
                    c.nullable = true;
                }
                c
            }
            Expr::Cast(a, t) => self.cast(a, *t),
            Expr::Subquery(sub, SubqueryTest::Scalar) => match sub.first_column.as_deref() {
                Some(first) => scalar_subquery(first, sub.kind),
                None => Column::expr("", sub.kind),
            },
            Expr::Subquery(_, SubqueryTest::Exists) => long(1, false, false),
            // NULL when the operand is or the subquery yields one.
            Expr::Subquery(..) => long(1, false, true),
            Expr::Window(_) => Column::expr("", ColumnKind::TEXT),
            Expr::Agg(i) => self.aggregate(&self.aggs[*i]),
        }
    }

    fn any_nullable<'e>(&self, args: impl IntoIterator<Item = &'e Expr>) -> bool {
        args.into_iter().any(|a| self.describe(a).nullable)
    }

    /// A column of the scope: what it is where it comes from.
    fn column(&self, i: usize) -> Column {
        let Some(s) = self.scope.get(i) else {
            return Column::expr("", ColumnKind::TEXT);
        };
        let Some(origin) = s.origin.as_deref() else {
            return Column::expr("", s.kind);
        };
        within_expression(origin, s.kind)
    }

    fn arith(&self, op: ArithOp, a: &Expr, b: &Expr) -> Column {
        let (mut x, mut y) = (self.describe(a), self.describe(b));
        // A positive integer literal's length (TRUE's too) has no place
        // for a sign.
        for c in [&mut x, &mut y] {
            if c.unsigned_length {
                c.length += 1;
                c.unsigned_length = false;
            }
        }
        let nullable =
            x.nullable || y.nullable || matches!(op, ArithOp::Div | ArithOp::IntDiv | ArithOp::Mod);
        let kind = super::arith_kind(op, x.kind, y.kind);
        match kind {
            ColumnKind::Double => double(DOUBLE_LENGTH, DOUBLE_DEC, nullable),
            ColumnKind::Int | ColumnKind::UInt => {
                let unsigned = !signed(&x) || !signed(&y);
                let digits = match op {
                    ArithOp::Add | ArithOp::Sub => int_digits(&x).max(int_digits(&y)) + 1,
                    ArithOp::Mul => int_digits(&x) + int_digits(&y),
                    ArithOp::Mod => int_digits(&x).max(int_digits(&y)),
                    // DIV: the dividend's digits, without a sign however
                    // it is typed, LONG or LONGLONG as a signed number's.
                    // A DOUBLE dividend's digits are its length, at most
                    // a BIGINT's 21.
                    ArithOp::IntDiv => {
                        let digits = match x.kind {
                            ColumnKind::Double => x.length.min(21),
                            _ => int_digits(&x),
                        };
                        return int(digits, false, nullable).signed_as(unsigned);
                    }
                    ArithOp::Div => int_digits(&x),
                };
                int(digits + u32::from(!unsigned), unsigned, nullable)
            }
            ColumnKind::Decimal { .. } => {
                let (px, py) = (precision(&x), precision(&y));
                let (sx, sy) = (scale(&x), scale(&y));
                match op {
                    ArithOp::Add | ArithOp::Sub => {
                        let s = sx.max(sy);
                        let ints = int_digits(&x).max(int_digits(&y)) + 1;
                        decimal(ints + u32::from(s), s, nullable)
                    }
                    ArithOp::Mul => decimal(px + py, sx + sy, nullable),
                    ArithOp::Div => decimal(
                        px + u32::from(sy) + DIV_DIGITS,
                        sx + DIV_DIGITS as u8,
                        nullable,
                    ),
                    ArithOp::Mod => {
                        let s = sx.max(sy);
                        decimal(
                            int_digits(&x).max(int_digits(&y)) + u32::from(s),
                            s,
                            nullable,
                        )
                    }
                    ArithOp::IntDiv => int(int_digits(&x), false, nullable),
                }
            }
            other => shape(other, Column::expr("", other).length, nullable),
        }
    }

    /// The type several values meet in (COALESCE, IF, CASE, GREATEST):
    /// their common kind, the longest length, the widest number.
    fn common(&self, args: &[&Expr], nulls: NullsJoin) -> Column {
        let described: Vec<Column> = args
            .iter()
            .map(|a| self.stored_integer(a, self.describe(a)))
            .collect();
        common(described, nulls)
    }

    fn describe_all(&self, args: &[Expr]) -> Vec<Column> {
        args.iter().map(|a| self.describe(a)).collect()
    }

    /// `c`, the description of `e`, with a stored integer column's own
    /// type kept: IF, CASE, COALESCE, NULLIF, GREATEST, LEAST, MIN and
    /// MAX pass a TINYINT, SMALLINT or MEDIUMINT on as one (MariaDB
    /// 10.11.14), where any other expression makes it a LONG.
    fn stored_integer(&self, e: &Expr, mut c: Column) -> Column {
        let Expr::Col(i) = e else { return c };
        let stored = self
            .scope
            .get(*i)
            .and_then(|s| s.origin.as_deref())
            .and_then(|o| o.data_type);
        match stored {
            Some(DataType::TinyInt { .. }) => c.wire = ExprWire::Tiny,
            Some(DataType::SmallInt { .. }) => c.wire = ExprWire::Short,
            Some(DataType::MediumInt { .. }) => c.wire = ExprWire::Int24,
            _ => {}
        }
        c
    }

    /// [`Describer::stored_integer`] of each argument.
    fn stored_integers(&self, args: &[Expr], described: Vec<Column>) -> Vec<Column> {
        args.iter()
            .zip(described)
            .map(|(a, c)| self.stored_integer(a, c))
            .collect()
    }
}

/// How a NULL literal among values that meet in one column counts, as
/// MariaDB 10.11.14 counts it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NullsJoin {
    /// As the narrowest signed integer (UNION, COALESCE, IFNULL, a
    /// CASE's own THEN NULL or ELSE NULL): with an unsigned integer it
    /// makes a DECIMAL.
    AsSignedInteger,
    /// Not at all (IF's, GREATEST's).
    Skipped,
}

fn is_null(c: &Column) -> bool {
    c.wire == ExprWire::Null
}

fn is_integer(c: &Column) -> bool {
    matches!(c.kind, ColumnKind::Int | ColumnKind::UInt) && !is_null(c)
}

/// [`Describer::common`] of values already described.
fn common(all: Vec<Column>, nulls: NullsJoin) -> Column {
    let nullable = all.iter().any(|c| c.nullable || is_null(c));
    let described: Vec<Column> = all.iter().filter(|c| !is_null(c)).cloned().collect();
    let Some(kind) = described.iter().map(|c| c.kind).reduce(super::common_kind) else {
        return literal(&Value::Null);
    };
    // YEARs stay YEARs (MariaDB's type handler joins them so).
    if described
        .iter()
        .all(|c| c.data_type == Some(DataType::Year))
    {
        return Column {
            nullable,
            ..described[0].clone()
        };
    }
    if described.iter().all(is_integer) {
        let parts = match nulls {
            NullsJoin::AsSignedInteger => &all,
            NullsJoin::Skipped => &described,
        };
        return integer_join(parts, nullable);
    }
    if described.len() == 1 {
        return Column {
            nullable,
            ..described[0].clone()
        };
    }
    if described[0].data_type.is_some()
        && described
            .iter()
            .all(|c| c.kind == kind && c.data_type == described[0].data_type)
    {
        let mut c = described[0].clone();
        c.length = described.iter().map(|c| c.length).max().unwrap_or(0);
        c.nullable = nullable;
        // Values of one stored type: that type, not its column.
        c.decimals = c.kind.collation().map(|_| NOT_FIXED_DEC);
        return c;
    }
    match kind {
        ColumnKind::Int | ColumnKind::UInt => integer_join(&described, nullable),
        ColumnKind::Decimal { scale: s } => {
            let ints = described.iter().map(int_digits).max().unwrap_or(1);
            decimal(ints + u32::from(s), s, nullable)
        }
        ColumnKind::Double => {
            let length = described.iter().map(|c| c.length).max().unwrap_or(0);
            double(length.max(22), DOUBLE_DEC, nullable)
        }
        ColumnKind::Text(collation) => {
            let chars = described.iter().map(chars).max().unwrap_or(0);
            text(chars, collation, nullable)
        }
        temporal_kind => {
            let fsp = described.iter().map(|c| c.fsp).max().unwrap_or(0);
            temporal(temporal_kind, fsp, nullable)
        }
    }
}

/// Integers (and NULLs) meeting in one column, as MariaDB 10.11.19 joins
/// them: all signed or all unsigned, the widest one's type (a stored
/// TINYINT, SMALLINT or MEDIUMINT stays one) at the most digits, and one
/// for a sign where they are signed (a literal `1`, one character alone,
/// takes two); signed with unsigned, a DECIMAL of the most digits. A NULL
/// is the narrowest signed integer, of no digits.
fn integer_join(parts: &[Column], nullable: bool) -> Column {
    // 0 NULL, 1 TINYINT … 5 BIGINT.
    let rank = |c: &Column| {
        let t = c.data_type.unwrap_or_else(|| c.integer_type());
        match t {
            _ if is_null(c) => 0,
            DataType::TinyInt { .. } => 1,
            DataType::SmallInt { .. } => 2,
            DataType::MediumInt { .. } => 3,
            DataType::Int { .. } => 4,
            _ => 5,
        }
    };
    let unsigned = |c: &Column| !is_null(c) && !signed(c);
    let digits = |c: &Column| if is_null(c) { 0 } else { precision(c) };
    let all_unsigned = parts.iter().all(unsigned);
    if !all_unsigned && parts.iter().any(unsigned) {
        let most = parts.iter().map(digits).max().unwrap_or(1);
        return decimal(most, 0, nullable);
    }
    // The most digits, and one for a sign where there is one.
    let signed_length = |c: &Column| chars(c) + u32::from(c.unsigned_length || is_null(c));
    let length = if all_unsigned {
        parts.iter().map(chars).max().unwrap_or(0)
    } else {
        parts.iter().map(signed_length).max().unwrap_or(0)
    };
    let Some(widest) = parts.iter().max_by_key(|c| rank(c)) else {
        return literal(&Value::Null);
    };
    let mut c = longlong(length, all_unsigned, nullable);
    c.wire = match rank(widest) {
        1 => ExprWire::Tiny,
        2 => ExprWire::Short,
        3 => ExprWire::Int24,
        4 => ExprWire::Long,
        _ => ExprWire::Kind,
    };
    c
}

impl Describer<'_> {
    fn cast(&self, a: &Expr, t: CastType) -> Column {
        let x = self.describe(a);
        match t {
            // As long as the number's digits where the sign stays (an
            // integer or a decimal as SIGNED, an unsigned integer as
            // UNSIGNED), else 20; a LONG when short enough.
            // A non-negative integer literal's length has no room for a
            // sign: SIGNED adds one.
            CastType::Signed | CastType::Unsigned => {
                let unsigned = matches!(t, CastType::Unsigned);
                let literal = matches!(a, Expr::Lit(Value::UInt(_)))
                    || matches!(a, Expr::Lit(Value::Int(n)) if *n >= 0);
                let length = match x.kind {
                    ColumnKind::Int | ColumnKind::UInt if literal => {
                        x.length + u32::from(!unsigned)
                    }
                    ColumnKind::UInt => x.length,
                    ColumnKind::Int | ColumnKind::Decimal { .. } if !unsigned => x.length,
                    _ => 20,
                };
                int(length, unsigned, x.nullable)
            }
            CastType::Decimal(p, s) => decimal(u32::from(p), s, x.nullable),
            CastType::Double => double(22, DOUBLE_DEC, true),
            CastType::Char(Collation::Binary, length) => {
                let mut c = text(length.unwrap_or_else(|| bytes(&x)), Collation::Binary, true);
                c.decimals = None;
                c
            }
            CastType::Char(collation, length) => {
                let mut c = text(length.unwrap_or_else(|| chars(&x)), collation, true);
                c.decimals = None;
                c
            }
            CastType::Collate(collation) => {
                let mut c = text(chars(&x), collation, true);
                c.decimals = Some(NOT_FIXED_DEC);
                c
            }
            // As long as the literal's text.
            CastType::Shown(length) => Column {
                length: u32::from(length),
                unsigned_length: matches!(x.kind, ColumnKind::Int),
                ..x
            },
            // A literal's column in the connection's collation.
            CastType::Literal(collation) => Column {
                kind: ColumnKind::Text(collation),
                ..x
            },
            CastType::BinaryLiteral | CastType::HexHybrid => {
                let length = match a {
                    Expr::Lit(Value::Bytes(b)) => b.len() as u32,
                    _ => bytes(&x),
                };
                let mut c = text(length, Collation::Binary, x.nullable);
                c.decimals = None;
                c
            }
            CastType::Date => temporal(ColumnKind::Date, 0, true),
            // A DATE that meets DATETIMEs (`Compiler::dates_widened`)
            // converts without fail.
            CastType::DateTime(fsp) if x.kind == ColumnKind::Date => {
                temporal(ColumnKind::DateTime, fsp, x.nullable)
            }
            CastType::DateTime(fsp) => temporal(ColumnKind::DateTime, fsp, true),
            CastType::Time(fsp) => temporal(ColumnKind::Time, fsp, true),
            CastType::MemberNumber(_) => longlong(21, false, x.nullable),
        }
    }

    fn aggregate(&self, spec: &AggSpec) -> Column {
        let arg = spec.arg.as_ref().map(|a| self.describe(a));
        match (spec.func, arg) {
            (AggFunc::CountStar | AggFunc::Count, _) => longlong(21, false, false),
            (AggFunc::GroupConcat, _) => {
                let mut c = func_text(UNBOUNDED_CHARS / 4, true);
                c.wire = ExprWire::Blob;
                c.decimals = None;
                c
            }
            (AggFunc::Sum, Some(a)) => match a.kind {
                ColumnKind::Int | ColumnKind::UInt => decimal(precision(&a) + SUM_DIGITS, 0, true),
                ColumnKind::Decimal { scale } => decimal(precision(&a) + SUM_DIGITS, scale, true),
                _ => double(DOUBLE_LENGTH, DOUBLE_DEC, true),
            },
            (AggFunc::Avg, Some(a)) => match a.kind {
                ColumnKind::Int | ColumnKind::UInt | ColumnKind::Decimal { .. } => decimal(
                    precision(&a) + DIV_DIGITS,
                    scale(&a) + DIV_DIGITS as u8,
                    true,
                ),
                _ => double(DOUBLE_LENGTH, DOUBLE_DEC, true),
            },
            (AggFunc::Min | AggFunc::Max, Some(a)) => {
                // A stored integer keeps its type; any other a LONGLONG.
                let mut a = match &spec.arg {
                    Some(e @ Expr::Col(_)) => self.stored_integer(e, a),
                    _ if is_integer(&a) => Column {
                        wire: ExprWire::Kind,
                        ..a
                    },
                    _ => a,
                };
                a.nullable = true;
                if a.kind == ColumnKind::Double
                    && matches!(a.data_type, None | Some(DataType::Float))
                {
                    a.length = DOUBLE_LENGTH;
                }
                if a.kind.collation().is_some() {
                    a.decimals = Some(NOT_FIXED_DEC);
                }
                a
            }
            // A DOUBLE shown with the argument's scale and four more
            // digits (an exact argument's), as MariaDB's.
            (AggFunc::Spread(_), a) => {
                let decimals = match a.as_ref().map(|a| a.kind) {
                    Some(ColumnKind::Int | ColumnKind::UInt) => 4,
                    Some(ColumnKind::Decimal { scale }) => (scale + 4).min(DOUBLE_DEC - 1),
                    _ => DOUBLE_DEC,
                };
                double(DOUBLE_LENGTH, decimals, true)
            }
            (AggFunc::Bits(_), _) => longlong(21, true, false),
            (_, _) => Column::expr("", ColumnKind::Double),
        }
    }

    fn func(&self, f: &Func, args: &[Expr]) -> Column {
        // Each argument described once (a description describes its own
        // arguments: describing one twice would double at every level).
        let described = self.describe_all(args);
        let first = || {
            described
                .first()
                .cloned()
                .unwrap_or_else(|| literal(&Value::Null))
        };
        let any_nullable = || described.iter().any(|c| c.nullable);
        match f {
            // A TIMESTAMP column read or written in the session's zone is
            // the column on the wire.
            Func::FromStoredTimestamp(_) | Func::ToStoredTimestamp(_) => first(),
            Func::Length | Func::CharLength => long(10, false, any_nullable()),
            Func::Upper | Func::Lower => {
                let a = first();
                text(chars(&a), text_collation(&a), true)
            }
            Func::Concat => {
                let binary = described
                    .iter()
                    .any(|c| c.kind == ColumnKind::Text(Collation::Binary));
                let total = described.iter().map(chars).fold(0u32, u32::saturating_add);
                let collation = if binary {
                    Collation::Binary
                } else {
                    described
                        .iter()
                        .find_map(|c| c.kind.collation())
                        .unwrap_or_default()
                };
                text(total, collation, true)
            }
            Func::Repeat => {
                let a = first();
                let n = args.get(1).and_then(constant);
                let chars = match n {
                    Some(n) => chars(&a).saturating_mul(n.clamp(0, i64::from(u32::MAX)) as u32),
                    None => UNBOUNDED_CHARS,
                };
                text(chars, text_collation(&a), true)
            }
            Func::Substring => {
                let a = first();
                let whole = chars(&a);
                let start = args.get(1).and_then(constant);
                let count = args.get(2).map(constant);
                let chars = match (start, count) {
                    (_, Some(Some(n))) => whole.min(n.max(0) as u32),
                    // MariaDB counts the rest from the argument's bytes.
                    (Some(p), _) if p > 0 => bytes(&a).saturating_sub(p as u32 - 1),
                    _ => bytes(&a),
                };
                text(chars, text_collation(&a), true)
            }
            Func::Abs => {
                let a = first();
                match a.kind {
                    ColumnKind::Int | ColumnKind::UInt => int(a.length, !signed(&a), a.nullable),
                    ColumnKind::Decimal { scale } => decimal(precision(&a), scale, a.nullable),
                    _ => double(DOUBLE_LENGTH, DOUBLE_DEC, a.nullable),
                }
            }
            Func::Round => round(args, &described, true),
            Func::Floor | Func::Ceil => {
                let a = first();
                match a.kind {
                    ColumnKind::Int | ColumnKind::UInt => a,
                    // FLOOR(-9.9) is -10 and CEIL(9.9) is 10: a digit more
                    // where there is a fraction. A whole part that fits a
                    // BIGINT is a LONG or a LONGLONG (`Func::AsInteger`).
                    ColumnKind::Decimal { scale } => {
                        // A minus sign lengthens the display, not the
                        // digits (MariaDB's precision of `-d` is d's).
                        let mut unsigned = &args[0];
                        while let Expr::Neg(x) = unsigned {
                            unsigned = x;
                        }
                        let whole = if std::ptr::eq(unsigned, &args[0]) {
                            int_digits(&a)
                        } else {
                            int_digits(&self.describe(unsigned))
                        };
                        let digits = (whole + u32::from(scale > 0)).max(1);
                        match digits {
                            0..=9 => long(digits + 1, false, a.nullable),
                            10..=18 => longlong(digits + 1, false, a.nullable),
                            _ => decimal(digits, 0, a.nullable),
                        }
                    }
                    _ => double(17, 0, a.nullable),
                }
            }
            Func::AsInteger => first(),
            Func::Truth => long(1, false, false),
            // As MariaDB's parameter of a bound value's type.
            Func::TypedParameter(kind) => match kind {
                ColumnKind::Int | ColumnKind::UInt => longlong(21, *kind == ColumnKind::UInt, true),
                ColumnKind::Decimal { scale } => decimal(MAX_PRECISION, *scale, true),
                ColumnKind::Double => double(DOUBLE_LENGTH, DOUBLE_DEC, true),
                ColumnKind::Text(_) => shape(ColumnKind::TEXT, 255, true),
                temporal_kind => temporal(*temporal_kind, 6, true),
            },
            Func::UnixTimestampOfStored(digits) | Func::UnixTimestampOf(digits) => {
                unix_timestamp(*digits)
            }
            Func::Coalesce => {
                let all_nullable = described.iter().all(|c| c.nullable);
                let kept = self.stored_integers(args, described);
                let mut c = common(kept, NullsJoin::AsSignedInteger);
                c.nullable = all_nullable;
                c
            }
            // NULL too where its condition may be (MariaDB's).
            Func::If => {
                let kept = self.stored_integers(&args[1..], described[1..].to_vec());
                let mut c = common(kept, NullsJoin::Skipped);
                c.nullable |= described[0].nullable;
                c
            }
            Func::NullIf(_) => Column {
                nullable: true,
                ..args
                    .first()
                    .map_or_else(first, |a| self.stored_integer(a, first()))
            },
            Func::DateAdd | Func::DateSub => {
                let a = first();
                let kind = Expr::Func(*f, args.to_vec()).kind(self.scope, self.aggs);
                if let ColumnKind::Text(_) = kind {
                    // A string as long as a datetime with the digits of a
                    // second the argument has (MariaDB's).
                    let digits = match (&args[0], args.get(1)) {
                        (_, Some(Expr::Interval(super::IntervalUnit::Microsecond, _))) => 6,
                        (Expr::Lit(Value::Null), _) => 0,
                        (Expr::Lit(v), _) => super::interval_base_digits(&args[0], v),
                        (_, _) => match a.kind {
                            ColumnKind::Int | ColumnKind::UInt => 0,
                            ColumnKind::Decimal { scale } => scale.min(6),
                            _ => 6,
                        },
                    };
                    let mut c = func_text(
                        19 + if digits > 0 { 1 + u32::from(digits) } else { 0 },
                        true,
                    );
                    c.decimals = Some(digits);
                    // Typed CHAR (STRING), as MariaDB types it.
                    c.wire = ExprWire::Fixed;
                    return c;
                }
                // Microseconds added show all six digits (MariaDB's).
                let fsp = match args.get(1) {
                    Some(Expr::Interval(super::IntervalUnit::Microsecond, _)) => 6,
                    _ => a.fsp,
                };
                temporal(kind, fsp, true)
            }
            Func::Year => long(4, false, true),
            Func::Month | Func::Day => long(2, false, true),
            Func::Sleep => long(1, false, false),
            Func::LastInsertId | Func::GiveLastInsertId => longlong(21, true, false),
            Func::RowCount => longlong(21, false, false),
            Func::Now | Func::SysDate | Func::UtcTimestamp => {
                temporal(ColumnKind::DateTime, fsp_argument(args), false)
            }
            Func::CurDate | Func::UtcDate => temporal(ColumnKind::Date, 0, false),
            Func::CurTime | Func::UtcTime => temporal(ColumnKind::Time, fsp_argument(args), false),
            Func::UnixTimestamp => longlong(17, false, true),
            // MariaDB's columns of `@@name`: nullable, a number by the
            // variable's type, a string as long as its value.
            Func::SessionValue => {
                let shape = match args.get(1) {
                    Some(Expr::Lit(Value::Int(n))) => super::VariableShape::from_number(*n),
                    _ => super::VariableShape::Text,
                };
                let value = match args.first() {
                    Some(Expr::Lit(v)) => v.clone(),
                    _ => Value::Null,
                };
                match (shape, &value) {
                    (super::VariableShape::Switch, _) => longlong(1, false, true),
                    (super::VariableShape::Int, _) => longlong(21, false, true),
                    (super::VariableShape::UInt, _) => longlong(21, true, true),
                    (super::VariableShape::Double, _) => double(21, 6, true),
                    (super::VariableShape::Name, _) => func_text(64, true),
                    (_, Value::Bytes(b)) => {
                        func_text(String::from_utf8_lossy(b).chars().count() as u32, true)
                    }
                    (_, Value::Null) => func_text(0, true),
                    (_, other) => Column {
                        nullable: true,
                        ..Column::expr("", ColumnKind::of_value(other))
                    },
                }
            }
            Func::UserVariable | Func::SetUserVariable => {
                let kind = args
                    .get(1)
                    .map_or(ColumnKind::TEXT, |a| a.kind(self.scope, self.aggs));
                match kind {
                    ColumnKind::Int | ColumnKind::UInt => {
                        longlong(21, kind == ColumnKind::UInt, true)
                    }
                    ColumnKind::Decimal { scale } => decimal(MAX_PRECISION, scale, true),
                    ColumnKind::Double => double(DOUBLE_LENGTH, DOUBLE_DEC, true),
                    ColumnKind::Text(c) => text(UNBOUNDED_CHARS / 4, c, true),
                    k => temporal(k, 0, true),
                }
            }
            Func::Bitwise(_) => longlong(21, true, any_nullable()),
            Func::Builtin(b) | Func::Collated(b, _) => {
                let mut column = self.builtin(b, args, described);
                column.json = crate::function::json::is_json_valued(b.name());
                column
            }
            Func::BytesAsChars | Func::CharsAsBytes => first(),
        }
    }
}

/// ROUND(x[, d]) and TRUNCATE(x, d), their arguments described: the
/// argument's type; a constant `d` sets the scale (ROUND may carry one
/// more integer digit).
fn round(args: &[Expr], described: &[Column], carries: bool) -> Column {
    {
        let a = described[0].clone();
        let nullable = described.iter().any(|c| c.nullable);
        let places = match args.get(1) {
            None => Some(0),
            Some(e) => constant(e),
        };
        match a.kind {
            ColumnKind::Int | ColumnKind::UInt => Column { nullable, ..a },
            ColumnKind::Decimal { scale: s } => match places {
                Some(p) => {
                    let new_scale = p.clamp(0, i64::from(MAX_SCALE)) as u8;
                    let carry = u32::from(carries && new_scale < s);
                    decimal(
                        int_digits(&a) + carry + u32::from(new_scale),
                        new_scale,
                        nullable,
                    )
                }
                None => decimal(precision(&a), s, nullable),
            },
            _ => match places {
                Some(p) => {
                    let p = p.clamp(0, 30) as u8;
                    double(17 + u32::from(p), p, nullable)
                }
                None => double(DOUBLE_LENGTH, DOUBLE_DEC, nullable),
            },
        }
    }
}

impl Describer<'_> {
    /// A registry function's column (its lengths by its name).
    fn builtin(&self, b: &Builtin, args: &[Expr], described: Vec<Column>) -> Column {
        let kinds: Vec<ColumnKind> = described.iter().map(|c| c.kind).collect();
        let kind = (b.kind)(&kinds);
        let arg = |i: usize| {
            described
                .get(i)
                .cloned()
                .unwrap_or_else(|| literal(&Value::Null))
        };
        let any_nullable = || described.iter().any(|c| c.nullable);
        // The first argument's string characters and collation.
        let source = || {
            let a = arg(0);
            (chars(&a), text_collation(&a))
        };
        match b.name() {
            // Integers whose length MariaDB fixes.
            "BIT_COUNT" | "SIGN" | "STRCMP" => long(2, false, any_nullable()),
            "HOUR" | "MINUTE" | "SECOND" | "DAYOFMONTH" | "WEEK" | "WEEKOFYEAR" => {
                long(2, false, true)
            }
            "MICROSECOND" | "YEARWEEK" | "TO_DAYS" => long(6, false, true),
            "DAYOFWEEK" | "WEEKDAY" | "QUARTER" => long(1, false, true),
            "DAYOFYEAR" => long(3, false, true),
            "DATEDIFF" => long(8, false, true),
            "PERIOD_ADD" | "PERIOD_DIFF" => long(6, false, any_nullable()),
            "TO_SECONDS" => longlong(12, false, true),
            "UNIX_TIMESTAMP" | "TIME_TO_SEC" => longlong(17, false, true),
            "TIMESTAMPDIFF" => longlong(21, false, true),
            "INSTR" | "LOCATE" => long(11, false, any_nullable()),
            "ASCII" | "FIND_IN_SET" | "FIELD" => long(3, false, any_nullable()),
            "ORD" => long(7, false, any_nullable()),
            "BIT_LENGTH" => longlong(11, false, any_nullable()),
            "CRC32" => long(10, true, any_nullable()),
            "JSON_VALID" | "JSON_EXISTS" | "JSON_CONTAINS" => long(1, false, true),
            "JSON_LENGTH" => long(10, false, true),
            "JSON_DEPTH" => long(10, false, true),
            // Numbers.
            "PI" => double(8, 6, false),
            "RAND" => double(DOUBLE_LENGTH, DOUBLE_DEC, false),
            "DEGREES" | "RADIANS" => double(DOUBLE_LENGTH, DOUBLE_DEC, any_nullable()),
            "TRUNCATE" => round(args, &described, false),
            // Dates and times.
            "DATE" | "LAST_DAY" | "MAKEDATE" | "FROM_DAYS" => temporal(ColumnKind::Date, 0, true),
            "TIME" | "MAKETIME" | "TIMEDIFF" | "SEC_TO_TIME" | "ADDTIME" | "SUBTIME"
            | "CONVERT_TZ" | "STR_TO_DATE" | "TIMESTAMPADD" => {
                let fsp = described.iter().map(|c| c.fsp).max().unwrap_or(0);
                temporal(kind, if kind == ColumnKind::Date { 0 } else { fsp }, true)
            }
            "DAYNAME" | "MONTHNAME" => Column {
                decimals: None,
                ..func_text(9, true)
            },
            "DATE_FORMAT" => {
                let chars = match args.get(1).and_then(constant_text) {
                    Some(format) => format_length(format),
                    None => bytes(&arg(1)).saturating_mul(10),
                };
                Column {
                    decimals: None,
                    ..func_text(chars, true)
                }
            }
            // Strings.
            "MD5" => func_text(32, true),
            "SHA1" | "SHA" => func_text(40, true),
            "SHA2" => func_text(
                match args.get(1).and_then(constant) {
                    Some(bits @ (224 | 256 | 384 | 512)) => bits as u32 / 4,
                    _ => 128,
                },
                true,
            ),
            "CONV" | "BIN" | "OCT" => func_text(65, true),
            "HEX" => {
                let a = arg(0);
                let chars = match a.kind {
                    ColumnKind::Text(_) => bytes(&a).saturating_mul(2),
                    _ => 16,
                };
                Column {
                    decimals: None,
                    ..func_text(chars, true)
                }
            }
            // As long as the longest file it reads (MariaDB's LONG_BLOB of
            // max_allowed_packet bytes).
            "LOAD_FILE" => text(
                args.get(1)
                    .and_then(constant)
                    .map_or(u32::MAX, |n| n.clamp(0, i64::from(u32::MAX)) as u32),
                Collation::Binary,
                true,
            ),
            "UNHEX" => Column {
                decimals: None,
                ..text(bytes(&arg(0)).div_ceil(2), Collation::Binary, true)
            },
            "CHAR" => text(4 * args.len() as u32, Collation::Binary, true),
            "UUID" => Column {
                wire: ExprWire::Fixed,
                ..func_text(36, true)
            },
            "LEFT" | "RIGHT" => {
                let (chars, collation) = source();
                let chars = match args.get(1).and_then(constant) {
                    Some(n) => chars.min(n.max(0) as u32),
                    None => chars,
                };
                text(chars, collation, true)
            }
            "LPAD" | "RPAD" => {
                let (_, collation) = source();
                let chars = match args.get(1).and_then(constant) {
                    Some(n) => n.clamp(0, i64::from(UNBOUNDED_CHARS)) as u32,
                    None => UNBOUNDED_CHARS,
                };
                text(chars, collation, true)
            }
            "SPACE" => func_text(
                args.first()
                    .and_then(constant)
                    .map_or(UNBOUNDED_CHARS, |n| {
                        n.clamp(0, i64::from(UNBOUNDED_CHARS)) as u32
                    }),
                true,
            ),
            "REPLACE" => {
                let (chars, collation) = source();
                let (from, to) = (self::chars(&arg(1)), self::chars(&arg(2)));
                let chars = if to > from && from > 0 {
                    chars.saturating_mul(to.div_ceil(from))
                } else {
                    chars
                };
                text(chars, collation, true)
            }
            "REVERSE" | "LTRIM" | "RTRIM" | "TRIM" | "SUBSTRING_INDEX" | "JSON_UNQUOTE" => {
                let (chars, collation) = source();
                text(chars, collation, true)
            }
            "INSERT" => {
                let (chars, collation) = source();
                text(chars.saturating_add(self::chars(&arg(3))), collation, true)
            }
            "QUOTE" => {
                let (chars, collation) = source();
                text(chars.saturating_mul(2).saturating_add(2), collation, true)
            }
            "ELT" => {
                let chars = (1..args.len()).map(|i| self::chars(&arg(i))).max();
                func_text(chars.unwrap_or(0), true)
            }
            "CONCAT_WS" => {
                let parts = args.len().saturating_sub(1) as u32;
                let total = (1..args.len())
                    .map(|i| self::chars(&arg(i)))
                    .fold(0u32, u32::saturating_add);
                let separators = self::chars(&arg(0)).saturating_mul(parts.saturating_sub(1));
                func_text(total.saturating_add(separators), true)
            }
            "GREATEST" | "LEAST" => {
                let kept = self.stored_integers(args, described.clone());
                let mut c = common(kept, NullsJoin::Skipped);
                c.nullable = any_nullable();
                if c.kind == ColumnKind::Double {
                    c.length = DOUBLE_LENGTH;
                }
                c
            }
            _ => match kind {
                ColumnKind::Int | ColumnKind::UInt => longlong(21, kind == ColumnKind::UInt, true),
                ColumnKind::Double => double(DOUBLE_LENGTH, DOUBLE_DEC, true),
                ColumnKind::Text(c) => {
                    let total = (0..args.len())
                        .map(|i| self::chars(&arg(i)))
                        .fold(0u32, u32::saturating_add);
                    text(total.max(1), c, true)
                }
                k => Column {
                    nullable: true,
                    ..Column::expr("", k)
                },
            },
        }
    }
}

/// A string result's collation from its source argument.
fn text_collation(c: &Column) -> Collation {
    c.kind.collation().unwrap_or_default()
}

/// UNIX_TIMESTAMP's column: seventeen digits and `digits` of a second
/// (MariaDB's).
fn unix_timestamp(digits: u8) -> Column {
    match digits {
        0 => longlong(17, false, true),
        d => decimal(16 + u32::from(d), d, true),
    }
}

/// NOW(fsp), CURTIME(fsp): the constant fractional digits asked for.
fn fsp_argument(args: &[Expr]) -> u8 {
    args.first()
        .and_then(constant)
        .map_or(0, |n| n.clamp(0, 6) as u8)
}

/// A literal's column.
fn literal(v: &Value) -> Column {
    match v {
        Value::Null => Column {
            wire: ExprWire::Null,
            length: 0,
            ..Column::expr("", ColumnKind::TEXT)
        },
        Value::Int(n) => Column {
            unsigned_length: *n >= 0,
            ..int(literal_length(v), false, false)
        },
        Value::UInt(_) => int(literal_length(v), true, false),
        Value::Decimal(d) => {
            let digits = d.to_string().trim_start_matches('-').replace('.', "");
            let digits = digits.trim_start_matches('0').len().max(1) as u32;
            let precision = digits.max(u32::from(d.scale) + 1);
            decimal(precision, d.scale, false)
        }
        Value::Double(_) => double(DOUBLE_LENGTH, DOUBLE_DEC, false),
        Value::Bytes(b) => {
            let chars = std::str::from_utf8(b).map_or(b.len(), |s| s.chars().count());
            text(chars as u32, Collation::Utf8mb4GeneralCi, false)
        }
        Value::Date(_) => temporal(ColumnKind::Date, 0, false),
        Value::DateTime(t) => temporal(
            ColumnKind::DateTime,
            if t % 1_000_000 != 0 { 6 } else { 0 },
            false,
        ),
        Value::Time(_) => temporal(ColumnKind::Time, 0, false),
    }
}

/// The characters DATE_FORMAT's result may take for a constant format.
fn format_length(format: &[u8]) -> u32 {
    let mut length = 0u32;
    let mut i = 0;
    while i < format.len() {
        if format[i] == b'%' && i + 1 < format.len() {
            i += 1;
            length += match format[i] {
                b'M' | b'W' => 9,
                b'D' | b'Y' | b'x' | b'X' => 4,
                b'a' | b'b' | b'j' => 3,
                b'U' | b'u' | b'V' | b'v' | b'y' | b'm' | b'd' | b'e' | b'c' | b'h' | b'H'
                | b'I' | b'i' | b'k' | b'l' | b'p' | b's' | b'S' | b'w' => 2,
                b'r' => 11,
                b'T' => 8,
                b'f' => 6,
                _ => 1,
            };
        } else {
            length += 1;
        }
        i += 1;
    }
    length
}

impl Column {
    /// The same integer column, unsigned or not.
    fn signed_as(mut self, unsigned: bool) -> Column {
        if matches!(self.kind, ColumnKind::Int | ColumnKind::UInt) {
            self.kind = if unsigned {
                ColumnKind::UInt
            } else {
                ColumnKind::Int
            };
        }
        self
    }
}

/// The column two queries' columns make in their UNION (EXCEPT,
/// INTERSECT), as MariaDB 10.11.14 joins their types: a NULL side takes
/// the other's (an unsigned integer's a DECIMAL); integers as
/// [`integer_join`]; decimals the most digits either side of the point;
/// strings keep their decimals; otherwise the common kind, the longer
/// length.
pub(crate) fn union_column(l: &Column, r: &Column, all: bool) -> Column {
    let named = |mut c: Column| {
        c.name = l.name.clone();
        c.org_name = l.org_name.clone();
        c.table = String::new();
        c.org_table = String::new();
        c.schema = String::new();
        c.attributes = Default::default();
        c.default = None;
        c
    };
    let nullable = l.nullable || r.nullable;
    let integer_or_null = |c: &Column| is_integer(c) || is_null(c);
    if integer_or_null(l) && integer_or_null(r) && !(is_null(l) && is_null(r)) {
        return named(table_field(
            integer_join(&[l.clone(), r.clone()], nullable),
            all,
        ));
    }
    match (is_null(l), is_null(r)) {
        // BINARY(0).
        (true, true) => {
            let mut c = text(0, Collation::Binary, true);
            c.wire = ExprWire::Fixed;
            c.decimals = Some(0);
            return named(c);
        }
        (true, false) | (false, true) => {
            let other = if is_null(l) { r } else { l };
            let c = Column {
                nullable,
                ..other.clone()
            };
            return named(distinct_text(c, all));
        }
        _ => {}
    }
    let kind = super::common_kind(l.kind, r.kind);
    if let ColumnKind::Decimal { scale: s } = kind {
        if [l, r]
            .iter()
            .all(|c| is_integer(c) || matches!(c.kind, ColumnKind::Decimal { .. }))
        {
            let ints = int_digits(l).max(int_digits(r));
            return named(table_field(decimal(ints + u32::from(s), s, nullable), all));
        }
    }
    let mut c = Column::expr("", kind);
    c.nullable = nullable;
    c.length = l.length.max(r.length);
    if matches!(c.kind, ColumnKind::Text(_)) && l.kind == c.kind && r.kind == c.kind {
        c.decimals = l.decimals.or(r.decimals);
    }
    named(distinct_text(c, all))
}

/// A UNION's (not a UNION ALL's) rows pass through a table: its number
/// columns are that table's fields, not flagged binary as an expression's.
fn table_field(mut c: Column, all: bool) -> Column {
    if all || c.data_type.is_some() {
        return c;
    }
    match c.kind {
        ColumnKind::Int | ColumnKind::UInt => c.data_type = Some(c.integer_type()),
        ColumnKind::Decimal { scale } => {
            c.data_type = Some(DataType::Decimal {
                precision: precision(&c).min(MAX_PRECISION) as u8,
                scale,
            })
        }
        _ => {}
    }
    c
}

/// UNION ALL sends strings' decimals as they are; a UNION's are those of
/// the table it removes duplicates in.
fn distinct_text(mut c: Column, all: bool) -> Column {
    if !all && matches!(c.kind, ColumnKind::Text(_)) && c.data_type.is_none() {
        c.decimals = None;
    }
    c
}
