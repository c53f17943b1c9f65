"""The card's .pyc files made unchecked (scripts/image/pyc_unchecked.py): Python then loads
each without reading its source, and only the files that were checked change."""

from __future__ import annotations

import json
import py_compile
import subprocess
import sys
from pathlib import Path

from tests.deploy.conftest import REPO

PYC_UNCHECKED = REPO / "scripts" / "image" / "pyc_unchecked.py"


def compiled(folder: Path, name: str, mode: py_compile.PycInvalidationMode) -> Path:
    """Module ``name`` (``VALUE = 1``) in ``folder``, compiled in ``mode``; its .pyc."""
    source = folder / f"{name}.py"
    source.write_text("VALUE = 1\n", encoding="utf-8")
    return Path(py_compile.compile(str(source), invalidation_mode=mode, doraise=True))


def value_seen(folder: Path, name: str) -> str:
    """What a new Python imports as ``name``'s VALUE from ``folder``, the .pyc or the
    source (it writes no .pyc of its own)."""
    done = subprocess.run(
        [sys.executable, "-B", "-c", f"import {name}; print({name}.VALUE)"],
        cwd=folder, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.strip()


def test_checked_pycs_are_loaded_without_their_sources_after(tmp_path: Path) -> None:
    modes = py_compile.PycInvalidationMode
    checked = compiled(tmp_path, "checked", modes.CHECKED_HASH)
    stamped = compiled(tmp_path, "stamped", modes.TIMESTAMP)
    stamped_bytes = stamped.read_bytes()
    (tmp_path / "checked.py").write_text("VALUE = 2\n", encoding="utf-8")
    assert value_seen(tmp_path, "checked") == "2"  # checked: a changed source is seen
    before = checked.read_bytes()

    done = subprocess.run(
        [sys.executable, PYC_UNCHECKED, tmp_path], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == {
        "unchecked now": 1,
        "unchecked already": 0,
        "timestamp": 1,
    }
    after = checked.read_bytes()
    # Only the flag changed: the same code and the same source hash.
    assert int.from_bytes(after[4:8], "little") == 0b01
    assert after[:4] + after[8:] == before[:4] + before[8:]
    assert value_seen(tmp_path, "checked") == "1"  # the .pyc, its source not read
    assert stamped.read_bytes() == stamped_bytes
    # Again: nothing left to change.
    again = subprocess.run(
        [sys.executable, PYC_UNCHECKED, tmp_path], capture_output=True, text=True, check=True
    )
    assert json.loads(again.stdout)["unchecked already"] == 1


def test_a_root_that_is_not_a_folder_is_refused_with_the_usage(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, PYC_UNCHECKED, tmp_path / "missing"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "pyc_unchecked.py ROOT" in done.stderr
