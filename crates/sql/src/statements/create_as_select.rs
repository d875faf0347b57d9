//! CREATE TABLE … [AS] SELECT: the table's columns are the ones the
//! statement defines that the query does not give, then the query's
//! columns in its order (a defined column of the same name keeps its
//! definition); a column the query takes from a table keeps its type,
//! NULL-ability and default, an expression's column gets a type from its
//! value kind. The rows stream from the query into the new table in one
//! transaction: if anything fails, the rows are rolled back and the table
//! dropped. A crash meanwhile leaves the table empty.
use crate::error::{Result, SqlError};
use crate::result::{Column, ColumnKind, ExprWire, RowSink};
use crate::session::Session;
use lineardb_table::{
    Collation, ColumnDef, ColumnDefault, DataType, Engine, Table, TableSpec, Value,
};
use lineardb_txn::Txn;
use sqlparser::ast;
use std::sync::Arc;

impl Session {
    /// Creates the table `spec` describes (its defined columns and keys)
    /// completed by `query`'s columns, and fills it with the query's rows.
    pub(crate) fn create_as_select(&mut self, spec: TableSpec, query: &ast::Query) -> Result<u64> {
        let mut sink = Filling {
            engine: self.engine.clone(),
            spec: Some(spec),
            table: None,
            txn: None,
            targets: Vec::new(),
            rows: 0,
        };
        let result = self.select(query, &Default::default(), &[], &mut sink);
        let Filling {
            table, txn, rows, ..
        } = sink;
        let finished = result.and_then(|_| match txn {
            Some(txn) => Ok(self.commit(txn)?),
            None => Ok(()),
        });
        match (finished, table) {
            (Ok(()), _) => Ok(rows),
            (Err(e), Some(table)) => {
                // The rows went with the transaction; the table goes too.
                self.engine.remove_table(&table)?;
                Err(e)
            }
            (Err(e), None) => Err(e),
        }
    }
}

/// The sink that makes the table from the query's columns, then inserts
/// each row.
struct Filling {
    engine: Arc<Engine>,
    /// The defined part, until the query's columns are known.
    spec: Option<TableSpec>,
    table: Option<Arc<Table>>,
    txn: Option<Txn>,
    /// Per query column: its table column.
    targets: Vec<usize>,
    rows: u64,
}

impl RowSink for Filling {
    fn columns(&mut self, columns: &[Column]) -> Result<()> {
        let mut spec = self.spec.take().expect("columns come once");
        let defined = std::mem::take(&mut spec.columns);
        let given = |name: &str| columns.iter().any(|c| c.name.eq_ignore_ascii_case(name));
        // Defined columns the query does not give come first.
        spec.columns = defined
            .iter()
            .filter(|d| !given(&d.name))
            .cloned()
            .collect();
        for c in columns {
            if spec
                .columns
                .iter()
                .any(|d| d.name.eq_ignore_ascii_case(&c.name))
            {
                return Err(SqlError::new(
                    1060,
                    "42S21",
                    format!("Duplicate column name '{}'", c.name),
                ));
            }
            let def = match defined
                .iter()
                .find(|d| d.name.eq_ignore_ascii_case(&c.name))
            {
                Some(d) => d.clone(),
                None => derived_column(c),
            };
            self.targets.push(spec.columns.len());
            spec.columns.push(def);
        }
        for c in &spec.primary_key {
            if let Some(d) = spec
                .columns
                .iter_mut()
                .find(|d| d.name.eq_ignore_ascii_case(c))
            {
                d.nullable = false;
            }
        }
        let table = self.engine.create_table(spec)?;
        self.txn = Some(self.engine.begin());
        self.table = Some(table);
        Ok(())
    }

    fn row(&mut self, row: &[Value]) -> Result<()> {
        let (Some(table), Some(txn)) = (&self.table, self.txn.as_mut()) else {
            return Err(SqlError::internal("a row before the columns"));
        };
        let mut given = vec![None; table.def().columns.len()];
        for (&t, v) in self.targets.iter().zip(row) {
            given[t] = Some(v.clone());
        }
        table.insert(txn, given)?;
        self.rows += 1;
        Ok(())
    }
}

/// The column a query's column makes: a stored column's definition (not
/// its AUTO_INCREMENT; NOT NULL without a default gets its type's zero,
/// as MariaDB gives it), else a type for the value kind.
pub(crate) fn derived_column(c: &Column) -> ColumnDef {
    let Some(data_type) = c.data_type else {
        // An expression: the type MariaDB makes of its item's.
        let data_type = match c.kind {
            _ if c.wire == ExprWire::Null => DataType::Binary(0),
            ColumnKind::Int | ColumnKind::UInt => c.integer_type(),
            ColumnKind::Decimal { scale } => DataType::Decimal {
                precision: c
                    .length
                    .saturating_sub(1 + u32::from(scale > 0))
                    .clamp(u32::from(scale).max(1), 65) as u8,
                scale,
            },
            ColumnKind::Double => DataType::Double,
            ColumnKind::Date => DataType::Date,
            ColumnKind::DateTime => DataType::DateTime,
            ColumnKind::Time => DataType::Time,
            ColumnKind::Text(Collation::Binary) if c.length <= 65_535 => {
                DataType::VarBinary(c.length)
            }
            ColumnKind::Text(Collation::Binary) => DataType::Blob(u32::MAX),
            ColumnKind::Text(_) if c.length <= 16_383 => DataType::VarChar(c.length),
            ColumnKind::Text(_) => DataType::Text(u32::MAX),
        };
        let mut def = ColumnDef::new(&c.name, data_type);
        def.nullable = c.nullable;
        def.fsp = c.fsp;
        if data_type.is_integer() {
            def.display_width = Some(c.length);
        }
        // A string's collation (COLLATE, the connection's for a literal).
        if let ColumnKind::Text(collation) = c.kind {
            def.collation = (collation != data_type.default_collation()).then_some(collation);
        }
        return def;
    };
    let mut def = ColumnDef::new(&c.name, data_type);
    def.nullable = c.nullable;
    def.fsp = c.fsp;
    if data_type.is_integer() {
        let own = crate::result::display_length(data_type, None, 0);
        def.display_width = (c.length != own).then_some(c.length);
    }
    def.default = match &c.default {
        Some(ColumnDefault::None) | None if !c.nullable => {
            if data_type.is_string() {
                ColumnDefault::Literal(String::new())
            } else if data_type.is_integer()
                || matches!(
                    data_type,
                    DataType::Decimal { .. } | DataType::Double | DataType::Float
                )
            {
                ColumnDefault::Literal("0".into())
            } else {
                ColumnDefault::None
            }
        }
        Some(d) => d.clone(),
        None => ColumnDefault::None,
    };
    def
}
