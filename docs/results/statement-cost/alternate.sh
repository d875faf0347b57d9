#!/usr/bin/env bash
# lineardb's server alone, the binaries before (BASE) and after (NEW) a
# change alternated over 5 rounds: oltp_point_select and oltp_read_only at
# 2 threads, 5 s each; prints "binary round workload q/s cpu-µs/query ...".
#   BASE=... NEW=... OUT=/tmp/alt ./alternate.sh > rounds.txt
set -u
OUT=${OUT:-.}
for round in 1 2 3 4 5; do
  for b in base new; do
    if [ "$b" = base ]; then BIN=${BASE:?binary before}; else BIN=${NEW:?binary after}; fi
    rm -rf "$OUT/data-$b"
    "$BIN" bench sysbench-oltp --threads 2 --workloads oltp_point_select,oltp_read_only \
      --repeat 1 --seconds 5 --datadir "$OUT/data-$b" --out "$OUT/run-$b-$round" > "$OUT/log-$b-$round" 2>&1
    echo "$b $round $(grep 'lineardb oltp' "$OUT/log-$b-$round" | awk '{print $2, $4, $7}' | tr '\n' ' ')"
  done
done
