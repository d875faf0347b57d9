//! Scalar expressions: compiled once from the parser's tree into a small
//! tree over column positions, parameter slots and aggregate slots, then
//! evaluated per row with MySQL's rules (NULL propagation, three-valued
//! logic, string-to-number conversion in numeric context).
pub(crate) mod clock;
pub(crate) mod group_concat;
pub(crate) mod moments;
pub(crate) mod result_type;
mod row_comparison;
pub(crate) mod row_key;
pub(crate) mod statement_results;
pub(crate) mod subquery;
pub(crate) mod user_variables;
mod walk;
pub(crate) mod warnings;

use crate::function::bitwise::BitOp;
pub(crate) mod window;
use crate::error::{Result, SqlError};
use crate::function::arguments::{int_of, numeric, numeric_read_as, NumberReading};
use crate::function::Builtin;
use crate::result::ColumnKind;
use lineardb_table::types::{
    civil_from_days, days_from_civil, parse_date, MAX_DECIMAL_SCALE, MICROS_PER_DAY,
};
use lineardb_table::Collation;
use lineardb_table::{DataType, Dec, RowRef, Value};
use sqlparser::ast;
use std::cmp::Ordering;
use subquery::{eval_subquery, Subquery, SubqueryPlanner, SubqueryRunner, SubqueryTest};
pub(crate) use walk::{and_all, disjuncts, factor_or};

/// A row that expressions read columns from.
pub(crate) trait Row {
    fn get(&self, col: usize) -> Value;
}

impl Row for RowRef<'_> {
    #[inline]
    fn get(&self, col: usize) -> Value {
        self.value(col)
    }
}

impl Row for [Value] {
    #[inline]
    fn get(&self, col: usize) -> Value {
        self.get(col).cloned().unwrap_or(Value::Null)
    }
}

/// Statement parameters and the current group's aggregate results.
#[derive(Clone, Copy)]
pub(crate) struct Env<'a> {
    pub params: &'a [Value],
    pub aggs: &'a [Value],
    /// Runs the subqueries of expressions (none where they cannot occur).
    pub subqueries: Option<&'a dyn SubqueryRunner>,
}

