//! One client connection: handshake, then commands until COM_QUIT or the
//! socket closes. Each connection owns its [`Session`] and is served by
//! one worker at a time; nothing here is shared between connections.
use crate::cursor::CursorRows;
use crate::packet::{put_lenenc_int, put_lenenc_str, PacketIo, Reader, Ready};
use crate::result_columns::{column_def, parameter_column_def, put_binary, UTF8MB4_GENERAL_CI};
use lineardb_sql::{
    authenticate, Column, ColumnKind, ExprWire, Outcome, Prepared, Registry, RowSink, Session,
    SqlError, ValueEncoding, SERVER_VERSION,
};
use lineardb_sync::SharedFlag;
use lineardb_table::types::{MICROS_PER_DAY, ZERO_DATE};
use lineardb_table::{Engine, Value};
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::sync::Arc;

// Capability flags.
const LONG_PASSWORD: u32 = 1;
const FOUND_ROWS: u32 = 2;
const LONG_FLAG: u32 = 4;
const CONNECT_WITH_DB: u32 = 8;
const PROTOCOL_41: u32 = 512;
const TRANSACTIONS: u32 = 8192;
const SECURE_CONNECTION: u32 = 32768;
/// CLIENT_LOCAL_FILES: the client sends its files for LOAD DATA LOCAL.
const LOCAL_FILES: u32 = 1 << 7;
const MULTI_STATEMENTS: u32 = 1 << 16;
const MULTI_RESULTS: u32 = 1 << 17;
const PS_MULTI_RESULTS: u32 = 1 << 18;
const PLUGIN_AUTH: u32 = 1 << 19;
const CONNECT_ATTRS: u32 = 1 << 20;
const PLUGIN_AUTH_LENENC: u32 = 1 << 21;
/// CLIENT_SESSION_TRACK: OK packets' info is length-encoded (left out
/// when empty with no state after it, as MariaDB's). MariaDB offers it,
/// and drivers read the info of OK packets (`Records: 2  Duplicates: 0…`)
/// length-encoded only when it is agreed.
/// The OK packet then lists the session state a statement changed: the
/// default database and the session variables
/// `session_track_system_variables` names.
const SESSION_TRACK: u32 = 1 << 23;
const SERVER_CAPS: u32 = LONG_PASSWORD
    | FOUND_ROWS
    | LONG_FLAG
    | CONNECT_WITH_DB
    | LOCAL_FILES
    | PROTOCOL_41
    | TRANSACTIONS
    | SECURE_CONNECTION
    | MULTI_STATEMENTS
    | MULTI_RESULTS
    | PS_MULTI_RESULTS
    | PLUGIN_AUTH
    | CONNECT_ATTRS
    | PLUGIN_AUTH_LENENC
    | SESSION_TRACK;

/// Switches a stream to TLS, given the TLS bytes already read from it.
pub type StartTls<'a, S> = &'a mut dyn FnMut(&mut S, &[u8]) -> io::Result<()>;

/// CLIENT_SSL: offered when the server has TLS; a client asking for it
/// sends a short request, then the TLS handshake, then its login.
const CLIENT_SSL: u32 = 1 << 11;

const STATUS_IN_TRANS: u16 = 1;
const STATUS_AUTOCOMMIT: u16 = 2;
const STATUS_IN_TRANS_READONLY: u16 = 0x2000;
const STATUS_MORE_RESULTS: u16 = 8;
/// SERVER_SESSION_STATE_CHANGED: the OK packet lists what changed.
const STATUS_SESSION_STATE_CHANGED: u16 = 0x4000;
/// SESSION_TRACK_SCHEMA: a session state change naming the new database.
const TRACK_SCHEMA: u8 = 1;
/// SESSION_TRACK_SYSTEM_VARIABLES: a tracked session variable was set.
const TRACK_SYSTEM_VARIABLES: u8 = 0;
/// SERVER_QUERY_NO_INDEX_USED: the statement read a table whole.
const STATUS_NO_INDEX_USED: u16 = 32;
/// SERVER_STATUS_DB_DROPPED: the statement dropped a database.
const STATUS_DB_DROPPED: u16 = 256;
/// A prepared statement's cursor is open (its rows wait for COM_STMT_FETCH).
const STATUS_CURSOR_EXISTS: u16 = 0x40;
/// The fetch sent the cursor's last row.
const STATUS_LAST_ROW_SENT: u16 = 0x80;
/// COM_STMT_EXECUTE's flag: the result is kept for COM_STMT_FETCH.
const CURSOR_TYPE_READ_ONLY: u8 = 1;
/// MARIADB_CLIENT_EXTENDED_METADATA, among MariaDB's own capabilities (the
/// greeting's and the login's last four reserved bytes): column
/// definitions then name a column's format (`json`) and extended type.
const EXTENDED_METADATA: u32 = 1 << 3;
/// MARIADB_CLIENT_STMT_BULK_OPERATIONS: COM_STMT_BULK_EXECUTE is served
/// (MariaDB Connector/J sends a batch as one).
const STMT_BULK_OPERATIONS: u32 = 1 << 2;
/// MariaDB's own capabilities this server offers.
const MARIADB_CAPS: u32 = EXTENDED_METADATA | STMT_BULK_OPERATIONS;
/// COM_STMT_BULK_EXECUTE's flag: the parameters' types come first.
const BULK_SEND_TYPES: u16 = 128;

pub struct Conn<S: Read + Write> {
    io: PacketIo<S>,
    session: Session,
    /// CLIENT_MULTI_STATEMENTS, or COM_SET_OPTION turned it on.
    multi_statements: bool,
    /// CLIENT_LOCAL_FILES: LOAD DATA LOCAL asks the client for its file.
    local_files: bool,
    /// CLIENT_SESSION_TRACK was agreed: every OK packet carries its info.
    session_track: bool,
    /// MARIADB_CLIENT_EXTENDED_METADATA was agreed.
    extended_metadata: bool,
    /// The default database the client was last told of (at login, or by
    /// an OK packet's session state): an OK packet reports a change.
    reported_schema: Option<String>,
    statements: HashMap<u32, Statement>,
    next_statement: u32,
    /// The last statement's reply, held back until its commit is durable.
    parked: Option<Parked>,
    /// Whether the log became durable for `parked` (set by whoever waited).
    durable: Option<Result<(), SqlError>>,
    /// Set while the server's log waiter is at work: replies are parked
    /// for it then (see [`settle`](Self::settle)); without one, never.
    log_waiter_busy: Option<Arc<SharedFlag>>,
}

