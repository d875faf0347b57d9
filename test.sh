#!/usr/bin/env bash
# The project's test command: formatting, lints, every test, the loom
# model of the latch protocol (built with --cfg loom in its own target dir)
# and a short run of the fuzz targets.
set -euo pipefail
cd "$(dirname "$0")"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --release
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom \
    cargo test -p lineardb-sync --test loom_latch --release
# A short run of every fuzz target (cargo-fuzz, nightly): any crash fails.
fuzz/run.sh 20
