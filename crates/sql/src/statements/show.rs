//! SHOW statements and EXPLAIN.
use crate::catalog::definitions::{current_timestamp, default_literal, index_rows, keys_in_order};
use crate::catalog::information_schema::{column_key, InfoTable};
use crate::catalog::system_variables::Scope;
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Params};
use crate::privileges::bits::{BINLOG_MONITOR, SELECT, SHOW_VIEW, SLAVE_MONITOR, SUPER};
use crate::result::{Outcome, RowSink};
use crate::session::Session;
use crate::statements::show_filter::{filter_rows, listing_header, options_filter};
use crate::statements::view_text::canonical_view_text;
use lineardb_table::{Table, Value};
use sqlparser::ast;

impl Session {
    /// SHOW [FULL] PROCESSLIST's rows, under MariaDB's column types.
    fn process_rows(
        &self,
        sink: &mut dyn RowSink,
        rows: Vec<Vec<Value>>,
        full: bool,
    ) -> Result<Outcome> {
        use crate::result::{Column, ColumnKind, ExprWire};
        let text = |name: &str, length: u32, nullable: bool| Column {
            length,
            nullable,
            decimals: Some(39),
            ..Column::expr(name, ColumnKind::TEXT)
        };
        let columns = [
            Column {
                length: 11,
                nullable: false,
                ..Column::expr("Id", ColumnKind::UInt)
            },
            text("User", 128, false),
            text("Host", 64, false),
            text("db", 64, true),
            text("Command", 16, false),
            Column {
                length: 7,
                nullable: false,
                wire: ExprWire::Long,
                ..Column::expr("Time", ColumnKind::Int)
            },
            text("State", 30, true),
            text("Info", if full { 50_331_648 } else { 100 }, true),
            Column {
                length: 7,
                nullable: false,
                decimals: Some(3),
                ..Column::expr("Progress", ColumnKind::Double)
            },
        ];
        sink.columns(&columns)?;
        for r in rows {
            sink.row(&r)?;
        }
        Ok(Outcome::Rows)
    }

