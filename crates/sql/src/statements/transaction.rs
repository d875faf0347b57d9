//! Transactions: BEGIN, COMMIT, ROLLBACK, autocommit statements in a
//! transaction of their own, and the snapshot a read statement takes.
use crate::error::{Result, SqlError};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_txn::Txn;

impl Session {
    /// BEGIN / START TRANSACTION: commits the open transaction and starts one.
    /// START TRANSACTION: WITH CONSISTENT SNAPSHOT takes the snapshot now
    /// (where one lasts for the transaction) rather than at the first
    /// read; READ ONLY refuses changes of rows until it ends.
    pub(crate) fn start_transaction(
        &mut self,
        consistent_snapshot: bool,
        read_only: bool,
    ) -> Result<Outcome> {
        // It ends LOCK TABLES, as in MariaDB.
        self.unlock_tables()?;
        // SET TRANSACTION's level is this transaction's, not the ended one's.
        let next_isolation = self.next_isolation;
        self.end_transaction(true)?;
        self.next_isolation = next_isolation;
        self.txn = Some(self.engine.begin_for(self.slot.id));
        self.explicit = true;
        self.read_only_transaction = read_only;
        if consistent_snapshot && self.view_spans_transaction() {
            self.begin_read()?;
        }
        Ok(Outcome::done(0))
    }

    /// COMMIT or ROLLBACK; AND CHAIN starts the next transaction at once,
    /// READ ONLY again if this one was.
    pub(crate) fn end_and_chain(&mut self, commit: bool, chain: bool) -> Result<Outcome> {
        let read_only = self.read_only_transaction;
        self.end_transaction(commit)?;
        if chain {
            self.start_transaction(false, read_only)?;
        }
        Ok(Outcome::done(0))
    }

    /// A change of rows (INSERT, UPDATE, DELETE): [`Session::in_transaction`]
    /// unless the transaction is READ ONLY (1792).
    pub(crate) fn changing_rows<T>(
        &mut self,
        f: impl FnOnce(&mut Self, &mut Txn) -> Result<T>,
    ) -> Result<T> {
        if self.read_only_transaction {
            return Err(SqlError::new(
                1792,
                "25006",
                "Cannot execute statement in a READ ONLY transaction",
            ));
        }
        self.in_transaction(f)
    }

    pub(crate) fn commit(&mut self, txn: Txn) -> Result<()> {
        if !self.deferred_durability {
            return Ok(txn.commit()?);
        }
        if let Some(lsn) = txn.commit_no_wait()? {
            self.undurable = Some(self.undurable.map_or(lsn, |u| u.max(lsn)));
        }
        Ok(())
    }

    /// Does a snapshot last for the whole transaction (REPEATABLE READ in
    /// a transaction), rather than one statement?
    pub(crate) fn view_spans_transaction(&self) -> bool {
        matches!(
            self.next_isolation.unwrap_or(self.isolation),
            "REPEATABLE-READ" | "SERIALIZABLE"
        ) && (self.explicit || !self.autocommit)
    }

    /// Takes the snapshot a read statement needs (or keeps the open
    /// transaction's): publishes it in this session's own slot.
    pub(crate) fn begin_read(&mut self) -> Result<()> {
        if self.view.is_none() || !self.view_spans_transaction() {
            self.view = None; // one view per reader at a time
            if self.reader.is_none() {
                self.reader = Some(self.engine.reader()?);
            }
            let own = self.txn.as_ref().map_or(0, |t| t.id_if_started());
            self.view = Some(self.reader.as_ref().expect("made").view(own));
        }
        if let (Some(v), Some(t)) = (self.view.as_mut(), self.txn.as_ref()) {
            // A transaction that wrote after its snapshot sees its changes.
            v.set_own(t.id_if_started());
        }
        Ok(())
    }

    /// Ends a read statement: its snapshot goes unless the transaction
    /// keeps it (an idle session must not hold back purge).
    pub(crate) fn end_read(&mut self) {
        if !self.view_spans_transaction() {
            self.view = None;
        }
        if !self.explicit && self.autocommit {
            // The statement was the next transaction.
            self.next_isolation = None;
        }
    }

    /// Runs a read with the statement's snapshot.
    pub(crate) fn reading<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.begin_read()?;
        let r = f(self);
        self.end_read();
        r
    }

    /// Runs a data change inside the open transaction, or in one of its
    /// own that commits at once (autocommit). A statement that fails undoes
    /// its own changes only; the transaction goes on.
    pub(crate) fn in_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut Self, &mut Txn) -> Result<T>,
    ) -> Result<T> {
        let mut txn = match self.txn.take() {
            Some(t) => t,
            None => self.engine.begin_for(self.slot.id),
        };
        let savepoint = txn.savepoint();
        let r = f(self, &mut txn);
        if matches!(&r, Err(e) if e.code == 1213) {
            // The deadlock victim: the whole transaction rolls back (InnoDB).
            self.explicit = false;
            self.read_only_transaction = false;
            txn.rollback()?;
            self.tables.free_dropped(&self.engine)?;
            return r;
        }
        if r.is_err() {
            txn.rollback_to(savepoint)?;
        }
        if self.explicit || !self.autocommit {
            self.txn = Some(txn);
            return r;
        }
        self.next_isolation = None;
        if r.is_ok() {
            self.commit(txn)?;
        } else {
            txn.rollback()?;
        }
        r
    }

    /// COMMIT (or ROLLBACK) of the open transaction, if any.
    pub(crate) fn end_transaction(&mut self, commit: bool) -> Result<()> {
        self.explicit = false;
        self.next_isolation = None;
        self.read_only_transaction = false;
        self.savepoints.clear();
        self.view = None;
        match self.txn.take() {
            Some(t) if commit => self.commit(t)?,
            Some(t) => t.rollback()?,
            None => {}
        }
        self.tables.free_dropped(&self.engine)
    }

    /// SAVEPOINT name: marks where the open transaction is (a savepoint of
    /// the same name moves here); with autocommit off it starts the
    /// transaction if none is open. Under autocommit, outside a
    /// transaction, the statement ends at once and so does what it marks,
    /// as in MariaDB.
    pub(crate) fn savepoint(&mut self, name: &str) -> Result<Outcome> {
        if self.txn.is_none() && !self.autocommit {
            self.txn = Some(self.engine.begin_for(self.slot.id));
        }
        if let Some(txn) = &self.txn {
            let at = txn.savepoint();
            self.savepoints
                .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            self.savepoints.push((name.to_string(), at));
        }
        Ok(Outcome::done(0))
    }

    /// The position of savepoint `name` in the list (1305 if none).
    fn savepoint_at(&self, name: &str) -> Result<usize> {
        self.savepoints
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| SqlError::new(1305, "42000", format!("SAVEPOINT {name} does not exist")))
    }

    /// ROLLBACK TO SAVEPOINT name: undoes the changes made since; the
    /// savepoints set after it go, it stays.
    pub(crate) fn rollback_to_savepoint(&mut self, name: &str) -> Result<Outcome> {
        let i = self.savepoint_at(name)?;
        let at = self.savepoints[i].1;
        if let Some(txn) = self.txn.as_mut() {
            txn.rollback_to(at)?;
        }
        self.savepoints.truncate(i + 1);
        Ok(Outcome::done(0))
    }

    /// RELEASE SAVEPOINT name: forgets it and the ones set after it.
    pub(crate) fn release_savepoint(&mut self, name: &str) -> Result<Outcome> {
        let i = self.savepoint_at(name)?;
        self.savepoints.truncate(i);
        Ok(Outcome::done(0))
    }
}
