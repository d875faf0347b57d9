//! EXPLAIN: a query plan described as MariaDB describes its own — query
//! blocks numbered in the order the statement writes them (the select
//! list's subqueries, then FROM's derived tables, then WHERE's, HAVING's
//! and ORDER BY's subqueries), each with a line per table in the order
//! the block reads them, then the blocks nested in it. Shown as MariaDB's
//! rows (`EXPLAIN`) or its JSON document (`EXPLAIN FORMAT=JSON`).
mod access_line;
pub(crate) mod json;
pub(crate) mod statement;

use crate::execution::analyze::AnalyzeStats;
use crate::execution::node_of;
use crate::expr::subquery::Subquery;
use crate::expr::Expr;
use crate::planner::plan::{
    JoinKind, JoinPlan, JoinStrategy, QueryPlan, SelectPlan, SetOperator, Source, StepInput,
};
pub(crate) use access_line::TableLine;
use lineardb_table::Value;

/// One query block described.
pub(crate) struct Block {
    /// None for a set operation's result.
    pub id: Option<u64>,
    pub select_type: String,
    pub shape: Shape,
    /// Blocks nested in it (subqueries, derived tables), in id order.
    pub nested: Vec<Block>,
}

pub(crate) enum Shape {
    /// A SELECT: its tables in reading order (one line without any).
    Select {
        lines: Vec<TableLine>,
        /// No FROM clause.
        no_tables: bool,
    },
    /// A set operation: its operands' blocks, then (unless UNION ALL)
    /// the line of its result (`<union1,2>`).
    SetOp {
        operands: Vec<Block>,
        result: Option<Box<TableLine>>,
    },
}

/// Describes `plan` run with `params` (the statement's own: parameters
/// from there on are rows of the blocks around a subquery).
pub(crate) fn describe(plan: &QueryPlan, params: &[Value]) -> Block {
    let mut d = Describer {
        next_id: 0,
        params,
        outer_rows: Vec::new(),
    };
    let simple = match plan {
        QueryPlan::Select(s) => !has_nested(s),
        QueryPlan::SetOp(_) => false,
    };
    d.query(
        plan,
        if simple { "SIMPLE" } else { "PRIMARY" },
        params.len(),
    )
}

/// A changing statement's scan as MariaDB shows it: its rows are found by
/// a range even where a SELECT would read one point (`const`), and its
/// condition is attached.
pub(crate) fn as_change(block: &mut Block) {
    if let Shape::Select { lines, .. } = &mut block.shape {
        for line in lines.iter_mut().filter(|l| l.access == Some("const")) {
            line.access = Some("range");
            line.refs.clear();
            line.condition = true;
        }
    }
}

/// ANALYZE: what each line's reads did, from `stats` of the run of the
/// plan `block` describes. A `const` line shows none, as MariaDB's (which
/// reads it while planning).
pub(crate) fn add_reads(block: &mut Block, stats: &AnalyzeStats) {
    let fill = |line: &mut TableLine| {
        if line.access != Some("const") {
            line.read = line.node.and_then(|n| stats.of(n));
        }
    };
    match &mut block.shape {
        Shape::Select { lines, .. } => lines.iter_mut().for_each(fill),
        Shape::SetOp { operands, result } => {
            operands.iter_mut().for_each(|o| add_reads(o, stats));
            result.iter_mut().for_each(|r| fill(r));
        }
    }
    for n in &mut block.nested {
        add_reads(n, stats);
    }
}

/// Whether a block has subqueries or derived tables.
fn has_nested(s: &SelectPlan) -> bool {
    let mut subs = Vec::new();
    expressions(s, &mut |e| e.subqueries(&mut subs));
    if !subs.is_empty() {
        return true;
    }
    match &s.source {
        Source::Derived(_) | Source::Recursive(_) => true,
        Source::Join(j) => j.steps.iter().any(|st| match &st.input {
            StepInput::Rows { source, filter } => {
                !matches!(source, Source::System(..) | Source::Information(_))
                    || filter.as_ref().is_some_and(|f| {
                        let mut subs = Vec::new();
                        f.subqueries(&mut subs);
                        !subs.is_empty()
                    })
            }
            StepInput::Table { filter, .. } => filter.as_ref().is_some_and(|f| {
                let mut subs = Vec::new();
                f.subqueries(&mut subs);
                !subs.is_empty()
            }),
        }),
        _ => false,
    }
}

