"""The table process for real: started as the cabinet starts it, driven through the
press channel (mock pins pressed at explicit timestamps from this process).

Nothing here sleeps: every wait blocks on the thing it waits for (a log line read from
the cabinet's output, a process's exit through a pidfd, a report on the table's socket),
with a deadline that only a broken cabinet reaches.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cabinet.inputs.controls import Control
from cabinet.inputs.press_channel import PressSender
from cabinet.table.remote import RemoteTable

ROOT = Path(__file__).resolve().parents[3]
DEADLINE_S = 60.0
"""How long a process may take to reach a state before the test fails (a loaded CI
machine is slow; nothing waits this long when things work)."""


def table_reports_until(table: RemoteTable, condition: Callable[[], bool], what: str) -> None:
    """Take the table's reports as they arrive until ``condition()`` holds."""
    deadline = time.monotonic() + DEADLINE_S
    table.batches()
    while not condition():
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"timed out waiting for {what}")
        table.wait(left)
        table.batches()


def wait_for_exit(pid: int, what: str) -> None:
    """Block until process ``pid`` (not necessarily a child) has exited."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        ready, _, _ = select.select([fd], [], [], DEADLINE_S)
    finally:
        os.close(fd)
    if not ready:
        pytest.fail(f"timed out waiting for {what}")


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Cabinet:
    """``spit-cabinet run`` headless in a child process, mock pins pressed from here.
    The table process writes its log to the same output, so its lines arrive here even
    while the display process is stopped."""

    def __init__(
        self,
        data: Path,
        socket_path: Path,
        *extra: str,
        env_extra: dict[str, str] | None = None,
        sigint_ignored: bool = False,
    ) -> None:
        """``sigint_ignored`` starts it with SIGINT ignored, as a non-interactive shell
        starts a background job (and nohup does)."""
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        env["PYTHONPATH"] = str(ROOT)
        env.update(env_extra or {})
        self.socket_path = socket_path
        command = [sys.executable, "-m", "cabinet", "run", "--input", "mock"]
        command += ["--data-dir", str(data), "--press-socket", str(socket_path)]
        command += ["--seed", "5", "--no-cpu", "--log-level", "debug", *extra]
        self.proc = subprocess.Popen(
            command,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            env=env,
            text=True,
            preexec_fn=_ignore_sigint if sigint_ignored else None,
        )
        self.lines: list[str] = []
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._arrived:
                self.lines.append(line.rstrip("\n"))
                self._arrived.notify_all()
        with self._arrived:
            self._arrived.notify_all()

    def saw(self, pattern: str, after: int = 0) -> re.Match[str] | None:
        for line in self.lines[after:]:
            found = re.search(pattern, line)
            if found:
                return found
        return None

    def wait_for(self, pattern: str, after: int = 0) -> re.Match[str]:
        """The first line from ``after`` on that matches ``pattern``, waiting for it."""
        deadline = time.monotonic() + DEADLINE_S
        with self._arrived:
            while (found := self.saw(pattern, after)) is None:
                left = deadline - time.monotonic()
                if left <= 0 or not self._reader.is_alive():
                    pytest.fail(f"the cabinet never logged {pattern!r}")
                self._arrived.wait(left)
        return found

    def wait_for_line(self, pattern: str, after: int = 0) -> int:
        """The index of the first line from ``after`` on that matches, waiting for it."""
        self.wait_for(pattern, after)
        return next(i for i in range(after, len(self.lines)) if re.search(pattern, self.lines[i]))

    def table_pid(self, after: int = 0) -> int:
        return int(self.wait_for(r"table process (\d+) ready", after).group(1))

    def press(self, control: Control, t_ns: int | None = None) -> None:
        with PressSender(self.socket_path) as sender:
            t = time.monotonic_ns() if t_ns is None else t_ns
            sender.send(control, True, t)
            sender.send(control, False, t + 30_000_000)

    def start_game(self) -> None:
        """Both players join (R5's countdown follows): wait until the game is on. The
        table opens the press channel before it says it is ready."""
        from game.edges import Button

        mark = len(self.lines)
        self.wait_for(r"table process \d+ ready")
        self.press(Control(0, Button.PILE1))
        self.press(Control(1, Button.PILE1))
        self.wait_for(r"flow: play", mark)

    def stop(self) -> int:
        """SIGINT, as systemd stops it; its exit status. One that does not stop within
        20 s is killed (nothing is left running) and the test fails."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
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
    """A bare table process (no display) on mock pins with a press channel (open
    before the table reports ready)."""
    sock = tmp_path / "presses.sock"
    table = RemoteTable(["--input", "mock", "--press-socket", str(sock)]).start()
    try:
        table_reports_until(table, lambda: table.ready, "the table to be ready")
        yield table, sock
    finally:
        table.stop()
