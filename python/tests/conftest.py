"""Shared fixtures: the repository's graphs and the `planetgraph` command the package is checked
against (PLANETGRAPH_BIN, else the release build in CARGO_TARGET_DIR or target/)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _find_cli():
    candidates = [os.environ.get("PLANETGRAPH_BIN")]
    target = os.environ.get("CARGO_TARGET_DIR")
    if target:
        candidates.append(os.path.join(target, "release", "planetgraph"))
    candidates += [str(REPO / "target" / "release" / "planetgraph"), shutil.which("planetgraph")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def cli():
    """Runs the planetgraph command; fails (not skips) when it cannot be found."""
    exe = _find_cli()
    assert exe, "the planetgraph binary was not found: build it (cargo build --release) or set PLANETGRAPH_BIN"

    def run(*args, check=True):
        return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, check=check)

    return run


@pytest.fixture(scope="session")
def exports_graph():
    return Path(__file__).resolve().parent / "data" / "exports.ron"
