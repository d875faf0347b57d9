//! Walking and rewriting compiled expressions (planning only).
use super::{conjuncts, Expr};

impl Expr {
    /// The expressions directly under this one.
    pub(crate) fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Col(_) | Expr::Lit(_) | Expr::Param(_) | Expr::Agg(_) | Expr::Window(_) => {
                Vec::new()
            }
            Expr::Cmp(_, a, b, _)
            | Expr::Arith(_, a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Like(a, b, ..) => vec![a, b],
            Expr::Not(a) | Expr::Neg(a) | Expr::IsNull(a, _) | Expr::Interval(_, a) => vec![a],
            Expr::Cast(a, _) => vec![a],
            Expr::Between(a, b, c, ..) => vec![a, b, c],
            Expr::InList(a, l, ..) => std::iter::once(a.as_ref()).chain(l).collect(),
            Expr::Func(_, l) => l.iter().collect(),
            Expr::Case(o, whens, otherwise, _) => o
                .as_deref()
                .into_iter()
                .chain(whens.iter().flat_map(|(w, t)| [w, t]))
                .chain(otherwise.as_deref())
                .collect(),
            Expr::Subquery(_, test) => test.operands(),
        }
    }

    /// Whether this expression or one under it satisfies `pred`.
    pub(crate) fn any(&self, pred: &dyn Fn(&Expr) -> bool) -> bool {
        pred(self) || self.children().into_iter().any(|c| c.any(pred))
    }

    /// Adds the subqueries in this expression (not those inside them) to
    /// `out`, each once.
    pub(crate) fn subqueries<'e>(&'e self, out: &mut Vec<&'e super::subquery::Subquery>) {
        if let Expr::Subquery(sub, _) = self {
            if !out.iter().any(|s| s.id == sub.id) {
                out.push(sub);
            }
        }
        for c in self.children() {
            c.subqueries(out);
        }
    }

    /// Has a subquery that reads the row (it must see the whole row).
    pub(crate) fn has_correlated_subquery(&self) -> bool {
        self.any(&|e| matches!(e, Expr::Subquery(s, _) if s.correlated))
    }

    /// This expression with every node `f` gives a replacement for
    /// replaced (top-down; a replaced node's children are not visited).
    pub(crate) fn rewrite(&self, f: &dyn Fn(&Expr) -> Option<Expr>) -> Expr {
        if let Some(r) = f(self) {
            return r;
        }
        let b = |e: &Expr| Box::new(e.rewrite(f));
        match self {
            Expr::Col(_) | Expr::Lit(_) | Expr::Param(_) | Expr::Agg(_) | Expr::Window(_) => {
                self.clone()
            }
            Expr::Cmp(op, a, c, k) => Expr::Cmp(*op, b(a), b(c), *k),
            Expr::Arith(op, a, c) => Expr::Arith(*op, b(a), b(c)),
            Expr::And(a, c) => Expr::And(b(a), b(c)),
            Expr::Or(a, c) => Expr::Or(b(a), b(c)),
            Expr::Like(a, c, n, k) => Expr::Like(b(a), b(c), *n, *k),
            Expr::Not(a) => Expr::Not(b(a)),
            Expr::Neg(a) => Expr::Neg(b(a)),
            Expr::IsNull(a, n) => Expr::IsNull(b(a), *n),
            Expr::Interval(u, a) => Expr::Interval(*u, b(a)),
            Expr::Cast(a, t) => Expr::Cast(b(a), *t),
            Expr::Between(a, l, h, n, k) => Expr::Between(b(a), b(l), b(h), *n, *k),
            Expr::InList(a, l, n, k) => {
                Expr::InList(b(a), l.iter().map(|x| x.rewrite(f)).collect(), *n, *k)
            }
            Expr::Func(func, l) => Expr::Func(*func, l.iter().map(|x| x.rewrite(f)).collect()),
            Expr::Case(o, whens, otherwise, k) => Expr::Case(
                o.as_ref().map(|x| b(x)),
                whens
                    .iter()
                    .map(|(w, t)| (w.rewrite(f), t.rewrite(f)))
                    .collect(),
                otherwise.as_ref().map(|x| b(x)),
                *k,
            ),
            Expr::Subquery(s, test) => {
                Expr::Subquery(s.clone(), test.map_operands(|x| x.rewrite(f)))
            }
        }
    }

    /// The columns it reads, as a sorted list without repeats.
    pub(crate) fn column_list(&self) -> Vec<usize> {
        let mut cols = Vec::new();
        self.columns(&mut |c| cols.push(c));
        cols.sort_unstable();
        cols.dedup();
        cols
    }
}

