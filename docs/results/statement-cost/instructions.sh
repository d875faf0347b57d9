#!/usr/bin/env bash
# Instructions the server executes per statement, counted by callgrind
# (deterministic, unlike throughput on a shared 2-core machine): the server
# runs under valgrind on a copy of a datadir that already holds sbtest1
# (100,000 rows, as `bench sysbench-oltp` loads it), sysbench warms it
# with 500 events and then runs N events on one connection; the profile
# is written when the server stops.
#   instructions.sh BINARY DATADIR WORKLOAD EVENTS OUT
# e.g. instructions.sh target/release/lineardb /tmp/sb/lineardb-data oltp_read_only 2000 /tmp/cg
set -euo pipefail
bin=$1 data=$2 workload=$3 events=$4 out=$5
port=${PORT:-3411}
mkdir -p "$out"
rm -rf "$out/data" && cp -r "$data" "$out/data"
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.$workload" \
    "$bin" serve --port "$port" --pool-mib 512 --datadir "$out/data" > "$out/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do
    mysql -h127.0.0.1 -P"$port" -uroot -e 'select 1' > /dev/null 2>&1 && break
    sleep 1
done
sb() { sysbench "$workload" --threads=1 --time=0 --mysql-host=127.0.0.1 --mysql-port="$port" \
    --mysql-user=root --mysql-db=sbtest "$@" run; }
sb --events=500 --rand-seed=7 > /dev/null
sb --events="$events" --rand-seed=11 | grep -E "queries:|ignored errors:"
kill -INT "$pid"
wait "$pid" || true
total=$(callgrind_annotate "$out/callgrind.$workload" 2>/dev/null | grep "PROGRAM TOTALS" | awk '{print $1}')
echo "$workload: $total instructions in the server (startup, warm-up and $events events)"