impl<'a> Env<'a> {
    /// Parameters only: no aggregates, no subqueries.
    pub(crate) fn new(params: &'a [Value]) -> Env<'a> {
        Env {
            params,
            aggs: &[],
            subqueries: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    NullSafeEq,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    Mod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Func {
    Length,
    CharLength,
    Upper,
    Lower,
    Concat,
    Repeat,
    Substring,
    Abs,
    Round,
    Floor,
    Ceil,
    /// A whole DECIMAL as an integer: FLOOR or CEIL of a DECIMAL whose
    /// whole part fits a BIGINT, which MariaDB types as a LONG or LONGLONG.
    AsInteger,
    Coalesce,
    /// `x IS [NOT] TRUE/FALSE`: its comparison's value, or the second
    /// argument where that is NULL (MariaDB's LONG(1), never NULL).
    Truth,
    If,
    /// NULLIF(a, b), strings compared in the collation they meet in.
    NullIf(Collation),
    DateAdd,
    DateSub,
    Year,
    Month,
    Day,
    Sleep,
    /// LAST_INSERT_ID().
    LastInsertId,
    /// LAST_INSERT_ID(expr): its value, given to the session.
    GiveLastInsertId,
    /// ROW_COUNT().
    RowCount,
    /// NOW(), CURRENT_TIMESTAMP, LOCALTIME[STAMP]: the statement's start.
    Now,
    /// SYSDATE(): the time it is evaluated.
    SysDate,
    /// CURDATE(), CURRENT_DATE.
    CurDate,
    /// CURTIME(), CURRENT_TIME: the statement's start, its time of day.
    CurTime,
    UtcTime,
    UtcTimestamp,
    UtcDate,
    /// A parameter (the argument) typed by the kind of the value bound to
    /// it: only in an expression described for a result column
    /// ([`Params::typed`]).
    TypedParameter(ColumnKind),
    /// UNIX_TIMESTAMP() of the statement's start.
    UnixTimestamp,
    /// UNIX_TIMESTAMP(c) of a stored TIMESTAMP column `c` (a time of the
    /// server's zone, read as stored): its instant's seconds, 0 for its
    /// zero value (MariaDB keeps 0 for it), with the column's digits of a
    /// second.
    UnixTimestampOfStored(u8),
    /// UNIX_TIMESTAMP(d) of a value read as a datetime in the session's
    /// zone, with the digits of a second it has (MariaDB's
    /// `datetime_precision`): an integer without them, a DECIMAL with.
    UnixTimestampOf(u8),
    /// `@name` in a statement that assigns variables (arguments: the name,
    /// its value when compiled, which gives the type).
    UserVariable,
    /// `@name := value` (arguments: the name, the value).
    SetUserVariable,
    /// A value of the session known when compiled (`@@name`, DATABASE()):
    /// the value and its [`VariableShape`] as a number (how MariaDB types
    /// its column).
    SessionValue,
    /// A function of the registry, computed from its arguments' values.
    Builtin(&'static Builtin),
    /// A bit operator (`&`, `|`, `^`, `<<`, `>>`, `~`).
    Bitwise(crate::function::bitwise::BitOp),
    /// A function of the registry comparing strings, with the collation
    /// its arguments meet in.
    Collated(&'static Builtin, Collation),
    /// A binary string's bytes as characters U+0000..U+00FF, one each, so
    /// that a function counting characters counts bytes (see
    /// [`Compiler::call`]).
    BytesAsChars,
    /// The inverse of [`BytesAsChars`](Func::BytesAsChars): each character
    /// of the result back to its byte.
    CharsAsBytes,
    /// A stored TIMESTAMP column's value (a time of the server's zone) as
    /// a time of the session's zone, where the two differ.
    FromStoredTimestamp(clock::Zone),
    /// A value given to a TIMESTAMP column, read in the session's zone,
    /// as the column keeps it (a time of the server's zone); a value that
    /// is no datetime goes on as it is, for the column to refuse.
    ToStoredTimestamp(clock::Zone),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AggFunc {
    CountStar,
    Count,
    Sum,
    Avg,
    Min,
    Max,
    GroupConcat,
    /// STD, STDDEV, VARIANCE and their _POP and _SAMP forms.
    Spread(moments::Spread),
    /// BIT_AND, BIT_OR, BIT_XOR over the values as 64-bit unsigned.
    Bits(crate::function::bitwise::BitOp),
}

/// An aggregate call found in a SELECT.
#[derive(Debug, Clone)]
pub(crate) struct AggSpec {
    pub func: AggFunc,
    pub arg: Option<Expr>,
    pub distinct: bool,
    /// Arguments after the first (COUNT(DISTINCT a, b), GROUP_CONCAT(a, b)).
    pub more: Vec<Expr>,
    /// GROUP_CONCAT's ORDER BY: keys and descending flags.
    pub order: Vec<(Expr, bool)>,
    /// GROUP_CONCAT's SEPARATOR.
    pub separator: Vec<u8>,
    /// GROUP_CONCAT's LIMIT and `group_concat_max_len`.
    pub bounds: group_concat::Bounds,
    /// The argument's collation: MIN/MAX compare strings in it.
    pub collation: Collation,
}

impl AggSpec {
    /// Every expression the aggregate evaluates per row.
    pub(crate) fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.arg
            .iter()
            .chain(&self.more)
            .chain(self.order.iter().map(|(e, _)| e))
    }

    /// Whether the accumulators of several threads merge into this one's
    /// (a DISTINCT aggregate only when it counts; no GROUP_CONCAT).
    pub(crate) fn merges(&self) -> bool {
        !self.takes_rows() && (!self.distinct || matches!(self.func, AggFunc::Count))
    }

    /// Whether a row is added as several values (not one argument).
    pub(crate) fn takes_rows(&self) -> bool {
        self.func == AggFunc::GroupConcat || !self.more.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Col(usize),
    Lit(Value),
    Param(usize),
    /// A comparison; strings compare in the collation.
    Cmp(CmpOp, Box<Expr>, Box<Expr>, Collation),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    IsNull(Box<Expr>, bool),
    Between(Box<Expr>, Box<Expr>, Box<Expr>, bool, Collation),
    InList(Box<Expr>, Vec<Expr>, bool, Collation),
    Like(Box<Expr>, Box<Expr>, bool, Collation),
    Func(Func, Vec<Expr>),
    /// Interval in days or microseconds for DATE_ADD (unit, amount).
    Interval(IntervalUnit, Box<Expr>),
    Agg(usize),
    /// A window function's value (its slot in the SELECT's window
    /// functions); the window stage reads it from the row it makes.
    Window(usize),
    /// CASE [operand] WHEN … THEN … [ELSE …] END.
    /// The collation is the operand's against each WHEN value.
    Case(
        Option<Box<Expr>>,
        Vec<(Expr, Expr)>,
        Option<Box<Expr>>,
        Collation,
    ),
    Cast(Box<Expr>, CastType),
    Subquery(Box<Subquery>, SubqueryTest),
}

/// The target of CAST / CONVERT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CastType {
    Signed,
    Unsigned,
    Decimal(u8, u8),
    Double,
    /// CHAR (in the connection's collation) or BINARY, of at most a
    /// length (characters, or bytes for BINARY(n), which pads to n bytes)
    /// if one is given.
    Char(Collation, Option<u32>),
    /// `x COLLATE name`: the value as it is, compared in the collation
    /// (also the mark [`sort_keyed`] puts on a string sort key).
    Collate(Collation),
    Date,
    /// DATETIME(n): the fraction of a second cut to n digits.
    DateTime(u8),
    /// TIME(n): the fraction of a second cut to n digits.
    Time(u8),
    /// An ENUM's member number or a SET's bit mask (of its type), from
    /// the value's text: how such a column sorts and groups.
    MemberNumber(DataType),
    /// A string literal in a connection collation other than the default
    /// (`collation_connection`): its value, compared in that collation
    /// with a literal's derivation (a column's collation wins).
    Literal(Collation),
    /// A literal whose column is as long as its text, as MariaDB's: TRUE
    /// and FALSE (five characters), a number written with an exponent
    /// (`1e3`: three). Its value as it is.
    Shown(u8),
    /// A hexadecimal or `_binary` literal: a binary string, yielding to a
    /// column's collation as any literal does (`ci_column = x'41'` ignores
    /// case, `'a' = x'41'` does not).
    BinaryLiteral,
    /// A `0x41` literal: a binary string as [`CastType::BinaryLiteral`]
    /// where a string is wanted, the number its last eight bytes spell
    /// where one is (`Compiler::numeric_operand`), as MariaDB's hex
    /// hybrid (`X'41'` reads as the number 0).
    HexHybrid,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntervalUnit {
    Day,
    Week,
    Month,
    Quarter,
    Year,
    Hour,
    Minute,
    Second,
    Microsecond,
}

/// [`Func::SessionValue`] of `value`, typed as `shape` says.
fn session_value(value: Value, shape: VariableShape) -> Expr {
    Expr::Func(
        Func::SessionValue,
        vec![Expr::Lit(value), Expr::Lit(Value::Int(shape as i64))],
    )
}

/// What a system variable holds, as its result column is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VariableShape {
    Text = 0,
    /// ON or OFF: a LONGLONG of one digit.
    Switch = 1,
    Int = 2,
    UInt = 3,
    Double = 4,
    /// A database's name (DATABASE()): up to 64 characters.
    Name = 5,
}

impl VariableShape {
    fn of(kind: &crate::catalog::system_variables::Kind) -> VariableShape {
        use crate::catalog::system_variables::Kind;
        match kind {
            Kind::Switch => VariableShape::Switch,
            Kind::Int(..) => VariableShape::Int,
            Kind::UInt(..) => VariableShape::UInt,
            Kind::Double(..) => VariableShape::Double,
            _ => VariableShape::Text,
        }
    }

    pub(crate) fn from_number(n: i64) -> VariableShape {
        match n {
            1 => VariableShape::Switch,
            2 => VariableShape::Int,
            3 => VariableShape::UInt,
            4 => VariableShape::Double,
            5 => VariableShape::Name,
            _ => VariableShape::Text,
        }
    }
}

/// A column visible to expressions.
#[derive(Debug, Clone)]
pub(crate) struct ScopeColumn {
    pub name: String,
    pub table: String,
    pub kind: ColumnKind,
    /// Found only by a qualified name (the second column of a USING pair).
    pub hidden: bool,
    /// An ENUM or SET column's type: it sorts and groups by its members'
    /// numbers ([`order_keyed`]).
    pub numbered: Option<DataType>,
    /// A column declared JSON (its `json_valid` CHECK): JSON_ARRAY and
    /// JSON_OBJECT write its value as JSON.
    pub json: bool,
    /// What the column is where it comes from (a table's, a derived
    /// table's or a union's column): a select item that is the column
    /// shows it so on the wire (type, character set, flags, origin).
    pub origin: Option<std::sync::Arc<crate::result::Column>>,
    /// A stored TIMESTAMP column of a table: its values are times of the
    /// server's zone, read through [`Func::FromStoredTimestamp`] by a
    /// session of another zone.
    pub stored_timestamp: bool,
}

/// Session facts some functions return.
#[derive(Debug, Clone, Default)]
pub(crate) struct SessionFacts {
    pub database: Option<String>,
    /// USER(): the login name and the client's host.
    pub user: String,
    /// CURRENT_USER(): the account the login matched.
    pub account: String,
    pub connection_id: u64,
    pub last_insert_id: u64,
    /// Whether the account has the FILE privilege (LOAD_FILE reads files).
    pub file_privilege: bool,
    /// `max_allowed_packet` as the session began (MariaDB's session value
    /// is read-only): the longest file LOAD_FILE reads.
    pub max_allowed_packet: u64,
    /// `collation_connection`: the collation string literals are in.
    pub connection_collation: Collation,
    /// User variables (`SET @v = ...`), by lower-case name without the
    /// `@`; a plan reads them as constants and is made again when one
    /// changes (the session's facts version).
    pub user_variables: std::collections::HashMap<String, Value>,
    /// `time_zone`: the zone NOW() shows and TIMESTAMP columns are read
    /// and written in (a plan holds it, and is made again when it
    /// changes).
    pub time_zone: clock::Zone,
}

impl SessionFacts {
    /// User variable `@name`'s value; NULL when never set (as MariaDB).
    pub(crate) fn user_variable(&self, name: &str) -> Value {
        self.user_variables
            .get(&name.to_ascii_lowercase())
            .cloned()
            .unwrap_or(Value::Null)
    }
}

/// Maps each `?` (by its position in the text) to its parameter index,
/// and, for a statement planned for one execution, the kinds of the values
/// bound (MariaDB types a parameter by its value).
#[derive(Debug, Clone, Default)]
pub(crate) struct Params {
    positions: Vec<(u64, u64)>,
    /// A number's or a temporal value's kind for each parameter bound to
    /// one; empty (or None) where none is known: typed as a string.
    kinds: Vec<Option<ColumnKind>>,
}

impl Params {
    pub fn of(statement: &ast::Statement) -> Params {
        use std::ops::ControlFlow;
        let mut positions = Vec::new();
        let _ = ast::visit_expressions(statement, |e| {
            if let ast::Expr::Value(v) = e {
                if matches!(v.value, ast::Value::Placeholder(_)) {
                    positions.push((v.span.start.line, v.span.start.column));
                }
            }
            ControlFlow::<()>::Continue(())
        });
        positions.sort_unstable();
        positions.dedup();
        Params {
            positions,
            kinds: Vec::new(),
        }
    }

    /// The kinds [`Params::typed`] gives parameters bound to `values`: a
    /// string's and NULL's none (a parameter is typed as a string); empty
    /// where none has one.
    pub(crate) fn kinds_of(values: &[Value]) -> Vec<Option<ColumnKind>> {
        let kind = |v: &Value| match v {
            Value::Null | Value::Bytes(_) => None,
            v => Some(ColumnKind::of_value(v)),
        };
        if values.iter().all(|v| kind(v).is_none()) {
            return Vec::new();
        }
        values.iter().map(kind).collect()
    }

    pub(crate) fn kinds(&self) -> &[Option<ColumnKind>] {
        &self.kinds
    }

    /// Types the parameters by the kinds of the values bound to them.
    pub(crate) fn set_kinds(&mut self, kinds: Vec<Option<ColumnKind>>) {
        self.kinds = kinds;
    }

    /// `e` with each parameter under it that has a kind typed by it, for
    /// the result column `e` makes (`? + 1` of an integer is an integer,
    /// as in MariaDB). A parameter alone is typed by its value on the
    /// wire instead ([`crate::result::ExprWire::Param`]).
    pub(crate) fn typed<'e>(&self, e: &'e Expr) -> std::borrow::Cow<'e, Expr> {
        let typed = |x: &Expr| match x {
            Expr::Param(i) => self.kinds.get(*i).copied().flatten(),
            _ => None,
        };
        if self.kinds.is_empty() || matches!(e, Expr::Param(_)) || !e.any(&|x| typed(x).is_some()) {
            return std::borrow::Cow::Borrowed(e);
        }
        std::borrow::Cow::Owned(e.rewrite(&|x| {
            typed(x).map(|kind| Expr::Func(Func::TypedParameter(kind), vec![x.clone()]))
        }))
    }
    pub fn count(&self) -> usize {
        self.positions.len()
    }
    pub(crate) fn index(&self, span: &sqlparser::tokenizer::Span) -> Option<usize> {
        self.positions
            .binary_search(&(span.start.line, span.start.column))
            .ok()
    }
}

/// Compiles parser expressions against a scope.
pub(crate) struct Compiler<'a> {
    pub scope: &'a [ScopeColumn],
    pub params: &'a Params,
    pub facts: &'a SessionFacts,
    /// Where aggregate calls go; `None` where they are not allowed.
    pub aggs: Option<Vec<AggSpec>>,
    /// Where window functions go; `None` where they are not allowed.
    pub windows: Option<window::Windows>,
    /// Session/system variables for `@@name`.
    pub variable: &'a dyn Fn(&str) -> Result<Value>,
    /// Plans subqueries and resolves outer blocks' columns; `None` where
    /// subqueries are not supported.
    pub planner: Option<&'a mut dyn SubqueryPlanner>,
    /// Parameters the block runs with (its subqueries get its row after).
    pub base: usize,
}

fn ident_name(id: &ast::Ident) -> &str {
    &id.value
}

/// The collation operands meet in, given the one so far and another of
/// derivation `rank`: the lower rank wins; on a tie the binary character
/// set, then a utf8mb4 _bin collation, then utf8mb4 (latin1 converts to
/// it, as in MariaDB).
fn stronger(best: Option<(u8, Collation)>, rank: u8, c: Collation) -> Option<(u8, Collation)> {
    let binary = |c: Collation| match c {
        Collation::Binary => 3,
        Collation::Utf8mb4Bin | Collation::Utf8mb4NopadBin => 2,
        Collation::Utf8mb4GeneralCi | Collation::Utf8mb4UnicodeCi => 1,
        Collation::Latin1SwedishCi | Collation::Latin1GeneralCi | Collation::Latin1Bin => 0,
    };
    match best {
        Some((r, b)) if r < rank || (r == rank && binary(b) >= binary(c)) => Some((r, b)),
        _ => Some((rank, c)),
    }
}

pub(crate) fn object_name(n: &ast::ObjectName) -> Vec<String> {
    n.0.iter()
        .map(|p| match p {
            ast::ObjectNamePart::Identifier(i) => i.value.clone(),
            other => other.to_string(),
        })
        .collect()
}

impl Compiler<'_> {
    /// The collation strings compare in when `exprs` meet (in a
    /// comparison, BETWEEN, IN, LIKE, CASE): an explicit COLLATE first,
    /// then a column's or a function's, then a literal's; binary, then a
    /// _bin collation, wins a tie, as in MariaDB.
    pub(crate) fn collation_of(&self, exprs: &[&Expr]) -> Collation {
        let mut best: Option<(u8, Collation)> = None;
        for e in exprs {
            if let Some((c, rank)) = self.collation_and_derivation(e) {
                best = stronger(best, rank, c);
            }
        }
        best.map_or(Collation::default(), |(_, c)| c)
    }

    /// `e`'s collation and its derivation's rank (0: COLLATE, 2: a
    /// column or what is computed from one, 4: a literal); `None` for a
    /// value that is not a string.
    fn collation_and_derivation(&self, e: &Expr) -> Option<(Collation, u8)> {
        let aggs = self.aggs.as_deref().unwrap_or(&[]);
        let c = e.kind(self.scope, aggs).collation()?;
        let rank = match e {
            Expr::Cast(_, CastType::Collate(_)) => 0,
            Expr::Lit(_)
            | Expr::Param(_)
            | Expr::Cast(_, CastType::BinaryLiteral | CastType::HexHybrid | CastType::Literal(_)) => {
                4
            }
            _ => 2,
        };
        Some((c, rank))
    }

    /// The collation two strings compare in by `operation` (`=`, `like`,
    /// ...): [`collation_of`](Self::collation_of)'s, or error 1267 where
    /// MariaDB finds none: two COLLATE clauses that differ, or two columns
    /// of one character set whose collations differ with neither alone a
    /// binary-sorting one (utf8mb4_general_ci against utf8mb4_unicode_ci).
    fn comparison_collation(&self, l: &Expr, r: &Expr, operation: &str) -> Result<Collation> {
        let (a, b) = (
            self.collation_and_derivation(l),
            self.collation_and_derivation(r),
        );
        if let (Some((ca, ra)), Some((cb, rb))) = (a, b) {
            let bin_sort = |c: Collation| {
                matches!(
                    c,
                    Collation::Utf8mb4Bin | Collation::Utf8mb4NopadBin | Collation::Latin1Bin
                )
            };
            let conflict = ca != cb
                && ra == rb
                && ra < 4
                && (ra == 0 || (ca.charset() == cb.charset() && bin_sort(ca) == bin_sort(cb)));
            if conflict {
                let derivation = if ra == 0 { "EXPLICIT" } else { "IMPLICIT" };
                return Err(SqlError::new(
                    1267,
                    "HY000",
                    format!(
                        "Illegal mix of collations ({},{derivation}) and ({},{derivation}) for operation '{operation}'",
                        ca.name(),
                        cb.name()
                    ),
                ));
            }
        }
        let mut best = None;
        for (c, rank) in [a, b].into_iter().flatten() {
            best = stronger(best, rank, c);
        }
        Ok(best.map_or(Collation::default(), |(_, c)| c))
    }

    /// CAST(e AS t): to a number, an ENUM or SET column's member number.
    fn cast(&self, e: Expr, t: CastType) -> Expr {
        let e = match t {
            CastType::Signed | CastType::Unsigned | CastType::Decimal(..) | CastType::Double => {
                self.numeric_operand(e)
            }
            _ => e,
        };
        Expr::Cast(Box::new(e), t)
    }

    /// Whether `e` is a number (its kind numeric).
    fn is_number(&self, e: &Expr) -> bool {
        let aggs = self.aggs.as_deref().unwrap_or(&[]);
        matches!(
            e.kind(self.scope, aggs),
            ColumnKind::Int | ColumnKind::UInt | ColumnKind::Decimal { .. } | ColumnKind::Double
        )
    }

    /// Whether `e` is an ENUM or SET column.
    fn has_members(&self, e: &Expr) -> bool {
        matches!(e, Expr::Col(i) if self.scope.get(*i).is_some_and(|c| c.numbered.is_some()))
    }

    /// `e` where a number is wanted: an ENUM or SET column is its member's
    /// number (bit mask), as in MariaDB (`e + 0`, `e = 2`, `SUM(e)`).
    pub(crate) fn numeric_operand(&self, e: Expr) -> Expr {
        if let Expr::Col(i) = &e {
            if let Some(t) = self.scope.get(*i).and_then(|c| c.numbered) {
                return Expr::Cast(Box::new(e), CastType::MemberNumber(t));
            }
        }
        e.hex_hybrid_as_number()
    }

    /// Whether `e` reads as a number beside a number although its value
    /// is a string: an ENUM or SET column, a `0x` literal.
    fn reads_as_number(&self, e: &Expr) -> bool {
        self.has_members(e) || matches!(e, Expr::Cast(_, CastType::HexHybrid))
    }

    /// GROUP_CONCAT's `LIMIT [offset,] count` (the parser reads the offset
    /// form as a tuple): constant non-negative integers, as MariaDB's
    /// grammar has them.
    fn group_concat_limit(&mut self, limit: &ast::Expr) -> Result<(u64, u64)> {
        let parts: Vec<&ast::Expr> = match limit {
            ast::Expr::Tuple(items) => items.iter().collect(),
            one => vec![one],
        };
        let mut numbers = Vec::new();
        for p in &parts {
            let v = match p {
                ast::Expr::Value(_) => self.compile(p)?.eval(&[][..], Env::new(&[]))?,
                ast::Expr::Identifier(i) => {
                    return Err(SqlError::new(
                        1327,
                        "42000",
                        format!("Undeclared variable: {}", i.value),
                    ))
                }
                _ => Value::Null,
            };
            numbers.push(match v {
                Value::Int(n) if n >= 0 => n as u64,
                Value::UInt(n) => n,
                _ => {
                    return Err(SqlError::syntax(format!(
                        "You have an error in your SQL syntax; check the manual that \
                         corresponds to your MariaDB server version for the right syntax to \
                         use near '{p}'"
                    )))
                }
            });
        }
        match numbers.as_slice() {
            [count] => Ok((0, *count)),
            [offset, count] => Ok((*offset, *count)),
            _ => Err(SqlError::syntax(format!(
                "You have an error in your SQL syntax; check the manual that corresponds to \
                 your MariaDB server version for the right syntax to use near '{limit}'"
            ))),
        }
    }

    pub fn column(&self, table: Option<&str>, name: &str) -> Result<usize> {
        let mut found = None;
        for (i, c) in self.scope.iter().enumerate() {
            if c.name.eq_ignore_ascii_case(name)
                && !(c.hidden && table.is_none())
                && table.is_none_or(|t| c.table.eq_ignore_ascii_case(t))
            {
                if found.is_some() {
                    return Err(SqlError::new(
                        1052,
                        "23000",
                        format!("Column '{name}' in field list is ambiguous"),
                    ));
                }
                found = Some(i);
            }
        }
        found.ok_or_else(|| {
            SqlError::unknown_column(&match table {
                Some(t) => format!("{t}.{name}"),
                None => name.to_string(),
            })
        })
    }

    /// The name MariaDB's errors give the type of single value `e`
    /// (error 4078: a row beside it).
    fn type_name(&mut self, e: &ast::Expr) -> Result<String> {
        let x = self.compile(e)?;
        Ok(match (&x, x.kind(self.scope, &[])) {
            (Expr::Lit(Value::Null), _) => "null",
            (Expr::Lit(Value::Int(i)), _) if i32::try_from(*i).is_ok() => "int",
            (_, ColumnKind::Int | ColumnKind::UInt) => "bigint",
            (_, ColumnKind::Decimal { .. }) => "decimal",
            (_, ColumnKind::Double) => "double",
            (_, ColumnKind::Date) => "date",
            (_, ColumnKind::DateTime) => "datetime",
            (_, ColumnKind::Time) => "time",
            (_, ColumnKind::Text(_)) => "varchar",
        }
        .to_string())
    }

    pub fn compile(&mut self, e: &ast::Expr) -> Result<Expr> {
        use ast::Expr as E;
        Ok(match e {
            // A row where one value is wanted (comparisons and IN take
            // rows above).
            E::Tuple(_) => return Err(row_comparison::operand_columns(1)),
            E::Function(f)
                if f.name.to_string().eq_ignore_ascii_case("ROW")
                    && row_comparison::row_elements(e).is_some() =>
            {
                return Err(row_comparison::operand_columns(1))
            }
            E::Identifier(id) => {
                if let Some(v) = id.value.strip_prefix("@@") {
                    return self.var(v);
                }
                if let Some(name) = id.value.strip_prefix('@') {
                    if user_variables::assigning() {
                        // The value it has when compiled gives its type.
                        let name = name.to_ascii_lowercase();
                        let now = user_variables::get(&name);
                        return Ok(Expr::Func(
                            Func::UserVariable,
                            vec![Expr::Lit(Value::str(&name)), Expr::Lit(now)],
                        ));
                    }
                    return Ok(Expr::Lit(self.facts.user_variable(name)));
                }
                self.resolve(None, ident_name(id))?
            }
            E::CompoundIdentifier(parts) => {
                let n = parts.len();
                if n >= 2 && parts[0].value.starts_with("@@") {
                    let written = parts
                        .iter()
                        .map(|p| p.value.as_str())
                        .collect::<Vec<_>>()
                        .join(".");
                    return self.var(&written[2..]);
                }
                self.resolve(Some(&parts[n - 2].value), &parts[n - 1].value)?
            }
            E::Value(v) => match &v.value {
                ast::Value::Placeholder(_) => Expr::Param(
                    self.params
                        .index(&v.span)
                        .ok_or_else(|| SqlError::internal("unplaced parameter"))?,
                ),
                hex @ ast::Value::HexStringLiteral(_) => {
                    Expr::Cast(Box::new(Expr::Lit(literal(hex)?)), CastType::BinaryLiteral)
                }
                hex @ ast::Value::Number(digits, _) if digits.starts_with("0x") => {
                    Expr::Cast(Box::new(Expr::Lit(literal(hex)?)), CastType::HexHybrid)
                }
                number @ ast::Value::Number(digits, _) if digits.contains(['e', 'E']) => {
                    let shown = digits.len().min(usize::from(u8::MAX)) as u8;
                    Expr::Cast(
                        Box::new(Expr::Lit(literal(number)?)),
                        CastType::Shown(shown),
                    )
                }
                truth @ ast::Value::Boolean(_) => {
                    Expr::Cast(Box::new(Expr::Lit(literal(truth)?)), CastType::Shown(5))
                }
                text @ (ast::Value::SingleQuotedString(_) | ast::Value::DoubleQuotedString(_))
                    if self.facts.connection_collation != Collation::default() =>
                {
                    Expr::Cast(
                        Box::new(Expr::Lit(literal(text)?)),
                        CastType::Literal(self.facts.connection_collation),
                    )
                }
                other => Expr::Lit(literal(other)?),
            },
            // A character set introducer: `_binary'…'` is a binary string,
            // `_utf8mb4'…'` (or `_utf8`) the connection's.
            E::Prefixed { prefix, value } if prefix.value.starts_with('_') => {
                let literal = self.compile(value)?;
                match prefix.value.to_ascii_lowercase().as_str() {
                    "_binary" => Expr::Cast(Box::new(literal), CastType::BinaryLiteral),
                    "_utf8mb4" | "_utf8" | "_utf8mb3" => literal,
                    other => {
                        return Err(SqlError::unsupported(format!(
                            "the character set introducer {other}"
                        )))
                    }
                }
            }
            E::Nested(inner) => self.compile(inner)?,
            E::IsNull(x) => Expr::IsNull(Box::new(self.compile(x)?), false),
            E::IsNotNull(x) => Expr::IsNull(Box::new(self.compile(x)?), true),
            // Never NULL: an unknown truth value is neither TRUE nor FALSE.
            E::IsTrue(x) => self.truth_test(x, CmpOp::Ne, 0)?,
            E::IsNotTrue(x) => self.truth_test(x, CmpOp::Eq, 1)?,
            E::IsFalse(x) => self.truth_test(x, CmpOp::Eq, 0)?,
            E::IsNotFalse(x) => self.truth_test(x, CmpOp::Ne, 1)?,
            E::IsUnknown(x) => Expr::IsNull(Box::new(self.compile(x)?), false),
            E::IsNotUnknown(x) => Expr::IsNull(Box::new(self.compile(x)?), true),
            E::Between {
                expr,
                negated,
                low,
                high,
            } => {
                let (x, lo, hi) = (self.compile(expr)?, self.compile(low)?, self.compile(high)?);
                let x = if self.reads_as_number(&x) && self.is_number(&lo) && self.is_number(&hi) {
                    self.numeric_operand(x)
                } else {
                    x
                };
                let collation = self.collation_of(&[&x, &lo, &hi]);
                Expr::Between(Box::new(x), Box::new(lo), Box::new(hi), *negated, collation)
            }
            E::InList {
                expr,
                list,
                negated,
            } => {
                if let Some(tests) =
                    row_comparison::in_list(expr, list, *negated, &mut |e| self.type_name(e))?
                {
                    return self.compile(&tests);
                }
                let x = self.compile(expr)?;
                let list: Vec<Expr> = list
                    .iter()
                    .map(|x| self.compile(x))
                    .collect::<Result<_>>()?;
                let x = if self.reads_as_number(&x) && list.iter().all(|e| self.is_number(e)) {
                    self.numeric_operand(x)
                } else {
                    x
                };
                let list = list.into_iter().map(json_scalar).collect::<Vec<_>>();
                let collation =
                    self.collation_of(&std::iter::once(&x).chain(&list).collect::<Vec<_>>());
                Expr::InList(Box::new(json_scalar(x)), list, *negated, collation)
            }
            E::Like {
                negated,
                expr,
                pattern,
                escape_char: None,
                any: false,
            } => {
                let (x, p) = (self.compile(expr)?, self.compile(pattern)?);
                let collation = self.comparison_collation(&x, &p, "like")?;
                Expr::Like(Box::new(x), Box::new(p), *negated, collation)
            }
            E::RLike {
                negated,
                expr,
                pattern,
                ..
            } => {
                let (x, p) = (self.compile(expr)?, self.compile(pattern)?);
                let test = self.call(Func::Builtin(&crate::function::regexp::MATCHES), vec![x, p]);
                if *negated {
                    Expr::Not(Box::new(test))
                } else {
                    test
                }
            }
            E::UnaryOp { op, expr } => {
                let x = self.compile(expr)?;
                let x = match op {
                    ast::UnaryOperator::Minus | ast::UnaryOperator::BitwiseNot => {
                        self.numeric_operand(x)
                    }
                    _ => x,
                };
                match op {
                    ast::UnaryOperator::Not => Expr::Not(Box::new(x)),
                    ast::UnaryOperator::Minus => match x {
                        Expr::Lit(Value::Int(i)) => Expr::Lit(match i.checked_neg() {
                            Some(n) => Value::Int(n),
                            // -(-9223372036854775808) is DECIMAL, as in MySQL.
                            None => Value::Decimal(Dec::new(-(i as i128), 0)),
                        }),
                        // -9223372036854775808 is a BIGINT, as in MySQL.
                        Expr::Lit(Value::UInt(u)) if u == 1 << 63 => {
                            Expr::Lit(Value::Int(i64::MIN))
                        }
                        // -0x41 (a literal read as an unsigned number).
                        Expr::Lit(Value::UInt(u)) => Expr::Lit(match i64::try_from(u) {
                            Ok(i) => Value::Int(-i),
                            Err(_) => Value::Decimal(Dec::new(-(u as i128), 0)),
                        }),
                        Expr::Lit(Value::Decimal(d)) => Expr::Lit(Value::Decimal(-d)),
                        Expr::Lit(Value::Double(f)) => Expr::Lit(Value::Double(-f)),
                        x => Expr::Neg(Box::new(x)),
                    },
                    ast::UnaryOperator::Plus => x,
                    ast::UnaryOperator::BitwiseNot => {
                        Expr::Func(Func::Bitwise(BitOp::Not), vec![x])
                    }
                    other => return Err(SqlError::unsupported(format!("operator {other}"))),
                }
            }
            E::BinaryOp {
                left,
                op: ast::BinaryOperator::Assignment,
                right,
            } => {
                let name = match left.as_ref() {
                    E::Identifier(i) if i.value.starts_with('@') && !i.value.starts_with("@@") => {
                        i.value[1..].to_ascii_lowercase()
                    }
                    other => {
                        return Err(SqlError::syntax(format!(
                            "You have an error in your SQL syntax; check the manual that \
                             corresponds to your MariaDB server version for the right syntax \
                             to use near ':= {other}'"
                        )))
                    }
                };
                if !user_variables::assigning() {
                    return Err(SqlError::unsupported(":= here"));
                }
                Expr::Func(
                    Func::SetUserVariable,
                    vec![Expr::Lit(Value::str(&name)), self.compile(right)?],
                )
            }
            E::BinaryOp { left, op, right } => {
                use ast::BinaryOperator as B;
                if let Some(tests) =
                    row_comparison::comparison(left, op, right, &mut |e| self.type_name(e))?
                {
                    return self.compile(&tests);
                }
                // DATE + INTERVAL n unit
                if let (B::Plus | B::Minus, E::Interval(_)) = (op, right.as_ref()) {
                    let f = if *op == B::Plus {
                        Func::DateAdd
                    } else {
                        Func::DateSub
                    };
                    return Ok(Expr::Func(
                        f,
                        vec![self.compile(left)?, self.compile(right)?],
                    ));
                }
                let (l, r) = (self.compile(left)?, self.compile(right)?);
                // An ENUM or SET column is its member's number in
                // arithmetic and against a number.
                let (l, r) = match op {
                    B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::Spaceship => {
                        // (Kinds are looked at only beside such a column.)
                        let l_wrapped = self.reads_as_number(&l) && self.is_number(&r);
                        let r_wrapped = self.reads_as_number(&r) && self.is_number(&l);
                        let l = if l_wrapped {
                            self.numeric_operand(l)
                        } else {
                            l
                        };
                        let r = if r_wrapped {
                            self.numeric_operand(r)
                        } else {
                            r
                        };
                        (l, r)
                    }
                    B::And | B::Or | B::Xor => (l, r),
                    _ => (self.numeric_operand(l), self.numeric_operand(r)),
                };
                // A JSON_EXTRACT compared is its scalar (MariaDB unquotes
                // the first JSON operand: `'en' = JSON_EXTRACT('"en"', '$')`).
                let (l, r) = match op {
                    B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::Spaceship
                        if is_json_extract(&l) =>
                    {
                        (json_scalar(l), r)
                    }
                    B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::Spaceship => {
                        (l, json_scalar(r))
                    }
                    _ => (l, r),
                };
                let operation = match op {
                    B::Eq => Some("="),
                    B::NotEq => Some("<>"),
                    B::Lt => Some("<"),
                    B::LtEq => Some("<="),
                    B::Gt => Some(">"),
                    B::GtEq => Some(">="),
                    B::Spaceship => Some("<=>"),
                    _ => None,
                };
                let collation = match operation {
                    Some(o) => self.comparison_collation(&l, &r, o)?,
                    None => self.collation_of(&[&l, &r]),
                };
                let (l, r) = (Box::new(l), Box::new(r));
                let cmp = |op, l, r| Expr::Cmp(op, l, r, collation);
                match op {
                    B::Eq => cmp(CmpOp::Eq, l, r),
                    B::NotEq => cmp(CmpOp::Ne, l, r),
                    B::Lt => cmp(CmpOp::Lt, l, r),
                    B::LtEq => cmp(CmpOp::Le, l, r),
                    B::Gt => cmp(CmpOp::Gt, l, r),
                    B::GtEq => cmp(CmpOp::Ge, l, r),
                    B::Spaceship => cmp(CmpOp::NullSafeEq, l, r),
                    B::And => Expr::And(l, r),
                    B::Or => Expr::Or(l, r),
                    B::Xor => cmp(CmpOp::Ne, Box::new(truth(*l)), Box::new(truth(*r))),
                    B::Plus => Expr::Arith(ArithOp::Add, l, r),
                    B::Minus => Expr::Arith(ArithOp::Sub, l, r),
                    B::Multiply => Expr::Arith(ArithOp::Mul, l, r),
                    B::Divide => Expr::Arith(ArithOp::Div, l, r),
                    B::MyIntegerDivide => Expr::Arith(ArithOp::IntDiv, l, r),
                    B::Modulo => Expr::Arith(ArithOp::Mod, l, r),
                    B::BitwiseAnd => Expr::Func(Func::Bitwise(BitOp::And), vec![*l, *r]),
                    B::BitwiseOr => Expr::Func(Func::Bitwise(BitOp::Or), vec![*l, *r]),
                    B::BitwiseXor => Expr::Func(Func::Bitwise(BitOp::Xor), vec![*l, *r]),
                    B::PGBitwiseShiftLeft => {
                        Expr::Func(Func::Bitwise(BitOp::ShiftLeft), vec![*l, *r])
                    }
                    B::PGBitwiseShiftRight => {
                        Expr::Func(Func::Bitwise(BitOp::ShiftRight), vec![*l, *r])
                    }
                    other => return Err(SqlError::unsupported(format!("operator {other}"))),
                }
            }
            E::Interval(iv) => {
                let unit = match iv.leading_field {
                    Some(ast::DateTimeField::Day) | Some(ast::DateTimeField::Days) | None => {
                        IntervalUnit::Day
                    }
                    Some(ast::DateTimeField::Week(_)) | Some(ast::DateTimeField::Weeks) => {
                        IntervalUnit::Week
                    }
                    Some(ast::DateTimeField::Month) | Some(ast::DateTimeField::Months) => {
                        IntervalUnit::Month
                    }
                    Some(ast::DateTimeField::Quarter) => IntervalUnit::Quarter,
                    Some(ast::DateTimeField::Year) | Some(ast::DateTimeField::Years) => {
                        IntervalUnit::Year
                    }
                    Some(ast::DateTimeField::Hour) | Some(ast::DateTimeField::Hours) => {
                        IntervalUnit::Hour
                    }
                    Some(ast::DateTimeField::Minute) | Some(ast::DateTimeField::Minutes) => {
                        IntervalUnit::Minute
                    }
                    Some(ast::DateTimeField::Second) | Some(ast::DateTimeField::Seconds) => {
                        IntervalUnit::Second
                    }
                    Some(ast::DateTimeField::Microsecond)
                    | Some(ast::DateTimeField::Microseconds) => IntervalUnit::Microsecond,
                    Some(ref other) => {
                        return Err(SqlError::unsupported(format!("INTERVAL unit {other}")))
                    }
                };
                Expr::Interval(unit, Box::new(self.compile(&iv.value)?))
            }
            E::TypedString(ts) => {
                let text = match &ts.value.value {
                    ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
                        s.clone()
                    }
                    other => other.to_string(),
                };
                match ts.data_type {
                    ast::DataType::Date => Expr::Lit(Value::Date(
                        parse_date(&text)
                            .ok_or_else(|| SqlError::syntax(format!("bad DATE '{text}'")))?,
                    )),
                    ast::DataType::Time(..) => Expr::Lit(Value::Time(
                        lineardb_table::types::parse_time(&text)
                            .filter(|t| t.abs() <= lineardb_table::types::MAX_TIME)
                            .ok_or_else(|| {
                                SqlError::new(
                                    1525,
                                    "HY000",
                                    format!("Incorrect TIME value: '{text}'"),
                                )
                            })?,
                    )),
                    _ => Expr::Lit(Value::Bytes(text.into_bytes())),
                }
            }
            E::Function(f) => self.function(f)?,
            E::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                let operand = operand
                    .as_ref()
                    .map(|o| self.compile(o).map(Box::new))
                    .transpose()?;
                let whens: Vec<(Expr, Expr)> = conditions
                    .iter()
                    .map(|w| Ok((self.compile(&w.condition)?, self.compile(&w.result)?)))
                    .collect::<Result<_>>()?;
                let collation = match &operand {
                    Some(o) => self.collation_of(
                        &std::iter::once(o.as_ref())
                            .chain(whens.iter().map(|(w, _)| w))
                            .collect::<Vec<_>>(),
                    ),
                    None => Collation::default(),
                };
                let otherwise = else_result
                    .as_ref()
                    .map(|e| self.compile(e).map(Box::new))
                    .transpose()?;
                Expr::Case(operand, whens, otherwise, collation)
            }
            E::Cast {
                expr,
                data_type,
                format: None,
                kind: ast::CastKind::Cast,
            } => {
                let x = self.compile(expr)?;
                self.cast(x, cast_type(data_type, &expr.to_string())?)
            }
            E::Convert {
                expr,
                data_type: Some(data_type),
                charset: None,
                is_try: false,
                ..
            } => {
                let x = self.compile(expr)?;
                self.cast(x, cast_type(data_type, &expr.to_string())?)
            }
            E::Subquery(q) => self.subquery(q, SubqueryTest::Scalar, false)?,
            E::Collate { expr, collation } => {
                let name = object_name(collation).join(".");
                let inner = self.compile(expr)?;
                let c = crate::charset::collation_named(&name)?;
                // A utf8mb4 string takes a utf8mb4 collation, a latin1
                // string a latin1 one.
                let aggs = self.aggs.as_deref().unwrap_or(&[]);
                if let Some(of) = inner.kind(self.scope, aggs).collation() {
                    if of != Collation::Binary && of.is_latin1() != c.is_latin1() {
                        crate::charset::check_collation_of(c, of.charset())?;
                    }
                }
                Expr::Cast(Box::new(inner), CastType::Collate(c))
            }
            E::Extract { field, expr, .. } => {
                let f = match field {
                    ast::DateTimeField::Year | ast::DateTimeField::Years => Func::Year,
                    ast::DateTimeField::Month | ast::DateTimeField::Months => Func::Month,
                    ast::DateTimeField::Day | ast::DateTimeField::Days => Func::Day,
                    ast::DateTimeField::Quarter => Func::Builtin(
                        crate::function::lookup("QUARTER").expect("a registry function"),
                    ),
                    ast::DateTimeField::Hour
                    | ast::DateTimeField::Minute
                    | ast::DateTimeField::Second
                    | ast::DateTimeField::Microsecond => {
                        let unit = field.to_string().to_ascii_uppercase();
                        return Ok(Expr::Func(
                            Func::Builtin(&crate::function::datetime::EXTRACT_TIME_PART),
                            vec![Expr::Lit(Value::str(&unit)), self.compile(expr)?],
                        ));
                    }
                    other => return Err(SqlError::unsupported(format!("EXTRACT({other} FROM …)"))),
                };
                Expr::Func(f, vec![self.compile(expr)?])
            }
            E::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                let mut args = vec![self.compile(expr)?];
                args.push(match substring_from {
                    Some(f) => self.compile(f)?,
                    None => Expr::Lit(Value::Int(1)),
                });
                if let Some(n) = substring_for {
                    args.push(self.compile(n)?);
                }
                self.call(Func::Substring, args)
            }
            E::Trim {
                expr,
                trim_where,
                trim_what,
                trim_characters: None,
            } => {
                let what = match trim_what {
                    Some(w) => self.compile(w)?,
                    None => Expr::Lit(Value::str(" ")),
                };
                let side = match trim_where {
                    Some(ast::TrimWhereField::Leading) => "LEADING",
                    Some(ast::TrimWhereField::Trailing) => "TRAILING",
                    _ => "BOTH",
                };
                let trim = crate::function::lookup("TRIM").expect("TRIM is registered");
                let args = vec![self.compile(expr)?, what, Expr::Lit(Value::str(side))];
                self.call(Func::Builtin(trim), args)
            }
            E::Position { expr, r#in } => {
                let locate = crate::function::lookup("LOCATE").expect("LOCATE is registered");
                let args = vec![self.compile(expr)?, self.compile(r#in)?];
                self.call(Func::Builtin(locate), args)
            }
            E::Exists { subquery, negated } => not_if(
                *negated,
                self.subquery(subquery, SubqueryTest::Exists, true)?,
            ),
            E::InSubquery {
                expr,
                subquery,
                negated,
            } => {
                if let Some(elements) = row_comparison::row_elements(expr) {
                    let row = elements
                        .into_iter()
                        .map(|x| self.compile(x))
                        .collect::<Result<Vec<_>>>()?;
                    return Ok(not_if(
                        *negated,
                        self.subquery(subquery, SubqueryTest::InRow(row), false)?,
                    ));
                }
                let lhs = Box::new(self.compile(expr)?);
                not_if(
                    *negated,
                    self.subquery(subquery, SubqueryTest::In(lhs), false)?,
                )
            }
            E::AnyOp {
                left,
                compare_op,
                right,
                ..
            }
            | E::AllOp {
                left,
                compare_op,
                right,
            } => {
                let all = matches!(e, E::AllOp { .. });
                let E::Subquery(q) = right.as_ref() else {
                    return Err(SqlError::unsupported(format!("{e}")));
                };
                let op = cmp_op(compare_op)
                    .ok_or_else(|| SqlError::unsupported(format!("{compare_op} ANY/ALL")))?;
                let lhs = Box::new(self.compile(left)?);
                self.subquery(q, SubqueryTest::Quantified(op, all, lhs), false)?
            }
            // The parser reads FLOOR and CEIL apart from other functions.
            E::Floor { expr, field } | E::Ceil { expr, field } => {
                let (func, name) = match e {
                    E::Floor { .. } => (Func::Floor, "FLOOR"),
                    _ => (Func::Ceil, "CEIL"),
                };
                match field {
                    ast::CeilFloorKind::DateTimeField(ast::DateTimeField::NoDateTime) => {
                        let arg = self.compile(expr)?;
                        self.call(func, vec![arg])
                    }
                    ast::CeilFloorKind::Scale(_) => {
                        return Err(SqlError::wrong_arguments(name));
                    }
                    ast::CeilFloorKind::DateTimeField(_) => {
                        return Err(SqlError::syntax_near("TO"));
                    }
                }
            }
            other => return Err(SqlError::unsupported(other.to_string())),
        })
    }

    /// `x IS [NOT] TRUE/FALSE`: `x op 0`, or `unknown` when x is NULL.
    fn truth_test(&mut self, x: &ast::Expr, op: CmpOp, unknown: i64) -> Result<Expr> {
        let x = self.compile(x)?;
        let test = Expr::Cmp(
            op,
            Box::new(self.numeric_operand(x)),
            Box::new(Expr::Lit(Value::Int(0))),
            Collation::default(),
        );
        Ok(Expr::Func(
            Func::Truth,
            vec![test, Expr::Lit(Value::Int(unknown))],
        ))
    }

    /// A column of this block, else of a block around it (a parameter).
    fn resolve(&mut self, table: Option<&str>, name: &str) -> Result<Expr> {
        let (column, stored_timestamp) = match self.column(table, name) {
            Ok(i) => return Ok(self.column_ref(i)),
            Err(e) if e.code == 1054 => match self
                .planner
                .as_mut()
                .and_then(|p| p.outer_column(table, name))
            {
                Some(p) => {
                    let (p, stored_timestamp) = p?;
                    (Expr::Param(p), stored_timestamp)
                }
                None => return Err(e),
            },
            Err(e) => return Err(e),
        };
        Ok(self.in_session_zone(column, stored_timestamp))
    }

    /// The stored TIMESTAMP column `e` reads, if it is one (as stored, or
    /// in the session's zone).
    fn stored_timestamp<'e>(&self, e: &'e Expr) -> Option<&'e Expr> {
        match e.without_zone() {
            x @ Expr::Col(i) if self.scope.get(*i).is_some_and(|c| c.stored_timestamp) => Some(x),
            // A column of a block around this one, converted to the zone.
            x @ Expr::Param(_) if !std::ptr::eq(x, e) => Some(x),
            _ => None,
        }
    }

    /// Scope column `i` as expressions read it: a stored TIMESTAMP in the
    /// session's zone.
    pub(crate) fn column_ref(&self, i: usize) -> Expr {
        self.in_session_zone(Expr::Col(i), self.scope[i].stored_timestamp)
    }

    /// `column`, a stored TIMESTAMP's value where `stored_timestamp`, as a
    /// time of the session's zone.
    fn in_session_zone(&self, column: Expr, stored_timestamp: bool) -> Expr {
        match self.facts.time_zone.for_timestamps() {
            Some(zone) if stored_timestamp => {
                Expr::Func(Func::FromStoredTimestamp(zone), vec![column])
            }
            _ => column,
        }
    }

    /// A subquery planned against this block; `first_row_only` when one
    /// row answers the test.
    fn subquery(
        &mut self,
        q: &ast::Query,
        test: SubqueryTest,
        first_row_only: bool,
    ) -> Result<Expr> {
        let (scope, base) = (self.scope, self.base);
        let planner = self
            .planner
            .as_mut()
            .ok_or_else(|| SqlError::unsupported("a subquery in this statement"))?;
        let p = planner.plan_subquery(q, scope, base)?;
        let wanted = match &test {
            SubqueryTest::Exists => p.columns.len(),
            SubqueryTest::InRow(row) => row.len(),
            _ => 1,
        };
        if p.columns.len() != wanted {
            return Err(row_comparison::operand_columns(wanted));
        }
        Ok(Expr::Subquery(
            Box::new(Subquery {
                id: p.id,
                plan: p.plan,
                base,
                width: scope.len(),
                correlated: p.correlated,
                row_refs: p.row_refs,
                kind: p.columns.first().copied().unwrap_or(ColumnKind::TEXT),
                first_column: p.first_column.map(Box::new),
                column_kinds: p.columns,
                first_row_only,
            }),
            test,
        ))
    }

    /// `@@name` (`written` without the `@@`, with any scope).
    fn var(&self, written: &str) -> Result<Expr> {
        let value = (self.variable)(written)?;
        let name = written.rsplit('.').next().unwrap_or(written);
        let shape = crate::catalog::system_variables::definition(&name.to_ascii_lowercase())
            .map_or(VariableShape::Text, |d| VariableShape::of(&d.kind));
        // A DOUBLE variable reads as one (MariaDB's max_statement_time).
        let value = match (shape, value) {
            (VariableShape::Double, Value::Decimal(d)) => Value::Double(d.to_f64()),
            (_, v) => v,
        };
        Ok(session_value(value, shape))
    }

    fn function(&mut self, f: &ast::Function) -> Result<Expr> {
        let written = object_name(&f.name).join(".");
        let name = written.to_ascii_uppercase();
        let (args, distinct, clauses): (Vec<&ast::FunctionArg>, bool, &[_]) = match &f.args {
            ast::FunctionArguments::None => (Vec::new(), false, &[]),
            ast::FunctionArguments::List(l) => (
                l.args.iter().collect(),
                matches!(
                    l.duplicate_treatment,
                    Some(ast::DuplicateTreatment::Distinct)
                ),
                &l.clauses,
            ),
            ast::FunctionArguments::Subquery(_) => return Err(SqlError::unsupported("subquery")),
        };
        if let Some(over) = &f.over {
            return self.window_function(&name, f, over);
        }
        if f.filter.is_some() || !f.within_group.is_empty() || f.null_treatment.is_some() {
            return Err(SqlError::unsupported(format!(
                "{name}(...) FILTER / WITHIN GROUP"
            )));
        }
        // GROUP_CONCAT's ORDER BY, LIMIT and SEPARATOR, JSON_ARRAYAGG's
        // ORDER BY and LIMIT; any other clause, or these in another
        // function, is not done.
        let mut order_by: &[ast::OrderByExpr] = &[];
        let mut separator = b",".to_vec();
        let mut bounds = group_concat::Bounds::default();
        let ordered = matches!(name.as_str(), "GROUP_CONCAT" | "JSON_ARRAYAGG");
        if matches!(
            name.as_str(),
            "GROUP_CONCAT" | "JSON_ARRAYAGG" | "JSON_OBJECTAGG"
        ) {
            if let Some(n) = (self.variable)("group_concat_max_len")
                .ok()
                .and_then(|v| match v {
                    Value::Int(n) => u64::try_from(n).ok(),
                    Value::UInt(n) => Some(n),
                    _ => None,
                })
            {
                bounds.max_len = n;
            }
        }
        for clause in clauses {
            match clause {
                ast::FunctionArgumentClause::OrderBy(o) if ordered => order_by = o,
                ast::FunctionArgumentClause::Limit(l) if ordered => {
                    (bounds.offset, bounds.count) = self.group_concat_limit(l)?;
                }
                ast::FunctionArgumentClause::Separator(s) if name == "GROUP_CONCAT" => {
                    separator = match &s.value {
                        ast::Value::SingleQuotedString(t) | ast::Value::DoubleQuotedString(t) => {
                            crate::parser::wire_text::literal_bytes(t)
                        }
                        _ => return Err(SqlError::syntax("SEPARATOR takes a string")),
                    };
                }
                other => return Err(SqlError::unsupported(format!("{name}(... {other})"))),
            }
        }
        let star = args.len() == 1
            && matches!(
                args[0],
                ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Wildcard)
            );
        // TIMESTAMPDIFF/TIMESTAMPADD name their unit as a bare word.
        let unit_first = matches!(name.as_str(), "TIMESTAMPDIFF" | "TIMESTAMPADD");
        let arg_exprs = |c: &mut Self| -> Result<Vec<Expr>> {
            args.iter()
                .enumerate()
                .map(|(i, a)| match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(
                        ast::Expr::Identifier(unit),
                    )) if i == 0 && unit_first => Ok(Expr::Lit(Value::str(&unit.value))),
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => c.compile(e),
                    other => Err(SqlError::unsupported(other.to_string())),
                })
                .collect()
        };
        let agg = match name.as_str() {
            "COUNT" if star => Some(AggFunc::CountStar),
            "COUNT" => Some(AggFunc::Count),
            "SUM" => Some(AggFunc::Sum),
            "AVG" => Some(AggFunc::Avg),
            "MIN" => Some(AggFunc::Min),
            "MAX" => Some(AggFunc::Max),
            "GROUP_CONCAT" | "JSON_ARRAYAGG" | "JSON_OBJECTAGG" => Some(AggFunc::GroupConcat),
            "STD" | "STDDEV" | "STDDEV_POP" | "VARIANCE" | "VAR_POP" | "STDDEV_SAMP"
            | "VAR_SAMP" => Some(AggFunc::Spread(moments::Spread {
                sample: name.ends_with("_SAMP"),
                root: name.starts_with("STD"),
            })),
            "BIT_AND" => Some(AggFunc::Bits(crate::function::bitwise::BitOp::And)),
            "BIT_OR" => Some(AggFunc::Bits(crate::function::bitwise::BitOp::Or)),
            "BIT_XOR" => Some(AggFunc::Bits(crate::function::bitwise::BitOp::Xor)),
            _ => None,
        };
        if let Some(func) = agg {
            if self.aggs.is_none() {
                return Err(SqlError::new(
                    1111,
                    "HY000",
                    "Invalid use of group function",
                ));
            }
            // Arguments and keys are evaluated on source rows: no nested
            // aggregates or window functions.
            if window::has_window_function(&f.args) {
                return Err(window::in_group_function());
            }
            let args_of_call = args.clone();
            let saved = self.aggs.take();
            let args = if func == AggFunc::CountStar {
                Ok(Vec::new())
            } else {
                arg_exprs(self)
            };
            let order: Result<Vec<(Expr, bool)>> = order_by
                .iter()
                .map(|o| {
                    let desc = matches!(o.options.sort, Some(ast::OrderBySort::Desc));
                    let x = self.compile(&o.expr)?;
                    let kind = x.kind(self.scope, self.aggs.as_deref().unwrap_or(&[]));
                    Ok((sort_keyed(x, kind), desc))
                })
                .collect();
            self.aggs = saved;
            let (mut args, mut order) = (args?, order?);
            if matches!(
                func,
                AggFunc::Sum | AggFunc::Avg | AggFunc::Spread(_) | AggFunc::Bits(_)
            ) {
                args = args.into_iter().map(|a| self.numeric_operand(a)).collect();
            }
            // MariaDB's grammar has COUNT(a, b) only with DISTINCT and
            // JSON_OBJECTAGG with two arguments only: other counts do not
            // parse.
            let parses = match func {
                AggFunc::Spread(_) | AggFunc::Bits(_) => !distinct,
                _ => true,
            } && match name.as_str() {
                "COUNT" => distinct || args.len() <= 1,
                "JSON_OBJECTAGG" => args.len() == 2,
                _ => true,
            };
            if !parses {
                return Err(SqlError::syntax(format!(
                    "You have an error in your SQL syntax; check the manual that corresponds \
                     to your MariaDB server version for the right syntax to use near '{name}'"
                )));
            }
            // DISTINCT without ORDER BY: MariaDB's rows come out of the tree
            // that keeps them distinct, in the order of their arguments.
            if func == AggFunc::GroupConcat && distinct && order.is_empty() {
                let aggs = self.aggs.as_deref().unwrap_or(&[]);
                order = args
                    .iter()
                    .map(|a| (sort_keyed(a.clone(), a.kind(self.scope, aggs)), false))
                    .collect();
            }
            // JSON_ARRAYAGG and JSON_OBJECTAGG: a GROUP_CONCAT of each row's
            // element or member, closed as an array or object.
            use crate::function::json::aggregate as json_agg;
            let json_result = match name.as_str() {
                "JSON_ARRAYAGG" => Some((
                    1,
                    &json_agg::ARRAYAGG_ELEMENT,
                    &json_agg::ARRAYAGG_RESULT,
                    ",",
                )),
                "JSON_OBJECTAGG" => Some((
                    2,
                    &json_agg::OBJECTAGG_MEMBER,
                    &json_agg::OBJECTAGG_RESULT,
                    ", ",
                )),
                _ => None,
            }
            .map(|(arity, element, result, between)| {
                if args.len() != arity {
                    return Err(SqlError::wrong_arguments(&written));
                }
                args.insert(0, self.json_letters(&args_of_call, &args));
                args = vec![Expr::Func(
                    Func::Builtin(element),
                    std::mem::take(&mut args),
                )];
                separator = between.as_bytes().to_vec();
                Ok(result)
            })
            .transpose()?;
            let arity_ok = match func {
                AggFunc::CountStar => true,
                AggFunc::GroupConcat => !args.is_empty(),
                // COUNT(DISTINCT a, b, ...)
                AggFunc::Count if distinct => !args.is_empty(),
                _ => args.len() == 1,
            };
            if !arity_ok {
                return Err(SqlError::wrong_arguments(&written));
            }
            let more = if args.len() > 1 {
                args.split_off(1)
            } else {
                Vec::new()
            };
            let arg = args.pop();
            let collation = match &arg {
                Some(a) => self.collation_of(&[a]),
                None => Collation::default(),
            };
            let aggs = self.aggs.as_mut().expect("checked above");
            aggs.push(AggSpec {
                func,
                arg,
                distinct,
                more,
                order,
                separator,
                bounds,
                collation,
            });
            let agg = Expr::Agg(aggs.len() - 1);
            return Ok(match json_result {
                Some(result) => Expr::Func(Func::Builtin(result), vec![agg]),
                None => agg,
            });
        }
        let facts = self.facts;
        let lit = |v: Value| Ok(Expr::Lit(v));
        let a = arg_exprs(self)?;
        let want = |n: std::ops::RangeInclusive<usize>| {
            if n.contains(&a.len()) {
                Ok(())
            } else {
                Err(SqlError::wrong_arguments(&written))
            }
        };
        let func = match name.as_str() {
            "DATABASE" | "SCHEMA" => {
                let name = match &facts.database {
                    Some(d) => Value::str(d),
                    None => Value::Null,
                };
                return Ok(session_value(name, VariableShape::Name));
            }
            "CURRENT_USER" => return lit(Value::str(&facts.account)),
            // What an expression's strings compare in; a number's or a
            // NULL's is binary.
            "COLLATION" | "CHARSET" => {
                want(1..=1)?;
                let aggs = self.aggs.as_deref().unwrap_or(&[]);
                let c = a[0]
                    .kind(self.scope, aggs)
                    .collation()
                    .unwrap_or(Collation::Binary);
                return lit(Value::str(if name == "COLLATION" {
                    c.name()
                } else {
                    c.charset()
                }));
            }
            "USER" | "SESSION_USER" | "SYSTEM_USER" => return lit(Value::str(&facts.user)),
            "VERSION" => return lit(Value::str(crate::SERVER_VERSION)),
            "CONNECTION_ID" => return lit(Value::UInt(facts.connection_id)),
            "LOAD_FILE" => {
                want(1..=1)?;
                let mut args = a;
                args.push(Expr::Lit(Value::UInt(facts.max_allowed_packet)));
                args.push(Expr::Lit(Value::Int(i64::from(facts.file_privilege))));
                return Ok(Expr::Func(
                    Func::Builtin(&crate::function::file::LOAD_FILE),
                    args,
                ));
            }
            "LAST_INSERT_ID" if a.is_empty() => (Func::LastInsertId, 0..=0),
            "LAST_INSERT_ID" => (Func::GiveLastInsertId, 1..=1),
            "ROW_COUNT" => (Func::RowCount, 0..=0),
            "LENGTH" | "OCTET_LENGTH" => (Func::Length, 1..=1),
            "CHAR_LENGTH" | "CHARACTER_LENGTH" => (Func::CharLength, 1..=1),
            "UPPER" | "UCASE" => (Func::Upper, 1..=1),
            "LOWER" | "LCASE" => (Func::Lower, 1..=1),
            "CONCAT" => (Func::Concat, 1..=usize::MAX),
            "REPEAT" => (Func::Repeat, 2..=2),
            "SUBSTRING" | "SUBSTR" | "MID" => (Func::Substring, 2..=3),
            "ABS" => (Func::Abs, 1..=1),
            "ROUND" => (Func::Round, 1..=2),
            "FLOOR" => (Func::Floor, 1..=1),
            "CEIL" | "CEILING" => (Func::Ceil, 1..=1),
            "COALESCE" | "IFNULL" => (Func::Coalesce, 1..=usize::MAX),
            "IF" => (Func::If, 3..=3),
            "NULLIF" => (Func::NullIf(Collation::default()), 2..=2),
            "DATE_ADD" | "ADDDATE" => (Func::DateAdd, 2..=2),
            "DATE_SUB" | "SUBDATE" => (Func::DateSub, 2..=2),
            "YEAR" => (Func::Year, 1..=1),
            "MONTH" => (Func::Month, 1..=1),
            "DAY" | "DAYOFMONTH" => (Func::Day, 1..=1),
            "SLEEP" => (Func::Sleep, 1..=1),
            "NOW" | "CURRENT_TIMESTAMP" | "LOCALTIME" | "LOCALTIMESTAMP" | "SYSDATE"
            | "CURTIME" | "CURRENT_TIME" | "UTC_TIME" | "UTC_TIMESTAMP" => {
                want(0..=1)?;
                // The digits of a second's fraction: a number in the text
                // (a syntax error otherwise, as in MariaDB's grammar).
                let fsp = match a.first() {
                    None => 0,
                    Some(Expr::Lit(Value::Int(n @ 0..=6))) => *n,
                    Some(Expr::Lit(Value::Int(_) | Value::UInt(_))) => {
                        return Err(SqlError::new(
                            1426,
                            "42000",
                            format!(
                                "Too big precision specified for '{}'. Maximum is 6",
                                name.to_ascii_lowercase()
                            ),
                        ))
                    }
                    Some(_) => {
                        return Err(SqlError::syntax(format!(
                            "You have an error in your SQL syntax; check the manual that \
                             corresponds to your MariaDB server version for the right syntax \
                             to use near '{written}'"
                        )))
                    }
                };
                let f = match name.as_str() {
                    "SYSDATE" => Func::SysDate,
                    "CURTIME" | "CURRENT_TIME" => Func::CurTime,
                    "UTC_TIME" => Func::UtcTime,
                    "UTC_TIMESTAMP" => Func::UtcTimestamp,
                    _ => Func::Now,
                };
                let args = if fsp > 0 {
                    vec![Expr::Lit(Value::Int(fsp))]
                } else {
                    Vec::new()
                };
                return Ok(Expr::Func(f, args));
            }
            "CURDATE" | "CURRENT_DATE" => (Func::CurDate, 0..=0),
            "UTC_DATE" => (Func::UtcDate, 0..=0),
            "UNIX_TIMESTAMP" if a.is_empty() => (Func::UnixTimestamp, 0..=0),
            "UNIX_TIMESTAMP" if a.len() == 1 && self.stored_timestamp(&a[0]).is_some() => {
                let digits = match self.describe(&a[0]) {
                    c if c.kind == ColumnKind::DateTime => c.fsp,
                    _ => 0,
                };
                let stored = self.stored_timestamp(&a[0]).cloned().expect("a column");
                return Ok(Expr::Func(
                    Func::UnixTimestampOfStored(digits),
                    vec![stored],
                ));
            }
            "UNIX_TIMESTAMP" if a.len() == 1 => {
                let digits = self.datetime_precision(&a[0]);
                return Ok(Expr::Func(Func::UnixTimestampOf(digits), a));
            }
            // TIMESTAMP(x[, t]): x as a DATETIME (its fraction's digits
            // for a literal), t added.
            "TIMESTAMP" => {
                want(1..=2)?;
                let mut a = a.into_iter();
                let x = a.next().expect("one");
                let datetime = match &x {
                    Expr::Lit(Value::Bytes(b)) => {
                        let fraction = b.iter().position(|&c| c == b'.').map_or(0, |dot| {
                            b[dot + 1..]
                                .iter()
                                .take_while(|c| c.is_ascii_digit())
                                .count()
                        });
                        Expr::Cast(Box::new(x), CastType::DateTime(fraction.min(6) as u8))
                    }
                    _ => match x.kind(self.scope, &[]) {
                        ColumnKind::DateTime => x,
                        ColumnKind::Date => Expr::Cast(Box::new(x), CastType::DateTime(0)),
                        _ if matches!(x, Expr::Lit(_)) => {
                            Expr::Cast(Box::new(x), CastType::DateTime(0))
                        }
                        _ => Expr::Cast(Box::new(x), CastType::DateTime(6)),
                    },
                };
                return Ok(match a.next() {
                    Some(t) => Expr::Func(
                        Func::Builtin(crate::function::lookup("ADDTIME").expect("a builtin")),
                        vec![datetime, t],
                    ),
                    None => datetime,
                });
            }
            "MOD" => {
                want(2..=2)?;
                let mut a = a.into_iter();
                let (x, y) = (a.next().expect("two"), a.next().expect("two"));
                return Ok(Expr::Arith(ArithOp::Mod, Box::new(x), Box::new(y)));
            }
            other => match crate::function::lookup(other) {
                Some(b) => (Func::Builtin(b), b.arity.0..=b.arity.1),
                // Named in the current database, as MariaDB names it.
                None => {
                    let name = match &self.facts.database {
                        Some(db) if !name.contains('.') => format!("{db}.{name}"),
                        _ => name.to_string(),
                    };
                    return Err(SqlError::new(
                        1305,
                        "42000",
                        format!("FUNCTION {name} does not exist"),
                    ));
                }
            },
        };
        want(func.1)?;
        let mut a = a;
        match func.0 {
            Func::Coalesce => self.dates_widened(&mut a),
            Func::If => self.dates_widened(&mut a[1..]),
            _ => {}
        }
        if let Func::Builtin(b) = func.0 {
            if crate::function::json::wrong_count(b.name(), a.len()) {
                return Err(SqlError::wrong_arguments(&written));
            }
            if b.json_arguments {
                a.insert(0, self.json_letters(&args, &a));
            }
        }
        Ok(self.call(func.0, a))
    }

    /// Values that meet in one (COALESCE, IF): where DATEs meet DATETIMEs
    /// the DATEs become DATETIMEs, as MariaDB gives them.
    fn dates_widened(&self, values: &mut [Expr]) {
        let aggs = self.aggs.as_deref().unwrap_or(&[]);
        let kinds: Vec<ColumnKind> = values.iter().map(|v| v.kind(self.scope, aggs)).collect();
        if kinds.contains(&ColumnKind::DateTime) && kinds.contains(&ColumnKind::Date) {
            for (v, k) in values.iter_mut().zip(kinds) {
                if k == ColumnKind::Date {
                    let date = std::mem::replace(v, Expr::Lit(Value::Null));
                    *v = Expr::Cast(Box::new(date), CastType::DateTime(0));
                }
            }
        }
    }

    /// The letters a function that writes values into JSON is passed
    /// first (see [`Builtin::json_arguments`]): one per argument, from
    /// the argument as written and as compiled.
    fn json_letters(&self, args: &[&ast::FunctionArg], compiled: &[Expr]) -> Expr {
        let letters: String = args
            .iter()
            .zip(compiled)
            .map(|(arg, compiled)| match (arg, compiled) {
                // A column declared JSON.
                (_, Expr::Col(i)) if self.scope.get(*i).is_some_and(|c| c.json) => 'j',
                (ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)), _) => {
                    crate::function::json::argument_letter(e)
                }
                _ => 's',
            })
            .collect();
        Expr::Lit(Value::str(&letters))
    }

    /// `e`'s column as a result would define it.
    fn describe(&self, e: &Expr) -> crate::result::Column {
        e.describe(self.scope, self.aggs.as_deref().unwrap_or(&[]))
    }

    /// The digits of a second `e` has read as a datetime (MariaDB's
    /// `datetime_precision`): a temporal column's or NOW(n)'s own, a
    /// constant string's (six where it reads as no date), a number's
    /// scale, other strings' and DOUBLEs' decimals (at most six).
    fn datetime_precision(&self, e: &Expr) -> u8 {
        match e {
            Expr::Lit(Value::Null) => 0,
            // Read without the warnings the value raises when it runs.
            Expr::Lit(v @ Value::Bytes(b)) => {
                match lineardb_table::temporal_text::read_datetime(&String::from_utf8_lossy(b)) {
                    Some(_) => interval_base_digits(e, v),
                    None => 6,
                }
            }
            _ => {
                let c = self.describe(e);
                match c.kind {
                    ColumnKind::DateTime | ColumnKind::Time => c.fsp,
                    ColumnKind::Date | ColumnKind::Int | ColumnKind::UInt => 0,
                    ColumnKind::Decimal { scale } => scale.min(6),
                    // An expression's decimals (NOT_FIXED_DEC for most, 0
                    // for CAST … AS CHAR), a column's NOT_FIXED_DEC.
                    ColumnKind::Double | ColumnKind::Text(_) if c.data_type.is_some() => 6,
                    ColumnKind::Double => c.decimals.unwrap_or(6).min(6),
                    ColumnKind::Text(_) => c.decimals.unwrap_or(0).min(6),
                }
            }
        }
    }

    /// FLOOR or CEIL `call` of a DECIMAL whose whole part fits a BIGINT
    /// (as MariaDB types the result: a LONG or LONGLONG), as an integer.
    fn whole_number(&self, call: Expr) -> Expr {
        let aggs = self.aggs.as_deref().unwrap_or(&[]);
        let Expr::Func(_, args) = &call else {
            return call;
        };
        let decimal = matches!(args[0].kind(self.scope, aggs), ColumnKind::Decimal { .. });
        if decimal && call.describe(self.scope, aggs).kind == ColumnKind::Int {
            return Expr::Func(Func::AsInteger, vec![call]);
        }
        call
    }

    /// The call of `f` on `args`. Functions that count or rearrange
    /// characters work on bytes when their strings meet in the binary
    /// character set, as MariaDB's do: the strings' bytes are read as
    /// characters one each and the result's characters written back as
    /// bytes; UPPER and LOWER leave binary strings as they are.
    fn call(&self, f: Func, args: Vec<Expr>) -> Expr {
        // Functions comparing strings take the collation they meet in.
        let f = match f {
            Func::Builtin(b) if b.is_collated() => {
                Func::Collated(b, self.collation_of(&args.iter().collect::<Vec<_>>()))
            }
            Func::NullIf(_) => Func::NullIf(self.collation_of(&args.iter().collect::<Vec<_>>())),
            f => f,
        };
        let args = match f {
            Func::Abs | Func::Round | Func::Floor | Func::Ceil | Func::Bitwise(_) => {
                args.into_iter().map(|a| self.numeric_operand(a)).collect()
            }
            // RAND(constant seed): one sequence per call site.
            Func::Builtin(b) if b.name() == "RAND" && args.len() == 1 && args[0].is_constant() => {
                let seed = args.into_iter().map(|a| self.numeric_operand(a));
                let site = crate::function::random::new_site();
                seed.chain([Expr::Lit(Value::UInt(site))]).collect()
            }
            Func::Builtin(b) if b.numeric_arguments => {
                args.into_iter().map(|a| self.numeric_operand(a)).collect()
            }
            // GREATEST and LEAST compare as numbers beside a number, a
            // `0x` literal as a DOUBLE (its string kind meeting a number).
            Func::Collated(b, _)
                if matches!(b.name(), "GREATEST" | "LEAST")
                    && args.iter().any(|a| self.is_number(a)) =>
            {
                args.into_iter()
                    .map(|a| match a.hex_hybrid_as_number() {
                        Expr::Lit(Value::UInt(n)) => Expr::Lit(Value::Double(n as f64)),
                        other => other,
                    })
                    .collect()
            }
            _ => args,
        };
        let counts_characters = match f {
            Func::CharLength | Func::Upper | Func::Lower | Func::Substring => true,
            Func::Builtin(b) | Func::Collated(b, _) => b.counts_characters,
            _ => false,
        };
        if matches!(f, Func::Floor | Func::Ceil) {
            return self.whole_number(Expr::Func(f, args));
        }
        if !counts_characters
            || self.collation_of(&args.iter().collect::<Vec<_>>()) != Collation::Binary
        {
            return Expr::Func(f, args);
        }
        let aggs = self.aggs.as_deref().unwrap_or(&[]);
        match f {
            Func::Upper | Func::Lower => args.into_iter().next().expect("one argument"),
            Func::CharLength => Expr::Func(Func::Length, args),
            _ => {
                let args = args
                    .into_iter()
                    .map(|a| match a.kind(self.scope, aggs) {
                        ColumnKind::Text(_) => Expr::Func(Func::BytesAsChars, vec![a]),
                        _ => a,
                    })
                    .collect();
                let call = Expr::Func(f, args);
                match call.kind(self.scope, aggs) {
                    ColumnKind::Text(_) => Expr::Func(Func::CharsAsBytes, vec![call]),
                    _ => call,
                }
            }
        }
    }
}

