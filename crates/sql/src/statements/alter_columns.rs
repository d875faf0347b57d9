//! The column changes of ALTER TABLE that rewrite rows: a new definition
//! built column by column (added, dropped, moved, redefined), with, per
//! new column, the old column its values come from; and the conversion
//! of each old row into the new definition's row, as MariaDB converts
//! (strict mode: a value the new column cannot hold fails the statement
//! with its row number; otherwise it is adjusted, with a warning).
use super::check_constraints::{enforce, CompiledChecks};
use super::lenient::{implicit_default, latin1_fit, value_warning};
use crate::error::{Result, SqlError};
use lineardb_table::{ColumnDef, ColumnDefault, DataType, TableDef, Value};
use sqlparser::ast;

/// A definition being reshaped.
pub(super) struct Reshape {
    pub def: TableDef,
    /// Per column of `def`: the old column its values come from (None: an
    /// added column, filled with its default).
    pub sources: Vec<Option<usize>>,
    /// Whether the rows must be rewritten.
    pub rewrites: bool,
}

impl Reshape {
    pub fn new(def: TableDef) -> Reshape {
        Reshape {
            sources: (0..def.columns.len()).map(Some).collect(),
            def,
            rewrites: false,
        }
    }

    /// Where a column goes: FIRST, AFTER a column, else `otherwise`.
    pub fn place(
        &self,
        position: &Option<ast::MySQLColumnPosition>,
        otherwise: usize,
    ) -> Result<usize> {
        Ok(match position {
            None => otherwise,
            Some(ast::MySQLColumnPosition::First) => 0,
            Some(ast::MySQLColumnPosition::After(name)) => self.position(&name.value)? + 1,
        })
    }

    /// The position of column `name`, else MariaDB's 1054.
    pub fn position(&self, name: &str) -> Result<usize> {
        self.def
            .columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                SqlError::new(
                    1054,
                    "42S22",
                    format!("Unknown column '{name}' in '{}'", self.def.name),
                )
            })
    }

    /// Inserts `column` at `at` (keys keep naming the same columns).
    pub fn insert(&mut self, at: usize, column: ColumnDef, source: Option<usize>) {
        self.remap(|c| Some(if c >= at { c + 1 } else { c }));
        self.def.columns.insert(at, column);
        self.sources.insert(at, source);
        self.rewrites = true;
    }

    /// Removes column `i`: it leaves the keys that have it (a key left
    /// with no column goes), as MariaDB does.
    pub fn remove(&mut self, i: usize) -> (ColumnDef, Option<usize>) {
        self.remap(|c| match c.cmp(&i) {
            std::cmp::Ordering::Less => Some(c),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(c - 1),
        });
        self.rewrites = true;
        (self.def.columns.remove(i), self.sources.remove(i))
    }

    /// Moves column `i` to where `position` says (among the others):
    /// keys keep naming it.
    pub fn move_to(&mut self, i: usize, position: &Option<ast::MySQLColumnPosition>) -> Result<()> {
        let column = self.def.columns.remove(i);
        let source = self.sources.remove(i);
        let at = match self.place(position, i) {
            Ok(at) => at,
            Err(e) => {
                self.def.columns.insert(i, column);
                self.sources.insert(i, source);
                return Err(e);
            }
        };
        self.def.columns.insert(at, column);
        self.sources.insert(at, source);
        // Old position -> new position.
        let mut order: Vec<usize> = (0..self.def.columns.len()).collect();
        order.remove(i);
        order.insert(at, i);
        let mut moved = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            moved[old] = new;
        }
        self.remap(|c| Some(moved[c]));
        self.rewrites = true;
        Ok(())
    }

    /// Renumbers the columns keys name (`None`: the column leaves them).
    fn remap(&mut self, f: impl Fn(usize) -> Option<usize>) {
        let def = &mut self.def;
        def.primary_key = def.primary_key.iter().filter_map(|&c| f(c)).collect();
        for index in def.indexes.iter_mut() {
            index.columns = index.columns.iter().filter_map(|&c| f(c)).collect();
        }
        def.indexes.retain(|i| !i.columns.is_empty());
        for fk in def.foreign_keys.iter_mut() {
            fk.columns = fk.columns.iter().filter_map(|&c| f(c)).collect();
        }
        // A column's CHECK goes with it.
        def.checks = std::mem::take(&mut def.checks)
            .into_iter()
            .filter_map(|mut c| match c.column {
                Some(col) => f(col).map(|n| {
                    c.column = Some(n);
                    c
                }),
                None => Some(c),
            })
            .collect();
        def.checks
            .sort_by_key(|c| c.column.map_or(usize::MAX, |i| i));
    }

    /// Whether another column than `except` is named `name` (1060).
    pub fn check_unique_name(&self, name: &str, except: Option<usize>) -> Result<()> {
        let taken = self
            .def
            .columns
            .iter()
            .enumerate()
            .any(|(j, c)| Some(j) != except && c.name.eq_ignore_ascii_case(name));
        if taken {
            return Err(duplicate_column(name));
        }
        Ok(())
    }

    /// Whether MariaDB copies the rows for this change (and reports them
    /// as affected): a kept column's type changed, but for a VARCHAR
    /// made longer within the same length prefix or an ENUM or SET given
    /// members at its end (done in place).
    pub fn converts(&self, old: &TableDef) -> bool {
        self.sources.iter().zip(&self.def.columns).any(|(s, c)| {
            s.is_some_and(|i| {
                let o = &old.columns[i];
                let widened = match (o.data_type, c.data_type) {
                    // utf8mb4: 4 bytes a character; a 1-byte length up to 255.
                    (DataType::VarChar(a), DataType::VarChar(b)) => {
                        b >= a && (b * 4 <= 255 || a * 4 > 255)
                    }
                    // Members added at the end, in the same storage size.
                    (DataType::Enum(a), DataType::Enum(b)) => {
                        b.names().starts_with(a.names()) && (a.len() > 255) == (b.len() > 255)
                    }
                    (DataType::Set(a), DataType::Set(b)) => {
                        b.names().starts_with(a.names())
                            && a.len().div_ceil(8).min(5) == b.len().div_ceil(8).min(5)
                    }
                    _ => false,
                };
                // A new character set converts every string.
                let recoded =
                    o.data_type.is_string() && o.collation().charset() != c.collation().charset();
                ((o.data_type != c.data_type || o.fsp != c.fsp) && !widened) || recoded
            })
        })
    }
}

