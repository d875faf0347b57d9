//! Window functions: `f(...) OVER (PARTITION BY ... ORDER BY ... frame)`
//! and the SELECT's named windows, compiled into [`WindowFunc`]s the
//! select list and ORDER BY read as [`Expr::Window`] slots. They are
//! computed by the window stage (execution::window) over the rows that
//! pass WHERE, GROUP BY and HAVING.
use super::{AggFunc, AggSpec, Compiler, Expr};
use crate::error::{Result, SqlError};
use crate::result::ColumnKind;
use lineardb_table::Collation;
use sqlparser::ast;

/// What a window function computes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum WindowKind {
    RowNumber,
    Rank,
    DenseRank,
    PercentRank,
    CumeDist,
    Ntile,
    Lag,
    Lead,
    FirstValue,
    LastValue,
    NthValue,
    /// An aggregate over the frame (its argument in the spec).
    Aggregate(AggFunc),
}

impl WindowKind {
    fn of(name: &str) -> Option<WindowKind> {
        Some(match name {
            "ROW_NUMBER" => WindowKind::RowNumber,
            "RANK" => WindowKind::Rank,
            "DENSE_RANK" => WindowKind::DenseRank,
            "PERCENT_RANK" => WindowKind::PercentRank,
            "CUME_DIST" => WindowKind::CumeDist,
            "NTILE" => WindowKind::Ntile,
            "LAG" => WindowKind::Lag,
            "LEAD" => WindowKind::Lead,
            "FIRST_VALUE" => WindowKind::FirstValue,
            "LAST_VALUE" => WindowKind::LastValue,
            "NTH_VALUE" => WindowKind::NthValue,
            "COUNT" => WindowKind::Aggregate(AggFunc::Count),
            "SUM" => WindowKind::Aggregate(AggFunc::Sum),
            "AVG" => WindowKind::Aggregate(AggFunc::Avg),
            "MIN" => WindowKind::Aggregate(AggFunc::Min),
            "MAX" => WindowKind::Aggregate(AggFunc::Max),
            _ => return None,
        })
    }

    /// Functions of the partition's order alone: a frame is an error.
    fn takes_no_frame(&self) -> bool {
        !matches!(
            self,
            WindowKind::FirstValue
                | WindowKind::LastValue
                | WindowKind::NthValue
                | WindowKind::Aggregate(_)
        )
    }

    /// Functions meaningless without an order.
    fn needs_order(&self) -> bool {
        matches!(
            self,
            WindowKind::Rank
                | WindowKind::DenseRank
                | WindowKind::PercentRank
                | WindowKind::CumeDist
                | WindowKind::Ntile
        )
    }

    /// The arguments it takes.
    fn arity(&self) -> std::ops::RangeInclusive<usize> {
        match self {
            WindowKind::RowNumber
            | WindowKind::Rank
            | WindowKind::DenseRank
            | WindowKind::PercentRank
            | WindowKind::CumeDist => 0..=0,
            WindowKind::Ntile | WindowKind::FirstValue | WindowKind::LastValue => 1..=1,
            WindowKind::Lag | WindowKind::Lead => 1..=2,
            WindowKind::NthValue => 2..=2,
            WindowKind::Aggregate(_) => 1..=1,
        }
    }
}

/// ROWS counts rows from the current one; RANGE compares ORDER BY values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FrameUnits {
    Rows,
    Range,
}

/// One end of a frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bound {
    UnboundedPreceding,
    Preceding(Expr),
    CurrentRow,
    Following(Expr),
    UnboundedFollowing,
}

