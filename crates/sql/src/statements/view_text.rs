//! A view's query as MariaDB prints it in SHOW CREATE VIEW: lower-case
//! keywords, every column qualified by its table and every item named
//! (`` `t`.`a` AS `a` ``), `*` expanded, joins parenthesized with `on(…)`,
//! only the parentheses precedence needs. Tables are written without their
//! database unless one of them is in another database than the view's
//! (then all are, as MariaDB does).
//!
//! The text is written from the stored query and the tables as they are
//! now. A construct not printed here (common table expressions, window
//! functions, NOT, USING joins, casts to strings, ...) makes the whole text
//! `None`: the caller shows the query as stored, which reads the same.
use lineardb_table::Engine;
use sqlparser::ast;

/// The canonical text of `query`, a view of database `db` whose columns
/// are named `names` (empty: named by the query's items). Tables are named
/// with their database when one is in another database, or always when
/// `with_db` (information_schema.VIEWS' form).
pub(crate) fn canonical_view_text(
    engine: &Engine,
    db: &str,
    query: &ast::Query,
    names: &[String],
    with_db: bool,
) -> Option<String> {
    let mut tables = Vec::new();
    let _ = ast::visit_relations(query, |n| {
        tables.push(n.clone());
        std::ops::ControlFlow::<()>::Continue(())
    });
    let with_db = with_db
        || tables.iter().any(|n| match n.0.as_slice() {
            [ast::ObjectNamePart::Identifier(d), _] => !d.value.eq_ignore_ascii_case(db),
            _ => false,
        });
    let mut p = Printer {
        engine,
        with_db,
        scopes: Vec::new(),
    };
    p.query(query, names, true).map(|(text, _)| text)
}

/// A table a query block reads: how its columns are written, and their
/// names.
struct ScopeTable {
    /// `` `t` `` or `` `db`.`t` `` (its alias when it has one).
    prefix: String,
    /// The name a qualified column reference uses (alias or table name).
    name: String,
    columns: Vec<String>,
}

/// One query block's tables and its items (for ORDER BY and HAVING names).
#[derive(Default)]
struct Scope {
    tables: Vec<ScopeTable>,
    /// Item names and their printed expressions.
    items: Vec<(String, String)>,
}

struct Printer<'a> {
    engine: &'a Engine,
    with_db: bool,
    scopes: Vec<Scope>,
}