/// A string cast to CHAR(n) (`n` characters) or BINARY(n) (`n` bytes,
/// padded with zero bytes): what it cuts off warns 1292, as MariaDB.
fn cut_to_length(mut bytes: Vec<u8>, collation: Collation, n: usize) -> Vec<u8> {
    let binary = collation == Collation::Binary;
    let end = if binary {
        n
    } else {
        String::from_utf8_lossy(&bytes)
            .char_indices()
            .nth(n)
            .map_or(usize::MAX, |(at, _)| at)
    };
    if bytes.len() > end {
        let word = if binary { "BINARY" } else { "CHAR" };
        warnings::truncated_number(&format!("{word}({n})"), &bytes, false);
        bytes.truncate(end);
    } else if binary {
        bytes.resize(n, 0);
    }
    bytes
}

/// The comparison a binary operator is, if it is one.
fn cmp_op(op: &ast::BinaryOperator) -> Option<CmpOp> {
    use ast::BinaryOperator as B;
    Some(match op {
        B::Eq => CmpOp::Eq,
        B::NotEq => CmpOp::Ne,
        B::Lt => CmpOp::Lt,
        B::LtEq => CmpOp::Le,
        B::Gt => CmpOp::Gt,
        B::GtEq => CmpOp::Ge,
        B::Spaceship => CmpOp::NullSafeEq,
        _ => return None,
    })
}