/// A statement that succeeded and committed; its reply waits for the log.
struct Parked {
    lsn: u64,
    outcome: Outcome,
}

/// What [`Conn::serve_ready`] left the connection waiting for.
pub(crate) enum Served {
    /// The client's next request.
    Request,
    /// The log to be durable up to `lsn`; then [`Conn::durable`] and
    /// [`Conn::serve_ready`] again.
    Log { lsn: u64 },
    /// Nothing: the connection is to be closed.
    Closed,
}

struct Statement {
    prepared: Prepared,
    /// Parameter types from the last execute that sent them.
    types: Vec<(u8, bool)>,
    long_data: HashMap<u16, Vec<u8>>,
    /// The rows of the last execution that opened a cursor, until fetched.
    cursor: Option<CursorRows>,
}

/// Writes result rows as they come: text protocol or binary.
struct Sink<'a, S: Read + Write> {
    io: &'a mut PacketIo<S>,
    /// The client sends its files (a query's sink: CLIENT_LOCAL_FILES).
    local_files: bool,
    binary: bool,
    kinds: Vec<ValueEncoding>,
    buf: Vec<u8>,
    /// Column definitions carry MariaDB's extended metadata.
    extended: bool,
    /// The executed statement's parameters (none for a query).
    parameters: Bound<'a>,
    /// A cursor's rows, kept rather than sent; the column definitions'
    /// EOF is then the caller's (it says the cursor exists).
    cursor: Option<CursorRows>,
}

impl<'a, S: Read + Write> Sink<'a, S> {
    /// The sink of a prepared statement's execution: rows in the binary
    /// protocol, the parameters it ran with at hand.
    fn executing(
        io: &'a mut PacketIo<S>,
        extended: bool,
        types: &'a [(u8, bool)],
        values: &'a [Value],
    ) -> Self {
        Sink {
            io,
            local_files: false,
            binary: true,
            kinds: Vec::new(),
            buf: Vec::new(),
            extended,
            parameters: Bound { types, values },
            cursor: None,
        }
    }
}

/// The parameters a prepared statement was executed with: the types they
/// were sent with and their values.
#[derive(Default)]
struct Bound<'a> {
    types: &'a [(u8, bool)],
    values: &'a [Value],
}

/// An EOF packet's body (made on the stack: one follows every result's
/// column definitions).
/// One session state change of an OK packet: its type, then its data
/// length-encoded, the data being `fields` each length-encoded.
fn put_state_change(state: &mut Vec<u8>, kind: u8, fields: &[&str]) {
    let mut data = Vec::new();
    for f in fields {
        put_lenenc_str(&mut data, f.as_bytes());
    }
    state.push(kind);
    put_lenenc_int(state, data.len() as u64);
    state.extend_from_slice(&data);
}

fn eof(status: u16, warnings: u16) -> [u8; 5] {
    let [w0, w1] = warnings.to_le_bytes();
    let [s0, s1] = status.to_le_bytes();
    [0xfe, w0, w1, s0, s1]
}

/// How long a client may pause while it sends its file (MariaDB's
/// net_read_timeout).
const CLIENT_FILE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// A client's file for LOAD DATA LOCAL: the packets it sends after the
/// server asks for it, up to an empty one.
struct ClientFile<'a, S: Read + Write> {
    io: &'a mut PacketIo<S>,
    packet: Vec<u8>,
    at: usize,
    ended: bool,
}

impl<S: Read + Write> Read for ClientFile<'_, S> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        // The socket is the worker's, in non-blocking mode: wait for the
        // client between packets, a little longer each time, up to
        // MariaDB's net_read_timeout.
        let deadline = std::time::Instant::now() + CLIENT_FILE_TIMEOUT;
        let mut pause = std::time::Duration::from_micros(20);
        while self.at == self.packet.len() {
            if self.ended {
                return Ok(0);
            }
            match self.io.try_read()? {
                Ready::Packet(p) if p.is_empty() => self.ended = true,
                Ready::Packet(p) => {
                    self.packet = p;
                    self.at = 0;
                }
                Ready::Pending if std::time::Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(std::time::Duration::from_millis(5));
                }
                Ready::Pending => return Err(io::ErrorKind::TimedOut.into()),
                Ready::Closed => return Err(io::ErrorKind::UnexpectedEof.into()),
            }
        }
        let n = out.len().min(self.packet.len() - self.at);
        out[..n].copy_from_slice(&self.packet[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

impl<S: Read + Write> RowSink for Sink<'_, S> {
    fn local_file(&mut self, name: &str) -> Result<Box<dyn Read + '_>, SqlError> {
        if !self.local_files {
            return Err(SqlError::new(
                4166,
                "HY000",
                "The used command is not allowed because the MariaDB server or client has \
                 disabled the local infile capability",
            ));
        }
        // LOCAL INFILE's request: 0xFB and the file's name.
        let mut request = vec![0xfb];
        request.extend_from_slice(name.as_bytes());
        self.io.write(&request).map_err(io_err)?;
        self.io.flush().map_err(io_err)?;
        Ok(Box::new(ClientFile {
            io: &mut *self.io,
            packet: Vec::new(),
            at: 0,
            ended: false,
        }))
    }

    fn columns(&mut self, columns: &[Column]) -> Result<(), SqlError> {
        self.kinds = columns.iter().map(ValueEncoding::of).collect();
        self.buf.clear();
        put_lenenc_int(&mut self.buf, columns.len() as u64);
        self.io.write(&self.buf).map_err(io_err)?;
        for (i, c) in columns.iter().enumerate() {
            self.buf.clear();
            if let ExprWire::Param(p) = c.wire {
                let p = usize::from(p);
                let sent = self.parameters.types.get(p).copied();
                let value = self.parameters.values.get(p);
                self.kinds[i] = parameter_column_def(c, sent, value, self.extended, &mut self.buf);
            } else {
                column_def(c, self.extended, &mut self.buf);
            }
            self.io.write(&self.buf).map_err(io_err)?;
        }
        if self.cursor.is_some() {
            return Ok(());
        }
        self.io.write(&eof(STATUS_AUTOCOMMIT, 0)).map_err(io_err)
    }

    fn row(&mut self, row: &[Value]) -> Result<(), SqlError> {
        self.buf.clear();
        let encoding = |i: usize| {
            self.kinds
                .get(i)
                .copied()
                .unwrap_or(ValueEncoding::Kind(ColumnKind::TEXT))
        };
        if self.binary {
            self.buf.push(0);
            let bitmap_at = self.buf.len();
            self.buf.resize(bitmap_at + (row.len() + 7 + 2) / 8, 0);
            for (i, v) in row.iter().enumerate() {
                if v.is_null() {
                    let bit = i + 2;
                    self.buf[bitmap_at + bit / 8] |= 1 << (bit % 8);
                } else {
                    put_binary(encoding(i), &mut self.buf, v);
                }
            }
        } else {
            for (i, v) in row.iter().enumerate() {
                match v {
                    // Strings and NULL are sent as they are whatever the
                    // column (the common case: no per-column work).
                    Value::Null => self.buf.push(0xfb),
                    Value::Bytes(b) => put_lenenc_str(&mut self.buf, b),
                    other => put_lenenc_str(&mut self.buf, &encoding(i).text(other)),
                }
            }
        }
        match &mut self.cursor {
            Some(rows) => rows
                .push(&self.buf)
                .map_err(|e| SqlError::new(1, "HY000", format!("Can't keep a cursor's rows: {e}"))),
            None => self.io.write(&self.buf).map_err(io_err),
        }
    }
}

