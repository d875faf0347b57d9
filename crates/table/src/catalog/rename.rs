//! Changes to a table's definition that leave its rows as they are:
//! renaming tables (across databases too), and renaming columns, changing
//! defaults and comments. Each is one catalog transaction, so a crash
//! leaves the old definitions or the new ones.
use super::{catalog_key, ident_ok, lowercase, table_key, Engine};
use crate::error::{Error, Result};
use crate::schema::TableDef;
use crate::table::Table;
use std::collections::HashMap;
use std::sync::Arc;

/// A table's database and name.
pub type TableName = (String, String);

impl Engine {
    /// Renames permanent tables, in order (`a TO b, b TO c` renames what
    /// the first made; `a TO t, b TO a, t TO b` swaps), all or none.
    pub fn rename_tables(&self, renames: &[(TableName, TableName)]) -> Result<()> {
        let _ddl = self.ddl_lock();
        // The definitions under each name the renames touched: None once
        // a name is free.
        let mut names: HashMap<TableName, Option<TableDef>> = HashMap::new();
        for ((db, name), (new_db, new_name)) in renames {
            let from = lowercase(db, name);
            let def = match names.get(&from) {
                Some(def) => def.clone(),
                None => self.stored_def(db, name)?,
            }
            .ok_or_else(|| Error::NoSuchTable(format!("{db}.{name}")))?;
            let to = lowercase(new_db, new_name);
            let taken = match names.get(&to) {
                Some(def) => def.is_some(),
                None => self.stored_def(new_db, new_name)?.is_some(),
            };
            if taken || self.view(new_db, new_name)?.is_some() {
                return Err(Error::TableExists(new_name.clone()));
            }
            if !self.database_exists(new_db)? {
                return Err(Error::NoSuchDatabase(new_db.clone()));
            }
            if !ident_ok(new_name) {
                return Err(Error::Invalid(format!("Incorrect table name '{new_name}'")));
            }
            let mut moved = def;
            moved.database = new_db.clone();
            moved.name = new_name.clone();
            names.insert(from, None);
            names.insert(to, Some(moved));
        }
        // Foreign keys follow their parent's renames, in order.
        let follow = |def: &mut TableDef| -> bool {
            let mut changed = false;
            for fk in def.foreign_keys.iter_mut() {
                for ((db, name), (new_db, new_name)) in renames {
                    if fk.parent_database.eq_ignore_ascii_case(db)
                        && fk.parent_table.eq_ignore_ascii_case(name)
                    {
                        fk.parent_database = new_db.clone();
                        fk.parent_table = new_name.clone();
                        changed = true;
                    }
                }
            }
            changed
        };
        for def in names.values_mut().flatten() {
            follow(def);
        }
        let mut children = Vec::new();
        for mut def in self.all_table_defs()? {
            if !names.contains_key(&lowercase(&def.database, &def.name)) && follow(&mut def) {
                children.push(def);
            }
        }
        let mut txn = self.begin();
        for def in &children {
            self.catalog.put(
                &mut txn,
                &table_key(&def.database, &def.name),
                &serde_json::to_vec(def).expect("serializable"),
            )?;
        }
        for ((db, name), def) in &names {
            match def {
                Some(def) => self.catalog.put(
                    &mut txn,
                    &table_key(db, name),
                    &serde_json::to_vec(def).expect("serializable"),
                )?,
                None => self.catalog.remove(&mut txn, &table_key(db, name))?,
            }
        }
        txn.commit()?;
        // Open handles follow: the old names forgotten, the new ones
        // opened on the same trees (sharing counters and locks).
        let mut old_handles: HashMap<u64, Arc<Table>> = HashMap::new();
        {
            let mut open = self.tables.lock();
            for key in names.keys() {
                if let Some(t) = open.remove(key) {
                    old_handles.insert(t.def.primary_root, t);
                }
            }
        }
        for def in children {
            let key = lowercase(&def.database, &def.name);
            let old = self.tables.lock().remove(&key);
            let table = match old {
                Some(old) => Arc::new(old.with_def(def)?),
                None => Arc::new(Table::open(def, self.store.pool())?),
            };
            self.install(&table);
        }
        for def in names.into_values().flatten() {
            let table = match old_handles.get(&def.primary_root) {
                Some(old) => Arc::new(old.with_def(def)?),
                None => Arc::new(Table::open(def, self.store.pool())?),
            };
            self.install(&table);
        }
        Ok(())
    }

    /// Gives `old` the definition `def`, which must keep its rows as they
    /// are (the same columns in number and type, keys and trees): names,
    /// defaults, comments, the table's name. The table's new handle.
    pub fn alter_definition(&self, old: &Table, def: TableDef) -> Result<Arc<Table>> {
        let _ddl = self.ddl_lock();
        self.replacing(old, || self.alter_definition_held_off(old, def))
    }

    fn alter_definition_held_off(&self, old: &Table, def: TableDef) -> Result<Arc<Table>> {
        let same_rows = old.def.columns.len() == def.columns.len()
            && old
                .def
                .columns
                .iter()
                .zip(&def.columns)
                .all(|(a, b)| a.data_type == b.data_type && a.nullable == b.nullable)
            && old.def.primary_key == def.primary_key
            && old.def.primary_root == def.primary_root
            && old.def.indexes == def.indexes
            && old.def.temporary == def.temporary;
        if !same_rows {
            return Err(Error::Invalid(
                "a definition change that needs the rows rewritten".into(),
            ));
        }
        def.validate()?;
        let (old_key, new_key) = (catalog_key(&old.def), catalog_key(&def));
        if old_key != new_key {
            if self.catalog.get(&new_key)?.is_some()
                || self.view(&def.database, &def.name)?.is_some()
            {
                return Err(Error::TableExists(def.name));
            }
            if !self.database_exists(&def.database)? {
                return Err(Error::NoSuchDatabase(def.database));
            }
        }
        let mut txn = self.begin();
        if old_key != new_key {
            self.catalog.remove(&mut txn, &old_key)?;
        }
        self.catalog.put(
            &mut txn,
            &new_key,
            &serde_json::to_vec(&def).expect("serializable"),
        )?;
        txn.commit()?;
        self.uninstall(&old.def);
        let start = def.auto_increment_start;
        let table = Arc::new(old.with_def(def)?);
        // `AUTO_INCREMENT = n` raises the next value (never below the rows'
        // largest + 1).
        table.raise_next_auto_increment(start);
        self.install(&table);
        Ok(table)
    }

    /// The stored definition of the permanent table `db.name`, if any.
    fn stored_def(&self, db: &str, name: &str) -> Result<Option<TableDef>> {
        let Some(v) = self.catalog.get(&table_key(db, name))? else {
            return Ok(None);
        };
        serde_json::from_slice(&v)
            .map(Some)
            .map_err(|e| Error::Invalid(format!("catalog entry for {db}.{name}: {e}")))
    }
}
