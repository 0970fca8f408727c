"""Shared fixtures: the `tsoro` command-line binary the replays are checked against."""

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def tsoro_bin():
    """`TSORO_BIN`, else the workspace's target/debug or target/release `tsoro`, else PATH."""
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    candidates = [os.environ.get("TSORO_BIN"), target / "debug" / "tsoro", target / "release" / "tsoro"]
    for c in candidates:
        if c and pathlib.Path(c).is_file():
            return str(c)
    found = shutil.which("tsoro")
    if found is None:
        pytest.fail("no tsoro binary: build it (cargo build -p tsoro-api) or set TSORO_BIN")
    return found
