//! Walking and rewriting compiled expressions (planning only).
use super::subquery::SubqueryTest;
use super::Expr;

impl Expr {
    /// The expressions directly under this one.
    pub(crate) fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Col(_) | Expr::Lit(_) | Expr::Param(_) | Expr::Agg(_) => Vec::new(),
            Expr::Cmp(_, a, b)
            | Expr::Arith(_, a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Like(a, b, _) => vec![a, b],
            Expr::Not(a) | Expr::Neg(a) | Expr::IsNull(a, _) | Expr::Interval(_, a) => vec![a],
            Expr::Cast(a, _) => vec![a],
            Expr::Between(a, b, c, _) => vec![a, b, c],
            Expr::InList(a, l, _) => std::iter::once(a.as_ref()).chain(l).collect(),
            Expr::Func(_, l) => l.iter().collect(),
            Expr::Case(o, whens, otherwise) => o
                .as_deref()
                .into_iter()
                .chain(whens.iter().flat_map(|(w, t)| [w, t]))
                .chain(otherwise.as_deref())
                .collect(),
            Expr::Subquery(_, test) => test.operand().into_iter().collect(),
        }
    }

    /// Whether this expression or one under it satisfies `pred`.
    pub(crate) fn any(&self, pred: &dyn Fn(&Expr) -> bool) -> bool {
        pred(self) || self.children().into_iter().any(|c| c.any(pred))
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
            Expr::Col(_) | Expr::Lit(_) | Expr::Param(_) | Expr::Agg(_) => self.clone(),
            Expr::Cmp(op, a, c) => Expr::Cmp(*op, b(a), b(c)),
            Expr::Arith(op, a, c) => Expr::Arith(*op, b(a), b(c)),
            Expr::And(a, c) => Expr::And(b(a), b(c)),
            Expr::Or(a, c) => Expr::Or(b(a), b(c)),
            Expr::Like(a, c, n) => Expr::Like(b(a), b(c), *n),
            Expr::Not(a) => Expr::Not(b(a)),
            Expr::Neg(a) => Expr::Neg(b(a)),
            Expr::IsNull(a, n) => Expr::IsNull(b(a), *n),
            Expr::Interval(u, a) => Expr::Interval(*u, b(a)),
            Expr::Cast(a, t) => Expr::Cast(b(a), *t),
            Expr::Between(a, l, h, n) => Expr::Between(b(a), b(l), b(h), *n),
            Expr::InList(a, l, n) => {
                Expr::InList(b(a), l.iter().map(|x| x.rewrite(f)).collect(), *n)
            }
            Expr::Func(func, l) => Expr::Func(*func, l.iter().map(|x| x.rewrite(f)).collect()),
            Expr::Case(o, whens, otherwise) => Expr::Case(
                o.as_ref().map(|x| b(x)),
                whens
                    .iter()
                    .map(|(w, t)| (w.rewrite(f), t.rewrite(f)))
                    .collect(),
                otherwise.as_ref().map(|x| b(x)),
            ),
            Expr::Subquery(s, test) => Expr::Subquery(
                s.clone(),
                match test {
                    SubqueryTest::In(x) => SubqueryTest::In(b(x)),
                    SubqueryTest::Quantified(op, all, x) => {
                        SubqueryTest::Quantified(*op, *all, b(x))
                    }
                    other => other.clone(),
                },
            ),
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
