//! What a planned SELECT is: its row source, the access path chosen for a
//! table, the key predicate of an index, the output stages.
use crate::catalog::information_schema::InfoTable;
use crate::catalog::perf_schema::SystemTable;
use crate::catalog::registry::Registry;
use crate::expr::{AggSpec, Expr};
use crate::result::Column;
use lineardb_table::{Engine, Table};
use std::sync::Arc;

/// Where rows come from.
pub(crate) enum Source {
    /// No FROM: one empty row.
    Nothing,
    Table(TableSource),
    Derived(Box<QueryPlan>),
    /// Several FROM items joined: rows of all their columns side by side.
    Join(Box<JoinPlan>),
    /// A `performance_schema` table: rows made when the query runs.
    System(SystemTable, Arc<Engine>, Arc<Registry>),
    /// A table's rows read beforehand, in its column order (a locking
    /// read's locked rows).
    Rows(Vec<Vec<lineardb_table::Value>>),
    /// An `information_schema` table's rows, made when it was planned.
    Information(InformationSource),
    /// A recursive CTE.
    Recursive(Box<RecursivePlan>),
    /// A recursive CTE read from its recursive part: the previous
    /// iteration's rows.
    WorkTable(Arc<WorkTable>),
}

/// An `information_schema` table and its rows.
pub(crate) struct InformationSource {
    pub table: InfoTable,
    pub rows: Vec<Vec<lineardb_table::Value>>,
}

/// A recursive CTE: the anchors' rows, then each iteration's rows of the
/// recursive parts over the previous iteration's (in `rows` while they
/// run), until one adds none.
pub(crate) struct RecursivePlan {
    pub anchors: Vec<QueryPlan>,
    pub steps: Vec<QueryPlan>,
    pub rows: Arc<WorkTable>,
    /// UNION (rows kept once) rather than UNION ALL.
    pub distinct: bool,
    /// `max_recursive_iterations` when planned: iterations beyond it are
    /// not run (warning 1931).
    pub max_iterations: u64,
}

/// The access path chosen for a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Clustered index (range or full scan).
    Primary,
    /// Secondary index `i`, reading only the entry (covering).
    Covering(usize),
    /// Secondary index `i`, then the row by primary key (batched).
    NonCovering(usize),
}

impl Access {
    /// The tree it reads first: the clustered index (`None`) or a
    /// secondary index.
    pub(crate) fn index(self) -> Option<usize> {
        match self {
            Access::Primary => None,
            Access::Covering(i) | Access::NonCovering(i) => Some(i),
        }
    }
}

pub(crate) struct TableSource {
    pub table: Arc<Table>,
    /// The name the query gives it (its alias, else its name).
    pub alias: String,
    /// The access path the WHERE clause suits best (most equalities, then a
    /// range; the primary key on ties).
    pub path: Path,
    /// Other indexes the WHERE clause constrains; at run time the trees'
    /// range estimates pick among `path` and these (none when forced).
    pub others: Vec<Path>,
    /// Table columns the query reads (decoded from covering entries).
    pub fetch: Vec<usize>,
    /// The access path was fixed by FORCE INDEX.
    pub forced: bool,
}

/// One way to read a table: an index and what the WHERE clause says about
/// its leading columns.
#[derive(Debug, Clone)]
pub(crate) struct Path {
    pub access: Access,
    /// Key predicates on the index's columns, in index order: equalities on
    /// a prefix, then at most one range.
    pub key: KeyPredicate,
    /// The WHERE clause without the conjuncts the key ranges already
    /// guarantee; applies only when the ranges are built exactly (see
    /// `key_ranges`), otherwise the whole filter does.
    pub residual: Option<Expr>,
}

impl Path {
    pub(crate) fn table_scan(filter: Option<Expr>) -> Path {
        Path {
            access: Access::Primary,
            key: KeyPredicate::default(),
            residual: filter,
        }
    }
}

/// One alternative range: (low, inclusive), (high, inclusive); `None`
/// for no bound on that side.
pub(crate) type RangeAlt = (Option<(Expr, bool)>, Option<(Expr, bool)>);

/// What the WHERE clause says about the chosen index's leading columns.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyPredicate {
    /// `col = expr` for the first `eq.len()` key columns.
    pub eq: Vec<Expr>,
    /// Alternatives on the next column (IN list, OR of ranges): each
    /// (low, high) with inclusive flags; empty = no range.
    pub ranges: Vec<RangeAlt>,
}

pub(crate) struct SelectPlan {
    pub source: Source,
    pub filter: Option<Expr>,
    pub group_by: Vec<Expr>,
    pub aggs: Vec<AggSpec>,
    pub having: Option<Expr>,
    pub projection: Vec<Expr>,
    pub columns: Vec<Column>,
    /// Sort keys (evaluated like the projection) and descending flags.
    pub order_by: Vec<(Expr, bool)>,
    pub distinct: bool,
    pub limit: Option<Expr>,
    pub offset: Option<Expr>,
    /// Is this an aggregate query (one output row per group)?
    pub aggregate: bool,
    /// Optimizer hints that override the session's settings for this
    /// statement.
    pub hints: RunHints,
    /// Columns a group keeps of its first row: those the projection,
    /// HAVING and ORDER BY read.
    pub group_row_columns: Vec<usize>,
    /// The window stage, when the select list or ORDER BY has window
    /// functions.
    pub window: Option<Box<WindowPlan>>,
    /// GROUP BY ... WITH ROLLUP: groups come out sorted by their keys, each
    /// run of groups sharing a prefix of the keys followed by a row that
    /// aggregates it (the keys after the prefix NULL).
    pub rollup: bool,
}

