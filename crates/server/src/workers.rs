//! The worker pool: a few threads serve every connection. Connections are
//! dealt at login to groups, one group per worker by default, each with its
//! own poll set. A worker waits on its group's poll set for a connection
//! with a request, serves all its complete requests, re-arms it and takes
//! the next; with many clients the next request is usually there already,
//! so a query costs no thread switch (a thread per connection pays one per
//! query, and a core running 32 of them spends the difference: 8.4 against
//! 5.9 µs of server CPU per point select, measured with the server alone
//! on one core). Groups share nothing per request: a poll set is written
//! (re-armed) only by its own workers.
//!
//! A long query holds its worker. A monitor looks every [`STALL_CHECK`]: a
//! worker still on the request it was on last time is stalled, and a group
//! whose workers are all stalled gets another one, so the group's other
//! connections keep being served. Extra workers end after [`IDLE_EXIT`]
//! without work. (MariaDB's thread pool uses the same scheme.) A worker
//! about to wait for a commit's log sync or a row lock says so
//! (`lineardb_sync::blocking`), and its group gets another worker at once
//! if it has no free one: otherwise a group's commits would be synced one
//! worker at a time, and group commit would have nothing to group.
//!
//! A commit does not hold its worker either: the session commits without
//! waiting for the log and the connection, its reply held back, goes to
//! the log waiter, which waits for the log on behalf of every connection
//! parked meanwhile (one sync for all of them: group commit without a
//! thread per waiting commit) and hands them back to their groups, armed
//! for output so that a worker sends the reply at once. The worker goes
//! on to the group's next request meanwhile.
//!
//! Ownership: a registered connection is a leaked `Box<Client>` whose
//! address is its poll token. Poll sets are one-shot, so the worker that
//! receives a token owns the client until it re-arms it, or removes and
//! frees it; no other thread can hold the token meanwhile.
use crate::conn::{Conn, Served};
use crate::poller::Poller;
use crate::stream::NetStream;
use lineardb_sync::{Condvar, LocalCounter, Mutex, SharedFlag, SharedWord};
use lineardb_table::Engine;
use std::io;
use std::os::fd::RawFd;
use std::sync::Arc;
use std::time::Duration;

/// How often the monitor looks for stalled workers.
const STALL_CHECK: Duration = Duration::from_millis(10);
/// An extra worker with nothing to do for this long ends.
const IDLE_EXIT: Duration = Duration::from_secs(2);
/// Most workers one group may have at once (stalled ones included).
const MAX_WORKERS_PER_GROUP: usize = 1024;

pub(crate) struct Client {
    pub conn: Conn<NetStream>,
    pub host: String,
    fd: RawFd,
}

impl Client {
    pub fn new(conn: Conn<NetStream>, host: String) -> Client {
        let fd = conn.raw_fd();
        Client { conn, host, fd }
    }
}

/// What one worker publishes about itself; written only by that worker.
#[derive(Default)]
struct WorkerSlot {
    /// Requests taken so far (the monitor compares it between looks).
    taken: LocalCounter,
    /// 1 while serving a connection.
    busy: LocalCounter,
    /// 1 once the worker has ended.
    ended: LocalCounter,
}

/// A group's workers: each slot with the `taken` the monitor saw last.
#[derive(Default)]
struct Roster {
    slots: Vec<(Arc<WorkerSlot>, u64)>,
    alive: usize,
}

struct Group {
    poller: Poller,
    roster: Mutex<Roster>,
}

pub(crate) struct Workers {
    groups: Vec<Group>,
    /// Login counter dealing connections to groups (written per login).
    next_group: SharedWord,
    /// Connections whose reply waits for the log (written per commit).
    waiting: Mutex<Vec<WaitingClient>>,
    /// Wakes the log waiter when `waiting` stops being empty.
    arrived: Condvar,
    /// Set while the log waiter has parked connections to serve (written
    /// when it starts and stops, read by committers).
    waiter_busy: Arc<SharedFlag>,
}

