#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 30) with cargo-fuzz on the
# nightly toolchain, one after the other, keeping each target's corpus in
# fuzz/corpus/<target>. Prints one line per target (runs, seconds) and fails
# on the first crash, whose input is left in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-30}"
targets="${TARGETS:-wire_protocol sql_statements redo_log index_keys}"
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo +nightly install cargo-fuzz --locked >/dev/null
fi
cargo +nightly fuzz build -O
# The binaries built above run directly (`cargo fuzz run` would rebuild them
# whenever a source changed meanwhile).
bin="target/x86_64-unknown-linux-gnu/release"
for t in $targets; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log="$(mktemp)"
    if ! "$bin/$t" -artifact_prefix="artifacts/$t/" -max_total_time="$seconds" \
        "corpus/$t" >"$log" 2>&1; then
        tail -n 40 "$log"
        echo "fuzz target $t: CRASH (input in fuzz/artifacts/$t/)"
        exit 1
    fi
    runs="$(grep -o 'Done [0-9]* runs' "$log" | grep -o '[0-9]*' || echo 0)"
    echo "fuzz target $t: $runs runs in $seconds s, 0 crashes"
    rm -f "$log"
done
