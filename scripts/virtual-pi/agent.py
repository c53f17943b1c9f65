"""The host's side of the virtual Pi's agent: run a shell command in the guest.

    python scripts/virtual-pi/agent.py RUN_DIR 'command' [--timeout S]

The guest's agent (guest/virtual-pi-agent) reads one command a line from its virtio serial
port and answers with the output, then ``__done__ STATUS``. Prints the output and exits
with the command's status; waits for the guest to come up first (the socket answers only
once the agent runs).
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import time
from pathlib import Path

DONE = "__done__ "


class Agent:
    """One connection to the guest's agent."""

    def __init__(self, run_dir: Path, boot_timeout_s: float = 600) -> None:
        self.path = run_dir / "agent.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(self.path))
        self.buffer = b""
        # The agent may not run yet: ask until it answers, then skip the answers to the
        # asks it found queued up, up to a token of this connection's own.
        deadline = time.monotonic() + boot_timeout_s
        while True:
            try:
                self.run("true", timeout_s=5)
                break
            except TimeoutError:
                if time.monotonic() > deadline:
                    raise TimeoutError(
                        f"the guest's agent did not answer in {boot_timeout_s} s"
                    ) from None
        token = f"sync-{os.getpid()}-{time.monotonic_ns()}"
        self.sock.sendall(f"echo {token}\n".encode())
        while self._line(time.monotonic() + 30) != token:
            pass
        self._line(time.monotonic() + 30)  # its __done__

    def run(self, command: str, timeout_s: float = 300) -> tuple[int, str]:
        """Run ``command`` with bash in the guest; returns (status, output)."""
        if "\n" in command:
            raise ValueError("one command a line: join them with ';' or '&&'")
        self.sock.sendall(command.encode() + b"\n")
        deadline = time.monotonic() + timeout_s
        lines: list[str] = []
        while True:
            line = self._line(deadline)
            if line.startswith(DONE):
                return int(line[len(DONE) :]), "\n".join(lines)
            lines.append(line)

    def _line(self, deadline: float) -> str:
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from the guest's agent in time")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise ConnectionError("the guest's agent went away")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\n", 1)
        return raw.decode(errors="replace")

    def close(self) -> None:
        self.sock.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("command")
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args(argv)
    try:
        agent = Agent(args.run_dir)
        try:
            status, output = agent.run(args.command, args.timeout)
        finally:
            agent.close()
    except (OSError, TimeoutError) as exc:  # no guest, or it went away (a reboot)
        print(f"agent: {exc}", file=sys.stderr)
        return 124
    if output:
        print(output)
    return status


if __name__ == "__main__":
    sys.exit(main())
