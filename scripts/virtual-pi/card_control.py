"""The flashed card in the virtual Pi, as the power pulls drive it from the host
(pulls.py): QEMU's monitor (the power), the guest's agent (commands), its console (what it
was doing), and the guest's books.
"""

from __future__ import annotations

import json
import re
import socket
import time
from pathlib import Path
from typing import Any

from agent import Agent

BIN = "/opt/spit-cabinet/current/venv/bin"
GUEST_BOOKS = f"env PYGAME_HIDE_SUPPORT_PROMPT=1 {BIN}/python /media/kit/guest_books.py"
DETACHED = ">/dev/null 2>&1 </dev/null 3>&-"
"""A command left running in the guest: its output nowhere, and without the agent's port
(its fd 3). Holding the port, it kept the agent from opening it again: the host lost the
guest for as long as the command ran (a run's coins, two minutes)."""
ATTRACT_TIMEOUT_S = 420
"""Longest a boot may take to attract under emulation (TCG, a busy host): a first boot
makes the data partition, and a pulled one replays its journal."""
ESCAPES = re.compile(r"\x1b(\[[0-9;?!]*[A-Za-z]|\][^\x07]*\x07)")
"""A terminal's control sequences, as the console log holds them."""


class Card:
    """The guest: its monitor, its agent and its console, in RUN."""

    def __init__(self, run: Path) -> None:
        self.run = run
        self.console = run / "console.log"
        self.console_at = 0

    def monitor(self, command: str) -> None:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(str(self.run / "monitor.sock"))
            sock.sendall(command.encode() + b"\n")
            time.sleep(0.2)  # QEMU reads the line before the socket closes

    def status(self) -> str:
        """What QEMU says of the guest (``info status``: running, paused, …), or why it
        could not be asked."""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(5)
                sock.connect(str(self.run / "monitor.sock"))
                sock.sendall(b"info status\n")
                said = b""
                while said.count(b"(qemu)") < 2:  # the greeting's prompt, then the answer's
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    said += chunk
        except OSError as exc:
            return f"the monitor did not answer ({exc})"
        text = ESCAPES.sub("", said.decode(errors="replace"))
        return " ".join(line.strip() for line in text.splitlines() if "VM status" in line)

    def diagnose(self) -> str:
        """After a boot that never reached attract: QEMU alive or gone, its guest's status,
        and the console's last lines since the pull (the run's log keeps only this)."""
        pid = int((self.run / "qemu.pid").read_text().strip())
        alive = "running" if Path(f"/proc/{pid}").exists() else "gone"
        text = self.console.read_bytes()[self.console_at :].decode(errors="replace")
        lines = [ESCAPES.sub("", line).strip() for line in text.splitlines()]
        tail = [line[-160:] for line in lines if line][-12:]
        return (
            f"QEMU {pid} {alive}; {self.status() if alive == 'running' else ''}; "
            f"{len(text)} bytes on the console since the pull, the last: {tail}"
        )

    def quit(self, timeout_s: float = 60) -> None:
        """Stop the guest and wait for its QEMU to be gone (its locks on the disks too)."""
        pid = int((self.run / "qemu.pid").read_text().strip())
        self.monitor("quit")
        deadline = time.monotonic() + timeout_s
        while Path(f"/proc/{pid}").exists():
            if time.monotonic() > deadline:
                raise TimeoutError(f"QEMU {pid} did not stop in {timeout_s} s")
            time.sleep(0.2)

    def pull(self) -> str:
        """Cut the power (the guest starts again at once, as the power comes back);
        returns the console's last line before the cut: what the guest was doing."""
        seen = self.console.read_bytes()
        self.monitor("system_reset")
        text = seen[self.console_at :].decode(errors="replace")
        self.console_at = len(seen)
        # The console's last line with words in it (not a terminal's control sequence).
        lines = [ESCAPES.sub("", line).strip() for line in text.splitlines()]
        said = [line for line in lines if re.search(r"[A-Za-z]{3}", line)]
        # Nothing yet: the kernel is quiet, and the journal not yet started.
        return said[-1][-160:] if said else "(nothing on the console yet: before the journal)"

    def agent(self, timeout_s: float) -> Agent:
        return Agent(self.run, boot_timeout_s=timeout_s)

    def ask(self, command: str, timeout_s: float = 120) -> tuple[int, str]:
        agent = self.agent(timeout_s)
        try:
            return agent.run(command, timeout_s)
        finally:
            agent.close()

    def attract(self, since: float) -> float:
        """Wait for attract (the unit active, its first frame drawn); seconds since
        ``since`` (time.monotonic()), or raises TimeoutError."""
        deadline = since + ATTRACT_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                status, _ = self.ask(
                    "test -s /run/spit-cabinet/started && systemctl is-active -q spit-cabinet",
                    timeout_s=max(5.0, deadline - time.monotonic()),
                )
            except (OSError, TimeoutError):  # not up yet, or gone again
                time.sleep(2)
                continue
            if status == 0:
                return time.monotonic() - since
            time.sleep(2)
        raise TimeoutError(f"no attract in {ATTRACT_TIMEOUT_S} s")

    def books(self, what: str = "books") -> dict[str, Any]:
        """guest_books.py's ``books`` (what is committed) or ``look`` (that, the version
        running, the data mounted)."""
        status, out = self.ask(f"{GUEST_BOOKS} {what}")
        if status != 0:
            return {"error": out[-300:]}
        return dict(json.loads(out.splitlines()[-1]))
