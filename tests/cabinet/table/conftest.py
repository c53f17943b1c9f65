"""The table process for real: started as the cabinet starts it, driven through the
press channel (mock pins pressed at explicit timestamps from this process)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cabinet.inputs.press_channel import PressSender
from cabinet.table.remote import RemoteTable

ROOT = Path(__file__).resolve().parents[3]
DEADLINE_S = 60.0
"""How long a process may take to reach a state before the test fails (a loaded CI
machine is slow; nothing waits this long when things work)."""


def wait_until(condition: object, what: str, timeout_s: float = DEADLINE_S) -> None:
    """Poll ``condition()`` (a callable) until it is true; fail naming ``what``."""
    deadline = time.monotonic() + timeout_s
    check = condition  # type: ignore[assignment]
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)


class Cabinet:
    """``spit-cabinet run`` headless in a child process, mock pins pressed from here."""

    def __init__(self, data: Path, socket_path: Path, *extra: str) -> None:
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        env["PYTHONPATH"] = str(ROOT)
        self.socket_path = socket_path
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cabinet",
                "run",
                "--input",
                "mock",
                "--data-dir",
                str(data),
                "--press-socket",
                str(socket_path),
                "--seed",
                "5",
                "--no-cpu",
                *extra,
            ],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def saw(self, pattern: str, after: int = 0) -> re.Match[str] | None:
        for line in self.lines[after:]:
            found = re.search(pattern, line)
            if found:
                return found
        return None

    def wait_for(self, pattern: str, after: int = 0) -> re.Match[str]:
        wait_until(lambda: self.saw(pattern, after) is not None, repr(pattern))
        found = self.saw(pattern, after)
        assert found is not None
        return found

    def table_pid(self, after: int = 0) -> int:
        return int(self.wait_for(r"table process (\d+) ready", after).group(1))

    def press(self, control: object, t_ns: int | None = None) -> None:
        with PressSender(self.socket_path) as sender:
            t = time.monotonic_ns() if t_ns is None else t_ns
            sender.send(control, True, t)  # type: ignore[arg-type]
            sender.send(control, False, t + 30_000_000)  # type: ignore[arg-type]

    def start_game(self) -> None:
        """Both players join (R5's countdown follows): wait until the game is on."""
        from game.edges import Button

        self.wait_for(r"table process \d+ ready")
        wait_until(self.socket_path.exists, "the press socket")
        mark = len(self.lines)
        self.press((0, Button.PILE1))
        self.press((1, Button.PILE1))
        self.wait_for(r"flow: play", mark)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(20)
        finally:
            self._reader.join(5)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(20)


@pytest.fixture
def cabinet_dirs(tmp_path: Path) -> tuple[Path, Path]:
    return tmp_path / "data", tmp_path / "presses.sock"


@pytest.fixture
def remote_table(tmp_path: Path) -> Iterator[tuple[RemoteTable, Path]]:
    """A bare table process (no display) on mock pins with a press channel."""
    sock = tmp_path / "presses.sock"
    table = RemoteTable(["--input", "mock", "--press-socket", str(sock)]).start()
    try:
        wait_until(lambda: (table.batches(), table.ready)[1], "the table to be ready")
        wait_until(sock.exists, "the press socket")
        yield table, sock
    finally:
        table.stop()


def pid_gone(pid: int) -> bool:
    """The process has exited (a zombie nobody reaped yet counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in ("Z", "X")
