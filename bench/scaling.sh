#!/usr/bin/env bash
# Read scaling on a many-core machine, lineardb beside MariaDB in the same
# run: sysbench oltp_point_select and oltp_read_only (`oltp`), the seed 001
# range scans through both servers (`scans`), and the storage engine in
# process (`engine`), each at 1 to 32 client threads.
#
# Usage: bench/scaling.sh LINEARDB OUT [WORK [STEP...]]
#   LINEARDB  the lineardb binary (a release build)
#   OUT       folder for the results, one folder per step
#   WORK      folder for the data directories (default /tmp/lineardb-scaling)
#   STEP      oltp, scans, engine (default: all three, in that order)
# Needs sysbench, the mariadb client (as `mysql`) and mariadbd on PATH.
# THREADS, SECONDS_PER_RUN and REPEAT override the thread counts (1, 2, 4,
# 8, 16, 32), the seconds per run (2) and the runs per point (3; the
# reports give medians).
set -euo pipefail
lineardb=$(realpath "$1")
out=$(realpath -m "$2")
work=$(realpath -m "${3:-/tmp/lineardb-scaling}")
shift $(($# < 3 ? $# : 3))
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(oltp scans engine)
threads=${THREADS:-1,2,4,8,16,32}
seconds=${SECONDS_PER_RUN:-2}
repeat=${REPEAT:-3}
mkdir -p "$out" "$work"

for step in "${steps[@]}"; do
    echo "== $step ($(date -u +%T))"
    case $step in
    oltp)
        "$lineardb" bench sysbench-oltp --compare mariadb \
            --workloads oltp_point_select,oltp_read_only \
            --threads "$threads" --seconds "$seconds" --repeat "$repeat" \
            --datadir "$work/oltp" --out "$out/sysbench-oltp"
        ;;
    scans)
        "$lineardb" bench seed001-scans --compare mariadb --no-variants \
            --threads "$threads" --seconds "$seconds" --repeat "$repeat" \
            --datadir "$work/scans" --out "$out/seed001-scans"
        ;;
    engine)
        "$lineardb" bench engine \
            --threads "$threads" --seconds "$seconds" --repeat "$repeat" \
            --datadir "$work/engine" --out "$out/engine"
        ;;
    *)
        echo "unknown step $step (oltp, scans, engine)" >&2
        exit 2
        ;;
    esac
done