fn io_err(e: io::Error) -> SqlError {
    SqlError::new(
        1160,
        "08S01",
        format!("Got an error writing communication packets: {e}"),
    )
}

/// Decodes one binary-protocol parameter.
fn read_param(r: &mut Reader<'_>, ty: u8, unsigned: bool) -> io::Result<Value> {
    // A fixed-width integer of `bits`, zero- or sign-extended.
    let int = |raw: u64, bits: u32| {
        let shift = 64 - bits;
        Value::Int(if unsigned {
            raw as i64
        } else {
            ((raw << shift) as i64) >> shift
        })
    };
    Ok(match ty {
        1 => int(r.u8()? as u64, 8),
        2 | 13 => int(r.u16()? as u64, 16),
        3 | 9 => int(r.u32()? as u64, 32),
        8 => {
            let b = r.u64()?;
            if unsigned && b > i64::MAX as u64 {
                Value::UInt(b)
            } else {
                Value::Int(b as i64)
            }
        }
        4 => Value::Double(f32::from_le_bytes(r.take(4)?.try_into().unwrap()) as f64),
        5 => Value::Double(f64::from_le_bytes(r.take(8)?.try_into().unwrap())),
        6 => Value::Null,
        7 | 10 | 12 => {
            let n = r.u8()? as usize;
            let b = r.take(n)?;
            // No fields, or a year, month and day of 0: the zero date.
            if n == 0 {
                return Ok(Value::Date(ZERO_DATE));
            }
            let y = u16::from_le_bytes([b[0], *b.get(1).unwrap_or(&0)]) as i32;
            let (m, d) = (
                *b.get(2).unwrap_or(&1) as u32,
                *b.get(3).unwrap_or(&1) as u32,
            );
            let days = if (y, m, d) == (0, 0, 0) {
                ZERO_DATE
            } else {
                lineardb_table::types::days_from_civil(y, m.max(1), d.max(1))
            };
            if n <= 4 || ty == 10 {
                Value::Date(days)
            } else {
                let (h, mi, s) = (
                    b[4] as i64,
                    *b.get(5).unwrap_or(&0) as i64,
                    *b.get(6).unwrap_or(&0) as i64,
                );
                let frac = if n >= 11 {
                    u32::from_le_bytes(b[7..11].try_into().unwrap()) as i64
                } else {
                    0
                };
                Value::DateTime(
                    days as i64 * MICROS_PER_DAY + (h * 3600 + mi * 60 + s) * 1_000_000 + frac,
                )
            }
        }
        // TIME: sign, days, hours, minutes, seconds, microseconds.
        11 => {
            let n = r.u8()? as usize;
            let b = r.take(n)?;
            if n < 8 {
                return Ok(Value::Time(0));
            }
            let days = u32::from_le_bytes(b[1..5].try_into().unwrap()) as i64;
            let (h, mi, s) = (b[5] as i64, b[6] as i64, b[7] as i64);
            let frac = if n >= 12 {
                u32::from_le_bytes(b[8..12].try_into().unwrap()) as i64
            } else {
                0
            };
            let t = ((days * 24 + h) * 3600 + mi * 60 + s) * 1_000_000 + frac;
            Value::Time(if b[0] == 1 { -t } else { t })
        }
        _ => Value::Bytes(r.lenenc_str()?.to_vec()),
    })
}

fn send_error<S: Read + Write>(io: &mut PacketIo<S>, e: &SqlError) -> io::Result<()> {
    let mut p = vec![0xff];
    p.extend_from_slice(&e.code.to_le_bytes());
    p.push(b'#');
    p.extend_from_slice(e.sqlstate.as_bytes());
    p.extend_from_slice(&error_message(&e.message));
    io.write(&p)
}

/// The longest error message MariaDB sends, in bytes (MYSQL_ERRMSG_SIZE
/// less its terminator).
const MESSAGE_BYTES: usize = 511;

/// An error's message as MariaDB sends it: cut to [`MESSAGE_BYTES`], a
/// character the cut splits shown as `?`.
fn error_message(message: &str) -> std::borrow::Cow<'_, [u8]> {
    if message.len() <= MESSAGE_BYTES {
        return message.as_bytes().into();
    }
    let mut end = MESSAGE_BYTES;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    let mut cut = message.as_bytes()[..end].to_vec();
    if end < MESSAGE_BYTES {
        cut.push(b'?');
    }
    cut.into()
}