pub(super) fn duplicate_column(name: &str) -> SqlError {
    SqlError::new(1060, "42S21", format!("Duplicate column name '{name}'"))
}

/// Turns old rows into the new definition's rows.
pub(super) struct RowConverter<'a> {
    pub def: &'a TableDef,
    pub sources: &'a [Option<usize>],
    pub strict: bool,
    /// The next value of an added AUTO_INCREMENT column.
    pub next_auto: u64,
    /// The new table's CHECK constraints, each converted row must meet.
    pub checks: CompiledChecks,
    pub warnings: Vec<(u16, String)>,
}

impl RowConverter<'_> {
    /// Row `row` (1-based, in old primary key order) in the new layout.
    pub fn convert(&mut self, row: u64, old: Vec<Value>) -> Result<Vec<Value>> {
        let mut out = Vec::with_capacity(self.def.columns.len());
        for (column, source) in self.def.columns.iter().zip(self.sources) {
            let v = match source {
                Some(i) => old[*i].clone(),
                None => self.added_value(column)?,
            };
            out.push(self.fit(column, v, row)?);
        }
        enforce(&self.checks, self.def, &out)?;
        Ok(out)
    }

    /// An added column's value: an auto-increment number, its default,
    /// else (NOT NULL without one) the type's own zero value.
    fn added_value(&mut self, column: &ColumnDef) -> Result<Value> {
        if column.auto_increment {
            self.next_auto += 1;
            return Ok(Value::Int(self.next_auto as i64 - 1));
        }
        Ok(match &column.default {
            ColumnDefault::Literal(text) => column.literal_value(text),
            ColumnDefault::CurrentTimestamp => super::auto_timestamp::statement_now(column),
            ColumnDefault::Null => Value::Null,
            ColumnDefault::None if column.nullable => Value::Null,
            ColumnDefault::None => implicit_default(column)?,
        })
    }

    /// `v` as `column` holds it; NULL into NOT NULL is the type's zero.
    fn fit(&mut self, column: &ColumnDef, v: Value, row: u64) -> Result<Value> {
        if v.is_null() {
            if column.nullable {
                return Ok(v);
            }
            let truncated = (
                1265,
                format!("Data truncated for column '{}' at row {row}", column.name),
            );
            return self.adjusted(truncated, implicit_default(column)?);
        }
        match column.coerce(v.clone()) {
            Ok(x) => Ok(x),
            Err(e) if self.strict => {
                let (code, message) = value_warning(self.def, &column.name, &v, &e, row);
                Err(SqlError::new(code, sqlstate(code), message))
            }
            Err(_) => {
                let (x, e) = column
                    .data_type
                    .coerce_lenient(v.clone(), &column.name)
                    .map_err(SqlError::from)?;
                if let Some(e) = e {
                    self.warnings
                        .push(value_warning(self.def, &column.name, &v, &e, row));
                }
                let x = latin1_fit(self.def, column, x, row, &mut self.warnings);
                Ok(column.coerce(x)?)
            }
        }
    }

    /// In strict mode `warning` as the statement's error; else `value`
    /// with the warning.
    fn adjusted(&mut self, warning: (u16, String), value: Value) -> Result<Value> {
        if self.strict {
            return Err(SqlError::new(warning.0, sqlstate(warning.0), warning.1));
        }
        self.warnings.push(warning);
        Ok(value)
    }
}

fn sqlstate(code: u16) -> &'static str {
    match code {
        1264 => "22003",
        1265 => "01000",
        1406 => "22001",
        1292 | 1366 => "22007",
        _ => "HY000",
    }
}