impl Bound {
    /// Its offset expression, if it has one.
    pub(crate) fn offset(&self) -> Option<&Expr> {
        match self {
            Bound::Preceding(e) | Bound::Following(e) => Some(e),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Frame {
    pub units: FrameUnits,
    pub start: Bound,
    pub end: Bound,
}

/// One window function call of a SELECT.
#[derive(Debug, Clone)]
pub(crate) struct WindowFunc {
    pub kind: WindowKind,
    /// The argument expressions; an aggregate's first is also in `agg`.
    pub args: Vec<Expr>,
    pub partition_by: Vec<Expr>,
    /// Keys and descending flags.
    pub order_by: Vec<(Expr, bool)>,
    pub frame: Frame,
    /// The aggregate a [`WindowKind::Aggregate`] folds over its frame.
    pub agg: Option<AggSpec>,
}

impl WindowFunc {
    /// Every expression it evaluates per row.
    pub(crate) fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.args
            .iter()
            .chain(&self.partition_by)
            .chain(self.order_by.iter().map(|(e, _)| e))
            .chain(self.frame.start.offset())
            .chain(self.frame.end.offset())
    }

    /// This call with `f` applied to each of its expressions.
    pub(crate) fn map_exprs(&self, f: &dyn Fn(&Expr) -> Expr) -> WindowFunc {
        let bound = |b: &Bound| match b {
            Bound::Preceding(e) => Bound::Preceding(f(e)),
            Bound::Following(e) => Bound::Following(f(e)),
            other => other.clone(),
        };
        WindowFunc {
            kind: self.kind.clone(),
            args: self.args.iter().map(f).collect(),
            partition_by: self.partition_by.iter().map(f).collect(),
            order_by: self.order_by.iter().map(|(e, d)| (f(e), *d)).collect(),
            frame: Frame {
                units: self.frame.units,
                start: bound(&self.frame.start),
                end: bound(&self.frame.end),
            },
            agg: self.agg.as_ref().map(|a| AggSpec {
                arg: a.arg.as_ref().map(f),
                ..a.clone()
            }),
        }
    }

    /// The type of its values; `arg_kind` gives the kind of argument `i`
    /// and `agg_kind` that of its aggregate.
    pub(crate) fn kind_with(
        &self,
        arg_kind: impl Fn(&Expr) -> ColumnKind,
        agg_kind: impl Fn(&AggSpec) -> ColumnKind,
    ) -> ColumnKind {
        match &self.kind {
            WindowKind::RowNumber
            | WindowKind::Rank
            | WindowKind::DenseRank
            | WindowKind::Ntile => ColumnKind::Int,
            WindowKind::PercentRank | WindowKind::CumeDist => ColumnKind::Double,
            WindowKind::Lag
            | WindowKind::Lead
            | WindowKind::FirstValue
            | WindowKind::LastValue
            | WindowKind::NthValue => arg_kind(&self.args[0]),
            WindowKind::Aggregate(_) => agg_kind(self.agg.as_ref().expect("an aggregate")),
        }
    }
}

/// The window functions of one SELECT block being compiled, and its
/// `WINDOW name AS (...)` definitions.
#[derive(Debug, Default)]
pub(crate) struct Windows {
    pub funcs: Vec<WindowFunc>,
    pub named: Vec<ast::NamedWindowDefinition>,
}

fn error(code: u16, message: String) -> SqlError {
    SqlError::new(code, "HY000", message)
}

/// MariaDB's error for a window function where none may stand.
pub(crate) fn misplaced() -> SqlError {
    error(
        4015,
        "Window function is allowed only in SELECT list and ORDER BY clause".into(),
    )
}

/// MariaDB's error for a window function in an aggregate's arguments.
pub(crate) fn in_group_function() -> SqlError {
    error(
        4074,
        "Window functions can not be used as arguments to group functions.".into(),
    )
}

/// Whether a window function stands among `args`.
pub(crate) fn has_window_function(args: &ast::FunctionArguments) -> bool {
    let mut found = false;
    let _ = ast::visit_expressions(args, |e| {
        found |= matches!(e, ast::Expr::Function(g) if g.over.is_some());
        std::ops::ControlFlow::<()>::Continue(())
    });
    found
}

/// 4010 when a name is defined twice in `WINDOW`.
pub(crate) fn check_named(named: &[ast::NamedWindowDefinition]) -> Result<()> {
    for (i, d) in named.iter().enumerate() {
        if named[..i]
            .iter()
            .any(|o| o.0.value.eq_ignore_ascii_case(&d.0.value))
        {
            return Err(error(
                4010,
                format!(
                    "Multiple window specifications with the same name '{}'",
                    d.0.value
                ),
            ));
        }
    }
    Ok(())
}

/// The specification `name` stands for (4009 when there is none).
fn named_spec<'n>(
    named: &'n [ast::NamedWindowDefinition],
    name: &str,
) -> Result<&'n ast::WindowSpec> {
    let def = named
        .iter()
        .find(|d| d.0.value.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            error(
                4009,
                format!("Window specification with name '{name}' is not defined"),
            )
        })?;
    match &def.1 {
        ast::NamedWindowExpr::WindowSpec(s) => Ok(s),
        ast::NamedWindowExpr::NamedWindow(other) => named_spec(named, &other.value),
    }
}

