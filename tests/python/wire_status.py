"""What PyMySQL reads from the OK packets of lineardb and of MariaDB: the
status flags drivers decide COMMIT by (IN_TRANS, IN_TRANS_READONLY,
AUTOCOMMIT), affected rows with CLIENT_FOUND_ROWS, and the insert id.
Usage: wire_status.py LINEARDB_PORT MARIADB_PORT. Prints the differences
and exits 1 if there are any."""
import sys

import pymysql
from pymysql.constants import CLIENT

STEPS = [
    "CREATE TABLE w (id INT AUTO_INCREMENT PRIMARY KEY, v INT)",
    "INSERT INTO w (v) VALUES (1), (1), (2)",
    "BEGIN",
    "INSERT INTO w (v) VALUES (3)",
    "COMMIT",
    "START TRANSACTION READ ONLY",
    "SELECT COUNT(*) FROM w",
    "COMMIT",
    "SET autocommit = 0",
    "SELECT COUNT(*) FROM w",
    "INSERT INTO w (id, v) VALUES (100, 5)",
    "UPDATE w SET v = 1 WHERE v = 1",
    "UPDATE w SET v = 1",
    "ROLLBACK",
    "SET autocommit = 1",
    "INSERT INTO w (id, v) VALUES (200, 6)",
    "INSERT INTO w (id, v) VALUES (200, 6) ON DUPLICATE KEY UPDATE v = 6",
    "INSERT INTO w (id, v) VALUES (200, 7) ON DUPLICATE KEY UPDATE v = 7",
]


def transcript(port):
    setup = pymysql.connect(host="127.0.0.1", port=port, user="root", autocommit=True)
    with setup.cursor() as c:
        c.execute("DROP DATABASE IF EXISTS wire")
        c.execute("CREATE DATABASE wire")
    setup.close()
    lines = []
    for found_rows in (False, True):
        conn = pymysql.connect(
            host="127.0.0.1",
            port=port,
            user="root",
            database="wire",
            autocommit=True,
            client_flag=CLIENT.FOUND_ROWS if found_rows else 0,
        )
        with conn.cursor() as c:
            if found_rows:
                c.execute("DROP TABLE w")
            for sql in STEPS:
                affected = c.execute(sql)
                status = conn.server_status & 0x2003
                lines.append(
                    f"found_rows={found_rows} {sql} -> affected {affected} "
                    f"id {c.lastrowid} status {status:#06x}"
                )
        conn.close()
    return lines


ours, theirs = transcript(int(sys.argv[1])), transcript(int(sys.argv[2]))
different = [(o, t) for o, t in zip(ours, theirs) if o != t]
for o, t in different:
    print(f"lineardb: {o}\nMariaDB:  {t}")
sys.exit(1 if different or len(ours) != len(theirs) else 0)
