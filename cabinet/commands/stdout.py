"""Writing to a stdout whose reader may go away (``spit-cabinet replay … | head``): stop
quietly with the status a shell shows for a tool that SIGPIPE stopped."""

from __future__ import annotations

import contextlib
import os
import sys

EXIT_STDOUT_CLOSED = 141
"""128 + SIGPIPE: the status a shell shows for a Unix tool that SIGPIPE stopped."""


def stdout_closed() -> int:
    """Stdout's reader went away: stop quietly, as Unix tools do. As the Python docs advise
    (``signal``, "Note on SIGPIPE"), point stdout at /dev/null, so that the interpreter's
    last flush at exit does not fail again and print a traceback."""
    with contextlib.suppress(OSError, ValueError):  # no real file behind stdout: nothing to do
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    return EXIT_STDOUT_CLOSED
