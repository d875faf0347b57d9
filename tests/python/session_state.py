"""The bytes of the replies lineardb and MariaDB send a client that agreed
on CLIENT_SESSION_TRACK: each OK packet's status flags, info and session
state changes (the tracked session variables set, the default database),
and the final status of each result set (SERVER_QUERY_NO_INDEX_USED where
a table is read whole, SERVER_STATUS_DB_DROPPED). A raw client, so that
nothing a driver parses away is missed.
Usage: session_state.py LINEARDB_PORT MARIADB_PORT. Prints the differences
and exits 1 if there are any."""
import socket
import struct
import sys

LONG_PASSWORD, FOUND_ROWS, PROTOCOL_41 = 0x1, 0x2, 0x200
TRANSACTIONS, SECURE_CONNECTION = 0x2000, 0x8000
MULTI_RESULTS, PLUGIN_AUTH, SESSION_TRACK = 0x20000, 0x80000, 0x800000
CAPS = LONG_PASSWORD | PROTOCOL_41 | TRANSACTIONS | SECURE_CONNECTION
CAPS |= MULTI_RESULTS | PLUGIN_AUTH | SESSION_TRACK

STEPS = [
    "SET autocommit = 1",
    "SET autocommit = 0",
    "SET autocommit = 1",
    "SET NAMES utf8mb4",
    "SET time_zone = '+00:00'",
    "SET sql_mode = ''",
    "SET @@session.sql_mode = DEFAULT, time_zone = SYSTEM",
    "USE sstate",
    "SET character_set_client = utf8mb4",
    "SET session_track_system_variables = '*'",
    "SET sql_mode = DEFAULT",
    "SET session_track_system_variables = 'time_zone'",
    "SET autocommit = 1",
    "SET time_zone = '+01:00'",
    "SET GLOBAL max_connections = DEFAULT",
    "CREATE DATABASE IF NOT EXISTS sstate_other",
    "DROP DATABASE sstate_other",
    "DROP DATABASE IF EXISTS sstate_other",
    "CREATE TABLE t (a INT PRIMARY KEY, b INT, c INT, KEY (c))",
    "INSERT INTO t VALUES (1, 1, 1), (2, 2, 2)",
    "SELECT * FROM t",
    "SELECT * FROM t WHERE a = 1",
    "SELECT * FROM t WHERE a > 1",
    "SELECT c FROM t",
    "SELECT COUNT(*) FROM t",
    "SELECT * FROM t WHERE c = 1",
    "SELECT * FROM t x JOIN t y ON x.a = y.b",
    "SELECT * FROM t x JOIN t y ON x.b = y.b",
    "SELECT * FROM (SELECT * FROM t) d",
    "SELECT 1",
    "DELETE FROM t WHERE b = 5",
    "UPDATE t SET b = 3 WHERE a = 2",
    "UPDATE t SET b = 3 WHERE b = 2",
    "INSERT INTO t SELECT a + 10, b, c FROM t",
    "INSERT INTO t SELECT a + 20, b, c FROM t WHERE a = 1",
    "DELETE FROM t",
    "DROP TABLE t",
]


def read_packet(s):
    head = b""
    while len(head) < 4:
        head += s.recv(4 - len(head))
    n = head[0] | head[1] << 8 | head[2] << 16
    data = b""
    while len(data) < n:
        data += s.recv(n - len(data))
    return head[3], data


def write_packet(s, seq, data):
    s.sendall(struct.pack("<I", len(data))[:3] + bytes([seq]) + data)


def lenenc(d, i):
    c = d[i]
    if c < 0xFB:
        return c, i + 1
    if c == 0xFC:
        return d[i + 1] | d[i + 2] << 8, i + 3
    if c == 0xFD:
        return int.from_bytes(d[i + 1 : i + 4], "little"), i + 4
    return int.from_bytes(d[i + 1 : i + 9], "little"), i + 9


def state_of(d, i):
    """The info and the session state changes after an OK packet's
    status and warnings; the changes sorted (MariaDB lists the variables a
    statement set in no fixed order)."""
    if i >= len(d):
        return "no info"
    n, i = lenenc(d, i)
    info = d[i : i + n]
    i += n
    if i >= len(d):
        return f"info {info!r}"
    n, i = lenenc(d, i)
    block, changes, at = d[i : i + n], [], 0
    while at < len(block):
        kind = block[at]
        size, start = lenenc(block, at + 1)
        changes.append(f"{kind}:{block[start:start + size].hex(' ')}")
        at = start + size
    return f"info {info!r} state {sorted(changes)} ({len(d) - i - n} bytes after)"


def transcript(port):
    s = socket.create_connection(("127.0.0.1", port))
    seq, _greeting = read_packet(s)
    login = struct.pack("<IIB23x", CAPS, 1 << 24, 45) + b"root\0\0mysql_native_password\0"
    write_packet(s, seq + 1, login)
    seq, d = read_packet(s)
    if d[0] == 0xFE:
        write_packet(s, seq + 1, b"")
        seq, d = read_packet(s)
    assert d[0] == 0, d
    lines = []
    for q in ["DROP DATABASE IF EXISTS sstate", "CREATE DATABASE sstate"] + STEPS:
        write_packet(s, 0, b"\x03" + q.encode())
        seq, d = read_packet(s)
        if d[0] == 0xFF:
            lines.append(f"{q} -> error {d[1] | d[2] << 8}")
        elif d[0] == 0:
            _, i = lenenc(d, 1)
            _, i = lenenc(d, i)
            status = d[i] | d[i + 1] << 8
            lines.append(f"{q} -> ok status {status:#06x} {state_of(d, i + 4)}")
        else:
            # A result set: column definitions, an EOF, rows, an EOF.
            eofs = 0
            while eofs < 2:
                seq, d = read_packet(s)
                if d[0] == 0xFE and len(d) < 9:
                    eofs += 1
            lines.append(f"{q} -> rows, status {d[3] | d[4] << 8:#06x}")
    s.close()
    return lines


def main():
    ours, theirs = (transcript(int(p)) for p in sys.argv[1:3])
    differ = [(a, b) for a, b in zip(ours, theirs) if a != b]
    for a, b in differ:
        print(f"lineardb: {a}\nMariaDB:  {b}")
    if differ or len(ours) != len(theirs):
        sys.exit(1)
    print(f"{len(ours)} replies alike")


if __name__ == "__main__":
    main()
