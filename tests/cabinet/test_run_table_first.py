"""``spit-cabinet run`` starts the table process before it opens the screen: at boot the
first frame waits for both, and the table's Python start and imports then run beside the
display's opening, on other cores (bench/README.md, "Issue 33, fourth pass"). The table is
given its core, and stopped again on every way out, a screen that cannot open among them."""

from __future__ import annotations

import argparse
import contextlib
import os
from pathlib import Path
from typing import Any

import pytest

from cabinet.commands import run as run_command
from cabinet.commands.cli import build_parser
from cabinet.table.process import table_core
from cabinet.table.remote import RemoteTable


def test_the_table_is_running_before_the_screen_opens_and_stopped_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    started: list[RemoteTable] = []
    real_start = RemoteTable.start

    def start(table: RemoteTable) -> RemoteTable:
        started.append(table)
        return real_start(table)

    seen: dict[str, Any] = {}

    def open_display(*_: object) -> None:
        [table] = started
        seen["alive"] = table.alive
        seen["args"] = table.args
        seen["affinity"] = os.sched_getaffinity(0)
        raise run_command._Stop("the screen cannot open (this test)", status=7)

    monkeypatch.setattr(RemoteTable, "start", start)
    monkeypatch.setattr(run_command, "_open_display", open_display)
    args: argparse.Namespace = build_parser().parse_args(
        ["run", "--input", "mock", "--data-dir", str(tmp_path / "data")]
    )
    before = os.sched_getaffinity(0)
    try:
        assert run_command.run(args) == 7
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, before)
    assert seen["alive"] is True  # started, and still running, as the screen opened
    core = table_core()
    assert ("--core" in seen["args"]) is (core is not None)
    if core is not None:
        assert seen["args"][seen["args"].index("--core") + 1] == str(core)
    assert seen["affinity"] == before  # the display keeps every core while it opens
    [table] = started
    assert table.process is None and not table.alive  # stopped on the way out


def test_a_started_table_is_not_started_twice(tmp_path: Path) -> None:
    table = RemoteTable(["--input", "mock", "--data-dir", str(tmp_path)])
    try:
        table.start()
        first = table.pid
        assert table.start() is table and table.pid == first
    finally:
        table.stop()
    assert table.pid is None