    pub(crate) fn show(
        &mut self,
        stmt: &ast::Statement,
        params: &Params,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        use ast::Statement as S;
        match stmt {
            S::ShowDatabases {
                terse: false,
                history: false,
                show_options,
            } => {
                let filter = options_filter(show_options)?;
                // Only the databases the account has some privilege in,
                // unless it holds SHOW DATABASES.
                let all = self.has_global(crate::privileges::bits::SHOW_DATABASES);
                let mut names = self.engine.databases()?;
                names.push(crate::catalog::information_schema::SCHEMA.to_string());
                names.push(crate::catalog::perf_schema::SCHEMA.to_string());
                names.sort();
                let rows = names
                    .into_iter()
                    .filter(|d| all || self.grants.sees_database(d))
                    .map(|d| vec![Value::str(&d)])
                    .collect();
                let header = ["Database"];
                let shown = listing_header(header[0], filter);
                self.rows(sink, &[shown.as_str()], filter_rows(filter, &header, rows)?)
            }
            S::ShowTables {
                terse: false,
                history: false,
                extended: false,
                external: false,
                full,
                show_options,
            } => {
                let filter = options_filter(show_options)?;
                let db = self.listed_database(show_options)?;
                let mut listed: Vec<(String, &str)> = if crate::names::is_information_schema(&db) {
                    crate::catalog::information_schema::InfoTable::all()
                        .map(|t| (t.name.to_string(), "SYSTEM VIEW"))
                        .collect()
                } else if db.eq_ignore_ascii_case(crate::catalog::perf_schema::SCHEMA) {
                    crate::catalog::perf_schema::SystemTable::names()
                        .map(|n| (n.to_string(), "BASE TABLE"))
                        .to_vec()
                } else {
                    self.engine
                        .tables(&db)?
                        .into_iter()
                        .map(|n| (n, "BASE TABLE"))
                        .collect()
                };
                if self.engine.database_exists(&db)? {
                    for v in self.engine.views(&db)? {
                        listed.push((v.name, "VIEW"));
                    }
                }
                listed.sort_by_key(|(n, _)| n.to_ascii_lowercase());
                let rows = listed
                    .into_iter()
                    .filter(|(t, _)| self.grants.sees_table(&db, t))
                    .map(|(t, kind)| {
                        let mut row = vec![Value::str(&t)];
                        if *full {
                            row.push(Value::str(kind));
                        }
                        row
                    })
                    .collect();
                let first = format!("Tables_in_{db}");
                let header: &[&str] = if *full {
                    &[first.as_str(), "Table_type"]
                } else {
                    &[first.as_str()]
                };
                let rows = filter_rows(filter, header, rows)?;
                let shown = listing_header(&first, filter);
                let mut shown_header = header.to_vec();
                shown_header[0] = &shown;
                self.rows(sink, &shown_header, rows)
            }
            S::ShowVariables { filter, global, .. } => {
                let rows = self.variable_rows(*global);
                let header = ["Variable_name", "Value"];
                self.rows(sink, &header, filter_rows(filter.as_ref(), &header, rows)?)
            }
            S::ShowStatus { filter, global, .. } => {
                let rows = self
                    .status_rows(*global)
                    .into_iter()
                    .map(|(n, v)| vec![Value::str(n), Value::str(&v)])
                    .collect();
                let header = ["Variable_name", "Value"];
                self.rows(sink, &header, filter_rows(filter.as_ref(), &header, rows)?)
            }
            S::ShowProcessList { full } => {
                // Without PROCESS an account sees its own user's threads.
                let all = self.has_global(crate::privileges::bits::PROCESS);
                let rows = self
                    .registry
                    .processes()
                    .into_iter()
                    .filter(|p| all || p.user == self.slot.user)
                    .map(|p| {
                        let info = p.info.map(|i| {
                            if *full {
                                i
                            } else {
                                i.chars().take(100).collect()
                            }
                        });
                        vec![
                            Value::UInt(p.id),
                            Value::str(&p.user),
                            Value::str(&p.host),
                            p.database.map_or(Value::Null, |d| Value::str(&d)),
                            Value::str(p.command),
                            Value::UInt(p.elapsed.as_secs()),
                            Value::str(p.state),
                            info.map_or(Value::Null, |i| Value::str(&i)),
                            Value::Double(p.stage.overall_percent()),
                        ]
                    })
                    .collect();
                self.process_rows(sink, rows, *full)
            }
            // SHOW COLLATION and SHOW CHARACTER SET: information_schema's
            // rows under SHOW's headers.
            S::ShowCollation { filter } => {
                let rows = self.information_rows(InfoTable::named("COLLATIONS"))?;
                let header = [
                    "Collation",
                    "Charset",
                    "Id",
                    "Default",
                    "Compiled",
                    "Sortlen",
                ];
                self.rows(sink, &header, filter_rows(filter.as_ref(), &header, rows)?)
            }
            S::ShowCharset(charset) => {
                let rows = self
                    .information_rows(InfoTable::named("CHARACTER_SETS"))?
                    .into_iter()
                    .map(|r| vec![r[0].clone(), r[2].clone(), r[1].clone(), r[3].clone()])
                    .collect();
                let header = ["Charset", "Description", "Default collation", "Maxlen"];
                self.rows(
                    sink,
                    &header,
                    filter_rows(charset.filter.as_ref(), &header, rows)?,
                )
            }
            S::ShowVariable { variable } => {
                let words: Vec<String> = variable.iter().map(|i| i.value.clone()).collect();
                self.show_words(&words, sink)
            }
            S::ShowCreate {
                obj_type: obj_type @ (ast::ShowCreateObject::Table | ast::ShowCreateObject::View),
                obj_name,
            } => {
                let parts = object_name(obj_name);
                let (db, name) = self.qualified(&parts)?;
                if !self.tables.is_temporary(&db, &name) {
                    if let Some(v) = self.engine.view(&db, &name)? {
                        // SELECT on the view, then SHOW VIEW (MariaDB's order).
                        let held = self.grants.on_table(&db, &name);
                        if held & SELECT == 0 {
                            return Err(self.access().table_denied("SELECT", &db, &name));
                        }
                        if held & SHOW_VIEW == 0 {
                            return Err(self.access().table_denied("SHOW VIEW", &db, &name));
                        }
                        let canonical = crate::parser::view_query(&v).ok().and_then(|q| {
                            canonical_view_text(&self.engine, &db, &q, &v.names, false)
                        });
                        let (columns, query) = match canonical {
                            // The items carry the names.
                            Some(text) => (String::new(), text),
                            None if v.columns.is_empty() => (String::new(), v.query.clone()),
                            None => {
                                let quoted: Vec<String> =
                                    v.columns.iter().map(|c| format!("`{c}`")).collect();
                                (format!("({})", quoted.join(",")), v.query.clone())
                            }
                        };
                        let check = match v.check_option.as_str() {
                            "NONE" => String::new(),
                            other => format!(" WITH {other} CHECK OPTION"),
                        };
                        let text = format!(
                            "CREATE ALGORITHM={} DEFINER={} SQL SECURITY {} VIEW `{}`{columns} AS {}{check}",
                            v.algorithm,
                            v.definer,
                            if v.invoker { "INVOKER" } else { "DEFINER" },
                            v.name,
                            query
                        );
                        return self.rows(
                            sink,
                            &[
                                "View",
                                "Create View",
                                "character_set_client",
                                "collation_connection",
                            ],
                            vec![vec![
                                Value::str(&v.name),
                                Value::str(&text),
                                Value::str("utf8mb4"),
                                Value::str("utf8mb4_general_ci"),
                            ]],
                        );
                    }
                }
                if matches!(obj_type, ast::ShowCreateObject::View) {
                    if self.engine.table(&db, &name).is_err() {
                        return Err(SqlError::unknown_table(&db, &name));
                    }
                    return Err(SqlError::new(
                        1347,
                        "HY000",
                        format!("'{db}.{name}' is not of type 'VIEW'"),
                    ));
                }
                let t = self.table_to_show(&parts, false)?;
                let text = show_create_table(&t);
                self.rows(
                    sink,
                    &["Table", "Create Table"],
                    vec![vec![Value::str(&t.def().name), Value::str(&text)]],
                )
            }
            S::ShowColumns {
                extended: false,
                full,
                show_options,
            } => {
                let filter = options_filter(show_options)?;
                let name = show_options
                    .show_in
                    .as_ref()
                    .and_then(|s| s.parent_name.as_ref())
                    .ok_or_else(|| SqlError::syntax("SHOW COLUMNS FROM <table>"))?;
                self.show_columns(&object_name(name), *full, filter, sink)
            }
            // DESCRIBE t, DESC t, EXPLAIN t: SHOW COLUMNS FROM t.
            S::ExplainTable {
                hive_format: None,
                has_table_keyword: false,
                table_name,
                ..
            } => self.show_columns(&object_name(table_name), false, None, sink),
            S::Explain {
                statement,
                analyze,
                verbose,
                format,
                query_plan: false,
                estimate: false,
                options: None,
                ..
            } => {
                let json = match format {
                    None => false,
                    Some(
                        ast::AnalyzeFormatKind::Assignment(f) | ast::AnalyzeFormatKind::Keyword(f),
                    ) => match f {
                        ast::AnalyzeFormat::JSON => true,
                        ast::AnalyzeFormat::TRADITIONAL => false,
                        other => {
                            return Err(SqlError::new(
                                1791,
                                "HY000",
                                format!(
                                    "Unknown EXPLAIN/ANALYZE format name: '{}'",
                                    other.to_string().to_ascii_lowercase()
                                ),
                            ))
                        }
                    },
                };
                use crate::explain::statement::{explained, Explained};
                // ANALYZE runs a change itself (after reading its rows as
                // the change will).
                let change = (!matches!(statement.as_ref(), ast::Statement::Query(_)))
                    .then_some(statement.as_ref());
                let (q, changes) = match explained(statement)? {
                    Explained::Query { query, changes } => (query, changes),
                    Explained::InsertValues { table } => {
                        if *analyze {
                            self.run_change(change, params)?;
                        }
                        return self.insert_values_line(&table, json, *analyze, *verbose, sink);
                    }
                };
                let plan = self.plan_select(&q, params)?;
                if *analyze {
                    let how = crate::statements::analyze::Analyzed {
                        json,
                        changes,
                        change,
                    };
                    return self.analyze(&plan, how, params, sink);
                }
                let mut described = crate::explain::describe(&plan, &[]);
                if changes {
                    crate::explain::as_change(&mut described);
                }
                if json {
                    return self.rows(
                        sink,
                        &["EXPLAIN"],
                        vec![vec![Value::str(&crate::explain::json::document(
                            &described,
                        ))]],
                    );
                }
                let mut rows = crate::explain::rows(&described);
                let mut columns: Vec<&str> = crate::explain::COLUMNS.to_vec();
                if *verbose {
                    // EXPLAIN EXTENDED: the share of rows the conditions keep.
                    columns.insert(9, "filtered");
                    for r in &mut rows {
                        let filtered = if r[3] == Value::Null {
                            Value::Null
                        } else {
                            Value::str("100.00")
                        };
                        r.insert(9, filtered);
                    }
                }
                self.rows(sink, &columns, rows)
            }
            S::Explain { .. } => Err(SqlError::unsupported("this form of EXPLAIN")),
            // The forms of these statements not done above (SHOW FULL
            // COLUMNS, SHOW TERSE ...).
            other => Err(SqlError::unsupported(other)),
        }
    }