fn quote(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// MariaDB's precedence levels (higher binds tighter).
mod prec {
    pub const OR: u8 = 1;
    pub const XOR: u8 = 2;
    pub const AND: u8 = 3;
    pub const CMP: u8 = 5;
    pub const BITOR: u8 = 6;
    pub const BITAND: u8 = 7;
    pub const SHIFT: u8 = 8;
    pub const ADD: u8 = 9;
    pub const MUL: u8 = 10;
    pub const BITXOR: u8 = 11;
    pub const NEG: u8 = 13;
    pub const HIGHEST: u8 = 20;
}

impl Printer<'_> {
    /// A query's text and the names of its (first block's) items.
    /// `aliased`: whether items carry `AS name` (not in a subquery that is
    /// an expression's).
    fn query(
        &mut self,
        q: &ast::Query,
        names: &[String],
        aliased: bool,
    ) -> Option<(String, Vec<String>)> {
        if q.with.is_some() || q.fetch.is_some() || !q.locks.is_empty() || q.for_clause.is_some() {
            return None;
        }
        let (mut out, items) = match q.body.as_ref() {
            ast::SetExpr::Select(s) => {
                let text = self.select(s, names, aliased)?;
                let items = self.scope().items.iter().map(|(n, _)| n.clone()).collect();
                let order = match &q.order_by {
                    Some(order) => self.order_by(order)?,
                    None => String::new(),
                };
                self.scopes.pop();
                (text + &order, items)
            }
            body @ ast::SetExpr::SetOperation { .. } if q.order_by.is_none() => {
                self.set_operation(body, names, aliased)?
            }
            _ => return None,
        };
        if let Some(limit) = &q.limit_clause {
            out.push_str(&self.limit(limit)?);
        }
        Some((out, items))
    }

    fn scope(&self) -> &Scope {
        self.scopes.last().expect("a query block is being printed")
    }

    /// `a union [all] b …`: each block names its own items.
    fn set_operation(
        &mut self,
        body: &ast::SetExpr,
        names: &[String],
        aliased: bool,
    ) -> Option<(String, Vec<String>)> {
        match body {
            ast::SetExpr::Select(s) => {
                let text = self.select(s, names, aliased)?;
                let items = self
                    .scopes
                    .pop()?
                    .items
                    .into_iter()
                    .map(|(n, _)| n)
                    .collect();
                Some((text, items))
            }
            ast::SetExpr::SetOperation {
                op: ast::SetOperator::Union,
                set_quantifier,
                left,
                right,
            } => {
                let all = match set_quantifier {
                    ast::SetQuantifier::All => "all ",
                    ast::SetQuantifier::None | ast::SetQuantifier::Distinct => "",
                    _ => return None,
                };
                let (l, items) = self.set_operation(left, names, aliased)?;
                let (r, _) = self.set_operation(right, &[], aliased)?;
                Some((format!("{l} union {all}{r}"), items))
            }
            _ => None,
        }
    }

    /// ` order by …` in the scope of the block just printed: an item's
    /// name stands for the item.
    fn order_by(&mut self, order: &ast::OrderBy) -> Option<String> {
        let ast::OrderByKind::Expressions(list) = &order.kind else {
            return None;
        };
        let mut parts = Vec::new();
        for o in list {
            if o.with_fill.is_some() || o.options.nulls_first.is_some() {
                return None;
            }
            let item = match &o.expr {
                ast::Expr::Identifier(id) => self
                    .scope()
                    .items
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(&id.value))
                    .map(|(_, e)| e.clone()),
                ast::Expr::Value(_) => return None, // a position
                _ => None,
            };
            let e = match item {
                Some(e) => e,
                None => self.arg(&o.expr, 0)?,
            };
            parts.push(match &o.options.sort {
                None | Some(ast::OrderBySort::Asc) => e,
                Some(ast::OrderBySort::Desc) => format!("{e} desc"),
                Some(_) => return None,
            });
        }
        Some(format!(" order by {}", parts.join(",")))
    }

    fn limit(&mut self, limit: &ast::LimitClause) -> Option<String> {
        let number = |e: &ast::Expr| match e {
            ast::Expr::Value(v) => match &v.value {
                ast::Value::Number(n, _) => Some(n.clone()),
                _ => None,
            },
            _ => None,
        };
        match limit {
            ast::LimitClause::LimitOffset {
                limit: Some(l),
                offset,
                limit_by,
            } if limit_by.is_empty() => match offset {
                None => Some(format!(" limit {}", number(l)?)),
                Some(o) => Some(format!(" limit {},{}", number(&o.value)?, number(l)?)),
            },
            ast::LimitClause::OffsetCommaLimit { offset, limit } => {
                Some(format!(" limit {},{}", number(offset)?, number(limit)?))
            }
            _ => None,
        }
    }

    /// `select …` of one block; leaves the block's scope pushed (ORDER BY
    /// reads it) for the caller to pop.
    fn select(&mut self, s: &ast::Select, names: &[String], aliased: bool) -> Option<String> {
        let plain_group =
            matches!(&s.group_by, ast::GroupByExpr::Expressions(_, m) if m.is_empty());
        if !plain_group
            || s.top.is_some()
            || s.into.is_some()
            || s.select_modifiers.is_some()
            || !s.lateral_views.is_empty()
            || s.prewhere.is_some()
            || !s.connect_by.is_empty()
            || !s.cluster_by.is_empty()
            || !s.distribute_by.is_empty()
            || !s.sort_by.is_empty()
            || !s.named_window.is_empty()
            || s.qualify.is_some()
            || s.exclude.is_some()
            || s.value_table_mode.is_some()
            || !matches!(s.flavor, ast::SelectFlavor::Standard)
        {
            return None;
        }
        self.scopes.push(Scope::default());
        let from = self.from(&s.from)?;
        // Items, `*` expanded.
        let mut items: Vec<(Option<String>, String)> = Vec::new();
        for item in &s.projection {
            match item {
                ast::SelectItem::UnnamedExpr(e) => {
                    let name = match e {
                        ast::Expr::Identifier(id) => id.value.clone(),
                        ast::Expr::CompoundIdentifier(ids) => ids.last()?.value.clone(),
                        other => other.to_string(),
                    };
                    items.push((Some(name), self.arg(e, 0)?));
                }
                ast::SelectItem::ExprWithAlias { expr, alias } => {
                    items.push((Some(alias.value.clone()), self.arg(expr, 0)?));
                }
                ast::SelectItem::Wildcard(opts) => {
                    if !plain_wildcard(opts) {
                        return None;
                    }
                    for t in &self.scope().tables {
                        for c in &t.columns {
                            items.push((Some(c.clone()), format!("{}.{}", t.prefix, quote(c))));
                        }
                    }
                }
                ast::SelectItem::QualifiedWildcard(
                    ast::SelectItemQualifiedWildcardKind::ObjectName(n),
                    opts,
                ) => {
                    let [ast::ObjectNamePart::Identifier(t)] = n.0.as_slice() else {
                        return None;
                    };
                    if !plain_wildcard(opts) {
                        return None;
                    }
                    let table = self
                        .scope()
                        .tables
                        .iter()
                        .find(|x| x.name.eq_ignore_ascii_case(&t.value))?;
                    let expanded: Vec<_> = table
                        .columns
                        .iter()
                        .map(|c| (Some(c.clone()), format!("{}.{}", table.prefix, quote(c))))
                        .collect();
                    items.extend(expanded);
                }
                _ => return None,
            }
        }
        let given = names.len() == items.len();
        let named: Vec<(String, String)> = items
            .into_iter()
            .enumerate()
            .map(|(i, (n, e))| match given {
                true => (names[i].clone(), e),
                false => (n.unwrap_or_default(), e),
            })
            .collect();
        let mut out = String::from("select ");
        match &s.distinct {
            None | Some(ast::Distinct::All) => {}
            Some(ast::Distinct::Distinct) => out.push_str("distinct "),
            Some(_) => return None,
        }
        let list: Vec<String> = named
            .iter()
            .map(|(n, e)| match aliased {
                true => format!("{e} AS {}", quote(n)),
                false => e.clone(),
            })
            .collect();
        out.push_str(&list.join(","));
        self.scopes.last_mut()?.items = named;
        if let Some(from) = from {
            out.push_str(" from ");
            out.push_str(&from);
        }
        if let Some(w) = &s.selection {
            out.push_str(" where ");
            out.push_str(&self.arg(w, 0)?);
        }
        if let ast::GroupByExpr::Expressions(list, _) = &s.group_by {
            if !list.is_empty() {
                let mut parts = Vec::new();
                for g in list {
                    parts.push(self.arg(g, 0)?);
                }
                out.push_str(" group by ");
                out.push_str(&parts.join(","));
            }
        }
        if let Some(h) = &s.having {
            out.push_str(" having ");
            out.push_str(&self.arg(h, 0)?);
        }
        Some(out)
    }

    /// The FROM clause (None: there is none), its tables added to the
    /// current scope.
    fn from(&mut self, from: &[ast::TableWithJoins]) -> Option<Option<String>> {
        let mut parts = Vec::new();
        for twj in from {
            let mut acc = self.factor(&twj.relation)?;
            for j in &twj.joins {
                let right = self.factor(&j.relation)?;
                let (kind, constraint) = match &j.join_operator {
                    ast::JoinOperator::Join(c) | ast::JoinOperator::Inner(c) => ("join", c),
                    ast::JoinOperator::Left(c) | ast::JoinOperator::LeftOuter(c) => {
                        ("left join", c)
                    }
                    ast::JoinOperator::CrossJoin(c) => ("join", c),
                    _ => return None,
                };
                acc = match constraint {
                    ast::JoinConstraint::On(e) => {
                        format!("({acc} {kind} {right} on({}))", self.arg(e, 0)?)
                    }
                    ast::JoinConstraint::None if kind == "join" => format!("({acc} join {right})"),
                    _ => return None,
                };
            }
            parts.push(acc);
        }
        Some(match parts.len() {
            0 => None,
            1 => parts.pop(),
            _ => Some(format!("({})", parts.join(" join "))),
        })
    }

    /// One table or derived table, added to the current scope.
    fn factor(&mut self, f: &ast::TableFactor) -> Option<String> {
        match f {
            ast::TableFactor::Table {
                name,
                alias,
                args: None,
                with_hints,
                version: None,
                partitions,
                json_path: None,
                sample: None,
                index_hints,
                ..
            } if with_hints.is_empty() && partitions.is_empty() && index_hints.is_empty() => {
                let [ast::ObjectNamePart::Identifier(db), ast::ObjectNamePart::Identifier(t)] =
                    name.0.as_slice()
                else {
                    return None;
                };
                let table = self.engine.table(&db.value, &t.value).ok()?;
                let columns = table.def().columns.iter().map(|c| c.name.clone()).collect();
                let written = match self.with_db {
                    true => format!("{}.{}", quote(&db.value), quote(&t.value)),
                    false => quote(&t.value),
                };
                let alias = match alias {
                    None => None,
                    Some(a) if a.columns.is_empty() => Some(a.name.value.clone()),
                    Some(_) => return None,
                };
                let (text, prefix, name) = match alias {
                    Some(a) => (format!("{written} {}", quote(&a)), quote(&a), a),
                    None => (written.clone(), written, t.value.clone()),
                };
                self.scopes.last_mut()?.tables.push(ScopeTable {
                    prefix,
                    name,
                    columns,
                });
                Some(text)
            }
            ast::TableFactor::Derived {
                lateral: false,
                subquery,
                alias: Some(alias),
                ..
            } => {
                let names: Vec<String> =
                    alias.columns.iter().map(|c| c.name.value.clone()).collect();
                let (text, columns) = self.query(subquery, &names, true)?;
                let name = alias.name.value.clone();
                self.scopes.last_mut()?.tables.push(ScopeTable {
                    prefix: quote(&name),
                    name: name.clone(),
                    columns,
                });
                Some(format!("({text}) {}", quote(&name)))
            }
            _ => None,
        }
    }

    /// A column reference, qualified by its table: inner blocks first, then
    /// the blocks around them; an item's name (HAVING) last.
    fn column(&self, parts: &[ast::Ident]) -> Option<String> {
        // The innermost block with a table that has the column; `Err` when
        // two of its tables do (a table changed since the view was made:
        // no text rather than a guess).
        let found = |want_table: Option<&str>, col: &str| -> Result<Option<String>, ()> {
            for scope in self.scopes.iter().rev() {
                let mut hits = scope.tables.iter().filter_map(|t| {
                    if want_table.is_some_and(|w| !t.name.eq_ignore_ascii_case(w)) {
                        return None;
                    }
                    let c = t.columns.iter().find(|c| c.eq_ignore_ascii_case(col))?;
                    Some(format!("{}.{}", t.prefix, quote(c)))
                });
                if let Some(first) = hits.next() {
                    return match hits.next() {
                        Some(_) => Err(()),
                        None => Ok(Some(first)),
                    };
                }
            }
            Ok(None)
        };
        match parts {
            [c] => match found(None, &c.value).ok()? {
                Some(column) => Some(column),
                None => self
                    .scope()
                    .items
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(&c.value))
                    .map(|(n, _)| quote(n)),
            },
            [t, c] | [_, t, c] => found(Some(&t.value), &c.value).ok()?,
            _ => None,
        }
    }

    /// `e`, parenthesized if it binds less tightly than `min`.
    fn arg(&mut self, e: &ast::Expr, min: u8) -> Option<String> {
        let (text, p) = self.expr(e)?;
        Some(if p < min { format!("({text})") } else { text })
    }

    /// An expression's text and precedence.
    fn expr(&mut self, e: &ast::Expr) -> Option<(String, u8)> {
        use ast::Expr as E;
        Some(match e {
            E::Identifier(id) => (self.column(std::slice::from_ref(id))?, prec::HIGHEST),
            E::CompoundIdentifier(ids) => (self.column(ids)?, prec::HIGHEST),
            E::Value(v) => (literal(&v.value)?, prec::HIGHEST),
            E::Nested(inner) => self.expr(inner)?,
            E::BinaryOp { left, op, right } => {
                let (text, p) = binary_op(op)?;
                let l = self.arg(left, p)?;
                let r = self.arg(right, p + 1)?;
                (format!("{l} {text} {r}"), p)
            }
            E::UnaryOp {
                op: ast::UnaryOperator::Minus,
                expr,
            } => (format!("-{}", self.arg(expr, prec::NEG)?), prec::NEG),
            E::UnaryOp {
                op: ast::UnaryOperator::Plus,
                expr,
            } => self.expr(expr)?,
            E::UnaryOp {
                op: ast::UnaryOperator::Not,
                expr,
            } => self.negated(expr)?,
            E::IsNull(x) => self.postfix(x, "is null")?,
            E::IsNotNull(x) => self.postfix(x, "is not null")?,
            E::IsTrue(x) => self.postfix(x, "is true")?,
            E::IsNotTrue(x) => self.postfix(x, "is not true")?,
            E::IsFalse(x) => self.postfix(x, "is false")?,
            E::IsNotFalse(x) => self.postfix(x, "is not false")?,
            E::InList {
                expr,
                list,
                negated,
            } => {
                let x = self.arg(expr, prec::CMP + 1)?;
                if let [one] = list.as_slice() {
                    let v = self.arg(one, prec::CMP + 1)?;
                    let op = if *negated { "<>" } else { "=" };
                    return Some((format!("{x} {op} {v}"), prec::CMP));
                }
                let mut values = Vec::new();
                for v in list {
                    values.push(self.arg(v, 0)?);
                }
                let not = if *negated { "not " } else { "" };
                (format!("{x} {not}in ({})", values.join(",")), prec::CMP)
            }
            E::InSubquery {
                expr,
                subquery,
                negated,
            } => {
                let x = self.arg(expr, prec::CMP + 1)?;
                let (q, _) = self.query(subquery, &[], false)?;
                let not = if *negated { "not " } else { "" };
                (format!("{x} {not}in ({q})"), prec::CMP)
            }
            E::Subquery(q) => (format!("({})", self.query(q, &[], false)?.0), prec::HIGHEST),
            E::Exists {
                subquery,
                negated: false,
            } => {
                // MariaDB reads one row of it.
                let (mut q, _) = self.query(subquery, &[], false)?;
                if subquery.limit_clause.is_none() {
                    q.push_str(" limit 1");
                }
                (format!("exists({q})"), prec::HIGHEST)
            }
            E::Between {
                expr,
                negated,
                low,
                high,
            } => {
                const BETWEEN: u8 = 4;
                let x = self.arg(expr, BETWEEN + 1)?;
                let (l, h) = (self.arg(low, BETWEEN + 1)?, self.arg(high, BETWEEN + 1)?);
                let not = if *negated { "not " } else { "" };
                (format!("{x} {not}between {l} and {h}"), BETWEEN)
            }
            E::Like {
                negated,
                any: false,
                expr,
                pattern,
                escape_char: None,
            } => {
                let x = self.arg(expr, prec::CMP + 1)?;
                let p = self.arg(pattern, prec::CMP + 1)?;
                // MariaDB writes two spaces before NOT LIKE's NOT.
                let op = if *negated { " not like" } else { "like" };
                (format!("{x} {op} {p}"), prec::CMP)
            }
            E::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                let mut out = String::from("case ");
                if let Some(o) = operand {
                    out.push_str(&self.arg(o, 0)?);
                    out.push(' ');
                }
                for w in conditions {
                    let c = self.arg(&w.condition, 0)?;
                    let r = self.arg(&w.result, 0)?;
                    out.push_str(&format!("when {c} then {r} "));
                }
                if let Some(e) = else_result {
                    out.push_str(&format!("else {} ", self.arg(e, 0)?));
                }
                out.push_str("end");
                (out, prec::HIGHEST)
            }
            E::Cast {
                kind: ast::CastKind::Cast,
                expr,
                data_type,
                format: None,
            } => {
                let t = cast_type(data_type)?;
                (
                    format!("cast({} as {t})", self.arg(expr, 0)?),
                    prec::HIGHEST,
                )
            }
            E::Substring {
                expr,
                substring_from: Some(from),
                substring_for,
                ..
            } => {
                let mut args = vec![self.arg(expr, 0)?, self.arg(from, 0)?];
                if let Some(n) = substring_for {
                    args.push(self.arg(n, 0)?);
                }
                (format!("substr({})", args.join(",")), prec::HIGHEST)
            }
            E::Position { expr, r#in } => {
                let (needle, hay) = (self.arg(expr, 0)?, self.arg(r#in, 0)?);
                (format!("locate({needle},{hay})"), prec::HIGHEST)
            }
            E::Function(f) => (self.function(f)?, prec::HIGHEST),
            _ => return None,
        })
    }

    /// `x is …`: a comparison's precedence.
    fn postfix(&mut self, x: &ast::Expr, test: &str) -> Option<(String, u8)> {
        Some((format!("{} {test}", self.arg(x, prec::CMP + 1)?), prec::CMP))
    }

    /// NOT `e` as MariaDB prints it: pushed into comparisons, AND and OR
    /// (De Morgan), IS, IN, BETWEEN and LIKE; `e = 0` for a value.
    fn negated(&mut self, e: &ast::Expr) -> Option<(String, u8)> {
        use ast::BinaryOperator as B;
        use ast::Expr as E;
        let not = |e: &ast::Expr| E::UnaryOp {
            op: ast::UnaryOperator::Not,
            expr: Box::new(e.clone()),
        };
        let flipped = match e {
            E::Nested(inner) => return self.negated(inner),
            E::BinaryOp { left, op, right } => {
                let op = match op {
                    B::Eq => B::NotEq,
                    B::NotEq => B::Eq,
                    B::Lt => B::GtEq,
                    B::GtEq => B::Lt,
                    B::Gt => B::LtEq,
                    B::LtEq => B::Gt,
                    B::And | B::Or => {
                        let op = if *op == B::And { B::Or } else { B::And };
                        return self.expr(&E::BinaryOp {
                            left: Box::new(not(left)),
                            op,
                            right: Box::new(not(right)),
                        });
                    }
                    _ => return None,
                };
                E::BinaryOp {
                    left: left.clone(),
                    op,
                    right: right.clone(),
                }
            }
            E::IsNull(x) => E::IsNotNull(x.clone()),
            E::IsNotNull(x) => E::IsNull(x.clone()),
            E::InList {
                expr,
                list,
                negated,
            } => E::InList {
                expr: expr.clone(),
                list: list.clone(),
                negated: !negated,
            },
            E::Between {
                expr,
                negated,
                low,
                high,
            } => E::Between {
                expr: expr.clone(),
                negated: !negated,
                low: low.clone(),
                high: high.clone(),
            },
            E::Like {
                negated,
                any: false,
                expr,
                pattern,
                escape_char: None,
            } => E::Like {
                negated: !negated,
                any: false,
                expr: expr.clone(),
                pattern: pattern.clone(),
                escape_char: None,
            },
            E::Identifier(_) | E::CompoundIdentifier(_) | E::Function(_) => {
                let x = self.arg(e, prec::CMP + 1)?;
                return Some((format!("{x} = 0"), prec::CMP));
            }
            _ => return None,
        };
        self.expr(&flipped)
    }

    fn function(&mut self, f: &ast::Function) -> Option<String> {
        if f.uses_odbc_syntax
            || f.over.is_some()
            || f.filter.is_some()
            || f.null_treatment.is_some()
            || !f.within_group.is_empty()
            || !matches!(f.parameters, ast::FunctionArguments::None)
        {
            return None;
        }
        let [ast::ObjectNamePart::Identifier(id)] = f.name.0.as_slice() else {
            return None;
        };
        if id.quote_style.is_some() {
            return None;
        }
        let upper = id.value.to_ascii_uppercase();
        let name = match upper.as_str() {
            "UPPER" => "ucase".to_string(),
            "LOWER" => "lcase".to_string(),
            "SUBSTRING" | "MID" => "substr".to_string(),
            "NOW" | "CURRENT_TIMESTAMP" | "LOCALTIME" | "LOCALTIMESTAMP" => {
                "current_timestamp".to_string()
            }
            _ => upper.to_ascii_lowercase(),
        };
        let list = match &f.args {
            ast::FunctionArguments::None => return Some(format!("{name}()")),
            ast::FunctionArguments::List(l) => l,
            ast::FunctionArguments::Subquery(_) => return None,
        };
        if !list.clauses.is_empty() {
            return None;
        }
        let mut args = Vec::new();
        for a in &list.args {
            args.push(match a {
                ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => self.arg(e, 0)?,
                ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Wildcard) if upper == "COUNT" => {
                    "0".to_string()
                }
                _ => return None,
            });
        }
        let distinct = match list.duplicate_treatment {
            None | Some(ast::DuplicateTreatment::All) => "",
            Some(ast::DuplicateTreatment::Distinct) => "distinct ",
        };
        Some(format!("{name}({distinct}{})", args.join(",")))
    }
}