/// The settings a statement's optimizer hints give for its run
/// (`SET_VAR(name = value)`, `PARALLEL(n)`), over the session's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RunHints {
    /// `lineardb_parallel_threads`.
    pub threads: Option<usize>,
    /// `lineardb_parallel_min_rows`.
    pub min_rows: Option<u64>,
    /// `lineardb_query_memory`.
    pub memory: Option<usize>,
}

impl SelectPlan {
    /// The columns a group keeps of its first row: those the projection,
    /// HAVING, the window functions `windows` and ORDER BY read (and under
    /// ROLLUP the keys, by which its rows are sorted).
    pub(crate) fn columns_groups_keep(
        &self,
        windows: &[crate::expr::window::WindowFunc],
    ) -> Vec<usize> {
        let mut kept = Vec::new();
        let mut mark = |c: usize| kept.push(c);
        self.projection.iter().for_each(|e| e.columns(&mut mark));
        self.having.iter().for_each(|e| e.columns(&mut mark));
        windows
            .iter()
            .for_each(|f| f.exprs().for_each(|e| e.columns(&mut mark)));
        self.order_by.iter().for_each(|(e, _)| e.columns(&mut mark));
        if self.rollup {
            self.group_by.iter().for_each(|e| e.columns(&mut mark));
        }
        kept.sort_unstable();
        kept.dedup();
        kept
    }
}

/// The window stage of a SELECT. Its rows are the input row's columns
/// (`width` of them; those in `kept`, the others NULL), then the group's
/// aggregates (`aggs`), then one value per window function; `funcs`,
/// `projection` and `order_by` read those rows (aggregates and window
/// values as columns).
pub(crate) struct WindowPlan {
    pub funcs: Vec<crate::expr::window::WindowFunc>,
    /// The functions' slots in the order they are computed (rows leave in
    /// the last one's sort).
    pub order: Vec<usize>,
    pub kept: Vec<usize>,
    pub width: usize,
    pub aggs: usize,
    pub projection: Vec<Expr>,
    pub order_by: Vec<(Expr, bool)>,
}

/// A whole query: one SELECT block, or set operations over blocks.
// Nearly every query is one block: it stays inline, the rare set
// operation is boxed.
#[allow(clippy::large_enum_variant)]
pub(crate) enum QueryPlan {
    Select(SelectPlan),
    SetOp(Box<SetOpPlan>),
}

impl QueryPlan {
    /// Whether its rows are found by a key (sql_safe_updates): its table,
    /// or its join's first table, is read by equalities or ranges on an
    /// index rather than whole.
    pub(crate) fn reads_by_key(&self) -> bool {
        let keyed = |t: &TableSource| !t.path.key.eq.is_empty() || !t.path.key.ranges.is_empty();
        match self {
            QueryPlan::Select(s) => match &s.source {
                Source::Table(t) => keyed(t),
                Source::Join(j) => match j.steps.first().map(|s| &s.input) {
                    Some(StepInput::Table { source, .. }) => keyed(source),
                    _ => false,
                },
                _ => false,
            },
            QueryPlan::SetOp(_) => false,
        }
    }

    /// Whether it reads a stored table whole, by no key bounding its rows
    /// (a scan, a hash or nested-loop join's inner table): what MariaDB's
    /// replies flag as SERVER_QUERY_NO_INDEX_USED.
    pub(crate) fn reads_a_table_whole(&self) -> bool {
        match self {
            QueryPlan::Select(s) => source_read_whole(&s.source),
            QueryPlan::SetOp(s) => s.left.reads_a_table_whole() || s.right.reads_a_table_whole(),
        }
    }

    /// Whether a result column is an expression over one of the
    /// statement's `count` parameters (not one alone): its type follows
    /// the values bound ([`crate::expr::Params::typed`]).
    pub(crate) fn types_results_by_parameters(&self, count: usize) -> bool {
        let QueryPlan::Select(s) = self else {
            return false;
        };
        s.projection.iter().any(|x| {
            !matches!(x, Expr::Param(_)) && x.any(&|e| matches!(e, Expr::Param(i) if *i < count))
        })
    }

    /// Whether it reads no table and keeps every row it makes (`SELECT
    /// 1`): a scalar subquery of it is NULL only where its value is.
    pub(crate) fn reads_no_table(&self) -> bool {
        matches!(self, QueryPlan::Select(s) if matches!(s.source, Source::Nothing)
            && s.filter.is_none() && s.having.is_none() && s.limit.is_none())
    }

