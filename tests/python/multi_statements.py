"""Batches of several statements in one query (CLIENT_MULTI_STATEMENTS) as
PyMySQL reads them from lineardb and from MariaDB: each statement's
result in turn, and a batch with a bad statement runs the statements
before it and ends with the error (the connection goes on).
Usage: multi_statements.py LINEARDB_PORT MARIADB_PORT. Prints the
differences and exits 1 if there are any."""
import sys

import pymysql
from pymysql.constants import CLIENT

BATCHES = [
    "CREATE TABLE m (a INT); INSERT INTO m VALUES (1); SELECT 'x;y' AS s, /* ; */ 2",
    "INSERT INTO m VALUES (2); SELEC x; INSERT INTO m VALUES (3)",
    "SELECT COUNT(*) FROM m",
    "INSERT INTO m VALUES (4); INSERT INTO m VALUES ('a'); INSERT INTO m VALUES (5)",
    "SELECT a FROM m ORDER BY a; SELECT 1 FROM; SELECT 2",
    "SELECT COUNT(*) FROM m; SELECT 'end'",
]


def results(port):
    conn = pymysql.connect(host="127.0.0.1", port=port, user="root", autocommit=True,
                           client_flag=CLIENT.MULTI_STATEMENTS)
    cur = conn.cursor()
    cur.execute("DROP DATABASE IF EXISTS multi")
    cur.execute("CREATE DATABASE multi")
    cur.execute("USE multi")
    out = []
    for batch in BATCHES:
        got = []
        try:
            cur.execute(batch)
            while True:
                got.append(repr(cur.fetchall()))
                if not cur.nextset():
                    break
        except pymysql.MySQLError as e:
            got.append(f"error {e.args[0]}")
        out.append(f"{batch} -> {got}")
    return out


def main():
    ours, theirs = results(int(sys.argv[1])), results(int(sys.argv[2]))
    differ = [f"lineardb: {a}\nMariaDB:  {b}" for a, b in zip(ours, theirs) if a != b]
    print("\n\n".join(differ) if differ else "\n".join(ours))
    sys.exit(1 if differ else 0)


main()