/// The target type of CAST / CONVERT.
fn cast_type(t: &ast::DataType, operand: &str) -> Result<CastType> {
    use ast::DataType as D;
    Ok(match t {
        D::Signed | D::SignedInteger | D::Int(_) | D::Integer(_) | D::BigInt(_) => CastType::Signed,
        D::Unsigned | D::UnsignedInteger => CastType::Unsigned,
        D::Decimal(info) | D::Dec(info) | D::Numeric(info) => {
            let (p, s) = crate::decimal_type::decimal_digits(info, operand, "")?;
            CastType::Decimal(p, s)
        }
        D::Double(ast::ExactNumberInfo::None) | D::DoublePrecision | D::Real => CastType::Double,
        // FLOAT rounds to single precision: not done yet.
        D::Char(None) | D::Character(None) => CastType::Char(Collation::default(), None),
        D::Char(Some(ast::CharacterLength::IntegerLength { length, .. }))
        | D::Character(Some(ast::CharacterLength::IntegerLength { length, .. })) => {
            CastType::Char(Collation::default(), Some(cast_length(*length)?))
        }
        D::Binary(None) => CastType::Char(Collation::Binary, None),
        D::Binary(Some(length)) => CastType::Char(Collation::Binary, Some(cast_length(*length)?)),
        D::Date => CastType::Date,
        D::Datetime(fsp) => CastType::DateTime(cast_fsp(*fsp, operand)?),
        D::Time(fsp, ast::TimezoneInfo::None) => CastType::Time(cast_fsp(*fsp, operand)?),
        other => return Err(SqlError::unsupported(format!("CAST AS {other}"))),
    })
}