    pub(crate) fn columns(&self) -> &[Column] {
        match self {
            QueryPlan::Select(s) => &s.columns,
            QueryPlan::SetOp(s) => &s.columns,
        }
    }

    /// Gives the result's columns these names (a view's or a derived
    /// table's column list).
    pub(crate) fn rename_columns(&mut self, names: &[String]) {
        let columns = match self {
            QueryPlan::Select(s) => &mut s.columns,
            QueryPlan::SetOp(s) => &mut s.columns,
        };
        for (c, n) in columns.iter_mut().zip(names) {
            c.name = n.clone();
        }
    }
}

/// Whether `source` reads a stored table whole ([`QueryPlan::reads_a_table_whole`]).
fn source_read_whole(source: &Source) -> bool {
    let whole = |t: &TableSource| {
        t.path.key.eq.is_empty() && t.path.key.ranges.is_empty() && t.others.is_empty()
    };
    match source {
        Source::Table(t) => whole(t),
        Source::Derived(p) => p.reads_a_table_whole(),
        Source::Join(j) => j.steps.iter().any(|step| match &step.input {
            StepInput::Table { source, .. } => whole(source),
            StepInput::Rows { source, .. } => source_read_whole(source),
        }),
        Source::Recursive(r) => r
            .anchors
            .iter()
            .chain(&r.steps)
            .any(QueryPlan::reads_a_table_whole),
        Source::Nothing
        | Source::System(..)
        | Source::Rows(_)
        | Source::Information(_)
        | Source::WorkTable(_) => false,
    }
}

impl crate::expr::subquery::SubqueryPlan for QueryPlan {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SetOperator {
    Union,
    Except,
    Intersect,
}

/// `left op [ALL|DISTINCT] right` (an ORDER BY / LIMIT over the result is
/// a SELECT block over it).
pub(crate) struct SetOpPlan {
    pub op: SetOperator,
    /// ALL: duplicates kept (UNION ALL) or counted (EXCEPT/INTERSECT ALL).
    pub all: bool,
    pub left: Box<QueryPlan>,
    pub right: Box<QueryPlan>,
    pub columns: Vec<Column>,
}

/// FROM items joined as a pipeline of steps: each step reads one item for
/// each row the steps before it produced, writing the item's columns at
/// their place in the joined row (FROM order, whatever the step order).
pub(crate) struct JoinPlan {
    /// Columns of the joined row.
    pub width: usize,
    /// In execution order. A step's table filter reads the joined row as
    /// parameters after the block's own.
    pub steps: Vec<JoinStep>,
}

pub(crate) struct JoinStep {
    pub input: StepInput,
    /// Where its columns go in the joined row.
    pub offset: usize,
    pub width: usize,
    /// What its matches make of the row before it.
    pub kind: JoinKind,
    /// What a candidate row must meet to match (over the joined row).
    pub on: Vec<Expr>,
    /// Checked after matching or NULL-extension (WHERE conjuncts).
    pub after: Vec<Expr>,
    /// Equalities that find matches in a hash table of the item's rows:
    /// (over the steps before, over this item's columns in the joined row,
    /// the collation strings are equal in).
    pub hash_keys: Vec<(Expr, Expr, lineardb_table::Collation)>,
    /// Why this step reads as it does (EXPLAIN).
    pub strategy: JoinStrategy,
    /// Rows it is estimated to find per row before it (for the first
    /// step: in all), as the join order was chosen by (EXPLAIN).
    pub estimated_rows: f64,
}

/// What a step's matches make of the row the steps before it made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JoinKind {
    /// A row per match.
    Inner,
    /// LEFT JOIN's inner side: a row per match, or one row with NULLs in
    /// the step's columns when nothing matches.
    LeftOuter,
    /// `EXISTS (…)` decorrelated: the row once when something matches (the
    /// first match ends the search); nothing after reads the step's
    /// columns.
    Semi,
    /// `NOT EXISTS (…)` decorrelated: the row once when nothing matches.
    Anti,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JoinStrategy {
    /// The first step: a scan.
    Scan,
    /// An index (or primary key) lookup per row of the steps before.
    Lookup,
    /// A hash table of the item's rows, built once.
    Hash,
    /// Every row of the item (read once) against every row before.
    NestedLoop,
}

pub(crate) enum StepInput {
    /// A stored table: its filter is over its own columns, with the joined
    /// row as parameters from `JoinPlan::base` (a lookup join when it reads
    /// them).
    Table {
        source: TableSource,
        filter: Option<Expr>,
        correlated: bool,
    },
    /// Rows made once: a derived table, a system table, a nested join;
    /// `filter` over its own columns.
    Rows {
        source: Source,
        filter: Option<Expr>,
    },
}

/// The rows a recursive part reads for its CTE: the last iteration's
/// (the statement's own; the lock is never contended).
pub(crate) struct WorkTable {
    pub rows: lineardb_sync::Mutex<Vec<Vec<lineardb_table::Value>>>,
}

impl Default for WorkTable {
    fn default() -> Self {
        WorkTable {
            rows: lineardb_sync::Mutex::new(Vec::new()),
        }
    }
}
