//! Subqueries inside expressions: what the compiler makes of `(SELECT …)`,
//! `EXISTS`, `IN (SELECT …)` and `op ANY/ALL (SELECT …)`, and how their
//! evaluation asks the statement's executor for rows.
//!
//! Expressions do not know the planner's types: a subquery's plan is a
//! [`SubqueryPlan`] and the executor that runs it a [`SubqueryRunner`].
//!
//! Correlation: a query block runs with `base` parameters (the statement's
//! own, then the rows of the blocks around it); a subquery of the block
//! runs with those and the block's current row after them, so an outer
//! column is simply a parameter of the inner block.
use super::{compare, truth_of, CmpOp, Env, Expr, Row};
use crate::error::{Result, SqlError};
use crate::result::ColumnKind;
use lineardb_table::{Collation, Value};
use std::cmp::Ordering;
use std::sync::Arc;

/// A planned query an expression runs.
pub(crate) trait SubqueryPlan: Send + Sync {
    fn as_any(&self) -> &dyn std::any::Any;
}

/// Runs subqueries for expression evaluation (the statement's executor).
pub(crate) trait SubqueryRunner: Sync {
    /// The rows of `sub` run with `params`; a correlated subquery's rows
    /// are cached per distinct parameters, an uncorrelated one's once.
    fn rows(&self, sub: &Subquery, params: &[Value]) -> Result<Arc<SubqueryRows>>;
    /// The kept rows of an uncorrelated subquery, if it ran already.
    fn kept(&self, sub: &Subquery) -> Option<Arc<SubqueryRows>>;
}

/// A subquery's rows, and for IN over many of them a set of their first
/// values' keys (made on first use).
pub(crate) struct SubqueryRows {
    pub rows: Vec<Vec<Value>>,
    set: std::sync::OnceLock<Option<ValueSet>>,
}

/// The first values of a subquery's rows as hash keys: all of one class
/// (numbers, dates or strings, whose keys are equal exactly when the
/// values compare equal), and whether one was NULL.
struct ValueSet {
    class: u8,
    keys: super::row_key::KeySet,
    null: bool,
}

/// Rows from which IN uses a set rather than comparing each.
const SET_FROM_ROWS: usize = 16;

/// A value's class for [`ValueSet`]; `None` for NULL.
fn class_of(v: &Value) -> Option<u8> {
    match v {
        Value::Null => None,
        Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => Some(0),
        Value::Date(_) | Value::DateTime(_) => Some(1),
        Value::Bytes(_) => Some(2),
        Value::Time(_) => Some(3),
    }
}

impl SubqueryRows {
    pub(crate) fn new(rows: Vec<Vec<Value>>) -> SubqueryRows {
        SubqueryRows {
            rows,
            set: std::sync::OnceLock::new(),
        }
    }

    /// The set of first values, if they are all of one class.
    fn set(&self, collation: Collation) -> Option<&ValueSet> {
        self.set
            .get_or_init(|| {
                let mut class = None;
                let mut set = ValueSet {
                    class: 0,
                    keys: super::row_key::KeySet::with_capacity_and_hasher(
                        self.rows.len(),
                        Default::default(),
                    ),
                    null: false,
                };
                for r in &self.rows {
                    let v = r.first().unwrap_or(&Value::Null);
                    let Some(c) = class_of(v) else {
                        set.null = true;
                        continue;
                    };
                    if *class.get_or_insert(c) != c {
                        return None;
                    }
                    let mut key = Vec::new();
                    super::row_key::encode_value(v, collation, &mut key);
                    set.keys.insert(key);
                }
                set.class = class.unwrap_or(0);
                Some(set)
            })
            .as_ref()
    }
}

/// Plans subqueries met while compiling an expression, and resolves the
/// names of the query blocks around it (the planner).
pub(crate) trait SubqueryPlanner {
    /// Plans `q` as a subquery of a block whose row is `scope` and whose
    /// own parameters number `base`.
    fn plan_subquery(
        &mut self,
        q: &sqlparser::ast::Query,
        scope: &[super::ScopeColumn],
        base: usize,
    ) -> Result<PlannedSubquery>;
    /// An outer block's column `table.name` as the parameter it is to
    /// this block; `None` if no outer block has it.
    fn outer_column(&mut self, table: Option<&str>, name: &str) -> Option<Result<(usize, bool)>>;
}

