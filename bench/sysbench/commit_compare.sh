#!/usr/bin/env bash
# Commit throughput: stock oltp_write_only and oltp_insert at 1, 2, 4, 32
# threads, every commit synced: MariaDB (innodb_flush_log_at_trx_commit=1)
# then lineardb (--flush-log-at-trx-commit 1), one after the other.
# Usage: WORK=/tmp/cmp bench/sysbench/commit_compare.sh   (WORK is a folder
# compare.sh made: its my.cnf and MariaDB data directory are reused.)
set -u
W=${WORK:-/tmp/cmp}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
sed 's/innodb_flush_log_at_trx_commit=2/innodb_flush_log_at_trx_commit=1/' "$W/my.cnf" > "$W/my1.cnf"
SECS=${SECS:-10}
run() { # port label
  local P=$1 L=$2
  SB="sysbench --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$P --mysql-user=root --mysql-db=wtest --tables=1 --table-size=100000 --mysql-ignore-errors=1213,1205"
  mysql -h127.0.0.1 -P$P -uroot -e "drop database if exists wtest; create database wtest"
  $SB oltp_write_only prepare >/dev/null 2>&1
  for w in oltp_write_only oltp_insert; do for t in 1 2 4 32; do
    r=$($SB --threads=$t --time=$SECS $w run 2>&1 | grep -E "transactions:|ignored errors|FATAL" | tr -s ' ' | tr '\n' ' ')
    echo "$L $w $t $r"
  done; done
}
mariadbd --defaults-file="$W/my1.cnf" > "$W/mariadbd1.log" 2>&1 &
MP=$!
for i in $(seq 100); do mysql -h127.0.0.1 -P3307 -uroot -e "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
run 3307 mariadb
kill $MP; wait $MP
rm -rf "$W/lineardb-commit"
"$ROOT/target/release/lineardb" serve --datadir "$W/lineardb-commit" --port 3308 --pool-mib 4096 --flush-log-at-trx-commit 1 > "$W/lineardb-commit.log" 2>&1 &
LP=$!
for i in $(seq 100); do mysql -h127.0.0.1 -P3308 -uroot -e "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
run 3308 lineardb
kill $LP; wait $LP
