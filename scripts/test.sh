#!/usr/bin/env bash
# The test command (README, .ci/run): on a fresh Debian/Ubuntu machine with Rust and Python 3.9+
# it sets up what the tests need, then runs them:
#
#   1. system packages: lavapipe (mesa-vulkan-drivers, libvulkan1) for the tests that draw,
#      Blender (with Debian's numpy) for the import test, python3-venv, Node.js and npm. Missing
#      ones are installed with apt-get where this may (as root, or with password-less sudo);
#      otherwise it stops at once, before any build, with the one apt-get line to run.
#      PLANETGRAPH_SKIP_GPU=1 / PLANETGRAPH_SKIP_BLENDER=1 skip the tests that need lavapipe /
#      Blender instead (the summary at the end lists them);
#   2. a virtual environment under the target folder (target/test-venv) with the pinned test
#      requirements (scripts/requirements-test.txt), made once and reused while they are the same;
#   3. the glTF validator from npm (tests/clients/package-lock.json), and ETOPO1 at 0.1 degree
#      for the comparisons with Earth (fetched once from PyPI into the target folder);
#   4. cargo fmt --check, cargo test --release --locked, cargo clippy -D warnings;
#   5. the Python package built from source into the environment, and pytest against the
#      `planetgraph` binary the Rust tests built.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
target="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$target"
skip_gpu="${PLANETGRAPH_SKIP_GPU:-0}"
skip_blender="${PLANETGRAPH_SKIP_BLENDER:-0}"

# --- 1. System packages ---------------------------------------------------------------------
for tool in cargo python3; do
  command -v "$tool" >/dev/null || { echo "test.sh: $tool is missing: install Rust (https://rustup.rs) and Python 3.9 or later" >&2; exit 1; }
done
python3 -c 'import sys; sys.exit(sys.version_info < (3, 9))' || { echo "test.sh: Python $(python3 -V) is older than 3.9" >&2; exit 1; }
need=()
has_pkg() { dpkg -s "$1" >/dev/null 2>&1; }
if [ "$skip_gpu" != 1 ]; then
  has_pkg mesa-vulkan-drivers || need+=(mesa-vulkan-drivers)
  has_pkg libvulkan1 || need+=(libvulkan1)
fi
if [ "$skip_blender" != 1 ]; then
  command -v blender >/dev/null || need+=(blender)
  has_pkg python3-numpy || need+=(python3-numpy)
fi
# A virtual environment needs ensurepip (Debian's python3-venv).
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "test.sh: missing: ${need[*]} (no apt-get here: install them with your package manager; PLANETGRAPH_SKIP_GPU=1 and PLANETGRAPH_SKIP_BLENDER=1 skip the tests that need lavapipe and Blender)" >&2
    exit 1
  fi
  if [ "$(id -u)" = 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo)
  else
    echo "test.sh: missing system packages; run this, then the test command again:" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
    echo "(or PLANETGRAPH_SKIP_GPU=1 / PLANETGRAPH_SKIP_BLENDER=1 to skip the tests that need lavapipe / Blender)" >&2
    exit 1
  fi
  echo "test.sh: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# --- 2. The Python environment --------------------------------------------------------------
venv="$target/test-venv"
if python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  requirements=(-r scripts/requirements-test.txt)
else
  # Older Pythons: the pins are 3.11's; the unpinned lists resolve for them.
  requirements=(-r tests/clients/requirements.txt -r python/tests/requirements.txt)
fi
stamp="$venv/.requirements"
want="$(python3 -V 2>&1) $(cat scripts/requirements-test.txt tests/clients/requirements.txt python/tests/requirements.txt | sha256sum | cut -c1-16)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "test.sh: setting up $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${requirements[@]}"
  echo "$want" > "$stamp"
fi
# The tests run `python3` (the export readers) from PATH: the environment's.
export PATH="$venv/bin:$PATH"

# --- 3. The glTF validator ------------------------------------------------------------------
if [ ! -d tests/clients/node_modules/gltf-validator ] || [ tests/clients/package-lock.json -nt tests/clients/node_modules/.package-lock.json ]; then
  npm ci --prefix tests/clients --no-audit --no-fund --loglevel=error
fi

# --- 3b. Earth at 0.1 degree ----------------------------------------------------------------
# ETOPO1 Bedrock at 0.1 degree, as bundled in the PyPI package pybacktrack 1.5.0 (public data,
# not committed): the wheel is fetched once (its hash pinned in scripts/earth-data.txt), its grid
# written as a 16-bit PNG under the target folder (scripts/earth_grid.py --fine) and the wheel
# dropped. tests/earth.rs and `planetgraph bench --earth` measure Earth from it.
earth="$target/earth/etopo1_0.1.png"
if [ ! -s "$earth" ]; then
  echo "test.sh: fetching ETOPO1 at 0.1 degree (pybacktrack 1.5.0, 137 MB)"
  mkdir -p "$target/earth"
  "$venv/bin/python" -m pip download -q --disable-pip-version-check --no-deps --require-hashes -r scripts/earth-data.txt -d "$target/earth"
  "$venv/bin/python" scripts/earth_grid.py --fine "$target/earth/pybacktrack-1.5.0-py3-none-any.whl" "$earth"
  rm -f "$target/earth/pybacktrack-1.5.0-py3-none-any.whl"
fi
export PLANETGRAPH_ETOPO1="$earth"

# --- 4. The Rust tests ----------------------------------------------------------------------
export PLANETGRAPH_SKIPPED_LOG="$target/skipped-tests.txt"
rm -f "$PLANETGRAPH_SKIPPED_LOG"
# Formatting first: it fails in a second (rustfmt.toml: lines up to 250 columns).
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo fmt --all --check
cargo test --release --locked
# Lints are errors (tests may unwrap); the Python crate included.
cargo clippy --release --locked --workspace --all-targets -- -D warnings

# --- 5. The Python package ------------------------------------------------------------------
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps ./python
PLANETGRAPH_BIN="$target/release/planetgraph" "$venv/bin/python" -m pytest -q python/tests

if [ -s "$PLANETGRAPH_SKIPPED_LOG" ]; then
  echo "test.sh: these tests did not run (skipped on request):"
  sed 's/^/  /' "$PLANETGRAPH_SKIPPED_LOG"
fi