/// What [`SubqueryPlanner::plan_subquery`] returns.
pub(crate) struct PlannedSubquery {
    pub plan: Arc<dyn SubqueryPlan>,
    pub id: usize,
    pub columns: Vec<ColumnKind>,
    /// Its first result column, NULL where it may find no row.
    pub first_column: Option<crate::result::Column>,
    pub correlated: bool,
    /// The columns of the enclosing block's row it reads.
    pub row_refs: Vec<usize>,
}

/// A subquery within an expression.
#[derive(Clone)]
pub(crate) struct Subquery {
    /// Unique within the statement (the per-execution cache's key).
    pub id: usize,
    pub plan: Arc<dyn SubqueryPlan>,
    /// Parameters of the enclosing block; a correlated subquery gets the
    /// block's row (its first `width` columns) after them.
    pub base: usize,
    pub width: usize,
    /// Reads the enclosing row (else it runs once per execution).
    pub correlated: bool,
    /// The columns of the enclosing row it reads: its results are kept
    /// per distinct values of these (and of the parameters before the
    /// row), not of the whole row.
    pub row_refs: Vec<usize>,
    /// The kind of its first column.
    pub kind: ColumnKind,
    /// Its first result column as the subquery's plan makes it (a scalar
    /// subquery's value is typed by it); NULL where it may find no row.
    pub first_column: Option<Box<crate::result::Column>>,
    /// The kinds of all its columns (a row IN compares each).
    pub column_kinds: Vec<ColumnKind>,
    /// One row tells the answer (EXISTS).
    pub first_row_only: bool,
}

impl std::fmt::Debug for Subquery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Subquery#{}", self.id)
    }
}

impl PartialEq for Subquery {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

/// What an expression asks of a subquery's rows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SubqueryTest {
    /// Its single value (NULL for no row; error 1242 for several).
    Scalar,
    /// Whether it has a row.
    Exists,
    /// `lhs IN (…)`, with SQL's NULL rules.
    In(Box<Expr>),
    /// `(a, b, …) IN (…)`: a row against the subquery's rows, with SQL's
    /// NULL rules (NULL where no row matches and one compared unknown).
    InRow(Vec<Expr>),
    /// `lhs op ANY (…)` (`all` false) or `lhs op ALL (…)`.
    Quantified(CmpOp, bool, Box<Expr>),
}

impl SubqueryTest {
    /// The expressions of the enclosing block it compares.
    pub(crate) fn operands(&self) -> Vec<&Expr> {
        match self {
            SubqueryTest::In(x) | SubqueryTest::Quantified(_, _, x) => vec![x],
            SubqueryTest::InRow(xs) => xs.iter().collect(),
            SubqueryTest::Scalar | SubqueryTest::Exists => Vec::new(),
        }
    }

    /// The same test over `f` of each operand.
    pub(crate) fn map_operands(&self, mut f: impl FnMut(&Expr) -> Expr) -> SubqueryTest {
        match self {
            SubqueryTest::In(x) => SubqueryTest::In(Box::new(f(x))),
            SubqueryTest::InRow(xs) => SubqueryTest::InRow(xs.iter().map(f).collect()),
            SubqueryTest::Quantified(op, all, x) => {
                SubqueryTest::Quantified(*op, *all, Box::new(f(x)))
            }
            other => other.clone(),
        }
    }
}

