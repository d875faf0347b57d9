//! Views in the catalog: a name in a database's table namespace bound to
//! the text of a query (tables in it qualified by database when it was
//! made), kept under its own key next to the tables'.
use super::{table_key, Engine};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// A stored view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ViewDef {
    pub database: String,
    pub name: String,
    /// The SELECT, as text.
    pub query: String,
    /// Names given to its columns (empty: the query's own).
    pub columns: Vec<String>,
    /// Its columns' names when it was made, given or the query's (empty:
    /// made before they were kept); SHOW CREATE VIEW names the items so.
    #[serde(default)]
    pub names: Vec<String>,
    /// The account whose rights it reads with, as `` `user`@`host` ``.
    pub definer: String,
    /// ALGORITHM: UNDEFINED, MERGE or TEMPTABLE.
    #[serde(default = "undefined")]
    pub algorithm: String,
    /// SQL SECURITY INVOKER: read with the rights of whoever reads it.
    #[serde(default)]
    pub invoker: bool,
    /// WITH CHECK OPTION: NONE, CASCADED or LOCAL.
    #[serde(default = "no_check")]
    pub check_option: String,
}

fn undefined() -> String {
    "UNDEFINED".into()
}

fn no_check() -> String {
    "NONE".into()
}

fn view_key(db: &str, name: &str) -> Vec<u8> {
    let mut k = b"V".to_vec();
    k.extend_from_slice(db.to_ascii_lowercase().as_bytes());
    k.push(0);
    k.extend_from_slice(name.to_ascii_lowercase().as_bytes());
    k
}

impl Engine {
    /// Makes (or with `replace`, replaces) a view; its name may be no
    /// table's.
    pub fn create_view(&self, def: ViewDef, replace: bool) -> Result<()> {
        let _ddl = self.ddl_lock();
        if !self.database_exists(&def.database)? {
            return Err(Error::NoSuchDatabase(def.database));
        }
        if self
            .catalog
            .get(&table_key(&def.database, &def.name))?
            .is_some()
            || (!replace && self.view_entry(&def.database, &def.name)?.is_some())
        {
            return Err(Error::TableExists(def.name));
        }
        let value = serde_json::to_vec(&def).map_err(|e| Error::Invalid(e.to_string()))?;
        self.catalog_set(&view_key(&def.database, &def.name), Some(&value))
    }

    /// Replaces the definition of existing view `def.database.def.name`;
    /// false if there is no such view (nothing changes).
    pub fn alter_view(&self, def: ViewDef) -> Result<bool> {
        let _ddl = self.ddl_lock();
        if self.view_entry(&def.database, &def.name)?.is_none() {
            return Ok(false);
        }
        let value = serde_json::to_vec(&def).map_err(|e| Error::Invalid(e.to_string()))?;
        self.catalog_set(&view_key(&def.database, &def.name), Some(&value))?;
        Ok(true)
    }

    /// Drops view `db.name`; false if there is none.
    pub fn drop_view(&self, db: &str, name: &str) -> Result<bool> {
        let _ddl = self.ddl_lock();
        if self.view_entry(db, name)?.is_none() {
            return Ok(false);
        }
        self.catalog_set(&view_key(db, name), None)?;
        Ok(true)
    }

    /// View `db.name`, if there is one.
    pub fn view(&self, db: &str, name: &str) -> Result<Option<ViewDef>> {
        self.view_entry(db, name)
    }

    fn view_entry(&self, db: &str, name: &str) -> Result<Option<ViewDef>> {
        match self.catalog.get(&view_key(db, name))? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v)
                .map(Some)
                .map_err(|e| Error::Invalid(format!("catalog entry for view {db}.{name}: {e}"))),
        }
    }

    /// The views of database `db`, by name.
    pub fn views(&self, db: &str) -> Result<Vec<ViewDef>> {
        let prefix = view_key(db, "");
        let mut out = Vec::new();
        self.catalog.scan(&prefix, |k, v| {
            if !k.starts_with(&prefix) {
                return false;
            }
            if let Ok(def) = serde_json::from_slice::<ViewDef>(v) {
                out.push(def);
            }
            true
        })?;
        Ok(out)
    }

    /// Drops every view of database `db` (when it is dropped).
    pub(super) fn drop_views_of(&self, db: &str) -> Result<()> {
        for v in self.views(db)? {
            self.catalog_set(&view_key(db, &v.name), None)?;
        }
        Ok(())
    }
}
