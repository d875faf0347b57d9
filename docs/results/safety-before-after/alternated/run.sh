#!/usr/bin/env bash
# lineardb's server alone, the binaries before (BASE) and after (NEW) the
# change alternated, 3 rounds: oltp_read_only and oltp_point_select.
#   BASE=... NEW=... OUT=. ./run.sh
set -u
OUT=${OUT:-.}
for round in 1 2 3; do
  for b in base new; do
    if [ "$b" = base ]; then BIN=${BASE:?binary before the change}; else BIN=${NEW:?binary after the change}; fi
    "$BIN" bench sysbench-oltp --threads 2 --workloads oltp_read_only,oltp_point_select \
      --repeat 3 --seconds 5 --datadir "$OUT/data" --out "$OUT/ro-$b-$round" > "$OUT/log-$b-$round" 2>&1
  done
done