/// Evaluates `test` of `sub` for `row`.
pub(crate) fn eval_subquery<R: Row + ?Sized>(
    sub: &Subquery,
    test: &SubqueryTest,
    row: &R,
    env: Env<'_>,
) -> Result<Value> {
    let runner = env
        .subqueries
        .ok_or_else(|| SqlError::unsupported("a subquery here"))?;
    let mut operands = test
        .operands()
        .into_iter()
        .map(|x| x.eval(row, env))
        .collect::<Result<Vec<Value>>>()?;
    let operand = (operands.len() == 1).then(|| operands.pop().expect("one"));
    // The subquery runs with its block's parameters and the row (NULLs
    // in its place when it does not read it): its plan expects them all.
    let params = || {
        let mut params: Vec<Value> = Vec::with_capacity(sub.base + sub.width);
        params.extend(env.params.iter().take(sub.base).cloned());
        params.resize(sub.base, Value::Null);
        if sub.correlated {
            params.extend((0..sub.width).map(|c| row.get(c)));
        } else {
            params.resize(sub.base + sub.width, Value::Null);
        }
        params
    };
    let rows = match (sub.correlated, runner.kept(sub)) {
        (false, Some(rows)) => rows,
        _ => runner.rows(sub, &params())?,
    };
    Ok(match test {
        SubqueryTest::Scalar => match rows.rows.as_slice() {
            [] => Value::Null,
            [one] => one.first().cloned().unwrap_or(Value::Null),
            _ => {
                return Err(SqlError::new(
                    1242,
                    "21000",
                    "Subquery returns more than 1 row",
                ))
            }
        },
        SubqueryTest::Exists => Value::Int(!rows.rows.is_empty() as i64),
        SubqueryTest::In(_) => {
            // Strings compare in the subquery column's collation.
            let collation = sub.kind.collation().unwrap_or_default();
            let v = operand.unwrap_or(Value::Null);
            if rows.rows.is_empty() {
                return Ok(Value::Int(0));
            }
            if v.is_null() {
                return Ok(Value::Null);
            }
            if rows.rows.len() >= SET_FROM_ROWS {
                if let Some(set) = rows
                    .set(collation)
                    .filter(|s| class_of(&v) == Some(s.class))
                {
                    let mut key = Vec::new();
                    super::row_key::encode_value(&v, collation, &mut key);
                    return Ok(if set.keys.contains(&key) {
                        Value::Int(1)
                    } else if set.null {
                        Value::Null
                    } else {
                        Value::Int(0)
                    });
                }
            }
            let mut unknown = false;
            for r in rows.rows.iter() {
                match compare(&v, r.first().unwrap_or(&Value::Null), collation) {
                    Some(Ordering::Equal) => return Ok(Value::Int(1)),
                    None => unknown = true,
                    Some(_) => {}
                }
            }
            if unknown {
                Value::Null
            } else {
                Value::Int(0)
            }
        }
        SubqueryTest::InRow(_) => {
            // Each element in its subquery column's collation: a row
            // matches when every element is equal; an element compared
            // unknown leaves the row unknown unless another differs.
            let mut unknown = false;
            for r in rows.rows.iter() {
                let mut row_unknown = false;
                let mut differs = false;
                for (i, v) in operands.iter().enumerate() {
                    let collation = sub
                        .column_kinds
                        .get(i)
                        .and_then(|k| k.collation())
                        .unwrap_or_default();
                    match compare(v, r.get(i).unwrap_or(&Value::Null), collation) {
                        Some(Ordering::Equal) => {}
                        None => row_unknown = true,
                        Some(_) => {
                            differs = true;
                            break;
                        }
                    }
                }
                match (differs, row_unknown) {
                    (false, false) => return Ok(Value::Int(1)),
                    (false, true) => unknown = true,
                    (true, _) => {}
                }
            }
            if unknown {
                Value::Null
            } else {
                Value::Int(0)
            }
        }
        SubqueryTest::Quantified(op, all, _) => {
            let v = operand.unwrap_or(Value::Null);
            let mut unknown = false;
            for r in rows.rows.iter() {
                let c = Expr::Cmp(
                    *op,
                    Box::new(Expr::Lit(v.clone())),
                    Box::new(Expr::Lit(r.first().cloned().unwrap_or(Value::Null))),
                    sub.kind.collation().unwrap_or_default(),
                );
                match truth_of(&c.eval(&[][..], Env::new(&[]))?) {
                    Some(true) if !*all => return Ok(Value::Int(1)),
                    Some(false) if *all => return Ok(Value::Int(0)),
                    None => unknown = true,
                    Some(_) => {}
                }
            }
            if unknown {
                Value::Null
            } else {
                Value::Int(*all as i64)
            }
        }
    })
}
