#!/usr/bin/env bash
# A before-and-after measurement of two lineardb binaries, BASE (before a
# change) and NEW (after it), on one machine, one after the other: the
# figures in this folder (the layers split) and in
# ../safety-before-after (privileges, limits, TLS, the clause gate).
# Needs sysbench, mariadb-client and mariadb-server.
#   BASE=... NEW=... OUT=results DATA=/tmp ./run.sh
set -u
BASE=${BASE:?path to the lineardb binary before the change}
NEW=${NEW:?path to the lineardb binary after the change}
OUT=${OUT:-results}; DATA=${DATA:-/tmp}
mkdir -p "$OUT"
bin() { if [ "$1" = new ]; then echo "$NEW"; else echo "$BASE"; fi; }
# Through the servers, side by side with MariaDB, 2 client threads.
for b in base new; do
  $(bin $b) bench sysbench-oltp --compare mariadb --threads 2 --workloads oltp_point_select,oltp_read_only \
    --repeat 3 --seconds 5 --datadir "$DATA/bsys" --out "$OUT/oltp-$b"
done
for b in base new; do
  $(bin $b) bench seed001-scans --compare mariadb --threads 2 --cases pk_10,noncovering_1000 \
    --repeat 3 --seconds 5 --datadir "$DATA/b001" --out "$OUT/s001-$b"
done
for b in base new; do
  $(bin $b) bench seed000-q6 --compare mariadb --threads 2 --repeat 3 --seconds 5 \
    --datadir "$DATA/b000" --out "$OUT/q6-$b"
done
# Q6 through lineardb's server alone, the two binaries alternated.
for round in 1 2; do
  for b in new base; do
    $(bin $b) bench seed000-q6 --sysbench --threads 2 --repeat 3 --seconds 5 --cases index,index_text \
      --datadir "$DATA/b000" --out "$OUT/q6s-$b-$round"
  done
done
# The storage core's point lookups and 10-row PK ranges, alternated.
for round in 1 2 3; do
  for b in base new; do
    $(bin $b) bench engine --threads 1,2 --cases point,pk_range_10 --repeat 3 --seconds 3 --json \
      > "$OUT/engine-$b-$round.jsonl"
  done
done