    /// SHOW [FULL] COLUMNS (and DESCRIBE) of a table or a view: FULL adds
    /// each column's collation, the account's privileges on it and its
    /// comment, as MariaDB does.
    fn show_columns(
        &mut self,
        parts: &[String],
        full: bool,
        filter: Option<&ast::ShowStatementFilter>,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let (db, table) = self.qualified(parts)?;
        let described: Vec<(lineardb_table::ColumnDef, &str)> = match self.view_columns(parts)? {
            Some(columns) => columns.into_iter().map(|c| (c, "")).collect(),
            None => {
                let t = self.table_to_show(parts, true)?;
                let d = t.def();
                d.columns
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (c.clone(), column_key(d, i)))
                    .collect()
            }
        };
        let rows = described
            .iter()
            .map(|(c, key)| {
                let mut row = vec![
                    Value::str(&c.name),
                    Value::str(&c.sql_type()),
                    Value::str(if c.nullable { "YES" } else { "NO" }),
                    Value::str(key),
                    match &c.default {
                        lineardb_table::ColumnDefault::Literal(s) => Value::str(s),
                        lineardb_table::ColumnDefault::CurrentTimestamp => {
                            Value::str(&current_timestamp(c.fsp))
                        }
                        _ => Value::Null,
                    },
                    if c.auto_increment {
                        Value::str("auto_increment")
                    } else if c.on_update_now {
                        Value::str(&format!("on update {}", current_timestamp(c.fsp)))
                    } else {
                        Value::str("")
                    },
                ];
                if full {
                    let text = c.data_type.has_character_set();
                    row.insert(
                        2,
                        if text {
                            Value::str(c.collation().name())
                        } else {
                            Value::Null
                        },
                    );
                    let held = self.grants.on_column(&db, &table, &c.name)
                        & crate::privileges::bits::COLUMN_LEVEL;
                    row.push(Value::str(
                        &crate::catalog::information_schema::column_privilege_names(held),
                    ));
                    row.push(Value::str(&c.comment));
                }
                row
            })
            .collect();
        let header: &[&str] = if full {
            &[
                "Field",
                "Type",
                "Collation",
                "Null",
                "Key",
                "Default",
                "Extra",
                "Privileges",
                "Comment",
            ]
        } else {
            &["Field", "Type", "Null", "Key", "Default", "Extra"]
        };
        self.rows(sink, header, filter_rows(filter, header, rows)?)
    }

    /// SHOW [GLOBAL] STATUS's variables and values, by name: the server's
    /// counters, with SESSION's own statement counters where `global` is
    /// false (information_schema's GLOBAL_STATUS and SESSION_STATUS too).
    pub(crate) fn status_rows(&self, global: bool) -> Vec<(&'static str, String)> {
        let mut status = self.registry.status();
        if !global {
            // SESSION (the default) gives this session's own
            // statement counters; the rest (Queries too, as in
            // MariaDB) are the server's.
            for (name, value) in self.slot.own_counters() {
                if let Some(s) = status.iter_mut().find(|(n, _)| *n == name) {
                    s.1 = value;
                }
            }
        }
        let log = self.engine.log_stats();
        status.push(("Lineardb_log_syncs", log.syncs));
        status.push(("Lineardb_log_written", log.written));
        status.push((
            "Lineardb_temporary_tables",
            self.engine.temporary_tables() as u64,
        ));
        use lineardb_sync::{thread_slot::counter_total, Counter};
        for (name, c) in [
            ("Innodb_rows_read", Counter::RowsRead),
            ("Innodb_rows_inserted", Counter::RowsInserted),
            ("Innodb_rows_updated", Counter::RowsUpdated),
            ("Innodb_rows_deleted", Counter::RowsDeleted),
            ("Innodb_buffer_pool_reads", Counter::PagesRead),
            ("Innodb_buffer_pool_pages_flushed", Counter::PagesWritten),
            ("Lineardb_pages_evicted", Counter::PagesEvicted),
            ("Lineardb_older_versions", Counter::OlderVersions),
        ] {
            status.push((name, counter_total(c)));
        }
        let pool = self.engine.pool_stats();
        status.push(("Innodb_buffer_pool_pages_total", pool.frames as u64));
        status.push(("Innodb_buffer_pool_pages_data", pool.resident as u64));
        status.push((
            "Innodb_buffer_pool_pages_free",
            (pool.frames - pool.resident.min(pool.frames)) as u64,
        ));
        status.push(("Innodb_page_size", pool.page_size as u64));
        let (version, cipher) = self.tls.clone().unwrap_or_default();
        let mut rows: Vec<(&str, String)> = status
            .into_iter()
            .map(|(n, v)| (n, v.to_string()))
            .chain([("Ssl_cipher", cipher), ("Ssl_version", version)])
            .collect();
        rows.sort_by(|a, b| a.0.cmp(b.0));
        rows
    }

    /// Each system variable and its value as text, by name (SHOW
    /// VARIABLES, information_schema's variables tables): the session's
    /// values, or with `global` the server's (and no session-only one).
    pub(crate) fn variable_rows(&self, global: bool) -> Vec<Vec<Value>> {
        crate::catalog::system_variables::all()
            .into_iter()
            .filter(|def| !(global && def.scope == Scope::Session))
            .map(|def| {
                let v = if global {
                    self.global_value(def)
                } else {
                    self.variable(def.name).unwrap_or(Value::Null)
                };
                vec![Value::str(def.name), Value::str(&def.shown(&v))]
            })
            .collect()
    }

    /// The database SHOW TABLES and SHOW TABLE STATUS list: FROM/IN's or
    /// the current one. Any global privilege lets an account list a
    /// database's tables (those it may see), as in MariaDB.
    fn listed_database(&self, options: &ast::ShowStatementOptions) -> Result<String> {
        let db = match &options.show_in {
            Some(si) => si.parent_name.as_ref().map(|n| object_name(n).join(".")),
            None => None,
        }
        .or_else(|| self.facts.database.clone())
        .ok_or_else(SqlError::no_database)?;
        if self.grants.global & !crate::privileges::bits::GRANT == 0 {
            self.require_database_visible(&db)?;
        }
        Ok(db)
    }

    /// SHOW INDEX/INDEXES/KEYS FROM t [FROM db] [WHERE …]: a row per key
    /// column, none for a view (as in MariaDB).
    pub(crate) fn show_index(
        &mut self,
        options: &ast::ShowStatementOptions,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let filter = options_filter(options)?;
        let parts = options
            .show_in
            .as_ref()
            .and_then(|s| s.parent_name.as_ref())
            .map(object_name)
            .ok_or_else(|| SqlError::syntax("SHOW INDEX FROM <table> [FROM <db>]"))?;
        let rows = match self.table_to_show(&parts, true) {
            Ok(t) => index_rows(&t),
            Err(e)
                if e.code == 1235 && {
                    let (db, name) = self.qualified(&parts)?;
                    self.engine.view(&db, &name)?.is_some()
                } =>
            {
                Vec::new()
            }
            Err(e) => return Err(e),
        };
        let header = [
            "Table",
            "Non_unique",
            "Key_name",
            "Seq_in_index",
            "Column_name",
            "Collation",
            "Cardinality",
            "Sub_part",
            "Packed",
            "Null",
            "Index_type",
            "Comment",
            "Index_comment",
            "Ignored",
        ];
        let rows = filter_rows(filter, &header, rows)?;
        self.rows(sink, &header, rows)
    }

    /// SHOW OPEN TABLES: the tables the engine has open (those read or
    /// written since the server started), of one database or all, that
    /// the account sees; In_use counts the sessions holding a LOCK TABLES
    /// lock on one. Nothing is locked by name here (Name_locked 0).
    pub(crate) fn show_open_tables(
        &mut self,
        options: &ast::ShowStatementOptions,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let filter = options_filter(options)?;
        let db = match &options.show_in {
            Some(_) => Some(self.listed_database(options)?),
            None => None,
        };
        let rows: Vec<Vec<Value>> = self
            .engine
            .open_table_names()
            .into_iter()
            .filter(|(d, t)| {
                db.as_ref().is_none_or(|db| db.eq_ignore_ascii_case(d))
                    && self.grants.sees_table(d, t)
            })
            .map(|(d, t)| {
                let in_use = self.registry.table_locks.holders_of(&d, &t);
                vec![
                    Value::str(&d),
                    Value::str(&t),
                    Value::Int(in_use as i64),
                    Value::Int(0),
                ]
            })
            .collect();
        let header = ["Database", "Table", "In_use", "Name_locked"];
        let rows = match filter {
            // LIKE matches the table's name: the second column.
            Some(ast::ShowStatementFilter::Like(_)) => {
                let swap = |mut r: Vec<Value>| {
                    r.swap(0, 1);
                    r
                };
                let swapped = rows.into_iter().map(swap).collect();
                filter_rows(filter, &header, swapped)?
                    .into_iter()
                    .map(swap)
                    .collect()
            }
            _ => filter_rows(filter, &header, rows)?,
        };
        self.rows(sink, &header, rows)
    }

    /// SHOW TABLE STATUS: information_schema.TABLES' rows of the database
    /// under SHOW's headers.
    pub(crate) fn show_table_status(
        &mut self,
        options: &ast::ShowStatementOptions,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let filter = options_filter(options)?;
        let db = self.listed_database(options)?;
        let mut rows: Vec<Vec<Value>> = self
            .information_rows(InfoTable::named("TABLES"))?
            .into_iter()
            .filter(|r| r[1].to_text().is_some_and(|d| d.eq_ignore_ascii_case(&db)))
            .map(|r| {
                std::iter::once(r[2].clone())
                    .chain(r[4..].iter().cloned())
                    .collect()
            })
            .collect();
        rows.sort_by_key(|r: &Vec<Value>| r[0].to_text().unwrap_or_default().to_ascii_lowercase());
        let header = [
            "Name",
            "Engine",
            "Version",
            "Row_format",
            "Rows",
            "Avg_row_length",
            "Data_length",
            "Max_data_length",
            "Index_length",
            "Data_free",
            "Auto_increment",
            "Create_time",
            "Update_time",
            "Check_time",
            "Collation",
            "Checksum",
            "Create_options",
            "Comment",
            "Max_index_length",
            "Temporary",
        ];
        self.rows(sink, &header, filter_rows(filter, &header, rows)?)
    }

    /// SHOW CREATE DATABASE, as MariaDB writes it (the character set in an
    /// executable comment).
    pub(crate) fn show_create_database(
        &mut self,
        name: &str,
        if_not_exists: bool,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        if !self.engine.database_exists(name)? {
            return Err(SqlError::new(
                1049,
                "42000",
                format!("Unknown database '{name}'"),
            ));
        }
        self.require_database_visible(name)?;
        let c = self.engine.database_collation(name)?;
        let text = format!(
            "CREATE DATABASE {}`{}` /*!40100 DEFAULT CHARACTER SET {} COLLATE {} */",
            if if_not_exists {
                "/*!32312 IF NOT EXISTS*/ "
            } else {
                ""
            },
            name.replace('`', "``"),
            c.charset(),
            c.name()
        );
        self.rows(
            sink,
            &["Database", "Create Database"],
            vec![vec![Value::str(name), Value::str(&text)]],
        )
    }

    /// A view's columns as the table it reads as would have them (SHOW
    /// COLUMNS of a view, which dump tools read to stand the view in);
    /// `None` when `parts` names no view. Needs SELECT on the view.
    fn view_columns(&mut self, parts: &[String]) -> Result<Option<Vec<lineardb_table::ColumnDef>>> {
        let (db, name) = self.qualified(parts)?;
        if self.tables.is_temporary(&db, &name) || self.engine.view(&db, &name)?.is_none() {
            return Ok(None);
        }
        if !self.grants.may_describe(&db, &name) {
            return Err(self.access().table_denied("SELECT", &db, &name));
        }
        let sql = format!(
            "SELECT * FROM `{}`.`{}`",
            db.replace('`', "``"),
            name.replace('`', "``")
        );
        let Some(ast::Statement::Query(q)) = crate::parser::dialect::parse_sql(&sql)?.pop() else {
            return Err(SqlError::internal("a view's SELECT did not parse"));
        };
        let plan = self.plan_select(&q, &Params::default())?;
        Ok(Some(
            plan.columns()
                .iter()
                .map(crate::statements::create_as_select::derived_column)
                .collect(),
        ))
    }

    /// SHOW TRIGGERS, SHOW EVENTS, SHOW {PROCEDURE | FUNCTION | PACKAGE}
    /// STATUS: objects lineardb does not have (CREATE TRIGGER, EVENT,
    /// PROCEDURE and FUNCTION are 1235), so none to list, whatever a LIKE
    /// or WHERE that follows would keep.
    pub(crate) fn show_no_objects(
        &mut self,
        kind: crate::parser::admin::Unmade,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        use crate::parser::admin::Unmade;
        let columns: &[&str] = match kind {
            Unmade::Triggers => &TRIGGER_COLUMNS,
            Unmade::Events => &EVENT_COLUMNS,
            Unmade::Routines => &ROUTINE_COLUMNS,
        };
        self.rows(sink, columns, Vec::new())
    }

    /// The SHOW forms the parser leaves as words: WARNINGS, ERRORS,
    /// COUNT(*) WARNINGS, GRANTS, the replication statuses.
    fn show_words(&mut self, words: &[String], sink: &mut dyn RowSink) -> Result<Outcome> {
        let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
        let upper: Vec<&str> = upper.iter().map(String::as_str).collect();
        match upper.as_slice() {
            ["WARNINGS"] | ["ERRORS"] => {
                let errors_only = upper[0] == "ERRORS";
                let warnings = self
                    .warnings
                    .iter()
                    .filter(|_| !errors_only)
                    .map(|(code, msg)| {
                        (
                            if crate::expr::warnings::is_note(*code) {
                                "Note"
                            } else {
                                "Warning"
                            },
                            crate::expr::warnings::shown_code(*code),
                            msg,
                        )
                    });
                let rows = warnings
                    .chain(self.error.iter().map(|(code, msg)| ("Error", *code, msg)))
                    .map(|(level, code, msg)| {
                        vec![Value::str(level), Value::UInt(code as u64), Value::str(msg)]
                    })
                    .collect::<Vec<_>>();
                // As MariaDB defines them: NOT NULL, Code a LONG UNSIGNED.
                let text = |name: &str, length: u32| crate::result::Column {
                    length,
                    nullable: false,
                    decimals: Some(39),
                    ..crate::statements::text_col(name)
                };
                let columns = [
                    text("Level", 7),
                    crate::result::Column {
                        length: 4,
                        nullable: false,
                        wire: crate::result::ExprWire::Long,
                        ..crate::result::Column::expr("Code", crate::result::ColumnKind::UInt)
                    },
                    text("Message", 512),
                ];
                sink.columns(&columns)?;
                for row in rows {
                    sink.row(&row)?;
                }
                Ok(Outcome::Rows)
            }
            ["COUNT", "WARNINGS"] | ["COUNT", "ERRORS"] => {
                let errors = self.error.is_some() as u64;
                let (name, n) = if upper[1] == "WARNINGS" {
                    (
                        "@@session.warning_count",
                        self.warnings.len() as u64 + errors,
                    )
                } else {
                    ("@@session.error_count", errors)
                };
                self.rows(sink, &[name], vec![vec![Value::UInt(n)]])
            }
            ["GRANTS"] => self.show_grants(&None, sink),
            // No binary log and no replication: MariaDB's empty answers,
            // to the accounts MariaDB gives them.
            ["MASTER", "STATUS"] | ["BINLOG", "STATUS"] => {
                self.require_global(SUPER | BINLOG_MONITOR, "SUPER, BINLOG MONITOR")?;
                self.rows(
                    sink,
                    &["File", "Position", "Binlog_Do_DB", "Binlog_Ignore_DB"],
                    Vec::new(),
                )
            }
            ["SLAVE", "STATUS"] | ["REPLICA", "STATUS"] | ["ALL", "SLAVES", "STATUS"] => {
                self.require_global(SUPER | SLAVE_MONITOR, "SUPER, SLAVE MONITOR")?;
                self.rows(sink, &REPLICA_STATUS_COLUMNS, Vec::new())
            }
            ["BINARY", "LOGS"] | ["MASTER", "LOGS"] => {
                self.require_global(SUPER | BINLOG_MONITOR, "SUPER, BINLOG MONITOR")?;
                Err(SqlError::new(
                    1381,
                    "HY000",
                    "You are not using binary logging",
                ))
            }
            // Name, Status, Type, Library, License of each plugin.
            ["PLUGINS"] => {
                let rows = self
                    .information_rows(InfoTable::named("PLUGINS"))?
                    .into_iter()
                    .map(|r| {
                        vec![
                            r[0].clone(),
                            r[2].clone(),
                            r[3].clone(),
                            r[5].clone(),
                            r[9].clone(),
                        ]
                    })
                    .collect();
                self.rows(
                    sink,
                    &["Name", "Status", "Type", "Library", "License"],
                    rows,
                )
            }
            ["ENGINES"] | ["STORAGE", "ENGINES"] => {
                let rows = self.information_rows(InfoTable::named("ENGINES"))?;
                self.rows(
                    sink,
                    &[
                        "Engine",
                        "Support",
                        "Comment",
                        "Transactions",
                        "XA",
                        "Savepoints",
                    ],
                    rows,
                )
            }
            _ => Err(SqlError::unsupported(format!("SHOW {}", words.join(" ")))),
        }
    }

    /// SHOW ENGINE <name> STATUS.
    pub(crate) fn show_engine_status(
        &mut self,
        name: &str,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        self.require_global(crate::privileges::bits::PROCESS, "PROCESS")?;
        if !name.eq_ignore_ascii_case("lineardb") && !name.eq_ignore_ascii_case("innodb") {
            return Err(SqlError::new(
                1286,
                "42000",
                format!("Unknown storage engine '{name}'"),
            ));
        }
        let text = crate::catalog::perf_schema::engine_status(&self.engine, &self.registry);
        self.rows(
            sink,
            &["Type", "Name", "Status"],
            vec![vec![
                // The engine as the statement names it.
                Value::str(if name.eq_ignore_ascii_case("innodb") {
                    crate::catalog::ENGINE_NAME
                } else {
                    "lineardb"
                }),
                Value::str(""),
                Value::str(&text),
            ]],
        )
    }
}