/// The length of CAST AS CHAR(n) or BINARY(n): at most a string's
/// (MariaDB's 1439 past that).
fn cast_length(length: u64) -> Result<u32> {
    u32::try_from(length)
        .ok()
        .filter(|&n| n as usize <= crate::MAX_STRING_BYTES)
        .ok_or_else(|| {
            SqlError::new(
                1439,
                "42000",
                format!("Display width out of range for 'CAST' (max = {})", u32::MAX),
            )
        })
}

/// The digits of a second's fraction CAST AS DATETIME(n) or TIME(n)
/// keeps: at most 6 (MariaDB's 1426 past that, naming the operand).
fn cast_fsp(fsp: Option<u64>, operand: &str) -> Result<u8> {
    match fsp.unwrap_or(0) {
        n @ 0..=6 => Ok(n as u8),
        _ => {
            // A string literal is named by its value.
            let name = operand
                .strip_prefix('\'')
                .and_then(|o| o.strip_suffix('\''))
                .unwrap_or(operand);
            Err(SqlError::new(
                1426,
                "42000",
                format!("Too big precision specified for '{name}'. Maximum is 6"),
            ))
        }
    }
}

/// Microseconds in the last digit `fsp` digits of a second keep.
fn fraction_unit(fsp: u8) -> i64 {
    10i64.pow(6 - u32::from(fsp.min(6)))
}

/// `e` as an ORDER BY, GROUP BY or PARTITION BY key, given its kind: a
/// string of a collation other than binary is marked with it (`x COLLATE
/// c`), so that the key sorts ([`KeyOrder::of`]) and groups in it.
pub(crate) fn sort_keyed(e: Expr, kind: ColumnKind) -> Expr {
    match kind.collation() {
        Some(c) if c != Collation::Binary => Expr::Cast(Box::new(e), CastType::Collate(c)),
        _ => e,
    }
}

/// `e` as an ORDER BY or GROUP BY key: an ENUM or SET column of `scope`
/// sorts and groups by its member's number (its bit mask), as MariaDB's
/// do; other values as [`sort_keyed`] keys them.
pub(crate) fn order_keyed(e: Expr, kind: ColumnKind, scope: &[ScopeColumn]) -> Expr {
    if let Expr::Col(i) = &e {
        if let Some(t) = scope.get(*i).and_then(|c| c.numbered) {
            return Expr::Cast(Box::new(e), CastType::MemberNumber(t));
        }
    }
    sort_keyed(e, kind)
}

impl Expr {
    /// A stored TIMESTAMP column without the conversion to the session's
    /// zone the compiler put on it (a column read as it is stored).
    pub(crate) fn without_zone(&self) -> &Expr {
        match self {
            Expr::Func(Func::FromStoredTimestamp(_), args) => &args[0],
            other => other,
        }
    }

    /// A sort key without the collation mark [`sort_keyed`] put on it.
    pub(crate) fn unmarked(&self) -> &Expr {
        match self {
            Expr::Cast(x, CastType::Collate(_)) => x,
            other => other,
        }
    }

    /// The value given to a column of type `t` by a session in `zone`: a
    /// `0x` literal is a number to a numeric column (MariaDB stores `0x41`
    /// in an INT as 65); a time of the session's zone is a TIMESTAMP's
    /// stored time of the server's zone.
    pub(crate) fn stored_in(self, t: &lineardb_table::DataType, zone: clock::Zone) -> Expr {
        use lineardb_table::DataType as T;
        match t {
            T::Timestamp => match zone.for_timestamps() {
                Some(zone) => Expr::Func(Func::ToStoredTimestamp(zone), vec![self]),
                None => self,
            },
            T::Decimal { .. } | T::Double | T::Float => self.hex_hybrid_as_number(),
            t if t.is_integer() => self.hex_hybrid_as_number(),
            _ => self,
        }
    }

    /// A `0x` literal as the number it reads as (the unsigned value of its
    /// last eight bytes, as MariaDB's hex hybrid); any other expression as
    /// it is.
    pub(crate) fn hex_hybrid_as_number(self) -> Expr {
        match self {
            Expr::Cast(x, CastType::HexHybrid) => match *x {
                Expr::Lit(Value::Bytes(b)) => Expr::Lit(Value::UInt(
                    b[b.len().saturating_sub(8)..]
                        .iter()
                        .fold(0, |n, &byte| n << 8 | u64::from(byte)),
                )),
                other => Expr::Cast(Box::new(other), CastType::HexHybrid),
            },
            other => other,
        }
    }
}

/// How one sort key orders: its direction and the collation its strings
/// compare in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyOrder {
    pub descending: bool,
    pub collation: Collation,
}

impl KeyOrder {
    /// Ascending, strings by their bytes (row keys, places).
    pub(crate) const BYTES: KeyOrder = KeyOrder::bytes(false);

    /// Strings by their bytes, in this direction.
    pub(crate) const fn bytes(descending: bool) -> KeyOrder {
        KeyOrder {
            descending,
            collation: Collation::Binary,
        }
    }

    /// The order of sort key `key` (a string's collation as
    /// [`sort_keyed`] marks it).
    pub(crate) fn of(key: &Expr, descending: bool) -> KeyOrder {
        KeyOrder {
            descending,
            collation: match key {
                Expr::Cast(_, CastType::Collate(c)) => *c,
                _ => Collation::Binary,
            },
        }
    }
}

/// ORDER BY's order of two rows' sort keys: key by key, NULLs first,
/// strings in each key's collation, reversed where the key descends.
/// Inlined into the sorts' comparators (a call per comparison costs read
/// queries' ORDER BY about 1.5% of their instructions).
#[inline(always)]
pub(crate) fn sort_order(a: &[Value], b: &[Value], orders: &[KeyOrder]) -> Ordering {
    for (i, order) in orders.iter().enumerate() {
        let o = match (a[i].is_null(), b[i].is_null()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => compare(&a[i], &b[i], order.collation).unwrap_or(Ordering::Equal),
        };
        let o = if order.descending { o.reverse() } else { o };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

/// `NOT x` when `negated`.
fn not_if(negated: bool, x: Expr) -> Expr {
    if negated {
        Expr::Not(Box::new(x))
    } else {
        x
    }
}

fn truth(e: Expr) -> Expr {
    Expr::Cmp(
        CmpOp::Ne,
        Box::new(e),
        Box::new(Expr::Lit(Value::Int(0))),
        Collation::default(),
    )
}

/// A literal from the parser.
pub(crate) fn literal(v: &ast::Value) -> Result<Value> {
    Ok(match v {
        ast::Value::Number(s, _) => number(s)?,
        ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
            Value::Bytes(crate::parser::wire_text::literal_bytes(s))
        }
        ast::Value::HexStringLiteral(h) => Value::Bytes(
            (0..h.len() / 2)
                .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16))
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| SqlError::syntax(format!("bad hex literal X'{h}'")))?,
        ),
        // A bit literal is a number here (MariaDB's is a binary string that
        // reads as a number where one is wanted).
        ast::Value::SingleQuotedByteStringLiteral(bits) => {
            let literal = format!("b'{bits}'");
            match lineardb_table::types::parse_bit_literal(&literal) {
                Some(n) if bits.bytes().all(|b| b == b'0' || b == b'1') => Value::UInt(n),
                _ => return Err(SqlError::unsupported(format!("bit literal {literal}"))),
            }
        }
        ast::Value::Boolean(b) => Value::Int(*b as i64),
        ast::Value::Null => Value::Null,
        other => return Err(SqlError::unsupported(format!("literal {other}"))),
    })
}

fn number(s: &str) -> Result<Value> {
    // `0x41` (see `parser::dialect`): its bytes, an odd digit count read
    // with a leading 0 as MariaDB reads it.
    if let Some(digits) = s.strip_prefix("0x") {
        let padded = format!("{}{digits}", "0".repeat(digits.len() % 2));
        return literal(&ast::Value::HexStringLiteral(padded));
    }
    if let Ok(i) = s.parse::<i64>() {
        return Ok(Value::Int(i));
    }
    if let Ok(u) = s.parse::<u64>() {
        return Ok(Value::UInt(u));
    }
    if s.contains(['e', 'E']) {
        return s
            .parse::<f64>()
            .map(Value::Double)
            .map_err(|_| SqlError::syntax(format!("bad number {s}")));
    }
    // Past 76 digits a number is kept as a double.
    Dec::parse(s)
        .map(Value::Decimal)
        .or_else(|| s.parse::<f64>().ok().map(Value::Double))
        .ok_or_else(|| SqlError::syntax(format!("bad number {s}")))
}

/// A string constant compared with a column of kind `kind`, converted
/// once the way [`compare`] would convert it on every row.
fn constant_for(kind: ColumnKind, v: Value) -> Value {
    let Value::Bytes(b) = &v else { return v };
    match kind {
        ColumnKind::Int | ColumnKind::UInt => numeric_read_as(&v, NumberReading::Decimal),
        ColumnKind::Decimal { .. } | ColumnKind::Double => numeric(&v),
        ColumnKind::Date | ColumnKind::DateTime => {
            // A datetime with its time and fraction; a date when it has no
            // time of day (a DATE column then compares as a date).
            let t = compared_as_datetime(&String::from_utf8_lossy(b));
            if kind == ColumnKind::Date && t % MICROS_PER_DAY == 0 {
                Value::Date(t.div_euclid(MICROS_PER_DAY) as i32)
            } else {
                Value::DateTime(t)
            }
        }
        ColumnKind::Time => time_text(b).map_or(v, Value::Time),
        _ => v,
    }
}

impl Expr {
    /// This expression for one execution: parameters become literals, and
    /// a string literal compared with a numeric or date column is converted
    /// to the column's kind once instead of on every row. `kind_of` gives a
    /// column's kind. Results are those of the unbound expression.
    pub(crate) fn bind(&self, params: &[Value], kind_of: &dyn Fn(usize) -> ColumnKind) -> Expr {
        let b = |e: &Expr| Box::new(e.bind(params, kind_of));
        let lit_for = |col: &Expr, e: &Expr| -> Expr {
            match (col, e.bind(params, kind_of)) {
                (Expr::Col(c), Expr::Lit(v)) => Expr::Lit(constant_for(kind_of(*c), v)),
                (_, other) => other,
            }
        };
        match self {
            Expr::Param(i) => Expr::Lit(params.get(*i).cloned().unwrap_or(Value::Null)),
            Expr::Cmp(op, x, y, c) => match (x.as_ref(), y.as_ref()) {
                (Expr::Col(_), _) => Expr::Cmp(*op, x.clone(), Box::new(lit_for(x, y)), *c),
                (_, Expr::Col(_)) => Expr::Cmp(*op, Box::new(lit_for(y, x)), y.clone(), *c),
                _ => Expr::Cmp(*op, b(x), b(y), *c),
            },
            Expr::Between(x, lo, hi, not, c) => Expr::Between(
                b(x),
                Box::new(lit_for(x, lo)),
                Box::new(lit_for(x, hi)),
                *not,
                *c,
            ),
            Expr::InList(x, list, not, c) => {
                Expr::InList(b(x), list.iter().map(|e| lit_for(x, e)).collect(), *not, *c)
            }
            Expr::Arith(op, x, y) => Expr::Arith(*op, b(x), b(y)),
            Expr::And(x, y) => Expr::And(b(x), b(y)),
            Expr::Or(x, y) => Expr::Or(b(x), b(y)),
            Expr::Not(x) => Expr::Not(b(x)),
            Expr::Neg(x) => Expr::Neg(b(x)),
            Expr::IsNull(x, not) => Expr::IsNull(b(x), *not),
            Expr::Like(x, y, not, c) => Expr::Like(b(x), b(y), *not, *c),
            Expr::Func(f, args) => {
                Expr::Func(*f, args.iter().map(|e| e.bind(params, kind_of)).collect())
            }
            Expr::Interval(u, x) => Expr::Interval(*u, b(x)),
            Expr::Case(o, whens, otherwise, c) => Expr::Case(
                o.as_ref().map(|x| b(x)),
                whens
                    .iter()
                    .map(|(w, t)| (w.bind(params, kind_of), t.bind(params, kind_of)))
                    .collect(),
                otherwise.as_ref().map(|x| b(x)),
                *c,
            ),
            // The connection collation's mark has done its work (the
            // collations a comparison or function meets in are chosen):
            // the literal itself, which binds as any other.
            Expr::Cast(x, CastType::Literal(_) | CastType::Shown(_)) => x.bind(params, kind_of),
            Expr::Cast(x, t) => Expr::Cast(b(x), *t),
            Expr::Subquery(sub, test) => {
                Expr::Subquery(sub.clone(), test.map_operands(|x| x.bind(params, kind_of)))
            }
            Expr::Col(_) | Expr::Lit(_) | Expr::Agg(_) | Expr::Window(_) => self.clone(),
        }
    }
}

/// The conjuncts of a WHERE clause.
pub(crate) fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        other => out.push(other),
    }
}

/// A string compared with a date or datetime, read as one as MariaDB reads
/// it there: with its warning for text after the date (cut off) or for
/// what is no date, which compares as the zero date.
fn compared_as_datetime(text: &str) -> i64 {
    use lineardb_table::temporal_text::TextFit;
    let read = lineardb_table::temporal_text::read_datetime(text);
    let (code, word) = match read {
        Some(t) if t.fit == TextFit::Whole => return t.micros,
        Some(t) if t.fit == TextFit::ExtraDigits => {
            (warnings::TRUNCATED | warnings::NOTE_LEVEL, "datetime")
        }
        Some(t) if !t.has_time => (warnings::TRUNCATED, "date"),
        _ => (warnings::TRUNCATED, "datetime"),
    };
    warnings::raise(code, &format!("Truncated incorrect {word} value: '{text}'"));
    read.map_or(lineardb_table::types::ZERO_DATETIME, |t| t.micros)
}

/// SQL comparison, strings in `collation`; `None` if either side is NULL.
pub(crate) fn compare(a: &Value, b: &Value, collation: Collation) -> Option<Ordering> {
    match (a, b) {
        (Value::Null, _) | (_, Value::Null) => None,
        (Value::Bytes(x), Value::Bytes(y)) => Some(collation.compare(x, y)),
        (Value::Date(_) | Value::DateTime(_), Value::Bytes(s))
        | (Value::Bytes(s), Value::Date(_) | Value::DateTime(_)) => {
            // As datetimes (a date at midnight), the string read as one
            // with its time and fraction, or as a date.
            let text = String::from_utf8_lossy(s);
            let micros = |v: &Value| match v {
                Value::Date(d) => Some(*d as i64 * lineardb_table::types::MICROS_PER_DAY),
                Value::DateTime(t) => Some(*t),
                _ => None,
            };
            let other = compared_as_datetime(&text);
            match (micros(a), micros(b)) {
                (Some(x), None) => Some(x.cmp(&other)),
                (None, Some(y)) => Some(other.cmp(&y)),
                _ => a.sql_cmp(b),
            }
        }
        // A date and a number: the date as its number (YYYYMMDD[hhmmss]).
        (
            Value::Date(_) | Value::DateTime(_),
            Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_),
        ) => numeric(a).sql_cmp(b),
        (
            Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_),
            Value::Date(_) | Value::DateTime(_),
        ) => a.sql_cmp(&numeric(b)),
        // As times, when the string reads as one.
        (Value::Time(t), Value::Bytes(s)) => match time_text(s) {
            Some(u) => Some(t.cmp(&u)),
            None => a.sql_cmp(&numeric(b)),
        },
        (Value::Bytes(s), Value::Time(u)) => match time_text(s) {
            Some(t) => Some(t.cmp(u)),
            None => numeric(a).sql_cmp(b),
        },
        // Beside an integer a string reads as a DECIMAL (MariaDB's
        // warning names it), else as a DOUBLE.
        (Value::Bytes(_), _) => numeric_read_as(a, reading_beside(b)).sql_cmp(b),
        (_, Value::Bytes(_)) => a.sql_cmp(&numeric_read_as(b, reading_beside(a))),
        _ => a.sql_cmp(b),
    }
}

/// How a string compared with `other` reads as a number.
fn reading_beside(other: &Value) -> NumberReading {
    match other {
        Value::Int(_) | Value::UInt(_) => NumberReading::Decimal,
        _ => NumberReading::Double,
    }
}

/// A string read as a TIME (None: it is not one).
fn time_text(s: &[u8]) -> Option<i64> {
    lineardb_table::types::parse_time(std::str::from_utf8(s).ok()?)
}