/// Refuses a new connection with `e` in place of the greeting (1040).
pub(crate) fn refuse<S: Read + Write>(io: &mut PacketIo<S>, e: &SqlError) -> io::Result<()> {
    io.seq = 0;
    send_error(io, e)?;
    io.flush()
}

/// The handshake: greeting with a 20-byte scramble, the client's answer,
/// mysql_native_password verification, then the session. `None` when the
/// client went away or was refused (the error is sent).
/// `tls` switches the stream to TLS (when the server has it); `tls_required`
/// refuses logins without it (require_secure_transport).
pub fn handshake<S: Read + Write>(
    mut io: PacketIo<S>,
    engine: &Arc<Engine>,
    registry: &Arc<Registry>,
    client_host: &str,
    mut tls: Option<StartTls<'_, S>>,
    tls_required: bool,
) -> io::Result<Option<Conn<S>>> {
    let server_caps = SERVER_CAPS | if tls.is_some() { CLIENT_SSL } else { 0 };
    // A MariaDB server leaves out bit 0 (CLIENT_MYSQL, once LONG_PASSWORD)
    // of what it offers: MariaDB's clients then read its own capabilities
    // from the greeting's last reserved bytes (none here).
    let offered = server_caps & !LONG_PASSWORD;
    io.set_max_packet(registry.max_allowed_packet() as usize);
    let id = registry.reserve_id();
    let scramble: [u8; 20] = std::array::from_fn(|_| rand::random::<u8>() % 94 + 33);
    let mut p = vec![10];
    p.extend_from_slice(SERVER_VERSION.as_bytes());
    p.push(0);
    p.extend_from_slice(&(id as u32).to_le_bytes());
    p.extend_from_slice(&scramble[..8]);
    p.push(0);
    p.extend_from_slice(&(offered as u16).to_le_bytes());
    p.push(UTF8MB4_GENERAL_CI);
    p.extend_from_slice(&STATUS_AUTOCOMMIT.to_le_bytes());
    p.extend_from_slice(&((offered >> 16) as u16).to_le_bytes());
    p.push(21);
    p.extend_from_slice(&[0; 6]);
    p.extend_from_slice(&MARIADB_CAPS.to_le_bytes());
    p.extend_from_slice(&scramble[8..]);
    p.push(0);
    p.extend_from_slice(b"mysql_native_password\0");
    io.seq = 0;
    io.write(&p)?;
    io.flush()?;
    let Some(mut resp) = io.read()? else {
        return Ok(None);
    };
    let mut secure = false;
    let asked = Reader::new(&resp).u32()? & server_caps;
    if asked & CLIENT_SSL != 0 {
        // The SSL request: TLS first, then the login over it.
        let Some(start_tls) = tls.as_mut() else {
            return Ok(None);
        };
        // The client may have sent its first TLS bytes right behind the
        // request: they are TLS's.
        let early = io.take_unread();
        start_tls(&mut io.stream, &early)?;
        secure = true;
        resp = match io.read()? {
            Some(r) => r,
            None => return Ok(None),
        };
    }
    if tls_required && !secure {
        send_error(
            &mut io,
            &SqlError::new(
                3159,
                "HY000",
                "Connections using insecure transport are prohibited while --require_secure_transport=ON.",
            ),
        )?;
        io.flush()?;
        return Ok(None);
    }
    let mut r = Reader::new(&resp);
    let caps = r.u32()? & SERVER_CAPS;
    let _max_packet = r.u32()?;
    let _charset = r.u8()?;
    let reserved = r.take(23)?;
    let mariadb_caps =
        EXTENDED_METADATA & u32::from_le_bytes(reserved[19..23].try_into().expect("4 bytes"));
    let user = String::from_utf8_lossy(r.nul_str()?).into_owned();
    let auth = if caps & PLUGIN_AUTH_LENENC != 0 {
        r.lenenc_str()?
    } else {
        let n = r.u8()? as usize;
        r.take(n)?
    };
    let db = if caps & CONNECT_WITH_DB != 0 && !r.is_empty() {
        Some(String::from_utf8_lossy(r.nul_str()?).into_owned())
    } else {
        None
    };
    let plugin = if caps & PLUGIN_AUTH != 0 && !r.is_empty() {
        r.nul_str()?
    } else {
        b"mysql_native_password"
    };
    let auth = if plugin != b"mysql_native_password" && !auth.is_empty() {
        // Ask the client to answer again with our plugin.
        let mut p = vec![0xfe];
        p.extend_from_slice(b"mysql_native_password\0");
        p.extend_from_slice(&scramble);
        p.push(0);
        io.write(&p)?;
        io.flush()?;
        match io.read()? {
            Some(a) => a,
            None => return Ok(None),
        }
    } else {
        auth.to_vec()
    };
    let grants = match authenticate(engine, &user, client_host, &scramble, &auth, secure) {
        Ok(g) => g,
        Err(e) => {
            send_error(&mut io, &e)?;
            io.flush()?;
            return Ok(None);
        }
    };
    let mut session = Session::login(engine.clone(), registry, id, &user, client_host, grants);
    session.set_found_rows(caps & FOUND_ROWS != 0);
    let mut conn = Conn {
        io,
        session,
        multi_statements: caps & MULTI_STATEMENTS != 0,
        local_files: caps & LOCAL_FILES != 0,
        session_track: caps & SESSION_TRACK != 0,
        reported_schema: None,
        extended_metadata: mariadb_caps & EXTENDED_METADATA != 0,
        statements: HashMap::new(),
        next_statement: 1,
        parked: None,
        durable: None,
        log_waiter_busy: None,
    };
    if let Some(db) = db.filter(|d| !d.is_empty()) {
        if let Err(e) = conn.session.use_database(&db) {
            conn.send_err(&e)?;
            conn.io.flush()?;
            return Ok(None);
        }
    }
    conn.reported_schema = conn.session.database().map(str::to_string);
    conn.send_ok(0, 0, "")?;
    conn.io.flush()?;
    Ok(Some(conn))
}

impl Conn<crate::stream::NetStream> {
    pub fn raw_fd(&self) -> std::os::fd::RawFd {
        std::os::fd::AsRawFd::as_raw_fd(&self.io.stream.tcp)
    }