/// Every expression of a block outside its FROM items, in the order the
/// statement writes them: select list, WHERE, GROUP BY, HAVING, ORDER BY.
fn expressions<'p>(s: &'p SelectPlan, f: &mut dyn FnMut(&'p Expr)) {
    s.projection.iter().for_each(&mut *f);
    s.aggs.iter().flat_map(|a| a.exprs()).for_each(&mut *f);
    if let Some(w) = &s.window {
        w.funcs.iter().flat_map(|w| w.exprs()).for_each(&mut *f);
    }
    s.filter.iter().for_each(&mut *f);
    if let Source::Join(j) = &s.source {
        for step in &j.steps {
            step.on.iter().chain(&step.after).for_each(&mut *f);
            let filter = match &step.input {
                StepInput::Table { filter, .. } | StepInput::Rows { filter, .. } => filter,
            };
            filter.iter().for_each(&mut *f);
        }
    }
    s.group_by.iter().for_each(&mut *f);
    s.having.iter().for_each(&mut *f);
    s.order_by.iter().map(|(e, _)| e).for_each(&mut *f);
}

struct Describer<'a> {
    next_id: u64,
    params: &'a [Value],
    /// The rows of the blocks around the one described: the parameter
    /// their first column is, and their columns' names (`db.table.col`).
    outer_rows: Vec<(usize, Vec<String>)>,
}