/// A character's upper case as MariaDB maps it: one character for one
/// (`ß` and `ﬁ` stay, where full case mapping would make two).
fn simple_upper(c: char) -> char {
    let mut up = c.to_uppercase();
    match (up.next(), up.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// A character's lower case, one for one (`İ` becomes `i`).
fn simple_lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// MySQL truth: NULL is unknown (`None`).
pub(crate) fn truth_of(v: &Value) -> Option<bool> {
    match v {
        Value::Null => None,
        Value::Int(i) => Some(*i != 0),
        Value::UInt(u) => Some(*u != 0),
        Value::Decimal(d) => Some(!d.is_zero()),
        Value::Double(f) => Some(*f != 0.0),
        Value::Date(_) | Value::DateTime(_) => Some(true),
        Value::Time(t) => Some(*t != 0),
        Value::Bytes(_) => truth_of(&numeric(v)),
    }
}

fn bool_value(b: Option<bool>) -> Value {
    match b {
        None => Value::Null,
        Some(b) => Value::Int(b as i64),
    }
}

fn as_dec(v: &Value) -> Option<Dec> {
    match v {
        Value::Int(i) => Some(Dec::new(*i as i128, 0)),
        Value::UInt(u) => Some(Dec::new(*u as i128, 0)),
        Value::Decimal(d) => Some(*d),
        _ => None,
    }
}

thread_local! {
    /// The running statement's stop flag (KILL QUERY, max_statement_time),
    /// for functions that wait (SLEEP).
    static STOP: std::cell::RefCell<Option<std::sync::Arc<lineardb_sync::SharedFlag>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` (a statement) with `stop` as the flag SLEEP watches.
pub(crate) fn with_stop<T>(
    stop: &std::sync::Arc<lineardb_sync::SharedFlag>,
    f: impl FnOnce() -> T,
) -> T {
    let previous = STOP.with(|s| s.replace(Some(stop.clone())));
    let r = f();
    STOP.with(|s| *s.borrow_mut() = previous);
    r
}

fn stopped() -> bool {
    STOP.with(|s| s.borrow().as_ref().is_some_and(|f| f.get()))
}

/// NULL with warning 1365, or error 1365 where a division by zero fails
/// the statement.
fn division_by_zero() -> Result<Value> {
    if warnings::division_fails() {
        return Err(SqlError::new(1365, "22012", "Division by 0"));
    }
    warnings::raise(warnings::DIVISION_BY_ZERO, "Division by 0");
    Ok(Value::Null)
}

/// Integer arithmetic as MySQL does it: unsigned when either operand is
/// (an out-of-range result is error 1690, never a wrapped or widened value).
fn integer_arith(op: ArithOp, a: &Value, b: &Value) -> Result<Value> {
    let wide = |v: &Value| match v {
        Value::Int(i) => *i as i128,
        Value::UInt(u) => *u as i128,
        _ => 0,
    };
    let unsigned = matches!(a, Value::UInt(_)) || matches!(b, Value::UInt(_));
    let (x, y) = (wide(a), wide(b));
    let r = match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::IntDiv | ArithOp::Mod if y == 0 => return division_by_zero(),
        ArithOp::IntDiv => x.checked_div(y),
        ArithOp::Mod => x.checked_rem(y),
        ArithOp::Div => unreachable!("exact division is decimal"),
    };
    if unsigned {
        r.and_then(|r| u64::try_from(r).ok())
            .map(Value::UInt)
            .ok_or_else(|| SqlError::out_of_range("BIGINT UNSIGNED"))
    } else {
        r.and_then(|r| i64::try_from(r).ok())
            .map(Value::Int)
            .ok_or_else(|| SqlError::out_of_range("BIGINT"))
    }
}

pub(crate) fn arith(op: ArithOp, a: &Value, b: &Value) -> Result<Value> {
    if a.is_null() || b.is_null() {
        return Ok(Value::Null);
    }
    let (a, b) = (numeric(a), numeric(b));
    match (&a, &b) {
        (Value::Double(_), _) | (_, Value::Double(_)) => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            let r = match op {
                ArithOp::Add => x + y,
                ArithOp::Sub => x - y,
                ArithOp::Mul => x * y,
                ArithOp::Div | ArithOp::IntDiv | ArithOp::Mod if y == 0.0 => {
                    return division_by_zero()
                }
                ArithOp::Div => x / y,
                ArithOp::IntDiv => {
                    let q = (x / y).trunc();
                    if !(i64::MIN as f64..=i64::MAX as f64).contains(&q) {
                        return Err(SqlError::out_of_range("BIGINT"));
                    }
                    return Ok(Value::Int(q as i64));
                }
                ArithOp::Mod => x % y,
            };
            if !r.is_finite() {
                return Err(SqlError::out_of_range("DOUBLE"));
            }
            Ok(Value::Double(r))
        }
        (Value::Int(_) | Value::UInt(_), Value::Int(_) | Value::UInt(_)) if op != ArithOp::Div => {
            integer_arith(op, &a, &b)
        }
        _ => {
            let (Some(x), Some(y)) = (as_dec(&a), as_dec(&b)) else {
                return Ok(Value::Null);
            };
            let dec_overflow = || SqlError::out_of_range("DECIMAL");
            Ok(match op {
                ArithOp::Add => Value::Decimal(x.checked_add(y).ok_or_else(dec_overflow)?),
                ArithOp::Sub => Value::Decimal(x.checked_sub(y).ok_or_else(dec_overflow)?),
                ArithOp::Mul => Value::Decimal(x.checked_mul(y).ok_or_else(dec_overflow)?),
                ArithOp::Div => {
                    if y.is_zero() {
                        return division_by_zero();
                    }
                    // MariaDB: the dividend's scale plus 4
                    // (div_precision_increment).
                    let scale = (x.scale + 4).min(lineardb_table::types::MAX_DECIMAL_SCALE);
                    Value::Decimal(x.checked_div(y, scale).ok_or_else(dec_overflow)?)
                }
                ArithOp::IntDiv => {
                    if y.is_zero() {
                        return division_by_zero();
                    }
                    let q = x.checked_int_div(y).ok_or_else(dec_overflow)?;
                    Value::Int(
                        q.to_i128()
                            .and_then(|q| i64::try_from(q).ok())
                            .ok_or_else(|| SqlError::out_of_range("BIGINT"))?,
                    )
                }
                ArithOp::Mod => {
                    if y.is_zero() {
                        return division_by_zero();
                    }
                    Value::Decimal(x.checked_rem(y).ok_or_else(dec_overflow)?)
                }
            })
        }
    }
}

/// MySQL LIKE in the server's default collation (`%` any run, `_` one
/// character, `\` escapes): account hosts and database patterns.
pub(crate) fn like(text: &[u8], pattern: &[u8]) -> bool {
    Collation::default().like(text, pattern, '\\' as u32)
}

/// NULL with MariaDB's warning 1441, for a date past 9999-12-31 or before
/// 0001-01-01.
fn datetime_overflow() -> Value {
    warnings::raise(1441, "Datetime function: datetime field overflow");
    Value::Null
}

/// The digits of a second DATE_ADD's string or number argument `e` (of
/// value `v`) shows: a constant's own (at most six), a number column's
/// scale, six for a string that is not a constant (MariaDB's
/// `time_precision`).
pub(crate) fn interval_base_digits(e: &Expr, v: &Value) -> u8 {
    match (e, v) {
        (Expr::Lit(_) | Expr::Param(_), Value::Bytes(b)) => {
            let text = String::from_utf8_lossy(b);
            let time = text.trim().rsplit(':').next().unwrap_or_default();
            match time.split_once('.') {
                Some((_, fraction)) if text.contains(':') => fraction
                    .bytes()
                    .take_while(u8::is_ascii_digit)
                    .count()
                    .min(6) as u8,
                _ => 0,
            }
        }
        (_, Value::Int(_) | Value::UInt(_)) => 0,
        (_, Value::Decimal(d)) => d.scale.min(6),
        _ => 6,
    }
}

fn add_interval(base: &Value, unit: IntervalUnit, n: i64) -> Value {
    let micros = |d: i32| d as i64 * MICROS_PER_DAY;
    let (days, time, was_date) = match base {
        Value::Date(d) => (*d, 0i64, true),
        Value::DateTime(t) => (
            t.div_euclid(MICROS_PER_DAY) as i32,
            t.rem_euclid(MICROS_PER_DAY),
            false,
        ),
        // A text or number with a time of day stays a DATETIME
        // ('2020-01-01 00:00:00' plus a day is '2020-01-02 00:00:00').
        Value::Bytes(_) | Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
            match crate::function::arguments::read_temporal(base) {
                Some(t) => (
                    t.micros.div_euclid(MICROS_PER_DAY) as i32,
                    t.micros.rem_euclid(MICROS_PER_DAY),
                    !t.has_time,
                ),
                None => return Value::Null,
            }
        }
        _ => return Value::Null,
    };
    // The zero date is no point in time: nothing is added to it.
    if days == lineardb_table::types::ZERO_DATE {
        // (A number's zero is shown as a datetime.)
        let shown = if was_date && matches!(base, Value::Bytes(_) | Value::Date(_)) {
            Value::Date(days)
        } else {
            Value::DateTime(micros(days) + time)
        };
        warnings::incorrect_datetime(&shown.to_text().unwrap_or_default());
        return Value::Null;
    }
    let months = match unit {
        IntervalUnit::Month => Some(Some(n)),
        IntervalUnit::Quarter => Some(n.checked_mul(3)),
        IntervalUnit::Year => Some(n.checked_mul(12)),
        _ => None,
    };
    if let Some(m) = months {
        let (y, mo, d) = civil_from_days(days);
        let Some(total) = m.and_then(|m| (y as i64 * 12 + (mo as i64 - 1)).checked_add(m)) else {
            return datetime_overflow();
        };
        let (ny, nm) = (total.div_euclid(12), total.rem_euclid(12) as u32 + 1);
        if !(1..=9999).contains(&ny) {
            return datetime_overflow();
        }
        let ny = ny as i32;
        let next_first = if nm == 12 {
            days_from_civil(ny + 1, 1, 1)
        } else {
            days_from_civil(ny, nm + 1, 1)
        };
        let last_day = (next_first - days_from_civil(ny, nm, 1)) as u32;
        let nd = days_from_civil(ny, nm, d.min(last_day));
        return if was_date {
            Value::Date(nd)
        } else {
            Value::DateTime(micros(nd) + time)
        };
    }
    let unit_micros = match unit {
        IntervalUnit::Day => MICROS_PER_DAY,
        IntervalUnit::Week => 7 * MICROS_PER_DAY,
        IntervalUnit::Hour => 3_600_000_000,
        IntervalUnit::Minute => 60_000_000,
        IntervalUnit::Second => 1_000_000,
        IntervalUnit::Microsecond => 1,
        _ => unreachable!(),
    };
    let Some(delta) = n.checked_mul(unit_micros) else {
        return datetime_overflow();
    };
    let Some(t) = (micros(days) + time).checked_add(delta) else {
        return datetime_overflow();
    };
    let first = micros(days_from_civil(1, 1, 1));
    let end = micros(days_from_civil(10000, 1, 1));
    if !(first..end).contains(&t) {
        return datetime_overflow();
    }
    if was_date && delta % MICROS_PER_DAY == 0 {
        Value::Date(t.div_euclid(MICROS_PER_DAY) as i32)
    } else {
        Value::DateTime(t)
    }
}

impl Expr {
    pub fn eval<R: Row + ?Sized>(&self, row: &R, env: Env<'_>) -> Result<Value> {
        Ok(match self {
            Expr::Col(c) => row.get(*c),
            Expr::Lit(v) => v.clone(),
            Expr::Param(i) => env.params.get(*i).cloned().unwrap_or(Value::Null),
            Expr::Agg(i) => env.aggs.get(*i).cloned().unwrap_or(Value::Null),
            Expr::Window(_) => {
                return Err(SqlError::internal(
                    "a window function read outside the window stage",
                ))
            }
            Expr::Cmp(op, a, b, c) => {
                let (a, b) = (a.eval(row, env)?, b.eval(row, env)?);
                if *op == CmpOp::NullSafeEq {
                    return Ok(Value::Int(match (a.is_null(), b.is_null()) {
                        (true, true) => 1,
                        (false, false) => (compare(&a, &b, *c) == Some(Ordering::Equal)) as i64,
                        _ => 0,
                    }));
                }
                bool_value(compare(&a, &b, *c).map(|o| match op {
                    CmpOp::Eq => o == Ordering::Equal,
                    CmpOp::Ne => o != Ordering::Equal,
                    CmpOp::Lt => o == Ordering::Less,
                    CmpOp::Le => o != Ordering::Greater,
                    CmpOp::Gt => o == Ordering::Greater,
                    CmpOp::Ge => o != Ordering::Less,
                    CmpOp::NullSafeEq => unreachable!(),
                }))
            }
            Expr::Arith(op, a, b) => arith(*op, &a.eval(row, env)?, &b.eval(row, env)?)?,
            Expr::And(a, b) => {
                let x = truth_of(&a.eval(row, env)?);
                if x == Some(false) {
                    return Ok(Value::Int(0));
                }
                let y = truth_of(&b.eval(row, env)?);
                bool_value(match (x, y) {
                    (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                })
            }
            Expr::Or(a, b) => {
                let x = truth_of(&a.eval(row, env)?);
                if x == Some(true) {
                    return Ok(Value::Int(1));
                }
                let y = truth_of(&b.eval(row, env)?);
                bool_value(match (x, y) {
                    (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                })
            }
            Expr::Not(a) => bool_value(truth_of(&a.eval(row, env)?).map(|b| !b)),
            Expr::Neg(a) => match a.eval(row, env)? {
                // A DOUBLE's sign flips.
                Value::Double(f) => Value::Double(-f),
                // A string reads as a DOUBLE.
                v @ Value::Bytes(_) => arith(ArithOp::Sub, &Value::Double(0.0), &v)?,
                v => arith(ArithOp::Sub, &Value::Int(0), &v)?,
            },
            Expr::IsNull(a, negated) => {
                Value::Int((a.eval(row, env)?.is_null() != *negated) as i64)
            }
            Expr::Between(x, lo, hi, negated, c) => {
                let v = x.eval(row, env)?;
                let (l, h) = (lo.eval(row, env)?, hi.eval(row, env)?);
                let ge = compare(&v, &l, *c).map(|o| o != Ordering::Less);
                let le = compare(&v, &h, *c).map(|o| o != Ordering::Greater);
                let r = match (ge, le) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                };
                bool_value(r.map(|b| b != *negated))
            }
            Expr::InList(x, list, negated, c) => {
                let v = x.eval(row, env)?;
                if v.is_null() {
                    return Ok(Value::Null);
                }
                let mut saw_null = false;
                let mut found = false;
                // A string beside numbers is read as one number once (one
                // warning when it is not wholly a number, as MariaDB's).
                let mut v_as_number = None;
                for e in list {
                    let item = e.eval(row, env)?;
                    let needle = match (&v, &item) {
                        (
                            Value::Bytes(_),
                            Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_),
                        ) => &*v_as_number
                            .get_or_insert_with(|| numeric_read_as(&v, reading_beside(&item))),
                        _ => &v,
                    };
                    match compare(needle, &item, *c) {
                        Some(Ordering::Equal) => {
                            found = true;
                            break;
                        }
                        None => saw_null = true,
                        _ => {}
                    }
                }
                if found {
                    Value::Int(!*negated as i64)
                } else if saw_null {
                    Value::Null
                } else {
                    Value::Int(*negated as i64)
                }
            }
            Expr::Like(x, p, negated, c) => {
                let (v, p) = (x.eval(row, env)?, p.eval(row, env)?);
                match (v.to_text(), p.to_text()) {
                    (Some(v), Some(p)) => Value::Int(
                        (c.like(v.as_bytes(), p.as_bytes(), '\\' as u32) != *negated) as i64,
                    ),
                    _ => Value::Null,
                }
            }
            Expr::Interval(_, n) => n.eval(row, env)?,
            Expr::Func(f, args) => self.eval_func(*f, args, row, env)?,
            Expr::Case(operand, whens, otherwise, c) => {
                let operand = match operand {
                    Some(o) => Some(o.eval(row, env)?),
                    None => None,
                };
                for (when, then) in whens {
                    let w = when.eval(row, env)?;
                    let hit = match &operand {
                        Some(o) => compare(o, &w, *c) == Some(Ordering::Equal),
                        None => truth_of(&w) == Some(true),
                    };
                    if hit {
                        return then.eval(row, env);
                    }
                }
                match otherwise {
                    Some(e) => e.eval(row, env)?,
                    None => Value::Null,
                }
            }
            // A collation mark (on every string sort key) is the value.
            Expr::Cast(
                x,
                CastType::Collate(_)
                | CastType::BinaryLiteral
                | CastType::HexHybrid
                | CastType::Literal(_)
                | CastType::Shown(_),
            ) => x.eval(row, env)?,
            Expr::Cast(x, t) => cast_value(x.eval(row, env)?, *t),
            Expr::Subquery(sub, test) => eval_subquery(sub, test, row, env)?,
        })
    }

    fn eval_func<R: Row + ?Sized>(
        &self,
        f: Func,
        args: &[Expr],
        row: &R,
        env: Env<'_>,
    ) -> Result<Value> {
        let v0 = || args[0].eval(row, env);
        let day = |micros: i64| Value::Date(micros.div_euclid(MICROS_PER_DAY) as i32);
        // NOW(fsp) and the others: cut to `fsp` digits of a second.
        let digits = |micros: i64| {
            let fsp = match args.first() {
                Some(Expr::Lit(Value::Int(n))) => (*n).clamp(0, 6) as u8,
                _ => 0,
            };
            clock::to_digits(micros, fsp)
        };
        let time_of_day = |micros: i64| Value::Time(digits(micros).rem_euclid(MICROS_PER_DAY));
        Ok(match f {
            Func::Now => Value::DateTime(digits(clock::session_local(clock::statement_utc()))),
            Func::SysDate => Value::DateTime(digits(clock::session_local(clock::now_utc()))),
            Func::CurDate => day(clock::session_local(clock::statement_utc())),
            Func::CurTime => time_of_day(clock::session_local(clock::statement_utc())),
            Func::UtcTime => time_of_day(clock::statement_utc()),
            Func::UtcTimestamp => Value::DateTime(digits(clock::statement_utc())),
            Func::UtcDate => day(clock::statement_utc()),
            Func::UnixTimestamp => Value::Int(clock::statement_utc().div_euclid(1_000_000)),
            Func::UnixTimestampOfStored(digits) => match v0()? {
                Value::DateTime(lineardb_table::types::ZERO_DATETIME) => {
                    crate::function::datetime::seconds_since_epoch(0, digits)
                }
                Value::DateTime(t) => {
                    crate::function::datetime::seconds_since_epoch(clock::utc_of_local(t), digits)
                }
                _ => Value::Null,
            },
            Func::TypedParameter(_) => v0()?,
            Func::UnixTimestampOf(digits) => {
                crate::function::datetime::unix_timestamp_of(&v0()?, digits)
            }
            Func::FromStoredTimestamp(zone) => match v0()? {
                Value::DateTime(t) => Value::DateTime(zone.read_stored(t)),
                other => other,
            },
            Func::ToStoredTimestamp(zone) => {
                let v = v0()?;
                match lineardb_table::DataType::DateTime.coerce(v.clone(), "") {
                    Ok(Value::DateTime(t)) => Value::DateTime(zone.write_stored(t)),
                    _ => v,
                }
            }
            Func::Builtin(b) => {
                let values = args
                    .iter()
                    .map(|a| a.eval(row, env))
                    .collect::<Result<Vec<_>>>()?;
                b.call(&values, Collation::default())?
            }
            Func::Bitwise(op) => {
                let values = args
                    .iter()
                    .map(|a| a.eval(row, env))
                    .collect::<Result<Vec<_>>>()?;
                crate::function::bitwise::apply(op, &values)
            }
            Func::Collated(b, collation) => {
                let values = args
                    .iter()
                    .map(|a| a.eval(row, env))
                    .collect::<Result<Vec<_>>>()?;
                b.call(&values, collation)?
            }
            Func::SessionValue => args[0].eval(row, env)?,
            Func::UserVariable => match &args[0].eval(row, env)? {
                Value::Bytes(name) => user_variables::get(&String::from_utf8_lossy(name)),
                _ => Value::Null,
            },
            Func::SetUserVariable => {
                let v = args[1].eval(row, env)?;
                if let Value::Bytes(name) = &args[0].eval(row, env)? {
                    user_variables::set(&String::from_utf8_lossy(name), v.clone());
                }
                v
            }
            Func::RowCount => Value::Int(statement_results::row_count()),
            Func::LastInsertId => Value::UInt(statement_results::last_insert_id()),
            Func::GiveLastInsertId => {
                let v = v0()?;
                let id = match &v {
                    Value::Null => 0,
                    Value::Int(n) => *n as u64,
                    other => other.as_f64().map_or(0, |f| f as i64 as u64),
                };
                statement_results::give_id(id);
                Value::UInt(id)
            }
            Func::Sleep => {
                // Seconds (fractions allowed), at most an hour; returns 0.
                let secs = v0()?.as_f64().unwrap_or(0.0).clamp(0.0, 3600.0);
                let end = std::time::Instant::now() + std::time::Duration::from_secs_f64(secs);
                // In slices, so that KILL QUERY and max_statement_time stop it.
                loop {
                    if stopped() {
                        return Err(SqlError::interrupted());
                    }
                    let now = std::time::Instant::now();
                    if now >= end {
                        break;
                    }
                    std::thread::sleep((end - now).min(std::time::Duration::from_millis(10)));
                }
                Value::Int(0)
            }
            Func::Length => match v0()? {
                Value::Null => Value::Null,
                Value::Bytes(b) => Value::Int(b.len() as i64),
                v => Value::Int(v.to_text().map_or(0, |s| s.len()) as i64),
            },
            Func::CharLength => match v0()?.to_text() {
                None => Value::Null,
                Some(s) => Value::Int(s.chars().count() as i64),
            },
            Func::BytesAsChars => match v0()? {
                Value::Bytes(b) => Value::Bytes(
                    b.iter()
                        .map(|&x| x as char)
                        .collect::<String>()
                        .into_bytes(),
                ),
                v => v,
            },
            Func::CharsAsBytes => match v0()? {
                Value::Bytes(b) => match String::from_utf8(b) {
                    // Every character came from one byte (BytesAsChars) or
                    // from ASCII text.
                    Ok(s) => Value::Bytes(s.chars().map(|c| c as u32 as u8).collect()),
                    Err(e) => Value::Bytes(e.into_bytes()),
                },
                v => v,
            },
            Func::Upper | Func::Lower => match v0()?.to_text() {
                None => Value::Null,
                Some(s) => Value::str(&if f == Func::Upper {
                    s.chars().map(simple_upper).collect::<String>()
                } else {
                    s.chars().map(simple_lower).collect::<String>()
                }),
            },
            Func::Concat => {
                let mut out = Vec::new();
                for a in args {
                    match a.eval(row, env)? {
                        Value::Null => return Ok(Value::Null),
                        Value::Bytes(b) => out.extend_from_slice(&b),
                        v => out.extend_from_slice(v.to_text().unwrap_or_default().as_bytes()),
                    }
                }
                Value::Bytes(out)
            }
            Func::Repeat => {
                let (s, n) = (v0()?, args[1].eval(row, env)?);
                if s.is_null() || n.is_null() {
                    return Ok(Value::Null);
                }
                let count = match numeric(&n) {
                    Value::Int(i) => i.max(0) as usize,
                    Value::UInt(u) => u as usize,
                    Value::Decimal(d) => d
                        .round_to_i128()
                        .map_or(if d.is_negative() { 0 } else { usize::MAX }, |n| {
                            n.clamp(0, usize::MAX as i128) as usize
                        }),
                    Value::Double(x) => x.max(0.0).round() as usize,
                    _ => 0,
                };
                let unit = match s {
                    Value::Bytes(b) => b,
                    v => v.to_text().unwrap_or_default().into_bytes(),
                };
                if unit.len().saturating_mul(count) > crate::MAX_STRING_BYTES {
                    return Err(SqlError::new(
                        1301,
                        "HY000",
                        "Result of repeat() was larger than max_allowed_packet",
                    ));
                }
                Value::Bytes(unit.repeat(count))
            }
            Func::Substring => {
                let Some(s) = v0()?.to_text() else {
                    return Ok(Value::Null);
                };
                let Some(pos) = int_of(&args[1].eval(row, env)?) else {
                    return Ok(Value::Null);
                };
                let chars: Vec<char> = s.chars().collect();
                let n = chars.len() as i64;
                let start = if pos > 0 {
                    pos - 1
                } else if pos < 0 {
                    n + pos
                } else {
                    return Ok(Value::str(""));
                };
                if start < 0 || start >= n {
                    return Ok(Value::str(""));
                }
                let len = match args.get(2) {
                    Some(e) => match int_of(&e.eval(row, env)?) {
                        Some(l) => l.max(0),
                        None => return Ok(Value::Null),
                    },
                    None => n,
                };
                let end = (start + len).min(n);
                Value::str(
                    &chars[start as usize..end as usize]
                        .iter()
                        .collect::<String>(),
                )
            }
            Func::Abs => match numeric(&v0()?) {
                Value::Int(i) => Value::Int(
                    i.checked_abs()
                        .ok_or_else(|| SqlError::out_of_range("BIGINT"))?,
                ),
                Value::Decimal(d) => Value::Decimal(d.abs()),
                Value::Double(x) => Value::Double(x.abs()),
                v => v,
            },
            Func::AsInteger => match v0()? {
                Value::Decimal(d) => d
                    .round_to_i128()
                    .and_then(|n| i64::try_from(n).ok())
                    .map_or(Value::Decimal(d), Value::Int),
                v => v,
            },
            Func::Round | Func::Floor | Func::Ceil => {
                let digits = match args.get(1) {
                    Some(e) => int_of(&e.eval(row, env)?).unwrap_or(0).clamp(-77, 38) as i32,
                    None => 0,
                };
                match numeric(&v0()?) {
                    Value::Decimal(d) => Value::Decimal(match f {
                        Func::Round => d.round_digits(digits, false),
                        _ => d.floor_or_ceil(f == Func::Ceil),
                    }),
                    Value::Double(x) => {
                        let m = 10f64.powi(digits);
                        Value::Double(match f {
                            // Half to even, as MariaDB's rint().
                            Func::Round => (x * m).round_ties_even() / m,
                            Func::Floor => x.floor(),
                            _ => x.ceil(),
                        })
                    }
                    // A whole number rounds only to fewer digits; past
                    // BIGINT's range the result is a DECIMAL, as MariaDB's.
                    v @ (Value::Int(_) | Value::UInt(_)) if f == Func::Round && digits < 0 => {
                        let whole = match v {
                            Value::Int(i) => i as i128,
                            Value::UInt(u) => u as i128,
                            _ => unreachable!("matched above"),
                        };
                        let r = Dec::new(whole, 0).round_digits(digits, false);
                        let n = r.unscaled_i128().expect("a BIGINT rounded within i128");
                        match (i64::try_from(n), u64::try_from(n)) {
                            (Ok(i), _) if matches!(v, Value::Int(_)) => Value::Int(i),
                            (_, Ok(u)) if matches!(v, Value::UInt(_)) => Value::UInt(u),
                            _ => Value::Decimal(r),
                        }
                    }
                    v => v,
                }
            }
            Func::Coalesce | Func::Truth => {
                for a in args {
                    let v = a.eval(row, env)?;
                    if !v.is_null() {
                        return Ok(v);
                    }
                }
                Value::Null
            }
            Func::NullIf(collation) => {
                let (a, b) = (v0()?, args[1].eval(row, env)?);
                if compare(&a, &b, collation) == Some(Ordering::Equal) {
                    Value::Null
                } else {
                    a
                }
            }
            Func::If => {
                if truth_of(&v0()?) == Some(true) {
                    args[1].eval(row, env)?
                } else {
                    args[2].eval(row, env)?
                }
            }
            Func::DateAdd | Func::DateSub => {
                let base = v0()?;
                let (unit, amount) = match &args[1] {
                    Expr::Interval(u, n) => (*u, n.eval(row, env)?),
                    other => (IntervalUnit::Day, other.eval(row, env)?),
                };
                let Some(n) = int_of(&amount) else {
                    return Ok(Value::Null);
                };
                let moved = match if f == Func::DateSub {
                    n.checked_neg()
                } else {
                    Some(n)
                } {
                    Some(n) => add_interval(&base, unit, n),
                    None => datetime_overflow(),
                };
                // Of a string or a number, the date's or the datetime's
                // text, with the fraction digits the argument has (all six
                // for one that is not a constant, or microseconds added).
                match (&base, moved) {
                    (Value::Date(_) | Value::DateTime(_) | Value::Time(_), moved) => moved,
                    (_, Value::DateTime(t)) => {
                        let digits = if unit == IntervalUnit::Microsecond {
                            6
                        } else {
                            interval_base_digits(&args[0], &base)
                        };
                        Value::Bytes(
                            lineardb_table::types::format_datetime_digits(t, digits).into_bytes(),
                        )
                    }
                    (_, Value::Date(d)) => {
                        Value::Bytes(lineardb_table::types::format_date(d).into_bytes())
                    }
                    (_, moved) => moved,
                }
            }
            Func::Year | Func::Month | Func::Day => {
                let Some(t) = crate::function::arguments::datetime_or_zero(&v0()?) else {
                    return Ok(Value::Null);
                };
                let d = t.div_euclid(MICROS_PER_DAY) as i32;
                let (y, m, dd) = civil_from_days(d);
                Value::Int(match f {
                    Func::Year => y as i64,
                    Func::Month => m as i64,
                    _ => dd as i64,
                })
            }
        })
    }

    /// The type this expression produces (for result-set metadata).
    pub fn kind(&self, scope: &[ScopeColumn], aggs: &[AggSpec]) -> ColumnKind {
        match self {
            Expr::Col(c) => scope.get(*c).map_or(ColumnKind::TEXT, |s| s.kind),
            Expr::Lit(v) => ColumnKind::of_value(v),
            Expr::Param(_) => ColumnKind::TEXT,
            Expr::Cmp(..)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::Not(_)
            | Expr::IsNull(..)
            | Expr::Between(..)
            | Expr::InList(..)
            | Expr::Like(..) => ColumnKind::Int,
            Expr::Neg(a) => a.kind(scope, aggs),
            Expr::Arith(op, a, b) => arith_kind(*op, a.kind(scope, aggs), b.kind(scope, aggs)),
            Expr::Interval(..) => ColumnKind::Int,
            Expr::Func(f, args) => match f {
                Func::UserVariable | Func::SetUserVariable => args[1].kind(scope, aggs),
                Func::SessionValue => args[0].kind(scope, aggs),
                Func::BytesAsChars | Func::CharsAsBytes => args[0].kind(scope, aggs),
                Func::Builtin(b) | Func::Collated(b, _) => {
                    (b.kind)(&args.iter().map(|a| a.kind(scope, aggs)).collect::<Vec<_>>())
                }
                Func::Bitwise(_) => ColumnKind::UInt,
                Func::Length
                | Func::CharLength
                | Func::Year
                | Func::Month
                | Func::Day
                | Func::Sleep
                | Func::UnixTimestamp
                | Func::UnixTimestampOfStored(0)
                | Func::UnixTimestampOf(0) => ColumnKind::Int,
                Func::UnixTimestampOfStored(scale) | Func::UnixTimestampOf(scale) => {
                    ColumnKind::Decimal { scale: *scale }
                }
                Func::TypedParameter(kind) => *kind,
                Func::GiveLastInsertId | Func::LastInsertId => ColumnKind::UInt,
                Func::RowCount => ColumnKind::Int,
                Func::Now
                | Func::SysDate
                | Func::UtcTimestamp
                | Func::FromStoredTimestamp(_)
                | Func::ToStoredTimestamp(_) => ColumnKind::DateTime,
                Func::CurDate | Func::UtcDate => ColumnKind::Date,
                Func::CurTime | Func::UtcTime => ColumnKind::Time,
                Func::Upper | Func::Lower | Func::Concat | Func::Repeat | Func::Substring => {
                    crate::function::kinds::same_text(
                        &args.iter().map(|a| a.kind(scope, aggs)).collect::<Vec<_>>(),
                    )
                }
                Func::Abs => args[0].kind(scope, aggs),
                // A constant number of places is the result's scale.
                Func::Round => match (args[0].kind(scope, aggs), args.get(1)) {
                    (ColumnKind::Decimal { .. }, None) => ColumnKind::Decimal { scale: 0 },
                    (ColumnKind::Decimal { .. }, Some(Expr::Lit(Value::Int(p)))) => {
                        ColumnKind::Decimal {
                            scale: (*p).clamp(0, i64::from(MAX_DECIMAL_SCALE)) as u8,
                        }
                    }
                    (k, _) => k,
                },
                Func::Floor | Func::Ceil => match args[0].kind(scope, aggs) {
                    ColumnKind::Decimal { .. } => ColumnKind::Decimal { scale: 0 },
                    k => k,
                },
                Func::AsInteger | Func::Truth => ColumnKind::Int,
                Func::Coalesce => args
                    .iter()
                    .filter(|a| !matches!(a, Expr::Lit(Value::Null)))
                    .map(|a| a.kind(scope, aggs))
                    .reduce(common_kind)
                    .unwrap_or(ColumnKind::TEXT),
                Func::If => match (&args[1], &args[2]) {
                    (Expr::Lit(Value::Null), other) | (other, Expr::Lit(Value::Null)) => {
                        other.kind(scope, aggs)
                    }
                    (a, b) => common_kind(a.kind(scope, aggs), b.kind(scope, aggs)),
                },
                Func::NullIf(_) => args[0].kind(scope, aggs),
                Func::DateAdd | Func::DateSub => match (args[0].kind(scope, aggs), &args[1]) {
                    (
                        ColumnKind::Date,
                        Expr::Interval(
                            IntervalUnit::Hour
                            | IntervalUnit::Minute
                            | IntervalUnit::Second
                            | IntervalUnit::Microsecond,
                            _,
                        ),
                    ) => ColumnKind::DateTime,
                    (ColumnKind::Date, _) => ColumnKind::Date,
                    // Of a string or a number, a string (MariaDB's).
                    (ColumnKind::DateTime | ColumnKind::Time, _) => ColumnKind::DateTime,
                    _ => ColumnKind::TEXT,
                },
            },
            Expr::Case(_, whens, otherwise, _) => whens
                .iter()
                .map(|(_, t)| t)
                .chain(otherwise.as_deref())
                .filter(|e| !matches!(e, Expr::Lit(Value::Null)))
                .map(|e| e.kind(scope, aggs))
                .reduce(common_kind)
                .unwrap_or(ColumnKind::TEXT),
            Expr::Cast(x, t) => match t {
                CastType::Shown(_) => x.kind(scope, aggs),
                CastType::Signed => ColumnKind::Int,
                CastType::Unsigned => ColumnKind::UInt,
                CastType::Decimal(_, s) => ColumnKind::Decimal { scale: *s },
                CastType::Double => ColumnKind::Double,
                CastType::Char(c, _) | CastType::Collate(c) | CastType::Literal(c) => {
                    ColumnKind::Text(*c)
                }
                CastType::BinaryLiteral | CastType::HexHybrid => {
                    ColumnKind::Text(Collation::Binary)
                }
                CastType::Date => ColumnKind::Date,
                CastType::DateTime(_) => ColumnKind::DateTime,
                CastType::Time(_) => ColumnKind::Time,
                CastType::MemberNumber(_) => ColumnKind::Int,
            },
            Expr::Subquery(sub, SubqueryTest::Scalar) => sub.kind,
            Expr::Subquery(..) => ColumnKind::Int,
            // The window stage's projection reads these as columns.
            Expr::Window(_) => ColumnKind::TEXT,
            Expr::Agg(i) => {
                let spec = &aggs[*i];
                let arg = spec.arg.as_ref().map(|a| a.kind(scope, aggs));
                match (spec.func, arg) {
                    (AggFunc::CountStar | AggFunc::Count, _) => ColumnKind::Int,
                    (AggFunc::GroupConcat, _) => ColumnKind::TEXT,
                    (AggFunc::Sum, Some(ColumnKind::Int | ColumnKind::UInt | ColumnKind::Time)) => {
                        ColumnKind::Decimal { scale: 0 }
                    }
                    (AggFunc::Sum, Some(ColumnKind::Decimal { scale })) => {
                        ColumnKind::Decimal { scale }
                    }
                    (AggFunc::Avg, Some(ColumnKind::Int | ColumnKind::UInt | ColumnKind::Time)) => {
                        ColumnKind::Decimal { scale: 4 }
                    }
                    (AggFunc::Avg, Some(ColumnKind::Decimal { scale })) => ColumnKind::Decimal {
                        scale: (scale + 4).min(MAX_DECIMAL_SCALE),
                    },
                    (AggFunc::Sum | AggFunc::Avg, _) => ColumnKind::Double,
                    (AggFunc::Min | AggFunc::Max, Some(k)) => k,
                    (AggFunc::Min | AggFunc::Max, None) => ColumnKind::TEXT,
                    (AggFunc::Spread(_), _) => ColumnKind::Double,
                    (AggFunc::Bits(_), _) => ColumnKind::UInt,
                }
            }
        }
    }

    /// Calls `f` on every column this expression reads.
    pub fn columns(&self, f: &mut impl FnMut(usize)) {
        match self {
            Expr::Col(c) => f(*c),
            Expr::Lit(_) | Expr::Param(_) | Expr::Agg(_) | Expr::Window(_) => {}
            Expr::Cmp(_, a, b, _)
            | Expr::Arith(_, a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Like(a, b, ..) => {
                a.columns(f);
                b.columns(f);
            }
            Expr::Not(a) | Expr::Neg(a) | Expr::IsNull(a, _) | Expr::Interval(_, a) => a.columns(f),
            Expr::Between(a, b, c, ..) => {
                a.columns(f);
                b.columns(f);
                c.columns(f);
            }
            Expr::InList(a, l, ..) => {
                a.columns(f);
                l.iter().for_each(|x| x.columns(f));
            }
            Expr::Func(_, l) => l.iter().for_each(|x| x.columns(f)),
            Expr::Case(o, whens, otherwise, _) => {
                o.iter().for_each(|x| x.columns(f));
                for (w, t) in whens {
                    w.columns(f);
                    t.columns(f);
                }
                otherwise.iter().for_each(|x| x.columns(f));
            }
            Expr::Cast(x, _) => x.columns(f),
            Expr::Subquery(sub, test) => {
                if sub.correlated {
                    (0..sub.width).for_each(&mut *f);
                }
                test.operands().iter().for_each(|x| x.columns(f));
            }
        }
    }

    /// True if the value does not depend on the row (literals, parameters).
    pub fn is_constant(&self) -> bool {
        match self {
            Expr::Lit(_) | Expr::Param(_) => true,
            Expr::Arith(_, a, b) => a.is_constant() && b.is_constant(),
            Expr::Neg(a) => a.is_constant(),
            Expr::Func(
                Func::SetUserVariable
                | Func::GiveLastInsertId
                | Func::LastInsertId
                | Func::RowCount,
                _,
            ) => false,
            Expr::Func(Func::Builtin(b) | Func::Collated(b, _), _) if b.volatile => false,
            Expr::Func(_, l) => l.iter().all(|x| x.is_constant()),
            Expr::Interval(_, a) => a.is_constant(),
            Expr::Cast(a, _) => a.is_constant(),
            Expr::Case(o, whens, otherwise, _) => {
                o.as_ref().is_none_or(|x| x.is_constant())
                    && whens
                        .iter()
                        .all(|(w, t)| w.is_constant() && t.is_constant())
                    && otherwise.as_ref().is_none_or(|x| x.is_constant())
            }
            // Constant for an execution when uncorrelated, but evaluated
            // only where the executor's subquery runner is at hand.
            Expr::Subquery(..) => false,
            _ => false,
        }
    }
}

/// The kind of a result that is one of two kinds (CASE, IF, UNION).
fn is_json_extract(e: &Expr) -> bool {
    matches!(e, Expr::Func(Func::Builtin(b), _) if b.name() == "JSON_EXTRACT")
}

/// A JSON_EXTRACT as the value it holds (a string unquoted), as MariaDB
/// compares one; any other expression as it is.
fn json_scalar(e: Expr) -> Expr {
    if !is_json_extract(&e) {
        return e;
    }
    let unquote = crate::function::lookup("JSON_UNQUOTE").expect("a registry function");
    Expr::Func(Func::Builtin(unquote), vec![e])
}

/// The kind `x op y` gives.
pub(crate) fn arith_kind(op: ArithOp, x: ColumnKind, y: ColumnKind) -> ColumnKind {
    match (op, x, y) {
        (ArithOp::IntDiv, ..) => ColumnKind::Int,
        (_, ColumnKind::Double, _) | (_, _, ColumnKind::Double) => ColumnKind::Double,
        (ArithOp::Div, ColumnKind::Decimal { scale }, _) => ColumnKind::Decimal {
            scale: (scale + 4).min(MAX_DECIMAL_SCALE),
        },
        (ArithOp::Div, ..) => ColumnKind::Decimal { scale: 4 },
        (ArithOp::Mul, ColumnKind::Decimal { scale: s }, ColumnKind::Decimal { scale: t }) => {
            ColumnKind::Decimal {
                scale: s.saturating_add(t).min(MAX_DECIMAL_SCALE),
            }
        }
        (_, ColumnKind::Decimal { scale: s }, ColumnKind::Decimal { scale: t }) => {
            ColumnKind::Decimal { scale: s.max(t) }
        }
        (_, ColumnKind::Decimal { scale }, _) | (_, _, ColumnKind::Decimal { scale }) => {
            ColumnKind::Decimal { scale }
        }
        (_, ColumnKind::Text(_), _) | (_, _, ColumnKind::Text(_)) => ColumnKind::Double,
        _ => ColumnKind::Int,
    }
}

pub(crate) fn common_kind(a: ColumnKind, b: ColumnKind) -> ColumnKind {
    use ColumnKind as K;
    match (a, b) {
        _ if a == b => a,
        (K::Text(c), K::Text(d)) => K::Text(if c == Collation::Binary { c } else { d }),
        (K::Text(c), _) | (_, K::Text(c)) => K::Text(c),
        (K::Date, K::DateTime) | (K::DateTime, K::Date) => K::DateTime,
        (K::Date | K::DateTime, _) | (_, K::Date | K::DateTime) => K::TEXT,
        (K::Double, _) | (_, K::Double) => K::Double,
        (K::Decimal { scale: s }, K::Decimal { scale: t }) => K::Decimal { scale: s.max(t) },
        (K::Decimal { scale }, _) | (_, K::Decimal { scale }) => K::Decimal { scale },
        (K::Int, K::UInt) | (K::UInt, K::Int) => K::Decimal { scale: 0 },
        _ => a,
    }
}

/// CAST(v AS t) as MariaDB computes it.
fn cast_value(v: Value, t: CastType) -> Value {
    if v.is_null() {
        return Value::Null;
    }
    match t {
        CastType::Signed | CastType::Unsigned => {
            // Strings: their integer prefix; numbers: rounded.
            let n = numeric_read_as(&v, NumberReading::Integer);
            // A decimal or a double past the target's range stops at its
            // end, as MariaDB's do (an integer wraps).
            let in_range = |n: i128| {
                if t == CastType::Signed {
                    n.clamp(i64::MIN as i128, i64::MAX as i128)
                } else {
                    n.clamp(0, u64::MAX as i128)
                }
            };
            let wide: i128 = match n {
                Value::Int(i) => i as i128,
                Value::UInt(u) => u as i128,
                Value::Decimal(d) => in_range(d.round_to_i128_saturating()),
                // `as` saturates.
                Value::Double(f) => in_range(f.round() as i128),
                _ => 0,
            };
            if t == CastType::Signed {
                Value::Int(wide as i64)
            } else {
                Value::UInt(wide as u64)
            }
        }
        CastType::Decimal(p, s) => {
            // The value exactly (a text's digits, not its double), or None
            // past what any decimal holds: then the type's extreme.
            let (d, negative) = match &v {
                Value::Bytes(b) => {
                    let text = String::from_utf8_lossy(b);
                    let prefix = crate::function::arguments::read_number_prefix(
                        &text,
                        b,
                        NumberReading::Decimal,
                    );
                    let d = if prefix.is_empty() {
                        Some(Dec::new(0, 0))
                    } else {
                        Dec::parse(prefix)
                    };
                    (d, prefix.starts_with('-'))
                }
                v => match numeric(v) {
                    Value::Int(i) => (Some(Dec::new(i as i128, 0)), i < 0),
                    Value::UInt(u) => (Some(Dec::new(u as i128, 0)), false),
                    Value::Decimal(d) => (Some(d), d.is_negative()),
                    Value::Double(f) => (Dec::parse(&format!("{f:e}")), f < 0.0),
                    _ => (Some(Dec::new(0, 0)), false),
                },
            };
            match d.and_then(|d| d.checked_rescale(s)) {
                Some(d) if d.fits_precision(p) => Value::Decimal(d),
                _ => Value::Decimal(Dec::extreme(p, s, negative)),
            }
        }
        CastType::Double => match numeric(&v) {
            Value::Int(i) => Value::Double(i as f64),
            Value::UInt(u) => Value::Double(u as f64),
            Value::Decimal(d) => Value::Double(d.to_f64()),
            Value::Double(f) => Value::Double(f),
            _ => Value::Double(0.0),
        },
        CastType::Collate(_)
        | CastType::BinaryLiteral
        | CastType::HexHybrid
        | CastType::Literal(_)
        | CastType::Shown(_) => v,
        // A string keeps its bytes (a binary one may not be UTF-8).
        CastType::Char(collation, length) => {
            let bytes = match v {
                Value::Bytes(b) => b,
                v => match v.to_text() {
                    Some(t) => t.into_bytes(),
                    None => return Value::Null,
                },
            };
            match length {
                None => Value::Bytes(bytes),
                Some(n) => Value::Bytes(cut_to_length(bytes, collation, n as usize)),
            }
        }
        CastType::Date | CastType::DateTime(_) => {
            let as_time = match &v {
                Value::Date(d) => Some(*d as i64 * MICROS_PER_DAY),
                Value::DateTime(t) => Some(*t),
                Value::Null => None,
                other => crate::function::arguments::read_temporal(other).map(|t| t.micros),
            };
            match (as_time, t) {
                (None, _) => Value::Null,
                (Some(m), CastType::Date) => Value::Date(m.div_euclid(MICROS_PER_DAY) as i32),
                // DATETIME(n) drops the fraction past n digits.
                (Some(m), CastType::DateTime(fsp)) => {
                    Value::DateTime(m - m.rem_euclid(fraction_unit(fsp)))
                }
                (Some(_), _) => unreachable!("a date or datetime cast"),
            }
        }
        // Signed where it fits (`-e` is negative, as in MariaDB); a SET's
        // 64th member makes a mask only an unsigned holds.
        CastType::MemberNumber(t) => {
            let n = match (&v, t) {
                (Value::Bytes(b), DataType::Enum(m)) => m.number_of(b),
                (Value::Bytes(b), DataType::Set(m)) => m.mask_of(b),
                _ => return v,
            };
            i64::try_from(n).map_or(Value::UInt(n), Value::Int)
        }
        // TIME(n): cut toward zero to n digits, held in range.
        CastType::Time(fsp) => match crate::function::arguments::time_of(&v) {
            Some(t) => {
                let unit = fraction_unit(fsp);
                let max = lineardb_table::types::MAX_TIME - (999_999 - 999_999 / unit * unit);
                Value::Time((t - t % unit).clamp(-max, max))
            }
            None => Value::Null,
        },
    }
}

/// Running state of one aggregate over one group.
#[derive(Debug, Clone)]
pub(crate) enum Acc {
    Count(i64),
    SumInt(i128, bool),
    /// A decimal sum: unscaled at a scale, while an i128 holds it.
    SumDec(i128, u8, bool),
    /// A decimal sum past i128.
    SumWide(Dec, bool),
    SumDouble(f64, bool),
    Avg(Box<Acc>, i64),
    /// The least or greatest value (`true`: greatest), strings compared
    /// in the collation.
    MinMax(Option<Value>, bool, Collation),
    /// DISTINCT: values seen (as text keys), then the inner accumulator.
    /// DISTINCT values (strings equal in the collation count once).
    Distinct(row_key::KeySet, Box<Acc>, Collation),
    GroupConcat(Box<group_concat::GroupConcat>),
    Spread(moments::Moments, moments::Spread),
    /// BIT_AND/OR/XOR: the bits so far.
    Bits(u64, crate::function::bitwise::BitOp),
}

impl Acc {
    pub fn new(spec: &AggSpec) -> Acc {
        let inner = match spec.func {
            AggFunc::CountStar | AggFunc::Count => Acc::Count(0),
            AggFunc::Sum => Acc::SumInt(0, false),
            AggFunc::Avg => Acc::Avg(Box::new(Acc::SumInt(0, false)), 0),
            AggFunc::Min => Acc::MinMax(None, false, spec.collation),
            AggFunc::Max => Acc::MinMax(None, true, spec.collation),
            AggFunc::Spread(spread) => Acc::Spread(moments::Moments::default(), spread),
            // BIT_AND starts with every bit set (its value over no rows).
            AggFunc::Bits(op) => Acc::Bits(
                if op == crate::function::bitwise::BitOp::And {
                    u64::MAX
                } else {
                    0
                },
                op,
            ),
            AggFunc::GroupConcat => {
                return Acc::GroupConcat(Box::new(group_concat::GroupConcat::new(
                    spec.distinct.then_some(spec.collation),
                    spec.order
                        .iter()
                        .map(|(e, d)| KeyOrder::of(e, *d))
                        .collect(),
                    spec.separator.clone(),
                    spec.bounds.clone(),
                )))
            }
        };
        if spec.distinct {
            Acc::Distinct(Default::default(), Box::new(inner), spec.collation)
        } else {
            inner
        }
    }

    /// Adds one row of an aggregate that [takes rows](AggSpec::takes_rows):
    /// its arguments and ORDER BY keys.
    pub fn add_row(&mut self, args: &[Value], keys: Vec<Value>) -> Result<()> {
        match self {
            Acc::GroupConcat(g) => g.add(args, keys),
            // COUNT(DISTINCT a, b): rows without a NULL, once each.
            Acc::Distinct(seen, inner, collation) => {
                if args.iter().any(Value::is_null) {
                    return Ok(());
                }
                let mut key = Vec::new();
                row_key::encode_row_in(args, *collation, &mut key);
                if seen.insert(key) {
                    inner.add(&Value::Int(1))?;
                }
                Ok(())
            }
            _ => Err(SqlError::internal(
                "an aggregate of one argument given a row",
            )),
        }
    }

    /// Adds one row's argument value (`Int(1)` for COUNT(*)).
    pub fn add(&mut self, v: &Value) -> Result<()> {
        if v.is_null() {
            return Ok(());
        }
        match self {
            Acc::Count(n) => *n += 1,
            Acc::SumInt(..) | Acc::SumDec(..) | Acc::SumWide(..) | Acc::SumDouble(..) => {
                add_sum(self, v)?
            }
            Acc::Avg(sum, n) => {
                add_sum(sum, v)?;
                *n += 1;
            }
            Acc::MinMax(cur, is_max, collation) => {
                let replace = match cur {
                    None => true,
                    Some(c) => match compare(v, c, *collation) {
                        Some(Ordering::Greater) => *is_max,
                        Some(Ordering::Less) => !*is_max,
                        _ => false,
                    },
                };
                if replace {
                    *cur = Some(v.clone());
                }
            }
            Acc::Distinct(seen, inner, collation) => {
                let mut key = Vec::new();
                row_key::encode_value(v, *collation, &mut key);
                if seen.insert(key) {
                    inner.add(v)?;
                }
            }
            Acc::GroupConcat(g) => g.add(std::slice::from_ref(v), Vec::new())?,
            Acc::Spread(m, _) => {
                if let Some(x) = numeric(v).as_f64() {
                    m.add(x);
                }
            }
            Acc::Bits(bits, op) => {
                if let Some(b) = crate::function::bitwise::bits(v) {
                    *bits = crate::function::bitwise::combine(*op, *bits, b);
                }
            }
        }
        Ok(())
    }

    /// Folds in the state of the same aggregate over other rows (another
    /// thread's share of a parallel scan).
    pub fn merge(&mut self, other: Acc) -> Result<()> {
        match (self, other) {
            (Acc::Count(a), Acc::Count(b)) => *a += b,
            (
                a @ (Acc::SumInt(..) | Acc::SumDec(..) | Acc::SumWide(..) | Acc::SumDouble(..)),
                b,
            ) => {
                let v = b.finish();
                if !v.is_null() {
                    add_sum(a, &v)?;
                }
            }
            (Acc::Avg(sum, n), Acc::Avg(other_sum, m)) => {
                sum.merge(*other_sum)?;
                *n += m;
            }
            (a @ Acc::MinMax(..), Acc::MinMax(Some(v), ..)) => a.add(&v)?,
            (Acc::MinMax(..), Acc::MinMax(None, ..)) => {}
            (Acc::Spread(a, _), Acc::Spread(b, _)) => a.merge(&b),
            (Acc::Bits(a, op), Acc::Bits(b, _)) => {
                *a = crate::function::bitwise::combine(*op, *a, b)
            }
            // COUNT(DISTINCT …): the other's values not seen here, counted.
            (Acc::Distinct(seen, inner, _), Acc::Distinct(other, ..))
                if matches!(**inner, Acc::Count(_)) =>
            {
                for key in other {
                    if seen.insert(key) {
                        inner.add(&Value::Int(1))?;
                    }
                }
            }
            (Acc::Distinct(..) | Acc::GroupConcat(_), _) => {
                return Err(SqlError::internal(
                    "DISTINCT aggregates other than COUNT and GROUP_CONCAT are not merged",
                ))
            }
            _ => return Err(SqlError::internal("merging different aggregates")),
        }
        Ok(())
    }

    pub fn finish(&self) -> Value {
        match self {
            Acc::Count(n) => Value::Int(*n),
            Acc::SumInt(s, any) => {
                if *any {
                    Value::Decimal(Dec::new(*s, 0))
                } else {
                    Value::Null
                }
            }
            Acc::SumDec(s, scale, any) => {
                if *any {
                    Value::Decimal(Dec::new(*s, *scale))
                } else {
                    Value::Null
                }
            }
            Acc::SumWide(s, any) => {
                if *any {
                    Value::Decimal(*s)
                } else {
                    Value::Null
                }
            }
            Acc::SumDouble(s, any) => {
                if *any {
                    Value::Double(*s)
                } else {
                    Value::Null
                }
            }
            Acc::Avg(sum, n) => {
                if *n == 0 {
                    return Value::Null;
                }
                match sum.finish() {
                    Value::Decimal(d) => arith(ArithOp::Div, &Value::Decimal(d), &Value::Int(*n))
                        .unwrap_or(Value::Null),
                    Value::Double(x) => Value::Double(x / *n as f64),
                    _ => Value::Null,
                }
            }
            Acc::MinMax(v, ..) => v.clone().unwrap_or(Value::Null),
            Acc::Distinct(_, inner, _) => inner.finish(),
            Acc::GroupConcat(g) => g.finish(),
            Acc::Spread(m, spread) => m.finish(*spread).map_or(Value::Null, Value::Double),
            Acc::Bits(bits, _) => Value::UInt(*bits),
        }
    }
}

/// The state of a decimal sum: an i128 one while it fits.
fn decimal_sum(sum: Dec) -> Acc {
    match sum.unscaled_i128() {
        Some(unscaled) => Acc::SumDec(unscaled, sum.scale, true),
        None => Acc::SumWide(sum, true),
    }
}

fn add_sum(acc: &mut Acc, v: &Value) -> Result<()> {
    // A string is summed as a DOUBLE (its column's type), as MariaDB sums it.
    let v = match v {
        Value::Bytes(_) => Value::Double(numeric(v).as_f64().unwrap_or(0.0)),
        v => numeric(v),
    };
    let overflow = || SqlError::out_of_range("DECIMAL");
    match (&mut *acc, &v) {
        (Acc::SumInt(s, any), Value::Int(i)) => {
            *s = s.checked_add(*i as i128).ok_or_else(overflow)?;
            *any = true;
        }
        (Acc::SumInt(s, any), Value::UInt(u)) => {
            *s = s.checked_add(*u as i128).ok_or_else(overflow)?;
            *any = true;
        }
        (Acc::SumInt(s, _), Value::Decimal(d)) => {
            *acc = decimal_sum(Dec::new(*s, 0).checked_add(*d).ok_or_else(overflow)?);
        }
        (Acc::SumDec(s, scale, _), Value::Int(_) | Value::UInt(_) | Value::Decimal(_)) => {
            let d = as_dec(&v).expect("numeric");
            // In i128 while the value is one at the sum's scale.
            let sum = if d.scale <= *scale {
                d.checked_rescale(*scale)
                    .and_then(Dec::unscaled_i128)
                    .and_then(|u| s.checked_add(u))
            } else {
                None
            };
            match sum {
                Some(sum) => *s = sum,
                None => {
                    let sum = Dec::new(*s, *scale).checked_add(d).ok_or_else(overflow)?;
                    *acc = decimal_sum(sum);
                }
            }
        }
        (Acc::SumWide(s, _), Value::Int(_) | Value::UInt(_) | Value::Decimal(_)) => {
            *s = s
                .checked_add(as_dec(&v).expect("numeric"))
                .ok_or_else(overflow)?;
        }
        (Acc::SumInt(s, any), Value::Double(x)) => {
            *acc = Acc::SumDouble(if *any { *s as f64 } else { 0.0 } + x, true);
        }
        (Acc::SumDec(s, scale, _), Value::Double(x)) => {
            *acc = Acc::SumDouble(Dec::new(*s, *scale).to_f64() + x, true);
        }
        (Acc::SumWide(s, _), Value::Double(x)) => {
            *acc = Acc::SumDouble(s.to_f64() + x, true);
        }
        (Acc::SumDouble(s, any), _) => {
            *s += v.as_f64().unwrap_or(0.0);
            *any = true;
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_matches_as_mysql() {
        assert!(like(b"abc", b"a%"));
        assert!(like(b"abc", b"%c"));
        assert!(like(b"abc", b"_b_"));
        assert!(!like(b"abc", b"_b"));
        assert!(like(b"a%c", b"a\\%c"));
        assert!(!like(b"abc", b"a\\%c"));
        assert!(like(b"12-0-3", b"%0%"));
        assert!(like(b"ABC", b"abc"));
    }

    #[test]
    fn arithmetic_follows_mysql_types() {
        assert_eq!(
            arith(ArithOp::Add, &Value::Int(2), &Value::Int(3)).unwrap(),
            Value::Int(5)
        );
        assert_eq!(
            arith(ArithOp::Div, &Value::Int(1), &Value::Int(3))
                .unwrap()
                .to_text()
                .unwrap(),
            "0.3333"
        );
        assert_eq!(
            arith(ArithOp::Div, &Value::Int(1), &Value::Int(0)).unwrap(),
            Value::Null
        );
        assert_eq!(
            arith(
                ArithOp::Mul,
                &Value::Decimal(Dec::new(150, 2)),
                &Value::Int(2)
            )
            .unwrap()
            .to_text()
            .unwrap(),
            "3.00"
        );
        assert_eq!(
            arith(ArithOp::Add, &Value::str("2"), &Value::Int(3)).unwrap(),
            Value::Int(5)
        );
        assert_eq!(
            arith(ArithOp::Mul, &Value::Int(i64::MAX), &Value::Int(2))
                .unwrap_err()
                .code,
            1690
        );
        let out_of_range = |op, a, b| arith(op, &a, &b).unwrap_err().message;
        assert_eq!(
            out_of_range(ArithOp::Mul, Value::Double(1e308), Value::Int(10)),
            "DOUBLE value is out of range"
        );
        assert_eq!(
            out_of_range(ArithOp::Add, Value::UInt(u64::MAX), Value::Int(1)),
            "BIGINT UNSIGNED value is out of range"
        );
        assert_eq!(
            out_of_range(ArithOp::Sub, Value::UInt(1), Value::Int(2)),
            "BIGINT UNSIGNED value is out of range"
        );
        assert_eq!(
            arith(ArithOp::Add, &Value::UInt(1 << 63), &Value::Int(1)).unwrap(),
            Value::UInt((1 << 63) + 1)
        );
        warnings::take();
        for op in [ArithOp::Div, ArithOp::IntDiv, ArithOp::Mod] {
            assert_eq!(
                arith(op, &Value::Int(1), &Value::Int(0)).unwrap(),
                Value::Null
            );
        }
        assert_eq!(warnings::take().len(), 3);
        assert_eq!(warnings::pending(), 0);
    }

    #[test]
    fn dates_add_months_clamping_the_day() {
        let d = parse_date("2024-01-31").unwrap();
        assert_eq!(
            add_interval(&Value::Date(d), IntervalUnit::Month, 1),
            Value::Date(parse_date("2024-02-29").unwrap())
        );
        assert_eq!(
            add_interval(&Value::Date(d), IntervalUnit::Day, 1),
            Value::Date(parse_date("2024-02-01").unwrap())
        );
        assert_eq!(
            add_interval(&Value::Date(d), IntervalUnit::Year, -1),
            Value::Date(parse_date("2023-01-31").unwrap())
        );
    }
}