    /// After the login: reads no longer wait (the worker pool waits).
    pub fn set_nonblocking(&mut self) -> io::Result<()> {
        self.io.stream.tcp.set_read_timeout(None)?;
        self.io.stream.tcp.set_nonblocking(true)
    }

    /// Tells the session the connection's TLS version and cipher
    /// (`Ssl_version`, `Ssl_cipher`).
    pub fn note_tls(&mut self) {
        if let Some((version, cipher)) = self.io.stream.tls_parameters() {
            self.session.set_tls(version, cipher);
        }
    }
}

impl<S: Read + Write> Conn<S> {
    /// The session's slot (KILL wakes the connection through it).
    pub fn session_slot(&self) -> &Arc<lineardb_sql::SessionSlot> {
        self.session.slot()
    }

    fn status(&self) -> u16 {
        let mut status = 0;
        if self.session.autocommit() {
            status |= STATUS_AUTOCOMMIT;
        }
        match self.session.open_transaction() {
            Some(true) => status |= STATUS_IN_TRANS | STATUS_IN_TRANS_READONLY,
            Some(false) => status |= STATUS_IN_TRANS,
            None => {}
        }
        let report = self.session.statement_report();
        if report.no_index_used {
            status |= STATUS_NO_INDEX_USED;
        }
        if report.database_dropped {
            status |= STATUS_DB_DROPPED;
        }
        status
    }

    fn send_ok(&mut self, affected: u64, last_id: u64, info: &str) -> io::Result<()> {
        self.send_ok_status(affected, last_id, info, 0)
    }

    fn send_ok_status(
        &mut self,
        affected: u64,
        last_id: u64,
        info: &str,
        extra_status: u16,
    ) -> io::Result<()> {
        let schema_change = self.schema_change();
        let variables: &[(String, String)] = if self.session_track {
            &self.session.statement_report().changed_variables
        } else {
            &[]
        };
        let mut state = Vec::new();
        for (name, value) in variables {
            put_state_change(&mut state, TRACK_SYSTEM_VARIABLES, &[name, value]);
        }
        if let Some(schema) = &schema_change {
            put_state_change(&mut state, TRACK_SCHEMA, &[schema]);
        }
        let mut status = self.status() | extra_status;
        if !state.is_empty() {
            status |= STATUS_SESSION_STATE_CHANGED;
        }
        let mut p = vec![0];
        put_lenenc_int(&mut p, affected);
        put_lenenc_int(&mut p, last_id);
        p.extend_from_slice(&status.to_le_bytes());
        p.extend_from_slice(&self.session.warning_count().to_le_bytes());
        if !info.is_empty() || !state.is_empty() {
            // Length-encoded, as MariaDB sends it and libmariadb reads it;
            // left out when empty with no state after it, as MariaDB does.
            put_lenenc_str(&mut p, info.as_bytes());
        }
        if !state.is_empty() {
            put_lenenc_str(&mut p, &state);
        }
        if let Some(schema) = schema_change {
            self.reported_schema = Some(schema).filter(|s| !s.is_empty());
        }
        self.io.write(&p)
    }

    /// The default database to report in the next OK packet: the session's
    /// when the client tracks it and was told another ("" for none).
    fn schema_change(&self) -> Option<String> {
        let now = self.session.database();
        if !self.session_track || now == self.reported_schema.as_deref() {
            return None;
        }
        let tracked = self
            .session
            .variable("session_track_schema")
            .is_some_and(|v| {
                v.to_text()
                    .is_some_and(|t| t == "1" || t.eq_ignore_ascii_case("ON"))
            });
        tracked.then(|| now.unwrap_or_default().to_string())
    }

    fn send_err(&mut self, e: &SqlError) -> io::Result<()> {
        send_error(&mut self.io, e)
    }

    /// Commits stop waiting for the log ([`Session::set_deferred_durability`]):
    /// a reply whose commit is not durable yet may be held back, and
    /// [`serve_ready`](Self::serve_ready) then returns [`Served::Log`].
    pub fn defer_durability(&mut self) {
        self.session.set_deferred_durability(true);
    }

    /// Lets replies be parked for a log waiter, whose work `busy` shows.
    pub fn park_for(&mut self, busy: Arc<SharedFlag>) {
        self.log_waiter_busy = Some(busy);
    }

    /// Park a reply rather than wait here? Only while a sync is under way
    /// (this commit needs the next one, shared with the commits parked
    /// meanwhile) or the log waiter is at work: a lone committer waits
    /// here and syncs at once, without two thread hand-offs.
    fn park_now(&self) -> bool {
        self.log_waiter_busy
            .as_ref()
            .is_some_and(|b| b.get() || self.session.engine().log_is_flushing())
    }

    /// The outcome of waiting for the log on behalf of the held-back reply.
    pub fn durable(&mut self, r: Result<(), SqlError>) {
        self.durable = Some(r);
    }

