//! Transactions: BEGIN, COMMIT, ROLLBACK, autocommit statements in a
//! transaction of their own, and the snapshot a read statement takes.
use crate::error::Result;
use crate::result::Outcome;
use crate::session::Session;
use lineardb_txn::Txn;

impl Session {
    /// BEGIN / START TRANSACTION: commits the open transaction and starts one.
    pub(crate) fn start_transaction(&mut self) -> Result<Outcome> {
        self.end_transaction(true)?;
        self.txn = Some(self.engine.begin());
        self.explicit = true;
        Ok(Outcome::done(0))
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
        matches!(self.isolation, "REPEATABLE-READ" | "SERIALIZABLE")
            && (self.explicit || !self.autocommit)
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
            None => self.engine.begin(),
        };
        let savepoint = txn.savepoint();
        let r = f(self, &mut txn);
        if matches!(&r, Err(e) if e.code == 1213) {
            // The deadlock victim: the whole transaction rolls back (InnoDB).
            self.explicit = false;
            txn.rollback()?;
            self.tables.free_dropped(&self.engine)?;
            return r;
        }
        if r.is_err() {
            txn.rollback_to(savepoint)?;
        }
        if self.explicit || !self.autocommit {
            self.txn = Some(txn);
        } else if r.is_ok() {
            self.commit(txn)?;
        } else {
            txn.rollback()?;
        }
        r
    }

    /// COMMIT (or ROLLBACK) of the open transaction, if any.
    pub(crate) fn end_transaction(&mut self, commit: bool) -> Result<()> {
        self.explicit = false;
        self.view = None;
        match self.txn.take() {
            Some(t) if commit => self.commit(t)?,
            Some(t) => t.rollback()?,
            None => {}
        }
        self.tables.free_dropped(&self.engine)
    }
}
