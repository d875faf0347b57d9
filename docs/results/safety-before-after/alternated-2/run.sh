#!/usr/bin/env bash
set -u
OUT=${OUT:-.}
for round in 1 2 3; do
  for b in base new; do
    BIN=${BIN_DIR:?folder with the binaries base and new}/$b
    "$BIN" bench sysbench-oltp --threads 2 --workloads oltp_read_only,oltp_point_select,oltp_read_write \
      --repeat 3 --seconds 5 --datadir "$OUT/data" --out "$OUT/ro-$b-$round" > "$OUT/log-$b-$round" 2>&1
  done
done