    /// Serves every request that has arrived in full, without waiting for
    /// more. A reply held back for the log is sent first (after waiting
    /// here if nobody has waited for it).
    pub fn serve_ready(&mut self) -> io::Result<Served> {
        if let Some(p) = self.parked.take() {
            let r = match self.durable.take() {
                Some(r) => r,
                None => lineardb_sql::wait_durable(self.session.engine(), p.lsn),
            };
            self.finish(r.map(|()| p.outcome), false)?;
            self.io.flush()?;
        }
        loop {
            let ready = match self.io.try_read() {
                Err(e) if crate::packet::is_too_large(&e) => {
                    // MariaDB answers with 1153, then closes.
                    self.send_err(&SqlError::new(1153, "08S01", e.to_string()))?;
                    self.io.flush()?;
                    return Ok(Served::Closed);
                }
                r => r?,
            };
            let packet = match ready {
                Ready::Packet(p) => p,
                Ready::Pending => return Ok(Served::Request),
                Ready::Closed => return Ok(Served::Closed),
            };
            if self.session.slot().killed() {
                return Ok(Served::Closed);
            }
            let Some((&cmd, body)) = packet.split_first() else {
                return Ok(Served::Closed);
            };
            match self.command(cmd, body) {
                Ok(true) => {}
                Ok(false) => return Ok(Served::Closed),
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    // A malformed request: answer it, keep the connection.
                    self.send_err(&SqlError::new(
                        1835,
                        "HY000",
                        format!("Malformed communication packet: {e}"),
                    ))?;
                }
                Err(e) => return Err(e),
            }
            if let Some(p) = &self.parked {
                return Ok(Served::Log { lsn: p.lsn });
            }
            if let Some(lsn) = self.session.take_undurable() {
                // A commit by a command whose reply is already written:
                // report nothing rather than a commit that may be lost.
                if lineardb_sql::wait_durable(self.session.engine(), lsn).is_err() {
                    return Ok(Served::Closed);
                }
            }
            self.io.flush()?;
        }
    }

    /// [`serve_ready`](Self::serve_ready), waiting for the log here.
    pub fn serve_ready_waiting(&mut self) -> io::Result<bool> {
        loop {
            match self.serve_ready()? {
                Served::Request => return Ok(true),
                Served::Closed => return Ok(false),
                Served::Log { .. } => {}
            }
        }
    }

    /// Holds back the reply of a statement that committed without waiting
    /// for the log: `None` if it is parked (it was the request's last
    /// statement and succeeded), else the result to send once the log is
    /// durable (waited for here).
    fn settle(
        &mut self,
        r: Result<Outcome, SqlError>,
        last: bool,
    ) -> Option<Result<Outcome, SqlError>> {
        let Some(lsn) = self.session.take_undurable() else {
            return Some(r);
        };
        match r {
            Ok(outcome) if last && self.park_now() => {
                self.parked = Some(Parked { lsn, outcome });
                None
            }
            r => Some(lineardb_sql::wait_durable(self.session.engine(), lsn).and(r)),
        }
    }

    /// COM_QUERY: each statement's result in turn, all but the last
    /// flagged "more results"; an error ends the batch. A batch that does
    /// not parse as a whole runs up to its first bad statement, whose error
    /// ends it (as MariaDB parses and runs one statement after another).
    fn query(&mut self, body: &[u8]) -> io::Result<()> {
        let sql = lineardb_sql::text_of_wire(body);
        match self.session.parse_batch(&sql) {
            // Without CLIENT_MULTI_STATEMENTS the second statement is where
            // MariaDB stops reading.
            Ok(b) if b.len() > 1 && !self.multi_statements => {
                self.send_err(&lineardb_sql::second_statement_error(&sql))
            }
            Ok(batch) => self.run_batch(&batch, true).map(drop),
            Err(e) => {
                let parts = lineardb_sql::statement_texts(&sql)
                    .filter(|parts| self.multi_statements && parts.len() > 1);
                let Some(parts) = parts else {
                    return self.send_err(&e);
                };
                for (k, part) in parts.iter().enumerate() {
                    let batch = match self.session.parse_batch(part) {
                        Ok(b) => b,
                        Err(e) => {
                            // MariaDB's message quotes the text from where
                            // reading stopped on, past this statement.
                            let at = part.as_ptr() as usize - sql.as_ptr() as usize;
                            let e = match self.session.parse_batch(&sql[at..]) {
                                Err(whole) if whole.code == e.code => whole,
                                _ => e,
                            };
                            return self.send_err(&e);
                        }
                    };
                    if !self.run_batch(&batch, k + 1 == parts.len())? {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// Runs a parsed batch, its last statement ending the reply if `ends`;
    /// false if it stopped (an error, or a reply parked for the log).
    fn run_batch(&mut self, batch: &lineardb_sql::Batch, ends: bool) -> io::Result<bool> {
        for i in 0..batch.len() {
            let mut sink = Sink {
                io: &mut self.io,
                local_files: self.local_files,
                binary: false,
                kinds: Vec::new(),
                buf: Vec::new(),
                extended: self.extended_metadata,
                parameters: Bound::default(),
                cursor: None,
            };
            let r = self.session.execute_in(batch, i, &mut sink);
            let last = ends && i + 1 == batch.len();
            let Some(r) = self.settle(r, last) else {
                return Ok(false);
            };
            let failed = r.is_err();
            self.finish(r, !last && !failed)?;
            if failed {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn finish(&mut self, r: Result<Outcome, SqlError>, more: bool) -> io::Result<()> {
        let more = if more { STATUS_MORE_RESULTS } else { 0 };
        match r {
            Ok(Outcome::Rows) => {
                let status = self.status() | more;
                let w = self.session.warning_count();
                self.io.write(&eof(status, w))
            }
            Ok(Outcome::Done {
                affected,
                last_insert_id,
                info,
            }) => self.send_ok_status(affected, last_insert_id, &info, more),
            Err(e) => self.send_err(&e),
        }
    }

    /// Handles one command; false to close the connection.
    fn command(&mut self, cmd: u8, body: &[u8]) -> io::Result<bool> {
        match cmd {
            0x01 => return Ok(false), // COM_QUIT
            0x02 => {
                let db = String::from_utf8_lossy(body).into_owned();
                match self.session.use_database(&db) {
                    Ok(()) => self.send_ok(0, 0, "")?,
                    Err(e) => self.send_err(&e)?,
                }
            }
            0x03 => self.query(body)?,
            0x04 => {
                // COM_FIELD_LIST: the table's columns, then EOF.
                let mut r = Reader::new(body);
                let table = String::from_utf8_lossy(r.nul_str().unwrap_or(body)).into_owned();
                let mut collect = lineardb_sql::CollectSink::default();
                let q = format!("SELECT * FROM `{}` LIMIT 0", table.replace('`', "``"));
                match self.session.execute(&q, &mut collect) {
                    Ok(_) => {
                        for c in &collect.columns {
                            let mut p = Vec::new();
                            column_def(c, self.extended_metadata, &mut p);
                            p.push(0xfb); // no default shown
                            self.io.write(&p)?;
                        }
                        let status = self.status();
                        self.io.write(&eof(status, 0))?;
                    }
                    Err(e) => self.send_err(&e)?,
                }
            }
            0x09 => {
                // COM_STATISTICS: one plain-text packet.
                let tables = self.session.engine().open_tables();
                let text = self.session.registry().statistics_line(tables);
                self.io.write(text.as_bytes())?;
            }
            0x0e => self.send_ok(0, 0, "")?, // COM_PING
            0x11 => self.change_user(body)?,
            0x1f => {
                // COM_RESET_CONNECTION: a fresh session, no prepared
                // statements.
                self.session.reset();
                self.statements.clear();
                self.send_ok(0, 0, "")?
            }
            0x1b => {
                // COM_SET_OPTION: 0 turns multi-statements on, 1 off; EOF.
                self.multi_statements = Reader::new(body).u16()? == 0;
                let status = self.status();
                self.io.write(&eof(status, 0))?;
            }
            0x16 => self.prepare(body)?,
            0x17 => self.execute(body)?,
            0xfa => self.bulk_execute(body)?,
            0x18 => {
                // COM_STMT_SEND_LONG_DATA: no reply.
                let mut r = Reader::new(body);
                let id = r.u32()?;
                let param = r.u16()?;
                if let Some(s) = self.statements.get_mut(&id) {
                    s.long_data
                        .entry(param)
                        .or_default()
                        .extend_from_slice(r.rest());
                }
            }
            0x19 => {
                // COM_STMT_CLOSE: no reply.
                let id = Reader::new(body).u32()?;
                self.statements.remove(&id);
            }
            0x1a => {
                let id = Reader::new(body).u32()?;
                match self.statements.get_mut(&id) {
                    Some(s) => {
                        // COM_STMT_RESET: pieces sent and the cursor go.
                        s.long_data.clear();
                        s.cursor = None;
                        self.send_ok(0, 0, "")?;
                    }
                    None => self.send_err(&unknown_statement(id))?,
                }
            }
            0x1c => self.fetch(body)?,
            other => self.send_err(&SqlError::new(
                1047,
                "08S01",
                format!("Unknown command {other:#04x}"),
            ))?,
        }
        Ok(true)
    }

    fn prepare(&mut self, body: &[u8]) -> io::Result<()> {
        let sql = lineardb_sql::text_of_wire(body).into_owned();
        let prepared = match self.session.prepare(&sql) {
            Ok(p) => p,
            Err(e) => return self.send_err(&e),
        };
        let id = self.next_statement;
        self.next_statement = self.next_statement.wrapping_add(1).max(1);
        let (params, columns) = (prepared.param_count(), prepared.columns.clone());
        let mut p = vec![0];
        p.extend_from_slice(&id.to_le_bytes());
        p.extend_from_slice(&(columns.len() as u16).to_le_bytes());
        p.extend_from_slice(&(params as u16).to_le_bytes());
        p.push(0);
        p.extend_from_slice(&0u16.to_le_bytes());
        self.io.write(&p)?;
        if params > 0 {
            // A parameter's type is known at execution: MariaDB describes
            // each as NULL until then.
            let parameter = Column {
                wire: lineardb_sql::ExprWire::Null,
                ..Column::expr("?", ColumnKind::TEXT)
            };
            for _ in 0..params {
                let mut d = Vec::new();
                column_def(&parameter, self.extended_metadata, &mut d);
                self.io.write(&d)?;
            }
            self.io.write(&eof(self.status(), 0))?;
        }
        if !columns.is_empty() {
            for c in &columns {
                let mut d = Vec::new();
                column_def(c, self.extended_metadata, &mut d);
                self.io.write(&d)?;
            }
            self.io.write(&eof(self.status(), 0))?;
        }
        self.statements.insert(
            id,
            Statement {
                prepared,
                types: Vec::new(),
                long_data: HashMap::new(),
                cursor: None,
            },
        );
        Ok(())
    }

    /// COM_CHANGE_USER: the login's user, password answer and database;
    /// the client answers a fresh scramble (an auth switch to
    /// mysql_native_password), then the connection is that account's in a
    /// fresh session, or gets the login's error (the connection closes
    /// on a failed login, as MariaDB's).
    fn change_user(&mut self, body: &[u8]) -> io::Result<()> {
        let mut r = Reader::new(body);
        let user = String::from_utf8_lossy(r.nul_str()?).into_owned();
        let n = r.u8()? as usize;
        r.take(n)?;
        let db = if r.is_empty() {
            None
        } else {
            Some(String::from_utf8_lossy(r.nul_str()?).into_owned())
        };
        let scramble: [u8; 20] = std::array::from_fn(|_| rand::random::<u8>() % 94 + 33);
        let mut p = vec![0xfe];
        p.extend_from_slice(b"mysql_native_password\0");
        p.extend_from_slice(&scramble);
        p.push(0);
        self.io.write(&p)?;
        self.io.flush()?;
        let Some(answer) = self.read_answer()? else {
            return Ok(());
        };
        let host = self.session.client_host();
        let secure = self.session.secure();
        let grants = match authenticate(
            self.session.engine(),
            &user,
            &host,
            &scramble,
            &answer,
            secure,
        ) {
            Ok(g) => g,
            Err(e) => {
                self.send_err(&e)?;
                self.io.flush()?;
                return Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    "login refused",
                ));
            }
        };
        self.session.change_user(&user, &host, grants);
        self.statements.clear();
        if let Some(db) = db.filter(|d| !d.is_empty()) {
            if let Err(e) = self.session.use_database(&db) {
                return self.send_err(&e);
            }
        }
        self.send_ok(0, 0, "")
    }

    /// A packet the client sends within a command (a login's answer),
    /// waited for (up to 30 s) on a stream that does not block.
    fn read_answer(&mut self) -> io::Result<Option<Vec<u8>>> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            match self.io.try_read()? {
                Ready::Packet(p) => return Ok(Some(p)),
                Ready::Closed => return Ok(None),
                Ready::Pending if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(1))
                }
                Ready::Pending => return Err(io::ErrorKind::TimedOut.into()),
            }
        }
    }

    fn execute(&mut self, body: &[u8]) -> io::Result<()> {
        let mut r = Reader::new(body);
        let id = r.u32()?;
        let flags = r.u8()?;
        let _iterations = r.u32()?;
        // (Borrowed in place: the connection's other fields are used
        // beside it until the result is settled.)
        let Some(st) = self.statements.get_mut(&id) else {
            return self.send_err(&unknown_statement(id));
        };
        let n = st.prepared.param_count();
        let decoded = (|| -> io::Result<Vec<Value>> {
            let mut params = Vec::with_capacity(n);
            if n > 0 {
                let nulls = r.take(n.div_ceil(8))?.to_vec();
                if r.u8()? == 1 {
                    st.types = (0..n)
                        .map(|_| Ok((r.u8()?, r.u8()? & 0x80 != 0)))
                        .collect::<io::Result<_>>()?;
                }
                if st.types.len() != n {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "parameter types never sent",
                    ));
                }
                for i in 0..n {
                    // Data sent in pieces stands, whatever the NULL bit
                    // says (mysqlnd sets it for such a parameter).
                    if let Some(data) = st.long_data.remove(&(i as u16)) {
                        params.push(Value::Bytes(data));
                    } else if nulls[i / 8] & (1 << (i % 8)) != 0 {
                        params.push(Value::Null);
                    } else {
                        let (t, u) = st.types[i];
                        params.push(read_param(&mut r, t, u)?);
                    }
                }
            }
            Ok(params)
        })();
        // Parameters cut short or never typed: MariaDB's 1210, the
        // connection stays.
        let Ok(params) = decoded else {
            return self.send_err(&SqlError::new(
                1210,
                "HY000",
                "Incorrect arguments to mysqld_stmt_execute",
            ));
        };
        // A new execution closes the cursor of the last.
        st.cursor = None;
        let mut sink = Sink::executing(&mut self.io, self.extended_metadata, &st.types, &params);
        if flags & CURSOR_TYPE_READ_ONLY != 0 {
            sink.cursor = Some(CursorRows::default());
        }
        let res = self
            .session
            .execute_prepared(&mut st.prepared, &params, &mut sink);
        let cursor = sink.cursor.take();
        match (self.settle(res, cursor.is_none()), cursor) {
            // Rows kept: the definitions' EOF says a cursor is open.
            (Some(Ok(Outcome::Rows)), Some(rows)) => {
                let status = self.status() | STATUS_CURSOR_EXISTS;
                let w = self.session.warning_count();
                self.io.write(&eof(status, w))?;
                if let Some(st) = self.statements.get_mut(&id) {
                    st.cursor = Some(rows);
                }
                Ok(())
            }
            // No result set (the flag asks nothing of such a statement).
            (Some(r), _) => self.finish(r, false),
            (None, _) => Ok(()),
        }
    }

    /// COM_STMT_FETCH: up to the number of rows asked for from the
    /// statement's cursor, then EOF; the last row sent closes the cursor.
    fn fetch(&mut self, body: &[u8]) -> io::Result<()> {
        let mut r = Reader::new(body);
        let id = r.u32()?;
        let wanted = r.u32()?;
        let Some(st) = self.statements.get_mut(&id) else {
            return self.send_err(&SqlError::new(
                1243,
                "HY000",
                format!("Unknown prepared statement handler ({id}) given to mysqld_stmt_fetch"),
            ));
        };
        let Some(rows) = st.cursor.as_mut() else {
            return self.send_err(&SqlError::new(
                1421,
                "HY000",
                format!("The statement ({id}) has no open cursor."),
            ));
        };
        let mut packet = Vec::new();
        for _ in 0..wanted {
            if !rows.next_into(&mut packet)? {
                break;
            }
            self.io.write(&packet)?;
        }
        let done = rows.is_done();
        if done {
            st.cursor = None;
        }
        let mut status = self.status() | STATUS_CURSOR_EXISTS;
        if done {
            status |= STATUS_LAST_ROW_SENT;
        }
        self.io.write(&eof(status, 0))
    }
}