/// A parked connection: its token (owned by the waiting list, then by the
/// log waiter, until re-armed) and the log position its reply needs.
struct WaitingClient {
    token: u64,
    fd: RawFd,
    group: usize,
    lsn: u64,
}

impl Workers {
    /// Starts `groups` groups of one worker each (at least one) and the
    /// stall monitor.
    pub fn start(groups: usize, engine: Arc<Engine>) -> io::Result<Arc<Workers>> {
        let w = Arc::new(Workers {
            groups: (0..groups.max(1))
                .map(|_| {
                    Ok(Group {
                        poller: Poller::new()?,
                        roster: Mutex::new(Roster::default()),
                    })
                })
                .collect::<io::Result<_>>()?,
            next_group: SharedWord::new(0),
            waiting: Mutex::new(Vec::new()),
            arrived: Condvar::new(),
            waiter_busy: Arc::new(SharedFlag::new(false)),
        });
        for g in 0..w.groups.len() {
            w.spawn(g)?;
        }
        let monitor = w.clone();
        std::thread::Builder::new()
            .name("stall-monitor".into())
            .spawn(move || loop {
                std::thread::sleep(STALL_CHECK);
                monitor.check_stalls();
            })?;
        let waiter = w.clone();
        std::thread::Builder::new()
            .name("log-waiter".into())
            .spawn(move || waiter.wait_for_log(&engine))?;
        Ok(w)
    }

    fn spawn(self: &Arc<Self>, group: usize) -> io::Result<()> {
        let slot = Arc::new(WorkerSlot::default());
        {
            let mut r = self.groups[group].roster.lock();
            r.alive += 1;
            r.slots.push((slot.clone(), 0));
        }
        let w = self.clone();
        let started = std::thread::Builder::new()
            .name("worker".into())
            .spawn(move || {
                let (pool, mine) = (w.clone(), slot.clone());
                lineardb_sync::blocking::set_block_hook(Some(Box::new(move || {
                    pool.on_block(group, &mine)
                })));
                w.work(group, &slot)
            });
        if started.is_err() {
            self.groups[group].roster.lock().alive -= 1;
        }
        started.map(|_| ())
    }

    /// Hands a connection to a group. The caller has served what it had
    /// already received; the group's poll set reports what arrives next.
    pub fn register(&self, mut client: Client) -> io::Result<()> {
        client.conn.park_for(self.waiter_busy.clone());
        let group = &self.groups[self.next_group.fetch_add(1) as usize % self.groups.len()];
        let fd = client.fd;
        let token = Box::into_raw(Box::new(client)) as u64;
        if let Err(e) = group.poller.add(fd, token) {
            // SAFETY: the poll set refused the token, so no worker can have
            // it: this is the only owner, taking the box back.
            drop(unsafe { Box::from_raw(token as *mut Client) });
            return Err(e);
        }
        Ok(())
    }

    fn work(&self, group: usize, slot: &WorkerSlot) {
        let g = &self.groups[group];
        loop {
            // The roster is consulted only after a quiet spell, never per
            // request.
            let token = match g.poller.wait(Some(IDLE_EXIT)) {
                Ok(Some(t)) => t,
                Ok(None) => {
                    if retire(g) {
                        slot.ended.set(1);
                        return;
                    }
                    continue;
                }
                Err(e) => {
                    eprintln!("worker: poll: {e}");
                    std::thread::sleep(STALL_CHECK);
                    continue;
                }
            };
            slot.taken.add(1);
            slot.busy.set(1);
            // SAFETY: tokens are addresses of leaked `Box<Client>`s (see
            // `register`) and the one-shot poll set delivered this one to
            // this worker alone; it stays owned here until re-armed or freed.
            let client = unsafe { &mut *(token as *mut Client) };
            let served = serve(client);
            let fd = client.fd;
            if let Served::Log { lsn } = served {
                self.park(WaitingClient {
                    token,
                    fd,
                    group,
                    lsn,
                });
            } else if matches!(served, Served::Closed) || g.poller.rearm(fd, token).is_err() {
                let _ = g.poller.remove(fd);
                // SAFETY: the connection left the poll set above and this
                // worker is its only owner: nothing can reach the box after.
                drop(unsafe { Box::from_raw(token as *mut Client) });
            }
            slot.busy.set(0);
        }
    }