impl Compiler<'_> {
    /// Compiles `name(args) OVER ...` into a window slot.
    pub(super) fn window_function(
        &mut self,
        name: &str,
        f: &ast::Function,
        over: &ast::WindowType,
    ) -> Result<Expr> {
        let Some(windows) = self.windows.take() else {
            return Err(misplaced());
        };
        let result = self.window_call(name, f, over, &windows.named);
        let mut windows = windows;
        let func = result?;
        windows.funcs.push(func);
        let slot = windows.funcs.len() - 1;
        self.windows = Some(windows);
        Ok(Expr::Window(slot))
    }

    fn window_call(
        &mut self,
        name: &str,
        f: &ast::Function,
        over: &ast::WindowType,
        named: &[ast::NamedWindowDefinition],
    ) -> Result<WindowFunc> {
        let lower = name.to_ascii_lowercase();
        let (args, distinct, clauses) = match &f.args {
            ast::FunctionArguments::None => (Vec::new(), false, &[][..]),
            ast::FunctionArguments::List(l) => (
                l.args.iter().collect::<Vec<_>>(),
                matches!(
                    l.duplicate_treatment,
                    Some(ast::DuplicateTreatment::Distinct)
                ),
                &l.clauses[..],
            ),
            ast::FunctionArguments::Subquery(_) => return Err(SqlError::unsupported("subquery")),
        };
        if matches!(name, "GROUP_CONCAT" | "JSON_ARRAYAGG" | "JSON_OBJECTAGG") {
            return Err(SqlError::unsupported(format!(
                "{name}() aggregate as window function"
            )));
        }
        let Some(kind) = WindowKind::of(name) else {
            return Err(SqlError::unsupported(format!(
                "{name}() as a window function"
            )));
        };
        if distinct {
            return Err(SqlError::unsupported(format!(
                "{name}(DISTINCT) aggregate as window function"
            )));
        }
        if !clauses.is_empty()
            || f.filter.is_some()
            || f.null_treatment.is_some()
            || !f.within_group.is_empty()
        {
            return Err(SqlError::unsupported(format!(
                "{name}(...) with this clause"
            )));
        }
        if matches!(kind, WindowKind::Aggregate(_)) && has_window_function(&f.args) {
            return Err(in_group_function());
        }
        let star = matches!(
            args.as_slice(),
            [ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Wildcard)]
        );
        // Arguments, PARTITION BY and ORDER BY may hold aggregates (of the
        // groups) but no other window function.
        let mut compiled = Vec::new();
        if !star {
            for a in &args {
                match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => {
                        compiled.push(self.compile(e)?)
                    }
                    other => return Err(SqlError::unsupported(other.to_string())),
                }
            }
        }
        let arity_ok = if star {
            kind == WindowKind::Aggregate(AggFunc::Count)
        } else {
            kind.arity().contains(&compiled.len())
        };
        if !arity_ok {
            if matches!(kind, WindowKind::Lag | WindowKind::Lead) && compiled.len() == 3 {
                // MariaDB's LAG/LEAD take no default value.
                return Err(SqlError::syntax(format!(
                    "You have an error in your SQL syntax; check the manual that corresponds \
                     to your MariaDB server version for the right syntax to use near '{}'",
                    args[2]
                )));
            }
            return Err(SqlError::wrong_arguments(name));
        }
        let spec = match over {
            ast::WindowType::WindowSpec(s) => s,
            ast::WindowType::NamedWindow(n) => named_spec(named, &n.value)?,
        };
        // `OVER (w ORDER BY ...)` refines the named window w.
        let base = match &spec.window_name {
            Some(n) => {
                let base = named_spec(named, &n.value)?;
                let w = &n.value;
                if !spec.partition_by.is_empty() {
                    return Err(error(
                        4011,
                        format!(
                            "Window specification referencing another one '{w}' cannot \
                             contain partition list"
                        ),
                    ));
                }
                if !base.order_by.is_empty() && !spec.order_by.is_empty() {
                    return Err(error(
                        4012,
                        format!(
                            "Referenced window specification '{w}' already contains order list"
                        ),
                    ));
                }
                if base.window_frame.is_some() {
                    return Err(error(
                        4013,
                        format!(
                            "Referenced window specification '{w}' cannot contain window frame"
                        ),
                    ));
                }
                Some(base)
            }
            None => None,
        };
        let partition_src = match base {
            Some(b) if spec.partition_by.is_empty() => &b.partition_by,
            _ => &spec.partition_by,
        };
        let order_src = match base {
            Some(b) if spec.order_by.is_empty() => &b.order_by,
            _ => &spec.order_by,
        };
        let frame_src = spec
            .window_frame
            .as_ref()
            .or(base.and_then(|b| b.window_frame.as_ref()));
        // Keys as bytes: strings as their collation's sort keys.
        let keyed = |c: &Self, x: Expr| {
            let kind = x.kind(c.scope, c.aggs.as_deref().unwrap_or(&[]));
            super::sort_keyed(x, kind)
        };
        let partition_by = partition_src
            .iter()
            .map(|e| {
                let x = self.compile(e)?;
                Ok(keyed(self, x))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut order_by = Vec::new();
        for o in order_src {
            let desc = matches!(o.options.sort, Some(ast::OrderBySort::Desc));
            let x = self.compile(&o.expr)?;
            order_by.push((keyed(self, x), desc));
        }
        if kind.needs_order() && order_by.is_empty() {
            return Err(error(
                4018,
                format!("No order list in window specification for '{lower}'"),
            ));
        }
        let frame = match frame_src {
            Some(_) if kind.takes_no_frame() => {
                return Err(error(
                    4017,
                    format!("Window frame is not allowed with '{lower}'"),
                ))
            }
            Some(fr) => self.frame(fr, &order_by)?,
            // Without a frame: up to the current row's last peer when
            // ordered, else the whole partition.
            None => Frame {
                units: FrameUnits::Range,
                start: Bound::UnboundedPreceding,
                end: if order_by.is_empty() {
                    Bound::UnboundedFollowing
                } else {
                    Bound::CurrentRow
                },
            },
        };
        let agg = match kind {
            WindowKind::Aggregate(func) => Some(AggSpec {
                func: if star { AggFunc::CountStar } else { func },
                arg: compiled.first().cloned(),
                distinct: false,
                more: Vec::new(),
                order: Vec::new(),
                separator: Vec::new(),
                bounds: Default::default(),
                collation: match compiled.first() {
                    Some(a) => self.collation_of(&[a]),
                    None => Collation::default(),
                },
            }),
            _ => None,
        };
        Ok(WindowFunc {
            kind,
            args: compiled,
            partition_by,
            order_by,
            frame,
            agg,
        })
    }

    fn frame(&mut self, fr: &ast::WindowFrame, order_by: &[(Expr, bool)]) -> Result<Frame> {
        let units = match fr.units {
            ast::WindowFrameUnits::Rows => FrameUnits::Rows,
            ast::WindowFrameUnits::Range => FrameUnits::Range,
            ast::WindowFrameUnits::Groups => {
                return Err(SqlError::syntax(
                    "You have an error in your SQL syntax; check the manual that corresponds \
                     to your MariaDB server version for the right syntax to use near 'groups'",
                ))
            }
        };
        let mut bound = |b: &ast::WindowFrameBound| -> Result<Bound> {
            Ok(match b {
                ast::WindowFrameBound::CurrentRow => Bound::CurrentRow,
                ast::WindowFrameBound::Preceding(None) => Bound::UnboundedPreceding,
                ast::WindowFrameBound::Following(None) => Bound::UnboundedFollowing,
                ast::WindowFrameBound::Preceding(Some(e)) => Bound::Preceding(self.offset(e)?),
                ast::WindowFrameBound::Following(Some(e)) => Bound::Following(self.offset(e)?),
            })
        };
        let start = bound(&fr.start_bound)?;
        let end = match &fr.end_bound {
            Some(b) => bound(b)?,
            None => Bound::CurrentRow,
        };
        let offsets = [&start, &end]
            .iter()
            .any(|b| matches!(b, Bound::Preceding(_) | Bound::Following(_)));
        if units == FrameUnits::Range && offsets {
            if order_by.len() != 1 {
                return Err(error(
                    4019,
                    "RANGE-type frame requires ORDER BY clause with single sort key".into(),
                ));
            }
            let numeric = match self.kind_of(&order_by[0].0) {
                ColumnKind::Int
                | ColumnKind::UInt
                | ColumnKind::Decimal { .. }
                | ColumnKind::Double => true,
                ColumnKind::Date | ColumnKind::DateTime | ColumnKind::Time => {
                    return Err(SqlError::unsupported(
                        "RANGE frames over dates (INTERVAL offsets)",
                    ))
                }
                ColumnKind::Text(_) => false,
            };
            if !numeric {
                return Err(error(
                    4021,
                    "Numeric datatype is required for RANGE-type frame".into(),
                ));
            }
        }
        Ok(Frame { units, start, end })
    }

    /// A frame offset: a constant (a literal or `?`).
    fn offset(&mut self, e: &ast::Expr) -> Result<Expr> {
        if matches!(e, ast::Expr::Interval(_)) {
            return Err(SqlError::unsupported(
                "RANGE frames over dates (INTERVAL offsets)",
            ));
        }
        let x = self.compile(e)?;
        if x.any(&|n| matches!(n, Expr::Col(_) | Expr::Agg(_) | Expr::Subquery(..))) {
            return Err(SqlError::syntax(format!(
                "You have an error in your SQL syntax; check the manual that corresponds \
                 to your MariaDB server version for the right syntax to use near '{e}'"
            )));
        }
        Ok(x)
    }

    /// The kind of a compiled expression in this compiler's scope (its
    /// aggregates so far included).
    fn kind_of(&self, e: &Expr) -> ColumnKind {
        e.kind(self.scope, self.aggs.as_deref().unwrap_or(&[]))
    }
}
