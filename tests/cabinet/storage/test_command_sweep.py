"""A representative part of the sweep of every command against every kind of damaged
data directory (``command_sweep.py``, which a maintainer runs whole): the commands that
read, write and check the books, each against the damage that once changed data without
a copy kept, or would: nothing may change without a copy kept and named."""

from __future__ import annotations

from pathlib import Path

import pytest

from .command_sweep import report, sweep
from .sweep_cases import DAMAGES

#: The damage each command meets here: every kind that once changed data or crashed one.
DAMAGE = (
    "healthy",
    "garbled rows",
    "from before the mark",
    "scribbled setting (quick_check ok)",
    "scribbled audit time (quick_check ok)",
    "in a fleet, scribbled audit time",
    "older schema (3)",
    "a stranger's, rollback journal",
    "read-only file",
    "file size limit, no room for the index",
    "full disk",
)
#: What a command that only checks or reads once changed: what opening to write changes.
CHECKED = (
    "garbled rows",
    "from before the mark",
    "older schema (3)",
    "in a fleet, scribbled audit time",
    "a stranger's, rollback journal",
)
assert set(DAMAGE) <= set(DAMAGES)


@pytest.mark.parametrize(
    ("command", "damage"),
    [
        ("settings import FILE", DAMAGE),
        ("settings import BAD", DAMAGE),
        ("fleet join FILE", DAMAGE),
        ("fleet leave", CHECKED),
        ("audits --json", CHECKED),
        ("doctor", CHECKED),
        (
            "run --seconds 1",
            (
                "older schema (3)",
                "a stranger's, rollback journal",
                "read-only file",
                "file size limit, no room for the index",
            ),
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else f"{len(value)} kinds",
)
def test_no_command_changes_data_without_a_copy_kept_and_named(
    command: str, damage: tuple[str, ...], tmp_path: Path
) -> None:
    results = sweep([command], damage, jobs=2, base=tmp_path)
    lines = list(report(results))
    assert not [r for r in results if r.bad], "\n".join(lines)
    assert not [r for r in results if "traceback" in r.detail], "\n".join(lines)
    # The cases that once were wrong are right for the reason expected.
    verdicts = {r.damage: r.verdict for r in results}
    if "older schema (3)" in verdicts:
        # A command that writes migrates after keeping a copy; one that cannot or need
        # not write (a bad file, no fleet to leave or report to) changes nothing.
        assert verdicts["older schema (3)"] in ("set aside", "unchanged")
    for name in ("file size limit, no room for the index", "full disk"):
        assert verdicts.get(name, "unchanged") in ("unchanged", "skipped"), lines