impl Describer<'_> {
    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// A query run with parameters up to `base` (the statement's and the
    /// rows of the blocks around it).
    fn query(&mut self, plan: &QueryPlan, select_type: &str, base: usize) -> Block {
        match plan {
            QueryPlan::Select(s) => self.select(s, select_type, base),
            QueryPlan::SetOp(_) => {
                let mut leaves = Vec::new();
                set_operands(plan, &mut leaves);
                let mut operands = Vec::new();
                let mut ids = Vec::new();
                let mut all_union = true;
                let mut last_op = SetOperator::Union;
                for (i, (op, all, operand)) in leaves.into_iter().enumerate() {
                    let kind = if i == 0 {
                        select_type.to_string()
                    } else {
                        last_op = op;
                        all_union &= all && op == SetOperator::Union;
                        operation_name(op).to_string()
                    };
                    let block = self.query(operand, &kind, base);
                    ids.extend(block.id);
                    operands.push(block);
                }
                let result = (!all_union).then(|| {
                    Box::new(TableLine {
                        table: Some(format!(
                            "<{}{}>",
                            operation_name(last_op).to_ascii_lowercase(),
                            ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
                        )),
                        access: Some("ALL"),
                        ..TableLine::default()
                    })
                });
                Block {
                    id: None,
                    select_type: format!("{} RESULT", operation_name(last_op)),
                    shape: Shape::SetOp { operands, result },
                    nested: Vec::new(),
                }
            }
        }
    }

    fn select(&mut self, s: &SelectPlan, select_type: &str, base: usize) -> Block {
        let id = self.id();
        let mut nested = Vec::new();
        // Its subqueries read its row as parameters from `base` on.
        self.outer_rows.push((base, row_names(&s.source)));
        // The select list's subqueries come first in the statement.
        let mut listed = Vec::new();
        s.projection.iter().for_each(|e| e.subqueries(&mut listed));
        for sub in &listed {
            nested.push(self.subquery(sub));
        }
        let lines = self.source_lines(s, base, &mut nested);
        let mut rest = Vec::new();
        expressions(s, &mut |e| e.subqueries(&mut rest));
        for sub in rest.iter().filter(|r| !listed.iter().any(|l| l.id == r.id)) {
            nested.push(self.subquery(sub));
        }
        self.outer_rows.pop();
        let no_tables = matches!(s.source, Source::Nothing);
        let mut lines = lines;
        if let Some(first) = lines.first_mut() {
            // Grouping and sorting: MariaDB's notes on the first table.
            if s.aggregate && !s.group_by.is_empty() {
                first.notes.push("Using temporary".into());
            }
            if !s.order_by.is_empty() || (!s.group_by.is_empty() && !s.rollup) {
                first.notes.push("Using filesort".into());
            }
        }
        Block {
            id: Some(id),
            select_type: select_type.to_string(),
            shape: Shape::Select { lines, no_tables },
            nested,
        }
    }

    fn subquery(&mut self, sub: &Subquery) -> Block {
        let plan = sub
            .plan
            .as_any()
            .downcast_ref::<QueryPlan>()
            .expect("a subquery's plan is a query plan");
        let kind = if sub.correlated {
            "DEPENDENT SUBQUERY"
        } else {
            "SUBQUERY"
        };
        self.query(plan, kind, sub.base + sub.width)
    }

    /// A derived table's block and the line that reads it.
    fn derived(&mut self, plan: &QueryPlan, base: usize, nested: &mut Vec<Block>) -> TableLine {
        let block = self.query(plan, "DERIVED", base);
        let table = format!("<derived{}>", block.id.unwrap_or(0));
        nested.push(block);
        TableLine {
            table: Some(table),
            access: Some("ALL"),
            ..TableLine::default()
        }
    }

    /// The lines of a block's FROM items, in reading order.
    fn source_lines(
        &mut self,
        s: &SelectPlan,
        base: usize,
        nested: &mut Vec<Block>,
    ) -> Vec<TableLine> {
        match &s.source {
            Source::Nothing => Vec::new(),
            Source::Table(ts) => {
                // A correlated block's key compared with the rows around it
                // is looked up per row.
                let outer = self.params.len();
                let per_row = ts
                    .path
                    .key
                    .eq
                    .iter()
                    .any(|e| e.any(&|x| matches!(x, Expr::Param(p) if *p >= outer)));
                if per_row {
                    let guess = ts.table.estimate_rows() as f64 / 10.0;
                    let reference = |e: &Expr| self.reference(e, base, &|_| "func".into());
                    let residual = ts.path.residual.is_some();
                    return vec![access_line::looked_up(ts, &reference, guess, residual)];
                }
                let params = self.params_for(base);
                vec![access_line::scanned(ts, s.filter.as_ref(), &params)]
            }
            Source::Join(j) => self.join_lines(j, base, nested),
            source => {
                let mut line = self.other_line(source, base, nested);
                line.condition = s.filter.is_some();
                vec![line]
            }
        }
    }

    /// A line for a source that is not a stored table.
    fn other_line(&mut self, source: &Source, base: usize, nested: &mut Vec<Block>) -> TableLine {
        let mut line = self.other_line_unnamed(source, base, nested);
        if !matches!(source, Source::Join(_)) {
            line.node = Some(node_of::<Source>(source));
        }
        line
    }

    /// [`other_line`](Self::other_line) without its plan node.
    fn other_line_unnamed(
        &mut self,
        source: &Source,
        base: usize,
        nested: &mut Vec<Block>,
    ) -> TableLine {
        match source {
            Source::Derived(q) => self.derived(q, base, nested),
            Source::Recursive(r) => {
                let id = self.next_id + 1;
                let mut first = true;
                for anchor in &r.anchors {
                    let kind = if first { "DERIVED" } else { "UNION" };
                    first = false;
                    nested.push(self.query(anchor, kind, base));
                }
                for step in &r.steps {
                    nested.push(self.query(step, "RECURSIVE UNION", base));
                }
                TableLine {
                    table: Some(format!("<derived{id}>")),
                    access: Some("ALL"),
                    ..TableLine::default()
                }
            }
            Source::System(t, ..) => TableLine {
                table: Some(t.name().to_string()),
                access: Some("ALL"),
                ..TableLine::default()
            },
            Source::Information(info) => TableLine {
                table: Some(info.table.name.to_string()),
                access: Some("ALL"),
                ..TableLine::default()
            },
            Source::Join(j) => {
                // A nested join (the inner side of an outer join) reads
                // as its own tables; its first line stands for it here.
                let mut lines = self.join_lines(j, base, nested);
                if lines.is_empty() {
                    TableLine::default()
                } else {
                    lines.remove(0)
                }
            }
            Source::Nothing | Source::Table(_) | Source::Rows(_) | Source::WorkTable(_) => {
                TableLine {
                    access: Some("ALL"),
                    ..TableLine::default()
                }
            }
        }
    }

    /// What a key equality compares with, as MariaDB's `ref` names it:
    /// `const`, a column of the joined row (`joined`, parameters from
    /// `base` on) or of a block around, or `func`.
    fn reference(&self, e: &Expr, base: usize, joined: &dyn Fn(usize) -> String) -> String {
        match e {
            Expr::Param(p) if *p >= base => joined(p - base),
            Expr::Param(p) if *p < self.params.len() => "const".into(),
            Expr::Param(p) => self
                .outer_rows
                .iter()
                .rev()
                .find_map(|(b, names)| p.checked_sub(*b).and_then(|i| names.get(i)))
                .cloned()
                .unwrap_or_else(|| "func".into()),
            Expr::Lit(_) => "const".into(),
            _ => "func".into(),
        }
    }

    /// The statement's parameters, NULL for those of outer rows.
    fn params_for(&self, base: usize) -> Vec<Value> {
        let mut p = self.params.to_vec();
        p.resize(base.max(p.len()), Value::Null);
        p
    }

    fn join_lines(&mut self, j: &JoinPlan, base: usize, nested: &mut Vec<Block>) -> Vec<TableLine> {
        let params = self.params_for(base);
        // A joined-row column by name, for `ref`.
        let names = join_row_names(j);
        let column =
            |c: usize| -> String { names.get(c).cloned().unwrap_or_else(|| "func".into()) };
        let mut lines: Vec<TableLine> = Vec::new();
        for (k, step) in j.steps.iter().enumerate() {
            let checks = !step.on.is_empty() || !step.after.is_empty();
            let mut line = match (&step.input, step.strategy) {
                (StepInput::Table { source, .. }, JoinStrategy::Lookup) => access_line::looked_up(
                    source,
                    &|e| self.reference(e, base, &column),
                    step.estimated_rows,
                    checks || source.path.residual.is_some(),
                ),
                (StepInput::Table { source, filter, .. }, _) => {
                    let mut line = access_line::scanned(source, filter.as_ref(), &params);
                    line.condition |= checks;
                    line
                }
                (StepInput::Rows { source, filter }, _) => {
                    let mut line = self.other_line(source, base, nested);
                    line.condition = checks || filter.is_some();
                    line
                }
            };
            match step.strategy {
                JoinStrategy::Hash => {
                    line.access = Some("hash_ALL");
                    line.key = Some("#hash#$hj".into());
                    line.refs = step
                        .hash_keys
                        .iter()
                        .map(|(probe, ..)| match probe {
                            Expr::Col(c) => column(*c),
                            _ => "func".into(),
                        })
                        .collect();
                    line.key_len = None;
                    line.used_key_parts.clear();
                    line.notes
                        .push("Using join buffer (flat, BNLH join)".into());
                }
                JoinStrategy::NestedLoop => {
                    line.notes.push("Using join buffer (flat, BNL join)".into());
                }
                JoinStrategy::Scan | JoinStrategy::Lookup => {}
            }
            match step.kind {
                JoinKind::Semi => {
                    let before = lines
                        .get(k.saturating_sub(1))
                        .and_then(|l| l.table.clone())
                        .unwrap_or_default();
                    line.notes.push(format!("FirstMatch({before})"));
                }
                JoinKind::Anti => line.notes.push("Not exists".into()),
                JoinKind::Inner | JoinKind::LeftOuter => {}
            }
            lines.push(line);
        }
        lines
    }
}

