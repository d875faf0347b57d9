//! What EXPLAIN shows for a SELECT plan.
use crate::execution::access::access_for_run;
use crate::planner::plan::{Access, SelectPlan, Source};
use lineardb_table::{KeyRange, Value};

/// What EXPLAIN shows for a plan: (access type, key, covering) — the path
/// an execution with these parameters takes (range estimates included).
pub(crate) fn explain(plan: &SelectPlan, params: &[Value]) -> (String, String, bool) {
    match &plan.source {
        Source::Nothing => ("".into(), "".into(), false),
        Source::Derived(_) | Source::Recursive(_) => ("derived".into(), "".into(), false),
        // (EXPLAIN refuses joins before asking.)
        Source::Join(_) => ("ALL".into(), "".into(), false),
        Source::System(..) | Source::Rows(_) | Source::WorkTable(_) => {
            ("ALL".into(), "".into(), false)
        }
        Source::Table(ts) => {
            let (ranged, access, one_point) = match access_for_run(ts, plan.filter.as_ref(), params)
            {
                Ok(run) => (
                    run.ranges != [KeyRange::all()],
                    run.access,
                    run.points && run.ranges.len() == 1,
                ),
                Err(_) => (
                    !ts.path.key.eq.is_empty() || !ts.path.key.ranges.is_empty(),
                    ts.path.access,
                    false,
                ),
            };
            // MariaDB's access types: one row by a unique key is `const`.
            let kind = match (one_point, ranged) {
                (true, _) => "const",
                (false, true) => "range",
                (false, false) => "ALL",
            };
            match access {
                Access::Primary => (
                    kind.into(),
                    if ranged { "PRIMARY".into() } else { "".into() },
                    false,
                ),
                Access::Covering(i) => (
                    if ranged { kind } else { "index" }.into(),
                    ts.table.def().indexes[i].name.clone(),
                    true,
                ),
                Access::NonCovering(i) => (
                    if ranged { kind } else { "index" }.into(),
                    ts.table.def().indexes[i].name.clone(),
                    false,
                ),
            }
        }
    }
}
