//! The per-table row counters a successful statement adds to (`SHOW
//! STATUS`, performance_schema's index usage).

use lineardb_sync::thread_slot::IndexOp;
use lineardb_table::Table;

/// Adds a statement's rows to the engine-wide counters of `SHOW STATUS` and
/// to the table's row of `table_io_waits_summary_by_index_usage` (this
/// thread's slot; counted once the statement succeeded). As in MySQL,
/// inserts count against the table (no index), updates and deletes against
/// its primary index.
pub(super) fn count_rows(t: &Table, op: IndexOp, n: u64) {
    if n == 0 {
        return;
    }
    let id = match op {
        IndexOp::Insert => crate::catalog::perf_schema::table_io_id(t.def().primary_root),
        _ => t.def().primary_root,
    };
    lineardb_sync::thread_slot::count_rows(id, op, n);
}