/// The names of a table's columns as `ref` shows them.
fn table_names(ts: &crate::planner::plan::TableSource) -> Vec<String> {
    let def = ts.table.def();
    def.columns
        .iter()
        .map(|c| format!("{}.{}.{}", def.database, ts.alias, c.name))
        .collect()
}

/// The names of a joined row's columns (`func` where no table's).
fn join_row_names(j: &JoinPlan) -> Vec<String> {
    let mut names = vec!["func".to_string(); j.width];
    for step in &j.steps {
        if let StepInput::Table { source, .. } = &step.input {
            for (i, n) in table_names(source).into_iter().enumerate() {
                names[step.offset + i] = n;
            }
        }
    }
    names
}

/// The names of the columns of a block's row.
fn row_names(source: &Source) -> Vec<String> {
    match source {
        Source::Table(ts) => table_names(ts),
        Source::Join(j) => join_row_names(j),
        _ => Vec::new(),
    }
}

/// A set operation's operands, left to right, each with the operator
/// (and ALL) that joins it to those before it.
fn set_operands<'p>(plan: &'p QueryPlan, out: &mut Vec<(SetOperator, bool, &'p QueryPlan)>) {
    match plan {
        QueryPlan::SetOp(op) => {
            set_operands(&op.left, out);
            let from = out.len();
            set_operands(&op.right, out);
            if let Some(first) = out.get_mut(from) {
                first.0 = op.op;
                first.1 = op.all;
            }
        }
        select => out.push((SetOperator::Union, true, select)),
    }
}