    /// Hands a connection whose reply waits for the log to the log waiter.
    fn park(&self, client: WaitingClient) {
        let mut w = self.waiting.lock();
        w.push(client);
        if w.len() == 1 {
            self.arrived.notify_one();
        }
    }

    /// The log waiter: takes every parked connection, waits once for the
    /// log to be durable up to the furthest of their commits, and returns
    /// each to its group's poll set armed for output (the socket is
    /// writable, so a worker takes it at once and sends the reply).
    fn wait_for_log(&self, engine: &Engine) {
        let mut batch = Vec::new();
        loop {
            {
                let mut w = self.waiting.lock();
                if w.is_empty() {
                    self.waiter_busy.set(false);
                    while w.is_empty() {
                        self.arrived.wait(&mut w);
                    }
                    self.waiter_busy.set(true);
                }
                std::mem::swap(&mut *w, &mut batch);
            }
            let upto = batch.iter().map(|c| c.lsn).max().unwrap_or(0);
            let r = lineardb_sql::wait_durable(engine, upto);
            for c in batch.drain(..) {
                // SAFETY: a parked token left its poll set when its worker
                // parked it (one-shot: no event can deliver it), and the
                // waiting list handed it to this thread alone; it stays
                // owned here until re-armed below.
                let client = unsafe { &mut *(c.token as *mut Client) };
                client.conn.durable(r.clone());
                let poller = &self.groups[c.group].poller;
                if poller.rearm_for_output(c.fd, c.token).is_err() {
                    let _ = poller.remove(c.fd);
                    // SAFETY: as above, this thread owns the box and the
                    // descriptor left the poll set: nothing can reach it.
                    drop(unsafe { Box::from_raw(c.token as *mut Client) });
                }
            }
        }
    }

    /// A worker of `group` is about to wait (I/O, a row lock): start
    /// another if no other worker of the group is free.
    fn on_block(self: &Arc<Self>, group: usize, me: &Arc<WorkerSlot>) {
        let starved = {
            let r = self.groups[group].roster.lock();
            let free = r
                .slots
                .iter()
                .any(|(s, _)| !Arc::ptr_eq(s, me) && s.busy.get() == 0 && s.ended.get() == 0);
            !free && r.alive < MAX_WORKERS_PER_GROUP
        };
        if starved {
            if let Err(e) = self.spawn(group) {
                eprintln!("worker pool: cannot start a worker: {e}");
            }
        }
    }

    fn check_stalls(self: &Arc<Self>) {
        for (i, g) in self.groups.iter().enumerate() {
            let starved = {
                let mut r = g.roster.lock();
                r.slots.retain(|(s, _)| s.ended.get() == 0);
                let mut free = 0;
                for (s, last) in r.slots.iter_mut() {
                    let taken = s.taken.get();
                    if s.busy.get() == 0 || taken != *last {
                        free += 1;
                    }
                    *last = taken;
                }
                free == 0 && r.alive < MAX_WORKERS_PER_GROUP
            };
            if starved {
                if let Err(e) = self.spawn(i) {
                    eprintln!("worker pool: cannot start a worker: {e}");
                }
            }
        }
    }
}

/// An idle worker leaves if its group keeps another free one: workers
/// held by long requests do not count, so a group whose worker runs a long
/// query keeps its spare instead of ending and restarting it every
/// [`IDLE_EXIT`].
fn retire(g: &Group) -> bool {
    let mut r = g.roster.lock();
    let held = r
        .slots
        .iter()
        .filter(|(s, _)| s.busy.get() == 1 && s.ended.get() == 0)
        .count();
    if r.alive > held + 1 {
        r.alive -= 1;
        true
    } else {
        false
    }
}

/// Serves what the client has sent.
fn serve(client: &mut Client) -> Served {
    let Client { conn, host, .. } = client;
    crate::guarded(host, &[], || conn.serve_ready()).unwrap_or(Served::Closed)
}
