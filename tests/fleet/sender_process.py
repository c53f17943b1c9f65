"""A cabinet's link as a process of its own, for the tests that kill it: the real sender
on the database given, with the tests' quick timings, until it is killed. It says
``sending`` once open, then a line at each change of the link
(:attr:`cabinet.link.connection.Connection.changed`), for the test's waits.

    python -m tests.fleet.sender_process DATABASE
"""

from __future__ import annotations

import sys
from pathlib import Path

from cabinet.link.sender import Sender
from tests.fleet.cabinets import fast


def main() -> None:
    sender = fast(Sender(Path(sys.argv[1]), version="test", synced=lambda: True))
    if not sender.open():
        raise SystemExit("in no fleet")
    sender.changed.append(lambda: print("changed", flush=True))
    print("sending", flush=True)
    while True:
        sender.step()


if __name__ == "__main__":
    main()
