#!/usr/bin/env bash
# The test command (README, .ci/run): the Rust tests, then the Python package built from source
# (pip install ./python, with maturin) and its tests against the `planetgraph` binary the Rust
# tests built. Needs Python 3.9+ with pip, pytest, numpy, OpenEXR and Ray (.ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$PWD/target}"

# Formatting first: it fails in a second (rustfmt.toml: lines up to 250 columns).
cargo fmt --all --check
cargo test --release --locked
# Lints are errors (tests may unwrap); the Python crate included.
cargo clippy --release --locked --workspace --all-targets -- -D warnings
python3 -m pip install -q --disable-pip-version-check ./python
PLANETGRAPH_BIN="$target/release/planetgraph" python3 -m pytest -q python/tests