/// `(x AND a) OR (x AND b)` as `x AND (a OR b)`, everywhere in a chain of
/// conjuncts: a condition every alternative repeats (a join's equality,
/// typically) becomes one the planner can use. AND and OR distribute in
/// SQL's three-valued logic, so the result is the same.
pub(crate) fn factor_or(e: Expr) -> Expr {
    match e {
        Expr::And(a, b) => Expr::And(Box::new(factor_or(*a)), Box::new(factor_or(*b))),
        Expr::Or(..) => {
            let mut alternatives = Vec::new();
            disjuncts(&e, &mut alternatives);
            let mut parts: Vec<Vec<Expr>> = alternatives
                .into_iter()
                .map(|a| {
                    let mut c = Vec::new();
                    conjuncts(a, &mut c);
                    c.into_iter().cloned().collect()
                })
                .collect();
            let common: Vec<Expr> = parts[0]
                .iter()
                .filter(|c| parts[1..].iter().all(|p| p.contains(c)))
                .cloned()
                .collect();
            if common.is_empty() {
                return e;
            }
            for p in &mut parts {
                p.retain(|c| !common.contains(c));
            }
            let mut out = common;
            // An alternative left with nothing is true: so is the OR.
            if parts.iter().all(|p| !p.is_empty()) {
                let alternatives = parts.into_iter().map(|p| and_all(p).expect("non-empty"));
                out.push(
                    alternatives
                        .reduce(|a, b| Expr::Or(Box::new(a), Box::new(b)))
                        .expect("alternatives"),
                );
            }
            and_all(out).expect("non-empty")
        }
        other => other,
    }
}

/// The alternatives of an OR (the expression itself if it is none).
pub(crate) fn disjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Or(a, b) => {
            disjuncts(a, out);
            disjuncts(b, out);
        }
        other => out.push(other),
    }
}

/// The conjunction of `list`; `None` when it is empty.
pub(crate) fn and_all(list: impl IntoIterator<Item = Expr>) -> Option<Expr> {
    list.into_iter()
        .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::CmpOp;
    use lineardb_table::Value;

    fn eq(c: usize, v: i64) -> Expr {
        Expr::Cmp(
            CmpOp::Eq,
            Box::new(Expr::Col(c)),
            Box::new(Expr::Lit(Value::Int(v))),
            lineardb_table::Collation::default(),
        )
    }
    fn and(a: Expr, b: Expr) -> Expr {
        Expr::And(Box::new(a), Box::new(b))
    }
    fn or(a: Expr, b: Expr) -> Expr {
        Expr::Or(Box::new(a), Box::new(b))
    }

    #[test]
    fn common_conditions_leave_the_alternatives() {
        let e = or(and(eq(0, 1), eq(1, 2)), and(eq(1, 3), eq(0, 1)));
        assert_eq!(factor_or(e), and(eq(0, 1), or(eq(1, 2), eq(1, 3))));
        // An alternative that is only the common part makes the OR true.
        let e = or(eq(0, 1), and(eq(0, 1), eq(1, 2)));
        assert_eq!(factor_or(e), eq(0, 1));
        // Nothing in common: unchanged.
        let e = or(eq(0, 1), eq(1, 2));
        assert_eq!(factor_or(e.clone()), e);
    }
}