fn operation_name(op: SetOperator) -> &'static str {
    match op {
        SetOperator::Union => "UNION",
        SetOperator::Intersect => "INTERSECT",
        SetOperator::Except => "EXCEPT",
    }
}

/// The rows of `EXPLAIN` (MariaDB's ten columns), blocks depth first.
pub(crate) fn rows(block: &Block) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    push_rows(block, false, &mut out);
    out
}

/// The rows of `ANALYZE` ([`analyze_columns`]): EXPLAIN's with what each
/// line's reads did.
pub(crate) fn analyzed_rows(block: &Block) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    push_rows(block, true, &mut out);
    out
}

/// The column names of [`analyzed_rows`]: EXPLAIN's with `r_rows`,
/// `filtered` and `r_filtered` before Extra.
pub(crate) fn analyze_columns() -> Vec<&'static str> {
    let mut columns = COLUMNS.to_vec();
    columns.splice(9..9, ["r_rows", "filtered", "r_filtered"]);
    columns
}

/// A share in percent as MariaDB shows `filtered` (two decimals).
pub(crate) fn percent(p: f64) -> Value {
    Value::Decimal(lineardb_table::Dec::new((p * 100.0).round() as i128, 2))
}

/// The column names of [`rows`].
pub(crate) const COLUMNS: [&str; 10] = [
    "id",
    "select_type",
    "table",
    "type",
    "possible_keys",
    "key",
    "key_len",
    "ref",
    "rows",
    "Extra",
];

fn push_rows(block: &Block, analyzed: bool, out: &mut Vec<Vec<Value>>) {
    let text = |s: &Option<String>| s.as_deref().map_or(Value::Null, Value::str);
    let joined = |v: &[String]| {
        if v.is_empty() {
            Value::Null
        } else {
            Value::str(&v.join(","))
        }
    };
    let line_row = |id: Option<u64>, select_type: &str, l: &TableLine| {
        let mut row = vec![
            id.map_or(Value::Null, |i| Value::Int(i as i64)),
            Value::str(select_type),
            text(&l.table),
            l.access.map_or(Value::Null, Value::str),
            joined(&l.possible_keys),
            text(&l.key),
            l.key_len
                .map_or(Value::Null, |n| Value::str(&n.to_string())),
            joined(&l.refs),
            l.rows.map_or(Value::Null, |n| Value::Int(n as i64)),
            Value::str(&l.extra()),
        ];
        if analyzed {
            let read = l.read;
            let extra = row.pop().expect("Extra");
            row.push(read.map_or(Value::Null, |r| {
                Value::str(&format!("{:.2}", r.rows_per_loop()))
            }));
            // (A set operation's result is not filtered.)
            let result = select_type.ends_with("RESULT");
            row.push(match l.access {
                Some(_) if !result => percent(100.0),
                _ => Value::Null,
            });
            row.push(read.map_or(Value::Null, |r| percent(r.filtered())));
            row.push(extra);
        }
        row
    };
    match &block.shape {
        Shape::Select { lines, no_tables } => {
            if lines.is_empty() {
                let extra = if *no_tables { "No tables used" } else { "" };
                let mut row = line_row(block.id, &block.select_type, &TableLine::default());
                *row.last_mut().expect("Extra") = Value::str(extra);
                out.push(row);
            }
            for l in lines {
                out.push(line_row(block.id, &block.select_type, l));
            }
            for n in &block.nested {
                push_rows(n, analyzed, out);
            }
        }
        Shape::SetOp { operands, result } => {
            for o in operands {
                push_rows(o, analyzed, out);
            }
            if let Some(r) = result {
                out.push(line_row(None, &block.select_type, r));
            }
        }
    }
}