fn plain_wildcard(o: &ast::WildcardAdditionalOptions) -> bool {
    o.opt_ilike.is_none()
        && o.opt_exclude.is_none()
        && o.opt_except.is_none()
        && o.opt_replace.is_none()
        && o.opt_rename.is_none()
        && o.opt_alias.is_none()
}

/// A literal as MariaDB prints it (strings in single quotes, `'` and `\`
/// escaped by a backslash; TRUE and FALSE as 1 and 0).
fn literal(v: &ast::Value) -> Option<String> {
    Some(match v {
        ast::Value::Number(n, false) => n.clone(),
        ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
            format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
        }
        ast::Value::Boolean(b) => u8::from(*b).to_string(),
        ast::Value::Null => "NULL".into(),
        ast::Value::HexStringLiteral(h) => format!("X'{h}'"),
        _ => return None,
    })
}

/// A binary operator's text and precedence.
fn binary_op(op: &ast::BinaryOperator) -> Option<(&'static str, u8)> {
    use ast::BinaryOperator as B;
    Some(match op {
        B::Or => ("or", prec::OR),
        B::Xor => ("xor", prec::XOR),
        B::And => ("and", prec::AND),
        B::Eq => ("=", prec::CMP),
        B::NotEq => ("<>", prec::CMP),
        B::Lt => ("<", prec::CMP),
        B::LtEq => ("<=", prec::CMP),
        B::Gt => (">", prec::CMP),
        B::GtEq => (">=", prec::CMP),
        B::Spaceship => ("<=>", prec::CMP),
        B::BitwiseOr => ("|", prec::BITOR),
        B::BitwiseAnd => ("&", prec::BITAND),
        B::PGBitwiseShiftLeft => ("<<", prec::SHIFT),
        B::PGBitwiseShiftRight => (">>", prec::SHIFT),
        B::Plus => ("+", prec::ADD),
        B::Minus => ("-", prec::ADD),
        B::Multiply => ("*", prec::MUL),
        B::Divide => ("/", prec::MUL),
        B::Modulo => ("MOD", prec::MUL),
        B::MyIntegerDivide => ("DIV", prec::MUL),
        B::BitwiseXor => ("^", prec::BITXOR),
        _ => return None,
    })
}

/// The types a CAST is printed with here.
fn cast_type(t: &ast::DataType) -> Option<String> {
    use ast::DataType as D;
    Some(match t {
        D::Signed | D::SignedInteger => "signed".into(),
        D::Unsigned | D::UnsignedInteger => "unsigned".into(),
        D::Date => "date".into(),
        // Strings in the connection's character set.
        D::Char(None) => "char charset utf8mb4".into(),
        D::Decimal(ast::ExactNumberInfo::PrecisionAndScale(p, s)) => format!("decimal({p},{s})"),
        D::Decimal(ast::ExactNumberInfo::Precision(p)) => format!("decimal({p},0)"),
        _ => return None,
    })
}
