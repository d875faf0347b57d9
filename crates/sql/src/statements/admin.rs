//! Administration: KILL, CHECK TABLE and ANALYZE TABLE.
use crate::error::{Result, SqlError};
use crate::result::{Outcome, RowSink};
use crate::session::Session;
use lineardb_table::Value;

impl Session {
    /// KILL [CONNECTION | QUERY] id.
    pub(crate) fn kill(&mut self, id: u64, query_only: bool) -> Result<Outcome> {
        let own = self.registry.processes().into_iter().find(|p| p.id == id);
        match own {
            None => Err(SqlError::new(
                1094,
                "HY000",
                format!("Unknown thread id: {id}"),
            )),
            Some(p)
                if p.user != self.slot.user
                    && !self.has_global(
                        crate::privileges::bits::SUPER | crate::privileges::bits::CONNECTION_ADMIN,
                    ) =>
            {
                Err(SqlError::new(
                    1095,
                    "HY000",
                    format!("You are not owner of thread {id}"),
                ))
            }
            Some(_) => {
                self.registry.kill(id, query_only);
                Ok(Outcome::done(0))
            }
        }
    }

    /// CHECK TABLE / ANALYZE TABLE: one row per table (two for a table
    /// that cannot be opened).
    pub(crate) fn maintain(
        &mut self,
        op: &str,
        tables: &[Vec<String>],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let mut rows = Vec::new();
        for parts in tables {
            let (db, name) = self.qualified(parts)?;
            let label = Value::str(&format!("{db}.{name}"));
            let (kind, text) = match self.table(parts, crate::privileges::bits::SELECT) {
                Err(e) => ("Error", e.message),
                // The trees' own checks and a bijection between every
                // secondary index and the clustered index.
                Ok(t) if op == "check" => match t.check() {
                    Ok(_) => ("status", "OK".to_string()),
                    Err(e) => ("error", e.to_string()),
                },
                // Exact distinct key prefixes of every index, for the
                // planner and SHOW INDEX (sampled until counted).
                Ok(t) => match t.analyze(&lineardb_txn::ReadView::latest()) {
                    Ok(()) => ("status", "OK".to_string()),
                    Err(e) => ("error", e.to_string()),
                },
            };
            let failed = kind == "Error";
            rows.push(vec![
                label.clone(),
                Value::str(op),
                Value::str(kind),
                Value::str(&text),
            ]);
            if failed {
                // MariaDB closes a table it could not open with this row.
                rows.push(vec![
                    label,
                    Value::str(op),
                    Value::str("status"),
                    Value::str("Operation failed"),
                ]);
            }
        }
        self.rows(sink, &["Table", "Op", "Msg_type", "Msg_text"], rows)
    }
}
