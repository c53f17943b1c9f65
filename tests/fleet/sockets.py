"""A process's own sockets, read from /proc: which of its file descriptors are sockets,
and what the kernel's tables say each one is (listening, connected, to where)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

LISTEN = "0A"
"""``st`` of a listening TCP socket in /proc/net/tcp."""


@dataclass(frozen=True, slots=True)
class Socket:
    table: str
    """tcp, tcp6, udp, udp6."""
    state: str
    local_port: int
    remote_port: int


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets process ``pid`` holds open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def inet_sockets(pid: int) -> list[Socket]:
    """Process ``pid``'s TCP and UDP sockets, IPv4 and IPv6."""
    mine = socket_inodes(pid)
    found = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            if fields[9] in mine:
                local, remote = fields[1], fields[2]
                found.append(
                    Socket(
                        table,
                        fields[3],
                        int(local.rsplit(":", 1)[1], 16),
                        int(remote.rsplit(":", 1)[1], 16),
                    )
                )
    return found


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").iterdir():
            children = (task / "children").read_text().split()
            todo.extend(int(c) for c in children)
    return out
