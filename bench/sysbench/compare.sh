#!/usr/bin/env bash
# Side by side through sysbench: the same scripts, the same client, against
# MariaDB (a private mariadbd) and `lineardb serve`, one after the other.
# Prints one line per case and system: qps, server CPU µs per query
# (utime+stime of the server process over the run / queries).
#
#   bench/sysbench/compare.sh [rows] [seconds] [threads...]
#
# SYSTEMS (default "mariadb lineardb") picks the systems to run.
# Q6_ROWS (default 6000000, TPC-H SF1's lineitem size) sets the rows of the
# synthetic lineitem table q6_month.lua makes; Q6_ROWS=0 skips Q6.
# Needs mariadb-server, sysbench and a release build (cargo build --release).
# MariaDB runs with ANCHORS' settings (4G pool, AHI off, performance_schema
# off, flush at commit 2) in a scratch directory.
set -euo pipefail
ROWS=${1:-1000000}
SECS=${2:-10}
shift 2 || true
THREADS=("${@:-2}")
Q6_ROWS=${Q6_ROWS:-6000000}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$(mktemp -d /tmp/lineardb-compare.XXXX)}
TICK=$(getconf CLK_TCK)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

start_mariadb() {
    cat > "$WORK/my.cnf" <<CNF
[mysqld]
datadir=$WORK/mariadb-data
socket=$WORK/mariadb.sock
port=3307
bind-address=127.0.0.1
user=root
innodb_buffer_pool_size=4G
innodb_log_file_size=1G
innodb_flush_log_at_trx_commit=2
innodb_adaptive_hash_index=OFF
performance_schema=OFF
max_connections=500
skip-log-bin
CNF
    if [ ! -d "$WORK/mariadb-data" ]; then
        mariadb-install-db --defaults-file="$WORK/my.cnf" \
            --auth-root-authentication-method=normal >"$WORK/install.log" 2>&1
    fi
    mariadbd --defaults-file="$WORK/my.cnf" >"$WORK/mariadbd.log" 2>&1 &
    PID=$!
    PORT=3307
}

start_lineardb() {
    "$ROOT/target/release/lineardb" serve --datadir "$WORK/lineardb-data" \
        --port 3308 --pool-mib 4096 >"$WORK/lineardb.log" 2>&1 &
    PID=$!
    PORT=3308
}

wait_port() {
    for _ in $(seq 1 200); do
        mysql -h127.0.0.1 -P"$PORT" -uroot -e "SELECT 1" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "server on $PORT did not start" >&2
    exit 1
}

sb() {
    (cd "$HERE" && sysbench "$@" --db-driver=mysql --mysql-host=127.0.0.1 \
        --mysql-port="$PORT" --mysql-user=root --mysql-db=sbtest)
}

run_case() { # system label script args...
    local system=$1 label=$2 script=$3
    shift 3
    for t in "${THREADS[@]}"; do
        local c0 c1 out q
        c0=$(cpu_ticks "$PID")
        local table=(--tables=1 --table-size="$ROWS" --rand-type=uniform)
        [ "$script" = q6_month.lua ] && table=()
        out=$(sb "$script" "${table[@]}" --threads="$t" --time="$SECS" "$@" run)
        c1=$(cpu_ticks "$PID")
        q=$(echo "$out" | awk '/queries:/ {print $2; exit}')
        echo "$out" | grep -q "ignored errors: *0 " || echo "$out" | grep "errors" >&2
        awk -v s="$system" -v l="$label" -v t="$t" -v q="$q" -v secs="$SECS" \
            -v c="$((c1 - c0))" -v tick="$TICK" 'BEGIN {
            printf "%-9s %-22s threads %2d  qps %10.1f  server CPU us/query %8.1f\n",
                s, l, t, q / secs, c * 1e6 / tick / q }'
    done
}

for system in ${SYSTEMS:-mariadb lineardb}; do
    "start_$system"
    wait_port
    mysql -h127.0.0.1 -P"$PORT" -uroot -e "CREATE DATABASE IF NOT EXISTS sbtest"
    if ! mysql -h127.0.0.1 -P"$PORT" -uroot -e "SELECT 1 FROM sbtest.sbtest1 LIMIT 1" >/dev/null 2>&1; then
        echo "$system: loading $ROWS rows" >&2
        sb oltp_read_only --tables=1 --table-size="$ROWS" --rand-type=uniform \
            --threads=2 prepare >/dev/null
    fi
    # Warm the cache: one full pass over the table and its index.
    mysql -h127.0.0.1 -P"$PORT" -uroot -e \
        "SELECT SUM(LENGTH(c)) FROM sbtest.sbtest1; SELECT SUM(k) FROM sbtest.sbtest1 FORCE INDEX (k_1) WHERE k > 0" >/dev/null
    run_case "$system" point_select oltp_point_select
    run_case "$system" read_only oltp_read_only
    for n in 10 1000; do
        run_case "$system" "pk_$n" scan_pk.lua --range_size="$n"
        run_case "$system" "covering_$n" scan_covering.lua --range_size="$n"
        run_case "$system" "noncovering_$n" scan_noncovering.lua --range_size="$n" --scan_mode=sumlen
    done
    if [ "$Q6_ROWS" -gt 0 ]; then
        if ! mysql -h127.0.0.1 -P"$PORT" -uroot -e "SELECT 1 FROM sbtest.lineitem LIMIT 1" >/dev/null 2>&1; then
            echo "$system: loading $Q6_ROWS lineitem rows" >&2
            sb q6_month.lua --q6_rows="$Q6_ROWS" prepare >/dev/null
        fi
        mysql -h127.0.0.1 -P"$PORT" -uroot -e \
            "SELECT SUM(l_quantity) FROM sbtest.lineitem; SELECT COUNT(*) FROM sbtest.lineitem FORCE INDEX (lineitem_shipdate) WHERE l_shipdate > '1990-01-01'" >/dev/null
        run_case "$system" q6_month_index q6_month.lua --q6_ps=on
        run_case "$system" q6_month_text q6_month.lua --q6_ps=off
        run_case "$system" q6_month_tablescan q6_month.lua \
            --q6_hint="IGNORE INDEX (lineitem_shipdate)"
    fi
    kill "$PID"
    wait "$PID" 2>/dev/null || true
done
