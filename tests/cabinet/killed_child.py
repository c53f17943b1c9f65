"""A child process the power-cut tests kill: its printed lines, read as they come.

A power-cut test starts a program that prints one flushed line after each thing it has
made durable, kills it with SIGKILL at a chosen moment (a count of lines, a delay, or a
checkpoint where it kills itself) and then checks that what it said it had made durable
is still there. Only whole lines count: one cut short by the kill was never said.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class KilledChild:
    """``python -m MODULE ARGS…`` run from the repository, its stdout read line by line."""

    def __init__(self, module: str, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self._printed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.endswith("\n"):  # a line cut short by the kill was not said
                with self._printed:
                    self.lines.append(line.rstrip("\n"))
                    self._printed.notify_all()
        with self._printed:  # its output ended
            self._printed.notify_all()

    def wait_lines(self, n: int, timeout_s: float = 120) -> bool:
        """Wait until it has printed ``n`` lines (or stopped); whether it has them."""
        with self._printed:
            self._printed.wait_for(
                lambda: len(self.lines) >= n or self.proc.poll() is not None, timeout=timeout_s
            )
            return len(self.lines) >= n

    def kill_after_lines(self, n: int) -> None:
        """Once it has printed ``n`` lines, SIGKILL it at once: it is then somewhere in
        what comes next. Counting lines, not time, keeps a test the same on a slow
        machine and a fast one."""
        arrived = self.wait_lines(n)
        assert arrived and self.proc.poll() is None, f"it stopped by itself: {self.errors()}"
        self.kill()

    def kill_after(self, delay_s: float) -> None:
        """Let it run ``delay_s`` more seconds (it must still be running), then SIGKILL."""
        try:
            self.proc.wait(timeout=delay_s)
        except subprocess.TimeoutExpired:
            self.kill()
            return
        raise AssertionError(f"it stopped by itself: {self.errors()}")

    def wait_killed(self, timeout_s: float = 120) -> None:
        """It kills itself (at a checkpoint): wait for that."""
        code = self.proc.wait(timeout=timeout_s)
        self._reader.join(timeout=10)
        assert code == -signal.SIGKILL, f"exit {code}: {self.errors()}"

    def finish(self, timeout_s: float = 120) -> list[str]:
        """It ends by itself with status 0; every line it printed."""
        code = self.proc.wait(timeout=timeout_s)
        self._reader.join(timeout=10)
        assert code == 0, self.errors()
        return self.lines

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._reader.join(timeout=10)

    def errors(self) -> str:
        """The end of what it wrote to stderr (once it has stopped)."""
        if self.proc.poll() is None or self.proc.stderr is None:
            return ""
        return self.proc.stderr.read()[-2000:]