impl<S: Read + Write> Conn<S> {
    /// COM_STMT_BULK_EXECUTE (MariaDB's): a prepared INSERT, REPLACE,
    /// UPDATE or DELETE run once for each row of parameters the packet
    /// holds, as one statement: every row is written or none is. One OK
    /// packet answers for them all.
    fn bulk_execute(&mut self, body: &[u8]) -> io::Result<()> {
        let mut r = Reader::new(body);
        let id = r.u32()?;
        let flags = r.u16()?;
        let Some(st) = self.statements.get_mut(&id) else {
            return self.send_err(&unknown_statement(id));
        };
        let n = st.prepared.param_count();
        let decoded = (|| -> Result<Vec<Vec<Value>>, SqlError> {
            let cut_short = |_: io::Error| {
                SqlError::new(
                    1210,
                    "HY000",
                    "Incorrect arguments to mysqld_stmt_bulk_execute",
                )
            };
            if flags & BULK_SEND_TYPES != 0 {
                st.types = (0..n)
                    .map(|_| Ok((r.u8()?, r.u8()? & 0x80 != 0)))
                    .collect::<io::Result<_>>()
                    .map_err(cut_short)?;
            }
            if st.types.len() != n {
                return Err(cut_short(io::ErrorKind::InvalidData.into()));
            }
            let mut rows = Vec::new();
            while !r.is_empty() {
                let mut row = Vec::with_capacity(n);
                for &(t, unsigned) in &st.types {
                    // The indicator: 0 a value follows, 1 NULL, 2 DEFAULT,
                    // 3 IGNORE.
                    match r.u8().map_err(cut_short)? {
                        0 => row.push(read_param(&mut r, t, unsigned).map_err(cut_short)?),
                        1 => row.push(Value::Null),
                        _ => {
                            return Err(SqlError::unsupported(
                                "DEFAULT or IGNORE as a bulk parameter",
                            ))
                        }
                    }
                }
                rows.push(row);
                if n == 0 {
                    break;
                }
            }
            Ok(rows)
        })();
        let rows = match decoded {
            Ok(rows) => rows,
            Err(e) => return self.send_err(&e),
        };
        let first = rows.first().map_or(&[][..], |r| r.as_slice());
        let mut sink = Sink::executing(&mut self.io, self.extended_metadata, &st.types, first);
        let res = self
            .session
            .execute_prepared_bulk(&mut st.prepared, &rows, &mut sink);
        match self.settle(res, true) {
            Some(r) => self.finish(r, false),
            None => Ok(()),
        }
    }
}

fn unknown_statement(id: u32) -> SqlError {
    SqlError::new(
        1243,
        "HY000",
        format!("Unknown prepared statement handler ({id}) given to mysqld_stmt_execute"),
    )
}