/// A comment as SHOW CREATE TABLE quotes it (MariaDB's
/// `append_unescaped`): backslash escapes for NUL, newline, return,
/// backslash and Ctrl-Z, a quote doubled.
fn comment_literal(comment: &str) -> String {
    let mut out = String::with_capacity(comment.len() + 2);
    out.push('\'');
    for ch in comment.chars() {
        match ch {
            '\0' => out.push_str("\\0"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            '\u{1a}' => out.push_str("\\Z"),
            '\'' => out.push_str("''"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

fn show_create_table(t: &Table) -> String {
    let d = &t.def();
    let temporary = if d.temporary.is_some() {
        "TEMPORARY "
    } else {
        ""
    };
    let mut s = format!("CREATE {temporary}TABLE `{}` (\n", d.name);
    let mut lines: Vec<String> = d
        .columns
        .iter()
        .map(|c| {
            let mut l = format!("  `{}` {}", c.name, c.sql_type());
            // A string not in the table's collation names its own.
            let collation = c.collation();
            if c.data_type.is_string()
                && c.data_type.has_character_set()
                && collation != d.collation
            {
                l.push_str(&format!(
                    " CHARACTER SET {} COLLATE {}",
                    collation.charset(),
                    collation.name()
                ));
            }
            if !c.nullable {
                l.push_str(" NOT NULL");
            } else if c.data_type == lineardb_table::DataType::Timestamp {
                // MariaDB says so for a TIMESTAMP that may be NULL.
                l.push_str(" NULL");
            }
            match &c.default {
                lineardb_table::ColumnDefault::Literal(v) => {
                    l.push_str(&format!(" DEFAULT {}", default_literal(&c.data_type, v)))
                }
                lineardb_table::ColumnDefault::CurrentTimestamp => {
                    l.push_str(&format!(" DEFAULT {}", current_timestamp(c.fsp)))
                }
                _ if c.nullable => l.push_str(" DEFAULT NULL"),
                _ => {}
            }
            if c.on_update_now {
                l.push_str(&format!(" ON UPDATE {}", current_timestamp(c.fsp)));
            }
            if c.auto_increment {
                l.push_str(" AUTO_INCREMENT");
            }
            if !c.comment.is_empty() {
                l.push_str(&format!(" COMMENT {}", comment_literal(&c.comment)));
            }
            l
        })
        .collect();
    for (i, line) in lines.iter_mut().enumerate() {
        if let Some(check) = super::check_constraints::shown_with_column(d, i) {
            line.push_str(&check);
        }
    }
    if !d.primary_key.is_empty() {
        let cols: Vec<String> = d
            .primary_key
            .iter()
            .map(|&c| format!("`{}`", d.columns[c].name))
            .collect();
        lines.push(format!("  PRIMARY KEY ({})", cols.join(",")));
    }
    for (_, ix) in keys_in_order(d) {
        let cols: Vec<String> = ix
            .columns
            .iter()
            .enumerate()
            .map(|(part, &c)| {
                let order = if ix.is_descending(part) { " DESC" } else { "" };
                format!("`{}`{order}", d.columns[c].name)
            })
            .collect();
        lines.push(format!(
            "  {}KEY `{}` ({})",
            if ix.unique { "UNIQUE " } else { "" },
            ix.name,
            cols.join(",")
        ));
    }
    lines.extend(super::foreign_key_defs::shown(d));
    lines.extend(super::check_constraints::shown(d));
    s.push_str(&lines.join(",\n"));
    s.push_str("\n) ENGINE=");
    s.push_str(crate::catalog::ENGINE_NAME);
    let next = t.next_auto_increment();
    if d.auto_increment_column().is_some() && next > 1 {
        s.push_str(&format!(" AUTO_INCREMENT={next}"));
    }
    s.push_str(&format!(
        " DEFAULT CHARSET={} COLLATE={}",
        d.collation.charset(),
        d.collation.name()
    ));
    // Storage options in MariaDB's order.
    const ORDER: &[&str] = &[
        "PACK_KEYS",
        "STATS_PERSISTENT",
        "STATS_AUTO_RECALC",
        "STATS_SAMPLE_PAGES",
        "CHECKSUM",
        "PAGE_CHECKSUM",
        "DELAY_KEY_WRITE",
        "ROW_FORMAT",
        "TRANSACTIONAL",
    ];
    for name in ORDER {
        if let Some((_, value)) = d.storage_options.iter().find(|(n, _)| n == name) {
            s.push_str(&format!(" {name}={value}"));
        }
    }
    if !d.comment.is_empty() {
        s.push_str(&format!(" COMMENT={}", comment_literal(&d.comment)));
    }
    s
}

/// SHOW TRIGGERS' columns, as MariaDB names them.
const TRIGGER_COLUMNS: [&str; 11] = [
    "Trigger",
    "Event",
    "Table",
    "Statement",
    "Timing",
    "Created",
    "sql_mode",
    "Definer",
    "character_set_client",
    "collation_connection",
    "Database Collation",
];

/// SHOW EVENTS' columns.
const EVENT_COLUMNS: [&str; 15] = [
    "Db",
    "Name",
    "Definer",
    "Time zone",
    "Type",
    "Execute at",
    "Interval value",
    "Interval field",
    "Starts",
    "Ends",
    "Status",
    "Originator",
    "character_set_client",
    "collation_connection",
    "Database Collation",
];

/// SHOW PROCEDURE STATUS' and SHOW FUNCTION STATUS' columns.
const ROUTINE_COLUMNS: [&str; 11] = [
    "Db",
    "Name",
    "Type",
    "Definer",
    "Modified",
    "Created",
    "Security_type",
    "Comment",
    "character_set_client",
    "collation_connection",
    "Database Collation",
];

/// SHOW SLAVE STATUS's first columns (it has no rows here: lineardb does
/// not replicate).
const REPLICA_STATUS_COLUMNS: [&str; 12] = [
    "Slave_IO_State",
    "Master_Host",
    "Master_User",
    "Master_Port",
    "Connect_Retry",
    "Master_Log_File",
    "Read_Master_Log_Pos",
    "Relay_Log_File",
    "Relay_Log_Pos",
    "Relay_Master_Log_File",
    "Slave_IO_Running",
    "Slave_SQL_Running",
];
